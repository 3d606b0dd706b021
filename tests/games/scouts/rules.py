"""Scouts: four seats in two teams on a 6x6 board, each seat seeing only its own two scouts.

W1 and W2 (team 0) start on rank 1, B1 and B2 (team 1) on rank 6; they move in the order W1, B1, W2, B2. On
its turn a seat steps one of its scouts to a neighbouring cell (as a chess king moves), never onto its other
scout. Stepping onto enemy scouts captures them, and every seat is told where a capture happened and whose
scout was taken; otherwise the others are told only that the seat moved, never where. Partners cannot see
each other either, so a scout may share a cell with its partner's scouts without knowing it. A seat whose
scouts are all taken sits out. A team that loses every scout loses; after :data:`TURN_LIMIT` turns the team
with more scouts left wins (equal: drawn).

Cells are numbered rank by rank from the lower left (``rank * 6 + file``) and named ``a1`` to ``f6``.

>>> game = ScoutsGame()
>>> game.to_move, game.seat_names[game.to_move], [cell_name(c) for c in game.scouts[0]]
(0, 'W1', ['a1', 'c1'])
>>> game.play(0, Step(cell_number("a1"), cell_number("b2")))
>>> game.seat_names[game.to_move]
'B1'
>>> [type(o).__name__ for o in game.observations(2)]  # B1 heard that W1 moved, not where
['Deployed', 'Moved']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from tests.games.scouts import DEFINITION

SIZE = 6
FILES = "abcdef"
TURN_LIMIT = 32
"""Turns (one step of one seat each) after which the scouts left decide the game."""
SEATS = DEFINITION.seat_names
TEAMS = DEFINITION.seat_teams
"""Each seat's team: W1 and W2 play together against B1 and B2."""
ORDER = (0, 2, 1, 3)
"""Seats in the order they move: W1, B1, W2, B2."""
START: tuple[tuple[int, ...], ...] = ((0, 2), (3, 5), (30, 32), (33, 35))
"""Each seat's scouts at the start: W1 a1 c1, W2 d1 f1, B1 a6 c6, B2 d6 f6."""
TEAM_NAMES = ("the white team", "the black team")


def cell_name(cell: int) -> str:
    """``a1`` for 0, ``f6`` for 35."""
    return FILES[cell % SIZE] + str(cell // SIZE + 1)


def cell_number(name: Any) -> int:
    """The number of the cell named ``name``; ``ValueError`` says what is wrong.

    >>> cell_number("b2"), cell_number("f6")
    (7, 35)
    """
    text = name.strip().lower() if isinstance(name, str) else ""
    if len(text) == 2 and text[0] in FILES and text[1] in "123456":
        return FILES.index(text[0]) + SIZE * (int(text[1]) - 1)
    raise ValueError(f"not a cell of the 6x6 board: {str(name)[:20]!r} (files a-f, ranks 1-6)")


CELL = codec.Text(cell_name, cell_number, "a cell such as 'b2'")
"""A cell written by its name in records."""


def neighbours(cell: int) -> list[int]:
    """The cells a scout on ``cell`` can step to (a king's step on the board).

    >>> [cell_name(c) for c in neighbours(0)]
    ['b1', 'a2', 'b2']
    """
    file, rank = cell % SIZE, cell // SIZE
    return [f + SIZE * r for r in (rank - 1, rank, rank + 1) for f in (file - 1, file, file + 1)
            if (f, r) != (file, rank) and 0 <= f < SIZE and 0 <= r < SIZE]


def steps_of(own: tuple[int, ...]) -> list["Step"]:
    """Every step a seat with scouts on ``own`` may make (it needs to know nothing else)."""
    return [Step(scout, to) for scout in own for to in neighbours(scout) if to not in own]


def next_seat(after: Seat | None, alive: Mapping[Seat, int]) -> Seat | None:
    """The seat that moves after ``after`` (``None``: at the start), skipping seats with no scouts left."""
    start = -1 if after is None else ORDER.index(after)
    for offset in range(1, len(ORDER) + 1):
        seat = ORDER[(start + offset) % len(ORDER)]
        if alive.get(seat, 0):
            return seat
    return None


@dataclass(frozen=True)
class Step(Action):
    """Step the scout on ``from_cell`` to ``to_cell``."""

    from_cell: int = field(metadata=codec.spec(key="from", text=CELL))
    to_cell: int = field(metadata=codec.spec(key="to", text=CELL))
    kind: ClassVar[str] = "step"

    def __str__(self) -> str:
        return f"{cell_name(self.from_cell)}-{cell_name(self.to_cell)}"


class Deployed(NamedTuple):
    """Told to each seat at the start, privately: which seat it is and where its own scouts stand."""

    seat: Seat
    scouts: tuple[int, ...]


class Stepped(NamedTuple):
    """Told to the mover only: its own step."""

    turn: int
    step: Step


class Moved(NamedTuple):
    """Told to every seat after each turn: who moved (never where)."""

    turn: int
    seat: Seat


class Captured(NamedTuple):
    """Told to every seat: a scout of ``victim`` was taken on ``cell`` by a scout of ``by``."""

    turn: int
    cell: int
    victim: Seat
    by: Seat


class Ended(NamedTuple):
    """Told to every seat when the game ends."""

    outcome: Outcome


class ScoutsGame(Game):
    """The referee of one game of Scouts; it alone knows where every scout is."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Step,)

    def __init__(self) -> None:
        super().__init__()
        self.scouts: list[tuple[int, ...]] = [tuple(cells) for cells in START]
        self.turns = 0
        self._to_move: Seat | None = ORDER[0]
        for seat in range(len(SEATS)):
            self._tell(seat, Deployed(seat, self.scouts[seat]))

    def truth(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's scouts (a tuple of tuples: its own copy)."""
        return tuple(self.scouts)

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self._to_move

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else "step"

    @property
    def ply(self) -> int:
        return self.turns

    def choices(self) -> dict[str, Any]:
        seat = self.to_move
        return {} if seat is None else {"steps": steps_of(self.scouts[seat])}

    def _apply(self, seat: Seat, action: Action) -> None:
        if type(action) is not Step:
            raise IllegalAction(f"{SEATS[seat]} must step a scout, not {action.kind}")
        if action not in steps_of(self.scouts[seat]):
            raise IllegalAction(f"{SEATS[seat]} cannot step {action}")
        self.scouts[seat] = tuple(sorted(action.to_cell if cell == action.from_cell else cell
                                         for cell in self.scouts[seat]))
        self._tell(seat, Stepped(self.turns, action))
        for victim, cells in enumerate(self.scouts):
            if TEAMS[victim] != TEAMS[seat] and action.to_cell in cells:
                self.scouts[victim] = tuple(cell for cell in cells if cell != action.to_cell)
                self._tell_all(Captured(self.turns, action.to_cell, victim, seat))
        self._tell_all(Moved(self.turns, seat))
        self.turns += 1
        self._to_move = next_seat(seat, {s: len(cells) for s, cells in enumerate(self.scouts)})
        outcome = self._decided()
        if outcome is not None:
            self._finish(outcome)

    def _decided(self) -> Outcome | None:
        left = [sum(len(self.scouts[s]) for s in range(len(SEATS)) if TEAMS[s] == team) for team in (0, 1)]
        scores = tuple(float(left[team]) for team in TEAMS)
        for team in (0, 1):
            if not left[team]:
                return Outcome(None, Reason.NO_MOVES, f"{TEAM_NAMES[team]} has no scouts left", scores=scores,
                               team=1 - team)
        if self.turns >= TURN_LIMIT:
            if left[0] == left[1]:
                return Outcome(None, Reason.SCORE, f"drawn with {left[0]} scouts each after {TURN_LIMIT} turns",
                               scores=scores)
            team = 0 if left[0] > left[1] else 1
            return Outcome(None, Reason.SCORE, f"{TEAM_NAMES[team]} kept more scouts ({max(left)} to "
                                               f"{min(left)})", scores=scores, team=team)
        return None

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    def options(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "ScoutsGame":
        if options:
            raise ValueError(f"Scouts takes no options (given: {', '.join(sorted(map(str, options)))[:80]})")
        return cls()


@dataclass
class ScoutsView(View):
    """What one seat knows, built from its own observations only: its own scouts, who moved, where captures
    happened, how many scouts each seat has left, the result."""

    seat: Seat = 0
    scouts: tuple[int, ...] = ()
    steps: list[Stepped] = field(default_factory=list)
    captures: list[Captured] = field(default_factory=list)
    left: dict[Seat, int] = field(default_factory=lambda: {seat: len(cells) for seat, cells in enumerate(START)})
    last_mover: Seat | None = None
    turns: int = 0
    outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Deployed):
            self.seat, self.scouts = observation.seat, observation.scouts
        elif isinstance(observation, Stepped):
            step = observation.step
            self.scouts = tuple(sorted(step.to_cell if cell == step.from_cell else cell for cell in self.scouts))
            self.steps.append(observation)
        elif isinstance(observation, Captured):
            self.captures.append(observation)
            self.left[observation.victim] -= 1
            if observation.victim == self.seat:
                self.scouts = tuple(cell for cell in self.scouts if cell != observation.cell)
        elif isinstance(observation, Moved):
            self.last_mover, self.turns = observation.seat, observation.turn + 1
        elif isinstance(observation, Ended):
            self.outcome = observation.outcome

    @property
    def to_move(self) -> Seat | None:
        """The seat to move, as this seat can work it out (the order is fixed, captures are told to all)."""
        return None if self.outcome is not None else next_seat(self.last_mover, self.left)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def legal_steps(self) -> list[Step]:
        """The steps this seat may make now (none when it is not its turn)."""
        return steps_of(self.scouts) if self.my_turn else []


ScoutsGame.view_type = ScoutsView
