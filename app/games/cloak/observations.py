"""Cloak and Dagger's observations: what the referee tells the seats, and the tokens a seat's view sees on a
square."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import chess

from app.engine.core import Outcome, Seat


@dataclass(frozen=True)
class Seated:
    """Told to each seat when the game is set up: which seat it plays, and the game's public ``deduction``
    option (whether the app shades the deduction grids; the rules never read it)."""

    seat: Seat
    deduction: bool = True


@dataclass(frozen=True)
class Arranged:
    """``seat`` arranged its pieces; ``pieces`` only in that seat's own copy (``None`` in everyone else's)."""

    seat: Seat
    pieces: str | None


@dataclass(frozen=True)
class Guessed:
    """Told to both: ``seat`` guessed that the enemy's ``checker`` is ``piece``, and whether that was right."""

    seat: Seat
    checker: int
    piece: str
    right: bool


@dataclass(frozen=True)
class Moved:
    """Told to both: a move by ``seat`` (its regular move, or a bonus pawn move when ``bonus``).

    ``mover`` and ``captured`` are coded alike: ``"P"`` for a pawn, a piece letter for an uncloaked checker
    or a promoted pawn, the checker's number as text (``"3"``) for a cloaked checker. ``captured_identity``
    is the true piece of a captured checker; ``revealed`` the identities castling told (king and rook);
    ``capture_square`` where the captured piece stood (another square than ``to_square`` for en passant).
    """

    seat: Seat
    uci: str
    from_square: chess.Square
    to_square: chess.Square
    mover: str
    captured: str | None = None
    captured_identity: str | None = None
    promotion: str | None = None
    castling: bool = False
    bonus: bool = False
    revealed: dict[int, str] = field(default_factory=dict)
    capture_square: chess.Square | None = None


@dataclass(frozen=True)
class Dropped:
    """Told to both: ``seat``'s bonus move dropped one of its captured pawns on ``square``."""

    seat: Seat
    square: chess.Square


@dataclass(frozen=True)
class BonusLost:
    """Told to both: ``seat`` had a bonus move and made none (``declined``) or had none to make."""

    seat: Seat
    declined: bool


@dataclass(frozen=True)
class Uncloaked:
    """Told to both at the end of ``seat``'s turn: the checkers it uncloaked and what they are (maybe none)."""

    seat: Seat
    identities: dict[int, str]


@dataclass(frozen=True)
class Checked:
    """Told to both after ``seat``'s opponent ended its turn: ``seat``'s king, uncloaked, stands attacked by a
    visible enemy piece (check as the rules judge it; a cloaked king is never in check, so this tells nothing
    the public board does not)."""

    seat: Seat


@dataclass(frozen=True)
class DrawOffered:
    """Told to both: ``seat`` offered a draw; the other seat must answer before play goes on."""

    seat: Seat


@dataclass(frozen=True)
class DrawDeclined:
    """Told to both: ``seat`` declined the draw offer; the offerer goes on with its turn."""

    seat: Seat


@dataclass(frozen=True)
class Ended:
    """Told to both when the game ends: the outcome, and both arrangements (``None`` where none was made)."""

    outcome: Outcome
    arrangements: tuple[str | None, str | None]


Observation = (Seated | Arranged | Guessed | Moved | Dropped | BonusLost | Uncloaked | DrawOffered | DrawDeclined
               | Ended)


class Token(NamedTuple):
    """What stands on a square as a seat sees it: ``kind`` is ``"P"``, a piece letter (an uncloaked checker
    or a promoted pawn) or ``"?"`` for a cloaked checker; ``checker`` is the checker's number (``None`` for
    pawns and promoted pawns)."""

    colour: int
    kind: str
    checker: int | None


class SeenMove(NamedTuple):
    """One entry of :attr:`CloakView.moves`: a move or drop seen, and the occupied squares (a python-chess
    ``SquareSet`` as an int) just before it."""

    moved: Moved | Dropped
    occupied: int
