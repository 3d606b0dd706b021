"""The game window: hot-seat with the privacy curtain, games against bots, nothing leaked on screen."""

from __future__ import annotations

import os
import random
import subprocess
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QCoreApplication, Qt  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402
from app.games.chess_kit import from_sq8  # noqa: E402



def _revealed_to(controller, seat: int) -> set[tuple[int, str]]:
    """Every (square, piece letter) of the opponent this seat's observations ever showed, and an enemy piece of
    unknown type ("x" or "X") wherever the opponent captured one of its pieces."""
    seen = set()
    unknown = "X" if seat == 1 else "x"
    for observation in controller.game.observations(seat):
        capture_square = getattr(observation, "capture_square", None)  # RBC: the opponent took a piece there
        if type(observation).__name__ == "TurnStarted" and capture_square is not None:
            seen.add((capture_square, unknown))
        if type(observation).__name__ == "PieceLost":
            seen.add((observation.square, unknown))
        for square, piece in getattr(observation, "window", ()) or ():
            if piece is not None:
                seen.add((square, piece.symbol()))
        for square, piece in getattr(observation, "reveals", ()) or ():
            seen.add((square, piece.symbol()))
    return seen


def _check_screen(win) -> None:
    controller = win.controller
    seat = controller.screen_seat
    if seat is None:  # the curtain is up: nothing private of either seat is in any widget
        assert win.curtain.isVisible()
        assert win.board.pieces() == {} and win.board.markers() == [] and win.log.toPlainText() == ""
        assert win.board.ghosts() == {} and win.board.heat() == {} and win.board.annotations() == ([], [])
        if win.belief_panel is not None:
            assert win.belief_panel.belief().pieces() == {} and win.belief_panel.board.pieces() == {}
        assert win.clocks.text() == ""
        return
    assert not win.curtain.isVisible()
    color = seat == 0
    seen = _revealed_to(controller, seat)
    for square, letter in win.board.pieces().items():
        if letter.isupper() != color:
            assert (from_sq8(square), letter) in seen, f"{letter} on {square} was never shown to seat {seat}"


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_hot_seat_game_never_shows_a_seat_more_than_it_was_told(window, qtbot, variant: str) -> None:
    rng = random.Random(7)
    window.start(NewGame(variant, False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    assert controller.curtain_for == 0
    _check_screen(window)
    for _ in range(60):
        if controller.outcome is not None:
            break
        if controller.curtain_for is not None:
            _check_screen(window)
            qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
            assert controller.screen_seat == controller.game.to_move
        _check_screen(window)
        scene = controller.scene()
        if scene.sense_window is not None:
            window.board.senseRequested.emit((rng.randrange(8), rng.randrange(8)))
        elif scene.targets:
            origin = rng.choice(sorted(scene.targets))
            target = rng.choice(sorted(scene.targets[origin]))
            promotions = scene.targets[origin][target]
            window.board.moveRequested.emit(origin, target, promotions[0] if promotions else None)
        else:
            window.pass_button.click()
        _check_screen(window)
    assert len(controller.session.record.entries) > 20


def test_the_clock_of_a_hot_seat_player_starts_when_the_curtain_lifts(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    qtbot.wait(300)
    assert controller.session.seconds_left(0) == 600  # behind the curtain, no time runs
    qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
    qtbot.wait(300)
    assert controller.session.seconds_left(0) < 600
    assert [name for name, _, _ in controller.clock_text()] == ["White"]  # RBC: only your own clock (R4)


def test_a_game_against_a_bot_runs_without_a_curtain(window, qtbot) -> None:
    window.start(NewGame("minit", True, "search", "easy", 0, TimeControl(120, 1), "50-move"))
    controller = window.controller
    assert controller.curtain_for is None and controller.screen_seat == 0
    rng = random.Random(3)
    for _ in range(6):
        if controller.outcome is not None:
            break
        qtbot.waitUntil(lambda: controller.outcome is not None or controller.game.to_move == 0, timeout=10000)
        if controller.outcome is not None:
            break
        scene = controller.scene()
        origin = rng.choice(sorted(scene.targets))
        target = rng.choice(sorted(scene.targets[origin]))
        window.board.moveRequested.emit(origin, target, None)
        assert controller.game.to_move == 1 or controller.outcome is not None
    assert any(line.startswith("Black played") for line in controller.log())


def test_rbc_against_the_attacker_bot_ends_with_a_result(window, qtbot) -> None:
    window.start(NewGame("rbc", True, "attacker", "medium", 1, TimeControl(300, 0), "50-move"))
    controller = window.controller
    assert window.board.is_flipped()  # Black at the bottom
    for _ in range(30):
        qtbot.waitUntil(lambda: controller.outcome is not None or controller.game.to_move == 1, timeout=10000)
        if controller.outcome is not None:
            break
        if controller.game.phase == "sense":
            controller.sense((4, 1))
        controller.act_on_command("pass")
    assert controller.outcome is not None  # the rush reaches a king that never moves
    assert controller.outcome.winner == 0


def test_sightline_check_prints_ok() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-m", "app", "--check"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "OK", run.stderr
    assert chess.STARTING_FEN  # keeps the import used


def test_new_game_dialog_remembers_the_last_choices(qtbot) -> None:
    from app.ui.new_game_dialog import NewGameDialog, SeatChoice
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"dialog-{os.getpid()}")
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.game.setCurrentIndex(dialog.game.findData("minit"))
    dialog.seat_rows[0].set_choice(SeatChoice())  # a person plays White against the search bot
    dialog.seat_rows[1].set_choice(SeatChoice("search", "medium"))
    dialog.time.setCurrentIndex(dialog.time.findText("5+3"))
    dialog.shuffle.setChecked(False)
    dialog.accept()
    choice = dialog.choice()
    assert (choice.variant, choice.vs_bot, choice.bot, choice.control) == ("minit", True, "search",
                                                                          TimeControl(300, 3))
    again = NewGameDialog()
    qtbot.addWidget(again)
    assert again.choice().variant == "minit" and again.choice().bot == "search"
    assert again.time.currentText() == "5+3"
    again.settings.clear()


def _render_expected(win, pieces):
    """The board as it must look: a fresh widget given only ``pieces`` and the window board's public state."""
    from app.ui.board_widget import BoardWidget
    board = win.board
    expected = BoardWidget()
    expected.set_theme(board.theme().name if hasattr(board.theme(), "name") else "brown")
    expected.set_board_size(*board.board_size())
    expected.set_flipped(board.is_flipped())
    expected.set_coordinates_visible(board.coordinates_visible())
    expected.set_pieces(pieces)
    expected.set_markers(board.markers())
    expected.set_move_targets(board.move_targets())
    expected.set_last_move(*(board.last_move() or (None, None)))
    expected.set_sense_mode(board.sense_mode(), None)
    expected.set_annotations(*board.annotations())
    expected.set_ghosts(board.ghosts())  # the seat's own guesses may be drawn: they are its own
    expected.set_flags(board.flags())
    expected.set_heat(board.heat() or None)
    expected.resize(board.size())
    image = _pixels(expected.grab().toImage())
    expected.deleteLater()
    return image


def _where_they_differ(a, b) -> str:
    xs, ys = [], []
    for y in range(0, a.height(), 2):
        for x in range(0, a.width(), 2):
            if a.pixel(x, y) != b.pixel(x, y):
                xs.append(x)
                ys.append(y)
    if os.environ.get("SIGHTLINE_TEST_IMAGES"):
        a.save(os.path.join(os.environ["SIGHTLINE_TEST_IMAGES"], "actual.png"))
        b.save(os.path.join(os.environ["SIGHTLINE_TEST_IMAGES"], "expected.png"))
    return f"{len(xs)} pixels differ in x {min(xs, default=0)}..{max(xs, default=0)}, y {min(ys, default=0)}..{max(ys, default=0)}"


def _pixels(image):
    from PySide6.QtGui import QImage
    return image.convertToFormat(QImage.Format.Format_ARGB32)


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_rendered_pixels_show_no_more_than_the_seat_was_told(window, qtbot, variant: str) -> None:
    """At every step the painted board equals a board drawn from the seat's allowed pieces only, and every
    curtain looks the same whatever the game state behind it."""
    rng = random.Random(17)
    window.start(NewGame(variant, False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller
    curtains: dict[int, object] = {}
    for _ in range(40):
        if controller.outcome is not None:
            break
        if controller.curtain_for is not None:
            image = _pixels(window.grab().toImage())
            seat = controller.curtain_for
            if seat in curtains:
                assert image == curtains[seat], "the curtain showed something of the game behind it"
            curtains[seat] = image
            qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
        seat = controller.screen_seat
        color = seat == 0
        seen = _revealed_to(controller, seat)
        own = {(sq % 8, sq // 8): p.symbol() for sq, p in controller.game.board.piece_map().items()
               if p.color == color}
        allowed = {square: letter for square, letter in window.board.pieces().items()
                   if own.get(square) == letter or (from_sq8(square), letter) in seen}
        assert set(own.items()) <= set(allowed.items())
        # The mouse may rest over the board (left there by another test): a hover preview is not the seat's
        # knowledge and the fresh board would not show it, so the pointer leaves first.
        from PySide6.QtCore import QEvent
        from PySide6.QtWidgets import QApplication
        QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
        actual, expected = _pixels(window.board.grab().toImage()), _render_expected(window, allowed)
        assert actual == expected, _where_they_differ(actual, expected)
        scene = controller.scene()
        if scene.sense_window is not None:
            window.board.senseRequested.emit((rng.randrange(1, 7), rng.randrange(1, 7)))
        elif scene.targets:
            origin = rng.choice(sorted(scene.targets))
            target = rng.choice(sorted(scene.targets[origin]))
            promotions = scene.targets[origin][target]
            window.board.moveRequested.emit(origin, target, promotions[0] if promotions else None)
        else:
            window.pass_button.click()
    assert len(curtains) == 2


def test_menu_actions_follow_the_curtain_the_game_and_its_end(window) -> None:
    from app.ui.new_game_dialog import NewGame
    actions = window.game_actions
    enabled = lambda: {name for name, action in actions.items() if action.isEnabled()}  # noqa: E731
    assert enabled() == set()  # no game
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    assert window.curtain.isVisible()
    assert enabled() == {"save", "save_as"}  # behind the curtain nothing of a seat's own
    window.controller.lift_curtain()
    assert enabled() == {"save", "save_as", "review", "image", "resign"}  # no true moves while hidden
    window.controller.resign()
    assert enabled() == {"save", "save_as", "review", "image", "pgn", "reconchess"}  # over: no resign, no minit
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()
    assert "offer_draw" in enabled() and "reconchess" not in enabled()
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    assert {"minit", "copy_position"} <= enabled() and not {"pgn", "reconchess"} & enabled()


def test_an_export_is_refused_before_a_file_is_chosen_in_the_windows_words(window, monkeypatch) -> None:
    from app.ui.new_game_dialog import NewGame
    chosen = []
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName",
                        lambda *args, **kwargs: chosen.append(args) or ("", ""))
    warnings = []
    window._warn = lambda title, text: warnings.append(text)
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    window.exports.export_dialog("pgn")  # the curtain is up
    window.exports.image_dialog()
    window.controller.lift_curtain()
    window.exports.export_dialog("pgn")
    window.exports.export_dialog("minit")
    assert chosen == [] and len(warnings) == 4
    assert "curtain" in warnings[0] and "curtain" in warnings[1]
    assert "in progress" in warnings[2] and "Board image" in warnings[2] and "--" not in warnings[2]
    assert "MinitChess" in warnings[3]


def test_typing_pass_in_the_sense_phase_says_sensing_cannot_be_skipped(window, qtbot) -> None:
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()
    window.entry.setText("pass")
    qtbot.keyClick(window.entry, Qt.Key.Key_Return)
    message = window.panel.entry_error.text()
    assert "cannot be skipped" in message and "square" in message and "RBC" in message
    assert window.controller.game.phase == "sense" and len(window.controller.session.record.entries) == 0


def test_the_game_over_text_speaks_to_the_person_playing_a_bot() -> None:
    from app.engine.core import Outcome, Reason
    from app.games.describe import outcome_headline

    def wins(name: str) -> str:
        return outcome_headline(Outcome(0, Reason.RESIGN), [name, "the other"], (0, 1))

    assert wins("You") == "You win"  # not "You wins"
    assert wins("attacker (hard)") == "attacker (hard) wins"
    assert wins("Black") == "Black wins"
    assert outcome_headline(Outcome(None, Reason.DRAW_AGREED), ["You", "Black"], (0, 1)) == "Draw"
