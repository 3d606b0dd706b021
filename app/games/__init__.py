"""The games Sightline plays, each defined in one package of its own and listed once, in :data:`ENTRIES`.

Each entry is a package whose ``DEFINITION`` is a :class:`~app.games.definition.GameDefinition`: plain data
plus lazy references, so reading the registry imports no referee, no bot and no python-chess. More games can
be named, for experiments and tests, in the environment variable ``SIGHTLINE_GAMES`` (see
:data:`EXTRA_GAMES_VARIABLE`); a module named there that cannot be used is left out with a message.

>>> from app import games
>>> [definition.title for definition in games.all()]  # doctest: +NORMALIZE_WHITESPACE
['Reconnaissance Blind Chess', 'Blind Chess', 'MinitChess', 'Cloak and Dagger', 'Telepathy Chess', 'Split-Brain Chess',
 'Cooperative Chess 2', 'Cooperative Chess 2 Solitaire', 'Booster Chess', 'Gravity Chess',
 'Parade Chess Solitaire', 'Neighbour Chess Solitaire']
>>> games.get(games.default().key) is games.default()
True
>>> games.get("go")
Traceback (most recent call last):
...
KeyError: "unknown game 'go' (known: blind, booster, cloak, coop, coop_solitaire, gravity, minit, neighbour, parade, rbc, splitbrain, telepathy)"
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

from app.engine import variants

from .definition import ClipboardFormat, ExportFormat, GameDefinition, ImportFormat, Lazy, OptionSpec, SeatSpec

if TYPE_CHECKING:
    from app.engine.core import Game

__all__ = ["ENTRIES", "EXTRA_GAMES_VARIABLE", "ClipboardFormat", "ExportFormat", "GameDefinition", "ImportFormat",
           "Lazy", "OptionSpec", "SeatSpec", "all", "default", "extra_game_problems", "format_names", "formats", "get",
           "imports", "names", "referee"]

ENTRIES: tuple[str, ...] = ("app.games.rbc", "app.games.blind", "app.games.minit", "app.games.cloak",
                           "app.games.telepathy", "app.games.splitbrain", "app.games.coop", "app.games.coop.solitaire",
                           "app.games.booster", "app.games.gravity", "app.games.parade", "app.games.neighbour")
"""The packages that define a game, in the order the app offers them (the first is the default)."""

EXTRA_GAMES_VARIABLE = "SIGHTLINE_GAMES"
"""The environment variable naming more game modules, comma-separated (``my.games.first,my.games.second``), read
after :data:`ENTRIES`. It is for experiments and tests: a game can be tried without touching the list above,
and because child processes inherit the environment, bot workers and a match's referee processes see the
same games as the process that started them."""

_loaded: tuple[str, dict[str, GameDefinition], tuple[str, ...]] | None = None
"""The value of :data:`EXTRA_GAMES_VARIABLE` the games were read for, the games read, and what was wrong with
the extra modules left out."""

_reported: set[str] = set()
"""Problems with extra games already written to standard error (each is said once per process)."""


def _definition_of(entry: str) -> GameDefinition:
    definition = getattr(importlib.import_module(entry), "DEFINITION", None)
    if not isinstance(definition, GameDefinition):
        raise TypeError(f"{entry}.DEFINITION is not a GameDefinition")
    return definition


def _extra_entries(value: str) -> list[str]:
    return [entry.strip() for entry in value.split(",") if entry.strip() and entry.strip() not in ENTRIES]


def _load() -> dict[str, GameDefinition]:
    global _loaded
    # Read on every call (a dictionary look-up): a match's referee process restores its parent's environment
    # after its fork server may already have read the registry, and tests set the variable for one test only.
    extra = os.environ.get(EXTRA_GAMES_VARIABLE, "")
    if _loaded is None or _loaded[0] != extra:
        found: dict[str, GameDefinition] = {}
        problems: list[str] = []
        for entry in ENTRIES:
            definition = _definition_of(entry)
            if definition.key in found:
                raise ValueError(f"two games are called {definition.key!r}")
            found[definition.key] = definition
        for entry in _extra_entries(extra):
            try:
                definition = _definition_of(entry)
                if definition.key in found:
                    raise ValueError(f"there is already a game called {definition.key!r}")
            except Exception as error:  # noqa: BLE001 - a broken experiment must not take the real games down
                problems.append(f"{EXTRA_GAMES_VARIABLE}: the game module {entry[:80]!r} was left out: "
                                f"{type(error).__name__}: {str(error)[:200]}")
                _report(problems[-1])
                continue
            found[definition.key] = definition
        _loaded = (extra, found, tuple(problems))
    return _loaded[1]


def _report(problem: str) -> None:
    """Say once, on standard error, that an extra game could not be used (the app goes on without it)."""
    if problem not in _reported:
        _reported.add(problem)
        print(f"sightline: {problem}", file=sys.stderr)


def extra_game_problems() -> tuple[str, ...]:
    """What was wrong with the modules :data:`EXTRA_GAMES_VARIABLE` names, for the games read last (each a
    sentence naming the module and why it was left out); empty when every one is in use."""
    _load()
    assert _loaded is not None
    return _loaded[2]


def get(key: str) -> GameDefinition:
    """The definition of the game ``key``; raises ``KeyError`` naming the known games."""
    definitions = _load()
    try:
        return definitions[key]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {str(key)[:40]!r} (known: {', '.join(sorted(definitions))})") from None


def referee(key: str) -> type[Game]:
    """The referee class of the game ``key`` (imported on first use); raises ``ValueError`` naming the known
    games.

    >>> referee(default().key).seat_names
    ('White', 'Black')
    """
    try:
        definition = get(key)
    except KeyError as error:
        raise ValueError(error.args[0]) from None
    found: type[Game] = definition.referee()
    return found


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


def imports() -> dict[str, ImportFormat]:
    """Every file format of another program that some game turns into records, by name (the first game to
    name a format reads it).

    >>> imports()["reconchess"].reader.module
    'app.games.rbc.reconchess_history'
    """
    found: dict[str, ImportFormat] = {}
    for definition in _load().values():
        for fmt in definition.imports:
            found.setdefault(fmt.name, fmt)
    return found


class _Catalog:
    """The registry as the engine's door to the games sees it (:class:`app.engine.variants.Catalog`)."""

    def all(self) -> tuple[GameDefinition, ...]:
        return all()

    def get(self, key: str) -> GameDefinition:
        return get(key)


variants.register(_Catalog())  # the engine knows the games from now on, without importing this module


def format_names() -> tuple[str, ...]:
    """The names of every game's export formats, each once, in the order the games list them.

    >>> "pgn" in format_names()
    True
    """
    return tuple(fmt.name for fmt in formats())
