"""Game records: a versioned JSON file from which every game can be replayed.

A record holds the game and its options, the seats and their players, the
random seed, the clock, every action with the time its seat spent on it, any
adjudication (flag fall, bot failure) and the result. :func:`load_record`
checks the file, replays it through the referee and insists that the replay
reaches the recorded result. The schema is documented in ``docs/record-format.md``.

Besides the moves, a record keeps each seat's private notes (the window's
arrows and circles, the belief board's hypotheses: opaque JSON, snapshotted
when they change, see :class:`NoteSnapshot` and :func:`notes_at`) and, for a
game that is still going, the state of the running clock (:class:`LiveClock`),
so that :func:`resume` continues a saved game at the same turn, phase and
remaining times. :class:`Timeline` replays a record once and gives each step
as the truth or as one seat saw it (:func:`allowed_perspectives` says which of
those a seat may open).

>>> from app.engine.rbc import ReconChess, Sense, MoveAction
>>> session = GameSession(ReconChess(), TimeControl(None, 0))
>>> session.play(0, Sense.parse("d7"))
>>> session.play(0, MoveAction.parse("e2e4"))
>>> replayed = replay(GameRecord.from_json(session.record.to_json()))
>>> replayed.game.board.fen() == session.game.board.fen()
True
"""

from __future__ import annotations

import copy
import datetime as _dt
import errno
import json
import math
import os
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeGuard

from .clock import ChessClock, TimeControl
from .core import Action, Adjudication, Game, IllegalAction, Outcome, Reason, Resign, Seat, View

FORMAT = "sightline-record"
VERSION = 2
"""Version 2 added ``notes`` and ``live_clock``; version 1 files (without them) are still read."""

MAX_RECORD_BYTES = 32 * 1024 * 1024
"""Larger files are refused before parsing: a record of a very long game with notes is a few megabytes."""
MAX_ACTIONS = 50_000
"""More steps than any real game has; it bounds the time a (hostile or broken) file can make a replay take."""
MAX_NOTE_DEPTH = 32
"""How deeply a seat's opaque notes may nest."""

ANNOTATIONS = "annotations"
HYPOTHESES = "hypotheses"
SWITCHES = "switches"
_NOTE_KINDS = (ANNOTATIONS, HYPOTHESES, SWITCHES)


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the problem."""


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite_number(value: Any) -> float | None:
    """``value`` as a finite float, or ``None`` if it is not a finite number (huge integers included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        return None
    return number if math.isfinite(number) else None


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

    def copy(self) -> "Entry":
        entry = Entry(self.seat, {}, self.elapsed)
        entry._data, entry._step = self._data, self._step  # both are never mutated once set
        return entry

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (self.seat, self.action, self.elapsed) == (
            other.seat, other.action, other.elapsed)

    def __repr__(self) -> str:
        return f"Entry({self.seat}, {self.action!r}, {self.elapsed})"


@dataclass(frozen=True)
class Notes:
    """A seat's private notes at one moment: the window's annotations, the belief board's hypotheses and the
    belief panel's switches.

    All are opaque JSON to the engine: ``annotations`` is a list (arrows,
    circles...), ``hypotheses`` an object (``Hypotheses.to_json()``) or ``None``,
    ``switches`` an object (which of the panel's aids the seat turned on) or ``None``
    for the defaults. Treat them as read-only.
    """

    annotations: list[Any] = field(default_factory=list)
    hypotheses: dict[str, Any] | None = None
    switches: dict[str, Any] | None = None

    def changed(self, changes: Mapping[str, Any]) -> "Notes":
        """These notes with the kinds named in ``changes`` replaced."""
        return Notes(changes.get(ANNOTATIONS, self.annotations), changes.get(HYPOTHESES, self.hypotheses),
                     changes.get(SWITCHES, self.switches))


@dataclass
class NoteSnapshot:
    """A change of one seat's notes, taken when ``step`` actions of the record had been played.

    ``changes`` holds only the kinds that changed (``"annotations"``,
    ``"hypotheses"``, ``"switches"``): an unchanged kind is not repeated, which keeps files small.
    """

    seat: Seat
    step: int
    changes: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, **self.changes}


@dataclass(frozen=True)
class LiveClock:
    """The clock of an unfinished game when it was saved.

    ``spent`` is the time already used by the seat to move since the last
    recorded action; ``paused`` says whether time was stopped (a hot-seat
    curtain, a window in the background) or had not started yet.
    """

    spent: float = 0.0
    paused: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"spent": self.spent, "paused": self.paused}


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
    notes: list[NoteSnapshot] = field(default_factory=list)
    live: LiveClock | None = None
    """Only for an unfinished game: how far the running clock had got when the record was saved."""

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
        if self.notes:
            data["notes"] = [snapshot.to_json() for snapshot in self.notes]
        if self.live is not None and self.result is None:
            data["live_clock"] = self.live.to_json()
        return data

    def copy(self) -> "GameRecord":
        """A copy that shares nothing mutable with this record (opaque notes are shared: never mutated)."""
        return GameRecord(self.variant, copy.deepcopy(self.options), [PlayerInfo(p.name, p.kind, p.spec)
                                                                      for p in self.players],
                          self.seed, self.clock, [entry.copy() for entry in self.entries], self.result,
                          self.started, copy.deepcopy(self.extra),
                          [NoteSnapshot(n.seat, n.step, dict(n.changes)) for n in self.notes], self.live)

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """Check the structure of record data (not yet the moves: see :func:`replay`).

        >>> GameRecord.from_json({"format": "sightline-record", "version": 3})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        app.engine.record.RecordError: this record was written by a newer Sightline (format version 3; ...
        """
        if not isinstance(data, dict):
            raise RecordError("not a Sightline record: the file does not hold a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Sightline record: 'format' is {_short(data.get('format'))}, not {FORMAT!r}")
        version = data.get("version")
        if not _is_int(version) or version < 1:
            raise RecordError(f"bad record version {_short(version)}")
        if version > VERSION:
            raise RecordError(f"this record was written by a newer Sightline (format version {version}; "
                              f"this version reads up to {VERSION})")
        from .variants import VARIANTS
        variant = data.get("variant")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise RecordError(f"unknown game {_short(variant)} (known: {', '.join(sorted(VARIANTS))})")
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
        if seed is not None and not _is_int(seed):
            raise RecordError("'seed' must be an integer or null")
        clock_data = data.get("clock")
        if clock_data is not None and not isinstance(clock_data, dict):
            raise RecordError("'clock' must be an object or null")
        try:
            clock = TimeControl.from_json(clock_data)
        except (ValueError, TypeError, AttributeError, OverflowError):
            raise RecordError(f"'clock': bad clock {_short(clock_data)}") from None
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list")
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"'actions' lists {len(actions)} steps; a record may hold at most {MAX_ACTIONS}")
        entries = []
        for index, entry in enumerate(actions):
            if not isinstance(entry, dict):
                raise RecordError(f"action {index + 1}: not an object")
            seat, action, elapsed = entry.get("seat"), entry.get("action"), entry.get("elapsed", 0.0)
            if not _is_int(seat) or not 0 <= seat < seats:
                raise RecordError(f"action {index + 1}: bad seat {_short(seat)}")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise RecordError(f"action {index + 1}: needs an 'action' object with a 'type'")
            seconds = _finite_number(elapsed)
            if seconds is None or seconds < 0:
                raise RecordError(f"action {index + 1}: bad elapsed time {_short(elapsed)}")
            entries.append(Entry(seat, action, seconds))
        result = data.get("result")
        outcome = None if result is None else _outcome_from_json(result, VARIANTS[variant].teams())
        started = data.get("started", "")
        extra = data.get("extra", {})
        if not isinstance(started, str) or not isinstance(extra, dict):
            raise RecordError("'started' must be a string and 'extra' an object")
        notes = _notes_from_json(data.get("notes", []), seats, len(entries))
        live_data = data.get("live_clock")
        live = None if live_data is None else _live_from_json(live_data)
        return cls(variant, options, players, seed, clock, entries, outcome, started, extra, notes,
                   live if outcome is None else None)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash mid-write never leaves a broken file."""
        atomic_write_text(Path(path), json.dumps(self.to_json(), indent=1))


def _clipped(message: str, limit: int = 300) -> str:
    """A message from elsewhere (a referee, a parser) cut to ``limit`` characters: it may quote a whole field."""
    return message if len(message) <= limit else message[:limit - 3] + "..."


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about hand-edited or corrupt files."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # deeply nested data, or an integer too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _outcome_from_json(data: Any, teams: tuple[int, ...]) -> Outcome:
    """The recorded result of a game whose seats play on ``teams`` (one team number per seat)."""
    seats = len(teams)
    if not isinstance(data, dict):
        raise RecordError(f"bad result {_short(data)}: not an object")
    winner = data.get("winner")
    if winner is not None and (not _is_int(winner) or not 0 <= winner < seats):
        raise RecordError(f"bad result: 'winner' is {_short(winner)}, not a seat or null")
    team = data.get("team")
    if team is not None and (not _is_int(team) or team not in teams):
        raise RecordError(f"bad result: 'team' is {_short(team)}, not a team of this game")
    try:
        reason = Reason(data.get("reason"))
    except (ValueError, TypeError):
        raise RecordError(f"bad result: unknown reason {_short(data.get('reason'))}") from None
    detail = data.get("detail", "")
    if not isinstance(detail, str):
        raise RecordError("bad result: 'detail' must be a string")
    scores = data.get("scores")
    if scores is not None:
        if not isinstance(scores, list) or len(scores) != seats \
                or any(_finite_number(score) is None for score in scores):
            raise RecordError(f"bad result: 'scores' must list {seats} numbers")
        scores = tuple(scores)
    score = data.get("score")
    if score is not None and _finite_number(score) is None:
        raise RecordError(f"bad result: 'score' is {_short(score)}, not a number")
    try:
        return Outcome(winner, reason, detail, scores, team, score).settled(teams)
    except ValueError as error:  # a winner outside the winning team
        raise RecordError(f"bad result: {error}") from None


def _check_opaque(value: Any, where: str) -> None:
    """Refuse notes nested deeper than MAX_NOTE_DEPTH or holding what JSON cannot (NaN, non-string keys)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= MAX_NOTE_DEPTH:
                raise RecordError(f"{where} is nested more than {MAX_NOTE_DEPTH} levels deep")
            if isinstance(item, dict):
                if not all(isinstance(key, str) for key in item):
                    raise RecordError(f"{where} has a key that is not a string")
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise RecordError(f"{where} holds a number that is not finite")
        elif item is not None and not isinstance(item, (str, int, bool)):
            raise RecordError(f"{where} holds a {type(item).__name__}, which is not JSON")


def _check_note_value(kind: str, value: Any, where: str) -> None:
    if kind == ANNOTATIONS and not isinstance(value, list):
        raise RecordError(f"{where}: 'annotations' must be a list")
    if kind in (HYPOTHESES, SWITCHES) and value is not None and not isinstance(value, dict):
        raise RecordError(f"{where}: '{kind}' must be an object or null")
    _check_opaque(value, f"{where}: '{kind}'")


def _notes_from_json(data: Any, seats: int, steps: int) -> list[NoteSnapshot]:
    if not isinstance(data, list):
        raise RecordError("'notes' must be a list")
    notes = []
    last_step = 0
    for index, item in enumerate(data):
        where = f"note {index + 1}"
        if not isinstance(item, dict):
            raise RecordError(f"{where}: not an object")
        seat, step = item.get("seat"), item.get("step")
        if not _is_int(seat) or not 0 <= seat < seats:
            raise RecordError(f"{where}: bad seat {_short(seat)}")
        if not _is_int(step) or not 0 <= step <= steps:
            raise RecordError(f"{where}: bad step {_short(step)} (the record has {steps} actions)")
        if step < last_step:
            raise RecordError(f"{where}: notes must be in the order they were taken (step {step} after "
                              f"step {last_step})")
        last_step = step
        changes = {}
        for kind in _NOTE_KINDS:
            if kind in item:
                _check_note_value(kind, item[kind], where)
                changes[kind] = item[kind]
        notes.append(NoteSnapshot(seat, step, changes))
    return notes


def _live_from_json(data: Any) -> LiveClock:
    if not isinstance(data, dict):
        raise RecordError("'live_clock' must be an object")
    spent, paused = _finite_number(data.get("spent", 0.0)), data.get("paused", False)
    if spent is None or spent < 0:
        raise RecordError(f"'live_clock': bad spent time {_short(data.get('spent'))}")
    if not isinstance(paused, bool):
        raise RecordError("'live_clock': 'paused' must be true or false")
    return LiveClock(spent, paused)


def notes_at(record: GameRecord, seat: Seat, step: int | None = None) -> Notes:
    """The notes ``seat`` had when ``step`` actions had been played (default: the end of the record).

    >>> record = GameRecord("minit", notes=[NoteSnapshot(0, 0, {"annotations": [{"arrow": "a2a3"}]}),
    ...                                     NoteSnapshot(0, 4, {"hypotheses": {"pieces": {}}})])
    >>> notes_at(record, 0, 3)
    Notes(annotations=[{'arrow': 'a2a3'}], hypotheses=None, switches=None)
    >>> notes_at(record, 0).hypotheses, notes_at(record, 1).annotations
    ({'pieces': {}}, [])
    """
    notes = Notes()
    for snapshot in record.notes:
        if step is not None and snapshot.step > step:
            break
        if snapshot.seat == seat:
            notes = notes.changed(snapshot.changes)
    return notes


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 with :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


_umask_lock = threading.Lock()


def _new_file_mode() -> int:
    """The permissions an ordinary new file gets here (0644 under the usual umask of 022)."""
    with _umask_lock:  # the umask can only be read by setting it; set it straight back
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file that writing to ``path`` will replace; ``OSError`` (with a readable ``strerror``) if it must not.

    A symbolic link is followed: its target is written and the link stays a link. A FIFO, a device or a folder
    is refused (writing there would block, never end or fail half-way), and so is a folder that does not
    exist: it is not created behind the user's back.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, a device or a socket)"
        raise OSError(errno.EINVAL, f"it is {kind}, so it cannot be replaced by a file", str(path))
    if not target.parent.is_dir():
        raise OSError(errno.ENOENT, f"the folder {target.parent} does not exist", str(path))
    return target


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk, then rename it over ``path``.

    What may be written is checked by :func:`write_target` (links are written through, special files and
    missing folders refused: ``OSError``). The file keeps the permissions of the file it replaces; a new file
    gets the ordinary ones (0644 under the usual umask), not the temporary file's private 0600.
    """
    target = write_target(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


ADJUDICATION_REASONS = frozenset({Reason.TIMEOUT, Reason.FORFEIT, Reason.TURN_LIMIT, Reason.ABORTED})
"""What a host may end a game with from outside the rules of play. Every other ending (a captured king, a draw
agreed, Blind Chess's material count after a flag fall...) must come out of the replay itself."""


def parse_action(game_type: type[Game], data: Mapping[str, Any]) -> Action | Adjudication:
    kind = data.get("type")
    if kind == "resign":
        return Resign()
    if kind == "adjudication":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(game_type.seat_names):
            raise ValueError(f"bad adjudication seat {_short(seat)}")
        try:
            reason = Reason(data["reason"])
        except (KeyError, ValueError, TypeError):
            raise ValueError(f"bad adjudication reason {_short(data.get('reason'))}") from None
        if reason not in ADJUDICATION_REASONS:
            allowed = ", ".join(sorted(item.value for item in ADJUDICATION_REASONS))
            raise ValueError(f"a game cannot be adjudicated as {reason.value} (only {allowed}); that ending "
                             f"must come from the moves")
        detail = data.get("detail", "")
        if not isinstance(detail, str):
            raise ValueError("an adjudication's 'detail' must be text")
        return Adjudication(seat, reason, detail)
    return game_type.action_from_json(data)


class _Keep:
    """The type of :data:`KEEP`."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = _Keep()
"""The default of :meth:`GameSession.set_notes`'s arguments: leave that kind of note as it is."""


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
    clock), and :func:`resume` turns it back into a session.
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

    # -- a seat's private notes ------------------------------------------------------------
    def notes(self, seat: Seat) -> Notes:
        """``seat``'s current annotations, hypotheses and switches."""
        return self._notes[seat]

    def set_notes(self, seat: Seat, *, annotations: list[Any] | _Keep = KEEP,
                  hypotheses: dict[str, Any] | None | _Keep = KEEP,
                  switches: dict[str, Any] | None | _Keep = KEEP) -> bool:
        """Record ``seat``'s notes as they are now; returns True when they changed.

        ``annotations`` (a list), ``hypotheses`` (an object, or ``None`` for
        none) and ``switches`` (an object, or ``None``) are opaque JSON; each is copied.
        Leave one out (or pass ``KEEP``) to keep it as it is. A snapshot is
        recorded only when something changed; several changes between two
        actions make one snapshot. Raises ``ValueError`` for data that is not JSON.

        >>> from app.engine.minit import MinitChess
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
        if not changes:
            return False
        self._notes[seat] = current.changed(changes)
        step = len(self.record.entries)
        for snapshot in reversed(self.record.notes):
            if snapshot.step != step:
                break
            if snapshot.seat == seat:  # one snapshot per seat and step: the latest state wins
                snapshot.changes.update(changes)
                return True
        self.record.notes.append(NoteSnapshot(seat, step, changes))
        return True

    # -- saving --------------------------------------------------------------------------------
    def snapshot(self) -> GameRecord:
        """The record to save now: a copy, with the running clock's state if the game is not over.

        :func:`resume` continues from it at the same step with the same remaining times.
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


@dataclass
class Replay:
    """A record replayed: the game at its final state, and each seat's clock at the end."""

    game: Game
    record: GameRecord
    remaining: list[float]


def _new_game(record: GameRecord) -> tuple[type[Game], Game]:
    from .variants import VARIANTS
    if record.variant not in VARIANTS:
        raise RecordError(f"unknown game {_short(record.variant)} (known: {', '.join(sorted(VARIANTS))})")
    game_type = VARIANTS[record.variant]
    try:
        return game_type, game_type.from_options(record.options)
    except (ValueError, TypeError) as error:
        raise RecordError(f"bad options for {record.variant}: {_clipped(str(error))}") from None


_CLOCK_SLACK = 1e-6
"""Seconds below zero that still count as "just reached zero": a live clock charged in several laps and a
replay charging their sum may differ in the last bits."""


def _play_entry(game_type: type[Game], game: Game, clock: ChessClock, index: int, entry: Entry,
                flagged: Seat | None = None) -> Seat | None:
    """Replay entry number ``index`` (from 0): charge its time, apply it, give the increment of a finished turn.

    Returns the seat whose time this entry used up while the game went on: only a move whose mover was still
    being told its result when its flag fell (``GameSession.play(defer=True)``) does that, and then the next
    entry must be the adjudication that ends the game. Pass the previous call's answer as ``flagged``.
    """
    try:
        step = parse_action(game_type, entry.action)
    except (ValueError, TypeError) as error:
        raise RecordError(f"action {index + 1}: {_clipped(str(error))}") from None
    names = game.seat_names
    if flagged is not None and not isinstance(step, Adjudication):
        raise RecordError(f"action {index + 1}: {names[flagged]}'s time ran out at action {index}, so the game "
                          f"ended there, yet the record goes on")
    mover, ply = game.to_move, game.ply
    # The elapsed time ran on the clock of the seat to move, whoever acted (a resignation may come from the
    # other seat).
    charged = entry.seat if mover is None else mover
    had = clock.remaining(charged)
    clock.charge(charged, entry.elapsed)
    try:
        if isinstance(step, Adjudication):
            game.adjudicate(step)
        else:
            game.play(entry.seat, step)
    except IllegalAction as error:
        raise RecordError(f"action {index + 1} ({str(entry.action.get('type'))[:30]} by "
                          f"{names[entry.seat]}) does not replay: {_clipped(str(error))}") from None
    if not game.is_over and game.ply != ply and mover is not None:
        clock.add_increment(mover)
    if isinstance(step, Adjudication) or clock.remaining(charged) >= -_CLOCK_SLACK:
        return None
    if game.is_over:  # a host checks the flag before it applies an action, so this action came too late
        raise RecordError(f"action {index + 1} ({str(entry.action.get('type'))[:30]} by {names[entry.seat]}) "
                          f"took {entry.elapsed:g} s of {names[charged]}'s clock, which had only {had:g} s "
                          f"left: the game was lost on time before it")
    return charged


def _check_result(record: GameRecord, game: Game) -> None:
    if record.result is not None:
        def decided(outcome: Outcome) -> tuple[Any, ...]:
            return outcome.winner, outcome.team, outcome.reason

        if game.outcome is None or decided(game.outcome) != decided(record.result):
            def said(outcome: Outcome | None) -> str:
                if outcome is None:
                    return "no result"
                if outcome.winner is not None:
                    who = f"{game.seat_names[outcome.winner]} wins"
                elif outcome.team is not None:
                    who = " and ".join(name for name, team in zip(game.seat_names, game.teams())
                                       if team == outcome.team) + " win"
                else:
                    who = "no winner"
                return f"{who}, {outcome.reason.value}"
            raise RecordError(f"the recorded result ({said(record.result)}) does not match the replay "
                              f"({said(game.outcome)})")


def replay(record: GameRecord, upto: int | None = None) -> Replay:
    """Play ``record`` (its first ``upto`` entries) through a fresh referee.

    Raises :class:`RecordError` naming the first entry that does not replay,
    or a result that differs from the recorded one.
    """
    game_type, game = _new_game(record)
    clock = ChessClock(record.clock, len(game.seat_names), time_source=lambda: 0.0)
    entries = record.entries if upto is None else record.entries[:upto]
    flagged = None
    for index, entry in enumerate(entries):
        flagged = _play_entry(game_type, game, clock, index, entry, flagged)
    if upto is None:
        _check_result(record, game)
    return Replay(game, record, [clock.remaining(seat) for seat in range(len(game.seat_names))])


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_record(data: bytes | str, name: str = "the record") -> GameRecord:
    """Check the structure of a record file's contents (no replay); :class:`RecordError` names the problem.

    ``name`` is how messages call the file.

    >>> parse_record(b'{"format": "sightline-record", "version": 1, "variant": "rbc", "actions": [')
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    app.engine.record.RecordError: the record is not valid JSON (line 1, column 76: ...); the file may be truncated ...
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is too large to be a record ({len(data) // (1024 * 1024)} MB or more)")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")  # tolerate the byte-order mark some editors add
        except UnicodeDecodeError as error:
            raise RecordError(f"{name} is not a text file (byte {error.start} is not UTF-8)") from None
    try:
        parsed = json.loads(data, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"{name} is not valid JSON (line {error.lineno}, column {error.colno}: "
                          f"{error.msg}); the file may be truncated or corrupt") from None
    except RecursionError:
        raise RecordError(f"{name} is nested too deeply to be a record") from None
    except ValueError:  # NaN or Infinity, an integer with thousands of digits
        raise RecordError(f"{name} is not a record: it holds a number that is not a plain JSON number, or one "
                          f"too long to read") from None
    return GameRecord.from_json(parsed)


def read_limited(path: str | os.PathLike[str], what: str = "a record") -> bytes:
    """The bytes of the file at ``path``, at most one more than :data:`MAX_RECORD_BYTES`.

    Only regular files are read: a FIFO or a device would block or never end. Problems raise
    :class:`RecordError`; ``what`` names what the file should have been.
    """
    try:
        with open(path, "rb", opener=_open_nonblocking) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise RecordError(f"cannot read {path}: it is not a regular file, so it cannot be {what}")
            return handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None


def _open_nonblocking(path: str, flags: int) -> int:
    # Opening a FIFO for reading waits for a writer; O_NONBLOCK returns at once, so the check above can refuse it.
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and check a record file without replaying it (see :func:`load_record`)."""
    return parse_record(read_limited(path), str(path))


def load_record(path: str | os.PathLike[str]) -> Replay:
    """Read, check and replay a record file. Every problem raises :class:`RecordError`."""
    return replay(read_record(path))


# ---- continuing a saved game ------------------------------------------------------------------------------

def resume(record: GameRecord, *, time_source: Callable[[], float] = time.monotonic,
           start_clock: bool | None = None) -> GameSession:
    """A live session continuing ``record`` (an unfinished game) where it was saved.

    The game is at the same step and phase, both clocks show the same remaining
    times (the seconds the seat to move had already used, ``record.live``, are
    charged again and belong to its next action), and each seat's notes are as
    they were. The clock starts unless the game was saved paused
    (``start_clock=None``); pass True or False to decide.

    >>> from app.engine.rbc import ReconChess, Sense
    >>> now = [0.0]
    >>> session = GameSession(ReconChess(), TimeControl(60, 2), time_source=lambda: now[0])
    >>> session.play(0, Sense.parse("e7")); now[0] = 5.0
    >>> again = resume(session.snapshot(), time_source=lambda: now[0])
    >>> again.game.phase, again.seconds_left(0), again.paused
    ('move', 55.0, False)
    """
    if record.result is not None:
        raise RecordError("this game is over: it can be replayed but not continued")
    game_type, game = _new_game(record)
    session = GameSession(game, record.clock, [PlayerInfo(p.name, p.kind, p.spec) for p in record.players],
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


# ---- replaying turn by turn, as the truth or as one seat saw it -----------------------------------------

def view_type(variant: str) -> type[View]:
    """The view class of ``variant``'s seats (:class:`~app.engine.rbc.ReconChessView`...)."""
    from .variants import VARIANTS
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RecordError(f"unknown game {_short(variant)}")
    return VARIANTS[variant].view_type


def allowed_perspectives(record: GameRecord, asking_seat: Seat | None) -> list[Seat | None]:
    """Which perspectives ``asking_seat`` may open in a replay: ``None`` is the truth, a number a seat's view.

    A finished game opens every perspective. While a game of hidden
    information goes on, a seat may review only its own view (and a spectator,
    ``asking_seat=None``, nothing); MinitChess hides nothing, so every
    perspective is open.

    >>> record = GameRecord("rbc")
    >>> allowed_perspectives(record, 1), allowed_perspectives(record, None)
    ([1], [])
    >>> record.result = Outcome(0, Reason.RESIGN)
    >>> allowed_perspectives(record, 1)
    [None, 0, 1]
    """
    from .variants import VARIANTS
    seats = len(VARIANTS[record.variant].seat_names) if record.variant in VARIANTS else 2
    hidden = record.variant in VARIANTS and VARIANTS[record.variant].hidden_information
    if record.result is not None or not hidden:
        return [None, *range(seats)]
    return [asking_seat] if asking_seat is not None and 0 <= asking_seat < seats else []


@dataclass
class Frame:
    """One step of a replayed game, as the truth (``perspective`` None) or as one seat saw it.

    ``truth`` is the true position (a ``chess.Board`` copy, or a
    ``MinitPosition``) and is filled for every perspective, so that a finished
    game can be reviewed as belief against truth; during a game, only show what
    :func:`allowed_perspectives` allows. ``view`` and ``observations`` are the
    seat's (None and empty for the truth); ``notes`` holds the notes of the seat
    (every seat's for the truth).
    """

    step: int
    ply: int
    to_move: Seat | None
    phase: str
    perspective: Seat | None
    truth: Any
    last_move: Any
    view: View | None
    observations: Sequence[Any]
    notes: dict[Seat, Notes]
    remaining: list[float]
    entry: Entry | None
    outcome: Outcome | None


@dataclass
class _Step:
    ply: int
    to_move: Seat | None
    phase: str
    truth: Any
    last_move: Any
    seen: tuple[int, ...]  # how many observations each seat had
    remaining: list[float]
    outcome: Outcome | None


class Timeline:
    """A record replayed once, kept step by step: what a replay viewer steps through.

    Step ``s`` is the game after the first ``s`` actions (0: the start,
    ``steps``: the end). Raises :class:`RecordError` like :func:`replay`.

    >>> from app.engine.minit import MinitChess, MinitMove
    >>> session = GameSession(MinitChess())
    >>> session.play(0, MinitMove.parse("b1-c3"))
    >>> timeline = Timeline(session.record)
    >>> timeline.steps, str(timeline.frame(1, None).truth)
    (1, '1 B kqbnr ppppp ..... ..N.. PPPPP R.BQK')
    >>> timeline.frame(1, 1).view.position == timeline.frame(1, None).truth
    True
    """

    def __init__(self, record: GameRecord) -> None:
        game_type, game = _new_game(record)
        self.record = record
        self.variant = record.variant
        self.seat_names = game.seat_names
        self._view_type = view_type(record.variant)
        clock = ChessClock(record.clock, len(game.seat_names), time_source=lambda: 0.0)
        self._frames = [self._state(game, clock)]
        flagged = None
        for index, entry in enumerate(record.entries):
            flagged = _play_entry(game_type, game, clock, index, entry, flagged)
            self._frames.append(self._state(game, clock))
        _check_result(record, game)
        self.game = game
        """The referee at the end of the record; its observation lists are what every frame slices."""

    def _state(self, game: Game, clock: ChessClock) -> _Step:
        board = getattr(game, "board", None)
        stack = getattr(board, "move_stack", None)
        moves = getattr(game, "moves", None)
        last = stack[-1] if stack else (moves[-1] if moves else None)
        return _Step(game.ply, game.to_move, game.phase, game.truth(), last,
                     tuple(len(game.observations(seat)) for seat in range(len(game.seat_names))),
                     [clock.remaining(seat) for seat in range(len(game.seat_names))], game.outcome)

    @property
    def steps(self) -> int:
        """The number of actions; valid steps are ``0..steps``."""
        return len(self._frames) - 1

    def ply_at(self, step: int) -> int:
        """The game's ply (turns completed) after ``step`` actions."""
        return self._frames[self._check_step(step)].ply

    def step_of_ply(self, ply: int) -> int:
        """The first step at which ``ply`` turns are complete (the last step if the game ended earlier)."""
        for step, state in enumerate(self._frames):
            if state.ply >= ply:
                return step
        return self.steps

    def _check_step(self, step: int) -> int:
        if not isinstance(step, int) or not 0 <= step <= self.steps:
            raise ValueError(f"no step {step!r}: this game has steps 0 to {self.steps}")
        return step

    def frame(self, step: int, perspective: Seat | None) -> Frame:
        """Step ``step`` as the truth (``perspective`` None) or as seat ``perspective`` saw it."""
        state = self._frames[self._check_step(step)]
        seats = len(self.seat_names)
        if perspective is not None and (not isinstance(perspective, int) or not 0 <= perspective < seats):
            raise ValueError(f"no seat {perspective!r}")
        if perspective is None:
            view, observations = None, ()
            notes = {seat: notes_at(self.record, seat, step) for seat in range(seats)}
        else:
            observations = tuple(self.game.observations(perspective)[:state.seen[perspective]])
            view = self._view_type.from_observations(observations)
            notes = {perspective: notes_at(self.record, perspective, step)}
        return Frame(step, state.ply, state.to_move, state.phase, perspective, state.truth, state.last_move,
                     view, observations, notes, list(state.remaining),
                     self.record.entries[step - 1] if step else None, state.outcome)


def perspective_at(record: GameRecord, step: int | None, perspective: Seat | None) -> Frame:
    """Step ``step`` (default: the end) of ``record`` as the truth or as one seat saw it (see :class:`Timeline`)."""
    timeline = Timeline(record)
    return timeline.frame(timeline.steps if step is None else step, perspective)
