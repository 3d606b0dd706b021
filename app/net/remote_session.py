"""One seat of a game refereed elsewhere, as a window draws it: what that seat has been told, and nothing else.

A window shows a local game through its :class:`~app.engine.record.GameSession`, whose game is the referee with
the true state. A guest's window has no referee: it has its seat's observations, the request it must answer now
and, at the end, the outcome. :class:`RemoteGame` answers the few questions the window asks a game (who is to
act, in which phase, what the seat was told, the options, the teams, the outcome) from those alone, and
:class:`RemoteSession` is the session around it: the seat's private notes (arrows, belief board) are kept as in
a local game, an action of the person is handed to the guest instead of a referee, and the clocks show what the
referee last said, counted down meanwhile. Since nothing here ever holds another seat's secrets, the window
cannot show them: privacy by construction, not by care.

:class:`SeatAgent` is the :class:`~app.bots.contract.Agent` a :class:`~app.net.guest.Guest` plays with: it
hands the seat's start, observations, requests and end to callbacks (called on the guest's thread: the window
passes them to its own thread) and waits for the person's answer.

No Qt here: a test (or another front end) drives a seat the same way.
"""

from __future__ import annotations

import math
import queue
import time
from typing import Any, Callable, Mapping, Sequence

from app import games
from app.bots.base import ActionRequest
from app.bots.contract import Agent
from app.engine.core import Action, IllegalAction, Outcome, Resign, Seat
from app.engine.record import GameRecord, GameSession, PlayerInfo

__all__ = ["NETWORK", "RemoteGame", "RemoteSession", "SeatAgent", "SeatStopped", "network_link"]

NETWORK = "network"
"""The key of a guest's record's ``extra`` that says where its seat is played (host, port, fingerprint, seat,
token): a window's autosave of a network game holds this, not the game's actions (the host keeps those)."""


class SeatStopped(Exception):
    """The window closed while its seat was asked to act: nothing is answered."""


class SeatAgent(Agent):
    """The person at a window as a guest's agent. Each callback is called on the guest's thread; :meth:`act`
    waits until :meth:`answer` (from any thread) gives the person's action, or :meth:`stop`."""

    isolated = False
    observes = True

    def __init__(self, on_start: Callable[[Seat, dict[str, Any], str], None],
                 on_observe: Callable[[Any], None], on_request: Callable[[ActionRequest], None],
                 on_end: Callable[[Outcome], None]) -> None:
        self.name = "person"
        self._on_start, self._on_observe = on_start, on_observe
        self._on_request, self._on_end = on_request, on_end
        self._answers: queue.Queue[Action | None] = queue.Queue()
        self.disconnect: Callable[[], None] | None = None
        """Called before a request is left unanswered (:meth:`stop`): closes the guest's connection, so that the
        guest's report of a failed answer (which would forfeit the seat) never reaches the host."""

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self._on_start(seat, dict(options), opponent_name)

    def observe(self, observation: Any) -> None:
        self._on_observe(observation)

    def act(self, request: ActionRequest) -> Action:
        self._on_request(request)
        action = self._answers.get()
        if action is None:
            self._answers.put(None)  # and any later request too
            if self.disconnect is not None:
                self.disconnect()  # (the guest may have come back since the window closed)
            raise SeatStopped("the window was closed")
        return action

    def end(self, outcome: Outcome, record: GameRecord | None) -> None:
        self._on_end(outcome)

    def answer(self, action: Action) -> None:
        """The person's action for the open request."""
        self._answers.put(action)

    def stop(self) -> None:
        """The window closes: a request waiting for the person ends unanswered (call after the guest's
        connection is closed, so that nothing is sent for it)."""
        self._answers.put(None)


class RemoteGame:
    """The questions a window asks a game, answered from one seat's observations and its open request only."""

    def __init__(self, variant: str, seat: Seat, options: Mapping[str, Any] | None = None) -> None:
        definition = games.get(variant)
        referee = definition.referee()
        self.variant = variant
        self.seat = seat
        self.seat_names: tuple[str, ...] = tuple(definition.seat_names)
        self.hidden_information = definition.hidden_information
        self.seed = None  # the chance seed stays with the referee
        self._teams = tuple(referee.teams())
        self._options: dict[str, Any] = dict(options or {})
        self.log: list[Any] = []
        """The seat's observations, oldest first."""
        self.request: ActionRequest | None = None
        """What the seat must answer now (None: another seat acts, or the game is not on)."""
        self.outcome: Outcome | None = None

    # -- who acts --------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        """The seat while its request is open; otherwise "another seat" (the next one round the table: the seat
        does not know which, and the window only needs to know it is not its own); None once over."""
        if self.outcome is not None:
            return None
        if self.request is not None:
            return self.seat
        return (self.seat + 1) % len(self.seat_names)

    @property
    def phase(self) -> str:
        return self.request.phase if self.request is not None else ""

    @property
    def ply(self) -> int:
        return len(self.log)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def choices(self) -> Any:
        return self.request.choices if self.request is not None else {}

    # -- what the seat knows ------------------------------------------------------------------------------------
    def observations(self, seat: Seat) -> Sequence[Any]:
        return self.log if seat == self.seat else ()

    def teams(self) -> tuple[int, ...]:
        return self._teams

    def options(self) -> dict[str, Any]:
        return dict(self._options)

    def set_options(self, options: Mapping[str, Any]) -> None:
        self._options = dict(options)

    def truth(self) -> None:
        return None  # the true state is the referee's, never the guest's


class RemoteSession(GameSession):
    """The session of a guest's window: notes as in a local game; :meth:`play` hands the action to ``send``
    (the guest's agent) instead of a referee; clocks as the referee last told them. ``link`` is what the
    record's ``extra[NETWORK]`` keeps (the host's address, port and fingerprint, the seat, its token)."""

    def __init__(self, game: RemoteGame, players: list[PlayerInfo], link: dict[str, Any],
                 notes_from: GameRecord | None = None) -> None:
        super().__init__(game, None, players, None, start_clock=False)  # type: ignore[arg-type]
        self.remote = game
        self.record.extra[NETWORK] = dict(link)
        if notes_from is not None:
            from app.engine.record import notes_at  # the notes kept by an earlier window of this seat
            self.record.notes = list(notes_from.notes)
            self._notes[game.seat] = notes_at(notes_from, game.seat)
        self.send: Callable[[Action], None] | None = None
        """Where the person's action for the open request goes (the guest's agent)."""
        self.resign_now: Callable[[], None] | None = None
        """How to resign while another seat acts (a guest that can; None: only on one's own turn)."""
        self._left: dict[Seat, float] = {}
        self._running: Seat | None = None
        self._told_at = time.monotonic()

    # -- acting --------------------------------------------------------------------------------------------------
    def play(self, seat: Seat, action: Action, defer: bool = False) -> None:
        game = self.remote
        if game.outcome is not None:
            raise IllegalAction("the game is over")
        if seat != game.seat:
            raise IllegalAction("this window plays one seat only")
        if game.request is None:
            if isinstance(action, Resign) and self.resign_now is not None:
                self.resign_now()
                return
            raise IllegalAction("it is not your turn" if not isinstance(action, Resign)
                                else "you can resign on your own turn")
        if self.send is None:
            raise IllegalAction("the connection to the host is not ready")
        if self._running == seat:  # the clock stops where it stood (the referee's next word corrects it)
            self._left[seat] = self.seconds_left(seat)
            self._running = None
        game.request = None
        self.send(action)

    def take_request(self, request: ActionRequest) -> None:
        self.remote.request = request
        if math.isfinite(request.seconds_left):
            self.set_clocks(self.remote.seat, {self.remote.seat: request.seconds_left}, time.monotonic())

    def take_outcome(self, outcome: Outcome) -> None:
        self.remote.request = None
        self.remote.outcome = outcome
        self.record.result = outcome
        self._running = None

    # -- clocks: the referee's, as last told -----------------------------------------------------------------------
    def set_clocks(self, running: Seat | None, seconds_left: Mapping[Seat, float | None], received: float) -> None:
        """The referee's word on the clocks (``seconds_left`` of the seats this one may see; ``running`` the
        clock counting down, ``received`` the moment the word arrived, by ``time.monotonic``)."""
        for seat, left in seconds_left.items():
            if left is None:
                self._left.pop(seat, None)
            else:
                self._left[seat] = float(left)
        self._running, self._told_at = running, received

    def seconds_left(self, seat: Seat) -> float:
        left = self._left.get(seat)
        if left is None:
            return math.inf  # untimed, or a clock this seat may not see
        if seat == self._running and self.remote.outcome is None:
            left -= time.monotonic() - self._told_at
        return max(0.0, left)

    def seconds_used(self, seat: Seat) -> float:
        return 0.0

    def check_time(self) -> bool:
        return False  # the referee's clock decides a loss on time, and tells the outcome

    @property
    def paused(self) -> bool:
        return True  # nothing of the clocks is the guest's to keep: no autosave for a running clock

    def snapshot(self) -> GameRecord:
        """What the window's autosave keeps: where the seat is played and its token, and the seat's notes."""
        record = self.record.copy()
        record.live = None
        return record


def network_link(record: GameRecord) -> dict[str, Any] | None:
    """The network seat a record was saved from (a guest's window), or None for a game played here."""
    link = record.extra.get(NETWORK)
    return link if isinstance(link, dict) else None
