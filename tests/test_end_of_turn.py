"""The end of a turn at one computer, in a game with hidden information (Blind Chess): the mover sees what came of
their move before the curtain falls, for a moment or until "Pass the screen"; nobody's clock runs meanwhile and
nothing of the next seat is shown. (A game without hidden information has no curtain: tests/test_no_curtain.py.)"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt

from app.engine.clock import TimeControl


def _hot_seat_blind(window: Any, how: str) -> Any:
    from app.ui.game_controller import GameController, SeatConfig
    QSettings().setValue("play/end_of_turn", how)
    controller = GameController("blind", [SeatConfig("Ann"), SeatConfig("Bob")], TimeControl(60, 0),
                                parent=window)
    window._install(controller)
    controller.lift_curtain()
    return controller


def test_the_mover_sees_the_result_until_pass_the_screen(window: Any, qtbot: Any) -> None:
    from app.games.blind.rules import Attempt
    controller = _hot_seat_blind(window, "button")
    controller.act(Attempt.parse("b2b3"))
    assert controller.curtain_for is None and controller.screen_seat == 0 and controller.passing_to == 1
    assert "b2 to b3" in controller.log()[-1] and "pass the screen to Black" in window.status.text()
    assert window.board.pieces()[(1, 2)] == "P"  # White's own board, with its move made
    clock = controller.session.clock
    assert clock.running is None  # paused: neither White's time nor Black's runs
    button = window.panel.command_buttons["pass_screen"]
    assert button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert controller.curtain_for == 1 and controller.passing_to is None and window.curtain.isVisible()
    controller.lift_curtain()
    assert controller.screen_seat == 1 and clock.running == 1


def test_a_moment_then_the_curtain_falls_by_itself(window: Any, qtbot: Any) -> None:
    from app.games.blind.rules import Attempt
    controller = _hot_seat_blind(window, "moment")
    controller.act(Attempt.parse("b2b3"))
    assert controller.passing_to == 1 and controller.curtain_for is None
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    assert window.curtain.isVisible()


def test_at_once_lowers_the_curtain_straight_after_the_move(window: Any) -> None:
    from app.games.blind.rules import Attempt
    controller = _hot_seat_blind(window, "at once")
    controller.act(Attempt.parse("b2b3"))
    assert controller.curtain_for == 1 and controller.passing_to is None
