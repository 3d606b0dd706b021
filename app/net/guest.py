"""A guest: plays one seat of a game hosted elsewhere, with any :class:`~app.bots.contract.Agent`.

:class:`Guest` connects to the invitation's host, checks the host's certificate against the invitation's
fingerprint before it sends anything, joins with the join code (or comes back with its seat token), and then
does what the host asks: it hands its agent the seat's start, each observation (read back through the codec)
and each request, and sends the agent's answers. If the connection drops, it comes back with its token (for up to
``reconnect_limit`` seconds) and carries on where it was; a new process given the token does the same, its agent
told again everything the seat has been told.

``sightline join INVITATION --bot NAME`` plays a seat with a built-in bot this way; the window's Join will use
the same class with the person at the board as the agent.
"""

from __future__ import annotations

import math
import os
import socket
import ssl
import time
from pathlib import Path
from typing import Any, Callable

from app.bots.base import ActionRequest
from app.bots.contract import Agent, error_text
from app.engine import codec
from app.engine.core import Outcome

from . import values, wire
from .invitation import Invitation, check_fingerprint, client_context, keep_alive

__all__ = ["Guest", "GuestError", "read_token", "write_token"]


class GuestError(Exception):
    """The guest cannot play on: the host refused it, broke the protocol, or stayed away too long."""


class _Dropped(Exception):
    """The connection ended; the guest may come back."""


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
    record the traffic with it)."""

    def __init__(self, invitation: Invitation, make_agent: Callable[[str, int], Agent], *, name: str = "guest",
                 token: str | None = None, on_token: Callable[[str], None] | None = None,
                 on_bytes: Callable[[bytes], None] | None = None, reconnect_limit: float = 60.0,
                 connect_timeout: float = 10.0) -> None:
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

    # -- the whole game --------------------------------------------------------------------------------------
    def play(self) -> Outcome:
        """Play until the game is over and return its outcome; :class:`GuestError` when that cannot be."""
        dropped_at: float | None = None
        pause = 0.05
        while True:
            self._progress = False
            try:
                return self._session()
            except _Dropped as drop:
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
                time.sleep(pause)
                pause = min(2.0, pause * 2)

    def close(self) -> None:
        """Stop (from another thread): the connection is closed and :meth:`play` ends with GuestError."""
        self._closing = True
        connection = self._socket
        if connection is not None:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

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
            self._socket = connection
            self.connections += 1
            self._seq = 0
            reader = wire.Reader(wire.TO_GUEST)
            self._send("hello", {"protocol": wire.PROTOCOL, "version": wire.VERSION,
                                 "code": None if self.token else invitation.code, "token": self.token,
                                 "name": self.name[:wire.MAX_TEXT]})
            while True:
                message = self._receive(connection, reader)
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
            self._socket = None
            try:
                connection.close()
            except OSError:
                pass

    def _send(self, kind: str, fields: dict[str, Any]) -> None:
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

    def _call(self, job: Callable[[], Any], doing: str) -> None:
        """Run one call of the agent; its failure ends the guest (the seat waits for it, then is given up)."""
        try:
            job()
        except Exception as error:  # noqa: BLE001
            raise GuestError(f"the seat's program failed to {doing}: {error_text(error)}") from None

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
            self._send("ready", {})
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
            number = message["request"]
            if self._answered is not None and self._answered[0] == number:
                # asked again after a drop: the answer was lost on the way; the agent has decided already
                self._send(*self._answered[1])
                return None
            choices = values.choices_from_json(variant, message["choices"])
            seconds = message["seconds_left"]
            request = ActionRequest(seat, message["phase"], choices,
                                    math.inf if seconds is None else float(seconds))
            reply: tuple[str, dict[str, Any]]
            try:
                action = agent.act(request)
                reply = ("act", {"request": number, "action": values.action_to_json(action)})
            except Exception as error:  # noqa: BLE001 - the agent's failure is the seat's, told to the host
                reply = ("fail", {"request": number, "message": error_text(error)[:1500]})
            self._answered = (number, reply)
            self._progress = True
            self._send(*reply)
        elif kind == "end":
            try:
                outcome = codec.from_json(Outcome, message["outcome"])
            except codec.CodecError as error:
                raise wire.ProtocolError(f"an outcome that cannot be read: {error}") from None
            self.outcome = outcome
            try:
                agent.end(outcome, None)  # type: ignore[arg-type]  # a guest has no record: the host keeps it
            except Exception:  # noqa: BLE001 - the game is over; a failing clean-up changes nothing
                pass
            return outcome
        elif kind == "error":
            raise GuestError(f"the host closed the connection: {message['message']}")
        return None
