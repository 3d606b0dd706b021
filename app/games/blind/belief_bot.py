"""The ``belief`` bot for Blind Chess: the RBC belief bot's machinery with Blind Chess observations.

Belief: the shared inference (:class:`~app.engine.inference.BlindInference`), capped
by level, kept up to date by a :class:`~app.bots.belief_common.OpponentTracker`
(with its recovery and resets). There is no sensing in Blind Chess; what the bot
learns comes from its own attempts (success or failure, captures, reveals) and
from the pieces it loses.

Each turn, within a budget taken from its clock:

- if some attempt captures the king on every position still possible, make it;
- otherwise score every possible attempt on boards drawn from the belief, as the
  referee would resolve it there (ruling B2: a blocked slider, a pawn step onto a
  piece or a diagonal step onto an empty square fails and only the turn is lost;
  B3: landing on an opponent piece captures it): a king capture is a win,
  anything else is scored by the built-in evaluator (:mod:`app.bots.chess_eval`);
  the best candidates are scored again with the opponent's forcing replies, and the
  best weighted average (with a share of the worst case) is played;
- **hard only**: a board on which every answer of the opponent leaves its king where the bot
  takes it next turn scores nearly as a capture (:func:`forced_king_capture`), and on boards
  where the bot is a rook ahead, pressure on the enemy king counts (:func:`hunt_bonus`); the danger to its own
  king is counted over every position held (:func:`king_danger`), and after a long spell without captures, when
  it is not behind, its pawns' advances earn a bonus (level ``progress``); an attempt is charged for the boards
  on which it fails, since a failed attempt gives the turn away (level ``tempo``); its belief shares each
  position's weight among the opponent's moves (the captures it did not make among them), weighs an unseen
  promotion and a king the opponent could have taken and did not less, and after a long quiet spell no longer
  takes positions that attack its king as likelier than the belief says (``share_weight``, ``promotion_weight``,
  ``spared_king_weight``, ``quiet_priors``);
- **material near a flag fall (ruling B5)**: when the bot's own clock runs low, a
  flag fall is decided on material, so material counts more in the evaluation and
  risky attacks on the king count less. The bot also answers draw offers by
  material: it accepts when it is clearly behind (its own material against the
  expected material of the opponent over the possible positions) and, short of
  time and behind, it offers one itself (once a turn).

>>> from app.bots.base import ActionRequest
>>> from app.games.blind.rules import BlindChess
>>> game = BlindChess("k7/8/8/8/8/8/8/R3K3 w - - 0 1")   # the start is known: the king stands on a8
>>> bot = BlindBeliefBot(seed=1, level="easy")
>>> bot.start(0, game.options())
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, game.phase, game.choices(), 60.0)).move
Move.from_uci('a1a8')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
import logging
import math
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import chess

from app.games.blind.rules import (PIECE_VALUES, AnswerDraw, Attempt, AttemptResult, BlindChessView, GameStarted,
                                   OfferDraw, TurnSkipped, TurnStarted, attempt_succeeds, own_fen,
                                   with_default_promotion)
from app.engine.core import Action, Outcome, Resign, Seat
from app.engine.inference import Inference, InferenceOptions
from app.games.blind.inference import BlindInference

from app.bots.base import ActionRequest, Bot
from app.bots.belief_common import (ARMY, OpponentTracker, BoardSample, ScoreTable, force_pieces, keep_king,
                                    king_threat_prior, merge_armies, pick_board, refine, sample_boards,
                                    score_moves, teleport_capturer, trim_army)
from app.bots.belief_common import king_danger as shared_king_danger
from app.bots.chess_eval import VALUES, Weights, evaluate, evaluate_replies, material_count
from app.bots.timing import Deadline, TurnClock
from app.games.blind import DEFINITION

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BlindLevel:
    """What a level may spend and how it plays (see :class:`app.games.rbc.belief_bot.RbcLevel`)."""

    cap: int
    boards: int
    max_seconds: float
    worst_share: float = 0.1
    noise: int = 0
    refine: int = 10
    threat_prior: float = 6.0
    weights: Weights = field(default_factory=lambda: Weights(king_exposed=1500))
    forced: bool = False
    """Look one reply further for a forced king capture: after the attempt, every answer the opponent has
    leaves its king where the bot can take it (the king-capture form of a mate in one). Medium and easy see
    only that the king is attacked, which the opponent may well escape."""
    hunt: int = 0
    """Centipawns per attack on a square next to the opponent's king, and per step of that king away from the
    centre, on boards where the bot is a rook or more ahead: a won position is pressed towards a king capture
    instead of drifting to the turn limit."""
    progress: int = 0
    """4 at hard, without ``charge_fails`` (see ``docs/benchmarks.md``, "Levels"). After :data:`QUIET` plies
    without a capture by either side, when the bot is not behind on material: centipawns per further ply (at most
    :data:`PROGRESS_CAP`) added to a pawn's advance, and (``charge_fails``) charged to an attempt for the share of
    its boards on which it fails (probes next to its own king excepted). A quiet position is played forward instead
    of with free attempts that fail on nearly every board until the turn limit."""
    charge_fails: bool = True
    """For level ``progress``: whether attempts are charged for failing too (off at hard: with it, and ``deep``,
    hard scored worse; only the pawn advances count there)."""
    danger: float = 0.0
    """Centipawns taken off an attempt for the share of the whole belief (every position held, by weight, those
    attacking the king ``danger_prior`` times) on which the opponent could take the king right after it
    (:func:`king_danger`; 0: only the sampled boards see it)."""
    danger_prior: float = 20.0
    """For level ``danger``: how much likelier a position in which the opponent attacks the king already is taken
    to be (without sensing the belief spreads a raider over all its moves, while the opponent aims at the king)."""
    tempo: float = 0.0
    """100 at hard. Centipawns charged to an attempt, times the share of the scored boards on which it fails (a
    failed attempt ends the turn and changes nothing): with the king-danger term, hard otherwise repeated a capture
    try onto a square a checking piece might have reached, turn after turn (``tests/test_blind_hard_tempo.py``)."""
    share_weight: bool = False
    """Whether the belief shares each position's weight among the positions the opponent's turn makes of it
    (:attr:`~app.engine.inference.InferenceOptions.share_weight`) instead of counting move orders."""
    quiet_priors: bool = False
    """After :data:`QUIET` plies without a capture, count positions that attack the king as any other
    (``threat_prior`` and ``danger_prior`` taken as 1): an opponent that aimed at the king for so long would have
    taken it, and the priors otherwise keep the king stepping to and fro for the rest of the game."""
    spared_king_weight: float = 1.0
    """What the belief weighs a position by when the opponent could have taken the king there and did not
    (:attr:`~app.engine.inference.InferenceOptions.spared_king_weight`; 1: nothing)."""
    promotion_weight: float = 1.0
    """What the belief weighs a position by for each of the opponent's pawns promoted unseen
    (:attr:`~app.engine.inference.InferenceOptions.promotion_weight`; 1: as any other move)."""
    deep: int = 0
    """Off at every level (tried at hard with 12: see ``docs/benchmarks.md``, "Levels"). When the belief is sharp
    (its heaviest few boards hold most of the weight), this many of the best moves are scored again on those boards
    against every answer of the opponent (:func:`worst_reply`)."""


LEVELS: dict[str, BlindLevel] = {
    "easy": BlindLevel(cap=300, boards=16, max_seconds=0.3, worst_share=0.0, noise=150, refine=0, threat_prior=1.0,
                       weights=Weights(king_exposed=600, hanging_share=0.3, king_zone=0)),
    "medium": BlindLevel(cap=1500, boards=48, max_seconds=1.0, refine=12),
    "hard": BlindLevel(cap=20000, boards=96, max_seconds=4.0, refine=48, forced=True, hunt=12, danger=6000.0,
                       progress=4, charge_fails=False, tempo=100.0, share_weight=True,
                       promotion_weight=0.05, spared_king_weight=0.2, quiet_priors=True),
}

KING_CAPTURE = 3000.0
CLIP = 3000.0
FORCED_CAPTURE = 2700.0
"""A forced king capture one reply away (level ``forced``): nearly a capture, short of one made now."""
SHARP_WEIGHT = 0.5
"""The belief is sharp (level ``deep``) when its heaviest :data:`SHARP_BOARDS` boards hold this share of it."""
SHARP_BOARDS = 8
QUIET = 40
"""Plies without a capture after which level ``progress`` starts to count."""
PROGRESS_CAP = 400
DANGER_POSITIONS = 20_000
"""The king-danger term (level ``danger``) looks at no more positions than this, drawn by weight: an opponent's
turn can leave ten times as many before the next observation thins them, and all of them took hard up to 5 s a
decision (about 26 microseconds a position)."""
LOW_TIME = 20.0
"""Below this many seconds on its own clock the bot plays for material (ruling B5)."""
KEEP = LOW_TIME + 5.0
"""With an increment, the seconds the bot keeps in hand: a long game is played on the increment, above LOW_TIME."""
_LOW_TIME_WEIGHTS = {"material_scale": 2.0, "king_zone": 0, "check_bonus": 40}


def _resolve(board: chess.Board, move: chess.Move) -> chess.Move | None:
    move = with_default_promotion(board, move)
    return move if attempt_succeeds(board, move) else None


def forced_king_capture(board: chess.Board, me: chess.Color) -> bool:
    """Whether ``me`` takes the opponent's king next turn whatever the opponent (to move on ``board``) does.

    Every pseudo-legal answer of the opponent is tried (an attempt that would fail is a lost turn and leaves
    the king where it was); an answer that takes ``me``'s king, or castling (ruling B1 allows it out of an
    attack, which python-chess does not generate), counts as an escape.

    >>> forced_king_capture(chess.Board("3R3k/6pp/8/8/8/8/8/6K1 b - - 0 1"), chess.WHITE)
    True
    >>> forced_king_capture(chess.Board("3R3k/7p/8/8/8/8/8/6K1 b - - 0 1"), chess.WHITE)   # Kg7 escapes
    False
    """
    them = not me
    if board.turn != them:
        return False
    king = board.king(them)
    if king is None or not board.attackers_mask(me, king):
        return False
    if board.castling_rights & board.occupied_co[them] & board.rooks & chess.BB_BACKRANKS:
        return False
    my_king = board.kings & board.occupied_co[me]
    for reply in board.generate_pseudo_legal_moves():
        if chess.BB_SQUARES[reply.to_square] & my_king:
            return False
        board.push(reply)
        try:
            square = board.king(them)
            if square is None or not board.attackers_mask(me, square):
                return False
        finally:
            board.pop()
    return True


def hunt_bonus(board: chess.Board, me: chess.Color, weight: int) -> int:
    """``weight`` per attack of ``me`` on the squares next to the opponent's king and per step of that king
    from the centre, when ``me`` is at least a rook ahead on ``board`` (else 0)."""
    king = board.king(not me)
    if king is None:
        return 0
    lead = material_count(board, me) - material_count(board, not me)
    if lead < VALUES[chess.ROOK]:
        return 0
    pressure = 0
    for square in chess.scan_forward(chess.BB_KING_ATTACKS[king]):
        pressure += board.attackers_mask(me, square).bit_count()
    file, rank = chess.square_file(king), chess.square_rank(king)
    edge = max(3 - file, file - 4) + max(3 - rank, rank - 4)  # 0 in the centre, 6 in a corner
    return weight * (min(pressure, 10) + edge)


def worst_reply(board: chess.Board, me: chess.Color, weights: Weights) -> float:
    """The opponent (to move on ``board``) answers as well as it can for itself: the lowest :func:`evaluate`
    for ``me`` (then to move) over every successful attempt it has and a failed one (nothing changes), clipped to
    +-:data:`CLIP`; a king capture ``me`` then has on every answer scores :data:`FORCED_CAPTURE`.

    >>> worst_reply(chess.Board("3R3k/6pp/8/8/8/8/8/6K1 b - - 0 1"), chess.WHITE, Weights()) == FORCED_CAPTURE
    True
    >>> worst_reply(chess.Board("3R3k/7p/8/8/8/8/8/6K1 b - - 0 1"), chess.WHITE, Weights()) < 1000   # Kg7
    True
    """
    them = not me
    if board.turn != them:
        return max(-CLIP, min(CLIP, float(evaluate(board, me, weights))))
    board.push(chess.Move.null())
    try:
        worst = float(evaluate(board, me, weights))
    finally:
        board.pop()
    for reply in board.generate_pseudo_legal_moves():
        if worst <= -CLIP:
            break
        board.push(reply)
        try:
            value = float(evaluate(board, me, weights))
        finally:
            board.pop()
        if value < worst:
            worst = value
    if worst >= CLIP:
        return FORCED_CAPTURE
    return max(-CLIP, worst)


def _candidates(attempts: Any) -> list[chess.Move | None]:
    """Attempts worth scoring: all but the bishop and rook promotions."""
    return [move for move in attempts if move.promotion in (None, chess.QUEEN, chess.KNIGHT)]


def _fail_shares(table: ScoreTable, sample: BoardSample, scores: list[float]) -> list[float]:
    """For each candidate of ``table``, the share (by weight) of the scored boards on which it fails; 0 for the pass
    and for candidates already ruled out (score ``-inf``), which are not tried."""
    order = table.columns or list(range(table.boards_scored))
    total = math.fsum(sample.weights[j] for j in order) or 1.0
    return [0.0 if move is None or score == -math.inf else
            math.fsum(sample.weights[j] for j in order if _resolve(sample.boards[j], move) is None) / total
            for move, score in zip(table.candidates, scores)]


def expected_material(inference: Inference, limit: int = 4000, taken: Iterable[chess.PieceType] = ()) -> float:
    """The opponent's material (ruling B5 values) averaged over the positions held (weighted; the first
    ``limit`` of them, which keeps it quick when the clock is short).

    ``taken``: the types of the opponent's pieces this seat has captured. A piece beyond what the starting army
    has left after those captures (a third knight, a second queen, a rook taken already) counts as the pawn it was
    promoted from. An unseen promotion is possible, but lines with promoted pieces have more moves and so come to
    fill a long game's belief, and a belief rebuilt after losing track (:class:`OpponentTracker`) may hold pieces
    already taken: without this, a bot a rook ahead in truth counted itself far behind (``docs/benchmarks.md``,
    "Levels")."""
    captured = Counter(taken)   # ARMY's types are those of a hypothesis's first five bitboards
    left = [(PIECE_VALUES[piece_type], max(0, start - captured[piece_type])) for piece_type, start in ARMY]
    total = weighted = 0.0
    for h, w in itertools.islice(inference.hypotheses(), limit):
        material = 0
        for bits, (value, most) in zip(h, left):
            count = bits.bit_count()
            material += value * count if count <= most else value * most + count - most
        total += w * material
        weighted += w
    return total / weighted if weighted else 0.0


class BlindBeliefBot(Bot):
    """Belief tracking and attempts scored over the possible positions (see the module docstring)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "belief"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
        super().__init__(seed, level)
        self.settings = LEVELS[level]
        self.seed = seed or 0
        self.color = chess.WHITE
        self.view = BlindChessView()
        self.start_fen: str | None = None
        self.tracker = self._new_tracker(0)
        self.clock = TurnClock(self.settings.max_seconds, keep=KEEP)
        self.last_table: ScoreTable | None = None
        self.last_danger: list[float] = []
        """Level ``danger``: :func:`king_danger` of each candidate of the last choice (empty when not computed)."""
        self.failures: list[str] = []
        self._offered_at = -1

    def _new_tracker(self, seat: Seat) -> OpponentTracker:
        options = InferenceOptions(cap=self.settings.cap, seed=self.seed, retries=0, start_fen=self.start_fen,
                                   share_weight=self.settings.share_weight,
                                   promotion_weight=self.settings.promotion_weight,
                                   spared_king_weight=self.settings.spared_king_weight)
        tracker = OpponentTracker(seat, options, BlindInference, _guess_blind, turn_boundary=(TurnStarted, TurnSkipped))
        tracker.hint = lambda: seen_agreement(self.view)
        return tracker

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.color = seat == 0
        self.view = BlindChessView()
        fen = options.get("fen")
        self.start_fen = fen if isinstance(fen, str) and fen != chess.STARTING_FEN else None
        self.tracker = self._new_tracker(seat)
        self.clock = TurnClock(self.settings.max_seconds, keep=KEEP)

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)
        self.tracker.observe(observation)

    def end(self, outcome: Outcome) -> None:
        pass

    def act(self, request: ActionRequest) -> Action:
        try:
            if request.phase == "answer_draw" or request.choices.get("answer_draw"):
                return AnswerDraw(self._accepts_draw(request.seconds_left))
            return self._attempt(request)
        except Exception as error:  # noqa: BLE001 - never stop playing: a safe answer instead
            self.failures.append(f"{type(error).__name__}: {error}")
            log.exception("the belief bot fell back to a safe action")
            if request.phase == "answer_draw" or request.choices.get("answer_draw"):
                return AnswerDraw(False)
            attempts = list(request.choices.get("attempts") or self.view.attempts())
            return Attempt(self.rng.choice(attempts)) if attempts else Resign()

    # -- draws (ruling B5: a flag fall is decided on material) -----------------------------------------------
    def material_balance(self) -> float:
        """Own material minus the opponent's expected material (B5 values)."""
        taken = [capture.piece_type for capture in self.view.captures]
        return self.view.material() - expected_material(self.tracker.inference, taken=taken)

    def _accepts_draw(self, seconds_left: float) -> bool:
        seconds = min(0.5, max(0.0, 0.2 * seconds_left)) if math.isfinite(seconds_left) else 0.5
        self.tracker.catch_up(Deadline(seconds, self.now))
        balance = self.material_balance()
        return balance <= -3.0 or (seconds_left < LOW_TIME and balance < 0)

    # -- attempts -----------------------------------------------------------------------------------------------
    def _attempt(self, request: ActionRequest) -> Action:
        started = self.now()
        seconds_left = request.seconds_left
        self.clock.turn_started(seconds_left)
        deadline = Deadline(self.clock.budget(seconds_left), self.now)
        try:
            self.tracker.catch_up(deadline)
            low_time = seconds_left < LOW_TIME
            if (low_time and request.choices.get("offer_draw") and self._offered_at != self.view.ply
                    and self.material_balance() <= -2.0):
                self._offered_at = self.view.ply
                return OfferDraw()
            attempts = list(request.choices.get("attempts") or self.view.attempts())
            if not attempts:
                return Resign()  # the referee skips such turns; never asked in practice
            return Attempt(self._choose(attempts, deadline, low_time))
        finally:
            self.clock.turn_ended(seconds_left, self.now() - started)

    def _choose(self, attempts: list[chess.Move], deadline: Deadline, low_time: bool) -> chess.Move:
        inference = self.tracker.inference
        if not inference.size:
            return self.rng.choice(attempts)
        certain = self._certain_king_capture(inference, attempts)
        if certain is not None:
            return certain
        weights = self.settings.weights
        if low_time:
            weights = replace(weights, **_LOW_TIME_WEIGHTS)  # type: ignore[arg-type]
        calm = self.settings.quiet_priors and self.quiet_plies() > QUIET
        prior = king_threat_prior(inference.own, self.color, 1.0 if calm else self.settings.threat_prior)
        sample = sample_boards(inference, self.settings.boards, self.rng, prior)
        candidates = _candidates(attempts)
        me = self.color
        extra = self._extra(me)
        table = score_moves(sample, candidates, me, _resolve, deadline.fraction(0.45), KING_CAPTURE, CLIP,
                            lambda board: extra(board, evaluate(board, me, weights)))
        self.last_table = table
        bonus = [0.0] * len(candidates)
        self.last_danger = []
        if self.settings.danger and not low_time:
            self.last_danger = king_danger(inference, candidates, me, 1.0 if calm else self.settings.danger_prior,
                                           DANGER_POSITIONS)
            bonus = [-self.settings.danger * d for d in self.last_danger]
        scores = [table.combined(i, self.settings.worst_share) + bonus[i] for i in range(len(candidates))]
        if self.settings.refine and not low_time:
            shortlist = sorted(range(len(candidates)), key=lambda i: -scores[i])[:self.settings.refine]
            done = refine(table, sample, me, _resolve, shortlist, deadline, CLIP,
                          lambda board: extra(board, evaluate_replies(board, me, weights)))
            if done:
                kept = set(shortlist[:done])
                scores = [table.combined(i, self.settings.worst_share) + bonus[i] if i in kept else -math.inf
                          for i in range(len(candidates))]
        if self.settings.deep and not low_time:
            scores = self._deep(table, sample, scores, deadline, weights, bonus)
        if self.settings.progress and not low_time:
            scores = self._progress(table, sample, scores)
        if self.settings.tempo and not low_time:
            scores = self._tempo(table, sample, scores)
        if self.settings.noise:
            scores = [score + self.rng.uniform(-self.settings.noise, self.settings.noise) for score in scores]
        best = max(range(len(candidates)), key=lambda i: (scores[i], table.capture_odds[i]))
        move = candidates[best]
        return move if move is not None and move in attempts else self.rng.choice(attempts)

    def quiet_plies(self) -> int:
        """Half-moves since the last capture this seat knows of (its own, or one of its pieces lost)."""
        last = 0
        if self.view.captures:
            last = max(last, self.view.captures[-1].ply)
        if self.view.lost:
            last = max(last, self.view.lost[-1].ply)
        return max(0, self.view.ply - last)

    def _progress(self, table: ScoreTable, sample: BoardSample, scores: list[float]) -> list[float]:
        """Level ``progress`` (see :class:`BlindLevel`): ``scores`` with a quiet position's pawn advances favoured
        and attempts that would mostly fail charged."""
        quiet = self.quiet_plies()
        if quiet <= QUIET or self.material_balance() < 0:
            return scores
        amount = min(PROGRESS_CAP, self.settings.progress * (quiet - QUIET))
        own = self.view.own_board
        king = own.king(self.color)
        result = list(scores)
        for i, (move, fails) in enumerate(zip(table.candidates, _fail_shares(table, sample, scores))):
            if move is None or result[i] == -math.inf:
                continue
            if own.pawns & chess.BB_SQUARES[move.from_square] and (
                    chess.square_file(move.from_square) == chess.square_file(move.to_square)):
                result[i] += amount * (1.0 - fails)
            elif self.settings.charge_fails and (king is None or chess.square_distance(king, move.to_square) > 2):
                result[i] -= amount * fails
        return result

    def _tempo(self, table: ScoreTable, sample: BoardSample, scores: list[float]) -> list[float]:
        """Level ``tempo``: each attempt charged for the share of the scored boards on which it fails (a failed
        attempt ends the turn: a move given away)."""
        shares = _fail_shares(table, sample, scores)
        return [score - self.settings.tempo * fails for score, fails in zip(scores, shares)]

    def _deep(self, table: ScoreTable, sample: BoardSample, scores: list[float], deadline: Deadline,
              weights: Weights, bonus: list[float]) -> list[float]:
        """Level ``deep``: on a sharp belief, the best moves scored again on its heaviest boards against every
        answer (:func:`worst_reply`), ``bonus`` (level ``danger``) added again; the moves not looked at drop out.
        ``scores`` unchanged otherwise."""
        order = (table.columns or list(range(table.boards_scored)))[:SHARP_BOARDS]
        total = math.fsum(table.weights) or 1.0
        if not order or math.fsum(sample.weights[j] for j in order) < SHARP_WEIGHT * total:
            return scores
        shortlist = [i for i in sorted(range(len(scores)), key=lambda i: -scores[i])[:self.settings.deep]
                     if scores[i] > -math.inf]
        me = self.color
        hunt = self.settings.hunt
        done: set[int] = set()
        for i in shortlist:
            move = table.candidates[i]
            row = list(table.scores[i])
            for position, j in enumerate(order):
                if row[position] >= CLIP or row[position] <= -CLIP:
                    continue
                if deadline.expired():
                    break
                board = sample.boards[j]
                taken = None if move is None else _resolve(board, move)
                board.push(taken if taken is not None else chess.Move.null())
                try:
                    value = worst_reply(board, me, weights)
                    if hunt and abs(value) < FORCED_CAPTURE:
                        value += hunt_bonus(board, me, hunt)
                finally:
                    board.pop()
                row[position] = value
            else:
                table.scores[i] = row
                done.add(i)
                continue
            break
        if len(done) < 2:
            return scores
        return [table.combined(i, self.settings.worst_share) + bonus[i] if i in done else -math.inf
                for i in range(len(scores))]

    def _extra(self, me: chess.Color) -> Any:
        """What the level adds to the evaluation of a board after its attempt (opponent to move): ``forced`` and
        ``hunt`` (see :class:`BlindLevel`); the plain evaluation when the level adds nothing."""
        forced, hunt = self.settings.forced, self.settings.hunt
        if not (forced or hunt):
            return lambda board, value: value

        def extra(board: chess.Board, value: float) -> float:
            if abs(value) >= CLIP:
                return value
            if forced and forced_king_capture(board, me):
                return FORCED_CAPTURE
            return value + hunt_bonus(board, me, hunt) if hunt else value
        return extra

    def _certain_king_capture(self, inference: Inference, attempts: list[chess.Move]) -> chess.Move | None:
        """An attempt that takes the king on every position held, if there is one (the cheapest piece first).

        Never on a reset's guess (:class:`OpponentTracker`) until a reveal has shown where the king is: the
        positions held then agree on what was guessed, not on what was seen."""
        if not self._king_seen_since_reset():
            return None
        common: set[chess.Move] | None = None
        allowed = set(attempts)
        for board, _ in inference.positions(limit=20_000):
            king = board.king(not self.color)
            if king is None:
                return None
            hits = set()
            for origin in chess.scan_forward(board.attackers_mask(self.color, king)):
                move = with_default_promotion(board, chess.Move(origin, king))
                if move in allowed and attempt_succeeds(board, move):
                    hits.add(move)
            common = hits if common is None else common & hits
            if not common:
                return None
        if not common:
            return None
        own = self.view.own_board
        return min(common, key=lambda move: (VALUES[own.piece_type_at(move.from_square) or 0], move.uci()))


    def _king_seen_since_reset(self) -> bool:
        """Whether the belief was never reset, or an attempt since its last reset revealed the enemy king."""
        tracker = self.tracker
        if tracker.guessed_at is None:
            return True
        return any(isinstance(observation, AttemptResult)
                   and any(piece.piece_type == chess.KING for _, piece in observation.reveals)
                   for observation in tracker.observations[tracker.guessed_at:tracker.applied])


# ---- king danger over the whole belief (level ``danger``) --------------------------------------------------------

def king_danger(inference: Inference, candidates: list[chess.Move | None], color: chess.Color,
                threat_factor: float = 1.0, most: int | None = None) -> list[float]:
    """For each candidate attempt: the share of the whole belief (every position held, by weight) on which the
    opponent could take ``color``'s king right after it, the attempt resolved as the referee would on each
    position (it fails and nothing moves when the referee says so, ruling B2).

    Positions in which the opponent attacks the king already count ``threat_factor`` times (as
    :func:`~app.bots.belief_common.king_threat_prior` does for the sample); with ``most``, at most that many
    positions, drawn by weight. The positions are grouped by what
    decides the attempt (the opponent's pieces on the squares it passes and lands on, and an en-passant square),
    so the referee's rules run once a group and the attacks are counted with numpy over the group's bitboards.

    >>> from app.games.blind.inference import BlindInference
    >>> inference = BlindInference(0, InferenceOptions(start_fen="6k1/8/8/8/8/5n2/8/4K3 w - - 0 1"))
    >>> inference.update(GameStarted(chess.WHITE, "8/8/8/8/8/8/8/4K3 w - - 0 1"))
    >>> [round(d, 2) for d in king_danger(inference, [chess.Move.from_uci("e1d1"), chess.Move.from_uci("e1d2")],
    ...                                   chess.WHITE)]
    [0.0, 1.0]
    """
    return shared_king_danger(inference, candidates, color, _resolve, threat_factor, most)


# ---- resets -------------------------------------------------------------------------------------------------------

def _fresh(tracker: OpponentTracker, board: chess.Board) -> Inference | None:
    color = tracker.seat == 0
    inference = BlindInference(tracker.seat, replace(tracker.options, start_fen=board.fen()))
    inference.update(GameStarted(color, own_fen(board, color)))
    return inference


def _guess_blind(before: Inference, observation: Any, tracker: OpponentTracker) -> Inference | None:
    me = before.color
    them = not me
    if isinstance(observation, AttemptResult):
        move, success = observation.move, observation.success
        reveals = [(square, piece) for square, piece in observation.reveals]
        captured = observation.capture

        def fits(board: chess.Board) -> float:
            board.turn = me
            mismatch = sum(board.piece_at(square) != piece for square, piece in reveals)
            if captured is not None and board.piece_type_at(captured[1]) != captured[0]:
                mismatch += 1
            return -3.0 * mismatch - 5.0 * (attempt_succeeds(board, move) != success)
        board = pick_board(before, tracker, fits)
        if board is None:
            return None
        king = board.king(them)
        own = before.own.copy(stack=False)
        if success:
            for square in chess.scan_forward(chess.between(move.from_square, move.to_square)
                                             & board.occupied_co[them] & ~board.kings):
                board.remove_piece_at(square)
            force_pieces(board, them, reveals)
            if captured is not None:
                board.remove_piece_at(captured[1])
            elif board.color_at(move.to_square) == them and board.piece_type_at(move.to_square) != chess.KING:
                board.remove_piece_at(move.to_square)
            own.turn = me
            own.push(move)
        elif own.pawns & chess.BB_SQUARES[move.from_square] and (
                chess.square_file(move.from_square) != chess.square_file(move.to_square)):
            if board.piece_type_at(move.to_square) != chess.KING:
                board.remove_piece_at(move.to_square)  # a pawn's capture that failed: nothing stood there
        result = merge_armies(own, me, board)
        keep_king(result, them, king)
        trim_army(result, them, _taken(tracker), _seen(tracker))
        result.turn = them
        return _fresh(tracker, result)
    if isinstance(observation, TurnStarted):
        lost = getattr(before, "pending_capture", None)

        def can_capture(b: chess.Board) -> float:
            return 0.0 if lost is None or b.attackers_mask(them, lost) else -5.0
        board = pick_board(before, tracker, can_capture)
        if board is None or (lost is not None and not teleport_capturer(board, them, lost)):
            return None
        trim_army(board, them, _taken(tracker), _seen(tracker), keep=[lost] if lost is not None else [])
        board.turn = me
        board.ep_square = None
        return _fresh(tracker, board)
    return None


def _taken(tracker: OpponentTracker) -> list[chess.PieceType]:
    """The types of the opponent's pieces the seat has captured, by the observations applied so far."""
    return [observation.capture[0] for observation in tracker.observations[:tracker.applied]
            if isinstance(observation, AttemptResult) and observation.capture is not None]


def _seen(tracker: OpponentTracker) -> Any:
    return tracker.hint() if tracker.hint is not None else None


def seen_agreement(view: BlindChessView) -> Any:
    """How well a board agrees with the pieces ``view`` last saw (recent reveals count more)."""
    seen = [(square, reveal.piece, 0.85 ** max(0, (view.ply - reveal.ply) // 2))
            for square, reveal in view.sightings.items()]

    def agreement(board: chess.Board) -> float:
        return sum(weight for square, piece, weight in seen if board.piece_at(square) == piece)
    return agreement


__all__ = ["BlindBeliefBot", "LEVELS", "expected_material", "PIECE_VALUES"]  # PIECE_VALUES: B5's scale
