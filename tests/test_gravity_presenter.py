"""Gravity Chess as the window shows it: scenes, words, input, bots; and one game played by clicks in the window."""

from __future__ import annotations

import os
import random
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app import games  # noqa: E402
from app.bots.base import ActionRequest  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.games.gravity.bots import GravityEngineBot, GravityRandomBot  # noqa: E402
from app.games.gravity.presenter import PRESENTER  # noqa: E402
from app.games.gravity.rules import (GravityChess, GravityMove, GravityPass, GravityPlace, GravityView,  # noqa: E402
                                     Passed, deck_cards)
from app.games.presenter import InputError  # noqa: E402
from app.games.scene import CardRowZone, GridZone, PileZone, StackZone  # noqa: E402

ORDER = "8/8/8/3P4/3B4/1P6/1n6/8"


def cell(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return chess.square_file(square), chess.square_rank(square)


def view_of(game: GravityChess, seat: int = 0) -> GravityView:
    return GravityView.from_observations(game.observations(seat))


def markers(scene: Any, kind: str) -> set[tuple[int, int]]:
    return {square for marker in scene.markers if marker.kind == kind for square in marker.squares}


def test_the_pieces_to_move_are_outlined_and_lose_the_outline_once_moved() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    scene = PRESENTER.scene(view_of(game))
    assert markers(scene, "sense") == {cell("b3"), cell("d4"), cell("d5")}
    assert set(scene.targets) == {cell("d4")}  # only the bishop has a move now
    turned = scene.zone("turned")
    assert isinstance(turned, CardRowZone) and [card.code for card in turned.cards] == ["10S"]
    assert [c.id for c in PRESENTER.commands(view_of(game))] == ["pass:b3", "pass:d5"]
    game.play(0, PRESENTER.on_move(view_of(game), cell("d4"), cell("c3"), None))
    scene = PRESENTER.scene(view_of(game))
    assert markers(scene, "sense") == {cell("b3"), cell("d5")}
    assert set(scene.targets) == {cell("d5")}
    game.play(0, PRESENTER.parse_text(view_of(game), "d5d4"))
    view = view_of(game)
    scene = PRESENTER.scene(view)
    assert markers(scene, "sense") == set() and scene.targets == {}
    assert markers(scene, "reveal") == {cell(f"{f}8") for f in "abcdefgh"}  # rank 8 offered
    assert scene.sense_window is not None and scene.sense_window(cell("c8")) == [cell("c8")]
    assert PRESENTER.describe(game.observations(0)[-1], 0) == "White's pawn on b3 has no move: passed."
    assert PRESENTER.on_square(view, cell("c8")) == GravityPlace("c8")
    assert PRESENTER.prompt(view) == "Click an empty square of rank 8 for the black rook"


def test_a_pass_by_button_and_its_line_in_the_log() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    action = PRESENTER.command(view_of(game), "pass:d5")
    assert action == GravityPass("d5")
    game.play(0, action)
    assert game.observations(0)[-1] == Passed(0, "d5", "P")
    assert PRESENTER.describe(game.observations(0)[-1], 1) == "White picks the pawn on d5: it has no move, passed."
    with pytest.raises(InputError, match="has a move, so it must move"):
        PRESENTER.parse_text(view_of(game), "pass d4")


@pytest.mark.parametrize("start, to, words", [("d4", "d6", "lower rank"), ("e7", "e6", "no piece of yours"),
                                              ("d5", "d4", "cannot go to")])
def test_moves_the_rules_refuse_are_refused_with_a_sentence(start: str, to: str, words: str) -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    with pytest.raises(InputError, match=words):
        PRESENTER.on_move(view_of(game), cell(start), cell(to), None)


def test_stacked_pieces_carry_their_points_and_the_score_table_is_always_there() -> None:
    game = GravityChess.arranged("8/8/8/8/8/8/2Q2rb1/k4P2", 0, decks=(["10S"], ["2H"]), captures=(1, 0))
    scene = PRESENTER.scene(view_of(game))
    stacks = scene.zone("stacked")
    assert isinstance(stacks, StackZone)
    assert stacks.heights() == {cell("a1"): 1, cell("f1"): 1, cell("f2"): 2}
    with pytest.raises(InputError, match="cannot be captured"):
        PRESENTER.on_move(view_of(game), cell("c2"), cell("f2"), None)
    table = scene.zone("score")
    assert isinstance(table, GridZone) and table.rows == ("White", "Black")
    assert table.marks[0][0] == "1" and table.marks[0][-1] == "2" and table.marks[1][-1] == "3"
    assert "Down is rank 1" in table.label


def test_the_end_shows_the_final_score_and_the_tie_break() -> None:
    game = GravityChess.arranged("8/8/8/8/R7/R7/R7/Rrrr4", 0, captures=(0, 7), final=True)
    view = view_of(game)
    table = PRESENTER.scene(view).zone("score")
    assert table.label == "Final score: tied at 10; White wins with more stacked on rank 4"
    assert PRESENTER.describe(game.observations(0)[-1], 0).startswith("Game over: you won (10 points each, more stacked pieces on rank 4)")


def test_no_scene_shows_a_card_before_it_is_turned() -> None:
    game = GravityChess(seed=8)
    rng = random.Random(8)
    while game.outcome is None:
        for seat in (0, 1):
            view = view_of(game, seat)
            scenes = [PRESENTER.scene(view), PRESENTER.truth_scene(game.truth())]
            premove = PRESENTER.premove_scene(view)
            if premove is not None:
                scenes.append(premove)
            decks = game.truth().decks
            for scene in scenes:
                shown = {card.code for zone in scene.zones if isinstance(zone, CardRowZone) for card in zone.cards}
                assert not shown & set(decks[0] + decks[1])
                assert all(zone.top is None for zone in scene.zones if isinstance(zone, PileZone))
        game.play(game.to_move, rng.choice([a for v in game.choices().values() for a in v]))
    assert len(deck_cards(chess.WHITE)) == 12


def test_a_premove_is_offered_for_the_seats_next_turn() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    black = view_of(game, 1)
    scene = PRESENTER.premove_scene(black)
    assert scene is not None and cell("b2") in scene.targets  # Black's knight may queue its fall
    assert PRESENTER.premove_scene(view_of(game, 0)) is None  # the seat to move plays, it does not queue


@pytest.mark.parametrize("bot_class", [GravityEngineBot, GravityRandomBot])
def test_the_bots_play_whole_games_within_the_rules(bot_class: Any) -> None:
    for seed in range(2):
        game = GravityChess(seed=seed)
        bots = [bot_class(seed=seed), GravityRandomBot(seed=seed + 5)]
        seen = [0, 0]
        for seat, bot in enumerate(bots):
            bot.start(seat, {})
        while game.outcome is None:
            for seat, bot in enumerate(bots):
                for observation in game.observations(seat)[seen[seat]:]:
                    bot.observe(observation)
                seen[seat] = len(game.observations(seat))
            seat = game.to_move
            action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
            assert action in [a for v in game.choices().values() for a in v]
            game.play(seat, action)


def test_the_engine_moves_the_bishop_first_so_that_both_pieces_move() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    bot = GravityEngineBot(seed=0, level="easy")
    bot.start(0, {})
    for observation in game.observations(0):
        bot.observe(observation)
    action = bot.act(ActionRequest(0, game.phase, game.choices()))
    assert isinstance(action, GravityMove) and action.uci.startswith("d4")


def test_a_game_by_clicks_in_the_window(window: Any, qtbot: Any) -> None:
    """White, a person, against the random bot: White places by a click on rank 8, later moves by clicks; the board
    is never turned and the curtain never falls (one person at the screen)."""
    from app.ui.game_controller import GameController, SeatConfig
    seats = [SeatConfig("White"), SeatConfig("Black", "sightline:random:medium")]
    controller = GameController("gravity", seats, TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    assert controller.curtain_for is None and controller.screen_seat == 0
    assert games.get("gravity").hidden_information is False
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell("d8")).center())
    qtbot.waitUntil(lambda: controller.game.turn >= 2 and controller.game.to_move == 0, timeout=20000)
    game = controller.game
    assert any("places the" in line for line in controller.log())
    moves = game.current_moves()
    frm = next((square for square, targets in moves.items() if targets), None)
    if frm is not None:
        to = moves[frm][0]
        before = game.ply
        for square in (frm, to):
            qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton,
                             pos=window.board.square_rect(cell(chess.square_name(square))).center())
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
        assert game.board.piece_at(frm) is None


def test_the_text_export_writes_every_turn_and_never_a_card_not_yet_turned() -> None:
    from app.engine.record import GameSession
    from app.games.gravity.formats import gravity_text
    game = GravityChess(seed=12)
    session = GameSession(game, TimeControl(None, 0))
    rng = random.Random(12)
    while game.ply < 30:
        session.play(game.to_move, rng.choice([a for v in game.choices().values() for a in v]))
    text = gravity_text(session.record)
    assert "The game is still in progress." in text
    hidden = game.truth().decks
    from app.games.kit_cards import card_words
    assert not any(card_words(card).split(" ", 1)[1] in text for card in hidden[0] + hidden[1])
    while game.outcome is None:
        session.play(game.to_move, rng.choice([a for v in game.choices().values() for a in v]))
    text = gravity_text(session.record)
    assert text.count("Turn ") == 25 and "Turn 13, White (last turn, no card):" in text
    assert "Final score:" in text and text.rstrip().endswith("captured).")


def test_black_at_the_screen_sees_the_board_unturned(window: Any, qtbot: Any) -> None:
    """Down is rank 1 for both: a person playing Black against the engine sees rank 8 at the top."""
    from app.ui.game_controller import GameController, SeatConfig
    seats = [SeatConfig("White", "sightline:engine:easy"), SeatConfig("Black")]
    controller = GameController("gravity", seats, TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    qtbot.waitUntil(lambda: controller.game.to_move == 1, timeout=20000)
    assert controller.screen_seat == 1 and controller.curtain_for is None
    assert not window.board.is_flipped()
    top = window.board.square_rect(cell("a8")).center().y()
    assert top < window.board.square_rect(cell("a1")).center().y()
    assert "Move each outlined piece" in controller.status()


@pytest.mark.parametrize("text", ["", "pass", "pass zz", "zz", "d5d4q", "e2e4", "Nf3", "c8", "h9", "0000", "a8a8",
                                  "pass a8", "??", "d4d3", "place c8"])
def test_any_typed_text_is_an_action_or_a_sentence(text: str) -> None:
    for game in (GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"])), GravityChess(seed=1)):
        for seat in (0, 1):
            view = view_of(game, seat)
            try:
                action = PRESENTER.parse_text(view, text)
            except InputError as error:
                assert str(error)
            else:
                assert action in [a for v in game.choices().values() for a in v] or seat != game.to_move
