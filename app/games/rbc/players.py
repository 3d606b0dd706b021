"""Hosting reconchess players in RBC games: RBC's own code, found through its definition's ``foreign_players``.

A bot spec that names no built-in bot (``path/to/bot.py``, ``package.module`` or ``package.module:Class``) is,
in RBC, a reconchess ``Player``: :func:`load_reconchess_player` loads its class like reconchess's
``load_player``, and :class:`ReconchessAgent` hosts it, calling it exactly as reconchess's ``play_turn`` does:
``handle_game_start``, then each turn ``handle_opponent_move_result``, ``choose_sense``,
``handle_sense_result``, ``choose_move``, ``handle_move_result``, and finally ``handle_game_end`` with a
``GameHistory``. :data:`RECONCHESS_PLAYERS` is what the definition points at
(:class:`~app.bots.contract.ForeignPlayers`). ``app.hosting.agents`` re-exports both names under their older home.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import operator
import os
import sys
from typing import Any, Callable

import chess

from app.bots.contract import Agent, BotError, short_repr, error_text
from app.bots.base import ActionRequest
from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord
from app.games.rbc.reconchess_history import record_to_history
from app.games.rbc.rules import MoveAction, MoveResult, Sense, SenseResult, TurnStarted

__all__ = ["RECONCHESS_PLAYERS", "ReconchessAgent", "ReconchessPlayers", "load_reconchess_player"]


class ReconchessAgent(Agent):
    """Hosts a reconchess ``Player`` in a Sightline RBC game."""

    def __init__(self, player: Any, name: str) -> None:
        self.player = player
        self.name = name
        self.color = True  # chess.WHITE
        self._turn_moves: list[chess.Move] | None = None

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self.color = seat == 0
        board = chess.Board(options.get("fen", chess.STARTING_FEN))
        self.player.handle_game_start(self.color, board, opponent_name)

    def observe(self, observation: Any) -> None:
        if isinstance(observation, TurnStarted):
            self._turn_moves = None
            square = observation.capture_square
            self.player.handle_opponent_move_result(square is not None, square)
        elif isinstance(observation, SenseResult):
            # Fresh Piece objects: the engine shares its own, and a player may modify what it is given.
            self.player.handle_sense_result([(square, None if piece is None else chess.Piece(piece.piece_type,
                                                                                             piece.color))
                                             for square, piece in observation.window])
        elif isinstance(observation, MoveResult):
            square = observation.capture_square
            self.player.handle_move_result(observation.requested, observation.taken, square is not None, square)

    def act(self, request: ActionRequest) -> Action:
        seconds = request.seconds_left
        if self._turn_moves is None or request.phase == "sense":
            # reconchess computes the move actions once, at the start of the turn
            self._turn_moves = request.choices["move_actions"].as_list()
        moves = list(self._turn_moves)
        if request.phase == "sense":
            answer = self.player.choose_sense(list(request.choices["sense_actions"]), moves, seconds)
            square = None
            if answer is not None:
                try:
                    square = operator.index(answer)  # numpy integers are squares too, as in reconchess
                except TypeError:
                    square = -1
                if isinstance(answer, bool) or not 0 <= square < 64:
                    raise BotError(f"choose_sense returned {short_repr(answer)}, which is not a square")
            return Sense(square)
        move = self.player.choose_move(moves, seconds)
        if move is not None and not isinstance(move, chess.Move):
            raise BotError(f"choose_move returned {short_repr(move)}, which is not a chess.Move or None")
        return MoveAction(move)

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        # reconchess is imported only with a player, as in load_reconchess_player (never with this module)
        from reconchess import GameHistory, WinReason
        from reconchess.history import GameHistoryDecoder  # (as above)
        winner = None if outcome.winner is None else outcome.winner == 0
        reasons = {"king_capture": WinReason.KING_CAPTURE, "timeout": WinReason.TIMEOUT,
                   "resign": WinReason.RESIGN, "forfeit": WinReason.RESIGN,
                   "move_limit": WinReason.MOVE_LIMIT, "turn_limit": WinReason.TURN_LIMIT}
        reason = reasons.get(outcome.reason.value)
        history: Any
        try:
            history = json.loads(json.dumps(record_to_history(record)), cls=GameHistoryDecoder)
        except Exception:  # a history is a courtesy; never fail the game over it
            history = GameHistory()
        self.player.handle_game_end(winner, reason, history)


def load_reconchess_player(spec: str) -> Callable[[], Any]:
    """Load a reconchess ``Player`` subclass from ``path/to/bot.py``, ``module`` or ``module:Class``.

    Without a class name this follows reconchess's ``load_player``: the module
    must hold exactly one ``Player`` subclass, or a ``get_player()`` function.
    A bot file is loaded under a name of its own, so two files called ``bot.py``
    in different folders are two different bots.
    """
    try:
        # reconchess only when a player is loaded (0.15 s or more): a missing install is a BotError, not a crash
        from reconchess import Player
    except ImportError as error:  # pragma: no cover - reconchess is a dependency
        raise BotError(f"reconchess is not installed: {error}") from error
    target, class_name = spec, ""
    if not os.path.exists(spec) and ":" in spec:
        target, _, class_name = spec.rpartition(":")
    try:
        if os.path.exists(target):
            if os.path.isdir(target):
                raise BotError(f"{target} is a folder, not a bot file")
            path = os.path.abspath(target)
            folder = os.path.dirname(path)
            if folder not in sys.path:
                sys.path.insert(0, folder)  # the bot may import its own helper modules
            name = f"_sightline_bot_{abs(hash(path)):x}_{os.path.splitext(os.path.basename(path))[0]}"
            module_spec = importlib.util.spec_from_file_location(name, path)
            if module_spec is None or module_spec.loader is None:
                raise BotError(f"cannot load {target} as Python")
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
        elif target.endswith(".py") or os.sep in target:
            raise BotError(f"no such bot file: {target}")
        else:
            module = importlib.import_module(target)
    except BotError:
        raise
    except BaseException as error:  # noqa: BLE001 - SystemExit, KeyboardInterrupt... at import lose the bot
        raise BotError(f"cannot import {target!r}: {error_text(error)}") from None
    if class_name:
        cls = getattr(module, class_name, None)
        if not (inspect.isclass(cls) and issubclass(cls, Player)):
            raise BotError(f"{target} has no reconchess Player subclass named {class_name!r}")
        return cls
    players = [obj for _, obj in inspect.getmembers(module, inspect.isclass)
               if issubclass(obj, Player) and obj is not Player]
    if len(players) == 1:
        return players[0]
    get_player = getattr(module, "get_player", None)
    if callable(get_player):
        try:
            chosen = get_player()
        except Exception as error:
            raise BotError(f"get_player() of {target} failed: {error_text(error)}") from None
        if inspect.isclass(chosen) and issubclass(chosen, Player):
            return chosen
        raise BotError(f"get_player() of {target} did not return a reconchess Player subclass")
    if not players:
        raise BotError(f"cannot load a reconchess player from {spec!r}: it has no subclass of Player")
    raise BotError(f"{spec!r} holds several Player subclasses ({', '.join(p.__name__ for p in players)}); "
                       "name one as module:Class, or define get_player()")


class ReconchessPlayers:
    """RBC's :class:`~app.bots.contract.ForeignPlayers`: reconchess players, loaded and hosted as above."""

    def load(self, spec: str) -> Callable[[], Any]:
        """The reconchess ``Player`` class ``spec`` names (raises ``BotError``); creates nothing."""
        return load_reconchess_player(spec)

    def host(self, player: Any, name: str) -> Agent:
        """An agent that plays a seat with ``player`` (a reconchess ``Player`` instance)."""
        return ReconchessAgent(player, name)


RECONCHESS_PLAYERS = ReconchessPlayers()
"""What RBC's definition names as its ``foreign_players``."""
