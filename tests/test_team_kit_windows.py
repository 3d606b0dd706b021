"""Telepathy Chess and Split-Brain Chess through the window: four people at one screen, by clicks, with the curtain
between every two of them, and the whole window of the next person the same whatever secret the one before kept
(the card played face down, the piece picked); and a person with a bot partner against two bots."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from tests.test_curtain_leaks import assert_same, behind_the_curtain, curtain_pictures  # noqa: E402


def start(window: Any, key: str, bots: dict[str, str] | None = None, fen: str | None = None) -> Any:
    from app.ui.game_controller import GameController, SeatConfig
    seats = [SeatConfig(name, (bots or {}).get(name)) for name in games.get(key).seat_names]
    controller = GameController(key, seats, TimeControl(600, 5), {"fen": fen} if fen else {}, parent=window)
    window._install(controller)
    return controller


def lift(window: Any, qtbot: Any, seat: str) -> None:
    controller = window.controller
    assert controller.curtain_for is not None and controller.screen_seat is None and window.curtain.isVisible()
    assert controller.game.seat_names[controller.curtain_for] == seat
    qtbot.mouseClick(window.curtain, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.screen_seat is not None, timeout=5000)


def click_zone(window: Any, qtbot: Any, zone_id: str, index: int) -> None:
    layout = window.board.zone_layout()
    assert layout is not None
    rect = next(placed.items for placed in layout.zones if placed.zone.id == zone_id)[index]
    point = rect.center().toPoint()
    assert window.board.zone_item_at(point) == (zone_id, index)
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=point)


def click_square(window: Any, qtbot: Any, cell: tuple[int, int]) -> None:
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell).center())


def own_screen(window: Any) -> Any:
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))  # no hover preview of a resting pointer
    return behind_the_curtain(window)


def cell(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return chess.square_file(square), chess.square_rank(square)


# ---- Telepathy ----------------------------------------------------------------------------------------------------

def _telepathy_turn(window: Any, qtbot: Any, card_index: int) -> tuple[list[Any], Any, str]:
    """W1 plays hand card ``card_index`` face down by a click; the curtain comes down; W2 lifts it. Returns the
    pictures of that curtain, W2's whole screen and the table as W2's scene has it."""
    controller = start(window, "telepathy")
    lift(window, qtbot, "W1")
    hand = next(zone for zone in controller.scene().zones if zone.id == "hand")
    assert len(hand.cards) == 6
    click_zone(window, qtbot, "hand", card_index)
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    pictures = curtain_pictures(window, qtbot)
    lift(window, qtbot, "W2")
    table = next(zone for zone in controller.scene().zones if zone.id == "table-0")
    assert table.cards[1] is None  # the face-down card is a back for the partner
    return pictures, own_screen(window), controller


def test_telepathy_four_people_the_mover_sees_nothing_of_the_face_down_card(window: Any, qtbot: Any) -> None:
    first, first_screen, _ = _telepathy_turn(window, qtbot, 0)  # the knight card
    second, second_screen, controller = _telepathy_turn(window, qtbot, 2)  # the rook card: the game played on
    assert_same(first, second, "telepathy-curtain")
    assert_same([first_screen], [second_screen], "telepathy-mover")
    # W2 moves by clicks; the card is flipped for everyone and the coin moves; the curtain falls for B1.
    click_square(window, qtbot, cell("g1"))
    click_square(window, qtbot, cell("f3"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "B1")
    assert controller.game.coin == -1  # W1 had played the rook card: a knight moved, so no match
    assert any("W1 predicted rook; no match: coin toward White" in line for line in controller.log())
    click_zone(window, qtbot, "hand", 0)
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "B2")
    assert window.board.pieces()[cell("g8")] == "n"


def _play_to_the_end(window: Any, qtbot: Any, controller: Any, person_acts: Any, limit: int = 400) -> None:
    """The person in seat 0 acts through ``person_acts`` whenever it is its turn, the bots in their worker
    processes the rest of the time, until the game ends."""
    for _ in range(limit):
        qtbot.waitUntil(lambda: controller.game.to_move == 0 or controller.outcome is not None, timeout=30000)
        if controller.outcome is not None:
            return
        person_acts()
    raise AssertionError("the game did not end")


def test_telepathy_a_person_with_a_bot_partner_against_two_bots_to_the_end(window: Any, qtbot: Any) -> None:
    # From an ending (queen and rook against the king), so that the game ends soon.
    controller = start(window, "telepathy", {"W2": "sightline:engine:medium", "B1": "sightline:random:medium",
                                             "B2": "sightline:random:medium"}, fen="8/8/8/3k4/8/8/8/QR2K3 w - - 0 1")
    assert controller.curtain_for is None  # one person: no curtain between a person and the bots

    def person() -> None:  # W1 predicts by a click on its first card, moves or removes as the engine would
        if controller.game.phase == "predict":
            click_zone(window, qtbot, "hand", 0)
        else:
            controller.act(next(iter(controller.game.choices().values()))[0])

    _play_to_the_end(window, qtbot, controller, person)
    assert controller.outcome is not None and "Game over" in controller.log()[-1]
    assert {entry.seat for entry in controller.session.record.entries} == {0, 1, 2, 3}


# ---- Split-Brain -----------------------------------------------------------------------------------------------

def _splitbrain_pick(window: Any, qtbot: Any, piece: str) -> tuple[list[Any], Any, Any]:
    controller = start(window, "splitbrain")
    lift(window, qtbot, "W1")
    assert window.board.sense_mode()
    click_square(window, qtbot, cell(piece))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    pictures = curtain_pictures(window, qtbot)
    lift(window, qtbot, "W2")
    return pictures, own_screen(window), controller


def test_splitbrain_four_people_the_partner_sees_nothing_of_the_pick(window: Any, qtbot: Any) -> None:
    first, first_screen, _ = _splitbrain_pick(window, qtbot, "b1")
    second, second_screen, controller = _splitbrain_pick(window, qtbot, "a2")  # the game played on
    assert_same(first, second, "splitbrain-curtain")
    assert_same([first_screen], [second_screen], "splitbrain-mover")
    click_square(window, qtbot, cell("a1"))  # the rook cannot move: nobody can move there; refused
    assert controller.game.to_move == 1 and "Not possible" in controller.log()[-1]
    click_square(window, qtbot, cell("f3"))  # W1 picked a2: no pair, so Black's chooser decides
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "B1")
    labels = {marker.label for marker in controller.scene().markers}
    assert {"piece", "square"} <= labels
    button = window.panel.command_buttons["use_square"]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the e1 knight and the f2 pawn tie: W1 settles it
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    lift(window, qtbot, "W1")
    click_square(window, qtbot, cell("e1"))
    click_square(window, qtbot, cell("f3"))
    qtbot.waitUntil(lambda: controller.curtain_for is not None, timeout=5000)
    assert controller.game.position.board[2 * 6 + 5] == "N"  # the knight stands on f3


def test_splitbrain_a_person_with_a_bot_partner_against_two_bots_to_the_end(window: Any, qtbot: Any) -> None:
    controller = start(window, "splitbrain", {"W2": "sightline:engine:medium", "B1": "sightline:engine:medium",
                                              "B2": "sightline:engine:medium"}, fen="k5/6/6/6/6/1QR1K1 w - - 0 1")
    assert controller.curtain_for is None

    def person() -> None:  # W1 picks by a click on the first square offered, or answers with the first choice
        if controller.game.phase == "pick":
            square = next(iter(controller.game.choices().values()))[0].square
            click_square(window, qtbot, (ord(square[0]) - ord("a"), int(square[1]) - 1))
        else:
            controller.act(next(iter(controller.game.choices().values()))[0])

    _play_to_the_end(window, qtbot, controller, person)
    assert controller.outcome is not None and "Game over" in controller.log()[-1]
