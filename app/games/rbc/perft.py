"""Perft for Reconnaissance Blind Chess: every sequence of *move actions* (passes left out), each applied to the
true board as the referee revises it; a position where a king was captured is not expanded.

``sightline perft --variant rbc`` reaches :func:`perft` through the game's definition.

>>> perft(2, None)
[34, 1156]
"""

from __future__ import annotations

import chess

from app.engine.perft import chess_board
from app.games.rbc.moves import move_actions, revise_move, with_default_promotion

__all__ = ["perft"]


def _count(board: chess.Board, depth: int, ply: int, counts: list[int]) -> None:
    actions = move_actions(board).as_list()
    counts[ply] += len(actions)
    if ply + 1 == depth:
        return
    for move in actions:
        taken = revise_move(board, with_default_promotion(board, move))
        board.push(taken if taken is not None else chess.Move.null())
        if board.kings & board.occupied_co[chess.WHITE] and board.kings & board.occupied_co[chess.BLACK]:
            _count(board, depth, ply + 1, counts)
        board.pop()


def perft(depth: int, position: str | None) -> list[int]:
    """Counts of move-action sequences of length 1..``depth`` (at least 1) from the FEN ``position`` (the usual
    start for None); ``ValueError`` for a position a game refuses."""
    board = chess_board(position)
    counts = [0] * depth
    _count(board, depth, 0, counts)
    return counts
