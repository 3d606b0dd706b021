"""The window's network play: Game > Host a network game and Game > Join a network game.

Hosting runs a :class:`~app.net.server.RefereeServer` in this process (its own threads: the window never waits
on it), with its state folder under the data folder, as ``sightline serve --state`` does, so a host window that
crashed carries the game on when it starts again and the guests come back. The host's own person plays through
the same :class:`~app.ui.guest_link.GuestLink` as a guest on another computer, over loopback: this window holds
only its seat's observations, like theirs (whoever runs the referee can still read the game: its process holds
the truth, and the record is written here).

:class:`NetworkPlay` belongs to the main window, which hands it what it needs; it never imports the window.
"""

from __future__ import annotations

import atexit
import getpass
import secrets
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow

if TYPE_CHECKING:
    from app.engine.record import GameRecord
    from app.net.server import HostedGame, RefereeServer
    from app.ui.game_controller import GameController
    from app.ui.guest_link import GuestLink
    from app.ui.invitation_panel import InvitationPanel
    from app.ui.remote_controller import RemoteController

__all__ = ["LISTEN", "NetworkPlay", "rejoin"]

LISTEN = "0.0.0.0"
"""Where a hosting window listens: every network of this computer (tests set 127.0.0.1: loopback only)."""
ANNOUNCE = True
"""Whether a hosted game is announced on the local network (zeroconf; tests turn it off: it binds port 5353)."""
LOOPBACK = "127.0.0.1"


def player_name() -> str:
    """The name this window's player gives a host (its record names the players): as typed last in the Join
    dialog, else the login name."""
    from PySide6.QtCore import QSettings

    from app.ui.join_dialog import NAME_SETTING
    remembered = QSettings().value(NAME_SETTING, "")
    if isinstance(remembered, str) and remembered.strip():
        return remembered.strip()[:40]
    try:
        return getpass.getuser()[:40] or "guest"
    except (OSError, KeyError, ImportError):
        return "guest"


def network_folder() -> Path:
    from app.storage import data_dir  # not before the first frame
    return data_dir() / "network"


def start_server(state_dir: Path, port: int = 0) -> "RefereeServer":
    """A referee in this process, its certificate and autosaves in ``state_dir``. OSError when it cannot
    listen."""
    from app.net.commands import outward_address
    from app.net.server import RefereeServer
    address = outward_address() if LISTEN in ("0.0.0.0", "::") else LISTEN
    return RefereeServer(LISTEN, port, address=address, state_dir=state_dir, hold=True)


class Announcement:
    """A hosted game's announcement on the local network, made and withdrawn on threads of their own: zeroconf
    waits while it announces and says goodbye, and the window must not. ``problem`` says why it could not be
    made (the game is hosted all the same: the invitations work without it)."""

    def __init__(self, server: "RefereeServer", hosted: "HostedGame") -> None:
        self.problem: str | None = None
        self._announcer: Any = None
        self._closed = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._make, args=(server, hosted), daemon=True,
                                        name="sightline-announce")
        self._thread.start()

    def _make(self, server: "RefereeServer", hosted: "HostedGame") -> None:
        try:
            from app.net.announce import Announcer
            announcer = Announcer(server, hosted)
        except Exception as error:  # noqa: BLE001 - no network, no multicast, no zeroconf
            self.problem = str(error) or type(error).__name__
            return
        with self._lock:
            self._announcer = announcer
            late = self._closed
        if late:
            _close_quietly(announcer)

    def close(self) -> None:
        """Withdraw it (from any thread; once, however often called)."""
        with self._lock:
            announcer, self._announcer, self._closed = self._announcer, None, True
        if announcer is not None:
            threading.Thread(target=_close_quietly, args=(announcer,), daemon=True,
                             name="sightline-announce").start()


def _close_quietly(announcer: Any) -> None:
    """Withdraw an announcement (on a network gone meanwhile, it says nothing)."""
    try:
        announcer.close()
    except Exception:  # noqa: BLE001
        pass


STOP_GRACE = 3.0
"""Seconds the program waits at its end, at most, for hosted games still being stopped (their guests are being
told the game was aborted)."""

_stopping: list[threading.Thread] = []


def _stopper(server: "RefereeServer", announced: "list[Announcement]") -> Callable[[], None]:
    """What stops a hosted game when its window leaves it: off the window's thread (a bot thinking, a goodbye on
    the network would hold it); the game is aborted and its guests are told, even when the whole program is
    quitting (:func:`finish_stopping` waits for it at exit)."""
    def stop() -> None:
        def work() -> None:
            for announcement in announced:
                announcement.close()
            server.close()
        # A daemon, so that a network that never answers cannot keep the program alive; finish_stopping bounds
        # the wait at exit instead.
        thread = threading.Thread(target=work, daemon=True, name="sightline-host-stop")
        _stopping[:] = [alive for alive in _stopping if alive.is_alive()] + [thread]
        thread.start()
    return stop


@atexit.register
def finish_stopping(limit: float | None = None) -> None:
    """Wait (``limit`` seconds in all, :data:`STOP_GRACE` by default) for the hosted games being stopped, so that
    a program quitting at once still tells their guests the game was aborted (else they would only see the
    connection drop, and try to reconnect until their limit)."""
    end = time.monotonic() + (STOP_GRACE if limit is None else limit)
    for thread in list(_stopping):
        thread.join(max(0.0, end - time.monotonic()))


def rejoin(record: "GameRecord", parent: QObject | None = None) -> "RemoteController":
    """The controller that comes back to the network seat ``record`` was autosaved from: a guest returns with its
    token; a host first starts its referee again from its state folder, on the same port, carrying the game on
    (the guests come back by themselves), and its window (``parent``'s :class:`NetworkPlay`, if it has one)
    shows the Invitations panel again for the seats nobody had joined yet. ValueError (a sentence) when that
    cannot be."""
    from app.net.remote_session import network_link
    from app.ui.remote_controller import RemoteController
    link = network_link(record) or {}
    state = link.get("state_dir")
    network = getattr(parent, "network", None)
    network = network if isinstance(network, NetworkPlay) else None
    stop = None
    server = hosted = None
    announced: list[Announcement] = []
    waiting: list[str] = []  # the invitations of seats nobody had joined yet, for the host to give again
    if isinstance(state, str):
        try:
            server = start_server(Path(state), int(link.get("port", 0)))
        except OSError as error:
            raise ValueError(f"the game's referee cannot listen again on port {link.get('port')}: "
                             f"{error.strerror or error}") from None
        saved = server.saved_games()
        if not saved:
            server.close()
            raise ValueError("the referee of this game kept nothing to carry on (it ended when its window closed)")
        try:
            hosted = server.resume_game(saved[0], None if network is None else network._tell_finished)
        except ValueError as error:
            server.close()
            raise ValueError(str(error)) from None
        server.open()
        stop = _stopper(server, announced)
        waiting = [f"{hosted.seat_names[seat]} has not joined yet: its invitation is {invitation.text()}"
                   for seat, invitation in hosted.invitations().items() if seat != link.get("seat")]
    try:
        controller = RemoteController.rejoin(record, parent, player_name())
    except ValueError:
        if stop is not None:
            stop()
        raise
    controller.on_stop = stop
    seat = controller.remote_game.seat
    controller.logs[seat].extend(waiting)
    if network is not None and server is not None and hosted is not None and stop is not None:
        network.hosting_again(server, hosted, controller, stop, announced)
    controller.link.start()
    return controller


class _Finished(QObject):
    """Carries a hosted game's end from its thread to the window's (a queued signal): the hosted game and where
    its record was written ("" when it was not)."""

    over = Signal(object, str)


class NetworkPlay:
    """The two menu items' work for ``window``: ``may_leave`` asks before an unfinished game is left,
    ``install`` makes a controller the window's game, ``warn`` tells the player a problem."""

    def __init__(self, window: QMainWindow, may_leave: Callable[[], bool],
                 install: Callable[["GameController"], None], warn: Callable[[str, str], None]) -> None:
        self._window = window
        self._may_leave = may_leave
        self._install = install
        self._warn = warn
        self.browse: Callable[[], list[Any]] | None = None
        """The games announced nearby (None: :func:`app.net.announce.browse`; tests give their own)."""
        self.panel: InvitationPanel | None = None
        self.dock: QDockWidget | None = None
        self.hosted: HostedGame | None = None
        self.server: RefereeServer | None = None
        self.join_dialog: QDialog | None = None
        self.host_dialog: QDialog | None = None
        self._pending: GuestLink | None = None  # the host's own seat, joining its referee
        self._host_seat: RemoteController | None = None  # the seat this window plays of the game it hosts
        self._finished = _Finished()
        self._finished.over.connect(self._record_written)

    # -- Join -----------------------------------------------------------------------------------------------------
    def join(self) -> None:
        from app.ui.join_dialog import JoinDialog  # not before the first frame
        if not self._may_leave():
            return
        dialog = JoinDialog(self.browse, player_name(), self._window)
        self.join_dialog = dialog
        dialog.joined.connect(self._joined)
        dialog.open()  # not exec(): the window (and the guest's thread) go on meanwhile

    def _joined(self, link: "GuestLink", variant: str, seat: int) -> None:
        from app.ui.remote_controller import RemoteController
        self._install(RemoteController(link, variant, seat, self._window))

    # -- Host -----------------------------------------------------------------------------------------------------
    def host(self) -> None:
        from app.ui.host_dialog import HostDialog  # not before the first frame
        if not self._may_leave():
            return
        dialog = HostDialog(self._window, LISTEN)
        self.host_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start_hosting(dialog.hosting())

    def start_hosting(self, hosting: Any) -> bool:
        """Host the game ``hosting`` (a :class:`~app.ui.host_dialog.Hosting`) and join it from this window."""
        from app.bots.contract import BotError
        from app.net.invitation import Invitation
        from app.ui.guest_link import GuestLink
        state = network_folder() / f"host-{secrets.token_hex(4)}"
        try:
            server = start_server(state, hosting.port)
        except OSError as error:
            where = f"Port {hosting.port} could not be opened" if hosting.port else "No port could be opened for it"
            self._warn("Cannot host the game", f"{where}: {error.strerror or error}.")
            return False
        try:
            hosted = server.host_game(hosting.variant, hosting.referee_seats(), options=hosting.options,
                                      control=hosting.control, out_dir=network_folder() / "records",
                                      on_finished=self._tell_finished)
        except (ValueError, BotError) as error:
            server.close()
            self._warn("Cannot host the game", str(error))
            return False
        server.open()
        self.server, self.hosted = server, hosted
        seat = hosting.person_seat
        mine = Invitation(LOOPBACK, server.port, hosted.codes[seat], server.fingerprint)
        link = GuestLink(mine, name=player_name())
        self._pending = link
        announced: list[Announcement] = []  # made once the host's own seat is in: only the others are open
        stop = _stopper(server, announced)
        extra = {"state_dir": str(state)}
        link.welcomed.connect(lambda variant, number: self._hosted_seat(link, variant, number, stop, extra,
                                                                        announced))
        link.failed.connect(lambda message: self._host_failed(link, message, stop))
        link.start()
        self._show_invitations(hosted, seat)
        return True

    def _hosted_seat(self, link: "GuestLink", variant: str, seat: int, stop: Callable[[], None],
                     extra: dict[str, Any], announced: list[Announcement]) -> None:
        from app.ui.remote_controller import RemoteController
        if link is not self._pending:
            return
        self._pending = None
        if ANNOUNCE and self.server is not None and self.hosted is not None:
            announcement = Announcement(self.server, self.hosted)
            announced.append(announcement)
            if self.panel is not None:
                self.panel.everyoneJoined.connect(announcement.close)  # the game is full: no longer announced
                self.panel.say_announced()
        controller = RemoteController(link, variant, seat, self._window, extra_link=extra)
        server = self.server
        self._host_seat = controller

        def stopped() -> None:
            if self.server is server:  # (not when a new hosted game replaced it: that one's panel stays)
                self._forget()
            stop()
        controller.on_stop = stopped
        self._install(controller)

    def hosting_again(self, server: "RefereeServer", hosted: "HostedGame", controller: "RemoteController",
                      stop: Callable[[], None], announced: list[Announcement]) -> None:
        """The game this window hosted before it crashed, carried on by ``server`` and played here by
        ``controller`` (see :func:`rejoin`): its Invitations panel comes back for the seats nobody had joined yet
        (announced again while they are open), and the record is named in the log at the end."""
        self.server, self.hosted, self._host_seat = server, hosted, controller
        seat = controller.remote_game.seat

        def stopped() -> None:
            if self.server is server:
                self._forget()
            stop()
        controller.on_stop = stopped
        if not any(other != seat for other in hosted.invitations()):
            self._hide_invitations()  # (a panel of another game this window hosted before)
            return
        self._show_invitations(hosted, seat)
        if ANNOUNCE and self.panel is not None:
            announcement = Announcement(server, hosted)
            announced.append(announcement)
            self.panel.everyoneJoined.connect(announcement.close)
            self.panel.say_announced()

    def _host_failed(self, link: "GuestLink", message: str, stop: Callable[[], None]) -> None:
        if link is self._pending:  # (a failure later in the game is the controller's to tell)
            self._pending = None
            stop()
            self._hide_invitations()
            self._warn("Cannot host the game", f"This window could not join its own game: {message}.")

    def _tell_finished(self, hosted: "HostedGame") -> None:
        """(On the hosted game's thread, once its record is written.)"""
        try:
            self._finished.over.emit(hosted, str(hosted.record_path or ""))
        except RuntimeError:  # the window is gone
            pass

    def _record_written(self, hosted: "HostedGame", path: str) -> None:
        """Tell the host's person where the record is (the window's own seat has only its view of the game), once
        its seat has heard the end: the record can be written before the guest's thread brings the end."""
        controller = self._host_seat
        if not path or hosted is not self.hosted or controller is None:
            return

        def tell(_outcome: object = None) -> None:
            controller.record_path = path
            controller.logs[controller.remote_game.seat].append(
                f"The game's record, with every seat's moves, is saved in {path} (Game > Review replays it).")
            controller.changed.emit()

        if controller.outcome is not None:
            tell()
        else:
            controller.gameOver.connect(tell, Qt.ConnectionType.SingleShotConnection)

    def _forget(self) -> None:
        self._hide_invitations()
        self.server = self.hosted = None

    # -- the invitations ------------------------------------------------------------------------------------------
    def _show_invitations(self, hosted: "HostedGame", own_seat: int) -> None:
        from app.ui.invitation_panel import InvitationPanel
        invitations = {seat: invitation for seat, invitation in hosted.invitations().items() if seat != own_seat}
        panel = InvitationPanel(hosted.title, {hosted.seat_names[seat]: invitation
                                               for seat, invitation in invitations.items()},
                                lambda: [hosted.seat_names[seat] for seat, agent in hosted.remote_seats.items()
                                         if seat != own_seat and agent.joined.is_set()])
        if self.dock is None:
            self.dock = QDockWidget("Invitations", self._window)
            self.dock.setObjectName("invitationDock")
            self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                  | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
            self._window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        old = self.dock.widget()
        self.dock.setWidget(panel)
        if old is not None:
            old.deleteLater()
        self.panel = panel
        panel.everyoneJoined.connect(self._hide_invitations)
        self.dock.show()

    def _hide_invitations(self) -> None:
        if self.dock is not None:
            self.dock.hide()
        if self.panel is not None:
            self.panel.stop()
