"""Blind Chess (rulings B1-B6 of the rule texts' RULINGS.md): referee, view, bots, records.

Each ruling has its own section. Positions are built from piece lists such as
``"Ke1 Ra1 pa5 ke8"`` (upper case White, lower case Black).
"""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import app.games.blind.bots as blind_bots
import app.games.blind.rules as blind
from app.bots.base import ActionRequest
from app.games.blind.bots import BlindGreedyBot, BlindRandomBot
from app.games.blind.rules import (BLACK_SEAT, WHITE_SEAT, AnswerDraw, Attempt, AttemptResult, BlindChess,
                              BlindChessView, DrawDeclined, DrawOffered, GameEnded, GameStarted, OfferDraw,
                              PieceLost, TurnSkipped, TurnStarted, possible_attempts)
from app.engine.clock import TimeControl
from app.engine.core import Adjudication, GameOver, IllegalAction, Reason, Resign
from app.engine.record import GameRecord, GameSession, parse_action, replay

ROOT = Path(__file__).resolve().parents[1]


# ---- helpers -------------------------------------------------------------------------------------

def position(pieces: str, turn: chess.Color = chess.WHITE, castling: str = "-", ep: str | None = None) -> str:
    board = chess.Board(None)
    for token in pieces.split():
        board.set_piece_at(chess.parse_square(token[1:]), chess.Piece.from_symbol(token[0]))
    board.turn = turn
    board.set_castling_fen(castling)
    if ep is not None:
        board.ep_square = chess.parse_square(ep)
    return board.fen(en_passant="fen")


def make(pieces: str, turn: chess.Color = chess.WHITE, castling: str = "-", ep: str | None = None) -> BlindChess:
    return BlindChess(position(pieces, turn, castling, ep))


def attempt(game: BlindChess, uci: str) -> tuple[AttemptResult, list[Any], list[Any]]:
    """Play an attempt for the seat to move; its result, then both seats' new observations (mover, other)."""
    seat = game.to_move
    assert seat is not None
    mine, theirs = len(game.observations(seat)), len(game.observations(1 - seat))
    game.play(seat, Attempt.parse(uci))
    new_mine = list(game.observations(seat)[mine:])
    new_theirs = list(game.observations(1 - seat)[theirs:])
    results = [o for o in new_mine if isinstance(o, AttemptResult)]
    assert len(results) == 1
    return results[0], new_mine, new_theirs


def sq(name: str) -> int:
    return chess.parse_square(name)


def revealed(result: AttemptResult) -> dict[str, str]:
    return {chess.square_name(square): piece.symbol() for square, piece in result.reveals}


def moves(ucis: str) -> list[chess.Move]:
    return [chess.Move.from_uci(uci) for uci in ucis.split()]


# ---- B1: attempts ---------------------------------------------------------------------------------

def test_b1_start_position_attempts_include_pawn_diagonals() -> None:
    game = BlindChess()
    attempts = game.choices()["attempts"]
    assert len(attempts) == 34  # 16 pawn advances, 4 knight moves, 14 pawn diagonal tries
    for move in moves("e2e3 e2e4 g1f3 b1a3 e2d3 e2f3 a2b3 h2g3"):
        assert move in attempts
    assert chess.Move.from_uci("a2h3") not in attempts
    assert game.choices()["offer_draw"] is True


def test_b1_opponent_pieces_are_ignored_and_own_pieces_block() -> None:
    game = make("Ke1 Ra1 Pa3 Pe2 Bc1 ke8 pb2 pe3 ph6")
    attempts = game.attempts()
    # The rook is blocked by its own pawn on a3, not by the black pawn on b2.
    assert chess.Move.from_uci("a1a2") in attempts and chess.Move.from_uci("a1a4") not in attempts
    assert chess.Move.from_uci("a1b1") in attempts
    # The e-pawn may try to advance into / through the black pawn on e3.
    assert chess.Move.from_uci("e2e3") in attempts and chess.Move.from_uci("e2e4") in attempts
    # The bishop's diagonals run through black pawns (e3, b2) but stop before its own pawn on a3.
    assert chess.Move.from_uci("c1h6") in attempts and chess.Move.from_uci("c1b2") in attempts
    assert chess.Move.from_uci("c1a3") not in attempts
    # A pawn diagonal step onto an empty square is a possible attempt, onto an own piece is not.
    assert chess.Move.from_uci("e2d3") in attempts and chess.Move.from_uci("e2f3") in attempts
    assert chess.Move.from_uci("a3b4") in attempts


def test_b1_castling_needs_the_right_and_no_own_piece_between() -> None:
    game = make("Ke1 Ra1 Rh1 Bf1 ke8 pe5 nb1", castling="KQ")
    attempts = game.attempts()
    assert chess.Move.from_uci("e1c1") in attempts  # a black knight on b1 does not stop the attempt
    assert chess.Move.from_uci("e1g1") not in attempts  # own bishop on f1
    no_right = make("Ke1 Ra1 Rh1 ke8 pe5", castling="K")
    assert chess.Move.from_uci("e1g1") in no_right.attempts()
    assert chess.Move.from_uci("e1c1") not in no_right.attempts()


def test_b1_no_check_rules_king_moves_into_attack_and_castles_through_it() -> None:
    game = make("Ke1 Rh1 Pa2 ke8 rf8 nd3", castling="K")
    result, _, _ = attempt(game, "e1g1")  # out of the knight's attack on e1, through the rook's on f1
    assert result.success
    assert game.board.piece_at(sq("g1")) == chess.Piece.from_symbol("K")
    assert game.board.piece_at(sq("f1")) == chess.Piece.from_symbol("R")
    game2 = make("Ke1 Pa2 ke8 re7")
    result, _, _ = attempt(game2, "e1e2")  # into the rook's file
    assert result.success and game2.board.king(chess.WHITE) == sq("e2")


def test_b1_moves_outside_the_attempts_are_rejected_and_change_nothing() -> None:
    game = BlindChess()
    before = (game.board.fen(), [list(game.observations(s)) for s in (0, 1)])
    for bad in ("e2e5", "a1a2", "g1g3", "e7e5", "e2e4n"):
        with pytest.raises(IllegalAction):
            game.play(WHITE_SEAT, Attempt.parse(bad))
    with pytest.raises(IllegalAction):
        game.play(BLACK_SEAT, Attempt.parse("e7e5"))  # not Black's turn
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, AnswerDraw(True))  # there is no offer to answer
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, Attempt(chess.Move.null()))
    assert (game.board.fen(), [list(game.observations(s)) for s in (0, 1)]) == before


def test_b1_view_attempts_equal_the_referee_choices() -> None:
    game = make("Ke1 Ra1 Rh1 Pb2 Pe5 Ng1 ke8 pd7 pf7 ra8 rh8", castling="KQkq")
    for uci in ("a1a3", "d7d5", "e5d6", "h8g8"):
        seat = game.to_move
        assert seat is not None
        view = BlindChessView.from_observations(game.observations(seat))
        assert view.attempts() == game.choices()["attempts"]
        attempt(game, uci)


def test_b1_a_rook_lost_at_home_takes_its_castling_right_with_it() -> None:
    game = make("Ke1 Rh1 Pa2 ke8 bc6 pa7", castling="K")
    assert chess.Move.from_uci("e1g1") in game.attempts()
    attempt(game, "a2a3")
    result, _, theirs = attempt(game, "c6h1")
    assert result.capture == (chess.ROOK, sq("h1")) and theirs[0] == PieceLost(1, chess.ROOK, sq("h1"))
    view = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert chess.Move.from_uci("e1g1") not in game.attempts()
    assert view.attempts() == game.choices()["attempts"]


# ---- B2: failures -----------------------------------------------------------------------------------

@pytest.mark.parametrize("pieces, uci", [
    ("Ke1 Ra1 ke8 pa5", "a1a8"),  # rook passes over a5
    ("Ke1 Bc1 ke8 pe3", "c1h6"),  # bishop passes over e3
    ("Ke1 Qd1 ke8 pd4", "d1d7"),  # queen along the file
    ("Ke1 Qd1 ke8 pf3", "d1g4"),  # queen along a diagonal
    ("Ke1 Pe2 ke8 ne3", "e2e4"),  # two-square advance passes over e3
    ("Ke1 Pe2 ke8 ne4", "e2e4"),  # two-square advance lands on an occupied square
    ("Ke1 Pe2 ke8 ne3", "e2e3"),  # one-square advance onto an occupied square
    ("Ke1 Pe2 ke8 pa7", "e2d3"),  # diagonal onto an empty square, no en passant
    ("Ke1 Rh1 ke8 pa7 ng1", "e1g1"),  # opponent piece between king and rook
    ("Ke1 Ra1 ke8 pa7 nb1", "e1c1"),  # b1 is between king and rook (though the king never crosses it)
])
def test_b2_failed_attempts(pieces: str, uci: str) -> None:
    game = make(pieces, castling="KQ")
    fen = game.board.board_fen()
    rights = game.board.castling_rights
    result, new_mine, new_theirs = attempt(game, uci)
    assert result == AttemptResult(0, chess.Move.from_uci(uci), False, None, ())
    assert new_mine == [result]  # the mover learns only "failed"
    assert new_theirs == [TurnStarted(1)]  # the opponent learns nothing but that its turn begins
    assert game.board.board_fen() == fen and game.board.castling_rights == rights  # nothing changed
    assert game.to_move == BLACK_SEAT and game.ply == 1  # the turn is over: no retry
    view = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert view.failed == [result] and view.reveals == [] and view.captures == []


@pytest.mark.parametrize("pieces, uci, written", [
    ("Ke1 Ra1 ke8 pa5", "a1a8", "Ra8"),  # a piece in the way
    ("Ke1 Pe2 ke8 ne3", "e2e3", "e3"),  # a pawn step onto an occupied square
    ("Ke1 Pe2 ke8 pa7", "e2d3", "exd3"),  # a pawn capture onto an empty square: nothing blocked it
    ("Ke1 Rh1 ke8 pa7 ng1", "e1g1", "O-O"),  # castling through an opponent piece
])
def test_b2_the_log_says_only_that_the_attempt_failed(pieces: str, uci: str, written: str) -> None:
    """Whatever the cause, the event log and the move list tell the mover the same thing: it failed."""
    from app.games.describe import describe, move_list
    game = make(pieces, castling="KQ")
    result, _, _ = attempt(game, uci)
    assert describe(result, chess.WHITE) == f"Your move {uci[:2]} to {uci[2:4]} failed."
    view = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert move_list("blind", view) == [f"1. {written} (failed)"]


def test_b2_failure_looks_like_a_quiet_move_to_the_opponent() -> None:
    failed, quiet = make("Ke1 Ra1 ke8 pa5"), make("Ke1 Ra1 ke8 pa5")
    _, _, theirs_failed = attempt(failed, "a1a8")  # passes over a5: fails
    _, _, theirs_quiet = attempt(quiet, "a1a4")  # stops short of a5: succeeds
    assert theirs_failed == theirs_quiet == [TurnStarted(1)]
    assert list(failed.observations(BLACK_SEAT)) == list(quiet.observations(BLACK_SEAT))


def test_b2_a_stale_en_passant_fails() -> None:
    game = make("Ke1 Pe5 Ph2 ke8 pd7 ph7")
    attempt(game, "h2h3")
    attempt(game, "d7d5")
    attempt(game, "h3h4")  # White lets the chance pass
    attempt(game, "h7h6")
    result, _, theirs = attempt(game, "e5d6")
    assert not result.success and theirs == [TurnStarted(5)]
    assert game.board.piece_at(sq("d5")) == chess.Piece.from_symbol("p")


# ---- B3: captures --------------------------------------------------------------------------------------

def test_b3_capture_tells_mover_type_and_square_and_defender_only_the_type() -> None:
    game = make("Ke1 Ra1 ke8 na5 pb7")
    result, _, theirs = attempt(game, "a1a5")
    assert result.success and result.capture == (chess.KNIGHT, sq("a5"))
    assert theirs == [PieceLost(0, chess.KNIGHT, sq("a5")), TurnStarted(1)]
    lost = theirs[0]
    assert set(lost._fields) == {"ply", "piece_type", "square"}  # nothing about the capturer
    black = BlindChessView.from_observations(game.observations(BLACK_SEAT))
    assert black.lost == [lost] and black.own_board.piece_at(sq("a5")) is None
    white = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert white.captures == [blind.CaptureMade(0, chess.KNIGHT, sq("a5"))]


def test_b3_en_passant_success_and_what_each_side_is_told() -> None:
    game = make("Ke1 Pe5 Pa2 ke8 pd7 pf6 pa7")
    attempt(game, "a2a3")
    attempt(game, "d7d5")
    assert chess.Move.from_uci("e5d6") in game.attempts()
    result, _, theirs = attempt(game, "e5d6")
    assert result.success
    assert result.capture == (chess.PAWN, sq("d5"))  # the passed pawn's square
    assert revealed(result) == {"f6": "p"}  # the other forward diagonal of e5
    assert theirs[0] == PieceLost(2, chess.PAWN, sq("d5"))  # the defender: a pawn was lost
    assert game.board.piece_at(sq("d5")) is None and game.board.piece_at(sq("d6")) == chess.Piece.from_symbol("P")
    view = BlindChessView.from_observations(game.observations(BLACK_SEAT))
    assert view.own_board.piece_at(sq("d5")) is None


def test_b3_en_passant_only_against_a_pawn_that_just_advanced_two() -> None:
    game = make("Ke1 Pe5 ke8 pd7 pa7")
    attempt(game, "e1e2")
    attempt(game, "d7d6")  # a one-square step: nothing to take en passant
    result, _, _ = attempt(game, "e5d6")  # d6 holds the pawn: an ordinary capture
    assert result.capture == (chess.PAWN, sq("d6"))
    game2 = make("Ke1 Pe5 ke8 pd6 pa7")
    result2, _, _ = attempt(game2, "e5f6")
    assert not result2.success


# ---- B4: reveals ---------------------------------------------------------------------------------------

def test_b4_rule_text_example_rook_a1_a4() -> None:
    game = make("Ke1 Ra1 ke8 pa5 ba7")
    result, _, theirs = attempt(game, "a1a4")
    assert result.success and result.capture is None
    assert revealed(result) == {"a5": "p"}  # the bishop on a7 stays hidden
    assert theirs == [TurnStarted(1)]  # the opponent is not told what was seen


# Pieces sit on e4; White's king a2 and Black's king h5 lie on none of its lines.
RAY_STEPS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0),
             "NE": (1, 1), "NW": (-1, 1), "SE": (1, -1), "SW": (-1, -1)}
SLIDER_DIRECTIONS = {"R": ("N", "S", "E", "W"), "B": ("NE", "NW", "SE", "SW"),
                     "Q": ("N", "S", "E", "W", "NE", "NW", "SE", "SW")}


def _ray(start: int, step: tuple[int, int]) -> list[int]:
    file, rank = chess.square_file(start), chess.square_rank(start)
    squares: list[int] = []
    while True:
        file, rank = file + step[0], rank + step[1]
        if not (0 <= file < 8 and 0 <= rank < 8):
            return squares
        squares.append(chess.square(file, rank))


@pytest.mark.parametrize("piece, direction", [(p, d) for p, ds in SLIDER_DIRECTIONS.items() for d in ds])
@pytest.mark.parametrize("along", [False, True])
def test_b4_slider_reveals_the_first_piece_in_each_direction(piece: str, direction: str, along: bool) -> None:
    ray = _ray(sq("e4"), RAY_STEPS[direction])
    # A black pawn two squares away, a black knight behind it (hidden: no x-ray).
    pieces = f"Ka2 {piece}e4 kh5 p{chess.square_name(ray[1])} n{chess.square_name(ray[2])}"
    game = make(pieces)
    if along:
        destination = ray[0]  # one step along that line: the pawn lies beyond the destination
    else:
        other = next(d for d in SLIDER_DIRECTIONS[piece] if d != direction)
        destination = _ray(sq("e4"), RAY_STEPS[other])[0]
    result, _, _ = attempt(game, chess.square_name(sq("e4")) + chess.square_name(destination))
    assert result.success
    assert revealed(result) == {chess.square_name(ray[1]): "p"}


def test_b4_own_piece_blocks_the_line_of_sight() -> None:
    game = make("Ke1 Rd4 Pd6 kh5 pd7 pa4")
    result, _, _ = attempt(game, "d4d5")
    assert revealed(result) == {"a4": "p"}  # d7 is behind White's own pawn


def test_b4_slider_reveals_all_directions_at_once_and_captures_are_not_reveals() -> None:
    game = make("Kh1 Qd4 kh8 pd7 nd8 ra4 bg7 pb2 pf2 pg4")
    result, _, _ = attempt(game, "d4g7")
    assert result.capture == (chess.BISHOP, sq("g7"))
    assert revealed(result) == {"d7": "p", "a4": "r", "b2": "p", "f2": "p", "g4": "p"}


def test_b4_king_reveals_adjacent_pieces_only() -> None:
    game = make("Ke4 Pa2 kh8 pd5 nf4 be3 rc4 pe6")
    result, _, _ = attempt(game, "e4f5")
    assert result.success and result.capture is None
    assert revealed(result) == {"d5": "p", "f4": "n", "e3": "b"}  # not c4 or e6 (two squares away)
    game2 = make("Ke4 Pa2 kh8 pd5 nf4 be3")
    result2, _, _ = attempt(game2, "e4d5")
    assert result2.capture == (chess.PAWN, sq("d5")) and revealed(result2) == {"f4": "n", "e3": "b"}


def test_b4_pawn_reveals_forward_diagonals_and_the_square_in_front_after_an_advance() -> None:
    game = make("Ka1 Pe4 kh8 nd5 bf5 re6 qd6 pd3")
    result, _, _ = attempt(game, "e4e5")
    assert revealed(result) == {"d5": "n", "f5": "b", "e6": "r"}  # not d6, not d3 (behind)
    game2 = make("Ka1 Pe4 kh8 nd5 bf5 re5")
    result2, _, _ = attempt(game2, "e4d5")  # a capture is no advance: nothing in front is looked at
    assert result2.capture == (chess.KNIGHT, sq("d5")) and revealed(result2) == {"f5": "b"}
    game3 = make("Ka1 Pe2 kh8 pe5 nf3 pd3")
    result3, _, _ = attempt(game3, "e2e4")  # two squares: the square in front of e4
    assert revealed(result3) == {"e5": "p", "f3": "n", "d3": "p"}


def test_b4_black_pawn_reveals_toward_rank_one() -> None:
    game = make("Ka1 Pc6 Pd5 Pe4 kh8 pd7", turn=chess.BLACK)
    result, _, _ = attempt(game, "d7d6")
    assert revealed(result) == {"c6": "P", "d5": "P"}  # e6 is empty; d5 lies in front of d6


def test_b4_knight_reveals_nothing_but_its_capture() -> None:
    game = make("Ka1 Ne4 kh8 pd5 pe5 pf5 pd4 pf4 pd3 pe3 pf3 pc5")
    result, _, _ = attempt(game, "e4g5")
    assert result.success and result.reveals == () and result.capture is None
    game2 = make("Ka1 Ne4 kh8 pd5 pe5 pf5 pd4 pf4 pd3 pe3 pf3 rc5")
    result2, _, theirs = attempt(game2, "e4c5")
    assert result2.capture == (chess.ROOK, sq("c5")) and result2.reveals == ()
    assert theirs[0] == PieceLost(0, chess.ROOK, sq("c5"))


def test_b4_castling_reveals_from_the_king_and_rook_start_squares() -> None:
    game = make("Ke1 Rh1 Pa2 ke8 pd2 nf2 ph5 bh7 qc1 rb3", castling="K")
    result, _, _ = attempt(game, "e1g1")
    assert result.success and result.capture is None
    # King from e1: d2, f2 (and d1 is empty); c1 is not adjacent. Rook from h1: up the h-file to h5, not h7.
    assert revealed(result) == {"d2": "p", "f2": "n", "h5": "p"}
    assert game.board.piece_at(sq("g1")) == chess.Piece.from_symbol("K")
    assert game.board.piece_at(sq("f1")) == chess.Piece.from_symbol("R")
    game2 = make("Ke1 Ra1 Ph2 ke8 pa6 ra7 nf1", castling="Q")
    result2, _, _ = attempt(game2, "e1c1")
    assert result2.success
    assert revealed(result2) == {"a6": "p", "f1": "n"}  # rook from a1 up the a-file; king from e1 next to f1
    view = BlindChessView.from_observations(game2.observations(WHITE_SEAT))
    assert view.own_board.piece_at(sq("c1")) == chess.Piece.from_symbol("K")
    assert view.own_board.piece_at(sq("d1")) == chess.Piece.from_symbol("R")
    assert view.attempts() == possible_attempts(game2.board, chess.WHITE)


def test_b4_reveals_are_stamped_with_their_turn_in_the_view() -> None:
    game = make("Ke1 Ra1 Ph2 ke8 pa5 ph7")
    attempt(game, "a1a3")
    attempt(game, "h7h6")
    attempt(game, "h2h3")
    attempt(game, "a5a4")
    attempt(game, "a3b3")
    view = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert view.reveals == [blind.Reveal(0, sq("a5"), chess.Piece.from_symbol("p")),
                            blind.Reveal(4, sq("a4"), chess.Piece.from_symbol("p"))]
    # The a5 sighting is kept with its turn; nothing since says the pawn is gone from there.
    assert set(view.believed()) == {sq("a5"), sq("a4")}


def test_b4_a_failed_attempt_reveals_nothing() -> None:
    game = make("Ke1 Ra1 ke8 pa5 nb1")
    result, _, _ = attempt(game, "a1a7")
    assert not result.success and result.reveals == ()


# ---- B5: the end -----------------------------------------------------------------------------------------

def test_b5_king_capture_wins_at_once() -> None:
    game = make("Ke1 Ra1 ke8 pb7")
    attempt(game, "a1a8")
    attempt(game, "e8d8")  # Black walks along the rank the rook now holds: no check rules
    assert game.outcome is None
    result, _, theirs = attempt(game, "a8d8")
    assert result.capture == (chess.KING, sq("d8"))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (WHITE_SEAT, Reason.KING_CAPTURE)
    assert theirs == [PieceLost(2, chess.KING, sq("d8")), GameEnded(game.outcome)]
    assert game.to_move is None and game.choices() == {} and game.phase == "over"
    with pytest.raises(GameOver):
        game.play(BLACK_SEAT, Attempt.parse("b7b6"))


def test_b5_resignation_by_either_seat_at_any_time() -> None:
    game = BlindChess()
    game.play(BLACK_SEAT, Resign())  # not Black's turn: resigning is always allowed
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (WHITE_SEAT, Reason.RESIGN)
    assert isinstance(game.observations(WHITE_SEAT)[-1], GameEnded)


def test_b5_draw_offer_accepted() -> None:
    game = BlindChess()
    game.play(WHITE_SEAT, OfferDraw())
    assert game.phase == "answer_draw" and game.to_move == BLACK_SEAT
    assert game.choices() == {"attempts": [], "offer_draw": False, "answer_draw": True}
    assert game.observations(BLACK_SEAT)[-1] == DrawOffered(0, WHITE_SEAT)
    assert game.observations(WHITE_SEAT)[-1] == DrawOffered(0, WHITE_SEAT)
    with pytest.raises(IllegalAction):
        game.play(BLACK_SEAT, Attempt.parse("e7e5"))
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, AnswerDraw(True))  # the offerer cannot answer
    game.play(BLACK_SEAT, AnswerDraw(True))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (None, Reason.DRAW_AGREED)


def test_b5_draw_offer_declined_the_offerer_moves_on() -> None:
    game = BlindChess()
    game.play(WHITE_SEAT, OfferDraw())
    game.play(BLACK_SEAT, AnswerDraw(False))
    assert game.outcome is None and game.phase == "move" and game.to_move == WHITE_SEAT
    assert game.observations(WHITE_SEAT)[-1] == DrawDeclined(0, BLACK_SEAT)
    assert game.choices()["offer_draw"] is False
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, OfferDraw())  # once a turn
    white = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert white.phase == "move" and white.offered_this_turn
    attempt(game, "e2e4")
    assert game.choices()["offer_draw"] is True  # Black may offer on its own turn
    game.play(BLACK_SEAT, OfferDraw())
    black = BlindChessView.from_observations(game.observations(BLACK_SEAT))
    white = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert black.phase == "wait" and white.phase == "answer_draw"


def test_b5_insufficient_material_draws_at_once() -> None:
    game = make("Ke1 Nc3 ke8 pd5")
    result, _, _ = attempt(game, "c3d5")
    assert result.capture == (chess.PAWN, sq("d5"))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (None, Reason.INSUFFICIENT_MATERIAL)
    start = make("Ke1 Bc1 ke8")
    assert start.outcome is not None and start.outcome.reason is Reason.INSUFFICIENT_MATERIAL


@pytest.mark.parametrize("pieces, flagged, winner", [
    ("Ke1 Qd1 ke8 rh8 ra8", WHITE_SEAT, BLACK_SEAT),   # 9 against 10: White's flag falls, Black wins
    ("Ke1 Qd1 ke8 rh8 ra8", BLACK_SEAT, BLACK_SEAT),   # whoever flags, material decides
    ("Ke1 Qd1 Pa2 ke8 rh8 ra8", BLACK_SEAT, None),     # 10 against 10: draw
    ("Ke1 Rd1 Nb1 Bc1 Pa2 ke8 qd8 pa7 pb7", WHITE_SEAT, WHITE_SEAT),  # 12 against 11
])
def test_b5_time_runs_out_material_decides(pieces: str, flagged: int, winner: int | None) -> None:
    game = make(pieces)
    game.adjudicate(Adjudication(flagged, Reason.TIMEOUT))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (winner, Reason.MATERIAL)
    assert game.outcome.scores == game.material_scores()
    assert game.observations(WHITE_SEAT)[-1] == GameEnded(game.outcome)


def test_b5_flag_fall_in_a_timed_session_and_other_adjudications() -> None:
    now = [0.0]
    session = GameSession(make("Ke1 Qd1 ke8 pa7"), TimeControl(10, 0), time_source=lambda: now[0])
    session.play(WHITE_SEAT, Attempt.parse("d1d4"))
    now[0] = 30.0
    assert session.check_time()  # Black's flag falls, but White is ahead on material
    assert session.game.outcome is not None
    assert (session.game.outcome.winner, session.game.outcome.reason) == (WHITE_SEAT, Reason.MATERIAL)
    forfeit = BlindChess()
    forfeit.adjudicate(Adjudication(WHITE_SEAT, Reason.FORFEIT))
    assert forfeit.outcome is not None
    assert (forfeit.outcome.winner, forfeit.outcome.reason) == (BLACK_SEAT, Reason.FORFEIT)


# Black's pieces fill ranks 1 and 2 with no knight: none of them has an attempt.
BLOCKED_BLACK = "pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2 ra1 bb1 qc1 kd1 qe1 bf1 rg1 qh1"


def test_b5_a_side_with_no_possible_attempt_skips_its_turn() -> None:
    game = make(f"Ka8 Pa6 {BLOCKED_BLACK}")
    assert possible_attempts(game.board, chess.BLACK) == []
    result, mine, theirs = attempt(game, "a8b8")
    assert result.success
    assert theirs == [TurnSkipped(1)]
    assert mine == [result, TurnStarted(2)]
    assert game.to_move == WHITE_SEAT and game.ply == 2
    view = BlindChessView.from_observations(game.observations(BLACK_SEAT))
    assert not view.my_turn and view.attempts() == []


def test_b5_neither_side_able_to_attempt_is_a_draw() -> None:
    white = "Pa7 Pb7 Pc7 Pd7 Pe7 Pf7 Pg7 Ph7 Ra8 Bb8 Qc8 Kd8 Qe8 Bf8 Rg8 Qh8"
    game = make(f"{white} {BLOCKED_BLACK}")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (None, Reason.NO_MOVES)


# ---- B6: promotion ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("uci, expected", [("a7a8n", "N"), ("a7a8r", "R"), ("a7a8b", "B"), ("a7a8q", "Q"),
                                           ("a7a8", "Q"), ("a7b8r", "R"), ("a7b8", "Q")])
def test_b6_promotion_by_choice_queen_by_default(uci: str, expected: str) -> None:
    game = make("Ke1 Pa7 kh8 nb8 ph7")
    result, _, _ = attempt(game, uci)
    assert result.success
    target = chess.Move.from_uci(uci).to_square
    assert game.board.piece_at(target) == chess.Piece.from_symbol(expected)
    assert result.move.promotion == chess.Piece.from_symbol(expected).piece_type  # the queen is filled in
    view = BlindChessView.from_observations(game.observations(WHITE_SEAT))
    assert view.own_board.piece_at(target) == chess.Piece.from_symbol(expected)
    assert view.attempts() == possible_attempts(game.board, chess.WHITE)


def test_b6_promotion_choices_are_listed_and_black_promotes_too() -> None:
    game = make("Ke1 Pa6 kh8 pb2", turn=chess.BLACK)
    attempts = game.attempts()
    for piece in "qrbn":
        assert chess.Move.from_uci(f"b2b1{piece}") in attempts
        assert chess.Move.from_uci(f"b2a1{piece}") in attempts
    assert chess.Move.from_uci("b2b1") not in attempts  # listed only with a piece; accepted without
    result, _, _ = attempt(game, "b2b1n")
    assert game.board.piece_at(sq("b1")) == chess.Piece.from_symbol("n") and result.success
    with pytest.raises(IllegalAction):
        make("Ke1 Ra1 Pa6 kh8 pb7").play(WHITE_SEAT, Attempt.parse("a1a2q"))  # only pawns promote


# ---- views, bots and records ---------------------------------------------------------------------------

def _reference_reveals(board: chess.Board, move: chess.Move) -> dict[int, chess.Piece]:
    """B4 computed another way: python-chess's attack masks on the board before the move."""
    theirs = board.occupied_co[not board.turn]
    piece = board.piece_at(move.from_square)
    assert piece is not None
    mask = 0
    if piece.piece_type == chess.KING and chess.square_distance(move.from_square, move.to_square) == 2:
        rook = chess.square(7 if move.to_square > move.from_square else 0, chess.square_rank(move.from_square))
        mask = board.attacks_mask(move.from_square) | board.attacks_mask(rook)
    elif piece.piece_type != chess.KNIGHT:
        mask = board.attacks_mask(move.from_square)
        if piece.piece_type == chess.PAWN and chess.square_file(move.from_square) == chess.square_file(
                move.to_square):
            ahead = move.to_square + (8 if piece.color else -8)
            if 0 <= ahead < 64:
                mask |= chess.BB_SQUARES[ahead]
    mask &= theirs & ~chess.BB_SQUARES[move.to_square]  # a piece on the destination is a capture
    result = {}
    for square in chess.SquareSet(mask):
        found = board.piece_at(square)
        assert found is not None
        result[square] = found
    return result


def _reference_success(board: chess.Board, move: chess.Move) -> bool:
    piece = board.piece_at(move.from_square)
    assert piece is not None
    if piece.piece_type == chess.KING and chess.square_distance(move.from_square, move.to_square) == 2:
        rook = chess.square(7 if move.to_square > move.from_square else 0, chess.square_rank(move.from_square))
        return not chess.between(move.from_square, rook) & board.occupied
    return board.is_pseudo_legal(move)


ALLOWED_FOR_WAITING_SEAT = (TurnStarted, TurnSkipped, PieceLost, GameEnded, DrawOffered)


def _check_step(game: BlindChess, seat: int, move: chess.Move, views: list[BlindChessView],
                counts: list[int]) -> None:
    """Play one attempt, checking what each seat is told against the rulings."""
    board = game.board.copy()
    game.play(seat, Attempt(move))
    move = blind.with_default_promotion(board, move)
    new = [list(game.observations(s)[counts[s]:]) for s in (0, 1)]
    for s in (0, 1):
        counts[s] += len(new[s])
        for observation in new[s]:
            views[s].apply(observation)
    (result,) = [o for o in new[seat] if isinstance(o, AttemptResult)]
    success = _reference_success(board, move)
    assert result.success == success
    if not success:
        assert result.capture is None and result.reveals == ()
        assert all(isinstance(o, (TurnStarted, TurnSkipped, GameEnded)) for o in new[1 - seat])
        assert not any(isinstance(o, PieceLost) for o in new[1 - seat])
        return
    # Every opponent piece the mover is told about was really there, and is exactly what B3/B4 allow.
    assert dict(result.reveals) == _reference_reveals(board, move)
    if result.capture is None:
        assert not any(isinstance(o, PieceLost) for o in new[1 - seat])
    else:
        piece_type, square = result.capture
        assert board.piece_at(square) == chess.Piece(piece_type, not board.turn)
        assert square not in dict(result.reveals)
        assert [o for o in new[1 - seat] if isinstance(o, PieceLost)] == [PieceLost(result.ply, piece_type, square)]
    assert all(isinstance(o, ALLOWED_FOR_WAITING_SEAT) for o in new[1 - seat])


def _own_pieces(board: chess.Board, color: chess.Color) -> dict[int, chess.Piece]:
    return {s: p for s, p in board.piece_map().items() if p.color == color}


def _is_special(board: chess.Board, move: chess.Move) -> bool:
    piece = board.piece_type_at(move.from_square)
    if piece == chess.KING:
        return chess.square_distance(move.from_square, move.to_square) == 2
    return piece == chess.PAWN and (board.ep_square == move.to_square or chess.square_distance(
        move.from_square, move.to_square) == 2)


def _random_game(seed: int, max_plies: int = 200) -> BlindChess:
    rng = random.Random(seed)
    game = BlindChess()
    bots = [BlindGreedyBot(seed) if rng.random() < 0.5 else BlindRandomBot(seed), BlindGreedyBot(seed + 1)]
    views = [BlindChessView(), BlindChessView()]
    counts = [0, 0]
    for s in (0, 1):
        bots[s].start(s, game.options())
        for observation in game.observations(s):
            views[s].apply(observation)
        counts[s] = len(game.observations(s))
    for s in (0, 1):
        start = game.observations(s)[0]
        assert isinstance(start, GameStarted)
        assert not chess.Board(start.fen).occupied_co[not start.color]  # no opponent piece at the start
    fed = [0, 0]
    while not game.is_over and game.ply < max_plies:
        seat = game.to_move
        assert seat is not None
        for s in (0, 1):
            for observation in game.observations(s)[fed[s]:]:
                bots[s].observe(observation)
            fed[s] = len(game.observations(s))
        if game.phase == "answer_draw":
            action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
            assert action == AnswerDraw(False)
            game.play(seat, action)
            for s in (0, 1):
                for observation in game.observations(s)[counts[s]:]:
                    views[s].apply(observation)
                counts[s] = len(game.observations(s))
            continue
        assert views[seat].my_turn and views[seat].phase == "move"
        assert views[seat].attempts() == game.choices()["attempts"]
        for s, c in ((0, chess.WHITE), (1, chess.BLACK)):
            assert _own_pieces(views[s].own_board, c) == _own_pieces(game.board, c)
            assert views[s].own_board.occupied_co[not c] == 0
        if game.choices()["offer_draw"] and rng.random() < 0.02:
            game.play(seat, OfferDraw())
            for s in (0, 1):
                for observation in game.observations(s)[counts[s]:]:
                    views[s].apply(observation)
                counts[s] = len(game.observations(s))
            continue
        action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
        assert isinstance(action, Attempt)
        if rng.random() < 0.3:  # steer towards the rare cases: pawn diagonals (en passant), castling
            special = [m for m in game.choices()["attempts"] if _is_special(game.board, m)]
            if special:
                action = Attempt(rng.choice(special))
        if action.move.promotion == chess.QUEEN and rng.random() < 0.5:
            action = Attempt(chess.Move(action.move.from_square, action.move.to_square))  # default queen
        assert blind.with_default_promotion(game.board, action.move) in game.choices()["attempts"]
        _check_step(game, seat, action.move, views, counts)
    return game


@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_property_observations_hold_only_what_the_rulings_allow(seed: int) -> None:
    _random_game(seed)


def test_seeded_games_reach_every_kind_of_event() -> None:
    seen: set[str] = set()
    for seed in range(12):
        game = _random_game(1000 + seed, max_plies=400)
        if game.outcome is not None:
            seen.add(game.outcome.reason.value)
        for seat in (0, 1):
            for observation in game.observations(seat):
                if isinstance(observation, AttemptResult):
                    seen.add("success" if observation.success else "failure")
                    if observation.reveals:
                        seen.add("reveal")
                    if observation.capture is not None:
                        seen.add("capture")
                        if observation.capture[1] != observation.move.to_square:
                            seen.add("en passant")
                    if observation.success and observation.move.promotion:
                        seen.add("promotion")
                    if observation.success and observation.move.from_square in (chess.E1, chess.E8) and \
                            chess.square_distance(observation.move.from_square, observation.move.to_square) == 2:
                        seen.add("castling")
                elif isinstance(observation, DrawDeclined):
                    seen.add("draw declined")
    assert {"success", "failure", "reveal", "capture", "king_capture", "en passant", "promotion", "castling",
            "draw declined"} <= seen


def test_greedy_bot_captures_a_piece_it_has_seen() -> None:
    game = make("Ke1 Pa2 Pb4 Ph2 ke8 pa5 ph7")
    result, _, _ = attempt(game, "a2a4")  # the square in front of a4 holds a black pawn
    assert revealed(result) == {"a5": "p"}
    attempt(game, "h7h6")
    bot = BlindGreedyBot(seed=3)
    bot.start(WHITE_SEAT, game.options())
    for observation in game.observations(WHITE_SEAT):
        bot.observe(observation)
    assert sq("a5") in bot.view.believed()
    action = bot.act(ActionRequest(WHITE_SEAT, game.phase, game.choices()))
    assert isinstance(action, Attempt)
    assert action.move == chess.Move.from_uci("b4a5")  # a diagonal capture, never a4-a5 straight ahead
    random_bot = BlindRandomBot(seed=3)
    random_bot.start(WHITE_SEAT, game.options())
    assert random_bot.act(ActionRequest(WHITE_SEAT, "answer_draw", {"answer_draw": True})) == AnswerDraw(False)
    assert (BlindRandomBot.variant, BlindRandomBot.name) == ("blind", "random")
    assert (BlindGreedyBot.variant, BlindGreedyBot.name) == ("blind", "greedy")


def _session_game(seed: int) -> GameSession:
    rng = random.Random(seed)
    game = BlindChess()
    session = GameSession(game, TimeControl(None, 0))
    bots = [BlindRandomBot(seed), BlindGreedyBot(seed)]
    for s in (0, 1):
        bots[s].start(s, game.options())
    fed = [0, 0]
    while not game.is_over and game.ply < 120:
        seat = game.to_move
        assert seat is not None
        for s in (0, 1):
            for observation in game.observations(s)[fed[s]:]:
                bots[s].observe(observation)
            fed[s] = len(game.observations(s))
        if game.phase == "move" and game.choices()["offer_draw"] and rng.random() < 0.05:
            session.play(seat, OfferDraw())
            continue
        session.play(seat, bots[seat].act(ActionRequest(seat, game.phase, game.choices())))
    if not game.is_over:
        session.play(BLACK_SEAT, Resign())
    return session


def test_record_replays_to_the_same_board() -> None:
    session = _session_game(7)
    data = json.loads(json.dumps(session.record.to_json()))
    assert data["variant"] == "blind"
    fresh = BlindChess.from_options(data["options"])
    for entry in data["actions"]:
        step = parse_action(BlindChess, entry["action"])
        assert not isinstance(step, Adjudication)
        fresh.play(entry["seat"], step)
    game = session.game
    assert isinstance(game, BlindChess)
    assert fresh.board.fen() == game.board.fen()
    assert fresh.outcome == game.outcome
    for seat in (0, 1):
        assert list(fresh.observations(seat)) == list(game.observations(seat))


def test_record_replays_through_the_record_module_once_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.engine import variants
    monkeypatch.setitem(variants.VARIANTS, "blind", BlindChess)
    session = GameSession(make("Ke1 Pa7 Ra1 kh8 pb7"), TimeControl(None, 0))
    session.play(WHITE_SEAT, Attempt.parse("a7a8"))  # default queen, recorded as a7a8q
    session.play(BLACK_SEAT, OfferDraw())
    session.play(WHITE_SEAT, AnswerDraw(False))
    session.play(BLACK_SEAT, Attempt.parse("h8g7"))
    session.adjudicate(Adjudication(WHITE_SEAT, Reason.TIMEOUT))
    replayed = replay(GameRecord.from_json(json.loads(json.dumps(session.record.to_json()))))
    assert isinstance(replayed.game, BlindChess)
    assert isinstance(session.game, BlindChess)
    assert replayed.game.board.fen() == session.game.board.fen()
    assert replayed.game.outcome == session.game.outcome
    assert session.game.outcome is not None and session.game.outcome.reason is Reason.MATERIAL


def test_bots_play_through_the_game_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.bots.contract import BotAgent
    from app.engine import variants
    from app.hosting.runner import run_game
    monkeypatch.setitem(variants.VARIANTS, "blind", BlindChess)
    for seed in range(3):
        agents = [BotAgent(BlindGreedyBot(seed), "greedy"), BotAgent(BlindRandomBot(seed), "random")]
        record = run_game(BlindChess(), list(agents), seed=seed)
        assert record.result is not None and record.result.reason is not Reason.FORFEIT, record.result
        replayed = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
        assert replayed.game.outcome == record.result


def test_options_and_action_json() -> None:
    assert BlindChess().options() == {}
    fen = position("Ke1 Ra1 ke8 pa5")
    assert BlindChess.from_options({"fen": fen}).board.board_fen() == chess.Board(fen).board_fen()
    with pytest.raises(ValueError):
        BlindChess.from_options({"draw_rule": "none"})
    with pytest.raises(ValueError):
        BlindChess(position("Ke1 Ra1 pa5"))  # no black king
    with pytest.raises(ValueError):
        BlindChess(position("Ke1 Pa1 ke8"))  # pawn on a back rank
    for action in (Attempt.parse("e7e8n"), OfferDraw(), AnswerDraw(True), AnswerDraw(False)):
        assert BlindChess.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    for bad in ({"type": "attempt", "move": "zz"}, {"type": "attempt"}, {"type": "answer_draw", "accept": "yes"},
                {"type": "sense", "square": "e4"}):
        with pytest.raises(ValueError):
            BlindChess.action_from_json(bad)


def test_doctests() -> None:
    for module in (blind, blind_bots):
        failures, _ = doctest.testmod(module)
        assert failures == 0


def test_rules_document_states_every_ruling() -> None:
    text = (ROOT / "docs" / "rules" / "blind.md").read_text(encoding="utf-8")
    for ruling in ("B1", "B2", "B3", "B4", "B5", "B6"):
        assert ruling in text


# ---- B5 when the whole referee overruns (issue 26, item 3) -----------------------------------------------------

def test_b5_decides_a_flag_fall_even_when_the_referee_overran_and_was_stopped(monkeypatch: pytest.MonkeyPatch,
                                                                             tmp_path: Path) -> None:
    """A built-in bot stuck in C code (holding the interpreter) keeps its whole referee process from noticing its
    flag fall: the match stops that process from outside past the deadline. The game still ends as B5 says, on
    material: here White, whose bot overran, has a queen more and wins; with material equal it is a draw."""
    import re

    import app.hosting.match
    from app.hosting.match import run_match
    original = BlindRandomBot.act

    def hog(self: BlindRandomBot, request: ActionRequest) -> Any:  # in the forked referee
        if self.seat == WHITE_SEAT:  # its first attempt: the material is the starting position's
            re.match(r"(a+)+$", "a" * 64 + "b")  # backtracking inside C: no other thread of the referee runs
        return original(self, request)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(app.hosting.match, "_GRACE", 0.5)
    monkeypatch.setattr(BlindRandomBot, "act", hog)
    ahead = "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1"
    for fen, winner in ((ahead, WHITE_SEAT), (chess.STARTING_FEN, None)):
        [game] = run_match("blind", "random", "random", games=1, seed=3, control=TimeControl(1, 0),
                           options={"fen": fen}).games
        assert (game.winner, game.reason) == (winner, Reason.MATERIAL.value), game
        assert "ran out of time" in game.detail and "its process was stopped" in game.detail


def test_a_referee_whose_bot_overran_its_clock_is_replaced_even_when_material_scored_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot of the referee's own process that runs past its clock is given up at the flag fall; its thread goes
    on in the bot's code. B5 scores the game on material (reason "material", not "timeout"), and the referee must
    still leave after it, as after any bot failure, so the thread dies with it and the next game is another's."""
    import time

    from app.hosting.match import run_match
    from test_match_fairness import referee_pids, stamp_referee_pids
    original = BlindRandomBot.act

    def sleep(self: BlindRandomBot, request: ActionRequest) -> Any:  # in the forked referee
        if self.seat == WHITE_SEAT:
            time.sleep(3600)
        return original(self, request)

    stamp_referee_pids(monkeypatch)
    monkeypatch.setattr(BlindRandomBot, "act", sleep)
    result = run_match("blind", "random", "random", games=2, seed=3, control=TimeControl(0.3, 0), jobs=1)
    assert [(game.winner, game.reason) for game in result.games] == [(None, Reason.MATERIAL.value)] * 2
    assert len(set(referee_pids(result.games))) == 2  # the first game's referee left after it


# ---- a bot that never finishes starting (issue 26 review) -------------------------------------------------------

def test_a_bot_too_slow_to_start_forfeits_rather_than_having_its_flag_fall_decided_on_material() -> None:
    """No clock runs before every bot has started, so a bot that does not finish start() in time has no flag to
    fall: it loses the game, as in every other game, instead of B5 deciding on material (here equal: a draw)."""
    import threading

    from app.bots.contract import BotAgent
    from app.hosting.runner import run_game
    release = threading.Event()

    class SlowStarter(BlindRandomBot):
        def start(self, seat: int, options: dict[str, Any]) -> None:
            release.wait(60.0)

    try:
        record = run_game(BlindChess(), [BotAgent(SlowStarter(1), "slow"), BotAgent(BlindRandomBot(2), "quick")],
                          TimeControl(0.5, 0))
    finally:
        release.set()
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == (BLACK_SEAT, Reason.FORFEIT), record.result
    assert record.result.detail == "slow took too long to start"


def test_a_referee_stopped_while_a_bot_starts_scores_no_flag_fall_on_material(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match is told how a flag fall would end the game only once the clock runs: a referee stuck in a bot's
    start() (here in C code, so that the match must stop it) is scored as that bot's loss, not on material."""
    import re

    import app.hosting.match
    from app.hosting.match import run_match

    start = BlindRandomBot.start

    def hog(self: BlindRandomBot, seat: int, options: dict[str, Any]) -> None:  # in the forked referee
        if seat == WHITE_SEAT:
            re.match(r"(a+)+$", "a" * 64 + "b")  # backtracking inside C: no other thread of the referee runs
        start(self, seat, options)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(app.hosting.match, "_GRACE", 0.5)
    monkeypatch.setattr(BlindRandomBot, "start", hog)
    [game] = run_match("blind", "random", "random", games=1, seed=3, control=TimeControl(0.5, 0)).games
    assert (game.winner, game.reason) == (BLACK_SEAT, Reason.TIMEOUT.value), game
    assert "its process was stopped" in game.detail
