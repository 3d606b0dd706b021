"""Cooperative Chess 2 through the window: two people at one screen with the curtain between them (the whole window
of the partner the same whatever the hand of the one before), play by clicks, a person with a bot partner to the
end, and the solitaire. With ``SIGHTLINE_SHOTS=dir`` the tests also save screenshots there, to look at."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.games.coop import rules  # noqa: E402
from app.games.kit_cards import piece_cards  # noqa: E402
from tests.test_curtain_leaks import assert_same, curtain_pictures  # noqa: E402
from tests.test_team_kit_windows import cell, click_square, click_zone, lift, own_screen, start  # noqa: E402


def shot(window: Any, name: str) -> None:
    folder = os.environ.get("SIGHTLINE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        window.grab().save(str(Path(folder) / f"coop-{name}.png"))


def dealt(monkeypatch: pytest.MonkeyPatch, first: list[str]) -> None:
    """Every new game deals ``first`` then the other cards in a fixed order (White's two, Black's two, the pile)."""
    deck = [*first, *(card for card in piece_cards() if card not in first and card[0] != "K")] + ["KH", "KS"]
    monkeypatch.setattr(rules, "shuffled", lambda cards, rng: list(deck))


def press(window: Any, qtbot: Any, command: str) -> None:
    # (the panel shows a bot's move a moment after the game has it: wait for the button)
    qtbot.waitUntil(lambda: offered(window, command), timeout=5000)
    qtbot.mouseClick(window.panel.command_buttons[command], Qt.MouseButton.LeftButton)


def offered(window: Any, command: str) -> bool:
    """Whether the panel shows the game's command now (buttons of commands no longer offered are hidden)."""
    button = window.panel.command_buttons.get(command)
    return button is not None and not button.isHidden() and button.isEnabled()


def _white_turn(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, second_card: str) -> tuple[Any, Any, Any]:
    """White holds 2H and ``second_card``, plays 2H by a click, ends its turn; the curtain falls; Black lifts it.
    Returns the curtain's pictures, Black's whole screen and the controller."""
    dealt(monkeypatch, ["2H", second_card, "2S", "3S"])
    controller = start(window, "coop")
    lift(window, qtbot, "White")
    hand = next(zone for zone in controller.scene().zones if zone.id == "hand")
    assert hand.cards[0] is not None and hand.cards[0].code == "2H"
    shot(window, f"white-{second_card}")
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    press(window, qtbot, "end")
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    pictures = curtain_pictures(window, qtbot)
    lift(window, qtbot, "Black")
    partner = next(zone for zone in controller.scene().zones if zone.id == "partner")
    assert partner.cards == (None, None) and partner.private_to == frozenset({0})
    return pictures, own_screen(window), controller


def test_two_people_the_partner_sees_nothing_of_the_others_hand(window: Any, qtbot: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    first, first_screen, _ = _white_turn(window, qtbot, monkeypatch, "3H")
    second, second_screen, controller = _white_turn(window, qtbot, monkeypatch, "8D")
    assert controller.game.hands[0] != [] and "8D" in controller.game.hands[0]
    assert_same(first, second, "coop-curtain")
    assert_same([first_screen], [second_screen], "coop-partner")
    shot(window, "black")
    # Black plays a card by a click and makes a move on the board
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    click_square(window, qtbot, cell("e7"))
    click_square(window, qtbot, cell("e5"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    assert str(controller.game.board.piece_at(36)) == "p"  # e5 (the board is behind the curtain now)


def test_a_question_is_shown_to_the_partner_and_answered_by_a_button(window: Any, qtbot: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    dealt(monkeypatch, ["2H", "3H", "8S", "3S"])
    controller = start(window, "coop")
    lift(window, qtbot, "White")
    controller.act(controller.parse_text("ask n"))  # as typed in the entry field
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    press(window, qtbot, "end")
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "Black")
    assert "Do you hold a black knight card?" in window.status.text()
    shot(window, "question")
    press(window, qtbot, "yes")
    qtbot.waitUntil(lambda: controller.game.phase == "card", timeout=5000)
    assert any("answered Yes to: Do you hold a black knight card?" in line for line in controller.log())


def test_a_person_with_a_bot_partner_to_the_end(window: Any, qtbot: Any) -> None:
    controller = start(window, "coop", {"Black": "sightline:partner:medium"})
    assert controller.curtain_for is None
    for _ in range(200):
        qtbot.waitUntil(lambda: controller.game.to_move == 0 or controller.outcome is not None, timeout=60000)
        if controller.outcome is not None:
            break
        if controller.game.phase == "card":
            click_zone(window, qtbot, "hand", 0)
        elif controller.game.phase == "answer":  # the bot partner asked about our hand
            press(window, qtbot, "yes")
        else:
            press(window, qtbot, "end")
        qtbot.wait(1)
    assert controller.outcome is not None and "Game over" in controller.log()[-1]
    assert controller.outcome.score is not None
    shot(window, "bot-partner-end")


def test_the_solitaire_by_clicks(window: Any, qtbot: Any) -> None:
    controller = start(window, "coop_solitaire")
    assert controller.curtain_for is None
    assert [zone.id for zone in controller.scene().zones] == ["pile", "line", "discard", "captured", "score"]
    shot(window, "solitaire")
    press(window, qtbot, "end")
    qtbot.waitUntil(lambda: controller.game.board.turn is False, timeout=5000)
    assert len(controller.game.line) >= 2


def test_a_promotion_by_clicks_the_type_then_the_gap(window: Any, qtbot: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_coop_rules import made
    position = ("7k/4P3/8/8/8/8/8/K7 w - - 0 1", ("2S", "3S"), ("QH",))
    monkeypatch.setattr(rules.CoopChess, "from_options",
                        classmethod(lambda cls, options: made(("2H", "8D", "4S", "8C"), *position)))
    controller = start(window, "coop")
    lift(window, qtbot, "White")
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    window.board.moveRequested.emit(cell("e7"), cell("e8"), "q")  # the board's promotion chooser answered queen
    qtbot.waitUntil(lambda: any(zone.id == "place" for zone in controller.scene().zones), timeout=5000)
    shot(window, "promotion-gap")
    click_zone(window, qtbot, "place", 1)
    qtbot.waitUntil(lambda: controller.game.line == ["2S", "QH", "3S"], timeout=5000)
    assert str(controller.game.board.piece_at(60)) == "Q"  # e8


def test_the_captures_the_line_allows_are_marked(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_coop_rules import made
    position = ("r3k3/pp6/8/3p4/4P3/2N5/PP6/R3K3 w - - 0 1", ("10H", "10S", "2S"), ())
    monkeypatch.setattr(rules.CoopChess, "from_options",
                        classmethod(lambda cls, options: made(("8H", "2D", "8S", "8C"), *position)))
    controller = start(window, "coop")
    lift(window, qtbot, "White")
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    scene = controller.scene()
    assert any(marker.label == "x" and cell("d5") in marker.squares for marker in scene.markers)
    shot(window, "captures-marked")


def test_questions_are_put_together_by_clicks_from_phrases(window: Any, qtbot: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """"Ask about a card" offers one card of each kind a hand can hold, and a click on one asks "Do you hold ...";
    "Ask about a capture" turns a click on a square into "Could you capture on ...". "Don't ask" puts it away."""
    dealt(monkeypatch, ["2H", "3H", "8S", "3S"])
    controller = start(window, "coop")
    lift(window, qtbot, "White")
    press(window, qtbot, "ask-hold")
    qtbot.waitUntil(lambda: any(zone.id == "ask" for zone in controller.scene().zones), timeout=5000)
    press(window, qtbot, "ask-cancel")
    qtbot.waitUntil(lambda: not any(zone.id == "ask" for zone in controller.scene().zones), timeout=5000)
    press(window, qtbot, "ask-hold")
    shot(window, "ask-card")
    click_zone(window, qtbot, "ask", 6)  # the 8 of spades: a black knight
    qtbot.waitUntil(lambda: any("You asked: Do you hold a black knight card?" in line for line in controller.log()),
                    timeout=5000)
    assert not offered(window, "ask-hold")  # one question a turn
    assert not any(zone.id == "ask" for zone in controller.scene().zones)
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=5000)
    press(window, qtbot, "end")
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "Black")
    press(window, qtbot, "no")
    qtbot.waitUntil(lambda: controller.game.phase == "card", timeout=5000)
    press(window, qtbot, "ask-capture")
    qtbot.waitUntil(lambda: controller.scene().sense_window is not None, timeout=5000)
    click_square(window, qtbot, cell("f2"))
    qtbot.waitUntil(lambda: any("You asked: Could you capture on f2 next turn?" in line
                                for line in controller.log()), timeout=5000)
    assert controller.scene().sense_window is None  # the board offers moves again
