"""Several secret choices a turn, through the window: Secret Picks (``tests/games/picks``) among four people at one
screen. The new-game dialog offers it; its setup is made with buttons and its picks by real clicks on the cards
of the hand where the board drew them; the curtain falls between every two seats, partners (A1 then A2)
included; behind the curtain the whole window is the same whatever A1 picked; no seat's screen (board, zones,
log, move list) holds another seat's pick before the round is shown, and after it every seat sees all four.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.games.scene import CardRowZone, HandZone  # noqa: E402
from tests.test_curtain_leaks import assert_same, behind_the_curtain, curtain_pictures  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEY = "picks"
SEATS = ("A1", "A2", "B1", "B2")
SEED = 20261123
"""The chance seed of every game here: the same deal each time, so two games differ only in what a seat chose."""


@pytest.fixture
def picks(window: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The window with Secret Picks registered for one test."""
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, "tests.games.picks")
    yield window


def person_game(window: Any, seed: int = SEED) -> Any:
    """Four people at the screen, a game dealt from ``seed``, installed as the window's start does it."""
    from app.engine.record import GameSession, PlayerInfo
    from app.engine.variants import game_type
    from app.ui.game_controller import GameController, SeatConfig
    seats = [SeatConfig(name) for name in games.get(KEY).seat_names]
    game = game_type(KEY).create({}, seed)
    session = GameSession(game, TimeControl(None, 0), [PlayerInfo(seat.name, "human", seat.spec) for seat in seats],
                          seed, start_clock=False)
    controller = GameController(KEY, seats, TimeControl(None, 0), session=session, parent=window)
    window._install(controller)
    return controller


def lift(window: Any, qtbot: Any, seat: str) -> None:
    """The curtain is up for ``seat`` (and nobody is at the screen); ``seat`` clicks it away."""
    controller = window.controller
    assert controller.curtain_for is not None and controller.screen_seat is None
    assert SEATS[controller.curtain_for] == seat and window.curtain.isVisible()
    qtbot.mouseClick(window.curtain, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.screen_seat is not None, timeout=5000)
    assert controller.screen_seat == SEATS.index(seat) and not window.curtain.isVisible()


def arrange(window: Any, qtbot: Any, seat: str, double: int) -> None:
    """``seat`` lifts the curtain and presses the "Round ``double``" button (the round its card counts double)."""
    lift(window, qtbot, seat)
    button = window.panel.command_buttons[f"double-{double}"]
    assert button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.controller.curtain_for is not None or window.controller.outcome is not None,
                    timeout=5000)


def click_card(window: Any, qtbot: Any, index: int) -> None:
    """A click on card ``index`` of the hand, where the board drew it."""
    layout = window.board.zone_layout()
    assert layout is not None
    rect = next(placed.items for placed in layout.zones if placed.zone.id == "hand")[index]
    point = rect.center().toPoint()
    assert window.board.zone_item_at(point) == ("hand", index)
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=point)


def pick(window: Any, qtbot: Any, seat: str, index: int) -> str:
    """``seat`` lifts the curtain and clicks card ``index`` of its hand; the card picked."""
    lift(window, qtbot, seat)
    controller = window.controller
    card: str = controller.views[controller.screen_seat].hand[index]
    picked = len(controller.game.table[-1]) if controller.game.table else 0
    click_card(window, qtbot, index)
    qtbot.waitUntil(lambda: controller.curtain_for is not None or controller.outcome is not None, timeout=5000)
    assert card in controller.game.table[-1] and (picked == 4 or len(controller.game.table[-1]) == picked + 1)
    return card


def drawn_hand(window: Any) -> HandZone:
    """The hand zone the board draws now."""
    layout = window.board.zone_layout()
    assert layout is not None
    zone = next(placed.zone for placed in layout.zones if placed.zone.id == "hand")
    assert isinstance(zone, HandZone)
    return zone


def screen_text(window: Any) -> str:
    """Every word of the seat's screen: the log, the move list, the status, the strip's labels and every card
    the board draws."""
    words = [window.panel.log.toPlainText(), window.panel.moves.toPlainText(), window.status.text()]
    words += [marker.label for marker in window.board.markers()]
    layout = window.board.zone_layout()
    for placed in () if layout is None else layout.zones:
        cards = getattr(placed.zone, "cards", ())
        words += [card.code for card in cards if card is not None]
    return "\n".join(words)


def mentions(text: str, card: str) -> bool:
    """Whether ``text`` names ``card`` as a word, in either of its spellings."""
    return any(re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text) for name in names_of(card))


def names_of(card: str) -> tuple[str, str]:
    """The two ways a screen may name a card: the game's (``Tc``) and the drawn card's (``10C``)."""
    from tests.games.picks.presenter import scene_card
    return card, scene_card(card).code


def test_the_dialog_offers_secret_picks(picks: Any) -> None:
    from app.ui.new_game_dialog import NewGameDialog
    dialog = NewGameDialog(picks)
    offered = [dialog.game.itemData(index) for index in range(dialog.game.count())]
    dialog.deleteLater()
    assert KEY in offered and offered == [
        key for key in games.names() if not games.get(key).variant_of]  # a form is under its game


def test_four_people_play_a_round_by_clicks_behind_a_curtain_between_every_seat(picks: Any, qtbot: Any) -> None:
    window = picks
    controller = person_game(window)
    game = controller.game
    hands = [list(hand) for hand in game.hands]
    for seat, double in zip(SEATS, (2, 1, 3, 1)):
        arrange(window, qtbot, seat, double)
    assert game.doubles == [2, 1, 3, 1] and game.phase == "pick"
    picked: list[str] = []
    for number, seat in enumerate(SEATS):
        # The curtain is up for this seat: the one before it, partner or not, has gone from the screen.
        assert SEATS[controller.curtain_for] == seat and controller.screen_seat is None
        lift(window, qtbot, seat)
        hand = drawn_hand(window)
        assert hand.private_to == frozenset({number})
        assert [card.code for card in hand.cards if card is not None] == [names_of(c)[1] for c in hands[number]]
        assert f"{seat}: click a card of your hand" in window.status.text()
        text = screen_text(window)
        for earlier, card in zip(SEATS, picked):  # what the seats before it picked is nowhere on its screen
            assert not mentions(text, card), (seat, earlier, card)
            assert f"Round 1: {earlier} picked a card." in window.panel.log.toPlainText()
        picked.append(pick_lifted(window, qtbot, 0))
        if number < 3:
            assert controller.curtain_for == number + 1  # the curtain falls before the next seat, A1 -> A2 too
    assert tuple(picked) == tuple(game.table[0])
    # After the reveal every seat sees the four picks: its log, the row of round 1 and the strip.
    for number, seat in enumerate(SEATS):
        view = controller.views[number]
        assert view.shown == {1: tuple(picked)}
        line = "Round 1 shown: " + ", ".join(f"{name} {card}" for name, card in zip(SEATS, picked)) + "."
        assert line in controller.logs[number]
    lift(window, qtbot, "A1")
    layout = window.board.zone_layout()
    assert layout is not None
    row = next(placed.zone for placed in layout.zones if placed.zone.id == "round-1")
    assert isinstance(row, CardRowZone) and [card.code for card in row.cards] == [names_of(c)[1] for c in picked]
    assert [marker.label for marker in window.board.markers()] == [f"{name} {card}"
                                                                   for name, card in zip(SEATS, picked)]
    # The game plays on to its end by clicks: two more rounds.
    pick_lifted(window, qtbot, 0)
    for seat in SEATS[1:]:
        pick(window, qtbot, seat, 0)
    for seat in SEATS:
        pick(window, qtbot, seat, 0)
    assert controller.outcome is not None and len(game.table) == 3
    assert "Game over" in window.status.text()


def pick_lifted(window: Any, qtbot: Any, index: int) -> str:
    """The seat at the screen (the curtain already lifted) clicks card ``index`` of its hand; the card."""
    controller = window.controller
    card: str = controller.views[controller.screen_seat].hand[index]
    click_card(window, qtbot, index)
    qtbot.waitUntil(lambda: controller.curtain_for is not None or controller.outcome is not None, timeout=5000)
    assert card in controller.game.table[-1]
    return card


def _one_round(window: Any, qtbot: Any, private: int) -> tuple[list[QImage], QImage, str]:
    """A game in which A1 picks card ``private`` (0 or 1) of its hand in round 1 and every other choice is the same:
    the pictures of every curtain from A1's pick on (for A2, its partner, then B1 and B2), and A1's own screen
    just before its pick, the card's name typed (which must differ between the two games, or the
    comparison would prove nothing), and the card A1 picked."""
    controller = person_game(window)
    for seat in SEATS:
        arrange(window, qtbot, seat, 1)
    lift(window, qtbot, "A1")
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    window.entry.setText(controller.views[0].hand[private])  # typed, not sent: a secret of A1 too
    own_screen = behind_the_curtain(window)
    window.entry.clear()
    card = pick_lifted(window, qtbot, private)
    pictures: list[QImage] = []
    pictures.extend(curtain_pictures(window, qtbot))  # for A2, A1's partner
    for seat in ("A2", "B1"):
        pick(window, qtbot, seat, 0)
        pictures.extend(curtain_pictures(window, qtbot))  # for B1, then B2
    assert SEATS[controller.curtain_for] == "B2"
    controller.stop()
    return pictures, own_screen, card


def test_the_whole_window_behind_the_curtain_is_the_same_whatever_a1_picked(picks: Any, qtbot: Any) -> None:
    _one_round(picks, qtbot, 0)  # a first game: the docks are made and laid out
    first, first_own, first_card = _one_round(picks, qtbot, 0)
    second, second_own, second_card = _one_round(picks, qtbot, 1)
    assert first_card != second_card and first_own != second_own
    assert_same(first, second, "picks-curtain")


def test_a2_sees_its_own_hand_and_nothing_of_a1s_pick(picks: Any, qtbot: Any) -> None:
    window = picks
    controller = person_game(window)
    for seat in SEATS:
        arrange(window, qtbot, seat, 3)
    a1_card = pick(window, qtbot, "A1", 2)
    lift(window, qtbot, "A2")
    hand = drawn_hand(window)
    assert [card.code for card in hand.cards if card is not None] == [names_of(c)[1] for c in controller.game.hands[1]]
    text = screen_text(window)
    assert not mentions(text, a1_card)
    assert "Round 1: A1 picked a card." in window.panel.log.toPlainText()
    assert [marker.label for marker in window.board.markers()][:2] == ["A1 in", "A2 .."]


def test_the_presenter_refuses_what_the_rules_refuse_and_reads_typing(picks: Any) -> None:
    from app.games.presenter import InputError, presenter_for
    from tests.games.picks.rules import Arrange, Pick, SecretPicks
    presenter = presenter_for(KEY)
    game = SecretPicks(seed=SEED)

    def view(seat: int) -> Any:
        return game.view_type.from_observations(game.observations(seat))

    with pytest.raises(InputError, match="first choose the round"):
        presenter.on_zone(view(0), "hand", 0)
    with pytest.raises(InputError, match="not your turn"):
        presenter.command(view(1), "double-1")
    assert presenter.parse_text(view(0), " 2 ") == Arrange(2)
    for seat in range(4):
        game.play(seat, presenter.command(view(seat), "double-3"))
    with pytest.raises(InputError, match="chosen once"):
        presenter.command(view(0), "double-1")
    card = game.hands[0][1]
    assert presenter.parse_text(view(0), card.lower()) == Pick(card)
    with pytest.raises(InputError, match="not in your hand"):
        presenter.parse_text(view(0), game.hands[1][0])
    with pytest.raises(InputError, match="not your turn"):
        presenter.on_zone(view(1), "hand", 0)
    game.play(0, presenter.on_zone(view(0), "hand", 1))
    assert view(0).my_picks == {1: card} and not any(card in line for line in
                                                     map(str, presenter.move_list(view(1))))
