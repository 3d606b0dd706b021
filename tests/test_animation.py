"""Pieces glide to their squares (about 0.18 s), and a glide never delays input or the clock: the board's state
is the new one at once; only the drawing catches up. Cards slide between zones. And a sense is chosen as the
player chose: one click, a second click on the same square, or holding the button down."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.rbc.rules import MoveAction, Sense  # noqa: E402
from test_premove import StandInBot  # noqa: E402


@pytest.fixture
def gliding_window(window: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    monkeypatch.setattr("app.ui.board_widget.GLIDE_MS", 180)  # (the other tests draw still pictures)
    window.view_choices.animation("glide")
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    return window


def _click(qtbot: Any, board: Any, square: tuple[int, int]) -> None:
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.square_rect(square).center())


def test_a_moved_piece_glides_while_input_and_the_clock_go_on(gliding_window: Any, qtbot: Any) -> None:
    window, controller, board = gliding_window, gliding_window.controller, gliding_window.board
    _click(qtbot, board, (3, 6))  # sense d7
    _click(qtbot, board, (4, 1))
    _click(qtbot, board, (4, 3))  # e2, then e4: a clicked move glides
    assert board.gliding() == [("P", (4, 1), (4, 3))]
    assert board.pieces()[(4, 3)] == "P" and (4, 1) not in board.pieces()  # the state is already the new one
    controller._bot_answered(1, Sense(chess.E2))
    controller._bot_answered(1, MoveAction(chess.Move.from_uci("b8c6")))
    assert board.gliding()  # still on its way ...
    assert controller.session.clock.running == 0  # ... while the person's clock already runs
    _click(qtbot, board, (4, 5))  # ... and the person's sense is taken at once
    assert controller.views[0].senses[-1].square == chess.E6
    _click(qtbot, board, (6, 0))
    _click(qtbot, board, (5, 2))  # g1, then f3: the move is played, mid-glide or not
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("g1f3")
    qtbot.waitUntil(lambda: not board.gliding(), timeout=2000)


def test_a_dragged_piece_does_not_glide_again_and_animation_can_be_switched_off(gliding_window: Any,
                                                                                 qtbot: Any) -> None:
    window, board = gliding_window, gliding_window.board
    _click(qtbot, board, (3, 6))
    start, end = board.square_rect((4, 1)).center(), board.square_rect((4, 3)).center()
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(board, pos=start + (end - start) / 2)
    qtbot.mouseMove(board, pos=end)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=end)
    assert window.controller.views[0].moves[-1].taken == chess.Move.from_uci("e2e4")
    assert board.gliding() == []  # it was dropped where it goes
    window.view_choices.animation("off")
    assert board.glide_ms() == 0
    board.set_pieces({(0, 0): "R"})
    board.set_pieces({(0, 5): "R"})
    assert board.gliding() == []
    window.view_choices.animation("glide")
    board.set_pieces({(0, 0): "R"})
    assert board.gliding() == [("R", (0, 5), (0, 0))]


def test_a_card_played_from_a_hand_slides_to_its_pile(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.scene import Card, HandZone, PileZone
    from app.ui.board_widget import BoardWidget
    board = BoardWidget(files=5, ranks=5)
    qtbot.addWidget(board)
    board.resize(500, 600)
    board.show()
    board.set_glide_ms(180)
    hand = [Card("2", "H"), Card("K", "S"), Card("9", "D")]
    board.set_zones([HandZone(id="hand", cards=tuple(hand)),
                     PileZone(id="pile", place="above", count=4, top=Card("3", "C"))])
    board.set_zones([HandZone(id="hand", cards=(hand[0], hand[2])),
                     PileZone(id="pile", place="above", count=5, top=hand[1])])
    slide = board.sliding_card()
    assert slide is not None and slide[0] == hand[1] and slide[3:] == ("pile", 0)
    assert slide[1].center().y() > slide[2].center().y()  # from the hand below the board to the pile above it
    board.grab()  # drawn on its way without trouble
    qtbot.waitUntil(lambda: board.sliding_card() is None, timeout=2000)
    board.set_zones([HandZone(id="hand", cards=(hand[0],)), HandZone(id="other", place="above", cards=(hand[2],))])
    assert board.sliding_card() is None  # another set of zones altogether: nothing slides


def test_a_sense_waits_for_its_confirmation_as_the_player_chose(window: Any, qtbot: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who asks for it (View > Picking a square) makes a sense with a second click on the same square
    (or by holding the button down), so a stray click cannot spend RBC's one sense a turn."""
    from app import ui
    from app.ui.new_game_dialog import NewGame
    assert ui.main_window.SENSE_CONFIRM_DEFAULT == "one click"  # (the app's default: one click picks)
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.view_choices.sense_confirm("second click")
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    controller, board = window.controller, window.board
    _click(qtbot, board, (3, 6))  # d7: proposed only
    assert controller.game.phase == "sense" and board.proposed_sense() == (3, 6)
    _click(qtbot, board, (4, 6))  # another square: the proposal moves
    assert board.proposed_sense() == (4, 6) and controller.game.phase == "sense"
    _click(qtbot, board, (4, 6))  # the same again: sensed
    assert controller.game.phase == "move" and controller.views[0].senses[-1].square == chess.E7
    assert board.proposed_sense() is None


def test_holding_the_button_senses_and_a_quick_click_does_not(window: Any, qtbot: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.view_choices.sense_confirm("hold")
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    controller, board = window.controller, window.board
    _click(qtbot, board, (3, 6))  # a quick click: shown, not sensed
    qtbot.wait(450)
    assert controller.game.phase == "sense" and board.proposed_sense() == (3, 6)
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.square_rect((3, 6)).center())
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=2000)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.square_rect((3, 6)).center())
    assert controller.views[0].senses[-1].square == chess.D7



def test_a_bots_answer_is_drawn_in_a_pass_of_its_own_and_a_click_first_brings_it_in(gliding_window: Any,
                                                                                    qtbot: Any) -> None:
    """Taking in a bot's answer and redrawing the window are two passes of the event loop (a bot answering at
    once would otherwise hold it for both); a click that comes between is judged on the board as it is now."""
    window, controller, board = gliding_window, gliding_window.controller, gliding_window.board
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller._bot_answered(1, Sense(chess.E2))
    controller._bot_answered(1, MoveAction(chess.Move.from_uci("b8c6")))
    assert window._refresh_pending and "thinking" in window.status.text()  # the window still shows the bot's turn
    _click(qtbot, board, (4, 5))
    assert controller.views[0].senses[-1].square == chess.E6  # the redraw came first, then the sense
    assert controller.premoves == []  # (not queued as a premove on the board of the bot's turn)
    qtbot.waitUntil(lambda: not window._refresh_pending, timeout=1000)


def test_a_glide_under_way_ends_when_other_pieces_are_shown(qtbot: Any) -> None:
    """The curtain falls (nobody's empty board) while a piece glides: nothing of it may be drawn any more."""
    from app.ui.board_widget import BoardWidget
    board = BoardWidget()
    qtbot.addWidget(board)
    board.resize(400, 400)
    board.show()
    board.set_glide_ms(5000)
    board.set_pieces({(6, 0): "N"})
    board.set_pieces({(5, 2): "N"})
    assert board.gliding()
    board.set_pieces({})
    assert board.gliding() == []


def test_a_bots_move_and_a_changed_move_glide_and_an_enemy_piece_seen_elsewhere_does_not(gliding_window: Any,
                                                                                          qtbot: Any) -> None:
    controller, board = gliding_window.controller, gliding_window.board
    controller.sense((2, 6))  # c7
    controller.move((4, 1), (4, 3), None)  # e4
    controller._bot_answered(1, Sense(chess.E2))
    controller._bot_answered(1, MoveAction(chess.Move.from_uci("d7d6")))
    controller.sense((1, 6))  # b7: the knight on b8 is seen there
    assert controller.scene().pieces[(1, 7)] == "n" and (1, 7) in controller.scene().last_seen
    controller.move((0, 1), (0, 2), None)  # a3
    controller._bot_answered(1, Sense(chess.E2))
    controller._bot_answered(1, MoveAction(chess.Move.from_uci("c8g4")))
    qtbot.waitUntil(lambda: not board.gliding(), timeout=2000)
    controller.sense((2, 4))  # c5: the knight on b8 is no longer shown
    qtbot.waitUntil(lambda: not board.gliding(), timeout=2000)
    board.set_pieces({**board.pieces(), (2, 5): "n"}, last_seen={(2, 5)})  # as if a sense now showed it on c6
    assert board.gliding() == []  # an enemy piece shown where it was last seen was not watched going there
    controller.move((3, 0), (7, 4), None)  # Qd1-h5: changed by the bishop on g4 into Qxg4
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("d1g4")
    assert board.gliding() == [("Q", (3, 0), (6, 3))]  # the changed move glides where it went


def test_a_bots_move_glides_once_drawn(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.minit.rules import MinitMove, Move
    from app.games.minit.presenter import square_number
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    monkeypatch.setattr("app.ui.board_widget.GLIDE_MS", 180)
    window.view_choices.animation("glide")
    window.start(NewGame("minit", True, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller, board = window.controller, window.board
    controller.move((1, 1), (1, 2), None)  # b2-b3
    qtbot.waitUntil(lambda: not board.gliding(), timeout=2000)
    controller._bot_answered(1, MinitMove(Move(square_number((1, 4)), square_number((1, 3)))))  # b5-b4
    qtbot.waitUntil(lambda: board.gliding() != [], timeout=2000)
    assert board.gliding() == [("p", (1, 4), (1, 3))]


def test_a_replay_step_glides(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.engine.record import GameSession, PlayerInfo
    from app.games.rbc.rules import ReconChess
    from app.ui.replay_window import ReplayWindow
    monkeypatch.setattr("app.ui.board_widget.GLIDE_MS", 180)
    session = GameSession(ReconChess(), TimeControl(None, 0), [PlayerInfo("a", "human"), PlayerInfo("b", "human")],
                          seed=1)
    session.play(0, Sense(chess.E2))
    session.play(0, MoveAction(chess.Move.from_uci("g1f3")))
    replay = ReplayWindow(session.record, asking_seat=0)  # (a game in progress: its own seat's view)
    qtbot.addWidget(replay)
    replay.board.set_glide_ms(180)
    replay.resize(900, 700)
    replay.show()
    replay.show_step(1)
    qtbot.waitUntil(lambda: not replay.board.gliding(), timeout=2000)
    replay.show_step(2)
    assert replay.board.gliding() == [("N", (6, 0), (5, 2))]
