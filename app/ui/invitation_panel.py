"""The invitations of a hosted game, shown by the host's window until every guest has joined: for each seat
played from another computer, its address and port, its one-time join code and the whole invitation line with a
Copy button (the host sends it by chat or mail, or reads it aloud)."""

from __future__ import annotations

from typing import Callable, Mapping

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.net.invitation import Invitation

__all__ = ["InvitationPanel"]

POLL_MS = 300
"""How often the panel looks whether a guest has joined (the referee's threads cannot call into Qt)."""


class InvitationPanel(QWidget):
    """``invitations``: seat name -> its invitation; ``joined()`` names the seats whose guest is in. Emits
    ``everyoneJoined`` once, when the last one is."""

    everyoneJoined = Signal()

    def __init__(self, title: str, invitations: Mapping[str, Invitation], joined: Callable[[], list[str]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("invitationPanel")
        self.setMinimumWidth(330)  # the address and the code whole, and most of the invitation line
        self._joined = joined
        self._seats = list(invitations)
        layout = QVBoxLayout(self)
        heading = QLabel(f"<b>{title}</b>: give each player on another computer their seat's invitation. The "
                         "game starts when everyone has joined.")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.nearby = QLabel("It is also listed in Join a network game on the computers of this network "
                             "(without its code).")
        self.nearby.setWordWrap(True)
        self.nearby.hide()  # until the game is announced (see say_announced)
        layout.addWidget(self.nearby)
        self.states: dict[str, QLabel] = {}
        self.copy_buttons: dict[str, QPushButton] = {}
        self.lines: dict[str, QLineEdit] = {}
        for name, invitation in invitations.items():
            box = QWidget()
            grid = QGridLayout(box)
            grid.setContentsMargins(0, 8, 0, 0)
            grid.addWidget(QLabel(f"<b>{name}</b>"), 0, 0)
            state = QLabel("waiting")
            grid.addWidget(state, 0, 1)
            grid.addWidget(QLabel("Address"), 1, 0)
            grid.addWidget(_selectable(f"{invitation.host}:{invitation.port}"), 1, 1)
            grid.addWidget(QLabel("Code"), 2, 0)
            code = _selectable(invitation.shown_code)
            code.setStyleSheet("font-size: 15pt; font-family: monospace;")
            grid.addWidget(code, 2, 1)
            line = QLineEdit(invitation.text())
            line.setReadOnly(True)
            line.setCursorPosition(0)
            line.setToolTip("The whole invitation: the guest pastes it into Join a network game.")
            grid.addWidget(line, 3, 0, 1, 2)
            copy = QPushButton("Copy invitation")
            copy.clicked.connect(lambda _checked=False, text=invitation.text(): self._copy(text))
            grid.addWidget(copy, 4, 0, 1, 2)
            grid.setColumnStretch(1, 1)
            layout.addWidget(box)
            self.states[name], self.copy_buttons[name], self.lines[name] = state, copy, line
        layout.addStretch(1)
        self._done = False
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()

    def say_announced(self) -> None:
        self.nearby.show()

    def _copy(self, text: str) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(text)

    def poll(self) -> None:
        """Mark the seats whose guest has joined; once all have, say so (once)."""
        if self._done:
            return
        joined = set(self._joined())
        for name in self._seats:
            if name in joined:
                self.states[name].setText("joined")
                self.copy_buttons[name].setEnabled(False)
        if joined >= set(self._seats):
            self._done = True
            self._timer.stop()
            self.everyoneJoined.emit()

    def stop(self) -> None:
        self._timer.stop()


def _selectable(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextInteractionFlags(label.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
