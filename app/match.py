"""Headless matches: many games between two bots, in worker processes, with a progress bar.

Every game runs in a fresh worker process, so a bot that crashes the
interpreter or hangs in a loop cannot take the match down with it: the game is
scored against that bot and the match goes on.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from app.bots.agents import BotError, BotSpec
from app.engine.clock import TimeControl
from app.engine.core import Outcome, Reason
from app.engine.record import GameRecord, PlayerInfo
from app.engine.variants import game_type


@dataclass(frozen=True)
class GameJob:
    index: int
    variant: str
    options: dict[str, Any]
    white: str
    black: str
    control: TimeControl
    seed: int
    out_dir: str | None
    environment: dict[str, str] = field(default_factory=dict)  # the caller's, for bots that read it
    max_plies: int | None = None


@dataclass
class GameSummary:
    index: int
    white: str
    black: str
    winner: int | None
    reason: str
    detail: str
    plies: int
    path: str | None


def play_job(job: GameJob, on_call: Callable[[int, float | None], None] | None = None,
             report: Callable[[GameSummary], None] | None = None) -> GameSummary:
    """Play one game of a match (in a worker process) and save its record.

    ``report`` receives the summary as soon as the result is known, before the
    bots' end-of-game hooks run (a bot that crashes there changes nothing).
    """
    from app.runner import run_game, seed_everything
    seed_everything(job.seed)
    game = game_type(job.variant).from_options(job.options)
    agents = []
    for seat, text in enumerate((job.white, job.black)):
        try:
            agents.append(BotSpec(text, job.variant).create(job.seed * 2 + seat))
        except BotError as error:
            outcome = Outcome(1 - seat, Reason.FORFEIT, _shorten(str(error)))
            summary = GameSummary(job.index, job.white, job.black, outcome.winner, outcome.reason.value,
                                  outcome.detail, 0, None)
            if report is not None:
                report(summary)
            return summary
    for agent, text in zip(agents, (job.white, job.black)):
        agent.spec = text  # type: ignore[attr-defined]
    summaries: list[GameSummary] = []

    def finished(record: GameRecord) -> None:
        path = None
        if job.out_dir:
            path = str(Path(job.out_dir) / f"game-{job.index + 1:04d}.json")
            record.save(path)
        final = record.result
        assert final is not None
        summary = GameSummary(job.index, job.white, job.black, final.winner, final.reason.value,
                              _shorten(final.detail), game.ply, path)
        summaries.append(summary)
        if report is not None:
            report(summary)

    run_game(game, agents, job.control, job.seed, on_call=on_call, max_plies=job.max_plies,
             on_finished=finished)
    return summaries[0]


def _shorten(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit - 20] + f"... ({len(text)} characters)"


def _play_job_safely(job: GameJob, on_call: Callable[[int, float | None], None] | None = None,
                     report: Callable[[GameSummary], None] | None = None) -> GameSummary:
    try:
        return play_job(job, on_call, report)
    except BaseException as error:  # noqa: BLE001 - reported as a crashed game, the match goes on
        summary = GameSummary(job.index, job.white, job.black, None, "error",
                              _shorten(f"{type(error).__name__}: {error}"), 0, None)
        if report is not None:
            report(summary)
        return summary


@dataclass
class MatchResult:
    first: str
    second: str
    games: list[GameSummary] = field(default_factory=list)

    def score(self, name_a: str) -> tuple[int, int, int]:
        wins = draws = losses = 0
        for game in self.games:
            if game.winner is None:
                draws += 1
            elif (game.white if game.winner == 0 else game.black) == name_a:
                wins += 1
            else:
                losses += 1
        return wins, draws, losses


def run_match(variant: str, white: str, black: str, games: int = 1, seed: int = 0,
              control: TimeControl | None = None, options: dict[str, Any] | None = None,
              swap_colors: bool = False, jobs: int = 1, out_dir: str | None = None,
              progress: Callable[[int, int, GameSummary], None] | None = None,
              max_plies: int | None = None) -> MatchResult:
    """Play ``games`` games; ``swap_colors`` alternates who takes White; ``max_plies`` draws endless games."""
    control = control or TimeControl()
    cls = game_type(variant)
    game_options = cls.from_options(options or {}).options()
    for text in (white, black):
        BotSpec(text, variant).check()
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)  # OSError (e.g. FileExistsError for a file) goes to the caller
    job_list = []
    for index in range(games):
        a, b = (black, white) if swap_colors and index % 2 else (white, black)
        job_list.append(GameJob(index, variant, game_options, a, b, control, seed * 100003 + index, out_dir,
                                dict(os.environ), max_plies))
    result = MatchResult(white, black)
    context = _context()
    pending = list(reversed(job_list))
    running: dict[int, _Running] = {}
    done = 0

    def finish(entry: _Running, summary: GameSummary) -> None:
        nonlocal done
        running.pop(entry.process.sentinel, None)
        result.games.append(summary)
        done += 1
        if progress is not None:
            progress(done, games, summary)

    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                job = pending.pop()
                receiver, sender = context.Pipe(duplex=False)
                acting = context.Value("i", -1)
                deadline = context.Value("d", 0.0)
                process = context.Process(target=_worker, args=(job, sender, acting, deadline), daemon=True)
                process.start()
                sender.close()
                running[process.sentinel] = _Running(job, process, receiver, acting, deadline)
            # Read summaries as they arrive (a large one would otherwise block its sender), and notice
            # workers that die or overrun the time their bot was given.
            handles: list[Any] = []
            for entry in running.values():
                handles += [entry.process.sentinel, entry.receiver]
            ready = multiprocessing.connection.wait(handles, timeout=1.0)
            now = time.monotonic()
            for entry in list(running.values()):
                if entry.receiver in ready or entry.process.sentinel in ready:
                    summary = None
                    try:
                        if entry.receiver.poll():
                            summary = entry.receiver.recv()
                    except (EOFError, OSError):
                        summary = None
                    if summary is not None:
                        entry.process.join(timeout=15)
                        if entry.process.is_alive():
                            entry.process.kill()
                            entry.process.join()
                        entry.receiver.close()
                        finish(entry, summary)
                    elif not entry.process.is_alive():
                        entry.process.join()
                        entry.receiver.close()
                        finish(entry, _crashed(entry.job, entry.process.exitcode, entry.acting.value))
                elif entry.deadline.value and now > entry.deadline.value + _GRACE:
                    # The bot holds the interpreter (e.g. stuck in C code): its own clock cannot stop it.
                    entry.process.kill()
                    entry.process.join()
                    entry.receiver.close()
                    finish(entry, _overran(entry.job, entry.acting.value))
    finally:
        for entry in running.values():
            entry.process.kill()
    result.games.sort(key=lambda game: game.index)
    return result


_GRACE = 5.0  # seconds past a bot's deadline before its worker process is killed from outside


@dataclass
class _Running:
    job: GameJob
    process: Any
    receiver: Any
    acting: Any
    deadline: Any


def _overran(job: GameJob, seat: int) -> GameSummary:
    names = (job.white, job.black)
    if seat in (0, 1):
        return GameSummary(job.index, job.white, job.black, 1 - seat, Reason.TIMEOUT.value,
                           f"{names[seat]} ran out of time and did not give control back (its worker was stopped)",
                           0, None)
    return GameSummary(job.index, job.white, job.black, None, "error", "the worker process stopped answering",
                       0, None)


def _context() -> Any:
    """A fork server where there is one: workers start fast, and never inherit the threads of the caller
    (forking a process that runs threads can deadlock the child)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["app.match", "app.runner", "app.engine.variants", "chess"])
        return context
    return multiprocessing.get_context("spawn")


def _worker(job: GameJob, sender: Any, acting: Any, deadline: Any) -> None:
    """Body of a worker process: play one game and send its summary back as soon as it is known."""
    os.environ.clear()
    os.environ.update(job.environment)

    def on_call(seat: int, seconds: float | None) -> None:
        acting.value = seat
        deadline.value = 0.0 if seconds is None else time.monotonic() + seconds

    sent = False

    def report(summary: GameSummary) -> None:
        nonlocal sent
        if not sent:
            sent = True
            sender.send(summary)

    _play_job_safely(job, on_call, report)
    sender.close()
    os._exit(0)  # a bot may have left threads running; do not wait for them


def _crashed(job: GameJob, exitcode: int | None, seat: int) -> GameSummary:
    names = (job.white, job.black)
    if seat in (0, 1):
        detail = f"{names[seat]} crashed its worker process (exit code {exitcode})"
        return GameSummary(job.index, job.white, job.black, 1 - seat, Reason.FORFEIT.value, detail, 0, None)
    return GameSummary(job.index, job.white, job.black, None, "error",
                       f"the worker process died (exit code {exitcode}) outside any bot", 0, None)


class ProgressBar:
    """A one-line progress bar on a terminal (plain lines when not a terminal)."""

    def __init__(self, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, summary: GameSummary) -> None:
        filled = int(self.width * done / max(1, total))
        rate = done / max(1e-9, time.monotonic() - self.start)
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games  {rate:.1f} games/s"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        elif done == total or done % max(1, total // 10) == 0:
            self.stream.write(line + "\n")
        self.stream.flush()


def format_table(result: MatchResult) -> str:
    """Wins, draws and losses of the first bot, by reason, and the mean game length."""
    a, b = result.first, result.second
    label_a, label_b = (a, b) if a != b else (f"{a} (first)", f"{b} (second)")
    rows: dict[tuple[str, str], int] = {}
    for game in result.games:
        if game.winner is None:
            outcome = "draw"
        else:
            winner_name = game.white if game.winner == 0 else game.black
            if a == b:
                outcome = "White wins" if game.winner == 0 else "Black wins"
            else:
                outcome = f"{label_a if winner_name == a else label_b} wins"
        rows[(outcome, game.reason)] = rows.get((outcome, game.reason), 0) + 1
    total = len(result.games)
    lines = [f"{label_a} vs {label_b}: {total} games"]
    if a != b:
        wins, draws, losses = result.score(a)
        lines.append(f"{label_a}: {wins} wins, {draws} draws, {losses} losses")
    width = max([len("result")] + [len(outcome) for outcome, _ in rows]) + 2
    lines.append(f"{'result':<{width}}{'reason':<16}{'games':>6}")
    for (outcome, reason), count in sorted(rows.items()):
        lines.append(f"{outcome:<{width}}{reason:<16}{count:>6}")
    played = [game.plies for game in result.games if game.plies]
    mean = sum(played) / len(played) if played else 0.0
    lines.append(f"mean plies per game: {mean:.1f}")
    failures = [game for game in result.games if game.reason in ("forfeit", "error")]
    for game in failures[:10]:
        lines.append(f"  game {game.index + 1}: {_shorten(game.detail, 300)}")
    return "\n".join(lines)
