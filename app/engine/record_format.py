"""The record file's format: its versioned JSON, checked as it is read and written.

:class:`GameRecord` (with :class:`PlayerInfo`, :class:`Entry`, :class:`NoteSnapshot`
and :class:`LiveClock`) is a record in memory; :meth:`GameRecord.to_json` and
:meth:`GameRecord.from_json` turn it into JSON data and back, and :func:`parse_record`
and :func:`read_record` read a file's contents, refusing anything that is not a
record with a :class:`RecordError` that names the problem. The moves themselves are
checked by replaying them (:mod:`app.engine.timeline`). The schema is documented in
``docs/record-format.md``.
"""

from __future__ import annotations

import copy
import json
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, TypeGuard

from . import codec, variants
from .atomic_files import atomic_write_text
from .clock import TimeControl
from .core import CHANCE_SEEDS, Action, Adjudication, Game, Outcome, Reason, Resign, Seat

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
MARKS = "marks"
"""A seat's private marks kept by its game's presenter (a deduction grid's circles and crosses, a secret setup
being arranged): opaque JSON only that game reads."""
_NOTE_KINDS = (ANNOTATIONS, HYPOTHESES, SWITCHES, MARKS)


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
    """A seat's private notes at one moment: the window's annotations, the belief board's hypotheses, the
    belief panel's switches and the marks the game's presenter keeps.

    All are opaque JSON to the engine: ``annotations`` is a list (arrows,
    circles...), ``hypotheses`` an object (``Hypotheses.to_json()``) or ``None``,
    ``switches`` an object (which of the panel's aids the seat turned on) or ``None``
    for the defaults, ``marks`` an object only the game's presenter reads (see
    :data:`MARKS`) or ``None``. Treat them as read-only.
    """

    annotations: list[Any] = field(default_factory=list)
    hypotheses: dict[str, Any] | None = None
    switches: dict[str, Any] | None = None
    marks: dict[str, Any] | None = None

    def changed(self, changes: Mapping[str, Any]) -> "Notes":
        """These notes with the kinds named in ``changes`` replaced."""
        return Notes(changes.get(ANNOTATIONS, self.annotations), changes.get(HYPOTHESES, self.hypotheses),
                     changes.get(SWITCHES, self.switches), changes.get(MARKS, self.marks))


@dataclass
class NoteSnapshot:
    """A change of one seat's notes, taken when ``step`` actions of the record had been played.

    ``changes`` holds only the kinds that changed (``"annotations"``,
    ``"hypotheses"``, ``"switches"``, ``"marks"``): an unchanged kind is not repeated, which keeps files small.
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
    chance_seed: int | None = None
    """Only for a game that shuffles or deals (:attr:`~app.engine.core.Game.uses_chance`): the seed its
    referee drew from, so a replay deals the same cards. It is not ``seed`` (the host's own number, from which
    hosts derive their bots' seeds) and not in ``options`` (which every seat and bot receives): no seat can
    rebuild a deal from what it is given."""

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
        if self.chance_seed is not None:  # written only by games of chance: other records are as they were
            data["chance_seed"] = self.chance_seed
        return data

    def copy(self) -> "GameRecord":
        """A copy that shares nothing mutable with this record (opaque notes are shared: never mutated)."""
        return GameRecord(self.variant, copy.deepcopy(self.options), [PlayerInfo(p.name, p.kind, p.spec)
                                                                      for p in self.players],
                          self.seed, self.clock, [entry.copy() for entry in self.entries], self.result,
                          self.started, copy.deepcopy(self.extra),
                          [NoteSnapshot(n.seat, n.step, dict(n.changes)) for n in self.notes], self.live,
                          self.chance_seed)

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """Check the structure of record data (not yet the moves: see :func:`replay`).

        >>> GameRecord.from_json({"format": "sightline-record", "version": 3})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        app.engine.record_format.RecordError: this record was written by a newer Sightline (format version 3; ...
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
        known = variants.VARIANTS  # the registry's games now (it follows SIGHTLINE_GAMES)
        variant = data.get("variant")
        if not isinstance(variant, str) or variant not in known:
            raise RecordError(f"unknown game {_short(variant)} (known: {', '.join(sorted(known))})")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        seats = len(known[variant].seat_names)
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
        outcome = None if result is None else _outcome_from_json(result, known[variant].teams())
        started = data.get("started", "")
        extra = data.get("extra", {})
        if not isinstance(started, str) or not isinstance(extra, dict):
            raise RecordError("'started' must be a string and 'extra' an object")
        notes = _notes_from_json(data.get("notes", []), seats, len(entries))
        live_data = data.get("live_clock")
        live = None if live_data is None else _live_from_json(live_data)
        chance_seed = data.get("chance_seed")
        if chance_seed is not None and not (_is_int(chance_seed) and 0 <= chance_seed < CHANCE_SEEDS):
            raise RecordError(f"'chance_seed' must be a whole number from 0 below 2**63, not {_short(chance_seed)}")
        return cls(variant, options, players, seed, clock, entries, outcome, started, extra, notes,
                   live if outcome is None else None, chance_seed)

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
    if kind in (HYPOTHESES, SWITCHES, MARKS) and value is not None and not isinstance(value, dict):
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
    Notes(annotations=[{'arrow': 'a2a3'}], hypotheses=None, switches=None, marks=None)
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


ADJUDICATION_REASONS = frozenset({Reason.TIMEOUT, Reason.FORFEIT, Reason.TURN_LIMIT, Reason.ABORTED})
"""What a host may end a game with from outside the rules of play. Every other ending (a captured king, a draw
agreed, Blind Chess's material count after a flag fall...) must come out of the replay itself."""


def parse_action(game_type: type[Game], data: Mapping[str, Any]) -> Action | Adjudication:
    """The step a record's action data holds: a resignation, an adjudication, or one of the game's actions
    (:meth:`Game.action_from_json`); ``ValueError`` names what is wrong.

    >>> from app.engine.core import Game
    >>> parse_action(Game, {"type": "resign"})
    Resign()
    >>> parse_action(Game, {"type": "resign", "why": "bored"})
    Traceback (most recent call last):
    ...
    app.engine.codec.CodecError: 'resign': unknown key 'why'
    """
    kind = data.get("type")
    if kind == Resign.kind:
        return codec.from_json(Resign, data)
    if kind == Adjudication.kind:
        seat = data.get("seat")
        if not _is_int(seat) or not 0 <= seat < len(game_type.seat_names):
            raise ValueError(f"bad adjudication seat {_short(seat)}")
        adjudication = codec.from_json(Adjudication, data)
        if adjudication.reason not in ADJUDICATION_REASONS:
            allowed = ", ".join(sorted(item.value for item in ADJUDICATION_REASONS))
            raise ValueError(f"a game cannot be adjudicated as {adjudication.reason.value} (only {allowed}); that "
                             f"ending must come from the moves")
        return adjudication
    return game_type.action_from_json(data)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_record(data: bytes | str, name: str = "the record") -> GameRecord:
    """Check the structure of a record file's contents (no replay); :class:`RecordError` names the problem.

    ``name`` is how messages call the file.

    >>> parse_record(b'{"format": "sightline-record", "version": 1, "variant": "rbc", "actions": [')
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    app.engine.record_format.RecordError: the record is not valid JSON (line 1, column 76: ...); the file may be truncated ...
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
