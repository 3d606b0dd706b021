"""What Cloak and Dagger's presenter reads from a seat's view: what stands where as the seat sees it, which
checkers it knows, whether it is its turn and what it may do now.

Everything here reads the seat's :class:`~app.games.cloak.view.CloakView` only, never the true state.
"""

from __future__ import annotations

from typing import Iterable

import chess

from app.engine.core import Seat
from app.games.chess_kit import chess_targets
from app.games.cloak.checkers import PIECE_LETTERS
from app.games.cloak.deduction import Deduction
from app.games.cloak.view import CloakView, Token
from app.games.scene import Cell, checker_token

PIECES = PIECE_LETTERS
"""The grids' rows, in order: the pieces a checker may stand for."""


def uci_text(move: str | chess.Move) -> str:
    """A move as UCI text (given as text or as a python-chess move)."""
    return move if isinstance(move, str) else move.uci()


def colour_of(seat: Seat | None) -> int:
    return 0 if seat in (None, 0) else 1


def checker_number(token: Token) -> int:
    """The number of the checker a token of a cloaked checker (kind ``"?"``) stands for."""
    if token.checker is None:  # (never: a cloaked checker's token always has its number)
        raise TypeError(f"a token without a checker's number: {token}")
    return token.checker


def identity(view: CloakView, colour: int, checker: int) -> str | None:
    """What the seat knows checker ``checker`` of ``colour`` stands for: its own from its arrangement, an enemy's
    only once it was told; None otherwise."""
    if colour == colour_of(view.seat) and view.own_arrangement:
        return str(view.own_arrangement[checker - 1])
    told = (view.told or {}).get(colour, {})
    piece = told.get(checker)
    return str(piece).upper() if piece else None


def piece_code(token: Token, shown: str | None) -> str:
    """The scene's code of a view's token: a piece letter, or a checker token showing ``shown``."""
    white = token.colour == 0
    if token.kind != "?":
        kind = str(token.kind)
        return kind.upper() if white else kind.lower()
    return checker_token(white, checker_number(token), shown)


def tokens(view: CloakView) -> dict[chess.Square, Token]:
    """What stands where as the seat sees it; before both sides have arranged (when the view's board is still
    empty), the set-up every game starts from, which both sides know: pawns on their second ranks, checker
    ``n`` of each side on the ``n``-th file of its back rank, all cloaked."""
    board = view.board
    if board or view.phase != "arrange":
        return board
    start: dict[chess.Square, Token] = {}
    for colour, back, pawns in ((0, 0, 1), (1, 7, 6)):
        for file in range(8):
            start[chess.square(file, back)] = Token(colour, "?", file + 1)
            start[chess.square(file, pawns)] = Token(colour, "P", None)
    return start


def my_turn(view: CloakView) -> bool:
    return view.seat is not None and view.outcome is None and view.to_move == view.seat


def guess_moment(view: CloakView) -> bool:
    """Whether the seat may guess now: its own move phase, before it guessed or moved."""
    return my_turn(view) and view.phase == "move" and bool(view.guessable())


def drops(view: CloakView) -> list[str]:
    """The squares (names) a waiting pawn may be dropped on now."""
    return [bonus[2:] for bonus in view.legal_bonus() if bonus.upper().startswith("P@")]


def bonus_pawn_moves(view: CloakView) -> list[chess.Move]:
    """The bonus moves open now that move a pawn (the drops apart)."""
    return [chess.Move.from_uci(bonus) for bonus in view.legal_bonus() if not bonus.upper().startswith("P@")]


def own_checker_at(view: CloakView, square: chess.Square) -> int | None:
    """The number of the seat's own cloaked checker on ``square`` (None when none stands there)."""
    token = tokens(view).get(square)
    if token is None or token.kind != "?" or token.colour != colour_of(view.seat):
        return None
    return checker_number(token)


def deduction_shown(view: CloakView) -> bool:
    """Whether the game shows what is still possible (its ``deduction`` option, told to each seat at the start)."""
    return bool(view.deduction)


def deduce(view: CloakView, side: int) -> Deduction:
    """What everything both players have seen says about ``side``'s arrangement."""
    return Deduction.about(view, side)


def targets(moves: Iterable[chess.Move]) -> dict[Cell, dict[Cell, list[str]]]:
    """The scene's targets (from -> to -> promotions) of ``moves``."""
    return chess_targets(moves)
