"""Gravity Chess's rules (GR1-GR5), on hand-made positions and on whole games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import chess
import pytest

from app.engine.clock import TimeControl
from app.engine.core import IllegalAction, Reason
from app.engine.record import GameSession, Timeline
from app.games.gravity.rules import (GravityChess, GravityMove, GravityPass, GravityPlace, GravityView, Lost, Passed,
                                     Placed, TurnStarted, deck_cards, piece_moves, scores, stacked_squares,
                                     winner_of)
from app.games.kit_cards import card_colour


def flat(choices: dict[str, Any]) -> list[Any]:
    return [action for actions in choices.values() for action in actions]


def names(squares: Any) -> list[str]:
    return sorted(chess.square_name(square) for square in squares)


def board(placement: str) -> chess.Board:
    return chess.Board(f"{placement} w - - 0 1")


def refused(game: GravityChess, seat: int, action: Any, words: str) -> None:
    """``action`` is refused with a sentence holding ``words``, and nothing changed."""
    before, told = game.truth(), [len(game.observations(s)) for s in (0, 1)]
    with pytest.raises(IllegalAction, match=words):
        game.play(seat, action)
    assert game.truth() == before
    assert [len(game.observations(s)) for s in (0, 1)] == told


def random_game(seed: int) -> GameSession:
    game = GravityChess(seed=seed)
    session = GameSession(game, TimeControl(None, 0))
    rng = random.Random(seed)
    while game.outcome is None:
        session.play(game.to_move, rng.choice(flat(game.choices())))
    return session


# ---- setup and decks (GR1, G2) ----------------------------------------------------------------------------------

def test_each_deck_is_the_opponents_twelve_cards_shuffled_from_the_games_seed() -> None:
    game = GravityChess(seed=11)
    white, black = game.truth().decks
    flipped = game.flipped
    assert sorted((flipped, *white)) == sorted(deck_cards(chess.BLACK))
    assert sorted(black) == sorted(deck_cards(chess.WHITE)) and len(black) == 12
    assert {card_colour(card) for card in (flipped, *white)} == {chess.BLACK}
    assert GravityChess(seed=11).truth() == game.truth()
    assert any(GravityChess(seed=seed).truth().decks != game.truth().decks for seed in range(12, 15))


def test_nobody_is_told_a_card_before_it_is_turned() -> None:
    session = random_game(4)
    game = Timeline(session.record).game  # the same game, to walk through its observations
    turned: list[str] = []
    for observation in game.observations(0):
        if isinstance(observation, TurnStarted) and observation.card:
            turned.append(observation.card)
        text = repr(observation)
        for card in deck_cards(chess.WHITE) + deck_cards(chess.BLACK):
            if f"'{card}'" in text:
                assert card in turned, f"{card} was told before it was turned: {text}"
    fresh = GravityChess(seed=4)
    shown = repr(fresh.choices()) + repr(GravityView.from_observations(fresh.observations(1)))
    later = fresh.truth().decks
    assert not any(f"'{card}'" in shown for card in later[0] + later[1])


def test_the_pieces_start_off_the_board_and_whites_first_turn_moves_nothing() -> None:
    game = GravityChess(seed=2)
    assert game.board.piece_map() == {}
    assert game.to_move == 0 and game.phase == "place"
    assert set(game.choices()) == {"squares"} and len(game.choices()["squares"]) == 8
    refused(game, 0, GravityPlace("c7"), "rank 8")
    card = game.flipped
    game.play(0, GravityPlace("c8"))
    assert game.board.piece_at(chess.C8) is not None and game.board.piece_at(chess.C8).color == chess.BLACK
    assert game.observations(1)[-2] == Placed(0, "c8", game.board.piece_at(chess.C8).symbol(), card)
    assert game.to_move == 1 and game.phase == "move"  # Black now moves the piece White placed


def test_the_game_ends_after_whites_last_turn_without_a_card() -> None:
    session = random_game(9)
    game = session.game
    starts = [o for o in game.observations(0) if isinstance(o, TurnStarted)]
    assert [o.seat for o in starts[-3:]] == [0, 1, 0]
    assert starts[-1].card == "" and starts[-1].number == 13 and all(o.card for o in starts[:-1])
    adds = [o for o in game.observations(0) if isinstance(o, (Placed, Lost))]
    assert len(adds) == 24
    assert game.outcome is not None and game.outcome.reason is Reason.SCORE


# ---- a turn (GR2, GR3) ------------------------------------------------------------------------------------------

ORDER = "8/8/8/3P4/3B4/1P6/1n6/8"
"""The text's first example: White's bishop under one of its pawns, and a lower pawn that cannot move."""


def test_the_example_bishop_first_lets_the_top_pawn_move_too() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    assert game.flipped == "10S" and names(game.pending) == ["b3", "d4", "d5"]
    assert names(game.current_moves()[chess.D5]) == [] and names(game.current_moves()[chess.B3]) == []
    game.play(0, GravityMove("d4c3"))
    refused(game, 0, GravityMove("c3b2"), "already moved or been passed")  # each piece moves once a turn
    assert names(game.current_moves()[chess.D5]) == ["d4"]
    game.play(0, GravityMove("d5d4"))
    # The lower pawn cannot move and is the only piece left: passed by itself, and the turned rook is placed.
    assert game.observations(0)[-1] == Passed(0, "b3", "P", by_itself=True)
    assert game.phase == "place" and game.to_move == 0


def test_the_example_top_pawn_first_is_passed_then_the_bishop_moves() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    refused(game, 0, GravityPass("d4"), "can move")  # a piece with a move must move when picked
    game.play(0, GravityPass("d5"))
    assert game.observations(1)[-1] == Passed(0, "d5", "P")
    refused(game, 0, GravityMove("d5d4"), "already moved or been passed")
    game.play(0, GravityMove("d4e3"))
    assert game.phase == "place" and game.board.piece_at(chess.D5) is not None
    refused(game, 0, GravityMove("b3b2"), "now place the turned piece")
    game.play(0, GravityPlace("a8"))
    assert game.board.piece_at(chess.A8) == chess.Piece(chess.ROOK, chess.BLACK)
    assert game.to_move == 1 and names(game.pending) == ["a8", "b2"]


def test_placing_before_every_piece_was_picked_is_refused() -> None:
    game = GravityChess.arranged(ORDER, 0, decks=(["10S"], ["2H"]))
    refused(game, 0, GravityPlace("a8"), "must first move every active piece")


def test_a_full_rank_8_loses_the_turned_piece_and_a_taken_square_is_refused() -> None:
    game = GravityChess.arranged("rnbqkbnr/8/8/8/8/8/8/8", 0, decks=(["10S"], ["2H"]))
    assert isinstance(game.observations(0)[-2], Lost) and game.observations(0)[-2].card == "10S"
    assert game.to_move == 1
    game = GravityChess.arranged("rnbqkbn1/8/8/8/8/8/8/8", 0, decks=(["10S"], ["2H"]))
    assert game.phase == "place"
    refused(game, 0, GravityPlace("a8"), "a8 is taken")
    game.play(0, GravityPlace("h8"))
    assert game.board.piece_at(chess.H8) == chess.Piece(chess.ROOK, chess.BLACK)


def test_moves_end_lower_and_captures_on_the_same_rank_or_lower() -> None:
    position = board("8/3n4/8/n2R2n1/8/8/8/8")
    assert names(piece_moves(position, chess.D5)) == ["a5", "d1", "d2", "d3", "d4", "g5"]
    game = GravityChess.arranged("8/3n4/8/n2R2n1/8/8/8/8", 0, decks=(["10S"], ["2H"]))
    refused(game, 0, GravityMove("d5e5"), "does not go down")
    refused(game, 0, GravityMove("d5d7"), "capture must end on the same rank or lower")
    refused(game, 0, GravityMove("d5d6"), "does not go down")
    game.play(0, GravityMove("d5g5"))
    assert game.captures == [1, 0]


def test_pawns_step_one_down_two_on_their_first_move_and_capture_diagonally_down() -> None:
    position = board("3p4/8/8/8/4p3/3P1n2/8/8")
    assert names(piece_moves(position, chess.D8, fresh=True)) == ["d6", "d7"]
    assert names(piece_moves(position, chess.D8, fresh=False)) == ["d7"]
    # A pawn moves down for both colours; it captures diagonally down, never straight.
    assert names(piece_moves(position, chess.E4)) == ["d3", "e3"]
    assert names(piece_moves(position, chess.D3)) == ["d2"]
    blocked = board("3p4/3n4/8/8/8/8/8/8")
    assert piece_moves(blocked, chess.D8, fresh=True) == []
    half = board("3p4/8/3N4/8/8/8/8/8")
    assert names(piece_moves(half, chess.D8, fresh=True)) == ["d7"]


def test_a_pawns_first_move_is_its_first_since_it_was_placed() -> None:
    game = GravityChess.arranged("8/8/8/8/8/8/8/8", 1, decks=(["KS"], ["2H", "3H"]), turn=1)
    game.play(1, GravityPlace("e8"))  # Black places a white pawn
    assert game.board.piece_at(chess.E8) == chess.Piece(chess.PAWN, chess.WHITE)
    assert names(game.current_moves()[chess.E8]) == ["e6", "e7"]
    game.play(0, GravityMove("e8e7"))
    game.play(0, GravityPlace("a8"))
    game.play(1, GravityMove("a8a7"))  # the black king falls
    game.play(1, GravityPlace("h8"))
    assert names(game.current_moves()[chess.E7]) == ["e6"]  # no second two-square step
    assert names(game.current_moves()[chess.H8]) == ["h6", "h7"]


def test_no_promotion_no_check_and_a_king_is_captured_like_any_piece() -> None:
    game = GravityChess.arranged("8/8/8/8/8/8/1P2q3/8", 0, decks=(["10S"], ["2H"]))
    refused(game, 0, GravityMove("b2b1q"), "do not promote")
    game.play(0, GravityMove("b2b1"))
    assert game.board.piece_at(chess.B1) == chess.Piece(chess.PAWN, chess.WHITE)
    game = GravityChess.arranged("8/8/8/8/3k4/4K3/8/8", 0, decks=(["10S"], ["2H"]))
    assert chess.D4 not in game.current_moves()[chess.E3]  # a capture may not go up
    game = GravityChess.arranged("8/8/8/8/8/3Kk3/8/8", 0, decks=(["10S"], ["2H"]))
    game.play(0, GravityMove("d3e3"))  # the king takes the king on its rank: the game goes on
    assert game.outcome is None and game.captures == [1, 0] and game.phase == "place"


# ---- stacking (GR4) ---------------------------------------------------------------------------------------------

SHIELD = "8/8/8/8/8/8/2Q2rb1/k4P2"
"""The text's stacking example: on rank 2 only the rook is stacked; it shields the bishop from the queen."""


def test_the_example_the_stacked_rook_shields_the_bishop_which_may_still_drop_to_h1() -> None:
    position = board(SHIELD)
    stacked = stacked_squares(position)
    assert names(stacked) == ["a1", "f1", "f2"]
    assert names(piece_moves(position, chess.G2, stacked=stacked)) == ["h1"]
    assert names(piece_moves(position, chess.C2, stacked=stacked)) == ["b1", "c1", "d1"]
    without = board("8/8/8/8/8/8/2Q3b1/k4P2")
    assert names(piece_moves(without, chess.C2)) == ["b1", "c1", "d1", "g2"]
    game = GravityChess.arranged(SHIELD, 0, decks=(["10S"], ["2H"]))
    assert names(game.pending) == ["c2"]  # the white pawn on f1 is stacked: not active
    refused(game, 0, GravityMove("c2f2"), "stacked: it cannot be captured")
    refused(game, 0, GravityPass("f1"), "stacked: it stays")


def test_stacked_means_no_downward_move_once_every_unstacked_piece_is_gone() -> None:
    # The knight on d2 is stacked only because b1 and f1 are filled; the pawn above it is stacked on the knight.
    assert names(stacked_squares(board("8/8/8/8/8/3P4/3N4/1n3n2"))) == ["b1", "d2", "d3", "f1"]
    assert names(stacked_squares(board("8/8/8/8/8/3P4/3N4/1n6"))) == ["b1"]
    # A bishop resting on an unstacked piece is not stacked: with that piece gone it could fall.
    assert names(stacked_squares(board("8/8/8/8/8/2B5/1p1p4/8"))) == []
    # A queen on rank 2 over three stacked pieces is stacked; an enemy beside it on its rank does not matter.
    assert names(stacked_squares(board("8/8/8/8/8/8/2Qr4/1nbk4"))) == ["b1", "c1", "c2", "d1", "d2"]


def test_stacking_is_judged_after_every_move() -> None:
    game = GravityChess.arranged("8/8/8/8/8/3P1N2/8/1n1k1n2", 0, decks=(["10S"], ["2H"]))
    assert names(game.pending) == ["d3", "f3"] and names(game.current_moves()[chess.D3]) == ["d2"]
    game.play(0, GravityMove("f3d2"))  # the knight lands on d2, stacked; the pawn over it is stacked at once
    assert names(game.stacked()) == ["b1", "d1", "d2", "d3", "f1"]
    assert game.pending == [] and game.phase == "place"


# ---- the score (GR5) --------------------------------------------------------------------------------------------

COUNT = "8/8/8/7N/P2p4/R2r3b/KQBr4/knnbppR1"
"""The text's last example, rebuilt: White with 2 captures and stacked pieces on ranks 1, 2 (three), 3 and 4;
Black with 4 captures and stacked pieces on rank 1 (six), 2, 3 and 4; an unstacked piece of each scores nothing."""


def test_the_example_count_white_16_black_19() -> None:
    position = board(COUNT)
    assert chess.H5 not in stacked_squares(position) and chess.H3 not in stacked_squares(position)
    assert scores(position, (2, 4)) == (16, 19)
    assert winner_of(position, (2, 4)) == (1, "19 points to 16")


def test_ties_go_to_more_stacked_pieces_from_the_highest_rank_down() -> None:
    # 3 points each: White one piece on rank 3; Black pieces on ranks 1 and 2.
    position = board("8/8/8/8/8/R7/Rr6/Rr6")
    assert scores(position, (0, 0)) == (6, 3)
    tied = board("8/8/8/8/8/8/rR6/rR6")
    assert scores(tied, (1, 1)) == (4, 4)
    assert winner_of(tied, (1, 1))[0] is None
    higher = board("8/8/8/8/R7/R7/R7/Rrrr4")  # White 1+2+3+4 = 10; Black 3 on rank 1 + 7 captures
    assert scores(higher, (0, 7)) == (10, 10)
    assert winner_of(higher, (0, 7)) == (0, "10 points each, more stacked pieces on rank 4")


def test_the_referee_scores_the_end_with_the_outcome() -> None:
    game = GravityChess.arranged(COUNT.replace("7N", "8"), 0, captures=(2, 4), final=True)
    assert game.outcome is not None and game.outcome.winner == 1
    assert game.outcome.scores == (16.0, 19.0)


# ---- records -----------------------------------------------------------------------------------------------------

def test_a_record_replays_to_the_same_game(tmp_path: Path) -> None:
    session = random_game(5)
    path = tmp_path / "game.json"
    session.record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert {entry["action"]["type"] for entry in data["actions"]} >= {"move", "place"}
    assert "chance_seed" in json.dumps(data) and data.get("options", {}) == {}
    replayed = Timeline(session.record).game
    assert replayed.truth() == session.game.truth()
    assert replayed.outcome == session.game.outcome
    for entry in data["actions"]:
        assert GravityChess.action_from_json(entry["action"]).to_json() == entry["action"]


def test_every_seats_view_follows_the_board_and_the_score() -> None:
    session = random_game(6)
    game = session.game
    for seat in (0, 1):
        view = GravityView.from_observations(game.observations(seat))
        assert view.board is not None and view.board.piece_map() == game.board.piece_map()
        assert view.points is not None and view.score() == view.points
        assert view.outcome == game.outcome
