"""The Secret Picks bot: ``random`` arranges and picks at random among its choices."""

from __future__ import annotations

from typing import ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from tests.games.picks import DEFINITION


class PicksRandomBot(Bot):
    """Chooses among the actions it is offered: its own arrangements or the cards of its own hand (the choices
    name nothing of anyone else's)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        offered = request.choices["doubles"] if request.phase == "setup" else request.choices["cards"]
        action: Action = self.rng.choice(offered)
        return action
