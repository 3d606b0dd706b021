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

from .rbc_moves import move_actions, revise_move, with_default_promotion


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
    if variant == "minit":
        from .minit import STARTING_POSITION
        from .minit import perft as minit_perft
        return minit_perft(position or STARTING_POSITION, depth)
    if variant not in ("chess", "rbc"):
        raise ValueError(f"perft knows chess, rbc and minit, not {variant!r}")
    try:
        board = chess.Board(position or chess.STARTING_FEN)
    except ValueError as error:
        raise ValueError(f"bad position: {error}") from None
    counts = [0] * depth
    (_chess if variant == "chess" else _rbc)(board, depth, 0, counts)
    return counts
