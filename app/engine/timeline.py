"""Replaying a record through a fresh referee: the whole game at once, or step by step.

:func:`replay` plays a record's actions (charging each its recorded time on a
clock) and insists that the replay reaches the recorded result; :func:`load_record`
reads and replays a file. :class:`Timeline` replays a record once and gives each
step as the truth or as one seat saw it (:class:`Frame`);
:func:`allowed_perspectives` says which of those a seat may open.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

from . import variants
from .clock import ChessClock
from .core import Adjudication, Game, IllegalAction, Outcome, Seat, View
from .record_format import Entry, GameRecord, Notes, RecordError, _clipped, _short, notes_at, parse_action, read_record


@dataclass
class Replay:
    """A record replayed: the game at its final state, and each seat's clock at the end."""

    game: Game
    record: GameRecord
    remaining: list[float]


def _new_game(record: GameRecord) -> tuple[type[Game], Game]:
    known = variants.VARIANTS
    if record.variant not in known:
        raise RecordError(f"unknown game {_short(record.variant)} (known: {', '.join(sorted(known))})")
    game_type = known[record.variant]
    try:
        # The chance seed is handed to the referee beside the options, never inside them (see Game.create); a
        # replay never deals afresh: without its seed a game of chance would not replay its own cards.
        return game_type, game_type.create(record.options, record.chance_seed, fresh=False)
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
    clock = ChessClock(record.clock, len(game.seat_names), time_source=lambda: 0.0, owners=game.teams())
    entries = record.entries if upto is None else record.entries[:upto]
    flagged = None
    for index, entry in enumerate(entries):
        flagged = _play_entry(game_type, game, clock, index, entry, flagged)
    if upto is None:
        _check_result(record, game)
    return Replay(game, record, [clock.remaining(seat) for seat in range(len(game.seat_names))])


def load_record(path: str | os.PathLike[str]) -> Replay:
    """Read, check and replay a record file. Every problem raises :class:`RecordError`."""
    return replay(read_record(path))


# ---- replaying turn by turn, as the truth or as one seat saw it -----------------------------------------

def view_type(variant: str) -> type[View]:
    """The view class of ``variant``'s seats (:class:`~app.games.rbc.rules.ReconChessView`...)."""
    known = variants.VARIANTS
    if not isinstance(variant, str) or variant not in known:
        raise RecordError(f"unknown game {_short(variant)}")
    return known[variant].view_type


def allowed_perspectives(record: GameRecord, asking_seat: Seat | None) -> list[Seat | None]:
    """Which perspectives ``asking_seat`` may open in a replay: ``None`` is the truth, a number a seat's view.

    A finished game opens every perspective. While a game of hidden
    information goes on, a seat may review only its own view (and a spectator,
    ``asking_seat=None``, nothing); MinitChess hides nothing, so every
    perspective is open.

    >>> from app.engine.core import Reason
    >>> record = GameRecord("rbc")
    >>> allowed_perspectives(record, 1), allowed_perspectives(record, None)
    ([1], [])
    >>> record.result = Outcome(0, Reason.RESIGN)
    >>> allowed_perspectives(record, 1)
    [None, 0, 1]
    """
    known = variants.VARIANTS
    seats = len(known[record.variant].seat_names) if record.variant in known else 2
    hidden = record.variant in known and known[record.variant].hidden_information
    if record.result is not None or not hidden:
        return [None, *range(seats)]
    return [asking_seat] if asking_seat is not None and 0 <= asking_seat < seats else []


@dataclass
class Frame:
    """One step of a replayed game, as the truth (``perspective`` None) or as one seat saw it.

    ``truth`` is the true position (a ``chess.Board`` copy, or a
    ``MinitPosition``) and is filled for every perspective of a finished game
    or of a game that hides nothing, so that a finished game can be reviewed
    as belief against truth; during a game, only show what
    :func:`allowed_perspectives` allows. ``view`` and ``observations`` are the
    seat's (None and empty for the truth); ``notes`` holds the notes of the seat
    (every seat's for the truth).

    While a game of hidden information goes on, a seat's frame holds only what
    that seat may know: no ``truth`` or ``last_move``, and ``entry`` only when
    the step was that seat's own action (another seat's secret pick or setup is
    ``None`` until the game is over).
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

    >>> from app.games.minit.rules import MinitChess, MinitMove
    >>> from app.engine.session import GameSession
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
        self._hidden = game_type.hidden_information
        clock = ChessClock(record.clock, len(game.seat_names), time_source=lambda: 0.0, owners=game.teams())
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
        entry = self.record.entries[step - 1] if step else None
        truth, last_move = state.truth, state.last_move
        if perspective is not None and self._hidden and self.record.result is None:
            # A seat reviewing a game that goes on learns from its frame nothing its observations did not tell it.
            truth = last_move = None
            if entry is not None and entry.seat != perspective:
                entry = None
        return Frame(step, state.ply, state.to_move, state.phase, perspective, truth, last_move,
                     view, observations, notes, list(state.remaining), entry, state.outcome)


def perspective_at(record: GameRecord, step: int | None, perspective: Seat | None) -> Frame:
    """Step ``step`` (default: the end) of ``record`` as the truth or as one seat saw it (see :class:`Timeline`)."""
    timeline = Timeline(record)
    return timeline.frame(timeline.steps if step is None else step, perspective)
