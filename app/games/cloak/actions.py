"""Cloak and Dagger's actions: what a seat may do in each phase of a turn (see :mod:`app.games.cloak.rules`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.engine.core import Action


@dataclass(frozen=True)
class Arrange(Action):
    """The secret setup: eight letters for files a to h (checkers 1 to 8), e.g. ``"RNBQKBNR"``."""

    pieces: str
    kind: ClassVar[str] = "arrange"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "pieces": self.pieces}


@dataclass(frozen=True)
class Guess(Action):
    """At the start of a turn: enemy checker ``checker`` (still cloaked, identity not yet told) is ``piece``."""

    checker: int
    piece: str
    kind: ClassVar[str] = "guess"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "checker": self.checker, "piece": self.piece}


@dataclass(frozen=True)
class Move(Action):
    """The regular move, in python-chess's Chess960 UCI (castling: the king onto its own rook's square).

    >>> Move("e1h1").to_json()
    {'type': 'move', 'uci': 'e1h1'}
    """

    uci: str
    kind: ClassVar[str] = "move"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "uci": self.uci}


@dataclass(frozen=True)
class Bonus(Action):
    """A bonus move: a pawn move (``"e2e4"``, ``"d7c8q"``), a drop of a captured pawn (``"P@c2"``), or
    ``None`` to decline it."""

    uci: str | None
    kind: ClassVar[str] = "bonus"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "uci": self.uci}


@dataclass(frozen=True)
class Uncloak(Action):
    """Ends the turn: uncloak these own checkers (maybe none)."""

    checkers: tuple[int, ...] = ()
    kind: ClassVar[str] = "uncloak"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "checkers": list(self.checkers)}


@dataclass(frozen=True)
class OfferDraw(Action):
    """Offer a draw: the seat to move, once a turn, in its "move" phase (as in Blind Chess)."""

    kind: ClassVar[str] = "offer_draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class AnswerDraw(Action):
    """Accept or decline the opponent's draw offer (phase "answer_draw")."""

    accept: bool
    kind: ClassVar[str] = "answer_draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "accept": self.accept}
