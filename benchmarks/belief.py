"""Belief updates: Sightline's inference against a straightforward python-chess implementation, in one run.

The reference (``NaiveRbc``, ``NaiveBlind``) keeps a set of EPD strings (full
boards: the seat's pieces and one opponent army each) and, for every
observation, rebuilds each board, tries every move action / attempt with
``board.copy()`` + ``push`` using the referee's own rule functions
(``revise_move``, ``attempt_succeeds``, ``reveals_of``, ...) and compares squares.
It is also the oracle of ``tests/test_inference.py``.

Both replay the same observation streams: seeded random games (random move
actions, random sense squares; random attempts), each seat's observations up to
the point where the reference set would pass ``--limit`` positions. The sets
are checked to be equal, so both do the same work; the rate counted is

    positions/s = sum over updates of (positions before + positions after) / seconds.

Then the time of a *refresh* at about 10,000 positions: a sense (RBC) or an own
attempt (Blind Chess) filter plus the belief board's numbers (``summary()``),
and, separately, one opponent turn expanded from about 10,000 positions.

The inference runs on its compiled kernels (``app/engine/inference_jit.py``, numba) when
they load, else on the numpy ones; the first line says which, and how long loading took.
``--numpy-scale`` replays the window-settings games on the numpy kernels too.

Run by hand: ``.venv/bin/python benchmarks/belief.py [--games N] [--limit L] [--seed S] [--numpy-scale]``.
Goals (issue): >= 50,000 positions/s on one core; a refresh within 100 ms up to 10,000 positions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.blind import rules as blind  # noqa: E402
from app.games.rbc import rules as rbc  # noqa: E402
from app.engine.inference import Inference, InferenceOptions  # noqa: E402
from app.games.blind.inference import BlindInference  # noqa: E402
from app.games.rbc.inference import RbcInference  # noqa: E402
from app.games.rbc.moves import capture_square, move_actions, revise_move, with_default_promotion  # noqa: E402


def _key(board: chess.Board) -> str:
    return board.epd(en_passant="fen")


def _board(key: str) -> chess.Board:
    return chess.Board(key + " 0 1")


class NaiveRbc:
    """RBC belief, the obvious way: a set of EPDs, each expanded with copy + push for every move action."""

    def __init__(self, seat: int) -> None:
        self.color = seat == 0
        self.keys: set[str] = set()
        self.opponent_to_move = False

    def update(self, observation: Any) -> None:
        if isinstance(observation, rbc.GameStarted):
            board = chess.Board(observation.fen)
            board.castling_rights = board.clean_castling_rights()
            self.keys = {_key(board)}
            self.opponent_to_move = board.turn != self.color
        elif isinstance(observation, rbc.TurnStarted):
            if self.opponent_to_move:
                self.keys = self._expand(observation.capture_square)
                self.opponent_to_move = False
        elif isinstance(observation, rbc.SenseResult):
            if observation.square is not None:
                window = observation.window
                self.keys = {key for key in self.keys
                             if all(_board(key).piece_at(square) == piece for square, piece in window)}
        elif isinstance(observation, rbc.MoveResult):
            kept = set()
            for key in self.keys:
                board = _board(key)
                taken = None
                if observation.requested is not None:
                    taken = revise_move(board, with_default_promotion(board, observation.requested))
                if taken == observation.taken and capture_square(board, taken) == observation.capture_square:
                    board.push(taken if taken is not None else chess.Move.null())
                    kept.add(_key(board))
            self.keys = kept
            self.opponent_to_move = True
        elif isinstance(observation, rbc.GameEnded):
            if (self.opponent_to_move and observation.outcome.reason == "king_capture"
                    and observation.outcome.winner != (0 if self.color else 1)):
                king = _board(next(iter(self.keys))).king(self.color) if self.keys else None
                self.keys = self._expand(king)

    def _expand(self, capture: int | None) -> set[str]:
        out = set()
        for key in self.keys:
            board = _board(key)
            for move in [*move_actions(board), None]:
                taken = revise_move(board, move) if move is not None else None
                if capture_square(board, taken) == capture:
                    child = board.copy(stack=False)
                    child.push(taken if taken is not None else chess.Move.null())
                    out.add(_key(child))
        return out


class NaiveBlind:
    """Blind Chess belief, the obvious way: every attempt tried on a copy of every board."""

    def __init__(self, seat: int, start_fen: str = chess.STARTING_FEN) -> None:
        self.color = seat == 0
        self.start_fen = start_fen
        self.keys: set[str] = set()
        self.opponent_to_move = False
        self.pending: int | None = None

    def update(self, observation: Any) -> None:
        if isinstance(observation, blind.GameStarted):
            board = chess.Board(self.start_fen)
            board.castling_rights = board.clean_castling_rights()
            self.keys = {_key(board)}
            self.opponent_to_move = board.turn != self.color
        elif isinstance(observation, blind.PieceLost):
            self.pending = observation.square
        elif isinstance(observation, (blind.TurnStarted, blind.TurnSkipped, blind.GameEnded)):
            if self.opponent_to_move and (not isinstance(observation, blind.GameEnded) or self.pending is not None):
                self.keys = self._expand(self.pending)
                self.pending = None
                self.opponent_to_move = False
            if isinstance(observation, blind.TurnSkipped):
                self.keys = {_key(_pushed(_board(key), None)) for key in self.keys}
                self.opponent_to_move = True
        elif isinstance(observation, blind.AttemptResult):
            kept = set()
            for key in self.keys:
                board = _board(key)
                move = observation.move
                if blind.attempt_succeeds(board, move) != observation.success:
                    continue
                if observation.success:
                    if (blind.capture_of(board, move) != observation.capture
                            or set(blind.reveals_of(board, move)) != set(observation.reveals)):
                        continue
                    kept.add(_key(_pushed(board, move)))
                else:
                    kept.add(_key(_pushed(board, None)))
            self.keys = kept
            self.opponent_to_move = True

    def _expand(self, capture: int | None) -> set[str]:
        out = set()
        for key in self.keys:
            board = _board(key)
            attempts = blind.possible_attempts(board, board.turn)
            if not attempts:
                out.add(_key(_pushed(board, None)))
            for move in attempts:
                if blind.attempt_succeeds(board, move):
                    captured = blind.capture_of(board, move)
                    if (captured[1] if captured else None) == capture:
                        out.add(_key(_pushed(board, move)))
                elif capture is None:
                    out.add(_key(_pushed(board, None)))
        return out


def _pushed(board: chess.Board, move: chess.Move | None) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move if move is not None else chess.Move.null())
    return child


def keys_of(inference: Inference) -> set[str]:
    """The inference's set in the reference's form (EPD of each full board)."""
    return {_key(board) for board, _ in inference.positions()}


# ---- workloads ---------------------------------------------------------------------------------------

def random_game(variant: str, seed: int, max_plies: int = 60,
                fen: str = chess.STARTING_FEN) -> rbc.ReconChess | blind.BlindChess:
    """A seeded random game: random sense squares and move actions (RBC), random attempts (Blind Chess)."""
    rng = random.Random(seed)
    game: rbc.ReconChess | blind.BlindChess = rbc.ReconChess(fen=fen) if variant == "rbc" else blind.BlindChess(fen)
    while game.outcome is None and game.ply < max_plies:
        seat = game.to_move
        assert seat is not None
        if isinstance(game, rbc.ReconChess):
            if game.phase == "sense":
                game.play(seat, rbc.Sense(rng.randrange(64)))
            else:
                actions = game.move_actions()
                index = rng.randrange(len(actions) + 1)
                game.play(seat, rbc.MoveAction(actions[index] if index < len(actions) else None))
        else:
            game.play(seat, blind.Attempt(rng.choice(game.attempts())))
    return game


def streams(variant: str, games: int, seed: int, limit: int) -> Iterator[tuple[int, list[Any]]]:
    """Each seat's observations of each game, cut once the reference set holds more than ``limit``."""
    for index in range(games):
        game = random_game(variant, seed * 1000 + index)
        for seat in (0, 1):
            naive = NaiveRbc(seat) if variant == "rbc" else NaiveBlind(seat)
            observations: list[Any] = []
            for observation in game.observations(seat):
                if len(naive.keys) > limit:
                    break
                naive.update(observation)
                observations.append(observation)
            yield seat, observations


def replay(variant: str, work: list[tuple[int, list[Any]]], naive: bool) -> tuple[float, int, list[set[str]]]:
    """Seconds, positions (in + out, summed over updates) and the final sets of one implementation."""
    seconds, positions, finals = 0.0, 0, []
    for seat, observations in work:
        start = time.perf_counter()
        if naive:
            reference = NaiveRbc(seat) if variant == "rbc" else NaiveBlind(seat)
            for observation in observations:
                before = len(reference.keys)
                reference.update(observation)
                positions += before + len(reference.keys)
            seconds += time.perf_counter() - start
            finals.append(reference.keys)
        else:
            cls = RbcInference if variant == "rbc" else BlindInference
            inference = cls(seat, InferenceOptions(cap=10 ** 9))
            for observation in observations:
                before = inference.size
                inference.update(observation)
                positions += before + inference.size
            seconds += time.perf_counter() - start
            finals.append(keys_of(inference))
    return seconds, positions, finals


def big_set(variant: str, target: int, seed: int) -> tuple[Inference, Any, Inference, Any]:
    """Two inferences from random games: one holding about ``target`` positions before an observation that
    filters (RBC sense / Blind own attempt), one holding about ``target`` before an opponent turn."""
    filtering = expanding = None
    for index in range(200):
        game = random_game(variant, seed * 7777 + index, max_plies=40)
        for seat in (0, 1):
            cls = RbcInference if variant == "rbc" else BlindInference
            inference = cls(seat, InferenceOptions(cap=10 ** 9))
            for observation in game.observations(seat):
                filters = isinstance(observation, (rbc.SenseResult, blind.AttemptResult))
                expands = isinstance(observation, (rbc.TurnStarted, blind.TurnStarted)) and inference.opponent_to_move
                if target * 0.7 <= inference.size <= target * 1.5:
                    if filters and filtering is None:
                        filtering = (inference.copy(), observation)
                    if expands and expanding is None:
                        expanding = (inference.copy(), observation)
                if inference.size > target * 3:
                    break
                inference.update(observation, limit=False)
            if filtering and expanding:
                return filtering[0], filtering[1], expanding[0], expanding[1]
    raise SystemExit(f"no {variant} set of about {target} positions found")


# ---- soundness at game scale: the heat map against the true position ----------------------------------------

@dataclass
class Soundness:
    """What :func:`soundness` saw over its games, at every decision point of either seat."""

    games: int = 0
    decisions: int = 0
    enemy_squares: int = 0
    shown_impossible: int = 0
    """True enemy pieces on a square whose heat (any piece, or that piece's type) was 0: must stay 0."""
    sample_only_misses: int = 0
    """True enemy pieces that no held position has (what a map drawn from the held positions alone, as before
    the reach, would have shown as impossible)."""
    reach_misses: int = 0
    """True enemy pieces, or pieces of a held position, outside the sound reach: must stay 0."""
    exact_decisions: int = 0
    exact_without_truth: int = 0
    """Exact sets that did not hold the true position: must stay 0."""
    sampled_decisions: int = 0
    sampled_with_truth: int = 0
    empty_sets: int = 0
    sizes: list[int] = field(default_factory=list)
    update_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def report(self) -> str:
        sizes = sorted(self.sizes) or [0]
        times = sorted(self.update_ms) or [0.0]
        share = self.shown_impossible / max(1, self.enemy_squares)
        return (f"{self.games} games, {self.decisions} decision points ({self.exact_decisions} exact, "
                f"{self.sampled_decisions} estimated), {self.enemy_squares} true enemy pieces checked\n"
                f"  shown impossible: {self.shown_impossible} ({share:.2%}); held positions alone would show "
                f"{self.sample_only_misses} ({self.sample_only_misses / max(1, self.enemy_squares):.2%}); "
                f"outside the reach: {self.reach_misses}; "
                f"exact sets without the truth: {self.exact_without_truth}; truth in the sample at "
                f"{self.sampled_with_truth}/{self.sampled_decisions} estimated decisions; empty sets: "
                f"{self.empty_sets}\n"
                f"  positions held at decisions: median {sizes[len(sizes) // 2]:,}, max {sizes[-1]:,}; "
                f"update p50 {times[len(times) // 2]:.1f} ms, p99 {times[int(len(times) * 0.99)]:.1f} ms, "
                f"max {times[-1]:.1f} ms ({len(times)} updates)")


def aggressive_bots(variant: str, seed: int, kind: str = "aggressive") -> list[Any]:
    """Capturing bots (RBC attacker, Blind greedy) for both seats on even seeds; against a random bot on odd.
    ``kind="random"``: random bots for both (long games, large sets)."""
    from app.games.blind.bots import BlindGreedyBot, BlindRandomBot
    from app.games.rbc.bots import RBCAttackerBot, RBCRandomBot
    if kind == "random":
        bot: Any = RBCRandomBot if variant == "rbc" else BlindRandomBot
        return [bot(seed=2 * seed), bot(seed=2 * seed + 1)]
    strong: Any = RBCAttackerBot if variant == "rbc" else BlindGreedyBot
    weak: Any = RBCRandomBot if variant == "rbc" else BlindRandomBot
    second = strong if seed % 2 == 0 else weak
    return [strong(seed=2 * seed), second(seed=2 * seed + 1)] if seed % 4 < 2 else \
        [second(seed=2 * seed), strong(seed=2 * seed + 1)]


def soundness(variant: str, seeds: range, options: dict[str, Any], max_plies: int = 200,
              figures: Soundness | None = None, bots: str = "aggressive") -> Soundness:
    """Play games between aggressive bots; at every decision point of either seat, check its inference (kept
    up to date as a window keeps it, with ``options``) against the referee's true position."""
    from app.bots.base import ActionRequest
    from app.engine.core import Reason
    from app.engine.inference import opponent_key
    from app.engine.inference_vec import union as _union
    from app.inference_jobs import new_inference
    figures = figures or Soundness()
    for seed in seeds:
        game: Any = rbc.ReconChess() if variant == "rbc" else blind.BlindChess()
        players = aggressive_bots(variant, seed, bots)
        inferences = [new_inference(variant, seat, {**options, "seed": seed}) for seat in (0, 1)]
        seen = [0, 0]
        for seat, bot in enumerate(players):
            bot.start(seat, game.options())
        figures.games += 1
        while True:
            for seat in (0, 1):
                for observation in game.observations(seat)[seen[seat]:]:
                    players[seat].observe(observation)
                    start = time.perf_counter()
                    inferences[seat].update(observation)
                    figures.update_ms.append((time.perf_counter() - start) * 1000)
                    seen[seat] += 1
            outcome = game.outcome
            if outcome is not None and outcome.reason != Reason.KING_CAPTURE:
                break
            mover = game.to_move if outcome is None else None
            for seat in (0, 1) if outcome is not None else (mover,):
                # At the end (a king captured) both seats' sets describe the final board: check them too.
                _check(figures, variant, seed, game, seat, inferences[seat], opponent_key, _union)
            if outcome is not None or game.ply >= max_plies:
                break
            game.play(mover, players[mover].act(ActionRequest(mover, game.phase, game.choices())))
    return figures


def _check(figures: Soundness, variant: str, seed: int, game: Any, seat: int, inference: Inference,
           opponent_key: Any, union: Any) -> None:
    truth = opponent_key(game.board, seat == 0)
    summary = inference.summary()
    figures.decisions += 1
    figures.sizes.append(inference.size)
    where = f"{variant} seed {seed} seat {seat} ply {game.ply}"
    if not inference.size:
        figures.empty_sets += 1
    if inference.exact:
        figures.exact_decisions += 1
        if truth not in inference:
            figures.exact_without_truth += 1
            figures.failures.append(f"{where}: the exact set lacks the true position")
    else:
        figures.sampled_decisions += 1
        figures.sampled_with_truth += truth in inference
    reach = inference.reach()
    held = union(inference._rows)
    for index, piece_type in enumerate(chess.PIECE_TYPES):
        if held[index] & ~reach[index]:
            figures.reach_misses += 1
            figures.failures.append(f"{where}: a held position has a {chess.piece_name(piece_type)} outside "
                                    f"the reach on {chess.SquareSet(held[index] & ~reach[index])!r}")
        for square in chess.SquareSet(truth[index]):
            figures.enemy_squares += 1
            figures.sample_only_misses += not held[index] & chess.BB_SQUARES[square]
            if not reach[index] & chess.BB_SQUARES[square]:
                figures.reach_misses += 1
                figures.failures.append(f"{where}: the true {chess.piece_name(piece_type)} on "
                                        f"{chess.square_name(square)} is outside the reach")
            if summary.squares.get(square, 0.0) <= 0 or summary.by_type[piece_type].get(square, 0.0) <= 0 \
                    or not summary.is_possible(square, piece_type):
                figures.shown_impossible += 1
                figures.failures.append(f"{where}: the true {chess.piece_name(piece_type)} on "
                                        f"{chess.square_name(square)} is shown impossible")


# ---- update times at game scale --------------------------------------------------------------------------

def scale(variant: str, games: int, seed: int, options: dict[str, Any], max_plies: int = 40) -> dict[str, list[
        tuple[int, float, float, float, float]]]:
    """Replay each seat's observations of seeded random games with ``options``; for each kind of update (a
    sense or own move: "filter"; an opponent turn: "turn"), (positions held before or after, whichever is
    larger; milliseconds for the update; for the update and the summary the window draws; the same two in
    processor time of the updating thread, which other jobs on the machine disturb less).

    Between updates the replay waits for the memory the kernels prepare in the background when sets start to
    grow (:func:`app.engine.inference_jit.reserve`; about a second, once a process), as a player's thinking
    time allows it in the window."""
    from app.engine import inference_core
    from app.inference_jobs import new_inference
    compiled = inference_core.compiled()
    times: dict[str, list[tuple[int, float, float, float, float]]] = {"filter": [], "turn": []}
    for index in range(games):
        game = random_game(variant, seed * 1000 + index, max_plies=max_plies)
        for seat in (0, 1):
            inference = new_inference(variant, seat, {**options, "seed": index})
            for observation in game.observations(seat):
                turn = inference.opponent_to_move and isinstance(
                    observation, (rbc.TurnStarted, rbc.GameEnded, blind.TurnStarted, blind.TurnSkipped,
                                  blind.GameEnded))
                before = inference.size
                start, start_cpu = time.perf_counter(), time.thread_time()
                inference.update(observation)
                middle, middle_cpu = time.perf_counter(), time.thread_time()
                inference.summary()
                end, end_cpu = time.perf_counter(), time.thread_time()
                times["turn" if turn else "filter"].append((max(before, inference.size), (middle - start) * 1000,
                                                            (end - start) * 1000, (middle_cpu - start_cpu) * 1000,
                                                            (end_cpu - start_cpu) * 1000))
                if compiled is not None and inference_core.kernels() is compiled:
                    compiled.wait_ready()
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report_scale(variant: str, times: dict[str, list[tuple[int, float, float, float, float]]]) -> None:
    for kind, rows in times.items():
        for low, high in ((0, 10_000), (10_000, 100_000), (100_000, 1_000_000), (1_000_000, 10 ** 9)):
            chosen = [row for row in rows if low < row[0] <= high] if low else [row for row in rows
                                                                                 if row[0] <= high]
            if not chosen:
                continue
            update, total = [row[1] for row in chosen], [row[2] for row in chosen]
            cpu_update, cpu_total = [row[3] for row in chosen], [row[4] for row in chosen]
            print(f"  {variant} {kind:6s} sets {low:>9,}..{high:>11,}: {len(chosen):5d} updates; update p50 "
                  f"{percentile(update, 0.5):6.1f} ms p99 {percentile(update, 0.99):7.1f} ms max "
                  f"{max(update):7.1f} ms; with summary p99 {percentile(total, 0.99):7.1f} ms; processor p99 "
                  f"{percentile(cpu_update, 0.99):6.1f} / {percentile(cpu_total, 0.99):6.1f} ms")


def expansion_versus_reference(variant: str, parents: int, seed: int) -> None:
    """One opponent turn from about ``parents`` positions: the compiled kernel and the numpy array kernel against
    the one-position-at-a-time kernel of the previous implementation (``inference_core.expand``), on the same
    parents; each kernel's best of three runs (memory already used once, as in a game)."""
    from app.engine import inference_core, inference_jit, inference_vec
    from app.engine.inference import pack
    _, _, expanding, _ = big_set(variant, parents, seed)
    rows, weights = expanding._rows, expanding._weights
    mine, opponent = expanding.own.occupied, not expanding.color
    unchanged = inference_core.PASS_ALWAYS if variant == "rbc" else inference_core.PASS_IF_SOME_ATTEMPT_FAILS
    items = [(pack(h), w) for h, w in expanding.hypotheses()]
    start = time.perf_counter()
    out: dict[int, float] = {}
    inference_core.expand(items, mine, opponent, None, expanding.my_ep, unchanged, out)
    old = time.perf_counter() - start
    times = {}
    for name, kernel in (("numpy arrays", inference_vec), ("compiled", inference_jit)):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            children, _, made = kernel.expand(rows, weights, mine, opponent, None, expanding.my_ep, unchanged)
            best = min(best, time.perf_counter() - start)
            assert children.shape[1] == len(out)
            del children
        times[name] = best
    print(f"  {variant} opponent turn from {rows.shape[1]:,} positions ({made:,} successors, {len(out):,} distinct): "
          f"previous kernel {old * 1000:.0f} ms, numpy arrays {times['numpy arrays'] * 1000:.0f} ms "
          f"({old / times['numpy arrays']:.1f}x), compiled {times['compiled'] * 1000:.0f} ms "
          f"({old / times['compiled']:.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--limit", type=int, default=4000, help="largest reference set in the replay")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale-games", type=int, default=4, help="games replayed at the window's settings")
    parser.add_argument("--soundness", type=int, default=0, metavar="GAMES",
                        help="also check soundness over GAMES games a variant, at the window's cap and a tiny one")
    parser.add_argument("--scale-only", action="store_true",
                        help="only the replay at the window's settings (skip the reference and single expansions)")
    parser.add_argument("--numpy-scale", action="store_true",
                        help="also replay the window-settings games on the numpy kernels (as without numba)")
    args = parser.parse_args()
    from app.engine import inference_core, inference_jit, inference_vec
    from app.inference_jobs import WINDOW_OPTIONS
    start = time.perf_counter()
    ready = inference_core.compiled() is not None
    print(f"machine: load average {', '.join(f'{x:.2f}' for x in __import__('os').getloadavg())}; "
          f"window options {WINDOW_OPTIONS}")
    print(f"compiled kernels: {'ready' if ready else inference_jit.WHY_NOT} after "
          f"{time.perf_counter() - start:.2f} s (import, then compile or load numba's cache)")
    for variant in ("rbc", "blind"):
        if args.scale_only:
            report_scale(variant, scale(variant, args.scale_games, args.seed, WINDOW_OPTIONS))
            continue
        work = list(streams(variant, args.games, args.seed, args.limit))
        naive_time, naive_positions, naive_sets = replay(variant, work, naive=True)
        our_time, our_positions, our_sets = replay(variant, work, naive=False)
        assert naive_positions == our_positions and naive_sets == our_sets, "the two implementations disagree"
        naive_rate, our_rate = naive_positions / naive_time, our_positions / our_time
        print(f"{variant}: {len(work)} observation streams, {sum(len(o) for _, o in work)} updates, "
              f"{our_positions} positions in + out")
        print(f"  python-chess reference: {naive_rate:12,.0f} positions/s  ({naive_time:6.2f} s)")
        print(f"  Sightline inference:    {our_rate:12,.0f} positions/s  ({our_time:6.2f} s)")
        print(f"  ratio: {our_rate / naive_rate:.1f}")
        filtering, observation, expanding, turn = big_set(variant, 10_000, args.seed)
        size = filtering.size
        start = time.perf_counter()
        filtering.update(observation, limit=False)
        filtering.summary()
        refresh = time.perf_counter() - start
        print(f"  refresh at {size} positions ({type(observation).__name__} + summary): {refresh * 1000:.1f} ms "
              f"-> {filtering.size} positions")
        size = expanding.size
        start = time.perf_counter()
        expanding.update(turn, limit=False)
        expand_time = time.perf_counter() - start
        made, distinct = expanding.last_work, expanding.size
        expanding.options = InferenceOptions(cap=10_000)
        start = time.perf_counter()
        expanding.limit()
        sample_time = time.perf_counter() - start
        start = time.perf_counter()
        expanding.summary()
        summary_time = time.perf_counter() - start
        print(f"  opponent turn from {size} positions: expand {expand_time * 1000:.1f} ms ({made} successors, "
              f"{distinct} distinct); sample to {expanding.size}: {sample_time * 1000:.1f} ms; summary of "
              f"{expanding.size} positions (count, heat map, 6 piece maps): {summary_time * 1000:.1f} ms")
        for parents in (10_000, 50_000):
            expansion_versus_reference(variant, parents, args.seed)
        report_scale(variant, scale(variant, args.scale_games, args.seed, WINDOW_OPTIONS))
        if args.numpy_scale:
            compiled_kernels = inference_core._compiled
            inference_core._compiled = False  # kernels() now answers inference_vec
            try:
                print(f"  the same on the numpy kernels ({inference_vec.__name__}):")
                report_scale(variant, scale(variant, args.scale_games, args.seed, WINDOW_OPTIONS))
            finally:
                inference_core._compiled = compiled_kernels
    for variant in ("rbc", "blind") if args.soundness else ():
        for bots, plies in (("aggressive", 200), ("random", 60)):
            for label, options in (("window", WINDOW_OPTIONS), ("cap 5000", {"cap": 5000}), ("tiny cap 12", {"cap": 12})):
                start = time.perf_counter()
                figures = soundness(variant, range(args.soundness), options, max_plies=plies, bots=bots)
                print(f"soundness {variant}, {bots} bots (up to {plies} plies), {label} "
                      f"({time.perf_counter() - start:.0f} s): {figures.report()}", flush=True)


if __name__ == "__main__":
    main()
