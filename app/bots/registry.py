"""The built-in bots of each game, by the names used on the command line and in the app."""

from __future__ import annotations

from typing import Callable

from .base import Bot


def builtin_bots(variant: str) -> dict[str, Callable[..., Bot]]:
    """Name -> bot class for ``variant`` (imports lazily: the app starts faster).

    The order is the new-game dialog's: the strongest bot of each game comes first.
    """
    if variant == "rbc":
        from .rbc_belief import RBCBeliefBot
        from .rbc_bots import RBCAttackerBot, RBCRandomBot
        return {"belief": RBCBeliefBot, "random": RBCRandomBot, "attacker": RBCAttackerBot}
    if variant == "blind":
        from .blind_belief import BlindBeliefBot
        from .blind_bots import BlindGreedyBot, BlindRandomBot
        return {"belief": BlindBeliefBot, "random": BlindRandomBot, "greedy": BlindGreedyBot}
    if variant == "minit":
        from .minit_bots import MinitRandomBot, MinitSearchBot
        return {"random": MinitRandomBot, "search": MinitSearchBot}
    return {}
