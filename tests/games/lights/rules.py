"""Lights Out on a 4x4 board, for one seat: pressing a cell switches it and its orthogonal neighbours; the
player wins by switching every light off within :data:`PRESS_LIMIT` presses.

The start is dealt by chance (:attr:`Game.uses_chance`): from the game's own generator, whose seed the record
keeps apart from the options, so a replay deals the same puzzle and no option names the deal. Cells are
numbered rank by rank from the lower left corner (``rank * 4 + file``) and named like chess squares, ``a1`` to
``d4``.

>>> game = LightsOut(lights="1100" "1000" "0000" "0000")
>>> game.to_move, game.phase, game.lights_on()
(0, 'press', 3)
>>> game.play(0, Press(cell_number("a1")))
>>> game.outcome.winner, game.outcome.reason.value, game.outcome.score
(0, 'score', 16.0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from tests.games.lights import DEFINITION

SIZE = 4
CELLS = SIZE * SIZE
PRESS_LIMIT = 24
"""Presses the player has; with lights still on after that many, the game is lost (its score: lights off)."""
SCRAMBLE = 6
"""Presses a seed makes, from the dark board, to deal a start (so every dealt puzzle can be solved)."""

FILES = "abcd"


def cell_name(cell: int) -> str:
    """``a1`` for 0, ``d4`` for 15.

    >>> cell_name(0), cell_name(15)
    ('a1', 'd4')
    """
    return FILES[cell % SIZE] + str(cell // SIZE + 1)


def cell_number(name: Any) -> int:
    """The number of the cell named ``name``; ``ValueError`` says what is wrong.

    >>> cell_number("b2")
    5
    >>> cell_number("e9")
    Traceback (most recent call last):
    ...
    ValueError: not a cell of the 4x4 board: 'e9' (files a-d, ranks 1-4)
    """
    text = name.strip().lower() if isinstance(name, str) else ""
    if len(text) == 2 and text[0] in FILES and text[1] in "1234":
        return FILES.index(text[0]) + SIZE * (int(text[1]) - 1)
    raise ValueError(f"not a cell of the 4x4 board: {str(name)[:20]!r} (files a-d, ranks 1-4)")


CELL = codec.Text(cell_name, cell_number, "a cell such as 'b2'")
"""A cell written by its name in records."""


def switched_by(cell: int) -> tuple[int, ...]:
    """The cells a press on ``cell`` switches: itself and its orthogonal neighbours on the board.

    >>> [cell_name(c) for c in switched_by(0)]
    ['a1', 'b1', 'a2']
    """
    file, rank = cell % SIZE, cell // SIZE
    around = ((file, rank), (file - 1, rank), (file + 1, rank), (file, rank - 1), (file, rank + 1))
    return tuple(sorted(f + SIZE * r for f, r in around if 0 <= f < SIZE and 0 <= r < SIZE))


def press(lights: str, cell: int) -> str:
    """The lights (a string of 16 ``0``/``1``, cell order) after a press on ``cell``."""
    switched = set(switched_by(cell))
    return "".join(("1" if on == "0" else "0") if index in switched else on for index, on in enumerate(lights))


def deal(rng: random.Random) -> str:
    """The start ``rng`` deals: a few presses from the dark board, never the dark board itself.

    >>> deal(random.Random(7)) == deal(random.Random(7)), deal(random.Random(7)).count("1") > 0
    (True, True)
    """
    lights = "0" * CELLS
    for cell in rng.sample(range(CELLS), SCRAMBLE):
        lights = press(lights, cell)
    while "1" not in lights:  # presses can cancel out on a 4x4 board: press once more
        lights = press(lights, rng.randrange(CELLS))
    return lights


@dataclass(frozen=True)
class Press(Action):
    """Press one cell."""

    cell: int = field(metadata=codec.spec(text=CELL))
    kind: ClassVar[str] = "press"


class Dealt(NamedTuple):
    """Told at the start: the lights (16 ``0``/``1``) and the presses allowed."""

    lights: str
    limit: int


class Pressed(NamedTuple):
    """Told after each press: which press it was (from 1), the cell and the lights after it."""

    number: int
    cell: int
    lights: str


class Ended(NamedTuple):
    """Told when the game ends."""

    outcome: Outcome


class LightsOut(Game):
    """The referee of one game of Lights Out (nothing is hidden: the seat sees every light)."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Press,)
    uses_chance: ClassVar[bool] = True

    def __init__(self, seed: int | None = None, lights: str | None = None) -> None:
        super().__init__(seed)
        if lights is not None:
            if not isinstance(lights, str) or len(lights) != CELLS or set(lights) - {"0", "1"}:
                raise ValueError(f"lights are {CELLS} characters 0 or 1, not {str(lights)[:40]!r}")
            self.start = lights
        else:
            self.start = deal(self.rng)
        self._set_by_hand = lights is not None
        self.lights = self.start
        self.presses: list[int] = []
        self._tell(0, Dealt(self.start, PRESS_LIMIT))
        if "1" not in self.lights:
            self._finish(self._solved())

    def lights_on(self) -> int:
        """How many lights are on now."""
        return self.lights.count("1")

    def truth(self) -> str:
        """The lights as they are (a string, so its own copy)."""
        return self.lights

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else "press"

    @property
    def ply(self) -> int:
        return len(self.presses)

    def choices(self) -> dict[str, Any]:
        return {} if self.outcome is not None else {"cells": list(range(CELLS))}

    def _apply(self, seat: Seat, action: Action) -> None:
        if type(action) is not Press:
            raise IllegalAction(f"the player must press a cell, not {action.kind}")
        cell = action.cell
        if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < CELLS:
            raise IllegalAction(f"there is no cell {str(cell)[:20]!r}")
        self.lights = press(self.lights, cell)
        self.presses.append(cell)
        self._tell(0, Pressed(len(self.presses), cell, self.lights))
        if "1" not in self.lights:
            self._finish(self._solved())
        elif len(self.presses) >= PRESS_LIMIT:
            off = CELLS - self.lights_on()
            self._finish(Outcome(None, Reason.SCORE, f"{self.lights_on()} lights still on after {PRESS_LIMIT} "
                                                     f"presses", score=float(off)))

    def _solved(self) -> Outcome:
        return Outcome(0, Reason.SCORE, f"every light out after {len(self.presses)} presses", score=float(CELLS))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    def options(self) -> dict[str, Any]:
        # A dealt start is not an option: the options go to every seat and bot, the deal's seed to the record only.
        return {"lights": self.start} if self._set_by_hand else {}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "LightsOut":
        unknown = set(options) - {"seed", "lights"}
        if unknown:
            raise ValueError(f"unknown Lights Out option(s): {', '.join(sorted(map(str, unknown)))[:80]}")
        # "seed" is read for records written before the deal's seed left the options: it deals as it did then.
        return cls(seed=options.get("seed"), lights=options.get("lights"))


@dataclass
class LightsView(View):
    """What the player knows, built from its observations only (here: everything)."""

    lights: str = "0" * CELLS
    limit: int = PRESS_LIMIT
    presses: list[Pressed] = field(default_factory=list)
    outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Dealt):
            self.lights, self.limit, self.presses, self.outcome = observation.lights, observation.limit, [], None
        elif isinstance(observation, Pressed):
            self.lights = observation.lights
            self.presses.append(observation)
        elif isinstance(observation, Ended):
            self.outcome = observation.outcome

    @property
    def my_turn(self) -> bool:
        return self.outcome is None

    @property
    def presses_left(self) -> int:
        return self.limit - len(self.presses)


LightsOut.view_type = LightsView
