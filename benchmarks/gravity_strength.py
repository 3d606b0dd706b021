"""Strength and speed of the Gravity Chess engine against ``random`` (or another level of itself).

Run by hand, never in the test suite (one process, one core):

    nice -n 10 .venv/bin/python benchmarks/gravity_strength.py --games 100 --level medium [--opponent random]
        [--opponent-level easy] [--seed 0]

Game ``i`` is dealt from chance seed ``seed + i`` and gives White to the engine when ``i`` is even; both bots are
seeded from the game's number. The bots are fed their seat's observations only, as a host feeds them, and each
answer is checked against the choices. Per-decision time is measured around each call of the engine under test
(moves, passes and placements) and reported as the mean, the 95th percentile and the maximum. The goal is 90%
wins against ``random``; the interval is Wilson's 95% score interval for the win rate.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.base import ActionRequest, Bot  # noqa: E402
from app.games.gravity.bots import GravityEngineBot, GravityRandomBot  # noqa: E402
from app.games.gravity.rules import GravityChess  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402


def play(index: int, seed: int, level: str, opponent: str, opponent_level: str,
         times: list[float]) -> tuple[int | None, tuple[float, ...]]:
    """One game; returns the engine's result (1 win, 0 draw, -1 loss... as seat-relative winner) and scores."""
    engine_seat = 0 if index % 2 == 0 else 1
    game = GravityChess(seed=seed + index)
    bots: list[Bot] = [GravityRandomBot(seed=index * 2 + seat) for seat in (0, 1)]
    bots[engine_seat] = GravityEngineBot(seed=index * 2 + engine_seat, level=level)
    if opponent == "engine":
        bots[1 - engine_seat] = GravityEngineBot(seed=index * 2 + 1 - engine_seat, level=opponent_level)
    seen = [0, 0]
    for seat, bot in enumerate(bots):
        bot.start(seat, game.options())
    while game.outcome is None:
        for seat, bot in enumerate(bots):
            for observation in game.observations(seat)[seen[seat]:]:
                bot.observe(observation)
            seen[seat] = len(game.observations(seat))
        mover = game.to_move
        assert mover is not None
        seat = mover
        choices = game.choices()
        began = time.perf_counter()
        action = bots[seat].act(ActionRequest(seat, game.phase, choices))
        if seat == engine_seat:
            times.append(time.perf_counter() - began)
        assert action in [a for actions in choices.values() for a in actions], action
        game.play(seat, action)
    outcome = game.outcome
    winner = outcome.winner
    result = None if winner is None else (1 if winner == engine_seat else -1)
    return result, outcome.scores or ()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--opponent", default="random", choices=("random", "engine"))
    parser.add_argument("--opponent-level", default="easy", choices=("easy", "medium", "hard"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    times: list[float] = []
    wins = draws = losses = 0
    margins: list[float] = []
    started = time.perf_counter()
    for index in range(args.games):
        result, points = play(index, args.seed, args.level, args.opponent, args.opponent_level, times)
        wins += result == 1
        draws += result is None
        losses += result == -1
        if points:
            mine = points[index % 2]
            margins.append(mine - points[1 - index % 2])
    low, high = wilson(wins, args.games)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    against = args.opponent if args.opponent == "random" else f"engine {args.opponent_level}"
    print(f"engine {args.level} vs {against}: {args.games} games, {wins}-{draws}-{losses} (W-D-L), "
          f"{wins / args.games:.1%} [{low:.1%}, {high:.1%}], mean margin {statistics.mean(margins):+.1f} points")
    print(f"decisions: {len(times)}, mean {statistics.mean(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms; wall {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
