"""Cooperative Chess 2's presenter: what a seat's scene shows (and hides), playing by clicks and typing, the
promotion's two questions, the log's words."""

from __future__ import annotations

import chess
import pytest

from app.games.coop.presenter import PENDING, PRESENTER, describe
from app.games.coop.rules import Answer, Ask, CoopChess, CoopMove, CoopView, EndTurn, PlayCard
from app.games.presenter import InputError, MarksChange
from app.games.scene import HandZone, MarkerSpec, TrackZone
from tests.test_coop_rules import made


def view_of(game: CoopChess, seat: int) -> CoopView:
    return CoopView.from_observations(game.observations(seat))


def zone(scene: object, zone_id: str) -> object:
    return next(z for z in scene.zones if z.id == zone_id)  # type: ignore[attr-defined]


def test_the_own_hand_is_faces_and_private_the_partners_backs() -> None:
    game = made(("2H", "3H", "2S", "3S"))
    white, black = PRESENTER.scene(view_of(game, 0)), PRESENTER.scene(view_of(game, 1))
    hand = zone(white, "hand")
    assert isinstance(hand, HandZone) and [card.code for card in hand.cards] == ["2H", "3H"]  # type: ignore[union-attr]
    assert hand.private_to == frozenset({0})
    partner = zone(black, "partner")
    assert isinstance(partner, HandZone) and partner.cards == (None, None) and partner.private_to == frozenset({0})
    assert [z.id for z in white.zones] == [z.id for z in black.zones]  # the same bands for both seats


def test_a_card_by_a_click_then_moves_and_the_captures_marked() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    game = made(("5H", "9H", "8S", "8C"), fen, ("2S",))
    view = view_of(game, 0)
    assert PRESENTER.on_zone(view, "hand", 0) == PlayCard("5H")
    with pytest.raises(InputError, match="first play a card"):
        PRESENTER.on_move(view, (4, 3), (3, 4), None)
    game.play(0, PlayCard("5H"))
    view = view_of(game, 0)
    scene = PRESENTER.scene(view)
    assert (3, 4) in scene.targets[(4, 3)]
    assert MarkerSpec("reveal", ((3, 4),), label="x", opacity=0.7) in scene.markers
    line = zone(scene, "line")
    assert isinstance(line, HandZone) and line.selected == (0, 1)  # 2S and 5H: the pair a capture may use
    assert PRESENTER.on_move(view, (4, 3), (3, 4), None) == CoopMove(chess.Move.from_uci("e4d5"), "2S")
    with pytest.raises(InputError, match="legal"):
        PRESENTER.on_move(view, (4, 3), (4, 5), None)
    assert PRESENTER.parse_text(view, "end") == EndTurn()


def test_a_refused_capture_says_why() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    game = made(("5H", "9H", "8S", "8C"), fen, ("2S", "10C"))
    game.play(0, PlayCard("5H"))
    with pytest.raises(InputError, match="side by side"):
        PRESENTER.on_move(view_of(game, 0), (4, 3), (3, 4), None)


def test_a_promotion_asks_the_type_then_the_gap() -> None:
    game = made(("2H", "8D", "4S", "8C"), "7k/4P3/8/8/8/8/8/K7 w - - 0 1", ("2S", "3S"), ("QH",))
    game.play(0, PlayCard("2H"))
    view = view_of(game, 0)
    assert PRESENTER.scene(view).targets[(4, 6)][(4, 7)] == ["q"]  # only the type in the discard pile
    asked = PRESENTER.on_move(view, (4, 6), (4, 7), "q")
    assert asked == MarksChange({PENDING: "e7e8q"})
    bound = PRESENTER.bound(asked.marks)  # type: ignore[union-attr]
    scene = bound.scene(view)
    gaps = zone(scene, "place")
    assert isinstance(gaps, TrackZone) and gaps.positions == ("1", "2", "3")  # 2S 3S once 2H has gone
    assert "gap" in bound.prompt(view) and [command.id for command in bound.commands(view)][0] == "cancel"
    action = bound.on_zone(view, "place", 1)
    assert action == CoopMove(chess.Move.from_uci("e7e8q"), place=1)
    game.play(0, action)  # type: ignore[arg-type]
    assert game.line == ["2S", "QH", "3S"]


def test_questions_by_typing_and_answers_by_buttons() -> None:
    game = made(("2H", "3H", "8S", "3S"))
    view = view_of(game, 0)
    assert PRESENTER.parse_text(view, "ask n") == Ask("hold", piece="n")
    assert PRESENTER.parse_text(view, "ask capture F7") == Ask("capture", square="f7")
    assert PRESENTER.parse_text(view, "ask  are you   planning Nf3?") == Ask("free", text="are you planning Nf3?")
    game.play(0, Ask("free", text="Shall we clear the queens?"))
    with pytest.raises(InputError, match="one question"):
        PRESENTER.parse_text(view_of(game, 0), "ask q")
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    black = view_of(game, 1)
    assert PRESENTER.prompt(black) == "Your partner asks: Shall we clear the queens? Answer Yes or No"
    assert [command.id for command in PRESENTER.commands(black)] == ["yes", "no"]
    assert PRESENTER.command(black, "no") == Answer(False)
    words = [describe(o, 1) for o in game.observations(1)]
    assert "White asked: Shall we clear the queens?" in words


def test_the_log_never_names_the_partners_drawn_cards() -> None:
    game = made(("2H", "3H", "2S", "3S", "9D"))
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    mine = [describe(o, 0) for o in game.observations(0)]
    theirs = [describe(o, 1) for o in game.observations(1)]
    assert any("drew white bishop (9♦)" in (line or "") for line in mine)
    assert not any("9♦" in (line or "") for line in theirs) and any("drew 1 card" in (line or "") for line in theirs)
