"""Cloak and Dagger's export: a finished game's moves as PGN-like text.

PGN's tags (the players, the result ...) and both secret arrangements, then the regular moves, numbered as in
PGN, in long algebraic form with the piece each one truly was (``Nb1-c3``; a checker still cloaked when it
moved carries its number: ``N[2]b1-c3``); what chess has no sign for is said in comments in braces: a guess
before the move it belongs to, a bonus move or drop, an identity told by a capture or a castling, the
checkers uncloaked at the end of a turn. The text shows both arrangements, so the window offers it only once
the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from app import games
from app.engine.record import RecordError, Timeline
from app.games.chess_kit import pgn_headers, pgn_like_text, result_token

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["cloak_move_list", "move_tokens"]

_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
_SIDES = ("White", "Black")


def cloak_move_list(record: GameRecord) -> str:
    """A Cloak and Dagger game as PGN-like tags (both arrangements among them), then its moves with comments."""
    if record.variant != "cloak":
        raise RecordError(f"the Cloak and Dagger move list is for Cloak and Dagger games, not {record.variant}")
    timeline = Timeline(record)
    game: Any = timeline.game
    headers = pgn_headers(record, games.get(record.variant).title)
    for side, pieces in zip(_SIDES, game.arrangements):
        headers[f"{side}Arrangement"] = pieces or "?"
    tokens = move_tokens(game.observations(0), tuple(game.arrangements))
    tokens.append(result_token(record.result))
    return pgn_like_text(headers, tokens, record.result)


def move_tokens(observations: Any, arrangements: tuple[str | None, str | None]) -> list[str]:
    """The move text's tokens (move numbers, moves, comments) from the public observations of a game, with the
    true arrangements to name the pieces that moved cloaked.

    >>> from app.games.cloak.view import Guessed, Moved, Uncloaked
    >>> seen = [Guessed(0, 3, "N", False), Moved(0, "b1c3", chess.B1, chess.C3, "2"),
    ...         Uncloaked(0, {2: "N"}), Moved(1, "e7e5", chess.E7, chess.E5, "P")]
    >>> " ".join(move_tokens(seen, ("RNBQKBNR", "RNBQKBNR")))
    '1. {White guesses checker 3 is a knight: wrong} N[2]b1-c3 {White uncloaks 2 (knight)} 1... e7-e5'
    """
    tokens: list[str] = []
    move_number = 0
    white_numbered = False  # White's move number is written (before its guess), its move not yet
    black_follows = False  # the last token is White's move: Black's move follows it without a number

    def say(token: str) -> None:
        nonlocal black_follows
        tokens.append(token)
        black_follows = False

    for observation in observations:
        kind = type(observation).__name__
        o = observation
        if kind == "Guessed":
            if o.seat == 0 and not white_numbered:
                move_number += 1
                say(f"{move_number}.")
                white_numbered = True
            right = "right" if o.right else "wrong"
            say(f"{{{_SIDES[o.seat]} guesses checker {o.checker} is a {_NAMES[o.piece]}: {right}}}")
        elif kind == "Moved" and not o.bonus:
            if o.seat == 0:
                if not white_numbered:
                    move_number += 1
                    say(f"{move_number}.")
                white_numbered = False
            elif not black_follows:
                say(f"{max(1, move_number)}...")
            say(_move_text(o, arrangements))
            black_follows = o.seat == 0
            for comment in _move_comments(o):
                say(comment)
        elif kind == "Moved":
            say(f"{{{_SIDES[o.seat]}'s bonus: {_move_text(o, arrangements)}}}")
            for comment in _move_comments(o):
                say(comment)
        elif kind == "Dropped":
            say(f"{{{_SIDES[o.seat]}'s bonus: P@{chess.square_name(o.square)}}}")
        elif kind == "BonusLost":
            say(f"{{{_SIDES[o.seat]} {'skips its bonus move' if o.declined else 'has no bonus move to make'}}}")
        elif kind == "DrawOffered":
            say(f"{{{_SIDES[o.seat]} offers a draw}}")
        elif kind == "DrawDeclined":
            say(f"{{{_SIDES[o.seat]} declines the draw}}")
        elif kind == "Uncloaked" and o.identities:
            shown = ", ".join(f"{number} ({_NAMES[piece]})" for number, piece in sorted(o.identities.items()))
            say(f"{{{_SIDES[o.seat]} uncloaks {shown}}}")
    return tokens


def _move_text(moved: Any, arrangements: tuple[str | None, str | None]) -> str:
    """``e2-e4``, ``Nxd4``-style long algebraic with the true piece; a cloaked checker's number in brackets."""
    if moved.castling:
        return "O-O" if chess.square_file(moved.to_square) > chess.square_file(moved.from_square) else "O-O-O"
    code = str(moved.mover)
    if code.isdigit():
        arrangement = arrangements[moved.seat] or "?" * 8
        piece = f"{arrangement[int(code) - 1]}[{code}]"
    else:
        piece = "" if code == "P" else code.upper()
    capture = "x" if moved.captured else "-"
    text = f"{piece}{chess.square_name(moved.from_square)}{capture}{chess.square_name(moved.to_square)}"
    return text + (f"={moved.promotion}" if moved.promotion else "")


def _move_comments(moved: Any) -> list[str]:
    """What a move told besides itself: a cloaked victim's identity, the checkers a castling showed."""
    comments = []
    if moved.captured and str(moved.captured).isdigit() and moved.captured_identity:
        comments.append(f"{{took checker {moved.captured}, a {_NAMES[moved.captured_identity]}}}")
    if moved.castling and moved.revealed:
        shown = ", ".join(f"{number} ({_NAMES[piece]})" for number, piece in sorted(moved.revealed.items()))
        comments.append(f"{{castling shows {shown}}}")
    return comments
