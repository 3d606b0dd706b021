"""A game's clocks in the window: the tick that moves them, the saves a running clock asks for, the low-time
warning and the lines the seat at the screen may see.

:class:`GameClocks` belongs to a :class:`~app.ui.game_controller.GameController` and tells it by signal what a
tick of its timer brought: a clock ran out (the session has ended the game), a warning to be heard, the time
shown moved on, a save is due.
"""

from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal

from app.engine.clock import by_clock
from app.engine.core import Seat
from app.engine.record import GameSession

LOW_TIME = 30.0  # seconds: below this a clock is shown as running low
LOW_TIME_MARKS = (10.0, LOW_TIME)  # the person at the screen hears "low_time" once under each, on their turn
CLOCK_SAVE_SECONDS = 1.0  # while a clock runs the game is saved this often: a crash loses at most this much time
TICK_MS = 100


class GameClocks(QObject):
    """The session's clocks as the window runs and shows them.

    ``listener`` says which seat's person hears sounds now (at the screen, no curtain up), or None. Signals:
    ``timeUp``, a clock ran out and the session adjudicated it; ``lowTime``, the listener, on turn, is running
    low; ``moved``, only the time shown moved on; ``saveDue``, see :meth:`save_due`.
    """

    timeUp = Signal()
    lowTime = Signal()
    moved = Signal()
    saveDue = Signal()

    def __init__(self, session: GameSession, listener: Callable[[], Seat | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.listener = listener
        self.ticks = 0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.tick)
        self._saved_at = float("-inf")  # the session clock's time of the last autosave
        self._low_time_told: set[tuple[Seat, float]] = set()

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def tick(self) -> None:
        """The timer's tick (every :data:`TICK_MS` ms while the game goes on)."""
        game = self.session.game
        if game.outcome is not None:
            return
        if self.session.check_time():
            self.timeUp.emit()
            return
        seat = game.to_move
        if seat is not None and seat == self.listener() and self.low_time(seat):
            self.lowTime.emit()
        self.moved.emit()  # a tick moves the clocks, nothing else: no need to rebuild the board
        self.ticks += 1
        if self.save_due():
            self.saveDue.emit()  # a crash (even a kill) loses at most that much clock time

    def saved(self) -> None:
        """The game was just saved, with the clocks as they stand."""
        self._saved_at = self.session.clock.now()

    def save_due(self) -> bool:
        """Whether a running clock has moved on by :data:`CLOCK_SAVE_SECONDS` since the last save (a crash, even a
        kill, then loses at most that much clock time)."""
        return not self.session.paused and self.session.clock.now() - self._saved_at >= CLOCK_SAVE_SECONDS

    def low_time(self, seat: Seat) -> bool:
        """Whether the person of ``seat`` (at the screen, on turn) is to hear "low_time" now: once under 30 s left,
        and again under 10 s. The lowest mark passed counts: a clock found under 10 s warns once, not twice."""
        left = self.session.seconds_left(seat)
        for mark in LOW_TIME_MARKS:
            if left < mark:
                if (seat, mark) in self._low_time_told:
                    return False
                self._low_time_told.update((seat, higher) for higher in LOW_TIME_MARKS if higher >= mark)
                return True
        return False

    def lines(self, seats: Sequence[Seat], names: Sequence[str]) -> list[tuple[str, str, bool]]:
        """(label, time, low) lines for the clocks of ``seats``; partners share one clock (G5), one line for them.

        ``low`` marks a running-down clock under :data:`LOW_TIME` seconds (the window warns in red). An untimed
        clock shows ``--:--``, except a solitaire's, which shows the time taken so far.
        """
        lines = []
        solitaire = len(self.session.game.teams()) == 1
        for group in by_clock(seats, self.session.game.teams()):
            left = self.session.seconds_left(group[0])
            timed = left != float("inf")
            if timed:
                text = format_seconds(left)
            elif solitaire:  # G5: a solitaire is untimed, and shows the time it has taken
                text = format_seconds(self.session.seconds_used(group[0]))
            else:
                text = "--:--"
            lines.append((" & ".join(names[seat] for seat in group), text, timed and left < LOW_TIME))
        return lines


def format_seconds(seconds: float) -> str:
    """A clock's time: ``m:ss``, with tenths under ten seconds (``0:09.4``)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{int(seconds // 60)}:{seconds % 60:04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
