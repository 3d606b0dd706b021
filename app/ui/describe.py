"""Observations in plain words, for a seat's event log (no Qt).

Every sentence is written from the point of view of the seat that received the
observation, and says no more than the observation does.

>>> import chess
>>> from app.engine.rbc import TurnStarted, MoveResult
>>> describe(TurnStarted(4, chess.E4), chess.WHITE)
'Turn 3: your piece on e4 was captured.'
>>> describe(MoveResult(4, chess.Move.from_uci("a1a8"), chess.Move.from_uci("a1a5"), chess.A5), chess.WHITE)
'You asked for a1a8; a1a5 was played and captured a piece on a5.'
"""

from __future__ import annotations

from typing import Any

import chess

_NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop", chess.ROOK: "rook",
          chess.QUEEN: "queen", chess.KING: "king"}


def _square(square: int) -> str:
    return chess.SQUARE_NAMES[square]


def _turn(ply: int) -> int:
    return ply // 2 + 1


def _outcome(outcome: Any, color: chess.Color) -> str:
    if outcome.winner is None:
        return f"Game over: draw ({outcome.detail or outcome.reason.value})."
    won = (outcome.winner == 0) == color
    return f"Game over: you {'won' if won else 'lost'} ({outcome.detail or outcome.reason.value})."


def describe(observation: Any, color: chess.Color) -> str | None:
    """One line for the event log, or ``None`` for observations not worth a line."""
    kind = type(observation).__name__
    module = type(observation).__module__
    if kind == "GameEnded":
        return _outcome(observation.outcome, color)
    if module.endswith(".rbc"):
        return _describe_rbc(kind, observation, color)
    if module.endswith(".blind"):
        return _describe_blind(kind, observation, color)
    if module.endswith(".minit"):
        return _describe_minit(kind, observation, color)
    return None


def _describe_rbc(kind: str, o: Any, color: chess.Color) -> str | None:
    if kind == "GameStarted":
        return f"You play {'White' if o.color else 'Black'}."
    if kind == "TurnStarted":
        if o.capture_square is None:
            return f"Turn {_turn(o.ply)}: your move." if o.ply else None
        return f"Turn {_turn(o.ply)}: your piece on {_square(o.capture_square)} was captured."
    if kind == "SenseResult":
        if o.square is None:
            return "You did not sense."
        found = [f"{piece.symbol()}{_square(square)}" for square, piece in o.window
                 if piece is not None and piece.color != color]
        seen = ", ".join(found) if found else "no enemy piece"
        return f"Sensed around {_square(o.square)}: {seen}."
    if kind == "MoveResult":
        if o.requested is None:
            return "You passed."
        if o.taken is None:
            return f"You asked for {o.requested.uci()}; it could not be played (nothing moved)."
        text = (f"You played {o.taken.uci()}" if o.taken == o.requested
                else f"You asked for {o.requested.uci()}; {o.taken.uci()} was played")
        if o.capture_square is not None:
            text += f" and captured a piece on {_square(o.capture_square)}"
        return text + "."
    return None


def _describe_blind(kind: str, o: Any, color: chess.Color) -> str | None:
    if kind == "GameStarted":
        return f"You play {'White' if o.color else 'Black'}."
    if kind == "TurnSkipped":
        return "You had no possible move; your turn passed."
    if kind == "AttemptResult":
        if not o.success:
            return f"Your move {o.move.uci()} failed: something blocked it."
        text = f"You played {o.move.uci()}"
        if o.capture is not None:
            text += f" and captured a {_NAMES[o.capture[0]]} on {_square(o.capture[1])}"
        if o.reveals:
            seen = ", ".join(f"{_NAMES[piece.piece_type]} on {_square(square)}" for square, piece in o.reveals)
            text += f"; you saw a {seen}"
        return text + "."
    if kind == "PieceLost":
        return f"You lost a {_NAMES[o.piece_type]}."
    if kind == "DrawOffered":
        return "A draw was offered."
    if kind == "DrawDeclined":
        return "The draw offer was declined."
    return None


def _describe_minit(kind: str, o: Any, color: chess.Color) -> str | None:
    if kind == "GameStarted":
        return f"You play {'White' if o.color else 'Black'}."
    if kind == "MovePlayed":
        mover = "White" if o.ply % 2 == 0 else "Black"
        text = f"{mover} played {o.move}"
        return text + (f", taking {o.captured}." if o.captured else ".")
    return None
