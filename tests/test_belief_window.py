"""The belief board's inference in the window: heat map and count per seat, off the UI thread, privacy, the
new-game option that switches it off."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402



def _fresh(window, seat):
    service = window.inference
    return service.summaries.get(seat) is not None and not service.pending(seat)


def test_the_heat_map_follows_what_the_seat_knows(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert "1 position possible" in panel.status_label.text()  # White knows Black's start
    assert window.board.heat()[(4, 6)] == pytest.approx(1.0)  # e7: certainly a pawn there
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller.lift_curtain()  # Black at the screen: its own inference, never White's
    assert window.board.heat() == {} or window.inference.summaries.get(1) is not None
    qtbot.waitUntil(lambda: _fresh(window, 1), timeout=20000)
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    assert "21 positions possible" in panel.status_label.text()  # White's 20 first moves and the pass
    assert 0 < window.board.heat()[(4, 3)] < 1  # e4: one of the 21
    controller.sense((4, 3))  # the sense sees the pawn on e4: one position is left
    qtbot.waitUntil(lambda: _fresh(window, 1) and "1 position" in panel.status_label.text(), timeout=20000)
    assert window.board.heat()[(4, 3)] == pytest.approx(1.0)


def test_the_heat_map_is_put_away_behind_the_curtain(window, qtbot) -> None:
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert window.board.heat()
    controller.move((4, 1), (4, 3), None)
    assert controller.curtain_for == 1
    assert window.board.heat() == {} and panel.shown_heat() is None and panel.status_label.text() == ""


def test_inference_can_be_switched_off_for_a_game(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move", inference=False))
    window.controller.lift_curtain()
    panel = window.belief_panel
    assert window.inference is None
    assert not panel.heat_box.isEnabled() and not panel.count_box.isEnabled()
    assert "switched off" in panel.heat_box.toolTip()
    assert window.controller.session.record.extra["inference"] is False
    panel.place_piece(chess.E5, chess.PAWN)  # the belief board itself still works
    assert panel.belief().pieces() == {chess.E5: chess.PAWN}
