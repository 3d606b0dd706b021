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
            # Ruling B2: the mover learns only that it failed, not why (a pawn's diagonal step onto an empty
            # square fails with nothing in the way), so the sentence must not guess at a cause.
            return f"Your move {o.move.uci()} failed."
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


def move_list(variant: str, view: Any) -> list[str]:
    """This seat's own moves with their results, one line per turn (no Qt; from the seat's view only).

    >>> from app.engine.rbc import ReconChess, ReconChessView, Sense, MoveAction
    >>> game = ReconChess()
    >>> game.play(0, Sense.parse("e7"))
    >>> game.play(0, MoveAction.parse("e2e4"))
    >>> move_list("rbc", ReconChessView.from_observations(game.observations(0)))
    ['1. sense e7 · e2e4']
    """
    if variant == "rbc":
        return _rbc_moves(view)
    if variant == "blind":
        return _blind_moves(view)
    return _minit_moves(view)


def _rbc_moves(view: Any) -> list[str]:
    senses = {sense.ply: sense for sense in view.senses}
    lines = []
    for result in view.moves:
        sense = senses.get(result.ply)
        sensed = "no sense" if sense is None or sense.square is None else f"sense {_square(sense.square)}"
        if result.requested is None:
            played = "pass"
        elif result.taken is None:
            played = f"{result.requested.uci()} (nothing moved)"
        elif result.taken != result.requested:
            played = f"{result.requested.uci()} → {result.taken.uci()}"
        else:
            played = result.taken.uci()
        if result.capture_square is not None:
            played += f" ×{_square(result.capture_square)}"
        lines.append(f"{_turn(result.ply)}. {sensed} · {played}")
    return lines


def _blind_moves(view: Any) -> list[str]:
    lines = []
    for result in view.results:
        text = f"{_turn(result.ply)}. {result.move.uci()}"
        if not result.success:
            text += " failed"
        else:
            if result.capture is not None:
                text += f" ×{_NAMES[result.capture[0]]}"
            if result.reveals:
                text += " saw " + ", ".join(f"{piece.symbol()}{_square(square)}" for square, piece in result.reveals)
        lines.append(text)
    return lines


def _minit_moves(view: Any) -> list[str]:
    lines: list[str] = []
    for played in view.moves:
        text = f"{played.move}" + (f"×{played.captured}" if played.captured else "")
        if played.ply % 2 == 0:
            lines.append(f"{played.ply // 2 + 1}. {text}")
        elif lines:
            lines[-1] += f"  {text}"
        else:
            lines.append(f"{played.ply // 2 + 1}. …  {text}")
    return lines
