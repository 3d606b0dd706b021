"""A live game: the referee with its clock and its record, as a host drives it.

:class:`GameSession` charges each action's seconds to its seat's clock, ends the
game when a flag falls, keeps each seat's private notes and gives the record to
save (:meth:`GameSession.snapshot`, with the running clock of an unfinished game);
:meth:`GameSession.from_snapshot` (also :func:`resume`) continues a saved game at
the same turn, phase and remaining times.
"""

from __future__ import annotations

import datetime as _dt
import json
import time
from typing import Any, Callable

from .clock import ChessClock, TimeControl
from .core import Action, Adjudication, Game, Reason, Seat
from .record_format import (ANNOTATIONS, HYPOTHESES, MARKS, SWITCHES, Entry, GameRecord, LiveClock, NoteSnapshot, Notes,
                            PlayerInfo, RecordError, _check_note_value, notes_at)
from .timeline import _new_game, _play_entry


class _Keep:
    """The type of :data:`KEEP`."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = _Keep()
"""The default of :meth:`GameSession.set_notes`'s arguments: leave that kind of note as it is."""


HISTORY = "history"
"""The member of a seat's hypotheses note that holds its belief board's undo history (kept in the newest snapshot
only: see :meth:`GameSession.set_notes`)."""


def _json_copy(value: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as error:
        raise ValueError(f"{what} must be plain JSON data: {error}") from None


def _as_value_error(check: Callable[[str, Any, str], None], kind: str, value: Any, where: str) -> None:
    try:
        check(kind, value, where)
    except RecordError as error:
        raise ValueError(str(error)) from None


class GameSession:
    """A game with its clock and record: what a host (match runner, window) drives.

    :meth:`play` charges the acting seat's clock, applies the action and records
    it; when the turn passes, the finished turn earns its increment and the next
    seat's clock starts. :meth:`check_time` ends the game when the running seat's
    flag has fallen. :meth:`set_notes` keeps a seat's annotations and hypotheses
    in the record; :meth:`snapshot` is the record to save (with the running
    clock), and :meth:`from_snapshot` turns it back into a session.
    """

    def __init__(self, game: Game, control: TimeControl | None = None, players: list[PlayerInfo] | None = None,
                 seed: int | None = None, time_source: Callable[[], float] = time.monotonic,
                 start_clock: bool = True) -> None:
        self.game = game
        control = control or TimeControl(None, 0.0)
        self.clock = ChessClock(control, len(game.seat_names), time_source, owners=game.teams())
        self.record = GameRecord(
            variant=game.variant, options=game.options(),
            players=players or [PlayerInfo(name) for name in game.seat_names],
            seed=seed, clock=control,
            started=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            chance_seed=game.seed)  # the deal's own seed, kept apart from the host's seed and the options
        self._pending = 0.0
        self._deferred: tuple[Seat | None, int] | None = None
        self._deferred_before: float | None = None
        self._timed = not control.untimed
        self._mark = self.clock.now()
        self._paused_at: float | None = None
        # Time is held (paused, or not started yet): what a saved game reports as "paused".
        self._held = True
        self._notes = [Notes() for _ in game.seat_names]
        if game.outcome is not None:  # a starting position that is already decided
            self.record.result = game.outcome
        if start_clock:
            self._held = False
            if game.to_move is not None and self._timed:
                self.clock.start(game.to_move)

    @classmethod
    def from_snapshot(cls, record: GameRecord, *, time_source: Callable[[], float] = time.monotonic,
                      start_clock: bool | None = None) -> "GameSession":
        """A live session continuing ``record`` (an unfinished game) where it was saved.

        The game is at the same step and phase, both clocks show the same remaining
        times (the seconds the seat to move had already used, ``record.live``, are
        charged again and belong to its next action), and each seat's notes are as
        they were. The clock starts unless the game was saved paused
        (``start_clock=None``); pass True or False to decide.

        >>> from app.games.rbc.rules import ReconChess, Sense
        >>> now = [0.0]
        >>> session = GameSession(ReconChess(), TimeControl(60, 2), time_source=lambda: now[0])
        >>> session.play(0, Sense.parse("e7")); now[0] = 5.0
        >>> again = GameSession.from_snapshot(session.snapshot(), time_source=lambda: now[0])
        >>> again.game.phase, again.seconds_left(0), again.paused
        ('move', 55.0, False)
        """
        if record.result is not None:
            raise RecordError("this game is over: it can be replayed but not continued")
        game_type, game = _new_game(record)
        session = cls(game, record.clock, [PlayerInfo(p.name, p.kind, p.spec) for p in record.players],
                      record.seed, time_source, start_clock=False)
        flagged = None
        for index, entry in enumerate(record.entries):
            flagged = _play_entry(game_type, game, session.clock, index, entry, flagged)
        if game.is_over:
            raise RecordError("the record has no result, but its actions end the game")
        if flagged is not None:
            raise RecordError(f"{game.seat_names[flagged]}'s time ran out at the last action: the game is lost on "
                              f"time and cannot be continued")
        saved = record.copy()
        saved.live = None
        session.record = saved
        session._notes = [notes_at(record, seat) for seat in range(len(game.seat_names))]
        live = record.live or LiveClock()
        mover = game.to_move
        if session._timed and mover is not None:
            session.clock.charge(mover, live.spent)
        session._pending = live.spent
        now = session.clock.now()
        session._mark = now
        session._paused_at = now if live.paused and not session._timed else None
        if start_clock is None:
            start_clock = not live.paused
        if start_clock:
            session.start_clock()
            session.resume()
        return session

    def start_clock(self) -> None:
        """Start the clock of the seat to move (for hosts that created the session with start_clock=False)."""
        self._mark = self.clock.now()
        self._held = False
        if self._timed and self.game.to_move is not None and self.clock.running is None:
            self.clock.start(self.game.to_move)

    def pause(self) -> None:
        """Stop time (a hot-seat curtain is up, the window lost the game...)."""
        self._held = True
        if self._timed:
            if self.clock.running is not None:
                self._pending += self.clock.lap()  # the seconds before the pause belong to the next entry
            self.clock.pause()
        elif self._paused_at is None:
            now = self.clock.now()
            self._pending += now - self._mark
            self._paused_at = self._mark = now

    def resume(self) -> None:
        """Let time run again after :meth:`pause`."""
        self._held = False
        if self._timed:
            self.clock.resume()
        elif self._paused_at is not None:
            self._paused_at, self._mark = None, self.clock.now()

    @property
    def paused(self) -> bool:
        """True while time is stopped by :meth:`pause` or has not been started yet."""
        return self._held

    def seconds_left(self, seat: Seat) -> float:
        return self.clock.remaining(seat)

    def seconds_used(self, seat: Seat) -> float:
        """Seconds ``seat``'s clock (its team's, G5) has used so far: the clock's count in a timed game; in an
        untimed one, where no clock runs, the seconds recorded with its team's steps and those of the step being
        thought over now (what a solitaire shows as the time taken).

        >>> from app.games.rbc.rules import ReconChess, Sense
        >>> now = [0.0]
        >>> session = GameSession(ReconChess(), time_source=lambda: now[0])  # untimed
        >>> now[0] = 4.0
        >>> session.play(0, Sense.parse("e7"))  # 4 s on the sense; White thinks on over its move
        >>> now[0] = 6.5
        >>> session.seconds_used(0), session.seconds_used(1)
        (6.5, 0.0)
        """
        if self._timed:
            return self.clock.used(seat)
        teams = self.game.teams()
        team = teams[seat]
        used = 0.0 + sum(entry.elapsed for entry in self.record.entries
                         if entry.seat is not None and 0 <= entry.seat < len(teams) and teams[entry.seat] == team)
        mover = self.game.to_move
        if mover is not None and teams[mover] == team and self.game.outcome is None:
            used += self._pending
            if self._paused_at is None:
                used += max(0.0, self.clock.now() - self._mark)
        return used

    # -- a seat's private notes ------------------------------------------------------------
    def notes(self, seat: Seat) -> Notes:
        """``seat``'s current annotations, hypotheses, switches and marks."""
        return self._notes[seat]

    def set_notes(self, seat: Seat, *, annotations: list[Any] | _Keep = KEEP,
                  hypotheses: dict[str, Any] | None | _Keep = KEEP,
                  switches: dict[str, Any] | None | _Keep = KEEP,
                  marks: dict[str, Any] | None | _Keep = KEEP) -> bool:
        """Record ``seat``'s notes as they are now; returns True when they changed.

        ``annotations`` (a list), ``hypotheses`` (an object, or ``None`` for
        none), ``switches`` and ``marks`` (each an object, or ``None``) are opaque JSON; each is copied.
        Leave one out (or pass ``KEEP``) to keep it as it is. A snapshot is
        recorded only when something changed; several changes between two
        actions make one snapshot. Raises ``ValueError`` for data that is not JSON. The undo history in the
        hypotheses (their ``history`` member) is kept in the newest snapshot only.

        >>> from app.games.minit.rules import MinitChess
        >>> session = GameSession(MinitChess())
        >>> session.set_notes(0, annotations=[{"circle": "c3"}]), session.set_notes(0, annotations=[{"circle": "c3"}])
        (True, False)
        >>> session.record.notes
        [NoteSnapshot(seat=0, step=0, changes={'annotations': [{'circle': 'c3'}]})]
        """
        if not isinstance(seat, int) or not 0 <= seat < len(self._notes):
            raise ValueError(f"there is no seat {seat!r}")
        current = self._notes[seat]
        changes: dict[str, Any] = {}
        if not isinstance(annotations, _Keep):
            value = _json_copy(annotations, "annotations")
            _as_value_error(_check_note_value, ANNOTATIONS, value, "annotations")
            if value != current.annotations:
                changes[ANNOTATIONS] = value
        if not isinstance(hypotheses, _Keep):
            value = _json_copy(hypotheses, "hypotheses")
            _as_value_error(_check_note_value, HYPOTHESES, value, "hypotheses")
            if value != current.hypotheses:
                changes[HYPOTHESES] = value
        if not isinstance(switches, _Keep):
            value = _json_copy(switches, "switches")
            _as_value_error(_check_note_value, SWITCHES, value, "switches")
            if value != current.switches:
                changes[SWITCHES] = value
        if not isinstance(marks, _Keep):
            value = _json_copy(marks, "marks")
            _as_value_error(_check_note_value, MARKS, value, "marks")
            if value != current.marks:
                changes[MARKS] = value
        if not changes:
            return False
        self._notes[seat] = current.changed(changes)
        if isinstance(changes.get(HYPOTHESES), dict) and HISTORY in changes[HYPOTHESES]:
            self._forget_old_histories(seat)
        step = len(self.record.entries)
        for snapshot in reversed(self.record.notes):
            if snapshot.step != step:
                break
            if snapshot.seat == seat:  # one snapshot per seat and step: the latest state wins
                snapshot.changes.update(changes)
                return True
        self.record.notes.append(NoteSnapshot(seat, step, changes))
        return True

    def _forget_old_histories(self, seat: Seat) -> None:
        """A belief board's undo history (its hypotheses' ``history``) is working state, needed only to go on
        from the newest notes: earlier snapshots of ``seat`` drop theirs, so the record grows with the changes,
        not with the changes times the history."""
        for snapshot in self.record.notes:
            value = snapshot.changes.get(HYPOTHESES) if snapshot.seat == seat else None
            if isinstance(value, dict) and HISTORY in value:
                snapshot.changes[HYPOTHESES] = {key: item for key, item in value.items() if key != HISTORY}

    # -- saving --------------------------------------------------------------------------------
    def snapshot(self) -> GameRecord:
        """The record to save now: a copy, with the running clock's state if the game is not over.

        :meth:`from_snapshot` continues from it at the same step with the same remaining times.
        """
        record = self.record.copy()
        if self.game.is_over:
            record.live = None
            return record
        if self._timed:
            if self.clock.running is not None and self._deferred is None:
                # Charging up to now changes no remaining time: the seconds move into the next entry.
                self._pending += self.clock.lap()
            spent = self._pending
        else:
            spent = self._pending
            if self._paused_at is None:
                spent += max(0.0, self.clock.now() - self._mark)
        record.live = LiveClock(spent, self._held)
        return record

    def play(self, seat: Seat, action: Action, defer: bool = False) -> None:
        """Apply ``action`` for ``seat``; raises IllegalAction (nothing recorded) or ends the game on time.

        A game that is already lost on time (the flag fell before the action
        arrived) is ended by this call instead: check ``game.outcome`` after it.
        With ``defer=True`` the mover's clock keeps running after the action until
        :meth:`finish_step` (a bot that is told its move result on its own time,
        as reconchess does).
        """
        game = self.game
        if not self._timed:
            # Untimed: no flags and no increments; record the seconds since the last step.
            now = self.clock.now()
            if self._paused_at is None:
                self._pending += now - self._mark
            self._mark = now
            game.play(seat, action)  # an illegal action keeps its seconds in _pending for the next entry
            self.record.entries.append(Entry(seat, action, self._pending))
            self._pending = 0.0
            if game.outcome is not None:
                self.record.result = game.outcome
            return
        clock = self.clock
        mover = game.to_move
        # The mover's time before this entry, when nothing of the entry has been charged yet: what a replay
        # starts the entry from (see _close_deferred_step).
        before = clock.balance(mover) if mover is not None and self._pending == 0 else None
        if mover is not None and clock.running == mover:
            self._pending += clock.lap()
            if self._timed and clock.remaining(mover) <= 0:
                self._timeout(mover)
                return
        ply = game.ply
        game.play(seat, action)
        self.record.entries.append(Entry(seat, action, self._pending))
        self._pending = 0.0
        if game.outcome is not None or game.to_move != mover or game.ply != ply:
            if defer and game.outcome is None:
                self._deferred = (mover, ply)
                self._deferred_before = before
            else:
                self._after_step(mover, ply)

    def finish_step(self) -> None:
        """End a step played with ``defer=True``: charge the mover up to now, then pass the turn.

        A mover whose time ran out meanwhile loses on time (ruling R4).
        """
        self._close_deferred_step(None)

    def _close_deferred_step(self, ending: Adjudication | None) -> None:
        """Charge the mover of a deferred step up to now (its move's entry), then end its turn.

        The seconds the mover spent hearing its result are part of its move, so they go into that entry: a
        replay charges them to the same clock. If they used up its time, the game is lost on time there;
        ``ending`` (the host's adjudication, if any) is recorded when it says exactly that, to keep its detail.
        """
        deferred, self._deferred = self._deferred, None
        if deferred is None or self.game.is_over:
            return
        mover, ply = deferred
        if self._timed and mover is not None and self.clock.running == mover:
            last = self.record.entries[-1]
            last.elapsed += self.clock.lap()
            if self._deferred_before is not None:
                # The clock was charged in two laps, a replay charges their sum once: the floats could differ
                # in the last bit, so the clock takes the replay's figure.
                self.clock.set_balance(mover, self._deferred_before - last.elapsed)
            if self.clock.remaining(mover) <= 0:
                timeout = Adjudication(mover, Reason.TIMEOUT)
                if ending is not None and (ending.seat, ending.reason) == (mover, Reason.TIMEOUT):
                    timeout = ending
                self.game.adjudicate(timeout)
                self.record.entries.append(Entry(mover, timeout, 0.0))
        self._after_step(mover, ply)

    def check_time(self) -> bool:
        """End the game if the running seat has no time left; True when that happened."""
        mover = self.game.to_move
        if mover is not None and self.clock.running == mover and self.clock.remaining(mover) <= 0:
            self._pending += self.clock.lap()
            self._timeout(mover)
            return True
        return False

    def _timeout(self, seat: Seat) -> None:
        self.adjudicate(Adjudication(seat, Reason.TIMEOUT))

    def adjudicate(self, adjudication: Adjudication) -> None:
        """End the game from outside (time, failing bot, abort) and record why."""
        game = self.game
        if game.is_over:
            return
        # A step still deferred (its mover being told its result) is finished first, so that the mover's last
        # seconds are charged to the mover and its turn ends as a replay will end it.
        self._close_deferred_step(adjudication)
        if game.is_over:
            return
        mover = game.to_move
        if not self._timed:
            now = self.clock.now()
            if self._paused_at is None:
                self._pending += now - self._mark
            self._mark = now
        elif mover is not None and self.clock.running == mover:
            self._pending += self.clock.lap()
        ply = game.ply
        game.adjudicate(adjudication)
        self.record.entries.append(Entry(adjudication.seat, adjudication, self._pending))
        self._pending = 0.0
        self._after_step(mover, ply)

    def _after_step(self, mover: Seat | None, ply: int) -> None:
        game, clock = self.game, self.clock
        # The seat was charged up to the moment its action arrived (the recorded elapsed time); the referee's
        # own work afterwards is nobody's time, so the clocks stop without charging again.
        if game.is_over:
            clock.stop(charge=False)  # a turn cut short by the end of the game earns no increment
            self.record.result = game.outcome
            return
        if game.ply != ply:
            clock.end_turn(charge=False)  # the turn is over: increment if it ended in time
        else:
            clock.stop(charge=False)  # the same turn goes on (e.g. a draw offer waits for its answer)
        if game.to_move is not None:
            clock.start(game.to_move)


def resume(record: GameRecord, *, time_source: Callable[[], float] = time.monotonic,
           start_clock: bool | None = None) -> GameSession:
    """A live session continuing ``record`` (an unfinished game) where it was saved: see
    :meth:`GameSession.from_snapshot`."""
    return GameSession.from_snapshot(record, time_source=time_source, start_clock=start_clock)
