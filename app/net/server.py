"""The referee server: games run on the host with the usual runner, and seats played from other computers.

:class:`RefereeServer` listens on one TCP port with TLS and hosts any number of games
(:meth:`RefereeServer.host_game`). A game's seats are built-in bots of the host or :class:`RemoteSeat` s; each
remote seat has a one-time join code (its :class:`~app.net.invitation.Invitation`). A game starts once every
remote seat has joined, and is then played by :func:`app.hosting.runner.run_game` exactly as a local match:
the same clocks, limits, adjudications and record.

A :class:`RemoteSeat` is an :class:`~app.bots.contract.Agent` that bounds its own calls (``isolated``): the
runner hands it the seat's observations and requests, it sends them to its guest and waits for the answer until
the seat's time is up. A guest whose connection drops may come back with its seat token and is sent again all
its seat has been told, and the request it had not answered; a guest that does not come back within the
game's ``reconnect_limit`` loses the game (``on_abandon="claim"``: a forfeit) or the game is aborted
(``"abort"``), and the record says which.

The network side runs on one asyncio loop in a thread of its own; each game runs on a thread of its own. What a
guest sends is checked by :mod:`app.net.wire` and :mod:`app.net.values`; anything wrong closes that connection
with a sentence (kept in :attr:`RefereeServer.violations`) and changes nothing in any game.
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
import ssl
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from app import games
from app.bots.base import ActionRequest
from app.bots.contract import Agent, AgentFailed, AgentTimeout, HostFailure
from app.engine import codec
from app.engine.clock import TimeControl
from app.engine.core import Action, Outcome, Seat
from app.engine.record import GameRecord
from app.hosting.agents import BotSpec
from app.hosting.runner import run_game

from . import values, wire
from .invitation import (Invitation, Throttle, digest, make_certificate, new_code, new_token, normal_code,
                         pem_fingerprint, server_context)

__all__ = ["HostedGame", "RefereeServer", "RemoteSeat"]

HELLO_LIMIT = 10.0
"""Seconds a new connection has to finish its TLS handshake and greet."""
BODY_LIMIT = 30.0
"""Seconds a message may take to arrive once its header has."""
MAX_BUFFER = 8 << 20
"""Bytes waiting to be sent to one guest at most: one that stops reading is cut off."""
ABANDON = ("claim", "abort")
MAX_CONNECTIONS = 2000
"""Connections a server holds at once at most; one more is closed at once (a flood costs it no more)."""


def _clean_name(text: str) -> str:
    name = "".join(ch for ch in text if ch.isprintable()).strip()[:40]
    return name or "guest"


class _Connection:
    """One guest's connection, seen from the host: sends from any thread, receives on the server's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, peer: str) -> None:
        self.loop, self.reader, self.writer, self.peer = loop, reader, writer, peer
        self.incoming = wire.Reader(wire.TO_HOST)
        self._seq = 0
        self._lock = threading.Lock()
        self._closed = False

    def send(self, kind: str, fields: dict[str, Any]) -> None:
        """Queue a message (never blocks; dropped once the connection is closing)."""
        with self._lock:
            if self._closed:
                return
            self._seq += 1
            data = wire.encode(self._seq, kind, fields)
            self.loop.call_soon_threadsafe(self._write, data)

    def _write(self, data: bytes) -> None:
        if self.writer.is_closing():
            return
        self.writer.write(data)
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_BUFFER:
            transport.abort()  # it stopped reading: what is queued for it is dropped, and the seat waits for it

    def close_soon(self, message: str | None = None) -> None:
        """Send ``message`` (as an error) if given, then close once what is queued has gone."""
        if message is not None:
            self.send("error", {"message": message[:2000]})
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self.loop.call_soon_threadsafe(self._close)

    def _close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()

    async def receive(self) -> dict[str, Any]:
        header = await self.reader.readexactly(wire.HEADER.size)
        length = wire.frame_length(header)
        try:
            body = await asyncio.wait_for(self.reader.readexactly(length), BODY_LIMIT)
        except asyncio.TimeoutError:
            raise wire.ProtocolError(f"a message took longer than {BODY_LIMIT:g} s to arrive") from None
        return self.incoming.message(body)


class RemoteSeat(Agent):
    """A seat played by a guest over the network. See the module's documentation."""

    isolated = True
    observes = True

    def __init__(self, hosted: "HostedGame", seat: Seat, reconnect_limit: float, on_abandon: str) -> None:
        self.hosted = hosted
        self.seat = seat
        self.name = "guest"
        self.spec: str | None = None
        self.reconnect_limit = reconnect_limit
        self.on_abandon = on_abandon
        self.token: str | None = None
        self.joined = threading.Event()
        self.dropped_at: float | None = None
        self.drops = 0
        self.answer_seconds: list[float] = []
        """Seconds from each request sent to its answer read (the round trip, with the guest's thinking)."""
        self._cond = threading.Condition()
        self._connection: _Connection | None = None
        self._start: dict[str, Any] | None = None
        self._history: list[dict[str, Any]] = []
        self._request = 0
        self._pending: dict[str, Any] | None = None
        self._asked_at = 0.0
        self._answer: tuple[str, Any] | None = None
        self._end: dict[str, Any] | None = None
        self._shut = False
        self._ready = False

    @property
    def connected(self) -> bool:
        return self._connection is not None

    @property
    def waiting(self) -> bool:
        """True while a request of this seat waits for its guest's answer."""
        return self._pending is not None

    # -- the runner's side -------------------------------------------------------------------------------------
    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        """Tell the guest the game starts, and wait until it says its program is ready (bounded by the runner's
        start limit): the clock starts after that, as it does for a bot in a worker process."""
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        with self._cond:
            self._start = {"options": json.loads(json.dumps(options)), "opponent": opponent_name[:2000]}
            self._send("start", self._start)
            self._wait(lambda: self._ready, deadline)

    def observe(self, observation: Any) -> None:
        data = values.observation_to_json(observation)
        with self._cond:
            fields = {"index": len(self._history), "observation": data}
            self._history.append(data)
            self._send("observe", fields)

    def act(self, request: ActionRequest) -> Action:
        seconds = request.seconds_left if math.isfinite(request.seconds_left) else None
        fields = {"phase": request.phase, "choices": values.choices_to_json(request.choices),
                  "seconds_left": seconds}
        limit = self.time_limit
        deadline = None if limit is None else time.monotonic() + limit
        with self._cond:
            self._request += 1
            self._pending = {"request": self._request, **fields}
            self._answer = None
            self._asked_at = time.perf_counter()
            self._send("act", self._pending)
            try:
                self._wait(lambda: self._answer is not None, deadline)
                assert self._answer is not None
                kind, value = self._answer
            finally:
                self._pending = None
                self._answer = None
        if kind == "fail":
            raise AgentFailed(f"failed on its guest's computer: {value}")
        return value

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        with self._cond:
            self._end = {"outcome": codec.to_json(outcome)}
            self._send("end", self._end)
            connection = self._connection
        if connection is not None:
            connection.close_soon()

    def _wait(self, done: Callable[[], bool], deadline: float | None) -> None:
        """Wait (holding the condition) until ``done()``: AgentTimeout at ``deadline``, HostFailure when the server
        shuts down, and the abandonment error once the guest has been away longer than the reconnect limit."""
        while not done():
            if self._shut:
                raise HostFailure("the referee server was shut down")
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise AgentTimeout()
            waits = [] if deadline is None else [deadline - now]
            if self._connection is None and self.dropped_at is not None:
                left = self.dropped_at + self.reconnect_limit - now
                if left <= 0:
                    raise self._abandoned()
                waits.append(left)
            self._cond.wait(min(waits) if waits else None)

    def _abandoned(self) -> Exception:
        seat_name = self.hosted.seat_names[self.seat]
        words = f"left the game and did not come back within {self.reconnect_limit:g} s"
        if self.on_abandon == "abort":
            return HostFailure(f"{seat_name} ({self.name}) {words}")
        return AgentFailed(words)

    def _send(self, kind: str, fields: dict[str, Any]) -> None:
        if self._connection is not None:
            self._connection.send(kind, fields)

    # -- the network's side (the server's loop) ------------------------------------------------------------
    def attach(self, connection: _Connection, resumed: bool) -> None:
        """Give the seat to ``connection`` and tell it everything the seat has been told so far."""
        with self._cond:
            old = self._connection
            if old is not None:
                old.close_soon("your seat was taken up by a new connection with its token")
            self._connection = connection
            self.dropped_at = None
            assert self.token is not None
            connection.send("welcome", {"game": self.hosted.id, "variant": self.hosted.variant, "seat": self.seat,
                                        "seat_names": list(self.hosted.seat_names), "token": self.token,
                                        "resumed": resumed})
            if self._start is not None:
                connection.send("start", self._start)
            for index, data in enumerate(self._history):
                connection.send("observe", {"index": index, "observation": data})
            if self._end is not None:
                connection.send("end", self._end)
                connection.close_soon()
            elif self._pending is not None and self._answer is None:
                connection.send("act", self._pending)
            self.joined.set()
            self._cond.notify_all()

    def detach(self, connection: _Connection) -> None:
        with self._cond:
            if self._connection is connection:
                self._connection = None
                self.dropped_at = time.monotonic()
                self.drops += 1
                self._cond.notify_all()

    def receive_answer(self, connection: _Connection, message: dict[str, Any]) -> None:
        """An ``act`` or ``fail`` message of ``connection``; :class:`~app.net.wire.ProtocolError` when it answers
        no open request of this seat."""
        number = message["request"]
        with self._cond:
            if connection is not self._connection:
                raise wire.ProtocolError("this connection no longer holds its seat")
            pending = self._pending
            if pending is None or self._answer is not None:
                raise wire.ProtocolError(f"an answer to request {number}, but no request is open")
            if number != pending["request"]:
                raise wire.ProtocolError(f"an answer to request {number}, but request {pending['request']} is open")
        if message["type"] == "act":
            answer: tuple[str, Any] = ("action", values.action_from_json(self.hosted.variant, message["action"]))
        else:
            answer = ("fail", "".join(ch for ch in message["message"] if ch.isprintable())[:500])
        with self._cond:
            if self._pending is pending and self._answer is None and connection is self._connection:
                self.answer_seconds.append(time.perf_counter() - self._asked_at)
                self._answer = answer
                self._cond.notify_all()

    def receive_ready(self, connection: _Connection) -> None:
        """The guest's program has started (said again after each start message; only the first one counts)."""
        with self._cond:
            if connection is self._connection and self._start is not None:
                self._ready = True
                self._cond.notify_all()

    def shut(self) -> None:
        with self._cond:
            self._shut = True
            connection = self._connection
            self._cond.notify_all()
        if connection is not None:
            connection.close_soon("the referee server is shutting down")


class HostedGame:
    """One game on a :class:`RefereeServer`: its referee, its agents and, once it is over, its record."""

    def __init__(self, server: "RefereeServer", variant: str, options: dict[str, Any], control: TimeControl,
                 seats: Sequence[str | None], seed: int | None, reconnect_limit: float, on_abandon: str,
                 move_limit: float | None, max_plies: int | None, out_dir: str | Path | None,
                 on_finished: Callable[["HostedGame"], None] | None) -> None:
        definition = games.get(variant)
        if len(seats) != len(definition.seat_names):
            raise ValueError(f"{definition.title} has {len(definition.seat_names)} seats, not {len(seats)}")
        if on_abandon not in ABANDON:
            raise ValueError(f"on_abandon is claim or abort, not {on_abandon!r}")
        self.server = server
        self.variant = variant
        self.title = definition.title
        self.seat_names = definition.seat_names
        self.options = dict(options)
        self.game = definition.referee().from_options(self.options)  # bad options: ValueError, before anything runs
        self.control = control
        self.seed = seed
        self.move_limit = move_limit
        self.max_plies = max_plies
        self.out_dir = None if out_dir is None else Path(out_dir)
        self.on_finished = on_finished
        self.id = secrets.token_hex(4)
        self.codes: dict[Seat, str] = {}
        self.agents: list[Agent] = []
        for seat, spec in enumerate(seats):
            if spec is None:
                self.agents.append(RemoteSeat(self, seat, reconnect_limit, on_abandon))
                self.codes[seat] = new_code()
            else:
                self.agents.append(BotSpec(spec, variant).create(None if seed is None else seed + seat))
        self.record: GameRecord | None = None
        self.record_path: Path | None = None
        self.failure: str | None = None
        self.finished = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"sightline-game-{self.id}")

    @property
    def remote_seats(self) -> dict[Seat, RemoteSeat]:
        return {seat: agent for seat, agent in enumerate(self.agents) if isinstance(agent, RemoteSeat)}

    def invitations(self) -> dict[Seat, Invitation]:
        """Each remote seat's invitation (its code works once)."""
        host = self.server.address
        return {seat: Invitation(host, self.server.port, code, self.server.fingerprint)
                for seat, code in self.codes.items()}

    def wait(self, timeout: float | None = None) -> GameRecord | None:
        self.finished.wait(timeout)
        return self.record

    def _run(self) -> None:
        try:
            for seat in self.remote_seats.values():
                while not seat.joined.wait(0.2):
                    if self.server.closing:
                        self.failure = "the server was shut down before every seat had joined"
                        return
            self.record = run_game(self.game, self.agents, self.control, self.seed, move_limit=self.move_limit,
                                   max_plies=self.max_plies)
            if self.out_dir is not None:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                path = self.out_dir / f"{self.variant}-{self.id}.json"
                self.record.save(path)
                self.record_path = path
        except Exception as error:  # noqa: BLE001 - a game's thread must end with something said
            self.failure = f"{type(error).__name__}: {error}"
        finally:
            self.finished.set()
            self.server._game_over(self)
            if self.on_finished is not None:
                try:
                    self.on_finished(self)
                except Exception:  # noqa: BLE001
                    pass


@dataclass
class Violation:
    """A connection closed for breaking the protocol: the peer's address and the sentence it was sent."""

    peer: str
    message: str
    at: float = field(default_factory=time.time)


class RefereeServer:
    """Hosts games for guests on ``host``:``port`` (0: a free port, then :attr:`port`), over TLS with a fresh
    self-signed certificate (:attr:`fingerprint`). ``address`` is what invitations name (default: ``host``).
    Call :meth:`close` when done: it aborts the games still running and stops every thread it started."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, address: str | None = None,
                 throttle: Throttle | None = None, certificate: tuple[bytes, bytes] | None = None) -> None:
        cert, key = certificate or make_certificate()
        self.fingerprint = pem_fingerprint(cert)
        self._ssl = server_context(cert, key)
        self.host = host
        self.address = address or host
        self.throttle = throttle or Throttle()
        self.games: dict[str, HostedGame] = {}
        self.violations: list[Violation] = []
        """The latest connections closed for breaking the protocol (the last 1000)."""
        self.violation_count = 0
        self.closing = False
        self._codes: dict[str, tuple[HostedGame, Seat]] = {}
        self._tokens: dict[str, RemoteSeat] = {}
        self._lock = threading.Lock()
        self._connections: set[_Connection] = set()
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(lambda loop, context: None)  # a peer's failed handshake is no news
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="sightline-net")
        self._thread.start()
        try:
            self._server = asyncio.run_coroutine_threadsafe(self._listen(host, port), self._loop).result(10)
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            raise
        self.port: int = self._server.sockets[0].getsockname()[1]

    async def _listen(self, host: str, port: int) -> asyncio.base_events.Server:
        return await asyncio.start_server(self._serve, host, port, ssl=self._ssl,
                                          ssl_handshake_timeout=HELLO_LIMIT)

    # -- games ---------------------------------------------------------------------------------------------
    def host_game(self, variant: str, seats: Sequence[str | None], *, options: dict[str, Any] | None = None,
                  control: TimeControl | None = None, seed: int | None = None, reconnect_limit: float = 60.0,
                  on_abandon: str = "claim", move_limit: float | None = None, max_plies: int | None = None,
                  out_dir: str | Path | None = None,
                  on_finished: Callable[[HostedGame], None] | None = None) -> HostedGame:
        """Create and start a game of ``variant``: ``seats`` gives each seat's built-in bot (its name, as in
        ``sightline match``) or ``None`` for a seat played from elsewhere. The game starts once every remote
        seat has joined. ValueError or BotError for a bad game, option or bot."""
        hosted = HostedGame(self, variant, dict(options or {}), control or TimeControl(None, 0.0), seats, seed,
                            reconnect_limit, on_abandon, move_limit, max_plies, out_dir, on_finished)
        with self._lock:
            if self.closing:
                raise RuntimeError("the server is closed")
            self.games[hosted.id] = hosted
            for seat, code in hosted.codes.items():
                self._codes[digest(normal_code(code))] = (hosted, seat)
        hosted.thread.start()
        return hosted

    def _game_over(self, hosted: HostedGame) -> None:
        with self._lock:
            for key in [key for key, (game, _) in self._codes.items() if game is hosted]:
                del self._codes[key]

    # -- connections ---------------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) and peername else "?"
        connection = _Connection(self._loop, reader, writer, peer)
        if len(self._connections) >= MAX_CONNECTIONS:
            connection.close_soon("the server holds as many connections as it can: try again later")
            return
        self._connections.add(connection)
        seat: RemoteSeat | None = None
        try:
            try:
                hello = await asyncio.wait_for(connection.receive(), HELLO_LIMIT)
            except asyncio.TimeoutError:
                raise wire.ProtocolError(f"no greeting within {HELLO_LIMIT:g} s") from None
            if hello["type"] != "hello":
                raise wire.ProtocolError(f"the first message must be a hello, not {hello['type']}")
            seat, resumed = self._admit(peer, hello)
            seat.attach(connection, resumed)
            while True:
                message = await connection.receive()
                kind = message["type"]
                if kind in ("act", "fail"):
                    seat.receive_answer(connection, message)
                elif kind == "ready":
                    seat.receive_ready(connection)
                elif kind == "ping":
                    connection.send("pong", {"n": message["n"]})
                elif kind == "bye":
                    break
                else:
                    raise wire.ProtocolError(f"the message {kind!r} after the greeting")
        except wire.ProtocolError as error:
            self._violated(peer, str(error))
            connection.close_soon(str(error))
        except (asyncio.IncompleteReadError, ConnectionError, OSError, ssl.SSLError, asyncio.CancelledError):
            pass  # the guest went away (a drop it may come back from)
        except Exception as error:  # noqa: BLE001 - nothing a guest sends may stop the server
            self._violated(peer, f"the host failed on this connection: {error!r}"[:500])
            connection.close_soon("the host could not handle that message")
        finally:
            if seat is not None:
                seat.detach(connection)
            connection.close_soon()
            self._connections.discard(connection)

    def _violated(self, peer: str, message: str) -> None:
        self.violation_count += 1
        self.violations.append(Violation(peer, message))
        del self.violations[:-1000]

    def _admit(self, peer: str, hello: dict[str, Any]) -> tuple[RemoteSeat, bool]:
        if hello["protocol"] != wire.PROTOCOL or hello["version"] != wire.VERSION:
            raise wire.ProtocolError(f"this host speaks {wire.PROTOCOL} {wire.VERSION}, not "
                                     f"{hello['protocol'][:40]} {hello['version']}")
        wait = self.throttle.wait(peer)
        if wait > 0:
            raise wire.ProtocolError(f"too many wrong codes from your address: try again in {math.ceil(wait)} s")
        token, code = hello["token"], hello["code"]
        with self._lock:
            if token is not None:
                found = self._tokens.get(digest(token))
                if found is None:
                    self.throttle.failed(peer)
                    raise wire.ProtocolError("that seat token is not known here")
                return found, True
            if code is None:
                raise wire.ProtocolError("a hello needs a join code or a seat token")
            entry = self._codes.pop(digest(normal_code(code)), None)
            if entry is None:
                delay = self.throttle.failed(peer)
                wait_words = f"; wait {delay:g} s before trying again" if delay > 0 else ""
                raise wire.ProtocolError(f"wrong join code (or one already used){wait_words}")
            hosted, seat_number = entry
            seat = hosted.agents[seat_number]
            assert isinstance(seat, RemoteSeat)
            seat.token = new_token()
            seat.name = _clean_name(hello["name"])
            self._tokens[digest(seat.token)] = seat
            return seat, False

    # -- the end ---------------------------------------------------------------------------------------------
    def close(self, timeout: float = 10.0) -> None:
        """Stop taking guests, abort the games still running (their records say so), close every connection
        and stop the server's threads."""
        with self._lock:
            if self.closing:
                return
            self.closing = True
            hosted_games = list(self.games.values())
        for hosted in hosted_games:
            for seat in hosted.remote_seats.values():
                seat.shut()
        deadline = time.monotonic() + timeout
        for hosted in hosted_games:
            if hosted.thread.is_alive():
                hosted.thread.join(max(0.0, deadline - time.monotonic()))

        async def stop() -> None:
            self._server.close()
            for connection in list(self._connections):
                connection.writer.close()
            await asyncio.sleep(0.05)
        try:
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(5)
        except Exception:  # noqa: BLE001
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> "RefereeServer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
