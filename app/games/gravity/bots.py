"""Gravity Chess bots: ``engine`` and ``random``.

The engine knows only what its seat was told (its :class:`GravityView`): the board, the card turned this turn and
how many cards are left in each deck, never their order. It plans its whole turn at every pick: a beam search over
the orders and moves of its pieces still to pick (the ``level`` sets the beam's width), each finished plan scored
by :func:`evaluate`, and plays the first step of the best plan (it plans again at the next pick, so it can follow
what it planned). The placement of the turned enemy piece is scored the same way.

:func:`evaluate` counts, for the engine's side minus the opponent's: the points scored so far (captures, stacked
pieces' ranks); for each piece not yet stacked, the rank it would stack on if it fell straight down, halved (a
hope, not a point); and a loss for each of its pieces the opponent, who moves next, could then capture (the point
it would give away plus that piece's hope). The pieces still to come from the decks count the same for any
choice of this turn, whatever the order of the decks, so they are left out: an unknown card never changes a
decision, and the bot never needs to guess it.

>>> from app.games.gravity.rules import GravityChess
>>> from app.bots.base import ActionRequest
>>> game = GravityChess.arranged("8/8/8/3P4/3B4/1P6/1n6/8", 0, decks=(["10S"], ["2H"]))
>>> bot = GravityEngineBot(seed=1)
>>> bot.start(0, {})
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, game.phase, game.choices())).kind  # it moves the bishop first, freeing the pawn
'move'
"""

from __future__ import annotations

from typing import Any, ClassVar

import chess

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.gravity import DEFINITION
from app.games.gravity.rules import (GravityMove, GravityPass, GravityPlace, GravityView, moves_from, stacked_squares)

__all__ = ["GravityEngineBot", "GravityRandomBot", "evaluate", "plan_turn"]

BEAMS = {"easy": 1, "medium": 4, "hard": 8}
"""How many partial plans of a turn the engine keeps at each pick."""
REPLIES = {"easy": 0, "medium": 4, "hard": 10}
"""How many of its best finished plans the engine checks against the opponent's greedy answer (0: none)."""
HOPE = 0.5
"""What an unstacked piece's straight-down stacking rank is worth beside a real point."""
RISK = 0.9
"""How much of a piece open to capture the engine counts as lost (the opponent may have better to do)."""


class _Plan:
    """A turn being planned: the board, the pieces not moved since placed, the captures and the pieces of the
    mover still to pick; ``first`` is the plan's first action."""

    __slots__ = ("board", "fresh", "captures", "pending", "first")

    def __init__(self, board: chess.Board, fresh: set[chess.Square], captures: list[int],
                 pending: list[chess.Square], first: Action | None) -> None:
        self.board, self.fresh, self.captures, self.pending, self.first = board, fresh, captures, pending, first

    def after(self, frm: chess.Square, to: chess.Square | None, mover: int, first: Action) -> _Plan:
        board = self.board.copy(stack=False)
        fresh, captures = set(self.fresh), list(self.captures)
        pending = [s for s in self.pending if s != frm]
        if to is not None:
            piece = board.remove_piece_at(frm)
            if board.piece_at(to) is not None:
                captures[mover] += 1
            board.set_piece_at(to, piece)
            fresh.discard(frm)
            fresh.discard(to)
            stacked = stacked_squares(board)
            pending = [s for s in pending if s not in stacked]
        return _Plan(board, fresh, captures, pending, self.first or first)


def _hope(board: chess.Board, square: chess.Square, stacked: frozenset[chess.Square]) -> float:
    """The rank a piece would stack on falling straight down its file onto the stacked pieces there."""
    file = chess.square_file(square)
    height = 0
    while height < chess.square_rank(square) and chess.square(file, height) in stacked:
        height += 1
    return float(height + 1)


def evaluate(board: chess.Board, captures: tuple[int, int] | list[int], fresh: set[chess.Square], me: int,
             opponent_moves_next: bool = True) -> float:
    """How good the position is for ``me`` (0 White, 1 Black): points, hopes of unstacked pieces, and pieces the
    opponent could capture on its turn (see the module's notes).

    >>> board = chess.Board("8/8/8/8/8/8/8/R6r w - - 0 1")
    >>> evaluate(board, (2, 0), set(), 0)
    2.0
    """
    stacked = stacked_squares(board)
    colours = (chess.WHITE, chess.BLACK)
    total = float(captures[me] - captures[1 - me])
    mine, theirs = colours[me], colours[1 - me]
    for square, piece in board.piece_map().items():
        sign = 1.0 if piece.color == mine else -1.0
        if square in stacked:
            total += sign * (chess.square_rank(square) + 1)
        else:
            total += sign * HOPE * _hope(board, square, stacked)
    mover, victim, sign = (theirs, mine, -1.0) if opponent_moves_next else (mine, theirs, 1.0)
    attackers = [s for s in chess.SquareSet(board.occupied_co[mover]) if s not in stacked]
    threatened: set[chess.Square] = set()
    for targets in moves_from(board, attackers, fresh, stacked).values():
        threatened.update(t for t in targets if board.color_at(t) == victim)
    for square in threatened:
        total += sign * RISK * (1.0 + HOPE * _hope(board, square, stacked))
    return total


def plan_turn(view: GravityView, me: int, beam: int, replies: int = 0) -> Action | None:
    """The first action of the best plan for the rest of the turn (None when there is nothing to plan); with
    ``replies``, the best plans are scored again after the opponent's greedy answer to each."""
    assert view.board is not None and view.pending is not None and view.fresh is not None
    assert view.captures is not None
    start = _Plan(view.board.copy(stack=False), set(view.fresh), list(view.captures), list(view.pending), None)
    finished = _search(start, me, beam)
    if not finished:
        return None
    finished.sort(key=lambda item: (-item[0], item[1]))
    if replies:
        rescored = []
        colour = chess.WHITE if me == 1 else chess.BLACK
        for _score, key, plan in finished[:replies]:
            stacked = stacked_squares(plan.board)
            theirs = [s for s in chess.SquareSet(plan.board.occupied_co[colour]) if s not in stacked]
            answer = _Plan(plan.board, plan.fresh, plan.captures, theirs, None)
            after = _search(answer, 1 - me, 1)
            if after:
                reply = max(after, key=lambda item: (item[0], item[1]))[2]
                worth = evaluate(reply.board, reply.captures, reply.fresh, me, opponent_moves_next=False)
            else:
                worth = evaluate(plan.board, plan.captures, plan.fresh, me, opponent_moves_next=False)
            rescored.append((worth, key, plan))
        finished = rescored
    best = max(finished, key=lambda item: (item[0], item[1]))
    return best[2].first


def _search(start: _Plan, me: int, beam: int) -> list[tuple[float, str, _Plan]]:
    """The finished plans of a beam search over the rest of ``me``'s turn from ``start``, each with its score."""
    plans = [start]
    finished: list[tuple[float, str, _Plan]] = []
    while plans:
        children: list[tuple[float, str, _Plan]] = []
        for plan in plans:
            if not plan.pending:
                finished.append((evaluate(plan.board, plan.captures, plan.fresh, me), _key(plan), plan))
                continue
            moves = moves_from(plan.board, plan.pending, plan.fresh)
            if not any(moves.values()):
                finished.append((evaluate(plan.board, plan.captures, plan.fresh, me), _key(plan), plan))
                continue
            for frm, targets in moves.items():
                if targets:
                    for to in targets:
                        child = plan.after(frm, to, me, GravityMove(chess.square_name(frm) + chess.square_name(to)))
                        children.append((evaluate(child.board, child.captures, child.fresh, me), _key(child), child))
                else:
                    child = plan.after(frm, None, me, GravityPass(chess.square_name(frm)))
                    children.append((evaluate(child.board, child.captures, child.fresh, me) - 0.001, _key(child),
                                     child))
        children.sort(key=lambda item: (-item[0], item[1]))
        plans = [plan for _score, _k, plan in children[:beam]]
    return finished


def _key(plan: _Plan) -> str:
    return repr(plan.first)


def best_place(view: GravityView, me: int, squares: list[str]) -> str:
    """The square of rank 8 where the turned enemy piece does the engine least harm (it moves next, for the
    opponent: its threats count as the opponent's)."""
    assert view.board is not None and view.flipped and view.captures is not None and view.fresh is not None
    from app.games.kit_cards import card_piece
    piece = card_piece(view.flipped)
    assert piece is not None

    def worth(name: str) -> float:
        board = view.board.copy(stack=False)  # type: ignore[union-attr]
        square = chess.parse_square(name)
        board.set_piece_at(square, piece)
        return evaluate(board, view.captures, view.fresh | {square}, me)  # type: ignore[arg-type, operator]

    return max(squares, key=lambda name: (worth(name), name))


class GravityRandomBot(Bot):
    """Any allowed choice, uniformly at random."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        options: list[Action] = [action for actions in request.choices.values() for action in actions]
        choice: Action = self.rng.choice(options)
        return choice


class GravityEngineBot(Bot):
    """Plans each turn over the visible board (see the module's notes)."""

    variant: ClassVar[str] = DEFINITION.key
    name: ClassVar[str] = "engine"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = GravityView()
        self.beam = BEAMS.get(level, BEAMS["medium"])
        self.replies = REPLIES.get(level, REPLIES["medium"])

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = GravityView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        options = [action for actions in request.choices.values() for action in actions]
        try:
            action = self._choose(request)
        except Exception:  # noqa: BLE001 - a bot that cannot think still answers within the rules
            action = None
        return action if action is not None and action in options else self.rng.choice(options)

    def _choose(self, request: ActionRequest) -> Action | None:
        me = request.seat
        if "squares" in request.choices:
            return GravityPlace(best_place(self.view, me, [a.square for a in request.choices["squares"]]))
        return plan_turn(self.view, me, self.beam, self.replies)
