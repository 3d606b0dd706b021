"""Cooperative Chess 2: how well the bots play (run by hand, niced; results in docs/benchmarks.md).

Plays the same seeded deals (chance seeds 0 .. N-1) with a pair of ``partner`` bots, a pair of ``random`` bots,
and the solitaire with each, every bot told only its seat's observations, and prints per line-up: the
distribution of final scores, how often a king was captured, how often the team reached 32 (and won: a king
captured with 32 or more) and passed 50, and the partner's time per decision.

    nice -n 10 .venv/bin/python benchmarks/coop_strength.py --games 500

``--per-deal`` also prints each deal's score and whether a king was captured (to set beside what
``benchmarks/coop_bound.py`` finds on the same deal).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import games  # noqa: E402,F401  (the registry hands itself to the engine)
from app.bots.base import ActionRequest  # noqa: E402
from app.games.coop.bots import CoopPartnerBot, CoopRandomBot  # noqa: E402
from app.games.coop.rules import CoopChess  # noqa: E402
from app.games.coop.solitaire.rules import CoopSolitaire  # noqa: E402

LINEUPS = {
    "pair of partner bots": (CoopChess, CoopPartnerBot),
    "pair of random bots": (CoopChess, CoopRandomBot),
    "solitaire, partner bot": (CoopSolitaire, CoopPartnerBot),
    "solitaire, random bot": (CoopSolitaire, CoopRandomBot),
}


def play(referee: type[CoopChess], bot_class: type, seed: int, times: list[float]) -> tuple[float, bool]:
    """One game on the deal of ``seed``: its score and whether a king was captured."""
    game = referee.create({}, seed)
    bots = [bot_class(seed=seed * 7 + seat) for seat in range(len(game.seat_names))]
    told = [0] * len(bots)
    for seat, bot in enumerate(bots):
        bot.start(seat, {})
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        observations = game.observations(seat)
        for observation in observations[told[seat]:]:
            bots[seat].observe(observation)
        told[seat] = len(observations)
        started = time.perf_counter()
        action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
        times.append(time.perf_counter() - started)
        game.play(seat, action)
    assert game.outcome is not None and game.outcome.score is not None
    return game.outcome.score, game.outcome.reason.value == "king_capture"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--lineup", choices=list(LINEUPS), action="append")
    parser.add_argument("--per-deal", action="store_true",
                        help="print each deal's score and king capture (to set beside benchmarks/coop_bound.py)")
    args = parser.parse_args()
    print("| line-up | games | mean score | quartiles | king captured | reached 32 | won (king, 32+) | over 50 "
          "| time per decision (median / p95) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.lineup or list(LINEUPS):
        referee, bot_class = LINEUPS[name]
        scores, kings, wins, times = [], 0, 0, []
        for seed in range(args.games):
            score, king = play(referee, bot_class, seed, times)
            if args.per_deal:
                print(f"{name}, deal {seed}: {score:.0f}{', king captured' if king else ''}", flush=True)
            scores.append(score)
            kings += king
            wins += king and score >= 32
        n = len(scores)
        quartiles = statistics.quantiles(scores, n=4)
        times.sort()
        print(f"| {name} | {n} | {statistics.mean(scores):.1f} | {quartiles[0]:.0f} / {quartiles[1]:.0f} / "
              f"{quartiles[2]:.0f} (max {max(scores):.0f}) | {100 * kings / n:.1f}% | "
              f"{100 * sum(s >= 32 for s in scores) / n:.1f}% | {100 * wins / n:.1f}% | "
              f"{100 * sum(s > 50 for s in scores) / n:.1f}% | {1000 * times[len(times) // 2]:.0f} ms / "
              f"{1000 * times[int(len(times) * 0.95)]:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
