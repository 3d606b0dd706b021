"""The Sixteen bot: ``random`` takes any card and places it on any empty cell."""

from __future__ import annotations

from typing import ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from tests.games.sixteen import DEFINITION


class SixteenRandomBot(Bot):
    """Chooses among the referee's choices for its one seat (seeded: the same seed plays the same game)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        offered = request.choices["take"] if request.phase == "take" else request.choices["place"]
        action: Action = self.rng.choice(offered)
        return action
