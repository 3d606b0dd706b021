"""Reconnaissance Blind Chess as a person meets it: the board of a seat's view (its own pieces, what its senses
showed, where it lost and took pieces), the sense pick, the log's sentences and the pass button.

>>> from app.games.rbc.rules import ReconChess, ReconChessView, Sense
>>> game = ReconChess()
>>> view = ReconChessView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view), [command.id for command in PRESENTER.commands(view)]
('Choose a square to sense', ['pass'])
>>> PRESENTER.parse_text(view, "d7") == Sense(chess.D7)
True
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any

import chess

from app.games.chess_kit import (ChessPresenter, chess_targets, from_sq8, move_words, outcome_sentence,
                                 remembered_from_facts, sq8, square_name, turn_number, you_play)
from app.games.move_input import parse_square_text
from app.games.presenter import BELIEF_PANEL, Command, InputError, MarksChange
from app.games.rbc.belief_kit import facts
from app.games.rbc.rules import (PASS, SENSE_WINDOWS, GameEnded, GameStarted, MoveAction, MoveResult, Sense,
                                 SenseResult, TurnStarted)
from app.games.scene import BoardScene, Cell, MarkerSpec, Remembered, piece_words
from app.games.rbc import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

OLDER_SENSES = 3  # older senses still drawn (faded) under the latest
RECENT_MARKS = 3  # losses and captures still marked on the board
PASS_COMMAND = "pass"


def rbc_window(square: Cell) -> list[Cell]:
    """The 3x3 sense window around ``square``, clipped at the edges."""
    return [sq8(s) for s in SENSE_WINDOWS[from_sq8(square)]]


def rbc_scene(view: Any) -> BoardScene:
    """Own pieces, the latest sense (its outline), older senses faded, capture squares, and the enemy pieces the
    seat knows of from its last few turns (:func:`rbc_remembered`)."""
    scene = BoardScene()
    board: chess.Board = view.own_board
    scene.pieces = {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}
    senses = list(view.senses)
    if senses:
        latest = senses[-1]
        for older in senses[-1 - OLDER_SENSES:-1]:
            squares = tuple(sq8(square) for square, _ in older.window)
            if squares:
                scene.markers.append(MarkerSpec("sense_old", squares, f"t{turn_number(older.ply)}", 0.5))
        squares = tuple(sq8(square) for square, _ in latest.window)
        if squares:
            scene.markers.append(MarkerSpec("sense", squares, f"t{turn_number(latest.ply)}"))
    for ply, square in view.lost[-RECENT_MARKS:]:
        scene.markers.append(MarkerSpec("lost", (sq8(square),), f"t{turn_number(ply)}"))
    for ply, square in view.captures[-RECENT_MARKS:]:
        scene.markers.append(MarkerSpec("captured", (sq8(square),), f"t{turn_number(ply)}"))
    scene.remember(rbc_remembered(view))
    for result in reversed(view.moves):
        if result.taken is not None:
            scene.last_move = (sq8(result.taken.from_square), sq8(result.taken.to_square))
            break
    if view.phase == "move":
        scene.targets = chess_targets(view.move_actions())
    elif view.phase == "sense":
        scene.sense_window = rbc_window
    return scene


def rbc_remembered(view: Any) -> list[Remembered]:
    """The enemy pieces a seat knows of: on each square, the latest thing its observations told it (the belief
    kit's facts: a sense, its own moves, a capture), if that is an enemy piece (of unknown type where it captured
    one of the seat's pieces) and came from one of its last few senses (those still outlined) or later. What the
    seat learned at or after the opponent's latest move (its turn just before the seat's current one) is current;
    anything older is drawn old, with its turn: the opponent may have moved it since.

    A square that a later observation contradicts shows what that observation said: the pawn sensed on d5 and
    captured there is gone, and the queen that took back on d5 is an enemy piece of unknown type.
    """
    senses = view.senses
    since = opponent_moved(view)
    oldest = senses[-1 - OLDER_SENSES].ply if len(senses) > OLDER_SENSES else 0
    return remembered_from_facts(facts(view), since, not view.color, oldest)


def opponent_moved(view: Any) -> int:
    """The ply of the opponent's latest move the seat knows of (-1 if none): the turn just before the seat's
    current or latest one (a pass counts, the seat cannot tell it from a move)."""
    return view.ply - 1 if view.ply else -1


@singledispatch
def describe_rbc(observation: object, seat: Seat) -> str | None:
    """One line of the seat's log for an RBC observation, saying no more than the observation does (None: not
    worth a line); each kind of observation has its own function, registered below."""
    return None


@describe_rbc.register(GameEnded)
def _ended(o: GameEnded, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat)


@describe_rbc.register(GameStarted)
def _started(o: GameStarted, seat: Seat) -> str | None:
    return you_play(o.color)


@describe_rbc.register(TurnStarted)
def _turn(o: TurnStarted, seat: Seat) -> str | None:
    if o.capture_square is None:
        return f"Turn {turn_number(o.ply)}: your move." if o.ply else None
    return f"Turn {turn_number(o.ply)}: your piece on {square_name(o.capture_square)} was captured."


@describe_rbc.register(SenseResult)
def _sensed(o: SenseResult, seat: Seat) -> str | None:
    if o.square is None:
        return "You did not sense."
    color = seat == 0
    found = [f"{piece_words(piece.symbol())} on {square_name(square)}" for square, piece in o.window
             if piece is not None and piece.color != color]
    seen = ", ".join(found) if found else "no enemy piece"
    return f"Sensed around {square_name(o.square)}: {seen}."


@describe_rbc.register(MoveResult)
def _moved(o: MoveResult, seat: Seat) -> str | None:
    if o.requested is None:
        return "You passed."
    if o.taken is None:
        return f"You asked for {move_words(o.requested)}; it could not be played (nothing moved)."
    text = (f"You played {move_words(o.taken)}" if o.taken == o.requested
            else f"You asked for {move_words(o.requested)}; {move_words(o.taken)} was played")
    if o.capture_square is not None:
        text += f" and captured a piece on {square_name(o.capture_square)}"
    return text + "."


def rbc_moves(view: Any) -> list[str]:
    """One line per turn, numbered by move: a piece lost since the last turn, the sense, and the move as the seat
    writes it (SAN from its own pieces), with what came of it: ``(failed)`` when nothing moved, ``→ Bxc6
    (changed)`` when the referee played another move, ``pass``."""
    senses = {sense.ply: sense for sense in view.senses}
    lost = {ply + 1: square for ply, square in view.lost}
    lines = []
    for result, (asked, taken) in zip(view.moves, view.written):
        sense = senses.get(result.ply)
        parts = [] if result.ply not in lost else [f"lost {square_name(lost[result.ply])}"]
        parts.append("no sense" if sense is None or sense.square is None else f"sense {square_name(sense.square)}")
        if asked is None:
            parts.append("pass")
        elif taken is None:
            parts.append(f"{asked} (failed)")
        elif result.taken != result.requested:
            parts.append(f"{asked} → {taken} (changed)")
        else:
            parts.append(str(taken))
        lines.append(f"{turn_number(result.ply)}. {' · '.join(parts)}")
    return lines


class RbcPresenter(ChessPresenter):
    """Reconnaissance Blind Chess: a sense (a square) then a move or a pass each turn; a seat sees its own
    clock only (ruling R4) and keeps a belief board."""

    key = DEFINITION.key
    entry_text = "Type a square to sense (d7), then a move (e2e4, Nf3) or pass"

    def scene(self, view: Any) -> BoardScene:
        return rbc_scene(view)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, TurnStarted) and o.capture_square is not None:
            return ("captured",)
        if isinstance(o, SenseResult) and o.square is not None:
            return ("sense",)
        if isinstance(o, MoveResult) and o.requested is not None:
            if o.taken is None:
                return ("failed",)
            played = "capture" if o.capture_square is not None else "move"
            return (played,) if o.taken == o.requested else ("failed", played)  # changed: say so, then what
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe_rbc(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        return rbc_moves(view)

    def premove_scene(self, view: Any) -> BoardScene | None:
        # While the opponent acts, and in the seat's own sense phase: the moves to follow the sense (the window
        # offers them there only to change a move queued before, played once the sense is made).
        if view.outcome is not None or view.phase not in ("wait", "sense"):
            return None
        scene = rbc_scene(view)
        scene.targets = chess_targets(view.move_actions())
        scene.sense_window = rbc_window
        return scene

    def move_action(self, move: chess.Move) -> Action:
        return MoveAction(move)

    def on_square(self, view: Any, square: Cell) -> Action:
        return Sense(from_sq8(square))

    def parse_text(self, view: Any, text: str) -> Action:
        word = text.strip().lower()
        if view.phase == "sense":
            if word == PASS_COMMAND:
                raise InputError("sensing cannot be skipped in RBC: type the square to sense, such as d7 "
                                 "(pass is for the move that follows)")
            return self.on_square(view, parse_square_text(text, 8, 8))
        if word == PASS_COMMAND:
            return PASS
        return super().parse_text(view, text)

    def commands(self, view: Any) -> list[Command]:
        return [Command(PASS_COMMAND, "Pass", view.phase == "move")]

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        if command_id != PASS_COMMAND:
            return super().command(view, command_id)
        return PASS

    def prompt(self, view: Any) -> str:
        return {"sense": "Choose a square to sense", "move": "Your move"}.get(view.phase, str(view.phase))

    def visible_clocks(self, seat: Seat, seat_count: int) -> list[Seat]:
        return [seat]  # ruling R4: a seat is not told how much time its opponent has left

    def panels(self) -> frozenset[str]:
        return frozenset({BELIEF_PANEL})


PRESENTER = RbcPresenter()
__all__ = ["PRESENTER", "RbcPresenter", "describe_rbc", "rbc_moves", "rbc_remembered", "rbc_scene", "rbc_window"]
