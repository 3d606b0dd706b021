"""What the RBC and Blind Chess belief bots share: following the shared inference, and sampling boards from it.

:class:`OpponentTracker` keeps the seat's :class:`~app.engine.inference.Inference`
up to date. ``observe`` only stores an observation (it runs on the bot's clock in
the worker, so it must cost nothing); :meth:`OpponentTracker.catch_up`, called when
the bot must act, applies them within a deadline.

A sampled set can lose the true position; the inference then ends up with no
position at all. The tracker does not let the inference replay the whole game
(that can take seconds late in a game). It first replays the last turn or two
from its own recent copies with a larger cap, as long as time allows; failing
that it **resets**: it takes the likeliest position it held just before the
contradiction, makes it agree with the observation that ruled it out (the game
module says how), and starts a fresh inference from it. A reset's guess is never
held as a single certain position (a bot would take a "certain" king capture on
it): the next few best-fitting boards are guessed too, and the likeliest guess's
king is also put on each free square next to it (:func:`widen_guess`), so the
belief stays uncertain where it was guessed until observations narrow it down.
The bot keeps playing on a belief that is approximately right, and the next
observations correct it.

>>> from app.games.rbc.inference import RbcInference
>>> from app.games.rbc.rules import ReconChess
>>> game = ReconChess()
>>> tracker = OpponentTracker(0, InferenceOptions(cap=100), RbcInference, guess=lambda *args: None)
>>> for observation in game.observations(0):
...     tracker.observe(observation)
>>> tracker.catch_up(Deadline(1.0))
>>> tracker.inference.count
1
"""

from __future__ import annotations

import logging
import math
import random
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import chess
import numpy as np

from app.engine.inference import Hypothesis, Inference, InferenceError, InferenceOptions, systematic_resample
from app.engine.inference_vec import systematic_sample

from .timing import Deadline

log = logging.getLogger(__name__)

Guess = Callable[[Inference, Any, "OpponentTracker"], Inference | None]
"""Game-specific: a fresh inference started from one position that agrees with the observation that emptied the
set (given the inference as it was just before that observation), or None. It picks its board with
:func:`pick_board`, which gives the tracker's :attr:`OpponentTracker.pick_rank`-th best (the tracker asks for
several guesses)."""

RESET_GUESSES = 4
"""How many of the best-fitting held boards a reset guesses from (fewer when fewer are held)."""
KING_SHARE = 0.4
"""The share of a reset's belief given to the likeliest guess's king standing on a free square next to where it
was guessed: the king is the piece a wrong guess costs most on (a "certain" capture of a king that stands
elsewhere, an attack on ours missed)."""
CURRENT_SIGHTING = 0.95
"""A bot's hint (:attr:`OpponentTracker.hint`) weighs a sighting of the current turn 1 and older ones less (0.85
a turn): a king moved by :func:`widen_guess` may contradict only older ones."""


@dataclass
class BoardSample:
    """Boards drawn from a belief: full python-chess boards (seat's pieces + one opponent army each).

    ``weights`` sum to 1; ``keys`` are the hypotheses the boards were built from (their bitboards make window
    signatures cheap).
    """

    boards: list[chess.Board]
    weights: list[float]
    keys: list[Hypothesis]

    def __len__(self) -> int:
        return len(self.boards)


def sample_boards(inference: Inference, count: int, rng: random.Random,
                  prior: Callable[[Hypothesis], float] | None = None, presample: int = 20_000) -> BoardSample:
    """Up to ``count`` distinct boards drawn with probability proportional to weight (systematic sampling).

    A board drawn ``k`` times gets ``k`` times the weight. When the set holds no
    more than ``count`` hypotheses, all are taken with their own weights.
    ``prior`` multiplies each hypothesis' weight first (the belief treats every
    opponent move as equally likely; a bot may think some likelier, e.g. those
    that attack its king). Sets larger than ``presample`` are thinned to that
    many first, so that the prior costs a bounded time.
    """
    items = list(inference.hypotheses())
    if not items:
        return BoardSample([], [], [])
    if prior is not None:
        if len(items) > presample:
            items = systematic_resample(items, presample, rng)
        items = [(h, w * prior(h)) for h, w in items]
    if len(items) > count:
        items = systematic_resample(items, count, rng)
    total = math.fsum(w for _, w in items) or 1.0
    return BoardSample([inference.board_of(h) for h, _ in items], [w / total for _, w in items],
                       [h for h, _ in items])


def standing_prior(inference: Inference, color: chess.Color, temperature: float,
                   evaluate: Callable[[chess.Board, chess.Color], float], clip: float = 1000.0
                   ) -> Callable[[Hypothesis], float]:
    """A prior that makes a position ``exp(s / temperature)`` times likelier, ``s`` the opponent's standing there
    by ``evaluate`` (centipawns for the opponent, ``color`` to move, clipped to ``clip``): an opponent who plays
    well reaches the positions good for it more often than a uniform choice of its moves says. Each position is
    evaluated once (the prior remembers).

    >>> from app.games.rbc.inference import RbcInference
    >>> from app.engine.inference import InferenceOptions, opponent_key
    >>> inference = RbcInference(chess.WHITE, InferenceOptions())
    >>> prior = standing_prior(inference, chess.WHITE, 100.0, lambda board, color: 100.0)
    >>> round(prior(opponent_key(chess.Board(), chess.WHITE)), 3)
    2.718
    """
    seen: dict[Hypothesis, float] = {}

    def prior(h: Hypothesis) -> float:
        value = seen.get(h)
        if value is None:
            board = inference.board_of(h)
            board.turn = color
            score = max(-clip, min(clip, float(evaluate(board, not color))))
            value = seen[h] = math.exp(score / temperature)
        return value
    return prior


def king_threat_prior(own: chess.Board, color: chess.Color, factor: float) -> Callable[[Hypothesis], float]:
    """A prior that makes positions in which the opponent attacks ``color``'s king ``factor`` times likelier.

    Computed on the hypothesis' bitboards (no board is built): opponents aim at the
    king far more often than a uniform choice of moves says, and missing such a
    position costs the game.

    >>> from app.engine.inference import opponent_key
    >>> board = chess.Board("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1")      # the knight on f3 attacks e1
    >>> own = chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")
    >>> king_threat_prior(own, chess.WHITE, 10.0)(opponent_key(board, chess.WHITE))
    10.0
    """
    king = own.king(color)
    if king is None or factor == 1.0:
        return lambda h: 1.0
    mine = own.occupied
    knight_from = chess.BB_KNIGHT_ATTACKS[king]
    pawn_from = chess.BB_PAWN_ATTACKS[color][king]
    king_from = chess.BB_KING_ATTACKS[king]
    rank_mask, file_mask, diag_mask = chess.BB_RANK_MASKS[king], chess.BB_FILE_MASKS[king], chess.BB_DIAG_MASKS[king]
    rank_att, file_att, diag_att = chess.BB_RANK_ATTACKS[king], chess.BB_FILE_ATTACKS[king], chess.BB_DIAG_ATTACKS[king]

    def prior(h: Hypothesis) -> float:
        if knight_from & h[1] or pawn_from & h[0] or king_from & h[5]:
            return factor
        straight = h[3] | h[4]
        diagonal = h[2] | h[4]
        if straight or diagonal:
            occupied = mine | h[0] | h[1] | h[2] | h[3] | h[4] | h[5]
            if straight & (rank_att[rank_mask & occupied] | file_att[file_mask & occupied]):
                return factor
            if diagonal & diag_att[diag_mask & occupied]:
                return factor
        return 1.0
    return prior


class OpponentTracker:
    """The inference of one seat, brought up to date on demand, with recovery (see the module docstring)."""

    def __init__(self, seat: int, options: InferenceOptions, make: Callable[..., Inference], guess: Guess,
                 turn_boundary: tuple[type, ...] = ()) -> None:
        self.seat = seat
        self.options = options
        self.make = make
        self.guess = guess
        self.turn_boundary = turn_boundary
        self.observations: list[Any] = []
        self.applied = 0
        self.inference: Inference = make(seat, options)
        self.checkpoints: deque[tuple[int, Inference]] = deque(maxlen=3)
        self.recoveries = 0
        self.resets = 0
        self.guessed_at: int | None = None
        """The number of observations applied when the belief was last reset to a guess (None: never). What the
        belief says has been confirmed only by the observations after that one."""
        self.pick_rank = 0
        """Which of the best-fitting boards :func:`pick_board` gives (0: the best), while a reset guesses."""
        self.problem: str | None = None
        self.hint: Callable[[], Callable[[chess.Board], float]] | None = None
        """Set by the bot: makes a function telling how well a board agrees with what the seat has seen
        (guides resets)."""

    def observe(self, observation: Any) -> None:
        self.observations.append(observation)

    @property
    def pending(self) -> int:
        return len(self.observations) - self.applied

    def catch_up(self, deadline: Deadline) -> None:
        """Apply every stored observation; recover (within ``deadline``) from an emptied set."""
        while self.applied < len(self.observations):
            index = self.applied
            observation = self.observations[index]
            if isinstance(observation, self.turn_boundary) and self.inference.size:
                self.checkpoints.append((index, self.inference.copy()))
            before = self.inference.copy() if self.inference.size else None
            failed = False
            try:
                self.inference.update(observation)
            except InferenceError as error:
                # Only a reset's guess can disagree this way with a real observation; start again from it.
                self.problem = str(error)
                failed = True
            self.applied = index + 1
            if (failed or not self.inference.size) and not self.inference.finished and before is not None:
                self._recover(index, before, deadline)

    def _recover(self, index: int, before: Inference, deadline: Deadline) -> None:
        self.problem = self.inference.problem
        for start, checkpoint in reversed(self.checkpoints):
            if deadline.left() < 0.3 * max(deadline.end - deadline.start, 0.0) or deadline.left() < 0.05:
                break
            trial = checkpoint.copy()
            trial.options = replace(trial.options, cap=trial.options.cap * 4, retries=0,
                                    seed=trial.options.seed + 7919 * (self.recoveries + 1))
            try:
                for observation in self.observations[start:index + 1]:
                    trial.update(observation)
                    if not trial.size or deadline.expired():
                        break
            except InferenceError:
                continue
            if trial.size and not deadline.expired():
                trial.options = replace(trial.options, cap=self.options.cap)
                trial.limit()
                self.inference = trial
                self.recoveries += 1
                return
        guessed = self._guesses(before, self.observations[index])
        if guessed is not None and guessed.size:
            self.inference = guessed
            self.checkpoints.clear()
            self.resets += 1
            self.guessed_at = index + 1
            return
        # Nothing fits: keep the last non-empty set (stale, but better than nothing to play on).
        self.inference = before
        self.resets += 1


    def _guesses(self, before: Inference, observation: Any) -> Inference | None:
        """The game's guesses from the :data:`RESET_GUESSES` best-fitting held boards, joined and widened
        (:func:`widen_guess`); None when the game has no guess."""
        found: list[Inference] = []
        try:
            for rank in range(RESET_GUESSES):
                self.pick_rank = rank
                try:
                    guessed = self.guess(before, observation, self)
                except Exception as error:  # noqa: BLE001 - a bad guess must not stop the bot: it plays on
                    log.warning("belief reset failed: %r", error)
                    guessed = None
                if guessed is None or not guessed.size:
                    break
                found.append(guessed)
        finally:
            self.pick_rank = 0
        if not found:
            return None
        try:
            return widen_guess(found, self.hint() if self.hint is not None else None)
        except Exception as error:  # noqa: BLE001 - the first guess alone is still a belief to play on
            log.warning("widening a reset's guess failed: %r", error)
            return found[0]


def widen_guess(guesses: Sequence[Inference], hint: Callable[[chess.Board], float] | None = None,
                king_share: float = KING_SHARE) -> Inference:
    """One inference holding the positions of ``guesses`` (fresh inferences of the same seat, the likeliest
    first, each weighing half the one before it), plus the first one's positions with the opponent's king moved
    to each free square next to it (together ``king_share`` of the whole; none that contradicts a sighting of the
    current turn, by ``hint``). Changes and returns ``guesses[0]``.

    A guess is a guess: held alone, it would be a belief as certain as a position known from the start.

    >>> from app.games.blind.inference import BlindInference
    >>> from app.games.blind.rules import GameStarted
    >>> guess = BlindInference(0, InferenceOptions(start_fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    >>> guess.update(GameStarted(chess.WHITE, "8/8/8/8/8/8/8/R3K3 w - - 0 1"))
    >>> sorted(chess.square_name(board.king(chess.BLACK)) for board, _ in widen_guess([guess]).positions())
    ['d7', 'd8', 'e7', 'e8', 'f7', 'f8']
    """
    base = guesses[0]
    own = base.own.occupied
    weights: dict[tuple[int, ...], float] = {}
    for rank, guess in enumerate(guesses):
        if guess.own.occupied != own or guess.opponent_to_move != base.opponent_to_move or guess.my_ep != base.my_ep:
            continue
        total = math.fsum(w for _, w in guess.hypotheses()) or 1.0
        for h, w in guess.hypotheses():
            weights[h] = weights.get(h, 0.0) + 0.5 ** rank * w / total
    moved: list[Hypothesis] = []
    for h, _ in base.hypotheses():
        king = h[5]
        if king.bit_count() != 1:
            continue
        theirs = h[0] | h[1] | h[2] | h[3] | h[4] | king
        kingless = 0.0
        if hint is not None:
            # A sighting of this very turn weighs 1, older ones less: the king may leave a square where it was
            # seen before the opponent's last turn, not one where it was seen just now (nor go where a square
            # was just seen empty).
            kingless = hint(base.board_of((h[0], h[1], h[2], h[3], h[4], 0, 0, h[7])))
            if hint(base.board_of(h)) - kingless >= CURRENT_SIGHTING:
                continue
        for square in chess.scan_forward(chess.BB_KING_ATTACKS[king.bit_length() - 1] & ~own & ~theirs):
            variant = (h[0], h[1], h[2], h[3], h[4], chess.BB_SQUARES[square], 0, h[7])
            if variant in weights or hint is not None and kingless - hint(base.board_of(variant)) >= CURRENT_SIGHTING:
                continue
            moved.append(variant)
    if moved:
        held = math.fsum(weights.values())
        each = held * king_share / (1.0 - king_share) / len(moved)
        for variant in moved:
            weights[variant] = weights.get(variant, 0.0) + each
    base.hold(weights)
    return base


# ---- making a board agree with what was seen -----------------------------------------------------------

def likeliest(inference: Inference, limit: int = 2000) -> list[tuple[chess.Board, float]]:
    """Boards of the heaviest hypotheses first (at most ``limit`` looked at)."""
    boards = []
    for index, (h, w) in enumerate(inference.hypotheses()):
        if index >= limit:
            break
        boards.append((h, w))
    boards.sort(key=lambda item: -item[1])
    return [(inference.board_of(h), w) for h, w in boards]


def pick_board(before: Inference, tracker: OpponentTracker,
               fits: Callable[[chess.Board], float] | None = None) -> chess.Board | None:
    """A copy of the held board that best agrees with ``fits`` and with what the seat saw last
    (``tracker.hint``); weight breaks ties. While a reset gathers several guesses, the
    ``tracker.pick_rank``-th best instead (None when fewer boards are held)."""
    boards = likeliest(before, 500)
    rank = tracker.pick_rank
    if len(boards) <= rank:
        return None
    hint = tracker.hint() if tracker.hint is not None else None

    def score(item: tuple[chess.Board, float]) -> tuple[float, float]:
        board, weight = item
        return ((fits(board) if fits is not None else 0.0) + (hint(board) if hint is not None else 0.0), weight)
    if not rank:
        return max(boards, key=score)[0].copy(stack=False)
    return sorted(boards, key=score, reverse=True)[rank][0].copy(stack=False)


def keep_king(board: chess.Board, them: chess.Color, near: int | None) -> None:
    """Put the opponent's king back on ``board`` if a patch removed it: on the free square nearest ``near`` (its
    last square), else on its home square's neighbourhood. Every position must have both kings.

    >>> board = chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")
    >>> keep_king(board, chess.BLACK, chess.E8)
    >>> board.king(chess.BLACK) == chess.E8
    True
    """
    if board.king(them) is not None:
        return
    target = near if near is not None else (chess.E8 if them == chess.BLACK else chess.E1)
    free = [s for s in chess.SQUARES if board.piece_at(s) is None]
    if free:
        board.set_piece_at(min(free, key=lambda s: chess.square_distance(s, target)), chess.Piece(chess.KING, them))


def teleport_capturer(board: chess.Board, them: chess.Color, lost: int) -> bool:
    """Put an opponent piece on ``lost`` (where the seat just lost a piece): the nearest that attacks it, else
    the nearest piece other than the king (the king itself if it is alone). False when the board has no
    opponent piece at all."""
    board.turn = them
    attackers = list(chess.scan_forward(board.attackers_mask(them, lost)))
    if not attackers:
        attackers = list(chess.scan_forward(board.occupied_co[them] & ~board.kings)) or list(
            chess.scan_forward(board.occupied_co[them]))
    if not attackers:
        return False
    values = (0, 1, 3, 3, 5, 9, 20)
    origin = min(attackers, key=lambda s: (chess.square_distance(s, lost), values[board.piece_type_at(s) or 0]))
    piece = board.remove_piece_at(origin)
    board.remove_piece_at(lost)
    if piece is not None:
        if piece.piece_type == chess.PAWN and chess.BB_SQUARES[lost] & chess.BB_BACKRANKS:
            piece = chess.Piece(chess.QUEEN, them)
        board.set_piece_at(lost, piece)
    board.castling_rights &= ~chess.BB_SQUARES[lost] & ~chess.BB_SQUARES[origin]
    return True


def merge_armies(own: chess.Board, me: chess.Color, board: chess.Board) -> chess.Board:
    """A board with ``own``'s pieces of ``me`` and ``board``'s opponent pieces (on squares ``own`` leaves free)."""
    result = chess.Board(None)
    for square in chess.scan_forward(own.occupied_co[me]):
        piece = own.piece_at(square)
        if piece is not None:
            result.set_piece_at(square, piece)
    for square in chess.scan_forward(board.occupied_co[not me] & ~own.occupied):
        piece = board.piece_at(square)
        if piece is not None:
            result.set_piece_at(square, piece)
    result.castling_rights = (own.castling_rights & own.occupied_co[me]) | (
        board.castling_rights & board.occupied_co[not me])
    return result


def force_pieces(board: chess.Board, opponent: chess.Color, seen: Sequence[tuple[int, chess.Piece | None]]) -> None:
    """Make ``board`` show exactly ``seen`` (square, opponent piece or None) and keep the opponent's army size.

    A piece seen where the board had none is taken from the nearest square of the
    same type outside the seen squares (it moved there); a piece the board had on a
    seen square that is empty there goes to the nearest free unseen square (the
    king must stay on the board).
    """
    squares = {square for square, _ in seen}
    displaced: list[tuple[int, chess.Piece]] = []
    for square, piece in seen:
        present = board.piece_at(square)
        if present is not None and present.color == opponent and present != piece:
            displaced.append((square, present))
            board.remove_piece_at(square)
    for square, piece in seen:
        if piece is None or piece.color != opponent or board.piece_at(square) == piece:
            continue
        candidates = [s for s in chess.scan_forward(board.pieces_mask(piece.piece_type, opponent))
                      if s not in squares]
        matching = [item for item in displaced if item[1] == piece]
        if matching:
            displaced.remove(matching[0])
        elif candidates:
            board.remove_piece_at(min(candidates, key=lambda s: chess.square_distance(s, square)))
        board.set_piece_at(square, piece)
    for origin, piece in displaced:
        if piece.piece_type == chess.KING and board.king(opponent) is not None:
            continue
        free = [s for s in chess.SQUARES if s not in squares and board.piece_at(s) is None
                and not (piece.piece_type == chess.PAWN and chess.BB_SQUARES[s] & chess.BB_BACKRANKS)]
        if free:
            board.set_piece_at(min(free, key=lambda s: chess.square_distance(s, origin)), piece)


ARMY = ((chess.PAWN, 8), (chess.KNIGHT, 2), (chess.BISHOP, 2), (chess.ROOK, 2), (chess.QUEEN, 1))
"""The piece types an army starts with, and how many of each (its king apart)."""


def trim_army(board: chess.Board, opponent: chess.Color, taken: Sequence[chess.PieceType],
              seen: Callable[[chess.Board], float] | None = None, keep: Sequence[int] = ()) -> int:
    """Take off ``board`` the opponent pieces its army no longer has: ``taken`` are the types of its pieces the
    seat has captured. Returns how many were taken off.

    Of a type's pieces, those on ``keep`` squares go last (the piece a guess put where the seat just lost one);
    before them, those ``seen`` (how well a board agrees with what the seat saw) loses least without go first;
    ties go to the piece farthest from the opponent's king. A reset's guess (:class:`OpponentTracker`)
    patches a held board with what was just seen (a piece seen where the board had none of its type is added),
    and patch after patch could give the opponent pieces the seat took long before. An unseen promotion is not
    guessed either (a promoted piece, once seen, is patched in again).

    >>> board = chess.Board("r3k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> trim_army(board, chess.BLACK, [chess.ROOK])    # a black rook was taken already: one of these is not there
    1
    >>> board.board_fen()
    '4k2r/8/8/8/8/8/8/R3K3'
    >>> board = chess.Board("r3k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> trim_army(board, chess.BLACK, [chess.ROOK], seen=lambda b: float(b.piece_at(chess.A8) is not None))
    1
    >>> board.board_fen()                              # the rook on a8 was seen: the other one goes
    'r3k3/8/8/8/8/8/8/R3K3'
    """
    king = board.king(opponent)
    removed = 0
    for piece_type, start in ARMY:
        squares = list(chess.scan_forward(board.pieces_mask(piece_type, opponent)))
        extra = len(squares) - max(0, start - sum(1 for t in taken if t == piece_type))
        if extra <= 0:
            continue

        whole = seen(board) if seen is not None else 0.0

        def cost(square: int) -> tuple[bool, float, int]:
            loss = 0.0
            if seen is not None:
                piece = board.remove_piece_at(square)
                loss = whole - seen(board)
                if piece is not None:
                    board.set_piece_at(square, piece)
            return square in keep, loss, -chess.square_distance(square, king) if king is not None else 0

        for square in sorted(squares, key=cost)[:extra]:
            board.remove_piece_at(square)
            removed += 1
    return removed


# ---- scoring candidate moves over sampled boards ---------------------------------------------------------

Resolve = Callable[[chess.Board, chess.Move], "chess.Move | None"]
"""What a requested move becomes on one full board (RBC: the revised move; Blind Chess: the attempt or nothing)."""


@dataclass
class ScoreTable:
    """``scores[i][j]``: candidate ``i`` on board ``j`` (centipawns for the bot; a king capture is ``win``).

    Only the first ``len(scores[0])`` boards of the sample were scored when time ran short.
    ``capture_odds[i]``: the weighted share of scored boards on which candidate ``i`` takes the king.
    """

    candidates: list[chess.Move | None]
    scores: list[list[float]]
    weights: list[float]
    capture_odds: list[float]
    passive: list[bool] = field(default_factory=list)
    """Whether a move resolved to nothing on every board scored (a pass in disguise: a pawn's capture
    where no board has a piece to take). Bots skip these when the pass itself is a candidate."""
    columns: list[int] = field(default_factory=list)
    """The sample's index of the board in each column (the table holds them heaviest first, the sample in the
    belief's order); empty when the columns are the sample's boards in order."""

    def active(self) -> list[int]:
        """The candidates that are not passes in disguise (the pass itself included)."""
        return [i for i, move in enumerate(self.candidates) if move is None or not self.passive[i]]

    @property
    def boards_scored(self) -> int:
        return len(self.weights)

    def mean(self, index: int) -> float:
        total = math.fsum(self.weights) or 1.0
        return math.fsum(w * s for w, s in zip(self.weights, self.scores[index])) / total

    def combined(self, index: int, worst_share: float) -> float:
        """The weighted mean, with ``worst_share`` of the worst case mixed in (risk aversion)."""
        row = self.scores[index]
        if not row:
            return 0.0
        return (1.0 - worst_share) * self.mean(index) + worst_share * min(row)


def score_moves(sample: BoardSample, candidates: Sequence[chess.Move | None], me: chess.Color,
                resolve: Resolve, deadline: Deadline, win: float, clip: float,
                evaluate: Callable[[chess.Board], float]) -> ScoreTable:
    """Score every candidate on the sample's boards, heaviest first, until ``deadline`` (at least one board).

    On each board the candidate is resolved as the referee would (``resolve``), a
    capture of the king scores ``win``, anything else is played and the position
    (opponent to move) scored by ``evaluate``, clipped to +-``clip``.
    """
    order = sorted(range(len(sample)), key=lambda j: -sample.weights[j])
    scores: list[list[float]] = [[] for _ in candidates]
    weights: list[float] = []
    odds = [0.0] * len(candidates)
    passive = [True] * len(candidates)
    null = chess.Move.null()
    for done, j in enumerate(order):
        if done and deadline.expired():
            break
        board = sample.boards[j]
        weight = sample.weights[j]
        their_king = board.kings & board.occupied_co[not me]
        for i, move in enumerate(candidates):
            taken = None if move is None else resolve(board, move)
            if taken is not None:
                passive[i] = False
            if taken is not None and chess.BB_SQUARES[taken.to_square] & their_king:
                scores[i].append(win)
                odds[i] += weight
                continue
            board.push(taken if taken is not None else null)
            try:
                value = evaluate(board)
            finally:
                board.pop()
            scores[i].append(max(-clip, min(clip, value)))
        weights.append(weight)
    total = math.fsum(weights) or 1.0
    return ScoreTable(list(candidates), scores, weights, [odd / total for odd in odds], passive,
                      order[:len(weights)])


def refine(table: ScoreTable, sample: BoardSample, me: chess.Color, resolve: Resolve, rows: Sequence[int],
           deadline: Deadline, clip: float, evaluate: Callable[[chess.Board], float]) -> int:
    """Score the candidates ``rows`` again, on the boards already scored, with a costlier ``evaluate``.

    Boards are taken heaviest first (the table's order) until ``deadline``; a
    candidate's row is replaced only once every one of its boards is done, so rows
    never mix the two evaluations. Returns how many rows were refined.
    """
    order = table.columns or list(range(table.boards_scored))
    null = chess.Move.null()
    refined = 0
    for i in rows:
        move = table.candidates[i]
        row = list(table.scores[i])
        for position, j in enumerate(order):
            if row[position] >= clip or row[position] <= -clip:
                continue  # a king capture or a lost king: nothing deeper to see
            if deadline.expired():
                return refined
            board = sample.boards[j]
            taken = None if move is None else resolve(board, move)
            board.push(taken if taken is not None else null)
            try:
                value = evaluate(board)
            finally:
                board.pop()
            row[position] = max(-clip, min(clip, value))
        table.scores[i] = row
        refined += 1
    return refined


def window_signature(key: Hypothesis, mask: int) -> tuple[int, int, int, int, int, int]:
    """What a 3x3 sense window (``mask``) would show of one hypothesis: its six piece bitboards inside it."""
    return (key[0] & mask, key[1] & mask, key[2] & mask, key[3] & mask, key[4] & mask, key[5] & mask)


def information_value(table: ScoreTable, keys: Sequence[Hypothesis], masks: dict[int, int],
                      shortlist: int = 8) -> dict[int, tuple[float, float]]:
    """For each sense square: (decision value, entropy) of what its window would tell.

    The decision value is the expected score of the best move chosen *after* seeing
    the window: boards are grouped by what the window would show, and each group
    picks its own best candidate among the ``shortlist`` best on average and the
    ``shortlist`` that are best on the most boards. Squares
    that separate boards on which different moves are best score highest; the
    entropy (of the groups' weights) breaks ties in favour of plain information.
    """
    count = table.boards_scored
    if not count:
        return {square: (0.0, 0.0) for square in masks}
    active = table.active() if table.passive else list(range(len(table.candidates)))
    ranked = sorted(active, key=lambda i: -table.mean(i))[:max(1, shortlist)]
    # Also the moves that are best on some boards (by the weight of those boards): a defence that only matters
    # where a threat is (a pawn taking a raiding knight) has a poor average but is what sensing is for.
    best_on: dict[int, float] = {}
    for j in range(count):
        top = max(active, key=lambda i: table.scores[i][j])
        best_on[top] = best_on.get(top, 0.0) + table.weights[j]
    for i in sorted(best_on, key=lambda i: -best_on[i])[:max(1, shortlist)]:
        if i not in ranked:
            ranked.append(i)
    rows = [table.scores[i] for i in ranked]
    weights = table.weights
    total = math.fsum(weights) or 1.0
    # Columns: for each board, its weighted scores of the shortlisted candidates.
    columns = [[row[j] * weights[j] for row in rows] for j in range(count)]
    boards = table.columns or list(range(count))  # column j shows the board keys[boards[j]]
    result: dict[int, tuple[float, float]] = {}
    for square, mask in masks.items():
        groups: dict[tuple[int, ...], list[int]] = {}
        for j in range(count):
            groups.setdefault(window_signature(keys[boards[j]], mask), []).append(j)
        value = 0.0
        entropy = 0.0
        for members in groups.values():
            if len(members) == 1:
                value += max(columns[members[0]])
            else:
                sums = [math.fsum(values) for values in zip(*(columns[j] for j in members))]
                value += max(sums)
            share = math.fsum(weights[j] for j in members) / total
            if share > 0:
                entropy -= share * math.log(share)
        result[square] = (value / total, entropy)
    return result


# ---- attacks on the king over every position held ---------------------------------------------------------

_LINES: dict[int, tuple[tuple[tuple[int, ...], bool], ...]] = {}


def _lines(square: int) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """The eight lines leaving ``square``, nearest square first, each with whether it is diagonal."""
    if square not in _LINES:
        lines = []
        file, rank = chess.square_file(square), chess.square_rank(square)
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            line = []
            f, r = file + df, rank + dr
            while 0 <= f < 8 and 0 <= r < 8:
                line.append(chess.square(f, r))
                f, r = f + df, r + dr
            if line:
                lines.append((tuple(line), bool(df and dr)))
        _LINES[square] = tuple(lines)
    return _LINES[square]


def king_attacked(king: int, color: chess.Color, mine: int, pawns: Any, knights: Any, bishops: Any, rooks: Any,
                  queens: Any, kings: Any) -> Any:
    """For each position (numpy arrays of the opponent's bitboards, one entry a position): whether the opponent
    attacks ``king``, a square of ``color``'s, as in chess, with ``mine`` the squares of ``color``'s pieces (a slide
    needs the squares between empty, a pawn takes diagonally). The king-danger terms of RBC's and Blind Chess's
    hard levels count with it over the whole belief."""
    zero = np.uint64(0)
    hit = (knights & np.uint64(chess.BB_KNIGHT_ATTACKS[king])) != zero
    hit |= (pawns & np.uint64(chess.BB_PAWN_ATTACKS[color][king])) != zero
    hit |= (kings & np.uint64(chess.BB_KING_ATTACKS[king])) != zero
    straight = rooks | queens
    diagonal = bishops | queens
    theirs = pawns | knights | bishops | rooks | queens | kings
    for line, is_diagonal in _lines(king):
        sliders = diagonal if is_diagonal else straight
        open_ = np.ones(len(pawns), dtype=bool)
        for square in line:
            if mine & chess.BB_SQUARES[square]:
                break
            bit = np.uint64(chess.BB_SQUARES[square])
            hit |= open_ & ((sliders & bit) != zero)
            open_ &= (theirs & bit) == zero
            if not open_.any():
                break
    return hit


def thin_columns(rows: Any, weights: Any, count: int) -> tuple[Any, Any]:
    """At most ``count`` of the columns of ``rows``, drawn by ``weights``: the inference's systematic sample, from
    the middle of each step, so that the same set always gives the same draw (a column hit ``k`` times weighs
    ``k`` steps). A position heavier than a step is always kept: the threat prior's raiders are not lost.

    >>> rows, weights = thin_columns(np.array([[1, 2, 3, 4, 5]], dtype=np.uint64), np.array([1.0, 1, 4, 2, 0]), 4)
    >>> rows.tolist(), weights.tolist()
    ([[2, 3, 4]], [2.0, 4.0, 2.0])
    """
    weights = np.asarray(weights, dtype=float)
    if len(weights) <= count or float(weights.sum()) <= 0:
        return rows, weights
    return systematic_sample(rows, weights, count, 0.5)


def king_danger(inference: Inference, candidates: list[chess.Move | None], color: chess.Color,
                resolve: Callable[[chess.Board, chess.Move], chess.Move | None],
                threat_factor: float = 1.0, most: int | None = None,
                prior: Callable[[Hypothesis], float] | None = None) -> list[float]:
    """For each candidate move: the share of the whole belief (every position held, by weight) on which the
    opponent could take ``color``'s king right after it, the move turned by ``resolve`` into what the game's
    referee would play on each position (``None``: nothing moves).

    Positions in which the opponent attacks the king already count ``threat_factor`` times (as
    :func:`king_threat_prior` does for the sample). With ``most``, a belief holding more positions is first
    thinned to that many, drawn by weight (:func:`thin_columns`): the shares are estimated, in bounded time.
    :func:`king_danger_rows` tells it position by position."""
    dangers, weights = king_danger_rows(inference, candidates, color, resolve, threat_factor, most, prior)
    if not weights.size:
        return [0.0] * len(candidates)
    total = float(weights.sum()) or 1.0
    return [float(weights[row].sum()) / total for row in dangers]


def king_danger_rows(inference: Inference, candidates: Sequence[chess.Move | None], color: chess.Color,
                     resolve: Callable[[chess.Board, chess.Move], chess.Move | None],
                     threat_factor: float = 1.0, most: int | None = None,
                     prior: Callable[[Hypothesis], float] | None = None) -> tuple[Any, Any]:
    """:func:`king_danger` position by position: ``(dangers, weights)``, ``dangers[i, p]`` true where the opponent
    could take the king right after candidate ``i`` in the belief's position ``p``, and ``weights`` the positions'
    weights (those attacking the king already times ``threat_factor``). Empty arrays for an empty belief. With
    ``most``, the positions are those :func:`thin_columns` keeps (then the rows are not the belief's own).

    The positions are grouped by what decides the move (the opponent's pieces on the squares it passes and lands
    on, and an en-passant square), so ``resolve`` runs once a group and the attacks are counted with numpy over
    the group's bitboards: a few milliseconds a move."""
    held, held_weights = inference.arrays()
    rows = np.asarray(held, dtype=np.uint64)  # (8, n): the opponent's bitboards of every position
    weights = np.asarray(held_weights, dtype=float)
    if rows.ndim != 2 or not rows.shape[1]:
        return np.zeros((len(candidates), 0), dtype=bool), np.zeros(0)
    own = inference.own
    king_now = own.king(color)
    if king_now is not None and threat_factor != 1.0:
        attacked = king_attacked(king_now, color, own.occupied, *rows[:6])
        weights = weights * np.where(attacked, threat_factor, 1.0)
    if most is not None and rows.shape[1] > most:
        rows, weights = thin_columns(rows, weights, most)
    if prior is not None:  # after the thinning: a prior may cost a board a position
        columns = rows.T.tolist()
        weights = weights * np.array([prior((c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])) for c in columns])
    theirs_all = rows[0] | rows[1] | rows[2] | rows[3] | rows[4] | rows[5]
    dangers = np.zeros((len(candidates), rows.shape[1]), dtype=bool)
    for index, move in enumerate(candidates):
        ep_flag = None
        if move is None:
            relevant = 0
        else:
            relevant = chess.between(move.from_square, move.to_square) | chess.BB_SQUARES[move.to_square]
            rank = chess.square_rank(move.from_square)
            if own.kings & chess.BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 2:
                corner = chess.square(7 if move.to_square > move.from_square else 0, rank)
                relevant |= chess.between(move.from_square, corner)  # castling needs them free of enemy pieces
            if own.pawns & chess.BB_SQUARES[move.from_square]:
                ep_flag = rows[7] == np.uint64(move.to_square)  # an en-passant capture there
        signature = theirs_all & np.uint64(relevant)
        keys = np.stack([signature, ep_flag.astype(np.uint64)]) if ep_flag is not None else signature[None, :]
        groups = np.unique(keys, axis=1, return_inverse=True)[1].reshape(-1)
        for group in range(int(groups.max()) + 1):
            members = np.nonzero(groups == group)[0]
            column = [int(x) for x in rows[:, members[0]]]
            board = inference.board_of((column[0], column[1], column[2], column[3], column[4], column[5], column[6],
                                        column[7]))
            board.turn = color
            taken = None if move is None else resolve(board, move)
            if taken is not None and board.kings & board.occupied_co[not color] & chess.BB_SQUARES[taken.to_square]:
                continue  # the attempt takes the king there: no danger
            before = board.occupied_co[not color]
            board.push(taken if taken is not None else chess.Move.null())
            removed = np.uint64(before & ~board.occupied_co[not color])
            king = board.king(color)
            if king is None:
                dangers[index, members] = True
                continue
            keep = ~removed
            sub = rows[:, members]
            dangers[index, members] = king_attacked(king, color, board.occupied_co[color], sub[0] & keep,
                                                    sub[1] & keep, sub[2] & keep, sub[3] & keep, sub[4] & keep,
                                                    sub[5] & keep)
    return dangers, weights


def danger_after_sensing(inference: Inference, dangers: Any, weights: Any, masks: dict[int, int]) -> dict[int, float]:
    """For each sense square (``masks``: its window's squares): the king danger left, as a share of the belief's
    weight, if the seat senses there and then plays the safest of the candidates (``dangers`` and ``weights`` as
    :func:`king_danger_rows` gives them). The positions are grouped by what the window would show and each group
    picks its own safest candidate, so a window that tells apart the positions where one move is dangerous from
    those where another is scores low; a window that changes no choice scores the safest move's danger now.

    >>> import numpy as np
    >>> from app.games.rbc.inference import RbcInference
    >>> from app.engine.inference import InferenceOptions
    >>> inference = RbcInference(chess.WHITE, InferenceOptions())
    >>> danger_after_sensing(inference, np.zeros((2, 0), dtype=bool), np.zeros(0), {chess.E4: 0})
    {28: 0.0}
    """
    if not weights.size or not dangers.shape[0]:
        return {square: 0.0 for square in masks}
    held, _ = inference.arrays()
    rows = np.asarray(held, dtype=np.uint64)[:6]
    total = float(weights.sum()) or 1.0
    weighted = dangers * weights  # (candidates, positions)
    # The type (1-6, 0 for empty) of the opponent's piece on each square of each position.
    shifts = np.arange(64, dtype=np.uint64)[:, None]
    kinds = np.zeros((64, rows.shape[1]), dtype=np.int64)
    for piece in range(6):
        kinds += (piece + 1) * ((rows[piece][None, :] >> shifts) & np.uint64(1)).astype(np.int64)
    result: dict[int, float] = {}
    for square, mask in masks.items():
        window = list(chess.scan_forward(mask))  # what the window shows of a position, as one number
        shown = (kinds[window] * (7 ** np.arange(len(window), dtype=np.int64))[:, None]).sum(axis=0)
        groups = np.unique(shown, return_inverse=True)[1].reshape(-1)
        count = int(groups.max()) + 1
        by_group = np.stack([np.bincount(groups, weights=row, minlength=count) for row in weighted])
        result[square] = float(by_group.min(axis=0).sum()) / total
    return result
