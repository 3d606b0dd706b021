"""Telepathy Chess bots: ``engine``, which predicts and moves with its partner in mind, and ``random``.

The engine scores the moves of the side to move with a short alpha-beta search (material and king captures).
What a card is worth to the team depends on the move the mover then makes: a move matching the face-down card
pushes the coin toward the opponents, one matching neither card pulls it back, and a step past a side costs that
side a piece, so a prediction is weighed with the coin's place.

- **Predictor.** For each card of its hand it works out the move its partner would best make knowing that card
  (the move's score plus what the coin step is worth), and plays the card whose best move is worth most. A
  partner of the same kind works the card out in the same way from the same public game, so the two agree
  without a word; a partner who moves otherwise (a person) is modelled from what it did: once its moves have
  often missed those predictions, the predictor instead plays the card of the likeliest kind of piece under a
  softmax over the move scores.
- **Mover.** It works out the card its partner most likely played (as above) and plays the move best for the
  team: the move's score plus what the coin step it brings is worth.
- **Remover.** It removes the piece whose loss costs least (the position scored after the removal).
- **Draw offers.** It never offers one. Asked by its partner to agree to one, it agrees unless its team is ahead
  on material; asked by the opponents, it accepts only when its team is clearly behind (``draw_answer``). The
  ``random`` bot answers in the same way.

>>> from app.games.telepathy.rules import TelepathyChess
>>> from app.bots.base import ActionRequest
>>> game = TelepathyChess()
>>> bot = TelepathyEngineBot(seed=1)
>>> bot.start(0, {})
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, "predict", game.choices())) in game.choices()["cards"]
True
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import chess

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.team_draw import DRAW_PHASES, AnswerDraw, RandomTeamBot, draw_answer, playable
from app.games.telepathy.rules import (CARDS, Flipped, Moved, Predict, Remove, TelepathyMove, TelepathyView,
                                       card_of_move, legal_moves, resolution, take_off)
from app.games.telepathy import DEFINITION

__all__ = ["TelepathyEngineBot", "TelepathyRandomBot", "move_scores", "best_card"]

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 320, chess.ROOK: 500, chess.QUEEN: 900,
          chess.KING: 0}
WIN = 100_000
TEMPERATURE = 80.0
"""How sure the predictor supposes a partner who thinks otherwise is: a move 80 centipawns better is e times as
likely."""
DEPTHS = {"easy": 1, "medium": 2, "hard": 3}
STEP, REMOVAL = 40.0, 300.0
"""What a coin step is worth in centipawns, and what a removal (a step past a side) is worth beside it."""


def _material(board: chess.Board) -> int:
    score = 0
    for piece in board.piece_map().values():
        value = VALUES[piece.piece_type]
        score += value if piece.color == board.turn else -value
    return score


def _search(board: chess.Board, depth: int, alpha: int, beta: int) -> int:
    moves = legal_moves(board)
    enemy_king = board.king(not board.turn)
    if enemy_king is None:
        return WIN
    if not moves:
        return -WIN if board.is_check() else 0
    for move in moves:
        if move.to_square == enemy_king:
            return WIN  # a king capture ends the game
    if depth == 0:
        return _material(board)
    moves.sort(key=lambda move: not board.is_capture(move))
    best = -WIN * 2
    for move in moves:
        board.push(move)
        score = -_search(board, depth - 1, -beta, -alpha)
        board.pop()
        best = max(best, score)
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def move_scores(board: chess.Board, depth: int = 2) -> dict[chess.Move, int]:
    """Each legal move's score for the side to move (centipawns; a king capture wins).

    >>> board = chess.Board("4k3/8/8/8/8/8/4q3/R3K3 w - - 0 1")
    >>> scores = move_scores(board, 2)
    >>> max(scores, key=scores.get).uci()  # the king takes the queen
    'e1e2'
    """
    scores: dict[chess.Move, int] = {}
    work = board.copy(stack=False)
    enemy_king = work.king(not work.turn)
    for move in legal_moves(work):
        if move.to_square == enemy_king:
            scores[move] = WIN
            continue
        work.push(move)
        scores[move] = -_search(work, depth - 1, -WIN * 2, WIN * 2)
        work.pop()
    return scores


def _step_worth(result: str, coin: int, team: int) -> float:
    """What the coin step of a flip's ``result`` is worth to the moving ``team`` with the coin at ``coin``."""
    toward = 1 if team == 0 else -1
    if result == "down":
        return STEP + (REMOVAL if coin == toward else 0.0)  # past the opponents' side: they lose a piece
    if result == "none":
        return -STEP - (REMOVAL if coin == -toward else 0.0)  # past our own side: we lose one
    return 0.0


def best_reply(board: chess.Board, scores: dict[chess.Move, int], card: str, face_up: str, coin: int,
               team: int) -> tuple[float, chess.Move]:
    """The move best for the team if the face-down card is ``card``, and what it is worth."""
    return max(((score + _step_worth(resolution(card_of_move(board, move), card, face_up), coin, team), move)
                for move, score in scores.items()), key=lambda pair: (pair[0], pair[1].uci()))


def best_card(board: chess.Board, scores: dict[chess.Move, int], hand: tuple[str, ...], face_up: str, coin: int,
              team: int) -> str:
    """The card whose best reply is worth most (the order of ``CARDS`` settles a tie): what both partners of the
    engine work out, each on its own, from the same public game."""
    return max(hand, key=lambda card: (best_reply(board, scores, card, face_up, coin, team)[0], -CARDS.index(card)))


def likeliest_card(board: chess.Board, scores: dict[chess.Move, int], hand: tuple[str, ...], face_up: str, coin: int,
                   team: int) -> str:
    """The card with the best expected coin step under a softmax over the move scores (a partner of its own
    mind)."""
    top = max(scores.values())
    weights = {move: math.exp(max(-50.0, (score - top) / TEMPERATURE)) for move, score in scores.items()}
    total = sum(weights.values())
    kinds: dict[str, float] = {}
    for move, weight in weights.items():
        kind = card_of_move(board, move)
        kinds[kind] = kinds.get(kind, 0.0) + weight / total

    def expected(card: str) -> float:
        return sum(chance * _step_worth(resolution(kind, card, face_up), coin, team) for kind, chance in kinds.items())

    return max(hand, key=lambda card: (expected(card), -CARDS.index(card)))


def answer_draw(view: TelepathyView, seat: int, phase: str) -> AnswerDraw:
    """A bot's yes or no to a draw (its partner's proposal, or the opponents' offer), from the material on the
    board (pawn 1, knight and bishop 3, rook 5, queen 9)."""
    worth = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
    mine = chess.WHITE if seat < 2 else chess.BLACK
    balance = sum(worth[piece.piece_type] * (1 if piece.color == mine else -1)
                  for piece in view.board.piece_map().values())
    return AnswerDraw(draw_answer(phase, balance))


class TelepathyRandomBot(RandomTeamBot):
    """Any allowed choice, uniformly at random; a draw offer answered by the material."""

    variant: ClassVar[str] = DEFINITION.key
    view_type = TelepathyView

    def answer_draw(self, phase: str) -> AnswerDraw:
        return answer_draw(self.view, self.seat, phase)


class TelepathyEngineBot(Bot):
    """Predicts, moves and removes for its team (see the module's notes)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "engine"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = TelepathyView()
        self.depth = DEPTHS.get(level, 2)
        self._expected: str | None = None
        """The card this seat, as mover, supposed its partner played (to learn how its partner predicts)."""
        self._agreed = [0, 0]
        """Of the partner's moves so far: how many matched the card the engine would have played, of how many."""

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = TelepathyView()
        self._agreed = [0, 0]

    def observe(self, observation: Any) -> None:
        view = self.view
        if isinstance(observation, Moved) and observation.seat == self.seat ^ 1 and observation.seat // 2 == \
                self.seat // 2:
            self._note_partner(observation)
        view.apply(observation)
        if isinstance(observation, Flipped):
            self._expected = None

    def _note_partner(self, moved: Moved) -> None:
        """Before the partner's move is applied: would the engine's card have matched it?"""
        view = self.view
        team = view.team
        scores = move_scores(view.board, self.depth)
        if not scores:
            return
        hand = tuple(card for card in CARDS if card != view.face_up[team])
        card = best_card(view.board, scores, hand, view.face_up[team], view.coin, team)
        predicted = view.face_up[team] if card == "C" else card
        self._agreed[0] += predicted == moved.card
        self._agreed[1] += 1

    def _partner_thinks_alike(self) -> bool:
        agreed, seen = self._agreed
        return seen < 3 or agreed >= 0.6 * seen

    def act(self, request: ActionRequest) -> Action:
        if request.phase in DRAW_PHASES:
            return answer_draw(self.view, self.seat, request.phase)
        options = playable(request)
        try:
            action = self._choose(request)
        except Exception:  # noqa: BLE001 - a bot that cannot think still answers within the rules
            action = None
        return action if action is not None and action in options else self.rng.choice(options)

    def _choose(self, request: ActionRequest) -> Action | None:
        view, board = self.view, self.view.board
        team = view.team
        face_up, coin = view.face_up[team], view.coin
        hand = tuple(card for card in CARDS if card != face_up)
        if "cards" in request.choices:
            scores = move_scores(board, self.depth)
            pick = best_card if self._partner_thinks_alike() else likeliest_card
            return Predict(pick(board, scores, hand, face_up, coin, team))
        if "moves" in request.choices:
            scores = move_scores(board, self.depth)
            card = best_card(board, scores, hand, face_up, coin, team)
            _worth, move = best_reply(board, scores, card, face_up, coin, team)
            return TelepathyMove(move.uci())
        if "squares" in request.choices:
            return Remove(self._cheapest(board, [a.square for a in request.choices["squares"]]))
        return None

    def _cheapest(self, board: chess.Board, squares: list[str]) -> str:
        """The square whose piece the team misses least: the position scored for the team after removing it."""
        mine = chess.WHITE if self.seat < 2 else chess.BLACK

        def worth_after(name: str) -> float:
            work = board.copy(stack=False)
            take_off(work, chess.parse_square(name))
            score = _search(work, 1, -WIN * 2, WIN * 2)
            return score if work.turn == mine else -score

        return max(squares, key=lambda name: (worth_after(name), name))
