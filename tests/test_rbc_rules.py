"""One or more focused tests per rule of docs/rules/rbc.md (RBC-1 ... RBC-17) and per ruling R1-R4.

Every test drives the public API only: the referee (ReconChess), its actions
(Sense, MoveAction, PASS, Resign), the observations each seat is handed
(GameStarted, TurnStarted, SenseResult, MoveResult, GameEnded), a seat's view
(ReconChessView) and, for clocks, GameSession / ChessClock / TimeControl driven by
a fake time source. Positions are set up with ReconChess(fen=...).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Sequence

import chess
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.engine.clock import ChessClock, TimeControl
from app.engine.core import Adjudication, GameOver, IllegalAction, Reason, Resign
from app.games.rbc.rules import (BLACK_SEAT, PASS, WHITE_SEAT, GameEnded, GameStarted, MoveAction, MoveResult,
                            ReconChess, ReconChessView, Sense, SenseResult, TurnStarted)
from app.engine.record import GameRecord, GameSession, replay

sq = chess.parse_square





# ---- helpers --------------------------------------------------------------------------------------------

def mv(uci: str | None) -> MoveAction:
    return PASS if uci is None else MoveAction(chess.Move.from_uci(uci))


def turn(game: ReconChess, uci: str | None, sense: str | None = None) -> MoveResult:
    """Play one whole turn for the seat to move (sense, then move or pass); return its MoveResult."""
    seat = game.to_move
    assert seat is not None
    game.play(seat, Sense(None if sense is None else sq(sense)))
    game.play(seat, mv(uci))
    result: MoveResult = last_of(game.observations(seat), MoveResult)
    return result


def last_of(observations: Sequence[Any], kind: type) -> Any:
    for observation in reversed(observations):
        if isinstance(observation, kind):
            return observation
    raise AssertionError(f"no {kind.__name__} observed")


def snapshot(game: ReconChess) -> tuple[Any, ...]:
    return (game.board.fen(), game.phase, game.to_move, len(game.observations(WHITE_SEAT)),
            len(game.observations(BLACK_SEAT)), game.outcome)


def walk(value: Any) -> Iterator[Any]:
    """Every value nested inside an observation (tuples, NamedTuples, dataclasses such as Outcome)."""
    yield value
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from walk(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from walk(getattr(value, item.name))


def opponent_pieces_outside_senses(observations: Sequence[Any], color: chess.Color) -> list[Any]:
    """Opponent piece objects a seat was handed anywhere except in its own sense results."""
    found = []
    for observation in observations:
        if isinstance(observation, SenseResult):
            continue
        found += [value for value in walk(observation)
                  if isinstance(value, chess.Piece) and value.color != color]
    return found


def own_pieces(board: chess.Board, color: chess.Color) -> dict[int, chess.Piece]:
    return {square: piece for square, piece in board.piece_map().items() if piece.color == color}


def fake_clock() -> tuple[list[float], Any]:
    now = [0.0]
    return now, (lambda: now[0])





# ---- RBC-1: the aim is the king; no check, checkmate or stalemate ----------------------------------------

def test_rbc1_king_may_move_into_check_and_stalemate_does_not_end_the_game() -> None:
    # In ordinary chess Black is stalemated here; in RBC the game goes on and the king may walk into attack.
    game = ReconChess(fen="k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    assert game.outcome is None and game.to_move == BLACK_SEAT
    assert set(game.move_actions()) == {chess.Move.from_uci(u) for u in ("a8b8", "a8b7", "a8a7")}
    result = turn(game, "a8b8")
    assert result.taken == chess.Move.from_uci("a8b8")
    assert game.outcome is None


def test_rbc1_checkmate_does_not_end_the_game() -> None:
    # Back-rank "mate": the game continues, and the checked side may even ignore the check.
    game = ReconChess(fen="3R2k1/5ppp/8/8/8/8/8/4K3 b - - 0 1")
    assert game.board.is_checkmate() and game.outcome is None
    turn(game, "h7h6")
    assert game.outcome is None and game.to_move == WHITE_SEAT


def test_rbc1_king_capture_is_the_aim() -> None:
    game = ReconChess(fen="3R2k1/5ppp/8/8/8/8/8/4K3 b - - 0 1")
    turn(game, "h7h6")
    turn(game, "d8g8")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (WHITE_SEAT, Reason.KING_CAPTURE)


def test_rbc1_insufficient_material_is_not_a_draw() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    for uci in ("e1e2", "e8e7", "e2e1", "e7e8"):
        turn(game, uci)
    assert game.outcome is None





# ---- RBC-2: seats, starting position and options ---------------------------------------------------------

def test_rbc2_white_is_seat_zero_and_moves_first_with_public_start() -> None:
    game = ReconChess()
    assert (game.to_move, game.phase) == (WHITE_SEAT, "sense")
    assert game.observations(WHITE_SEAT) == [GameStarted(chess.WHITE, chess.STARTING_FEN), TurnStarted(0, None)]
    assert game.observations(BLACK_SEAT) == [GameStarted(chess.BLACK, chess.STARTING_FEN)]
    assert game.options() == {"draw_rule": "50-move"}


def test_rbc2_custom_position_with_black_to_move() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    game = ReconChess(fen=fen)
    assert game.to_move == BLACK_SEAT
    assert game.observations(BLACK_SEAT)[-1] == TurnStarted(0, None)
    assert game.options() == {"draw_rule": "50-move", "fen": fen}
    assert isinstance(ReconChess.from_options(game.options()), ReconChess)


@pytest.mark.parametrize("kwargs", [
    {"draw_rule": "75-move"},
    {"draw_rule": ""},
    {"fen": "this is not a fen"},
    {"fen": "4k3/8/8/8/8/8/8/8 w - - 0 1"},  # no white king
    {"fen": "8/8/8/8/8/8/8/4K3 w - - 0 1"},  # no black king
])
def test_rbc2_invalid_options_raise_value_error(kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        ReconChess(**kwargs)


@pytest.mark.parametrize("options", [{"draw_rule": "fifty"}, {"colour": "white"}, {"fen": 3}, {"draw_rule": None}])
def test_rbc2_invalid_record_options_raise_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ReconChess.from_options(options)





# ---- RBC-3: turn structure and acting out of turn or phase -----------------------------------------------

def test_rbc3_turn_runs_notice_sense_move_then_passes_to_opponent() -> None:
    game = ReconChess()
    assert isinstance(game.observations(WHITE_SEAT)[-1], TurnStarted)
    assert set(game.choices()) == {"sense_actions", "move_actions"}
    game.play(WHITE_SEAT, Sense(sq("e7")))
    assert game.phase == "move" and game.to_move == WHITE_SEAT
    assert set(game.choices()) == {"move_actions"}
    game.play(WHITE_SEAT, mv("e2e4"))
    assert (game.to_move, game.phase) == (BLACK_SEAT, "sense")
    assert [type(o) for o in game.observations(WHITE_SEAT)] == [GameStarted, TurnStarted, SenseResult, MoveResult]
    assert game.observations(BLACK_SEAT)[-1] == TurnStarted(1, None)


@pytest.mark.parametrize("case", ["black_senses_first", "move_in_sense_phase", "sense_in_move_phase",
                                  "wrong_seat_moves", "no_such_seat", "bad_sense_square", "not_a_move"])
def test_rbc3_acting_out_of_turn_or_phase_raises_and_changes_nothing(case: str) -> None:
    game = ReconChess()
    if case in ("sense_in_move_phase", "wrong_seat_moves", "not_a_move"):
        game.play(WHITE_SEAT, Sense(sq("d5")))
    before = snapshot(game)
    seat, action = {
        "black_senses_first": (BLACK_SEAT, Sense(sq("e2"))),
        "move_in_sense_phase": (WHITE_SEAT, mv("e2e4")),
        "sense_in_move_phase": (WHITE_SEAT, Sense(sq("e7"))),
        "wrong_seat_moves": (BLACK_SEAT, mv("e7e5")),
        "no_such_seat": (2, Sense(sq("e2"))),
        "bad_sense_square": (WHITE_SEAT, Sense(64)),
        "not_a_move": (WHITE_SEAT, MoveAction("e2e4")),  # type: ignore[arg-type]
    }[case]
    with pytest.raises(IllegalAction):
        game.play(seat, action)
    assert snapshot(game) == before


def test_rbc3_no_action_after_the_game_is_over() -> None:
    game = ReconChess()
    game.play(BLACK_SEAT, Resign())
    with pytest.raises(GameOver):
        game.play(WHITE_SEAT, Sense(sq("e4")))
    with pytest.raises(GameOver):
        game.play(WHITE_SEAT, Resign())
    assert game.choices() == {} and game.to_move is None and game.phase == "over"





# ---- RBC-4: sensing (R3) ------------------------------------------------------------------------------

def _sense(fen: str, square: str) -> SenseResult:
    game = ReconChess(fen=fen)
    game.play(game.to_move, Sense(sq(square)))  # type: ignore[arg-type]
    result = game.observations(game.to_move)[-1]  # type: ignore[arg-type]
    assert isinstance(result, SenseResult) and result.square == sq(square)
    return result


@pytest.mark.parametrize("centre, expected", [
    ("e4", "d5 e5 f5 d4 e4 f4 d3 e3 f3"),
    ("a1", "a2 b2 a1 b1"),
    ("h8", "g8 h8 g7 h7"),
    ("a8", "a8 b8 a7 b7"),
    ("h1", "g2 h2 g1 h1"),
    ("e1", "d2 e2 f2 d1 e1 f1"),
    ("a5", "a6 b6 a5 b5 a4 b4"),
    ("h4", "g5 h5 g4 h4 g3 h3"),
    ("d8", "c8 d8 e8 c7 d7 e7"),
])
def test_rbc4_sense_window_is_clipped_and_in_reconchess_order(centre: str, expected: str) -> None:
    result = _sense(chess.STARTING_FEN, centre)
    assert [square for square, _ in result.window] == [sq(name) for name in expected.split()]


@pytest.mark.parametrize("centre", ["e4", "a1", "h8", "e1", "a5", "b7"])
def test_rbc4_sense_window_equals_reconchess_localgame(centre: str) -> None:
    from reconchess import LocalGame
    reference = LocalGame(seconds_per_player=None)
    reference.start()
    assert list(_sense(chess.STARTING_FEN, centre).window) == reference.sense(sq(centre))


def test_rbc4_sense_shows_pieces_of_both_colours_and_empty_squares() -> None:
    result = _sense(chess.STARTING_FEN, "e7")  # White looks at Black's camp
    window = dict(result.window)
    assert window[sq("d8")] == chess.Piece.from_symbol("q")
    assert window[sq("e8")] == chess.Piece.from_symbol("k")
    assert window[sq("e7")] == chess.Piece.from_symbol("p")
    assert window[sq("d6")] is None and window[sq("f6")] is None
    mixed = dict(_sense("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4").window)
    assert mixed[sq("d5")] == chess.Piece.from_symbol("p")
    assert mixed[sq("e4")] == chess.Piece.from_symbol("N")
    assert sum(piece is None for piece in mixed.values()) == 7


def test_rbc4_every_square_may_be_sensed() -> None:
    game = ReconChess()
    assert list(game.choices()["sense_actions"]) == list(chess.SQUARES)


def test_rbc4_r3_sensing_may_be_skipped_with_none() -> None:
    game = ReconChess()
    game.play(WHITE_SEAT, Sense(None))
    assert game.observations(WHITE_SEAT)[-1] == SenseResult(0, None, ())
    assert game.phase == "move"


def test_rbc4_r3_sensing_is_a_phase_of_every_turn() -> None:
    game = ReconChess()
    for _ in range(4):
        seat = game.to_move
        assert game.phase == "sense"
        with pytest.raises(IllegalAction):
            game.play(seat, PASS)  # type: ignore[arg-type]
        game.play(seat, Sense(sq("d4")))  # type: ignore[arg-type]
        game.play(seat, PASS)  # type: ignore[arg-type]





# ---- RBC-5: what a seat may request (move actions) -----------------------------------------------------

def test_rbc5_move_actions_ignore_opponent_pieces() -> None:
    game = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w Q - 0 1")
    actions = set(game.move_actions())
    assert chess.Move.from_uci("a1a8") in actions  # through the unseen pawn on a5
    assert chess.Move.from_uci("a1a5") in actions
    assert len(game.choices()["move_actions"]) == len(game.move_actions())


def test_rbc5_starting_move_actions_include_pawn_diagonals_onto_empty_squares() -> None:
    game = ReconChess()
    actions = list(game.move_actions())
    assert len(actions) == 34  # 20 ordinary moves + 14 pawn diagonals
    assert chess.Move.from_uci("e2d3") in actions and chess.Move.from_uci("a2b3") in actions
    assert chess.Move.from_uci("e2e5") not in actions


def test_rbc5_pawn_diagonal_onto_own_piece_is_not_a_move_action() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1")
    actions = set(game.move_actions())
    assert chess.Move.from_uci("e2f3") in actions
    assert chess.Move.from_uci("e2d3") not in actions


def test_rbc5_only_own_pieces_move() -> None:
    game = ReconChess()
    assert all(game.board.color_at(move.from_square) == chess.WHITE for move in game.move_actions())





# ---- RBC-6: requests outside the move actions are rejected (R1) ------------------------------------

@pytest.mark.parametrize("uci", [
    "e2e5",   # no piece moves like that
    "e7e5",   # an opponent piece
    "g1e2",   # onto an own piece
    "e1g1",   # castling through own pieces
    "a2a1",   # backwards
    "e2e4q",  # promotion where none is possible
    "0000",   # the null move is not a pass (a pass is MoveAction(None))
])
def test_rbc6_move_outside_move_actions_raises_and_changes_nothing(uci: str) -> None:
    game = ReconChess()
    game.play(WHITE_SEAT, Sense(sq("e7")))
    before = snapshot(game)
    move = chess.Move.from_uci(uci)
    assert move not in game.move_actions()
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, MoveAction(move))
    assert snapshot(game) == before and game.phase == "move"
    game.play(WHITE_SEAT, mv("e2e4"))  # the seat may still move
    assert game.to_move == BLACK_SEAT


def test_rbc6_pawn_push_promotion_piece_must_be_valid() -> None:
    game = ReconChess(fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    game.play(WHITE_SEAT, Sense(None))
    before = snapshot(game)
    for uci in ("a7a8k", "a7a8p"):
        with pytest.raises(IllegalAction):
            game.play(WHITE_SEAT, mv(uci))
    assert snapshot(game) == before





# ---- RBC-7: how a requested move is revised (R1) -------------------------------------------------------

@pytest.mark.parametrize("fen, uci, taken, captured", [
    # rook a1-a8 through a black pawn on a5: stops there and captures it
    ("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a5", "a5"),
    # the first of two obstacles is taken
    ("4k3/p7/8/p7/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a5", "a5"),
    # downwards (towards lower squares) for Black
    ("4k2r/8/8/7P/8/7P/8/4K3 b - - 0 1", "h8h1", "h8h5", "h5"),
    # bishop and queen on diagonals and ranks
    ("4k3/8/8/8/5p2/8/8/2B1K3 w - - 0 1", "c1h6", "c1f4", "f4"),
    ("4k3/8/8/8/8/8/8/Q1p1K3 w - - 0 1", "a1d1", "a1c1", "c1"),
    ("4k3/8/8/8/8/8/1n6/Q3K3 w - - 0 1", "a1h8", "a1b2", "b2"),
    # a move legal on the true board is taken as requested
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a8", None),
    ("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", "a1a7", "a7"),
])
def test_rbc7_sliders_stop_on_and_capture_the_first_opponent_piece(
        fen: str, uci: str, taken: str, captured: str | None) -> None:
    game = ReconChess(fen=fen)
    result = turn(game, uci)
    assert result.requested == chess.Move.from_uci(uci)
    assert result.taken == chess.Move.from_uci(taken)
    assert result.capture_square == (None if captured is None else sq(captured))
    assert game.board.color_at(chess.Move.from_uci(taken).to_square) == (not game.board.turn)


def test_rbc7_blocked_double_pawn_step_becomes_single_step() -> None:
    game = ReconChess(fen="4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1")
    result = turn(game, "e2e4")
    assert result.taken == chess.Move.from_uci("e2e3") and result.capture_square is None
    assert game.board.piece_at(sq("e3")) == chess.Piece.from_symbol("P")
    assert game.board.piece_at(sq("e4")) == chess.Piece.from_symbol("n")
    black = ReconChess(fen="4k3/3p4/8/3N4/8/8/8/4K3 b - - 0 1")
    assert turn(black, "d7d5").taken == chess.Move.from_uci("d7d6")


@pytest.mark.parametrize("fen, uci", [
    ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e4"),  # double step blocked on the first square
    ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e3"),  # single step onto an opponent piece
    ("4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1", "e4e5"),  # single step of a pawn that already moved
    ("n3k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"),  # promotion push blocked
])
def test_rbc7_fully_blocked_pawn_push_moves_nothing(fen: str, uci: str) -> None:
    game = ReconChess(fen=fen)
    before = game.board.board_fen()
    result = turn(game, uci)
    assert result.taken is None and result.capture_square is None
    assert game.board.board_fen() == before


def test_rbc7_pawn_diagonal_onto_an_empty_square_moves_nothing() -> None:
    game = ReconChess()
    result = turn(game, "e2d3")
    assert result.requested == chess.Move.from_uci("e2d3")
    assert result.taken is None and result.capture_square is None
    assert game.board.board_fen() == chess.Board().board_fen()
    assert game.observations(BLACK_SEAT)[-1] == TurnStarted(1, None)


def test_rbc7_pawn_diagonal_onto_opponent_piece_captures() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/3n4/4P3/4K3 w - - 0 1")
    result = turn(game, "e2d3")
    assert result.taken == chess.Move.from_uci("e2d3") and result.capture_square == sq("d3")


def test_rbc7_knight_and_king_are_never_revised() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1")
    assert turn(game, "g1f3").taken == chess.Move.from_uci("g1f3")
    assert game.observations(WHITE_SEAT)[-1].capture_square == sq("f3")





# ---- RBC-8: castling (R1) ----------------------------------------------------------------------------

@pytest.mark.parametrize("fen, uci", [
    ("4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1", "e1g1"),  # knight on g1
    ("4k3/8/8/8/8/8/8/R3Kb1R w KQ - 0 1", "e1g1"),  # bishop on f1
    ("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1", "e1c1"),  # knight on b1 (the king never crosses b1)
    ("4k3/8/8/8/8/8/8/R2qK2R w KQ - 0 1", "e1c1"),
    ("r3k1Nr/8/8/8/8/8/8/4K3 b kq - 0 1", "e8g8"),
])
def test_rbc8_castling_past_an_opponent_piece_is_not_played(fen: str, uci: str) -> None:
    game = ReconChess(fen=fen)
    assert chess.Move.from_uci(uci) in game.move_actions()
    before = game.board.board_fen()
    rights = game.board.castling_rights
    result = turn(game, uci)
    assert result.taken is None and result.capture_square is None
    assert game.board.board_fen() == before and game.board.castling_rights == rights


@pytest.mark.parametrize("fen, uci, king, rook", [
    ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", "g1", "f1"),  # through an attacked square
    ("4k3/6r1/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "g1", "f1"),  # into attack
    ("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "c1", "d1"),  # out of check
    ("r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1", "e8c8", "c8", "d8"),   # through d8 attacked
])
def test_rbc8_castling_into_or_through_attack_is_allowed(fen: str, uci: str, king: str, rook: str) -> None:
    game = ReconChess(fen=fen)
    result = turn(game, uci)
    assert result.taken == chess.Move.from_uci(uci)
    mover = not game.board.turn
    assert game.board.piece_at(sq(king)) == chess.Piece(chess.KING, mover)
    assert game.board.piece_at(sq(rook)) == chess.Piece(chess.ROOK, mover)


def test_rbc8_castling_not_offered_when_an_own_piece_is_between() -> None:
    game = ReconChess()
    assert chess.Move.from_uci("e1g1") not in game.move_actions()
    game.play(WHITE_SEAT, Sense(None))
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, mv("e1g1"))
    only_b1 = ReconChess(fen="4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1")
    actions = set(only_b1.move_actions())
    assert chess.Move.from_uci("e1c1") not in actions and chess.Move.from_uci("e1g1") in actions


def test_rbc8_castling_needs_the_right() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/8/8/R3K2R w K - 0 1")
    actions = set(game.move_actions())
    assert chess.Move.from_uci("e1g1") in actions and chess.Move.from_uci("e1c1") not in actions
    turn(game, "h1h2")
    turn(game, "e8e7")
    turn(game, "h2h1")
    assert chess.Move.from_uci("e1g1") not in game.move_actions()





# ---- RBC-9: promotion (R1) ----------------------------------------------------------------------------

def test_rbc9_promotion_defaults_to_queen() -> None:
    game = ReconChess(fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    result = turn(game, "a7a8")
    assert result.requested == chess.Move.from_uci("a7a8")
    assert result.taken == chess.Move.from_uci("a7a8q")
    assert game.board.piece_at(sq("a8")) == chess.Piece.from_symbol("Q")


def test_rbc9_default_queen_on_a_capturing_promotion() -> None:
    game = ReconChess(fen="1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    result = turn(game, "a7b8")
    assert result.taken == chess.Move.from_uci("a7b8q") and result.capture_square == sq("b8")
    assert game.board.piece_at(sq("b8")) == chess.Piece.from_symbol("Q")


@pytest.mark.parametrize("piece", ["n", "b", "r"])
def test_rbc9_under_promotion_is_honoured(piece: str) -> None:
    game = ReconChess(fen="4k3/8/8/8/8/8/p7/4K3 b - - 0 1")
    result = turn(game, f"a2a1{piece}")
    assert result.taken == chess.Move.from_uci(f"a2a1{piece}")
    assert game.board.piece_at(sq("a1")) == chess.Piece.from_symbol(piece)





# ---- RBC-10: capture notices ------------------------------------------------------------------------

def test_rbc10_capture_square_told_to_mover_and_to_victim_at_turn_start() -> None:
    game = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w - - 0 1")
    result = turn(game, "a1a8", sense="e7")
    assert result.capture_square == sq("a5")
    assert game.observations(BLACK_SEAT)[-1] == TurnStarted(1, sq("a5"))
    # The next notice of White has no capture, since Black captured nothing.
    turn(game, "e8d8")
    assert game.observations(WHITE_SEAT)[-1] == TurnStarted(2, None)


def test_rbc10_victim_is_never_told_the_capturing_piece() -> None:
    game = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w - - 0 1")
    turn(game, "a1a8", sense="b4")
    victim = game.observations(BLACK_SEAT)
    assert opponent_pieces_outside_senses(victim, chess.BLACK) == []
    assert [type(o) for o in victim] == [GameStarted, TurnStarted]
    # Black may find the rook with its own sensor: that is the only way it learns the type.
    game.play(BLACK_SEAT, Sense(sq("b4")))
    assert (sq("a5"), chess.Piece.from_symbol("R")) in game.observations(BLACK_SEAT)[-1].window
    assert opponent_pieces_outside_senses(game.observations(BLACK_SEAT), chess.BLACK) == []


def test_rbc10_mover_is_not_told_the_captured_piece_type() -> None:
    game = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w - - 0 1")
    turn(game, "a1a8")
    assert opponent_pieces_outside_senses(game.observations(WHITE_SEAT), chess.WHITE) == []


def test_rbc10_en_passant_capture_square_is_the_passed_pawn() -> None:
    game = ReconChess(fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    turn(game, "d7d5")
    result = turn(game, "e5d6")
    assert result.taken == chess.Move.from_uci("e5d6") and result.capture_square == sq("d5")
    assert game.board.piece_at(sq("d5")) is None
    assert game.observations(BLACK_SEAT)[-1] == TurnStarted(2, sq("d5"))


def test_rbc10_en_passant_for_black_from_a_fen() -> None:
    game = ReconChess(fen="4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1")
    result = turn(game, "e4d3")
    assert result.capture_square == sq("d4")
    assert game.observations(WHITE_SEAT)[-1] == TurnStarted(1, sq("d4"))


def test_rbc10_en_passant_only_right_after_the_double_step() -> None:
    game = ReconChess(fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    turn(game, "d7d5")
    turn(game, "e1e2")
    turn(game, "e8e7")
    result = turn(game, "e5d6")  # too late: a diagonal onto an empty square
    assert result.taken is None and result.capture_square is None





# ---- RBC-11: pass --------------------------------------------------------------------------------------

def test_rbc11_pass_moves_nothing_and_counts_as_a_half_move() -> None:
    game = ReconChess()
    game.play(WHITE_SEAT, Sense(None))
    game.play(WHITE_SEAT, PASS)
    assert game.observations(WHITE_SEAT)[-1] == MoveResult(0, None, None, None)
    assert game.board.board_fen() == chess.Board().board_fen()
    assert game.board.halfmove_clock == 1 and game.ply == 1
    assert game.to_move == BLACK_SEAT and game.observations(BLACK_SEAT)[-1] == TurnStarted(1, None)





# ---- RBC-12: information --------------------------------------------------------------------------------

def test_rbc12_opponent_learns_nothing_of_a_quiet_turn() -> None:
    game = ReconChess()
    turn(game, "e2e4", sense="e7")
    assert game.observations(BLACK_SEAT) == [GameStarted(chess.BLACK, chess.STARTING_FEN), TurnStarted(1, None)]


def test_rbc12_observations_carry_no_clock_or_opponent_action() -> None:
    game = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w - - 0 1")
    turn(game, "a1a8", sense="a6")
    turn(game, "e8d8", sense="a4")
    for seat in (WHITE_SEAT, BLACK_SEAT):
        for observation in game.observations(seat):
            assert not any(isinstance(value, float) for value in walk(observation))
            if isinstance(observation, (SenseResult, MoveResult)):
                # A seat only ever sees its own senses and moves.
                own = [o for o in game.observations(seat) if isinstance(o, type(observation))]
                assert observation in own
    black_moves = [o.taken for o in game.observations(WHITE_SEAT) if isinstance(o, MoveResult)]
    assert chess.Move.from_uci("e8d8") not in black_moves


def test_rbc12_view_shows_only_own_pieces_and_own_sightings() -> None:
    game = ReconChess()
    turn(game, "e2e4", sense="d7")
    view = ReconChessView.from_observations(game.observations(BLACK_SEAT))
    assert own_pieces(view.own_board, chess.WHITE) == {}
    assert view.known == {}
    game.play(BLACK_SEAT, Sense(sq("e3")))
    view = ReconChessView.from_observations(game.observations(BLACK_SEAT))
    assert view.known[sq("e4")].piece == chess.Piece.from_symbol("P")
    assert view.known[sq("e2")].piece is None





def test_rbc12_view_follows_own_castling_promotion_and_losses() -> None:
    game = ReconChess(fen="r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    turn(game, "e1g1")
    turn(game, "h8h1")  # lands beside the castled king (h1 is empty once the rook went to f1)
    turn(game, "b7a8n")  # under-promotion with a capture
    turn(game, "e8d8")
    for seat in (WHITE_SEAT, BLACK_SEAT):
        view = ReconChessView.from_observations(game.observations(seat))
        color = seat == WHITE_SEAT
        assert own_pieces(view.own_board, color) == own_pieces(game.board, color)
        assert own_pieces(view.own_board, not color) == {}
    view = ReconChessView.from_observations(game.observations(WHITE_SEAT))
    assert list(view.move_actions()) == list(game.move_actions())


def test_rbc12_view_drops_castling_right_when_the_home_rook_is_captured() -> None:
    game = ReconChess(fen="4k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1")
    turn(game, "h8h1")
    view = ReconChessView.from_observations(game.observations(WHITE_SEAT))
    assert view.lost == [(0, sq("h1"))]
    assert chess.Move.from_uci("e1g1") not in game.move_actions()
    assert list(view.move_actions()) == list(game.move_actions())


def test_rbc12_view_removes_a_pawn_taken_en_passant() -> None:
    game = ReconChess(fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    turn(game, "d7d5")
    turn(game, "e5d6")
    view = ReconChessView.from_observations(game.observations(BLACK_SEAT))
    assert own_pieces(view.own_board, chess.BLACK) == own_pieces(game.board, chess.BLACK)
    assert view.known[sq("d5")].piece is None and view.known[sq("d5")].source == "capture"


# ---- RBC-13: king capture ends the game ------------------------------------------------------------------

@pytest.mark.parametrize("fen, uci, winner", [
    ("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", "e1e8", WHITE_SEAT),
    ("8/8/8/4k3/8/8/8/K3R3 w - - 0 1", "e1e8", WHITE_SEAT),  # revised slide lands on the king
    ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "d2e1", BLACK_SEAT),  # pawn diagonal onto the king
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "h1a1", BLACK_SEAT),
])
def test_rbc13_king_capture_ends_the_game(fen: str, uci: str, winner: int) -> None:
    game = ReconChess(fen=fen)
    mover = game.to_move
    game.play(mover, Sense(None))  # type: ignore[arg-type]
    game.play(mover, mv(uci))  # type: ignore[arg-type]
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (winner, Reason.KING_CAPTURE)
    assert game.to_move is None and game.phase == "over" and game.choices() == {}
    for seat in (WHITE_SEAT, BLACK_SEAT):
        assert game.observations(seat)[-1] == GameEnded(game.outcome)
    assert isinstance(game.observations(mover)[-2], MoveResult)  # type: ignore[arg-type]
    loser = game.observations(1 - mover)  # type: ignore[operator]
    assert not any(isinstance(o, TurnStarted) and o.ply == 1 for o in loser)





# ---- RBC-14: draws (R2) ------------------------------------------------------------------------------

def test_rbc14_r2_fifty_move_rule_is_the_default_and_counts_passes() -> None:
    game = ReconChess()
    assert game.draw_rule == "50-move"
    for _ in range(99):
        turn(game, None)
    assert game.outcome is None and game.board.halfmove_clock == 99
    turn(game, None)
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (None, Reason.MOVE_LIMIT)
    assert game.observations(WHITE_SEAT)[-1] == game.observations(BLACK_SEAT)[-1] == GameEnded(game.outcome)


def test_rbc14_r2_fifty_move_draw_from_a_position_clock() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/8/8/4K3 w - - 99 80")
    turn(game, "e1e2")
    assert game.outcome is not None and game.outcome.reason is Reason.MOVE_LIMIT


def test_rbc14_r2_pawn_move_or_capture_resets_the_count() -> None:
    game = ReconChess(fen="4k3/8/8/8/8/8/4P3/4K3 w - - 98 80")
    turn(game, "e2e3")
    assert game.board.halfmove_clock == 0
    capture = ReconChess(fen="4k3/8/8/p7/8/8/8/R3K3 w - - 99 80")
    turn(capture, "a1a8")  # revised to a capture
    assert capture.outcome is None and capture.board.halfmove_clock == 0


def test_rbc14_r2_draw_rule_none_never_draws_automatically() -> None:
    game = ReconChess(draw_rule="none", fen="4k3/8/8/8/8/8/8/4K3 w - - 99 80")
    for _ in range(60):
        turn(game, None)
    assert game.outcome is None and game.board.halfmove_clock == 159
    assert game.options() == {"draw_rule": "none", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 99 80"}





# ---- RBC-15: clocks (R4) ---------------------------------------------------------------------------

def test_rbc15_r4_default_time_control_is_fifteen_minutes_plus_five() -> None:
    assert TimeControl() == TimeControl(900.0, 5.0)
    assert TimeControl.parse("15m+5") == TimeControl()
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(), time_source=source)
    assert session.seconds_left(WHITE_SEAT) == session.seconds_left(BLACK_SEAT) == 900.0


def test_rbc15_r4_increment_added_once_per_turn_finished_in_time() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(60, 5), time_source=source)
    now[0] = 10.0
    session.play(WHITE_SEAT, Sense(sq("e7")))
    assert session.seconds_left(WHITE_SEAT) == 50.0  # no increment after the sense phase
    now[0] = 20.0
    session.play(WHITE_SEAT, mv("e2e4"))
    assert session.seconds_left(WHITE_SEAT) == 45.0  # 60 - 20 + 5
    assert session.seconds_left(BLACK_SEAT) == 60.0  # Black's clock only starts now
    now[0] = 23.0
    assert session.seconds_left(WHITE_SEAT) == 45.0 and session.seconds_left(BLACK_SEAT) == 57.0


def test_rbc15_r4_flag_during_the_turn_loses_at_that_moment() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(60, 5), time_source=source)
    session.play(WHITE_SEAT, Sense(None))
    session.play(WHITE_SEAT, mv("e2e4"))
    now[0] = 59.0
    assert session.check_time() is False and session.game.outcome is None
    now[0] = 60.0  # Black's 60 s are gone, mid-turn
    assert session.check_time() is True
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == (WHITE_SEAT, Reason.TIMEOUT)
    for seat in (WHITE_SEAT, BLACK_SEAT):
        assert session.game.observations(seat)[-1] == GameEnded(outcome)
    assert session.seconds_left(BLACK_SEAT) == 0.0  # no increment for the turn that ran out
    assert session.record.result == outcome
    assert session.record.entries[-1].action == {"type": "adjudication", "seat": BLACK_SEAT, "reason": "timeout"}


def test_rbc15_r4_action_after_the_flag_fell_is_not_played_and_loses() -> None:
    now, source = fake_clock()
    game = ReconChess()
    session = GameSession(game, TimeControl(30, 5), time_source=source)
    session.play(WHITE_SEAT, Sense(None))
    now[0] = 31.0
    session.play(WHITE_SEAT, mv("e2e4"))
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == (BLACK_SEAT, Reason.TIMEOUT)
    assert game.board.board_fen() == chess.Board().board_fen()
    assert session.seconds_left(WHITE_SEAT) == -1.0
    for seat in (WHITE_SEAT, BLACK_SEAT):
        assert session.game.observations(seat)[-1] == GameEnded(outcome)


def test_rbc15_r4_turn_finished_just_in_time_earns_the_increment() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(30, 5), time_source=source)
    session.play(WHITE_SEAT, Sense(None))
    now[0] = 29.5
    session.play(WHITE_SEAT, mv("e2e4"))
    assert session.game.outcome is None
    assert session.seconds_left(WHITE_SEAT) == pytest.approx(5.5)


def test_rbc15_r4_turn_ending_exactly_at_zero_loses() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(30, 5), time_source=source)
    session.play(WHITE_SEAT, Sense(None))
    now[0] = 30.0
    session.play(WHITE_SEAT, mv("e2e4"))
    assert session.game.outcome is not None and session.game.outcome.reason is Reason.TIMEOUT
    assert session.seconds_left(WHITE_SEAT) == 0.0


def test_rbc15_r4_chess_clock_gives_no_increment_to_a_flagged_turn() -> None:
    now, source = fake_clock()
    clock = ChessClock(TimeControl(10, 5), time_source=source)
    clock.start(0)
    now[0] = 4.0
    assert clock.end_turn() == 4.0 and clock.remaining(0) == 11.0
    clock.start(1)
    now[0] = 15.0
    assert clock.flagged(1)
    clock.end_turn()
    assert clock.remaining(1) == -1.0 and clock.flagged(1)


def test_rbc15_r4_only_time_of_the_running_seat_moves() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(100, 0), time_source=source)
    now[0] = 7.0
    assert session.seconds_left(WHITE_SEAT) == 93.0 and session.seconds_left(BLACK_SEAT) == 100.0


def test_rbc15_r4_no_increment_for_a_turn_cut_short_by_the_opponents_resignation() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(60, 5), time_source=source)
    now[0] = 3.0
    session.play(BLACK_SEAT, Resign())  # during White's turn
    replayed = replay(GameRecord.from_json(session.record.to_json()))
    assert session.seconds_left(WHITE_SEAT) == 57.0
    assert replayed.remaining == [57.0, 60.0]


def test_rbc15_r4_replayed_record_ends_with_the_clocks_of_the_live_game() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(fen="4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), TimeControl(60, 5), time_source=source)
    now[0] = 3.0
    session.play(WHITE_SEAT, Sense(None))
    now[0] = 4.0
    session.play(WHITE_SEAT, mv("e1e8"))
    assert session.game.outcome is not None and session.game.outcome.reason is Reason.KING_CAPTURE
    replayed = replay(GameRecord.from_json(session.record.to_json()))
    assert replayed.remaining == [session.seconds_left(WHITE_SEAT), session.seconds_left(BLACK_SEAT)]


# ---- RBC-16: resignation -------------------------------------------------------------------------------

@pytest.mark.parametrize("resigner, when", [
    (WHITE_SEAT, "sense"), (BLACK_SEAT, "sense"), (WHITE_SEAT, "move"), (BLACK_SEAT, "move"),
    (WHITE_SEAT, "later"), (BLACK_SEAT, "later"),
])
def test_rbc16_either_seat_may_resign_at_any_time(resigner: int, when: str) -> None:
    game = ReconChess()
    if when in ("move", "later"):
        game.play(WHITE_SEAT, Sense(None))
    if when == "later":
        game.play(WHITE_SEAT, mv("e2e4"))
        game.play(BLACK_SEAT, Sense(sq("e4")))
    game.play(resigner, Resign())
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (1 - resigner, Reason.RESIGN)
    for seat in (WHITE_SEAT, BLACK_SEAT):
        assert game.observations(seat)[-1] == GameEnded(game.outcome)


def test_rbc16_resignation_through_a_session_stops_the_clocks() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(60, 5), time_source=source)
    now[0] = 3.0
    session.play(BLACK_SEAT, Resign())  # not Black's turn
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == (WHITE_SEAT, Reason.RESIGN)
    assert session.clock.running is None
    assert session.record.entries[-1].action == {"type": "resign"}





# ---- RBC-17: forfeits of bots ---------------------------------------------------------------------------

def test_rbc17_a_failing_bot_forfeits() -> None:
    game = ReconChess()
    game.play(WHITE_SEAT, Sense(None))
    # The host catches the illegal answer (nothing changes) and then adjudicates the forfeit.
    with pytest.raises(IllegalAction):
        game.play(WHITE_SEAT, mv("e2e5"))
    game.adjudicate(Adjudication(WHITE_SEAT, Reason.FORFEIT, "White answered e2e5"))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (BLACK_SEAT, Reason.FORFEIT)
    for seat in (WHITE_SEAT, BLACK_SEAT):
        assert game.observations(seat)[-1] == GameEnded(game.outcome)
    with pytest.raises(GameOver):
        game.adjudicate(Adjudication(BLACK_SEAT, Reason.FORFEIT))


def test_rbc17_forfeit_of_the_waiting_seat_through_a_session() -> None:
    now, source = fake_clock()
    session = GameSession(ReconChess(), TimeControl(60, 5), time_source=source)
    session.adjudicate(Adjudication(BLACK_SEAT, Reason.FORFEIT, "Black's bot crashed"))
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == (WHITE_SEAT, Reason.FORFEIT)
    assert session.record.result == outcome





# ---- properties over random games: views, notices and move actions ---------------------------------------

def _check_seat(game: ReconChess, seat: int, view: ReconChessView, last_capture: int | None) -> None:
    color = seat == WHITE_SEAT
    observations = game.observations(seat)
    # Only own pieces on the view's board, and exactly the true board's pieces of that colour.
    assert own_pieces(view.own_board, not color) == {}
    expected = own_pieces(game.board, color)
    if game.outcome is not None and game.outcome.reason is Reason.KING_CAPTURE and game.outcome.winner != seat:
        # The loser is told only that the game ended, not where: its view still holds the captured king.
        assert last_capture is not None
        expected[last_capture] = chess.Piece(chess.KING, color)
    assert own_pieces(view.own_board, color) == expected
    # Opponent pieces in the view come from this seat's own senses only.
    sightings = {(o.ply, square, piece) for o in observations if isinstance(o, SenseResult)
                 for square, piece in o.window}
    for square, info in view.known.items():
        if info.piece is not None:
            assert info.piece.color != color
            assert info.source == "sense" and (info.ply, square, info.piece) in sightings
    assert opponent_pieces_outside_senses(observations, color) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_rbc12_views_hold_only_own_knowledge_in_random_games(data: st.DataObject) -> None:
    draw_rule = data.draw(st.sampled_from(["50-move", "none"]))
    game = ReconChess(draw_rule=draw_rule)
    views = [ReconChessView(), ReconChessView()]
    seen = [0, 0]
    last_capture: int | None = None

    def sync() -> None:
        for seat in (WHITE_SEAT, BLACK_SEAT):
            for observation in game.observations(seat)[seen[seat]:]:
                views[seat].apply(observation)
            seen[seat] = len(game.observations(seat))

    sync()
    for _ in range(data.draw(st.integers(20, 160))):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        notice = game.observations(seat)[-1]
        assert isinstance(notice, TurnStarted) and notice.capture_square == last_capture
        actions = game.choices()["move_actions"]
        assert list(views[seat].move_actions()) == list(actions)
        square = data.draw(st.one_of(st.none(), st.integers(0, 63)))
        game.play(seat, Sense(square))
        choice = data.draw(st.integers(-1, len(actions) - 1))
        if choice >= 0 and data.draw(st.integers(0, 3)) == 0:
            # Prefer a capture now and then, so that games reach king captures and capture notices.
            hits = [m for m in actions if game.board.color_at(m.to_square) == (not game.board.turn)]
            choice = actions.index(hits[choice % len(hits)]) if hits else choice
        requested = None if choice < 0 else actions[choice]
        before = game.board.copy()
        game.play(seat, MoveAction(requested))
        result = last_of(game.observations(seat), MoveResult)
        assert result.requested == requested
        if result.taken is not None:
            assert requested is not None and result.taken.from_square == requested.from_square
        last_capture = result.capture_square
        if last_capture is not None:
            assert before.color_at(last_capture) == (not before.turn)
        sync()
        for check in (WHITE_SEAT, BLACK_SEAT):
            _check_seat(game, check, views[check], last_capture)
    event("ended: " + ("no" if game.outcome is None else game.outcome.reason.value))
    for seat in (WHITE_SEAT, BLACK_SEAT):
        rebuilt = ReconChessView.from_observations(game.observations(seat))
        assert rebuilt.own_board.board_fen() == views[seat].own_board.board_fen()
        assert rebuilt.known == views[seat].known
        if game.is_over:
            assert game.observations(seat)[-1] == GameEnded(game.outcome)  # type: ignore[arg-type]
            assert rebuilt.outcome == game.outcome
