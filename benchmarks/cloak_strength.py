"""Strength of the Cloak and Dagger bots: ``deduce`` against ``random`` and ``greedy``.

Run by hand, never in the test suite:

    .venv/bin/python benchmarks/cloak_strength.py --games 100 --jobs 1 [--level medium] [--seed 0]
        [--only random|greedy|deduce-easy|deduce-medium] [--time 60+1 | --untimed] [--max-plies 400]

Each game runs in its own forked process through ``app.hosting.runner.run_game`` (the
function ``sightline match`` runs): the same clocks, time losses and forfeits (an
illegal answer loses the game and is reported). Game ``i`` gives White to the bot
under test when ``i`` is even; every bot is seeded from the game's number. A game
still going after ``--max-plies`` turns is a draw. The goals are 95% wins against
``random`` and 80% against ``greedy``; the interval is Wilson's 95% score interval
for the win rate. Per-move time is measured around each call of the bot under test
(every phase: arrangement, guess, move, bonus, uncloak) and reported as the mean
and the 95th percentile.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.connection
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.contract import BotAgent  # noqa: E402
from app.bots.base import ActionRequest, Bot  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Action, Game  # noqa: E402
from app.games.cloak import rules  # noqa: E402
from app.games.cloak.bots import CloakDeduceBot, CloakGreedyBot, CloakRandomBot  # noqa: E402
from app.hosting.runner import run_game, seed_everything  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402

GOALS = {"random": 0.95, "greedy": 0.80}
OPPONENTS: dict[str, tuple[type[Bot], str]] = {
    "random": (CloakRandomBot, "medium"),
    "greedy": (CloakGreedyBot, "medium"),
    # Not part of the goals: the deduce bot at a lower level, to see what the levels are worth.
    "deduce-easy": (CloakDeduceBot, "easy"),
    "deduce-medium": (CloakDeduceBot, "medium"),
}
DEFAULT_OPPONENTS = ("random", "greedy")


def referee_class() -> type[Game]:
    """The Cloak and Dagger referee: the game's registered type, or the rules module's Game subclass."""
    try:
        from app.engine.variants import game_type
        return game_type("cloak")
    except Exception:  # noqa: BLE001 - not registered yet: find it in the rules module
        for value in vars(rules).values():
            if isinstance(value, type) and issubclass(value, Game) and getattr(value, "variant", "") == "cloak":
                return value
        raise


class TimedBot:
    """Wraps a bot's ``act`` to record how long each answer took (regular moves apart from other answers)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seconds: list[float] = []
        self.move_seconds: list[float] = []
        inner = bot.act

        def act(request: ActionRequest) -> Action:
            started = time.perf_counter()
            action = inner(request)
            spent = time.perf_counter() - started
            self.seconds.append(spent)
            if isinstance(action, rules.Move):
                self.move_seconds.append(spent)
            return action

        bot.act = act  # type: ignore[method-assign]


def _play(opponent: str, level: str, index: int, seed: int, control: TimeControl | None, max_plies: int,
          sender: Any) -> None:
    """One game in a child process: sends (index, result for deduce, reason, detail, plies, per-call seconds)."""
    try:
        seed_everything(seed)
        bot_white = index % 2 == 0
        deduce = CloakDeduceBot(seed=seed * 2 + (0 if bot_white else 1), level=level)
        other_class, other_level = OPPONENTS[opponent]
        other = other_class(seed=seed * 2 + (1 if bot_white else 0), level=other_level)
        timed = TimedBot(deduce)
        agents = [BotAgent(deduce, "deduce"), BotAgent(other, opponent)]
        if not bot_white:
            agents.reverse()
        game = referee_class().from_options({})
        record = run_game(game, agents, control, seed, max_plies=max_plies)
        result = record.result
        assert result is not None
        bot_seat = 0 if bot_white else 1
        outcome = "draw" if result.winner is None else ("win" if result.winner == bot_seat else "loss")
        sender.send((index, outcome, result.reason.value, result.detail, game.ply, timed.seconds,
                     timed.move_seconds))
    except BaseException as error:  # noqa: BLE001 - reported as an error game
        sender.send((index, "error", "error", f"{type(error).__name__}: {error}", 0, [], []))
    finally:
        sender.close()


def run(opponent: str, level: str, games: int, seed: int, control: TimeControl | None, max_plies: int,
        jobs: int) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    results: dict[int, tuple[str, str, str, int]] = {}
    seconds: list[float] = []
    move_seconds: list[float] = []
    waiting = list(range(games))
    running: dict[int, tuple[Any, Any]] = {}
    started = time.perf_counter()
    while waiting or running:
        while waiting and len(running) < jobs:
            index = waiting.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_play, args=(opponent, level, index, seed + index, control,
                                                          max_plies, sender), daemon=True)
            process.start()
            sender.close()
            running[index] = (process, receiver)
        ready = multiprocessing.connection.wait([entry[1] for entry in running.values()]
                                                + [entry[0].sentinel for entry in running.values()], timeout=5.0)
        for index, (process, receiver) in list(running.items()):
            if receiver not in ready and process.sentinel not in ready:
                continue
            outcome = None
            try:
                if receiver.poll():
                    outcome = receiver.recv()
            except (EOFError, OSError):
                outcome = None
            if outcome is None:
                if process.is_alive():
                    continue
                outcome = (index, "error", "crash", f"the game's process died (exit {process.exitcode})", 0, [],
                           [])
            _, result, reason, detail, plies, times, move_times = outcome
            results[index] = (result, reason, detail, plies)
            seconds.extend(times)
            move_seconds.extend(move_times)
            process.join(1.0)
            receiver.close()
            del running[index]
            colour = "White" if index % 2 == 0 else "Black"
            print(f"  game {index + 1:3d} ({colour:5s}): {result:5s} {reason:22s} {plies:4d} turns  {detail[:80]}",
                  flush=True)
    counts = {key: sum(1 for r in results.values() if r[0] == key) for key in ("win", "draw", "loss", "error")}
    return {**counts, "games": len(results), "minutes": (time.perf_counter() - started) / 60,
            "calls": summary(seconds), "moves": summary(move_seconds),
            "plies": statistics.fmean(r[3] for r in results.values()) if results else 0.0}


def summary(seconds: list[float]) -> tuple[float, float, float, int]:
    """Mean, 95th percentile, maximum and count of ``seconds``.

    >>> summary([0.1, 0.2, 0.3])
    (0.2, 0.2, 0.3, 3)
    """
    if not seconds:
        return 0.0, 0.0, 0.0, 0
    ordered = sorted(seconds)
    return (round(statistics.fmean(ordered), 6), ordered[int(0.95 * (len(ordered) - 1))], ordered[-1],
            len(ordered))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=tuple(OPPONENTS),
                        help="play only this opponent (default: random and greedy, the goals' matches)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=400)
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time", default="60+1", help="seconds+increment for both sides (default 60+1)")
    timing.add_argument("--untimed", action="store_true")
    args = parser.parse_args(argv)
    control = None
    if not args.untimed:
        initial, _, increment = args.time.partition("+")
        control = TimeControl(float(initial), float(increment or 0))
    print(f"cloak strength: deduce:{args.level}, {args.games} games a match, colours alternating, "
          f"{'untimed' if control is None else args.time} for both sides, {args.jobs} at once, seed {args.seed}, "
          f"draw after {args.max_plies} turns")
    print(f"machine: {os.cpu_count()} cores, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"Python {sys.version.split()[0]}")
    rows = []
    for opponent in ([args.only] if args.only else DEFAULT_OPPONENTS):
        print(f"deduce:{args.level} vs {opponent}")
        rows.append((opponent, run(opponent, args.level, args.games, args.seed, control, args.max_plies,
                                   args.jobs)))
    print()
    print(f"{'opponent':13s} {'W':>4s} {'D':>4s} {'L':>4s} {'err':>4s}  {'win rate':>8s}  {'95% interval':>15s}  "
          f"{'goal':>5s}  turns  time")
    for opponent, r in rows:
        n = r["games"]
        rate = r["win"] / n if n else 0.0
        low, high = wilson(r["win"], n)
        goal = GOALS.get(opponent)
        verdict = "no goal" if goal is None else "goal reached" if rate >= goal else "goal not reached"
        print(f"{opponent:13s} {r['win']:4d} {r['draw']:4d} {r['loss']:4d} {r['error']:4d}  {rate:8.1%}  "
              f"[{low:6.1%}, {high:6.1%}]  {'' if goal is None else f'{goal:.0%}':>5s}  "
              f"{r['plies']:5.0f}  {r['minutes']:.1f} min ({verdict})")
    print()
    print(f"{'opponent':13s} {'answers':>8s} {'mean s':>7s} {'p95 s':>7s} {'max s':>7s}   {'moves':>6s} {'mean s':>7s} "
          f"{'p95 s':>7s} {'max s':>7s}")
    for opponent, r in rows:
        calls, moves = r["calls"], r["moves"]
        print(f"{opponent:13s} {calls[3]:8d} {calls[0]:7.3f} {calls[1]:7.3f} {calls[2]:7.3f}   {moves[3]:6d} "
              f"{moves[0]:7.3f} {moves[1]:7.3f} {moves[2]:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
