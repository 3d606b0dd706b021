"""Seats played by programs: built-in bots and hosted reconchess players.

An :class:`Agent` is what the game runner talks to. :class:`BotAgent` wraps a
built-in :class:`~app.bots.base.Bot`; :class:`ReconchessAgent` hosts any
reconchess ``Player`` and calls it exactly as reconchess's ``play_turn`` does:
``handle_game_start``, then each turn ``handle_opponent_move_result``,
``choose_sense``, ``handle_sense_result``, ``choose_move``,
``handle_move_result``, and finally ``handle_game_end`` with a ``GameHistory``.

Bot specs (``--white``/``--black`` and the new-game dialog):

- ``belief``, ``random``, ``attacker`` ... or ``sightline:random``: a built-in bot of the game
  (``app.bots.registry``; the names of each game are listed in ``docs/bots.md``);
  ``sightline:NAME:LEVEL`` picks a level (easy, medium or hard; medium by default);
- ``path/to/bot.py``, ``package.module`` or ``package.module:Class``: a reconchess
  player, loaded like reconchess's ``load_player`` (RBC only).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import operator
import os
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord

from .base import ActionRequest, Bot

if TYPE_CHECKING:
    import chess


class BotError(Exception):
    """A bot could not be loaded, raised an exception, or answered something that is not an action."""


class AgentFailed(BotError):
    """An agent's bot failed in its own process; the text is a phrase that follows the bot's name
    (``"raised RuntimeError: boom at bot.py:12"``, ``"crashed its worker process (exit code 3)"``)."""


class AgentTimeout(Exception):
    """An agent that bounds its own calls (:attr:`Agent.isolated`) did not answer within its time limit."""


class HostFailure(Exception):
    """Sightline could not run an agent's bot (the system refused a process, a helper process vanished)
    and no bot can fairly be blamed: the game is aborted."""


def error_text(error: BaseException) -> str:
    """``Type: message`` for any exception, even one whose ``__str__`` raises or returns a non-string."""
    name = type(error).__name__
    try:
        message = str(error)
    except BaseException:  # noqa: BLE001 - a bot's exception may fail to print; say so instead
        return f"{name} (its message cannot be printed)"
    return f"{name}: {message}" if message else name


class Agent(ABC):
    """One seat played by a program."""

    name: str = "bot"
    observes: bool = True
    """False when the agent ignores observations: the runner then skips handing them over."""
    isolated: bool = False
    """True when the agent's bot runs in another process and the agent bounds each call itself: the runner
    sets :attr:`time_limit` before every call and calls it directly; a call that runs out of time raises
    :class:`AgentTimeout`, a failure of the bot :class:`AgentFailed`."""
    time_limit: float | None = None
    """Seconds the next call may take (set by the runner for isolated agents; None: no limit)."""

    @abstractmethod
    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None: ...

    @abstractmethod
    def observe(self, observation: Any) -> None: ...

    @abstractmethod
    def act(self, request: ActionRequest) -> Action: ...

    @abstractmethod
    def end(self, outcome: Outcome, record: GameRecord) -> None: ...


class BotAgent(Agent):
    def __init__(self, bot: Bot, name: str) -> None:
        self.bot = bot
        self.name = name
        self.observes = type(bot).observe is not Bot.observe

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self.bot.start(seat, options)

    def observe(self, observation: Any) -> None:
        self.bot.observe(observation)

    def act(self, request: ActionRequest) -> Action:
        return self.bot.act(request)

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        self.bot.end(outcome)


class ReconchessAgent(Agent):
    """Hosts a reconchess ``Player`` in a Sightline RBC game."""

    def __init__(self, player: Any, name: str) -> None:
        self.player = player
        self.name = name
        self.color = True  # chess.WHITE
        self._turn_moves: list[chess.Move] | None = None

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        import chess  # here, not at the top: the window imports this module before python-chess is needed
        self.color = seat == 0
        board = chess.Board(options.get("fen", chess.STARTING_FEN))
        self.player.handle_game_start(self.color, board, opponent_name)

    def observe(self, observation: Any) -> None:
        import chess
        from app.engine.rbc import MoveResult, SenseResult, TurnStarted
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
        from chess import Move
        from app.engine.rbc import MoveAction, Sense
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
                    raise BotError(f"choose_sense returned {_short_repr(answer)}, which is not a square")
            return Sense(square)
        move = self.player.choose_move(moves, seconds)
        if move is not None and not isinstance(move, Move):
            raise BotError(f"choose_move returned {_short_repr(move)}, which is not a chess.Move or None")
        return MoveAction(move)

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        from reconchess import GameHistory, WinReason
        from reconchess.history import GameHistoryDecoder
        import json
        winner = None if outcome.winner is None else outcome.winner == 0
        reasons = {"king_capture": WinReason.KING_CAPTURE, "timeout": WinReason.TIMEOUT,
                   "resign": WinReason.RESIGN, "forfeit": WinReason.RESIGN,
                   "move_limit": WinReason.MOVE_LIMIT, "turn_limit": WinReason.TURN_LIMIT}
        reason = reasons.get(outcome.reason.value)
        history: Any
        try:
            from app.interop.reconchess_history import record_to_history
            history = json.loads(json.dumps(record_to_history(record)), cls=GameHistoryDecoder)
        except Exception:  # a history is a courtesy; never fail the game over it
            history = GameHistory()
        self.player.handle_game_end(winner, reason, history)


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot name; :meth:`create` makes a fresh agent for one game."""

    text: str
    variant: str

    @property
    def builtin(self) -> tuple[str, str] | None:
        """(name, level) for a built-in bot, else None."""
        from .registry import builtin_bots
        text = self.text
        if text.startswith("sightline:"):
            parts = text.split(":")[1:]
            name, level = parts[0], (parts[1] if len(parts) > 1 else "medium")
            return name, level
        if not text.isidentifier():
            return None  # a path, a dotted module or module:Class; asking the registry would import every bot
        if text in builtin_bots(self.variant):
            return text, "medium"
        return None

    @property
    def outside(self) -> bool:
        """True for a reconchess player from a file or module (not Sightline's own code): a match runs it
        in a process of its own."""
        return self.builtin is None

    @property
    def display_name(self) -> str:
        builtin = self.builtin
        if builtin:
            return builtin[0] if builtin[1] == "medium" else f"{builtin[0]}:{builtin[1]}"
        return self.text

    def bot_class(self) -> tuple[Callable[..., Any], str | None]:
        """The class this spec names and, for a built-in bot, its level (raises BotError). Creates nothing."""
        from .registry import builtin_bots
        builtin = self.builtin
        if builtin is not None:
            name, level = builtin
            bots = builtin_bots(self.variant)
            if name not in bots:
                raise BotError(self._not_builtin(name, bots))
            if level not in ("easy", "medium", "hard"):
                raise BotError(f"unknown level {level!r} (easy, medium or hard)")
            return bots[name], level
        if self.variant != "rbc" or (not os.path.exists(self.text) and self._elsewhere(self.text)):
            raise BotError(self._not_builtin(self.text, builtin_bots(self.variant)))
        return load_reconchess_player(self.text), None

    def _elsewhere(self, name: str) -> list[str]:
        """The other games that have a built-in bot called ``name``."""
        from app.engine.variants import TITLES
        from .registry import builtin_bots
        if not name.isidentifier():
            return []
        return [variant for variant in TITLES if variant != self.variant and name in builtin_bots(variant)]

    def _not_builtin(self, name: str, bots: dict[str, Any]) -> str:
        from app.engine.variants import TITLES
        title = TITLES.get(self.variant, self.variant)
        choices = f"{title} bots: {', '.join(bots)}" if bots else f"{title} has no built-in bots"
        others = self._elsewhere(name)
        if others:
            games = " and ".join(TITLES.get(variant, variant) for variant in others)
            return f"{name!r} is not a built-in {self.variant} bot: it is a {games} bot ({choices})"
        if self.variant != "rbc":
            return f"{name!r} is not a built-in {self.variant} bot ({choices})"
        return f"no built-in {self.variant} bot {name!r} ({choices})"

    def check(self) -> None:
        """Report a bad spec before a match starts (raises BotError). Loads the bot's class, creates nothing:
        a player that starts an engine in its constructor must not leave one running here."""
        self.bot_class()

    def create(self, seed: int | None) -> Agent:
        cls, level = self.bot_class()
        if level is not None:
            return BotAgent(cls(seed=seed, level=level), self.display_name)
        try:
            player = cls()
        except Exception as error:
            raise BotError(f"{cls.__name__}() failed: {error_text(error)}") from error
        return ReconchessAgent(player, cls.__name__)


def _short_repr(value: Any) -> str:
    """``repr(value)`` cut to 80 characters, or the type's name when the repr itself fails."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a bot's object may fail to print
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def load_reconchess_player(spec: str) -> Callable[[], Any]:
    """Load a reconchess ``Player`` subclass from ``path/to/bot.py``, ``module`` or ``module:Class``.

    Without a class name this follows reconchess's ``load_player``: the module
    must hold exactly one ``Player`` subclass, or a ``get_player()`` function.
    A bot file is loaded under a name of its own, so two files called ``bot.py``
    in different folders are two different bots.
    """
    try:
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
