"""The interface of Sightline's built-in bots (any game).

A bot sits in one seat. The host tells it the game's start, hands it every
observation of its seat (and nothing else), and asks it for an action with an
:class:`ActionRequest`. Bots never see the referee.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, NamedTuple

from app.engine.core import Action, Outcome, Seat


class ActionRequest(NamedTuple):
    """What the host asks of a bot: the phase, the seat's choices (``Game.choices()``), its clock.

    ``choices`` must be treated as read-only.
    """

    seat: Seat
    phase: str
    choices: dict[str, Any] = {}
    seconds_left: float = float("inf")


class Bot(ABC):
    """Base class of built-in bots.

    ``seed`` makes a bot's random choices repeatable; ``level`` is
    ``"easy"``, ``"medium"`` or ``"hard"`` where a bot has levels.
    """

    variant: ClassVar[str]
    name: ClassVar[str]

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        self.rng = random.Random(seed)
        self.level = level
        self.seat: Seat = 0
        self.now: Callable[[], float] = time.perf_counter
        """The clock bots that manage their time read (tests put a fake clock here)."""

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        """Called once before the first observation."""
        self.seat = seat

    def observe(self, observation: Any) -> None:
        """Called with each observation of this bot's seat, in order."""

    @abstractmethod
    def act(self, request: ActionRequest) -> Action:
        """Choose an action for ``request``. Must answer within ``request.seconds_left``."""

    def end(self, outcome: Outcome) -> None:
        """Called once when the game is over."""
