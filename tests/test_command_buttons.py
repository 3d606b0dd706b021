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
FRAME = 4  # pixels of a button's frame and margin on each side of its label, at least


def _shown_buttons(panel: GamePanel) -> list[QPushButton]:
    return [button for button in panel.findChildren(QPushButton) if button.isVisible()]


def _place_in(panel: QWidget, button: QPushButton) -> QRect:
    return QRect(button.mapTo(panel, button.rect().topLeft()), button.size())


def _assert_whole_and_apart(panel: GamePanel, least: int = len(LONG_COMMANDS)) -> None:
    buttons = _shown_buttons(panel)
    assert len(buttons) >= least
    places = {button.text(): _place_in(panel, button) for button in buttons}
    for button in buttons:
        place = places[button.text()]
        assert panel.rect().contains(place), f"{button.text()!r} at {place} leaves the panel {panel.rect()}"
        # Whole: its label and a few pixels of frame each side (a squeezed button shows a few letters of the
        # middle of its label).
        needed = button.fontMetrics().horizontalAdvance(button.text()) + 2 * FRAME
        assert place.width() >= needed, f"{button.text()!r} is cut to {place.width()} px (needs {needed})"
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
    _assert_whole_and_apart(panel, least=2)


def test_the_usual_four_buttons_share_one_row_of_the_docks_default_width(qtbot) -> None:
    """Wrapping does not cost a row where the labels fit: Pass, Resign, Offer draw and Flip stay side by side
    (narrower than the style's preferred 80 px, still whole) and fill the row, as before."""
    panel = GamePanel()
    qtbot.addWidget(panel)
    panel.resize(320, 640)
    panel.show()
    panel.show_commands([Command("pass", "Pass", True), Command("offer_draw", "Offer draw", True)])
    QApplication.processEvents()
    row = [panel.pass_button, panel.resign_button, panel.draw_button, panel.flip_button]
    assert len({button.y() for button in row}) == 1
    _assert_whole_and_apart(panel, least=4)
    margins = panel.layout().contentsMargins()
    flip = panel.flip_button  # (the buttons stand in the panel's command area: its right edge, in the panel's terms)
    assert flip.mapTo(panel, flip.rect().topRight()).x() == panel.width() - margins.right() - 1
