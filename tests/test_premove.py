"""Premoves against a bot: queued while the bot thinks, shown, played at once when the turn comes if the game
still allows them, dropped with a line in the log otherwise, cancelled by a right click or Esc; never at one
computer. The bot here is a stand-in the test answers for (no worker process), so the timing is the test's own.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QObject, Qt, Signal  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.rbc.rules import MoveAction, Sense  # noqa: E402


class StandInBot(QObject):
    """Takes a seat like a BotSeat and answers only when the test says."""

    actionReady = Signal(object, float)
    failed = Signal(str)
    thinkingChanged = Signal(bool)
    ready = Signal()
    timed_out = False

    def __init__(self, spec: str, variant: str, seat: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("parent"))
        self.asked = 0

    def start(self) -> None: ...
    def observe(self, observations: list[Any]) -> None: ...
    def stop(self, *args: Any) -> None: ...

    def ask(self, request: Any, deadline: float | None = None) -> None:
        self.asked += 1


@pytest.fixture
def rbc_vs_bot(window: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """RBC: the person White against a stand-in bot as Black."""
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    return window


def _bot(controller: Any, *actions: Any) -> None:
    for action in actions:
        controller._bot_answered(1, action)


def test_a_queued_sense_and_move_are_played_at_once_when_the_turn_comes(rbc_vs_bot: Any) -> None:
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    assert controller.game.to_move == 1
    controller.sense((3, 5))  # queued: sense d6 ...
    controller.move((6, 0), (5, 2), None)  # ... and Nf3
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["sense d6", "g1-f3"]
    kinds = [marker.kind for marker in window.board.markers()]
    assert kinds.count("premove") == 2 and "queued: sense d6 and g1-f3" in window.status.text()
    assert controller.game.ply == 1  # nothing was played yet
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    assert controller.premoves == [] and controller.game.to_move == 1  # both played, at once
    view = controller.views[0]
    assert view.senses[-1].square == chess.D6 and view.moves[-1].taken == chess.Move.from_uci("g1f3")


def test_a_premove_the_game_no_longer_allows_is_dropped_with_a_notice(rbc_vs_bot: Any) -> None:
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("d7d5")))
    controller.sense((3, 6))
    controller.move((1, 0), (2, 2), None)  # Nc3
    controller.move((4, 3), (4, 4), None)  # queued: e4-e5
    assert len(controller.premoves) == 1
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("d5e4")))  # the pawn on e4 is taken
    assert controller.premoves == [("move", ((4, 3), (4, 4), None), "e4-e5", ((4, 3), (4, 4)))]
    assert controller.game.phase == "sense"  # a queued move waits for the sense the person still makes ...
    controller.sense((3, 6))
    assert controller.premoves == [] and controller.game.to_move == 0  # ... and is then dropped, not played
    assert window.log.toPlainText().splitlines()[-1] == "Premove e4-e5 dropped: it is no longer possible."


def test_a_right_click_or_esc_cancels_the_premove(rbc_vs_bot: Any, qtbot: Any) -> None:
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller.move((6, 0), (5, 2), None)
    assert controller.premoves
    arrows_before = window.board.annotations()
    qtbot.mouseClick(window.board, Qt.MouseButton.RightButton,
                     pos=window.board.square_rect((2, 2)).center())
    assert controller.premoves == [] and window.board.annotations() == arrows_before  # no circle drawn
    assert not any(marker.kind == "premove" for marker in window.board.markers())
    controller.sense((3, 5))
    window._escape()
    assert controller.premoves == []
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    assert controller.game.phase == "sense" and controller.game.to_move == 0  # nothing was played for the person


def test_no_premove_at_one_computer(window: Any) -> None:
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.end_of_turn = "button"  # White still at the screen after its move
    controller.lift_curtain()
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    assert controller.passing_to == 1 and controller.screen_seat == 0
    controller.move((6, 0), (5, 2), None)
    controller.sense((3, 5))
    assert controller.premoves == [] and controller.scene().targets == {}


def test_cloak_and_dagger_queues_a_regular_move_while_the_bot_acts(window: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.cloak.rules import Arrange, Move, Uncloak
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.start(NewGame("cloak", True, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.act(Arrange("RNBQKBNR"))
    controller._bot_answered(1, Arrange("NRBKQBRN"))
    assert controller.premoves == []
    controller.move((4, 1), (4, 3), None)  # e4
    controller.act(Uncloak(()))
    assert controller.game.to_move == 1
    controller.move((6, 0), (5, 2), None)  # queued: checker 7 (a knight) to f3
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["g1-f3"]
    controller._bot_answered(1, Move("e7e5"))
    controller._bot_answered(1, Uncloak(()))
    assert controller.premoves == [] and controller.game.phase == "uncloak" and controller.game.to_move == 0
    assert controller.views[0].position.piece_at(chess.F3) is not None  # the premove was White's regular move
    assert controller.views[0].position.piece_at(chess.G1) is None


def _press(window: Any, qtbot: Any, name: str) -> None:
    square = chess.parse_square(name)
    cell = (chess.square_file(square), chess.square_rank(square))
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell).center())


def test_rbc_a_click_on_an_own_piece_while_the_bot_thinks_queues_a_move_and_elsewhere_a_sense(rbc_vs_bot: Any,
                                                                                            qtbot: Any) -> None:
    """As a chess player expects: an own piece clicked while the bot thinks is the start of a move (then its
    square); an empty or enemy square clicked is the sense to make first."""
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    assert controller.game.to_move == 1 and window.board.sense_mode()
    _press(window, qtbot, "g1")  # the knight: chosen, not sensed around
    assert controller.premoves == [] and window.board.selected_square() == (6, 0)
    _press(window, qtbot, "f3")
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["g1-f3"]
    _press(window, qtbot, "d6")  # an empty square: the sense
    _press(window, qtbot, "b2")  # (one sense a turn: the board now takes moves only, and b2 alone is no move)
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["sense d6", "g1-f3"]
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    assert controller.premoves == [] and controller.game.to_move == 1
    assert controller.views[0].senses[-1].square == chess.D6
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("g1f3")


def test_rbc_a_queued_move_is_played_right_after_the_sense_the_turn_asks_for(rbc_vs_bot: Any, qtbot: Any) -> None:
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    _press(window, qtbot, "d2")
    _press(window, qtbot, "d4")  # queued: d2-d4, no sense queued
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["d2-d4"]
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    assert controller.game.to_move == 0 and controller.game.phase == "sense"  # the sense is asked first
    qtbot.waitUntil(lambda: "then the queued d2-d4" in window.status.text())
    _press(window, qtbot, "c6")  # the sense (the board senses: it is the sense phase) ...
    assert controller.views[0].senses[-1].square == chess.C6
    assert controller.premoves == [] and controller.game.to_move == 1  # ... and the queued move right after it
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("d2d4")


def test_rbc_a_queued_move_cancelled_before_the_sense_is_not_played(rbc_vs_bot: Any, qtbot: Any) -> None:
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    _press(window, qtbot, "d2")
    _press(window, qtbot, "d4")
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    qtbot.waitUntil(lambda: "then the queued" in window.status.text())
    window._escape()  # changed the plan after all
    assert controller.premoves == []
    _press(window, qtbot, "c6")
    assert controller.game.to_move == 0 and controller.game.phase == "move"  # the person moves as they now wish


def _type(window: Any, qtbot: Any, text: str) -> None:
    window.entry.setFocus()
    qtbot.keyClicks(window.entry, text)
    qtbot.keyClick(window.entry, Qt.Key.Key_Return)


def test_a_move_typed_while_the_bot_thinks_is_queued_as_a_click_would_be(rbc_vs_bot: Any, qtbot: Any) -> None:
    """Typing during the bot's turn queues a premove (the box is emptied, so the next move typed is not added to
    it); a bare square is the sense the next turn starts with, as typed in a sense phase; after it, a move."""
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)  # e4
    _type(window, qtbot, "Bc4")
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["f1-c4"]
    assert window.entry.text() == "" and window.panel.entry_error.isHidden()
    _type(window, qtbot, "d6")  # no sense queued yet: a square is the sense
    _type(window, qtbot, "d4")  # a sense is queued: now a pawn's move, in place of the bishop's
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["sense d6", "d2-d4"]
    _type(window, qtbot, "sense e2")  # named: a sense, even on an own piece's square
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["sense e2", "d2-d4"]
    _type(window, qtbot, "Ra3")  # not a move a rook has: refused, said, kept in the box to be corrected
    assert window.entry.text() == "Ra3" and not window.panel.entry_error.isHidden()
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    assert controller.views[0].senses[-1].square == chess.E2
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("d2d4")
    qtbot.waitUntil(lambda: window.panel.entry_error.isHidden())  # the game moved on: the refusal went ...
    assert window.entry.text() == ""  # ... and so did the refused text


def test_a_refusal_of_typed_text_goes_when_the_turn_comes(window: Any, qtbot: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Where nothing can be queued (the bot still arranging its pieces in Cloak and Dagger), typing is refused
    with a sentence; once the turn comes the sentence and the refused text go, and the next move typed is read
    alone."""
    from app.games.cloak.rules import Arrange
    from app.ui.new_game_dialog import NewGame
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.start(NewGame("cloak", True, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.act(Arrange("RNBQKBNR"))
    _type(window, qtbot, "Nc3")
    assert not window.panel.entry_error.isHidden() and window.entry.text() == "Nc3"
    controller._bot_answered(1, Arrange("NRBKQBRN"))
    qtbot.waitUntil(lambda: window.panel.entry_error.isHidden())
    assert window.entry.text() == ""
    _type(window, qtbot, "e4")
    assert controller.views[0].position.piece_at(chess.E4) is not None


def test_rbc_a_queued_move_may_be_changed_on_the_board_before_the_sense(rbc_vs_bot: Any, qtbot: Any) -> None:
    """The turn has come and asks for the sense first: a click on an own piece (with a move queued) changes the
    queued move rather than sensing there; the new one is played right after the sense."""
    window, controller = rbc_vs_bot, rbc_vs_bot.controller
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    _press(window, qtbot, "d2")
    _press(window, qtbot, "d4")
    _bot(controller, Sense(chess.E2), MoveAction(chess.Move.from_uci("b8c6")))
    qtbot.waitUntil(lambda: "then the queued d2-d4" in window.status.text())
    _press(window, qtbot, "g1")
    _press(window, qtbot, "f3")
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["g1-f3"]
    assert controller.game.phase == "sense" and controller.game.to_move == 0  # nothing played yet
    assert "then the queued g1-f3" in window.status.text()
    _press(window, qtbot, "c6")
    assert controller.views[0].senses[-1].square == chess.C6
    assert controller.views[0].moves[-1].taken == chess.Move.from_uci("g1f3") and controller.game.to_move == 1
    assert controller.premoves == []
