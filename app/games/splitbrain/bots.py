"""Split-Brain Chess bots: ``engine``, which picks its half of the move knowing its partner picks the other half
blind, and ``random``.

The engine scores every legal move of the team to move with a small alpha-beta search (material, a little
mobility, mates). It supposes that a sensible partner picks from those scores, more likely the better the move
(a softmax), and chooses the half (piece or square) whose *expected* result is best: for each pair its partner
might complete, the move made as is, or, when the pair is no move, the resolution the opponents would choose
(the worse for the team). As the opponents' chooser it picks the resolution worse for the moving team; a tie of
its own team it settles with the best move; a pawn becomes a queen unless another piece is better.

Neither bot offers a draw. Asked by its partner to agree to one, a bot agrees unless its team is ahead on
material; asked by the opponents, it accepts only when its team is clearly behind (``draw_answer``).

>>> from app.games.splitbrain.rules import SplitBrainChess
>>> game = SplitBrainChess()
>>> bots = [SplitBrainEngineBot(seed=seat) for seat in range(4)]
>>> for seat, bot in enumerate(bots):
...     bot.start(seat, {})
...     for observation in game.observations(seat):
...         bot.observe(observation)
>>> from app.bots.base import ActionRequest
>>> action = bots[0].act(ActionRequest(0, game.phase, game.choices()))
>>> action in game.choices()["pieces"]
True
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.splitbrain.losalamos import LosAlamosPosition, Move, parse_square, square_name
from app.games.splitbrain.rules import (Decide, PickPiece, PickSquare, Promote, Settle, SplitBrainView,
                                        insufficient_material, resolve)
from app.games.team_draw import DRAW_PHASES, AnswerDraw, RandomTeamBot, draw_answer, playable
from app.games.splitbrain import DEFINITION

__all__ = ["SplitBrainEngineBot", "SplitBrainRandomBot", "move_scores"]

VALUES = {"P": 100, "N": 300, "R": 500, "Q": 900, "K": 0}
MATE = 100_000
TEMPERATURE = 60.0
"""How sure the bot supposes its partner is: scores a little over half a pawn apart are about e (2.7) times
as likely to be picked."""
DEPTHS = {"easy": 1, "medium": 2, "hard": 3}

Pair = tuple[int, int]


def _evaluate(position: LosAlamosPosition) -> int:
    """Material (and a little centralisation of pawns) from the side to move's point of view."""
    score = 0
    for square, piece in enumerate(position.board):
        if piece == ".":
            continue
        value = VALUES[piece.upper()]
        if piece.upper() == "P":
            rank = square // 6
            value += 8 * (rank - 1 if piece.isupper() else 4 - rank)  # an advanced pawn nears its promotion
        score += value if piece.isupper() else -value
    return score if position.white_to_move else -score


def _search(position: LosAlamosPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
    moves = position.legal_moves()
    if not moves:
        return -(MATE - ply) if position.in_check() else 0
    if insufficient_material(position) or position.halfmove_clock >= 100:
        return 0
    if depth == 0:
        return _evaluate(position) + len(moves)  # a little mobility
    # captures and promotions first: they cut the search soonest
    moves.sort(key=lambda move: (position.board[move.to_sq] == ".", move.promotion is None))
    best = -MATE * 2
    for move in moves:
        score = -_search(position.push(move), depth - 1, -beta, -alpha, ply + 1)
        if score > best:
            best = score
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


def move_scores(position: LosAlamosPosition, depth: int = 2) -> dict[Move, int]:
    """Each legal move's score for the side to move, searched ``depth`` plies beyond it.

    >>> mate = LosAlamosPosition.from_fen("k5/2K3/1Q4/6/6/6 w - - 0 1")
    >>> scores = move_scores(mate, 1)
    >>> mates = [move for move, score in scores.items() if score > MATE // 2]
    >>> len(mates), all(mate.push(move).is_checkmate() for move in mates)
    (4, True)
    """
    return {move: -_search(position.push(move), depth - 1, -MATE * 2, MATE * 2, 1)
            for move in position.legal_moves()} if depth > 0 else {}


def pair_scores(position: LosAlamosPosition, depth: int) -> dict[Pair, int]:
    """The score of each legal (from, to) pair, its best promotion taken."""
    scores: dict[Pair, int] = {}
    for move, score in move_scores(position, depth).items():
        pair = (move.from_sq, move.to_sq)
        scores[pair] = max(score, scores.get(pair, -MATE * 2))
    return scores


def _softmax(values: dict[Any, float]) -> dict[Any, float]:
    top = max(values.values())
    weights = {key: math.exp((value - top) / TEMPERATURE) for key, value in values.items()}
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()}


def pair_value(scores: dict[Pair, int], piece: int, square: int) -> float:
    """What the pair (``piece``, ``square``) is worth to the team picking it: the move if it is one, else the
    resolution the opponents choose (the worse for the team; a tie the team settles at its best)."""
    if (piece, square) in scores:
        return scores[(piece, square)]
    outcomes = [max(scores[pair] for pair in found)
                for found in (resolve(scores, piece, square, by) for by in ("piece", "square")) if found]
    return min(outcomes)


def answer_draw(view: SplitBrainView, seat: int, phase: str) -> AnswerDraw:
    """A bot's yes or no to a draw (its partner's proposal, or the opponents' offer), from the material on the
    board (pawn 1, knight 3, rook 5, queen 9)."""
    worth = {"P": 1, "N": 3, "R": 5, "Q": 9, "K": 0}
    white = seat < 2
    balance = sum(worth[piece.upper()] * (1 if piece.isupper() == white else -1)
                  for piece in view.position.board if piece != ".")
    return AnswerDraw(draw_answer(phase, balance))


class SplitBrainRandomBot(RandomTeamBot):
    """Any allowed choice, uniformly at random; a draw offer answered by the material."""

    variant: ClassVar[str] = DEFINITION.key
    view_type = SplitBrainView

    def answer_draw(self, phase: str) -> AnswerDraw:
        return answer_draw(self.view, self.seat, phase)


class SplitBrainEngineBot(Bot):
    """Picks its half of the move for the best expected result with a partner who picks sensibly (see the
    module's notes); decides for the opponents the resolution worse for them."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "engine"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = SplitBrainView()
        self.depth = DEPTHS.get(level, 2)

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = SplitBrainView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        if request.phase in DRAW_PHASES:
            return answer_draw(self.view, self.seat, request.phase)
        try:
            action = self._choose(request)
        except Exception:  # noqa: BLE001 - a bot that cannot think still answers within the rules
            action = None
        options = playable(request)
        return action if action is not None and action in options else self.rng.choice(options)

    def _choose(self, request: ActionRequest) -> Action | None:
        position = self.view.position
        scores = pair_scores(position, self.depth)
        if not scores:
            return None
        choices = request.choices
        if "pieces" in choices:  # the chooser: partner picks a square from its marginal
            squares = _marginal(scores, 1)
            pieces = {int(parse_square(a.square)) for a in choices["pieces"]}
            best = max(pieces, key=lambda piece: (sum(p * pair_value(scores, piece, sq) for sq, p in squares.items()),
                                                  self.rng.random()))
            return PickPiece(square_name(best))
        if "squares" in choices:  # the mover: partner picks a piece from its marginal
            pieces_seen = _marginal(scores, 0)
            targets = {int(parse_square(a.square)) for a in choices["squares"]}
            best = max(targets, key=lambda sq: (sum(p * pair_value(scores, piece, sq)
                                                    for piece, p in pieces_seen.items()), self.rng.random()))
            return PickSquare(square_name(best))
        if "decisions" in choices:  # the opponents' chooser: the resolution worse for the movers
            revealed = self.view.revealed
            assert revealed is not None
            worth = {}
            for by in ("piece", "square"):
                found = resolve(scores, revealed.piece, revealed.square, by)
                worth[by] = max((scores[pair] for pair in found), default=MATE * 3)
            return Decide(min(worth, key=lambda by: worth[by]))
        if "moves" in choices:  # a tie of our own team: the best of the tied moves
            best = max(choices["moves"], key=lambda a: scores.get((parse_square(a.move[:2]),
                                                                   parse_square(a.move[2:4])), -MATE))
            return Settle(best.move)
        if "promotions" in choices:
            asked = self.view.asked
            assert asked is not None
            pair = asked.moves[0]
            moves = move_scores(position, self.depth)
            letter = max(("q", "r", "n"), key=lambda piece: moves.get(Move(pair[0], pair[1], piece), -MATE))
            return Promote(letter)
        return None


def _marginal(scores: dict[Pair, int], half: int) -> dict[int, float]:
    """How likely a sensible partner is to pick each piece (``half`` 0) or square (1): the softmax over moves,
    summed by that half."""
    chances = _softmax({pair: float(score) for pair, score in scores.items()})
    marginal: dict[int, float] = {}
    for pair, chance in chances.items():
        marginal[pair[half]] = marginal.get(pair[half], 0.0) + chance
    return marginal
