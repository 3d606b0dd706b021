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

Everything crossing the pipes is pickled: observations (named tuples of ``chess`` objects and engine
dataclasses), :class:`~app.bots.base.ActionRequest` (its RBC ``MoveActions`` pickles as it is: a ``__slots__``
class, handled by the default protocol), actions, the outcome and the :class:`~app.engine.record.GameRecord`.
Messages to the worker are pickled by the caller (a host bug such as an unpicklable observation raises there)
and written by a helper thread, so that a full pipe never blocks the caller.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
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
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any

from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord

from .base import ActionRequest

__all__ = ["BotProcess", "WorkerEvent", "warm_up"]

_PRELOAD = ["app.bots.worker", "app.bots.agents", "app.bots.registry", "app.engine.variants", "chess",
            "reconchess"]
"""Imported once by the fork server: every worker then starts without importing them again."""


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
        context.set_forkserver_preload(_PRELOAD)  # ignored once the server runs (app.match may have started it)
        return context
    return multiprocessing.get_context("spawn")


def warm_up() -> None:
    """Start the fork server now, at launch: it returns at once and the server imports its preloads in the
    background (about 0.2 s), so that the first bot of a game starts in milliseconds instead of blocking its
    caller while the server starts. Harmless where there is no fork server."""
    context = _context()
    if context.get_start_method() == "forkserver":
        import multiprocessing.forkserver
        multiprocessing.forkserver.ensure_running()


def describe(error: BaseException) -> str:
    """``Type: message at file.py:line`` (the innermost frame), as the runner reports bot failures."""
    from .agents import BotError
    try:
        text = f"{type(error).__name__}: {error}"
    except Exception:  # noqa: BLE001 - an exception that cannot even be printed
        text = f"{type(error).__name__} (unprintable)"
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
        self._backlog: deque[WorkerEvent] = deque()
        try:
            from .agents import BotSpec
            self.name = BotSpec(spec, variant).display_name
        except Exception:  # noqa: BLE001 - only a label; the worker reports a bad spec
            pass
        context = _context()
        commands_in, commands_out = context.Pipe(duplex=False)
        events_in, events_out = context.Pipe(duplex=False)
        self._process: BaseProcess = context.Process(
            target=_worker_main, name=f"sightline-bot-{seat}", daemon=True,
            args=(spec, variant, seat, dict(options), opponent_name, seed, commands_in, events_out,
                  dict(os.environ) if environment is None else dict(environment), os.getcwd()))
        try:
            self._process.start()
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
        return not self._closed and self._process.is_alive()

    @property
    def pending(self) -> bool:
        """True while a request waits for its answer."""
        return self._pending is not None

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def sentinel(self) -> int:
        """A handle that becomes ready when the process ends (``multiprocessing``'s sentinel)."""
        return int(self._process.sentinel)

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
                    if self._process.exitcode is None:
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
            multiprocessing.connection.wait([self._events, self._process.sentinel], left)

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
            multiprocessing.connection.wait([self._events, self._process.sentinel], left)

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
        self._process.join(timeout)
        finished = self._process.exitcode == 0
        self.kill()
        return finished

    def kill(self) -> None:
        """Stop the worker at once (SIGKILL) and free the pipes. Safe to call more than once."""
        if not self._closed:
            self._closed = True
            self._pending = None
            if self._process.exitcode is None:
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

    def _died(self) -> WorkerEvent | None:
        self._closed = True
        self._pending = None
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
        if not getattr(self, "_closed", True):
            self._outbox.put(None)

    def __repr__(self) -> str:
        state = "alive" if self.alive else "stopped"
        return f"<BotProcess {self.name!r} seat {self.seat} pid {self._process.pid} {state}>"


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


class _SafeUnpickler(pickle.Unpickler):
    """Reads a worker's messages: only classes of the engine and of ``chess`` (and plain data) may be built.

    A bot's answer is unpickled in the app; a plain unpickler would let it run any callable there (and so
    crash or hang the app after all).
    """

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _SAFE_BUILTINS or module == "chess" \
                or module == "app.engine" or module.startswith("app.engine."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a bot's answer")


# -- the worker process -----------------------------------------------------------------------------------------

def _worker_main(spec: str, variant: str, seat: Seat, options: dict[str, Any], opponent_name: str,
                 seed: int | None, commands: multiprocessing.connection.Connection,
                 events: multiprocessing.connection.Connection, environment: dict[str, str], cwd: str) -> None:
    """Body of a bot's worker process."""
    started = time.perf_counter()
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
        from .agents import BotSpec
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
                      f"answered {_short_repr(action)}, which cannot be sent to the game ({describe(error)})",
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
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    os._exit(code)  # a bot may have left threads running: do not wait for them


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."
