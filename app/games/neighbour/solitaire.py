"""Neighbour's part in the solitaire layer (:mod:`app.games.patience`): the door the window and ``sightline solve``
use (:data:`SOLITAIRE`, found on the presenter as ``solitaire``), hints from what the player knows, and the
solver's line as a record.

**The solver** is :func:`app.games.neighbour.search.solve_state` (the shared solver, fed Neighbour's problem, floor
by floor), from the deal's first state.

**Hints** (:func:`hint`). Once adding has stopped nothing the player does not know matters (only how many cards
are left), so the hint is the first move of the fewest-moves line, a sure score; a piece waiting for a square gets
the square whose fewest-moves line is shortest (or, with none found, that leaves the fewest moves needed). While
adding, stopping now is sure too (the cards left less the fewest moves); adding once more is scored by sampling:
each sample deals the unseen cards in a random order (the player knows which cards they are, never their order),
plays the add, and takes the best line a fast search knowing that order finds from there
(:func:`~app.games.neighbour.search.quick_line`); the mean over the samples is set beside stopping. Like any
sampling of hidden cards it may count on a card it would only know later: a hint, not a proof. The deal number is
never read.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import chess

from app.engine.core import Action
from app.games.neighbour.rules import NeighbourChess, NeighbourView, deal_decks
from app.games.neighbour.search import fewest_moves, moves_needed_at_least, quick_line, solve_state
from app.games.neighbour.state import (NeighbourAdd, NeighbourMove, NeighbourPlace, NeighbourStop, State, apply,
                                       legal_actions)
from app.games.patience.deals import check_deal
from app.games.patience.hints import Hint
from app.games.patience.solver import Progress, Solution, line_record

__all__ = ["SOLITAIRE", "NeighbourSolitaire", "hint", "solution_record", "solve_deal"]


def solve_deal(deal: int, time_limit: float | None = 10.0, progress: Callable[[Progress], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> Solution[Action]:
    """The best score of deal number ``deal`` knowing every card, with a line reaching it."""
    pieces, positions = deal_decks(check_deal(deal))
    return solve_state(State.start(pieces, positions), time_limit, progress, should_stop)


def solution_record(deal: int, solution: Solution[Action]) -> Any:
    """The solver's line as a finished record of the deal (to step through in the replay viewer), or ``None`` when
    it found no win."""
    return line_record(NeighbourChess(deal, seed=0), solution)


def _move(frm: int, to: int) -> NeighbourMove:
    return NeighbourMove(chess.square_name(frm) + chess.square_name(to))


def hint(view: NeighbourView, time_limit: float = 1.5, samples: int = 8, rng: random.Random | None = None,
         should_stop: Callable[[], bool] | None = None) -> Hint[Action]:
    """The next action advised from the player's ``view`` (see the module), within about ``time_limit`` s."""
    began = time.perf_counter()
    deadline = began + time_limit
    rng = rng or random.Random()
    state = view.state()

    def spent() -> float:
        return time.perf_counter() - began

    if state.over:
        return Hint(None, None, 0, 0, spent())
    if state.stage == "move":
        found = fewest_moves(state.board, state.cards_left, time_limit=time_limit, should_stop=should_stop)
        if found.moves:
            return Hint(_move(*found.line[0]), float(state.cards_left - found.moves), 0, 1, spent())
        return Hint(None, None, 0, 0, spent())
    if state.stage == "place":
        share = time_limit / max(1, len(state.candidates))
        ranked = []
        for action in legal_actions(state):
            after = apply(state, action)
            if after.stage == "won":
                return Hint(action, float(after.cards_left), 0, 1, spent())
            fewest = fewest_moves(after.board, after.cards_left, time_limit=share, max_nodes=3000,
                                  should_stop=should_stop) if not after.over else None
            score = after.cards_left - fewest.moves if fewest is not None and fewest.moves is not None else None
            ranked.append((-(score if score is not None else -99), moves_needed_at_least(after.board), action,
                           score))
        ranked.sort(key=lambda entry: entry[:2])
        _, _, action, score = ranked[0]
        return Hint(action, None if score is None else float(score), 0, 1 if score is not None else 0, spent())
    # adding: stopping is sure; one more add is sampled
    stop_score: int | None = None
    if state.added:
        stopped = apply(state, NeighbourStop())
        if stopped.stage == "won":
            stop_score = stopped.cards_left
        elif stopped.stage == "move":
            found = fewest_moves(stopped.board, stopped.cards_left, time_limit=time_limit * 0.3, max_nodes=4000,
                                 should_stop=should_stop)
            if found.moves is not None:
                stop_score = stopped.cards_left - found.moves
    if not state.pieces:
        return Hint(NeighbourStop() if stop_score is not None else None, stop_score, 0, 1, spent())
    scores: list[int] = []
    wins = 0
    count = 0
    while count < samples and time.perf_counter() < deadline and not (should_stop and should_stop()):
        pieces, positions = list(state.pieces), list(state.positions)
        rng.shuffle(pieces)
        rng.shuffle(positions)
        sampled = State(state.board, tuple(pieces), tuple(positions), "add", state.last, added=state.added,
                        turned=state.turned)
        left = max(0.05, (deadline - time.perf_counter()) / max(1, samples - count))
        found_line = quick_line(apply(sampled, NeighbourAdd()), max_nodes=300, deadline=time.perf_counter() + left)
        count += 1
        if found_line is not None:
            wins += 1
            scores.append(found_line[0])
        else:
            scores.append(0)
    expected = statistics.mean(scores) if scores else None
    if stop_score is not None and (expected is None or stop_score >= expected):
        return Hint(NeighbourStop(), float(stop_score), count, count, spent())
    return Hint(NeighbourAdd(), expected, count, wins, spent())


@dataclass(frozen=True)
class NeighbourSolitaire:
    """What the window and ``sightline solve`` ask of a solitaire (the door, found as the presenter's
    ``solitaire``): the option that numbers deals, hints from a view, a deal solved and its line as a record."""

    deal_option: str = "deal"

    def hint(self, view: Any, time_limit: float, should_stop: Callable[[], bool] | None = None) -> tuple[Any, str]:
        """The action advised and a sentence about it."""
        if view.outcome is not None:
            return None, "the game is over"
        found = hint(view, time_limit=time_limit, should_stop=should_stop)
        if found.action is None:
            if view.stage == "move" and moves_needed_at_least(view.board) > view.cards_left:
                return None, "no line of moves can join the pieces with the cards left"
            return None, "no line to one group was found in the time"
        if isinstance(found.action, NeighbourAdd):
            if found.expected is None or not found.wins:
                return found.action, ("no line to one group was found, now or after one more add in any order tried: "
                                      "adding gives more to work with")
            return found.action, (f"adding scores {found.expected:.1f} on average over {found.samples} orders of the "
                                  f"unseen cards (a win found in {found.wins}); stopping now does not do as well")
        if not found.samples:
            return found.action, ("no line to one group found from any square" if found.expected is None else
                                  f"a sure line scores {found.expected:.0f}")
        return found.action, f"stopping now and moving surely scores {found.expected:.0f}, more than adding on average"

    def action_words(self, action: Any) -> str:
        """An action of a line in a few characters (``c3-e4``, ``add``, ``@e4``, ``stop``)."""
        if isinstance(action, NeighbourMove):
            return f"{action.uci[:2]}-{action.uci[2:4]}"
        if isinstance(action, NeighbourPlace):
            return f"@{action.square}"
        return str(getattr(action, "kind", action))

    def solve(self, options: Mapping[str, Any], time_limit: float | None,
              progress: Callable[[Progress], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> tuple[Solution[Action], Any]:
        """The deal of ``options`` solved, and its line as a record (``None`` without a win)."""
        deal = check_deal(options.get(self.deal_option))
        solution = solve_deal(deal, time_limit=time_limit, progress=progress, should_stop=should_stop)
        return solution, solution_record(deal, solution)


SOLITAIRE = NeighbourSolitaire()
