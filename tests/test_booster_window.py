"""Booster Chess in the window: a whole turn by clicks (move, steps, card), and the hot-seat curtain, under which
nothing of either hand, nor of the card a seat had chosen, may show."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.booster.presenter import PRESENTER  # noqa: E402
from app.games.booster.rules import BoosterChess, BoosterView, Done  # noqa: E402
from app.games.scene import HandZone, StackZone  # noqa: E402
from app.games.kit_cards import card_colour  # noqa: E402
from tests.test_curtain_leaks import assert_same, behind_the_curtain, curtain_pictures  # noqa: E402


def _hot_seat(window: Any) -> Any:
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController("booster", [SeatConfig("White"), SeatConfig("Black")], TimeControl(None, 0), {},
                                parent=window)
    window._install(controller)
    return controller


def _booster_game(window: Any, qtbot: Any, private: int) -> tuple[list[Any], Any]:
    """White and Black play the same public turns (e4, no card; e5, no card; Nf3) in a fresh deal each time;
    with ``private`` 1 White has also chosen a card (its private mark), drawn arrows and typed text. The
    pictures of each curtain, and White's own screen before its second move."""
    from tests.test_curtain_leaks import keep_secrets
    controller = _hot_seat(window)
    pictures: list[Any] = []

    def turn(origin: tuple[int, int], target: tuple[int, int], choose: bool) -> None:
        controller.lift_curtain()
        controller.move(origin, target, None)
        assert controller.game.phase == "card"
        if choose:
            controller.zone(f"hand-{controller.screen_seat}", 0)
            assert controller.scene().zone(f"hand-{controller.screen_seat}").selected == (0,)
        controller.act_on_command("no-card")
        assert controller.curtain_for is not None
        pictures.extend(curtain_pictures(window, qtbot))

    turn((4, 1), (4, 3), bool(private))
    turn((4, 6), (4, 4), False)
    controller.lift_curtain()
    if private:
        keep_secrets(window, False)
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    own = behind_the_curtain(window)
    controller.move((6, 0), (5, 2), None)
    controller.act_on_command("no-card")
    pictures.extend(curtain_pictures(window, qtbot))
    return pictures, own


def test_the_whole_window_behind_the_curtain_shows_neither_hand(window, qtbot) -> None:
    _booster_game(window, qtbot, 0)  # the docks are made and laid out
    first, first_own = _booster_game(window, qtbot, 0)
    second, second_own = _booster_game(window, qtbot, 1)  # another deal, a chosen card, arrows, typing
    assert first_own != second_own
    assert_same(first, second, "booster-curtain")


def test_a_whole_turn_by_clicks_move_steps_and_card(window, qtbot, monkeypatch) -> None:
    # the deal of seed 3 gives White black cards (one deal in 2**6 gives none, and this test needs one)
    monkeypatch.setattr(BoosterChess, "from_options", classmethod(lambda cls, options: cls(seed=3)))
    controller = _hot_seat(window)
    game: BoosterChess = controller.game
    assert game.hands[0] == BoosterChess(seed=3).hands[0]
    game.stacks[chess.G1] = 2  # White's knight stands on two of White's checkers
    for seat in (0, 1):
        controller.views[seat].stacks[chess.G1] = 2
    controller.lift_curtain()
    scene = controller.scene()
    stacks = {zone.id: zone.heights() for zone in scene.zones if isinstance(zone, StackZone)}
    assert stacks == {"white-checkers": {(6, 0): 2}, "black-checkers": {}}
    controller.move((6, 0), (5, 2), None)  # Nf3: boosted, its steps are offered
    assert game.phase == "boost"
    scene = controller.scene()
    assert scene.sense_window is not None and scene.sense_window((5, 3)) == [(5, 3)]
    assert [command.id for command in controller.commands() if command.id == "done"] == ["done"]
    controller.sense((5, 3))  # a step to f4
    assert game.board.piece_at(chess.F4) == chess.Piece(chess.KNIGHT, chess.WHITE) and game.stacks == {chess.F4: 1}
    controller.act_on_command("done")
    assert game.phase == "card"
    hand = controller.views[0].hand
    index = next(i for i, card in enumerate(hand) if card_colour(card) == chess.BLACK)
    controller.zone("hand-0", index)
    scene = controller.scene()
    allowed = [(f, r) for f in range(8) for r in range(8) if scene.sense_window((f, r))]
    assert allowed and all(controller.views[0].board.color_at(f + 8 * r) == chess.BLACK for f, r in allowed)
    controller.sense(allowed[0])  # a white checker under a black piece: hobbled
    square = allowed[0][0] + 8 * allowed[0][1]
    assert game.stacks.get(square) == 1 and controller.curtain_for == 1
    controller.lift_curtain()
    own = controller.scene()
    hands = {zone.id: zone for zone in own.zones if isinstance(zone, HandZone)}
    assert hands["hand-0"].cards == (None,) * len(game.hands[0]) and hands["hand-1"].private_to == {1}
    piece = game.board.piece_at(square)
    assert piece is not None
    destinations = {move.to_square for move in controller.views[1].legal_moves() if move.from_square == square}
    forward = square - 8
    assert destinations <= {forward, forward - 1, forward + 1}  # it moves like a black pawn, or not at all


def test_a_seats_scene_holds_no_face_of_the_other_hand() -> None:
    game = BoosterChess(seed=3)
    for seat in (0, 1):
        view = BoosterView.from_observations(game.observations(seat))
        text = repr(PRESENTER.scene(view))
        for card in game.hands[1 - seat]:
            if card not in game.hands[seat]:
                assert f"code='{card}'" not in text and f"'{card}'" not in text
    game.play(0, game.choices()["moves"][0])
    if game.phase == "card":
        game.play(0, Done())


def _view(game: BoosterChess, seat: int) -> BoosterView:
    return BoosterView.from_observations(game.observations(seat))


def test_a_hobbled_piece_shows_its_pawn_like_squares_and_premoves_are_offered() -> None:
    from app.games.booster.rules import read_stacks
    game = BoosterChess(seed=1, fen="4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", stacks=read_stacks("d2:-1"),
                        hands=(("2H",), ("2S",)))
    scene = PRESENTER.scene(_view(game, 0))
    assert scene.targets[(3, 1)] == {(3, 2): []}  # the hobbled rook: one square ahead, like a pawn
    premoves = PRESENTER.premove_scene(_view(game, 1))
    assert premoves is not None and (4, 7) in premoves.targets  # Black may queue a king move
    assert PRESENTER.premove_scene(_view(game, 0)) is None  # on its own turn a seat moves, it queues nothing


def test_typed_input_and_commands() -> None:
    from app.games.booster.rules import BoosterMove, PlayCard, Step, read_stacks
    game = BoosterChess(seed=1, fen="4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", stacks=read_stacks("g1:+1"),
                        hands=(("8H", "6S"), ("2S",)))
    view = _view(game, 0)
    assert PRESENTER.parse_text(view, "g1f3") == BoosterMove("g1f3")
    game.play(0, BoosterMove("g1f3"))
    view = _view(game, 0)
    assert PRESENTER.parse_text(view, "f3f4") == Step("f3f4")
    assert [command.id for command in PRESENTER.commands(view)] == ["done"]
    assert PRESENTER.command(view, "done") == Done()
    game.play(0, Done())
    view = _view(game, 0)
    assert PRESENTER.parse_text(view, "8h f3") == PlayCard("8H", "f3")
    chosen = PRESENTER.on_zone(view, "hand-0", 1)  # the black checker card: a private mark, no action
    assert chosen.marks == {"card": "6S"}
    bound = PRESENTER.bound(chosen.marks)
    scene = bound.scene(view)
    assert scene.zone("hand-0").selected == (1,) and scene.sense_window((4, 7)) == [(4, 7)]
    assert bound.on_square(view, (4, 7)) == PlayCard("6S", "e8")
    assert "Click a marked piece" in bound.prompt(view)


def test_a_booster_check_is_told_and_heard() -> None:
    from app.games.booster.rules import BoosterMove, TurnOver, read_stacks
    game = BoosterChess(seed=1, fen="7k/6pp/8/8/8/2N5/8/K7 w - - 0 1", stacks=read_stacks("c3:+2"),
                        hands=(("2H",), ("2S",)))
    game.play(0, BoosterMove("c3e4"))  # no chess check: Nf6, a step taking g7 and one onto h8 would take the king
    game.play(0, Done())
    game.play(0, Done())
    assert not game.board.is_check()
    told = [o for o in game.observations(1) if isinstance(o, TurnOver)][-1]
    assert isinstance(told, TurnOver) and told.check
    assert PRESENTER.describe(told, 1).endswith("You are in check.") and "check" in PRESENTER.sounds(told, 1)
    assert PRESENTER.describe(told, 0).endswith("Black is in check.")
