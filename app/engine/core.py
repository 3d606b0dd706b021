"""The game model shared by every Sightline game.

A :class:`Game` is a referee: it holds the true state, accepts typed actions from
seats, checks each one (an invalid action raises :class:`IllegalAction` and
changes nothing), applies it and hands every seat the observations the rules
allow it. A seat's *view* is computed from that seat's observations alone.

The model is deliberately general: 1 to 4 seats (solitaires have one), several
phases inside a turn (``"sense"``, ``"move"``, ``"predict"`` ...), hidden hands and
scores. Games that end without a single winner report scores in :class:`Outcome`.

>>> from app.engine.rbc import ReconChess, Sense
>>> game = ReconChess()
>>> game.to_move, game.phase
(0, 'sense')
>>> game.play(0, Sense.parse("e7"))
>>> game.phase
'move'
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

Seat = int
"""A seat is an index into :attr:`Game.seat_names` (0 is White in two-player chess games)."""


class IllegalAction(ValueError):
    """Raised when a seat submits an action the rules do not allow now.

    The game is left exactly as it was before the call.
    """


class GameOver(IllegalAction):
    """Raised when an action is submitted after the game has ended."""


class Reason(str, enum.Enum):
    """Why a game ended. The values are stable: they are written into records."""

    KING_CAPTURE = "king_capture"
    TIMEOUT = "timeout"
    RESIGN = "resign"
    FORFEIT = "forfeit"  # a bot raised, answered illegally or could not be run
    MOVE_LIMIT = "move_limit"  # RBC's 50-move rule, MinitChess's 40-move limit
    TURN_LIMIT = "turn_limit"
    DRAW_AGREED = "draw_agreed"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    NO_MOVES = "no_moves"
    MATERIAL = "material"  # Blind Chess: the clock ran out, material decided
    SCORE = "score"  # solitaires and cooperative games
    ABORTED = "aborted"


_DRAWN_ENDINGS = frozenset({Reason.ABORTED, Reason.DRAW_AGREED, Reason.MOVE_LIMIT, Reason.TURN_LIMIT,
                            Reason.INSUFFICIENT_MATERIAL})
"""Adjudicated for any seat, these end the game without a winner."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``winner`` is ``None`` for a draw (or for games with scores instead of a
    winner); ``loser`` names the seat that lost by adjudication (time, forfeit,
    resignation) when there is one; ``detail`` is a human-readable explanation.
    """

    winner: Seat | None
    reason: Reason
    detail: str = ""
    scores: tuple[float, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason.value}
        if self.detail:
            data["detail"] = self.detail
        if self.scores is not None:
            data["scores"] = list(self.scores)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Outcome":
        scores = data.get("scores")
        return cls(
            winner=data.get("winner"),
            reason=Reason(data["reason"]),
            detail=str(data.get("detail", "")),
            scores=tuple(scores) if scores is not None else None,
        )


class Action(ABC):
    """Base of every action a seat can take. Subclasses are small immutable records.

    ``kind`` names the action in records; :meth:`to_json` / :meth:`from_json`
    convert it to and from plain JSON data.
    """

    kind: ClassVar[str]

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that includes ``"type": kind``."""


@dataclass(frozen=True)
class Resign(Action):
    """Give up the game. Any seat may resign at any time while the game runs."""

    kind: ClassVar[str] = "resign"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class Adjudication:
    """An ending imposed from outside the rules of play: a flag fall, a crashed bot, an abort.

    These are recorded like actions so that a record replays to the same result.
    """

    seat: Seat
    reason: Reason
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "adjudication", "seat": self.seat, "reason": self.reason.value}
        if self.detail:
            data["detail"] = self.detail
        return data


ObsT = TypeVar("ObsT")


@dataclass
class SeatLog(Generic[ObsT]):
    """Everything one seat has been told, in order."""

    seat: Seat
    observations: list[ObsT] = field(default_factory=list)


ViewT = TypeVar("ViewT", bound="View")


class View:
    """Base of the seat views: what one seat knows, built only from its own observations."""

    @classmethod
    def from_observations(cls: type[ViewT], observations: Sequence[Any]) -> ViewT:
        """A fresh view that has been told ``observations`` in order."""
        view = cls()
        for observation in observations:
            view.apply(observation)
        return view

    def apply(self, observation: Any) -> None:
        """Update the view with one observation of this seat."""
        raise NotImplementedError


class Game(ABC):
    """A referee for one game.

    Subclasses define :attr:`variant`, :attr:`seat_names`, their action types
    and observation types, and implement :meth:`_apply`. The public API is the
    same for every game:

    - :attr:`to_move` and :attr:`phase` say who must act now and in which phase;
    - :meth:`play` validates and applies an action;
    - :meth:`observations` lists what a seat has been told;
    - :meth:`adjudicate` ends a game from outside (time, crashed bot);
    - :attr:`outcome` is set once the game is over.
    """

    variant: ClassVar[str]
    seat_names: ClassVar[tuple[str, ...]]
    view_type: ClassVar[type[View]]
    """The class of a seat's view (each game sets it once its view class is defined)."""
    hidden_information: ClassVar[bool] = False
    """Whether a seat may not see the whole game (then, while it goes on, a seat reviews only its own view)."""

    def __init__(self) -> None:
        self.outcome: Outcome | None = None
        self._logs: list[list[Any]] = [[] for _ in self.seat_names]

    def truth(self) -> Any:
        """The true state of the game now, as a copy later play leaves alone (a replay keeps one per step);
        ``None`` for a game that has nothing to show."""
        return None

    # -- who acts -------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Seat | None:
        """The seat that must act now, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The name of the current phase of the turn (e.g. ``"sense"``, ``"move"``, ``"over"``)."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """Turns completed so far. Clocks give the increment when this grows (a turn ended)."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @abstractmethod
    def choices(self) -> dict[str, Any]:
        """What the seat to move may do now, computed only from what that seat knows.

        RBC: ``{"sense_actions": [...], "move_actions": MoveActions}``; other
        games name their own keys. Empty when the game is over.
        """

    # -- acting -----------------------------------------------------------------------------
    def play(self, seat: Seat, action: Action) -> None:
        """Validate and apply ``action`` for ``seat``.

        Raises :class:`IllegalAction` (and changes nothing) when the action is
        not allowed now.
        """
        if self.outcome is not None:
            raise GameOver("the game is over")
        if seat != self.to_move:
            if not isinstance(seat, int) or not 0 <= seat < len(self.seat_names):
                raise IllegalAction(f"there is no seat {seat!r}")
            if not isinstance(action, Resign):
                raise IllegalAction(f"it is not {self.seat_names[seat]}'s turn")
        if isinstance(action, Resign):
            self._finish(Outcome(self._other_winner(seat), Reason.RESIGN,
                                 f"{self.seat_names[seat]} resigned"))
            return
        self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> None:
        """Validate and apply an action of the seat to move (game not over)."""

    def adjudicate(self, adjudication: Adjudication) -> None:
        """End the game against ``adjudication.seat`` (time forfeit, bot failure...).

        Subclasses override :meth:`_adjudicated_outcome` where a flag fall does
        not simply lose (Blind Chess decides on material).
        """
        if self.outcome is not None:
            raise GameOver("the game is over")
        self._finish(self._adjudicated_outcome(adjudication))

    def _adjudicated_outcome(self, adjudication: Adjudication) -> Outcome:
        name = self.seat_names[adjudication.seat]
        detail = adjudication.detail or {
            Reason.TIMEOUT: f"{name} ran out of time",
            Reason.FORFEIT: f"{name} forfeited",
        }.get(adjudication.reason, f"{name} lost ({adjudication.reason.value})")
        if adjudication.reason in _DRAWN_ENDINGS:
            detail = adjudication.detail or {Reason.ABORTED: "the game was aborted",
                                             Reason.DRAW_AGREED: "drawn by agreement"}.get(
                adjudication.reason, f"drawn ({adjudication.reason.value})")
            return Outcome(None, adjudication.reason, detail)
        return Outcome(self._other_winner(adjudication.seat), adjudication.reason, detail)

    def _other_winner(self, loser: Seat) -> Seat | None:
        if len(self.seat_names) == 2:
            return 1 - loser
        return None

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._tell_all(self._game_over_observation(outcome))

    @abstractmethod
    def _game_over_observation(self, outcome: Outcome) -> Any:
        """The observation every seat receives when the game ends."""

    # -- what seats are told -------------------------------------------------------------
    def observations(self, seat: Seat) -> Sequence[Any]:
        """Everything ``seat`` has been told so far, oldest first (read-only by convention)."""
        return self._logs[seat]

    def _tell(self, seat: Seat, observation: Any) -> None:
        self._logs[seat].append(observation)

    def _tell_all(self, observation: Any) -> None:
        for log in self._logs:
            log.append(observation)

    # -- options ------------------------------------------------------------------------------
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The game's options as JSON data (written into records)."""

    @classmethod
    @abstractmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Game":
        """Create a new game from :meth:`options` data; raises ``ValueError`` for bad options."""

    @classmethod
    @abstractmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        """Parse one action of this game from record data; raises ``ValueError``."""
