"""MinitChess search speed: depth reached in one second from the start, nodes per second, and peers.

The search bot's engine (``MinitSearch``: alpha-beta, transposition table, move
ordering, quiescence) gets one second from the starting position with an empty
table. Measured in the same run, for comparison:

- plain minimax: the same move generator, make/unmake and evaluation, no pruning,
  no table, no ordering, no quiescence, deepened one ply at a time for one second;
- perft: the move generator alone (moves counted per second, depth 6 from the start).

Run by hand: ``.venv/bin/python benchmarks/minit_search.py [--seconds S] [--runs N]``.
The goal is a depth of at least 6 in one second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.minit.bots import PSQ, WIN, MinitSearch  # noqa: E402
from app.games.minit.rules import KING, PROMOTION, QUEEN, MinitPosition, gen_moves, perft  # noqa: E402


class _OutOfTime(Exception):
    pass


def alpha_beta(seconds: float) -> tuple[int, int, float]:
    """(depth completed, nodes, seconds used) of the search bot's engine from the start."""
    result = MinitSearch().search(MinitPosition.start(), 64, seconds)
    return result.depth, result.nodes, result.seconds


def alpha_beta_to_depth(depth: int) -> tuple[int, float]:
    """(nodes, seconds) for the search bot's engine to complete ``depth`` from the start, empty table."""
    result = MinitSearch().search(MinitPosition.start(), depth, 600.0)
    return result.nodes, result.seconds


def plain_minimax(seconds: float) -> tuple[int, int, float]:
    """(depth completed, nodes of the completed iterations, seconds they took): negamax without pruning."""
    position = MinitPosition.start()
    board = list(position.board)
    start = time.perf_counter()
    deadline = start + seconds
    nodes = 0

    def negamax(side: int, depth: int, ply: int, ev: int) -> int:
        nonlocal nodes
        nodes += 1
        if not nodes & 255 and time.perf_counter() > deadline:
            raise _OutOfTime
        if depth == 0:
            return ev if side > 0 else -ev
        moves = gen_moves(board, side)
        if not moves:
            return ply - WIN
        enemy_king = -KING * side
        best = -10 * WIN
        for code in moves:
            origin, target = code >> 5 & 31, code & 31
            piece, victim = board[origin], board[target]
            if victim == enemy_king:
                return WIN - ply
            moved = QUEEN * side if code & PROMOTION else piece
            board[target], board[origin] = moved, 0
            score = -negamax(-side, depth - 1, ply + 1,
                             ev + PSQ[moved][target] - PSQ[piece][origin] - PSQ[victim][target])
            board[origin], board[target] = piece, victim
            best = max(best, score)
        return best

    ev = sum(PSQ[code][square] for square, code in enumerate(board) if code)
    completed, completed_nodes, completed_time = 0, 0, 0.0
    for depth in range(1, 64):
        try:
            negamax(position.side, depth, 0, ev)
        except _OutOfTime:
            break
        completed, completed_time = depth, time.perf_counter() - start
        completed_nodes = nodes
    return completed, completed_nodes, completed_time


def perft_speed(depth: int = 6) -> tuple[int, float]:
    start = time.perf_counter()
    counts = perft(MinitPosition.start(), depth)
    return sum(counts), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    searches = [alpha_beta(args.seconds) for _ in range(args.runs)]
    depth = min(run[0] for run in searches)
    rate = statistics.median(run[1] / run[2] for run in searches)
    used = statistics.median(run[2] for run in searches)
    plain_depth, plain_nodes, plain_time = plain_minimax(args.seconds)
    plain_rate = plain_nodes / plain_time if plain_time else 0.0
    moves, perft_time = perft_speed()
    same_nodes, same_time = alpha_beta_to_depth(plain_depth) if plain_depth else (0, 0.0)

    print(f"search bot engine, {args.seconds:g} s from the start, {args.runs} runs:")
    print(f"  depth reached      {depth:8d}   (goal >= 6; per run: {', '.join(str(r[0]) for r in searches)})")
    print(f"  nodes/s            {rate:8.0f}   (nodes incl. quiescence; median time used {used:.2f} s)")
    print(f"plain minimax (no pruning, same generator and evaluation), {args.seconds:g} s:")
    print(f"  depth reached      {plain_depth:8d}")
    print(f"  nodes/s            {plain_rate:8.0f}")
    print(f"perft depth 6 from the start: {moves} move sequences in {perft_time:.2f} s = "
          f"{moves / perft_time:.0f} moves/s")
    print(f"same depth {plain_depth}: alpha-beta {same_nodes} nodes in {same_time:.3f} s, "
          f"minimax {plain_nodes} nodes in {plain_time:.3f} s")
    print("ratios:")
    print(f"  time to depth {plain_depth}  minimax / alpha-beta = {plain_time / same_time if same_time else 0:.1f}")
    print(f"  depth    alpha-beta / minimax = {depth} / {plain_depth} = {depth / max(plain_depth, 1):.2f}")
    print(f"  nodes/s  alpha-beta / minimax = {rate / plain_rate if plain_rate else float('nan'):.2f}")
    print(f"  nodes/s  alpha-beta / perft moves/s = {rate / (moves / perft_time):.3f}")


if __name__ == "__main__":
    main()
