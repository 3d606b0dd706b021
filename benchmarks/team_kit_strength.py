"""Strength of the team kit games' bots: Sightline's ``engine`` team against a ``random`` team, in Telepathy Chess
and Split-Brain Chess, and the time each bot decision takes.

Run by hand, never in the test suite:

    .venv/bin/python benchmarks/team_kit_strength.py [--games 100] [--jobs 2] [--only telepathy|splitbrain]
        [--opponent random|engine] [--max-plies 300]

Game ``i`` gives the engine team White (W1, W2) when ``i`` is even and Black otherwise; every bot is seeded from
the game's number. Bots get their seat's observations only, as in ``sightline match``, and every answer is
checked against the referee's choices (an answer outside them would be reported and lose). A game still going
after ``--max-plies`` team moves is a draw. The goal is at least 90% wins against the random team; the interval
is Wilson's 95% score interval for the win rate. The time of each decision is measured around the bot's ``act``
and reported per phase (a Telepathy prediction, move or removal; a Split-Brain pick, decision, tie or promotion)
as the mean and the 95th percentile.
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

from app.bots.base import ActionRequest  # noqa: E402
from app.engine.core import Game  # noqa: E402
from app.engine.variants import game_type  # noqa: E402
from app import games  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402

KEYS = ("telepathy", "splitbrain")


def play(job: tuple[str, int, str, int]) -> tuple[str, dict[str, list[float]], int]:
    """One game: ``(result for the engine team: win/draw/loss, seconds per phase of the engine's decisions,
    team moves)``."""
    key, index, opponent, max_plies = job
    bots = games.get(key).bot_classes()
    engine_team = index % 2  # 0: the engine plays White
    game: Game = game_type(key).from_options({})
    players = []
    for seat in range(4):
        kind = "engine" if seat // 2 == engine_team else opponent
        player = bots[kind](seed=index * 4 + seat)
        player.start(seat, game.options())
        players.append(player)
    seen = [0] * 4
    times: dict[str, list[float]] = {}
    while game.outcome is None and game.ply < max_plies:
        for seat, player in enumerate(players):
            told = game.observations(seat)
            for observation in told[seen[seat]:]:
                player.observe(observation)
            seen[seat] = len(told)
        seat = game.to_move
        assert seat is not None
        choices = game.choices()
        started = time.perf_counter()
        action = players[seat].act(ActionRequest(seat, game.phase, choices))
        spent = time.perf_counter() - started
        if seat // 2 == engine_team:
            times.setdefault(game.phase, []).append(spent)
        if action not in [a for actions in choices.values() for a in actions]:
            raise AssertionError(f"{key} game {index}: {type(players[seat]).__name__} answered {action!r}")
        game.play(seat, action)
    outcome = game.outcome
    if outcome is None or outcome.team is None:
        return "draw", times, game.ply
    return ("win" if outcome.team == engine_team else "loss"), times, game.ply


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=KEYS)
    parser.add_argument("--opponent", choices=("random", "engine"), default="random")
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()
    for key in ([args.only] if args.only else KEYS):
        started = time.perf_counter()
        jobs = [(key, index, args.opponent, args.max_plies) for index in range(args.games)]
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(play, jobs)
        tally = {outcome: sum(1 for result, _, _ in results if result == outcome) for outcome in ("win", "draw",
                                                                                                   "loss")}
        low, high = wilson(tally["win"], args.games)
        print(f"{games.get(key).title}: engine team vs {args.opponent} team, {args.games} games "
              f"({time.perf_counter() - started:.0f} s)")
        print(f"  {tally['win']} wins, {tally['draw']} draws, {tally['loss']} losses: "
              f"{tally['win'] / args.games:.0%} won (95% interval {low:.0%}-{high:.0%})")
        print(f"  team moves per game: mean {statistics.mean(p for _, _, p in results):.1f}")
        phases: dict[str, list[float]] = {}
        for _, times, _ in results:
            for phase, spent in times.items():
                phases.setdefault(phase, []).extend(spent)
        for phase, spent in sorted(phases.items()):
            spent.sort()
            p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
            print(f"  {phase:>9}: {len(spent):6d} decisions, mean {statistics.mean(spent) * 1000:6.1f} ms, "
                  f"p95 {p95 * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
