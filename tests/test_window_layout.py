"""The window's layout: the board gets the room the panels leave, the log keeps lines in sight, the size does
not creep from one start to the next, and the new-game dialog has no blank band."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame, NewGameDialog  # noqa: E402


@pytest.fixture
def fresh_settings(request):
    from PySide6.QtCore import QSettings
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"layout-{os.getpid()}-{request.node.name}")
    QSettings().clear()
    yield
    QSettings().clear()


def open_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


def start_rbc(window) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()


@pytest.mark.parametrize("size", [None, (800, 600)])
def test_the_board_and_the_log_get_room_with_the_belief_board(qtbot, fresh_settings, size) -> None:
    window = open_window(qtbot)
    if size is not None:
        window.resize(*size)
    start_rbc(window)
    qtbot.wait(10)  # let the layout settle (not a timing check)
    lines = window.log.height() // window.log.fontMetrics().lineSpacing()
    assert lines >= 5
    assert window.board.width() >= window.width() // 2  # the board is the larger part
    tabs = window.panel.tabs
    tabs.setCurrentWidget(window.moves)
    qtbot.wait(10)
    rows = window.moves.viewport().height() // window.moves.fontMetrics().lineSpacing()
    assert rows >= 5  # the move list keeps as many lines in sight as the log
    bar = tabs.tabBar()
    for index in range(bar.count()):  # whole tab labels, never "What you w..."
        assert bar.tabRect(index).width() >= bar.fontMetrics().horizontalAdvance(bar.tabText(index))
        assert bar.tabRect(index).right() <= bar.width()
    for dock in (window.panel_dock, window.belief_dock):  # the docks lie inside the window
        assert window.rect().contains(dock.geometry())


def test_at_its_smallest_the_window_keeps_a_playable_board_and_five_lines_of_log(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    start_rbc(window)
    window.resize(100, 100)  # as small as it goes
    qtbot.wait(10)
    assert window.board.width() >= 360 and window.board.height() >= 360
    assert window.log.height() // window.log.fontMetrics().lineSpacing() >= 5
    # ... and all of it in sight: a wrapped title must not push the log past the bottom of its dock.
    from PySide6.QtCore import QPoint
    log_bottom = window.log.mapTo(window, QPoint(0, window.log.height())).y()
    assert log_bottom <= window.panel_dock.geometry().bottom()
    assert window.width() <= 800 and window.height() <= 600  # still fits the smallest screens


def test_the_size_does_not_creep_from_start_to_start(qtbot, fresh_settings) -> None:
    sizes = []
    for start in range(5):
        window = open_window(qtbot)
        if start == 0:
            window.resize(760, 650)
            start_rbc(window)
        sizes.append((window.size().width(), window.size().height(), window.panel_dock.width()))
        window.close()
    assert len(set(sizes[1:])) == 1 and sizes[1][:2] == sizes[0][:2]


def test_the_new_game_dialog_has_no_blank_band_under_its_buttons(qtbot, fresh_settings) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.game.setCurrentIndex(dialog.game.findData("rbc"))  # an option row and the inference row
    dialog.time.setCurrentIndex(dialog.time.findText("Custom"))
    tall = dialog.height()
    dialog.game.setCurrentIndex(dialog.game.findData("minit"))  # neither
    dialog.time.setCurrentIndex(dialog.time.findText("5+3"))
    assert dialog.height() < tall and dialog.height() <= dialog.sizeHint().height() + 2


def test_a_belief_board_put_away_for_minitchess_comes_back_after_a_restart(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    start_rbc(window)
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    assert not window.belief_dock.isVisible()  # put away by the program, not closed by the player
    window.close()
    again = open_window(qtbot)
    start_rbc(again)
    assert again.belief_dock.isVisible()
