"""A solitaire's best score knowing every card: a depth-first branch-and-bound search, generic over the game.

A game hands :func:`solve` a :class:`Problem` (what the actions are in a state, what an action leads to, what a
finished state scores, an upper bound of what a state can still score, and a key naming a state) and the state
to start from, in which every card's place is known (the solver sees what no player sees: it is for after the
game, and for the hints, which run it on orders the player cannot tell apart). It answers a :class:`Solution`:
the best score found with a line of actions that reaches it, and whether that score is **proven best** (the
whole search ran to the end) or only the **best found within the time limit**.

A problem may also offer ``successors(state)`` (each action with the bound of the state it leads to, without
building it) and ``position(state)`` (the key of what is on the table, whatever it cost: the first dive never
comes back to a position it passed through).

The search tries the actions in the order the problem lists them (best first makes good lines come early), cuts
every state whose bound cannot beat the best score found, and remembers the keys of states it has searched
through (they cannot give more later, since the best score only grows), forgetting them all when the table grows
past ``max_table`` keys (the search stays right, only slower).

>>> class Steps:  # reach 5 from 0 by steps of 1 or 2; the score is 10 less the steps taken
...     def value(self, s): return 10 - len(s) if sum(s) == 5 else None
...     def bound(self, s): return None if sum(s) > 5 else 10 - len(s) - (5 - sum(s) + 1) // 2
...     def actions(self, s): return [2, 1] if sum(s) < 5 else []
...     def apply(self, s, step): return s + (step,)
...     def key(self, s): return s
>>> solution = solve(Steps(), ())
>>> solution.score, solution.line, solution.proven
(7, (2, 2, 1), True)
>>> solution.words()
'best score 7, proven best'
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Iterable, Protocol, Sequence, TypeVar

__all__ = ["Problem", "Progress", "Solution", "line_record", "solve"]

S = TypeVar("S")
A = TypeVar("A")


class Problem(Protocol[S, A]):
    """What the solver needs of a game (states are the game's own; the solver never looks inside them)."""

    def actions(self, state: S) -> Sequence[A]:
        """The actions allowed in ``state``, most promising first (empty: nothing more can be done)."""

    def apply(self, state: S, action: A) -> S:
        """The state ``action`` leads to (a new state: ``state`` is left as it was)."""

    def value(self, state: S) -> int | None:
        """The score when ``state`` is a won end of the game, else ``None`` (the search does not go past it)."""

    def bound(self, state: S) -> int | None:
        """A score no line from ``state`` can beat (higher is allowed, lower is wrong); ``None`` when no win can
        come from it."""

    def key(self, state: S) -> Hashable:
        """A key equal for states with the same future (the same actions and scores from here on)."""


def _successors(problem: Problem[S, A], state: S) -> Iterable[tuple[A, int | None]]:
    """Each action of ``state`` with the bound of the state it leads to. A problem that can tell the bound
    without building the state offers ``successors(state)`` itself (the search then builds only the states it
    enters)."""
    own = getattr(problem, "successors", None)
    if own is not None:
        found: Iterable[tuple[A, int | None]] = own(state)
        return found
    return [(action, problem.bound(problem.apply(state, action))) for action in problem.actions(state)]


@dataclass(frozen=True)
class Progress:
    """How far a search has got: nodes visited, the best score so far (``None``: no win yet), seconds spent."""

    nodes: int
    best: int | None
    seconds: float


@dataclass(frozen=True)
class Solution(Generic[A]):
    """What a search found. ``score`` is ``None`` when it found no win; ``proven`` says the search ended (the
    score is the best there is, or no win exists); ``stopped`` says why it ended early (``"time"`` or
    ``"cancelled"``), empty when it did not."""

    score: int | None
    line: tuple[A, ...]
    proven: bool
    nodes: int
    seconds: float
    time_limit: float | None = None
    stopped: str = ""
    ceiling: int | None = None
    """No line scores more than this (the search has ruled out every higher score); ``None``: nothing ruled out."""

    def words(self) -> str:
        """The answer in a few words, honest about what was shown."""
        if self.proven:
            return "this deal cannot be won" if self.score is None else f"best score {self.score}, proven best"
        limit = f"{self.time_limit:g} s" if self.time_limit is not None else "the time given"
        why = "when it was stopped" if self.stopped == "cancelled" else f"within {limit}"
        ceiling = f"; no line scores more than {self.ceiling}" if self.ceiling is not None else ""
        if self.score is None:
            return f"no win found {why}{ceiling} (not proven impossible)"
        return f"best score found {why}: {self.score}{ceiling} (not proven best)"


CHECK_EVERY = 16
"""Nodes between two looks at the clock and at ``should_stop``."""


class _Stop(Exception):
    pass


def solve(problem: Problem[S, A], start: S, time_limit: float | None = 10.0,
          progress: Callable[[Progress], None] | None = None, should_stop: Callable[[], bool] | None = None,
          every: int = 2048, max_table: int = 2_000_000, known: tuple[int, Sequence[A]] | None = None,
          dive_share: float = 0.15) -> Solution[A]:
    """The best score from ``start`` and a line reaching it (see the module's words). ``progress`` is called every
    ``every`` nodes and at the end; ``should_stop`` (asked as often) ends the search early; ``known`` is a score
    and a line already found (the search then looks only for better, and answers it if it finds none).

    Two passes: a dive (at most ``dive_share`` of the time) takes the first good line it meets, so that a search
    stopped early still has one; then targets from the start's bound downwards, each searched through (iterative
    deepening: only lines that can still reach the target are followed), until a target is reached, which is then
    the best score, or the target falls to the dive's score, which is then proven best."""
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    best: list[Any] = [None, ()]
    if known is not None:
        best[0], best[1] = known[0], tuple(known[1])
    nodes = [0]
    line: list[A] = []
    dive_until = [None if deadline is None else began + (time_limit or 0) * dive_share]

    def report() -> None:
        if progress is not None:
            progress(Progress(nodes[0], best[0], time.perf_counter() - began))

    def tick() -> None:
        nodes[0] += 1
        if nodes[0] % CHECK_EVERY == 0:  # the clock is read often: a node can take a millisecond
            now = time.perf_counter()
            if deadline is not None and now > deadline:
                raise _Stop("time")
            if should_stop is not None and should_stop():
                raise _Stop("cancelled")
            if dive_until[0] is not None and now > dive_until[0]:
                raise _Stop("dive")
            if nodes[0] % every == 0:
                report()

    dead: set[Hashable] = set()
    position = getattr(problem, "position", problem.key)
    path: set[Hashable] = set()

    def dive(state: S) -> None:
        tick()
        value = problem.value(state)
        if value is not None:
            if best[0] is None or value > best[0]:
                best[0], best[1] = value, tuple(line)
            return
        key = problem.key(state)
        here = position(state)
        if key in dead or here in path:
            return
        path.add(here)
        for action, bound in _successors(problem, state):
            if bound is None or (best[0] is not None and bound <= best[0]):
                continue
            line.append(action)
            dive(problem.apply(state, action))
            line.pop()
        path.discard(here)
        if len(dead) >= max_table:
            dead.clear()
        dead.add(key)

    below: list[int | None] = [None]
    """The highest bound cut for falling short of the target in this pass: the next target (iterative deepening)."""
    failed: dict[Hashable, int] = {}
    """A state's key -> the lowest target a search through it failed to reach (no line from it gets there)."""

    def reach(state: S, target: int) -> bool:
        tick()
        value = problem.value(state)
        if value is not None:
            if value >= target:
                best[0], best[1] = value, tuple(line)
                return True
            return False
        key = problem.key(state)
        known = failed.get(key)
        if known is not None and known <= target:
            return False
        for action, bound in _successors(problem, state):
            if bound is None:
                continue
            if bound < target:
                if below[0] is None or bound > below[0]:
                    below[0] = bound
                continue
            line.append(action)
            if reach(problem.apply(state, action), target):
                line.pop()
                return True
            line.pop()
        if len(failed) >= max_table:
            failed.clear()
        failed[key] = target
        return False

    stopped = ""
    top = problem.bound(start)
    target: int | None = None
    try:
        if top is not None:
            try:
                dive(start)
            except _Stop as stop:
                if str(stop) != "dive":
                    raise
            dive_until[0] = None
            line.clear()
            target = top
            while target is not None and (best[0] is None or target > best[0]):
                below[0] = None
                if reach(start, target):
                    break
                target = below[0]
    except _Stop as stop:
        stopped = str(stop)
    except RecursionError:
        stopped = "depth"
    report()
    return Solution(best[0], best[1], not stopped, nodes[0], time.perf_counter() - began, time_limit, stopped,
                    target if stopped else best[0])


def line_record(game: Any, solution: Solution[Any]) -> Any:
    """The solver's line played on ``game`` (the deal, fresh) as a finished record, to step through in the replay
    viewer, or ``None`` when it found no win."""
    from app.engine.record import GameSession, PlayerInfo  # (a floor above: only when a record is asked for)
    if solution.score is None:
        return None
    session = GameSession(game, players=[PlayerInfo("Solver", "bot", "solver")])
    for action in solution.line:
        session.play(0, action)
    session.record.extra["solver"] = {"score": solution.score, "proven": solution.proven,
                                      "words": solution.words()}
    return session.snapshot()
