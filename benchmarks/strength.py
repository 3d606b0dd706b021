"""Strength of the built-in bots: matches with colours swapped, win/draw/loss and a 95% interval.

Run by hand, never in the test suite (it takes hours at real time controls):

    STOCKFISH_EXECUTABLE=/usr/games/stockfish .venv/bin/python benchmarks/strength.py --games 20 --jobs 2 \\
        --time 120+2 [--suite rbc|blind|minit|all] [--only trout] [--level hard] [--seed 0]

The matches and the goals of the bots issue:

- RBC, ``sightline:belief:LEVEL`` against reconchess's RandomBot (goal 99%),
  AttackerBot (95%) and TroutBot (80%; needs Stockfish, skipped without it);
- Blind Chess, ``sightline:belief:LEVEL`` against the built-in ``random`` and
  ``greedy`` bots (90%);
- MinitChess, ``sightline:search:LEVEL`` against a fixed 2-ply searcher (90%): the
  same engine without its tuning (``tuned=False``: no null move, no reductions),
  searching exactly two plies plus captures, whatever its clock says. Both are
  deterministic, so each pair of games starts after 4 random plies (the same for
  both colours).

Both sides play at the same time control (``--time``, or ``--untimed``). Each game
runs in its own process (forked; ``--jobs`` at once) through ``app.hosting.runner.run_game``,
the function ``sightline match`` runs in its workers: the same clocks, time
losses and forfeits. Game ``i`` gives White to the bot under test when ``i`` is
even. The interval is Wilson's score interval for the win rate; the score counts a
draw as half a win. The machine is usually busy: say so with the figures.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import multiprocessing.connection
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.hosting.agents import BotSpec  # noqa: E402
from app.bots.contract import Agent, BotAgent  # noqa: E402
from app.bots.base import ActionRequest  # noqa: E402
from app.games.minit.bots import MinitSearchBot  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Action  # noqa: E402
from app.games.minit.rules import MinitMove  # noqa: E402
from app.engine.variants import game_type  # noqa: E402
from app.hosting.runner import run_game, seed_everything  # noqa: E402

FIXED_TWO_PLY = "fixed-2ply"


class FixedTwoPlyBot(MinitSearchBot):
    """MinitChess baseline: the untuned search, exactly two plies (plus its capture search), no noise."""

    def act(self, request: ActionRequest) -> Action:
        moves = self._choices(request)
        result = self.searcher.search(self.view.position, 2, 60.0, tuned=False)
        return MinitMove(result.move if result.move in moves else moves[0])


@dataclass(frozen=True)
class Match:
    key: str
    variant: str
    bot: str
    opponent: str
    goal: float
    needs_stockfish: bool = False
    opening_plies: int = 0
    """Random plies played before the bots start (MinitChess: both engines are deterministic, so without
    them every game with the same colours would be the same game). Games 2k and 2k+1 share an opening."""


def matches(level: str) -> list[Match]:
    rbc = f"sightline:belief:{level}"
    return [
        Match("random", "rbc", rbc, "reconchess.bots.random_bot", 0.99),
        Match("attacker", "rbc", rbc, "reconchess.bots.attacker_bot", 0.95),
        Match("trout", "rbc", rbc, "reconchess.bots.trout_bot", 0.80, needs_stockfish=True),
        Match("blind-random", "blind", f"sightline:belief:{level}", "random", 0.90),
        Match("blind-greedy", "blind", f"sightline:belief:{level}", "greedy", 0.90),
        Match("minit-2ply", "minit", f"sightline:search:{level}", FIXED_TWO_PLY, 0.90, opening_plies=4),
    ]


def _agent(text: str, variant: str, seed: int) -> Agent:
    if text == FIXED_TWO_PLY:
        return BotAgent(FixedTwoPlyBot(seed=seed, level="hard"), FIXED_TWO_PLY)
    return BotSpec(text, variant).create(seed)


def _play(match: Match, index: int, seed: int, control: TimeControl | None, sender: Any) -> None:
    """One game, in a child process: sends (index, result for the bot under test, reason, detail, plies)."""
    try:
        seed_everything(seed)
        bot_white = index % 2 == 0
        names = (match.bot, match.opponent) if bot_white else (match.opponent, match.bot)
        agents = [_agent(name, match.variant, seed * 2 + seat) for seat, name in enumerate(names)]
        game = game_type(match.variant).from_options(opening(match, index))
        max_plies = 1000 if match.variant == "blind" else None
        record = run_game(game, agents, control, seed, max_plies=max_plies)
        result = record.result
        assert result is not None
        bot_seat = 0 if bot_white else 1
        outcome = "draw" if result.winner is None else ("win" if result.winner == bot_seat else "loss")
        sender.send((index, outcome, result.reason.value, result.detail, game.ply))
    except BaseException as error:  # noqa: BLE001 - reported as an error game
        sender.send((index, "error", "error", f"{type(error).__name__}: {error}", 0))
    finally:
        sender.close()


def opening(match: Match, index: int) -> dict[str, Any]:
    """The game's options: a MinitChess start after ``match.opening_plies`` random plies (seeded by the pair)."""
    if not match.opening_plies:
        return {}
    from app.games.minit.rules import MinitPosition
    rng = random.Random(1000 + index // 2)
    while True:
        position = MinitPosition.start()
        for _ in range(match.opening_plies):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position = position.play(rng.choice(moves))
        else:
            if position.outcome() is None and position.legal_moves():
                return {"position": str(position)}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% score interval for a proportion.

    >>> [round(x, 3) for x in wilson(20, 20)]
    [0.839, 1.0]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(match: Match, games: int, seed: int, control: TimeControl | None, jobs: int,
        per_game_limit: float) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    results: dict[int, tuple[str, str, str, int]] = {}
    waiting = list(range(games))
    running: dict[int, tuple[Any, Any, float]] = {}
    started = time.perf_counter()
    while waiting or running:
        while waiting and len(running) < jobs:
            index = waiting.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_play, args=(match, index, seed + index, control, sender), daemon=True)
            process.start()
            sender.close()
            running[index] = (process, receiver, time.monotonic())
        ready = multiprocessing.connection.wait([entry[1] for entry in running.values()]
                                                + [entry[0].sentinel for entry in running.values()], timeout=5.0)
        for index, (process, receiver, begun) in list(running.items()):
            outcome = None
            if receiver in ready or process.sentinel in ready:
                try:
                    if receiver.poll():
                        outcome = receiver.recv()
                except (EOFError, OSError):
                    outcome = None
                if outcome is None and not process.is_alive():
                    outcome = (index, "error", "crash", f"the game's process died (exit {process.exitcode})", 0)
            if outcome is None and time.monotonic() - begun > per_game_limit:
                process.kill()
                outcome = (index, "error", "hung", f"no result after {per_game_limit:.0f} s", 0)
            if outcome is not None:
                _, result, reason, detail, plies = outcome
                results[index] = (result, reason, detail, plies)
                process.join(1.0)
                receiver.close()
                del running[index]
                colour = "White" if index % 2 == 0 else "Black"
                print(f"  game {index + 1:3d} ({colour:5s}): {result:5s} {reason:14s} {plies:4d} plies  {detail[:90]}",
                      flush=True)
    wins = sum(1 for r in results.values() if r[0] == "win")
    draws = sum(1 for r in results.values() if r[0] == "draw")
    losses = sum(1 for r in results.values() if r[0] == "loss")
    errors = sum(1 for r in results.values() if r[0] == "error")
    return {"wins": wins, "draws": draws, "losses": losses, "errors": errors, "games": len(results),
            "seconds": time.perf_counter() - started}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=("rbc", "blind", "minit", "all"), default="all")
    parser.add_argument("--only", help="run only the match with this key (random, attacker, trout, blind-random, "
                                       "blind-greedy, minit-2ply)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    parser.add_argument("--seed", type=int, default=0)
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time", default="120+2", help="seconds+increment for both sides (default 120+2)")
    timing.add_argument("--untimed", action="store_true")
    args = parser.parse_args(argv)
    control = None
    per_game_limit = 3600.0
    if not args.untimed:
        initial, _, increment = args.time.partition("+")
        control = TimeControl(float(initial), float(increment or 0))
        per_game_limit = 2 * float(initial) + 400 * float(increment or 0) + 600
    if "STOCKFISH_EXECUTABLE" not in os.environ:
        found = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish")
                                              else None)
        if found:
            os.environ["STOCKFISH_EXECUTABLE"] = found
    print(f"strength: {args.games} games a match, colours swapped, {'untimed' if control is None else args.time} "
          f"for both sides, {args.jobs} at once, level {args.level}, seed {args.seed}")
    print(f"machine: {os.cpu_count()} cores, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"Python {sys.version.split()[0]}; Stockfish: {os.environ.get('STOCKFISH_EXECUTABLE', 'none')}")
    rows = []
    for match in matches(args.level):
        if args.only and match.key != args.only:
            continue
        if args.suite != "all" and match.variant != args.suite:
            continue
        if match.needs_stockfish and not os.environ.get("STOCKFISH_EXECUTABLE"):
            print(f"{match.key}: skipped (TroutBot needs Stockfish: apt-get install stockfish)")
            continue
        print(f"{match.variant}: {match.bot} vs {match.opponent}")
        result = run(match, args.games, args.seed, control, args.jobs, per_game_limit)
        rows.append((match, result))
    print()
    print(f"{'match':14s} {'W':>4s} {'D':>4s} {'L':>4s} {'err':>4s}  {'win rate':>8s}  {'95% interval':>15s}  "
          f"{'score':>6s}  {'goal':>5s}  time")
    for match, r in rows:
        n = r["games"]
        rate = r["wins"] / n if n else 0.0
        low, high = wilson(r["wins"], n)
        score = (r["wins"] + 0.5 * r["draws"]) / n if n else 0.0
        verdict = "reached" if rate >= match.goal else "not reached"
        print(f"{match.key:14s} {r['wins']:4d} {r['draws']:4d} {r['losses']:4d} {r['errors']:4d}  {rate:8.1%}  "
              f"[{low:6.1%}, {high:6.1%}]  {score:6.1%}  {match.goal:5.0%}  {r['seconds'] / 60:.0f} min "
              f"(goal {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
