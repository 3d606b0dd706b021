"""A seat's private marks: input a game's presenter reads as a change of the seat's own marks (a deduction grid's
circles, a secret setup being arranged) instead of an action.

The marks are kept in the record with the seat's notes, handed back to the presenter (``bound``) for that seat
only, usable out of turn (``anytime`` commands), hidden behind the curtain, and never played to the referee.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.engine.record import GameRecord, notes_at  # noqa: E402
from app.games.minit.presenter import MinitPresenter  # noqa: E402
from app.games.presenter import Command, InputError, MarksChange  # noqa: E402
from app.games.scene import BoardScene, Cell, MarkerSpec  # noqa: E402
from app.ui.game_controller import GameController, SeatConfig  # noqa: E402


class MarkingPresenter(MinitPresenter):
    """MinitChess shown with marks: a click on a square (not a move) marks or unmarks it; "Undo mark" anytime."""

    def __init__(self, marks: dict[str, Any] | None = None) -> None:
        self.marks = marks

    def bound(self, marks: dict[str, Any] | None) -> "MarkingPresenter":  # type: ignore[override]
        return MarkingPresenter(marks)

    def _cells(self) -> list[list[int]]:
        return list((self.marks or {}).get("cells", []))

    def scene(self, view: Any) -> BoardScene:
        scene = super().scene(view)
        scene.markers.append(MarkerSpec("sense", tuple((file, rank) for file, rank in self._cells())))
        return scene

    def on_square(self, view: Any, square: Cell) -> MarksChange:
        cells = self._cells()
        cell = [square[0], square[1]]
        cells = [c for c in cells if c != cell] if cell in cells else cells + [cell]
        return MarksChange({"cells": cells, "undo": (self.marks or {}).get("cells", [])})

    def commands(self, view: Any) -> list[Command]:
        return [Command("undo-mark", "Undo mark", bool(self.marks), anytime=True), Command("draw", "Offer a draw",
                                                                                           True)]

    def command(self, view: Any, command_id: str) -> Any:
        if command_id == "undo-mark":
            return MarksChange({"cells": (self.marks or {}).get("undo", [])})
        raise InputError("no draws here")


@pytest.fixture
def controller(qtbot) -> GameController:
    game = GameController("minit", [SeatConfig("Ann"), SeatConfig("Bob")], TimeControl(None, 0.0))
    game.presenter = MarkingPresenter()
    game.start()
    game.lift_curtain()
    yield game
    game.stop()


def _marked(controller: GameController) -> tuple[Cell, ...]:
    return tuple(cell for marker in controller.scene().markers for cell in marker.squares)


def test_a_mark_is_kept_for_its_seat_and_is_not_an_action(controller: GameController) -> None:
    seat = controller.screen_seat
    assert seat == 0 and controller.game.to_move == 0
    controller.sense((2, 3))
    assert len(controller.session.record.entries) == 0  # nothing was played
    assert controller.session.notes(0).marks == {"cells": [[2, 3]], "undo": []}
    assert controller.session.notes(1).marks is None
    assert _marked(controller) == ((2, 3),)
    controller.sense((4, 1))
    assert _marked(controller) == ((2, 3), (4, 1))
    controller.act_on_command("undo-mark")
    assert _marked(controller) == ((2, 3),)


def test_marks_may_change_out_of_turn_but_actions_may_not(controller: GameController) -> None:
    controller.move((0, 1), (0, 2), None)  # a2-a3: now Black is to move
    assert controller.game.to_move == 1 and len(controller.session.record.entries) == 1
    controller.screen_seat, controller.curtain_for = 0, None  # White still at the screen (as beside a bot)
    controller.sense((1, 1))
    assert controller.session.notes(0).marks["cells"] == [[1, 1]]
    enabled = {command.id: command.enabled for command in controller.commands()}
    assert enabled == {"undo-mark": True, "draw": False}  # an anytime command works out of turn, others not
    controller.act_on_command("draw")  # refused quietly: not White's turn
    assert not any("Not possible" in line for line in controller.logs[0])
    controller.act_on_command("undo-mark")
    assert controller.session.notes(0).marks["cells"] == []


def test_marks_stay_behind_the_curtain_and_come_back_from_the_record(controller: GameController) -> None:
    controller.sense((3, 3))
    controller.curtain_for = 1  # the curtain is down
    assert controller.commands()[0].enabled is False
    controller.sense((3, 4))  # nobody may mark through the curtain
    assert controller.session.notes(0).marks["cells"] == [[3, 3]]
    record = GameRecord.from_json(controller.session.snapshot().to_json())
    assert notes_at(record, 0).marks == {"cells": [[3, 3]], "undo": []} and notes_at(record, 1).marks is None


def test_marks_that_are_not_json_are_refused_with_a_message(controller: GameController) -> None:
    controller.marks_changed(0, {"cells": {1, 2}})  # type: ignore[dict-item]  # a set is not JSON
    assert controller.session.notes(0).marks is None
    assert "could not be kept" in controller.logs[0][-1]


def test_a_record_with_marks_of_the_wrong_shape_is_refused(controller: GameController) -> None:
    controller.sense((3, 3))
    data = controller.session.snapshot().to_json()
    assert GameRecord.from_json(data).notes  # as saved, it reads
    data["notes"] = [{"seat": 0, "step": 0, "marks": [1, 2]}]
    with pytest.raises(ValueError, match="'marks' must be an object or null"):
        GameRecord.from_json(data)


def test_a_finished_game_keeps_the_marks_it_ended_with(controller: GameController) -> None:
    controller.sense((3, 3))
    controller.resign()
    assert controller.outcome is not None
    notes = len(controller.session.record.notes)
    controller.sense((4, 4))
    assert {command.id: command.enabled for command in controller.commands()}["undo-mark"] is False
    controller.act_on_command("undo-mark")
    assert len(controller.session.record.notes) == notes and controller.session.notes(0).marks["cells"] == [[3, 3]]
