"""The move list during a game: the notation players know, and looking back through the seat's own past moments.

Looking back shows the board and log the seat had when a line of its move list was written, rebuilt from its own
observations only; the game is not changed, news brings the present back, and the whole window while looking
back is the same whatever the opponent did that the seat was never told.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from test_curtain_leaks import assert_same, behind_the_curtain  # noqa: E402


def _hot_seat(window: Any, variant: str) -> Any:
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame(variant, False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    return window.controller


def _turn(controller: Any, sense: tuple[int, int], origin: tuple[int, int], target: tuple[int, int]) -> None:
    controller.lift_curtain()
    if controller.scene().sense_window is not None:
        controller.sense(sense)
    controller.move(origin, target, None)


def test_rbc_move_list_is_numbered_san_with_each_moves_result(window, qtbot) -> None:
    controller = _hot_seat(window, "rbc")
    _turn(controller, (3, 6), (6, 0), (5, 2))  # White: sense d7, Nf3
    _turn(controller, (3, 1), (4, 6), (4, 4))  # Black: sense d2, e5
    _turn(controller, (4, 4), (5, 2), (4, 4))  # White: Nxe5
    _turn(controller, (4, 1), (0, 6), (0, 5))  # Black: a6
    controller.lift_curtain()
    assert window.moves.lines() == ["1. sense d7 · Nf3", "2. sense e5 · Nxe5"]
    controller.sense((4, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    controller.lift_curtain()  # Black: told of the lost pawn at the start of its turn
    controller.sense((4, 3))
    controller.move((3, 6), (3, 4), None)  # d5
    controller.lift_curtain()
    controller.sense((3, 3))
    controller.move((4, 3), (3, 4), None)  # exd5
    controller.lift_curtain()
    assert window.moves.lines() == ["1. sense d2 · e5", "2. lost e5 · sense e2 · a6", "3. sense e4 · d5"]


def test_looking_back_shows_the_seats_own_past_board_and_log_and_news_returns_to_the_present(window,
                                                                                             qtbot) -> None:
    controller = _hot_seat(window, "rbc")
    _turn(controller, (3, 6), (4, 1), (4, 3))  # White: e4
    _turn(controller, (3, 1), (4, 6), (4, 4))  # Black: e5
    _turn(controller, (4, 4), (6, 0), (5, 2))  # White: Nf3
    _turn(controller, (4, 1), (0, 6), (0, 5))  # Black: a6
    controller.lift_curtain()  # White, to sense
    present = controller.scene()
    log_now = window.log.toPlainText()
    ply = controller.game.ply
    window.moves.rowChosen.emit(0)  # a click on "1. sense d7 · e4"
    assert controller.looking_back == 0
    scene = controller.seat_screen().scene
    assert scene.pieces[(4, 3)] == "P" and (6, 0) in scene.pieces and (5, 2) not in scene.pieces  # Nf3 not yet
    assert scene.targets == {} and scene.sense_window is None  # nothing to play on a past board
    assert len(window.log.toPlainText()) < len(log_now)
    assert "Looking back at move 1" in window.status.text()
    assert window.panel.command_buttons["back_to_game"].isVisible()
    assert controller.game.ply == ply  # the game did not change
    keys = {action.text(): action.shortcut().toString() for action in window.menus.look_back_actions}
    assert keys == {"&Previous move": "Left", "&Next move": "Right", "&First move": "Home",
                    "&Back to the game": "End"}
    window._step("forward")
    assert controller.looking_back == 1  # White's second line: it has been told more since (its turn began)
    window._step("forward")
    assert controller.looking_back is None
    window._step("first")
    assert controller.looking_back == 0
    controller.sense((4, 6))  # a click on the board while looking back brings the present back, nothing more
    assert controller.looking_back is None and controller.game.phase == "sense"
    window._step("back")
    assert controller.looking_back == 1
    controller.lift_curtain()  # (no curtain up: nothing happens)
    window._escape()
    assert controller.looking_back is None and window.status.text() != "" and "Looking back" not in \
        window.status.text()
    window._step("back")
    controller.act(controller.parse_text("d7"))  # typed: played on the present board
    assert controller.looking_back is None and controller.game.phase == "move"
    def own(pieces: dict) -> dict:
        return {square: piece for square, piece in pieces.items() if piece.isupper()}
    assert own(controller.scene().pieces) == own(present.pieces)  # (and what the sense showed besides)


def _looked_back(window: Any, qtbot: Any, private: int) -> tuple[list[QImage], QImage]:
    """A hot-seat RBC game in which White plays by choice ``private`` (other senses and moves) and Black the same:
    Black's whole window while it looks back at each of its lines, and Black's present window."""
    controller = _hot_seat(window, "rbc")
    _turn(controller, [(1, 1), (6, 6)][private], *[((6, 0), (5, 2)), ((4, 1), (4, 3))][private])  # Nf3 or e4
    _turn(controller, (1, 6), (0, 6), (0, 5))  # Black: a6, sensing its own corner
    _turn(controller, [(1, 1), (3, 6)][private], *[((1, 0), (2, 2)), ((6, 0), (5, 2))][private])  # Nc3 or Nf3
    _turn(controller, (1, 6), (7, 6), (7, 5))  # Black: h6
    _turn(controller, [(1, 1), (3, 6)][private], *[((0, 1), (0, 2)), ((7, 1), (7, 2))][private])  # a3 or h3
    controller.lift_curtain()  # Black
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    qtbot.wait(20)
    present = behind_the_curtain(window)
    pictures = []
    for line in range(len(window.moves.lines())):
        controller.look_back(line)
        assert controller.looking_back == line
        qtbot.wait(20)
        pictures.append(behind_the_curtain(window))
    window._escape()
    return pictures, present


def test_looking_back_shows_nothing_the_seat_was_not_told(window, qtbot) -> None:
    _looked_back(window, qtbot, 0)  # a first game: the docks are made and laid out
    first, present = _looked_back(window, qtbot, 0)
    second, _ = _looked_back(window, qtbot, 1)
    assert len(first) == 2 and first[0] != present and first[0] != first[1]
    assert_same(first, second, "looking-back")


def test_left_from_the_present_steps_to_the_newest_earlier_moment_even_when_the_last_line_reads_as_now(
        window, qtbot, monkeypatch) -> None:
    import chess

    from app.games.rbc.rules import MoveAction, Sense
    from app.ui.new_game_dialog import NewGame
    from test_premove import StandInBot
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    controller = window.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    controller._bot_answered(1, Sense(chess.E2))
    controller._bot_answered(1, MoveAction(chess.Move.from_uci("b8c6")))
    controller.sense((2, 5))
    controller.move((3, 1), (3, 3), None)  # d4: the person now waits for the bot, told nothing since
    assert len(window.moves.lines()) == 2
    window._step("back")
    assert controller.looking_back == 0  # move 1 (the newest line is what the board shows now)
    window._step("back")
    assert controller.looking_back == 0
    window._step("forward")
    assert controller.looking_back is None


def test_left_in_minitchess_steps_back_though_the_opponents_move_wrote_the_last_line(window, qtbot) -> None:
    controller = _hot_seat(window, "minit")
    controller.end_of_turn = "button"
    controller.lift_curtain()
    controller.move((1, 1), (1, 2), None)  # White: b2-b3
    controller.pass_screen()
    controller.lift_curtain()
    controller.move((1, 4), (1, 3), None)  # Black: b5-b4
    controller.pass_screen()
    controller.lift_curtain()  # White, told of Black's move: its newest line is the present
    assert window.moves.lines() == ["1. b2-b3  b5-b4"]
    window._step("back")
    assert controller.looking_back is None  # one line, and it is now: nothing earlier to show
    controller.move((2, 1), (2, 2), None)  # c2-c3, seen before the screen passes
    assert window.moves.lines() == ["1. b2-b3  b5-b4", "2. c2-c3"]
    window._step("back")
    assert controller.looking_back == 0
