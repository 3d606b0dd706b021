"""Cooperative Chess 2 premoves: a turn begins with a card, so while the bot partner plays, the person queues a
card of the hand (a click on it) and a move; when the turn comes the card is played first, then the move if the
game still allows it, else the move is dropped with a line in the log. A question the partner asked is answered
first (the queue waits); a right click or Esc takes the queue back. The partner here is a stand-in the test answers
for (see tests/test_premove.py)."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.games.coop.rules import Ask, CoopMove, EndTurn, PlayCard  # noqa: E402
from tests.test_coop_window import dealt, press, shot  # noqa: E402
from tests.test_premove import StandInBot  # noqa: E402
from tests.test_team_kit_windows import cell, click_square, click_zone, start  # noqa: E402


@pytest.fixture
def with_partner(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The person White, a stand-in partner Black; White's first turn played (2♥, e4), Black to play. White then
    holds 3♥ and 4♥, Black 2♠ and 3♠."""
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    dealt(monkeypatch, ["2H", "3H", "2S", "3S", "4H"])
    controller = start(window, "coop", {"Black": "sightline:partner:medium"})
    assert controller.game.to_move == 0 and controller.game.hands[0] == ["2H", "3H"]
    click_zone(window, qtbot, "hand", 0)
    click_square(window, qtbot, cell("e2"))
    click_square(window, qtbot, cell("e4"))
    qtbot.waitUntil(lambda: controller.game.to_move == 1, timeout=5000)
    assert controller.game.hands[0] == ["3H", "4H"] and controller.game.phase == "card"
    return window


def _partner(controller: Any, *actions: Any) -> None:
    """The partner's actions, answered in turn (a turn with no capture left ends by itself after its move)."""
    for action in actions:
        controller._bot_answered(1, action)


def _move(uci: str) -> CoopMove:
    return CoopMove(chess.Move.from_uci(uci))


def _hand_zone(controller: Any) -> Any:
    return next(zone for zone in controller.scene().zones if zone.id == "hand")


def test_a_queued_card_and_move_are_played_when_the_turn_comes(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "hand", 1)  # 4♥, while the partner plays
    click_square(window, qtbot, cell("d2"))
    click_square(window, qtbot, cell("d4"))
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["play 4♥", "d2-d4"]
    assert "queued: play 4♥ and d2-d4" in window.status.text()
    assert _hand_zone(controller).selected == (1,)  # the queued card is raised
    assert [marker.kind for marker in window.board.markers()].count("premove") == 1
    assert controller.game.line == ["2H"] and controller.game.hands[0] == ["3H", "4H"]  # nothing played yet
    shot(window, "premove-queued")
    _partner(controller, PlayCard("2S"), _move("g8f6"))
    assert controller.premoves == []
    assert controller.game.line == ["2H", "2S", "4H"] and controller.game.hands[0][0] == "3H"
    assert controller.views[0].moves[-1].uci == "d2d4"
    assert controller.game.to_move == 1  # no capture left: the turn ended by itself
    qtbot.waitUntil(lambda: "queued" not in window.status.text(), timeout=5000)
    shot(window, "premove-played")


def test_a_move_the_partner_made_impossible_is_dropped_after_the_card(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "hand", 0)  # 3♥
    click_square(window, qtbot, cell("e4"))
    click_square(window, qtbot, cell("e5"))
    _partner(controller, PlayCard("2S"), _move("e7e5"))  # the pawn on e4 is blocked  # the pawn is blocked
    assert controller.premoves == []
    assert controller.game.line == ["2H", "2S", "3H"] and controller.game.to_move == 0
    assert controller.game.phase == "move"
    assert controller.log()[-1] == "Premove e4-e5 dropped: it is no longer possible."


def test_the_queue_waits_for_the_answer_to_the_partners_question(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "hand", 0)  # 3♥
    click_square(window, qtbot, cell("g1"))
    click_square(window, qtbot, cell("f3"))
    _partner(controller, Ask("hold", piece="N"), PlayCard("2S"), _move("d7d6"))
    assert controller.game.phase == "answer" and len(controller.premoves) == 2  # the question comes first
    press(window, qtbot, "no")
    qtbot.waitUntil(lambda: controller.premoves == [], timeout=5000)
    assert controller.game.line[-1] == "3H" and controller.views[0].moves[-1].uci == "g1f3"


def test_a_card_alone_is_played_and_the_move_left_to_the_person(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "hand", 0)
    click_zone(window, qtbot, "hand", 1)  # another card replaces the one queued
    assert [words for _kind, _what, words, _squares in controller.premoves] == ["play 4♥"]
    _partner(controller, PlayCard("2S"), _move("d7d6"))
    assert controller.premoves == [] and controller.game.line[-1] == "4H"
    assert controller.game.to_move == 0 and controller.game.phase == "move"


def test_a_move_queued_without_a_card_waits_for_the_card_played_by_hand(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_square(window, qtbot, cell("d2"))
    click_square(window, qtbot, cell("d4"))
    _partner(controller, PlayCard("2S"), _move("d7d6"))
    assert controller.game.phase == "card" and len(controller.premoves) == 1
    click_zone(window, qtbot, "hand", 0)
    assert controller.premoves == [] and controller.views[0].moves[-1].uci == "d2d4"


def test_a_right_click_takes_the_queued_card_back(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "hand", 0)
    click_square(window, qtbot, cell("d2"))
    click_square(window, qtbot, cell("d4"))
    qtbot.mouseClick(window.board, Qt.MouseButton.RightButton, pos=window.board.square_rect(cell("d4")).center())
    assert controller.premoves == [] and _hand_zone(controller).selected == ()
    _partner(controller, PlayCard("2S"), _move("d7d6"))
    assert controller.game.phase == "card" and controller.game.line == ["2H", "2S"]


def test_the_partners_cards_and_the_line_queue_nothing(with_partner: Any, qtbot: Any) -> None:
    window, controller = with_partner, with_partner.controller
    click_zone(window, qtbot, "partner", 0)
    click_zone(window, qtbot, "line", 0)
    assert controller.premoves == []
