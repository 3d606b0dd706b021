"""Deal numbers: every deal of a solitaire has a number from 1 to :data:`DEALS`, and the same number is the same
card order on every machine and every later version of Sightline.

The order comes from a small generator written out here, never from :mod:`random` (whose algorithms may change
between Python versions): **SplitMix64** (Steele, Lea and Flood, 2014), seeded with ``deal * 256 + stream``, feeds
a **Fisher-Yates** shuffle of the game's cards in their fixed order. Going from the last place down to the second,
place ``i`` swaps with place ``j``, drawn uniformly from ``0 .. i`` by rejection (a 64-bit draw at or above the
largest multiple of ``i + 1`` below 2**64 is thrown away, so no place is favoured). The first card of the result is
the top of the pile. ``stream`` tells apart several decks of one deal (Neighbour Chess shuffles two: stream 0 and
stream 1).

>>> splitmix64_outputs(1, 3)  # the generator itself, pinned
[10451216379200822465, 13757245211066428519, 17911839290282890590]
>>> deal_order("ABCDEFGH", 1)
['D', 'E', 'A', 'B', 'C', 'G', 'F', 'H']
>>> deal_order("ABCDEFGH", 1) == deal_order("ABCDEFGH", 1) != deal_order("ABCDEFGH", 2)
True
>>> check_deal("12"), check_deal(1_000_000)
(12, 1000000)
>>> check_deal(0)
Traceback (most recent call last):
...
ValueError: a deal number is a whole number from 1 to 1000000, not 0
"""

from __future__ import annotations

import random
from typing import Any, Sequence, TypeVar

__all__ = ["DEALS", "SplitMix64", "check_deal", "deal_order", "random_deal", "splitmix64_outputs"]

DEALS = 1_000_000
"""Deals are numbered 1 to this."""

_MASK = (1 << 64) - 1

T = TypeVar("T")


class SplitMix64:
    """The 64-bit generator every deal is drawn from (its state is one 64-bit whole number)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A whole number from 0 below ``bound``, every one equally likely (rejection sampling)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = ((1 << 64) // bound) * bound
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def splitmix64_outputs(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of :class:`SplitMix64` from ``seed``."""
    generator = SplitMix64(seed)
    return [generator.next() for _ in range(count)]


def check_deal(deal: Any) -> int:
    """``deal`` as a deal number (a whole number, or its digits as text); ``ValueError`` with a sentence if it is
    none."""
    text = str(deal).strip()
    number: int | None = None
    if isinstance(deal, int) and not isinstance(deal, bool):
        number = deal
    elif isinstance(deal, str) and text.isdigit() and len(text) <= 12:
        number = int(text)
    if number is None or not 1 <= number <= DEALS:
        raise ValueError(f"a deal number is a whole number from 1 to {DEALS}, not {text[:20]}")
    return number


def deal_order(cards: Sequence[T], deal: int, stream: int = 0) -> list[T]:
    """``cards`` (in the game's fixed order) shuffled for deal number ``deal``; the first is the top card."""
    number = check_deal(deal)
    if not 0 <= stream < 256:
        raise ValueError("a deal has streams 0 to 255")
    generator = SplitMix64(number * 256 + stream)
    order = list(cards)
    for place in range(len(order) - 1, 0, -1):
        other = generator.below(place + 1)
        order[place], order[other] = order[other], order[place]
    return order


def random_deal(rng: random.Random) -> int:
    """A deal number drawn from a game's own generator (a new game that was not given one)."""
    return rng.randrange(1, DEALS + 1)
