"""Soundness of the inference at game scale: the heat map never calls a square empty where an enemy piece stands.

Games between capturing bots (``benchmarks/belief.py``: ``soundness``); at every decision point of either seat,
its inference, kept up to date as the window keeps it, is checked against the referee's true position:

- every true enemy piece has heat above 0 on its square, for any piece and for its type, and lies inside the
  sound reach (:mod:`app.engine.inference_reach`); so does every piece of every position held;
- an exact set holds the true position.

At a tiny cap, which forces estimates from nearly the first move, and at the window's cap. Two planted bugs
(an opponent move missing from the successors; the same move missing from the reach) must be caught.
The larger run by hand, with the figures of docs/benchmarks.md: ``benchmarks/belief.py --soundness``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import chess
import pytest

from app.engine import inference_core, inference_vec
from app.games.rbc import rules as rbc
from app.engine.inference import InferenceOptions
from app.games.rbc.inference import RbcInference
from app.inference_jobs import WINDOW_OPTIONS, new_inference

ROOT = Path(__file__).resolve().parents[1]


def _load_benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("belief_benchmark", ROOT / "benchmarks" / "belief.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["belief_benchmark"] = module
    spec.loader.exec_module(module)
    return module


benchmark = _load_benchmark()

TINY = {"cap": 12}


def assert_sound(figures: Any) -> None:
    assert figures.shown_impossible == 0, figures.failures[:5]
    assert figures.reach_misses == 0, figures.failures[:5]
    assert figures.exact_without_truth == 0, figures.failures[:5]


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_a_tiny_cap_estimates_but_never_shows_a_true_piece_impossible(variant: str) -> None:
    figures = benchmark.soundness(variant, range(30), TINY, max_plies=120)
    assert_sound(figures)
    assert figures.games == 30 and figures.enemy_squares > 3000
    # The cap forces estimates, and the samples usually lose the truth: the reach is what keeps the map sound.
    assert figures.sampled_decisions > figures.exact_decisions
    assert figures.sampled_with_truth < figures.sampled_decisions


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_at_the_window_settings_exact_sets_hold_the_truth_and_estimates_stay_sound(variant: str) -> None:
    figures = benchmark.soundness(variant, range(30), WINDOW_OPTIONS, max_plies=14 if variant == "rbc" else 10)
    assert_sound(figures)
    assert figures.games == 30 and figures.exact_decisions > 100


def test_a_successor_dropped_from_the_sets_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernels the window uses here (compiled, or numpy without numba), ready before the games start.
    kernel = inference_core.compiled() or inference_core.kernels()
    original = kernel.expand

    def planted(rows: Any, weights: Any, mine: int, opponent: chess.Color, capture: int | None, ep_target: int,
                unchanged: int, branching: float = 40.0) -> Any:
        """The real successors, less those where the opponent's e-pawn just made its double step."""
        children, child_weights, made = original(rows, weights, mine, opponent, capture, ep_target, unchanged)
        landing = chess.E3 if opponent == chess.WHITE else chess.E6
        keep = children[inference_vec.EP] != landing
        return children[:, keep], child_weights[keep], made

    monkeypatch.setattr(kernel, "expand", planted)
    figures = benchmark.soundness("rbc", range(30), WINDOW_OPTIONS, max_plies=14)
    assert figures.exact_without_truth > 0


def test_a_move_dropped_from_the_reach_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = inference_core.after_turn

    def planted(reach: Any, mine: int, opponent: chess.Color, capture: int | None, ep_target: int) -> Any:
        grown = original(reach, mine, opponent, capture, ep_target)
        double_steps = (reach[0] & chess.BB_RANK_2) << 16 if opponent == chess.WHITE else \
            (reach[0] & chess.BB_RANK_7) >> 16
        return (grown[0] & ~double_steps, *grown[1:])

    monkeypatch.setattr(inference_core, "after_turn", planted)
    figures = benchmark.soundness("rbc", range(30), TINY, max_plies=60)
    assert figures.reach_misses > 0 and figures.shown_impossible > 0


# ---- the summary's figures -----------------------------------------------------------------------------------

def test_the_count_range_of_an_estimate_holds_the_exact_count() -> None:
    checked = 0
    for seed in range(6):
        game = benchmark.random_game("rbc", 300 + seed, max_plies=11)
        for seat in (0, 1):
            exact = new_inference("rbc", seat, {"cap": 10 ** 9})
            estimated = new_inference("rbc", seat, {"cap": 30, "seed": seed})
            for observation in game.observations(seat):
                exact.update(observation)
                estimated.update(observation)
                low, high = estimated.count_range()
                assert low <= exact.count <= high, (seed, seat, observation)
                assert low <= estimated.count <= high
                summary = estimated.summary()
                assert (summary.count_low, summary.count_high) == (low, high)
                assert summary.exact == (not estimated.sampled)
                if estimated.sampled:
                    checked += 1
                    assert summary.problem or summary.count_text().startswith("between ")
                    # What the exact set allows, the estimate never rules out.
                    for index, possible in enumerate(exact.possible_by_type()):
                        assert possible & ~summary.possible_by_type[index + 1] == 0
                else:
                    assert exact.count == estimated.count == low == high
    assert checked > 10


def test_an_exact_summary_marks_exactly_the_squares_of_the_positions() -> None:
    game = rbc.ReconChess()
    game.play(0, rbc.Sense(chess.E7))
    game.play(0, rbc.MoveAction(chess.Move.from_uci("e2e4")))
    black = RbcInference.from_observations(1, game.observations(1), InferenceOptions(cap=1000))
    summary = black.summary()
    assert summary.exact and summary.count == summary.count_low == summary.count_high == 21
    assert summary.is_possible(chess.E4, chess.PAWN) and summary.is_possible(chess.F3, chess.KNIGHT)
    assert not summary.is_possible(chess.E5) and not summary.is_possible(chess.F3, chess.BISHOP)
    assert summary.count_text() == "21 positions possible"
    for square in chess.SQUARES:
        assert (summary.squares[square] > 0) == summary.is_possible(square)
