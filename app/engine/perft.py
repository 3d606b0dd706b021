"""Perft: count move sequences, a self-check of each game's move generator.

- ``chess``: python-chess's legal moves (standard chess; the known numbers are 20, 400, 8902, 197281 ...).
- every game whose definition names a ``perft`` counter (``GameDefinition.perft``): that game's own count,
  found through the registry by the definition's ``perft_name`` (its key, or the name of the chess it is
  played with, as ``losalamos`` for Split-Brain); each game says in its own module what it counts.

>>> perft("chess", 3)
[20, 400, 8902]
>>> perft("rbc", 2)
[34, 1156]
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from . import variants

__all__ = ["CHESS", "MAX_DEPTH", "chess_board", "counters", "perft"]

CHESS = "chess"
"""The one count that is no game of the registry: standard chess, as python-chess plays it."""

MAX_DEPTH = 20
"""The deepest count asked for in one call: deeper ones would not finish anyway, and the cap keeps a mistyped
depth from exhausting memory or the call stack. (A game's own counter may cap itself too; a test checks that
none caps below this.)"""

Counter = Callable[[int, "str | None"], list[int]]
"""A game's perft: ``counter(depth, position)`` -> the counts for lengths 1..depth (``ValueError`` for a
position the game refuses)."""


def _chess(board: chess.Board, depth: int, ply: int, counts: list[int]) -> None:
    moves = list(board.legal_moves)
    counts[ply] += len(moves)
    if ply + 1 < depth:
        for move in moves:
            board.push(move)
            _chess(board, depth, ply + 1, counts)
            board.pop()


def chess_board(position: str | None) -> chess.Board:
    """The board of the FEN ``position`` (the usual start for None) with both kings on it, as a game of chess
    pieces would start from it; ``ValueError`` saying what is wrong with it."""
    fen = position or chess.STARTING_FEN
    if len(fen) > 200:
        raise ValueError("bad position: that is too long to be a FEN")
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ValueError(f"bad position: {error}") from None
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        raise ValueError("bad position: each side needs a king")  # as a game refuses it
    return board


def counters() -> dict[str, Counter]:
    """Variant -> its perft counter: ``chess`` first, then each game that has one, in the registry's order."""
    found: dict[str, Counter] = {CHESS: _count_chess}
    found.update({definition.perft_name: definition.perft()
                  for definition in variants.catalog().all() if definition.perft})
    return found


def _count_chess(depth: int, position: str | None) -> list[int]:
    board = chess_board(position)
    counts = [0] * depth
    _chess(board, depth, 0, counts)
    return counts


def perft(variant: str, depth: int, position: str | None = None) -> list[int]:
    """Counts of move sequences of length 1..``depth`` from ``position`` (a FEN, or the game's own position
    text), for ``chess`` or a game whose definition has a perft counter."""
    if depth < 1:
        raise ValueError("the depth must be at least 1")
    if depth > MAX_DEPTH:
        raise ValueError(f"the depth must be at most {MAX_DEPTH}")
    known = counters()
    counter = known.get(variant)
    if counter is None:
        names = list(known)
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        raise ValueError(f"perft knows {listed}, not {variant[:40]!r}")
    return counter(depth, position)
