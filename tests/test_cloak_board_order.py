"""Cloak and Dagger's window keeps its own order: the grids' checker columns run as the discs on the board do
(right to left on Black's turned board), and a phase's own buttons come before the anytime ones (Skip bonus
before Undo mark and Redo mark). The opponent is a stand-in the test answers for."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.scene import read_checker  # noqa: E402
from test_premove import StandInBot  # noqa: E402


def _start(window: Any, monkeypatch: pytest.MonkeyPatch, person: str) -> Any:
    from app import games
    from app.ui.game_controller import GameController, SeatConfig
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    seats = [SeatConfig(name, None if name == person else "random") for name in games.get("cloak").seat_names]
    controller = GameController("cloak", seats, TimeControl(None, 0), {"deduction": "on"}, parent=window)
    window._install(controller)
    return controller


@pytest.mark.parametrize("person", ["White", "Black"])
def test_the_grids_read_the_checkers_in_the_order_the_discs_stand(window: Any, monkeypatch: pytest.MonkeyPatch,
                                                                 person: str) -> None:
    _start(window, monkeypatch, person)
    board = window.board
    assert board.is_flipped() == (person == "Black")
    discs: dict[tuple[bool, int], float] = {}
    for square, code in board.pieces().items():
        checker = read_checker(code)
        if checker is not None:
            discs[(checker.white, checker.number)] = board.square_rect(square).center().x()
    layout = board.zone_layout()
    assert layout is not None
    for placed in layout.zones:
        columns = len(placed.zone.columns)
        cells = [placed.items[column].center().x() for column in range(columns)]  # the first row's cells
        for white in (True, False):
            by_disc = sorted(range(1, 9), key=lambda number: discs[(white, number)])
            by_grid = sorted(range(1, 9), key=lambda number: cells[number - 1])
            assert by_grid == by_disc, placed.zone.id
    picture = window.grab()
    assert not picture.isNull()


def test_in_the_bonus_phase_skip_bonus_comes_before_the_mark_buttons(window: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.cloak.rules import Arrange, Guess
    controller = _start(window, monkeypatch, "White")
    controller.act(Arrange("RNBQKBNR"))
    controller._bot_answered(1, Arrange("NRBKQBRN"))
    row = window.panel._buttons_row.widgets()
    buttons = window.panel.command_buttons
    assert row.index(buttons["undo-mark"]) < row.index(buttons["redo-mark"])  # made in the move phase
    controller.act(Guess(4, "K"))  # right: a bonus move after the move
    controller.move((4, 1), (4, 3), None)
    assert controller.game.phase == "bonus" and controller.game.to_move == 0
    shown = [button.text() for button in window.panel._buttons_row.widgets() if button.isVisible()
             and button in buttons.values()]
    assert shown.index("Skip bonus") < shown.index("Undo mark") < shown.index("Redo mark")
