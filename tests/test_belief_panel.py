"""The belief panel (app/ui/belief_panel.py) and the board widget's heat map and flags, with pytest-qt."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.games.blind.rules import Attempt, BlindChess, BlindChessView  # noqa: E402
from app.games.rbc.rules import ReconChess, ReconChessView, Sense  # noqa: E402
from app.ui.belief_panel import BeliefPanel, palette_mime, to_square  # noqa: E402
from app.ui.board_widget import BoardWidget  # noqa: E402


def rbc_view(game: ReconChess, seat: int = 0) -> ReconChessView:
    return ReconChessView.from_observations(game.observations(seat))


@pytest.fixture
def panel(qtbot) -> BeliefPanel:
    widget = BeliefPanel(seat_colour=chess.WHITE)
    qtbot.addWidget(widget)
    widget.resize(340, 600)
    widget.set_view(rbc_view(ReconChess()), chess.WHITE)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def centre(panel: BeliefPanel, square: int) -> QPoint:
    return panel.board.square_rect(to_square(square)).center()


def drop(panel: BeliefPanel, letter: str, square: int) -> None:
    """What Qt does when a palette piece is dropped (QDrag.exec runs a nested loop, unusable in a test)."""
    data = palette_mime(letter)  # the event does not own it: keep it alive while the event is handled
    event = QDropEvent(QPointF(centre(panel, square)), Qt.DropAction.CopyAction, data,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    panel.board.dropEvent(event)
    assert event.isAccepted()


def drag(qtbot, panel: BeliefPanel, origin: QPoint, target: QPoint) -> None:
    board = panel.board
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=origin)
    middle = QPoint((origin.x() + target.x()) // 2, (origin.y() + target.y()) // 2)
    qtbot.mouseMove(board, middle)
    qtbot.mouseMove(board, target)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=target)


def test_drop_from_the_palette_places_a_piece_and_updates_the_counts(qtbot, panel: BeliefPanel) -> None:
    button = panel.palette_button(chess.KNIGHT)
    assert button.text() == "0/2+"
    with qtbot.waitSignal(panel.hypothesesChanged):
        drop(panel, "n", chess.F6)
    assert panel.belief().pieces() == {chess.F6: chess.KNIGHT}
    assert panel.board.ghosts() == {(5, 5): "n"}
    assert button.text() == "1/2+"
    assert panel.undo_button.isEnabled() and not panel.redo_button.isEnabled()


def test_a_drop_without_palette_data_is_ignored(panel: BeliefPanel) -> None:
    from PySide6.QtCore import QMimeData
    data = QMimeData()
    data.setText("n")
    event = QDropEvent(QPointF(centre(panel, chess.F6)), Qt.DropAction.CopyAction, data,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    panel.board.dropEvent(event)
    assert len(panel.belief()) == 0


def test_click_a_palette_piece_then_squares(qtbot, panel: BeliefPanel) -> None:
    qtbot.mouseClick(panel.palette_button(chess.PAWN), Qt.MouseButton.LeftButton)
    assert panel.board.armed() == "p"
    for square in (chess.A6, chess.B6):
        qtbot.mouseClick(panel.board, Qt.MouseButton.LeftButton, pos=centre(panel, square))
    assert panel.belief().pieces() == {chess.A6: chess.PAWN, chess.B6: chess.PAWN}
    qtbot.keyClick(panel, Qt.Key.Key_Escape)
    assert panel.board.armed() is None
    qtbot.mouseClick(panel.board, Qt.MouseButton.LeftButton, pos=centre(panel, chess.C6))
    assert len(panel.belief()) == 2


def test_drag_moves_a_supposed_piece_and_off_the_board_removes_it(qtbot, panel: BeliefPanel) -> None:
    panel.place_piece(chess.G8, chess.KNIGHT)
    with qtbot.waitSignal(panel.hypothesesChanged):
        drag(qtbot, panel, centre(panel, chess.G8), centre(panel, chess.F6))
    assert panel.belief().pieces() == {chess.F6: chess.KNIGHT}
    assert panel.board.dragged_square() is None and panel.board.ghosts() == {(5, 5): "n"}
    outside = QPoint(panel.board.width() + 30, panel.board.height() // 2)
    drag(qtbot, panel, centre(panel, chess.F6), outside)
    assert len(panel.belief()) == 0 and panel.board.ghosts() == {}
    # A click (no drag) on a supposed piece changes nothing.
    panel.place_piece(chess.D5, chess.PAWN)
    qtbot.mouseClick(panel.board, Qt.MouseButton.LeftButton, pos=centre(panel, chess.D5))
    assert panel.belief().pieces() == {chess.D5: chess.PAWN}


def test_right_click_removes(qtbot, panel: BeliefPanel) -> None:
    panel.place_piece(chess.D5, chess.PAWN)
    panel.place_piece(chess.E5, chess.PAWN)
    qtbot.mouseClick(panel.board, Qt.MouseButton.RightButton, pos=centre(panel, chess.D5))
    assert panel.belief().pieces() == {chess.E5: chess.PAWN}
    qtbot.mouseClick(panel.board, Qt.MouseButton.RightButton, pos=centre(panel, chess.A3))  # nothing there
    assert panel.belief().pieces() == {chess.E5: chess.PAWN}
    assert panel.board.annotations() == ([], [])


def test_undo_redo_by_buttons_and_keys(qtbot, panel: BeliefPanel) -> None:
    panel.place_piece(chess.D5, chess.PAWN)
    drag(qtbot, panel, centre(panel, chess.D5), centre(panel, chess.D4))
    qtbot.mouseClick(panel.undo_button, Qt.MouseButton.LeftButton)
    assert panel.belief().pieces() == {chess.D5: chess.PAWN}
    qtbot.mouseClick(panel.redo_button, Qt.MouseButton.LeftButton)
    assert panel.belief().pieces() == {chess.D4: chess.PAWN}
    panel.board.setFocus()
    qtbot.keyClick(panel.board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert panel.belief().pieces() == {chess.D5: chess.PAWN}
    qtbot.keyClick(panel.board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert panel.belief().pieces() == {}
    assert not panel.undo_button.isEnabled()
    qtbot.keyClick(panel.board, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert panel.belief().pieces() == {chess.D5: chess.PAWN}


def test_clear_and_starting_position_are_single_steps(qtbot, panel: BeliefPanel) -> None:
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    assert len(panel.belief()) == 16 and panel.palette_button(chess.PAWN).text() == "8/8"
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert len(panel.belief()) == 0 and not panel.clear_button.isEnabled()
    panel.undo()
    assert len(panel.belief()) == 16
    panel.undo()
    assert len(panel.belief()) == 0


def test_a_contradicting_sense_flags_the_piece_and_fix_removes_it(qtbot, panel: BeliefPanel) -> None:
    game = ReconChess()
    panel.set_view(rbc_view(game), chess.WHITE)
    panel.place_piece(chess.E5, chess.KNIGHT)
    panel.place_piece(chess.A5, chess.BISHOP)
    assert panel.flags() == {} and not panel.fix_button.isEnabled() and panel.flag_label.isHidden()
    game.play(0, Sense(chess.E6))
    panel.set_view(rbc_view(game), chess.WHITE)
    assert panel.flags() == {chess.E5: "sensed empty on turn 1"}
    assert panel.board.flags() == {(4, 4): "sensed empty on turn 1"}
    assert panel.fix_button.isEnabled() and panel.fix_button.text() == "Fix flagged"
    assert panel.flag_label.isVisible() and panel.flag_label.text().startswith("1 supposed piece contradicts")
    tooltip = panel.board.describe_square((4, 4))  # the text the square's tooltip shows
    assert "maybe a black knight" in tooltip and "contradicted: sensed empty on turn 1" in tooltip
    with qtbot.waitSignal(panel.hypothesesChanged):
        qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    assert panel.belief().pieces() == {chess.A5: chess.BISHOP}
    assert panel.flags() == {} and panel.board.flags() == {}


def test_a_reveal_flags_a_piece_of_another_type(qtbot) -> None:
    game = BlindChess()
    panel = BeliefPanel(seat_colour=chess.BLACK)
    qtbot.addWidget(panel)
    panel.set_view(BlindChessView.from_observations(game.observations(1)), chess.BLACK)
    assert panel.board.is_flipped() and panel.palette_button(chess.QUEEN).letter == "Q"
    panel.place_piece(chess.E4, chess.KNIGHT)  # Black supposes a white knight on e4
    game.play(0, Attempt.parse("e2e4"))
    game.play(1, Attempt.parse("e7e5"))  # the square in front of e5 is revealed to Black
    view = BlindChessView.from_observations(game.observations(1))
    panel.set_view(view, chess.BLACK)
    assert panel.flags() == {chess.E4: "a pawn was revealed here on turn 1"}
    panel.fix_flagged()
    assert len(panel.belief()) == 0


def test_fix_flagged_fixes_what_the_inference_flags(qtbot, panel: BeliefPanel) -> None:
    """Issue 26, item 5: the panel counted flags from the inference ("no position ... has a queen here"), and
    its "Fix flagged (1)" button then changed nothing."""
    from app.games.rbc.inference import RbcInference
    game = ReconChess()
    panel.set_view(rbc_view(game), chess.WHITE)
    panel.place_piece(chess.D4, chess.QUEEN)  # no black queen can stand on d4 before Black has moved
    summary = RbcInference.from_observations(0, game.observations(0)).summary()
    panel.set_heat(summary.squares, summary.count_text(), possible=summary.possible_by_type)
    assert panel.flags() == {chess.D4: "no position that fits what you know has a queen here"}
    assert panel.fix_button.isEnabled() and panel.flag_label.text().startswith("1 supposed piece contradicts")
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    assert len(panel.belief()) == 0 and panel.flags() == {}
    assert not panel.fix_button.isEnabled()


def test_palette_counts_follow_captures(qtbot) -> None:
    game = BlindChess()
    panel = BeliefPanel(seat_colour=chess.WHITE)
    qtbot.addWidget(panel)
    for seat, move in ((0, "e2e4"), (1, "d7d5"), (0, "e4d5")):
        game.play(seat, Attempt.parse(move))
    panel.set_view(BlindChessView.from_observations(game.observations(0)), chess.WHITE)
    panel.place_starting_position()
    # Black has lost a pawn: the starting position supposes one too many, so the count turns red and the
    # newest pawn is flagged.
    assert panel.palette_button(chess.PAWN).text() == "8/7"
    assert "color: #c62828" in panel.palette_button(chess.PAWN).styleSheet()  # more than can exist
    assert len(panel.flags()) == 1  # the newest surplus pawn


def test_heat_map_switch_and_palette_hover(qtbot, panel: BeliefPanel) -> None:
    heat = {chess.E5: 0.6, chess.D5: 0.1}
    knights = {chess.F6: 0.9}
    panel.set_heat(heat, "about 12,400 positions possible", by_type={chess.KNIGHT: knights})
    assert panel.board.heat() == {} and panel.status_label.isHidden()  # both switches start off
    with qtbot.waitSignal(panel.heatMapToggled) as toggled:
        panel.heat_box.setChecked(True)
    assert toggled.args == [True]
    assert panel.board.heat() == {(4, 4): 0.6, (3, 4): 0.1}
    with qtbot.waitSignal(panel.paletteHovered) as hovered:
        QApplication.sendEvent(panel.palette_button(chess.KNIGHT), QEvent(QEvent.Type.Enter))
    assert hovered.args == [chess.KNIGHT]
    assert panel.board.heat() == {(5, 5): 0.9}
    with qtbot.waitSignal(panel.paletteHovered) as hovered:
        QApplication.sendEvent(panel.palette_button(chess.KNIGHT), QEvent(QEvent.Type.Leave))
    assert hovered.args == [None]
    assert panel.board.heat() == {(4, 4): 0.6, (3, 4): 0.1}
    panel.count_box.setChecked(True)
    assert panel.status_label.isVisible() and panel.status_label.text() == "about 12,400 positions possible"
    panel.heat_box.setChecked(False)
    assert panel.board.heat() == {}


def test_overlay_on_the_main_board(qtbot, panel: BeliefPanel) -> None:
    main = BoardWidget()
    qtbot.addWidget(main)
    game = ReconChess()
    panel.place_piece(chess.E5, chess.KNIGHT)
    game.play(0, Sense(chess.E6))
    panel.set_view(rbc_view(game), chess.WHITE)
    panel.set_heat({chess.E5: 0.25}, "")
    panel.apply_overlay(main)
    assert main.ghosts() == {} and main.flags() == {} and main.heat() == {}
    with qtbot.waitSignal(panel.overlayToggled):
        panel.overlay_box.setChecked(True)
    panel.heat_box.setChecked(True)
    panel.apply_overlay(main)
    assert main.ghosts() == {(4, 4): "n"}
    assert main.flags() == {(4, 4): "sensed empty on turn 1"}
    assert main.heat() == {(4, 4): 0.25}


def test_a_seat_of_the_other_colour_gets_a_fresh_board_and_minit_is_refused(qtbot, panel: BeliefPanel) -> None:
    panel.place_piece(chess.E5, chess.KNIGHT)
    panel.set_view(rbc_view(ReconChess(), 1), chess.BLACK)
    assert len(panel.belief()) == 0 and panel.belief().enemy == chess.WHITE
    assert panel.palette_button(chess.KING).letter == "K"
    from app.games.minit.rules import MinitChess, MinitChessView
    with pytest.raises(TypeError, match="Reconnaissance Blind Chess and Blind Chess"):
        panel.set_view(MinitChessView.from_observations(MinitChess().observations(0)), chess.WHITE)


# ---- shrinking in a short dock --------------------------------------------------------------------------------


def _inside(panel: BeliefPanel, widget) -> bool:
    """Whether ``widget`` lies wholly inside the part of the panel one can see."""
    top_left = widget.mapTo(panel, QPoint(0, 0))
    return panel.rect().contains(top_left) and panel.rect().contains(top_left + QPoint(widget.width() - 1,
                                                                                      widget.height() - 1))


def test_a_roomy_panel_shows_everything_without_scrolling(qtbot, panel: BeliefPanel) -> None:
    for width, height in ((340, 600), (340, 900)):
        panel.resize(width, height)
        qtbot.waitUntil(lambda: panel.size().height() == height)
        QApplication.processEvents()
        board = panel.board.geometry()
        assert board.height() == board.width()  # square, and no taller: spare height goes below the controls
        assert not panel.scroll_area.verticalScrollBar().isVisible()
        for widget in (panel.board, panel.palette_button(chess.PAWN), panel.fix_button, panel.count_box):
            assert _inside(panel, widget)


def test_a_short_panel_shrinks_its_board_then_scrolls(qtbot, panel: BeliefPanel) -> None:
    assert panel.minimumSizeHint().height() <= 150  # a dock may be far shorter than the whole panel
    panel.resize(320, 420)
    qtbot.waitUntil(lambda: panel.height() == 420)
    QApplication.processEvents()
    assert panel.board.height() < 260 and _inside(panel, panel.count_box)  # the board gave way, not the switches
    panel.resize(320, 200)
    qtbot.waitUntil(lambda: panel.height() == 200)
    QApplication.processEvents()
    bar = panel.scroll_area.verticalScrollBar()
    assert bar.isVisible() and not _inside(panel, panel.count_box)
    panel.scroll_area.ensureWidgetVisible(panel.count_box)
    assert bar.value() > 0 and _inside(panel, panel.count_box)  # scrolling reaches the switches
    assert panel.board.width() >= 8 * 18 and panel.board.height() >= 8 * 18
    assert panel.scroll_area.widget().width() == panel.scroll_area.viewport().width()  # never sideways


# ---- the board widget's additions ----------------------------------------------------------------------------


def test_board_heat_and_flags_are_drawn_and_checked(qtbot) -> None:
    board = BoardWidget()
    qtbot.addWidget(board)
    board.resize(400, 400)
    board.show()
    qtbot.waitExposed(board)
    before = board.grab().toImage()
    point = board.square_rect((2, 2)).topLeft() + QPoint(3, 3)
    plain = before.pixelColor(point)
    board.set_heat({(2, 2): 0.8})
    tinted = board.grab().toImage().pixelColor(point)
    assert tinted != plain and tinted.red() >= tinted.blue()
    board.set_heat({(2, 2): 0.001})  # small, but possible: tinted (only a chance of zero leaves a square plain)
    assert board.grab().toImage().pixelColor(point) != plain
    board.set_heat({(2, 2): 0.0})
    assert board.grab().toImage().pixelColor(point) == plain
    board.set_heat({(2, 2): 3.0, (1, 1): -1})
    assert board.heat() == {(2, 2): 1.0, (1, 1): 0.0}
    with pytest.raises(ValueError, match="off the 8x8 board"):
        board.set_heat({(8, 0): 0.5})
    with pytest.raises(ValueError, match="not a number"):
        board.set_heat({(0, 0): float("nan")})
    board.set_heat(None)
    assert board.heat() == {}
    board.set_flags({(3, 3): "sensed empty on turn 2"})
    assert "contradicted: sensed empty on turn 2" in board.describe_square((3, 3))
    badge = board.square_rect((3, 3)).bottomLeft() + QPoint(8, -8)
    assert board.grab().toImage().pixelColor(badge) != before.pixelColor(badge)
    with pytest.raises(ValueError):
        board.set_flags({(0, 9): "x"})
    board.set_board_size(5, 6)  # a new size forgets heat and flags like everything else
    assert board.flags() == {} and board.heat() == {}
