"""The games Sightline knows, by the name used in records and on the command line.

The games themselves are listed in the games registry (``app.games``); this module is the engine's one door to
it, opened lazily with ``importlib`` so that importing the engine names no game and imports no registry.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Game

    VARIANTS: dict[str, type[Game]]
    TITLES: dict[str, str]


def _definitions() -> Any:
    return importlib.import_module("app.games").all()


def _variants() -> dict[str, type[Game]]:
    return {definition.key: definition.referee() for definition in _definitions()}


def _titles() -> dict[str, str]:
    return {definition.key: definition.title for definition in _definitions()}


_LAZY = {"VARIANTS": _variants, "TITLES": _titles}


def __getattr__(name: str) -> Any:
    # Built on each use, never kept in the module: the registry already keeps its games (for one value of
    # SIGHTLINE_GAMES) and each referee once resolved, so a table follows the registry when the games named
    # there change (a test registering its games for one test, a referee process given its parent's
    # environment) at the cost of one small dictionary. VARIANTS imports every referee (and python-chess) on
    # first use; TITLES reads the registry's plain data only.
    if name in _LAZY:
        return _LAZY[name]()
    raise AttributeError(f"module 'app.engine.variants' has no attribute {name!r}")


def game_type(name: str) -> type[Game]:
    """The referee class for ``name``; raises ``ValueError`` listing the known games."""
    # One game's referee, not the whole table: that would import every game's referee to find one.
    try:
        definition = importlib.import_module("app.games").get(name)
    except KeyError as error:
        raise ValueError(error.args[0]) from None
    referee: type[Game] = definition.referee()
    return referee
