"""Headless matches: many games between bots (one per seat), in worker processes, with a progress bar.

A match runs on a pool of **referee** processes (``jobs`` of them, started from a fork server), each playing
game after game; one is replaced only when it dies or must retire. Sightline's own bots play inside the
referee. A bot from outside (a reconchess player from a file or module) runs in a process of its own for each
game (:class:`~app.hosting.worker.ProcessAgent`), which holds only that seat's observations: it can find neither
the true board nor the other bot in its memory, the referee times it out, blames exactly it, always writes
the record, and kills it with every process it started when the game ends. Outside bots are loaded once in a
throwaway process before the match (:func:`~app.hosting.worker.check_bot`), with a time limit.

The parent watches every referee: one that dies, or stays in a call past its deadline (a built-in bot stuck
in C code), is killed and the game scored against the bot that was running, and the match goes on. A game
whose rules decide a flag fall their own way (Blind Chess: on material) tells the parent, before each call,
how a flag fall there would end it, and an overrun is scored that way. A referee left with a bot's thread still
running (a call given up at its limit, ``end()`` included) leaves after that game and another takes its place.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver
import json
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TextIO

from app import games as registry
from app.hosting.agents import BotSpec
from app.hosting.ctrl_c import CtrlC
from app.bots.contract import Agent, BotError, error_text
from app.hosting.runner import opponent_names, run_game, seed_everything, stuck_calls
from app.hosting.worker import (ProcessAgent, _start_process, become_subreaper, check_bot, helper_processes,
                                kill_descendants, kill_strays, make_undumpable, pid_alive, warm_up)
from app.engine.clock import TimeControl
from app.engine.core import CHANCE_SEEDS, Outcome, Reason, outcome_against
from app.engine.record import GameRecord
from app.engine.record_format import _outcome_from_json
from app.lifetime import exit_with_parent

DEFAULT_MOVE_LIMIT = 300.0
"""Seconds a bot may take over any one call in an untimed game (and to load, before the match); past it the
bot loses that game on time. ``run_match(move_limit=...)`` changes it."""

_GRACE = 5.0
"""Seconds past a call's deadline before a referee that has not come back is killed from outside."""

_STOP_WAIT = 2.0
"""Seconds the referees have to stop by themselves when a match stops, before they are killed."""

_FLAG_BYTES = 4096
"""Size of the memory a referee shares with the parent to say how a flag fall would end its game (see
:func:`play_job`'s ``on_flag``): its length in the first 4 bytes, then ``[game index, {seat: outcome}]`` in JSON,
each outcome as a record writes a result (plain data: the parent never unpickles what a referee wrote)."""

def _referee_preload() -> list[str]:
    """Imported once by the fork server, so that every referee starts with the referees and built-in bots loaded
    (the belief bots' attack tables alone take about 0.1 s): the match's own modules, then each registered
    game's referee and bot modules, as its definition names them."""
    modules = ["app.hosting.match", "app.hosting.runner", "app.engine.variants", "app.engine.record",
               "app.hosting.bot_registry", "app.hosting.worker", "chess"]
    for game in registry.all():
        for lazy in (game.referee, *(bot for _, bot in game.bots)):
            if lazy.module not in modules:
                modules.append(lazy.module)
    return modules


class MatchError(Exception):
    """The match cannot go on: no process could be started to play its games in."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl+C stopped the match: ``result`` holds the games finished before it (their records are written)."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__(f"the match was stopped after {len(result.games)} games")
        self.result = result


@dataclass(frozen=True)
class GameJob:
    """One game of a match, as a referee process is given it."""

    index: int
    variant: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    """The bot spec of each seat, in seat order."""
    control: TimeControl
    seed: int
    out_dir: str | None
    max_plies: int | None = None
    move_limit: float | None = DEFAULT_MOVE_LIMIT
    deal_seed: int | None = None
    """The match's deal seed (``--deal-seed``), from which a game of chance deals; ``None``: fresh deals. Never
    handed to a bot, and nothing a bot is given is made from it."""

    def __post_init__(self) -> None:
        if isinstance(self.seats, str):  # one spec where the seats belong: its characters would be the bots
            raise TypeError("GameJob.seats is a tuple of bot specs, one per seat, not one string")


@dataclass
class GameSummary:
    """The result of one game of a match (sent back by its referee; matches keep no file of these).

    ``seats`` holds the bot spec of each seat; ``winner`` is the winning seat when one seat won alone (as in
    every two-seat game), ``team`` the winning team (``None`` with a winner: the winner's team), ``scores``
    the per-seat scores of a game that ranks its seats instead (see :func:`app.engine.core.outcome_against`).
    """

    index: int
    seats: tuple[str, ...]
    winner: int | None
    reason: str
    detail: str
    plies: int
    path: str | None
    team: int | None = None
    scores: tuple[float, ...] | None = None

    def winning_seats(self, teams: Sequence[int] | None = None) -> tuple[int, ...]:
        """The seats that won (the whole winning team), for seats on ``teams`` (``None``: each seat its own
        team); empty when no team won."""
        if teams is None:
            teams = range(len(self.seats))
        team = self.team if self.team is not None or self.winner is None else teams[self.winner]
        return tuple(seat for seat, seat_team in enumerate(teams) if team is not None and seat_team == team)


def _summary_of(job: GameJob, outcome: Outcome, plies: int = 0, path: str | None = None) -> GameSummary:
    return GameSummary(job.index, job.seats, outcome.winner, outcome.reason.value, _shorten(outcome.detail),
                       plies, path, outcome.team, outcome.scores)


def play_job(job: GameJob, on_call: Callable[[int, float | None], None] | None = None,
             report: Callable[[GameSummary], None] | None = None,
             names: dict[str, str] | None = None,
             on_flag: Callable[[int, Outcome | None], None] | None = None) -> GameSummary:
    """Play one game of a match and save its record (in a referee process).

    Built-in bots play in this process; each outside bot in a process of its own, killed when the game ends.
    ``names`` gives the player name of each outside bot's spec (the class name found when it was checked).
    ``report`` receives the summary as soon as the result is known, before the bots' end-of-game hooks run
    (a bot that crashes there changes nothing). ``on_flag(seat, outcome)``: with ``on_call``, for a game whose
    rules decide a flag fall their own way (:meth:`~app.engine.core.Game.flag_fall_outcome`), how the game would
    end if ``seat`` ran out of time now (``None``: a loss on time after all); told before a call into ``seat``'s
    bot whenever that changed, once the clock runs (a parent that must stop the whole process scores it so).
    """
    seed_everything(job.seed)
    game = registry.referee(job.variant).create(job.options, _chance_seed(job))  # a fresh deal when it is None
    specs = job.seats
    outsiders = sum(BotSpec(text, job.variant).outside for text in specs)
    agents: list[Agent] = []
    for seat, text in enumerate(specs):
        spec = BotSpec(text, job.variant)
        agent: Agent
        if spec.outside:
            name = (names or {}).get(text) or text
            agent = ProcessAgent(text, job.variant, name, _bot_seed(job, seat), sole_outsider=outsiders == 1)
        else:
            try:
                agent = spec.create(_bot_seed(job, seat))
            except BotError as error:
                agent = _Unstartable(spec.display_name, error)
        agent.spec = text  # type: ignore[attr-defined]
        agents.append(agent)
    players = [agent.name for agent in agents]
    for seat, agent in enumerate(agents):
        if isinstance(agent, ProcessAgent):  # every outside bot loads at once
            agent.launch(seat, game.options(), opponent_names(game.teams(), players, seat))
    summaries: list[GameSummary] = []

    def finished(record: GameRecord) -> None:
        with _stop_after_reporting():  # a record saved is a game reported: the parent counts what is on disk
            path = None
            if job.out_dir:
                path = str(Path(job.out_dir) / f"game-{job.index + 1:04d}.json")
                record.save(path)
            final = record.result
            assert final is not None
            summary = _summary_of(job, final, game.ply, path)
            summaries.append(summary)
            if report is not None:
                report(summary)

    calling, clock = on_call, [False]
    if on_call is not None and on_flag is not None:
        # Per seat: the turn it was last asked at and the outcome told then (None: the usual loss on time, which
        # needs no telling). Asked once a turn (a flag fall's outcome follows the position, which changes only
        # with the turn: Blind Chess's material does), told when it changed (Blind Chess: after a capture). Not
        # before the clock runs: a bot that never finishes starting has used no clock, and loses the game.
        told: dict[int, tuple[int, Outcome | None]] = {}
        tell, inner, teams = on_flag, on_call, game.teams()

        def calling(seat: int, seconds: float | None) -> None:
            if seat >= 0 and clock[0] and not game.is_over:
                ply, known = told.get(seat, (-1, None))
                if ply != game.ply:
                    answer = game.flag_fall_outcome(seat)
                    outcome = None if answer is None else answer.settled(teams)
                    if outcome != known:
                        tell(seat, outcome)
                    told[seat] = (game.ply, outcome)
            inner(seat, seconds)
    try:
        run_game(game, agents, job.control, job.seed, on_call=calling, max_plies=job.max_plies,
                 on_finished=finished, move_limit=job.move_limit, on_clock=lambda: clock.__setitem__(0, True))
    finally:
        for agent in agents:
            if isinstance(agent, ProcessAgent):
                agent.close()
    return summaries[0]


def _chance_seed(job: GameJob) -> int | None:
    """The seed a game of chance deals from (other games ignore it): ``None`` (a fresh deal from the operating
    system) unless the match was given a deal seed, and then a hash of that seed and the game's number, so the
    match deals the same cards when it is run again.

    The deal seed is kept apart from the match's ``--seed`` on purpose: the bots are seeded from that one and
    every game's record, which the bots receive at the end, holds it, so a deal made from it could be rebuilt by
    any bot. Nothing a bot is given is made from the deal seed, and the hash cannot be turned back; a deal seed
    that is easy to guess (a small number) can still be guessed, so choose a long one for play that matters.

    >>> job = GameJob(0, "minit", {}, ("random", "random"), TimeControl(), 7, None, deal_seed=99)
    >>> _chance_seed(job) == _chance_seed(job) != _chance_seed(GameJob(1, "minit", {}, ("random", "random"),
    ...                                                                TimeControl(), 8, None, deal_seed=99))
    True
    >>> _chance_seed(GameJob(0, "minit", {}, ("random", "random"), TimeControl(), 7, None)) is None
    True
    """
    if job.deal_seed is None:
        return None
    digest = hashlib.sha256(f"sightline match deal {job.deal_seed} game {job.index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") % CHANCE_SEEDS


def _bot_seed(job: GameJob, seat: int) -> int:
    """The seed of ``seat``'s bot: different for every seat of every game of a match."""
    return job.seed * max(2, len(job.seats)) + seat


class _Unstartable(Agent):
    """A seat whose built-in bot could not be created: it fails to start, so the game still has a record."""

    def __init__(self, name: str, error: BotError) -> None:
        self.name = name
        self.error = error

    def start(self, seat: int, options: dict[str, Any], opponent_name: str) -> None:
        raise self.error

    def observe(self, observation: Any) -> None:
        pass

    def act(self, request: Any) -> Any:
        raise self.error

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        pass


def _shorten(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit - 20] + f"... ({len(text)} characters)"


def _play_job_safely(job: GameJob, on_call: Callable[[int, float | None], None] | None = None,
                     report: Callable[[GameSummary], None] | None = None,
                     names: dict[str, str] | None = None,
                     on_flag: Callable[[int, Outcome | None], None] | None = None) -> GameSummary:
    try:
        return play_job(job, on_call, report, names, on_flag)
    except BaseException as error:  # noqa: BLE001 - reported as a crashed game, the match goes on
        summary = GameSummary(job.index, job.seats, None, "error", _shorten(error_text(error)), 0, None)
        if report is not None:
            report(summary)
        return summary


@dataclass
class MatchResult:
    """The games of a match. ``bots`` are the bot specs as given, in seat order (the seating of the first
    game); ``seat_names`` are the game's seats, ``teams`` each seat's team (``None``: each seat its own)."""

    bots: tuple[str, ...]
    seat_names: tuple[str, ...]
    games: list[GameSummary] = field(default_factory=list)
    teams: tuple[int, ...] | None = None

    def outcome_for(self, game: GameSummary, name: str) -> str | None:
        """``"win"``, ``"draw"`` or ``"loss"`` of the bot ``name`` in ``game``; None when it was not played to a
        result or ``name`` did not play in it. A bot wins with a seat of the winning team; when no team won, a
        bot whose seats all scored below the best loses, and a solitaire without a winner is lost."""
        mine = [seat for seat, bot in enumerate(game.seats) if bot == name]
        if game.reason in UNPLAYED or not mine:
            return None
        won = game.winning_seats(self.teams)
        if won:
            return "win" if any(seat in won for seat in mine) else "loss"
        if game.scores is not None:
            return "loss" if max(game.scores[seat] for seat in mine) < max(game.scores) else "draw"
        return "loss" if len(game.seats) == 1 else "draw"

    def score(self, name_a: str) -> tuple[int, int, int]:
        """Wins, draws and losses of ``name_a`` in the games played to a result (see :meth:`unplayed`)."""
        outcomes = [self.outcome_for(game, name_a) for game in self.games]
        return outcomes.count("win"), outcomes.count("draw"), outcomes.count("loss")

    def unplayed(self) -> list[GameSummary]:
        """The games not played to a result: lost to a broken referee (``"error"``) or aborted."""
        return [game for game in self.games if game.reason in UNPLAYED]


UNPLAYED = frozenset({"error", Reason.ABORTED.value})
"""Reasons of games that were not played to a result: they count neither as wins, draws nor losses."""


def run_match(variant: str, white: str | None = None, black: str | None = None, games: int = 1, seed: int = 0,
              control: TimeControl | None = None, options: dict[str, Any] | None = None,
              swap_colors: bool = False, jobs: int = 1, out_dir: str | None = None,
              progress: Callable[[int, int, GameSummary], None] | None = None,
              max_plies: int | None = None, move_limit: float = DEFAULT_MOVE_LIMIT,
              seats: Sequence[str] | None = None, deal_seed: int | None = None) -> MatchResult:
    """Play ``games`` games, ``jobs`` at a time, between ``white`` and ``black``, or between ``seats`` (one
    bot spec per seat of the game, in seat order, for any number of seats).

    ``swap_colors`` changes the seating between games: each game seats every bot one seat further on than
    the game before (in a two-seat game, the bots swap colours; with partners sitting opposite each other in
    a four-seat game, partners stay partners and the teams take turns to sit first). ``max_plies`` draws
    endless games; ``move_limit`` bounds each call into a bot of an untimed game (and the loading of an
    outside bot in an untimed match; a timed match allows the smaller of 60 s and the initial time).
    ``deal_seed`` makes a game of chance deal the same cards when the match is run again (see
    :func:`_chance_seed`); without it every game deals afresh. (:func:`app.hosting.cluster.run_on_cluster`
    plays the same games on a Dask cluster.)

    Raises BotError before any game when a bot cannot be loaded, ValueError for bad options or a wrong number
    of bots, OSError when ``out_dir`` cannot be made, MatchError when no process can be started to play in,
    MatchInterrupted on Ctrl+C, with the games finished until then.
    """
    forkable = _may_fork()  # asked before this match imports anything (see _may_fork)
    chosen: list[Any] = []

    def start_referees(outside: bool) -> None:  # while the bots are checked
        context = _context(outside)
        if outside or not forkable:
            _start_server(context)  # it loads its preloads while the bots are checked here
        else:
            context = multiprocessing.get_context("fork")  # see _may_fork
        chosen.append(context)

    plan = plan_match(variant, white, black, games, seed, control, options, swap_colors, out_dir, max_plies,
                      move_limit, seats, deal_seed, start_referees)
    context, names, result, all_jobs = chosen[0], plan.names, plan.result, plan.jobs
    cls = registry.referee(variant)
    setup = _Setup(variant, names, dict(os.environ), os.getcwd(), cls.teams())
    pool = _Pool(context, setup, max(1, min(jobs, games)))
    upcoming = all_jobs()
    next_job = next(upcoming, None)
    done = 0
    try:
        with CtrlC() as ctrl_c:
            while next_job is not None or pool.returned or pool.busy:
                while pool.returned and pool.take(pool.returned[0]):
                    pool.returned.popleft()
                while not pool.returned and next_job is not None and pool.take(next_job):
                    next_job = next(upcoming, None)
                finished = pool.wait()
                result.games.extend(finished)  # all of them before any progress call: Ctrl+C may land in one
                for summary in finished:
                    done += 1
                    if isinstance(progress, ProgressBar):
                        progress(done, games, summary, running=sum(1 for referee in pool.referees if referee.jobs))
                    elif progress is not None:
                        progress(done, games, summary)
                ctrl_c.check()
        pool.close()
    except KeyboardInterrupt:
        # The referees played on meanwhile: what they finished (and recorded) before they stopped counts too.
        result.games.extend(pool.kill())
        result.games.sort(key=lambda game: game.index)
        raise MatchInterrupted(result) from None
    finally:
        pool.kill()
    result.games.sort(key=lambda game: game.index)
    return result


@dataclass
class MatchPlan:
    """A match checked and ready to play (:func:`plan_match`): its empty result, each bot spec's player name, the
    limit for loading an outside bot, and its games, made one at a time by ``jobs()``."""

    result: MatchResult
    names: dict[str, str]
    load_limit: float
    jobs: Callable[[], Iterator[GameJob]]


def plan_match(variant: str, white: str | None, black: str | None, games: int, seed: int,
               control: TimeControl | None, options: dict[str, Any] | None, swap_colors: bool,
               out_dir: str | None, max_plies: int | None, move_limit: float, seats: Sequence[str] | None,
               deal_seed: int | None, before_checks: Callable[[bool], None] | None = None) -> MatchPlan:
    """Check a match's bots and options, make ``out_dir``, and say how to make its games (the seeds of each,
    its seating, its deal seed), as :func:`run_match` plays them (raises as it does). ``before_checks(outside)``
    runs before the bots are loaded (``outside``: some seat is an outside bot)."""
    control = control or TimeControl()
    cls = registry.referee(variant)
    seating = _seating(cls.seat_names, white, black, seats)
    given = options or {}
    # Checked (a bad option raises here, before any game) and normalised, but only the options given: one the
    # game fills in by chance (a solitaire's deal number) is drawn by each game from its own chance seed.
    game_options = {key: value for key, value in cls.from_options(given).options().items() if key in given}
    specs = [BotSpec(text, variant) for text in dict.fromkeys(seating)]
    if before_checks is not None:
        before_checks(any(spec.outside for spec in specs))
    load_limit = move_limit if control.initial is None else min(60.0, control.initial)
    names: dict[str, str] = {}
    for spec in specs:
        if spec.outside:
            names[spec.text] = check_bot(spec.text, variant, load_limit)  # never imported here: see check_bot
        else:
            spec.check()
            names[spec.text] = spec.display_name
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)  # OSError (e.g. FileExistsError for a file) goes to the caller

    def all_jobs() -> Iterator[GameJob]:  # made one at a time: a match of a billion games needs no list of them
        for index in range(games):
            bots = seated(seating, index) if swap_colors else seating
            yield GameJob(index, variant, game_options, bots, control, seed * 100003 + index, out_dir, max_plies,
                          move_limit, deal_seed)

    return MatchPlan(MatchResult(seating, cls.seat_names, teams=cls.teams()), names, load_limit, all_jobs)


def seated(bots: tuple[str, ...], index: int) -> tuple[str, ...]:
    """The seating of game ``index`` (from 0) of a match that changes seats: every bot one seat further on than
    in the game before, the last seat's bot moving to the first seat.

    >>> seated(("a", "b"), 1)  # two seats: the colours swap
    ('b', 'a')
    >>> seated(("n", "e", "s", "w"), 1)  # partners opposite stay partners, and change sides
    ('w', 'n', 'e', 's')
    """
    shift = index % len(bots)
    return bots[-shift:] + bots[:-shift] if shift else bots


def _seating(seat_names: Sequence[str], white: str | None, black: str | None,
             seats: Sequence[str] | None) -> tuple[str, ...]:
    """The bot of each seat from either form of :func:`run_match`; ValueError when they do not fit the game."""
    if seats is None:
        if white is None or black is None:
            raise ValueError("give a bot for each seat: white and black, or seats")
        seats = (white, black)
    elif white is not None or black is not None:
        raise ValueError("give the bots either as white and black or as seats, not both")
    seating = tuple(seats)
    if len(seating) != len(seat_names):
        raise ValueError(f"the game's seats are {', '.join(seat_names)}: give one bot for each "
                         f"({len(seating)} given)")
    return seating


@dataclass(frozen=True)
class _Setup:
    """What every referee of a match is told once, when it starts."""

    variant: str
    names: dict[str, str]  # bot spec -> player name
    environment: dict[str, str]  # the caller's, for bots that read it
    cwd: str  # the caller's, so that relative bot paths keep their meaning
    teams: tuple[int, ...]  # each seat's team (who wins when a referee dies)


class _Referee:
    """The parent's handle on one referee process."""

    def __init__(self, context: Any, setup: _Setup) -> None:
        self.connection, child = context.Pipe(duplex=True)
        # The seat being called (-1: none), its deadline (0: none) and the index of the game whose bot was called
        # last (-1: no bot called since the referee last reported idle: its next game has not begun).
        self.status = context.RawArray("d", 3)
        self.status[0] = self.status[2] = -1.0
        # How a flag fall would end its game (written before a call, read only once it is stuck in one): shared
        # memory, not messages, so that the parent is not woken for it.
        self.flag_memory = context.RawArray(ctypes.c_ubyte, _FLAG_BYTES)
        self.process = context.Process(target=_referee_main, args=(setup, child, self.status, self.flag_memory),
                                       name="sightline-referee", daemon=False)  # it starts bot processes
        try:
            _start_process(self.process.start)
        finally:
            child.close()
        self.via_server = context.get_start_method() == "forkserver"
        self.orphaned = False  # its fork server died: the sentinel means nothing any more (see BotProcess)
        self.hung_up = False  # its end of the pipe closed: it has ended
        self.jobs: deque[GameJob] = deque()  # the game it plays (first), then the one it will play next
        self.reported = False  # the summary of the first game has arrived
        self.retiring = False  # it leaves after this game: take it out of service

    def flag_outcome(self, job: GameJob, seat: int, teams: tuple[int, ...]) -> Outcome | None:
        """How a flag fall of ``seat`` would end ``job``, as the referee last wrote it (None: it did not say, for
        a game that loses on time as usual). Read only when the referee is stuck in a bot's call."""
        try:
            size = int.from_bytes(bytes(self.flag_memory[:4]), "little")
            if not 0 < size <= _FLAG_BYTES - 4:
                return None
            index, outcomes = json.loads(bytes(self.flag_memory[4:4 + size]))
            if index != job.index or str(seat) not in outcomes:
                return None
            return _outcome_from_json(outcomes[str(seat)], teams)
        except Exception:  # noqa: BLE001 - unreadable: score the overrun as a plain loss on time
            return None

    @property
    def job(self) -> GameJob | None:
        """The game it plays now (or is about to)."""
        return self.jobs[0] if self.jobs else None

    def give(self, job: GameJob) -> None:
        self.jobs.append(job)
        try:
            self.connection.send(job)
        except (OSError, ValueError):  # it died since the pool last looked: the pool finds it gone and hands
            self.hung_up = True        # its games (this one too) to another referee

    def overran(self, now: float) -> bool:
        deadline = self.status[1]
        return bool(deadline) and now > deadline + _GRACE

    def ended(self) -> bool:
        if self.hung_up:
            return True
        if not self.orphaned:
            if self.process.exitcode is None:
                return False
            if not self.via_server or not pid_alive(self.process.pid):
                return True
            self.orphaned = True  # the fork server died, not the referee
        return not pid_alive(self.process.pid)

    def handles(self) -> list[Any]:
        return [self.connection] if self.orphaned else [self.connection, self.process.sentinel]

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM): it kills the processes below it and leaves."""
        try:
            if self.orphaned and self.process.pid is not None and pid_alive(self.process.pid):
                os.kill(self.process.pid, signal.SIGTERM)
            elif self.process.exitcode is None:
                self.process.terminate()
        except (OSError, ValueError):
            pass

    def wait_gone(self, deadline: float) -> None:
        """Wait until it has ended, or until ``deadline`` (of ``time.monotonic()``)."""
        while not self.ended() and time.monotonic() < deadline:
            if self.orphaned:
                time.sleep(0.01)
            else:
                self.process.join(min(0.05, max(0.0, deadline - time.monotonic())))

    def kill(self) -> None:
        if self.orphaned and self.process.pid is not None and pid_alive(self.process.pid):
            os.kill(self.process.pid, signal.SIGKILL)
        elif self.process.exitcode is None:
            self.process.kill()
        self.process.join(1.0)
        self.connection.close()


class _Pool:
    """Referee processes of a match, each playing the jobs it is given one after another."""

    def __init__(self, context: Any, setup: _Setup, size: int) -> None:
        self.context = context
        self.setup = setup
        self.size = size
        self.referees: list[_Referee] = []
        self.returned: deque[GameJob] = deque()
        """Jobs handed to a referee that left before starting them: to be given again, before new ones."""
        self.retried: set[int] = set()
        """Games given again after their referee died before calling any of their bots (once each)."""

    @property
    def busy(self) -> bool:
        return any(referee.jobs for referee in self.referees)

    def take(self, job: GameJob) -> bool:
        """Give ``job`` to a referee: an idle one, else a new one while the pool is not full, else one that
        plays a game and has nothing queued (it then starts the next game without waiting for this process).
        False when every referee has a game queued."""
        ready = [referee for referee in self.referees if not referee.retiring]
        for referee in ready:
            if not referee.jobs:
                referee.give(job)
                return True
        if len(self.referees) < self.size:
            try:
                referee = _Referee(self.context, self.setup)
            except Exception as error:  # noqa: BLE001 - e.g. the system refuses another process
                if not self.referees:
                    raise MatchError(f"cannot start a process to play the games in: {error_text(error)}") from None
                self.size = len(self.referees)  # go on with the referees there are
            else:
                self.referees.append(referee)
                referee.give(job)
                return True
        for referee in ready:
            if len(referee.jobs) < 2:
                referee.give(job)
                return True
        return False

    def wait(self) -> list[GameSummary]:
        """Wait for news from the referees (at most about a second); return the summaries of finished games."""
        now = time.monotonic()
        deadlines = [referee.status[1] + _GRACE - now for referee in self.referees if referee.status[1]]
        timeout = max(0.01, min([1.0] + deadlines))
        handles: list[Any] = []
        for referee in self.referees:
            handles += referee.handles()
        multiprocessing.connection.wait(handles, timeout)
        summaries: list[GameSummary] = []
        now = time.monotonic()
        for referee in list(self.referees):
            summaries += self._read(referee)
            if referee.retiring and referee.jobs:
                self.returned.extend(referee.jobs)  # it leaves without reading them
                referee.jobs.clear()
            ended = referee.ended()
            if ended or referee.overran(now):
                job, seat = referee.job, int(referee.status[0])
                stuck = not ended
                referee.kill()
                self.referees.remove(referee)
                begun = job is not None and int(referee.status[2]) == job.index
                if ended and job is not None and not referee.reported and not begun \
                        and job.index not in self.retried:
                    self.retried.add(job.index)  # it died between games: the next one is another referee's
                    self.returned.append(job)
                elif job is not None and not referee.reported:
                    summaries.append(_overran(job, seat, self.setup.names, self.setup.teams,
                                              referee.flag_outcome(job, seat, self.setup.teams)) if stuck
                                     else _crashed(job, referee.process.exitcode, seat, self.setup.names,
                                                   self.setup.teams))
                if job is not None:
                    referee.jobs.popleft()
                self.returned.extend(referee.jobs)  # never started: another referee plays them
                referee.jobs.clear()
        return summaries

    def _read(self, referee: _Referee) -> list[GameSummary]:
        summaries = []
        try:
            while referee.connection.poll():
                message = referee.connection.recv()
                if message[0] == "result" and referee.jobs and not referee.reported:
                    referee.reported = True
                    summaries.append(message[1])
                elif message[0] == "idle" and referee.jobs:
                    referee.jobs.popleft()
                    referee.reported = False
                    referee.retiring = bool(message[1])
        except (EOFError, OSError):
            referee.hung_up = True  # it died (or closed the pipe, which it does only as it leaves)
        return summaries

    def close(self) -> None:
        """Let idle referees leave by themselves."""
        for referee in self.referees:
            try:
                referee.connection.send(None)
            except (OSError, ValueError):
                pass
        for referee in self.referees:
            referee.process.join(2.0)

    def kill(self) -> list[GameSummary]:
        """Stop every referee: ask each to stop (it ends the processes below it, then leaves; a game's record
        being saved is saved and reported first), wait for them a little, then kill those still there. Returns
        the summaries of the games they finished and reported meanwhile, not yet read."""
        for referee in self.referees:
            referee.terminate()
        deadline = time.monotonic() + _STOP_WAIT
        for referee in self.referees:
            referee.wait_gone(deadline)
        finished = [summary for referee in self.referees for summary in self._read(referee)]  # before kill closes
        for referee in self.referees:
            referee.kill()
        self.referees.clear()
        return finished


def _blamed_elsewhere(job: GameJob, seat: int, names: dict[str, str], what: str, how: str) -> GameSummary | None:
    """An aborted game when the referee failed while ``seat`` was called but *another* seat is an outside bot.

    An outside bot runs as the same user as its referee and can kill or freeze (SIGSTOP) it at any time, while
    another seat is being called too; then nobody can be blamed. ``what`` says what happened to the referee,
    ``how`` what the other bot may have done ("killed", "stopped")."""
    if not 0 <= seat < len(job.seats):
        return None
    others = [text for other, text in enumerate(job.seats)
              if other != seat and BotSpec(text, job.variant).outside]
    if not others:
        return None
    other = " and ".join(dict.fromkeys(names.get(text, text) for text in others))
    bots = "bots" if " and " in other else "bot"
    return GameSummary(job.index, job.seats, None, Reason.ABORTED.value,
                       f"the game was aborted: its referee process {what} while "
                       f"{names.get(job.seats[seat], job.seats[seat])} was being called, and the other {bots}, "
                       f"{other}, {'run' if bots == 'bots' else 'runs'} outside Sightline and may have {how} it",
                       0, None)


def _overran(job: GameJob, seat: int, names: dict[str, str], teams: Sequence[int],
             flagged: Outcome | None = None) -> GameSummary:
    """The score of a game whose referee stopped answering past ``seat``'s deadline (-1: no seat was called):
    that seat ran out of time, so ``flagged`` when the referee said how its game ends a flag fall of that seat
    (Blind Chess: on material), else a loss on time for its team (:func:`~app.engine.core.outcome_against`);
    unless another seat is an outside bot (:func:`_blamed_elsewhere`)."""
    aborted = _blamed_elsewhere(job, seat, names, "stopped answering", "stopped")
    if aborted is not None:
        return aborted
    if 0 <= seat < len(job.seats):
        name = names.get(job.seats[seat], job.seats[seat])
        if flagged is not None:
            summary = _summary_of(job, flagged)
            summary.detail = _shorten(f"{summary.detail} ({name} did not give control back: its process was "
                                      f"stopped)")
            return summary
        return _summary_of(job, outcome_against(seat, teams, Reason.TIMEOUT, f"{name} ran out of time and did not "
                                                f"give control back (its process was stopped)"))
    return GameSummary(job.index, job.seats, None, "error", "the referee process stopped answering", 0, None)


def _crashed(job: GameJob, exitcode: int | None, seat: int, names: dict[str, str],
             teams: Sequence[int]) -> GameSummary:
    """The score of a game whose referee died while ``seat`` (-1: none) was being called: a forfeit of that
    seat's team, unless another seat is an outside bot (:func:`_blamed_elsewhere`)."""
    aborted = _blamed_elsewhere(job, seat, names, f"died (exit code {exitcode})", "killed")
    if aborted is not None:
        return aborted
    if 0 <= seat < len(job.seats):
        name = names.get(job.seats[seat], job.seats[seat])
        return _summary_of(job, outcome_against(seat, teams, Reason.FORFEIT,
                                                f"{name} crashed its worker process (exit code {exitcode})"))
    return GameSummary(job.index, job.seats, None, "error",
                       f"the referee process died (exit code {exitcode}) outside any bot", 0, None)


def _context(outside_bots: bool = False) -> Any:
    """A fork server where there is one: workers start fast, and never inherit the threads of the caller
    (forking a process that runs threads can deadlock the child)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Ignored if the server already runs (then it was started by this function or by app.hosting.worker).
        context.set_forkserver_preload(_referee_preload() + (["reconchess"] if outside_bots else []))
        return context
    return multiprocessing.get_context("spawn")


def _may_fork() -> bool:
    """True when referees may be forked from this process, ready at once with everything it has imported:
    on Linux, when the process runs no other thread (forking a process that does can deadlock the child; this
    counts threads of C libraries too, such as Qt's). ``run_match`` asks before it imports the referees and
    bots: threads that those imports start (numpy's BLAS pool, which is made to survive a fork) would start in
    a fork server's preload just the same. Only for a match of Sightline's own bots: a referee that hosts
    outside bots starts their processes from a fork server of its own, which a fork would confuse with the
    parent's. Elsewhere the fork server starts referees (about 0.2 s more per match)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _start_server(context: Any) -> None:
    if context.get_start_method() == "forkserver":
        multiprocessing.forkserver.ensure_running()


def _referee_main(setup: _Setup, connection: Any, status: Any, flag_memory: Any = None) -> None:
    """Body of a referee process: play the jobs the parent sends, one after another, until told to stop."""
    make_undumpable()  # an outside bot (same user) may neither ptrace this process nor read its memory
    exit_with_parent()  # a match killed with SIGKILL leaves no referee playing on
    os.environ.clear()
    os.environ.update(setup.environment)
    try:
        os.chdir(setup.cwd)
    except OSError:
        pass
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which stops the referees
        signal.signal(signal.SIGTERM, _stop_referee)  # how the parent stops them
    except (ValueError, OSError):
        pass
    outside = sweep = False
    for text in setup.names:
        spec = BotSpec(text, setup.variant)
        if spec.outside:
            outside = True
        else:
            try:
                spec.bot_class()  # loads the bot's module now, once for all games
            except BotError:
                pass  # each game reports it
    if outside:
        warm_up()  # this referee's own fork server for its outside bots: it starts while the first game sets up
        sweep = become_subreaper()  # what an outside bot leaves behind becomes this process's to end

    playing = -1  # the index of the game being played

    def on_call(seat: int, seconds: float | None) -> None:
        status[1] = 0.0 if seconds is None else time.monotonic() + seconds
        status[0] = seat
        status[2] = playing

    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            break
        if job is None:
            break
        playing = job.index
        sent = False

        def report(summary: GameSummary) -> None:
            nonlocal sent
            if not sent:
                sent = True
                connection.send(("result", summary))

        flags: dict[str, Any] = {}

        def on_flag(seat: int, outcome: Outcome | None, index: int = job.index) -> None:
            if outcome is None:
                flags.pop(str(seat), None)  # a loss on time again
            else:
                flags[str(seat)] = outcome.to_json()
            _share(flag_memory, json.dumps([index, flags]).encode())

        summary = _play_job_safely(job, on_call, report, setup.names, on_flag)
        if outside and sweep:
            kill_strays(helper_processes())  # processes that outside bots started and moved out of their group
        status[0], status[1], status[2] = -1.0, 0.0, -1.0
        retire = _should_retire(job, summary) or stuck_calls() > 0  # a thread still runs a bot's code: leave
        try:
            connection.send(("idle", retire))
        except (OSError, ValueError):
            break
        if retire:
            break
    try:
        connection.close()
    finally:
        os._exit(0)  # a built-in bot may have left a thread running; do not wait for it


def _share(memory: Any, data: bytes) -> None:
    """Write ``data`` into a referee's flag memory (its length first; nothing at all when it does not fit)."""
    if memory is None:
        return
    if len(data) > _FLAG_BYTES - 4:
        data = b""
    ctypes.memmove(ctypes.addressof(memory), len(data).to_bytes(4, "little") + data, 4 + len(data))


class _StopState:
    reporting = False
    """A game's record is being saved and its summary sent to the parent."""
    asked = False
    """The parent asked this referee to stop meanwhile."""


@contextlib.contextmanager
def _stop_after_reporting() -> Iterator[None]:
    """Holds back the parent's SIGTERM (:func:`_stop_referee`) while a finished game is saved and reported, so that
    no record is written without its summary reaching the parent; the referee stops right after."""
    _StopState.reporting = True
    try:
        yield
    finally:
        _StopState.reporting = False
        if _StopState.asked:
            _stop_referee(signal.SIGTERM, None)


def _stop_referee(signum: int, frame: Any) -> None:
    """A referee's SIGTERM handler: the parent stops the match. End every process below this one (the bots'
    workers, what they started, what this process adopted as a subreaper) and leave at once, or right after the
    game being reported (:func:`_stop_after_reporting`)."""
    if _StopState.reporting:
        _StopState.asked = True
        return
    try:
        kill_descendants()
    finally:
        os._exit(0)


def _should_retire(job: GameJob, summary: GameSummary) -> bool:
    """True when a game may have left this referee unsound: a bot of its own process failed (its call may
    still run on an abandoned thread) or the game broke down. Outside bots fail in their own processes."""
    if summary.reason not in (Reason.TIMEOUT.value, Reason.FORFEIT.value, Reason.ABORTED.value):
        return summary.reason == "error"  # the game broke down: start afresh
    won = summary.winning_seats(registry.referee(job.variant).teams())
    if not won or summary.reason == Reason.TIMEOUT.value:
        return not all(BotSpec(text, job.variant).outside for text in job.seats)
    losers = [text for seat, text in enumerate(job.seats) if seat not in won]
    return not all(BotSpec(text, job.variant).outside for text in losers)


class ProgressBar:
    """A one-line progress bar on a terminal (plain lines when not a terminal): games done, running and left,
    the rate and an estimate of the time left."""

    def __init__(self, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()
        self.tty = stream.isatty()
        self.shown = 0  # the length of the line on the terminal now

    def __call__(self, done: int, total: int, summary: GameSummary, running: int | None = None) -> None:
        filled = int(self.width * done / max(1, total))
        elapsed = max(1e-9, time.monotonic() - self.start)
        rate = done / elapsed
        left = total - done
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games"
        if running is not None:
            line += f", {running} running, {left} left"
        line += f"  {rate:.1f} games/s"
        if left and done:
            line += f"  about {_duration(left / rate)} left"
        if self.tty:
            self.stream.write("\r" + line.ljust(self.shown) + ("\n" if done == total else ""))
            self.shown = len(line)
        elif done == total or done % max(1, total // 10) == 0:
            self.stream.write(line + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    """``seconds`` in words a progress bar can show: ``"40 s"``, ``"12 min"``, ``"3 h 05 min"``.

    >>> _duration(39.6), _duration(719), _duration(11100)
    ('40 s', '12 min', '3 h 05 min')
    """
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def format_table(result: MatchResult) -> str:
    """Wins, draws and losses of each bot (of the first, in a two-seat match), by reason, the games not played
    to a result (counted neither way), and the mean game length."""
    bots = result.bots
    distinct = list(dict.fromkeys(bots))
    rows: dict[tuple[str, str], int] = {}
    for game in result.games:
        if game.reason in UNPLAYED:
            continue  # on a line of their own
        row = (_result_words(result, game), game.reason)
        rows[row] = rows.get(row, 0) + 1
    total = len(result.games)
    if len(bots) == 2 and len(distinct) == 1:
        title = f"{bots[0]} (first) vs {bots[1]} (second)"
    else:
        title = " vs ".join(distinct)
    lines = [f"{title}: {total} games"]
    if len(distinct) > 1 or len(bots) == 1:  # one bot in every seat would only score against itself
        for bot in distinct[:1] if len(bots) == 2 else distinct:  # in two-seat matches the second is the mirror
            wins, draws, losses = result.score(bot)
            lines.append(f"{bot}: {wins} wins, {draws} draws, {losses} losses")
    width = max([len("result")] + [len(outcome) for outcome, _ in rows]) + 2
    lines.append(f"{'result':<{width}}{'reason':<16}{'games':>6}")
    for (outcome, reason), count in sorted(rows.items()):
        lines.append(f"{outcome:<{width}}{reason:<16}{count:>6}")
    unplayed = result.unplayed()
    if unplayed:
        reasons: dict[str, int] = {}
        for game in unplayed:
            reasons[game.reason] = reasons.get(game.reason, 0) + 1
        lines.append(f"{len(unplayed)} game{'s' if len(unplayed) != 1 else ''} not played to a result: "
                     + ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items())))
    played = [game.plies for game in result.games if game.plies]
    mean = sum(played) / len(played) if played else 0.0
    lines.append(f"mean plies per game: {mean:.1f}")
    failures = [game for game in result.games if game.reason in ("forfeit", "error", Reason.ABORTED.value)]
    for game in failures[:10]:
        lines.append(f"  game {game.index + 1}: {_shorten(game.detail, 300)}")
    return "\n".join(lines)


def _result_words(result: MatchResult, game: GameSummary) -> str:
    """Who won ``game``, in the words of the result table: the winning bots by name, or the winning seats by
    name when a bot sat on both sides; "draw", "no winner" (the seats are ranked by score) or "lost" (a
    solitaire)."""
    won = game.winning_seats(result.teams)
    if not won:
        if len(game.seats) == 1:
            return "lost"
        return "no winner" if game.scores is not None else "draw"
    winners = list(dict.fromkeys(game.seats[seat] for seat in won))
    losers = {bot for seat, bot in enumerate(game.seats) if seat not in won}
    if losers & set(winners):  # the same bot won and lost: say which seats won
        who = [result.seat_names[seat] for seat in won]
    else:
        who = winners
    return f"{' and '.join(who)} {'wins' if len(who) == 1 else 'win'}"
