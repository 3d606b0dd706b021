"""The game's commands reach the window as buttons: the panel shows what the presenter offers (a new command
gets a button of its own), and a press reaches the presenter as that command, only while the seat may act."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.engine.clock import TimeControl  # noqa: E402
from app.games.presenter import Command  # noqa: E402
from app.ui.game_panel import GamePanel  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402


def test_the_panel_shows_the_commands_offered_and_makes_buttons_for_new_ones(qtbot) -> None:
    panel = GamePanel()
    qtbot.addWidget(panel)
    panel.show()
    pressed: list[str] = []
    panel.commandClicked.connect(pressed.append)
    panel.show_commands([Command("pass", "Pass", True), Command("uncloak", "Uncloak", False)])
    uncloak = panel.command_buttons["uncloak"]
    assert panel.pass_button.isVisible() and panel.pass_button.isEnabled()
    assert uncloak.isVisible() and not uncloak.isEnabled() and uncloak.text() == "Uncloak"
    assert not panel.draw_button.isVisible() and not panel.accept_button.isVisible()
    panel.pass_button.click()
    panel.show_commands([Command("uncloak", "Uncloak", True)])
    uncloak.click()
    assert pressed == ["pass", "uncloak"] and not panel.pass_button.isVisible()
    panel.disable_commands()
    assert not uncloak.isEnabled() and uncloak.isVisible()


def test_commands_are_offered_from_the_presenter_but_only_the_seat_to_act_may_use_them(window) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    controller = window.controller
    assert [(c.id, c.enabled) for c in controller.commands()] == [("pass", False)]  # behind the curtain
    controller.lift_curtain()
    assert not window.pass_button.isEnabled() and window.status.text() == "Choose a square to sense"
    controller.act_on_command("pass")  # not in the sense phase: nothing is played
    assert len(controller.session.record.entries) == 0
    controller.sense((3, 6))
    assert window.pass_button.isEnabled() and window.status.text() == "Your move"
    window.pass_button.click()
    assert [entry.action["type"] for entry in controller.session.record.entries][-1:] == ["move"]
    assert controller.curtain_for == 1 and not controller.can("pass")
