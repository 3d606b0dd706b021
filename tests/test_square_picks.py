"""Picking a square on the board, the same way in every game: one click does what the prompt says (an RBC sense, a
Telepathy removal, a Split-Brain pick, a Cloak and Dagger checker to uncloak), unless View > Picking a square asks
for a confirmation; then every pick waits for it alike, and the word saying so is never hidden by a piece or a
disc. The opponents are stand-ins the test answers for."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from test_premove import StandInBot  # noqa: E402


def _cell(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return chess.square_file(square), chess.square_rank(square)


def _click(window: Any, qtbot: Any, name: str) -> None:
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(_cell(name)).center())


def _start(window: Any, monkeypatch: pytest.MonkeyPatch, key: str, person: str) -> Any:
    from app.ui.game_controller import GameController, SeatConfig
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    seats = [SeatConfig(name, None if name == person else "random") for name in games.get(key).seat_names]
    controller = GameController(key, seats, TimeControl(600, 5), {}, parent=window)
    window._install(controller)
    return controller


def _cloak_uncloaking(window: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Cloak and Dagger, the person White against a stand-in: arranged, e4 played, the uncloaking asked for."""
    from app.games.cloak.rules import Arrange
    from app.games.cloak.view import Arranged
    controller = _start(window, monkeypatch, "cloak", "White")
    controller.act(Arrange("RNBQKBNR"))
    controller._bot_answered(1, Arrange("NRBKQBRN"))
    assert isinstance(controller.game.observations(0)[-1], Arranged)
    controller.move(_cell("e2"), _cell("e4"), None)
    assert controller.game.phase == "uncloak" and controller.game.to_move == 0
    return controller


def _telepathy_removing(window: Any, monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> Any:
    """Telepathy, the person W1 with three stand-ins: the coin pulled past White's side, W1 to remove."""
    from app.games.telepathy.rules import Predict, TelepathyMove
    controller = _start(window, monkeypatch, "telepathy", "W1")
    controller.game.coin = -1  # (set on the referee as a fixture: the coin already on White's side)
    controller.act(Predict("B"))
    controller._bot_answered(1, TelepathyMove("g1f3"))  # a knight, not a bishop: missed, pulled past
    assert controller.game.phase == "remove" and controller.game.to_move == 0
    qtbot.waitUntil(lambda: window.status.text().endswith("click it"))  # (redrawn a moment after the stand-in)
    return controller


def test_every_pick_takes_one_click_by_default(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing chosen in View: each prompt says "click", and one click does it, in every game."""
    from app.ui.new_game_dialog import NewGame
    assert window.board.sense_confirmation() == "one click"
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    window.start(NewGame("rbc", True, "random", "medium", 0, TimeControl(600, 0), "50-move"))
    _click(window, qtbot, "d7")
    assert window.controller.game.phase == "move" and window.controller.views[0].senses[-1].square == chess.D7

    controller = _cloak_uncloaking(window, monkeypatch)
    _click(window, qtbot, "d1")  # the queen's disc, checker 4
    assert controller.session.notes(0).marks["uncloak"] == [4]
    assert window.panel.command_buttons["uncloak-end"].text() == "Uncloak 4 and end turn"
    _click(window, qtbot, "d1")  # and one more click takes it back
    assert controller.session.notes(0).marks["uncloak"] == []

    controller = _telepathy_removing(window, monkeypatch, qtbot)
    _click(window, qtbot, "a2")
    assert controller.game.board.piece_at(chess.A2) is None and controller.game.phase != "remove"

    controller = _start(window, monkeypatch, "splitbrain", "W1")  # W1 picks White's piece first
    _click(window, qtbot, "b1")
    assert controller.views[0].my_pick == ("piece", 1)  # b1 (squares counted a1 = 0 on the 6x6 board)


@pytest.mark.parametrize("how", ["second click", "hold"])
def test_a_confirmation_asked_for_in_view_holds_every_pick_alike(window: Any, qtbot: Any,
                                                                 monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """With a confirmation chosen, a single quick click only proposes the pick, whatever the game."""
    window.view_choices.sense_confirm(how)
    controller = _cloak_uncloaking(window, monkeypatch)
    _click(window, qtbot, "d1")
    assert window.board.proposed_sense() == _cell("d1") and (controller.session.notes(0).marks or {}).get(
        "uncloak") in (None, [])
    if how == "second click":
        _click(window, qtbot, "d1")
        assert controller.session.notes(0).marks["uncloak"] == [4]
    controller = _telepathy_removing(window, monkeypatch, qtbot)
    _click(window, qtbot, "a2")
    assert window.board.proposed_sense() == _cell("a2") and controller.game.phase == "remove"
    if how == "second click":
        _click(window, qtbot, "a2")
        assert controller.game.phase != "remove" and controller.game.board.piece_at(chess.A2) is None


def test_the_confirmation_word_is_drawn_over_a_disc_not_under_it(window: Any, qtbot: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """"again" on a checker's square: every pixel of its pill is the same whether a disc stands there or not (it
    was cut to "ain" when the disc was drawn over it)."""
    window.view_choices.sense_confirm("second click")
    _cloak_uncloaking(window, monkeypatch)
    board = window.board
    _click(window, qtbot, "d1")
    assert board.proposed_sense() == _cell("d1")
    picture = board.picture()
    pill = picture.label_rect(_cell("d1"), "again", 0, picture.geometry.size).toAlignedRect()
    with_disc = board.grab().toImage()
    pieces = board.pieces()
    del pieces[_cell("d1")]
    board.set_pieces(pieces)
    without_disc = board.grab().toImage()
    ratio = with_disc.width() / board.width()
    worst = 0
    inside = pill.height() // 2  # (the pill's round ends are left out)
    for x in range(pill.left() + inside, pill.right() - inside):
        for y in range(pill.top() + 1, pill.bottom()):
            one = with_disc.pixelColor(round(x * ratio), round(y * ratio))
            two = without_disc.pixelColor(round(x * ratio), round(y * ratio))
            worst = max(worst, abs(one.red() - two.red()), abs(one.green() - two.green()),
                        abs(one.blue() - two.blue()))
    assert worst <= 24  # (the pill is 95% opaque: what lies under it shows a little)
