"""The games Sightline knows, by the name used in records and on the command line."""

from __future__ import annotations

from .blind import BlindChess
from .core import Game
from .minit import MinitChess
from .rbc import ReconChess

VARIANTS: dict[str, type[Game]] = {
    ReconChess.variant: ReconChess,
    BlindChess.variant: BlindChess,
    MinitChess.variant: MinitChess,
}

TITLES: dict[str, str] = {
    "rbc": "Reconnaissance Blind Chess",
    "blind": "Blind Chess",
    "minit": "MinitChess",
}


def game_type(name: str) -> type[Game]:
    """The referee class for ``name``; raises ``ValueError`` listing the known games."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
