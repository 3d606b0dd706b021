"""A clock for bots bounded by time: the tests decide how much time each look at it takes, so what a bot does
depends on its inputs only, never on how busy the machine is."""

from __future__ import annotations


class FakeClock:
    """Time that moves on by ``step`` seconds each time it is read (``reads`` counts the looks).

    >>> clock = FakeClock(0.5, start=0.0)
    >>> clock(), clock(), clock.reads
    (0.5, 1.0, 2)
    """

    def __init__(self, step: float, start: float = 1000.0) -> None:
        self.t = start
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.t += self.step
        self.reads += 1
        return self.t
