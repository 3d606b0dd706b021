"""Whole games in the window, played the way a person plays them: mouse clicks on the board, keys in the move
entry, the panel's buttons and the curtain. Every step is checked for leaks while the game runs."""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, Qt  # noqa: E402
from PySide6.QtWidgets import QDockWidget, QMessageBox  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Reason  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402
from tests.test_game_window import _check_screen  # noqa: E402

FILES = "abcdefgh"



def _click(qtbot, window, square, button=Qt.MouseButton.LeftButton) -> None:
    qtbot.mouseClick(window.board, button, pos=window.board.square_rect(square).center())


def _type(qtbot, window, text: str) -> None:
    window.entry.clear()
    qtbot.keyClicks(window.entry, text)
    qtbot.keyClick(window.entry, Qt.Key.Key_Return)


def _name(square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def _lift_if_needed(qtbot, window) -> None:
    controller = window.controller
    if controller.curtain_for is not None:
        _check_screen(window)
        assert window.curtain.isVisible()
        qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
        assert controller.curtain_for is None and controller.screen_seat == controller.game.to_move


def _play_a_move(qtbot, window, rng: random.Random, separator: str = "") -> None:
    """A random possible move of the seat at the screen: by two clicks, or typed (promotions always typed)."""
    scene = window.controller.scene()
    origin = rng.choice(sorted(scene.targets))
    target = rng.choice(sorted(scene.targets[origin]))
    promotions = scene.targets[origin][target]
    before = len(window.controller.session.record.entries)
    if promotions or rng.random() < 0.25:
        _type(qtbot, window, f"{_name(origin)}{separator}{_name(target)}{promotions[0] if promotions else ''}")
    else:
        _click(qtbot, window, origin)
        _click(qtbot, window, target)
    assert len(window.controller.session.record.entries) == before + 1, window.panel.entry_error.text()


def _resign_by_button(window, monkeypatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes)
    window.resign_button.click()


def _assert_true_position_shown(window) -> None:
    truth = window.controller.truth_scene()
    assert truth is not None and window.board.pieces() == truth.pieces
    assert window.panel.truth_button.isVisible()
    window.panel.truth_button.click()  # back to what the seat saw
    assert window.board.pieces() == window.controller.scene().pieces
    window.panel.truth_button.click()
    assert window.board.pieces() == truth.pieces


def test_a_whole_hot_seat_rbc_game_by_clicks_and_keys(window, qtbot, monkeypatch) -> None:
    rng = random.Random(11)
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller = window.controller
    for _ in range(500):
        if controller.outcome is not None:
            break
        _lift_if_needed(qtbot, window)
        _check_screen(window)
        scene = controller.scene()
        if scene.sense_window is not None:
            square = (rng.randrange(1, 7), rng.randrange(1, 7))
            if rng.random() < 0.3:
                _type(qtbot, window, _name(square))
            else:
                _click(qtbot, window, square)
            assert controller.game.phase == "move"
        elif rng.random() < 0.05:
            qtbot.mouseClick(window.pass_button, Qt.MouseButton.LeftButton)
        else:
            _play_a_move(qtbot, window, rng)
        if controller.outcome is None:
            _check_screen(window)
    if controller.outcome is None:
        _lift_if_needed(qtbot, window)
        _resign_by_button(window, monkeypatch)
    assert controller.outcome is not None
    assert not window.curtain.isVisible()
    _assert_true_position_shown(window)
    assert window.moves.toPlainText().startswith("1. sense")


def test_rbc_against_a_bot_by_clicks(window, qtbot, monkeypatch) -> None:
    rng = random.Random(5)
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller = window.controller
    for _ in range(300):
        qtbot.waitUntil(lambda: controller.outcome is not None or controller.game.to_move == 0, timeout=15000)
        if controller.outcome is not None:
            break
        assert controller.curtain_for is None  # one person at the screen: no curtain
        _check_screen(window)
        if controller.scene().sense_window is not None:
            _click(qtbot, window, (rng.randrange(1, 7), rng.randrange(4, 7)))
        else:
            _play_a_move(qtbot, window, rng)
    if controller.outcome is None:
        _resign_by_button(window, monkeypatch)
    assert controller.outcome is not None
    _assert_true_position_shown(window)
    assert len(controller.session.record.entries) > 4


def test_a_whole_blind_chess_game_with_draw_offers(window, qtbot) -> None:
    rng = random.Random(2)
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    for _ in range(24):
        if controller.outcome is not None:
            break
        _lift_if_needed(qtbot, window)
        _check_screen(window)
        _play_a_move(qtbot, window, rng)
    assert controller.outcome is None
    for accept in (False, True):
        _lift_if_needed(qtbot, window)
        offering = controller.screen_seat
        assert window.draw_button.isEnabled()
        qtbot.mouseClick(window.draw_button, Qt.MouseButton.LeftButton)
        _lift_if_needed(qtbot, window)
        assert controller.screen_seat == 1 - offering and window.accept_button.isVisible()
        button = window.accept_button if accept else window.decline_button
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        if not accept:
            _lift_if_needed(qtbot, window)
            assert controller.screen_seat == offering  # the offer was declined: the offerer moves on
            _play_a_move(qtbot, window, rng)
    assert controller.outcome is not None and controller.outcome.winner is None
    assert controller.outcome.reason == Reason.DRAW_AGREED
    _assert_true_position_shown(window)


def test_a_whole_minitchess_game_by_typed_moves(window, qtbot, monkeypatch) -> None:
    rng = random.Random(4)
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    for _ in range(300):
        if controller.outcome is not None:
            break
        _lift_if_needed(qtbot, window)
        _play_a_move(qtbot, window, rng, separator="-") if rng.random() < 0.8 else _play_a_move(qtbot, window, rng)
    if controller.outcome is None:
        _lift_if_needed(qtbot, window)
        _resign_by_button(window, monkeypatch)
    assert controller.outcome is not None
    assert window.moves.toPlainText().startswith("1. ")


def test_each_hot_seat_player_keeps_their_own_annotations_until_the_opponent_acts(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    _lift_if_needed(qtbot, window)
    _click(qtbot, window, (3, 6))  # White senses d7
    _click(qtbot, window, (5, 5), Qt.MouseButton.RightButton)  # and circles f6
    assert window.board.annotations() == ([], [(5, 5)])
    _type(qtbot, window, "Nf3")
    assert controller.curtain_for == 1
    assert window.board.annotations() == ([], [])  # nothing of White's behind the curtain
    _lift_if_needed(qtbot, window)
    assert window.board.annotations() == ([], [])  # Black starts with none of White's marks
    _click(qtbot, window, (4, 1))
    _click(qtbot, window, (2, 2), Qt.MouseButton.RightButton)
    _type(qtbot, window, "e5")
    assert controller.annotations[1] == ([], [(2, 2)])  # Black's own circle stays while Black plays
    _lift_if_needed(qtbot, window)
    # Black has played since White drew: White's circle went with it (as on Lichess); Black's is not shown.
    assert window.board.annotations() == ([], []) and controller.annotations[0] == ([], [])
    _click(qtbot, window, (2, 5), Qt.MouseButton.RightButton)
    assert window.board.annotations() == ([], [(2, 5)])


def test_typed_moves_understand_san_and_explain_mistakes(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    _lift_if_needed(qtbot, window)
    _type(qtbot, window, "z9")
    assert window.panel.entry_error.isVisible() and "square to sense" in window.panel.entry_error.text()
    _type(qtbot, window, "d7")
    assert controller.game.phase == "move" and not window.panel.entry_error.isVisible()
    _type(qtbot, window, "Qh5")
    assert "no queen" in window.panel.entry_error.text().lower()
    assert controller.game.to_move == 0  # the mistake changed nothing
    _type(qtbot, window, "Nc3")
    assert controller.session.record.entries[-1].action["move"] == "b1c3"


def test_low_time_is_shown_in_red(window, qtbot) -> None:
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(25, 0), "50-move"))
    _lift_if_needed(qtbot, window)
    assert window.panel.clock_is_low()
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    _lift_if_needed(qtbot, window)
    assert not window.panel.clock_is_low()


def test_panel_layout_and_piece_set_are_restored(qtbot) -> None:
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"layout-{os.getpid()}")
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    first.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, first.panel_dock)
    first.view_choices.piece_set("letters")
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    assert second.dockWidgetArea(second.findChild(QDockWidget, "gameDock")) == Qt.DockWidgetArea.LeftDockWidgetArea
    from app.ui import pieces
    assert pieces.piece_set() == "letters"
    second.view_choices.piece_set("cburnett")
    second.close()


def test_each_hot_seat_player_has_a_private_belief_board(window, qtbot) -> None:
    import chess
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    panel = window.belief_panel
    assert panel is not None and window.belief_dock.isVisible()
    _lift_if_needed(qtbot, window)
    panel.place_piece(chess.D5, chess.KNIGHT)
    panel.overlay_box.setChecked(True)
    assert window.board.ghosts() == {(3, 4): "n"}  # White's guess drawn on the main board as a ghost
    _click(qtbot, window, (3, 6))
    _type(qtbot, window, "e4")
    assert controller.curtain_for == 1
    assert panel.belief().pieces() == {} and window.board.ghosts() == {}  # nothing of White's behind the curtain
    _lift_if_needed(qtbot, window)
    assert panel.belief().pieces() == {}  # Black's own board is empty
    panel.place_starting_position()
    assert len(panel.belief().pieces()) == 16
    _click(qtbot, window, (4, 1))
    _type(qtbot, window, "e5")
    _lift_if_needed(qtbot, window)
    assert panel.belief().pieces() == {chess.D5: chess.KNIGHT}
    assert len(controller.beliefs[1].pieces()) == 16
    _check_screen(window)


def test_minitchess_has_no_belief_board(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    assert not window.belief_dock.isVisible()
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    assert window.belief_dock.isVisible()


def test_san_pawn_moves_are_never_captures_by_mistake() -> None:
    from app.games.move_input import MoveTextError, parse_move_text
    pieces = {(3, 3): "P", (4, 2): "P", (3, 2): "P"}
    targets = {(3, 3): {(4, 4): [], (3, 4): [], (2, 4): []}, (4, 2): {(4, 3): [], (3, 3): []},
               (3, 2): {(3, 3): [], (4, 3): [], (2, 3): []}}
    assert parse_move_text("e4", pieces, targets, 8, 8) == ((4, 2), (4, 3), None)  # not d3xe4
    assert parse_move_text("dxe4", pieces, targets, 8, 8) == ((3, 2), (4, 3), None)
    assert parse_move_text("dxe5", pieces, targets, 8, 8) == ((3, 3), (4, 4), None)
    with pytest.raises(MoveTextError):
        parse_move_text("xe5", pieces, targets, 8, 8)
    with pytest.raises(MoveTextError, match="no pawn"):
        parse_move_text("e5", pieces, targets, 8, 8)  # d4xe5 is a capture, not "e5"


def test_the_curtain_ignores_a_held_key_and_an_early_click(window, qtbot, monkeypatch) -> None:
    import app.ui.main_window as main_window
    monkeypatch.setattr(main_window, "CURTAIN_GRACE", 0.7)
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    qtbot.keyClick(window.curtain, Qt.Key.Key_Space)  # the moment it falls: too early
    assert controller.curtain_for == 0
    monkeypatch.setattr(main_window, "CURTAIN_GRACE", 0.0)
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtCore import QEvent
    held = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "\r", True)
    window.curtain.keyPressEvent(held)  # an auto-repeat of the key that sent the last move
    assert controller.curtain_for == 0
    qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
    assert controller.curtain_for is None


def test_typed_text_cannot_be_undone_by_the_next_player(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    _lift_if_needed(qtbot, window)
    _type(qtbot, window, "d7")
    _type(qtbot, window, "Nf3")
    _lift_if_needed(qtbot, window)
    window.entry.undo()
    assert window.entry.text() == ""
