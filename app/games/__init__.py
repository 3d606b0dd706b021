"""The games Sightline plays, each defined in one package of its own and listed once, in :data:`ENTRIES`.

Each entry is a package whose ``DEFINITION`` is a :class:`~app.games.definition.GameDefinition`: plain data
plus lazy references, so reading the registry imports no referee, no bot and no python-chess.

>>> from app import games
>>> [definition.title for definition in games.all()]
['Reconnaissance Blind Chess', 'Blind Chess', 'MinitChess']
>>> games.get(games.default().key) is games.default()
True
>>> games.get("go")
Traceback (most recent call last):
...
KeyError: "unknown game 'go' (known: blind, minit, rbc)"
"""

from __future__ import annotations

import importlib

from .definition import ClipboardFormat, ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

__all__ = ["ENTRIES", "ClipboardFormat", "ExportFormat", "GameDefinition", "Lazy", "OptionSpec", "SeatSpec", "all",
           "default", "format_names", "formats", "get", "names"]

ENTRIES: tuple[str, ...] = ("app.games.rbc", "app.games.blind", "app.games.minit")
"""The packages that define a game, in the order the app offers them (the first is the default)."""

_definitions: dict[str, GameDefinition] | None = None


def _load() -> dict[str, GameDefinition]:
    global _definitions
    if _definitions is None:
        found: dict[str, GameDefinition] = {}
        for entry in ENTRIES:
            definition = importlib.import_module(entry).DEFINITION
            if not isinstance(definition, GameDefinition):
                raise TypeError(f"{entry}.DEFINITION is not a GameDefinition")
            if definition.key in found:
                raise ValueError(f"two games are called {definition.key!r}")
            found[definition.key] = definition
        _definitions = found
    return _definitions


def _named_for_bundlers() -> None:  # pragma: no cover - never called
    """Installers find the modules to bundle by reading import statements; the entries are imported by name, so
    they are also imported here, where nothing runs them."""
    from . import blind, minit, rbc  # noqa: F401


def get(key: str) -> GameDefinition:
    """The definition of the game ``key``; raises ``KeyError`` naming the known games."""
    definitions = _load()
    try:
        return definitions[key]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {str(key)[:40]!r} (known: {', '.join(sorted(definitions))})") from None


def all() -> tuple[GameDefinition, ...]:  # noqa: A001 - the registry's own word for "every game"
    """Every game's definition, in the order of :data:`ENTRIES`."""
    return tuple(_load().values())


def names() -> tuple[str, ...]:
    """Every game's key, in the order of :data:`ENTRIES`."""
    return tuple(_load())


def default() -> GameDefinition:
    """The game a new game starts as, unless told otherwise (the first entry)."""
    return next(iter(_load().values()))


def formats() -> tuple[ExportFormat, ...]:
    """Every export format any game writes, each name once, in the order the games list them; where several
    games write a format, the first one's entry stands for it (its label, suffix and flags: a test checks that
    they agree), though each game keeps its own writer.

    >>> [fmt.name for fmt in formats()][:1]
    ['pgn']
    """
    found: dict[str, ExportFormat] = {}
    for definition in _load().values():
        for fmt in definition.formats:
            found.setdefault(fmt.name, fmt)
    return tuple(found.values())


def format_names() -> tuple[str, ...]:
    """The names of every game's export formats, each once, in the order the games list them.

    >>> "pgn" in format_names()
    True
    """
    return tuple(fmt.name for fmt in formats())
