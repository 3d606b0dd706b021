"""Built-in Blind Chess bots.

Both bots keep a :class:`~app.games.blind.rules.BlindChessView` built from their
seat's observations and never see the referee. They decline every draw offer
and never offer one.

>>> from app.bots.base import ActionRequest
>>> from app.games.blind.rules import BlindChess
>>> game = BlindChess()
>>> bot = BlindGreedyBot(seed=1)
>>> bot.start(0, game.options())
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> action = bot.act(ActionRequest(0, game.phase, game.choices()))
>>> action.move in game.choices()["attempts"]
True
"""

from __future__ import annotations

from typing import Any, ClassVar

import chess

from app.bots.base import ActionRequest, Bot
from app.games.blind.rules import PIECE_VALUES, AnswerDraw, Attempt, BlindChessView
from app.engine.core import Action, Resign, Seat
from app.games.blind import DEFINITION


class BlindRandomBot(Bot):
    """Attempts a random possible move (promotion pieces included); declines draws."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = BlindChessView()

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = BlindChessView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        if request.phase == "answer_draw" or request.choices.get("answer_draw"):
            return AnswerDraw(False)
        attempts: list[chess.Move] = list(request.choices.get("attempts") or self.view.attempts())
        if not attempts:  # the referee skips such turns; never asked in practice
            return Resign()
        return Attempt(self.choose(attempts))

    def choose(self, attempts: list[chess.Move]) -> chess.Move:
        return self.rng.choice(attempts)


class BlindGreedyBot(BlindRandomBot):
    """Captures an opponent piece it has seen and still believes there (the most valuable, the king
    first) when one of its attempts lands on it; otherwise attempts a random move."""

    name: ClassVar[str] = "greedy"

    def choose(self, attempts: list[chess.Move]) -> chess.Move:
        believed = self.view.believed()
        board = self.view.own_board
        best: list[chess.Move] = []
        best_value = -1
        for move in attempts:
            reveal = believed.get(move.to_square)
            if reveal is None:
                continue
            if (board.pawns & chess.BB_SQUARES[move.from_square]
                    and chess.square_file(move.from_square) == chess.square_file(move.to_square)):
                continue  # a pawn cannot capture straight ahead
            if move.promotion not in (None, chess.QUEEN):
                continue
            value = 100 if reveal.piece.piece_type == chess.KING else PIECE_VALUES[reveal.piece.piece_type]
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        if best:
            return self.rng.choice(best)
        return super().choose(attempts)
