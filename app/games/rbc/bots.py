"""Built-in Reconnaissance Blind Chess bots: ``random`` and ``attacker``."""

from __future__ import annotations

from typing import Any, ClassVar

import chess

from app.engine.core import Action
from app.games.rbc.rules import MoveAction, MoveResult, Sense, TurnStarted

from app.bots.base import ActionRequest, Bot
from app.games.rbc import DEFINITION


class RBCRandomBot(Bot):
    """Senses a random square and plays a random move action or passes (uniformly)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        rng = self.rng
        if request.phase == "sense":
            return Sense(rng.randrange(64))
        actions = request.choices["move_actions"]
        index = rng.randrange(len(actions) + 1)
        return MoveAction(actions[index] if index < len(actions) else None)


def _flip(move: chess.Move) -> chess.Move:
    return chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square), move.promotion)


_RUSHES: tuple[tuple[str, ...], ...] = (
    # Knight raids on the king's square, then the quick bishop-and-queen attack on f7.
    ("b1c3", "c3b5", "b5d6", "d6e8"),
    ("b1c3", "c3e4", "e4f6", "f6e8"),
    ("g1h3", "h3f4", "f4h5", "h5f6", "f6e8"),
    ("e2e4", "f1c4", "d1h5", "c4f7", "f7e8", "h5e8"),
    ("e2e4", "d1h5", "h5f7", "f7e8"),
)


class RBCAttackerBot(Bot):
    """A scripted rush at the enemy king.

    It picks one of a few fast attacks (knight raids, the f7 assault), plays it
    step by step, senses where its next move lands so that it can switch to a
    capture of whatever it saw, and when a line is broken it starts another one;
    with no line left it attacks squares next to where the king was last seen.
    """

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "attacker"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.color = chess.WHITE
        self.lines: list[list[chess.Move]] = []
        self.plan: list[chess.Move] = []
        self.king_guess: int = chess.E8
        self.seen_king_at: int | None = None

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.color = seat == 0
        lines = [[chess.Move.from_uci(uci) for uci in line] for line in _RUSHES]
        if not self.color:
            lines = [[_flip(move) for move in line] for line in lines]
        self.rng.shuffle(lines)
        self.lines = lines
        self.plan = self.lines.pop()
        self.king_guess = chess.E8 if self.color else chess.E1

    def observe(self, observation: Any) -> None:
        if isinstance(observation, MoveResult) and observation.taken is not None:
            if observation.taken != observation.requested and self.plan:
                self.plan = []  # the line was disturbed: choose again next turn
        elif isinstance(observation, TurnStarted):
            self.seen_king_at = None
        elif hasattr(observation, "window"):
            for square, piece in observation.window:
                if piece is not None and piece.color != self.color and piece.piece_type == chess.KING:
                    self.seen_king_at = self.king_guess = square

    def _next_move(self, actions: Any) -> chess.Move | None:
        if self.seen_king_at is not None:
            hits = [move for move in actions if move.to_square == self.seen_king_at]
            if hits:
                hit: chess.Move = hits[0]
                return hit
        while True:
            while self.plan and self.plan[0] not in actions:
                self.plan.pop(0)
            if self.plan:
                return self.plan[0]
            if not self.lines:
                break
            self.plan = self.lines.pop()
        near = [move for move in actions
                if chess.square_distance(move.to_square, self.king_guess) <= 1]
        choices: list[chess.Move] = near or list(actions)
        return self.rng.choice(choices) if choices else None

    def act(self, request: ActionRequest) -> Action:
        actions = request.choices["move_actions"]
        move = self._next_move(actions)
        if request.phase == "sense":
            # Look where the next move lands (or at the king's last square).
            target = move.to_square if move is not None else self.king_guess
            file = min(max(chess.square_file(target), 1), 6)
            rank = min(max(chess.square_rank(target), 1), 6)
            return Sense(chess.square(file, rank))
        if move is not None and self.plan and move == self.plan[0]:
            self.plan.pop(0)
        return MoveAction(move)
