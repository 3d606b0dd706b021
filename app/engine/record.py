"""Game records: a versioned JSON file from which every game can be replayed.

A record holds the game and its options, the seats and their players, the
random seed, the clock, every action with the time its seat spent on it, any
adjudication (flag fall, bot failure) and the result. :func:`load_record`
checks the file, replays it through the referee and insists that the replay
reaches the recorded result. The schema is documented in ``docs/record-format.md``.

>>> from app.engine.rbc import ReconChess, Sense, MoveAction
>>> session = GameSession(ReconChess(), TimeControl(None, 0))
>>> session.play(0, Sense.parse("d7"))
>>> session.play(0, MoveAction.parse("e2e4"))
>>> replayed = replay(GameRecord.from_json(session.record.to_json()))
>>> replayed.game.board.fen() == session.game.board.fen()
True
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from .clock import ChessClock, TimeControl
from .core import Action, Adjudication, Game, IllegalAction, Outcome, Reason, Resign, Seat

FORMAT = "sightline-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the problem."""


@dataclass
class PlayerInfo:
    """Who sits in a seat: ``kind`` is ``"human"`` or ``"bot"``; ``spec`` is how a bot was named."""

    name: str
    kind: str = "human"
    spec: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.spec is not None:
            data["spec"] = self.spec
        return data


class Entry:
    """One recorded step: an action or an adjudication, with the seconds its seat used on it.

    ``action`` is the step as JSON data. A live game stores the action object
    and converts it only when the record is read or written, which keeps long
    bot matches fast.
    """

    __slots__ = ("seat", "elapsed", "_data", "_step")

    def __init__(self, seat: Seat, action: "dict[str, Any] | Action | Adjudication", elapsed: float = 0.0) -> None:
        self.seat = seat
        self.elapsed = elapsed
        if isinstance(action, dict):
            self._data: dict[str, Any] | None = action
            self._step: Action | Adjudication | None = None
        else:
            self._data, self._step = None, action

    @property
    def action(self) -> dict[str, Any]:
        if self._data is None:
            assert self._step is not None
            self._data = self._step.to_json()
        return self._data

    def to_json(self) -> dict[str, Any]:
        # Full precision: a rounded time could decide an increment differently on replay.
        return {"seat": self.seat, "action": dict(self.action), "elapsed": self.elapsed}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (self.seat, self.action, self.elapsed) == (
            other.seat, other.action, other.elapsed)

    def __repr__(self) -> str:
        return f"Entry({self.seat}, {self.action!r}, {self.elapsed})"


@dataclass
class GameRecord:
    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    players: list[PlayerInfo] = field(default_factory=list)
    seed: int | None = None
    clock: TimeControl = field(default_factory=lambda: TimeControl(None, 0.0))
    entries: list[Entry] = field(default_factory=list)
    result: Outcome | None = None
    started: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "options": self.options,
            "players": [player.to_json() for player in self.players],
            "seed": self.seed,
            "clock": self.clock.to_json(),
            "started": self.started,
            "actions": [entry.to_json() for entry in self.entries],
            "result": None if self.result is None else self.result.to_json(),
        }
        if self.extra:
            data["extra"] = self.extra
        return data

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """Check the structure of record data (not yet the moves: see :func:`replay`)."""
        if not isinstance(data, dict):
            raise RecordError("not a Sightline record: the file does not hold a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Sightline record: 'format' is {data.get('format')!r}, not {FORMAT!r}")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RecordError(f"bad record version {version!r}")
        if version > VERSION:
            raise RecordError(f"this record was written by a newer Sightline (format version {version}; "
                              f"this version reads up to {VERSION})")
        from .variants import VARIANTS
        variant = data.get("variant")
        if variant not in VARIANTS:
            raise RecordError(f"unknown game {variant!r} (known: {', '.join(sorted(VARIANTS))})")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        seats = len(VARIANTS[variant].seat_names)
        players_data = data.get("players")
        if not isinstance(players_data, list) or len(players_data) != seats:
            raise RecordError(f"'players' must list {seats} players")
        players = []
        for index, player in enumerate(players_data):
            if not isinstance(player, dict) or not isinstance(player.get("name"), str) \
                    or player.get("kind") not in ("human", "bot"):
                raise RecordError(f"player {index}: needs a 'name' and a 'kind' of human or bot")
            spec = player.get("spec")
            if spec is not None and not isinstance(spec, str):
                raise RecordError(f"player {index}: 'spec' must be a string")
            players.append(PlayerInfo(player["name"], player["kind"], spec))
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError("'seed' must be an integer or null")
        try:
            clock = TimeControl.from_json(data.get("clock"))
        except (ValueError, AttributeError) as error:
            raise RecordError(f"'clock': {error}") from None
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list")
        entries = []
        for index, entry in enumerate(actions):
            if not isinstance(entry, dict):
                raise RecordError(f"action {index + 1}: not an object")
            seat, action, elapsed = entry.get("seat"), entry.get("action"), entry.get("elapsed", 0.0)
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise RecordError(f"action {index + 1}: bad seat {seat!r}")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise RecordError(f"action {index + 1}: needs an 'action' object with a 'type'")
            if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool) or not math.isfinite(elapsed) \
                    or elapsed < 0:
                raise RecordError(f"action {index + 1}: bad elapsed time {elapsed!r}")
            entries.append(Entry(seat, action, float(elapsed)))
        result = data.get("result")
        outcome = None
        if result is not None:
            try:
                outcome = Outcome.from_json(result)
            except (KeyError, ValueError, TypeError, AttributeError):
                raise RecordError(f"bad result {result!r}") from None
        started = data.get("started", "")
        extra = data.get("extra", {})
        if not isinstance(started, str) or not isinstance(extra, dict):
            raise RecordError("'started' must be a string and 'extra' an object")
        return cls(variant, options, players, seed, clock, entries, outcome, started, extra)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash mid-write never leaves a broken file."""
        atomic_write_text(Path(path), json.dumps(self.to_json(), indent=1))


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, flush it to disk, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def parse_action(game_type: type[Game], data: Mapping[str, Any]) -> Action | Adjudication:
    kind = data.get("type")
    if kind == "resign":
        return Resign()
    if kind == "adjudication":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(game_type.seat_names):
            raise ValueError(f"bad adjudication seat {seat!r}")
        try:
            return Adjudication(seat, Reason(data["reason"]), str(data.get("detail", "")))
        except (KeyError, ValueError, TypeError):
            raise ValueError(f"bad adjudication {dict(data)!r}") from None
    return game_type.action_from_json(data)


class GameSession:
    """A game with its clock and record: what a host (match runner, window) drives.

    :meth:`play` charges the acting seat's clock, applies the action and records
    it; when the turn passes, the finished turn earns its increment and the next
    seat's clock starts. :meth:`check_time` ends the game when the running seat's
    flag has fallen.
    """

    def __init__(self, game: Game, control: TimeControl | None = None, players: list[PlayerInfo] | None = None,
                 seed: int | None = None, time_source: Callable[[], float] = time.monotonic,
                 start_clock: bool = True) -> None:
        self.game = game
        control = control or TimeControl(None, 0.0)
        self.clock = ChessClock(control, len(game.seat_names), time_source)
        self.record = GameRecord(
            variant=game.variant, options=game.options(),
            players=players or [PlayerInfo(name) for name in game.seat_names],
            seed=seed, clock=control,
            started=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
        self._pending = 0.0
        self._deferred: tuple[Seat | None, int] | None = None
        self._timed = not control.untimed
        self._mark = self.clock.now()
        self._paused_at: float | None = None
        if game.outcome is not None:  # a starting position that is already decided
            self.record.result = game.outcome
        if start_clock and game.to_move is not None and self._timed:
            self.clock.start(game.to_move)

    def start_clock(self) -> None:
        """Start the clock of the seat to move (for hosts that created the session with start_clock=False)."""
        self._mark = self.clock.now()
        if self._timed and self.game.to_move is not None and self.clock.running is None:
            self.clock.start(self.game.to_move)

    def pause(self) -> None:
        """Stop time (a hot-seat curtain is up, the window lost the game...)."""
        if self._timed:
            if self.clock.running is not None:
                self._pending += self.clock.lap()  # the seconds before the pause belong to the next entry
            self.clock.pause()
        elif self._paused_at is None:
            now = self.clock.now()
            self._pending += now - self._mark
            self._paused_at = self._mark = now

    def resume(self) -> None:
        if self._timed:
            self.clock.resume()
        elif self._paused_at is not None:
            self._paused_at, self._mark = None, self.clock.now()

    def seconds_left(self, seat: Seat) -> float:
        return self.clock.remaining(seat)

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
            else:
                self._after_step(mover, ply)

    def finish_step(self) -> None:
        """End a step played with ``defer=True``: charge the mover up to now, then pass the turn.

        A mover whose time ran out meanwhile loses on time (ruling R4).
        """
        deferred, self._deferred = self._deferred, None
        if deferred is None or self.game.is_over:
            return
        mover, ply = deferred
        if self._timed and mover is not None and self.clock.running == mover:
            extra = self.clock.lap()
            last = self.record.entries[-1]
            last.elapsed += extra
            if self.clock.remaining(mover) <= 0:
                self.game.adjudicate(Adjudication(mover, Reason.TIMEOUT))
                self.record.entries.append(Entry(mover, Adjudication(mover, Reason.TIMEOUT), 0.0))
                self._after_step(mover, ply)
                return
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


@dataclass
class Replay:
    """A record replayed: the game at its final state, and each seat's clock at the end."""

    game: Game
    record: GameRecord
    remaining: list[float]


def replay(record: GameRecord, upto: int | None = None) -> Replay:
    """Play ``record`` (its first ``upto`` entries) through a fresh referee.

    Raises :class:`RecordError` naming the first entry that does not replay,
    or a result that differs from the recorded one.
    """
    from .variants import VARIANTS
    if record.variant not in VARIANTS:
        raise RecordError(f"unknown game {record.variant!r} (known: {', '.join(sorted(VARIANTS))})")
    game_type = VARIANTS[record.variant]
    try:
        game = game_type.from_options(record.options)
    except (ValueError, TypeError) as error:
        raise RecordError(f"bad options for {record.variant}: {error}") from None
    clock = ChessClock(record.clock, len(game.seat_names), time_source=lambda: 0.0)
    entries = record.entries if upto is None else record.entries[:upto]
    for index, entry in enumerate(entries):
        try:
            step = parse_action(game_type, entry.action)
        except (ValueError, TypeError) as error:
            raise RecordError(f"action {index + 1}: {error}") from None
        mover, ply = game.to_move, game.ply
        # The elapsed time ran on the clock of the seat to move, whoever acted (a resignation may come from the
        # other seat).
        clock.charge(entry.seat if mover is None else mover, entry.elapsed)
        try:
            if isinstance(step, Adjudication):
                game.adjudicate(step)
            else:
                game.play(entry.seat, step)
        except IllegalAction as error:
            raise RecordError(f"action {index + 1} ({entry.action.get('type')} by "
                              f"{game.seat_names[entry.seat]}) does not replay: {error}") from None
        if not game.is_over and game.ply != ply and mover is not None:
            clock.add_increment(mover)
    if upto is None and record.result is not None:
        if game.outcome is None or (game.outcome.winner, game.outcome.reason) != (record.result.winner,
                                                                                  record.result.reason):
            def said(outcome: Outcome | None) -> str:
                if outcome is None:
                    return "no result"
                who = "draw" if outcome.winner is None else f"{game.seat_names[outcome.winner]} wins"
                return f"{who}, {outcome.reason.value}"
            raise RecordError(f"the recorded result ({said(record.result)}) does not match the replay "
                              f"({said(game.outcome)})")
    return Replay(game, record, [clock.remaining(seat) for seat in range(len(game.seat_names))])


def load_record(path: str | os.PathLike[str]) -> Replay:
    """Read, check and replay a record file. Every problem raises :class:`RecordError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: "
                          f"{error.msg}); the file may be truncated or corrupt") from None
    except RecursionError:
        raise RecordError(f"{path} is nested too deeply to be a record") from None
    return replay(GameRecord.from_json(data))
