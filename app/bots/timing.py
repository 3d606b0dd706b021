"""Time management shared by the built-in bots: how long one turn may take, and a deadline to check.

A bot is told only its own remaining time (``ActionRequest.seconds_left``; ``inf``
when the game is untimed). :class:`TurnClock` turns that into a budget per turn:
an even share of the remaining time over the turns the game is still expected to
last, plus most of the increment (estimated from how the clock moved between two
requests, since bots are not told the time control), never more than the level
allows and never more than a fixed fraction of what is left, so that a bot keeps
answering even when its clock is almost empty.

>>> clock = TurnClock(max_seconds=2.0)
>>> clock.budget(float("inf"))
2.0
>>> clock.budget(60.0)                        # 60 s over the 40 turns a game is expected to last
1.5
>>> clock.budget(0.3) < 0.1                  # nearly out of time: answer almost at once
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable


class Deadline:
    """A point in time (``time.perf_counter``) that work checks against.

    >>> deadline = Deadline(10.0)
    >>> deadline.expired(), deadline.left() > 9.0
    (False, True)
    >>> Deadline(0.0).expired()
    True
    """

    def __init__(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.start = clock()
        self.end = self.start + max(0.0, seconds)

    def left(self) -> float:
        """Seconds until the deadline (negative once it has passed)."""
        return self.end - self.clock()

    def expired(self) -> bool:
        return self.clock() >= self.end

    def elapsed(self) -> float:
        return self.clock() - self.start

    def fraction(self, share: float) -> "Deadline":
        """A deadline ``share`` of the way from now to this one (for a phase of the work)."""
        return Deadline(max(0.0, self.left()) * share, self.clock)


@dataclass
class TurnClock:
    """Per-turn budgets from the remaining time (see the module docstring).

    ``max_seconds``: the most one turn may take (the level's cap); ``expected_turns``:
    how many turns of this bot a game is assumed to last at first (the share shrinks
    as the game goes on, never below ``min_turns_left``); ``safety``: the largest
    fraction of the remaining time one turn may use; ``keep``: with an increment,
    the seconds kept in hand (the share is taken from what is above them), so that
    a long game is played on the increment rather than near an empty clock.

    >>> clock = TurnClock(max_seconds=4.0, keep=25.0, increment=1.0, turns=100)
    >>> round(clock.budget(25.0), 2), round(clock.budget(37.0), 2)   # on the increment; 12 s spare over 12 turns
    (0.8, 1.8)
    """

    max_seconds: float
    expected_turns: int = 40
    min_turns_left: int = 12
    safety: float = 0.2
    keep: float = 0.0
    turns: int = 0
    increment: float = 0.0
    _last_left: float | None = field(default=None, repr=False)
    _last_spent: float = field(default=0.0, repr=False)
    _increments: list[float] = field(default_factory=list, repr=False)

    def budget(self, seconds_left: float) -> float:
        """Seconds this turn may take, given the seat's remaining time."""
        if not math.isfinite(seconds_left):
            return self.max_seconds
        seconds_left = max(0.0, seconds_left)
        turns_left = max(self.min_turns_left, self.expected_turns - self.turns)
        spare = seconds_left - self.keep if self.increment > 0 else seconds_left
        share = max(0.0, spare) / turns_left + 0.8 * self.increment
        reserve = 0.05  # what answering, pickling and the pipe may cost after the deadline
        return max(0.0, min(self.max_seconds, share, self.safety * seconds_left, seconds_left - reserve))

    def turn_started(self, seconds_left: float) -> None:
        """Call at the start of each turn: counts turns and learns the increment from the clock's moves."""
        if self._last_left is not None and math.isfinite(seconds_left):
            # What the clock gained beyond what was left after the last answer: the increment (and noise).
            gained = seconds_left - (self._last_left - self._last_spent)
            if gained > 0.05:
                self._increments.append(gained)
                ordered = sorted(self._increments[-7:])
                self.increment = ordered[len(ordered) // 2]
        self.turns += 1

    def turn_ended(self, seconds_left_at_start: float, spent: float) -> None:
        """Call when the turn's last answer is given: ``spent`` seconds since its first request."""
        self._last_left = seconds_left_at_start if math.isfinite(seconds_left_at_start) else None
        self._last_spent = spent
