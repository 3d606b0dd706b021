"""The window's end of a network seat: a :class:`~app.net.guest.Guest` playing on a thread of its own, its news
passed to the window's thread by Qt signals, so the window never waits on the network.

:class:`GuestLink` owns the guest, its thread and its :class:`~app.net.remote_session.SeatAgent`; the remote
controller (:mod:`app.ui.remote_controller`) and the join dialog listen to its signals.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from app.engine.core import Action
from app.net.guest import Guest, GuestError
from app.net.invitation import Invitation
from app.net.remote_session import SeatAgent

__all__ = ["GuestLink", "make_guest"]


def make_guest(invitation: Invitation, make_agent: Callable[[str, int], Any], *, name: str, token: str | None,
               on_token: Callable[[str], None], on_clock: Callable[[Any], None],
               on_link: Callable[[str], None]) -> Guest:
    """The guest for a window's seat (tests pass a stand-in to :class:`GuestLink`)."""
    return Guest(invitation, make_agent, name=name, token=token, on_token=on_token, on_clock=on_clock,
                 on_link=on_link)


class GuestLink(QObject):
    """One seat played from this window over the network.

    Signals (all on the window's thread): ``welcomed(variant, seat)``, the host took the guest in;
    ``started(options, opponent)``, the game began (again, after a reconnect to a restarted window: each
    observation follows again); ``observed(observation)``; ``asked(request)``, the person must act;
    ``ended(outcome)``; ``failed(message)``, the guest cannot play on (the host refused it, or could not be
    reached); ``tokenChanged(token)``; ``clockUpdate(update)``, the referee's word on the clocks;
    ``linkChanged(state)``, ``"lost"`` when the connection dropped and the guest tries to come back, ``"back"`` once
    it is back.
    """

    welcomed = Signal(str, int)
    started = Signal(object, str)
    observed = Signal(object)
    asked = Signal(object)
    ended = Signal(object)
    failed = Signal(str)
    tokenChanged = Signal(str)
    clockUpdate = Signal(object)
    linkChanged = Signal(str)

    def __init__(self, invitation: Invitation, name: str = "guest", token: str | None = None,
                 build: Callable[..., Guest] = make_guest, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.invitation = invitation
        self.agent = SeatAgent(lambda seat, options, opponent: self._emit(self.started, options, opponent),
                               lambda observation: self._emit(self.observed, observation),
                               lambda request: self._emit(self.asked, request),
                               lambda outcome: self._emit(self.ended, outcome))
        self.guest = build(invitation, self._make_agent, name=name, token=token,
                           on_token=lambda new: self._emit(self.tokenChanged, new),
                           on_clock=lambda update: self._emit(self.clockUpdate, update),
                           on_link=lambda state: self._emit(self.linkChanged, state))
        self.agent.disconnect = self.guest.close
        self.closed = False
        self._attached = threading.Event()
        self._thread: threading.Thread | None = None

    def _make_agent(self, variant: str, seat: int) -> SeatAgent:
        """The host's first welcome: the window makes the seat's game, and the guest waits until it listens
        (:meth:`attach`), so that no news sent meanwhile is lost."""
        self._emit(self.welcomed, variant, seat)
        while not self._attached.wait(0.1):
            if self.closed:
                break
        return self.agent

    def attach(self) -> None:
        """The window listens to every signal now (the guest goes on from the welcome)."""
        self._attached.set()

    def _emit(self, signal: Any, *args: Any) -> None:
        """Emit from the guest's thread; a link already deleted with its window is left alone."""
        if self.closed:
            return
        try:
            signal.emit(*args)
        except RuntimeError:  # the Qt object is gone (the window closed): nobody is listening any more
            self.closed = True

    def start(self) -> None:
        """Connect and play, on a thread of its own."""
        self._thread = threading.Thread(target=self._play, daemon=True, name="sightline-guest")
        self._thread.start()

    def _play(self) -> None:
        try:
            self.guest.play()
        except GuestError as error:
            self._emit(self.failed, str(error))
        except Exception as error:  # noqa: BLE001 - whatever goes wrong on the network, the window lives on
            self._emit(self.failed, f"the connection failed ({type(error).__name__}: {error})")

    def answer(self, action: Action) -> None:
        self.agent.answer(action)

    def resign(self) -> None:
        self.guest.resign()  # sent on a thread of its own: the window never waits on the network

    def close(self, wait: float = 0.0) -> None:
        """Leave the seat (the window closes or starts another game): the connection is closed first, then a
        request waiting for the person ends unanswered. The host keeps the seat for its reconnect limit."""
        if self.closed:
            return
        self.closed = True
        self.guest.close()
        self.agent.stop()
        if wait and self._thread is not None:
            self._thread.join(wait)
