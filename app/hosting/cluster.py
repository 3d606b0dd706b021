"""A match played on a Dask cluster (``sightline match --scheduler tcp://HOST:PORT`` or ``--scheduler local:N``).

Dask's distributed scheduler (the optional extra ``sightline[cluster]``) hands out the games and replays those
whose worker died; everything a game needs to be fair is what :mod:`app.hosting.match` does on one machine. Each
Dask worker keeps, for the match, referee processes of its own (the same ``_Pool`` as ``--jobs``, one referee for
each game it plays at once): a game runs in a referee process with outside bots in processes of their own, their
time limits, process groups and sweeps, and a referee that dies or hangs is scored on the worker exactly as it is
at home. A worker is only where the referees live.

What travels: the :class:`~app.hosting.match.GameJob` (seeds and deal seed made by the client, as for ``--jobs``,
so a seeded match gives the same games wherever it runs), the bots' player names, and back the game's summary
with the bytes of its record, which the client writes into ``--out``: on a worker a record passes through its
Dask scratch directory only. What does not travel: an outside bot's file or module, and the packages it imports, which each
worker must find at the same path or name (``docs/bots.md``); the client loads every outside bot on every worker
before the first game, so that a worker that lacks one stops the match at once with a clear message.

Faults: a game whose worker dies is replayed by Dask on another (up to its ``allowed-failures``, 3 by default;
past that it is counted on the aborted line). A result is taken once per game, by the client, and its record
written at once; Dask may keep a result on a worker and recompute it when that worker dies, so each result is
released as soon as it is read. Ctrl+C stops the match: games not finished are cancelled, their referees ended,
and the records written stay (:class:`~app.hosting.match.MatchInterrupted` carries the games finished).
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import multiprocessing
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from app import games as registry
from app.bots.contract import BotError, error_text
from app.engine.atomic_files import atomic_write_bytes
from app.engine.clock import TimeControl
from app.engine.core import Reason
from app.hosting.ctrl_c import CtrlC
from app.hosting.match import DEFAULT_MOVE_LIMIT, MatchError, MatchInterrupted, MatchResult, plan_match

MISSING = ("--scheduler needs Dask's distributed scheduler, which is not installed: "
           "pip install 'sightline[cluster]' (or: pip install 'dask[distributed]')")

_CONNECT_TIMEOUT = 20.0
"""Seconds to reach a scheduler at ``tcp://HOST:PORT`` before the match gives up."""

_FORGOTTEN = 600.0
"""Seconds after which a worker closes the referees of a match it has not heard from (a client that died)."""


class ClusterUnavailable(MatchError):
    """No cluster to play on: Dask is not installed, or its scheduler cannot be reached."""


def parse_scheduler(text: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N``, ``("address", text)`` for a scheduler's address; ValueError otherwise.

    >>> parse_scheduler("local:2"), parse_scheduler("tcp://10.0.0.5:8786")
    (('local', 2), ('address', 'tcp://10.0.0.5:8786'))
    """
    if text.startswith("local:"):
        count = text[len("local:"):]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"--scheduler local:N needs a number of workers of at least 1, not {count!r}")
        return "local", int(count)
    if "://" in text and text.split("://", 1)[1]:
        return "address", text
    raise ValueError(f"--scheduler takes tcp://HOST:PORT (a Dask scheduler) or local:N (N local workers), "
                     f"not {text!r}")


def available() -> bool:
    """True when Dask's distributed scheduler can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _module(name: str) -> Any:
    """Dask's module ``name``, untyped (Dask has no type hints)."""
    return importlib.import_module(name)


def require() -> None:
    """Raise ClusterUnavailable (with how to install it) when Dask's distributed scheduler is missing."""
    if not available():
        raise ClusterUnavailable(MISSING)


# -- the client -------------------------------------------------------------------------------------------------

class _Cluster:
    """A client of a scheduler, and the local cluster it runs on for ``local:N``."""

    def __init__(self, scheduler: str) -> None:
        require()
        dask, distributed = _module("dask"), _module("distributed")
        kind, where = parse_scheduler(scheduler)
        self.cluster: Any = None
        self.client: Any = None
        try:
            if kind == "local":
                # Workers that may start processes (referees): a daemonic process may not. They end with the
                # worker all the same (app.lifetime), and the worker with the match. A scheduler that hands each
                # worker its next game at once (the match itself keeps only a few games ahead), as a referee
                # at home holds its next game: about 10 ms less per game on 2 cores.
                with dask.config.set({"distributed.worker.daemon": False,
                                      "distributed.scheduler.worker-saturation": float("inf")}), \
                        _sigint_ignored():
                    self.cluster = distributed.LocalCluster(
                        n_workers=int(where), threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.ERROR)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(str(where), timeout=_CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            self.close()
            raise ClusterUnavailable(f"cannot reach the Dask scheduler at {where}: {error_text(error)}") from None

    def threads(self) -> int:
        """The number of games the cluster plays at once now (its workers' threads)."""
        try:
            return max(1, int(sum(self.client.nthreads().values())))
        except Exception:  # noqa: BLE001 - the scheduler is busy or going: assume one
            return 1

    def close(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - closing what is already gone
                    pass


class _sigint_ignored:
    """Ignore SIGINT while a local cluster starts its workers (they inherit it): Ctrl+C reaches every process
    of the terminal's group, and the match stops its workers itself."""

    def __enter__(self) -> None:
        self.before: Any = None
        if threading.current_thread() is threading.main_thread():
            self.before = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            signal.signal(signal.SIGINT, self.before)


def run_on_cluster(variant: str, white: str | None = None, black: str | None = None, games: int = 1,
                   seed: int = 0, control: TimeControl | None = None, options: dict[str, Any] | None = None,
                   swap_colors: bool = False, scheduler: str = "local:1", out_dir: str | None = None,
                   progress: Callable[..., None] | None = None, max_plies: int | None = None,
                   move_limit: float | None = None, seats: Sequence[str] | None = None,
                   deal_seed: int | None = None) -> MatchResult:
    """:func:`~app.hosting.match.run_match` on the Dask cluster ``scheduler`` (``tcp://HOST:PORT``, or
    ``local:N`` for N local workers) instead of local referees: the same games, seeds, results and records.

    Raises as ``run_match`` does; ValueError for a ``scheduler`` of another form, before anything else;
    ClusterUnavailable (a MatchError) when Dask is not installed or its scheduler cannot be reached."""
    parse_scheduler(scheduler)
    require()
    plan = plan_match(variant, white, black, games, seed, control, options, swap_colors, out_dir, max_plies,
                      DEFAULT_MOVE_LIMIT if move_limit is None else move_limit, seats, deal_seed)
    result = plan.result
    try:
        play_on_cluster(scheduler, plan.jobs(), games, plan.names, registry.referee(variant).teams(), variant,
                        out_dir, plan.load_limit, result.games.append, progress)
    except KeyboardInterrupt:
        result.games.sort(key=lambda game: game.index)
        raise MatchInterrupted(result) from None
    result.games.sort(key=lambda game: game.index)
    return result


def play_on_cluster(scheduler: str, jobs: Iterator[Any], total: int, names: dict[str, str],
                    teams: tuple[int, ...], variant: str, out_dir: str | None, load_limit: float,
                    record: Callable[[Any], None],
                    progress: Callable[..., None] | None = None) -> None:
    """Play the games of ``jobs`` (``total`` of them) on ``scheduler``; ``record(summary)`` receives each
    finished game once, its record already written into ``out_dir``. Raises ClusterUnavailable, BotError (an
    outside bot that does not load on a worker), KeyboardInterrupt (Ctrl+C: finished games were recorded)."""
    from app.hosting.match import GameSummary, ProgressBar
    cluster = _Cluster(scheduler)
    match = uuid.uuid4().hex
    waiting: dict[Any, Any] = {}
    try:
        _check_workers(cluster, match, [text for text in names if _outside(text, variant)], variant, load_limit)
        threads = cluster.threads()
        window = max(4, 2 * threads)  # games handed to the scheduler ahead of the workers, never all of them
        queue = _module("distributed").as_completed()
        upcoming = iter(jobs)

        def submit() -> bool:
            job = next(upcoming, None)
            if job is None:
                return False
            future = cluster.client.submit(_play_here, match, job, names, teams, out_dir is not None,
                                           key=f"sightline-game-{job.index + 1}-{match}", pure=False)
            waiting[future] = job
            queue.add(future)
            return True

        while len(waiting) < window and submit():
            pass
        done, asked = 0, time.monotonic()
        pending: Any = None  # a game being recorded: Ctrl+C there still counts it if its record was written
        try:
            with CtrlC() as ctrl_c:
                for future in queue:
                    job = waiting.pop(future)
                    summary, data = _summary(future, job, GameSummary)
                    future.release()  # a result kept on a worker would be computed again if that worker died
                    if data is not None and out_dir:
                        path = Path(out_dir) / f"game-{job.index + 1:04d}.json"
                        summary.path, pending = str(path), summary
                        atomic_write_bytes(path, data)
                    record(summary)
                    pending = None
                    done += 1
                    if time.monotonic() - asked > 10.0:  # the cluster may have grown or shrunk
                        threads, asked = cluster.threads(), time.monotonic()
                        window = max(4, 2 * threads)
                    while len(waiting) < window and submit():
                        pass
                    if progress is not None:
                        if isinstance(progress, ProgressBar):
                            progress(done, total, summary, running=min(len(waiting), threads))
                        else:
                            progress(done, total, summary)
                    ctrl_c.check()
        except KeyboardInterrupt:
            if pending is not None and Path(pending.path).exists():
                record(pending)
            raise
    finally:
        for future in list(waiting):
            future.cancel()
        try:
            cluster.client.run(_close_match, match)
        except Exception:  # noqa: BLE001 - workers gone or the scheduler going: their referees die with them
            pass
        cluster.close()


def _outside(text: str, variant: str) -> bool:
    from app.hosting.agents import BotSpec
    return BotSpec(text, variant).outside


def _summary(future: Any, job: Any, summary_class: Any) -> tuple[Any, bytes | None]:
    """The summary of ``job`` from its finished ``future`` and the bytes of its record; a game whose workers
    kept dying, or that failed on its worker, is counted on the aborted or error line (without a record)."""
    killed = _module("distributed").KilledWorker
    try:
        summary, data = future.result()
    except killed:
        return summary_class(job.index, job.seats, None, Reason.ABORTED.value,
                             "the game was aborted: every Dask worker that played it died during the game "
                             "(Dask gave up on it)", 0, None), None
    except Exception as error:  # noqa: BLE001 - the game failed on its worker: counted as a broken game
        return summary_class(job.index, job.seats, None, "error",
                             f"the game failed on its Dask worker: {error_text(error)}"[:2000], 0, None), None
    return summary, data


def _check_workers(cluster: _Cluster, match: str, outside: list[str], variant: str, load_limit: float) -> None:
    """Load each outside bot on every worker now (as :func:`~app.hosting.worker.check_bot` does at home), so
    that a worker that lacks one stops the match before its first game (raises BotError)."""
    if not outside:
        return
    workers = list(cluster.client.nthreads())
    futures = {address: cluster.client.submit(_check_here, outside, variant, load_limit, workers=[address],
                                              allow_other_workers=False, pure=False,
                                              key=f"sightline-check-{address}-{match}")
               for address in workers}
    for address, future in futures.items():
        try:
            problem = future.result()
        except Exception as error:  # noqa: BLE001 - the worker failed outright
            problem = error_text(error)
        if problem:
            raise BotError(f"on the Dask worker {address}: {problem}")


# -- the workers ------------------------------------------------------------------------------------------------

class _Here:
    """The referees that one worker keeps for one match (a pool per game played at once), and the temporary
    directory where they write records before the records travel to the client."""

    def __init__(self, setup: Any, records: str) -> None:
        self.setup = setup
        self.records = records
        self.free: list[Any] = []
        self.busy: list[Any] = []
        self.closed = False
        self.used = time.monotonic()


_MATCHES: dict[str, _Here] = {}
_LOCK = threading.Lock()


def _allow_children() -> None:
    """Let a Dask worker start processes. Its workers are daemonic processes by default, which multiprocessing
    forbids to have children (they could outlive it); referees end with their worker anyway (app.lifetime)."""
    config = getattr(multiprocessing.current_process(), "_config", None)
    if isinstance(config, dict) and config.get("daemon"):
        config["daemon"] = False


def _here(match: str, variant: str, names: dict[str, str], teams: tuple[int, ...]) -> tuple[_Here, Any]:
    """This worker's referees for ``match`` (made on its first game here) and a pool of them to play in."""
    from app.hosting.match import _Pool, _Setup, _context, _start_server
    _allow_children()
    with _LOCK:
        now = time.monotonic()
        for other, forgotten in list(_MATCHES.items()):
            if other != match and not forgotten.busy and now - forgotten.used > _FORGOTTEN:
                _close_locked(other)
        here = _MATCHES.get(match)
        if here is None:
            setup = _Setup(variant, dict(names), dict(os.environ), os.getcwd(), tuple(teams))
            here = _MATCHES[match] = _Here(setup, tempfile.mkdtemp(prefix="sightline-match-", dir=_scratch()))
        here.used = now
        if here.closed:
            raise RuntimeError("the match was stopped")
        if here.free:
            pool = here.free.pop()
        else:
            outside = any(_outside(text, variant) for text in names)
            context = _context(outside)
            _start_server(context)
            pool = _Pool(context, here.setup, 1)
        here.busy.append(pool)
    return here, pool


def _scratch() -> str | None:
    """The worker's own scratch directory, which Dask removes when the worker closes (and, for a worker that was
    killed, when the next worker starts beside it); ``None`` (the system's temporary directory) outside one."""
    try:
        return str(_module("distributed").get_worker().local_directory)
    except Exception:  # noqa: BLE001 - not in a worker
        return None


def _play_here(match: str, job: Any, names: dict[str, str], teams: tuple[int, ...],
               records: bool) -> tuple[Any, bytes | None]:
    """A Dask task: play ``job`` in a referee of this worker, as ``--jobs`` does at home; return its summary and
    the bytes of its record (``records``: the client keeps records)."""
    here, pool = _here(match, job.variant, names, teams)
    try:
        summary = _play_one(pool, dataclasses.replace(job, out_dir=here.records if records else None))
    finally:
        with _LOCK:
            here.busy.remove(pool)
            if here.closed:
                pool.kill()
                if not here.busy:
                    _MATCHES.pop(match, None)
            else:
                here.free.append(pool)
    data = None
    if summary.path:
        try:
            data = Path(summary.path).read_bytes()
            os.remove(summary.path)
        except OSError:
            data = None
    summary.path = None
    return summary, data


def _play_one(pool: Any, job: Any) -> Any:
    """Give ``job`` to ``pool`` and wait for its summary (the referee may still run the bots' end-of-game hooks:
    the pool sees to that with the next game). A referee that dies before the game begins is replaced, once."""
    given = False
    while True:
        while pool.returned and pool.take(pool.returned[0]):
            pool.returned.popleft()
        if not given and not pool.returned:
            given = pool.take(job)
        for summary in pool.wait():
            if summary.index == job.index:
                return summary
        if given and not pool.busy and not pool.returned:
            raise RuntimeError("the referee left without a result")  # not expected: the pool scores every loss


def _check_here(outside: list[str], variant: str, load_limit: float) -> str:
    """A Dask task: load each outside bot in a throwaway process on this worker; what went wrong, or ``""``."""
    from app.hosting.worker import check_bot
    _allow_children()
    for text in outside:
        try:
            check_bot(text, variant, load_limit)
        except BotError as error:
            return str(error)
    return ""


def _close_match(match: str) -> None:
    """Run on every worker when a match ends: end its referees and remove its temporary records."""
    with _LOCK:
        _close_locked(match)


def _close_locked(match: str) -> None:
    here = _MATCHES.get(match)
    if here is None:
        return
    here.closed = True
    for pool in here.free:
        pool.close()
        pool.kill()
    here.free.clear()
    for pool in here.busy:  # a game still playing (a match stopped): its task ends when its referee has gone
        for referee in pool.referees:
            referee.terminate()
    if not here.busy:
        del _MATCHES[match]
    shutil.rmtree(here.records, ignore_errors=True)
