"""Parade Chess Solitaire measured (docs/benchmarks.md, "The solitaires").

Run from the repository root, niced, in one process (the numbers are of a shared machine: note its load)::

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/parade_solitaire.py [--deals 500] [--proof-deals 200]

1. Over deals 1 to ``--deals``: the planner bot (level medium, what the player knows), the random bot, and the
   solver knowing every card (``--solver-seconds`` per deal): win rate and mean score of the games won.
2. Over deals 1 to ``--proof-deals``: the share the solver proves within ``--proof-seconds`` each, and the
   process's peak memory while it does.
3. Hints: the time the window's hint takes on the first position of deals 1 to ``--hint-deals``.

Each line of results is printed as it comes (JSON lines with ``--jsonl FILE`` as well), so a run cut short keeps what
it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import games  # noqa: E402  (the registry first, as every entry point)
from app.bots.base import ActionRequest  # noqa: E402
from app.games.parade.bots import ParadePlannerBot, ParadeRandomBot  # noqa: E402
from app.games.parade.rules import ParadeChess  # noqa: E402
from app.games.parade.solitaire import solve_deal  # noqa: E402

_ = games


def play(bot: Any, deal: int) -> tuple[bool, int | None, int]:
    """One game of ``bot`` on ``deal``: won, score, actions."""
    game = ParadeChess(deal, seed=0)
    bot.start(0, {})
    told = 0
    actions = 0
    while game.outcome is None and actions < 200:
        for observation in game.observations(0)[told:]:
            bot.observe(observation)
        told = len(game.observations(0))
        game.play(0, bot.act(ActionRequest(0, game.phase, game.choices())))
        actions += 1
    outcome = game.outcome
    won = outcome is not None and outcome.score is not None
    return won, (int(outcome.score) if won and outcome is not None and outcome.score is not None else None), actions


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--solver-seconds", type=float, default=2.0)
    parser.add_argument("--proof-deals", type=int, default=200)
    parser.add_argument("--proof-seconds", type=float, default=10.0)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--hint-deals", type=int, default=50)
    parser.add_argument("--hint-seconds", type=float, default=1.5, help="the window's hint time (HINT_SECONDS)")
    parser.add_argument("--jsonl", default="")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: planner, random, solver, proof, hints")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    out = open(args.jsonl, "a") if args.jsonl else None

    def emit(data: dict[str, Any]) -> None:
        line = json.dumps(data)
        print(line, flush=True)
        if out is not None:
            out.write(line + "\n")
            out.flush()

    emit({"start": time.strftime("%Y-%m-%dT%H:%M:%S"), "load": os.getloadavg(), "deals": args.deals,
          "cpus": os.cpu_count()})
    summary: dict[str, Any] = {}
    for name, make in (("planner", lambda: ParadePlannerBot(seed=1, level=args.level)),
                       ("random", lambda: ParadeRandomBot(seed=1))):
        if name in skip:
            continue
        began = time.perf_counter()
        wins, scores = 0, []
        for deal in range(1, args.deals + 1):
            won, score, actions = play(make(), deal)
            wins += won
            if score is not None:
                scores.append(score)
            emit({"part": name, "deal": deal, "won": won, "score": score, "actions": actions})
        summary[name] = {"win_rate": wins / args.deals, "mean_score_of_wins": statistics.mean(scores) if scores else None,
                         "seconds": round(time.perf_counter() - began, 1)}
        emit({"summary": name, **summary[name]})
    if "solver" not in skip:
        began = time.perf_counter()
        won, proven, scores = 0, 0, []
        for deal in range(1, args.deals + 1):
            solution, _ = solve_deal(deal, time_limit=args.solver_seconds)
            won += solution.score is not None
            proven += solution.proven
            if solution.score is not None:
                scores.append(solution.score)
            emit({"part": "solver", "deal": deal, "score": solution.score, "proven": solution.proven,
                  "ceiling": solution.ceiling, "nodes": solution.nodes, "seconds": round(solution.seconds, 2)})
        summary["solver"] = {"win_rate": won / args.deals, "mean_score_of_wins": statistics.mean(scores) if scores else None,
                             "proven": proven / args.deals, "seconds": round(time.perf_counter() - began, 1)}
        emit({"summary": "solver", **summary["solver"]})
    if "proof" not in skip:
        before = peak_mb()
        began = time.perf_counter()
        proven, impossible, times = 0, 0, []
        for deal in range(1, args.proof_deals + 1):
            solution, _ = solve_deal(deal, time_limit=args.proof_seconds)
            proven += solution.proven
            impossible += solution.proven and solution.score is None
            if solution.proven:
                times.append(solution.seconds)
            emit({"part": "proof", "deal": deal, "score": solution.score, "proven": solution.proven,
                  "ceiling": solution.ceiling, "nodes": solution.nodes, "seconds": round(solution.seconds, 2),
                  "peak_mb": round(peak_mb(), 1)})
        summary["proof"] = {"proven": proven / args.proof_deals, "proven_impossible": impossible,
                            "median_seconds_of_proven": statistics.median(times) if times else None,
                            "peak_mb_before": round(before, 1), "peak_mb_after": round(peak_mb(), 1),
                            "seconds": round(time.perf_counter() - began, 1)}
        emit({"summary": "proof", **summary["proof"]})
    if "hints" not in skip:
        from app.games.parade.rules import ParadeView
        from app.games.parade.solitaire import SOLITAIRE
        took = []
        for deal in range(1, args.hint_deals + 1):
            game = ParadeChess(deal, seed=0)
            view = ParadeView.from_observations(game.observations(0))
            began = time.perf_counter()
            action, words = SOLITAIRE.hint(view, args.hint_seconds)
            took.append(time.perf_counter() - began)
            emit({"part": "hint", "deal": deal, "seconds": round(took[-1], 3), "action": str(action), "words": words})
        summary["hints"] = {"deals": args.hint_deals, "limit": args.hint_seconds, "mean": round(statistics.mean(took), 3),
                            "max": round(max(took), 3)}
        emit({"summary": "hints", **summary["hints"]})
    emit({"end": time.strftime("%Y-%m-%dT%H:%M:%S"), "load": os.getloadavg()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
