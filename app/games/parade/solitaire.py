"""Parade's part in the solitaire layer (:mod:`app.games.patience`): the solver's problem, hints from what the
player knows, and the door the window and ``sightline solve`` use (:data:`SOLITAIRE`, found on the presenter).

**The problem** (:class:`ParadeProblem`). A state is the pieces (square, card), the cards used and the moves made
with no card left. Every action costs one point, whatever it is (a card while the pile lasts, a point below zero
after), so the score of a won line is ``8 - actions``: the solver looks for the shortest line to one group. Its
bound counts the groups: a move joins at most four groups into one (the moved piece's new square has four
neighbours), an add never lowers their number (the added piece has at most the square below it for a neighbour),
so a position of ``g`` groups needs ``ceil((g - 1) / 4)`` actions more, at least one. Moves are tried in the order
of the groups they leave, fewest first, then the add. The search goes no lower than :data:`FLOOR` (16 moves with
no card left: the rule text's count of the sixteen cards); a deal with no win above it is reported as such.

**Hints** (:func:`hint`). The player knows the pieces, the cards seen and how many are left, never the order of the
unseen ones: each sample deals those in a random order (the cards spent face down on moves among them, in no
place that matters) and the shared sampler (:func:`app.games.patience.hints.best_by_expectation`) picks the action
with the best mean score. The deal number is never read: the hint knows what the player was shown, and so do the
bots.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import chess

from app.engine.core import Action
from app.games.parade.rules import (CARDS, HAND, ParadeAdd, ParadeChess, ParadeMove, ParadeView, add_allowed,
                                    add_square, groups_of, legal_moves)
from app.games.patience.deals import check_deal, deal_order
from app.games.patience.hints import Hint, best_by_expectation
from app.games.patience.solver import Progress, Solution, line_record, solve

__all__ = ["FLOOR", "SOLITAIRE", "ParadeProblem", "ParadeSolitaire", "State", "hint", "plan", "solve_deal",
           "solution_record"]

FLOOR = -16
"""The lowest score the solver looks for (16 moves after the last card)."""

_NAMES = chess.SQUARE_NAMES
_SQUARES = {name: square for square, name in enumerate(chess.SQUARE_NAMES)}

State = tuple[tuple[tuple[int, str], ...], int, int]
"""The pieces (square, card) in square order, the cards used, the moves made with no card left."""


class ParadeProblem:
    """Parade for the solver, knowing the pile's order (top first)."""

    def __init__(self, pile: Sequence[str], floor: int = FLOOR, adds: bool = True) -> None:
        self.pile = tuple(pile)
        self.floor = floor
        self.adds = adds
        self._known: dict[int, int] = {}

    def start(self, placed: Mapping[int, str], used: int = 0, overtime: int = 0) -> State:
        return tuple(sorted(placed.items())), used, overtime

    def _groups(self, mask: int) -> int:
        found = self._known.get(mask)
        if found is None:
            if len(self._known) > 1_000_000:
                self._known.clear()
            found = self._known[mask] = groups_of(mask)
        return found

    def successors(self, state: State) -> list[tuple[Action, int | None]]:
        """Every action with the bound of the state it leads to, best first (see the module)."""
        pieces, used, overtime = state
        placed = dict(pieces)
        mask = 0
        for square in placed:
            mask |= 1 << square
        ranked: list[tuple[int, int, int]] = []
        for frm, targets in legal_moves(placed).items():
            rest = mask & ~(1 << frm)
            for to in targets:
                ranked.append((self._groups(rest | 1 << to), frm, to))
        ranked.sort()
        after = len(self.pile) - used - overtime - 1  # the score once one more action is spent
        found: list[tuple[Action, int | None]] = []
        for groups, frm, to in ranked:
            bound = after if groups == 1 else after - (groups + 2) // 4
            found.append((ParadeMove(_NAMES[frm], _NAMES[to]), None if bound < self.floor else bound))
        left = len(self.pile) - used
        if self.adds and left > 0 and add_allowed(placed, [card for card in CARDS if card not in placed.values()],
                                                  left):
            add = ParadeAdd()
            found.append((add, self.bound(self.apply(state, add))))
        return found

    def actions(self, state: State) -> list[Action]:
        return [action for action, _ in self.successors(state)]

    def apply(self, state: State, action: Action) -> State:
        pieces, used, overtime = state
        placed = dict(pieces)
        if isinstance(action, ParadeAdd):
            card = self.pile[used]
            square = add_square(placed, card)
            assert square is not None
            placed[square] = card
            return tuple(sorted(placed.items())), used + 1, overtime
        assert isinstance(action, ParadeMove)
        frm, to = _SQUARES[action.frm], _SQUARES[action.to]
        placed[to] = placed.pop(frm)
        if used < len(self.pile):
            return tuple(sorted(placed.items())), used + 1, overtime
        return tuple(sorted(placed.items())), used, overtime + 1

    def spent(self, state: State) -> int:
        return state[1] + state[2]

    def _state_groups(self, state: State) -> int:
        mask = 0
        for square, _ in state[0]:
            mask |= 1 << square
        return self._groups(mask)

    def value(self, state: State) -> int | None:
        if len(state[0]) >= 2 and self._state_groups(state) == 1:
            return len(self.pile) - self.spent(state)
        return None

    def bound(self, state: State) -> int | None:
        groups = self._state_groups(state)
        if groups == 1 and len(state[0]) >= 2:
            return len(self.pile) - self.spent(state)
        need = max(1, -(-(groups - 1) // 4))
        best = len(self.pile) - self.spent(state) - need
        return None if best < self.floor else best

    def key(self, state: State) -> Any:
        return state

    def position(self, state: State) -> Any:
        return state[0]


def deal_cards(deal: int) -> list[str]:
    """The sixteen cards of deal number ``deal``, top first (the first eight go onto the board)."""
    return deal_order(CARDS, check_deal(deal))


def solve_deal(deal: int | None = None, order: Sequence[str] | None = None, time_limit: float | None = 10.0,
               progress: Callable[[Progress], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> tuple[Solution[Action], ParadeChess]:
    """The best score of a deal knowing every card, and the fresh game it was solved from."""
    game = ParadeChess(deal) if order is None else ParadeChess.dealt(order, deal or 1)
    problem = ParadeProblem(game.pile)
    return solve(problem, problem.start(game.placed), time_limit=time_limit, progress=progress,
                 should_stop=should_stop), game


def solution_record(deal: int, solution: Solution[Action]) -> Any:
    """The solver's line as a finished record of the deal (to step through in the replay viewer), or ``None`` when
    it found no win."""
    return line_record(ParadeChess(deal, seed=0), solution)


def _sampler(view: ParadeView) -> Callable[[random.Random], tuple[ParadeProblem, State]]:
    """Deals the cards the player has not seen in a random order: the pile to come (its size is known)."""
    unseen = view.unseen()
    placed = dict(view.placed)
    used = HAND - view.left

    def sample(rng: random.Random) -> tuple[ParadeProblem, State]:
        order = list(unseen)
        rng.shuffle(order)
        # The pile as the solver sees it: the spent places filled with any unseen cards (never read again), then
        # the cards still to come.
        pile = order[:used] + order[used:used + view.left]
        pile += [card for card in order if card not in pile][:HAND - len(pile)]
        problem = ParadeProblem(pile)
        return problem, problem.start(placed, used, view.overtime)
    return sample


def plan(view: ParadeView, time_limit: float = 1.5, samples: int = 4, rng: random.Random | None = None,
         should_stop: Callable[[], bool] | None = None) -> tuple[Hint[Action], tuple[Action, ...]]:
    """The hint, and the sure line it starts when it is one. Moves never depend on the pile's order, so the best
    line of moves alone is searched first (a part of the time): its score is certain. Then, while an add may be
    made, orders of the unseen cards are sampled (the rest of the time); their best action wins only if its mean
    beats the sure line."""
    began = time.perf_counter()
    rng = rng or random.Random()
    sample = _sampler(view)
    problem, state = sample(rng)
    moves_only = ParadeProblem(problem.pile, adds=False)
    sure = solve(moves_only, state, time_limit=time_limit * (0.4 if view.can_add() else 1.0),
                 should_stop=should_stop)
    if sure.proven and sure.score is not None and sure.score >= view.left - 1:
        return Hint(sure.line[0], float(sure.score), 0, 1, time.perf_counter() - began), sure.line
    left = time_limit - (time.perf_counter() - began)
    if view.can_add() and left > 0.02:
        sampled = best_by_expectation(sample, samples=samples, time_limit=left, rng=rng, should_stop=should_stop)
        if sampled.action is not None and sampled.expected is not None and \
                (sure.score is None or sampled.expected > sure.score):
            return sampled, ()
    if sure.score is not None and sure.line:
        return Hint(sure.line[0], float(sure.score), 0, 1, time.perf_counter() - began), sure.line
    return Hint(None, None, 0, 0, time.perf_counter() - began), ()


def hint(view: ParadeView, time_limit: float = 1.5, samples: int = 4, rng: random.Random | None = None,
         should_stop: Callable[[], bool] | None = None) -> Hint[Action]:
    """The best next action by expectation over the orders the player cannot tell apart (see :func:`plan`)."""
    return plan(view, time_limit, samples, rng, should_stop)[0]


@dataclass(frozen=True)
class ParadeSolitaire:
    """What the window and ``sightline solve`` ask of a solitaire (the door, found as the presenter's
    ``solitaire``): the option that numbers deals, hints from a view, a deal solved and its line as a record."""

    deal_option: str = "deal"

    def hint(self, view: Any, time_limit: float, should_stop: Callable[[], bool] | None = None) -> tuple[Any, str]:
        """The action advised and a sentence about it."""
        if view.outcome is not None:
            return None, "the game is over"
        found = hint(view, time_limit=time_limit, should_stop=should_stop)
        if found.action is None:
            if view.can_add():
                return ParadeAdd(), "no line to one group was found in the time: adding a piece gives more to work with"
            return None, "no line to one group was found in the time"
        if not found.samples:
            return found.action, f"a sure line of moves scores {found.expected:.0f}"
        return found.action, (f"expected score {found.expected:.1f} over {found.samples} orders of the unseen cards "
                              f"(wins in {found.wins} of them)")

    def action_words(self, action: Any) -> str:
        """An action of a line in the score sheet's words (``f3-g2``, ``add``)."""
        if isinstance(action, ParadeMove):
            return f"{action.frm}-{action.to}"
        return str(action.kind)

    def solve(self, options: Mapping[str, Any], time_limit: float | None,
              progress: Callable[[Progress], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> tuple[Solution[Action], Any]:
        """The deal of ``options`` solved, and its line as a record (``None`` without a win)."""
        deal = check_deal(options.get(self.deal_option))
        solution, _ = solve_deal(deal, time_limit=time_limit, progress=progress, should_stop=should_stop)
        return solution, solution_record(deal, solution)


SOLITAIRE = ParadeSolitaire()

