"""Opponent-position inference (app/engine/inference*.py).

- soundness: over seeded games of the built-in bots, for both seats and after every step, the referee's
  true opponent position is in the seat's set (checked before any sampling; once a set is sampled, the
  truth is put back after sampling so that every later update is still checked);
- exactness: the set equals the one a straightforward python-chess implementation computes
  (``benchmarks/belief.py``, which tries every move action on a copy of every board);
- hand-made positions with counts worked out by hand; sampling; the API; bad input.
"""

from __future__ import annotations

import importlib.util
import pickle
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import chess
import numpy as np
import pytest

from app.bots.base import ActionRequest, Bot
from app.games.blind.bots import BlindGreedyBot, BlindRandomBot
from app.games.rbc.bots import RBCAttackerBot, RBCRandomBot
from app.games.blind import rules as blind
from app.games.rbc import rules as rbc
from app.engine.core import Game, Reason
from app.engine.inference import Inference, InferenceError, InferenceOptions, pack, unpack
from app.games.blind.inference import BlindInference
from app.games.rbc.inference import RbcInference

ROOT = Path(__file__).resolve().parents[1]


def _load_reference() -> Any:
    spec = importlib.util.spec_from_file_location("belief_benchmark", ROOT / "benchmarks" / "belief.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["belief_benchmark"] = module
    spec.loader.exec_module(module)
    return module


reference = _load_reference()


# ---- helpers -----------------------------------------------------------------------------------------

def new_game(variant: str, fen: str = chess.STARTING_FEN) -> Game:
    return rbc.ReconChess(fen=fen) if variant == "rbc" else blind.BlindChess(fen)


def new_inference(variant: str, seat: int, **options: Any) -> Inference:
    cls = RbcInference if variant == "rbc" else BlindInference
    return cls(seat, InferenceOptions(**options))


def bots_for(variant: str, seed: int) -> list[Bot]:
    """Random bots, with a capturing bot in one seat on odd seeds (games with captures and king captures)."""
    if variant == "rbc":
        strong: type[Bot] = RBCAttackerBot
        weak: type[Bot] = RBCRandomBot
    else:
        strong, weak = BlindGreedyBot, BlindRandomBot
    first = strong if seed % 2 else weak
    return [first(seed=2 * seed), weak(seed=2 * seed + 1)]


def play(game: Game, bots: list[Bot], max_plies: int, after_step: Callable[[dict[int, list[Any]]], None]) -> None:
    """Play ``game`` with ``bots``; after every step, hand ``after_step`` each seat's new observations."""
    seen = [0, 0]

    def deliver() -> None:
        fresh: dict[int, list[Any]] = {}
        for seat in (0, 1):
            observations = list(game.observations(seat)[seen[seat]:])
            seen[seat] += len(observations)
            for observation in observations:
                bots[seat].observe(observation)
            fresh[seat] = observations
        after_step(fresh)

    for seat, bot in enumerate(bots):
        bot.start(seat, game.options())
    deliver()
    while game.outcome is None and game.ply < max_plies:
        mover = game.to_move
        assert mover is not None
        game.play(mover, bots[mover].act(ActionRequest(mover, game.phase, game.choices())))
        deliver()


def truth_is_comparable(game: Game, seat: int) -> bool:
    """The seat's set describes the referee's board now: the game runs, or the king was just captured."""
    outcome = game.outcome
    return outcome is None or outcome.reason == Reason.KING_CAPTURE


# ---- soundness ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_the_true_position_is_always_in_the_set(variant: str) -> None:
    checks = sampled_games = 0
    games, cap = (16, 1500) if variant == "rbc" else (6, 600)
    for seed in range(games):
        game = new_game(variant)
        inferences = [new_inference(variant, seat, cap=cap, seed=seed) for seat in (0, 1)]
        view_cls = rbc.ReconChessView if variant == "rbc" else blind.BlindChessView
        views = [view_cls(), view_cls()]

        def after_step(fresh: dict[int, list[Any]]) -> None:
            nonlocal checks
            for seat, observations in fresh.items():
                inference = inferences[seat]
                for observation in observations:
                    inference.update(observation, limit=False)
                    views[seat].apply(observation)
                if not observations:
                    continue
                if game.outcome is None:
                    # The seat's own pieces are what its view says (a view keeps its captured king at the end).
                    assert inference.own.piece_map() == views[seat].own_board.piece_map()
                    assert inference.own.castling_rights == views[seat].own_board.castling_rights
                if truth_is_comparable(game, seat):
                    truth = reference_key(game, seat)
                    assert truth in inference, (variant, seed, seat, observations, reference_fen(game))
                    checks += 1
                    inference.limit()
                    if truth not in inference:
                        # The sample dropped the truth: put it back so that later updates are checked too.
                        inference._rows = np.concatenate([inference._rows, np.array([truth], dtype=np.uint64).T],
                                                         axis=1)
                        inference._weights = np.append(inference._weights, 1.0)
                else:
                    inference.limit()
                assert inference.size > 0

        play(game, bots_for(variant, seed), 70, after_step)
        sampled_games += inferences[0].sampled or inferences[1].sampled
    assert checks > 400 and sampled_games > 2


def reference_fen(game: Game) -> str:
    return str(game.board.fen())  # type: ignore[attr-defined]


def reference_key(game: Game, seat: int) -> tuple[int, int, int, int, int, int, int, int]:
    from app.engine.inference import opponent_key
    board = game.board  # type: ignore[attr-defined]
    assert isinstance(board, chess.Board)
    return opponent_key(board, seat == 0)


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_with_the_default_cap_sets_are_never_empty(variant: str) -> None:
    for seed in range(2):
        game = new_game(variant)
        inferences = [new_inference(variant, seat, seed=seed) for seat in (0, 1)]

        def after_step(fresh: dict[int, list[Any]]) -> None:
            for seat, observations in fresh.items():
                for observation in observations:
                    inferences[seat].update(observation)
                assert inferences[seat].size > 0 and inferences[seat].problem is None

        play(game, bots_for(variant, seed + 1), 30 if variant == "rbc" else 20, after_step)


# ---- exactness against the straightforward implementation ------------------------------------------------

SPARSE_STARTS = [
    "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",  # castling, promotion
    "4k3/2p1p3/8/3P4/5p2/8/4P1P1/4K3 w - - 0 1",  # en passant both ways
    "n3k2q/1p6/8/8/8/8/6P1/B3K2R w K - 0 1",  # sliders and knights
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",  # promotions
]


@pytest.mark.parametrize("variant", ["rbc", "blind"])
@pytest.mark.parametrize("start", [chess.STARTING_FEN, *SPARSE_STARTS])
def test_the_set_equals_the_python_chess_reference(variant: str, start: str) -> None:
    compared = 0
    for seed in range(5):
        game = reference.random_game(variant, 100 + seed, max_plies=40, fen=start)
        for seat in (0, 1):
            naive = reference.NaiveRbc(seat) if variant == "rbc" else reference.NaiveBlind(seat, start)
            inference = new_inference(variant, seat, cap=10 ** 9, start_fen=start if variant == "blind" else None)
            for observation in game.observations(seat):
                if len(naive.keys) > (150 if start == chess.STARTING_FEN else 350):
                    break  # the reference is slow
                naive.update(observation)
                inference.update(observation)
                assert reference.keys_of(inference) == naive.keys, (variant, seed, seat, observation)
                assert inference.count == len(naive.keys) and not inference.sampled
                compared += 1
    assert compared > 40


# ---- hand-made positions: RBC ------------------------------------------------------------------------------

def rbc_play(game: rbc.ReconChess, *steps: str | None) -> None:
    """Alternate sense and move for the seat to move: 'sense:e7', 'e2e4', 'pass', 'sense:-' (no sense)."""
    for step in steps:
        seat = game.to_move
        assert seat is not None
        if step is not None and step.startswith("sense:"):
            square = step[6:]
            game.play(seat, rbc.Sense(None if square == "-" else chess.parse_square(square)))
        else:
            game.play(seat, rbc.MoveAction(None if step in (None, "pass") else chess.Move.from_uci(step)))


def test_rbc_first_opponent_move_probabilities() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7", "e2e4")
    black = RbcInference.from_observations(1, game.observations(1))
    assert black.count == 21 and not black.sampled
    knights = black.type_probabilities(chess.KNIGHT)
    assert knights[chess.F3] == pytest.approx(1 / 21) and knights[chess.G1] == pytest.approx(19 / 21)
    squares = black.square_probabilities()
    assert squares[chess.E1] == 1.0 and squares[chess.E4] == pytest.approx(1 / 21)
    assert sum(squares.values()) == pytest.approx(16)
    assert sum(black.type_probabilities(chess.KING).values()) == pytest.approx(1)


def test_arrays_show_the_set_and_hold_replaces_it_with_its_bounds() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7", "e2e4")
    black = RbcInference.from_observations(1, game.observations(1))
    rows, weights = black.arrays()
    assert rows.shape == (8, 21) and len(weights) == 21
    assert {h for h, _ in black.hypotheses()} == {tuple(int(v) for v in rows[:, i]) for i in range(21)}
    kept = dict(list(black.hypotheses())[:2])
    first, second = kept
    black.hold({first: 3.0, second: 1.0})
    assert black.size == 2 and list(black.arrays()[1]) == [3.0, 1.0]
    assert black.square_probabilities()[chess.E1] == 1.0
    knight_squares = chess.SquareSet(first[1] | second[1])
    assert {square for square in chess.SQUARES if black.is_possible(square, chess.KNIGHT)} <= set(knight_squares)
    with pytest.raises(ValueError):
        black.hold({})


def test_rbc_sense_window_filters_exactly() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7", "e2e4", "sense:e2", "a7a6", "sense:e7")
    white = RbcInference.from_observations(0, game.observations(0))
    # Black's moves that leave d7, e7, f7 in place and put nothing on d6, e6, f6 (Nf6, d6/d5, e6/e5, f6/f5
    # are ruled out; d8/e8/f8 cannot change in one move): 21 - 7.
    assert white.count == 14
    assert game.board in white


ROOK_FEN = "3rk3/8/8/8/8/8/8/3R3K b - - 0 1"


def test_rbc_opponent_quiet_turn_includes_every_move_and_the_pass() -> None:
    game = rbc.ReconChess(fen=ROOK_FEN)
    rbc_play(game, "sense:-", "d8d5")
    white = RbcInference.from_observations(0, game.observations(0))
    # Rook: a8 b8 c8 d7 d6 d5 d4 d3 d2 (d1 would have captured); king: d7 e7 f7 f8; the pass.
    assert white.count == 14


def test_rbc_a_sliding_move_stopped_short_locates_the_piece() -> None:
    game = rbc.ReconChess(fen=ROOK_FEN)
    rbc_play(game, "sense:-", "d8d5", "sense:-", "d1d8")
    result = game.observations(0)[-1]
    assert result.taken == chess.Move.from_uci("d1d5") and result.capture_square == chess.D5
    white = RbcInference.from_observations(0, game.observations(0))
    assert white.count == 1
    (board, weight), = white.positions()
    assert board.piece_at(chess.D5) == chess.Piece.from_symbol("R") and board.king(chess.BLACK) == chess.E8


def test_rbc_a_sliding_move_that_went_all_the_way() -> None:
    game = rbc.ReconChess(fen=ROOK_FEN)
    rbc_play(game, "sense:-", "d8c8", "sense:-", "d1d8")
    white = RbcInference.from_observations(0, game.observations(0))
    # Nothing on d2-d8, so the rook left the file (a8, b8, c8); king moves and the pass left it on d8.
    assert white.count == 3
    assert all(board.rooks & board.occupied_co[chess.BLACK] & chess.BB_RANK_8 for board, _ in white.positions())


def test_rbc_capture_notice_keeps_only_the_capturing_moves() -> None:
    game = rbc.ReconChess(fen=ROOK_FEN)
    rbc_play(game, "sense:-", "d8d1")
    white = RbcInference.from_observations(0, game.observations(0))
    assert white.count == 1 and game.board in white
    assert not white.own.rooks


def test_rbc_en_passant_capture_of_the_seats_pawn() -> None:
    game = rbc.ReconChess(fen="4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    rbc_play(game, "sense:-", "e2e4", "sense:-", "d4e3")
    white = RbcInference.from_observations(0, game.observations(0))
    assert game.observations(0)[-1].capture_square == chess.E4
    assert white.count == 1 and game.board in white


def test_rbc_seat_takes_en_passant_only_where_the_square_was_opened() -> None:
    game = rbc.ReconChess(fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    rbc_play(game, "sense:-", "d7d5", "sense:-", "e5d6")
    white = RbcInference.from_observations(0, game.observations(0))
    assert game.observations(0)[-1].capture_square == chess.D5
    assert white.count == 1 and game.board in white


def test_rbc_opponent_may_castle_through_attack() -> None:
    game = rbc.ReconChess(fen="r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    rbc_play(game, "sense:-", "e8g8")
    white = RbcInference.from_observations(0, game.observations(0))
    assert game.board in white
    rights = {board.castling_rights & chess.BB_RANK_8 for board, _ in white.positions()}
    assert 0 in rights and chess.BB_A8 | chess.BB_H8 in rights and chess.BB_A8 in rights


def test_rbc_opponent_promotion_to_any_piece() -> None:
    game = rbc.ReconChess(fen="4k3/8/8/8/8/8/6p1/4K3 b - - 0 1")
    rbc_play(game, "sense:-", "g2g1n")
    white = RbcInference.from_observations(0, game.observations(0))
    assert white.count == 5 + 4 + 1  # king d8 f8 d7 e7 f7; g1 = Q, R, B or N; the pass
    assert game.board in white
    assert white.type_probabilities(chess.KNIGHT)[chess.G1] == pytest.approx(1 / 10)


# ---- hand-made positions: Blind Chess -------------------------------------------------------------------------

KING_FEN = "4k3/8/8/8/8/8/8/3R3K b - - 0 1"


def blind_play(game: blind.BlindChess, *moves: str) -> None:
    for uci in moves:
        seat = game.to_move
        assert seat is not None
        game.play(seat, blind.Attempt.parse(uci))


def test_blind_unchanged_board_only_when_an_attempt_could_fail() -> None:
    game = blind.BlindChess(KING_FEN)
    blind_play(game, "e8d7")
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=KING_FEN))
    assert white.count == 5  # the king's five squares; a king's attempt never fails, so no "unchanged"
    pawn_fen = "4k3/4p3/8/8/8/8/8/3R3K b - - 0 1"
    game = blind.BlindChess(pawn_fen)
    blind_play(game, "e7e6")
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=pawn_fen))
    assert white.count == 4 + 2 + 1  # king d8 f8 d7 f7, pawn e6 e5, and a failed diagonal (unchanged)


@pytest.mark.parametrize("king, expected", [("e8d7", 1), ("e8e7", 3)])
def test_blind_reveals_are_exact(king: str, expected: int) -> None:
    game = blind.BlindChess(KING_FEN)
    blind_play(game, king, "d1d2")
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=KING_FEN))
    # The rook looks up the d-file from d1: it shows a king on d7 (or d8); no reveal rules out d7 and d8.
    assert white.count == expected and game.board in white


def test_blind_failed_attempt_means_a_blocker() -> None:
    game = blind.BlindChess(KING_FEN)
    blind_play(game, "e8d7", "d1d8")
    assert game.observations(0)[-1].success is False
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=KING_FEN))
    assert white.count == 1 and game.board in white


def test_blind_lost_piece_keeps_only_the_captures() -> None:
    game = blind.BlindChess(ROOK_FEN)
    blind_play(game, "d8d1")
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=ROOK_FEN))
    assert white.count == 1 and game.board in white


def test_blind_bishop_reveal_on_the_first_moves() -> None:
    game = blind.BlindChess()
    blind_play(game, "e2e4", "a7a6", "f1b5")
    assert game.observations(0)[-1].reveals == ((chess.A6, chess.Piece.from_symbol("p")),)
    white = BlindInference.from_observations(0, game.observations(0))
    assert white.count == 1 and game.board in white


def test_blind_en_passant_both_ways() -> None:
    fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
    game = blind.BlindChess(fen)
    blind_play(game, "e2e4", "d4e3")
    assert game.observations(0)[-2] == blind.PieceLost(1, chess.PAWN, chess.E4)
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=fen))
    assert white.count == 1 and game.board in white
    fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
    game = blind.BlindChess(fen)
    blind_play(game, "d7d5", "e5d6")
    assert game.observations(0)[-1].capture == (chess.PAWN, chess.D5)
    white = BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=fen))
    assert white.count == 1 and game.board in white


def test_blind_custom_start_needs_start_fen() -> None:
    game = blind.BlindChess(KING_FEN)
    with pytest.raises(InferenceError, match="start_fen"):
        BlindInference.from_observations(0, game.observations(0))
    with pytest.raises(InferenceError, match="start_fen"):
        BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=chess.STARTING_FEN))
    # The seat cannot tell starts that differ only in the opponent's half: the caller must pass the right one.
    assert BlindInference.from_observations(0, game.observations(0), InferenceOptions(start_fen=ROOK_FEN)).count == 1


# ---- sampling -------------------------------------------------------------------------------------------

def rbc_random_observations(seed: int, plies: int = 40) -> tuple[Game, list[list[Any]]]:
    game = reference.random_game("rbc", seed, max_plies=plies)
    return game, [list(game.observations(0)), list(game.observations(1))]


def test_sampling_caps_the_set_and_is_reproducible() -> None:
    _, logs = rbc_random_observations(7)
    runs = []
    for seed in (3, 3, 4):
        inference = RbcInference(1, InferenceOptions(cap=200, seed=seed))
        for observation in logs[1]:
            inference.update(observation)
            assert inference.size <= 40 * 200  # an expanded set waits for the sense before it is cut
            if not inference._hold:
                assert inference.size <= 200
        assert inference.sampled and inference.count >= inference.size
        runs.append(list(inference.hypotheses()))
    assert runs[0] == runs[1] and runs[0] != runs[2]


def test_sampled_weights_keep_the_estimate() -> None:
    _, logs = rbc_random_observations(11, plies=9)
    inference = RbcInference(0, InferenceOptions(cap=10 ** 9))
    for observation in logs[0]:
        inference.update(observation)
    exact = inference.count
    assert exact > 300
    sampled = inference.copy()
    sampled.options = InferenceOptions(cap=100)
    sampled.limit()
    assert sampled.sampled and sampled.size <= 100
    assert sampled.count == pytest.approx(exact, rel=1e-6)  # systematic resampling keeps the total weight
    # The sample's heat map is close to the exact one.
    exact_map, sample_map = inference.square_probabilities(), sampled.square_probabilities()
    assert max(abs(exact_map[s] - sample_map[s]) for s in chess.SQUARES) < 0.25


def test_path_weights_of_a_long_game_never_overflow() -> None:
    """Weights count the move orders that reach a position, which grow exponentially: a game of hundreds of
    turns took them past the largest float (the sum overflowed, then every share was nan)."""
    _, logs = rbc_random_observations(7, plies=40)
    inference = RbcInference(1, InferenceOptions(cap=200, seed=3))
    for observation in logs[1][:20]:
        inference.update(observation)
    assert inference.sampled
    # As after some 250 turns of about 20 replies each.
    twin = inference.copy()
    inference._weights = inference._weights * 2.0 ** 996
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for observation in logs[1][20:]:
            inference.update(observation)
            assert np.isfinite(inference._weights).all()
            inference.count
            shares = inference.square_probabilities()
            assert all(0.0 <= shares[s] <= 1.0 + 1e-9 for s in chess.SQUARES)
            twin.update(observation)
    assert inference._weight_exponent > 0 and inference._weights.max() < 2.0 ** 700
    # Scaling down by powers of two kept every ratio: the same sample, the same shares.
    assert [h for h, _ in inference.hypotheses()] == [h for h, _ in twin.hypotheses()]
    assert inference.square_probabilities() == pytest.approx(twin.square_probabilities())
    assert inference.count >= twin.count


def test_a_tiny_cap_never_raises_and_says_when_it_lost_track() -> None:
    for seed in range(3):
        _, logs = rbc_random_observations(20 + seed, plies=40)
        for seat in (0, 1):
            inference = RbcInference(seat, InferenceOptions(cap=2, seed=seed, retries=1))
            for observation in logs[seat]:
                inference.update(observation)
                assert (inference.size == 0) == (inference.problem is not None)
                assert inference.count >= 0


# ---- the API ------------------------------------------------------------------------------------------

def test_positions_are_full_boards_for_bots() -> None:
    game, logs = rbc_random_observations(5, plies=9)
    inference = RbcInference.from_observations(1, logs[1])
    view = rbc.ReconChessView.from_observations(logs[1])
    boards = list(inference.positions())
    assert len(boards) == inference.size and all(weight == 1.0 for _, weight in boards)
    for board, _ in boards[:50]:
        assert board.occupied_co[chess.BLACK] == view.own_board.occupied_co[chess.BLACK]
        assert board.turn == game.board.turn  # type: ignore[attr-defined]
        assert board in inference and board.king(chess.WHITE) is not None
    first = next(inference.hypotheses())[0]
    assert unpack(pack(first)) == first and first in inference


def test_pickle_and_copy_are_independent() -> None:
    _, logs = rbc_random_observations(6, plies=10)
    inference = RbcInference.from_observations(0, logs[0][:-1])
    clone = pickle.loads(pickle.dumps(inference))
    duplicate = inference.copy()
    assert list(clone.hypotheses()) == list(inference.hypotheses()) == list(duplicate.hypotheses())
    duplicate.update(logs[0][-1])
    assert list(clone.hypotheses()) == list(inference.hypotheses())
    clone.update(logs[0][-1])
    assert list(clone.hypotheses()) == list(duplicate.hypotheses())


def test_summary_is_consistent() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7", "e2e4")
    summary = RbcInference.from_observations(1, game.observations(1)).summary()
    assert summary.count == 21 and not summary.sampled and summary.problem is None
    assert summary.squares == pytest.approx({s: sum(summary.by_type[t][s] for t in chess.PIECE_TYPES)
                                             for s in chess.SQUARES})
    assert pickle.loads(pickle.dumps(summary)) == summary


# ---- bad input -----------------------------------------------------------------------------------------

def test_bad_observations_raise_clear_errors() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7")
    white_log = game.observations(0)
    with pytest.raises(InferenceError, match="before GameStarted"):
        RbcInference(0).update(white_log[1])
    with pytest.raises(InferenceError, match="not seat 1"):
        RbcInference(1).update(white_log[0])
    inference = RbcInference.from_observations(0, white_log)
    with pytest.raises(InferenceError, match="not an RBC observation"):
        inference.update("e2e4")
    lying = rbc.SenseResult(0, chess.E2, ((chess.E2, None),))
    with pytest.raises(InferenceError, match="own piece"):
        RbcInference.from_observations(0, white_log[:2]).update(lying)
    impossible = rbc.MoveResult(0, chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4"), None)
    with pytest.raises(InferenceError, match="cannot answer"):
        inference.update(impossible)
    with pytest.raises(InferenceError, match="no piece"):
        inference.update(rbc.MoveResult(0, chess.Move(70, 3), None, None))
    with pytest.raises(ValueError, match="seat"):
        RbcInference(2)
    with pytest.raises(ValueError, match="cap"):
        InferenceOptions(cap=0)
    black = blind.BlindChess()
    with pytest.raises(InferenceError, match="does not have"):
        BlindInference.from_observations(1, [*black.observations(1), blind.PieceLost(0, chess.PAWN, chess.E5)])


def test_contradictory_observations_empty_the_set_without_raising() -> None:
    game = rbc.ReconChess()
    rbc_play(game, "sense:e7", "e2e4", "sense:e2", "a7a6")
    white_log = list(game.observations(0))
    # A sense that shows a black queen on e5 cannot happen after one black move.
    own = game.board.piece_map(mask=game.board.occupied_co[chess.WHITE])
    window = tuple((square, chess.Piece.from_symbol("q") if square == chess.E5 else own.get(square))
                   for square in rbc.SENSE_WINDOWS[chess.E5])
    inference = RbcInference.from_observations(0, white_log)
    inference.update(rbc.SenseResult(2, chess.E5, window))
    assert inference.size == 0 and inference.count == 0 and inference.problem
    assert inference.square_probabilities()[chess.E5] == 0.0


# ---- the array kernels against the one-position-at-a-time reference ---------------------------------------------

def _packed_columns(rows: Any) -> list[int]:
    """:func:`pack` of every column of ``rows``, made from the array's bytes in one go (pack lays the eight 64-bit
    fields side by side, lowest first): reading the columns a number at a time took most of the time of the test
    below. Checked against pack on the first and last columns."""
    data = np.ascontiguousarray(rows.T, dtype="<u8").tobytes()
    packed = [int.from_bytes(data[start:start + 64], "little") for start in range(0, len(data), 64)]
    for index in {0, len(packed) - 1} if packed else ():
        assert packed[index] == pack(tuple(int(value) for value in rows[:, index]))
    return packed


@pytest.mark.parametrize("share", [False, True], ids=["move orders", "shared"])
@pytest.mark.parametrize("kernel", ["inference_vec", "inference_jit"])
def test_the_array_expansion_equals_the_reference_expansion(monkeypatch: pytest.MonkeyPatch, kernel: str,
                                                            share: bool) -> None:
    """Every opponent turn of seeded games, expanded both by the array kernels (numpy's ``inference_vec.expand``,
    and the compiled ``inference_jit.expand``) and by ``inference_core.expand`` (one packed position at a time):
    the same successors in the same order with the same weights (sampled sets, so weights differ and merging must
    keep the largest), the same number generated. With ``share_weight`` (a bot's belief) each parent's weight is
    shared among its moves, the captures it did not make included, and merged positions add their shares (equal
    up to rounding, as the sums run in different orders)."""
    import importlib

    from app.engine import inference_core
    module = importlib.import_module(f"app.engine.{kernel}")
    if kernel == "inference_jit" and inference_core.compiled() is None:  # (one process compiles: see compiled())
        pytest.skip(f"compiled kernels unavailable: {module.WHY_NOT}")
    monkeypatch.setattr(inference_core, "kernels", lambda: module)
    original = module.expand
    compared = 0

    def both(rows: Any, weights: Any, mine: int, opponent: chess.Color, capture: int | None, ep_target: int,
             unchanged: int, branching: float = 40.0, shared: bool = False) -> Any:
        nonlocal compared
        assert shared == share
        children, child_weights, made = original(rows, weights, mine, opponent, capture, ep_target, unchanged,
                                                 branching, shared)
        parents = list(zip(_packed_columns(rows), np.asarray(weights, dtype=np.float64).tolist()))
        expected: dict[int, float] = {}
        assert inference_core.expand(parents, mine, opponent, capture, ep_target, unchanged, expected,
                                     shared) == made
        got = dict(zip(_packed_columns(children), np.asarray(child_weights, dtype=np.float64).tolist()))
        assert len(got) == children.shape[1]
        if share:
            assert list(got) == list(expected)
            assert np.allclose(list(got.values()), list(expected.values()), rtol=1e-12, atol=0)
        assert got == expected or share
        # Small sets come in the same order too (so the same samples are drawn).
        assert list(got) == list(expected)
        compared += 1
        return children, child_weights, made

    monkeypatch.setattr(module, "expand", both)
    for variant in ("rbc", "blind"):
        for seed in range(4):
            game = reference.random_game(variant, 50 + seed, max_plies=24)
            for seat in (0, 1):
                inference = new_inference(variant, seat, cap=800, seed=seed, share_weight=share)
                for observation in game.observations(seat):
                    inference.update(observation)
    assert compared > 100


def test_processes_that_ask_for_the_kernels_together_take_turns(tmp_path: Path) -> None:
    """One process at a time compiles or loads the kernels (the others then load numba's cache instead of
    compiling them again): a process asking while another holds the turn waits until it is over. (A lock file
    of its own: the checkout's may be held by another test process compiling the kernels.)"""
    from app.engine.inference_core import _one_compiler_on_this_machine
    lock_file = tmp_path / "kernels.lock"
    asker = ("import sys, time\nfrom pathlib import Path\n"
             "from app.engine.inference_core import _one_compiler_on_this_machine as turn\n"
             "print('asking', flush=True)\nwith turn(Path(sys.argv[1])):\n    print(time.monotonic(), flush=True)\n")
    with _one_compiler_on_this_machine(lock_file):
        child = subprocess.Popen([sys.executable, "-c", asker, str(lock_file)], stdout=subprocess.PIPE, text=True,
                                 cwd=Path(__file__).resolve().parent.parent)
        assert child.stdout is not None and child.stdout.readline().strip() == "asking"
        time.sleep(0.3)  # it is at the lock now, or soon: either way it may not get through before the release
        released = time.monotonic()
    got = float(child.stdout.readline())
    child.wait(30)
    assert got >= released
