"""The game model shared by every Sightline game.

A :class:`Game` is a referee: it holds the true state, accepts typed actions from
seats, checks each one (an invalid action raises :class:`IllegalAction` and
changes nothing), applies it and hands every seat the observations the rules
allow it. A seat's *view* is computed from that seat's observations alone.

The model is deliberately general: 1 to 4 seats (solitaires have one), several
phases inside a turn (``"sense"``, ``"move"``, ``"predict"`` ...), hidden hands and
scores. Games that end without a single winner report scores in :class:`Outcome`.

>>> from app.games.rbc.rules import ReconChess, Sense
>>> game = ReconChess()
>>> game.to_move, game.phase
(0, 'sense')
>>> game.play(0, Sense.parse("e7"))
>>> game.phase
'move'
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence, TypeVar

from . import codec

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

    ``team`` is the team that won (teams are numbered as :meth:`Game.teams` numbers them), ``None`` when no
    team won. ``winner`` is the seat that won when the winning team is that one seat (always so in two-seat
    games, where ``winner`` is all a host needs), else ``None``: a draw, a win of a team of several seats, a
    lost solitaire. ``scores`` holds one number per seat when a game ranks its seats instead (or as well);
    ``score`` is the one score every seat shares, in cooperative games and solitaires. ``detail`` is a
    human-readable explanation.

    A referee may name only the winning seat or only the winning team: :meth:`Game._finish` fills in the
    other with :meth:`settled`, so a finished game's outcome always has both.
    """

    winner: Seat | None
    reason: Reason
    detail: str = ""
    scores: tuple[float, ...] | None = None
    team: int | None = None
    score: float | None = None

    def __repr__(self) -> str:
        # The fields added for team games are shown only when set, so that two-seat outcomes read as they did.
        shown = f"winner={self.winner!r}, reason={self.reason!r}, detail={self.detail!r}, scores={self.scores!r}"
        if self.team is not None:
            shown += f", team={self.team!r}"
        if self.score is not None:
            shown += f", score={self.score!r}"
        return f"Outcome({shown})"

    def settled(self, teams: Sequence[int]) -> "Outcome":
        """This outcome with ``team`` and ``winner`` filled in from each other, for seats on ``teams``.

        Raises ``ValueError`` when they disagree or name no seat or team of the game.

        >>> Outcome(1, Reason.RESIGN).settled((0, 1)).team
        1
        >>> Outcome(None, Reason.RESIGN, team=1).settled((0, 1, 0, 1)).winner is None  # two seats won
        True
        >>> Outcome(None, Reason.RESIGN, team=1).settled((0, 1)).winner
        1
        """
        team, winner = self.team, self.winner
        if winner is not None:
            if not 0 <= winner < len(teams):
                raise ValueError(f"there is no seat {winner!r} to win")
            if team is not None and team != teams[winner]:
                raise ValueError(f"seat {winner} wins, yet the winning team is {team}, not its team {teams[winner]}")
            team = teams[winner]
        elif team is not None:
            members = [seat for seat, seat_team in enumerate(teams) if seat_team == team]
            if not members:
                raise ValueError(f"there is no team {team!r} to win")
            if len(members) == 1:
                winner = members[0]
        if (team, winner) == (self.team, self.winner):
            return self
        return dataclasses.replace(self, team=team, winner=winner)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason.value}
        if self.detail:
            data["detail"] = self.detail
        if self.scores is not None:
            data["scores"] = list(self.scores)
        # A winning seat names its team: "team" is written only when no single seat won (a team of several),
        # which keeps the records of two-seat games exactly as they were.
        if self.team is not None and self.winner is None:
            data["team"] = self.team
        if self.score is not None:
            data["score"] = self.score
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], teams: Sequence[int] | None = None) -> "Outcome":
        """Read :meth:`to_json` data; with the game's ``teams``, the result is :meth:`settled` on them."""
        scores = data.get("scores")
        outcome = cls(
            winner=data.get("winner"),
            reason=Reason(data["reason"]),
            detail=str(data.get("detail", "")),
            scores=tuple(scores) if scores is not None else None,
            team=data.get("team"),
            score=data.get("score"),
        )
        return outcome if teams is None else outcome.settled(teams)


def outcome_against(loser: Seat, teams: Sequence[int], reason: Reason, detail: str = "") -> Outcome:
    """The end of a game lost by ``loser``'s team alone (a resignation, a flag fall, a failed bot).

    ``teams`` gives each seat's team (:meth:`Game.teams`). The rule, for any number of seats:

    - one other team left (every two-seat game, two teams of partners): that team wins;
    - no other team (a solitaire, a cooperative game): nobody wins, the game is lost for every seat;
    - two teams or more left (three or four playing each for itself): nobody wins either, and the game ends
      there; ``scores`` gives 1 to every seat of the teams still in and 0 to the losing team's seats, so
      that a host can tell who was still in from who lost.

    >>> outcome_against(0, (0, 1), Reason.RESIGN).winner
    1
    >>> outcome = outcome_against(3, (0, 1, 0, 1), Reason.TIMEOUT)
    >>> outcome.team, outcome.winner
    (0, None)
    >>> outcome_against(0, (0,), Reason.FORFEIT).team is None
    True
    >>> outcome_against(2, (0, 1, 2), Reason.RESIGN).scores
    (1.0, 1.0, 0.0)
    """
    losing_team = teams[loser]
    others = sorted({team for team in teams if team != losing_team})
    if len(others) == 1:
        return Outcome(None, reason, detail, team=others[0]).settled(teams)
    if not others:
        return Outcome(None, reason, detail)
    return Outcome(None, reason, detail, scores=tuple(0.0 if team == losing_team else 1.0 for team in teams))


class Action(ABC):
    """Base of every action a seat can take. Subclasses are small immutable records (dataclasses).

    ``kind`` names the action in records. :meth:`to_json` writes it through the shared codec
    (:mod:`app.engine.codec`), by the types of its fields; a game lists its action classes in
    :attr:`Game.actions`, and :meth:`Game.action_from_json` reads them back the same way.

    >>> Resign().to_json()
    {'type': 'resign'}
    """

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that starts with ``"type": kind``, then the fields as :mod:`app.engine.codec`
        writes them."""
        data: dict[str, Any] = codec.to_json(self)
        return data


@dataclass(frozen=True)
class Resign(Action):
    """Give up the game. Any seat may resign at any time while the game runs."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True)
class Adjudication:
    """An ending imposed from outside the rules of play: a flag fall, a crashed bot, an abort.

    These are recorded like actions so that a record replays to the same result (``detail`` only when there is
    one).

    >>> Adjudication(1, Reason.TIMEOUT).to_json()
    {'type': 'adjudication', 'seat': 1, 'reason': 'timeout'}
    """

    seat: Seat
    reason: Reason
    detail: str = dataclasses.field(default="", metadata=codec.spec(omit_default=True))
    kind: ClassVar[str] = "adjudication"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = codec.to_json(self)
        return data


ViewT = TypeVar("ViewT", bound="View")

CHANCE_SEEDS = 2 ** 63
"""A chance seed is a whole number from 0 below this (it fits a JSON integer any reader keeps exactly)."""

_GIVEN_SEED: contextvars.ContextVar[tuple[int | None, bool]] = contextvars.ContextVar("sightline_chance_seed",
                                                                                      default=(None, True))
"""The chance seed :meth:`Game.create` hands to the game being built, and whether a fresh one may be drawn when
there is none: referees build themselves in ``from_options``, whose signature names options only, so the seed
reaches :meth:`Game.__init__` beside it."""


def check_chance_seed(seed: Any) -> int:
    """``seed`` if it is a chance seed; ``ValueError`` otherwise.

    >>> check_chance_seed(7)
    7
    >>> check_chance_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: a chance seed is a whole number from 0 below 2**63, not -1
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < CHANCE_SEEDS:
        raise ValueError(f"a chance seed is a whole number from 0 below 2**63, not {str(seed)[:40]}")
    return seed


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
    seat_teams: ClassVar[tuple[int, ...] | None] = None
    """Each seat's team, in seat order (partners share a number); ``None``: every seat plays for itself."""
    actions: ClassVar[tuple[type[Action], ...]] = ()
    """The game's action classes (not :class:`Resign`, which every game has): what :meth:`action_from_json`
    reads, each told apart by its ``kind``."""
    _action_kinds: ClassVar[codec.Kinds | None] = None
    uses_chance: ClassVar[bool] = False
    """Whether the referee shuffles or deals. Such a game draws only from :attr:`rng`, made from its
    :attr:`seed`; the record keeps that seed apart from the options (``chance_seed``), so a replay deals the
    same cards, and neither a seat's observations nor the options any seat or bot receives ever hold it."""

    @classmethod
    def teams(cls) -> tuple[int, ...]:
        """Each seat's team, in seat order: :attr:`seat_teams`, or by default each seat its own team (its index).

        >>> from app.games.minit.rules import MinitChess
        >>> MinitChess.teams()
        (0, 1)
        """
        if cls.seat_teams is None:
            return tuple(range(len(cls.seat_names)))
        return cls.seat_teams

    def __init__(self, seed: int | None = None) -> None:
        """Start the referee's bookkeeping; a game that :attr:`uses_chance` also gets its :attr:`seed` and
        :attr:`rng`: ``seed`` if given, else the one :meth:`create` was given, else a fresh one.

        A fresh seed comes from the operating system, not from Python's global generator: hosts seed that
        generator from numbers they also hand to bots (a match's game number), and a bot that could rebuild the
        deal from its own seed would know every face-down card.
        """
        self.outcome: Outcome | None = None
        self._logs: list[list[Any]] = [[] for _ in self.seat_names]
        self.seed: int | None = None
        """The chance seed (``None`` for a game without chance): the record keeps it as ``chance_seed``; no seat
        is ever told it."""
        self._rng: random.Random | None = None
        if self.uses_chance:
            given, fresh = _GIVEN_SEED.get()
            if seed is None:
                seed = given
            if seed is None and not fresh:
                raise ValueError(f"{type(self).__name__} deals by chance: it needs the seed it was dealt from")
            self.seed = random.SystemRandom().randrange(CHANCE_SEEDS) if seed is None else check_chance_seed(seed)
            self._rng = random.Random(self.seed)

    @property
    def rng(self) -> random.Random:
        """The generator every shuffle and deal of this game draws from (seeded by :attr:`seed`), so a replay of
        the record draws the same. Only for a game that declares :attr:`uses_chance`.

        >>> from app.games.minit.rules import MinitChess
        >>> MinitChess().rng
        Traceback (most recent call last):
        ...
        TypeError: MinitChess does not use chance (Game.uses_chance is False)
        """
        if self._rng is None:
            raise TypeError(f"{type(self).__name__} does not use chance (Game.uses_chance is False)")
        return self._rng

    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int | None = None, *, fresh: bool = True) -> "Game":
        """A new game from its public ``options`` and, for a game that :attr:`uses_chance`, the chance ``seed``
        (``None``: a fresh one, or with ``fresh=False`` a ``ValueError``, unless the options name a seed as a
        game's older records did); the seed is ignored by a game without chance. This is how a record's game
        is built again (:func:`~app.engine.timeline.replay`); :meth:`from_options` alone deals afresh."""
        token = _GIVEN_SEED.set((None if seed is None else check_chance_seed(seed), fresh))
        try:
            return cls.from_options(options)
        finally:
            _GIVEN_SEED.reset(token)

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
            self._finish(outcome_against(seat, self.teams(), Reason.RESIGN, f"{self.seat_names[seat]} resigned"))
            return
        self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> None:
        """Validate and apply an action of the seat to move (game not over)."""

    def adjudicate(self, adjudication: Adjudication) -> None:
        """End the game against ``adjudication.seat`` (time forfeit, bot failure...).

        A flag fall (:attr:`Reason.TIMEOUT`) ends as :meth:`flag_fall_outcome` says when the game's rules decide
        it their own way (Blind Chess decides on material); otherwise ``adjudication.seat``'s team loses.
        """
        if self.outcome is not None:
            raise GameOver("the game is over")
        self._finish(self._adjudicated_outcome(adjudication))

    def flag_fall_outcome(self, seat: Seat) -> Outcome | None:
        """How the game would end if ``seat``'s clock ran out now, when its rules decide that their own way;
        ``None``: the usual loss on time for ``seat``'s team. Asked by :meth:`adjudicate`, and by a match before
        calling a bot (a referee that must be stopped in the bot's call is scored with it).

        >>> from app.games.rbc.rules import ReconChess
        >>> ReconChess().flag_fall_outcome(0) is None
        True
        >>> from app.games.blind.rules import BlindChess
        >>> BlindChess().flag_fall_outcome(0).detail
        'White ran out of time; material is equal (39-39)'
        """
        return None

    def _adjudicated_outcome(self, adjudication: Adjudication) -> Outcome:
        if adjudication.reason is Reason.TIMEOUT:
            flagged = self.flag_fall_outcome(adjudication.seat)
            if flagged is not None:
                return flagged
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
        return outcome_against(adjudication.seat, self.teams(), adjudication.reason, detail)

    def _finish(self, outcome: Outcome) -> None:
        outcome = outcome.settled(self.teams())  # every seat is told an outcome that names both seat and team
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
        """The game's public options as JSON data (written into records, given to every seat and bot): never the
        chance seed, which is :attr:`seed`."""

    @classmethod
    @abstractmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Game":
        """Create a new game from :meth:`options` data; raises ``ValueError`` for bad options."""

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        """Parse one action of this game from record data (any of :attr:`actions`, by its ``"type"``); raises
        ``ValueError`` (a :class:`~app.engine.codec.CodecError`) naming what is wrong."""
        kinds = cls.__dict__.get("_action_kinds")
        if kinds is None:
            kinds = codec.Kinds(cls.actions, f"{cls.variant} action")
            cls._action_kinds = kinds
        action: Action = kinds.from_json(data)
        return action
