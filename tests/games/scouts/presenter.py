"""Scouts as a person meets it: the 6x6 board shows the seat's own scouts only (white scouts as knights, black
as black knights) and the cells where captures happened; a scout moves by click-click, drag or typing
``a1-b2``. Partners see each other's scouts no more than their enemies': a scene is made from one seat's view.

>>> cell(7)
(1, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.presenter import InputError, PresenterBase
from app.games.scene import BoardScene, MarkerSpec, Cell

from .rules import SEATS, SIZE, TEAMS, Captured, Deployed, Ended, Moved, Step, Stepped, cell_name, cell_number
from tests.games.scouts import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat


def cell(number: int) -> Cell:
    """The scene's (file, rank) of a cell number."""
    return number % SIZE, number // SIZE


def number(square: Cell) -> int:
    """The cell number of a scene's (file, rank)."""
    return square[0] + SIZE * square[1]


def outcome_sentence(outcome: Any, seat: Seat) -> str:
    """The log's last line for ``seat``: whether its team won, lost or drew, and why."""
    if outcome.team is None:
        return f"Game over: draw ({outcome.detail})."
    return f"Game over: your team {'won' if outcome.team == TEAMS[seat] else 'lost'} ({outcome.detail})."


def _scout_letter(seat: Seat) -> str:
    return "N" if TEAMS[seat] == 0 else "n"


class ScoutsPresenter(PresenterBase):
    """Scouts: one kind of action, a step of one's own scout."""

    key = DEFINITION.key
    entry_text = "Type a step (a1-b2)"

    def scene(self, view: Any) -> BoardScene:
        scene = BoardScene(files=SIZE, ranks=SIZE,
                           pieces={cell(scout): _scout_letter(view.seat) for scout in view.scouts})
        if view.captures:
            scene.markers.append(MarkerSpec("captured", tuple(cell(c.cell) for c in view.captures[-4:])))
        if view.steps:
            step = view.steps[-1].step
            scene.last_move = (cell(step.from_cell), cell(step.to_cell))
        for step in view.legal_steps():
            scene.targets.setdefault(cell(step.from_cell), {})[cell(step.to_cell)] = []
        return scene

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        pieces = {cell(scout): _scout_letter(seat) for seat, scouts in enumerate(truth) for scout in scouts}
        return BoardScene(files=SIZE, ranks=SIZE, pieces=pieces)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        if isinstance(observation, Deployed):
            return f"You play {SEATS[observation.seat]}: your scouts stand on " \
                   f"{' and '.join(cell_name(c) for c in observation.scouts)}."
        if isinstance(observation, Stepped):
            return f"You stepped {observation.step}."
        if isinstance(observation, Captured):
            return f"{SEATS[observation.by]} took a scout of {SEATS[observation.victim]} on " \
                   f"{cell_name(observation.cell)}."
        if isinstance(observation, Moved):
            return None if observation.seat == seat else f"{SEATS[observation.seat]} moved."
        if isinstance(observation, Ended):
            return outcome_sentence(observation.outcome, seat)
        return None

    def move_list(self, view: Any) -> list[str]:
        return [f"{stepped.turn + 1}. {stepped.step}" for stepped in view.steps]

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        step = Step(number(from_square), number(to_square))
        if step not in view.legal_steps():
            raise InputError(f"{step} is not a step you can make now")
        return step

    def parse_text(self, view: Any, text: str) -> Action:
        parts = text.strip().split("-")
        try:
            if len(parts) != 2:
                raise ValueError("write a step as from-to, e.g. a1-b2")
            from_cell, to_cell = cell_number(parts[0]), cell_number(parts[1])
        except ValueError as error:
            raise InputError(str(error)) from None
        return self.on_move(view, cell(from_cell), cell(to_cell), None)

    def prompt(self, view: Any) -> str:
        return "Your step"


PRESENTER = ScoutsPresenter()
