"""Seats played by programs: built-in bots and players written for other programs.

An :class:`Agent` is what the game runner talks to. :class:`BotAgent` wraps a
built-in :class:`~app.bots.base.Bot`; a game whose definition names
``foreign_players`` (a :class:`ForeignPlayers`) also hosts players written for
another program: RBC hosts reconchess players
(:class:`~app.games.rbc.players.ReconchessAgent`, re-exported here under its
older home, as is ``load_reconchess_player``).

Bot specs (``--white``/``--black`` and the new-game dialog):

- ``belief``, ``random``, ``attacker`` ... or ``sightline:random``: a built-in bot of the game
  (``app.bots.registry``; the names of each game are listed in ``docs/bots.md``);
  ``sightline:NAME:LEVEL`` picks a level (easy, medium or hard; medium by default);
- ``path/to/bot.py``, ``package.module`` or ``package.module:Class``: a player of
  the game's ``foreign_players`` (RBC: a reconchess player, loaded like
  reconchess's ``load_player``); games without them have only built-in bots.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord

from .base import ActionRequest, Bot

if TYPE_CHECKING:
    from app.games.rbc.players import ReconchessAgent as ReconchessAgent
    from app.games.rbc.players import load_reconchess_player as load_reconchess_player


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


class ForeignPlayers(Protocol):
    """How a game hosts players written for another program (a definition's ``foreign_players`` resolves to
    one): a bot spec that names no built-in bot is handed to :meth:`load`, and a player made from the class it
    returns is played through :meth:`host`."""

    def load(self, spec: str) -> Callable[[], Any]:
        """The player class ``spec`` (a file, module or module:Class) names; raises BotError. Creates nothing."""
        ...

    def host(self, player: Any, name: str) -> Agent:
        """An agent playing a seat with ``player``, an instance of a class :meth:`load` returned."""
        ...


_MOVED = {"ReconchessAgent": "app.games.rbc.players", "load_reconchess_player": "app.games.rbc.players"}
"""Names that moved into a game's package, still importable from here for the tests written against this home
(imported on first use: the game's module imports this one)."""


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import importlib
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        foreign = self._foreign()
        if foreign is None or (not os.path.exists(self.text) and self._elsewhere(self.text)):
            raise BotError(self._not_builtin(self.text, builtin_bots(self.variant)))
        return foreign.load(self.text), None

    def _foreign(self) -> ForeignPlayers | None:
        """The game's hosts for players written for another program (None: it has only built-in bots)."""
        from app import games  # here: the window imports this module early, and needs the registry only now
        try:
            found = games.get(self.variant).foreign_players
        except KeyError:
            return None
        return None if found is None else found()

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
        if self._foreign() is None:
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
        foreign = self._foreign()
        assert foreign is not None  # bot_class gave no level only to a spec the game's foreign players loaded
        return foreign.host(player, cls.__name__)


def _short_repr(value: Any) -> str:
    """``repr(value)`` cut to 80 characters, or the type's name when the repr itself fails."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a bot's object may fail to print
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."
