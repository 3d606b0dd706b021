"""Parade Chess Solitaire bots: ``planner`` and ``random``. Both know only what the player knows (the view built
from the observations: the pieces, the cards seen, how many are left), never the pile's order nor the deal number.

The planner asks for a plan (:func:`app.games.parade.solitaire.plan`: the best line of moves alone, which is sure
whatever the pile's order, against the best mean over a few sampled orders of the unseen cards of lines with adds),
follows a sure line once it has one, and thinks again after an add; when nothing gave a win it adds a piece if it
may, else makes the move that leaves the fewest groups. Both bots give up (resign) after
:data:`GIVE_UP` moves with no card left, the rule text's sixteen cards counted below zero; they never undo.

>>> from app.games.parade.rules import ParadeChess
>>> from app.bots.base import ActionRequest
>>> game = ParadeChess(deal=2)
>>> bot = ParadeRandomBot(seed=1)
>>> bot.start(0, {})
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, game.phase, game.choices())).kind in ("move", "add")
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action, Resign
from app.games.parade import DEFINITION
from app.games.parade.rules import ParadeMove, ParadeView, components
from app.games.parade.solitaire import plan

__all__ = ["GIVE_UP", "ParadePlannerBot", "ParadeRandomBot"]

GIVE_UP = 16
"""Moves with no card left after which a bot gives up."""
THINK = {"easy": 0.2, "medium": 0.6, "hard": 2.0}
"""Seconds the planner thinks per action, by level."""
FIRST = 4
"""How many times longer the planner thinks before its first action."""


def _playable(request: ActionRequest) -> list[Action]:
    """The moves and the add (never undo or redo)."""
    return [action for key in ("moves", "add") for action in request.choices.get(key, [])]


class ParadeRandomBot(Bot):
    """A random move or add."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = ParadeView()

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = ParadeView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        options = _playable(request)
        if not options or self.view.overtime >= GIVE_UP:
            return Resign()
        return self.rng.choice(options)


class ParadePlannerBot(ParadeRandomBot):
    """Plays the hint, and follows a sure line of moves once it has one (see the module's notes)."""

    name: ClassVar[str] = "planner"

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.line: list[Action] = []

    def act(self, request: ActionRequest) -> Action:
        options = _playable(request)
        if not options or self.view.overtime >= GIVE_UP:
            return Resign()
        line: list[Action] = getattr(self, "line", [])
        if line and line[0] in options:
            following: Action = line.pop(0)
            return following
        think = THINK.get(self.level, THINK["medium"])
        if not self.view.line:
            think *= FIRST  # the first plan decides most: it gets longer
        think = min(think, max(0.05, request.seconds_left / 4))
        try:
            found, sure = plan(self.view, time_limit=think, samples=4, rng=random.Random(self.rng.random()))
            action = found.action
            self.line = list(sure[1:]) if sure and sure[0] == action else []
        except Exception:  # noqa: BLE001 - a bot that cannot think still answers within the rules
            action = None
        if action is not None and action in options:
            return action
        adds = request.choices.get("add", [])
        if adds:
            add: Action = adds[0]
            return add
        return min(options, key=lambda move: (self._groups_after(move), self.rng.random()))

    def _groups_after(self, action: Action) -> int:
        if not isinstance(action, ParadeMove):
            return 99
        squares = set(self.view.placed)
        squares.discard(_square(action.frm))
        squares.add(_square(action.to))
        return components(squares)


def _square(name: str) -> int:
    import chess
    return chess.parse_square(name)
