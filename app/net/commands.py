"""The bodies of ``sightline serve`` and ``sightline join`` (their arguments are read in :mod:`app.cli`).

Both run without Qt, on a machine without a display.
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
from typing import Any, Callable, Sequence, TextIO

from app import games
from app.bots.contract import BotError
from app.engine.clock import TimeControl
from app.hosting.agents import BotSpec

from .guest import Guest, GuestError, read_token, write_token
from .invitation import Invitation, InvitationError
from .server import RefereeServer

__all__ = ["join_game", "outward_address", "serve_game"]


def outward_address() -> str:
    """This machine's address on its network (the one a packet to the outside would leave from; nothing is
    sent), or 127.0.0.1 when there is no network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks the route
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def _say(out: TextIO, text: str) -> None:
    print(text, file=out, flush=True)


def serve_game(variant: str, seats: Sequence[str | None], *, host: str, port: int, address: str | None,
               options: dict[str, Any], control: TimeControl, seed: int | None, reconnect_limit: float,
               on_abandon: str, out_dir: str | None, max_plies: int | None, move_limit: float | None,
               announce: bool, state_dir: str | None = None, out: TextIO = sys.stdout,
               err: TextIO = sys.stderr) -> int:
    """Host one game until it is over: print each remote seat's invitation, then the result. With
    ``state_dir``, the certificate and the game's autosave are kept there, and an unfinished game found there is
    carried on instead of a new one (its guests come back with their seat tokens)."""
    if address is None:
        address = outward_address() if host in ("0.0.0.0", "::", "") else host
    try:
        server = RefereeServer(host, port, address=address, state_dir=state_dir, hold=True)
    except OSError as error:
        _say(err, f"sightline serve: cannot listen on {host}:{port}: {error.strerror or error}")
        return 1
    announcer = None
    stop = threading.Event()
    previous = _on_terminate(stop.set)
    try:
        saved = server.saved_games()
        try:
            if saved:
                hosted = server.resume_game(saved[0], on_finished=lambda _game: stop.set())
                _say(out, f"carrying on the game saved in {saved[0]}")
            else:
                hosted = server.host_game(variant, seats, options=options, control=control, seed=seed,
                                          reconnect_limit=reconnect_limit, on_abandon=on_abandon,
                                          max_plies=max_plies, move_limit=move_limit, out_dir=out_dir,
                                          on_finished=lambda _game: stop.set())
        except (ValueError, BotError) as error:
            _say(err, f"sightline serve: {error}")
            return 2
        server.open()
        definition = games.get(hosted.variant)
        _say(out, f"serving {definition.title} on {host}:{server.port} (certificate sha256 {server.fingerprint})")
        for seat, invitation in hosted.invitations().items():
            _say(out, f"{definition.seat_names[seat]}: {invitation.text()}")
        if announce:
            from .announce import Announcer
            try:
                announcer = Announcer(server, hosted)
            except Exception as error:  # noqa: BLE001 - the game is served all the same
                _say(err, f"sightline serve: the game is not announced on the local network ({error})")
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        if not hosted.finished.is_set():
            _say(err, "sightline serve: stopped; the game is aborted")
    finally:
        if announcer is not None:
            announcer.close()
        server.close()
        _restore(previous)
    record = hosted.record
    if record is None or record.result is None:
        _say(out, f"no game was played ({hosted.failure or 'stopped before every seat joined'})")
        return 1
    _say(out, f"result: {record.result.detail or record.result.reason.value}")
    if not hosted.control.untimed:
        for seat, agent in hosted.remote_seats.items():
            if agent.lag_credits:
                _say(out, f"{definition.seat_names[seat]}: network lag {agent.lag.lag:.2f} s measured, "
                          f"{agent.lag.credited:.2f} s given back over {len(agent.lag_credits)} answers")
    if hosted.record_path is not None:
        _say(out, f"record written to {hosted.record_path}")
    return 0


def _on_terminate(handler: Callable[[], None]) -> Any:
    """Stop on SIGTERM as on Ctrl-C (main thread only; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        return signal.signal(signal.SIGTERM, lambda signum, frame: handler())
    except (ValueError, OSError):
        return None


def _restore(previous: Any) -> None:
    if previous is not None:
        try:
            signal.signal(signal.SIGTERM, previous)
        except (ValueError, OSError):
            pass


def join_game(invitation_text: str, bot: str, *, name: str | None, token_file: str | None, seed: int | None,
              reconnect_limit: float, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Play the invitation's seat with the built-in bot ``bot`` until the game is over."""
    try:
        invitation = Invitation.parse(invitation_text)
    except InvitationError as error:
        _say(err, f"sightline join: {error}")
        return 2
    token = read_token(token_file) if token_file else None

    def make_agent(variant: str, seat: int) -> Any:
        spec = BotSpec(bot, variant)
        if spec.builtin is None:
            raise BotError(f"{bot!r} is not a built-in bot of this game")
        return spec.create(seed)

    def keep(new_token: str) -> None:
        if token_file:
            try:
                write_token(token_file, new_token)
            except OSError as error:
                _say(err, f"sightline join: cannot keep the seat token in {token_file}: {error.strerror}")

    guest = Guest(invitation, make_agent, name=name or bot, token=token, on_token=keep,
                  reconnect_limit=reconnect_limit)
    try:
        outcome = guest.play()
    except (GuestError, BotError) as error:
        _say(err, f"sightline join: {error}")
        return 1
    except KeyboardInterrupt:
        _say(err, "sightline join: stopped")
        return 1
    seat = guest.seat if guest.seat is not None else 0
    seat_name = games.get(guest.variant).seat_names[seat] if guest.variant else str(seat)
    _say(out, f"played {seat_name}; result: {outcome.detail or outcome.reason.value}")
    return 0
