"""Hints for a solitaire: the best next action by expectation over the orders of the cards the player has not
seen (the player knows which cards those are, never their order).

The game hands :func:`best_by_expectation` a ``sample`` function that deals one possible order of the unseen
cards (from a generator it is given) and answers the solver's :class:`~app.games.patience.solver.Problem` and the
state the player is in under that order. Each sample is solved for a short time; the first actions of the lines
found are the candidates; every candidate is then scored on every sample (the solver again, from the state the
candidate leads to), and the candidate with the best mean wins. Lines that never turn a card score the same on
every sample, so a sure line is found as sure. It is "perfect information sampling": good, not perfect (it may
count on a card it would only know later), which is why the hint is called a hint.

The whole search keeps to ``time_limit`` seconds; it answers what it has when the time is up.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from .solver import Problem, solve

__all__ = ["Hint", "best_by_expectation"]

S = TypeVar("S")
A = TypeVar("A")

NO_WIN = -100
"""What a sample counts for a candidate when no win was found after it (below any score a game gives)."""


@dataclass(frozen=True)
class Hint(Generic[A]):
    """The action advised (``None`` when no sample found any win), its mean score over the samples (``None``
    likewise), how many samples, how many of those the action wins in, and the seconds spent."""

    action: A | None
    expected: float | None
    samples: int
    wins: int
    seconds: float


def best_by_expectation(sample: Callable[[random.Random], tuple[Problem[S, A], S]], samples: int = 6,
                        time_limit: float = 1.5, rng: random.Random | None = None,
                        should_stop: Callable[[], bool] | None = None) -> Hint[A]:
    """The hint (see the module's words): ``samples`` orders, ``time_limit`` seconds in all."""
    began = time.perf_counter()
    rng = rng or random.Random()
    dealt = [sample(rng) for _ in range(max(1, samples))]
    first_share = time_limit * 0.4 / len(dealt)
    found: dict[int, tuple[A, int]] = {}
    candidates: list[A] = []
    for index, (problem, state) in enumerate(dealt):
        solution = solve(problem, state, time_limit=first_share, should_stop=should_stop)
        if solution.score is not None and solution.line:
            action = solution.line[0]
            found[index] = (action, solution.score)
            if action not in candidates:
                candidates.append(action)
    if not candidates:
        return Hint(None, None, len(dealt), 0, time.perf_counter() - began)
    left = max(0.0, time_limit - (time.perf_counter() - began))
    share = left / max(1, len(candidates) * len(dealt))
    best: tuple[float, int, A] | None = None
    for action in candidates:
        total, wins = 0, 0
        for index, (problem, state) in enumerate(dealt):
            known = found.get(index)
            if known is not None and known[0] == action:
                score: int | None = known[1]
            else:
                score = _after(problem, state, action, share, should_stop)
            total += NO_WIN if score is None else score
            wins += score is not None
        mean = total / len(dealt)
        if best is None or (mean, wins) > (best[0], best[1]):
            best = (mean, wins, action)
    assert best is not None
    return Hint(best[2], best[0], len(dealt), best[1], time.perf_counter() - began)


def _after(problem: Problem[S, A], state: S, action: A, time_limit: float,
           should_stop: Callable[[], bool] | None) -> int | None:
    if action not in problem.actions(state):
        return None
    after = problem.apply(state, action)
    value = problem.value(after)
    if value is not None:
        return value
    return solve(problem, after, time_limit=time_limit, should_stop=should_stop).score


