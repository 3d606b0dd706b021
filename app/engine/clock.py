"""Chess clocks: initial time plus increment, on a monotonic time source.

The clock knows nothing of rules; the host (match runner, game window) starts
the seat whose turn it is, stops it when the turn ends and asks whether a flag
fell. Ruling R4 (RBC): a seat whose time reaches zero during its turn loses at
that moment, and the increment is added only to a turn that ended in time.

>>> now = [0.0]
>>> clock = ChessClock(TimeControl(60, 5), time_source=lambda: now[0])
>>> clock.start(0); now[0] = 10.0
>>> clock.remaining(0)
50.0
>>> clock.end_turn()  # 10 s used, 5 s back
10.0
>>> clock.remaining(0)
55.0
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence


MAX_SECONDS = 365 * 24 * 3600.0
"""The longest initial time or increment a typed time control may give: longer ones are typing mistakes."""


@dataclass(frozen=True)
class TimeControl:
    """``initial`` seconds per seat plus ``increment`` seconds per completed turn. ``None`` initial: untimed."""

    initial: float | None = 900.0
    increment: float = 5.0

    @property
    def untimed(self) -> bool:
        return self.initial is None

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """Parse ``"900+5"`` (seconds), ``"15m+5"``, ``"5m"`` or ``"untimed"``.

        >>> TimeControl.parse("15m+5")
        TimeControl(initial=900.0, increment=5.0)
        """
        text = text.strip().lower()
        if text in ("untimed", "none", "-"):
            return cls(None, 0.0)
        match = re.fullmatch(r"(\d+(?:\.\d+)?)(m?)(?:\+(\d+(?:\.\d+)?))?", text)
        if not match:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise ValueError(f"bad time control {shown!r}: write seconds+increment, e.g. 900+5 or 15m+5")
        initial = float(match.group(1)) * (60 if match.group(2) else 1)
        increment = float(match.group(3) or 0)
        if initial <= 0:
            raise ValueError("the initial time must be positive")
        if initial > MAX_SECONDS or increment > MAX_SECONDS:
            raise ValueError(f"a time control may give at most a year ({MAX_SECONDS:.0f} seconds)")
        return cls(initial, increment)

    def to_json(self) -> dict[str, Any] | None:
        return None if self.initial is None else {"initial": self.initial, "increment": self.increment}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> "TimeControl":
        if data is None:
            return cls(None, 0.0)
        initial, increment = data.get("initial"), data.get("increment", 0)
        if isinstance(initial, bool) or isinstance(increment, bool):
            raise ValueError(f"bad clock {dict(data)!r}")
        if not isinstance(initial, (int, float)) or not isinstance(increment, (int, float)) or initial <= 0 \
                or increment < 0 or not math.isfinite(initial) or not math.isfinite(increment):
            raise ValueError(f"bad clock {dict(data)!r}")
        return cls(float(initial), float(increment))

    def __str__(self) -> str:
        if self.initial is None:
            return "untimed"
        return f"{self.initial:g}+{self.increment:g}"


def by_clock(seats: Iterable[int], owners: Sequence[int]) -> list[list[int]]:
    """``seats`` grouped by the clock they play on (``owners``, as :class:`ChessClock` takes it), in the order
    first met: a host shows one time per group, labelled with its seats.

    >>> by_clock([0, 1, 2, 3], (0, 0, 1, 1))
    [[0, 1], [2, 3]]
    >>> by_clock([1, 0], (0, 1))
    [[1], [0]]
    """
    groups: dict[int, list[int]] = {}
    for seat in seats:
        groups.setdefault(owners[seat], []).append(seat)
    return list(groups.values())


class ChessClock:
    """One clock per seat, or one per team when ``owners`` gives each seat's clock; at most one runs at a time.

    ``owners`` (ruling G5: a two-team kit game gives each team one clock, running while any of its members must
    act) names, for each seat, the clock it plays on: a game's :meth:`~app.engine.core.Game.teams`. Partners then
    share a clock: a seat's :meth:`remaining` is its team's, and passing the turn to a partner leaves the same
    clock running. Without ``owners`` each seat has a clock of its own.

    ``time_source`` defaults to :func:`time.monotonic`; tests and replays pass
    their own. Untimed clocks still measure time used (for records) but never flag.

    >>> now = [0.0]
    >>> team_clock = ChessClock(TimeControl(60.0, 0.0), 4, lambda: now[0], owners=(0, 0, 1, 1))
    >>> team_clock.start(0); now[0] = 5.0
    >>> team_clock.start(1); now[0] = 8.0  # the partner's turn: the same clock goes on
    >>> team_clock.remaining(0), team_clock.remaining(1), team_clock.remaining(2)
    (52.0, 52.0, 60.0)
    """

    def __init__(self, control: TimeControl, seats: int = 2,
                 time_source: Callable[[], float] = time.monotonic, owners: Sequence[int] | None = None) -> None:
        self.control = control
        self._now = time_source
        if owners is None:
            owners = range(seats)
        if len(owners) != seats or any(not isinstance(owner, int) or owner < 0 for owner in owners):
            raise ValueError(f"owners must give each of the {seats} seats a clock number, not {list(owners)!r}")
        self._owner = tuple(owners)
        clocks = max(self._owner, default=-1) + 1
        start = math.inf if control.initial is None else control.initial
        self._remaining = [start] * clocks
        self._used = [0.0] * clocks
        self._running: int | None = None
        self._since = 0.0
        self._turn_used = 0.0
        self._paused = False

    def now(self) -> float:
        """The clock's time source, read now."""
        return self._now()

    def shares_clock(self, seat: int, other: int) -> bool:
        """True when ``seat`` and ``other`` play on one clock (partners under team clocks, or the same seat)."""
        return self._owner[seat] == self._owner[other]

    @property
    def running(self) -> int | None:
        """The seat whose clock runs (``None`` when stopped or paused)."""
        return None if self._paused else self._running

    def start(self, seat: int) -> None:
        """Start ``seat``'s turn (stops any other clock without increment)."""
        if self._running is not None and self._running != seat:
            self._charge()
        self._running, self._since, self._turn_used, self._paused = seat, self._now(), 0.0, False

    def lap(self) -> float:
        """Charge the running seat up to now and return the seconds since the last lap (or start)."""
        if self._running is None or self._paused:
            return 0.0
        now = self._now()
        elapsed = max(0.0, now - self._since)
        self._since = now
        clock = self._owner[self._running]
        self._remaining[clock] -= elapsed
        self._used[clock] += elapsed
        self._turn_used += elapsed
        return elapsed

    _charge = lap

    def pause(self) -> None:
        """Stop time (e.g. while a hot-seat curtain is up); :meth:`resume` continues the same turn."""
        self._charge()
        self._paused = True

    def resume(self) -> None:
        if self._paused:
            self._paused, self._since = False, self._now()

    def end_turn(self, charge: bool = True) -> float:
        """End the running seat's turn; add the increment if it ended in time. Returns the turn's seconds.

        ``charge=False`` ends the turn at the last :meth:`lap` (the host already charged the seat up to the
        moment its action arrived; what the host does afterwards is not the seat's time).
        """
        if charge:
            self._charge()
        seat = self._running
        used = self._turn_used
        if seat is not None:
            self.add_increment(seat)
        self._running, self._turn_used, self._paused = None, 0.0, False
        return used

    def stop(self, charge: bool = True) -> float:
        """Stop the running clock without an increment (the turn was cut short). Returns the turn's seconds."""
        if charge:
            self._charge()
        used = self._turn_used
        self._running, self._turn_used, self._paused = None, 0.0, False
        return used

    def charge(self, seat: int, seconds: float) -> None:
        """Deduct ``seconds`` from ``seat``'s clock directly (used when replaying a record)."""
        self._remaining[self._owner[seat]] -= seconds
        self._used[self._owner[seat]] += seconds

    def balance(self, seat: int) -> float:
        """``seat``'s time as of its last charge (the running interval since the last :meth:`lap` left out)."""
        return self._remaining[self._owner[seat]]

    def set_balance(self, seat: int, seconds: float) -> None:
        """Put ``seat``'s time as of its last charge at ``seconds``: a host that charged one record entry in
        several laps sets the sum a replay will charge, so that both reach the same float exactly."""
        clock = self._owner[seat]
        self._used[clock] += self._remaining[clock] - seconds
        self._remaining[clock] = seconds

    def add_increment(self, seat: int) -> None:
        clock = self._owner[seat]
        if self._remaining[clock] > 0:
            self._remaining[clock] += self.control.increment

    def _running_on(self, seat: int) -> bool:
        return self._running is not None and not self._paused and self._owner[self._running] == self._owner[seat]

    def remaining(self, seat: int) -> float:
        """Seconds left on ``seat``'s clock right now (``inf`` when untimed)."""
        left = self._remaining[self._owner[seat]]
        if self._running_on(seat):
            left -= max(0.0, self._now() - self._since)
        return left

    def used(self, seat: int) -> float:
        used = self._used[self._owner[seat]]
        if self._running_on(seat):
            used += max(0.0, self._now() - self._since)
        return used

    def flagged(self, seat: int) -> bool:
        """True once ``seat`` has no time left."""
        return self.remaining(seat) <= 0
