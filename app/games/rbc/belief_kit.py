"""Reconnaissance Blind Chess's part of the belief board kit (:mod:`app.engine.belief`): what a seat knows
square by square, and the types of the pieces it captured. The definition's ``belief`` points at :data:`KIT`."""

from __future__ import annotations

from typing import Any

import chess

from app.engine.belief import (BeliefKit, Fact, PieceType, _castled_across, _is_pawn_move, _passed_and_landed,
                               kept_facts, turn_number)
from app.games.rbc.rules import ReconChessView


def facts(view: ReconChessView) -> dict[int, Fact]:
    """What an RBC seat knows square by square (see :func:`app.engine.belief.knowledge`): its senses, its own
    moves (the squares they crossed and landed on, what they captured; castling, the squares between king and
    rook; a pawn's capture that was not played, that its square held no enemy piece) and where it lost pieces
    (except a pawn that had just stepped two squares: it may have been taken en passant)."""
    return kept_facts(view, (len(view.senses), len(view.moves), len(view.lost)), _facts)


def _facts(view: ReconChessView) -> dict[int, Fact]:
    facts: dict[int, Fact] = {}
    events: list[tuple[int, int, Any]] = []
    events += [(sense.ply, 1, sense) for sense in view.senses]
    events += [(result.ply, 2, (result, written)) for result, written in zip(view.moves, view.written)]
    events += [(ply, 0, square) for ply, square in view.lost]
    double_steps = {result.ply + 1: result.taken.to_square for result, (_, taken) in zip(view.moves, view.written)
                    if result.taken is not None and _pawn_double_step(result.taken, taken)}
    for ply, order, event in sorted(events, key=lambda item: (item[0], item[1])):
        turn = turn_number(ply)
        if order == 0:
            if double_steps.get(ply) == event:
                # The pawn that had just stepped two squares may have been taken en passant: the taker then stands
                # on the square it passed over, not on this one. Which of the two it is, the seat cannot tell.
                facts.pop(event, None)
                facts.pop(event + _BEHIND[view.color], None)
            else:
                facts[event] = Fact(ply, "occupied", None, f"an enemy piece captured yours here on turn {turn}")
        elif order == 1:
            for square, piece in event.window:
                if piece is None:
                    facts[square] = Fact(ply, "empty", None, f"sensed empty on turn {turn}")
                elif piece.color != view.color:
                    facts[square] = Fact(ply, "piece", piece.piece_type,
                                         f"a {chess.piece_name(piece.piece_type)} was sensed here on turn {turn}")
        else:
            result, (asked, taken) = event
            if result.taken is None and result.requested is not None and _pawn_diagonal(result.requested, asked):
                # A pawn's capture is played whenever an enemy piece stands on its square (or en passant).
                facts[result.requested.to_square] = Fact(
                    ply, "empty", None, f"your pawn's capture {result.requested.uci()} found no piece here on turn "
                                        f"{turn}")
            elif result.taken is not None:
                move = result.taken
                _castled_across(move, taken, ply, facts)  # castling is taken only through empty squares
                _passed_and_landed(move, result.capture_square, ply, facts)
                if result.capture_square is not None:
                    captured = _rbc_captured_type(view, ply, result.capture_square)
                    name = "a piece" if captured is None else f"a {chess.piece_name(captured)}"
                    facts[result.capture_square] = Fact(ply, "captured", captured,
                                                        f"you captured {name} here on turn {turn}")
    return facts


_BEHIND = {chess.WHITE: -8, chess.BLACK: 8}  # from a square to the one behind it, for each side's pawns


def _pawn_double_step(move: chess.Move | None, written: str | None) -> bool:
    return (move is not None and _is_pawn_move(move, written) and abs(move.to_square - move.from_square) == 16)


def _pawn_diagonal(move: chess.Move, written: str | None) -> bool:
    return _is_pawn_move(move, written) and chess.square_file(move.from_square) != chess.square_file(move.to_square)


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
