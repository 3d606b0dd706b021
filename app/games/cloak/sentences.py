"""Cloak and Dagger in words: the lines of a seat's log, the score sheet of the moves, an action as a phrase,
and the sounds of what happened.

A line says no more than the observation it is made from, and an observation is only ever one the seat was told.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any, Mapping

import chess

from app.engine.core import Seat
from app.games.chess_kit import outcome_sentence, square_name
from app.games.cloak.checkers import SEAT_NAMES
from app.games.cloak.view import (Arranged, BonusLost, Checked, CloakView, DrawDeclined, DrawOffered, Dropped, Ended,
                                  Guessed, Moved, Seated, Uncloaked)

SIDES = SEAT_NAMES
NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
ARTICLE = {"K": "a king", "Q": "a queen", "R": "a rook", "B": "a bishop", "N": "a knight", "P": "a pawn"}
"""The pieces' names, alone and with an article."""


def _mover_words(colour: int, code: str) -> str:
    """``White pawn``, ``Black checker 5 (cloaked)``, ``White queen``."""
    side = SIDES[colour]
    text = str(code)
    if text.isdigit():
        return f"{side} checker {text} (cloaked)"
    return f"{side} {NAMES.get(text.upper(), text)}"


def _victim_words(colour: int, code: str, identity: str | None) -> str:
    text = str(code)
    if text.isdigit():
        return f"{SIDES[colour]} checker {text}" + (f", {ARTICLE[str(identity).upper()]}" if identity else "")
    return f"{SIDES[colour]}'s {NAMES.get(text.upper(), text)}"


def arrangement_words(pieces: str) -> str:
    """``"RNBQKBNR"`` as ``"rook, knight, bishop, queen, king, bishop, knight, rook"``."""
    return ", ".join(NAMES[letter.upper()] for letter in pieces)


@singledispatch
def describe_cloak(observation: object, seat: Seat) -> str | None:
    """One line of the seat's log, saying no more than the observation does (None: not worth a line). Each kind
    of observation has its own function, registered below.

    >>> describe_cloak(Guessed(0, 3, "N", False), 1)
    'White guessed checker 3 is a knight: wrong, Black gets a bonus move.'
    >>> describe_cloak(Moved(1, "b8c6", chess.B8, chess.C6, "2"), 0)
    'Black checker 2 (cloaked) b8 to c6.'
    """
    return None


@describe_cloak.register(Seated)
def _seated(o: Seated, seat: Seat) -> str | None:
    return f"You play {SIDES[o.seat]}." if o.seat == seat else None


@describe_cloak.register(Arranged)
def _arranged(o: Arranged, seat: Seat) -> str | None:
    if o.pieces:
        return f"You arranged your pieces in secret: checkers 1 to 8 are {arrangement_words(o.pieces)}."
    return None if o.seat == seat else f"{SIDES[o.seat]} arranged its pieces in secret."


@describe_cloak.register(Guessed)
def _guessed(o: Guessed, seat: Seat) -> str | None:
    other = SIDES[1 - o.seat]
    result = (f"right, {SIDES[o.seat]} gets a bonus move after its move" if o.right
              else f"wrong, {other} gets a bonus move")
    return f"{SIDES[o.seat]} guessed checker {o.checker} is {ARTICLE[str(o.piece).upper()]}: {result}."


@describe_cloak.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    return _moved_words(o)


@describe_cloak.register(Dropped)
def _dropped(o: Dropped, seat: Seat) -> str | None:
    return f"Bonus: {SIDES[o.seat]} dropped a pawn on {square_name(o.square)}."


@describe_cloak.register(BonusLost)
def _bonus_lost(o: BonusLost, seat: Seat) -> str | None:
    if o.declined:
        return f"{SIDES[o.seat]} skipped its bonus move."
    return f"{SIDES[o.seat]} has no bonus move to make: the bonus is lost."


@describe_cloak.register(Uncloaked)
def _uncloaked(o: Uncloaked, seat: Seat) -> str | None:
    if not o.identities:
        return None
    shown = ", ".join(f"checker {number}: {NAMES[str(piece).upper()]}"
                      for number, piece in sorted(o.identities.items()))
    return f"{SIDES[o.seat]} uncloaked {shown}."


@describe_cloak.register(Checked)
def _checked(o: Checked, seat: Seat) -> str | None:
    return f"{SIDES[o.seat]} is in check." if o.seat != seat else "You are in check."


@describe_cloak.register(DrawOffered)
def _draw_offered(o: DrawOffered, seat: Seat) -> str | None:
    return f"{SIDES[o.seat]} offered a draw."


@describe_cloak.register(DrawDeclined)
def _draw_declined(o: DrawDeclined, seat: Seat) -> str | None:
    return f"{SIDES[o.seat]} declined the draw."


@describe_cloak.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    line = outcome_sentence(o.outcome, seat)
    both = [f"{SIDES[side]}'s checkers 1 to 8 were {arrangement_words(pieces)}"
            for side, pieces in enumerate(o.arrangements) if pieces]
    return line + "".join(f" {sentence}." for sentence in both)


def _moved_words(o: Moved) -> str:
    """A move (regular or bonus) as a line of the log."""
    prefix = "Bonus: " if o.bonus else ""
    if o.castling:
        side = "king" if chess.square_file(o.to_square) > chess.square_file(o.from_square) else "queen"
        told = ", ".join(f"checker {number} is {ARTICLE[str(piece).upper()]}"
                         for number, piece in sorted(o.revealed.items()))
        return f"{SIDES[o.seat]} castled {side}-side" + (f": {told}." if told else ".")
    text = f"{prefix}{_mover_words(o.seat, o.mover)} {square_name(o.from_square)} to {square_name(o.to_square)}"
    if o.captured:
        text += f", captured {_victim_words(1 - o.seat, o.captured, o.captured_identity)}"
        if o.capture_square is not None and o.capture_square != o.to_square:
            text += f" on {square_name(o.capture_square)} (en passant)"
    if o.promotion:
        text += f", promoted to {NAMES[str(o.promotion).upper()]}"
    return text + "."


def sounds_of(observation: object, seat: Seat) -> tuple[str, ...] | None:
    """The sounds of a move (``capture`` when the seat took, ``captured`` when it lost a piece) and of a check;
    None for the rest, which sound as in every game."""
    if isinstance(observation, Moved):
        if observation.captured:
            return ("capture",) if observation.seat == seat else ("captured",)
        return ("move",)
    if isinstance(observation, Checked):
        return ("check",)
    return None


def action_words(action: Mapping[str, Any]) -> str | None:
    """Cloak and Dagger's own actions as a phrase (checkers by number, pieces by name); None for the rest, and
    for an action too damaged to say, which are said as in every game.

    >>> action_words({"type": "guess", "checker": 3, "piece": "N"})
    'guess checker 3 is a knight'
    """
    kind = action.get("type")
    try:
        if kind == "arrange":
            return f"arrange checkers 1 to 8 as {arrangement_words(str(action['pieces']))}"
        if kind == "guess":
            return f"guess checker {action['checker']} is {ARTICLE[str(action['piece']).upper()]}"
        if kind == "uncloak":
            checkers = list(action["checkers"])
            return "uncloak " + (", ".join(f"checker {number}" for number in checkers) if checkers else "nothing")
        if kind == "bonus" and action.get("uci") is None:
            return "skip the bonus move"
        if kind == "answer_draw":
            return "accept the draw" if action.get("accept") else "decline the draw"
    except (KeyError, TypeError, AttributeError):
        pass  # (a record's action the game refused would have failed its replay: words for it anyway)
    return None


def cloak_moves(view: CloakView) -> list[str]:
    """Both sides' moves, a numbered line per move pair as on a score sheet; a bonus move or drop follows the
    move it belongs to with ``+``, a cloaked checker is written ``c3`` (checker 3), a capture with ``x``.

    >>> from types import SimpleNamespace as Entry
    >>> seen = [Moved(0, "e2e4", chess.E2, chess.E4, "P"), Moved(1, "b8c6", chess.B8, chess.C6, "2"),
    ...         Dropped(1, chess.D7)]
    >>> cloak_moves(Entry(moves=[Entry(moved=moved) for moved in seen]))
    ['1. e2-e4  c2:b8-c6 +P@d7']
    """
    lines: list[str] = []
    number = 0
    white_to_write = True
    for entry in view.moves:
        moved = entry.moved
        text = _short_move(moved)
        if (isinstance(moved, Dropped) or moved.bonus) and lines:
            lines[-1] += f" +{text}"
            continue
        if moved.seat == 0:
            number += 1
            lines.append(f"{number}. {text}")
            white_to_write = False
        else:
            if white_to_write or not lines:
                number += 1
                lines.append(f"{number}. …  {text}")
            else:
                lines[-1] += f"  {text}"
            white_to_write = True
    return lines


def _short_move(moved: Moved | Dropped) -> str:
    if isinstance(moved, Dropped):
        return f"P@{square_name(moved.square)}"
    if moved.castling:
        return "O-O" if chess.square_file(moved.to_square) > chess.square_file(moved.from_square) else "O-O-O"
    code = str(moved.mover)
    who = f"c{code}:" if code.isdigit() else ("" if code.upper() == "P" else code.upper())
    capture = "x" if moved.captured else "-"
    text = f"{who}{square_name(moved.from_square)}{capture}{square_name(moved.to_square)}"
    if moved.promotion:
        text += f"={str(moved.promotion).upper()}"
    return text
