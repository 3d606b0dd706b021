"""A seat played from this window in a game refereed elsewhere (a guest, or the host's own person).

:class:`RemoteController` is a :class:`~app.ui.game_controller.GameController` whose session is a
:class:`~app.net.remote_session.RemoteSession`: the window draws it exactly like a local game (board, belief
board, clocks, log, move list, sounds, premoves), from the seat's observations only, because that is all it
has. What the :class:`~app.ui.guest_link.GuestLink` brings (on the window's thread) is taken in as a local
game takes in a step; the person's action goes to the link. The other seats are "elsewhere": no bot runs for
them here.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app import games
from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import Outcome, Seat
from app.engine.record import GameRecord, PlayerInfo
from app.games.scene import BoardScene
from app.net.invitation import Invitation
from app.net.remote_session import NETWORK, RemoteGame, RemoteSession, network_link
from app.ui.controller_bots import SeatConfig
from app.ui.game_controller import GameController
from app.ui.guest_link import GuestLink

__all__ = ["ELSEWHERE", "RemoteController", "link_of"]

ELSEWHERE = "elsewhere"
"""The spec of a seat played on another computer (or by the host's bots): no program runs for it here."""


LOST = "Connection lost: trying to reconnect…"
"""What a seat's status and log say while its guest tries to come back (then the log says "Reconnected.")."""


class _NoBots(QObject):
    """The other seats of a network game: played elsewhere, so nothing here is started, asked or told."""

    answered = Signal(int, object)
    failed = Signal(int, str)
    thinkingChanged = Signal(bool)

    def start(self, *_args: Any) -> None: ...

    def ask(self, _seat: Seat) -> None: ...

    def timed_out(self, _seat: Seat) -> bool:
        return False

    def finish(self, _outcome: Outcome | None) -> None: ...

    def stop(self) -> None: ...


def link_of(invitation: Invitation, seat: int | None = None, token: str | None = None,
            **more: Any) -> dict[str, Any]:
    """What a network seat's record keeps to come back to it (never the one-time code once it is spent)."""
    return {"host": invitation.host, "port": invitation.port, "fingerprint": invitation.fingerprint,
            "seat": seat, "token": token, **more}


class RemoteController(GameController):
    """The game of ``link``'s seat (``variant``, ``seat``: from the host's welcome). ``on_stop`` is called when
    the window leaves the game (the host's window stops its referee there)."""

    def __init__(self, link: GuestLink, variant: str, seat: Seat, parent: QObject | None = None,
                 notes_from: GameRecord | None = None, extra_link: dict[str, Any] | None = None) -> None:
        names = games.get(variant).seat_names
        configs = [SeatConfig("You") if index == seat else SeatConfig(f"{name} (elsewhere)", ELSEWHERE)
                   for index, name in enumerate(names)]
        game = RemoteGame(variant, seat)
        players = [PlayerInfo(config.name, "bot" if config.is_bot else "human", config.spec) for config in configs]
        token = link.guest.token
        self.remote_session = RemoteSession(game, players, link_of(link.invitation, seat, token,
                                                                   **(extra_link or {})), notes_from)
        super().__init__(variant, configs, TimeControl(None, 0.0), parent=parent, session=self.remote_session)
        self.bots.deleteLater()
        self.bots = _NoBots(self)  # type: ignore[assignment]  # the others play elsewhere
        if notes_from is not None:
            self.notes.restore(variant, len(names))
        self.remote_game = game
        self.link = link
        self.remote_session.send = link.answer
        self.remote_session.resign_now = link.resign
        self.on_stop: Callable[[], None] | None = None
        self.started = False
        self.problem: str | None = None
        """Why the seat cannot play on (the host went away), said in the status."""
        self.record_path: str | None = None
        """The host's record of the game, with every seat's moves, once written (the host's window only): Game >
        Review replays it."""
        self.reconnecting = False
        """Whether the connection dropped and the guest is trying to come back (said in the status)."""
        self._inbox: list[tuple[Callable[[Any], None], Any]] = []
        """What the link brought since the last pass of the event loop, in order (see _news)."""
        link.setParent(self)
        link.started.connect(self._started)
        link.observed.connect(self._observed)
        link.asked.connect(self._asked)
        link.ended.connect(self._ended)
        link.failed.connect(self._failed)
        link.tokenChanged.connect(self._token)
        link.clockUpdate.connect(self._clock_update)
        link.linkChanged.connect(self._link_changed)
        link.attach()

    record_kept_elsewhere = True
    """The host keeps the game's record: this window can neither save nor export it (see window_menus)."""

    # -- what the link brings ----------------------------------------------------------------------------------
    def _started(self, options: dict[str, Any], _opponent: str) -> None:
        self.remote_game.set_options(options)
        self.session.record.options = dict(options)
        self.started = True
        self.changed.emit()

    def _observed(self, observation: Any) -> None:
        self._news(self.remote_game.log.append, observation)

    def _asked(self, request: ActionRequest) -> None:
        self._news(self.remote_session.take_request, request)

    def _ended(self, outcome: Outcome) -> None:
        self._news(self.remote_session.take_outcome, outcome)

    def _news(self, take: Callable[[Any], None], what: Any) -> None:
        """Take in what arrived as a local game takes in a step, once for all that arrived together (a seat
        coming back is told everything again: one redraw and one autosave for all of it, not one each). The
        seat's game changes only then, with its views: the window never sees a request its board does not
        show yet."""
        self._inbox.append((take, what))
        if len(self._inbox) == 1:
            QTimer.singleShot(0, self._take_news)

    def _take_news(self) -> None:
        inbox, self._inbox = self._inbox, []
        if self.remote_game.outcome is not None or not inbox:
            return  # (the end was taken in already: nothing comes after it)
        for take, what in inbox:
            if self.remote_game.outcome is None:
                take(what)
        self._after()

    def _failed(self, message: str) -> None:
        if self.remote_game.outcome is None:
            self.problem = message
            self.reconnecting = False
            self.remote_game.request = None  # nothing can be answered any more: no move is offered
            self._premoves.clear()
            self.logs[self.remote_game.seat].append(f"The game cannot go on here: {message}.")
            self.changed.emit()

    def _link_changed(self, state: str) -> None:
        """The connection dropped (``"lost"``: the guest tries to come back by itself) or is back (``"back"``)."""
        if self.remote_game.outcome is not None or self.problem is not None:
            return
        lost = state == "lost"
        if lost == self.reconnecting:
            return
        self.reconnecting = lost
        self.logs[self.remote_game.seat].append(LOST if lost else "Reconnected.")
        self.changed.emit()

    def _token(self, token: str) -> None:
        self.session.record.extra[NETWORK]["token"] = token
        self._save()  # a window restarted from its autosave comes back to this seat with it

    def _clock_update(self, update: Any) -> None:
        """The referee's word on the clocks (an :class:`app.net.guest.ClockUpdate`)."""
        try:
            self.remote_session.set_clocks(update.running, dict(update.seconds_left), float(update.received))
        except (AttributeError, TypeError, ValueError):
            return  # a word this window cannot read changes nothing
        self.clocksChanged.emit()

    # -- what differs from a local game --------------------------------------------------------------------------
    def truth_scene(self) -> BoardScene | None:
        return None  # the true position stays with the referee (and in the host's record)

    def status(self) -> str:
        game = self.remote_game
        if game.outcome is None:
            if self.problem is not None:
                return f"Disconnected: {self.problem}"
            if self.reconnecting:
                return LOST
            if not self.started:
                return "Waiting for every player to join"
            if game.request is None:
                others = [name for index, name in enumerate(game.seat_names) if index != game.seat]
                waiting = others[0] if len(others) == 1 else "the other players"
                return f"Waiting for {waiting}" + (f"; queued: {self._premoves.words()} (a right click or Esc "
                                                   "cancels)" if self._premoves.words() else "")
        return super().status()

    @property
    def leave_words(self) -> str:  # type: ignore[override]
        if self.on_stop is not None and "state_dir" in self.session.record.extra[NETWORK]:
            return ("You host this game: closing the window ends it for every player (it is aborted). "
                    "Quit anyway?")
        return ("The game goes on without you: the host keeps your seat for a minute, then you lose it by leaving. "
                "Quit anyway? Sightline offers to go back to your seat when it starts again.")

    def can(self, what: str) -> bool:
        """As in a local game, and nothing once the host is out of reach."""
        if self.problem is not None:
            return False
        return super().can(what)

    def stop(self) -> None:
        super().stop()
        self.link.close()
        if self.on_stop is not None:
            on_stop, self.on_stop = self.on_stop, None
            on_stop()

    @classmethod
    def rejoin(cls, record: GameRecord, parent: QObject | None = None,
               name: str = "guest") -> "RemoteController":
        """The window restarted from the autosave of a network seat: come back to it with its token (the host
        tells the seat again all it was told). ValueError when the record does not say where."""
        link = network_link(record)
        if link is None or not isinstance(link.get("token"), str) or not isinstance(link.get("seat"), int):
            raise ValueError("this network game's autosave does not say how to come back to its seat")
        invitation = Invitation(str(link["host"]), int(link["port"]), "", str(link["fingerprint"]))
        guest = GuestLink(invitation, name=name, token=link["token"])
        extra = {key: value for key, value in link.items() if key not in ("host", "port", "fingerprint", "seat",
                                                                           "token")}
        controller = cls(guest, record.variant, int(link["seat"]), parent, notes_from=record, extra_link=extra)
        return controller
