"""What a host asks of whatever plays a seat: the :class:`Agent` interface, the errors a seat's program may
cause, and :class:`BotAgent`, a built-in :class:`~app.bots.base.Bot` as an agent.

Games that host players written for another program implement :class:`ForeignPlayers` and their own agent
(RBC: :class:`~app.games.rbc.players.ReconchessAgent`); the hosting floor (:mod:`app.hosting`) runs agents
without knowing which kind it holds.

>>> error_text(ValueError("no such square"))
'ValueError: no such square'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Protocol

from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord

from .base import ActionRequest, Bot

__all__ = ["Agent", "AgentFailed", "AgentTimeout", "BotAgent", "BotError", "ForeignPlayers", "HostFailure",
           "error_text", "short_repr"]


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


def short_repr(value: Any) -> str:
    """``repr(value)`` cut to 80 characters, or the type's name when the repr itself fails."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a bot's object may fail to print
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."
