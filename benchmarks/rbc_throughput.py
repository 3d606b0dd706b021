"""RBC throughput: untimed random-vs-random games, reconchess against Sightline, in one run.

reconchess: ``play_local_game(RandomBot(), RandomBot(), LocalGame(seconds_per_player=None))``.
Sightline: ``run_game`` with the referee, records and two built-in ``random`` bots.

Run by hand: ``.venv/bin/python benchmarks/rbc_throughput.py [--games N] [--seed S]``.
The goal (issue 2) is a ratio of at least 10.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


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
    from app.bots.agents import BotAgent
    from app.bots.rbc_bots import RBCRandomBot
    from app.engine.rbc import ReconChess
    from app.runner import run_game
    plies = 0
    start = time.perf_counter()
    for index in range(games):
        game = ReconChess()
        agents = [BotAgent(RBCRandomBot(seed=seed * 1000 + 2 * index), "random"),
                  BotAgent(RBCRandomBot(seed=seed * 1000 + 2 * index + 1), "random")]
        run_game(game, agents)
        plies += len(game.board.move_stack)  # type: ignore[attr-defined]
    return time.perf_counter() - start, plies / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ref_time, ref_plies = reconchess_games(args.games, args.seed)
    our_time, our_plies = sightline_games(args.games, args.seed)
    ref_rate, our_rate = args.games / ref_time, args.games / our_time
    print(f"games per engine: {args.games} (untimed, random vs random)")
    print(f"reconchess 1.6.9 play_local_game: {ref_rate:8.1f} games/s  {ref_plies:6.1f} plies/game  "
          f"{ref_time / (ref_plies * args.games) * 1e6:6.1f} us/ply")
    print(f"sightline run_game:               {our_rate:8.1f} games/s  {our_plies:6.1f} plies/game  "
          f"{our_time / (our_plies * args.games) * 1e6:6.1f} us/ply")
    print(f"ratio (games/s): {our_rate / ref_rate:.1f}x   ratio (plies/s): "
          f"{(our_plies * args.games / our_time) / (ref_plies * args.games / ref_time):.1f}x")


if __name__ == "__main__":
    main()
