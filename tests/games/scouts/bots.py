"""The Scouts bot: ``random`` steps any of its scouts anywhere it may."""

from __future__ import annotations

from typing import ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from tests.games.scouts import DEFINITION


class ScoutsRandomBot(Bot):
    """Picks one of the steps it is offered (its own scouts' steps: the choices hide everyone else's)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        step: Action = self.rng.choice(request.choices["steps"])
        return step
