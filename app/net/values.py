"""A seat's observations, its choices and its actions, to and from the wire's JSON.

Observations and actions go through the engine's one codec (:mod:`app.engine.codec`), by their fields' types:
an observation travels as ``{"class": "module:Name", "data": ...}`` and is read back only as a dataclass or named
tuple of its game's own package, of a kit the games share (``app.games.team_draw``, ``app.games.kit_cards``,
``app.games.patience``), of the engine's core or of ``chess`` (never of another game), and only if the codec finds
its data of the declared types. An action travels as its record form (``Action.to_json``) and is read by the
game's referee class exactly as a record's actions are.

A request's ``choices`` (``Game.choices()``: plain data, lists of actions, moves) have no declared type, so they
travel tagged: plain JSON scalars as themselves, ``{"list": [...]}``, ``{"tuple": [...]}``,
``{"dict": [[key, value], ...]}``, ``{"move": "e2e4"}`` for a ``chess.Move``, and ``{"object": "module:Name",
"data": ...}`` for a dataclass or named tuple of the allowed modules (through the codec). Any other sequence (RBC's
lazily built move list) travels as the list of its items and is read back as a tuple.

Reading raises :class:`~app.net.wire.ProtocolError` and nothing else.

>>> import chess
>>> from app import games
>>> rbc = games.get("rbc")
>>> data = choices_to_json({"sense_actions": (1, 2), "move_actions": [chess.Move.from_uci("e2e4")]})
>>> data
{'dict': [['sense_actions', {'tuple': [1, 2]}], ['move_actions', {'list': [{'move': 'e2e4'}]}]]}
>>> choices_from_json(rbc.key, data)
{'sense_actions': (1, 2), 'move_actions': [Move.from_uci('e2e4')]}
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from typing import Any

import chess

from app import games
from app.engine import codec
from app.engine.core import Action, Resign

from .wire import ProtocolError

__all__ = ["action_from_json", "action_to_json", "choices_from_json", "choices_to_json", "observation_from_json",
           "observation_to_json"]

MAX_DEPTH = 24
"""How deeply a request's choices may nest."""
_SHARED_MODULES = ("chess", "app.engine.core")
_KITS = "app.games."
"""Modules and packages of this package that are no game's own are the kits games share (``team_draw``,
``kit_cards``, ``patience``): their classes may travel for any game."""


def _package(module: str) -> str:
    return module.rpartition(".")[0]


def _allowed(variant: str, module: str) -> bool:
    """Whether a class of ``module`` may be read for ``variant``: the engine's core and ``chess``, the game's own
    package (its rules, its view and their helpers), and the shared kits of ``app.games``, never another game's
    package."""
    try:
        definition = games.get(variant)
    except KeyError:
        raise ProtocolError(f"the game {variant!r} is not known here") from None
    own = {_package(definition.referee.module), _package(definition.view.module)}
    if module in _SHARED_MODULES or module in (definition.referee.module, definition.view.module) \
            or _package(module) in own:
        return True
    if module.startswith(_KITS):
        # A kit is a module or package of app.games that is no game's (app.games.kit_cards, app.games.patience.undo).
        def top(name: str) -> str:
            return ".".join(name.split(".")[:3])
        games_packages = {top(_package(other.referee.module)) for other in games.all()} | {
            top(_package(other.view.module)) for other in games.all()}
        return top(module) not in games_packages
    return False


def _is_record_class(cls: Any) -> bool:
    return isinstance(cls, type) and (dataclasses.is_dataclass(cls) or (issubclass(cls, tuple)
                                                                        and hasattr(cls, "_fields")))


def _class_name(value: Any) -> str:
    cls = type(value)
    return f"{cls.__module__}:{cls.__qualname__}"


def _find_class(variant: str, name: Any) -> type[Any]:
    """The class ``name`` (``module:Name``) if it is a record class defined in one of the variant's modules."""
    if not isinstance(name, str) or name.count(":") != 1:
        raise ProtocolError(f"{str(name)[:60]!r} does not name a class as module:Name")
    module, _, attribute = name.partition(":")
    if not attribute.isidentifier() or not _allowed(variant, module):
        raise ProtocolError(f"{name[:80]!r} is not a class of this game")
    try:
        found = getattr(importlib.import_module(module), attribute, None)
    except ImportError:
        found = None
    if not isinstance(found, type) or not _is_record_class(found) or found.__module__ != module \
            or found.__qualname__ != attribute:
        raise ProtocolError(f"{name[:80]!r} is not a class of this game")
    return found


def _build(cls: type[Any], data: Any, what: str) -> Any:
    """``cls`` from its codec data; whatever goes wrong (data of the wrong types, a class the codec cannot
    read, a class that checks its values and refuses them) is a ProtocolError."""
    try:
        return codec.from_json(cls, data)
    except RecursionError:
        raise ProtocolError(f"{what} is nested too deeply") from None
    except Exception as error:  # noqa: BLE001 - nothing the peer sends may raise anything else
        raise ProtocolError(f"{what} cannot be read: {str(error)[:200]}") from None


# ---- observations ----------------------------------------------------------------------------------------

def observation_to_json(observation: Any) -> dict[str, Any]:
    """An observation (a dataclass or named tuple of its game) as ``{"class": ..., "data": ...}``."""
    return {"class": _class_name(observation), "data": codec.to_json(observation)}


def observation_from_json(variant: str, data: Any) -> Any:
    """The observation of ``variant`` that :func:`observation_to_json` wrote."""
    if not isinstance(data, dict) or set(data) != {"class", "data"}:
        raise ProtocolError("an observation must be an object of a class and its data")
    cls = _find_class(variant, data["class"])
    return _build(cls, data["data"], "an observation")


# ---- actions ----------------------------------------------------------------------------------------------

def action_to_json(action: Action) -> dict[str, Any]:
    return action.to_json()


def action_from_json(variant: str, data: Any) -> Action:
    """One action of ``variant`` (or a resignation), as a record's actions are read."""
    try:
        if isinstance(data, dict) and data.get(codec.TAG) == Resign.kind:
            return codec.from_json(Resign, data)
        return games.referee(variant).action_from_json(data)
    except (ValueError, TypeError) as error:
        raise ProtocolError(f"an action that cannot be read: {str(error)[:200]}") from None
    except RecursionError:
        raise ProtocolError("an action nested too deeply") from None


# ---- choices ---------------------------------------------------------------------------------------------

def choices_to_json(value: Any, depth: int = 0) -> Any:
    """A request's choices as tagged JSON (see the module's documentation)."""
    if depth > MAX_DEPTH:
        raise ValueError("choices nested too deeply to send")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, chess.Move):
        return {"move": value.uci()}
    if _is_record_class(type(value)):
        return {"object": _class_name(value), "data": codec.to_json(value)}
    if isinstance(value, dict):
        return {"dict": [[choices_to_json(key, depth + 1), choices_to_json(item, depth + 1)]
                         for key, item in value.items()]}
    if isinstance(value, list):
        return {"list": [choices_to_json(item, depth + 1) for item in value]}
    if isinstance(value, (tuple, Sequence, set, frozenset)) and not isinstance(value, (str, bytes)):
        return {"tuple": [choices_to_json(item, depth + 1) for item in value]}
    raise ValueError(f"a {type(value).__name__} among the choices cannot be sent")


def choices_from_json(variant: str, data: Any, depth: int = 0) -> Any:
    """The choices :func:`choices_to_json` wrote, read with the classes of ``variant`` only."""
    if depth > MAX_DEPTH:
        raise ProtocolError("choices nested too deeply")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if not isinstance(data, dict) or not data:
        raise ProtocolError(f"choices hold {str(data)[:40]!r}, which is no value")
    tag = next(iter(data))
    if tag == "object" and set(data) == {"object", "data"}:
        cls = _find_class(variant, data["object"])
        return _build(cls, data["data"], "choices hold an object that")
    if len(data) != 1:
        raise ProtocolError(f"choices hold an object with the keys {sorted(data)[:4]!r}, which is no value")
    inner = data[tag]
    if tag == "move":
        if isinstance(inner, str) and len(inner) <= 6:
            try:
                return chess.Move.from_uci(inner)
            except ValueError:
                pass
        raise ProtocolError(f"choices hold {str(inner)[:20]!r}, which is no move")
    if tag in ("list", "tuple") and isinstance(inner, list):
        items = [choices_from_json(variant, item, depth + 1) for item in inner]
        return items if tag == "list" else tuple(items)
    if tag == "dict" and isinstance(inner, list):
        found: dict[Any, Any] = {}
        for pair in inner:
            if not isinstance(pair, list) or len(pair) != 2:
                raise ProtocolError("choices hold a dict entry that is not a pair")
            key = choices_from_json(variant, pair[0], depth + 1)
            try:
                found[key] = choices_from_json(variant, pair[1], depth + 1)
            except TypeError:
                raise ProtocolError("choices hold a dict key that cannot be one") from None
        return found
    raise ProtocolError(f"choices hold an object tagged {str(tag)[:20]!r}, which is no value")
