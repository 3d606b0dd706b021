"""The games Sightline knows, by the name used in records and on the command line."""

from __future__ import annotations

from .core import Game
from .rbc import ReconChess

VARIANTS: dict[str, type[Game]] = {
    ReconChess.variant: ReconChess,
}


def game_type(name: str) -> type[Game]:
    """The referee class for ``name``; raises ``ValueError`` listing the known games."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
