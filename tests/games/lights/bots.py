"""The Lights Out bot: ``random`` presses any cell."""

from __future__ import annotations

from typing import ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action

from .rules import Press
from tests.games.lights import DEFINITION


class LightsRandomBot(Bot):
    """Presses a cell chosen at random among the choices (seeded: the same seed presses the same cells)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        return Press(self.rng.choice(request.choices["cells"]))
