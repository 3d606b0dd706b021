"""Neighbour Chess bots: ``planner`` and ``random``. Both know only what the player is told (the view): the board,
the cards turned, how many cards each deck holds, never the order of a deck.

The planner:

- **placing** a piece whose square was taken: the nearest empty square that leaves the fewest moves needed
  (:func:`~app.games.neighbour.search.moves_needed_at_least`);
- **moving**, once adding has stopped: nothing is hidden any more (which cards are left no longer matters, only how
  many), so it searches the fewest moves that join the pieces (:func:`~app.games.neighbour.search.fewest_moves`,
  cut at a number of nodes) and follows that line; with none found it makes the move that leaves the fewest moves
  needed;
- **adding or stopping**: stopping now scores the cards left less the fewest moves found; adding once more is
  judged on a few orders of the unseen cards drawn at random (each a possible next add, its piece placed as
  above), each scoring two cards less and the fewest moves after it when that beats stopping now, and two points
  less than stopping now when it does not (a rough guess of what adding further keeps). It adds when the mean
  beats stopping, and always when no line of moves is found.

>>> from app.games.neighbour.rules import NeighbourChess
>>> from app.bots.base import ActionRequest
>>> game = NeighbourChess.from_options({"deal": 6})
>>> bot = NeighbourPlannerBot(seed=1)
>>> bot.start(0, game.options())
>>> while game.outcome is None:
...     for observation in game.observations(0)[len(bot.view.history) + 1:]:
...         bot.observe(observation)
...     game.play(0, bot.act(ActionRequest(0, game.phase, game.choices())))
>>> game.outcome.winner, game.outcome.score
(0, 30.0)
"""

from __future__ import annotations

from typing import Any, ClassVar

import chess

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.neighbour import DEFINITION
from app.games.neighbour.rules import NeighbourView
from app.games.neighbour.search import board_moves, fewest_moves, moves_needed_at_least
from app.games.neighbour.state import NeighbourAdd, NeighbourMove, NeighbourStop, State, apply, legal_actions

__all__ = ["NeighbourPlannerBot", "NeighbourRandomBot"]

NODES = {"easy": 150, "medium": 600, "hard": 3000}
"""How many nodes a fewest-moves search may visit, by level."""
SAMPLES = {"easy": 2, "medium": 4, "hard": 8}
"""How many orders of the unseen cards an add is judged on."""
KEEP = 2
"""What an add that does not beat stopping is guessed to cost, beside stopping now (two cards)."""


class _ViewBot(Bot):
    """A bot that keeps the player's view from its observations."""

    variant: ClassVar[str] = DEFINITION.key

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = NeighbourView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)


def _playable(choices: dict[str, Any]) -> list[Action]:
    return [action for key in ("adds", "stop", "places", "moves") for action in choices.get(key, ())]


class NeighbourRandomBot(_ViewBot):
    """Any allowed action, picked at random (never undo or redo)."""

    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        return self.rng.choice(_playable(request.choices))


def _move(frm: int, to: int) -> NeighbourMove:
    return NeighbourMove(chess.square_name(frm) + chess.square_name(to))


def _best_place(state: State) -> Action:
    return min(legal_actions(state), key=lambda action: moves_needed_at_least(apply(state, action).board))


class NeighbourPlannerBot(_ViewBot):
    """Adds while adding looks worth two cards, then follows the fewest moves it finds (see the module)."""

    name: ClassVar[str] = "planner"

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self._line: list[tuple[int, int]] = []
        self._line_board = ""

    def act(self, request: ActionRequest) -> Action:
        state = self.view.state()
        if state.stage == "place":
            return _best_place(state)
        if state.stage == "move":
            return self._next_move(state) or self.rng.choice(_playable(request.choices))
        if not state.added:
            return NeighbourAdd()
        return NeighbourAdd() if self._adding_pays(state) else NeighbourStop()

    def _fewest(self, board: str, limit: int) -> int | None:
        if limit < 1 or moves_needed_at_least(board) > limit:
            return None
        return fewest_moves(board, limit, max_nodes=NODES.get(self.level, NODES["medium"])).moves

    def _next_move(self, state: State) -> Action | None:
        if self._line and self._line_board == state.board:
            frm, to = self._line.pop(0)
            self._line_board = _after(state.board, frm, to)
            return _move(frm, to)
        found = fewest_moves(state.board, state.cards_left, max_nodes=NODES.get(self.level, NODES["medium"]))
        if found.moves:
            self._line = list(found.line)
            frm, to = self._line.pop(0)
            self._line_board = _after(state.board, frm, to)
            return _move(frm, to)
        moves = board_moves(state.board)
        if not moves:
            return None
        scored = [(moves_needed_at_least(_after(state.board, frm, to)), self.rng.random(), frm, to)
                  for frm, to in moves]
        _, _, frm, to = min(scored)
        return _move(frm, to)

    def _adding_pays(self, state: State) -> bool:
        if not state.pieces:
            return False
        stop_moves = self._fewest(state.board, state.cards_left)
        if stop_moves is None:
            return True
        stop = state.cards_left - stop_moves
        if state.cards_left - 2 <= stop:
            return False  # an add costs two cards: it cannot beat stopping now
        total = 0.0
        samples = SAMPLES.get(self.level, SAMPLES["medium"])
        for _ in range(samples):
            pieces, positions = list(state.pieces), list(state.positions)
            self.rng.shuffle(pieces)
            self.rng.shuffle(positions)
            after = apply(State(state.board, tuple(pieces), tuple(positions), "add", state.last, added=state.added),
                          NeighbourAdd())
            while after.stage == "place":
                after = apply(after, _best_place(after))
            if after.stage == "won":
                total += after.cards_left
                continue
            # a line after the add must beat stopping now to count
            found = self._fewest(after.board, after.cards_left - stop - 1) if after.stage != "lost" else None
            total += after.cards_left - found if found is not None else stop - KEEP
        return total / samples > stop


def _after(board: str, frm: int, to: int) -> str:
    cells = list(board)
    cells[to], cells[frm] = cells[frm], "."
    return "".join(cells)

