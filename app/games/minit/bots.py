"""Built-in MinitChess bots: ``random`` and ``search``.

``search`` is an alpha-beta negamax (principal variation search) with iterative
deepening, a transposition table keyed by Zobrist hashes, move ordering (table
move, captures by most valuable victim / least valuable attacker, two killer
moves per ply, history counts) and a capture-only quiescence search. Capturing
the king is the win: it scores ``WIN - ply`` so that nearer wins score higher
and farther losses are preferred. Tuning: null-move pruning (a side that can pass
and still hold beta needs no full search; MinitChess has few zugzwangs, and a king
left en prise is caught by the reply) and late-move reductions (quiet moves
ordered late are searched one ply shallower unless they beat alpha) reach about
one ply deeper in the same time; against the plain search at equal time per move
they score about 65% (30 games, 0.2 s a move). Each move gets a time budget
derived from the seat's clock (``ActionRequest.seconds_left``) and the increment
estimated from it, capped by the level's maximum; a single legal move is played
at once.

>>> from app.bots.base import ActionRequest
>>> from app.games.minit.rules import MinitChess
>>> game = MinitChess("1 W k.... .Q... ..... ..... ..... ....K")
>>> bot = MinitSearchBot(seed=1)
>>> bot.start(0, game.options())
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> str(bot.act(ActionRequest(0, "move", game.choices(), 10.0)).move)
'b5-a6'
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from app.bots.base import ActionRequest, Bot
from app.bots.timing import TurnClock
from app.engine.core import Action, Seat
from app.games.minit.rules import (KING, MOVE_LIMIT, PAWN, PROMOTION, QUEEN, SQUARES, WIDTH, MinitChessView, MinitMove,
                              MinitPosition, Move, encode_move, gen_captures, gen_moves)
from app.games.minit import DEFINITION

WIN = 100_000
"""The score of capturing the king now; a win found ``n`` plies deeper scores ``WIN - n``."""
WIN_BOUND = WIN - 1_000
INFINITY = 10 * WIN
MAX_PLY = 128
_EXACT, _LOWER, _UPPER = 0, 1, 2
_TT_LIMIT = 400_000


@dataclass(frozen=True)
class Level:
    """What a level may spend: the deepest iteration, the most seconds per move, root score noise."""

    max_depth: int
    max_seconds: float
    noise: int = 0


LEVELS: dict[str, Level] = {
    "easy": Level(max_depth=2, max_seconds=0.2, noise=220),
    "medium": Level(max_depth=6, max_seconds=1.0),
    "hard": Level(max_depth=64, max_seconds=4.0),
}


# ---- evaluation tables ------------------------------------------------------------------------------

VALUES = (0, 100, 300, 330, 500, 900, 0)
"""Material in centipawns by piece code (the king is priceless: losing it ends the game)."""
_ORDER_VALUES = (0, 1, 3, 3, 5, 9, 100)


def _white_bonus(piece: int, square: int) -> int:
    file, rank = square % WIDTH, square // WIDTH
    centre = 4 - int(abs(file - 2) + abs(rank - 2.5))  # 0 in the corners, up to 3 in the middle
    if piece == PAWN:
        return (0, 0, 8, 22, 45, 0)[rank] + (4 if file in (1, 2, 3) and rank >= 2 else 0)
    if piece == KING:
        return -6 * rank  # the king prefers to stay home
    if piece == QUEEN:
        return 2 * centre
    if piece == 4:  # rook
        return 6 if rank == 4 else 0
    return 6 * centre  # knight and bishop


def _tables() -> tuple[list[list[int]], list[list[int]]]:
    """Piece-square values (White's point of view) and Zobrist keys, indexable by a signed piece code."""
    psq = [[0] * SQUARES for _ in range(13)]
    zobrist = [[0] * SQUARES for _ in range(13)]
    rng = random.Random(2011)
    for piece in range(1, 7):
        for square in range(SQUARES):
            mirror = (5 - square // WIDTH) * WIDTH + square % WIDTH
            psq[piece][square] = VALUES[piece] + _white_bonus(piece, square)
            psq[-piece][mirror] = -psq[piece][square]
            zobrist[piece][square] = rng.getrandbits(64)
            zobrist[-piece][square] = rng.getrandbits(64)
    return psq, zobrist


PSQ, ZOBRIST = _tables()
_SIDE_KEY = random.Random(40).getrandbits(64)
_NUMBER_KEYS = [random.Random(1000 + n).getrandbits(64) for n in range(MOVE_LIMIT + 2)]


def evaluate(board: list[int]) -> int:
    """Material and placement in centipawns from White's point of view."""
    return sum(PSQ[code][square] for square, code in enumerate(board) if code)


def zobrist_hash(board: list[int], side: int) -> int:
    key = _SIDE_KEY if side < 0 else 0
    for square, code in enumerate(board):
        if code:
            key ^= ZOBRIST[code][square]
    return key


class _Timeout(Exception):
    pass


@dataclass
class SearchResult:
    """What :meth:`MinitSearch.search` found: the move, its score (side to move), the depth completed."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float


# ---- the search ---------------------------------------------------------------------------------------

class _Run:
    """The state of one :meth:`MinitSearch.search` call that its steps share: the board being searched (moves
    are made and unmade on it), the deadline, the tables, and the nodes visited so far."""

    __slots__ = ("board", "deadline", "clock", "tt", "history", "killers", "tuned", "nodes")

    def __init__(self, board: list[int], deadline: float, clock: Callable[[], float],
                 tt: dict[int, tuple[int, int, int, int]], history: list[int], tuned: bool) -> None:
        self.board = board
        self.deadline = deadline
        self.clock = clock
        self.tt = tt
        self.history = history
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self.tuned = tuned
        self.nodes = 0


def _quiesce(run: _Run, side: int, alpha: int, beta: int, ply: int, ev: int) -> int:
    """Captures only, until the position is quiet: the score of ``side`` to move (the stand-pat score bounds it)."""
    run.nodes += 1
    if not run.nodes & 255 and run.clock() > run.deadline:
        raise _Timeout
    stand = ev if side > 0 else -ev
    if stand >= beta:
        return stand
    if stand > alpha:
        alpha = stand
    board = run.board
    captures = gen_captures(board, side)
    if not captures:
        return alpha
    order_values = _ORDER_VALUES
    enemy_king = -KING * side
    scored = []
    for code in captures:
        victim = board[code & 31]
        if victim == enemy_king:
            return WIN - ply
        scored.append((order_values[victim * -side] * 16 - order_values[board[code >> 5 & 31] * side], code))
    scored.sort(reverse=True)
    psq = PSQ
    queen = QUEEN * side
    for _, code in scored:
        origin, target = code >> 5 & 31, code & 31
        piece, victim = board[origin], board[target]
        moved = queen if code & PROMOTION else piece
        board[target] = moved
        board[origin] = 0
        score = -_quiesce(run, -side, -beta, -alpha, ply + 1,
                          ev + psq[moved][target] - psq[piece][origin] - psq[victim][target])
        board[origin] = piece
        board[target] = victim
        if score >= beta:
            return score
        if score > alpha:
            alpha = score
    return alpha


def _probe(run: _Run, tt_key: int, depth: int, alpha: int, beta: int, ply: int) -> tuple[int | None, int]:
    """The transposition table's answer for this node: a score that decides it (or None), and its best move."""
    entry = run.tt.get(tt_key)
    if entry is None:
        return None, 0
    entry_depth, flag, stored, tt_move = entry
    if entry_depth >= depth:
        score = stored - ply if stored > WIN_BOUND else stored + ply if stored < -WIN_BOUND else stored
        if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
            return score, tt_move
    return None, tt_move


def _ordered(run: _Run, moves: list[int], side: int, ply: int, tt_move: int) -> list[tuple[int, int]] | None:
    """``moves`` with their order, best first: the table's move, captures (most valuable victim by least
    valuable attacker), killers, then quiet moves by history and placement. None if a move takes the king."""
    board, history, psq, order_values = run.board, run.history, PSQ, _ORDER_VALUES
    killer1, killer2 = run.killers[ply]
    enemy_king = -KING * side
    scored = []
    for code in moves:
        victim = board[code & 31]
        if victim:
            if victim == enemy_king:
                return None
            order = 1_000_000 + order_values[victim * -side] * 16 - order_values[board[code >> 5 & 31] * side]
        elif code == killer1:
            order = 900_001
        elif code == killer2:
            order = 900_000
        else:
            # Quiet moves: history first; among equals, the one that improves placement most.
            mover = board[code >> 5 & 31]
            order = history[code & 1023] + (psq[mover][code & 31] - psq[mover][code >> 5 & 31]) * side
        if code == tt_move:
            order = 10_000_000
        scored.append((order, code))
    scored.sort(reverse=True)
    return scored


def _null_move(run: _Run, moves: list[int], side: int, depth: int, beta: int, ply: int, key: int, ev: int,
               number: int) -> int | None:
    """Null-move pruning: if passing still holds beta, a real move will too (MinitChess has few zugzwangs; a
    king left en prise is seen at once, since the reply captures it). The score that cuts, or None."""
    enemy_king = -KING * side
    board = run.board
    for code in moves:
        if board[code & 31] == enemy_king:
            return WIN - ply
    score = -_negamax(run, -side, depth - 3, -beta, -beta + 1, ply + 1, key ^ _SIDE_KEY, ev,
                      number if side > 0 else number + 1, False)
    if score >= beta:
        return score if score < WIN_BOUND else beta
    return None


def _cutoff(run: _Run, code: int, ply: int, depth: int) -> None:
    """A quiet move that cut: remember it as a killer of this ply and in the history."""
    killers = run.killers[ply]
    if killers[0] != code:
        killers[1] = killers[0]
        killers[0] = code
    run.history[code & 1023] += depth * depth


def _negamax(run: _Run, side: int, depth: int, alpha: int, beta: int, ply: int, key: int, ev: int, number: int,
             allow_null: bool = True) -> int:
    """Alpha-beta with a transposition table, null moves and late-move reductions: the score of ``side`` to
    move, searched ``depth`` plies deep (then :func:`_quiesce`)."""
    if number > MOVE_LIMIT:
        return 0
    if depth <= 0 or ply >= MAX_PLY:
        return _quiesce(run, side, alpha, beta, ply, ev)
    run.nodes += 1
    if not run.nodes & 255 and run.clock() > run.deadline:
        raise _Timeout
    tt_key = key ^ _NUMBER_KEYS[number]
    decided, tt_move = _probe(run, tt_key, depth, alpha, beta, ply)
    if decided is not None:
        return decided
    board = run.board
    moves = gen_moves(board, side)
    if not moves:
        return ply - WIN  # no legal move: the side to move loses
    tuned = run.tuned
    if tuned and allow_null and depth >= 3 and beta - alpha == 1 and (ev if side > 0 else -ev) >= beta \
            and beta < WIN_BOUND:
        cut = _null_move(run, moves, side, depth, beta, ply, key, ev, number)
        if cut is not None:
            return cut
    scored = _ordered(run, moves, side, ply, tt_move)
    if scored is None:
        return WIN - ply
    original_alpha = alpha
    best, best_move = -INFINITY, 0
    psq, zob = PSQ, ZOBRIST
    queen = QUEEN * side
    next_number = number if side > 0 else number + 1
    first = True
    searched = 0
    for rank, code in scored:
        origin, target = code >> 5 & 31, code & 31
        piece, victim = board[origin], board[target]
        moved = queen if code & PROMOTION else piece
        board[target] = moved
        board[origin] = 0
        child_key = key ^ zob[piece][origin] ^ zob[moved][target] ^ _SIDE_KEY
        if victim:
            child_key ^= zob[victim][target]
        child_ev = ev + psq[moved][target] - psq[piece][origin] - psq[victim][target]
        if first:
            score = -_negamax(run, -side, depth - 1, -beta, -alpha, ply + 1, child_key, child_ev, next_number)
            first = False
        else:
            # Late quiet moves (after the table move, captures and killers) are searched one ply
            # shallower first; one that still beats alpha is searched again at full depth.
            reduce = 1 if (tuned and depth >= 3 and searched >= 3 and not victim and rank < 900_000
                           and not code & PROMOTION) else 0
            score = -_negamax(run, -side, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, child_key, child_ev,
                              next_number)
            if reduce and score > alpha:
                score = -_negamax(run, -side, depth - 1, -alpha - 1, -alpha, ply + 1, child_key, child_ev,
                                  next_number)
            if alpha < score < beta:
                score = -_negamax(run, -side, depth - 1, -beta, -alpha, ply + 1, child_key, child_ev, next_number)
        searched += 1
        board[origin] = piece
        board[target] = victim
        if score > best:
            best, best_move = score, code
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if not victim:
                        _cutoff(run, code, ply, depth)
                    break
    flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
    stored = best + ply if best > WIN_BOUND else best - ply if best < -WIN_BOUND else best
    run.tt[tt_key] = (depth, flag, stored, best_move)
    return best


def _root_iteration(run: _Run, root_moves: list[int], side: int, depth: int, key: int, ev: int, number: int,
                    offsets: dict[int, int], noisy: bool, found: list[int]) -> None:
    """One iteration of the deepening at the root: every root move searched ``depth`` plies; the best so far is
    kept in ``found`` (move, score), so that an iteration cut short by the deadline still says what it found."""
    board = run.board
    psq, zob = PSQ, ZOBRIST
    queen = QUEEN * side
    next_number = number if side > 0 else number + 1
    alpha = -INFINITY
    for code in root_moves:
        origin, target = code >> 5 & 31, code & 31
        piece, victim = board[origin], board[target]
        moved = queen if code & PROMOTION else piece
        board[target] = moved
        board[origin] = 0
        child_key = key ^ zob[piece][origin] ^ zob[moved][target] ^ _SIDE_KEY
        if victim:
            child_key ^= zob[victim][target]
        child_ev = ev + psq[moved][target] - psq[piece][origin] - psq[victim][target]
        # With noise every root move needs its own exact score; otherwise alpha-beta at the root.
        window_alpha = -INFINITY if noisy else alpha
        if noisy or found[0] == 0:
            score = -_negamax(run, -side, depth - 1, -INFINITY, -window_alpha, 1, child_key, child_ev, next_number)
        else:
            score = -_negamax(run, -side, depth - 1, -alpha - 1, -alpha, 1, child_key, child_ev, next_number)
            if score > alpha:
                score = -_negamax(run, -side, depth - 1, -INFINITY, -alpha, 1, child_key, child_ev, next_number)
        board[origin] = piece
        board[target] = victim
        score += offsets[code]
        if score > found[1]:
            found[0], found[1] = code, score
            if score > alpha:
                alpha = score


class MinitSearch:
    """Iterative-deepening alpha-beta search. Keeps its transposition table and history between calls.

    >>> result = MinitSearch().search(MinitPosition.parse("1 W k.... ..... ..... ..... ..... Q...K"), 3, 1.0)
    >>> str(result.move), result.score
    ('a1-a6', 100000)
    """

    def __init__(self) -> None:
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * 1024
        self.nodes = 0

    def search(self, position: MinitPosition, max_depth: int, seconds: float,
               noise: Callable[[int], int] | None = None,
               clock: Callable[[], float] = time.perf_counter, tuned: bool = True) -> SearchResult:
        """Search ``position`` to at most ``max_depth`` plies within about ``seconds``.

        ``noise`` (levels below hard) adds a value to each root move's score.
        ``tuned=False`` turns off null-move pruning and late-move reductions (the
        plain search, which the strength benchmark's fixed 2-ply opponent uses).
        The answer is the best move of the deepest completed iteration (or of the
        unfinished one, once its first move is searched). The steps: :func:`_root_iteration` for each depth,
        :func:`_negamax` below the root, :func:`_quiesce` at the leaves.
        """
        start = clock()
        deadline = start + max(seconds, 0.0)
        board = list(position.board)
        side = position.side
        if len(self.tt) > _TT_LIMIT:
            self.tt.clear()
        for index in range(len(self.history)):
            self.history[index] >>= 2
        run = _Run(board, deadline, clock, self.tt, self.history, tuned)
        key = zobrist_hash(board, side)
        ev = sum(PSQ[code][square] for square, code in enumerate(board) if code)
        root_moves = gen_moves(board, side)
        if position.outcome() is not None:
            return SearchResult(None, 0 if root_moves else -WIN, 0, 0, clock() - start)
        enemy_king = -KING * side
        for code in root_moves:
            if board[code & 31] == enemy_king:
                return SearchResult(Move(code >> 5 & 31, code & 31), WIN, 1, 1, clock() - start)
        order_values = _ORDER_VALUES
        root_moves.sort(key=lambda code: -(order_values[abs(board[code & 31])] * 16
                                           - order_values[abs(board[code >> 5 & 31])] if board[code & 31] else 0))
        offsets = {code: (noise(code) if noise else 0) for code in root_moves}
        best_move, best_score, completed = root_moves[0], -INFINITY, 0
        for depth in range(1, max(1, max_depth) + 1):
            found = [0, -INFINITY]  # this iteration's best move and score
            try:
                _root_iteration(run, root_moves, side, depth, key, ev, position.move_number, offsets,
                                noise is not None, found)
            except _Timeout:
                if found[0]:  # the previous best was searched first: anything that beat it is better
                    best_move, best_score = found[0], found[1]
                break
            best_move, best_score, completed = found[0], found[1], depth
            root_moves.remove(best_move)
            root_moves.insert(0, best_move)
            if abs(best_score - offsets[best_move]) > WIN_BOUND:
                break  # a forced result: deeper search changes nothing
            if clock() - start > 0.55 * (deadline - start):
                break  # the next iteration would most likely not finish
        self.nodes = run.nodes
        return SearchResult(Move(best_move >> 5 & 31, best_move & 31), best_score - offsets[best_move], completed,
                            run.nodes, clock() - start)


def budget(level: Level, seconds_left: float, move_number: int, increment: float = 0.0) -> float:
    """Seconds to spend on one move: the level's cap, or a share of the clock, whichever is smaller.

    The share spreads the remaining time over the moves left before the 40-move
    draw (ruling M3) and adds most of the ``increment`` (which bots are not told:
    :class:`MinitSearchBot` estimates it from how its clock moves); it never takes
    more than half of what is left.

    >>> budget(LEVELS["medium"], float("inf"), 1)
    1.0
    >>> round(budget(LEVELS["hard"], 20.0, 1), 3)
    0.488
    >>> round(budget(LEVELS["hard"], 20.0, 1, increment=1.0), 3)
    1.288
    """
    if not math.isfinite(seconds_left):
        return level.max_seconds
    moves_to_go = max(MOVE_LIMIT + 1 - move_number, 1)
    share = seconds_left / (moves_to_go + 1) + 0.8 * increment
    return max(0.0, min(level.max_seconds, share, 0.5 * seconds_left - 0.02))


# ---- the bots --------------------------------------------------------------------------------------------

class _MinitBot(Bot):
    variant: ClassVar[str] = DEFINITION.key

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
        super().__init__(seed, level)
        self.view = MinitChessView()

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = MinitChessView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def _choices(self, request: ActionRequest) -> list[Move]:
        moves = request.choices.get("moves")
        if moves is None:
            return self.view.legal_moves()
        return list(moves)


class MinitRandomBot(_MinitBot):
    """Plays a uniformly random legal move."""

    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        moves = self._choices(request)
        if not moves:
            raise ValueError("no legal move to choose from")
        return MinitMove(self.rng.choice(moves))


class MinitSearchBot(_MinitBot):
    """Alpha-beta search; ``level`` (easy, medium, hard) sets its depth, time per move and root noise."""

    name: ClassVar[str] = "search"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.searcher = MinitSearch()
        self.last: SearchResult | None = None
        self.clock = TurnClock(LEVELS[level].max_seconds)  # only its increment estimate is used

    def act(self, request: ActionRequest) -> Action:
        started = self.now()
        try:
            return self._act(request, started)
        finally:
            self.clock.turn_ended(request.seconds_left, self.now() - started)

    def _act(self, request: ActionRequest, started: float) -> Action:
        self.clock.turn_started(request.seconds_left)
        moves = self._choices(request)
        if not moves:
            raise ValueError("no legal move to choose from")
        if len(moves) == 1:
            return MinitMove(moves[0])  # nothing to think about
        position = self.view.position
        if sorted(moves) != position.legal_moves():
            return MinitMove(self.rng.choice(moves))  # the view disagrees with the host: never answer illegally
        level = LEVELS[self.level]
        seconds = budget(level, request.seconds_left, position.move_number, self.clock.increment)
        noise = None
        if level.noise:
            offsets = {encode_move(m.from_square, m.to_square): self.rng.randint(-level.noise, level.noise)
                       for m in moves}
            noise = lambda code: offsets.get(code & (PROMOTION - 1), 0)  # noqa: E731
        seconds -= self.now() - started
        result = self.searcher.search(position, level.max_depth, seconds, noise, clock=self.now)
        self.last = result
        if result.move is None or result.move not in moves:
            return MinitMove(moves[0])
        return MinitMove(result.move)
