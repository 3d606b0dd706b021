"""The ``belief`` bot for Reconnaissance Blind Chess: it tracks every position the opponent may be in.

Belief: the shared inference (:class:`~app.engine.inference.RbcInference`), capped
by level and sampled with weights when it grows, kept up to date by a
:class:`~app.bots.belief_common.OpponentTracker` (recovery and resets included).

Each turn, within a budget taken from its clock (:class:`~app.bots.timing.TurnClock`):

- **sense**: draw boards from the belief, score the candidate moves on each of
  them, and look where the answer would most change the move it picks: the 3x3
  window that best splits the boards *by what matters for the move* (see
  :func:`~app.bots.belief_common.information_value`). A capture of the king that
  is possible on some boards, or a threat to its own king on others, makes the
  squares that tell them apart worth the most;
- **move**: if some move captures the king on every position still possible, play
  it. Otherwise score every move action (and the pass) on each sampled board, as
  the referee would revise it there: a king capture is a win; otherwise material,
  placement, whether its own king can be taken next, and what the opponent can win
  at once. Pick the best weighted average with a share of the worst case mixed in.
  At ``hard`` every move also pays for the share of the *whole* belief on which
  the opponent could take the king right after it (:func:`king_danger`), and a UCI
  engine, when one is found (:mod:`app.bots.uci`), searches the best moves so far
  six plies deep on as many boards as the time allows (:meth:`RBCBeliefBot._engine_table`);
  the sense is chosen on such a table too (:meth:`RBCBeliefBot._engine_sense_table`),
  as StrangeFish2 does. Any engine failure leaves the built-in evaluator alone. The work grows with the
  time the turn may take (boards, refined moves, engine calls) and stops at its
  deadline.

Anything unexpected inside the bot falls back to a safe action (a pass, a sense in
the middle): the bot never stops playing.

>>> from app.bots.base import ActionRequest
>>> from app.games.rbc.rules import ReconChess
>>> game = ReconChess(fen="rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 3")
>>> bot = RBCBeliefBot(seed=1, level="easy")
>>> bot.start(1, game.options())
>>> for observation in game.observations(1):
...     bot.observe(observation)
>>> game.play(1, bot.act(ActionRequest(1, game.phase, game.choices(), 60.0)))
>>> bot.observe(game.observations(1)[-1])
>>> bot.act(ActionRequest(1, game.phase, game.choices(), 60.0)).move    # the queen takes the king
Move.from_uci('h4e1')
"""

from __future__ import annotations

import logging
import math
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar

import chess

from app.engine.core import Action, Outcome, Seat
from app.engine.inference import Hypothesis, Inference, InferenceOptions
from app.games.rbc.inference import RbcInference
from app.games.rbc.rules import (SENSE_WINDOWS, GameEnded, GameStarted, MoveAction, MoveResult, ReconChessView, Sense,
                                 SenseResult, TurnStarted)
from app.games.rbc.moves import revise_move, with_default_promotion

from app.bots.base import ActionRequest, Bot
from app.bots.belief_common import (OpponentTracker, BoardSample, ScoreTable, danger_after_sensing, force_pieces,
                                    information_value, keep_king, king_danger_rows, king_threat_prior, standing_prior,
                                    merge_armies, pick_board, refine, sample_boards, score_moves,
                                    teleport_capturer)
from app.bots.belief_common import king_danger as shared_king_danger
from app.bots.chess_eval import VALUES, Weights, evaluate, evaluate_replies
from app.bots.timing import Deadline, TurnClock
from app.bots.uci import UciEngine
from app.games.rbc import DEFINITION

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RbcLevel:
    """What a level may spend and how it plays.

    ``cap``: most positions the belief keeps; ``boards``: boards sampled to choose a
    move (and to choose a sense); ``max_seconds``: most seconds per turn;
    ``worst_share``: weight of the worst case against the average; ``noise``:
    centipawns of random noise on each move's score (the easy level errs);
    ``engine``: whether a UCI engine may help.
    """

    cap: int
    boards: int
    max_seconds: float
    worst_share: float = 0.1
    noise: int = 0
    engine: bool = False
    engine_boards: int = 8
    engine_seconds: float = 0.1
    """Most seconds the engine thinks on one board."""
    engine_share: float = 0.35
    """Share of the move's time left for the engine's votes."""
    engine_moves: int = 0
    """How many of the best moves (and the engine's own choices) the engine scores on the likeliest boards
    after its votes (0: votes only); ``vote_share`` of the engine's time goes to the votes."""
    vote_share: float = 0.3
    engine_weight: float = 0.6
    """How much the engine's average score counts against the built-in one for those moves."""
    engine_depth: int = 0
    """With more than 0, StrangeFish2's way instead of the votes: the engine searches this many plies (not a
    time) after each of the ``engine_moves`` best moves on every board it reaches, heaviest first, until the
    engine's share of the turn is spent (:meth:`RBCBeliefBot._engine_table`)."""
    engine_min: float = 0.3
    """With ``engine_depth``: how much a move's worst engine score over the boards counts against its average."""
    sense_engine: bool = False
    """With ``engine_depth``: the sense is chosen on the engine's table, StrangeFish2's way
    (:meth:`RBCBeliefBot._engine_sense_table`), instead of the built-in one."""
    refine: int = 10
    """How many of the best moves are scored again with the opponent's forcing replies."""
    threat_prior: float = 12.0
    """How much likelier than the belief says a position that attacks the bot's king is taken to be."""
    danger: float = 0.0
    """Centipawns taken off a move for the share of the whole belief on which the opponent could take the king
    right after it (:func:`king_danger`; 0: only the sampled boards see it)."""
    standing: float = 0.0
    """With more than 0: positions count ``exp(s / standing)`` times, ``s`` the opponent's standing there by the
    built-in evaluation (:func:`~app.bots.belief_common.standing_prior`), in the sample and in the king danger
    (then over at most ``STANDING_MOST`` positions drawn by weight)."""
    sense_danger: bool = False
    """With ``danger``: a sense also counts how much king danger it would take off the best moves
    (:func:`~app.bots.belief_common.danger_after_sensing`), over the whole belief. Off at every level: against
    StrangeFish2 it did no better than without it (docs/benchmarks.md)."""
    expected_turns: int = 40
    """How many of its turns the bot expects a game to last at first (the clock's share per turn)."""
    keep: float = 0.0
    """With an increment, the seconds the clock keeps in hand (:class:`~app.bots.timing.TurnClock`): a long game
    is then played on the increment with that much to spare for a slow turn."""
    share_weight: bool = False
    """Whether the belief shares each position's weight among the opponent's moves
    (:attr:`~app.engine.inference.InferenceOptions.share_weight`) instead of counting move orders. Off at every
    level: measured for Blind Chess first (``benchmarks/belief_truth.py --share`` weighs it on RBC records)."""
    spared_king_weight: float = 1.0
    """What the belief weighs a position by when the opponent could have taken the king there and did not."""
    weights: Weights = field(default_factory=Weights)


LEVELS: dict[str, RbcLevel] = {
    "easy": RbcLevel(cap=300, boards=16, max_seconds=0.4, worst_share=0.0, noise=150, threat_prior=1.0, refine=0,
                     weights=Weights(king_exposed=900, hanging_share=0.3, king_zone=0)),
    "medium": RbcLevel(cap=1500, boards=64, max_seconds=1.5, refine=16),
    "hard": RbcLevel(cap=4000, boards=192, max_seconds=12.0, engine=True, refine=64, danger=2500.0,
                     engine_boards=12, engine_seconds=0.1, engine_share=0.5, engine_moves=24, expected_turns=32,
                     keep=20.0, engine_depth=6, engine_weight=0.8, sense_engine=True),
}

KING_CAPTURE = 3000.0
"""What taking the king is worth in a move's average (more than any material, bounded so that a long shot
that leaves the queen hanging on most boards is not preferred to solid play)."""
CLIP = 3000.0
MOST_ENGINE_DEPTH = 20
"""The deepest pass of the engine table (:meth:`RBCBeliefBot._engine_table`)."""
ENGINE_VOTE = 120.0
"""Centipawns added to a move for the share of the likeliest boards on which the engine chose it."""
STANDING_MOST = 4000
"""The most positions the opponent-standing prior evaluates (about 80 microseconds each)."""
SENSE_DANGER_MOST = 12_000
"""The largest belief the ``sense_danger`` option weighs (it takes about 0.1 s per 10,000 positions)."""
SENSE_SQUARES: tuple[int, ...] = tuple(chess.square(file, rank) for rank in range(1, 7) for file in range(1, 7))
"""Inner squares: their windows are never clipped by the edge, so an edge square is never worth more."""
_WINDOW_MASKS = {square: sum(chess.BB_SQUARES[s] for s in SENSE_WINDOWS[square]) for square in SENSE_SQUARES}


def _resolve(board: chess.Board, move: chess.Move) -> chess.Move | None:
    return revise_move(board, with_default_promotion(board, move))


def _after(board: chess.Board, move: chess.Move | None, me: chess.Color) -> chess.Board | float:
    """``board`` after ``move`` as the referee would play it there, for an engine to score; or the outcome when
    no engine is needed: ``CLIP`` when the move takes the king, ``-CLIP`` when it leaves ``me``'s king to be
    taken (engines refuse such positions)."""
    taken = None if move is None else _resolve(board, move)
    if taken is not None and board.kings & board.occupied_co[not me] & chess.BB_SQUARES[taken.to_square]:
        return CLIP
    after = board.copy(stack=False)
    after.push(taken if taken is not None else chess.Move.null())
    king = after.king(me)
    if king is None or after.attackers_mask(not me, king):
        return -CLIP
    return after


def _candidates(actions: Any) -> list[chess.Move | None]:
    """The move actions worth scoring: every one, but only the queen and knight promotions; and the pass."""
    moves: list[chess.Move | None] = [move for move in actions
                                      if move.promotion in (None, chess.QUEEN, chess.KNIGHT)]
    moves.append(None)
    return moves


class RBCBeliefBot(Bot):
    """Belief tracking, information-seeking senses, moves scored over the possible positions (see the module)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "belief"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
        super().__init__(seed, level)
        self.settings = LEVELS[level]
        self.seed = seed or 0
        self.color = chess.WHITE
        self.view = ReconChessView()
        self.tracker = self._new_tracker(0)
        self.clock = TurnClock(self.settings.max_seconds, self.settings.expected_turns, keep=self.settings.keep)
        self.engine: UciEngine | None = None
        self._turn: Deadline | None = None
        self._turn_started = 0.0
        self._turn_left = math.inf
        self.last_table: ScoreTable | None = None
        self.last_sense_values: dict[int, tuple[float, float]] = {}
        self.last_danger: list[float] = []
        self.engine_calls = 0
        self.engine_boards = 0
        """Boards the engine completed in the last move choice (``engine_depth`` only)."""
        self.engine_depth_reached = 0
        """The depth of the engine table that chose the last move (``engine_depth`` only)."""
        self._standing_of: tuple[tuple[int, int, str], Callable[[Hypothesis], float]] | None = None
        self.failures: list[str] = []
        self._reset_ply = 0
        self._sightings: deque[bool] = deque(maxlen=16)
        self._draw_rule = "50-move"

    def _new_tracker(self, seat: Seat) -> OpponentTracker:
        options = InferenceOptions(cap=self.settings.cap, seed=self.seed, retries=0,
                                   share_weight=self.settings.share_weight,
                                   spared_king_weight=self.settings.spared_king_weight)
        tracker = OpponentTracker(seat, options, RbcInference, _guess_rbc, turn_boundary=(TurnStarted,))
        tracker.hint = lambda: seen_agreement(self.view, self.color)
        return tracker

    # -- the host's calls ----------------------------------------------------------------------------------
    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.color = seat == 0
        self.view = ReconChessView()
        self._reset_ply = 0
        self._sightings = deque(maxlen=16)
        self._draw_rule = str(options.get("draw_rule", "50-move"))
        self.tracker = self._new_tracker(seat)
        self.clock = TurnClock(self.settings.max_seconds, self.settings.expected_turns, keep=self.settings.keep)
        if self.settings.engine:
            self.engine = UciEngine()
            if self.engine.available:
                self.engine.best_move(chess.Board(), 0.01)  # start it now, before the clock runs

    def observe(self, observation: Any) -> None:
        # Cheap on purpose: the belief is brought up to date when the bot is asked to act.
        if isinstance(observation, MoveResult):
            taken = observation.taken
            if observation.capture_square is not None or (
                    taken is not None and self.view.own_board.pawns & chess.BB_SQUARES[taken.from_square]):
                self._reset_ply = observation.ply + 1
        elif isinstance(observation, TurnStarted) and observation.capture_square is not None:
            self._reset_ply = observation.ply
        elif isinstance(observation, SenseResult):
            self._compare_sightings(observation)
        self.view.apply(observation)
        self.tracker.observe(observation)

    def end(self, outcome: Outcome) -> None:
        if self.engine is not None:
            self.engine.close()

    def act(self, request: ActionRequest) -> Action:
        try:
            if request.phase == "sense":
                return self._sense(request)
            return self._move(request)
        except Exception as error:  # noqa: BLE001 - never stop playing: a safe answer instead
            self.failures.append(f"{type(error).__name__}: {error}")
            log.exception("the belief bot fell back to a safe action")
            if request.phase == "sense":
                return Sense(chess.square(3, 4) if self.color else chess.square(3, 3))
            return MoveAction(None)

    # -- sensing ----------------------------------------------------------------------------------------------
    def _sense(self, request: ActionRequest) -> Action:
        self._turn_started = self.now()
        self._turn_left = request.seconds_left
        self.clock.turn_started(request.seconds_left)
        budget = self.clock.budget(request.seconds_left)
        self._turn = Deadline(budget, self.now)
        deadline = self._turn.fraction(0.4)
        self.tracker.catch_up(deadline)
        inference = self.tracker.inference
        if inference.size <= 1 or deadline.left() <= 0.005:
            return Sense(self._default_sense(inference))
        sample = self._sample(inference)
        candidates = _candidates(request.choices["move_actions"])
        engine_sense = bool(self.settings.sense_engine and self.settings.engine_depth and self.engine is not None
                            and self.engine.available)
        table = self._score(sample, candidates, deadline.fraction(0.3 if engine_sense else 0.8))
        if engine_sense:
            table = self._engine_sense_table(sample, candidates, table, deadline) or table
        values = information_value(table, sample.keys, _WINDOW_MASKS)
        gains: dict[int, float] = {}
        if self.settings.danger and self.settings.sense_danger and deadline.left() > 0.05:
            gains = self._danger_taken_off(inference, candidates, table)
            values = {square: (value + gains.get(square, 0.0), entropy) for square, (value, entropy) in values.items()}
        self.last_sense_values = values
        best = max(SENSE_SQUARES, key=lambda square: (round(values[square][0], 3), values[square][1],
                                                      -self._distance_to_center(square)))
        if values[best][1] <= 1e-9 and gains.get(best, 0.0) <= 0.0:
            return Sense(self._default_sense(inference))
        return Sense(best)

    def _engine_sense_table(self, sample: BoardSample, candidates: list[chess.Move | None], table: ScoreTable,
                            deadline: Deadline) -> ScoreTable | None:
        """The ``engine_moves`` best moves of ``table`` scored by the engine at ``engine_depth`` on the boards it
        reaches by ``deadline``, heaviest first, as a table of their own for the sense (StrangeFish2 chooses its
        sense on the scores it moves by); None when fewer than two boards were done."""
        assert self.engine is not None
        active = table.active()
        shortlist = sorted(active, key=lambda i: -table.combined(i, self.settings.worst_share))
        shortlist = shortlist[:self.settings.engine_moves]
        if len(shortlist) < 2:
            return None
        order = sorted(range(len(sample)), key=lambda j: -sample.weights[j])
        rows: list[tuple[int, dict[int, float]]] = []
        self.engine_calls = 0
        if not self._engine_pass(sample, candidates, shortlist, order, self.settings.engine_depth, deadline, rows):
            return None
        if len(rows) < 2:
            return None
        weights = [sample.weights[j] for j, _ in rows]
        total = math.fsum(weights) or 1.0
        scores = [[row[i] for _, row in rows] for i in shortlist]
        odds = [math.fsum(w for w, value in zip(weights, line) if value >= CLIP) / total for line in scores]
        return ScoreTable([candidates[i] for i in shortlist], scores, weights, odds, [False] * len(shortlist),
                          [j for j, _ in rows])

    def _danger_taken_off(self, inference: Inference, candidates: list[chess.Move | None], table: ScoreTable,
                          shortlist: int = 8) -> dict[int, float]:
        """For each sense square, in centipawns (the level's ``danger``): the king danger a sense there would take
        off, the safest of the ``shortlist`` best moves now against the safest one once the window is seen, over
        every position the belief holds. Empty when none of those moves is in danger anywhere, and for a belief of
        more than ``SENSE_DANGER_MOST`` positions (a tenth of a second per 10,000 positions)."""
        if inference.size > SENSE_DANGER_MOST:
            return {}
        ranked = sorted(table.active(), key=lambda i: -table.mean(i))[:shortlist]
        moves = [candidates[i] for i in ranked]
        dangers, weights = king_danger_rows(inference, moves, self.color, _resolve, self.settings.threat_prior)
        if not weights.size or not dangers.any():
            return {}
        now = float((dangers * weights).sum(axis=1).min()) / (float(weights.sum()) or 1.0)
        after = danger_after_sensing(inference, dangers, weights, _WINDOW_MASKS)
        return {square: self.settings.danger * max(0.0, now - left) for square, left in after.items()}

    @staticmethod
    def _distance_to_center(square: int) -> float:
        return abs(chess.square_file(square) - 3.5) + abs(chess.square_rank(square) - 3.5)

    def _default_sense(self, inference: Inference) -> int:
        """Where the opponent's pieces are least certain (or its king's area when everything is known)."""
        if inference.size:
            probabilities = inference.square_probabilities()
            uncertainty = {square: sum(p * (1 - p) for s in SENSE_WINDOWS[square]
                                       for p in (probabilities.get(s, 0.0),))
                           for square in SENSE_SQUARES}
            best = max(SENSE_SQUARES, key=lambda square: uncertainty[square])
            if uncertainty[best] > 1e-9:
                return best
            kings = inference.type_probabilities(chess.KING)
            king = max(kings, key=lambda square: kings[square])
            return chess.square(min(max(chess.square_file(king), 1), 6), min(max(chess.square_rank(king), 1), 6))
        return chess.square(3, 4) if self.color else chess.square(3, 3)

    # -- moving -----------------------------------------------------------------------------------------------
    def _move(self, request: ActionRequest) -> Action:
        if self._turn is None:  # asked to move without a sense (a host that skips it): start the turn here
            self._turn_started = self.now()
            self._turn_left = request.seconds_left
            self.clock.turn_started(request.seconds_left)
            self._turn = Deadline(self.clock.budget(request.seconds_left), self.now)
        deadline = self._turn
        try:
            self.tracker.catch_up(deadline)
            return MoveAction(self._choose_move(request, deadline))
        finally:
            self.clock.turn_ended(self._turn_left, self.now() - self._turn_started)
            self._turn = None

    def _choose_move(self, request: ActionRequest, deadline: Deadline) -> chess.Move | None:
        actions = request.choices["move_actions"]
        inference = self.tracker.inference
        if not inference.size:
            return None
        certain = self._certain_king_capture(inference, actions)
        if certain is not None:
            return certain
        sample = self._sample(inference)
        candidates = _candidates(actions)
        engine_time = 0.0
        if self.engine is not None and self.engine.available:
            engine_time = self.settings.engine_share * max(0.0, deadline.left())
        work = Deadline(max(0.0, deadline.left() - engine_time), self.now)
        table = self._score(sample, candidates, work.fraction(0.45))
        self.last_table = table
        active = table.active()
        bonus = self._progress_bonus(candidates)
        if self.settings.danger:
            standing = self._standing(inference)
            self.last_danger = king_danger(inference, candidates, self.color, self.settings.threat_prior,
                                           most=STANDING_MOST if standing else None, prior=standing)
            bonus = [b - self.settings.danger * d for b, d in zip(bonus, self.last_danger)]
        scores = [table.combined(i, self.settings.worst_share) + bonus[i] if i in active else -math.inf
                  for i in range(len(candidates))]
        first_look = list(scores)
        if self.settings.refine:
            # The few best on one look are looked at again with the opponent's forcing replies.
            shortlist = sorted(active, key=lambda i: -scores[i])[:self.settings.refine]
            me, weights = self.color, self.weights()
            done = refine(table, sample, me, _resolve, shortlist, work, CLIP,
                          lambda board: evaluate_replies(board, me, weights))
            if done:
                # A deeper look only finds more dangers: compare refined moves among themselves.
                kept = set(shortlist[:done])
                scores = [table.combined(i, self.settings.worst_share) + bonus[i] if i in kept else -math.inf
                          for i in range(len(candidates))]
        if self.settings.noise:
            scores = [score + self.rng.uniform(-self.settings.noise, self.settings.noise) for score in scores]
        if engine_time > 0.01 and self.settings.engine_depth:
            mixed = self._engine_table(sample, candidates, scores, deadline)
            if mixed is not scores and self.last_danger:
                share = self.settings.engine_weight * self.settings.danger  # as below: the danger counts in full
                mixed = [score - share * danger for score, danger in zip(mixed, self.last_danger)]
            scores = mixed
        elif engine_time > 0.01:
            votes = self._engine_votes(sample, candidates, deadline.fraction(self.settings.vote_share)
                                       if self.settings.engine_moves else deadline)
            for index, share in votes.items():
                scores[index] += ENGINE_VOTE * share
            if self.settings.engine_moves:
                mixed = self._engine_scores(sample, candidates, scores, first_look, votes, deadline)
                if mixed is not scores and self.last_danger:
                    # The mix scaled the king danger down with the built-in score: it counts in full.
                    share = self.settings.engine_weight * self.settings.danger
                    mixed = [score - share * danger for score, danger in zip(mixed, self.last_danger)]
                scores = mixed
        best = max(range(len(candidates)), key=lambda i: (scores[i], table.capture_odds[i]))
        move = candidates[best]
        if move is not None and move not in actions:
            return None
        return move

    def _compare_sightings(self, result: SenseResult) -> None:
        """For a sense that sees squares seen before: did anything of the enemy's change there?

        One entry per such turn (True: something changed). An opponent that moves shows a change every few turns
        to a seat that keeps sensing near its pieces; one that never does is passive (:meth:`weights`).
        """
        compared = changed = False
        for square, piece in result.window:
            if piece is not None and piece.color == self.color:
                continue
            before = self.view.known.get(square)
            if before is None or before.source != "sense" or (before.piece is None and piece is None):
                continue
            compared = True
            changed = changed or before.piece != piece
        if compared:
            self._sightings.append(changed)

    def passivity(self) -> float:
        """1 when the last eight senses that looked again at enemy pieces saw none of them move (at least six
        such senses), 0.5 with one change, else 0."""
        recent = list(self._sightings)[-8:]
        if len(recent) < 6 or self.view.lost and self.view.lost[-1][0] >= self.view.ply - 16:
            return 0.0
        return max(0.0, 1.0 - sum(recent) / 2)

    def weights(self) -> Weights:
        """The level's evaluation weights, bolder against a passive opponent: one whose pieces do not move rarely
        takes what it could, so hanging pieces and an exposed king cost less and checks gain more."""
        base = self.settings.weights
        boldness = self.passivity()
        if not boldness:
            return base
        return replace(base, hanging_share=base.hanging_share * (1 - 0.7 * boldness),
                       king_exposed=int(base.king_exposed * (1 - 0.5 * boldness)),
                       check_bonus=int(base.check_bonus * (1 + 2 * boldness)))

    def _progress_bonus(self, candidates: list[chess.Move | None]) -> list[float]:
        """The 50-move rule draws at 100 quiet plies: past 60, pawn moves earn a growing bonus."""
        quiet = self._quiet_plies() if self._draw_rule != "none" else 0
        if quiet <= 60:
            return [0.0] * len(candidates)
        pawns = self.view.own_board.pawns
        return [5.0 * (quiet - 60) if move is not None and pawns & chess.BB_SQUARES[move.from_square] else 0.0
                for move in candidates]

    def _quiet_plies(self) -> int:
        """Plies since the last capture or pawn move this seat knows of (the 50-move rule's count, at most:
        the opponent's pawn moves, which also reset it, are unseen)."""
        return max(0, self.view.ply - self._reset_ply)

    def _certain_king_capture(self, inference: Inference, actions: Any) -> chess.Move | None:
        """A move that takes the king on every position held, if there is one (the cheapest piece first)."""
        common: set[chess.Move] | None = None
        for board, _ in inference.positions(limit=20_000):
            king = board.king(not self.color)
            if king is None:
                return None
            hits = set()
            for origin in chess.scan_forward(board.attackers_mask(self.color, king)):
                move = with_default_promotion(board, chess.Move(origin, king))
                if move in actions and revise_move(board, move) == move:
                    hits.add(move)
            common = hits if common is None else common & hits
            if not common:
                return None
        if not common:
            return None
        board = self.view.own_board
        return min(common, key=lambda move: (VALUES[board.piece_type_at(move.from_square) or 0], move.uci()))

    def _sample(self, inference: Inference) -> BoardSample:
        threat = king_threat_prior(inference.own, self.color, self.settings.threat_prior)
        standing = self._standing(inference)
        if standing is None:
            return sample_boards(inference, self.settings.boards, self.rng, threat)
        return sample_boards(inference, self.settings.boards, self.rng, lambda h: threat(h) * standing(h),
                             presample=STANDING_MOST)

    def _standing(self, inference: Inference) -> Callable[[Hypothesis], float] | None:
        """The opponent-standing prior of this turn's belief (one per belief: its evaluations are kept)."""
        if not self.settings.standing:
            return None
        key = (id(inference), inference.size, inference.own.board_fen())  # our pieces change the evaluations
        if self._standing_of is None or self._standing_of[0] != key:
            standing = standing_prior(inference, self.color, self.settings.standing, evaluate)
            raid = king_threat_prior(inference.own, self.color, 2.0)

            def plausibility(h: Hypothesis) -> float:
                # A raider attacking the king often hangs its piece on purpose: such positions never count less.
                value = standing(h)
                return max(value, 1.0) if raid(h) > 1.0 else value
            self._standing_of = (key, plausibility)
        return self._standing_of[1]

    def _score(self, sample: BoardSample, candidates: list[chess.Move | None], deadline: Deadline) -> ScoreTable:
        me = self.color
        weights = self.weights()
        return score_moves(sample, candidates, me, _resolve, deadline, KING_CAPTURE, CLIP,
                           lambda board: evaluate(board, me, weights))

    def _engine_scores(self, sample: BoardSample, candidates: list[chess.Move | None], scores: list[float],
                       first_look: list[float], votes: dict[int, float], deadline: Deadline) -> list[float]:
        """The engine's score of the best moves so far (and those it voted for) on the likeliest boards.

        Board by board, heaviest first, until ``deadline``: each shortlisted move is played (as the referee
        would revise it there) and the engine scores the position, the opponent to move; a move that takes the
        king scores ``CLIP``, one that leaves the king to be taken ``-CLIP`` (engines refuse such positions).
        Only complete boards count. The shortlisted moves' scores become a mix of the built-in score and the
        engine's weighted average (``engine_weight``); the other moves drop out (a voted move that was not
        refined keeps its first look, ``first_look``). Unchanged when no board was completed.
        """
        assert self.engine is not None
        ranked = sorted((i for i in range(len(candidates)) if scores[i] > -math.inf), key=lambda i: -scores[i])
        shortlist = ranked[:self.settings.engine_moves]
        for index in sorted(votes, key=lambda i: -votes[i]):
            if index not in shortlist and len(shortlist) < self.settings.engine_moves + 4:
                shortlist.append(index)
        if len(shortlist) < 2:
            return scores
        order = sorted(range(len(sample)), key=lambda j: -sample.weights[j])[:self.settings.engine_boards]
        me = self.color
        totals = {i: 0.0 for i in shortlist}
        weight = 0.0
        self.engine_calls = 0
        for position, j in enumerate(order):
            calls_left = (len(order) - position) * len(shortlist)
            seconds = min(0.08, deadline.left() / calls_left - 0.004)
            if seconds < 0.005 or not self.engine.available:
                break
            engine = self.engine
            row = self._engine_row(sample.boards[j], candidates, shortlist, deadline,
                                   lambda after: engine.score(after, seconds, me))
            if row is None:
                return scores
            if len(row) < len(shortlist):
                break
            for i, value in row.items():
                totals[i] += sample.weights[j] * value
            weight += sample.weights[j]
        if weight <= 0:
            return scores
        mix = self.settings.engine_weight
        kept = set(shortlist)
        return [(1 - mix) * (scores[i] if scores[i] > -math.inf else first_look[i]) + mix * totals[i] / weight
                if i in kept else -math.inf for i in range(len(candidates))]

    def _engine_row(self, board: chess.Board, candidates: list[chess.Move | None], shortlist: list[int],
                    deadline: Deadline, search: Callable[[chess.Board], int | None],
                    seen: dict[str, float] | None = None) -> dict[int, float] | None:
        """Each shortlisted move's score on ``board``: ``search`` (the engine) on the position after it, clipped
        to ``CLIP``, the built-in evaluation where the engine gave none, and no search where :func:`_after` knows
        the outcome. Positions already in ``seen`` (keyed by EPD) are not searched again. Stops early at
        ``deadline`` (a shorter row); None when the engine failed for good."""
        me = self.color
        row: dict[int, float] = {}
        for i in shortlist:
            after = _after(board, candidates[i], me)
            if isinstance(after, float):
                row[i] = after
                continue
            key = after.epd() if seen is not None else ""  # pieces, side to move, castling, a legal en passant
            value = seen.get(key) if seen is not None else None
            if value is None:
                found = search(after)
                self.engine_calls += 1
                if found is None:
                    if self.engine is None or not self.engine.available:
                        return None
                    found = evaluate(after, me, self.weights())
                value = max(-CLIP, min(CLIP, float(found)))
                if seen is not None:
                    seen[key] = value
            row[i] = value
            if deadline.expired():
                break
        return row

    def _engine_table(self, sample: BoardSample, candidates: list[chess.Move | None], scores: list[float],
                      deadline: Deadline) -> list[float]:
        """The engine's depth-limited score of the best moves so far on as many boards as the time allows.

        StrangeFish2 scores every move on every board with a depth-limited search and ranks moves by a mix of
        their average and their worst outcome; this does the same for the ``engine_moves`` best moves after the
        built-in look, board by board, heaviest first, until ``deadline`` (a board counts only when every move
        was scored on it). When every board is done with time left (a small belief), the whole table is made
        again one ply deeper, and kept if that pass also reaches every board: an exact belief gets a deep search
        rather than a six-ply one. A move that takes the king scores ``CLIP``, one that leaves the king to be
        taken ``-CLIP``; positions met twice in a pass (moves that the referee revises alike) are searched once.
        The shortlisted moves' scores become ``(1 - engine_weight) * built-in + engine_weight * engine``, with
        ``engine = (1 - engine_min) * weighted average + engine_min * worst``; the other moves drop out.
        Unchanged when no board was completed.
        """
        assert self.engine is not None
        shortlist = sorted((i for i in range(len(candidates)) if scores[i] > -math.inf),
                           key=lambda i: -scores[i])[:self.settings.engine_moves]
        if len(shortlist) < 2:
            return scores
        order = sorted(range(len(sample)), key=lambda j: -sample.weights[j])
        self.engine_calls = 0
        self.engine_boards = 0
        table: dict[int, float] | None = None
        depth = self.settings.engine_depth
        while depth <= MOST_ENGINE_DEPTH:
            boards, calls_before = self.engine_boards, self.engine_calls
            found = self._engine_pass(sample, candidates, shortlist, order, depth, deadline)
            if found is None:
                return scores  # the engine failed for good
            if table is not None and self.engine_boards < len(order):
                self.engine_boards = boards  # a deeper pass cut short: the shallower whole one stands
                break
            table = found
            self.engine_depth_reached = depth
            if self.engine_boards < len(order) or self.engine_calls == calls_before or deadline.left() < 0.05:
                break
            depth += 1
        if not table:
            return scores
        mix = self.settings.engine_weight
        return [(1 - mix) * scores[i] + mix * table[i] if i in table else -math.inf for i in range(len(candidates))]

    def _engine_pass(self, sample: BoardSample, candidates: list[chess.Move | None], shortlist: list[int],
                     order: list[int], depth: int, deadline: Deadline,
                     rows: list[tuple[int, dict[int, float]]] | None = None) -> dict[int, float] | None:
        """One pass of :meth:`_engine_table` at ``depth``: each shortlisted move's mix of average and worst over
        the boards completed (``engine_boards``), or None when the engine failed for good. Each completed board's
        index in the sample and row go to ``rows`` too."""
        assert self.engine is not None
        me = self.color
        totals = {i: 0.0 for i in shortlist}
        worst = {i: math.inf for i in shortlist}
        weight = 0.0
        seen: dict[str, float] = {}
        self.engine_boards = 0
        for j in order:
            if deadline.left() < 0.05 or not self.engine.available:
                break
            engine = self.engine
            # The time bounds a deep pass near the deadline (and an engine that hangs).
            row = self._engine_row(sample.boards[j], candidates, shortlist, deadline,
                                   lambda after: engine.score(after, max(0.02, min(1.0, deadline.left())), me,
                                                              depth=depth), seen)
            if row is None:
                return None
            if len(row) < len(shortlist):
                break
            self.engine_boards += 1
            if rows is not None:
                rows.append((j, row))
            for i, value in row.items():
                totals[i] += sample.weights[j] * value
                worst[i] = min(worst[i], value)
            weight += sample.weights[j]
        if weight <= 0:
            return {}
        low = self.settings.engine_min
        return {i: (1 - low) * totals[i] / weight + low * worst[i] for i in shortlist}

    def _engine_votes(self, sample: BoardSample, candidates: list[chess.Move | None],
                      deadline: Deadline) -> dict[int, float]:
        """Ask the engine for its move on the likeliest boards; each move's share of their weight."""
        assert self.engine is not None
        order = sorted(range(len(sample)), key=lambda j: -sample.weights[j])[:self.settings.engine_boards]
        index = {move: i for i, move in enumerate(candidates) if move is not None}
        votes: dict[int, float] = {}
        total = 0.0
        for position, j in enumerate(order):
            left = deadline.left()
            if left <= 0.02 or not self.engine.available:
                break
            seconds = min(self.settings.engine_seconds, left / (len(order) - position) - 0.01)
            if seconds <= 0.005:
                break
            move = self.engine.best_move(sample.boards[j], seconds)
            total += sample.weights[j]
            if move is not None and move in index:
                votes[index[move]] = votes.get(index[move], 0.0) + sample.weights[j]
        return {i: weight / total for i, weight in votes.items()} if total else {}



# ---- king danger over the whole belief ----------------------------------------------------------------------

def king_danger(inference: Inference, candidates: list[chess.Move | None], color: chess.Color,
                threat_factor: float = 1.0, most: int | None = None,
                prior: Callable[[Hypothesis], float] | None = None) -> list[float]:
    """For each candidate move: the share of the whole belief (every position held, by weight) on which the
    opponent could take ``color``'s king right after it, the move revised as the referee would on each position
    (a slide stops at the first enemy piece, a blocked pawn does not move, castling through a piece fails).

    Positions in which the opponent attacks the king already count ``threat_factor`` times (as
    :func:`~app.bots.belief_common.king_threat_prior`: opponents aim at the king far more often than a uniform
    choice of their moves says). Vectorised over the belief's bitboards: a few milliseconds a move.
    """
    return shared_king_danger(inference, candidates, color, _resolve, threat_factor, most, prior)


# ---- resets: one position that agrees with an observation the sampled belief could not explain -------------

def _fresh(seat: Seat, tracker: OpponentTracker, board: chess.Board) -> Inference | None:
    inference = RbcInference(seat, tracker.options)
    inference.update(GameStarted(seat == 0, board.fen()))
    return inference


def _guess_rbc(before: Inference, observation: Any, tracker: OpponentTracker) -> Inference | None:
    me = before.color
    them = not me
    if isinstance(observation, SenseResult):
        seen = [(square, piece) for square, piece in observation.window if piece is None or piece.color == them]
        board = pick_board(before, tracker, lambda b: -3.0 * sum(b.piece_at(square) != piece for square, piece in seen))
        if board is None:
            return None
        king = board.king(them)
        force_pieces(board, them, seen)
        keep_king(board, them, king)
        board.turn = me
        return _fresh(tracker.seat, tracker, board)
    if isinstance(observation, MoveResult):
        board = pick_board(before, tracker)
        if board is None:
            return None
        requested, taken, capture = observation.requested, observation.taken, observation.capture_square
        empty = 0  # squares the referee's answer shows free of opponent pieces
        if taken is not None:
            empty |= chess.between(taken.from_square, taken.to_square)
            if capture is None:
                empty |= chess.BB_SQUARES[taken.to_square]
        elif requested is not None and before.own.pawns & chess.BB_SQUARES[requested.from_square] and (
                chess.square_file(requested.from_square) != chess.square_file(requested.to_square)):
            empty |= chess.BB_SQUARES[requested.to_square]  # a pawn's capture that did not happen
        for square in chess.scan_forward(empty & board.occupied_co[them] & ~board.kings):
            board.remove_piece_at(square)
        if capture is not None and board.color_at(capture) == them:
            board.remove_piece_at(capture)
        own = before.own.copy(stack=False)
        if taken is not None:
            own.turn = me
            own.push(taken)
        result = merge_armies(own, me, board)
        keep_king(result, them, board.king(them))
        result.turn = them
        return _fresh(tracker.seat, tracker, result)
    if isinstance(observation, TurnStarted):
        lost = observation.capture_square

        def can_capture(b: chess.Board) -> float:
            return 0.0 if lost is None or b.attackers_mask(them, lost) else -5.0
        board = pick_board(before, tracker, can_capture)
        if board is None or (lost is not None and not teleport_capturer(board, them, lost)):
            return None
        board.turn = me
        board.ep_square = None
        return _fresh(tracker.seat, tracker, board)
    return None


def seen_agreement(view: ReconChessView, color: chess.Color) -> Any:
    """How well a board agrees with what ``view`` last saw on each square (recent sightings count more)."""
    known = [(square, info.piece, 0.85 ** max(0, (view.ply - info.ply) // 2)) for square, info in view.known.items()
             if not view.own_board.piece_at(square)]

    def agreement(board: chess.Board) -> float:
        return sum(weight for square, piece, weight in known if board.piece_at(square) == piece)
    return agreement
