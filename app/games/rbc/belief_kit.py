"""Reconnaissance Blind Chess's part of the belief board kit (:mod:`app.engine.belief`): what a seat knows
square by square, and the types of the pieces it captured. The definition's ``belief`` points at :data:`KIT`."""

from __future__ import annotations

from typing import Any

import chess

from app.engine.belief import BeliefKit, Fact, PieceType, _passed_and_landed, turn_number
from app.engine.rbc import ReconChessView


def facts(view: ReconChessView) -> dict[int, Fact]:
    """What an RBC seat knows square by square (see :func:`app.engine.belief.knowledge`): its senses, its own
    moves (the squares they crossed and landed on, what they captured) and where it lost pieces."""
    facts: dict[int, Fact] = {}
    events: list[tuple[int, int, Any]] = []
    events += [(sense.ply, 1, sense) for sense in view.senses]
    events += [(result.ply, 2, result) for result in view.moves]
    events += [(ply, 0, square) for ply, square in view.lost]
    for ply, _, event in sorted(events, key=lambda item: (item[0], item[1])):
        turn = turn_number(ply)
        if isinstance(event, int):
            facts[event] = Fact(ply, "occupied", None, f"an enemy piece captured yours here on turn {turn}")
        elif hasattr(event, "window"):
            for square, piece in event.window:
                if piece is None:
                    facts[square] = Fact(ply, "empty", None, f"sensed empty on turn {turn}")
                elif piece.color != view.color:
                    facts[square] = Fact(ply, "piece", piece.piece_type,
                                         f"a {chess.piece_name(piece.piece_type)} was sensed here on turn {turn}")
        elif event.taken is not None:
            _passed_and_landed(event.taken, event.capture_square, ply, facts)
            if event.capture_square is not None:
                captured = _rbc_captured_type(view, ply, event.capture_square)
                name = "a piece" if captured is None else f"a {chess.piece_name(captured)}"
                facts[event.capture_square] = Fact(ply, "captured", captured,
                                                   f"you captured {name} here on turn {turn}")
    return facts


def _rbc_captured_type(view: ReconChessView, ply: int, square: int) -> PieceType | None:
    # The sense of the same turn came before the move and the opponent has not moved in between,
    # so the enemy piece it showed on the capture square is the one taken.
    for sense in view.senses:
        if sense.ply == ply:
            for seen, piece in sense.window:
                if seen == square and piece is not None and piece.color != view.color:
                    return piece.piece_type
    return None


def captured_types(view: ReconChessView) -> list[PieceType | None]:
    """The type of each piece the seat captured, in order; ``None`` where no sense of that turn showed it."""
    return [_rbc_captured_type(view, ply, square) for ply, square in view.captures]


KIT = BeliefKit(facts, captured_types)
"""What the definition's ``belief`` points at."""
