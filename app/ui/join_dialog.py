"""Game > Join a network game: the games announced on this network (found on a thread of its own, refreshed while
the dialog is open), or an invitation pasted whole. The dialog stays open while it connects, and says in its own
words what went wrong (a bad invitation, a host out of reach, a wrong code, a certificate that is not the host's):
nothing the network does closes it or the window."""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QVBoxLayout, QWidget)

from app.net.invitation import Invitation, InvitationError

__all__ = ["BROWSE_PAUSE", "NAME_SETTING", "JoinDialog"]

NAME_SETTING = "network/name"
"""The name a player gives hosts (their records name the players), remembered once typed."""

BROWSE_PAUSE = 3.0
"""Seconds between two looks for games nearby (each look itself listens for a couple of seconds)."""


class _Finds(QObject):
    """Carries what a look found from the browsing thread to the dialog (a queued signal)."""

    found = Signal(object)


def _browse_loop(browse: Callable[[], list[Any]], finds: _Finds, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            found = list(browse())
        except Exception as error:  # noqa: BLE001 - no network, no multicast: the list says so, the dialog lives
            found = [error]
        if stop.is_set():
            return
        try:
            finds.found.emit(found)
        except RuntimeError:  # the dialog is gone
            return
        stop.wait(BROWSE_PAUSE)


class JoinDialog(QDialog):
    """Emits ``joined(link, variant, seat)`` once the host has taken this window in (the guest plays on from
    there, on its thread; the window makes the seat's game)."""

    joined = Signal(object, str, int)

    def __init__(self, browse: Callable[[], list[Any]] | None, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Join a network game")
        self.setObjectName("joinDialog")
        self.link: Any = None
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Games on this network:"))
        self.games = QListWidget()
        self.games.setMinimumHeight(110)
        layout.addWidget(self.games)
        self.searching = QLabel("Looking for games...")
        self.searching.setWordWrap(True)
        layout.addWidget(self.searching)
        form = QFormLayout()
        self.name = QLineEdit(name)
        self.name.setMaxLength(40)
        self.name.setToolTip("How the host's game record names you (remembered).")
        self.code = QLineEdit()
        self.code.setPlaceholderText("K7Q4-M2XD")
        self.code.setToolTip("The join code the host's window shows for your seat.")
        form.addRow("Join code", self.code)
        layout.addLayout(form)
        layout.addWidget(QLabel("Or paste the invitation the host sent:"))
        self.invitation = QLineEdit()
        self.invitation.setPlaceholderText("sightline://192.168.1.20:40123/K7Q4-M2XD?sha256=...")
        layout.addWidget(self.invitation)
        about_you = QFormLayout()
        about_you.addRow("Your name", self.name)  # for either way of joining
        layout.addLayout(about_you)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.join_button = self.buttons.addButton("&Join", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.join)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.invitation.textChanged.connect(lambda _text: self._say(""))
        self.games.itemDoubleClicked.connect(lambda _item: self.code.setFocus())
        self.resize(520, 420)
        self._stop = threading.Event()
        self._finds = _Finds()  # no parent: the browsing thread may still hold it when the dialog is gone
        self._finds.found.connect(self.show_found)
        if browse is None:
            from app.net.announce import browse as look  # zeroconf loads when the dialog opens, not before
            browse = look
        threading.Thread(target=_browse_loop, args=(browse, self._finds, self._stop), daemon=True,
                         name="sightline-browse").start()

    # -- the games nearby -----------------------------------------------------------------------------------------
    def show_found(self, found: list[Any]) -> None:
        """The games a look found (an exception in the list: the look failed), keeping the one chosen."""
        if found and isinstance(found[0], Exception):
            self.searching.setText(f"Games nearby cannot be listed ({found[0]}); paste an invitation instead.")
            return
        chosen = self.chosen_listing()
        self.games.clear()
        for listing in found:
            seats = ", ".join(listing.open_seats) or "no seat"
            item = QListWidgetItem(f"{listing.title} at {listing.host}:{listing.port}: open for {seats}")
            item.setData(Qt.ItemDataRole.UserRole, listing)
            self.games.addItem(item)
            if chosen is not None and (listing.host, listing.port, listing.name) == \
                    (chosen.host, chosen.port, chosen.name):
                self.games.setCurrentItem(item)
        self.searching.setText("No game is announced on this network yet." if not found else
                               "Choose a game and type the code its host gives you.")

    def chosen_listing(self) -> Any:
        item = self.games.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    # -- joining --------------------------------------------------------------------------------------------------
    def chosen_invitation(self) -> Invitation:
        """The invitation pasted, else the chosen game with the code typed; InvitationError says what is
        missing or wrong."""
        text = self.invitation.text().strip()
        if text:
            return Invitation.parse(text)
        listing = self.chosen_listing()
        if listing is None:
            raise InvitationError("choose a game of the list and type its code, or paste an invitation")
        code = self.code.text().strip()
        if not code:
            raise InvitationError("type the join code the host gives you")
        fingerprint = listing.fingerprint
        # Checked as a pasted one is: the same words for a code or a fingerprint that is not one.
        host = f"[{listing.host}]" if ":" in listing.host else listing.host  # an IPv6 address
        return Invitation.parse(f"sightline://{host}:{listing.port}/{code}?sha256={fingerprint}")

    def join(self) -> None:
        from app.ui.guest_link import GuestLink  # the guest's code loads when someone joins
        if self.link is not None:
            return
        try:
            invitation = self.chosen_invitation()
        except InvitationError as error:
            self._say(f"{str(error)[:1].upper()}{str(error)[1:]}.", problem=True)
            return
        name = " ".join(self.name.text().split()) or "guest"
        QSettings().setValue(NAME_SETTING, name)
        self.link = GuestLink(invitation, name=name)
        self.link.welcomed.connect(self._welcomed)
        self.link.failed.connect(self._failed)
        self.join_button.setEnabled(False)
        self._say(f"Connecting to {invitation.host}:{invitation.port}...")
        self.link.start()

    def _welcomed(self, variant: str, seat: int) -> None:
        link, self.link = self.link, None
        self._stop.set()
        self.joined.emit(link, variant, seat)
        super().accept()

    def _failed(self, message: str) -> None:
        link, self.link = self.link, None
        if link is not None:
            link.close()
        self.join_button.setEnabled(True)
        self._say(f"Could not join: {message}.", problem=True)

    def _say(self, text: str, problem: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #b00020;" if problem else "")

    def done(self, result: int) -> None:  # noqa: D401 - Qt override: every way the dialog ends
        self._stop.set()
        if result != QDialog.DialogCode.Accepted and self.link is not None:
            self.link.close()
            self.link = None
        super().done(result)
