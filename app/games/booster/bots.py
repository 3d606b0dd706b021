"""Booster Chess bots: ``engine``, a short search over what its seat knows, and ``random``.

The engine keeps its seat's view (the board and the checkers are public; of the cards it knows only its own
hand, the discards and the sizes of the other hand and the draw pile) and searches whole turns:

- **A turn** in the search is a normal move followed, for a boosted piece, by the booster steps that raise the
  evaluation most, one at a time (a greedy walk). Cards are left out of the search: the opponent's hand is
  unknown, and its own are weighed once the move is made.
- **Search**: negamax with alpha-beta over such turns, to ``DEPTHS[level]`` turns (easy 1, medium 2, hard 3); a
  side with no legal move is mated (a loss) or stalemated (a draw). Positions the game has already seen twice
  count as draws, so it does not walk into a repetition while ahead.
- **Evaluation**: material; a boosted piece is worth more by each checker under it, a hobbled piece is worth
  about a pawn (a hobbled pawn less); once the opponent is short of material, its king is driven to the edge and
  the own king brought closer, so that a won game is ended by mate.
- **Leaves**: a side not in check is scored by the evaluation alone (a stalemate there goes unseen); a side in
  check is asked whether it has a move, so a mate at the horizon is found.
- **Time**: a move decision stops searching further moves after the level's seconds (easy 0.5, medium 1.5,
  hard 4) or a twentieth of its clock, whichever is less (inside a move's search, the nodes left past that time
  are scored by the evaluation alone), and with under ten seconds left it searches one turn
  only.
- **Steps**: it takes the steps it planned with its move while they are still allowed, then stops.
- **Card**: of the pieces its cards may go under, it takes the five best by the evaluation alone, and plays the
  card (or none) after which the position is best for it with the opponent's best reply searched one turn deep.

The ``random`` bot plays any allowed action, uniformly at random.

>>> from app.games.booster.rules import BoosterChess
>>> from app.bots.base import ActionRequest
>>> game = BoosterChess(seed=1)
>>> bot = BoosterEngineBot(seed=1, level="easy")
>>> bot.start(0, {})
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, "move", game.choices())) in game.choices()["moves"]
True
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, ClassVar

import chess

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.booster import DEFINITION
from app.games.booster.moves import (apply_normal, apply_step, in_danger, legal_moves, legal_steps, net,
                                     put_checker)
from app.games.booster.rules import (BoosterMove, BoosterView, Dealt, Done, PlayCard, Step, TurnOver,
                                     position_key)

__all__ = ["BoosterEngineBot", "BoosterRandomBot", "evaluate", "search"]

VALUES = {chess.PAWN: 100, chess.KNIGHT: 310, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
BOOST = 45
"""What one own checker under a piece is worth (a king step to come)."""
MATE = 100_000
DEPTHS = {"easy": 1, "medium": 2, "hard": 3}
SECONDS = {"easy": 0.5, "medium": 1.5, "hard": 4.0}
"""The most one move decision may take (a twentieth of the clock's time left, if that is less); the search
then keeps the best of the moves it has searched."""
HURRY = 10.0
"""Seconds left on its clock under which it searches one turn only."""
CARD_CANDIDATES = 5
"""How many card plays, the best by the evaluation alone, are searched with the opponent's reply."""


def _piece_value(piece: chess.Piece, checkers: int) -> int:
    value = VALUES[piece.piece_type]
    if checkers > 0:
        return value + BOOST * checkers
    if checkers < 0:  # hobbled: it moves like a pawn at best
        return 40 if piece.piece_type == chess.PAWN else min(value, 140)
    return value


def _material(board: chess.Board, stacks: dict[int, int], colour: chess.Color) -> int:
    return sum(_piece_value(piece, net(stacks, square, colour)) for square, piece in board.piece_map().items()
               if piece.color == colour)


def evaluate(board: chess.Board, stacks: dict[int, int], colour: chess.Color) -> int:
    """The position for ``colour`` in centipawns (no search)."""
    mine, theirs = _material(board, stacks, colour), _material(board, stacks, not colour)
    score = mine - theirs
    king, enemy = board.king(colour), board.king(not colour)
    if king is not None and enemy is not None and theirs < 1300 and mine > theirs + 300:
        # a won ending: the enemy king to the edge, our king closer
        file, rank = chess.square_file(enemy), chess.square_rank(enemy)
        centre = max(3 - file, file - 4) + max(3 - rank, rank - 4)
        score += 12 * centre - 4 * chess.square_distance(king, enemy)
    # pawns a little further up are worth a little more
    for square in board.pieces(chess.PAWN, colour):
        score += 4 * (chess.square_rank(square) if colour == chess.WHITE else 7 - chess.square_rank(square))
    for square in board.pieces(chess.PAWN, not colour):
        score -= 4 * (chess.square_rank(square) if colour == chess.BLACK else 7 - chess.square_rank(square))
    return score


def _turn(board: chess.Board, stacks: dict[int, int], move: chess.Move) -> tuple[chess.Board, dict[int, int],
                                                                                     list[chess.Move]]:
    """The position after ``move`` and the greedy booster steps that follow it (the turn passed to the other
    side), with the steps taken."""
    colour = board.turn
    after, after_stacks = board.copy(stack=False), dict(stacks)
    apply_normal(after, after_stacks, move)
    square = move.to_square
    steps: list[chess.Move] = []
    if net(after_stacks, square, colour) > 0:
        best = evaluate(after, after_stacks, colour)
        while True:
            options = legal_steps(after, after_stacks, square)
            choice = None
            for step in options:
                trial, trial_stacks = after.copy(stack=False), dict(after_stacks)
                apply_step(trial, trial_stacks, step)
                worth = evaluate(trial, trial_stacks, colour)
                if worth > best:
                    best, choice = worth, (step, trial, trial_stacks)
            if choice is None:
                break
            step, after, after_stacks = choice
            steps.append(step)
            square = step.to_square
    after.turn = not colour
    after.ep_square = after.ep_square if not steps else None
    return after, after_stacks, steps


def _order(board: chess.Board, moves: list[chess.Move]) -> list[chess.Move]:
    def worth(move: chess.Move) -> int:
        victim = board.piece_type_at(move.to_square)
        return (VALUES[victim] if victim else 0) + (800 if move.promotion == chess.QUEEN else 0)
    return sorted(moves, key=worth, reverse=True)


def search(board: chess.Board, stacks: dict[int, int], depth: int, alpha: int = -2 * MATE, beta: int = 2 * MATE,
           seen: dict[Any, int] | None = None, deadline: float = math.inf,
           clock: Callable[[], float] = time.perf_counter) -> int:
    """Negamax over whole turns for the side to move (see the module's words); past ``deadline`` (a ``clock``
    reading) the nodes not yet searched are scored by the evaluation alone."""
    if seen and seen.get(position_key(board, stacks), 0) >= 2:
        return 0
    checked = in_danger(board, stacks, board.turn)
    if depth <= 0 and not checked:
        return evaluate(board, stacks, board.turn)  # a leaf: only a side in check is asked whether it is mated
    moves = legal_moves(board, stacks)
    if not moves:
        return -MATE - depth if checked else 0
    if depth <= 0 or (depth > 1 and clock() > deadline):
        return evaluate(board, stacks, board.turn)
    best = -2 * MATE
    for move in _order(board, moves):
        after, after_stacks, _steps = _turn(board, stacks, move)
        score = -search(after, after_stacks, depth - 1, -beta, -alpha, seen, deadline, clock)
        if score > best:
            best = score
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


class BoosterRandomBot(Bot):
    """Any allowed action, uniformly at random."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        options: list[Action] = [action for value in request.choices.values() for action in value]
        return self.rng.choice(options)


class BoosterEngineBot(Bot):
    """Searches whole turns over what its seat knows (see the module's words)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "engine"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.depth = DEPTHS.get(level, 2)
        self.view = BoosterView()
        self.plan: list[str] = []
        self.seen: dict[Any, int] = {}

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view, self.plan, self.seen = BoosterView(), [], {}

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)
        if isinstance(observation, (Dealt, TurnOver)):  # a turn begins: a position to count for repetitions
            key = position_key(self.view.board, self.view.stacks)
            self.seen[key] = self.seen.get(key, 0) + 1

    def act(self, request: ActionRequest) -> Action:
        options: list[Action] = [action for value in request.choices.values() for action in value]
        try:
            action = self._choose(request)
        except Exception:  # noqa: BLE001 - a bot that cannot think still answers within the rules
            action = None
        return action if action is not None and action in options else self.rng.choice(options)

    def _choose(self, request: ActionRequest) -> Action | None:
        view = self.view
        if "moves" in request.choices:
            hurry = request.seconds_left < HURRY
            budget = min(SECONDS.get(self.level, 1.5), request.seconds_left / 20)
            return self._move(view.board, view.stacks, 1 if hurry else self.depth, self.now() + budget)
        if "steps" in request.choices:
            while self.plan:
                step = Step(self.plan.pop(0))
                if step in request.choices["steps"]:
                    return step
            return Done()
        if "cards" in request.choices:
            return self._card(request.choices["cards"])
        return None

    def _move(self, board: chess.Board, stacks: dict[int, int], depth: int, deadline: float) -> Action:
        best_score = -3 * MATE
        best_moves: list[tuple[chess.Move, list[chess.Move]]] = []
        alpha, beta = -2 * MATE, 2 * MATE
        for move in _order(board, legal_moves(board, stacks)):
            if best_moves and self.now() > deadline:
                break  # out of time: the best of the moves searched so far (captures and promotions come first)
            after, after_stacks, steps = _turn(board, stacks, move)
            score = -search(after, after_stacks, depth - 1, -beta, -alpha + 1, self.seen, deadline, self.now)
            if score > best_score:
                best_score, best_moves = score, [(move, steps)]
            elif score == best_score:
                best_moves.append((move, steps))
            alpha = max(alpha, score - 1)
        move, steps = self.rng.choice(best_moves)
        self.plan = [step.uci() for step in steps]
        return BoosterMove(move.uci())

    def _card(self, plays: list[PlayCard]) -> Action:
        view = self.view
        colour = view.board.turn

        def worth(stacks: dict[int, int]) -> int:
            board = view.board.copy(stack=False)
            board.turn, board.ep_square = not colour, None
            return -search(board, stacks, 1, seen=None)

        # Cheap first: each piece a card may go under (another card onto the same piece does the same) scored
        # without search; the few best are then searched with the opponent's reply.
        firsts: dict[str, PlayCard] = {}
        for play in plays:
            firsts.setdefault(play.square, play)
        ranked = []
        for play in firsts.values():
            stacks = dict(view.stacks)
            put_checker(stacks, chess.parse_square(play.square), colour)
            ranked.append((evaluate(view.board, stacks, colour), play, stacks))
        ranked.sort(key=lambda item: -item[0])
        best, choice = worth(dict(view.stacks)), None
        for _static, play, stacks in ranked[:CARD_CANDIDATES]:
            score = worth(stacks)
            if score > best:
                best, choice = score, play
        return choice or Done()
