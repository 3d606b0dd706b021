"""Perft: count move sequences, a self-check of each game's move generator.

- ``chess``: python-chess's legal moves (standard chess; the known numbers are 20, 400, 8902, 197281 ...).
- ``rbc``: every sequence of *move actions* (passes left out), each applied to the true board as the
  referee revises it; a position where a king was captured is not expanded.
- ``minit``: MinitChess's legal moves (see :func:`app.engine.minit.perft`).

>>> perft("chess", 3)
[20, 400, 8902]
>>> perft("rbc", 2)
[34, 1156]
"""

from __future__ import annotations

import chess

from .minit import MAX_PERFT_DEPTH
from .rbc_moves import move_actions, revise_move, with_default_promotion

MAX_DEPTH = MAX_PERFT_DEPTH
"""The deepest count asked for in one call: deeper ones would not finish anyway, and the cap keeps a mistyped
depth from exhausting memory or the call stack."""


def _chess(board: chess.Board, depth: int, ply: int, counts: list[int]) -> None:
    moves = list(board.legal_moves)
    counts[ply] += len(moves)
    if ply + 1 < depth:
        for move in moves:
            board.push(move)
            _chess(board, depth, ply + 1, counts)
            board.pop()


def _rbc(board: chess.Board, depth: int, ply: int, counts: list[int]) -> None:
    actions = move_actions(board).as_list()
    counts[ply] += len(actions)
    if ply + 1 == depth:
        return
    for move in actions:
        taken = revise_move(board, with_default_promotion(board, move))
        board.push(taken if taken is not None else chess.Move.null())
        if board.kings & board.occupied_co[chess.WHITE] and board.kings & board.occupied_co[chess.BLACK]:
            _rbc(board, depth, ply + 1, counts)
        board.pop()


def perft(variant: str, depth: int, position: str | None = None) -> list[int]:
    """Counts of move sequences of length 1..``depth`` from ``position`` (a FEN, or MinitChess notation)."""
    if depth < 1:
        raise ValueError("the depth must be at least 1")
    if depth > MAX_DEPTH:
        raise ValueError(f"the depth must be at most {MAX_DEPTH}")
    if variant == "minit":
        from .minit import STARTING_POSITION
        from .minit import perft as minit_perft
        return minit_perft(position or STARTING_POSITION, depth)
    if variant not in ("chess", "rbc"):
        raise ValueError(f"perft knows chess, rbc and minit, not {variant[:40]!r}")
    fen = position or chess.STARTING_FEN
    if len(fen) > 200:
        raise ValueError("bad position: that is too long to be a FEN")
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ValueError(f"bad position: {error}") from None
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        raise ValueError("bad position: each side needs a king")  # as a game refuses it
    counts = [0] * depth
    (_chess if variant == "chess" else _rbc)(board, depth, 0, counts)
    return counts
