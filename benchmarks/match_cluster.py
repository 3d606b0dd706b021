"""A match on a local Dask cluster against the same match on local referees (issue 33).

Runs ``sightline match`` as a child process (interpreter start, imports and the cluster's start included, as a
user sees it), the same seeded match twice: ``--jobs N`` and ``--scheduler local:N``, each ``--repeat`` times,
and prints the wall time of each, the games per second and the overhead per game of the cluster
((cluster - jobs) / games). Also the start and stop of an empty cluster match (one game), to tell the fixed cost
from the cost per game.

Run by hand, niced: ``nice -n 10 .venv/bin/python benchmarks/match_cluster.py [--games 200] [--workers 2]
[--variant minit] [--bots random random] [--repeat 2]``. Needs ``pip install '.[cluster]'``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(variant: str, bots: list[str], games: int, seed: int, how: list[str]) -> float:
    """Seconds for one ``sightline match`` run as a child process (records written, as a user would)."""
    with tempfile.TemporaryDirectory(prefix="sightline-bench-") as out:
        command = [sys.executable, "-m", "app", "match", "--variant", variant, "--white", bots[0], "--black",
                   bots[1], "--games", str(games), "--seed", str(seed), "--swap-colors", "--untimed", "--quiet",
                   "--out", out, *how]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
        written = len(list(Path(out).glob("*.json")))
        if written != games:
            raise SystemExit(f"{written} records for {games} games")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", default="minit")
    parser.add_argument("--bots", nargs=2, default=["random", "random"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    ways = {f"--jobs {args.workers}": ["--jobs", str(args.workers)],
            f"--scheduler local:{args.workers}": ["--scheduler", f"local:{args.workers}"]}
    print(f"{args.variant}, {args.bots[0]} vs {args.bots[1]}, {args.games} games, seed {args.seed}, "
          f"best and median of {args.repeat}")
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.repeat):  # taken in turn, so that a change of load on the machine falls on both
        for name, how in ways.items():
            times[name].append(run(args.variant, args.bots, args.games, args.seed, how))
    best = {name: min(seconds) for name, seconds in times.items()}
    for name, seconds in times.items():
        print(f"  {name:<22} {args.games} games: {min(seconds):6.2f} s (median {statistics.median(seconds):6.2f} s)  "
              f"{args.games / min(seconds):6.1f} games/s")
    jobs, cluster = best.values()
    start = {name: min(run(args.variant, args.bots, 1, args.seed, how) for _ in range(args.repeat))
             for name, how in ways.items()}
    jobs_start, cluster_start = start.values()
    print(f"  the cluster's overhead: {cluster_start - jobs_start:+.2f} s to start (best 1-game matches), "
          f"{((cluster - cluster_start) - (jobs - jobs_start)) / max(1, args.games - 1) * 1000:+.1f} ms per game "
          f"after that; the whole match at {jobs / cluster:.2f}x the throughput of --jobs")


if __name__ == "__main__":
    main()
