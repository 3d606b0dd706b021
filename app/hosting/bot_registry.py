"""The built-in bots of each game, by the names used on the command line and in the app."""

from __future__ import annotations

from typing import Callable

from app import games

from app.bots.base import Bot


def builtin_bots(variant: str) -> dict[str, Callable[..., Bot]]:
    """Name -> bot class for ``variant`` (imports lazily: the app starts faster).

    The order is the new-game dialog's: the strongest bot of each game comes first.
    """
    try:
        definition = games.get(variant)
    except KeyError:
        return {}
    return definition.bot_classes()
