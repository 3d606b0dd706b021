"""The compiled inference kernels (app/engine/inference_jit.py) against the numpy ones (inference_vec.py).

Both must give the same columns, in the same order, with the same weights, for every operation the inference
uses: an opponent turn (quiet or capturing, the three pass rules), merging duplicates, keeping a filtered part
(by a mask, or by what a sense or a move result showed),
forgetting en passant and a captured piece, systematic sampling, and the heat (shares of positions per square).
The sets come from real games, both exact (weights all 1) and sampled (weights differ, so merging must keep the
largest).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest

from app.engine import inference_core, inference_jit, inference_vec
from app.engine.inference import InferenceOptions
from app.games.blind.inference import BlindInference
from app.games.rbc.inference import RbcInference
from app.engine.inference_core import PASS_ALWAYS, PASS_IF_SOME_ATTEMPT_FAILS, PASS_NEVER

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import belief as benchmark  # noqa: E402



@pytest.fixture(autouse=True, scope="module")
def _compiled_kernels() -> None:
    """The kernels, compiled or loaded when the first test here runs (not while tests are collected: every
    test process would then compile them before running anything)."""
    if inference_core.compiled() is None:
        pytest.skip(f"no compiled kernels: {inference_jit.WHY_NOT}")


def _same(a: tuple[Any, Any], b: tuple[Any, Any]) -> bool:
    return a[0].shape == b[0].shape and bool((a[0] == b[0]).all()) and bool((a[1] == b[1]).all())


def _sets(variant: str, seeds: range, plies: int, largest: int = 4000) -> list[Any]:
    """Inferences met along seeded random games, just before each opponent turn, with sets of at most
    ``largest`` positions (odd seeds sample down to 1000)."""
    found = []
    for seed in seeds:
        game = benchmark.random_game(variant, 900 + seed, max_plies=plies)
        for seat in (0, 1):
            cls = RbcInference if variant == "rbc" else BlindInference
            inference = cls(seat, InferenceOptions(cap=1000 if seed % 2 else 10 ** 6, seed=seed))
            for observation in game.observations(seat):
                if inference.opponent_to_move and 0 < inference.size <= largest:
                    found.append(inference.copy())
                elif inference.size > largest and not seed % 2:
                    break
                inference.update(observation)
    return found


@pytest.mark.parametrize("variant", ["rbc", "blind"])
def test_every_operation_gives_what_the_numpy_kernels_give(variant: str) -> None:
    rng = np.random.default_rng(7)
    checked = 0
    sampled = 0
    revealing = 0  # attempts with reveals that some positions fit
    exact_heats = 0  # heats compared for exact equality (an exact set with its own weights)
    for inference in _sets(variant, range(6), 22):
        rows, weights = inference._rows, inference._weights
        sampled += inference.sampled
        mine, opponent, ep = inference.own.occupied, not inference.color, inference.my_ep
        for unchanged in (PASS_NEVER, PASS_ALWAYS, PASS_IF_SOME_ATTEMPT_FAILS):
            numpy_out = inference_vec.expand(rows, weights, mine, opponent, None, ep, unchanged)
            # A tiny branching guess makes the kernel grow its output and its table on the way.
            for branching in (40.0, 0.01):
                compiled_out = inference_jit.expand(rows, weights, mine, opponent, None, ep, unchanged, branching)
                assert _same(numpy_out[:2], compiled_out[:2]) and numpy_out[2] == compiled_out[2]
        for square in chess.SquareSet(mine):
            numpy_out = inference_vec.expand(rows, weights, mine, opponent, square, ep, PASS_NEVER)
            compiled_out = inference_jit.expand(rows, weights, mine, opponent, square, ep, PASS_NEVER)
            assert _same(numpy_out[:2], compiled_out[:2]) and numpy_out[2] == compiled_out[2], chess.square_name(square)
        children, child_weights, _ = inference_jit.expand(rows, weights, mine, opponent, None, ep, PASS_ALWAYS)
        # The children's own weights on every other set, random ones on the rest (consecutive sets of a game
        # differ little, and checking both on every set took most of the suite's longest test).
        for some_weights in (child_weights if checked % 2 == 0 else rng.random(children.shape[1]),):
            doubled = np.concatenate([children, children[:, ::3]], axis=1)
            doubled_weights = np.concatenate([some_weights, 2 * some_weights[::3]])
            assert _same(inference_vec.unique(doubled, doubled_weights), inference_jit.unique(doubled, doubled_weights))
            mask = rng.random(children.shape[1]) < 0.4
            assert _same(inference_vec.keep(children, some_weights, mask),
                         inference_jit.keep(children, some_weights, mask))
            # The square most positions have a piece on: forgetting it changes most columns (a capture), which the
            # compiled kernel does another way than when few change.
            occupied = np.bitwise_or.reduce(children[:6], axis=0)
            busiest = max(range(64), key=lambda square: int(np.count_nonzero(occupied & np.uint64(1 << square))))
            for square in (None, chess.E4, chess.D5, chess.E1, chess.E8, chess.A8, chess.H1, busiest):
                assert _same(inference_vec.forget(children, some_weights, square),
                             inference_jit.forget(children, some_weights, square)), square
                # A move result's conditions kept in the same pass (both ways the kernel forgets).
                for keep in ((0, (0,) * 6, chess.BB_E5 | chess.BB_D4, 0, 0, 0, 0),
                             (0, (0,) * 6, 0, chess.BB_SQUARES[busiest], 0, 0, chess.D6)):
                    assert _same(inference_vec.forget(children, some_weights, square, keep),
                                 inference_jit.forget(children, some_weights, square, keep)), (square, keep)
            for count in (1, 5, children.shape[1] // 3 + 1, 2 * children.shape[1]):
                for offset in (0.0, 0.5, 0.999):
                    assert _same(inference_vec.systematic_sample(children, some_weights, count, offset),
                                 inference_jit.systematic_sample(children, some_weights, count, offset))
            # What a sense or a move result keeps: through a window, and by squares empty, full or en passant.
            column = int(rng.integers(children.shape[1]))
            for centre in (chess.E4, chess.B7, chess.G2):
                window = int(chess.BB_KING_ATTACKS[centre] | chess.BB_SQUARES[centre])
                shown = tuple(int(children[field, column]) & window for field in range(6))
                for conditions in ((0, 0, 0, 0, 0), (chess.BB_E5 | chess.BB_D4, 0, 0, 0, 0),
                                   (0, chess.BB_D5, 0, 0, 0), (0, 0, chess.BB_C6 | chess.BB_F3, 0, 0),
                                   (0, 0, 0, chess.E3, 0), (0, 0, 0, 0, chess.D6), (chess.BB_H3, 0, 0, 0, chess.C3)):
                    for seen in ((0, (0,) * 6), (window, shown)):
                        assert _same(inference_vec.select(children, some_weights, seen[0], seen[1], *conditions),
                                     inference_jit.select(children, some_weights, seen[0], seen[1], *conditions))
            # When every position fits, the set itself comes back (nothing copied).
            assert inference_jit.select(children, some_weights, 0, (0,) * 6, 0, 0, 0, 0, 0)[0] is children
            # What a Blind Chess attempt keeps: the same, a captured piece, and the pieces its lines revealed (the
            # revealed ones taken from a position of the set, so that some fit).
            theirs = np.bitwise_or.reduce(children[:6, column])
            for kind in range(6):
                origin = [chess.D4, chess.A1, chess.H8][kind % 3]
                at = np.array([origin])
                occupied = np.array([theirs | np.uint64(mine)])
                lines = {inference_vec.STRAIGHT: inference_vec.rook_attacks(at, occupied),
                         inference_vec.CASTLE: inference_vec.rook_attacks(at, occupied),
                         inference_vec.DIAGONAL: inference_vec.bishop_attacks(at, occupied),
                         inference_vec.BOTH: inference_vec.rook_attacks(at, occupied)
                         | inference_vec.bishop_attacks(at, occupied)}.get(kind, np.zeros(1, dtype=np.uint64))
                fixed = int(chess.BB_KING_ATTACKS[origin])
                revealed = int((lines[0] | np.uint64(fixed if kind in (inference_vec.FIXED, inference_vec.CASTLE)
                                                     else 0)) & theirs) if kind else 0
                shown = tuple(int(children[field, column]) & revealed for field in range(6))
                captured = int(children[0, column]) & -int(children[0, column])  # a pawn of that position
                for capture in ((-1, 0), (0, captured)):
                    for conditions in ((0, 0, 0, 0, 0), (chess.BB_E5 | chess.BB_D4, 0, 0, 0, 0),
                                       (0, chess.BB_D5, 0, 0, 0), (0, 0, chess.BB_C6 | chess.BB_F3, 0, 0),
                                       (0, 0, 0, chess.E3, 0), (0, 0, 0, 0, chess.D6)):
                        arguments = (*conditions, capture[0], capture[1], kind, fixed, revealed & ~capture[1],
                                     tuple(value & ~capture[1] for value in shown), origin, mine)
                        kept = inference_jit.sight_select(children, some_weights, *arguments)
                        assert _same(inference_vec.sight_select(children, some_weights, *arguments), kept), kind
                        revealing += bool(revealed) and 0 < kept[0].shape[1]
            # The heat: equal for equal weights (whole numbers, added exactly), up to rounding otherwise.
            numpy_shares = np.array(inference_vec.piece_shares(children, some_weights))
            compiled_shares = np.array(inference_jit.piece_shares(children, some_weights))
            if some_weights is child_weights and inference.exact:
                assert (numpy_shares == compiled_shares).all()
                exact_heats += 1
            assert np.allclose(numpy_shares, compiled_shares, rtol=1e-12, atol=1e-15)
        checked += 1
    assert checked > 30 and sampled > 5 and revealing > 30 and exact_heats > 10, \
        (checked, sampled, revealing, exact_heats)


def test_results_stay_right_while_their_memory_is_used_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Results are views into pooled buffers: a buffer is only used again when no result refers to it."""
    inference_jit.wait_ready()  # memory made ready for an earlier test would land in the pools replaced below
    monkeypatch.setattr(inference_jit, "_POOL_COLUMNS", 64)  # pool even small results
    monkeypatch.setattr(inference_jit, "_MEDIUM_COLUMNS", 16)
    for pool in ("_pool", "_weight_pool", "_medium_pool", "_medium_weight_pool"):
        monkeypatch.setattr(inference_jit, pool, [])
    inference = _sets("rbc", range(1), 12)[-1]
    rows, weights = inference._rows, inference._weights
    mine, opponent = inference.own.occupied, not inference.color
    first = inference_jit.expand(rows, weights, mine, opponent, None, 0, PASS_ALWAYS)
    assert any(first[0].base is buffer for buffer in inference_jit._pool)
    kept_rows, kept_weights = first[0].copy(), first[1].copy()
    for index in range(8):  # more results than the pool holds buffers, each different
        other = inference_jit.expand(rows, weights, mine, opponent, None, 0, index % 3)
        inference_jit.forget(other[0], np.arange(1.0, other[0].shape[1] + 1), [chess.E4, None, chess.D5][index % 3])
        inference_jit.systematic_sample(other[0], other[1], 50 + index, 0.5)
    assert (first[0] == kept_rows).all() and (first[1] == kept_weights).all()
    # A mid-sized result is copied out of its large buffer into the middle pool, not into fresh memory.
    sample = inference_jit.systematic_sample(first[0], first[1], 40, 0.5)
    assert any(sample[0].base is buffer for buffer in inference_jit._medium_pool)
    assert _same(sample, inference_vec.systematic_sample(kept_rows, kept_weights, 40, 0.5))
    again = inference_jit.systematic_sample(first[0], first[1], 41, 0.25)
    assert again[0].base is not sample[0].base  # held: not used again
    assert _same(sample, inference_vec.systematic_sample(kept_rows, kept_weights, 40, 0.5))


def test_memory_made_ready_in_advance_is_what_the_kernels_use(monkeypatch: pytest.MonkeyPatch) -> None:
    inference = _sets("rbc", range(1), 12)[-1]
    inference_jit.wait_ready()
    monkeypatch.setattr(inference_jit, "_POOL_COLUMNS", 64)  # pool even small results
    for pool in ("_pool", "_weight_pool", "_medium_pool", "_medium_weight_pool"):
        monkeypatch.setattr(inference_jit, pool, [])
    monkeypatch.setattr(inference_jit, "_tables", [])
    monkeypatch.setattr(inference_jit, "_reserved", 0)
    rows, weights = inference._rows, inference._weights
    mine, opponent = inference.own.occupied, not inference.color
    expected = int(rows.shape[1] * 40.0) + 64  # what expand asks for with its default branching
    inference_jit._reserve(expected)  # what reserve() runs on its thread
    assert len(inference_jit._pool) == 2 and all(buffer.size >= 8 * expected for buffer in inference_jit._pool)
    ready = [id(buffer) for buffer in inference_jit._pool]  # not the buffers: a reference would keep them busy
    table = inference_jit._tables[0][0]
    assert len(table) == inference_jit._table_size(expected)
    result = inference_jit.expand(rows, weights, mine, opponent, None, 0, PASS_ALWAYS)
    # Nothing new was made: the result was made in a ready buffer, with the ready table.
    assert [id(buffer) for buffer in inference_jit._pool] == ready
    assert inference_jit._tables[0][0] is table
    assert _same(result[:2], inference_vec.expand(rows, weights, mine, opponent, None, 0, PASS_ALWAYS)[:2])
    # Once per size: a second call for as much or less starts nothing.
    monkeypatch.setattr(inference_jit, "_reserved", expected)
    assert not inference_jit.reserve(expected) and not inference_jit.reserve(10)


def test_a_set_held_through_a_whole_game_matches_the_numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two inferences of the same seat, one on each kernel set, agree at every step of a game."""
    assert inference_core.compiled() is inference_jit and inference_core.kernels() is inference_jit
    game = benchmark.random_game("blind", 5, max_plies=30)
    fast = BlindInference(1, InferenceOptions(cap=2000, seed=3))
    plain = BlindInference(1, InferenceOptions(cap=2000, seed=3))
    for observation in game.observations(1):
        fast.update(observation)
        monkeypatch.setattr(inference_core, "kernels", lambda: inference_vec)
        plain.update(observation)
        monkeypatch.undo()
        assert _same((fast._rows, fast._weights), (plain._rows, plain._weights))
        assert fast.summary() == plain.summary()


def test_without_numba_the_numpy_kernels_take_over() -> None:
    code = ("from app.engine import inference_core, inference_jit, inference_vec; "
            "assert inference_core.kernels() is inference_vec; print(inference_jit.WHY_NOT)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SIGHTLINE_NO_JIT": "1"}, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert "SIGHTLINE_NO_JIT" in done.stdout


def test_a_capture_merges_positions_that_differed_only_by_what_it_took() -> None:
    """Hand-made sets where a capture on h1 leaves pairs of positions equal: one had the castling right of the
    rook taken there and the other not, or one had a rook there and the other a knight, or an en-passant square.
    Most columns are of one kind (a rook on h1, no castling right there), the case the compiled kernel looks up
    without putting into its table."""
    from app.engine.inference_core import opponent_key
    rng = np.random.default_rng(11)
    start = np.array(opponent_key(chess.Board(), chess.BLACK), dtype=np.uint64)  # White's army
    h1 = np.uint64(chess.BB_H1)
    columns = []
    for first in range(8, 16):  # two pawn moves and a knight move of the b1 knight, or none: all distinct
        for second in range(8, 16):
            for steps in (1, 2):
                for knight in (chess.B1, chess.A3, chess.C3, chess.D4):
                    column = start.copy()
                    column[0] &= ~np.uint64((1 << first) | (1 << second))
                    column[0] |= np.uint64(1 << (first + 8 * steps)) | np.uint64(1 << (second + 8))
                    column[1] = (column[1] & ~np.uint64(chess.BB_B1)) | np.uint64(chess.BB_SQUARES[knight])
                    column[6] = np.uint64(chess.BB_A1)  # the h1 rook cannot castle any more
                    columns.append(column)
    columns = [np.array(c, dtype=np.uint64) for c in sorted({tuple(c.tolist()) for c in columns})]
    distinct = len(columns)
    for twin in list(columns[:60]):
        kind = int(rng.integers(3))
        changed = twin.copy()
        if kind == 0:
            changed[6] |= h1  # the same, but the h1 rook could still castle
        elif kind == 1:
            changed[3] &= ~h1  # a knight on h1 instead of the rook
            changed[1] |= h1
        else:
            changed[7] = np.uint64(chess.E3)  # an en-passant square
        columns.insert(int(rng.integers(len(columns) + 1)), changed)
    rows = np.ascontiguousarray(np.array(columns, dtype=np.uint64).T)
    for weights in (np.ones(rows.shape[1]), rng.random(rows.shape[1])):
        expected = inference_vec.forget(rows, weights, chess.H1)
        assert expected[0].shape[1] == distinct  # every twin merged with its original
        assert 4 * (rows.shape[1] - distinct) < rows.shape[1]  # few columns of other kinds: the look-up path
        assert _same(expected, inference_jit.forget(rows, weights, chess.H1))


def test_two_threads_at_once_get_what_each_would_alone() -> None:
    """Bots of one referee process may call the kernels from two threads (a call abandoned at its deadline goes
    on while the next game starts); their shared table and buffers must not mix the two."""
    import threading
    work = [inference for inference in _sets("rbc", range(0, 4, 2), 24, largest=20_000) if inference.size > 2000]
    work = work[-4:]
    assert len(work) >= 2

    def run(inference: Any) -> Any:
        rows, weights, made = inference_jit.expand(inference._rows, inference._weights, inference.own.occupied,
                                                   not inference.color, None, inference.my_ep, PASS_ALWAYS)
        return rows.copy(), weights.copy(), made

    alone = [run(inference) for inference in work]
    together: dict[int, list[Any]] = {index: [] for index in range(len(work))}

    def repeat(index: int) -> None:
        for _ in range(4):
            together[index].append(run(work[index]))

    threads = [threading.Thread(target=repeat, args=(index,)) for index in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, results in together.items():
        for result in results:
            assert _same(result[:2], alone[index][:2]) and result[2] == alone[index][2]


def test_memory_is_made_ready_in_a_few_steps_as_sets_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    """An inference asks for memory four times a turn's successors ahead, in steps of four, never beyond
    what its options let a set reach."""
    asked: list[int] = []
    monkeypatch.setattr(inference_jit, "reserve", lambda columns: asked.append(columns) or False)
    game = benchmark.random_game("rbc", 1000, max_plies=40)  # grows past a million positions
    options = InferenceOptions(cap=10 ** 6, seed=0, expansion_limit=2 * 10 ** 6)
    inference = RbcInference(0, options)
    for observation in game.observations(0):
        inference.update(observation)
    steps = sorted(set(asked))
    assert steps and steps[0] < steps[-1] == 2 * 10 ** 6  # small steps first, then the most the options allow
    assert all(step == 2 * 10 ** 6 or step == inference_core._RESERVE_FROM * 4 ** power
               for step in steps for power in [round(np.log(step / inference_core._RESERVE_FROM) / np.log(4))])
    assert len(steps) <= 4


def test_each_kernel_is_compiled_once_for_sets_of_any_layout() -> None:
    """A contiguous set and a view into a wider array use the same machine code: numba would otherwise compile
    every kernel twice (the first start's compile took twice as long)."""
    wide = np.zeros((8, 3), dtype=np.uint64)
    wide[:, 0] = [chess.BB_RANK_2, chess.BB_B1 | chess.BB_G1, chess.BB_C1 | chess.BB_F1, chess.BB_A1 | chess.BB_H1,
                  chess.BB_D1, chess.BB_E1, chess.BB_A1 | chess.BB_H1, 0]
    for rows in (wide[:, :1], wide[:, :1].copy()):
        assert rows.flags.c_contiguous == (rows.base is None)
        inference_jit.expand(rows, np.ones(1), chess.BB_RANK_7 | chess.BB_RANK_8, chess.WHITE, None, 0, PASS_ALWAYS)
        inference_jit.materials(rows)
        inference_jit.piece_shares(rows, np.ones(1))
    for name in ("_expand", "_materials", "_piece_sums", "_unique", "_select", "_forget"):
        assert len(getattr(inference_jit, name).signatures) == 1, name
