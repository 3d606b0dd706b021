"""The belief weights a bot may ask its inference for (``InferenceOptions``: ``share_weight``,
``promotion_weight``, ``spared_king_weight``), checked on small positions where each can be worked out by hand."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

import app.games  # noqa: F401 - the games registry
from app.engine import inference_vec
from app.engine.inference import InferenceOptions
from app.engine.inference_core import _capture_count, opponent_key, pack
from app.engine.inference_vec import PASS_NEVER
from app.games.blind.inference import BlindInference
from app.games.blind.rules import Attempt, BlindChess, GameStarted, own_fen


def _black_positions(inference: BlindInference) -> dict[str, float]:
    """The positions ``inference`` holds as {Black's pieces as a FEN board: weight}."""
    found: dict[str, float] = {}
    for board, weight in inference.positions():
        black = chess.Board(None)
        for square, piece in board.piece_map().items():
            if piece.color == chess.BLACK:
                black.set_piece_at(square, piece)
        found[black.board_fen()] = weight
    return found


def _after_one_black_turn(fen: str, white_move: str, **options: float | bool) -> dict[str, float]:
    """Black's positions, as White's belief holds them after White's ``white_move`` and one turn of Black's (a
    king step that captures nothing), each weight over the largest: {Black's pieces as a FEN board: weight}."""
    game = BlindChess(fen)
    inference = BlindInference(0, InferenceOptions(start_fen=fen, **options))  # type: ignore[arg-type]
    game.play(0, Attempt.parse(white_move))
    king = game.truth().king(chess.BLACK)
    assert king is not None
    step = next(move for move in game.attempts() if move.from_square == king)
    game.play(1, Attempt(step))
    for observation in game.observations(0):
        inference.update(observation)
    return _black_positions(inference)


def test_an_unseen_promotion_weighs_what_the_option_says() -> None:
    # Black: king a8, pawn b2 (one step from promoting on b1, White's king far away on h1).
    fen = "k7/8/8/8/8/8/1p6/7K w - - 0 1"
    plain = _after_one_black_turn(fen, "h1h2")
    charged = _after_one_black_turn(fen, "h1h2", promotion_weight=0.05)
    queen = "k7/8/8/8/8/8/8/1q6"
    king_step = "8/k7/8/8/8/8/1p6/8"
    assert plain[queen] == plain[king_step] == 1.0
    assert charged[queen] == pytest.approx(0.05 * charged[king_step])
    assert set(plain) == set(charged)  # nothing is ruled out, only weighed


def _held_then_expanded(fen: str, parents: list[str], **options: float | bool) -> dict[str, float]:
    """White's belief holding Black's ``parents`` (FEN boards of Black's pieces, each weight 1) in ``fen`` (Black
    to move, White's pieces from it), after one quiet turn of Black's: {Black's pieces as a FEN board: weight}."""
    board = chess.Board(fen)
    inference = BlindInference(0, InferenceOptions(start_fen=fen, **options))  # type: ignore[arg-type]
    inference.update(GameStarted(chess.WHITE, own_fen(board, chess.WHITE)))
    held = {}
    for placement in parents:
        full = chess.Board(fen)
        for square in chess.SquareSet(full.occupied_co[chess.BLACK]):
            full.remove_piece_at(square)
        for square, piece in chess.Board(placement + " b - - 0 1").piece_map().items():
            full.set_piece_at(square, piece)
        held[opponent_key(full, chess.WHITE)] = 1.0
    inference.hold(held)
    inference._expand(None, PASS_NEVER)
    return _black_positions(inference)


def _moves(fen: str, placement: str) -> tuple[int, int]:
    """Black's quiet moves and captures of White's pieces with Black's pieces on ``placement``."""
    board = chess.Board(fen)
    for square in chess.SquareSet(board.occupied_co[chess.BLACK]):
        board.remove_piece_at(square)
    for square, piece in chess.Board(placement + " b - - 0 1").piece_map().items():
        board.set_piece_at(square, piece)
    moves = list(board.pseudo_legal_moves)
    captures = sum(board.is_capture(move) for move in moves)
    return len(moves) - captures, captures


def test_a_position_that_offered_a_capture_not_made_loses_weight_when_weights_are_shared() -> None:
    # White: pawn a2, king g1. Black's rook is on a8 (the pawn in its file: a capture Black did not make, since
    # White lost nothing) or on e5 (no capture), its king on h8 either way.
    fen = "7k/8/8/8/8/8/P7/6K1 b - - 0 1"
    on_a8, on_e5 = "r6k/8/8/8/8/8/8/8", "7k/8/8/4r3/8/8/8/8"
    quiet_a8, captures_a8 = _moves(fen, on_a8)
    quiet_e5, captures_e5 = _moves(fen, on_e5)
    assert captures_a8 == 1 and captures_e5 == 0
    shared = _held_then_expanded(fen, [on_a8, on_e5], share_weight=True)
    king_step_a8, king_step_e5 = "r7/6k1/8/8/8/8/8/8", "8/6k1/8/4r3/8/8/8/8"
    # Each child gets its parent's weight over the parent's moves, the capture not made counted among them.
    assert shared[king_step_a8] / shared[king_step_e5] == pytest.approx(quiet_e5 / (quiet_a8 + captures_a8))
    counted = _held_then_expanded(fen, [on_a8, on_e5])
    assert counted[king_step_a8] == counted[king_step_e5]  # counting move orders: no difference


def test_a_position_where_the_king_could_have_been_taken_weighs_less_once_it_was_not() -> None:
    # White: king g1. Black's rook on g8 (attacking the king down the open file) or on a8 (not).
    fen = "7k/8/8/8/8/8/8/6K1 b - - 0 1"
    attacking, quiet = "6rk/8/8/8/8/8/8/8", "r6k/8/8/8/8/8/8/8"
    spared = _held_then_expanded(fen, [attacking, quiet], spared_king_weight=0.2)
    assert spared["6r1/7k/8/8/8/8/8/8"] == pytest.approx(0.2 * spared["r7/7k/8/8/8/8/8/8"])
    plain = _held_then_expanded(fen, [attacking, quiet])
    assert plain["6r1/7k/8/8/8/8/8/8"] == plain["r7/7k/8/8/8/8/8/8"]


def test_capture_counts_agree_with_python_chess() -> None:
    rng = random.Random(3)
    boards = []
    for _ in range(300):
        board = chess.Board()
        for _ in range(rng.randrange(2, 60)):
            moves = list(board.pseudo_legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    for board in boards:
        for seat_color in (chess.WHITE, chess.BLACK):
            opponent = not seat_color
            mine = board.occupied_co[seat_color]
            turned = board.copy(stack=False)
            turned.turn = opponent
            turned.ep_square = None
            turned.castling_rights = 0
            expected = len({(move.from_square, move.to_square) for move in turned.pseudo_legal_moves
                            if mine & chess.BB_SQUARES[move.to_square]})
            key = opponent_key(board, seat_color)
            rows = np.array([key], dtype=np.uint64).T.copy()
            assert int(inference_vec.capture_counts(rows, mine, opponent == chess.WHITE)[0]) == expected
            assert _capture_count(pack(key), mine, opponent) == expected
