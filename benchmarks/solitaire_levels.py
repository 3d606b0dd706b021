"""The levels of a one-seat game's bot against each other, deal by deal (issue 26, item 14).

A solitaire has no opponent, so "each level scores at least 60% against the level below" is read here as a paired
comparison on the same deals: each level plays the same deals (``--deal-seed``), and on each deal the higher
level *wins* when it does better than the lower one (a won game beats a lost one; of two won games, the higher
score), *loses* when it does worse, and *draws* when both do the same. The score counts a draw as half, as in
``benchmarks/levels.py``; the interval is Wilson's. Also printed for each level: its win rate, the mean score of
its wins and the time of each decision (mean, 95th percentile) as the records keep it.

Run by hand, never in the test suite (niced: the machine is shared)::

    nice -n 10 .venv/bin/python benchmarks/solitaire_levels.py --game neighbour [--bot planner] [--games 100]
        [--deal-seed 1] [--jobs 1] [--out /tmp/solitaire-levels]

Games are untimed: a level that thinks for a fixed time (Parade's planner) then thinks exactly that long, so its
moves depend on the machine's load; one that counts its work (Neighbour's planner) plays the same moves anywhere.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.hosting.match import run_match  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402

LEVELS = ("easy", "medium", "hard")


def outcome(record: dict[str, Any]) -> tuple[int, float]:
    """How well a game went, comparable between levels: (1, score) for a win, (0, 0) otherwise."""
    result = record.get("result") or {}
    if result.get("winner") is None:
        return 0, 0.0
    return 1, float(result.get("score") or 0.0)


def play_level(game: str, bot: str, level: str, count: int, deal_seed: int, jobs: int,
               out: Path) -> dict[int, dict[str, Any]]:
    """Play ``count`` deals at ``level``; each game's record by its index (0-based)."""
    folder = out / level
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    started = time.monotonic()
    run_match(game, seats=[f"sightline:{bot}:{level}"], games=count, deal_seed=deal_seed, jobs=jobs,
              control=TimeControl(None, 0.0), out_dir=str(folder))
    print(f"  {level}: {count} games in {time.monotonic() - started:.0f} s", flush=True)
    return {int(path.stem.split("-")[1]) - 1: json.loads(path.read_text()) for path in folder.glob("game-*.json")}


def describe(level: str, records: dict[int, dict[str, Any]]) -> str:
    results = [outcome(record) for record in records.values()]
    wins = [score for won, score in results if won]
    low, high = wilson(len(wins), len(results))
    times = sorted(action["elapsed"] for record in records.values() for action in record["actions"]
                   if "elapsed" in action)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    mean_score = f"{statistics.fmean(wins):.1f}" if wins else "-"
    return (f"| {level} | {len(results)} | {len(wins)} ({100 * len(wins) / max(1, len(results)):.1f}%, "
            f"{100 * low:.1f}-{100 * high:.1f}%) | {mean_score} | "
            f"{statistics.fmean(times) if times else 0.0:.3f} / {p95:.3f} | {len(times)} |")


def compare(upper: str, lower: str, high: dict[int, dict[str, Any]], low: dict[int, dict[str, Any]]) -> str:
    better = equal = worse = 0
    for index in sorted(set(high) & set(low)):
        if high[index]["options"] != low[index]["options"]:
            raise SystemExit(f"game {index + 1} was dealt differently at {upper} and {lower}")
        a, b = outcome(high[index]), outcome(low[index])
        better, equal, worse = better + (a > b), equal + (a == b), worse + (a < b)
    games_played = better + equal + worse
    points = better + 0.5 * equal
    low_end, high_end = wilson(points, games_played)
    return (f"| {upper} vs {lower} | {games_played} | {better}-{equal}-{worse} | "
            f"{100 * points / max(1, games_played):.1f}% [{100 * low_end:.1f}%, {100 * high_end:.1f}%] |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a one-seat game's key (parade, neighbour, ...)")
    parser.add_argument("--bot", default="planner", help="the built-in bot whose levels are compared")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deal-seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default="/tmp/solitaire-levels")
    args = parser.parse_args()
    definition = games.get(args.game)
    if len(definition.seats) != 1:
        raise SystemExit(f"{args.game} is not a one-seat game: use benchmarks/levels.py")
    out = Path(args.out) / args.game
    print(f"solitaire levels: {definition.title}, bot {args.bot}, {args.games} deals from deal seed "
          f"{args.deal_seed}, {args.jobs} at once, untimed", flush=True)
    records = {level: play_level(args.game, args.bot, level, args.games, args.deal_seed, args.jobs, out)
               for level in LEVELS}
    print("\n| level | games | wins (95% interval) | mean score of the wins | decision s, mean / p95 | decisions |")
    print("| --- | --- | --- | --- | --- | --- |")
    for level in LEVELS:
        print(describe(level, records[level]))
    print("\n| pair | deals | better-same-worse (higher level) | score, 95% interval |")
    print("| --- | --- | --- | --- |")
    for upper, lower in (("medium", "easy"), ("hard", "medium")):
        print(compare(upper, lower, records[upper], records[lower]))


if __name__ == "__main__":
    main()
