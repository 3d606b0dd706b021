"""Team draw offers through the window (Telepathy and Split-Brain): four people at one screen press the panel's
Offer draw, Accept and Decline buttons. A proposal is seen by the partner only until the partner agrees; the
opponents' screen is then the same as if no draw had been proposed; an agreed offer is put to both
opponents, the first one's yes shown to its own partner only, and the game ends drawn when all four agree."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Reason  # noqa: E402
from tests.test_curtain_leaks import assert_same  # noqa: E402
from tests.test_team_kit_windows import cell, click_square, click_zone, lift, own_screen  # noqa: E402


def start(window: Any, key: str) -> Any:
    """Four people at one screen, without clocks (so that two games' screens can be compared pixel by pixel)."""
    from app.ui.game_controller import GameController, SeatConfig
    seats = [SeatConfig(name) for name in games.get(key).seat_names]
    controller = GameController(key, seats, TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    return controller


def press(window: Any, qtbot: Any, command_id: str) -> None:
    button = window.panel.command_buttons[command_id]
    assert button.isVisible() and button.isEnabled(), command_id
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.controller.curtain_for is not None or window.controller.outcome is not None,
                    timeout=5000)


def shown(window: Any) -> dict[str, tuple[str, bool]]:
    """The draw buttons in sight: id -> (label, enabled)."""
    return {command_id: (button.text(), button.isEnabled())
            for command_id, button in window.panel.command_buttons.items()
            if command_id in ("offer_draw", "accept_draw", "decline_draw") and button.isVisible()}


def draw_lines(controller: Any, seat: int) -> list[str]:
    return [line for line in controller.logs[seat] if "draw" in line]


# ---- Telepathy ----------------------------------------------------------------------------------------------------

def _telepathy_first_move(window: Any, qtbot: Any, controller: Any) -> None:
    """W1 plays its knight card, W2 plays Nf3; the curtain falls for B1."""
    lift(window, qtbot, "W1")
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "W2")
    click_square(window, qtbot, cell("g1"))
    click_square(window, qtbot, cell("f3"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)


def what_the_seat_sees(window: Any) -> tuple[Any, ...]:
    """Everything of the seat at the screen the window shows (its SeatScreen, the board's pixels and the log's
    text). The panel's layout is left out: a row of buttons shown once leaves the labels above it a pixel lower
    afterwards, whoever showed it (a quirk of the panel's layout, the same after any game's draw answer)."""
    screen = window.controller.seat_screen()
    return (screen.seat, screen.status, screen.log, screen.moves, screen.clocks, screen.commands, screen.entry_hint,
            screen.view, screen.scene.pieces, screen.scene.zones, screen.scene.markers, window.panel.log.toPlainText(),
            window.board.grab().toImage())


def test_telepathy_a_refused_proposal_leaves_no_trace_on_the_opponents_screen(window: Any, qtbot: Any) -> None:
    plain = start(window, "telepathy")
    _telepathy_first_move(window, qtbot, plain)
    lift(window, qtbot, "B1")
    own_screen(window)
    without = what_the_seat_sees(window)

    controller = start(window, "telepathy")
    lift(window, qtbot, "W1")
    assert shown(window) == {"offer_draw": ("Offer draw", True)}
    press(window, qtbot, "offer_draw")
    lift(window, qtbot, "W2")  # the partner is asked
    assert shown(window) == {"accept_draw": ("Agree to offer a draw", True),
                             "decline_draw": ("Refuse to offer it", True)}
    assert controller.log()[-1] == "W1 proposes a draw: agree to offer it to the opponents, or refuse."
    assert window.panel.status.text().startswith("Your partner proposes a draw")
    window.grab().save("/tmp/h1-team-agree.png")
    press(window, qtbot, "decline_draw")
    lift(window, qtbot, "W1")
    assert shown(window) == {"offer_draw": ("Offer draw", False)}  # once a turn
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "W2")
    click_square(window, qtbot, cell("g1"))
    click_square(window, qtbot, cell("f3"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "B1")
    assert draw_lines(controller, 2) == draw_lines(controller, 3) == []
    assert len(draw_lines(controller, 0)) == len(draw_lines(controller, 1)) == 2
    own_screen(window)
    seen = what_the_seat_sees(window)
    assert seen[:-1] == without[:-1]
    assert_same([without[-1]], [seen[-1]], "team-draw-refused-board")


def test_telepathy_an_agreed_offer_goes_to_both_opponents_and_all_four_draw(window: Any, qtbot: Any) -> None:
    controller = start(window, "telepathy")
    _telepathy_first_move(window, qtbot, controller)
    lift(window, qtbot, "B1")
    click_zone(window, qtbot, "hand", 0)  # B1's knight card
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "B2")
    click_square(window, qtbot, cell("g8"))
    click_square(window, qtbot, cell("f6"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "W2")  # the roles have swapped: W2 predicts
    press(window, qtbot, "offer_draw")
    lift(window, qtbot, "W1")
    press(window, qtbot, "accept_draw")
    lift(window, qtbot, "B2")  # Black's predictor answers first
    assert shown(window) == {"accept_draw": ("Accept draw", True), "decline_draw": ("Decline draw", True)}
    assert controller.log()[-1] == ("White offers a draw (W2 proposed it, W1 agreed). Both opponents must "
                                    "accept, B2 first.")
    window.grab().save("/tmp/h1-team-answer.png")
    press(window, qtbot, "accept_draw")
    lift(window, qtbot, "B1")
    assert window.panel.status.text() == "White offers a draw and your partner accepts: Accept or Decline"
    assert controller.log()[-1] == "B2 accepted the draw; you must accept too."
    assert not any("accepted" in line for seat in (0, 1) for line in controller.logs[seat])  # White waits unaware
    press(window, qtbot, "accept_draw")
    assert controller.outcome is not None and controller.outcome.reason == Reason.DRAW_AGREED


# ---- Split-Brain --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("accept", [False, True])
def test_splitbrain_the_opponents_answer_by_the_buttons(window: Any, qtbot: Any, accept: bool) -> None:
    controller = start(window, "splitbrain")
    lift(window, qtbot, "W1")
    click_square(window, qtbot, cell("b1"))  # the chooser's secret pick
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "W2")
    press(window, qtbot, "offer_draw")  # the mover proposes
    lift(window, qtbot, "W1")
    press(window, qtbot, "accept_draw")
    lift(window, qtbot, "B1")  # Black's chooser answers first
    assert shown(window) == {"accept_draw": ("Accept draw", True), "decline_draw": ("Decline draw", True)}
    if not accept:
        press(window, qtbot, "decline_draw")
        lift(window, qtbot, "W2")  # the mover picks on
        assert controller.log()[-1] == "B1 declined the draw for Black; play goes on."
        click_square(window, qtbot, cell("c3"))
        qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
        assert controller.game.position.board[2 * 6 + 2] == "N"  # b1-c3 as picked
        return
    press(window, qtbot, "accept_draw")
    lift(window, qtbot, "B2")
    press(window, qtbot, "accept_draw")
    assert controller.outcome is not None and controller.outcome.reason == Reason.DRAW_AGREED


def test_telepathy_a_person_offers_and_the_bots_answer(window: Any, qtbot: Any) -> None:
    """W1 is a person; its partner and both opponents are bots in their worker processes. In an even position
    the bot partner agrees, and the bot opponents decline: W1 then predicts as before."""
    from app.ui.game_controller import GameController, SeatConfig
    bots = {"W2": "sightline:engine:medium", "B1": "sightline:random:medium", "B2": "sightline:engine:medium"}
    seats = [SeatConfig(name, bots.get(name)) for name in games.get("telepathy").seat_names]
    controller = GameController("telepathy", seats, TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    assert controller.curtain_for is None and controller.screen_seat == 0
    qtbot.mouseClick(window.panel.command_buttons["offer_draw"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any("declined the draw" in line for line in controller.logs[0])
                    or controller.outcome is not None, timeout=30000)
    assert controller.outcome is None, controller.logs[0][-1]  # a bot's answer the app could not read loses
    assert draw_lines(controller, 0) == [
        "You proposed a draw; W2 must agree before the opponents hear of it.",
        "White offers a draw (W1 proposed it, W2 agreed). Both opponents must accept, B1 first.",
        "B1 declined the draw for Black; play goes on."]
    qtbot.waitUntil(lambda: controller.game.to_move == 0 and controller.game.phase == "predict", timeout=5000)
    assert shown(window) == {"offer_draw": ("Offer draw", False)}
    assert controller.outcome is None
