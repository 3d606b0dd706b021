"""One seat's bot in its own worker process (no Qt): a bot that hangs, crashes or kills its interpreter costs
only that process, never the app.

:class:`BotProcess` starts a worker from a fork server (``spawn`` where there is none; never a plain ``fork``,
because the app runs Qt threads). The worker creates the agent with ``BotSpec(spec, variant).create(seed)``,
calls ``agent.start(seat, options, opponent_name)`` and then serves the host's messages in order:

- :meth:`BotProcess.observe` hands over the seat's new observations (fed to ``agent.observe`` in order);
- :meth:`BotProcess.request` asks for an action and returns at once;
- :meth:`BotProcess.poll` returns the answer as a :class:`WorkerEvent` once it is there (never blocks);
  :meth:`BotProcess.fileno` is the fd to watch (a ``QSocketNotifier``) so that a window need not poll;
- :meth:`BotProcess.end` tells the bot the result (best effort, bounded); :meth:`BotProcess.kill` stops it.

Whatever the bot does (raise, answer something that cannot be sent, spin, exit) arrives as an ``"error"`` or
``"died"`` event, or is cut short by the host's deadline and :meth:`~BotProcess.kill`; nothing the bot does is
raised in the host. A failure in ``create``, ``start`` or ``observe`` breaks the bot: it is reported once, as it
happens, and every later request is answered with an error.

Each worker leads a process group of its own: :meth:`~BotProcess.kill` (and the end of :meth:`~BotProcess.end`)
stops the whole group, so processes a bot starts do not outlive it (unless they leave the group themselves).

:class:`ProcessAgent` wraps a BotProcess as an :class:`~app.bots.contract.Agent` for the game runner: a match's
referee hosts an outside bot with it, so that the bot shares no memory with the referee or the other seat.
:func:`check_bot` loads an outside bot's class in a throwaway worker, with a time limit, before a match.

Everything crossing the pipes is pickled: observations (named tuples of ``chess`` objects and engine
dataclasses), :class:`~app.bots.base.ActionRequest` (its RBC ``MoveActions`` pickles as it is: a ``__slots__``
class, handled by the default protocol), actions, the outcome and the :class:`~app.engine.record.GameRecord`.
Messages to the worker are pickled by the caller (a host bug such as an unpicklable observation raises there)
and written by a helper thread, so that a full pipe never blocks the caller.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver
import multiprocessing.util
import io
import os
import pickle
import queue
import random
import signal
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing import resource_tracker
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any

from app import games
from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord

from app.bots.base import ActionRequest
from app.bots.contract import Agent, AgentFailed, AgentTimeout, BotError, HostFailure, error_text, short_repr
from app.hosting.agents import BotSpec
from app.lifetime import ORPHANED_EXIT_CODE, exit_with_parent

__all__ = ["BotProcess", "ProcessAgent", "WorkerEvent", "check_bot", "warm_up"]

def _preload() -> list[str]:
    """The bots' common modules, then what each game's registry entry names: what it needs beyond them, its
    referee and its built-in bots' modules (the same a match's fork server loads: either may start the server)."""
    modules = ["app.hosting.worker", "app.hosting.agents", "app.hosting.bot_registry", "app.engine.variants"]
    for game in games.all():
        for module in (*game.preload, game.referee.module, *(bot.module for _, bot in game.bots)):
            if module not in modules:
                modules.append(module)
    return modules


_PRELOAD = _preload()
"""Imported once by the fork server (about 0.5 s, in the background): every worker then starts without importing
them again (a bot's worker that imported its modules itself spent about 0.1 s of processor time doing so)."""


@dataclass(frozen=True)
class WorkerEvent:
    """What a bot's worker reports.

    ``kind`` is ``"action"`` (``action`` holds the answer), ``"error"`` (the bot raised, failed to load or
    answered something that cannot be sent; ``message`` says what, with the exception type and where) or
    ``"died"`` (the process ended by itself; ``exitcode`` is its exit code, negative for a signal).
    ``message`` is a phrase that follows the bot's name: ``"raised RuntimeError: boom at bot.py:12"``,
    ``"failed to start: ..."``, ``"crashed its worker process (exit code 3)"``.
    ``during`` names the call that failed: ``"start"`` (create and start), ``"observe"`` or ``"act"``.
    ``seconds`` is the time the bot spent in the call, measured in the worker (0 for ``"died"``).
    """

    kind: str
    action: Action | None = None
    message: str = ""
    seconds: float = 0.0
    exitcode: int | None = None
    during: str = ""


def _context() -> Any:
    """A fork server where there is one (workers start fast and never inherit the app's threads), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)  # ignored once the server runs (app.hosting.match may have started it)
        return context
    return multiprocessing.get_context("spawn")


def warm_up() -> None:
    """Start the fork server now, at launch: it returns at once and the server imports its preloads in the
    background (about 0.5 s), so that the first bot of a game starts in milliseconds instead of blocking its
    caller while the server starts. Harmless where there is no fork server."""
    context = _context()
    if context.get_start_method() == "forkserver":
        _start_process(multiprocessing.forkserver.ensure_running)  # a new server if the last one was reaped elsewhere


def describe(error: BaseException) -> str:
    """``Type: message at file.py:line`` (the innermost frame), as the runner reports bot failures."""
    text = error_text(error)
    if isinstance(error, BotError):
        return text  # already says what went wrong; the frame would be Sightline's own
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        frame = frames[-1]
        text += f" at {os.path.basename(frame.filename)}:{frame.lineno}"
    return text


class BotProcess:
    """A bot for one seat, running in a worker process. See the module's documentation.

    ``ready`` becomes true (and ``name`` the agent's name, ``startup_seconds`` the time from construction) when
    :meth:`poll` or :meth:`wait` sees the worker's greeting. At most one request may be pending at a time.
    """

    def __init__(self, spec: str, variant: str, seat: Seat, options: dict[str, Any], opponent_name: str,
                 seed: int | None = None, *, environment: dict[str, str] | None = None) -> None:
        self.spec = spec
        self.variant = variant
        self.seat = seat
        self.name = spec
        self.ready = False
        self.startup_seconds: float | None = None
        self.exitcode: int | None = None
        self._created = time.monotonic()
        self._pending: int | None = None
        self._next_id = 0
        self._closed = False
        self._ending = False
        self._orphaned = False
        self._backlog: deque[WorkerEvent] = deque()
        try:
            self.name = BotSpec(spec, variant).display_name
        except Exception:  # noqa: BLE001 - only a label; the worker reports a bad spec
            pass
        context = _context()
        self._via_server = context.get_start_method() == "forkserver"
        commands_in, commands_out = context.Pipe(duplex=False)
        events_in, events_out = context.Pipe(duplex=False)
        self._process: BaseProcess = context.Process(
            target=_worker_main, name=f"sightline-bot-{seat}", daemon=True,
            args=(spec, variant, seat, dict(options), opponent_name, seed, commands_in, events_out,
                  dict(os.environ) if environment is None else dict(environment), os.getcwd()))
        try:
            _start_process(self._process.start)
        except BaseException:
            commands_out.close()
            events_in.close()
            raise
        finally:
            commands_in.close()  # the worker holds the only other ends: EOF tells each side the other is gone
            events_out.close()
        self._events: multiprocessing.connection.Connection = events_in
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._sender = threading.Thread(target=_send_loop, args=(self._outbox, commands_out), daemon=True,
                                        name=f"sightline-bot-{seat}-send")
        self._sender.start()

    # -- state ----------------------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        """True while the worker process runs and has been neither killed nor reported dead."""
        return not self._closed and not self._exited()

    @property
    def pending(self) -> bool:
        """True while a request waits for its answer."""
        return self._pending is not None

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def sentinel(self) -> int:
        """A handle that becomes ready when the process ends (``multiprocessing``'s sentinel). It is also ready,
        for good, once the fork server that started the process has died (see :attr:`orphaned`)."""
        return int(self._process.sentinel)

    @property
    def orphaned(self) -> bool:
        """True once the fork server that started this process is known to have died while the process lives on
        (a bot may stop it). The process works on, but :attr:`sentinel` no longer means anything: watch
        :meth:`fileno` only; its end of file still says when the process ends."""
        if not self._orphaned and not self._closed:
            self._exited()  # notices a server that has died since the last look
        return self._orphaned

    def fileno(self) -> int:
        """The fd of the pipe the answers arrive on: readable when :meth:`poll` has something (or the worker
        died: end of file). Do not use it after :meth:`kill` or :meth:`end`."""
        return self._events.fileno()

    # -- talking to the bot ---------------------------------------------------------------------------------
    def observe(self, observations: list[Any]) -> None:
        """Hand the seat's new observations to the bot (in order). Does not block."""
        if observations:
            self._send(("observe", list(observations)))

    def request(self, request: ActionRequest) -> None:
        """Ask the bot for an action; the answer comes from :meth:`poll`. Does not block.

        Raises RuntimeError when a request is already pending or the process is gone (host bugs).
        """
        if self._pending is not None:
            raise RuntimeError("a request is already pending")
        if self._closed:
            raise RuntimeError("the bot's process is not running")
        self._next_id += 1
        self._send(("act", self._next_id, request))
        self._pending = self._next_id

    def poll(self) -> WorkerEvent | None:
        """The next answer or failure, or None when there is none yet. Never blocks.

        ``"died"`` is reported once, when the worker ended by itself (not after :meth:`kill` or :meth:`end`).
        """
        if self._backlog:
            return self._backlog.popleft()
        while not self._closed:
            try:
                if not self._events.poll():
                    if not self._exited():
                        return None
                    if not self._events.poll():  # it ended after its last word: report the death
                        return self._died()
                data = self._events.recv_bytes()
            except (EOFError, OSError):
                return self._died()
            try:
                message = _SafeUnpickler(io.BytesIO(data)).load()
            except Exception as error:  # noqa: BLE001 - the bot sent something the game will not read
                if self._pending is None:
                    continue
                self._pending = None
                return WorkerEvent("error", during="act",
                                   message=f"answered something the game cannot read ({describe(error)})")
            event = self._receive(message)
            if event is not None:
                return event
        return None

    def wait(self, timeout: float | None = None) -> WorkerEvent | None:
        """Block up to ``timeout`` seconds for the next event (for scripts and tests; a window uses poll)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            event = self.poll()
            if event is not None or self._closed:
                return event
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            self._wait_for_news(left)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the worker has started its bot (True), failed or timed out (False).

        An event seen meanwhile (a failure to start) is kept for :meth:`poll`.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            event = self.poll()
            if event is not None:
                self._backlog.appendleft(event)
                return False
            if self.ready:
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if self._closed or (left is not None and left <= 0):
                return False
            self._wait_for_news(left)

    def end(self, outcome: Outcome, record: GameRecord, timeout: float = 2.0) -> bool:
        """Tell the bot the game is over, wait up to ``timeout`` seconds for it to finish, then kill it.

        True when the bot finished in time. With ``timeout`` 0 this only sends the news and returns: the worker
        exits by itself after ``agent.end``; call :meth:`kill` later to make sure (and to free the pipes).
        """
        if self._closed:
            return False
        try:
            self._send(("end", outcome, record))
        except Exception:  # noqa: BLE001 - a record that does not pickle: the bot hears nothing
            self.kill()
            return False
        self._ending = True
        if timeout <= 0:
            return True
        deadline = time.monotonic() + timeout
        while not self._exited():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if self._orphaned:
                time.sleep(min(left, 0.05))
            else:
                multiprocessing.connection.wait([self._process.sentinel], left)  # does not reap: see kill()
        self.kill()
        return self.exitcode == 0

    def kill(self) -> None:
        """Stop the worker and every process it started in its group at once (SIGKILL), and free the pipes.
        Returns once the worker has wholly ended (or after about a second): what it started out of its group is
        then its referee's to sweep (see :func:`kill_strays`). Safe to call more than once."""
        if not self._closed:
            self._closed = True
            self._pending = None
            # The group first, while the worker is not yet reaped: its pid (the group's id) cannot be reused.
            _kill_group(self._process.pid)
            pid = self._process.pid
            if not self._orphaned:
                self._exited()  # a fork server that died unseen: wait for the worker below, not on its sentinel
            if self._orphaned and pid is not None and pid_alive(pid):
                os.kill(pid, signal.SIGKILL)  # (multiprocessing believes it has ended)
                deadline = time.monotonic() + 1.0
                while pid_alive(pid) and time.monotonic() < deadline:  # no sentinel to wait on
                    time.sleep(0.005)
            elif self._process.exitcode is None:
                self._process.kill()
            self._process.join(1.0)
            self.exitcode = self._process.exitcode
            self._release()

    close = kill

    # -- inside ---------------------------------------------------------------------------------------------
    def _send(self, message: tuple[Any, ...]) -> None:
        data = bytes(ForkingPickler.dumps(message))  # pickling errors are raised here, to the caller
        if not self._closed:
            self._outbox.put(data)

    def _receive(self, message: tuple[Any, ...]) -> WorkerEvent | None:
        kind = message[0]
        if kind == "ready":
            _, name, _seconds = message
            self.name = str(name)
            self.ready = True
            self.startup_seconds = time.monotonic() - self._created
            return None
        if kind == "action":
            _, request_id, action, seconds = message
            if request_id != self._pending:
                return None  # the answer to a request that was given up
            self._pending = None
            return WorkerEvent("action", action=action, seconds=seconds, during="act")
        if kind == "error":
            _, request_id, during, text, seconds = message
            if request_id is not None:
                if request_id != self._pending:
                    return None
                self._pending = None
            return WorkerEvent("error", message=text, seconds=seconds, during=during)
        return None  # "ended", or anything else: nothing for the host

    def _exited(self) -> bool:
        """True once the worker process has ended (it is not reaped here, so its group can still be killed)."""
        if not self._orphaned:
            if not multiprocessing.connection.wait([self._process.sentinel], 0):
                return False
            if not self._via_server or not pid_alive(self._process.pid):
                return True
            # A fork server reports the end of each of its processes through the sentinel, and when the server
            # itself dies every sentinel reads as an end (exit code 255) although the processes live on.
            self._orphaned = True
        return not pid_alive(self._process.pid)

    def _wait_for_news(self, timeout: float | None) -> None:
        if self._orphaned:  # the sentinel is always ready now; the answer pipe's end of file tells the end
            multiprocessing.connection.wait([self._events], 0.25 if timeout is None else min(timeout, 0.25))
        else:
            multiprocessing.connection.wait([self._events, self._process.sentinel], timeout)

    def _died(self) -> WorkerEvent | None:
        self._closed = True
        self._pending = None
        _kill_group(self._process.pid)  # what it started dies with it
        self._process.join(1.0)
        if self._process.exitcode is None:
            self._process.kill()  # it closed its pipe but lives on: make it so
            self._process.join(1.0)
        self.exitcode = self._process.exitcode
        self._release()
        if self._ending:
            return None
        code = self.exitcode
        if code is not None and code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        return WorkerEvent("died", message=f"crashed its worker process ({how})", exitcode=code)

    def _release(self) -> None:
        self._outbox.put(None)
        try:
            self._events.close()
        except OSError:
            pass

    def __del__(self) -> None:
        # Forgotten without kill() or end(): close the command pipe; the worker sees it and leaves by itself.
        outbox = getattr(self, "_outbox", None)  # absent when the process could not be started
        if not getattr(self, "_closed", True) and outbox is not None:
            outbox.put(None)

    def __repr__(self) -> str:
        state = "alive" if self.alive else "stopped"
        return f"<BotProcess {self.name!r} seat {self.seat} pid {self._process.pid} {state}>"


def pid_alive(pid: int | None) -> bool:
    """True while the process ``pid`` runs (a zombie, which has ended, does not count)."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            fields = stream.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return True  # no /proc here: it exists, which is the best we know
    return _running(fields)


def _running(fields: list[bytes]) -> bool:
    """Whether a process runs, from the fields of its ``/proc/<pid>/stat`` after the name. A zombie has ended,
    but only once every thread of it has: its first thread (whose state the file shows) can end first while the
    others run on, killed or not, and until the last one ends the processes it started are still its children
    (only then are they handed to a subreaper)."""
    if not fields or fields[0] not in (b"Z", b"X"):
        return bool(fields)
    try:
        return int(fields[17]) > 1  # num_threads: the ended first thread counts until the process is reaped
    except (IndexError, ValueError):
        return False


def become_subreaper() -> bool:
    """Linux: make this process the one that inherits the processes its descendants leave behind (whose parent
    died), so that :func:`kill_strays` can find a process that a bot started and moved out of its group."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4


def make_undumpable() -> bool:
    """Linux: forbid other processes of the same user to ptrace this one or read its memory (through
    ``/proc/<pid>/mem``), and write no core dump. Best effort: False when it could not be done. A match's
    referee and every bot worker call it first thing, so that an outside bot can read neither."""
    return _prctl(_PR_SET_DUMPABLE, 0)


def _prctl(option: int, value: int) -> bool:
    """Linux's prctl(option, value), best effort: False elsewhere or when refused."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def kill_strays(keep: set[int]) -> list[int]:
    """Kill every process below this one but ``keep`` (Linux; elsewhere nothing), reap those that are its
    children, and return their pids.

    A match's referee calls it after each game with outside bots, with its own helpers (fork server, resource
    tracker) as ``keep``: nothing else of its own runs below it then. As a subreaper it inherits what their bots
    left behind, but only once the process that started it has wholly ended, which can be after a look at its
    children (a bot's worker killed a moment ago can still be ending). So the whole tree below it is swept, down
    through every process, dead or alive, and again until a look finds nothing: whatever a process started is
    found under it, before or after it is handed over.
    """
    return _sweep(keep, reap=True)


def kill_descendants() -> list[int]:
    """Kill every process descended from this one (Linux; elsewhere nothing), with the process groups they
    lead, and return their pids. A match's referee calls it when it is told to stop in the middle of a game: its
    bots' workers, what they started, and what it adopted as a subreaper end with it."""
    return _sweep(set(), reap=False)


_SWEEP_LIMIT = 2.0
"""Seconds a sweep goes on killing what it finds below its process (a process stuck in the kernel can take a
while to end; a bot that starts processes faster than they are killed is not followed further)."""


def _sweep(keep: set[int], reap: bool) -> list[int]:
    """Kill the processes below this one but ``keep`` (whose own children are swept all the same), look again
    until none runs (and, with ``reap``, none of this process's children waits to be reaped), and return them."""
    me = os.getpid()
    killed: list[int] = []
    deadline = time.monotonic() + _SWEEP_LIMIT
    while True:
        table = _process_table()
        if table is None:
            return killed
        below = _below(table, me, keep)
        running = [pid for pid in below if table[pid][1]]
        ours = [pid for pid in below if reap and table[pid][0] == me]
        if not running and not ours:
            return killed
        for pid in running:
            _kill_group(pid)  # one that leads a group of its own takes it along
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            if pid not in killed:
                killed.append(pid)
        for pid in ours:
            try:
                os.waitpid(pid, os.WNOHANG)  # an ended child of this process: gone for good once reaped
            except ChildProcessError:
                pass
        if time.monotonic() > deadline:
            return killed
        time.sleep(0.002)  # the killed are ending: look again


def _process_table() -> dict[int, tuple[int, bool]] | None:
    """Every process as ``pid -> (parent's pid, runs)`` (from /proc; None where there is none). A zombie is
    listed too (it does not run): its children, if any thread of it still runs, are still its own."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    table: dict[int, tuple[int, bool]] = {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
            table[int(entry)] = (int(fields[1]), _running(fields))
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return table


def _below(table: dict[int, tuple[int, bool]], root: int, keep: set[int]) -> list[int]:
    """The processes under ``root`` in ``table`` (not ``root``), through every process, minus ``keep``."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _runs) in table.items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    seen = {root}
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            if pid not in seen:
                seen.add(pid)
                todo.append(pid)
                if pid not in keep:
                    found.append(pid)
    return found


def helper_processes() -> set[int]:
    """The pids of this process's own multiprocessing helpers (its fork server and resource tracker)."""
    pids = {_process_server(), getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)}
    return {pid for pid in pids if isinstance(pid, int)}


def _kill_group(pid: int | None) -> None:
    """SIGKILL the process group that the worker ``pid`` leads (its id is the worker's pid)."""
    if pid is None or not hasattr(os, "killpg"):
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:  # no such group (the worker had not made it yet, or everyone in it is gone)
        pass


def _start_process(make: Any) -> Any:
    """Call ``make()`` (which starts a process), again up to twice if the fork server failed on the way: a bot may
    have stopped the server (its parent); the server is then forgotten and the next start runs a fresh one."""
    for attempt in range(3):
        try:
            return make()
        except (EOFError, ConnectionError, ChildProcessError, FileNotFoundError):
            failed = _process_server()
            if attempt == 2:
                raise
            if failed is not None:
                _forget_process_server(failed)
    raise AssertionError("unreachable")


def _forget_process_server(failed: int) -> None:
    """Make the next start run a new fork server if the one on record is still ``failed``, the pid of a server that
    failed a request (refused or broke off the connection, or waiting on its pid said it is no child of ours); a
    server that another thread has started since is kept. multiprocessing checks whether its server runs by waiting
    on the server's pid, and uses it for as long as that wait does not say it ended: for ever, once a dead server
    was reaped elsewhere and its pid given to another child of this process. That pid is not signalled or waited
    on here (it may be another process's now): a server that was still ending stays a zombie."""
    server = getattr(multiprocessing.forkserver, "_forkserver", None)
    lock = getattr(server, "_lock", None)
    if server is None or lock is None:
        return
    with lock:
        if getattr(server, "_forkserver_pid", None) != failed:
            return
        alive_fd = server._forkserver_alive_fd
        address = server._forkserver_address
        server._forkserver_pid = server._forkserver_alive_fd = server._forkserver_address = None
    try:
        os.close(alive_fd)  # were the server somehow still running, it ends once its clients let go
    except (OSError, TypeError):
        pass
    if isinstance(address, str) and not multiprocessing.util.is_abstract_socket_namespace(address):
        try:
            os.unlink(address)  # its socket's file, which the server removes only when it ends normally
        except OSError:
            pass


def _process_server() -> int | None:
    """The pid of this process's fork server (the parent of its bots' workers), if it runs one."""
    pid = getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_forkserver_pid", None)
    return pid if isinstance(pid, int) else None


def _has_exited(pid: int) -> bool:
    """True when our child ``pid`` has ended (without reaping it: multiprocessing does that itself)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except (OSError, AttributeError):  # not our child, or no waitid on this platform
        return False


class ProcessAgent(Agent):
    """An outside bot for the game runner, in a :class:`BotProcess` of its own (see the module's documentation).

    :meth:`launch` starts the process without waiting (a host starts both seats' bots at once); :meth:`start`
    waits for it to be ready. Observations are kept and handed over with the next request, so the bot
    reads them on its own time. Every call waits at most :attr:`time_limit` seconds: a bot that has not
    answered by then is killed and :class:`~app.bots.contract.AgentTimeout` raised; any failure of the bot
    (raising, crashing, answering what cannot be read) raises :class:`~app.bots.contract.AgentFailed` with a
    phrase that follows its name. :meth:`close` kills the process and everything it started; call it when the
    game is over, whatever happened.

    ``sole_outsider`` says this is the only bot of its game that is not Sightline's own: if the fork server
    its process came from is found stopped during the game, this bot did it and loses; with two outside bots
    nobody can be blamed and the game is aborted.
    """

    isolated = True

    def __init__(self, spec: str, variant: str, name: str, seed: int | None, *,
                 environment: dict[str, str] | None = None, sole_outsider: bool = True) -> None:
        self.spec = spec
        self.variant = variant
        self.name = name
        self.seed = seed
        self.environment = environment
        self.sole_outsider = sole_outsider
        self.process: BotProcess | None = None
        self._launch_error = ""
        self._server: int | None = None
        self._unsent: list[Any] = []

    def launch(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        """Start the bot's process (once); a failure is kept for :meth:`start` to report."""
        if self.process is not None or self._launch_error:
            return
        try:
            self.process = BotProcess(self.spec, self.variant, seat, options, opponent_name, self.seed,
                                      environment=self.environment)
        except Exception as error:  # noqa: BLE001 - e.g. the system refuses another process
            self._launch_error = error_text(error)
            return
        self._server = _process_server()

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self.launch(seat, options, opponent_name)
        process = self.process
        if process is None:
            raise HostFailure(f"the process of {self.name} could not be started ({self._launch_error})")
        if not process.wait_ready(self.time_limit):
            event = process.poll()  # a failure seen while waiting is kept for poll
            process.kill()
            if event is None:
                raise AgentTimeout()
            raise AgentFailed(event.message)
        self._check_server()

    def observe(self, observation: Any) -> None:
        self._unsent.append(observation)

    def act(self, request: ActionRequest) -> Action:
        process = self.process
        if process is None or not process.alive:
            raise AgentFailed("is not running")
        self._flush(process)
        process.request(request)
        event = process.wait(self.time_limit)
        if event is None:
            process.kill()
            raise AgentTimeout()
        if event.kind != "action" or event.action is None:
            process.kill()
            raise AgentFailed(event.message or "answered nothing")
        self._check_server()
        return event.action

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        process = self.process
        try:
            if process is not None and process.alive:
                self._flush(process)
                process.end(outcome, record, timeout=2.0 if self.time_limit is None else self.time_limit)
        finally:
            self.close()

    def close(self) -> None:
        """Kill the bot's process and every process it started (safe to call more than once)."""
        if self.process is not None:
            self.process.kill()

    def _flush(self, process: BotProcess) -> None:
        if self._unsent:
            process.observe(self._unsent)
            self._unsent = []

    def _check_server(self) -> None:
        if self._server is not None and _has_exited(self._server):
            self._server = None
            if self.sole_outsider:
                raise AgentFailed("stopped the process that Sightline starts bots from")
            raise HostFailure("the process that Sightline starts bots from was stopped during the game, "
                              "by one of its two outside bots")


def check_bot(spec: str, variant: str, timeout: float, *, environment: dict[str, str] | None = None) -> str:
    """Load an outside bot's class in a throwaway worker process and return the class's name.

    The bot's module is imported there, never in the caller: a bot that exits, crashes or hangs while it
    loads costs only that process. Raises :class:`~app.bots.contract.BotError` saying what went wrong,
    including a load that takes longer than ``timeout`` seconds.
    """
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_check_main, name="sightline-bot-check", daemon=True,
                              args=(spec, variant, sender, dict(os.environ) if environment is None
                                    else dict(environment), os.getcwd()))
    try:
        _start_process(process.start)
    except Exception as error:  # noqa: BLE001 - e.g. the system refuses another process
        receiver.close()
        raise BotError(f"cannot start a process to load {spec}: {error_text(error)}") from None
    finally:
        sender.close()
    try:
        ready = multiprocessing.connection.wait([receiver, process.sentinel], timeout)
        message: Any = None
        if receiver in ready:
            try:
                message = _SafeUnpickler(io.BytesIO(receiver.recv_bytes(100_000))).load()
            except Exception:  # noqa: BLE001 - nothing readable came: judged by how the process ended
                message = None
        if isinstance(message, tuple) and len(message) == 2 and all(isinstance(part, str) for part in message):
            kind, text = str(message[0]), str(message[1])
            if kind == "ok":
                return text
            raise BotError(text)
        if not ready:
            raise BotError(f"{spec} took longer than {timeout:g} s to load, and was stopped")
        process.join(1.0)
        raise BotError(f"{spec} ended its process while being loaded (exit code {process.exitcode})")
    finally:
        _kill_group(process.pid)
        process.kill()
        process.join(1.0)
        receiver.close()


def _check_main(spec: str, variant: str, sender: multiprocessing.connection.Connection,
                environment: dict[str, str], cwd: str) -> None:
    """Body of :func:`check_bot`'s worker."""
    _settle(environment, cwd)
    try:
        cls, _level = BotSpec(spec, variant).bot_class()
        message = ("ok", str(getattr(cls, "__name__", spec)))
    except BaseException as error:  # noqa: BLE001 - reported to the caller
        message = ("error", str(error) if isinstance(error, BotError) else f"{spec}: {error_text(error)}")
    try:
        sender.send(message)
    except BaseException:  # noqa: BLE001 - the caller gave up
        pass
    _leave(0)


def _settle(environment: dict[str, str], cwd: str) -> None:
    """Start of a worker: a process group of its own, the host's environment and folder, Ctrl-C ignored; it ends
    with its host, however the host ends."""
    make_undumpable()  # before the bot runs: the other seat's bot may not read this process
    become_subreaper()  # what the bot starts and leaves behind stays below this process while it lives...
    _end_with_host()  # ...and ends with it when its host ends, however (a bot may kill its referee)
    try:
        os.setsid()  # its own group: kill() stops what the bot starts, too
    except (OSError, AttributeError):
        pass
    os.environ.clear()
    os.environ.update(environment)
    try:
        os.chdir(cwd)  # relative bot paths mean what they meant to the app
    except OSError:
        pass
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the app; it ends its workers itself
    except (ValueError, OSError, AttributeError):
        pass


def _end_with_host() -> None:
    """End this worker as soon as the process that started it (its host) ends, however it ends, and first every
    process below it (see :func:`_leave`): a host killed with SIGKILL (a bot may kill its referee) can neither kill
    the worker nor sweep what its bot started, out of its group and session too (the worker is their subreaper).
    As :func:`app.lifetime.exit_with_parent` otherwise (the same exit code)."""
    parent = multiprocessing.parent_process()
    try:
        sentinel = parent.sentinel if parent is not None else None
    except ValueError:
        sentinel = None
    if sentinel is None:
        exit_with_parent()  # nothing to watch here either; it says so
        return

    def watch() -> None:
        try:
            multiprocessing.connection.wait([sentinel])
        except OSError:
            pass  # the sentinel itself is gone: the host is no more either
        _leave(ORPHANED_EXIT_CODE)  # not sys.exit: the bot's threads or loop must not hold it

    threading.Thread(target=watch, name="sightline-end-with-host", daemon=True).start()


def _send_loop(outbox: queue.Queue[bytes | None], connection: multiprocessing.connection.Connection) -> None:
    """The host's writer thread (holds no reference to its BotProcess, so that one can be collected)."""
    try:
        while True:
            data = outbox.get()
            if data is None:
                break
            connection.send_bytes(data)
    except (OSError, ValueError):
        pass  # the worker is gone: poll reports it
    finally:
        connection.close()


_SAFE_BUILTINS = frozenset({"bool", "bytes", "complex", "dict", "float", "frozenset", "int", "list", "object", "set",
                            "slice", "str", "tuple"})


def _game_modules() -> frozenset[str]:
    """The modules of the registered games' referees and views: where a game's actions, observations and views
    live, so a bot of any registered game (``SIGHTLINE_GAMES`` included) can answer with its game's classes.

    Only the modules a definition names: a game's bots, presenters and writers, and any other module, stay
    refused. Read each time (the registry caches its games), so it follows ``SIGHTLINE_GAMES`` as the
    registry does.
    """
    return frozenset(module for definition in games.all()
                     for module in (definition.referee.module, definition.view.module))


def _allowed_module(module: str) -> bool:
    # The engine's core (the actions every game shares: resign, draw offers), the team games' shared draw offer
    # (its actions, answered by their bots) and the registered games' own rules and views, not every engine
    # module: an answer has no business building a session, an inference or a record.
    return module in ("chess", "app.engine.core", "app.games.team_draw") or module in _game_modules()


class _SafeUnpickler(pickle.Unpickler):
    """Reads a worker's messages: only classes of the engine's core, of ``chess`` and of the registered games'
    rules and views (and plain data) may be built.

    A bot's answer is unpickled in the app; a plain unpickler would let it run any callable there (and so
    crash or hang the app after all). Classes only, never functions, even from the allowed modules.
    """

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _SAFE_BUILTINS or module != "builtins" and _allowed_module(module):
            found = super().find_class(module, name)
            # Only a class defined in that module (pickle always names a class by its own module): a class a
            # game's rules merely import (a process launcher, say) is not one of its actions or observations.
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a bot's answer")


# -- the worker process -----------------------------------------------------------------------------------------

def _worker_main(spec: str, variant: str, seat: Seat, options: dict[str, Any], opponent_name: str,
                 seed: int | None, commands: multiprocessing.connection.Connection,
                 events: multiprocessing.connection.Connection, environment: dict[str, str], cwd: str) -> None:
    """Body of a bot's worker process."""
    started = time.perf_counter()
    _settle(environment, cwd)

    inbox: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        # Reads ahead so that the host's writes never wait on a busy bot; when the host is gone (its end of the
        # pipe closed: it quit, crashed or was killed), the worker leaves at once, even in the middle of a call.
        while True:
            try:
                data = commands.recv_bytes()
            except (EOFError, OSError):
                _leave(0)
                return
            try:
                inbox.put(ForkingPickler.loads(data))
            except BaseException as error:  # noqa: BLE001 - a message that does not unpickle here
                inbox.put(("broken", describe(error)))

    def send(message: tuple[Any, ...]) -> None:
        try:
            events.send(message)
        except (OSError, EOFError):
            _leave(0)  # nobody listens any more

    threading.Thread(target=read, daemon=True, name="sightline-bot-read").start()

    agent: Any = None
    broken: str | None = None
    try:
        if seed is not None:
            random.seed(seed)  # hosted reconchess bots use the global generator (as in matches)
        agent = BotSpec(spec, variant).create(seed)
        agent.start(seat, options, opponent_name)
    except BaseException as error:  # noqa: BLE001 - reported to the host
        broken = f"failed to start: {describe(error)}"
        send(("error", None, "start", broken, time.perf_counter() - started))
    else:
        send(("ready", agent.name, time.perf_counter() - started))

    while True:
        message = inbox.get()
        kind = message[0]
        if kind == "observe":
            if broken is not None or not agent.observes:
                continue
            begun = time.perf_counter()
            try:
                for observation in message[1]:
                    agent.observe(observation)
            except BaseException as error:  # noqa: BLE001
                broken = f"raised {describe(error)}"
                send(("error", None, "observe", broken, time.perf_counter() - begun))
        elif kind == "act":
            _, request_id, request = message
            if broken is not None:
                send(("error", request_id, "act", f"cannot act: it {broken}", 0.0))
                continue
            begun = time.perf_counter()
            try:
                action = agent.act(request)
            except BaseException as error:  # noqa: BLE001
                send(("error", request_id, "act", f"raised {describe(error)}", time.perf_counter() - begun))
                continue
            seconds = time.perf_counter() - begun
            try:
                events.send(("action", request_id, action, seconds))
            except (OSError, EOFError):
                _leave(0)
            except Exception as error:  # noqa: BLE001 - pickling fails before anything is written
                send(("error", request_id, "act",
                      f"answered {short_repr(action)}, which cannot be sent to the game ({describe(error)})",
                      seconds))
        elif kind == "end":
            _, outcome, record = message
            if broken is None:
                try:
                    agent.end(outcome, record)
                except BaseException:  # noqa: BLE001 - the game is over; a failing clean-up changes nothing
                    pass
            send(("ended",))
            _leave(0)
        elif kind == "broken":
            broken = f"could not read the game's message: {message[1]}"
            send(("error", None, "observe", broken, 0.0))


def _leave(code: int) -> None:
    """End this worker, and first every process below it (whatever its bot started and left running)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    try:
        kill_descendants()
    finally:
        os._exit(code)  # a bot may have left threads running: do not wait for them
