"""Perft for MinitChess: the referee's legal moves (see :func:`app.games.minit.rules.perft`), from MinitChess
position text.

``sightline perft --variant minit`` reaches :func:`perft` through the game's definition.

>>> perft(3, None)
[7, 49, 473]
"""

from __future__ import annotations

from app.games.minit.rules import STARTING_POSITION
from app.games.minit.rules import perft as minit_perft

__all__ = ["perft"]


def perft(depth: int, position: str | None) -> list[int]:
    """Counts of move sequences of length 1..``depth`` from ``position`` (MinitChess position text; the usual
    start for None); ``ValueError`` for a position the game refuses."""
    return minit_perft(position or STARTING_POSITION, depth)
