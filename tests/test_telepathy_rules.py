"""Telepathy Chess: every ruling (TP1-TP6), the face-down card kept from everyone else until its flip, records,
the PGN export, the presenter and the bots."""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import IllegalAction, Reason
from app.engine.record import GameSession, Timeline
from app.games.presenter import InputError
from app.games.telepathy.bots import TelepathyEngineBot, TelepathyRandomBot
from app.games.telepathy.presenter import PRESENTER
from app.games.telepathy.rules import (AnswerDraw, Flipped, OfferDraw, Predict, Remove, RemovalDue, TelepathyChess,
                                       TelepathyMove, TelepathyView, YourPrediction, legal_moves)

W1, W2, B1, B2 = range(4)


def flat(choices: dict[str, Any]) -> list[Any]:
    return [action for actions in choices.values() for action in actions]


def view(game: TelepathyChess, seat: int) -> TelepathyView:
    return TelepathyView.from_observations(game.observations(seat))


def turn(game: TelepathyChess, card: str, uci: str) -> Flipped:
    """The team to move predicts ``card`` and moves ``uci``; the flip every seat was told."""
    game.play(game.to_move, Predict(card))
    game.play(game.to_move, TelepathyMove(uci))
    return [o for o in game.observations(0) if isinstance(o, Flipped)][-1]


def at(fen: str, coin: int = 0, face_up: tuple[str, str] = ("P", "P"), **options: str) -> TelepathyChess:
    """A game from a position, with the coin and the face-up cards set as a test fixture (the game starts them in
    the middle and with the pawns; seats' views are told the position only)."""
    game = TelepathyChess.from_options({"fen": fen, **options})
    game.coin, game.face_up = coin, face_up
    return game


# ---- TP1, TP2, TP6: roles and cards --------------------------------------------------------------------------

def test_roles_alternate_inside_each_team_and_the_first_predictors_are_options() -> None:
    game = TelepathyChess()
    seats = []
    for card, uci in (("N", "g1f3"), ("N", "g8f6"), ("P", "e2e4"), ("P", "e7e5"), ("B", "f1c4")):
        seats.append((game.to_move, game.phase))
        game.play(game.to_move, Predict(card))
        seats.append((game.to_move, game.phase))
        game.play(game.to_move, TelepathyMove(uci))
    assert seats == [(W1, "predict"), (W2, "move"), (B1, "predict"), (B2, "move"), (W2, "predict"), (W1, "move"),
                     (B2, "predict"), (B1, "move"), (W1, "predict"), (W2, "move")]
    other = TelepathyChess.from_options({"white_first_predictor": "W2", "black_first_predictor": "B2"})
    assert other.to_move == W2 and other.options() == {"white_first_predictor": "W2",
                                                       "black_first_predictor": "B2"}
    with pytest.raises(ValueError, match="W1 or W2"):
        TelepathyChess.from_options({"white_first_predictor": "B1"})


def test_the_predictor_holds_the_six_cards_not_face_up() -> None:
    game = TelepathyChess()
    assert game.hand() == ("N", "B", "R", "Q", "K", "C")  # the pawn lies face up
    with pytest.raises(IllegalAction, match="not a card in W1's hand"):
        game.play(W1, Predict("P"))
    with pytest.raises(IllegalAction, match="must first play a card"):
        game.play(W1, TelepathyMove("e2e4"))
    assert view(game, W1).hand() == ("N", "B", "R", "Q", "K", "C") and view(game, W2).hand() is None


@pytest.mark.parametrize("card, uci, up_after", [
    ("N", "g1f3", "N"),  # the face-down card stays face up; the pawn card goes back to hand
    ("C", "e2e4", "P"),  # the copy card goes back to hand; the pawn stays face up
    ("C", "g1f3", "P"),
    ("Q", "e2e4", "Q"),
])
def test_the_copy_card_goes_back_first_else_the_face_up_card(card: str, uci: str, up_after: str) -> None:
    game = TelepathyChess()
    flip = turn(game, card, uci)
    assert game.face_up[0] == up_after == flip.next_face_up
    assert "C" in game.hand(0) and up_after not in game.hand(0)


# ---- TP3, TP4: the coin -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("team", [0, 1])
@pytest.mark.parametrize("start", [-1, 0, 1])
@pytest.mark.parametrize("card, kind, result", [("N", "knight", "down"), ("N", "pawn", "up"), ("B", "knight", "none"),
                                                ("C", "pawn", "down")])
def test_the_coin_at_each_place_for_each_team(team: int, start: int, card: str, kind: str, result: str) -> None:
    fen = chess.STARTING_FEN if team == 0 else "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    game = at(fen, coin=start)  # the pawn card lies face up; the copy card counts as the pawn
    uci = {(0, "knight"): "g1f3", (0, "pawn"): "a2a3", (1, "knight"): "g8f6", (1, "pawn"): "a7a6"}[(team, kind)]
    flip = turn(game, card, uci)
    assert flip.result == result
    toward_opponents = 1 if team == 0 else -1
    step = {"down": toward_opponents, "up": 0, "none": -toward_opponents}[result]
    if abs(start + step) <= 1:
        assert game.coin == start + step == flip.coin and game.phase == "predict"
    else:
        losing = 1 if start + step > 1 else 0  # the team on the side the coin went past
        due = [o for o in game.observations(0) if isinstance(o, RemovalDue)][-1]
        assert game.coin == 0 and due.team == losing and game.phase == "remove" and game.to_move == due.seat


def test_the_face_up_card_matching_leaves_the_coin() -> None:
    game = at(chess.STARTING_FEN, coin=1)
    flip = turn(game, "N", "e2e4")  # a pawn moved: the face-up pawn matched
    assert (flip.result, game.coin) == ("up", 1)


def test_castling_is_a_king_move_and_a_promotion_a_pawn_move() -> None:
    game = at("r3k3/6P1/8/8/8/8/8/R3K2R w KQq - 0 1")
    flip = turn(game, "K", "e1g1")
    assert flip.result == "down"
    game = at("4k3/6P1/8/8/8/8/8/R3K3 w Q - 0 1", face_up=("P", "P"))
    flip = turn(game, "Q", "g7g8q")  # becomes a queen, but a pawn moved: the face-up pawn matched
    assert flip.result == "up" and game.board.piece_at(chess.G8) == chess.Piece(chess.QUEEN, chess.WHITE)


def test_a_push_past_makes_the_opponents_next_mover_remove_and_never_the_king() -> None:
    game = at(chess.STARTING_FEN, coin=1)  # the coin already on Black's side
    turn(game, "N", "g1f3")  # matched: pushed past Black's side
    assert game.phase == "remove" and game.to_move == B2  # B1 predicts Black's next move, so B2 moves next
    with pytest.raises(IllegalAction, match="king never is"):
        game.play(B2, Remove("e8"))
    with pytest.raises(IllegalAction, match="king never is"):
        game.play(B2, Remove("e1"))  # not Black's piece
    game.play(B2, Remove("b8"))
    assert game.board.piece_at(chess.B8) is None and game.coin == 0 and game.to_move == B1
    assert game.board.halfmove_clock == 0


def test_a_pull_past_makes_the_movers_own_team_remove_by_its_next_mover() -> None:
    game = at(chess.STARTING_FEN, coin=-1)  # on White's side
    turn(game, "B", "g1f3")  # missed: pulled past White's side
    assert game.phase == "remove" and game.to_move == W1  # W1 predicted; it moves White's next move
    game.play(W1, Remove("a2"))
    assert game.to_move == B1 and game.phase == "predict"


def test_a_team_with_only_its_king_removes_nothing() -> None:
    game = at("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", coin=1)  # Black has its king only; the coin on Black's side
    game.play(B1, Predict("Q"))
    game.play(B2, TelepathyMove("e8d8"))  # a king move, predicted queen: missed, pulled past Black's side
    due = [o for o in game.observations(0) if isinstance(o, RemovalDue)][-1]
    assert due.team == 1 and due.nothing and game.coin == 0 and game.phase == "predict" and game.to_move == W1
    assert view(game, W2).phase == "predict" and view(game, W2).coin == 0


# ---- TP5: the end --------------------------------------------------------------------------------------------

def test_a_king_left_open_by_a_removal_can_be_taken_and_that_wins_at_once() -> None:
    # White's rook on e2 shields its king from the black rook on e8. A missed prediction with the coin on White's
    # side makes White remove a piece, and W1 removes that rook: Black may take the king.
    game = at("4r1k1/8/8/8/8/8/4R3/1N2K3 w - - 0 1", coin=-1)
    turn(game, "B", "b1c3")  # a knight move, predicted bishop: missed, pulled past White's side
    assert (game.phase, game.to_move) == ("remove", W1)
    game.play(W1, Remove("e2"))
    assert not game.is_over and game.to_move == B1
    game.play(B1, Predict("R"))
    assert TelepathyMove("e8e1") in game.choices()["moves"]
    game.play(B2, TelepathyMove("e8e1"))
    assert game.outcome is not None and game.outcome.reason == Reason.KING_CAPTURE and game.outcome.team == 1


def test_a_king_capture_is_allowed_even_when_it_leaves_the_own_king_attacked() -> None:
    # Black to move is in check from the white queen; the white king stands open to the black rook.
    game = at("3k4/8/8/8/8/8/3Q4/r3K3 b - - 0 1")
    game.play(B1, Predict("R"))
    assert TelepathyMove("a1e1") in game.choices()["moves"]
    game.play(B2, TelepathyMove("a1e1"))
    assert game.outcome is not None and game.outcome.team == 1
    flip = [o for o in game.observations(W1) if isinstance(o, Flipped)][-1]
    assert flip.card == "R" and flip.result == ""  # shown for the record, nothing resolved


def test_mate_loses_stalemate_and_bare_kings_draw_and_fifty_moves_count_removals() -> None:
    game = at("7k/8/6K1/8/8/8/8/Q7 w - - 0 1")
    turn(game, "Q", "a1a8")
    assert game.outcome is not None and game.outcome.reason == Reason.NO_MOVES and game.outcome.team == 0
    game = at("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1")
    turn(game, "Q", "c1c7")
    assert game.outcome is not None and game.outcome.team is None and "stalemate" in game.outcome.detail
    game = at("k7/8/1K6/8/8/8/p7/2N5 w - - 0 1")
    turn(game, "N", "c1a2")  # takes the last pawn: a knight alone cannot mate
    assert game.outcome is not None and game.outcome.reason == Reason.INSUFFICIENT_MATERIAL
    game = at("k7/8/2K5/8/8/8/8/1R6 w - - 99 80")
    turn(game, "R", "b1b2")
    assert game.outcome is not None and game.outcome.reason == Reason.MOVE_LIMIT
    game = at("k7/8/2K5/8/8/8/P7/1R6 w - - 98 80", coin=-1)
    turn(game, "N", "b1b3")  # missed: White removes, and a removal starts the count again
    game.play(W1, Remove("a2"))
    assert game.board.halfmove_clock == 0 and game.outcome is None


def test_a_starting_position_that_is_already_over_ends_the_game_at_once() -> None:
    game = TelepathyChess.from_options({"fen": "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"})  # Black is stalemated
    assert game.outcome is not None and game.to_move is None and game.choices() == {}
    with pytest.raises(ValueError, match="needs a king"):
        TelepathyChess.from_options({"fen": "8/8/8/8/8/8/8/K7 w - - 0 1"})
    with pytest.raises(ValueError, match="bad starting position"):
        TelepathyChess.from_options({"fen": "not a fen"})


def test_the_end_is_judged_after_the_removal() -> None:
    # The queen's move would stalemate Black, but it misses with the coin on White's side: White removes first.
    game = at("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", coin=-1)
    turn(game, "N", "c1c7")
    assert game.outcome is None and game.phase == "remove"
    game.play(W1, Remove("c7"))  # the queen goes: kings alone
    assert game.outcome is not None and game.outcome.reason == Reason.INSUFFICIENT_MATERIAL


# ---- privacy -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_nobody_but_the_predictor_can_tell_the_face_down_card_before_the_flip(seed: int) -> None:
    """At every prediction of a random game, the other three seats' observations, views and choices are the same
    whichever card the predictor played, until the mover has moved."""
    rng = random.Random(seed)
    game = TelepathyChess()
    for _ in range(60):
        if game.outcome is not None:
            break
        seat, options = game.to_move, flat(game.choices())
        if game.phase == "predict":
            first, second = rng.sample(game.choices()["cards"], 2)
            a, b = copy.deepcopy(game), copy.deepcopy(game)
            a.play(seat, first)
            b.play(seat, second)
            for other in set(range(4)) - {seat}:
                assert a.observations(other) == b.observations(other)
                assert view(a, other) == view(b, other)
                assert PRESENTER.scene(view(a, other)).zones == PRESENTER.scene(view(b, other)).zones
            assert a.choices() == b.choices()  # the mover's choices do not depend on the card
            assert not any(isinstance(o, YourPrediction) for other in set(range(4)) - {seat}
                           for o in a.observations(other)[len(game.observations(other)):])
        game.play(seat, rng.choice(options))


# ---- records and exports ----------------------------------------------------------------------------------------

def _bot_game(seed: int, kinds: tuple[type, ...] = (TelepathyEngineBot, TelepathyEngineBot, TelepathyRandomBot,
                                                     TelepathyRandomBot), max_ply: int = 200) -> GameSession:
    game = TelepathyChess()
    session = GameSession(game, TimeControl(None, 0))
    players = [kind(seed=seed * 4 + seat) for seat, kind in enumerate(kinds)]
    seen = [0] * 4
    for seat, player in enumerate(players):
        player.start(seat, game.options())
    while game.outcome is None and game.ply < max_ply:
        for seat, player in enumerate(players):
            for observation in game.observations(seat)[seen[seat]:]:
                player.observe(observation)
            seen[seat] = len(game.observations(seat))
        seat = game.to_move
        action = players[seat].act(ActionRequest(seat, game.phase, game.choices()))
        assert action in flat(game.choices())
        session.play(seat, action)
    return session


def _with_removals(max_tries: int = 20) -> GameSession:
    for seed in range(max_tries):
        session = _bot_game(seed, (TelepathyRandomBot,) * 4, max_ply=60)
        if any(entry["action"]["type"] == "remove" for entry in session.record.to_json()["actions"]):
            return session
    raise AssertionError("no random game had a removal")


def test_a_record_replays_to_the_same_game(tmp_path: Path) -> None:
    session = _with_removals()
    path = tmp_path / "game.json"
    session.record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert {entry["action"]["type"] for entry in data["actions"]} == {"predict", "move", "remove"}
    replayed = Timeline(session.record).game
    assert replayed.truth() == session.game.truth()
    for entry in data["actions"]:
        assert TelepathyChess.action_from_json(entry["action"]).to_json() == entry["action"]
    with pytest.raises(ValueError, match="telepathy action 'predict': card must be text, not 5"):
        TelepathyChess.action_from_json({"type": "predict", "card": 5})


def test_the_pgn_reads_back_part_by_part_to_the_position_of_the_game(tmp_path: Path) -> None:
    from app.cli import main
    session = _with_removals()
    path = tmp_path / "game.json"
    session.record.save(path)
    assert main(["export", str(path), "-o", str(tmp_path / "game.pgn")]) == 0  # .pgn: Telepathy's own PGN
    text = (tmp_path / "game.pgn").read_text(encoding="utf-8")
    assert "predicted" in text and "removed" in text and '[SetUp "1"]' in text
    stream, boards = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        boards.append(game.end().board())
    assert len(boards) >= 2
    truth = session.game.board
    assert boards[-1].board_fen() == truth.board_fen()


# ---- the presenter -----------------------------------------------------------------------------------------

def test_a_card_is_played_by_a_click_on_the_hand_and_typed_by_name() -> None:
    game = TelepathyChess()
    predictor = view(game, W1)
    scene = PRESENTER.scene(predictor)
    hand = next(zone for zone in scene.zones if zone.id == "hand")
    assert [card.code for card in hand.cards] == ["8H", "9H", "10H", "QH", "KH", "6H"] and hand.private_to == {W1}
    assert PRESENTER.on_zone(predictor, "hand", 0) == Predict("N")
    assert PRESENTER.parse_text(predictor, "copy") == Predict("C")
    with pytest.raises(InputError, match="face up"):
        PRESENTER.parse_text(predictor, "P")
    game.play(W1, Predict("N"))
    mover = view(game, W2)
    table = next(zone for zone in PRESENTER.scene(mover).zones if zone.id == "table-0")
    assert table.cards[1] is None  # a back for the partner
    own = next(zone for zone in PRESENTER.scene(view(game, W1)).zones if zone.id == "table-0")
    assert own.cards[1].code == "8H" and own.private_to == {W1}
    assert PRESENTER.parse_text(mover, "Nf3") == TelepathyMove("g1f3")
    with pytest.raises(InputError):
        PRESENTER.on_zone(mover, "hand", 0)


def test_a_removal_is_a_click_on_an_own_piece_and_the_log_says_what_happened() -> None:
    game = at(chess.STARTING_FEN, coin=1)
    turn(game, "N", "g1f3")
    remover = view(game, B2)
    scene = PRESENTER.scene(remover)
    assert scene.sense_window is not None and scene.sense_window((1, 7)) == [(1, 7)]
    assert scene.sense_window((4, 7)) == []  # the king
    with pytest.raises(InputError, match="other than the king"):
        PRESENTER.on_square(remover, (4, 7))
    assert PRESENTER.on_square(remover, (1, 7)) == Remove("b8")
    lines = [PRESENTER.describe(o, W2) for o in game.observations(W2)]
    assert "W1 predicted knight; matched: coin toward Black (now past a side)." in lines
    assert "The coin went past Black's side: B2 must remove a black piece." in lines


# ---- bots ----------------------------------------------------------------------------------------------------------

def test_the_engine_team_beats_the_random_team() -> None:
    for seed in range(2):
        outcome = _bot_game(seed).game.outcome
        assert outcome is not None and outcome.team == 0, outcome


def test_two_engines_agree_on_the_card_without_a_word() -> None:
    session = _bot_game(3, (TelepathyEngineBot, TelepathyEngineBot, TelepathyRandomBot, TelepathyRandomBot))
    flips = [o for o in session.game.observations(0) if isinstance(o, Flipped) and o.seat < 2 and o.result]
    assert flips and sum(flip.result == "down" for flip in flips) >= 0.9 * len(flips)


def test_the_engine_takes_a_king_that_stands_open() -> None:
    game = at("4r1k1/8/8/8/8/8/8/4K3 b - - 0 1")
    game.play(B1, Predict("R"))
    bot = TelepathyEngineBot(seed=0)
    bot.start(B2, {})
    for observation in game.observations(B2):
        bot.observe(observation)
    assert bot.act(ActionRequest(B2, "move", game.choices())) == TelepathyMove("e8e1")


# ---- TP5c: a removal takes away what only the removed piece made possible --------------------------------------

@pytest.mark.parametrize("fen, coin, face_up, double_step, removed, en_passant", [
    ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", -1, ("N", "P"), "e2e4", "e4", "d4e3"),  # White removes its own pawn
    ("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", 1, ("P", "N"), "e7e5", "e5", "d5e6"),  # Black does
])
def test_a_removed_pawn_that_had_just_moved_two_squares_cannot_be_taken_en_passant(
        fen: str, coin: int, face_up: tuple[str, str], double_step: str, removed: str, en_passant: str) -> None:
    game = at(fen, coin=coin, face_up=face_up)
    game.play(game.to_move, Predict("B"))
    game.play(game.to_move, TelepathyMove(double_step))  # a pawn, predicted bishop: missed, pulled past
    assert game.phase == "remove"
    game.play(game.to_move, Remove(removed))  # the pawn that has just moved two squares goes
    assert game.board.ep_square is None and not game.board.status() & chess.STATUS_INVALID_EP_SQUARE
    game.play(game.to_move, Predict("P" if face_up[game.team] != "P" else "N"))
    assert TelepathyMove(en_passant) not in game.choices()["moves"]
    for seat in range(4):
        assert chess.Move.from_uci(en_passant) not in view(game, seat).legal_moves()
    with pytest.raises(IllegalAction, match="not a legal move"):
        game.play(game.to_move, TelepathyMove(en_passant))


# A random game (seed 19 of a search) whose last action removes Black's d-pawn just after d7-d5, beside White's
# pawn on e5.
_REMOVED_AFTER_A_DOUBLE_STEP = [
    "C", "g2g4", "K", "c7c5", "K", "f2f4", "Q", "f7f5", "f5", "R", "d2d4", "P", "h7h6", "a1", "K", "f1h3", "B",
    "b7b5", "R", "g1f3", "f4", "P", "g7g5", "K", "c2c3", "h2", "C", "e7e5", "Q", "d4e5", "h1", "K", "f8g7", "N",
    "e2e4", "N", "e8f8", "K", "h3g2", "Q", "a7a6", "P", "a2a3", "R", "d7d5", "d5"]


def test_a_recorded_removal_of_a_pawn_that_moved_two_squares_replays_and_exports_without_en_passant() -> None:
    from app.games.telepathy.formats import telepathy_pgn
    game = TelepathyChess()
    session = GameSession(game, TimeControl(None, 0))
    for text in _REMOVED_AFTER_A_DOUBLE_STEP:
        action = Predict(text) if len(text) == 1 else TelepathyMove(text) if len(text) == 4 else Remove(text)
        session.play(game.to_move, action)
    assert game.board.piece_at(chess.E5) == chess.Piece(chess.PAWN, chess.WHITE) and game.board.ep_square is None
    assert Timeline(session.record).game.truth() == session.game.truth()
    game.play(game.to_move, Predict("N"))
    assert TelepathyMove("e5d6") not in game.choices()["moves"]
    last_part = telepathy_pgn(session.record).split("[FEN ")[-1]
    assert last_part.split('"')[1].split()[3] == "-"  # the position after the removal has no en passant square


def test_a_removed_rook_takes_its_castling_right_along() -> None:
    game = at("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", coin=-1, face_up=("N", "P"))
    turn(game, "B", "a1a2")  # a rook, predicted bishop: missed, pulled past White's side
    game.play(game.to_move, Remove("h1"))
    assert not game.board.status() & chess.STATUS_BAD_CASTLING_RIGHTS
    assert not game.board.castling_rights & chess.BB_H1
    assert not any(view(game, seat).board.castling_rights & chess.BB_H1 for seat in range(4))


def test_a_draw_by_too_little_material_ends_the_game_even_when_a_king_stands_open() -> None:
    # White's queen on g2, pinned against its king by Black's bishop, moves along the pin and misses with the
    # coin on White's side: White must remove it, its last piece. Black could now take the king, but bishop and
    # king cannot mate a bare king: the game is drawn at once (TP5c).
    game = at("3k4/1b6/8/8/8/8/6Q1/7K w - - 0 1", coin=-1, face_up=("N", "P"))
    turn(game, "R", "g2f3")
    game.play(game.to_move, Remove("f3"))
    assert game.outcome is not None and game.outcome.reason == Reason.INSUFFICIENT_MATERIAL
    assert chess.Move.from_uci("b7h1") in legal_moves(game.board)  # the king capture the draw came before


def test_the_fifty_move_draw_ends_the_game_even_when_a_king_stands_open() -> None:
    game = at("4k3/8/8/8/8/8/4r3/R3K3 b - - 100 80")  # Black to move could take the king on e1
    assert game.outcome is not None and game.outcome.reason == Reason.MOVE_LIMIT


# ---- draw offers: a partner proposes, the other agrees, then both opponents must accept --------------------------

def _draw_words(game: TelepathyChess, seat: int) -> list[str]:
    return [line for line in (PRESENTER.describe(o, seat) for o in game.observations(seat))
            if line and "draw" in line]


def test_a_draw_proposal_stays_inside_the_team_until_the_partner_agrees() -> None:
    game = TelepathyChess()
    assert game.choices()["offer_draw"] == [OfferDraw()]
    black_before = [list(game.observations(seat)) for seat in (B1, B2)]
    game.play(W1, OfferDraw())
    assert (game.phase, game.to_move) == ("agree_draw", W2)
    assert flat(game.choices()) == [AnswerDraw(True), AnswerDraw(False)]
    assert [list(game.observations(seat)) for seat in (B1, B2)] == black_before  # the opponents know nothing
    assert view(game, W2).to_move == W2 and view(game, W2).phase == "agree_draw"
    assert view(game, B1).phase == "predict" and view(game, B1).to_move == W1
    with pytest.raises(IllegalAction, match="yes or no to the draw"):
        game.play(W2, TelepathyMove("e2e4"))
    game.play(W2, AnswerDraw(False))  # the partner refuses: W1 goes on predicting
    assert (game.phase, game.to_move) == ("predict", W1)
    assert [list(game.observations(seat)) for seat in (B1, B2)] == black_before
    assert _draw_words(game, W1) == ["You proposed a draw; W2 must agree before the opponents hear of it.",
                                     "W2 refused to offer a draw; the opponents were not told."]
    assert "offer_draw" not in game.choices()  # once a turn
    with pytest.raises(IllegalAction, match="once a turn"):
        game.play(W1, OfferDraw())
    assert not view(game, W1).can_offer_draw()
    game.play(W1, Predict("N"))
    assert "offer_draw" not in game.choices()  # the mover neither: the team has offered this turn
    game.play(W2, TelepathyMove("g1f3"))
    assert game.choices()["offer_draw"] == [OfferDraw()] and view(game, B1).can_offer_draw()


@pytest.mark.parametrize("answers, drawn", [((False,), False), ((True, False), False), ((True, True), True)])
def test_both_opponents_must_accept_the_draw_the_opponents_predictor_first(answers: tuple[bool, ...],
                                                                             drawn: bool) -> None:
    game = TelepathyChess()
    game.play(W1, Predict("N"))
    game.play(W2, OfferDraw())  # the mover may propose it too, with the card face down
    game.play(W1, AnswerDraw(True))
    assert (game.phase, game.to_move) == ("answer_draw", B1)  # Black's predictor answers first
    offered = "White offers a draw (W2 proposed it, W1 agreed). Both opponents must accept, B1 first."
    assert all(_draw_words(game, seat)[-1] == offered for seat in range(4))
    white_before = [list(game.observations(seat)) for seat in (W1, W2)]
    game.play(B1, AnswerDraw(answers[0]))
    if answers[0]:
        assert (game.phase, game.to_move) == ("answer_draw", B2)
        assert [list(game.observations(seat)) for seat in (W1, W2)] == white_before  # told to Black only
        assert _draw_words(game, B2)[-1] == "B1 accepted the draw; you must accept too."
        assert view(game, B2).to_move == B2 and view(game, W1).to_move == B1
        game.play(B2, AnswerDraw(answers[1]))
    if drawn:
        assert game.outcome is not None and game.outcome.reason == Reason.DRAW_AGREED
        assert game.outcome.winner is None and game.outcome.team is None
        return
    assert game.outcome is None and (game.phase, game.to_move) == ("move", W2)  # the mover moves on
    decliner = ("B1", "B2")[len(answers) - 1]
    assert _draw_words(game, W1)[-1] == f"{decliner} declined the draw for Black; play goes on."
    assert all(_draw_words(game, seat)[-1].endswith("declined the draw for Black; play goes on.") for seat in range(4))
    assert view(game, W2).my_prediction is None and view(game, W1).my_prediction == "N"  # the card stays down
    game.play(W2, TelepathyMove("g1f3"))
    assert [o for o in game.observations(W1) if isinstance(o, Flipped)][-1].card == "N"


def test_no_draw_is_offered_while_a_piece_must_be_removed() -> None:
    game = at(chess.STARTING_FEN, coin=1)
    turn(game, "N", "g1f3")
    assert game.phase == "remove" and "offer_draw" not in game.choices()
    with pytest.raises(IllegalAction, match="must remove"):
        game.play(game.to_move, OfferDraw())


def test_a_game_with_draw_offers_is_recorded_and_replays_and_older_records_still_load(tmp_path: Path) -> None:
    game = TelepathyChess()
    session = GameSession(game, TimeControl(None, 0))
    for seat, action in ((W1, OfferDraw()), (W2, AnswerDraw(False)), (W1, Predict("N")), (W2, TelepathyMove("g1f3")),
                         (B1, OfferDraw()), (B2, AnswerDraw(True)), (W2, AnswerDraw(True)),
                         (W1, AnswerDraw(True))):  # W2 predicts White's next move: it answers first
        session.play(seat, action)
    assert game.outcome is not None and game.outcome.reason == Reason.DRAW_AGREED
    path = tmp_path / "draw.json"
    session.record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [entry["action"] for entry in data["actions"]][:2] == [{"type": "offer_draw"},
                                                                   {"type": "answer_draw", "accept": False}]
    from app.engine.record import load_record, read_record
    assert load_record(path).game.outcome == game.outcome  # the recorded result is checked on loading
    timeline = Timeline(read_record(path))
    assert timeline.game.outcome == game.outcome and timeline.game.truth() == game.truth()
    words = [PRESENTER.describe_action(entry["action"]) for entry in data["actions"]]
    assert words[:2] == ["propose a draw", "say no to the draw"] and words[-1] == "say yes to the draw"
    with pytest.raises(ValueError, match="telepathy action 'answer_draw': accept must be true or false, not 'yes'"):
        TelepathyChess.action_from_json({"type": "answer_draw", "accept": "yes"})
    # A record written before draw offers existed (no such actions) reads and replays as it did.
    older = _with_removals()
    older.record.save(tmp_path / "older.json")
    assert Timeline(read_record(tmp_path / "older.json")).game.truth() == older.game.truth()


@pytest.mark.parametrize("kind", [TelepathyEngineBot, TelepathyRandomBot])
@pytest.mark.parametrize("fen, white_agrees, black_accepts", [
    (chess.STARTING_FEN, True, False),  # even: the partner goes along, the opponents play on
    ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False, True),  # White a queen up
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", True, False),  # White a queen down
])
def test_the_bots_answer_a_draw_by_the_material(kind: type, fen: str, white_agrees: bool,
                                                black_accepts: bool) -> None:
    def bot_answer(seat: int) -> Any:
        bot = kind(seed=0)
        bot.start(seat, {})
        for observation in game.observations(seat):
            bot.observe(observation)
        return bot.act(ActionRequest(seat, game.phase, game.choices()))

    game = at(fen)
    game.play(W1, OfferDraw())
    assert bot_answer(W2) == AnswerDraw(white_agrees)
    game = at(fen)
    game.play(W1, OfferDraw())
    game.play(W2, AnswerDraw(True))
    assert bot_answer(B1) == AnswerDraw(black_accepts)


def test_the_bots_never_offer_a_draw() -> None:
    for kind in (TelepathyEngineBot, TelepathyRandomBot):
        session = _bot_game(5, (kind,) * 4, max_ply=40)
        assert not any(entry["action"]["type"] == "offer_draw" for entry in session.record.to_json()["actions"])


def test_the_presenter_offers_the_draw_buttons_to_the_seat_asked_only() -> None:
    game = TelepathyChess()
    commands = {seat: PRESENTER.commands(view(game, seat)) for seat in range(4)}
    assert [(c.id, c.enabled) for c in commands[W1]] == [("offer_draw", True)]
    assert all([(c.id, c.enabled) for c in commands[seat]] == [("offer_draw", False)] for seat in (W2, B1, B2))
    assert PRESENTER.command(view(game, W1), "offer_draw") == OfferDraw()
    assert PRESENTER.parse_text(view(game, W1), "draw") == OfferDraw()
    with pytest.raises(InputError, match="on your turn"):
        PRESENTER.command(view(game, B1), "offer_draw")
    game.play(W1, OfferDraw())
    partner = view(game, W2)
    assert [c.label for c in PRESENTER.commands(partner)] == ["Agree to offer a draw", "Refuse to offer it"]
    assert PRESENTER.prompt(partner).startswith("Your partner proposes a draw")
    assert PRESENTER.command(partner, "accept_draw") == AnswerDraw(True)
    assert PRESENTER.parse_text(partner, "refuse") == AnswerDraw(False)
    with pytest.raises(InputError, match="type accept or decline"):
        PRESENTER.parse_text(partner, "e2e4")
    assert [(c.id, c.enabled) for c in PRESENTER.commands(view(game, B1))] == [("offer_draw", False)]
    game.play(W2, AnswerDraw(True))
    opponent = view(game, B1)
    assert [c.label for c in PRESENTER.commands(opponent)] == ["Accept draw", "Decline draw"]
    assert PRESENTER.prompt(opponent) == "White offers a draw: Accept or Decline (your partner is asked next)"
    assert PRESENTER.entry_hint(opponent) == "Type accept or decline"
    game.play(B1, AnswerDraw(True))
    assert PRESENTER.prompt(view(game, B2)) == "White offers a draw and your partner accepts: Accept or Decline"


def test_a_game_saved_while_an_opponent_considers_a_draw_resumes_there(tmp_path: Path) -> None:
    from app.engine.record import read_record, resume
    game = TelepathyChess()
    session = GameSession(game, TimeControl(None, 0))
    for seat, action in ((W1, OfferDraw()), (W2, AnswerDraw(True)), (B1, AnswerDraw(True))):
        session.play(seat, action)
    session.record.save(tmp_path / "unfinished.json")
    resumed = resume(read_record(tmp_path / "unfinished.json")).game
    assert (resumed.phase, resumed.to_move) == ("answer_draw", B2)
    assert all(resumed.observations(seat) == game.observations(seat) for seat in range(4))
    resumed.play(B2, AnswerDraw(False))
    assert (resumed.phase, resumed.to_move) == ("predict", W1) and "offer_draw" not in resumed.choices()


def test_the_pgn_tells_the_offers_everyone_was_told_and_no_proposal_inside_a_team(tmp_path: Path) -> None:
    from app.games.telepathy.formats import telepathy_pgn
    game = TelepathyChess()
    session = GameSession(game, TimeControl(None, 0))
    for seat, action in ((W1, OfferDraw()), (W2, AnswerDraw(False)), (W1, Predict("N")), (W2, TelepathyMove("g1f3")),
                         (B1, OfferDraw()), (B2, AnswerDraw(True)), (W2, AnswerDraw(False))):
        session.play(seat, action)
    text = telepathy_pgn(session.record)
    assert "{Black offers a draw (B1 proposed it, B2 agreed)" in text and "{W2 declined the draw for White" in text
    assert "W1 proposes" not in text and "proposed a draw" not in text and "refused" not in text
    assert chess.pgn.read_game(io.StringIO(text)).errors == []
