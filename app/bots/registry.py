"""The built-in bots of each game, by the names used on the command line and in the app."""

from __future__ import annotations

from typing import Callable

from .base import Bot


def builtin_bots(variant: str) -> dict[str, Callable[..., Bot]]:
    """Name -> bot class for ``variant`` (imports lazily: the app starts faster)."""
    if variant == "rbc":
        from .rbc_bots import RBCAttackerBot, RBCRandomBot
        return {"random": RBCRandomBot, "attacker": RBCAttackerBot}
    if variant == "blind":
        from .blind_bots import BlindGreedyBot, BlindRandomBot
        return {"random": BlindRandomBot, "greedy": BlindGreedyBot}
    if variant == "minit":
        from .minit_bots import MinitRandomBot, MinitSearchBot
        return {"random": MinitRandomBot, "search": MinitSearchBot}
    return {}
