"""The games Sightline knows, by the name used in records and on the command line: the engine's one door to them.

The engine names no game and imports nothing above it. The games registry (:mod:`app.games`, a floor up) hands
itself down when it is imported, with :func:`register`; from then on the engine's record, replay, belief and
perft code find a game's referee by its key here. A program that uses the engine imports the registry first
(every entry point of the app does); asking before that is a :class:`LookupError` saying so.

>>> class Demo:                          # what a catalog offers: all() and get(key)
...     title, key = "Demo", "demo"
...     def referee(self): return dict
>>> class DemoCatalog:
...     def all(self): return (Demo(),)
...     def get(self, key):
...         if key != "demo": raise KeyError(f"unknown game {key!r}")
...         return Demo()
>>> previous = registered()
>>> register(DemoCatalog())
>>> from app.engine.variants import TITLES
>>> game_type("demo"), TITLES
(<class 'dict'>, {'demo': 'Demo'})
>>> register(previous)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .core import Game

    VARIANTS: dict[str, type[Game]]
    TITLES: dict[str, str]


class Catalog(Protocol):
    """What the engine asks of the games registry: every game's definition, and one by its key (``KeyError``
    naming the known games for an unknown one). A definition offers at least ``key``, ``title`` and
    ``referee()`` (the referee class); the belief and perft code read its ``belief``, ``view`` and ``perft``."""

    def all(self) -> tuple[Any, ...]: ...

    def get(self, key: str) -> Any: ...


_catalog: Catalog | None = None


def register(catalog: Catalog | None) -> None:
    """Hand the engine the games it knows (the registry does this when it is imported)."""
    global _catalog
    _catalog = catalog


def registered() -> Catalog | None:
    """The catalog handed down, if any."""
    return _catalog


def catalog() -> Catalog:
    """The games the engine knows; ``LookupError`` if no registry was handed down yet."""
    if _catalog is None:
        raise LookupError("no games are registered with the engine: import the games registry (app.games) first")
    return _catalog


def _variants() -> dict[str, type[Game]]:
    return {definition.key: definition.referee() for definition in catalog().all()}


def _titles() -> dict[str, str]:
    return {definition.key: definition.title for definition in catalog().all()}


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
        definition = catalog().get(name)
    except KeyError as error:
        raise ValueError(error.args[0]) from None
    referee: type[Game] = definition.referee()
    return referee
