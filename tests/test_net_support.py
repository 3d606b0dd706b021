"""What the network tests share: a server that is always closed, raw TLS connections that say anything, guests
in threads and in processes. Everything binds to 127.0.0.1 and is bounded in time."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from app import games  # noqa: F401 - the registry before the engine is asked for a game
from app.hosting.agents import BotSpec
from app.net import wire
from app.net.guest import Guest
from app.net.invitation import Invitation, Throttle, client_context
from app.net.server import RefereeServer

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def served(throttle: Throttle | None = None, **options: Any) -> Iterator[RefereeServer]:
    """A referee server on 127.0.0.1 (``options`` for RefereeServer) that is closed afterwards, leaving none of its
    threads behind."""
    before = set(threading.enumerate())
    server = RefereeServer("127.0.0.1", 0, throttle=throttle, **options)
    try:
        yield server
    finally:
        server.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            left = [thread for thread in threading.enumerate() if thread not in before and thread.is_alive()
                    and thread.name.startswith("sightline-")]
            if not left:
                break
            time.sleep(0.05)
        assert not left, f"threads left behind: {left}"


def bot_guest(invitation: Invitation, bot: str = "random", seed: int | None = 1, **options: Any) -> Guest:
    return Guest(invitation, lambda variant, seat: BotSpec(bot, variant).create(seed), name=bot, **options)


class GuestThread:
    """A guest playing in a thread of this process; :meth:`join` waits for its outcome (or its error)."""

    def __init__(self, guest: Guest) -> None:
        self.guest = guest
        self.outcome: Any = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True, name="test-guest")
        self.thread.start()

    def _run(self) -> None:
        try:
            self.outcome = self.guest.play()
        except BaseException as error:  # noqa: BLE001 - kept for the test to look at
            self.error = error

    def join(self, timeout: float = 60.0) -> Any:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the guest did not finish in time"
        if self.error is not None:
            raise self.error
        return self.outcome


class RawClient:
    """A TLS connection to a server that sends whatever it is given (frames or bare bytes), for the fuzz tests."""

    def __init__(self, server: RefereeServer, timeout: float = 5.0) -> None:
        raw = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
        self.socket = client_context().wrap_socket(raw, server_hostname=None)
        self.seq = 0

    def send_raw(self, data: bytes) -> None:
        try:
            self.socket.sendall(data)
        except OSError:
            pass  # the server may already have closed it: that is an answer too

    def send_body(self, body: bytes) -> None:
        self.send_raw(wire.HEADER.pack(len(body)) + body)

    def send(self, kind: str, fields: dict[str, Any], seq: int | None = None) -> None:
        self.seq += 1
        self.send_raw(wire.encode(self.seq if seq is None else seq, kind, fields))

    def hello(self, code: str | None = None, token: str | None = None) -> None:
        self.send("hello", {"protocol": wire.PROTOCOL, "version": wire.VERSION, "code": code, "token": token,
                            "name": "fuzz"})

    def messages(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Every message the server sends until it closes the connection (or ``timeout`` passes)."""
        found: list[dict[str, Any]] = []
        data = b""
        deadline = time.monotonic() + timeout
        self.socket.settimeout(0.2)
        while time.monotonic() < deadline:
            try:
                chunk = self.socket.recv(1 << 16)
            except (socket.timeout, TimeoutError):
                continue
            except (OSError, ssl.SSLError):
                break
            if not chunk:
                break
            data += chunk
        while len(data) >= 4:
            length = wire.HEADER.unpack(data[:4])[0]
            found.append(json.loads(data[4:4 + length]))
            data = data[4 + length:]
        return found

    def until(self, kind: str, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The messages up to and including the first of type ``kind`` (the connection stays open)."""
        found: list[dict[str, Any]] = []
        data = b""
        deadline = time.monotonic() + timeout
        self.socket.settimeout(0.2)
        while time.monotonic() < deadline:
            while len(data) >= 4 and len(data) >= 4 + wire.HEADER.unpack(data[:4])[0]:
                length = wire.HEADER.unpack(data[:4])[0]
                found.append(json.loads(data[4:4 + length]))
                data = data[4 + length:]
                if found[-1]["type"] == kind:
                    assert not data
                    return found
            try:
                chunk = self.socket.recv(1 << 16)
            except (socket.timeout, TimeoutError):
                continue
            if not chunk:
                break
            data += chunk
        raise AssertionError(f"no {kind} message came (got {[message['type'] for message in found]})")

    def close(self) -> None:
        try:
            self.socket.close()
        except OSError:
            pass


def sightline(*arguments: str, block_qt: bool = True, **options: Any) -> subprocess.Popen[str]:
    """``sightline ARGUMENTS`` in a process of its own (Qt made unimportable there with ``block_qt``)."""
    prelude = "import sys; sys.modules['PySide6'] = None; " if block_qt else "import sys; "
    code = prelude + "from app.cli import main; sys.exit(main(sys.argv[1:]))"
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", code, *arguments], cwd=ROOT, env=environment, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)


def read_invitations(process: subprocess.Popen[str], count: int, timeout: float = 60.0) -> dict[str, str]:
    """The first ``count`` invitations ``sightline serve`` prints, by seat name."""
    found: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    assert process.stdout is not None
    while len(found) < count:
        assert time.monotonic() < deadline, "sightline serve printed no invitations in time"
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"sightline serve ended: {process.stderr.read() if process.stderr else ''}")
        name, _, text = line.strip().partition(": ")
        if text.startswith("sightline://"):
            found[name] = text
    return found


def finish(process: subprocess.Popen[str], timeout: float = 120.0) -> tuple[int, str, str]:
    """Wait for ``process`` (killed if it overruns) and return its exit code, output and errors."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"a process overran its time: {out}\n{err}") from None
    return process.returncode, out, err


def stop_all(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
        try:
            process.communicate(timeout=10)
        except (subprocess.TimeoutExpired, ValueError, OSError):
            pass


def wait_for(condition: Callable[[], bool], timeout: float = 30.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


class FlakyProxy:
    """A TCP relay on 127.0.0.1 between guests and a server that holds every chunk back ``lag`` seconds and cuts
    each connection after a random time between ``cut`` seconds (seeded): lag and drops, in this process. TLS
    goes through it untouched (the guest still checks the server's certificate)."""

    def __init__(self, target_port: int, lag: float = 0.002, cut: tuple[float, float] = (0.2, 0.6),
                 seed: int = 0) -> None:
        import random
        self.target_port = target_port
        self.lag = lag
        self.cut = cut
        self.rng = random.Random(seed)
        self.cuts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port: int = self.listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._closing = False
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True, name="test-proxy")
        self._accepting.start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self.listener.accept()
            except (socket.timeout, TimeoutError):
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                client.close()
                continue
            self._open += [client, upstream]
            timer = threading.Timer(self.rng.uniform(*self.cut), self._cut, (client, upstream))
            timer.daemon = True
            timer.start()
            for source, sink in ((client, upstream), (upstream, client)):
                pump = threading.Thread(target=self._pump, args=(source, sink), daemon=True, name="test-proxy")
                pump.start()
                self._threads.append(pump)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        source.settimeout(None)
        try:
            while True:
                chunk = source.recv(1 << 16)
                if not chunk:
                    break
                time.sleep(self.lag)
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def _cut(self, client: socket.socket, upstream: socket.socket) -> None:
        if self._closing:
            return
        self.cuts += 1
        for end in (client, upstream):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self._closing = True
        self.listener.close()
        for end in self._open:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()
        self._accepting.join(5)
        for pump in self._threads:
            pump.join(5)


class FakeTime:
    """A time source that moves only when told (:meth:`advance`): the clocks and the lag of a test are exact."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class Puppet:
    """An agent the test plays by hand: each request it is asked goes to :attr:`asked`, and it answers what the
    test puts in :attr:`answers` (an action; ``None`` for the first of its choices that is no draw offer)."""

    observes = True
    name = "puppet"

    def __init__(self) -> None:
        import queue
        self.asked: "queue.Queue[Any]" = queue.Queue()
        self.answers: "queue.Queue[Any]" = queue.Queue()
        self.observed: list[Any] = []
        self.ended: list[Any] = []

    def start(self, seat: int, options: dict[str, Any], opponent: str) -> None:
        pass

    def observe(self, observation: Any) -> None:
        self.observed.append(observation)

    def act(self, request: Any) -> Any:
        self.asked.put(request)
        answer = self.answers.get(timeout=60)
        if answer is None:
            from app.games.team_draw import playable
            return playable(request)[0]
        return answer

    def end(self, outcome: Any, record: Any) -> None:
        self.ended.append(outcome)

    def next_request(self, timeout: float = 30.0) -> Any:
        return self.asked.get(timeout=timeout)
