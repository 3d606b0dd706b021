"""The board from the keyboard: the arrow keys move a square cursor, Enter or Space does what a click does there,
and a screen reader is told the square's name and what stands on it."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QKeyEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.ui.board_widget import BoardWidget  # noqa: E402


def _board(qtbot: Any) -> BoardWidget:
    board = BoardWidget()
    qtbot.addWidget(board)
    board.resize(400, 400)
    board.show()
    board.set_pieces({(4, 1): "P", (6, 0): "N", (4, 6): "p"})
    board.set_move_targets({(4, 1): {(4, 2): [], (4, 3): []}, (6, 0): {(5, 2): [], (7, 2): []}})
    return board


def test_arrows_move_the_cursor_and_enter_moves_a_piece(qtbot: Any) -> None:
    board = _board(qtbot)
    moves: list[Any] = []
    board.moveRequested.connect(lambda *move: moves.append(move))
    qtbot.keyClick(board, Qt.Key.Key_Up)  # the first arrow shows the cursor: the middle of the near edge
    assert board.cursor_square() == (4, 0)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.cursor_square() == (4, 1)
    assert board.accessibleName() == "Chess board, e2: white pawn; it may move (Enter to choose it)"
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert board.selected_square() == (4, 1)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.accessibleName() == "Chess board, e4, empty; the chosen piece may move here (Enter)"
    qtbot.keyClick(board, Qt.Key.Key_Space)
    assert moves == [((4, 1), (4, 3), None)]
    for _ in range(12):
        qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.cursor_square() == (4, 7)  # stops at the edge
    board.flip()
    qtbot.keyClick(board, Qt.Key.Key_Up)  # up on the screen: towards rank 1 on a turned board
    assert board.cursor_square() == (4, 6)
    assert "black pawn" in board.accessibleName()


def test_enter_senses_as_the_player_chose_to_confirm_and_the_board_keeps_its_arrow_keys(qtbot: Any) -> None:
    board = _board(qtbot)
    board.set_sense_confirmation("second click")
    board.set_sense_mode(True)
    senses: list[Any] = []
    board.senseRequested.connect(senses.append)
    board.set_cursor_square((3, 6))
    assert sorted(board.hovered_window()) == [(f, r) for f in (2, 3, 4) for r in (5, 6, 7)]  # shown, as by a mouse
    assert board.accessibleName().endswith("; Enter twice picks here")
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert senses == [] and board.proposed_sense() == (3, 6)  # proposed: a stray Enter loses no sense
    qtbot.keyClick(board, Qt.Key.Key_Escape)
    assert board.proposed_sense() is None
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    qtbot.keyClick(board, Qt.Key.Key_Right)
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert senses == [] and board.proposed_sense() == (4, 6)  # another square: proposed in its place
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert senses == [(4, 6)]
    board.set_sense_confirmation("hold")  # a key cannot be held as a button is: Enter twice
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    board.set_sense_confirmation("one click")
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert senses == [(4, 6), (4, 6), (4, 6)]
    board.set_cursor_square((3, 6))
    override = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Left, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(board, override)
    assert override.isAccepted()  # the window's Left (the move list's step back) waits while the board has focus
    other = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Home, Qt.KeyboardModifier.NoModifier)
    other.ignore()
    QApplication.sendEvent(board, other)
    assert not other.isAccepted()


def test_heat_map_numbers_never_cover_a_coordinate(qtbot: Any) -> None:
    """Every square at 100%, flags on some, both ways up, at several sizes: no number's text touches a file letter
    or rank number (the rectangles the text really takes, measured with the board's own font)."""
    from PySide6.QtGui import QFontMetricsF, QPainter, QPixmap
    from app.ui.board_painting import BoardPicture
    board = _board(qtbot)
    every = {(f, r): 1.0 for f in range(8) for r in range(8)}
    board.set_heat(every, show_values=True)
    board.set_flags({(0, 0): "x", (7, 0): "x", (0, 7): "x", (3, 0): "x"})
    pictures = []
    original = BoardPicture.paint

    def keep(picture: BoardPicture, painter: QPainter, dpr: float) -> None:
        pictures.append(picture)
        original(picture, painter, dpr)

    BoardPicture.paint = keep  # type: ignore[method-assign]
    try:
        for width, flipped in ((360, False), (520, True), (800, False)):
            board.resize(width, width)
            if board.is_flipped() != flipped:
                board.flip()
            pixmap = QPixmap(board.size())
            board.render(pixmap)
            picture = pictures[-1]
            size = picture.geometry.size
            font = picture._coordinate_font(size)
            metrics = QFontMetricsF(font)
            taken = [metrics.boundingRect(rect.toRectF() if hasattr(rect, "toRectF") else rect, int(align), text)
                     for _square, rect, align, text in picture.coordinate_labels(size)]
            numbers = picture.heat_labels(size)
            assert len(numbers) >= 60 and len(taken) == 16  # (a number with no room left is not written)
            for square, band, align, text, number_font in numbers:
                drawn = QFontMetricsF(number_font).boundingRect(band, int(align), text).translated(1, 1)
                drawn = drawn.united(QFontMetricsF(number_font).boundingRect(band, int(align), text))  # and its halo
                assert not any(drawn.intersects(label) for label in taken), (width, square, text)
    finally:
        BoardPicture.paint = original  # type: ignore[method-assign]


def test_page_down_reaches_the_items_beside_the_board_and_enter_picks_one(qtbot: Any) -> None:
    from app.games.scene import Card, HandZone, PileZone
    board = _board(qtbot)
    board.set_zones([HandZone(id="hand", cards=(Card("2", "H"), Card("K", "S"))),
                     PileZone(id="pile", place="above", count=3)])
    clicked: list[Any] = []
    board.zoneClicked.connect(lambda zone, index: clicked.append((zone, index)))
    qtbot.keyClick(board, Qt.Key.Key_PageDown)
    first = board.zone_cursor()
    qtbot.keyClick(board, Qt.Key.Key_PageDown)
    qtbot.keyClick(board, Qt.Key.Key_PageDown)
    assert {first, board.zone_cursor()} <= {("pile", 0), ("hand", 0), ("hand", 1)}
    assert board.accessibleName().startswith("Beside the board, ")
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert clicked == [board.zone_cursor()]
    qtbot.keyClick(board, Qt.Key.Key_PageDown)  # past the last item: back onto the board
    assert board.zone_cursor() is None and board.cursor_square() is not None
    qtbot.keyClick(board, Qt.Key.Key_PageUp)
    assert board.zone_cursor() is not None
    qtbot.keyClick(board, Qt.Key.Key_Left)  # an arrow key: back to the square cursor
    assert board.zone_cursor() is None


def test_the_keyboard_cursor_does_not_pass_to_the_next_person(window: Any, qtbot: Any) -> None:
    from app.engine.clock import TimeControl
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    window.board.set_cursor_square((3, 6))  # White's keyboard rests on d7, where it means to sense
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    assert controller.curtain_for == 1
    assert window.board.cursor_square() is None and window.board.accessibleName() == "Chess board"


def test_esc_drops_a_chosen_piece_before_the_window_takes_it(window: Any, qtbot: Any) -> None:
    from app.engine.clock import TimeControl
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("minit", True, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    board = window.board
    board.setFocus()
    board.set_cursor_square((1, 1))
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert board.selected_square() == (1, 1)
    override = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(board, override)
    assert override.isAccepted()  # the board's Esc, not the window's (back to the game / cancel premoves)
    qtbot.keyClick(board, Qt.Key.Key_Escape)
    assert board.selected_square() is None
    nothing = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    nothing.ignore()
    QApplication.sendEvent(board, nothing)
    assert not nothing.isAccepted()  # nothing of the board's to drop: Esc is the window's again


def test_shift_enter_draws_arrows_and_circles_as_the_right_button_does(qtbot: Any) -> None:
    board = _board(qtbot)
    changed: list[Any] = []
    board.annotationsChanged.connect(lambda: changed.append(board.annotations()))
    board.set_cursor_square((4, 1))
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert board.annotations() == ([((4, 1), (4, 3))], [])
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert board.annotations() == ([((4, 1), (4, 3))], [(4, 3)])
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # an arrow begun and dropped
    qtbot.keyClick(board, Qt.Key.Key_Down)
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert board.annotations() == ([((4, 1), (4, 3))], [(4, 3), (4, 2)]) and len(changed) == 3
    assert board.selected_square() is None  # marks are notes: no piece was chosen meanwhile


def test_an_arrow_begun_from_the_keyboard_does_not_pass_to_the_next_person(qtbot: Any) -> None:
    board = _board(qtbot)
    board.set_cursor_square((4, 1))
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    board.forget_cursor()  # the screen passes
    board.set_cursor_square((0, 0))
    qtbot.keyClick(board, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert board.annotations() == ([], [])  # the next person's first Shift+Enter begins an arrow of their own


def test_a_redraw_in_the_same_mode_keeps_a_proposed_sense_and_a_chosen_piece(qtbot: Any) -> None:
    board = _board(qtbot)
    board.set_sense_confirmation("second click")
    board.set_sense_mode(True)
    board.set_cursor_square((3, 6))
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    board.set_sense_mode(True)  # the scene drawn again (a bot answered, the panel moved on)
    assert board.proposed_sense() == (3, 6)
    board.set_sense_mode(False)  # the sense phase is over: the proposal goes
    assert board.proposed_sense() is None
    board.set_cursor_square((4, 1))
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert board.selected_square() == (4, 1)
    board.set_sense_mode(False)
    board.set_move_targets({(4, 1): {(4, 2): [], (4, 3): []}, (6, 0): {(5, 2): [], (7, 2): []}})
    assert board.selected_square() == (4, 1)  # still one of the moves offered: still chosen
    board.set_move_targets({(6, 0): {(5, 2): []}})
    assert board.selected_square() is None


def test_with_moves_and_picks_together_enter_on_a_piece_that_may_move_chooses_it(qtbot: Any) -> None:
    """RBC's premove board offers moves and a sense at once: Enter on a piece that may move is a move's, as a
    click is; Enter elsewhere senses."""
    board = _board(qtbot)
    board.set_sense_mode(True)
    moves: list[Any] = []
    senses: list[Any] = []
    board.moveRequested.connect(lambda *move: moves.append(move))
    board.senseRequested.connect(senses.append)
    board.set_cursor_square((6, 0))
    assert board.hovered_window() == []  # no sense window over the knight
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert board.selected_square() == (6, 0) and senses == []
    board.set_cursor_square((5, 2))
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert moves == [((6, 0), (5, 2), None)] and senses == []
    board.set_cursor_square((3, 5))
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert senses == [(3, 5)]
