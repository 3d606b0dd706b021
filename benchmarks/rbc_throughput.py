"""RBC throughput: untimed random-vs-random games, reconchess against Sightline, in one run.

reconchess: ``play_local_game(RandomBot(), RandomBot(), LocalGame(seconds_per_player=None))``.
Sightline, in process: ``run_game`` with the referee, records and two built-in ``random`` bots.
Sightline, end to end: a whole ``sightline match`` of the same games, timed two ways: ``run_match()`` called
here (from the call to its return: the referee processes start, play and stop), and the command run as a
child process (``python -m app match ... --untimed --quiet``: interpreter start and imports included).

Run by hand: ``.venv/bin/python benchmarks/rbc_throughput.py [--games N] [--seed S] [--jobs 1 2]``.
The goals: ``run_game`` at least 10x reconchess (issue 2); a whole match at least 5x (issue 12).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def reconchess_games(games: int, seed: int) -> tuple[float, float]:
    from reconchess import LocalGame, play_local_game
    from reconchess.bots.random_bot import RandomBot
    random.seed(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        game = LocalGame(seconds_per_player=None)
        play_local_game(RandomBot(), RandomBot(), game=game)
        plies += len(game.board.move_stack)
    return time.perf_counter() - start, plies / games


def sightline_games(games: int, seed: int) -> tuple[float, float]:
    from app.bots.contract import BotAgent
    from app.games.rbc.bots import RBCRandomBot
    from app.games.rbc.rules import ReconChess
    from app.hosting.runner import run_game
    plies = 0
    start = time.perf_counter()
    for index in range(games):
        game = ReconChess()
        agents = [BotAgent(RBCRandomBot(seed=seed * 1000 + 2 * index), "random"),
                  BotAgent(RBCRandomBot(seed=seed * 1000 + 2 * index + 1), "random")]
        run_game(game, agents)
        plies += len(game.board.move_stack)  # type: ignore[attr-defined]
    return time.perf_counter() - start, plies / games


def match_call(games: int, seed: int, jobs: int) -> tuple[float, float]:
    """A whole match through ``run_match`` (referee processes started, used and stopped), timed from the call."""
    from app.engine.clock import TimeControl
    from app.hosting.match import run_match
    start = time.perf_counter()
    result = run_match("rbc", "random", "random", games=games, seed=seed, control=TimeControl(None, 0), jobs=jobs)
    elapsed = time.perf_counter() - start
    assert len(result.games) == games and all(g.reason in ("king_capture", "move_limit") for g in result.games)
    return elapsed, sum(game.plies for game in result.games) / games


def match_command(games: int, seed: int, jobs: int) -> float:
    """``python -m app match`` as a child process: wall time from starting it to its exit."""
    command = [sys.executable, "-m", "app", "match", "--white", "random", "--black", "random", "--games", str(games),
               "--seed", str(seed), "--untimed", "--quiet", "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="referee processes of the matches")
    args = parser.parse_args()
    games = args.games
    ref_time, ref_plies = reconchess_games(games, args.seed)
    our_time, our_plies = sightline_games(games, args.seed)
    matches = [(jobs, match_call(games, args.seed, jobs), match_command(games, args.seed, jobs))
               for jobs in args.jobs]
    ref_rate, our_rate = games / ref_time, games / our_time
    print(f"games per engine: {games} (untimed, random vs random)")
    print(f"reconchess 1.6.9 play_local_game: {ref_rate:8.1f} games/s  {ref_plies:6.1f} plies/game  "
          f"{ref_time / (ref_plies * games) * 1e6:6.1f} us/ply   {ref_time:6.2f} s")
    print(f"sightline run_game:               {our_rate:8.1f} games/s  {our_plies:6.1f} plies/game  "
          f"{our_time / (our_plies * games) * 1e6:6.1f} us/ply   {our_time:6.2f} s")
    print(f"ratio (games/s): {our_rate / ref_rate:.1f}x   ratio (plies/s): "
          f"{(our_plies * games / our_time) / (ref_plies * games / ref_time):.1f}x")
    print("sightline match, end to end (against the reconchess loop's time):")
    for jobs, (call_time, call_plies), command_time in matches:
        print(f"  --jobs {jobs}: run_match() {call_time:6.2f} s  ({call_plies:5.1f} plies/game)  "
              f"{ref_time / call_time:4.1f}x   |   python -m app match {command_time:6.2f} s  "
              f"{ref_time / command_time:4.1f}x")


if __name__ == "__main__":
    main()
