"""Game records: a versioned JSON file from which every game can be replayed.

A record holds the game and its options, the seats and their players, the
random seed, the clock, every action with the time its seat spent on it, any
adjudication (flag fall, bot failure) and the result; a game that shuffles or
deals also keeps the seed it dealt from (``chance_seed``, never in the options
a seat or bot receives), so a replay deals the same cards. :func:`load_record`
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

This module is where the rest of the app imports all of that from; each job lives in its own module:

- :mod:`app.engine.record_format`: the record in memory and its JSON (:class:`GameRecord`, :class:`Entry`,
  :class:`PlayerInfo`, the notes and :class:`LiveClock`), the checks made while reading a file
  (:func:`parse_record`, :func:`read_record`, :class:`RecordError`) and :func:`parse_action`;
- :mod:`app.engine.session`: the live game with its clock, notes and autosave snapshots
  (:class:`GameSession`, :meth:`GameSession.from_snapshot` / :func:`resume` to continue a saved game);
- :mod:`app.engine.timeline`: replaying a record (:func:`replay`, :func:`load_record`) and stepping through
  it as the truth or as one seat saw it (:class:`Timeline`, :class:`Frame`, :func:`allowed_perspectives`);
- :mod:`app.engine.atomic_files`: writing a file whole or not at all (:func:`atomic_write_text`...).

>>> from app.games.rbc.rules import ReconChess, Sense, MoveAction
>>> session = GameSession(ReconChess(), TimeControl(None, 0))
>>> session.play(0, Sense.parse("d7"))
>>> session.play(0, MoveAction.parse("e2e4"))
>>> replayed = replay(GameRecord.from_json(session.record.to_json()))
>>> replayed.game.board.fen() == session.game.board.fen()
True
"""

from __future__ import annotations

from .atomic_files import atomic_write_bytes, atomic_write_text, write_target
from .clock import TimeControl
from .record_format import (ADJUDICATION_REASONS, ANNOTATIONS, FORMAT, HYPOTHESES, MARKS, MAX_ACTIONS,
                            MAX_NOTE_DEPTH, MAX_RECORD_BYTES, SWITCHES, VERSION, Entry, GameRecord, LiveClock, NoteSnapshot, Notes,
                            PlayerInfo, RecordError, notes_at, parse_action, parse_record, read_limited, read_record)
from .record_format import _short as _short  # noqa: F401 - reconchess_history quotes values with it
from .session import KEEP, GameSession, resume
from .timeline import Frame, Replay, Timeline, allowed_perspectives, load_record, perspective_at, replay, view_type

__all__ = [
    "ADJUDICATION_REASONS", "ANNOTATIONS", "FORMAT", "HYPOTHESES", "KEEP", "MARKS", "MAX_ACTIONS", "MAX_NOTE_DEPTH",
    "MAX_RECORD_BYTES", "SWITCHES", "VERSION", "Entry", "Frame", "GameRecord", "GameSession", "LiveClock",
    "NoteSnapshot", "Notes", "PlayerInfo", "RecordError", "Replay", "TimeControl", "Timeline",
    "allowed_perspectives", "atomic_write_bytes", "atomic_write_text", "load_record", "notes_at", "parse_action",
    "parse_record", "perspective_at", "read_limited", "read_record", "replay", "resume", "view_type",
    "write_target",
]
