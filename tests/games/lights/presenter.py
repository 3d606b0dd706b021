"""Lights Out as a person meets it: lit cells are marked on a 4x4 board; clicking a cell (or typing its name)
presses it. Lights Out has no pieces, so the scene holds marks only, and picking a cell works like picking a
square to sense in RBC: the window outlines the cells a press would switch.

>>> sorted(_board("1100" "1000" "0000" "0000").markers[0].squares)  # the lit cells
[(0, 0), (0, 1), (1, 0)]
>>> cell(5)
(1, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.presenter import InputError, PresenterBase
from app.games.scene import BoardScene, MarkerSpec, Cell

from .rules import CELLS, SIZE, Dealt, Ended, Press, Pressed, cell_name, cell_number, switched_by
from tests.games.lights import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat


def cell(number: int) -> Cell:
    """The scene's (file, rank) of a cell number."""
    return number % SIZE, number // SIZE


def _lit(lights: str) -> tuple[Cell, ...]:
    return tuple(cell(number) for number in range(CELLS) if lights[number] == "1")


def _board(lights: str) -> BoardScene:
    return BoardScene(files=SIZE, ranks=SIZE, markers=[MarkerSpec("reveal", _lit(lights), label="on")])


class LightsPresenter(PresenterBase):
    """Lights Out: one kind of action, a press, made by picking a cell."""

    key = DEFINITION.key
    entry_text = "Type a cell to press (b2)"

    def scene(self, view: Any) -> BoardScene:
        scene = _board(view.lights)
        if view.presses:
            last = cell(view.presses[-1].cell)
            scene.last_move = (last, last)
        if view.my_turn:
            scene.sense_window = lambda square: [cell(number) for number in
                                                 switched_by(square[0] + SIZE * square[1])]
        return scene

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        return _board(truth)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        if isinstance(observation, Dealt):
            return f"{observation.lights.count('1')} lights are on: switch them all off in {observation.limit} presses."
        if isinstance(observation, Pressed):
            return f"Press {observation.number}: {cell_name(observation.cell)} " \
                   f"({observation.lights.count('1')} lights on)."
        if isinstance(observation, Ended):
            return observation.outcome.detail[:1].upper() + observation.outcome.detail[1:] + "."
        return None

    def move_list(self, view: Any) -> list[str]:
        return [f"{pressed.number}. {cell_name(pressed.cell)}" for pressed in view.presses]

    def on_square(self, view: Any, square: Cell) -> Action:
        if not view.my_turn:
            raise InputError("the game is over")
        file, rank = square
        if not (0 <= file < SIZE and 0 <= rank < SIZE):
            raise InputError("that is not a cell of the board")
        return Press(file + SIZE * rank)

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        raise InputError("nothing moves in Lights Out: click a cell to press it")

    def parse_text(self, view: Any, text: str) -> Action:
        try:
            return self.on_square(view, cell(cell_number(text)))
        except ValueError as error:
            raise InputError(str(error)) from None

    def prompt(self, view: Any) -> str:
        return f"Press a cell ({view.presses_left} presses left)"


PRESENTER = LightsPresenter()
