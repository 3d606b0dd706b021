"""Searching Neighbour Chess: how few moves can still join the pieces (a lower bound, and an exact count by
iterative deepening), the game as a :class:`~app.games.patience.solver.Problem` for the solitaires' solver, and
what the hints sample.

**The lower bound** (:func:`moves_needed_at_least`) on the moves still needed to join ``n`` pieces is the larger
of two counts, each never more than the truth:

- *groups*: one move takes one piece away from where it was and puts it down touching at most four groups, so it
  joins at most five groups into one: ``ceil((groups - 1) / 4)`` moves at least;
- *boxes*: a piece that never moves again is part of the final group, whose ``n`` squares are connected, so their
  bounding box is ``w`` by ``h`` with ``w + h - 1 <= n``; every piece outside the best such box must move at least
  once: ``n - (the most pieces any such box holds)``. A colour none of whose pieces has a neighbour of its colour
  can never move again (:func:`frozen`): the box must hold all its pieces, and with no such box, nothing joins them.

Once adding has stopped nothing is hidden any more (which cards are left no longer matters, only how many), so the
search for the fewest moves (:func:`fewest_moves`) is exact: iterative deepening on that bound.

>>> from app.games.neighbour.state import BOARD_EMPTY
>>> board = list(BOARD_EMPTY); board[chess.A1] = "R"; board[chess.B2] = "R"; board[chess.H8] = "n"
>>> moves_needed_at_least("".join(board))
2
>>> fewest_moves("".join(board), 10).moves  # the black knight has no neighbour: nothing joins it
>>> board[chess.H8] = "."; fewest_moves("".join(board), 10).moves
1
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Hashable, Sequence

import chess

from app.engine.core import Action
from app.games.neighbour.state import (NeighbourAdd, NeighbourMove, NeighbourStop, State, apply, legal_actions,
                                       reach)
from app.games.patience.solver import Problem, Progress, Solution, solve

__all__ = ["Fewest", "NeighbourProblem", "board_moves", "fewest_moves", "joined", "moves_needed_at_least", "quick_line",
           "sample_for_hint", "solve_state"]

_KING_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(chess.SquareSet(chess.BB_KING_ATTACKS[s]))
                                                      for s in range(64))
_TYPE = {letter: chess.Piece.from_symbol(letter).piece_type for letter in "NBRQKnbrqk"}


@lru_cache(maxsize=None)
def _boxes(count: int) -> tuple[int, ...]:
    """The masks of every largest box a connected group of ``count`` squares can fill: ``w + h - 1 == count``
    (capped by the board)."""
    found = set()
    for width in range(1, 9):
        for height in range(1, 9):
            if width + height - 1 > count:
                continue
            if width + height - 1 < count and width < 8 and height < 8:
                continue  # a larger box contains it
            for file in range(9 - width):
                for rank in range(9 - height):
                    mask = 0
                    for f in range(file, file + width):
                        for r in range(rank, rank + height):
                            mask |= 1 << chess.square(f, r)
                    found.add(mask)
    return tuple(found)


_OCCUPIED = str.maketrans({".": "0", **{letter: "1" for letter in "NBRQKnbrqk"}})
_WHITE = str.maketrans({".": "0", **{letter: "1" if letter.isupper() else "0" for letter in "NBRQKnbrqk"}})
_BLACK = str.maketrans({".": "0", **{letter: "0" if letter.isupper() else "1" for letter in "NBRQKnbrqk"}})
_NOT_A = ~chess.BB_FILE_A & chess.BB_ALL
_NOT_H = ~chess.BB_FILE_H & chess.BB_ALL


def _occupied(board: str) -> int:
    return int(board.translate(_OCCUPIED)[::-1], 2)


def _group_count(occupied: int) -> int:
    """How many orthogonally connected groups the squares of ``occupied`` make."""
    count = 0
    while occupied:
        group = occupied & -occupied
        while True:
            grown = (group | (group << 8) | (group >> 8) | ((group & _NOT_H) << 1) | ((group & _NOT_A) >> 1)) \
                & occupied
            if grown == group:
                break
            group = grown
        occupied &= ~group
        count += 1
    return count


def joined(board: str) -> bool:
    """Whether the pieces, two or more, are one group (as :func:`app.games.neighbour.state.connected`, faster)."""
    occupied = _occupied(board)
    return occupied.bit_count() >= 2 and _group_count(occupied) == 1


NEVER = 99
"""What :func:`moves_needed_at_least` says of pieces no number of moves can join."""


def frozen(board: str) -> int:
    """The squares of the pieces that can never move again (a mask): every piece of a colour none of whose pieces
    stands next to another of that colour. A piece moves only beside a piece of its colour, and only a move of a
    piece of that colour could bring one beside it, so such a colour stays still for good."""
    found = 0
    for table in (_WHITE, _BLACK):
        mask = int(board.translate(table)[::-1], 2)
        if not any(chess.BB_KING_ATTACKS[square] & mask for square in chess.scan_forward(mask)):
            found |= mask
    return found


def moves_needed_at_least(board: str) -> int:
    """Moves still needed to join the pieces, at least (0 only when they are joined, :data:`NEVER` when no number
    of moves can); see the module's words. The pieces that can never move (:func:`frozen`) stay in every box."""
    occupied = _occupied(board)
    count = occupied.bit_count()
    if count < 2:
        return NEVER
    group_count = _group_count(occupied)
    if group_count == 1:
        return 0
    still = frozen(board)
    by_groups = (group_count - 1 + 3) // 4
    held = [(occupied & box).bit_count() for box in _boxes(count) if box & still == still]
    if not held:
        return NEVER
    return max(1, by_groups, count - max(held))


def board_moves(board: str) -> list[tuple[int, int]]:
    """Every move on ``board`` as (from, to), the same set as :func:`app.games.neighbour.state.all_moves`, faster."""
    occupied = _occupied(board)
    found: list[tuple[int, int]] = []
    for square in chess.scan_forward(occupied):
        letter = board[square]
        white = letter.isupper()
        kinds = set()
        for other in _KING_NEIGHBOURS[square]:
            near = board[other]
            if near != "." and near.isupper() == white:
                kinds.add(_TYPE[near])
        targets = 0
        for kind in kinds:
            targets |= reach(kind, square, occupied)
        found.extend((square, target) for target in chess.scan_forward(targets))
    return found


def _moved(board: str, frm: int, to: int) -> str:
    cells = list(board)
    cells[to], cells[frm] = cells[frm], "."
    return "".join(cells)


# ---- the fewest moves, once adding has stopped --------------------------------------------------------------

@dataclass(frozen=True)
class Fewest:
    """The fewest moves that join the pieces within the cards left (``moves`` None: none found), a line of
    (from, to) that does it, and whether that is proven (the search ran to the end)."""

    moves: int | None
    line: tuple[tuple[int, int], ...]
    proven: bool
    nodes: int


class _Out(Exception):
    pass


def fewest_moves(board: str, cards: int, time_limit: float | None = None, max_nodes: int | None = None,
                 should_stop: Callable[[], bool] | None = None, more_than: int = 0,
                 failed: dict[str, int] | None = None) -> Fewest:
    """The fewest moves joining the pieces of ``board`` with at most ``cards`` moves (iterative deepening on
    :func:`moves_needed_at_least`, remembering boards already shown to need more than the moves left, in
    ``failed`` if given: board -> moves shown not to be enough, kept from one call to the next). ``more_than``:
    fewer moves are known not to be enough (the deepening starts above)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    nodes = [0]
    failed = {} if failed is None else failed
    if len(failed) > 400_000:
        failed.clear()
    line: list[tuple[int, int]] = []

    def dfs(position: str, left: int) -> bool:
        nodes[0] += 1
        if deadline is not None and time.perf_counter() > deadline:
            raise _Out
        if should_stop is not None and nodes[0] % 64 == 0 and should_stop():
            raise _Out
        if max_nodes is not None and nodes[0] > max_nodes:
            raise _Out
        if joined(position):
            return True
        if left <= 0 or moves_needed_at_least(position) > left or failed.get(position, -1) >= left:
            return False
        children = []
        for frm, to in board_moves(position):
            after = _moved(position, frm, to)
            children.append((moves_needed_at_least(after), frm, to, after))
        children.sort(key=lambda child: child[0])
        for need, frm, to, after in children:
            if need > left - 1:
                break
            line.append((frm, to))
            if dfs(after, left - 1):
                return True
            line.pop()
        failed[position] = max(failed.get(position, -1), left)
        return False

    if joined(board):
        return Fewest(0, (), True, 0)
    try:
        for limit in range(max(moves_needed_at_least(board), more_than + 1, failed.get(board, -1) + 1), cards + 1):
            line.clear()
            if dfs(board, limit):
                return Fewest(limit, tuple(line), True, nodes[0])
    except _Out:
        return Fewest(None, (), False, nodes[0])
    return Fewest(None, (), True, nodes[0])


# ---- the whole game for the solver ---------------------------------------------------------------------------

class NeighbourProblem:
    """Neighbour Chess for :func:`app.games.patience.solver.solve`: states are :class:`State` values (the decks'
    order known), actions the game's own, so a line found can be played as it is (a replay steps through it).

    The solver's search tries every way of adding (how many pieces, where each piece waiting for a square goes);
    once adding has stopped, this problem offers only the first move of a fewest-moves line (:func:`fewest_moves`,
    exact), looking no further than a line that could still beat the best score the solver has found (it learns
    that score from :meth:`value`, which the solver asks of every state it reaches) and reach :attr:`floor`: a
    state that cannot score ``floor`` has no bound (:func:`solve_state` lowers the floor step by step). Should a
    fewest-moves search be cut short (time, or a stop), :attr:`complete` turns false: the answer is then no proof."""

    def __init__(self, deadline: float | None = None, should_stop: Callable[[], bool] | None = None,
                 floor: int = 0) -> None:
        self.deadline = deadline
        self.should_stop = should_stop
        self.floor = floor
        self.best: int | None = None
        self.complete = True
        self._lines: dict[str, tuple[tuple[int, int], ...]] = {}  # board -> a fewest-moves line from it
        self._beyond: dict[str, int] = {}  # board -> moves known not to be enough
        self._failed: dict[str, int] = {}  # the fewest-moves searches' memory, shared

    def actions(self, state: State) -> Sequence[Action]:
        if state.stage == "move":
            step = self._next_move(state)
            return [] if step is None else [NeighbourMove(chess.square_name(step[0]) + chess.square_name(step[1]))]
        found = legal_actions(state)
        if state.stage == "add" and len(found) == 2:
            return [found[1], found[0]]  # stopping first: a line comes early, then adding is tried against it
        if state.stage == "place":
            return sorted(found, key=lambda action: moves_needed_at_least(apply(state, action).board))
        return found

    def _next_move(self, state: State) -> tuple[int, int] | None:
        board = state.board
        # more moves than this cannot beat the best found, nor reach the floor
        useful = min(state.cards_left - (-1 if self.best is None else self.best) - 1, state.cards_left - self.floor)
        line = self._lines.get(board)
        if line is not None:
            return line[0] if len(line) <= useful else None
        if useful < moves_needed_at_least(board) or self._beyond.get(board, -1) >= useful:
            return None
        left = None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        found = fewest_moves(board, useful, time_limit=left, should_stop=self.should_stop,
                             more_than=self._beyond.get(board, 0), failed=self._failed)
        if found.moves is None:
            if found.proven:
                self._beyond[board] = max(self._beyond.get(board, -1), useful)
            else:
                self.complete = False
            return None
        position = board
        for index, (frm, to) in enumerate(found.line):
            self._lines[position] = found.line[index:]
            position = _moved(position, frm, to)
        return found.line[0]

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def value(self, state: State) -> int | None:
        score = state.score
        if score is not None and (self.best is None or score > self.best):
            self.best = score
        return score

    def bound(self, state: State) -> int | None:
        found = self._bound(state)
        return None if found is None or found < self.floor else found

    def _bound(self, state: State) -> int | None:
        if state.stage == "won":
            return state.cards_left
        if state.stage == "lost":
            return None
        if state.stage == "place":
            return state.cards_left  # the placement may join the group at once
        need = moves_needed_at_least(state.board)
        if state.stage == "move":
            return state.cards_left - need if need <= state.cards_left else None
        # adding: one more add costs two cards; stopping costs the moves
        return state.cards_left - min(need, 2) if min(need, 2) <= state.cards_left else None

    def key(self, state: State) -> Hashable:
        return state.key()


def quick_line(state: State, max_nodes: int = 400, deadline: float | None = None) -> tuple[int, list[Action]] | None:
    """A good line from ``state`` found fast, knowing every card: add piece after piece (each waiting piece on the
    nearest empty square that leaves the fewest moves needed), and at each number of pieces try stopping, with a
    fewest-moves search of at most ``max_nodes`` nodes; the best score and its line (``None``: no win found)."""
    best: tuple[int, list[Action]] | None = None
    taken: list[Action] = []
    while not state.over:
        if state.stage == "move":
            useful = state.cards_left - (best[0] if best else -1) - 1
            if useful >= moves_needed_at_least(state.board):
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                found = fewest_moves(state.board, useful, time_limit=left, max_nodes=max_nodes)
                if found.moves is not None:
                    line = taken + [NeighbourMove(chess.square_name(a) + chess.square_name(b)) for a, b in found.line]
                    best = (state.cards_left - found.moves, line)
            break
        if state.stage == "add" and state.added:
            stopped = apply(state, NeighbourStop())
            if stopped.stage == "move":
                useful = stopped.cards_left - (best[0] if best else -1) - 1
                if useful >= moves_needed_at_least(stopped.board):
                    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                    found = fewest_moves(stopped.board, useful, time_limit=left, max_nodes=max_nodes)
                    if found.moves is not None:
                        line = taken + [NeighbourStop()] + [NeighbourMove(chess.square_name(a) + chess.square_name(b))
                                                            for a, b in found.line]
                        best = (stopped.cards_left - found.moves, line)
            if best is not None and state.cards_left - 2 <= best[0]:
                break  # another add costs two cards: it cannot do better
        if state.stage == "place":
            action: Action = min(legal_actions(state), key=lambda a: moves_needed_at_least(apply(state, a).board))
        else:
            action = NeighbourAdd()
        taken.append(action)
        state = apply(state, action)
        if state.stage == "won" and (best is None or state.cards_left > best[0]):
            best = (state.cards_left, list(taken))
        if deadline is not None and time.perf_counter() > deadline:
            break
    return best


def solve_state(state: State, time_limit: float | None = 10.0, progress: Callable[[Progress], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> Solution[Action]:
    """The best score from ``state`` knowing every card and a line reaching it, through the solitaires' solver
    (:func:`app.games.patience.solver.solve`).

    First :func:`quick_line` finds a good line fast; then the solver looks for a line scoring at least ``floor``,
    for ``floor`` from the highest score the state allows down to one more than the line in hand, each search cut
    hard by its floor. The first floor reached gives the best score; if none is, the line in hand is the best. The
    answer is proven only when every search behind it ran to its end."""
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    problem = NeighbourProblem(deadline, should_stop)
    known = quick_line(state, deadline=None if time_limit is None else began + time_limit / 5)
    top = problem._bound(state)
    nodes = 0

    def answer(score: int | None, line: Sequence[Action], proven: bool, stopped: str = "") -> Solution[Action]:
        if progress is not None:
            progress(Progress(nodes, score, time.perf_counter() - began))
        return Solution(score, tuple(line), proven, nodes, time.perf_counter() - began, time_limit, stopped)

    lowest = 0 if known is None else known[0] + 1
    for floor in range(-1 if top is None else top, lowest - 1, -1):
        problem.floor, problem.complete, problem.best = floor, True, None
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        found = solve(problem, state, time_limit=left, should_stop=should_stop, every=64,
                      progress=None if progress is None else _offset(progress, nodes, known, began))
        nodes += found.nodes
        if found.stopped or not problem.complete:
            stopped = found.stopped or ("cancelled" if should_stop is not None and should_stop() else "time")
            if found.score is not None and (known is None or found.score > known[0]):
                return answer(found.score, found.line, False, stopped)
            return answer(known[0], known[1], False, stopped) if known else answer(None, (), False, stopped)
        if found.score is not None:
            return answer(found.score, found.line, True)
    return answer(known[0], known[1], True) if known else answer(None, (), True)


def _offset(progress: Callable[[Progress], None], base: int, known: tuple[int, list[Action]] | None,
            began: float) -> Callable[[Progress], None]:
    """``progress`` told of one floor's search as part of the whole: nodes counted on from ``base``."""
    def told(step: Progress) -> None:
        best = step.best if step.best is not None else (known[0] if known else None)
        progress(Progress(base + step.nodes, best, time.perf_counter() - began))
    return told


def sample_for_hint(state: State) -> Callable[[random.Random], tuple[Problem[State, Action], State]]:
    """For :func:`app.games.patience.hints.best_by_expectation`: the player's ``state`` (its decks holding the
    cards not yet seen, in any order) with those cards shuffled anew for each sample."""
    def sample(rng: random.Random) -> tuple[Problem[State, Action], State]:
        pieces, positions = list(state.pieces), list(state.positions)
        rng.shuffle(pieces)
        rng.shuffle(positions)
        return NeighbourProblem(), State(state.board, tuple(pieces), tuple(positions), state.stage, state.last,
                                         state.pending, state.candidates, state.added, state.moves, state.ended,
                                         state.turned)
    return sample

