"""What the window looks like: the piece sets, the board themes on every board, About, Help, exports' messages."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QCoreApplication, QSettings  # noqa: E402

from app.ui import pieces  # noqa: E402


@pytest.fixture
def settings(qtbot, request):
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"looks-{os.getpid()}-{request.node.name}")
    store = QSettings()
    store.clear()
    yield store
    store.clear()
    pieces.set_piece_set("cburnett")


@pytest.mark.parametrize("letter", pieces.CHESS_LETTERS)
def test_the_ivory_set_changes_every_piece(qtbot, letter) -> None:
    def image(name: str):
        pieces.set_piece_set(name)
        return pieces.piece_pixmap(letter, 48).toImage()
    try:
        assert image("ivory") != image("cburnett")
    finally:
        pieces.set_piece_set("cburnett")


def test_the_board_theme_is_every_boards(qtbot, settings) -> None:
    from app.engine.clock import TimeControl
    from app.ui.board_widget import THEMES
    from app.ui.main_window import MainWindow
    from app.ui.new_game_dialog import NewGame
    settings.setValue("view/theme", "green")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    assert window.belief_panel is not None
    assert window.board.theme() == window.belief_panel.board.theme() == THEMES["green"]
    window.controller.lift_curtain()
    window.controller.resign()
    replay = window.open_replay(window.controller.session.snapshot())
    assert replay.board.theme() == THEMES["green"]
    window.view_choices.theme("blue")  # View > Board theme: every board at once
    assert window.board.theme() == window.belief_panel.board.theme() == replay.board.theme() == THEMES["blue"]
    window.controller.stop()


def test_about_says_the_version(qtbot, settings) -> None:
    from importlib import metadata
    from app.ui.main_window import MainWindow
    window = MainWindow()
    qtbot.addWidget(window)
    window.help_pages.about()
    text = window.about_box.text()
    assert text.startswith(f"Sightline {metadata.version('sightline')}\n")
    assert "MinitChess" in text
    window.about_box.close()


def test_help_has_a_page_for_the_window_and_its_keys(qtbot, settings) -> None:
    from app.ui.main_window import MainWindow
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.help_pages.fill_menu()
    entries = [action for action in window.help_pages.menu.actions() if "window" in action.text().lower()]
    assert entries, [action.text() for action in window.help_pages.menu.actions()]
    entries[0].trigger()
    page = window.help_pages.last_page
    assert page.isVisible() and "window" in page.windowTitle().lower()
    text = page.toPlainText()
    assert "Keys" in text and "Ctrl+N" in text
    assert window.screen().availableGeometry().contains(page.geometry())
    window.close()
    assert not page.isVisible()  # closed with the window, as the rules are


def test_an_export_says_where_it_went_and_opens_its_folder(qtbot, settings, tmp_path, monkeypatch) -> None:
    from PySide6.QtGui import QDesktopServices
    from app.engine.clock import TimeControl
    from app.ui.main_window import MainWindow
    from app.ui.new_game_dialog import NewGame
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    window.controller.resign()
    target = tmp_path / "out" / "moves.txt"
    target.parent.mkdir()
    assert window.export_to("minit", str(target))
    box = window.export_box
    assert box.isVisible() and "moves.txt" in box.text() and str(target.parent) in box.text()
    folder = next(button for button in box.buttons() if "folder" in button.text().lower())
    folder.click()
    assert opened == [str(target.parent)]
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName",
                        lambda *args, **kwargs: (str(tmp_path / "board.png"), ""))
    window.exports.image_dialog()  # a board image says so too
    assert "board.png" in window.export_box.text()
    window.controller.stop()
