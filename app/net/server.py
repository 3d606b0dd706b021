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
import os
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
from app.engine.core import Action, IllegalAction, Outcome, Resign, Seat
from app.engine.atomic_files import atomic_write_text
from app.engine.record import GameRecord, GameSession, PlayerInfo, RecordError
from app.games.team_draw import DRAW_PHASES
from app.hosting.agents import BotSpec
from app.hosting.runner import run_game

from . import values, wire
from .invitation import (Invitation, Throttle, digest, keep_alive, make_certificate, new_code, new_token,
                         normal_code, pem_fingerprint, server_context)

__all__ = ["HostedGame", "RefereeServer", "RemoteSeat"]

HELLO_LIMIT = 10.0
"""Seconds a new connection has to finish its TLS handshake and greet."""
BODY_LIMIT = 30.0
"""Seconds a message may take to arrive once its header has."""
READY_LIMIT = 60.0
"""Seconds a connected guest has to say its program is ready once the game starts (a guest away meanwhile has its
reconnect limit instead)."""
MAX_BUFFER = 8 << 20
"""Bytes waiting to be sent to one guest at most: one that stops reading is cut off."""
ABANDON = ("claim", "abort")
MAX_CONNECTIONS = 2000
"""Connections a server holds at once at most; one more is closed at once (a flood costs it no more)."""
MAX_SIDE = 16
"""Resignations and draw offers or answers of one seat waiting to be taken up at most: more closes the connection."""
NOT_ASKED = ("a draw may be offered or answered only in place of the answer to your seat's open request (it is not "
             "your seat's turn, or its answer came first)")
OFFER, ANSWER = "offer_draw", "answer_draw"
"""The kinds (as records write them) of a game's draw offer and draw answer actions, and the key of a seat's
choices that says whether it may offer a draw now."""


@dataclass
class LagAllowance:
    """How much of a seat's measured network lag its clock is given back, as the big chess servers do it.

    For each answer the referee measures the seconds from sending the request to reading the answer; the guest
    says how long its own program thought over it. The difference is the network's part (the lag). The seat is
    credited that lag, but at most :attr:`per_answer` seconds for one answer and at most its :attr:`quota`; the
    quota grows by :attr:`gain` with each answer, up to :attr:`most`, and shrinks by what was credited. A guest
    that says it thought less than it did gains at most that bound: on average :attr:`gain` seconds an answer.

    >>> lag = LagAllowance()
    >>> lag.credit(2.3, 2.0), [lag.credit(9.0, 0.0) for _ in range(5)]  # the third lie in a row empties the quota
    (0.3, [1.0, 1.0, 1.0, 0.7, 0.5])
    >>> lag.credit(1.0, None), lag.credit(1.0, 4.0), round(lag.credited, 6)  # not measured; no lag at all
    (0.0, 0.0, 4.5)
    """

    per_answer: float = 1.0
    gain: float = 0.5
    most: float = 5.0
    quota: float = 2.0
    credited: float = 0.0
    """Seconds credited so far in all."""
    lag: float = 0.0
    """Seconds of lag measured so far in all."""

    def credit(self, measured: float, thought: float | None) -> float:
        """The seconds to give back for one answer: ``measured`` by the referee, ``thought`` as the guest says
        (None: it did not say, nothing is given back)."""
        if thought is None or not math.isfinite(measured):
            return 0.0
        lag = max(0.0, measured - thought)
        credit = round(min(lag, self.per_answer, max(0.0, self.quota)), 6)
        self.quota = min(self.quota + self.gain - credit, self.most)
        self.credited += credit
        self.lag += lag
        return credit


class _GameTime:
    """A game's clock time: the server's time source less the lag credited so far. Crediting a seat while its clock
    runs makes its turn that much shorter: the seconds charged (and recorded) are those of a local game."""

    def __init__(self, source: Callable[[], float]) -> None:
        self.source = source
        self.credited = 0.0

    def __call__(self) -> float:
        return self.source() - self.credited


class _GameEnded(HostFailure):
    """The game ended meanwhile (a seat resigned out of turn): the call in progress has nothing left to do."""


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


def _sendable(make: Callable[[], Any], what: str) -> Any:
    """What ``make`` builds to send; a game whose data cannot travel is the host's failure, not the seat's: the
    game is aborted (HostFailure) rather than lost by the guest."""
    try:
        data = make()
        size = len(json.dumps(data, allow_nan=False).encode("utf-8"))
        if size > wire.MAX_FRAME - 4096:
            raise ValueError(f"{size} bytes, over the limit of a message")
        return data
    except (TypeError, ValueError) as error:
        raise HostFailure(f"{what} cannot be sent over the network ({str(error)[:200]})") from None


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
        self.lag = LagAllowance()
        """The lag measured and credited to this seat (a timed game's)."""
        self.lag_credits: list[float] = []
        """The seconds credited for each answer of a timed game, in order."""
        self._cond = threading.Condition()
        self._connection: _Connection | None = None
        self._start: dict[str, Any] | None = None
        self._history: list[dict[str, Any]] = []
        self._request = 0
        self._pending: dict[str, Any] | None = None
        self._asked_at = 0.0
        self._asked_time = 0.0
        self._answer: tuple[str, Any] | None = None
        self._answer_lag: tuple[float, float | None] | None = None
        """When the open request's answer was read (the server's time source) and how long the guest says its
        program thought over it."""
        self._clock: dict[str, Any] | None = None
        """The last clock update sent (what changes in it decides whether a new one is due)."""
        self._moot: int | None = None
        """The last request the seat's own resignation or draw message answered: its program's answer to it may
        still be on the way, and is dropped."""
        self._end: dict[str, Any] | None = None
        self._shut = False
        self._ready = False
        self._attached_at = 0.0

    def _request_count(self) -> int:
        """Requests sent so far, less the one still open: a restarted server numbers on from there, so a guest
        that answered that request just before the crash sends the same answer again."""
        return self._request - (1 if self._pending is not None else 0)

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
            while not self._ready:
                # as in _wait, and a guest connected for READY_LIMIT without saying it is ready took too long
                if self._shut:
                    raise HostFailure("the referee server was shut down")
                self.hosted._take_side(self)
                if self.hosted.game.is_over:
                    raise _GameEnded("the game is over")
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    raise AgentTimeout()
                waits = [] if deadline is None else [deadline - now]
                if self._connection is not None:
                    left = self._attached_at + READY_LIMIT - now
                    if left <= 0:
                        raise AgentTimeout()
                    waits.append(left)
                elif self.dropped_at is not None:
                    left = self.dropped_at + self.reconnect_limit - now
                    if left <= 0:
                        raise self._abandoned()
                    waits.append(left)
                self._cond.wait(min(waits) if waits else None)

    def observe(self, observation: Any) -> None:
        data = _sendable(lambda: values.observation_to_json(observation), "an observation")
        with self._cond:
            fields = {"index": len(self._history), "observation": data}
            self._history.append(data)
            self._send("observe", fields)

    def act(self, request: ActionRequest) -> Action:
        seconds = request.seconds_left if math.isfinite(request.seconds_left) else None
        fields = {"phase": request.phase, "seconds_left": seconds,
                  "choices": _sendable(lambda: values.choices_to_json(request.choices), "the seat's choices")}
        limit = self.time_limit
        deadline = None if limit is None else time.monotonic() + limit
        with self._cond:
            self._request += 1
            self._pending = {"request": self._request, **fields}
            self._answer = None
            self._answer_lag = None
            self._asked_at = time.perf_counter()
            self._asked_time = self.hosted.time_source()
            self._send("act", self._pending)
            try:
                self._wait(lambda: self._answer is not None, deadline)
                assert self._answer is not None
                kind, value = self._answer
                answered = self._answer_lag
            finally:
                self._pending = None
                self._answer = None
                self._answer_lag = None
        if kind == "fail":
            raise AgentFailed(f"failed on its guest's computer: {value}")
        if kind == "action" and answered is not None and not self.hosted.control.untimed:
            arrived, thought = answered
            credit = self.lag.credit(arrived - self._asked_time, thought)
            self.lag_credits.append(credit)
            self.hosted.game_time.credited += credit  # the clock still runs on this seat: its turn is that shorter
        return value

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        with self._cond:
            self.hosted._send_clock(self)  # the clocks as they stopped, if the seat may see that they did
            self._end = {"outcome": codec.to_json(outcome)}
            self._send("end", self._end)
            connection = self._connection
        if connection is not None:
            connection.close_soon()

    def _wait(self, done: Callable[[], bool], deadline: float | None) -> None:
        """Wait (holding the condition) until ``done()``: AgentTimeout at ``deadline``, HostFailure when the server
        shuts down, and the abandonment error once the guest has been away longer than the reconnect limit."""
        while True:
            if self._shut:
                raise HostFailure("the referee server was shut down")
            self.hosted._take_side(self)
            if done():
                return
            if self.hosted.game.is_over:
                raise _GameEnded("the game is over")
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
            self._attached_at = time.monotonic()
            self.dropped_at = None
            assert self.token is not None
            connection.send("welcome", {"game": self.hosted.id, "variant": self.hosted.variant, "seat": self.seat,
                                        "seat_names": list(self.hosted.seat_names), "token": self.token,
                                        "resumed": resumed})
            if self._start is not None:
                connection.send("start", self._start)
            for index, data in enumerate(self._history):
                connection.send("observe", {"index": index, "observation": data})
            if self._end is None and self._clock is not None:
                clock = self.hosted._clock_fields(self.seat)  # as they stand now
                if clock is not None:
                    self._clock = clock
                    connection.send("clock", clock)
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
            if number == self._moot:
                return  # answered already by the seat's own resignation or draw: crossed on the way
            if self._end is not None or self._shut:
                return  # the game ended, or its referee is stopping, while the answer was on its way
            if pending is None or self._answer is not None:
                raise wire.ProtocolError(f"an answer to request {number}, but no request is open")
            if number != pending["request"]:
                raise wire.ProtocolError(f"an answer to request {number}, but request {pending['request']} is open")
        if message["type"] == "act":
            answer: tuple[str, Any] = ("action", values.action_from_json(self.hosted.variant, message["action"]))
        else:
            answer = ("fail", "".join(ch for ch in message["message"] if ch.isprintable())[:500])
        arrived = self.hosted.time_source()
        with self._cond:
            if self._pending is pending and self._answer is None and connection is self._connection:
                self.answer_seconds.append(time.perf_counter() - self._asked_at)
                self._answer = answer
                if message["type"] == "act":
                    thought = message["thought"]
                    self._answer_lag = (arrived, None if thought is None else float(thought))
                self._cond.notify_all()

    def receive_side(self, connection: _Connection, kind: str, accept: bool | None, request: int | None) -> None:
        """A ``resign``, ``offer_draw`` or ``answer_draw`` message of ``connection`` (a draw's for the seat's
        ``request``): handed to the game, which plays it when the rules allow it and refuses it otherwise."""
        with self._cond:
            if connection is not self._connection:
                raise wire.ProtocolError("this connection no longer holds its seat")
            if self._end is not None:
                connection.send("refused", {"message": "the game is over"})
                return
            open_request = self._pending["request"] if self._pending is not None and self._answer is None else None
            if kind != "resign" and (request is None or request != open_request):
                connection.send("refused", {"message": NOT_ASKED})
                return
        self.hosted._side(self, kind, accept, request)

    def receive_ready(self, connection: _Connection) -> None:
        """The guest's program has started (said again after each start message; only the first one counts)."""
        with self._cond:
            if connection is self._connection and self._start is not None:
                self._ready = True
                self._cond.notify_all()

    def shut(self) -> None:
        """The server stops: a request waiting for the guest ends (the game is aborted and :meth:`end` tells the
        guest so, as any ending); the connection stays open for that until :meth:`hang_up`."""
        with self._cond:
            self._shut = True
            self._cond.notify_all()

    def hang_up(self) -> None:
        """Close the connection with a sentence, if the game's end did not close it already."""
        with self._cond:
            connection = self._connection if self._end is None else None
        if connection is not None:
            connection.close_soon("the referee server is shutting down")


class HostedGame:
    """One game on a :class:`RefereeServer`: its referee, its agents and, once it is over, its record."""

    def __init__(self, server: "RefereeServer", variant: str, options: dict[str, Any], control: TimeControl,
                 seats: Sequence[str | None], seed: int | None, reconnect_limit: float, on_abandon: str,
                 move_limit: float | None, max_plies: int | None, out_dir: str | Path | None,
                 on_finished: Callable[["HostedGame"], None] | None, autosave: Path | None = None,
                 saved: dict[str, Any] | None = None, time_source: Callable[[], float] | None = None) -> None:
        definition = games.get(variant)
        if len(seats) != len(definition.seat_names):
            raise ValueError(f"{definition.title} has {len(definition.seat_names)} seats, not {len(seats)}")
        if on_abandon not in ABANDON:
            raise ValueError(f"on_abandon is claim or abort, not {on_abandon!r}")
        self.server = server
        self.variant = variant
        self.definition = definition
        self.time_source: Callable[[], float] = time_source or server.time_source
        """The referee's time: the clocks and the lag measured run on it (tests pass their own)."""
        self.game_time = _GameTime(self.time_source)
        """The clocks' time: the referee's, less the lag credited to the seats."""
        self._visible: dict[Seat, tuple[Seat, ...]] = {}
        self._side_lock = threading.Lock()
        self._side_queue: list[tuple[RemoteSeat, str, bool | None, int | None]] = []
        self.title = definition.title
        self.seat_names = definition.seat_names
        self.options = dict(options)
        self.game = definition.referee().from_options(self.options)  # bad options: ValueError, before anything runs
        self.control = control
        self.seats = list(seats)
        self.seed = seed
        self.reconnect_limit = reconnect_limit
        self.on_abandon = on_abandon
        self.move_limit = move_limit
        self.max_plies = max_plies
        self.out_dir = None if out_dir is None else Path(out_dir)
        self.on_finished = on_finished
        self.autosave = autosave
        self.id = secrets.token_hex(4) if saved is None else str(saved["id"])
        self.codes: dict[Seat, str] = {}
        self.agents: list[Agent] = []
        for seat, spec in enumerate(seats):
            if spec is None:
                self.agents.append(RemoteSeat(self, seat, reconnect_limit, on_abandon))
                self.codes[seat] = new_code()
            else:
                bot = BotSpec(spec, variant)
                if bot.builtin is None:  # an outside program in the referee's process could read the whole game
                    raise ValueError(f"{spec!r} is not a built-in {definition.title} bot: a referee's own seats are "
                                     f"played by built-in bots ({', '.join(definition.bot_classes())}) or remote")
                self.agents.append(bot.create(None if seed is None else seed + seat))
        self.session: GameSession | None = None
        self._saved_record: dict[str, Any] | None = None
        self._save_lock = threading.Lock()
        self.resumed = saved is not None
        if saved is not None:
            self._restore(saved)
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
            if self._saved_record is None:  # a new game (or one saved before it started): every seat joins first
                for seat in self.remote_seats.values():
                    while not seat.joined.wait(0.2):
                        if self.server.closing:
                            self.failure = "the server was shut down before every seat had joined"
                            return
                players = [PlayerInfo(agent.name, "bot", getattr(agent, "spec", None)) for agent in self.agents]
                self.session = GameSession(self.game, self.control, players, self.seed, start_clock=False,
                                           time_source=self.game_time)
            else:
                self.session = GameSession.from_snapshot(GameRecord.from_json(self._saved_record), start_clock=False,
                                                         time_source=self.game_time)
                self.game = self.session.game
            self._step(self.session)
            self.record = run_game(self.game, self.agents, self.control, self.seed, move_limit=self.move_limit,
                                   max_plies=self.max_plies, on_step=self._step, session=self.session,
                                   on_clock=self._clocks_changed)
            if self.out_dir is not None:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                path = self.out_dir / f"{self.variant}-{self.id}.json"
                self.record.save(path)
                self.record_path = path
            if self.autosave is not None:
                self.autosave.unlink(missing_ok=True)
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

    # -- clocks: what each seat may see of them, when it may know they changed ----------------------------------
    def visible_clocks(self, seat: Seat) -> tuple[Seat, ...]:
        """The seats whose clocks ``seat`` may see: the game's presenter says (as it does for the window)."""
        found = self._visible.get(seat)
        if found is None:
            presenter = self.definition.presenter() if self.definition.presenter is not None else None
            count = len(self.seat_names)
            found = tuple(presenter.visible_clocks(seat, count)) if presenter is not None else tuple(range(count))
            self._visible[seat] = found
        return found

    def _clock_fields(self, seat: Seat) -> dict[str, Any] | None:
        """A ``clock`` message for ``seat``, with only the clocks it may see (None: an untimed game, or one not
        started). A clock it may not see is not named even as the running one."""
        session = self.session
        if session is None or self.control.untimed:
            return None
        clock = session.clock
        visible = self.visible_clocks(seat)
        running = None if session.game.is_over or session.paused else clock.running
        sharing = [other for other in visible if running is not None and clock.shares_clock(other, running)]
        return {"running": running if running in visible else None,
                "seconds_left": [[other, round(max(0.0, clock.remaining(other)), 3)] for other in visible],
                "sharing": sharing}

    def _send_clock(self, agent: RemoteSeat) -> None:
        """Send ``agent``'s guest the clocks if what its seat may see of them changed since the last update: which
        of them runs, or the time of one that stands still (an increment). The time of a running clock changes
        by itself: the guest counts it down. A change the seat may not see sends nothing, so the moment an update
        arrives tells it nothing it is not told anyway."""
        fields = self._clock_fields(agent.seat)
        if fields is None:
            return
        last = agent._clock

        def shape(update: dict[str, Any]) -> tuple[Any, ...]:
            still = [pair for pair in update["seconds_left"] if pair[0] not in update["sharing"]]
            return update["running"], tuple(update["sharing"]), tuple(map(tuple, still))
        if last is not None and shape(last) == shape(fields):
            return
        agent._clock = fields
        agent._send("clock", fields)

    def _clocks_changed(self) -> None:
        """On the game's thread, after a step or once the clocks start: each remote seat's update, if due."""
        for agent in self.remote_seats.values():
            with agent._cond:
                self._send_clock(agent)

    # -- resigning and draws, said at any moment ------------------------------------------------------------
    def _side(self, agent: RemoteSeat, kind: str, accept: bool | None, request: int | None) -> None:
        """Keep a seat's resignation, draw offer or draw answer (from the network's thread; ``request``: the seat's
        request open when it was read) for the game's thread, and wake it wherever it waits for a guest."""
        with self._side_lock:
            if sum(1 for item in self._side_queue if item[0] is agent) >= MAX_SIDE:
                raise wire.ProtocolError("too many resignations and draw messages at once")
            self._side_queue.append((agent, kind, accept, request))
        for other in self.remote_seats.values():
            with other._cond:
                other._cond.notify_all()

    def _action_of(self, kind: str, **fields: Any) -> Action | None:
        """The game's own action of ``kind`` (its draw offer or answer), None when the game has none."""
        for action_type in type(self.game).actions:
            if getattr(action_type, "kind", None) == kind:
                try:
                    action: Action = action_type(**fields)
                except TypeError:
                    return None
                return action
        return None

    def _take_side(self, current: RemoteSeat | None) -> None:
        """On the game's thread, where it waits for ``current`` (None: between steps): play what the seats said
        at any moment, through the same path as a local game. A resignation answers the seat's open request if it
        has one (the runner plays it, charged as any answer); otherwise it is played at once, out of turn, as the
        window plays one. A draw offer or answer answers the request that was open when it was read, if it is
        still open and the game's rules allow it now; otherwise it is refused, with the reason."""
        if not self._side_queue:
            return
        with self._side_lock:
            queue, self._side_queue = self._side_queue, []
        session, game = self.session, self.game
        for agent, kind, accept, request in queue:
            pending = agent._pending if agent is current and agent._answer is None else None
            if session is None or game.is_over:
                agent._send("refused", {"message": "the game is not under way"})
            elif pending is not None and (kind == "resign" or pending["request"] == request):
                action, why = self._side_answer(kind, accept, pending)
                if action is None:
                    agent._send("refused", {"message": why})
                else:
                    agent._answer = ("action", action)
                    agent._moot = pending["request"]
                    agent._send("closed", {"request": pending["request"]})
            elif kind == "resign":
                try:
                    session.play(agent.seat, Resign())
                except IllegalAction as error:  # cannot be: any seat may resign while the game runs
                    agent._send("refused", {"message": str(error)[:2000]})
            else:
                agent._send("refused", {"message": NOT_ASKED})

    def _side_answer(self, kind: str, accept: bool | None, pending: dict[str, Any]) -> tuple[Action | None, str]:
        """The action answering the open request ``pending`` for a resignation, draw offer or draw answer, or
        None and why the rules do not allow it now."""
        if kind == "resign":
            return Resign(), ""
        choices = values.choices_from_json(self.variant, pending["choices"])
        if kind == OFFER:
            action = self._action_of(OFFER)
            if action is None:
                return None, f"{self.title} has no draw offers"
            if pending["phase"] in DRAW_PHASES or not (isinstance(choices, dict) and choices.get(OFFER)):
                return None, "a draw may not be offered now (once a turn, on your seat's turn)"
            return action, ""
        action = self._action_of(ANSWER, accept=bool(accept))
        if action is None or pending["phase"] not in DRAW_PHASES:
            return None, "no draw offer waits for your seat's answer"
        return action, ""

    # -- the autosave: what a restarted server needs to carry on ------------------------------------------------
    def _step(self, session: GameSession) -> None:
        """After each step (on the game's thread): take up what seats said out of turn, tell each seat the clocks
        if what it may see of them changed, keep the record so far, and save."""
        self._take_side(None)
        self._clocks_changed()
        if self.autosave is None or session.game.is_over:
            return
        self._saved_record = session.snapshot().to_json()
        self.save()

    def save(self) -> None:
        """Write the autosave (from any thread): the settings, the seats' codes and tokens, the record so far."""
        if self.autosave is None:
            return
        with self._save_lock:
            remote = self.remote_seats
            data = {"format": "sightline-hosted-game", "version": 1, "id": self.id, "variant": self.variant,
                    "options": self.options, "clock": self.control.to_json(), "seats": self.seats,
                    "seed": self.seed, "reconnect_limit": self.reconnect_limit, "on_abandon": self.on_abandon,
                    "move_limit": self.move_limit, "max_plies": self.max_plies,
                    "out_dir": None if self.out_dir is None else str(self.out_dir),
                    "codes": {str(seat): code for seat, code in self.codes.items()},
                    "tokens": {str(seat): agent.token for seat, agent in remote.items() if agent.token},
                    "names": {str(seat): agent.name for seat, agent in remote.items()},
                    "requests": {str(seat): agent._request_count() for seat, agent in remote.items()},
                    "record": self._saved_record}
            atomic_write_text(self.autosave, json.dumps(data))

    def _restore(self, saved: dict[str, Any]) -> None:
        self.codes = {int(seat): str(code) for seat, code in saved.get("codes", {}).items()}
        self._saved_record = saved.get("record")
        for seat, agent in self.remote_seats.items():
            token = saved.get("tokens", {}).get(str(seat))
            agent.name = str(saved.get("names", {}).get(str(seat), agent.name))
            agent._request = int(saved.get("requests", {}).get(str(seat), 0))
            if token:
                agent.token = str(token)
                self.codes.pop(seat, None)  # spent before the restart
                agent.joined.set()
                agent.dropped_at = time.monotonic()  # away until it comes back: the reconnect limit runs

    @classmethod
    def load(cls, server: "RefereeServer", path: Path,
             on_finished: Callable[["HostedGame"], None] | None = None) -> "HostedGame":
        """The game saved in ``path``, to carry on; ValueError when the file is not one."""
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(saved, dict) or saved.get("format") != "sightline-hosted-game":
                raise ValueError("not a hosted game's autosave")
            hosted = cls(server, saved["variant"], saved["options"], TimeControl.from_json(saved["clock"]),
                         saved["seats"], saved["seed"], float(saved["reconnect_limit"]), saved["on_abandon"],
                         saved["move_limit"], saved["max_plies"], saved["out_dir"], on_finished, path, saved)
            if hosted._saved_record is not None:
                GameRecord.from_json(hosted._saved_record)  # a record that does not read: refused now
        except (OSError, KeyError, TypeError, RecordError, json.JSONDecodeError) as error:
            raise ValueError(f"{path} cannot be carried on: {error}") from None
        return hosted


def _kept_certificate(folder: Path) -> tuple[bytes, bytes]:
    """The certificate and key kept in ``folder`` (made and kept there, readable by this user only, the first
    time): a restarted server shows guests the same fingerprint."""
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700)  # the autosaves hold the seats' codes and tokens: this user only
    cert_path, key_path = folder / "certificate.pem", folder / "key.pem"
    try:
        return cert_path.read_bytes(), key_path.read_bytes()
    except OSError:
        pass
    cert, key = make_certificate()
    for path, data in ((key_path, key), (cert_path, cert)):
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
    return cert, key


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
                 throttle: Throttle | None = None, certificate: tuple[bytes, bytes] | None = None,
                 state_dir: str | Path | None = None, hold: bool = False,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        self.time_source = time_source
        """The referee's time for its games' clocks and the lag it measures (tests pass their own)."""
        self.state_dir = None if state_dir is None else Path(state_dir)
        cert, key = certificate or (_kept_certificate(self.state_dir) if self.state_dir else make_certificate())
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
        self._admitting = asyncio.Event()
        """Set once guests are heard (:meth:`open`): with ``hold``, a restarted server first takes up its saved
        games, so that a guest coming back with its token finds its seat there."""
        if not hold:
            self._admitting.set()
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

    def open(self) -> None:
        """Hear guests' greetings (a server made with ``hold=True`` keeps them waiting until then)."""
        self._loop.call_soon_threadsafe(self._admitting.set)

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
        if self.state_dir is not None:
            hosted.autosave = self.state_dir / f"game-{hosted.id}.json"
            hosted.save()
        return self._start(hosted)

    def saved_games(self) -> list[Path]:
        """The autosaves of unfinished games in the state folder (a server that was stopped or crashed)."""
        if self.state_dir is None:
            return []
        return sorted(self.state_dir.glob("game-*.json"))

    def resume_game(self, path: str | Path,
                    on_finished: Callable[[HostedGame], None] | None = None) -> HostedGame:
        """Carry on the game saved in ``path`` (one of :meth:`saved_games`): its guests come back with their seat
        tokens (the certificate, kept in the state folder, is the same), seats never joined with their codes; a
        guest that does not come back within the game's reconnect limit is given up as the game says.
        ValueError when the file cannot be carried on."""
        return self._start(HostedGame.load(self, Path(path), on_finished))

    def _start(self, hosted: HostedGame) -> HostedGame:
        with self._lock:
            if self.closing:
                raise RuntimeError("the server is closed")
            self.games[hosted.id] = hosted
            for seat, code in hosted.codes.items():
                self._codes[digest(normal_code(code))] = (hosted, seat)
            for agent in hosted.remote_seats.values():
                if agent.token:
                    self._tokens[digest(agent.token)] = agent
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
        raw = writer.get_extra_info("socket")
        if raw is not None:
            keep_alive(raw)
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
            if not self._admitting.is_set():
                try:
                    await asyncio.wait_for(self._admitting.wait(), HELLO_LIMIT)
                except asyncio.TimeoutError:
                    raise wire.ProtocolError("the server is not taking guests yet: try again") from None
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
                elif kind in ("resign", "offer_draw", "answer_draw"):
                    seat.receive_side(connection, kind, message.get("accept"), message.get("request"))
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
        hosted.save()  # the token survives a crash of the server
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
            for seat in hosted.remote_seats.values():
                seat.hang_up()

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
