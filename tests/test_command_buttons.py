"""A game's command buttons wrap onto more rows when their labels are long: every button stays whole, inside the
panel, apart from the others, in the panel at the dock's default width and in a small (800x600) window; Tab visits
them in the order they are shown."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRect  # noqa: E402
from PySide6.QtWidgets import QApplication, QPushButton, QWidget  # noqa: E402

from app.games.presenter import Command  # noqa: E402
from app.ui.game_panel import GamePanel  # noqa: E402

LONG_COMMANDS = [Command("arrange", "Random arrangement", True), Command("pass", "Pass", True),
                 Command("guess", "Guess checker 3 is a knight", True),
                 Command("end_turn", "End turn without uncloaking", True),
                 Command("uncloak", "Uncloak the piece on the left", False)]


def _shown_buttons(panel: GamePanel) -> list[QPushButton]:
    return [button for button in panel.findChildren(QPushButton) if button.isVisible()]


def _place_in(panel: QWidget, button: QPushButton) -> QRect:
    return QRect(button.mapTo(panel, button.rect().topLeft()), button.size())


def _assert_whole_and_apart(panel: GamePanel) -> None:
    buttons = _shown_buttons(panel)
    assert len(buttons) >= len(LONG_COMMANDS)
    places = {button.text(): _place_in(panel, button) for button in buttons}
    for button in buttons:
        place = places[button.text()]
        assert panel.rect().contains(place), f"{button.text()!r} at {place} leaves the panel {panel.rect()}"
        # Whole: as wide as its label needs (a squeezed button shows a few letters of the middle of its label).
        assert place.width() >= button.sizeHint().width(), f"{button.text()!r} is cut to {place.width()} px"
    for first, one in enumerate(buttons):
        for other in buttons[first + 1:]:
            assert not places[one.text()].intersects(places[other.text()]), f"{one.text()!r} / {other.text()!r}"


def test_five_long_commands_wrap_inside_a_panel_of_the_docks_default_width(qtbot) -> None:
    panel = GamePanel()
    qtbot.addWidget(panel)
    panel.resize(320, 640)
    panel.show()
    pressed: list[str] = []
    panel.commandClicked.connect(pressed.append)
    panel.show_commands(LONG_COMMANDS)
    QApplication.processEvents()
    assert panel.width() == 320
    _assert_whole_and_apart(panel)
    rows = {button.y() for button in _shown_buttons(panel) if button is not panel.truth_button}
    assert len(rows) > 1  # they did not fit in one row, so they wrapped
    panel.command_buttons["guess"].click()
    assert pressed == ["guess"]
    # Tab goes through the buttons as they are shown, the newly made ones before Flip, not after the move list.
    order = [panel.pass_button, panel.resign_button, panel.draw_button, panel.command_buttons["arrange"],
             panel.command_buttons["guess"], panel.command_buttons["end_turn"], panel.command_buttons["uncloak"],
             panel.flip_button]
    for before, after in zip(order, order[1:]):
        assert before.nextInFocusChain() is after, f"Tab from {before.text()!r}"


def test_the_buttons_rewrap_when_the_panel_is_widened_and_narrowed(qtbot) -> None:
    panel = GamePanel()
    qtbot.addWidget(panel)
    panel.resize(320, 640)
    panel.show()
    panel.show_commands(LONG_COMMANDS)
    QApplication.processEvents()
    narrow_rows = len({button.y() for button in _shown_buttons(panel)})
    panel.resize(900, 640)
    QApplication.processEvents()
    _assert_whole_and_apart(panel)
    assert len({button.y() for button in _shown_buttons(panel)}) < narrow_rows
    panel.resize(320, 640)
    QApplication.processEvents()
    _assert_whole_and_apart(panel)


def test_long_commands_fit_the_panel_of_an_800_by_600_window(window) -> None:
    window.resize(800, 600)
    window.panel.show_commands(LONG_COMMANDS)
    QApplication.processEvents()
    panel = window.panel
    _assert_whole_and_apart(panel)
    # The panel itself is in sight in the window, not pushed past its bottom by the extra rows.
    top_left = panel.mapTo(window, panel.rect().topLeft())
    assert window.rect().contains(QRect(top_left, panel.size()))


def test_a_command_relabelled_longer_is_laid_out_again(qtbot) -> None:
    panel = GamePanel()
    qtbot.addWidget(panel)
    panel.resize(320, 640)
    panel.show()
    panel.show_commands([Command("pass", "Pass", True), Command("end_turn", "End turn", True)])
    QApplication.processEvents()
    panel.show_commands([Command("pass", "Pass", True),
                         Command("end_turn", "End turn without uncloaking the piece on the left", True)])
    QApplication.processEvents()
    button = panel.command_buttons["end_turn"]
    assert button.width() >= button.sizeHint().width()
    assert panel.rect().contains(QRect(button.mapTo(panel, button.rect().topLeft()), button.size()))
