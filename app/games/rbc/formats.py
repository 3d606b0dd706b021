"""Reconnaissance Blind Chess's export formats: PGN of the true moves (senses, requested and revised moves and
captures as comments; a pass or a move nothing came of is a null move) and reconchess's ``GameHistory`` JSON,
which ``rc-replay`` reads.

>>> from app.engine.record import GameSession
>>> from app.games.rbc.rules import ReconChess, Sense, MoveAction
>>> from app.games.chess_pgn import read_pgn
>>> session = GameSession(ReconChess())
>>> for seat, action in ((0, Sense.parse("e7")), (0, MoveAction.parse("e2e4")), (1, Sense.parse("e2")),
...                      (1, MoveAction.parse("e7e5"))):
...     session.play(seat, action)
>>> game = read_pgn(PGN(session.record))
>>> [move.uci() for move in game.mainline_moves()], game.headers["Variant"]
(['e2e4', 'e7e5'], 'Reconnaissance Blind Chess')
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

import chess

from app.engine.record import RecordError
from app.games.chess_kit import PIECE_NAMES
from app.games.chess_pgn import ChessPgn, ChessWithoutCheck
from app.games.rbc.reconchess_history import record_to_history
from app.games.rbc.rules import MoveResult, SenseResult

if TYPE_CHECKING:
    from app.engine.record import GameRecord, Timeline

__all__ = ["PGN", "ReconBoard", "rbc_comments", "reconchess_history"]


class ReconBoard(ChessWithoutCheck):
    """Reconnaissance Blind Chess's true board for ``chess.pgn`` (``[Variant "Reconnaissance Blind Chess"]``)."""

    aliases: ClassVar[list[str]] = ["Reconnaissance Blind Chess", "RBC", "Recon Blind Chess"]
    uci_variant: ClassVar[str | None] = "rbc"
    xboard_variant: ClassVar[str | None] = "rbc"


def rbc_comments(timeline: Timeline) -> dict[int, list[str]]:
    """Ply -> what the PGN says about it: the senses, a pass, a requested move that was revised or came to
    nothing, and what was captured where."""
    comments: dict[int, list[str]] = {}
    game: Any = timeline.game  # a ReconChess
    board = chess.Board(game.starting_fen)
    results: dict[int, MoveResult] = {}
    for seat in range(len(timeline.seat_names)):
        for observation in timeline.game.observations(seat):
            if isinstance(observation, SenseResult):
                where = "skipped sensing" if observation.square is None else \
                    f"sense {chess.square_name(observation.square)}"
                comments.setdefault(observation.ply, []).append(where)
            elif isinstance(observation, MoveResult):
                results[observation.ply] = observation
    for ply, move in enumerate(game.board.move_stack):
        result = results.get(ply)
        notes = comments.setdefault(ply, [])
        if result is not None:
            if result.requested is None:
                notes.append("pass")
            elif result.taken is None:
                notes.append(f"{result.requested.uci()} was requested; nothing moved")
            elif result.taken != result.requested:
                notes.append(f"{result.requested.uci()} was revised to {result.taken.uci()}")
            if result.capture_square is not None:
                victim = board.piece_at(result.capture_square)
                what = PIECE_NAMES[victim.piece_type] if victim is not None else "piece"
                notes.append(f"captures a {what} on {chess.square_name(result.capture_square)}")
        board.push(move)
    return comments


PGN = ChessPgn("rbc", ReconBoard, rbc_comments)
"""RBC's PGN writer (a record -> PGN text)."""


def reconchess_history(record: GameRecord) -> str:
    """``record`` as the JSON text of a reconchess ``GameHistory``; RecordError for a game of another kind, or
    as :func:`~app.games.rbc.reconchess_history.record_to_history` raises it."""
    if record.variant != "rbc":
        raise RecordError(f"only RBC games export to reconchess (this is {record.variant})")
    return json.dumps(record_to_history(record))
