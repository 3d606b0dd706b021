"""Cloak and Dagger's checkers: the two seats, the eight checkers a side's pieces stand as, the pieces they may
stand for, and the Chess960 arrangements a side may choose in secret.

The piece on file n (a = 1 ... h = 8) of a side's back rank is *checker n*, so an arrangement is an assignment
of identities to checkers 1-8, written as eight letters (``"RNBQKBNR"``).
"""

from __future__ import annotations

import itertools
from typing import Any

import chess
from app.games.cloak import DEFINITION

WHITE, BLACK = 0, 1
PIECE_LETTERS = "KQRBN"
CHECKERS = tuple(range(1, 9))
SEAT_NAMES = DEFINITION.seat_names
PIECE_TYPES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
               "P": chess.PAWN}
LETTERS = {piece_type: letter for letter, piece_type in PIECE_TYPES.items()}
PLACEHOLDER = chess.KNIGHT
"""The type a view gives an enemy checker whose identity it cannot see. Only its square matters: our move
generation never looks at an enemy piece's type, and attacks are counted from visible enemy pieces only."""


def chess_colour(seat: int) -> chess.Color:
    """python-chess's colour of a seat (White is seat 0).

    >>> chess_colour(WHITE), chess_colour(BLACK)
    (True, False)
    """
    return seat == WHITE


def back_rank(seat: int) -> int:
    return 0 if seat == WHITE else 7


def checker_square(seat: int, checker: int) -> chess.Square:
    """Where checker ``checker`` of ``seat`` starts: the checker's file on the seat's back rank.

    >>> chess.square_name(checker_square(BLACK, 3))
    'c8'
    """
    return chess.square(checker - 1, back_rank(seat))



def arrangement_problem(pieces: Any) -> str | None:
    """Why ``pieces`` is not a Chess960 arrangement, as a sentence; ``None`` when it is one.

    >>> arrangement_problem("RNBQKBNR") is None
    True
    >>> arrangement_problem("RNBKQBNR") is None
    True
    >>> arrangement_problem("KRNBQBNR")
    'the king must stand between the rooks'
    >>> arrangement_problem("BRBQKNNR")
    'the bishops must stand on squares of different colours'
    >>> arrangement_problem("RNBQKQNR")
    'an arrangement has one king, one queen, two rooks, two bishops and two knights'
    """
    if not isinstance(pieces, str) or len(pieces) != 8 or any(letter not in PIECE_LETTERS for letter in pieces):
        return "an arrangement is eight letters from K, Q, R, B and N, one for each file from a to h"
    if sorted(pieces) != sorted("KQRRBBNN"):
        return "an arrangement has one king, one queen, two rooks, two bishops and two knights"
    rooks = [index for index, letter in enumerate(pieces) if letter == "R"]
    if not rooks[0] < pieces.index("K") < rooks[1]:
        return "the king must stand between the rooks"
    bishops = [index for index, letter in enumerate(pieces) if letter == "B"]
    if bishops[0] % 2 == bishops[1] % 2:
        return "the bishops must stand on squares of different colours"
    return None


def all_arrangements() -> tuple[str, ...]:
    """Every Chess960 arrangement, sorted.

    >>> arrangements = all_arrangements()
    >>> len(arrangements), "RNBQKBNR" in arrangements
    (960, True)
    """
    return _ARRANGEMENTS


_ARRANGEMENTS = tuple(sorted({"".join(order) for order in itertools.permutations("KQRRBBNN")
                              if arrangement_problem("".join(order)) is None}))
