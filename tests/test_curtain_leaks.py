"""The whole window behind the hot-seat curtain shows nothing of the seat that just acted.

Two games that differ only in what seat A did and knows privately (its sense, its move, its arrows, its belief
board, text it typed and did not send) must give the same pixels once the curtain falls for the next player:
the curtain as the eye sees it, and everything under it (board, zones, game panel, belief dock, log, move
list, status bar), which would show if the curtain were moved, transparent or read by a screen reader. The
windows are painted whole, so a panel added later that keeps a seat's secrets fails here without being named.
RBC and Blind Chess (two seats), and the four-seat Scouts test game, where the curtain also falls between
team partners.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPoint  # noqa: E402
from PySide6.QtGui import QImage, QPainter, QRegion  # noqa: E402
from PySide6.QtWidgets import QApplication, QDockWidget, QTabWidget, QWidget  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def behind_the_curtain(window: Any) -> QImage:
    """The window painted without its curtain: every visible part of it (menu bar, board, docks, status bar)
    as it would show if the curtain were not there. Nothing is hidden or moved to paint it."""
    image = QImage(window.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    window.render(painter, QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground)
    for child in window.children():  # in stacking order, the lowest first
        if isinstance(child, QWidget) and child is not window.curtain and child.isVisible() \
                and not child.isWindow():
            child.render(painter, child.pos())
    painter.end()
    return image


def curtain_pictures(window: Any, qtbot: Any) -> list[QImage]:
    """The window as it looks while the curtain is up, then the window under its curtain once with each page
    of each tabbed panel on top (a page behind another tab, such as the move list, is in sight a click later)."""
    controller = window.controller
    assert controller.curtain_for is not None and controller.screen_seat is None
    assert window.curtain.isVisible()
    floating = [dock for dock in window.findChildren(QDockWidget) if dock.isFloating() and dock.isVisible()]
    assert floating == []  # a floating panel would be outside the curtain
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))  # no hover preview of a resting pointer
    qtbot.wait(20)  # layouts settle
    pictures = [window.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)]
    for tabs in window.findChildren(QTabWidget):
        shown = tabs.currentIndex()
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
            pictures.append(behind_the_curtain(window).convertToFormat(QImage.Format.Format_ARGB32))
        tabs.setCurrentIndex(shown)
    if not window.findChildren(QTabWidget):
        pictures.append(behind_the_curtain(window).convertToFormat(QImage.Format.Format_ARGB32))
    return pictures


def where_they_differ(a: QImage, b: QImage, name: str) -> str:
    """Where two pictures differ (and, if SIGHTLINE_TEST_IMAGES names a folder, both saved there)."""
    xs, ys = [], []
    for y in range(0, min(a.height(), b.height()), 2):
        for x in range(0, min(a.width(), b.width()), 2):
            if a.pixel(x, y) != b.pixel(x, y):
                xs.append(x)
                ys.append(y)
    folder = os.environ.get("SIGHTLINE_TEST_IMAGES")
    if folder:
        a.save(os.path.join(folder, f"{name}-a.png"))
        b.save(os.path.join(folder, f"{name}-b.png"))
    return (f"{name}: {len(xs)} pixels differ in x {min(xs, default=0)}..{max(xs, default=0)}, "
            f"y {min(ys, default=0)}..{max(ys, default=0)}")


def assert_same(first: list[QImage], second: list[QImage], what: str) -> None:
    assert len(first) == len(second)
    for index, (a, b) in enumerate(zip(first, second)):
        assert a.size() == b.size(), what
        assert a == b, where_they_differ(a, b, f"{what}-{index}")


def keep_secrets(window: Any, variant_has_belief: bool) -> None:
    """Seat A's private marks besides its actions: an arrow and a circle, a supposed piece on its belief board
    with the overlay on, and a move typed but not sent."""
    window.board.set_annotations([((4, 1), (4, 3))], [(3, 4)])
    window._annotations_changed()  # as a drawing with the mouse reports it
    assert window.controller.annotations[window.controller.screen_seat] != ([], [])
    if variant_has_belief:
        panel = window.belief_panel
        panel.overlay_box.setChecked(True)
        assert panel.place_piece(chess.E5, chess.KNIGHT)
        assert window.board.ghosts()
    window.entry.setText("Nf3 next?")


# ---- RBC and Blind Chess -------------------------------------------------------------------------------------

def _two_seat_game(window: Any, qtbot: Any, variant: str, private: int) -> tuple[list[QImage], QImage]:
    """A hot-seat game in which White acts by choice ``private`` (0 or 1: other senses, other moves, and with 1
    secrets kept besides) and Black acts the same in both: the pictures of every curtain after White's first
    move (for Black, for White, for Black again), and White's own screen just before its second move (which
    must differ between the choices, or the comparison would prove nothing)."""
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame(variant, False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    pictures: list[QImage] = []

    def turn(sense: tuple[int, int], origin: tuple[int, int], target: tuple[int, int]) -> None:
        controller.lift_curtain()
        if controller.scene().sense_window is not None:
            controller.sense(sense)
        assert target in controller.scene().targets[origin]
        controller.move(origin, target, None)
        assert controller.curtain_for is not None
        pictures.extend(curtain_pictures(window, qtbot))

    turn([(1, 1), (6, 6)][private], *[((6, 0), (5, 2)), ((4, 1), (4, 3))][private])  # White: Nf3 or e4
    turn((1, 6), (0, 6), (0, 5))  # Black, the same in both games: a6, sensing its own corner
    controller.lift_curtain()  # White again, its move list and log now its own
    if controller.scene().sense_window is not None:
        controller.sense([(1, 1), (3, 6)][private])
    if private:
        keep_secrets(window, games.get(variant).inference is not None)
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    own_screen = behind_the_curtain(window)
    controller.move(*[((1, 0), (2, 2)), ((6, 0), (5, 2))][private], None)  # Nc3 or Nf3
    assert controller.curtain_for == 1
    pictures.extend(curtain_pictures(window, qtbot))
    return pictures, own_screen


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_the_whole_window_behind_the_curtain_is_the_same_whatever_the_last_seat_did(window, qtbot,
                                                                                    variant: str) -> None:
    _two_seat_game(window, qtbot, variant, 0)  # a first game: the docks are made and laid out
    first, first_own = _two_seat_game(window, qtbot, variant, 0)
    second, second_own = _two_seat_game(window, qtbot, variant, 1)
    assert first_own != second_own  # White's own screens differ (sense, arrows, belief board, typing) ...
    assert_same(first, second, f"{variant}-curtain")  # ... and nothing of it is left once the curtain falls


# ---- Scouts: four seats, two teams ---------------------------------------------------------------------------

@pytest.fixture
def scouts(window: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The window with the test games registered (Scouts among them) for one test."""
    monkeypatch.syspath_prepend(str(ROOT))  # the test games are imported as tests.games.*
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, "tests.games.lights,tests.games.scouts")
    return window


def _scouts_game(window: Any, qtbot: Any, private: int) -> tuple[list[QImage], QImage]:
    """Scouts among four people: W1 steps by choice ``private`` in each of its turns (with 1 also keeping
    secrets), the others step the same in both games. The pictures of every curtain from W1's first step on:
    for B1 (an enemy), W2 (W1's partner), B2, W1, and after W1's second step B1 and W2 again; and W1's own
    screen before its second step (its log and move list by then its own)."""
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController("scouts", [SeatConfig(name) for name in games.get("scouts").seat_names],
                                TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    pictures: list[QImage] = []

    def step(seat: str, origin: tuple[int, int], target: tuple[int, int]) -> None:
        assert controller.game.seat_names[controller.curtain_for] == seat
        controller.lift_curtain()
        controller.move(origin, target, None)
        pictures.extend(curtain_pictures(window, qtbot))

    step("W1", (0, 0), [(1, 1), (0, 1)][private])  # a1-b2 or a1-a2
    step("B1", (0, 5), (1, 4))  # a6-b5
    step("W2", (3, 0), (3, 1))  # d1-d2
    step("B2", (3, 5), (3, 4))  # d6-d5
    controller.lift_curtain()  # W1 again
    if private:
        keep_secrets(window, False)
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    own_screen = behind_the_curtain(window)
    controller.move((2, 0), [(2, 1), (1, 0)][private], None)  # c1-c2 or c1-b1
    pictures.extend(curtain_pictures(window, qtbot))
    step("B1", (2, 5), (2, 4))  # c6-c5
    assert controller.game.seat_names[controller.curtain_for] == "W2"  # W1's partner
    return pictures, own_screen


def test_the_whole_window_behind_the_curtain_keeps_scouts_partners_apart(scouts, qtbot) -> None:
    _scouts_game(scouts, qtbot, 0)
    first, first_own = _scouts_game(scouts, qtbot, 0)
    second, second_own = _scouts_game(scouts, qtbot, 1)
    assert first_own != second_own
    assert_same(first, second, "scouts-curtain")


# ---- the mechanism -------------------------------------------------------------------------------------------

def test_every_widget_fed_from_a_seat_is_fed_nobody_when_the_curtain_falls(window, qtbot) -> None:
    """A surface added to the window is given nobody's screen behind the curtain without being listed anywhere
    else: the curtain does not name widgets."""
    from app.ui.new_game_dialog import NewGame
    from app.ui.seat_screen import SeatScreen
    seen: list[SeatScreen] = []
    window.private.add("a new hand widget", seen.append)
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    assert seen[-1].seat == 0 and seen[-1].scene.pieces and seen[-1].log
    controller.sense((4, 4))
    controller.move((4, 1), (4, 3), None)
    last = seen[-1]
    assert last.seat is None and last.scene.pieces == {} and last.log == () and last.moves == ()
    assert last.clocks == () and not any(command.enabled for command in last.commands)
    assert window.private.names()[:4] == ["board", "notes", "panel", "reviews"] and "belief" in window.private.names()
    late: list[SeatScreen] = []
    window.private.add("made behind the curtain", late.append)
    assert late and late[0].seat is None  # a surface made while the curtain is up starts with nobody's screen
