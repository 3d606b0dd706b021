"""Strength of Booster Chess's ``engine`` bot against ``random``, and the time each of its decisions takes.

Run by hand, never in the test suite (niced: the machine is shared):

    nice -n 10 .venv/bin/python benchmarks/booster_strength.py [--games 100] [--level medium] [--jobs 1]
        [--max-plies 400] [--opponent random|engine] [--opponent-level easy|medium|hard]

``--opponent engine --opponent-level L`` plays the engine at ``--level`` against the engine at level ``L`` (each
level against the one below: issue 26's levels); the score counts a draw as half.

Game ``i`` is dealt from chance seed ``i`` and gives the engine White when ``i`` is even, Black otherwise; both
bots are seeded from ``i``. Bots are told their seat's observations only (as in ``sightline match``) and every
answer is checked against the referee's choices (an answer outside them is reported and loses). A game still going
after ``--max-plies`` turns is a draw. The goal is at least 90% wins against random; the interval is Wilson's 95%
score interval. Decision times are measured around the bot's ``act``, per part of the turn (``move``, ``boost``,
``card``), as the mean, the 95th percentile and the longest.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import games  # noqa: E402,F401  (the registry: the engine finds the game by its key)
from app.bots.base import ActionRequest  # noqa: E402
from app.games.booster.bots import BoosterEngineBot, BoosterRandomBot  # noqa: E402
from app.games.booster.rules import BoosterChess  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402


def play(job: tuple[int, str, str, int, str]) -> tuple[str, str, int, dict[str, list[float]]]:
    """One game: the engine's result (win/draw/loss), how it ended, its turns, the engine's decision times."""
    index, level, opponent, max_plies, opponent_level = job
    game = BoosterChess(seed=index)
    engine_seat = index % 2
    other = (BoosterEngineBot(seed=index + 1, level=opponent_level) if opponent == "engine"
             else BoosterRandomBot(seed=index))
    bots = {engine_seat: BoosterEngineBot(seed=index, level=level), 1 - engine_seat: other}
    for seat, bot in bots.items():
        bot.start(seat, game.options())
    told = [0, 0]
    times: dict[str, list[float]] = {"move": [], "boost": [], "card": []}
    while game.outcome is None and game.ply < max_plies:
        seat = game.to_move
        assert seat is not None
        bot = bots[seat]
        for observation in game.observations(seat)[told[seat]:]:
            bot.observe(observation)
        told[seat] = len(game.observations(seat))
        choices, phase = game.choices(), game.phase
        started = time.perf_counter()
        action = bot.act(ActionRequest(seat, phase, choices))
        if seat == engine_seat:
            times[phase].append(time.perf_counter() - started)
        if action not in [option for value in choices.values() for option in value]:
            print(f"game {index}: seat {seat} answered outside its choices: {action}", file=sys.stderr)
            return ("loss" if seat == engine_seat else "win"), "illegal answer", game.ply, times
        game.play(seat, action)
    outcome = game.outcome
    if outcome is None:
        return "draw", "turn limit", game.ply, times
    if outcome.winner is None:
        return "draw", outcome.detail, game.ply, times
    return ("win" if outcome.winner == engine_seat else "loss"), outcome.detail, game.ply, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--opponent", default="random", choices=("random", "engine"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--opponent-level", choices=("easy", "medium", "hard"),
                        help="the opposing engine's level (default: --level)")
    args = parser.parse_args(argv)
    opponent_level = args.opponent_level or args.level
    jobs = [(index, args.level, args.opponent, args.max_plies, opponent_level) for index in range(args.games)]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(play, jobs)
    else:
        results = [play(job) for job in jobs]
    elapsed = time.perf_counter() - started
    wins = sum(result == "win" for result, *_ in results)
    draws = sum(result == "draw" for result, *_ in results)
    losses = len(results) - wins - draws
    low, high = wilson(wins, len(results))
    endings: dict[str, int] = {}
    for result, detail, *_ in results:
        key = f"{result}: {detail.split(' (')[0]}"
        endings[key] = endings.get(key, 0) + 1
    turns = [plies for _, _, plies, _ in results]
    against = f"engine ({opponent_level})" if args.opponent == "engine" else args.opponent
    print(f"engine ({args.level}) vs {against}: {len(results)} games in {elapsed:.0f} s")
    print(f"wins {wins}, draws {draws}, losses {losses}: {100 * wins / len(results):.0f}% "
          f"(95% interval {100 * low:.0f}-{100 * high:.0f}%); mean turns {statistics.mean(turns):.1f}")
    score_low, score_high = wilson(wins + 0.5 * draws, len(results))
    print(f"score (a draw half): {100 * (wins + 0.5 * draws) / len(results):.1f}% "
          f"(95% interval {100 * score_low:.1f}-{100 * score_high:.1f}%)")
    for key, count in sorted(endings.items(), key=lambda item: -item[1]):
        print(f"  {count:4d}  {key}")
    every: list[float] = []
    print("| part | decisions | mean | p95 | longest |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for phase in ("move", "boost", "card"):
        values = sorted(value for _, _, _, times in results for value in times[phase])
        every += values
        if values:
            print(f"| {phase} | {len(values)} | {1000 * statistics.mean(values):.0f} ms | "
                  f"{1000 * values[int(0.95 * (len(values) - 1))]:.0f} ms | {1000 * values[-1]:.0f} ms |")
    every.sort()
    if every:
        print(f"| all | {len(every)} | {1000 * statistics.mean(every):.0f} ms | "
              f"{1000 * every[int(0.95 * (len(every) - 1))]:.0f} ms | {1000 * every[-1]:.0f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
