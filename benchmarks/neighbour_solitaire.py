"""Neighbour Chess Solitaire: the ``planner`` bot and ``random`` beside the solver's full-knowledge best over the same
deals, and the solver's share of deals proven within a time limit with its memory.

Run by hand, never in the test suite (one process, one core):

    nice -n 10 .venv/bin/python benchmarks/neighbour_solitaire.py play --deals 500 --solver-seconds 1
    nice -n 10 .venv/bin/python benchmarks/neighbour_solitaire.py solve --deals 200 --seconds 10

``play``: deals 1 to N; on each, the planner (medium) and random play once (seeded from the deal number, fed only
their seat's observations, each answer checked against the choices), and the solver searches for the deal's best
score for ``--solver-seconds``. ``solve``: the solver on deals 1 to N with ``--seconds`` each; the share proven
(best score proven, or no win proven), the scores, the time, and the peak memory of the whole process (its
maximum resident set size, which includes Python itself) and the peak Python allocations of one search
(tracemalloc, taken on the hardest deal's search again). Lines of JSON go to ``--out`` as each deal ends.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.base import ActionRequest, Bot  # noqa: E402
from app.games.neighbour.bots import NeighbourPlannerBot, NeighbourRandomBot  # noqa: E402
from app.games.neighbour.rules import NeighbourChess, deal_decks  # noqa: E402
from app.games.neighbour.search import solve_state  # noqa: E402
from app.games.neighbour.state import State  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402


def play(deal: int, bot: Bot) -> tuple[bool, int]:
    """One game of ``bot`` on ``deal``: won, and the score (0 when lost)."""
    game = NeighbourChess.from_options({"deal": deal})
    bot.start(0, game.options())
    seen = 0
    while game.outcome is None:
        told = game.observations(0)
        for observation in told[seen:]:
            bot.observe(observation)
        seen = len(told)
        choices = game.choices()
        action = bot.act(ActionRequest(0, game.phase, choices))
        allowed = [a for key in ("adds", "stop", "places", "moves") for a in choices.get(key, ())]
        if action not in allowed:
            raise SystemExit(f"deal {deal}: the bot answered {action!r}, not a choice")
        game.play(0, action)
    won = game.outcome.winner == 0
    return won, int(game.outcome.score or 0) if won else 0


def summary(name: str, results: list[tuple[bool, int]]) -> str:
    wins = sum(won for won, _ in results)
    low, high = wilson(wins, len(results))
    scores = [score for won, score in results if won]
    mean_won = statistics.mean(scores) if scores else 0.0
    mean_all = statistics.mean(score for _, score in results)
    return (f"{name}: won {wins}/{len(results)} ({wins * 100 / len(results):.1f}%, "
            f"95% {low * 100:.1f}-{high * 100:.1f}%), mean score of wins {mean_won:.2f}, "
            f"mean score per deal (a loss 0) {mean_all:.2f}")


def run_play(deals: int, solver_seconds: float, out: Path | None) -> None:
    planner: list[tuple[bool, int]] = []
    randoms: list[tuple[bool, int]] = []
    solver: list[tuple[bool, int]] = []
    proven = 0
    began = time.perf_counter()
    bot_time = 0.0
    with (out.open("w") if out else open("/dev/null", "w")) as sink:
        for deal in range(1, deals + 1):
            started = time.perf_counter()
            planner.append(play(deal, NeighbourPlannerBot(seed=deal)))
            bot_time += time.perf_counter() - started
            randoms.append(play(deal, NeighbourRandomBot(seed=deal)))
            pieces, positions = deal_decks(deal)
            solution = solve_state(State.start(pieces, positions), time_limit=solver_seconds)
            solver.append((solution.score is not None, solution.score or 0))
            proven += solution.proven
            sink.write(json.dumps({"deal": deal, "planner": planner[-1], "random": randoms[-1],
                                   "solver": solution.score, "proven": solution.proven}) + "\n")
            sink.flush()
    print(f"{deals} deals, {time.perf_counter() - began:.0f} s; planner {bot_time / deals:.2f} s a game")
    print(summary("planner", planner))
    print(summary("random", randoms))
    print(summary(f"solver ({solver_seconds:g} s a deal, full knowledge)", solver) + f"; proven {proven}/{deals}")
    beaten = sum(p[1] > s[1] for p, s in zip(planner, solver))
    print(f"planner above the solver's best found: {beaten} deals (the solver's answer there is not a proof)")


def run_solve(deals: int, seconds: float, out: Path | None) -> None:
    proven_win = proven_none = unproven = 0
    times: list[float] = []
    scores: list[int] = []
    hardest = (0.0, 1)
    with (out.open("w") if out else open("/dev/null", "w")) as sink:
        for deal in range(1, deals + 1):
            pieces, positions = deal_decks(deal)
            solution = solve_state(State.start(pieces, positions), time_limit=seconds)
            times.append(solution.seconds)
            if solution.proven and solution.score is not None:
                proven_win += 1
            elif solution.proven:
                proven_none += 1
            else:
                unproven += 1
            if solution.score is not None:
                scores.append(solution.score)
            if solution.proven and solution.seconds > hardest[0]:
                hardest = (solution.seconds, deal)
            sink.write(json.dumps({"deal": deal, "score": solution.score, "proven": solution.proven,
                                   "seconds": round(solution.seconds, 3), "nodes": solution.nodes}) + "\n")
            sink.flush()
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tracemalloc.start()
    pieces, positions = deal_decks(hardest[1])
    solve_state(State.start(pieces, positions), time_limit=seconds)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    proven = proven_win + proven_none
    print(f"{deals} deals, {seconds:g} s each: proven {proven} ({proven * 100 / deals:.1f}%: "
          f"{proven_win} best score proven, {proven_none} no win proven), {unproven} not proven")
    print(f"wins found on {len(scores)} deals, mean best score {statistics.mean(scores) if scores else 0:.2f}; "
          f"time per deal median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    print(f"memory: the process's peak resident set {peak_rss:.0f} MB; one search (deal {hardest[1]}, the slowest "
          f"proven) peaks at {peak / 1e6:.1f} MB of Python allocations")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("play")
    p.add_argument("--deals", type=int, default=500)
    p.add_argument("--solver-seconds", type=float, default=1.0)
    p.add_argument("--out", type=Path)
    s = sub.add_parser("solve")
    s.add_argument("--deals", type=int, default=200)
    s.add_argument("--seconds", type=float, default=10.0)
    s.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.what == "play":
        run_play(args.deals, args.solver_seconds, args.out)
    else:
        run_solve(args.deals, args.seconds, args.out)


if __name__ == "__main__":
    main()
