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
from typing import Any, Callable, Mapping


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


class ChessClock:
    """One clock per seat; at most one runs at a time.

    ``time_source`` defaults to :func:`time.monotonic`; tests and replays pass
    their own. Untimed clocks still measure time used (for records) but never flag.
    """

    def __init__(self, control: TimeControl, seats: int = 2,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        self.control = control
        self._now = time_source
        start = math.inf if control.initial is None else control.initial
        self._remaining = [start] * seats
        self._used = [0.0] * seats
        self._running: int | None = None
        self._since = 0.0
        self._turn_used = 0.0
        self._paused = False

    def now(self) -> float:
        """The clock's time source, read now."""
        return self._now()

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
        self._remaining[self._running] -= elapsed
        self._used[self._running] += elapsed
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
        if seat is not None and self._remaining[seat] > 0:
            self._remaining[seat] += self.control.increment
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
        """Deduct ``seconds`` from ``seat`` directly (used when replaying a record)."""
        self._remaining[seat] -= seconds
        self._used[seat] += seconds

    def balance(self, seat: int) -> float:
        """``seat``'s time as of its last charge (the running interval since the last :meth:`lap` left out)."""
        return self._remaining[seat]

    def set_balance(self, seat: int, seconds: float) -> None:
        """Put ``seat``'s time as of its last charge at ``seconds``: a host that charged one record entry in
        several laps sets the sum a replay will charge, so that both reach the same float exactly."""
        self._used[seat] += self._remaining[seat] - seconds
        self._remaining[seat] = seconds

    def add_increment(self, seat: int) -> None:
        if self._remaining[seat] > 0:
            self._remaining[seat] += self.control.increment

    def remaining(self, seat: int) -> float:
        """Seconds left for ``seat`` right now (``inf`` when untimed)."""
        left = self._remaining[seat]
        if seat == self._running and not self._paused:
            left -= max(0.0, self._now() - self._since)
        return left

    def used(self, seat: int) -> float:
        used = self._used[seat]
        if seat == self._running and not self._paused:
            used += max(0.0, self._now() - self._since)
        return used

    def flagged(self, seat: int) -> bool:
        """True once ``seat`` has no time left."""
        return self.remaining(seat) <= 0
