"""Blind Chess's export format: PGN of the true moves, with failed attempts and skipped turns as null moves
and the attempts, captures, reveals and draw offers as comments."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import chess

from app.games.blind.rules import AttemptResult, DrawDeclined, DrawOffered, TurnSkipped
from app.games.chess_kit import PIECE_NAMES
from app.games.chess_pgn import ChessPgn, ChessWithoutCheck

if TYPE_CHECKING:
    from app.engine.record import Timeline

__all__ = ["PGN", "BlindChessBoard", "blind_comments"]


class BlindChessBoard(ChessWithoutCheck):
    """Blind Chess's true board for ``chess.pgn`` (``[Variant "Blind Chess"]``)."""

    aliases: ClassVar[list[str]] = ["Blind Chess"]
    uci_variant: ClassVar[str | None] = "blindchess"
    xboard_variant: ClassVar[str | None] = "blindchess"


def blind_comments(timeline: Timeline) -> dict[int, list[str]]:
    """Ply -> what the PGN says about it: failed attempts, captures, reveals, a seat with no possible attempt,
    and the draw offers and answers (told before the attempt of their turn)."""
    comments: dict[int, list[str]] = {}
    draws: dict[int, list[str]] = {}  # offers and answers come before the attempt of their turn
    names = timeline.seat_names
    seen_draws: set[tuple[str, int, int]] = set()
    for seat in range(len(names)):
        for observation in timeline.game.observations(seat):
            if isinstance(observation, AttemptResult):
                notes = comments.setdefault(observation.ply, [])
                if not observation.success:
                    notes.append(f"attempt {observation.move.uci()} failed")
                if observation.capture is not None:
                    notes.append(f"captures a {PIECE_NAMES[observation.capture[0]]} on "
                                 f"{chess.square_name(observation.capture[1])}")
                if observation.reveals:
                    shown = ", ".join(f"{piece.symbol()} {chess.square_name(square)}"
                                      for square, piece in observation.reveals)
                    notes.append(f"reveals {shown}")
            elif isinstance(observation, TurnSkipped):
                comments.setdefault(observation.ply, []).append(f"{names[seat]} has no possible attempt")
            elif isinstance(observation, (DrawOffered, DrawDeclined)):
                key = (type(observation).__name__, observation.ply, observation.seat)
                if key in seen_draws:  # told to both seats
                    continue
                seen_draws.add(key)
                verb = "offers a draw" if isinstance(observation, DrawOffered) else "declines the draw"
                draws.setdefault(observation.ply, []).append(f"{names[observation.seat]} {verb}")
    for ply, said in draws.items():
        comments[ply] = said + comments.get(ply, [])
    return comments


PGN = ChessPgn("blind", BlindChessBoard, blind_comments)
"""Blind Chess's PGN writer (a record -> PGN text)."""
