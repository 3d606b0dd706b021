"""The games Sightline knows, by the name used in records and on the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Game

    VARIANTS: dict[str, type[Game]]


def _variants() -> dict[str, type[Game]]:
    from .blind import BlindChess
    from .minit import MinitChess
    from .rbc import ReconChess
    return {ReconChess.variant: ReconChess, BlindChess.variant: BlindChess, MinitChess.variant: MinitChess}


def __getattr__(name: str) -> Any:
    # VARIANTS imports every referee (and python-chess): built on first use, so that TITLES stays cheap.
    if name == "VARIANTS":
        variants = _variants()
        globals()["VARIANTS"] = variants
        return variants
    raise AttributeError(f"module 'app.engine.variants' has no attribute {name!r}")


TITLES: dict[str, str] = {
    "rbc": "Reconnaissance Blind Chess",
    "blind": "Blind Chess",
    "minit": "MinitChess",
}


def game_type(name: str) -> type[Game]:
    """The referee class for ``name``; raises ``ValueError`` listing the known games."""
    variants: dict[str, type[Game]] = __getattr__("VARIANTS")
    try:
        return variants[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(sorted(variants))})") from None
