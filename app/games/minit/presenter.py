"""MinitChess as a person meets it: played in the open on 5 files and 6 ranks, so a seat's board is the whole
position; squares are numbered rank by rank from a1 (``rank * 5 + file``).

>>> from app.games.minit.rules import MinitChess, MinitChessView, MinitMove
>>> view = MinitChessView.from_observations(MinitChess().observations(0))
>>> PRESENTER.parse_text(view, "b2-b3") == MinitMove.parse("b2-b3")
True
"""

from __future__ import annotations

import dataclasses
from functools import singledispatch
from typing import TYPE_CHECKING, Any

from app.games.chess_kit import outcome_sentence, you_play
from app.games.presenter import PresenterBase
from app.games.minit.rules import GameEnded, GameStarted, MinitMove, Move, MovePlayed, piece_letter
from app.games.scene import BoardScene, Cell, piece_words
from app.games.minit import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

FILES, RANKS = 5, 6


def cell(square: int) -> Cell:
    """The scene's (file, rank) of a MinitChess square number."""
    return square % FILES, square // FILES


def square_number(square: Cell) -> int:
    """The MinitChess square number of a scene's (file, rank)."""
    return square[1] * FILES + square[0]


def _position_pieces(position: Any) -> dict[Cell, str]:
    return {cell(square): piece_letter(code) for square, code in enumerate(position.board) if code}


def minit_scene(view: Any) -> BoardScene:
    """MinitChess is played in the open: the whole position."""
    scene = BoardScene(files=FILES, ranks=RANKS, pieces=_position_pieces(view.position))
    if view.moves:
        last = view.moves[-1]
        move = getattr(last, "move", last)  # the view keeps MovePlayed observations
        scene.last_move = (cell(move.from_square), cell(move.to_square))
    if view.my_turn and view.outcome is None:
        for move in view.legal_moves():
            scene.targets.setdefault(cell(move.from_square), {})[cell(move.to_square)] = []
    return scene


@singledispatch
def describe_minit(observation: object, seat: Seat) -> str | None:
    """One line of the seat's log for a MinitChess observation (None: not worth a line); each kind of
    observation has its own function, registered below."""
    return None


@describe_minit.register(GameEnded)
def _ended(o: GameEnded, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat)


@describe_minit.register(GameStarted)
def _started(o: GameStarted, seat: Seat) -> str | None:
    return you_play(o.color)


@describe_minit.register(MovePlayed)
def _played(o: MovePlayed, seat: Seat) -> str | None:
    mover = "White" if o.ply % 2 == 0 else "Black"
    text = f"{mover} played {o.move}"
    return text + (f", taking the {piece_words(o.captured)}." if o.captured else ".")


def minit_moves(view: Any) -> list[str]:
    """Both sides' moves, a numbered line per move pair, as in a score sheet."""
    lines: list[str] = []
    for played in view.moves:
        text = f"{played.move}" + (f"×{played.captured}" if played.captured else "")
        if played.ply % 2 == 0:
            lines.append(f"{played.ply // 2 + 1}. {text}")
        elif lines:
            lines[-1] += f"  {text}"
        else:
            lines.append(f"{played.ply // 2 + 1}. …  {text}")
    return lines


class MinitPresenter(PresenterBase):
    """MinitChess: moves only (pawns always become queens, so a move needs no promotion choice)."""

    key = DEFINITION.key
    entry_text = "Type a move (b2-b3, Nc3)"

    def scene(self, view: Any) -> BoardScene:
        return minit_scene(view)

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        scene = BoardScene(files=FILES, ranks=RANKS, pieces=_position_pieces(truth))
        if last_move is not None:
            scene.last_move = (cell(last_move.from_square), cell(last_move.to_square))
        return scene

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        if isinstance(observation, MovePlayed):
            mine = observation.ply % 2 == seat
            if observation.captured:
                return ("capture",) if mine else ("captured",)
            return ("move",)
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe_minit(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        return minit_moves(view)

    def premove_scene(self, view: Any) -> BoardScene | None:
        if view.outcome is not None or view.my_turn:
            return None
        scene = minit_scene(view)
        for move in dataclasses.replace(view.position, turn=view.color).legal_moves():
            scene.targets.setdefault(cell(move.from_square), {})[cell(move.to_square)] = []
        return scene

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        return MinitMove(Move(square_number(from_square), square_number(to_square)))


PRESENTER = MinitPresenter()
__all__ = ["PRESENTER", "MinitPresenter", "cell", "describe_minit", "minit_moves", "minit_scene", "square_number"]
