"""A guest: plays one seat of a game hosted elsewhere, with any :class:`~app.bots.contract.Agent`.

:class:`Guest` connects to the invitation's host, checks the host's certificate against the invitation's
fingerprint before it sends anything, joins with the join code (or comes back with its seat token), and then
does what the host asks: it hands its agent the seat's start, each observation (read back through the codec)
and each request, and sends the agent's answers. If the connection drops, it comes back with its token (for up to
``reconnect_limit`` seconds) and carries on where it was; a new process given the token does the same, its agent
told again everything the seat has been told.

The guest reads the host on its own thread (the one that calls :meth:`Guest.play`) and makes every call into its
agent, in order, on a second thread: a request the agent thinks over never stops the guest from hearing the host
(the clocks, the end of the game). ``on_clock(update)`` is handed each :class:`ClockUpdate` the host sends, on
the guest's thread; ``on_link("lost")`` says the connection dropped and the guest tries to come back,
``on_link("back")`` that the host welcomed it again; :meth:`Guest.resign`, :meth:`Guest.offer_draw` and
:meth:`Guest.answer_draw` may be called from any thread at any moment. A draw offered to the seat arrives as its
game's observation and as a request in the game's answer phase (``answer_draw``; ``agree_draw`` for the offerer's
partner in a team game), which the agent answers as any request or :meth:`Guest.answer_draw` answers in its
place.

``sightline join INVITATION --bot NAME`` plays a seat with a built-in bot this way; the window's Join will use
the same class with the person at the board as the agent.
"""

from __future__ import annotations

import math
import os
import queue
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from app.bots.base import ActionRequest
from app.bots.contract import Agent, error_text
from app.engine import codec
from app.engine.core import Outcome, Seat

from . import values, wire
from .invitation import Invitation, check_fingerprint, client_context, keep_alive

__all__ = ["ClockUpdate", "Guest", "GuestError", "read_token", "write_token"]

END_WAIT = 10.0
"""Seconds the guest waits, once the game is over, for its agent to take in the last observations and the end."""


class GuestError(Exception):
    """The guest cannot play on: the host refused it, broke the protocol, or stayed away too long."""


class _Dropped(Exception):
    """The connection ended; the guest may come back."""


@dataclass(frozen=True)
class ClockUpdate:
    """The clocks a guest's seat may see, as the host last said: ``running`` is the seat whose clock runs (None:
    none runs, or the seat may not see the one that does); ``seconds_left`` the seconds left, at ``received``, of
    each clock the seat may see (only those seats are keys; None: untimed); ``received`` the guest's
    ``time.monotonic()`` (its ``time_source``) when the update arrived; ``sharing`` the seats of ``seconds_left``
    on the running clock (partners share one clock in the team games: both count down).

    >>> update = ClockUpdate(0, {0: 60.0}, received=100.0)
    >>> update.seconds_at(0, 102.5), update.seconds_at(0, 200.0), update.seconds_at(1, 102.5)
    (57.5, 0.0, None)
    """

    running: Seat | None
    seconds_left: dict[Seat, float | None] = field(hash=False)
    received: float
    sharing: frozenset[Seat] = frozenset()

    def seconds_at(self, seat: Seat, now: float) -> float | None:
        """``seat``'s seconds left at ``now`` (the same time source as ``received``): the running clock counted
        down since the update arrived, never below 0; None for a seat not shown or untimed."""
        left = self.seconds_left.get(seat)
        if left is None:
            return None
        if seat == self.running or seat in self.sharing:
            left = max(0.0, left - max(0.0, now - self.received))
        return left


def read_token(path: str | Path) -> str | None:
    """The seat token kept in ``path`` (None when there is none)."""
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if 0 < len(text) <= 200 else None


def write_token(path: str | Path, token: str) -> None:
    """Keep ``token`` in ``path``, readable by this user only."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    os.replace(temporary, path)


class Guest:
    """Plays the seat of ``invitation`` with the agent ``make_agent(variant, seat)`` builds (once, at the first
    welcome). ``token`` comes back to a seat joined before; ``on_token(token)`` is told the token as soon as the
    host gives it; ``on_bytes(data)`` is handed every byte received from the host after decryption (tests
    record the traffic with it); ``on_clock(update)`` each :class:`ClockUpdate` (on the guest's thread: keep it
    short); ``on_link(state)`` ``"lost"`` when the connection dropped and the guest keeps trying to come back (once
    a drop), ``"back"`` when the host has welcomed it again; ``on_refused(message)`` why a resignation or draw
    message was not played. ``time_source`` (default :func:`time.monotonic`) times the updates' arrival and the
    agent's thinking, which the guest reports with its answers so that the host can give the seat back the
    network's lag."""

    def __init__(self, invitation: Invitation, make_agent: Callable[[str, int], Agent], *, name: str = "guest",
                 token: str | None = None, on_token: Callable[[str], None] | None = None,
                 on_bytes: Callable[[bytes], None] | None = None, reconnect_limit: float = 60.0,
                 connect_timeout: float = 10.0, on_clock: Callable[[ClockUpdate], None] | None = None,
                 on_refused: Callable[[str], None] | None = None,
                 on_link: Callable[[str], None] | None = None,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        self.invitation = invitation
        self.make_agent = make_agent
        self.name = name
        self.token = token
        self.on_token = on_token
        self.on_bytes = on_bytes
        self.reconnect_limit = reconnect_limit
        self.connect_timeout = connect_timeout
        self.agent: Agent | None = None
        self.variant: str | None = None
        self.seat: int | None = None
        self.started = False
        self.observations: list[Any] = []
        self.outcome: Outcome | None = None
        self.connections = 0
        self._socket: ssl.SSLSocket | None = None
        self._seq = 0
        self._closing = False
        self._progress = False
        """Whether this connection brought something new (an observation, a request): a drop after it starts
        a new reconnect limit."""
        self._answered: tuple[int, tuple[str, dict[str, Any]]] | None = None
        """The last request answered and the answer, sent again if the host asks again after a drop."""
        self.on_clock = on_clock
        self.on_refused = on_refused
        self.on_link = on_link
        self._lost = False
        """Whether the connection dropped and the guest has not been welcomed back since (see ``on_link``)."""
        self.time_source = time_source
        self.clock: ClockUpdate | None = None
        """The last clock update (None before the first, and always in an untimed game)."""
        self.refusals: list[str] = []
        """Why each resignation or draw message was refused, in order."""
        self._send_lock = threading.RLock()
        self._acting: int | None = None
        """The request the agent is thinking over (its answer is sent when it comes)."""
        self._closed: set[int] = set()
        """Requests the host no longer waits for (the seat's resignation or draw answered them)."""
        self._unsent: list[tuple[str, dict[str, Any]]] = []
        """Resignations and draw messages said while not connected, sent after the next welcome."""
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._failure: GuestError | None = None
        self._welcomed = False
        """Whether this connection's welcome has come (the seat's own words wait for it)."""
        self._said: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._sayer: threading.Thread | None = None

    # -- the whole game --------------------------------------------------------------------------------------
    def play(self) -> Outcome:
        """Play until the game is over and return its outcome; :class:`GuestError` when that cannot be."""
        try:
            return self._play()
        finally:
            self._jobs.put(None)  # the agent's thread ends once it is done (at once unless it is still thinking)
            self._said.put(None)

    def _play(self) -> Outcome:
        dropped_at: float | None = None
        pause = 0.05
        while True:
            self._progress = False
            try:
                return self._session()
            except _Dropped as drop:
                if self._failure is not None:
                    raise self._failure from None
                if self._closing:
                    raise GuestError("the guest was stopped") from None
                if self.token is None:
                    raise GuestError(f"could not join: {drop}") from None
                now = time.monotonic()
                if self._progress or dropped_at is None:  # the game went on meanwhile: a new drop, a new limit
                    dropped_at, pause = now, 0.05
                if now - dropped_at > self.reconnect_limit:
                    raise GuestError(f"the connection to the host was lost and could not be made again within "
                                     f"{self.reconnect_limit:g} s ({drop})") from None
                if not self._lost:
                    self._lost = True
                    self._tell_link("lost")
                time.sleep(pause)
                pause = min(2.0, pause * 2)

    def _tell_link(self, state: str) -> None:
        if self.on_link is not None:
            try:
                self.on_link(state)
            except Exception:  # noqa: BLE001 - a listener's failure stops no game
                pass

    def close(self) -> None:
        """Stop (from another thread): the connection is closed and :meth:`play` ends with GuestError."""
        self._closing = True
        self._hang_up()

    def _hang_up(self) -> None:
        connection = self._socket
        if connection is not None:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # -- what the seat says at any moment ------------------------------------------------------------------------
    def resign(self) -> None:
        """Resign the seat's game (from any thread, at any moment): the host plays it at once, in turn or not."""
        self._say("resign", {})

    def offer_draw(self) -> None:
        """Offer a draw (from any thread, at any moment): the host plays it when the seat's game allows one (on
        the seat's turn, once a turn, in the games that have draw offers; a team game asks the partner first);
        otherwise it is refused (``on_refused``, :attr:`refusals`). It takes the place of the agent's answer to
        the request the seat has open now (the agent's own answer is then dropped), and is refused if the seat
        has none, or if the agent's answer reaches the host first."""
        self._say("offer_draw", {"request": self._acting})

    def answer_draw(self, accept: bool) -> None:
        """Accept or decline the draw offer that waits for this seat's answer (from any thread, at any moment): it
        takes the place of the agent's answer to the seat's open request in the game's answer phase, and is
        refused when no offer waits for it (or the agent's answer reached the host first)."""
        self._say("answer_draw", {"accept": bool(accept), "request": self._acting})

    def _say(self, kind: str, fields: dict[str, Any]) -> None:
        """Hand the seat's words to a thread of their own, which sends them in order: the caller (a window's
        thread) never waits on the network."""
        with self._send_lock:
            if self._sayer is None:
                self._sayer = threading.Thread(target=self._work, args=(self._said,), daemon=True, name="guest-say")
                self._sayer.start()
        self._said.put(lambda: self._say_now(kind, fields))

    def _say_now(self, kind: str, fields: dict[str, Any]) -> None:
        with self._send_lock:
            if not self._welcomed:
                self._unsent.append((kind, fields))
                return
            try:
                self._send(kind, fields)
            except _Dropped:
                self._unsent.append((kind, fields))  # said again once the guest is back

    # -- one connection -------------------------------------------------------------------------------------
    def _session(self) -> Outcome:
        invitation = self.invitation
        try:
            raw = socket.create_connection((invitation.host, invitation.port), timeout=self.connect_timeout)
        except OSError as error:
            raise _Dropped(f"cannot reach {invitation.host}:{invitation.port}: {error.strerror or error}") from None
        keep_alive(raw)
        try:
            try:
                connection = client_context().wrap_socket(raw, server_hostname=None)
            except (OSError, ssl.SSLError) as error:
                raise _Dropped(f"the secure connection failed: {error}") from None
        except BaseException:
            raw.close()
            raise
        try:
            try:
                check_fingerprint(connection, invitation.fingerprint)
            except ConnectionRefusedError as error:
                raise GuestError(str(error)) from None
            connection.settimeout(None)
            with self._send_lock:
                self._socket = connection
                self._seq = 0
                self._welcomed = False
            self.connections += 1
            reader = wire.Reader(wire.TO_GUEST)
            self._send("hello", {"protocol": wire.PROTOCOL, "version": wire.VERSION,
                                 "code": None if self.token else invitation.code, "token": self.token,
                                 "name": self.name[:wire.MAX_TEXT]})
            while True:
                message = self._receive(connection, reader)
                if self._failure is not None:
                    raise self._failure
                outcome = self._handle(message)
                if outcome is not None:
                    try:
                        self._send("bye", {})
                    except _Dropped:
                        pass
                    return outcome
        except wire.ProtocolError as error:
            raise GuestError(f"the host broke the protocol: {error}") from None
        finally:
            with self._send_lock:
                self._socket = None
                self._welcomed = False
            try:
                connection.close()
            except OSError:
                pass

    def _send(self, kind: str, fields: dict[str, Any]) -> None:
        with self._send_lock:  # the guest's thread, the agent's thread and the seat's own words share the line
            connection = self._socket
            if connection is None:
                raise _Dropped("not connected")
            self._seq += 1
            try:
                connection.sendall(wire.encode(self._seq, kind, fields))
            except (OSError, ssl.SSLError) as error:
                raise _Dropped(f"sending failed: {error}") from None

    def _exactly(self, connection: ssl.SSLSocket, count: int) -> bytes:
        chunks: list[bytes] = []
        while count:
            try:
                chunk = connection.recv(min(count, 1 << 16))
            except (OSError, ssl.SSLError) as error:
                raise _Dropped(f"the connection failed: {error}") from None
            if not chunk:
                raise _Dropped("the host closed the connection")
            chunks.append(chunk)
            count -= len(chunk)
        data = b"".join(chunks)
        if self.on_bytes is not None:
            self.on_bytes(data)
        return data

    def _receive(self, connection: ssl.SSLSocket, reader: wire.Reader) -> dict[str, Any]:
        length = wire.frame_length(self._exactly(connection, wire.HEADER.size))
        return reader.message(self._exactly(connection, length))

    # -- the agent's thread -----------------------------------------------------------------------------------
    def _work(self, jobs: "queue.Queue[Callable[[], None] | None]") -> None:
        while True:
            job = jobs.get()
            if job is None:
                return
            job()

    def _later(self, job: Callable[[], None]) -> None:
        """Hand ``job`` (a call of the agent) to the agent's thread, after the calls handed to it before."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, args=(self._jobs,), daemon=True, name="guest-agent")
            self._worker.start()
        self._jobs.put(job)

    def _moot(self, number: int) -> None:
        """Request ``number`` no longer wants the agent's answer (the seat's own words answered it, or the game
        ended). If the agent still thinks over it, what comes next is not held up behind it: the calls after it
        go to a new thread, and the old one ends once the agent returns (its answer dropped)."""
        with self._send_lock:
            self._closed.add(number)
            if self._acting != number:
                return
            self._acting = None
            old = self._jobs
            self._jobs = queue.Queue()
            self._worker = None
        old.put(None)

    def _call(self, job: Callable[[], Any], doing: str) -> None:
        """Hand one call of the agent to its thread; its failure ends the guest (the seat waits for it, then is
        given up)."""
        def run() -> None:
            if self._failure is not None:
                return
            try:
                job()
            except Exception as error:  # noqa: BLE001
                self._failure = GuestError(f"the seat's program failed to {doing}: {error_text(error)}")
                self._hang_up()  # the guest's thread hears of it at once
        self._later(run)

    def _drain(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for the agent's thread to finish what it was handed."""
        done = threading.Event()
        self._later(done.set)
        done.wait(timeout)

    def _answer(self, number: int, request: ActionRequest, arrived: float) -> None:
        """On the agent's thread: ask the agent, and send its answer with the seconds since the request arrived
        (unless the host no longer waits for it; it is kept to be sent again if the host asks again)."""
        agent = self.agent
        assert agent is not None
        reply: tuple[str, dict[str, Any]]
        try:
            action = agent.act(request)
            thought = max(0.0, self.time_source() - arrived)
            reply = ("act", {"request": number, "action": values.action_to_json(action),
                             "thought": round(thought, 6) if math.isfinite(thought) else None})
        except Exception as error:  # noqa: BLE001 - the agent's failure is the seat's, told to the host
            reply = ("fail", {"request": number, "message": error_text(error)[:1500]})
        with self._send_lock:
            if number in self._closed:
                return  # moot: dropped
            self._answered = (number, reply)
            self._acting = None
            self._progress = True
            try:
                self._send(*reply)
            except _Dropped:
                pass  # sent again when the host asks again

    # -- what the host says -----------------------------------------------------------------------------------
    def _handle(self, message: dict[str, Any]) -> Outcome | None:
        kind = message["type"]
        if kind == "welcome":
            if self.variant is not None and (message["variant"] != self.variant or message["seat"] != self.seat):
                raise wire.ProtocolError("the host gave this guest another seat than before")
            self.variant, self.seat = message["variant"], message["seat"]
            if message["token"] != self.token:
                self.token = message["token"]
                if self.on_token is not None:
                    self.on_token(self.token)
            if self.agent is None:
                self.agent = self.make_agent(self.variant, self.seat)
            with self._send_lock:
                unsent, self._unsent = self._unsent, []
                self._welcomed = True
                for said in unsent:
                    self._send(*said)
            if self._lost:
                self._lost = False
                self._tell_link("back")
            return None
        agent, variant, seat = self.agent, self.variant, self.seat
        if agent is None or variant is None or seat is None:
            if kind == "error":
                raise GuestError(f"the host refused: {message['message']}")
            raise wire.ProtocolError(f"the message {kind!r} came before the welcome")
        if kind == "start":
            if not self.started:
                self.started = True
                self._call(lambda: agent.start(seat, message["options"], message["opponent"]), "start")

            def ready() -> None:
                if self._failure is None:
                    try:
                        self._send("ready", {})
                    except _Dropped:
                        pass  # said again after the next start message
            self._later(ready)
        elif kind == "observe":
            index = message["index"]
            if index > len(self.observations):
                raise wire.ProtocolError(f"observation {index} came before observation {len(self.observations)}")
            if index == len(self.observations):
                observation = values.observation_from_json(variant, message["observation"])
                self.observations.append(observation)
                self._progress = True
                if agent.observes:
                    self._call(lambda: agent.observe(observation), "take in an observation")
        elif kind == "act":
            arrived = self.time_source()
            number = message["request"]
            with self._send_lock:
                if self._answered is not None and self._answered[0] == number:
                    # asked again after a drop: the answer was lost on the way; the agent has decided already
                    self._send(*self._answered[1])
                    return None
                if self._acting == number:
                    return None  # asked again after a drop while the agent still thinks: it answers when done
            choices = values.choices_from_json(variant, message["choices"])
            seconds = message["seconds_left"]
            request = ActionRequest(seat, message["phase"], choices,
                                    math.inf if seconds is None else float(seconds))
            self._acting = number
            self._progress = True
            self._later(lambda: self._answer(number, request, arrived))
        elif kind == "clock":
            update = ClockUpdate(message["running"], {seat: None if left is None else float(left)
                                                      for seat, left in message["seconds_left"]},
                                 self.time_source(), frozenset(message["sharing"]))
            self.clock = update
            if self.on_clock is not None:
                try:
                    self.on_clock(update)
                except Exception:  # noqa: BLE001 - a listener's failure stops no game
                    pass
        elif kind == "closed":
            self._moot(message["request"])
        elif kind == "refused":
            text = "".join(ch for ch in message["message"] if ch.isprintable())
            self.refusals.append(text)
            if self.on_refused is not None:
                try:
                    self.on_refused(text)
                except Exception:  # noqa: BLE001 - a listener's failure stops no game
                    pass
        elif kind == "end":
            try:
                outcome = codec.from_json(Outcome, message["outcome"])
            except codec.CodecError as error:
                raise wire.ProtocolError(f"an outcome that cannot be read: {error}") from None
            self.outcome = outcome
            acting = self._acting
            if acting is not None:  # the end made the request moot: the agent hears the rest without waiting on it
                self._moot(acting)

            def end() -> None:
                try:
                    agent.end(outcome, None)  # type: ignore[arg-type]  # a guest has no record: the host keeps it
                except Exception:  # noqa: BLE001 - the game is over; a failing clean-up changes nothing
                    pass
            self._later(end)
            self._drain(END_WAIT)
            return outcome
        elif kind == "error":
            raise GuestError(f"the host closed the connection: {message['message']}")
        return None
