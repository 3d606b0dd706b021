"""The level ladder of every game's strongest bot: medium against easy and hard against medium.

Run by hand, never in the test suite:

    .venv/bin/python benchmarks/levels.py [--game rbc|blind|minit|cloak|telepathy|splitbrain|all]
        [--pair medium-easy|hard-medium|both] [--games 100] [--jobs 1] [--seed 0]
        [--time SECONDS+INC | --untimed] [--minutes M] [--max-plies N] [--first N] [--log FILE]
        [--against FILE.py:Class --level hard] [--records DIR]
    .venv/bin/python benchmarks/levels.py --merge FILE [FILE ...]

Each game is played in its own forked process through ``app.hosting.runner.run_game`` (the function behind
``sightline match``): the same clocks, time losses and forfeits. Game ``i`` gives the higher level White (in
the team games: the White team) when ``i`` is even; every bot is seeded from the game's number. Games whose
bots would play the same game again and again (MinitChess, Telepathy and Split-Brain bots are deterministic
or nearly so) start with a few random plies, the same for games ``2k`` and ``2k + 1``, so each opening is
played once with each colour. A game still going after the game's turn limit is a draw.

For each pair it prints the higher level's wins, draws and losses, its score (a win 1, a draw 1/2) with Wilson's
95% interval (the score taken as a proportion of the games: a slight overstatement of the interval's width
when there are draws), the turns a game and the time of each decision of each level (mean and 95th
percentile, measured around the bot's ``act``, every phase counted). ``--minutes`` stops starting games of a
pair after that many minutes and reports the games played. A pair can be played in pieces: ``--first N``
numbers the games from ``N`` (seeds, colours and openings follow the number), ``--log FILE`` appends each game
to a file, and ``--merge FILE ...`` prints the score lines of all the games logged. The goal of issue 26 is a
score of at least 60% for the higher level of each pair over 100 games.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import games  # noqa: E402
from app.bots.contract import BotAgent  # noqa: E402
from app.bots.base import ActionRequest, Bot  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Action, Game  # noqa: E402
from app.engine.variants import game_type  # noqa: E402
from app.hosting.runner import run_game, seed_everything  # noqa: E402
from benchmarks.strength import wilson  # noqa: E402


@dataclass(frozen=True)
class Ladder:
    """One game's strongest bot and how its level matches are played."""

    variant: str
    bot: str
    time: str | None
    """Default time control (``None``: untimed, each level then uses its own most seconds a turn)."""
    max_plies: int | None
    opening_plies: int = 0
    """Random plies (the game's own counter) before the bots take over; the same for games 2k and 2k+1."""


LADDERS: dict[str, Ladder] = {
    "rbc": Ladder("rbc", "belief", "60+1", None),
    "blind": Ladder("blind", "belief", "60+1", 1000),
    "minit": Ladder("minit", "search", "30+0.5", None, opening_plies=4),
    "cloak": Ladder("cloak", "deduce", "60+1", 400),
    "telepathy": Ladder("telepathy", "engine", None, 400, opening_plies=6),
    "splitbrain": Ladder("splitbrain", "engine", None, 300, opening_plies=4),
    "booster": Ladder("booster", "engine", "60+1", None, opening_plies=4),
}
WARM = ("rbc", "blind")
"""The games whose bots use the compiled belief kernels (see :func:`warm_up`)."""
PAIRS = {"medium-easy": ("medium", "easy"), "hard-medium": ("hard", "medium")}
AGAINST: tuple[str, Any] | None = None
"""``--against``: (its name, the bot class) playing the lower side instead of the ladder's bot."""
RECORDS: Path | None = None
"""``--records``: the folder each game's record is saved to (open one with the app's replay)."""


def load_against(spec: str) -> tuple[str, Any]:
    """The bot class ``FILE.py:Class`` names (a :class:`~app.bots.base.Bot` of the game; benchmarks only)."""
    import importlib.util
    path, _, name = spec.rpartition(":")
    module_spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if not path or module_spec is None or module_spec.loader is None:
        raise SystemExit(f"--against: cannot load {spec!r} (give FILE.py:Class)")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    cls = getattr(module, name)
    return getattr(cls, "name", name), cls


class OpeningBot(Bot):
    """Plays the game's random bot for the first ``plies`` plies of ``game`` (seeded by the opening, so both
    games of a pair open alike), then the wrapped bot. Both bots see every observation."""

    def __init__(self, inner: Bot, random_bot: Bot, game: Game, plies: int, opening_seed: int) -> None:
        super().__init__(None, inner.level)
        self.inner, self.random_bot, self.game, self.plies = inner, random_bot, game, plies
        self.opening_seed = opening_seed
        self.variant, self.name = inner.variant, inner.name  # type: ignore[misc]

    def start(self, seat: Any, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.inner.start(seat, options)
        self.random_bot.start(seat, options)

    def observe(self, observation: Any) -> None:
        self.inner.observe(observation)
        self.random_bot.observe(observation)

    def act(self, request: ActionRequest) -> Action:
        ply = self.game.ply
        if ply < self.plies:
            self.random_bot.rng = random.Random(self.opening_seed * 1000 + ply)
            return self.random_bot.act(request)
        return self.inner.act(request)

    def end(self, outcome: Any) -> None:
        self.inner.end(outcome)


def _timed(bot: Bot, log: list[float], game: Game, after_ply: int) -> None:
    """Record the seconds of each of ``bot``'s answers from ``after_ply`` on in ``log``."""
    inner = bot.act

    def act(request: ActionRequest) -> Action:
        started = time.perf_counter()
        action = inner(request)
        if game.ply >= after_ply:
            log.append(time.perf_counter() - started)
        return action

    bot.act = act  # type: ignore[method-assign]


def _play(ladder: Ladder, upper: str, lower: str, index: int, seed: int, control: TimeControl | None,
          max_plies: int | None, sender: Any) -> None:
    """One game in a child process: sends (index, result for ``upper``, reason, plies, upper's and lower's
    decision seconds)."""
    try:
        seed_everything(seed)
        game = game_type(ladder.variant).from_options({})
        teams = game.teams()
        upper_team = 0 if index % 2 == 0 else 1
        classes = games.get(ladder.variant).bot_classes()
        times: dict[str, list[float]] = {upper: [], lower: []}
        agents = []
        for seat, team in enumerate(teams):
            level = upper if team == upper_team else lower
            if AGAINST is not None and team != upper_team:
                bot: Bot = AGAINST[1](seed=seed * 4 + seat)
            else:
                bot = classes[ladder.bot](seed=seed * 4 + seat, level=level)
            _timed(bot, times[level] if upper != lower else times[upper], game, ladder.opening_plies)
            if ladder.opening_plies:
                bot = OpeningBot(bot, classes["random"](seed=seed * 4 + seat), game, ladder.opening_plies,
                                 index // 2)
            agents.append(BotAgent(bot, f"{ladder.bot}:{level}"))
        record = run_game(game, agents, control, seed, max_plies=max_plies)
        if RECORDS is not None:
            record.save(RECORDS / f"{ladder.variant}-{upper}-{lower}-{index}.json")
        result = record.result
        assert result is not None
        winning: int | None = result.team if result.team is not None else (
            teams[result.winner] if result.winner is not None else None)
        outcome = "draw" if winning is None else ("win" if winning == upper_team else "loss")
        fen = getattr(getattr(game, "board", None), "fen", None)  # the chess games' true board, for a look
        final = fen() if callable(fen) else None
        sender.send((index, outcome, f"{result.reason.value}: {result.detail}", game.ply, times[upper], times[lower],
                     final))
    except BaseException as error:  # noqa: BLE001 - reported as an error game
        sender.send((index, "error", f"{type(error).__name__}: {error}", 0, [], []))
    finally:
        sender.close()


def warm_up(ladder: Ladder, upper: str, lower: str) -> None:
    """Play a few untimed plies of the pair in this process before the games are forked from it.

    The belief bots' compiled kernels are compiled (or loaded from numba's cache) when first used, some of
    them only in the middle of a game; a game whose bot compiled one on its own clock (tens of seconds on a
    busy machine, when numba's cache does not have it yet) would lose on time, and its process would end
    before the cache was written. Every forked game inherits what was compiled here.
    """
    game = game_type(ladder.variant).from_options({})
    classes = games.get(ladder.variant).bot_classes()
    lower = lower if lower in ("easy", "medium", "hard") else upper  # --against: the ladder bot warms alone
    agents = [BotAgent(classes[ladder.bot](seed=seat, level=upper if team == 0 else lower), ladder.bot)
              for seat, team in enumerate(game.teams())]
    run_game(game, agents, None, 0, max_plies=24)


def run(ladder: Ladder, upper: str, lower: str, games_wanted: int, seed: int, control: TimeControl | None,
        max_plies: int | None, jobs: int, minutes: float | None, first: int = 0,
        log: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    if ladder.variant in WARM:
        warm_up(ladder, upper, lower)
    context = multiprocessing.get_context("fork")
    results: dict[int, tuple[str, str, int]] = {}
    upper_times: list[float] = []
    lower_times: list[float] = []
    waiting = list(range(first, first + games_wanted))
    running: dict[int, tuple[Any, Any]] = {}
    started = time.perf_counter()
    while waiting or running:
        out_of_time = minutes is not None and time.perf_counter() - started > minutes * 60
        while waiting and len(running) < jobs and not out_of_time:
            index = waiting.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_play, args=(ladder, upper, lower, index, seed + index, control,
                                                          max_plies, sender), daemon=True)
            process.start()
            sender.close()
            running[index] = (process, receiver)
        if out_of_time and not running:
            break
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
                outcome = (index, "error", f"the game's process died (exit {process.exitcode})", 0, [], [])
            _, result, reason, plies, up, low, *rest = outcome
            results[index] = (result, reason, plies)
            upper_times.extend(up)
            lower_times.extend(low)
            if log is not None:
                log({"index": index, "seed": seed + index, "result": result, "reason": reason, "plies": plies,
                     "upper_times": up, "lower_times": low, "final": rest[0] if rest else None})
            process.join(1.0)
            receiver.close()
            del running[index]
            side = "White" if index % 2 == 0 else "Black"
            print(f"  game {index + 1:3d} ({upper} {side:5s}): {result:5s} {plies:4d} turns  {reason[:90]}",
                  flush=True)
    return tally(results, upper_times, lower_times, (time.perf_counter() - started) / 60)


def tally(results: dict[int, tuple[str, str, int]], upper_times: list[float], lower_times: list[float],
          minutes: float | None) -> dict[str, Any]:
    """The counts and times of ``results`` (``minutes``: how long they took, None when not known)."""
    counts = {key: sum(1 for r in results.values() if r[0] == key) for key in ("win", "draw", "loss", "error")}
    return {**counts, "games": len(results), "minutes": minutes,
            "upper_times": summary(upper_times), "lower_times": summary(lower_times),
            "plies": statistics.fmean(r[2] for r in results.values()) if results else 0.0}


def merge(paths: list[str]) -> list[str]:
    """The score lines of the games logged (``--log``) in ``paths``, one line per game, pair and clock; a game
    logged twice (the same index) counts once, the last time."""
    groups: dict[tuple[str, str, str, str], dict[int, dict[str, Any]]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                pair = (entry["game"], entry["upper"], entry["lower"], entry["time"])
                groups.setdefault(pair, {})[entry["index"]] = entry
    lines = []
    for (key, upper, lower, text), entries in groups.items():
        results = {index: (e["result"], e["reason"], e["plies"]) for index, e in entries.items()}
        ups = [t for e in entries.values() for t in e["upper_times"]]
        lows = [t for e in entries.values() for t in e["lower_times"]]
        lines.append(f"{key} {LADDERS[key].bot} ({text}) " + score_line(upper, lower, tally(results, ups, lows, None))
                     + f"; games {min(entries)}..{max(entries)}")
    return lines


def summary(seconds: list[float]) -> tuple[float, float, int]:
    """Mean, 95th percentile and count of ``seconds``.

    >>> summary([0.1, 0.2, 0.3])
    (0.2, 0.2, 3)
    """
    if not seconds:
        return 0.0, 0.0, 0
    ordered = sorted(seconds)
    return round(statistics.fmean(ordered), 6), ordered[int(0.95 * (len(ordered) - 1))], len(ordered)


def score_line(upper: str, lower: str, r: dict[str, Any]) -> str:
    n = r["games"] - r["error"]
    points = r["win"] + 0.5 * r["draw"]
    score = points / n if n else 0.0
    low, high = wilson(points, n)
    verdict = "" if n == 0 else (" (>= 60%)" if score >= 0.6 else " (under 60%)")
    ut, lt = r["upper_times"], r["lower_times"]
    return (f"{upper} vs {lower}: {n} games, {r['win']}-{r['draw']}-{r['loss']} (W-D-L of {upper}), "
            f"errors {r['error']}, score {score:.1%} [{low:.1%}, {high:.1%}]{verdict}, {r['plies']:.0f} turns a game, "
            f"{'' if r['minutes'] is None else format(r['minutes'], '.1f') + ' min; '}"
            f"decision s: {upper} {ut[0]:.3f} / p95 {ut[1]:.3f} ({ut[2]}), "
            f"{lower} {lt[0]:.3f} / p95 {lt[1]:.3f} ({lt[2]})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=(*LADDERS, "all"), default="all")
    parser.add_argument("--pair", choices=(*PAIRS, "both"), default="both")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0,
                        help="the number of the first game (to play a pair in pieces: --first 40 --games 60)")
    parser.add_argument("--log", help="append one JSON line per game to this file (see --merge)")
    parser.add_argument("--records", metavar="DIR", help="save each game's record in this folder")
    parser.add_argument("--merge", nargs="+", metavar="LOG", help="print the score lines of logged games, and stop")
    parser.add_argument("--minutes", type=float, help="stop starting games of a pair after this many minutes")
    parser.add_argument("--max-plies", type=int, help="the turn limit (default: the game's, see LADDERS)")
    parser.add_argument("--against", metavar="FILE.py:Class",
                        help="play the ladder's bot at --level against this bot (a Bot of the game) instead")
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard"),
                        help="the ladder bot's level with --against")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time", help="seconds+increment for both sides (default: the game's, see LADDERS)")
    timing.add_argument("--untimed", action="store_true")
    args = parser.parse_args(argv)
    if args.merge:
        for line in merge(args.merge):
            print(line)
        return 0
    keys = list(LADDERS) if args.game == "all" else [args.game]
    pairs = list(PAIRS) if args.pair == "both" else [args.pair]
    global AGAINST, RECORDS
    if args.records:
        RECORDS = Path(args.records)
        RECORDS.mkdir(parents=True, exist_ok=True)
    if args.against:
        AGAINST = load_against(args.against)
        PAIRS["against"] = (args.level, AGAINST[0])
        pairs = ["against"]
    print(f"levels: {args.games} games a pair, colours alternating, {args.jobs} at once, seed {args.seed}")
    print(f"machine: {os.cpu_count()} cores, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"Python {sys.version.split()[0]}")
    lines = []
    for key in keys:
        ladder = LADDERS[key]
        text = None if args.untimed else (args.time or ladder.time)
        control = None
        if text:
            initial, _, increment = text.partition("+")
            control = TimeControl(float(initial), float(increment or 0))
        max_plies = args.max_plies if args.max_plies is not None else ladder.max_plies
        for pair in pairs:
            upper, lower = PAIRS[pair]
            print(f"{key} {ladder.bot}: {upper} vs {lower}, {text or 'untimed'}, turn limit {max_plies}, "
                  f"{ladder.opening_plies} random opening plies", flush=True)
            def log(entry: dict[str, Any], key: str = key, upper: str = upper, lower: str = lower,
                    text: str = text or "untimed") -> None:
                if args.log:
                    with open(args.log, "a", encoding="utf-8") as out:
                        out.write(json.dumps({"game": key, "upper": upper, "lower": lower, "time": text,
                                              **entry}) + "\n")

            result = run(ladder, upper, lower, args.games, args.seed, control, max_plies, args.jobs, args.minutes,
                         args.first, log)
            line = f"{key} {ladder.bot} ({text or 'untimed'}) " + score_line(upper, lower, result)
            print(line, flush=True)
            lines.append(line)
    print()
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
