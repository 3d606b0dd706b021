"""Game > Host a network game: the new-game dialog's choices (the game, its form and options, the clock), with one
more choice for each seat: "Another computer". The person at this computer plays one seat; the others are the
host's bots or people on other computers, one invitation each. The port the game is hosted on may be chosen (for
a firewall's open port; "any free port" otherwise)."""

from __future__ import annotations

import errno
import socket
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QMessageBox, QSpinBox, QWidget

from app.engine.clock import TimeControl
from app.ui.new_game_dialog import PERSON, NewGameDialog, SeatChoice, SeatRow

__all__ = ["ELSEWHERE", "HostDialog", "Hosting", "port_problem"]

PORT_SETTING = "hostgame/port"
"""The port last chosen in the dialog (0: any free one)."""

ELSEWHERE = "another computer"
"""A seat row's choice (and what the settings remember) for a seat played from another computer."""


@dataclass(frozen=True)
class Hosting:
    """What the host chose: the game, its options and clock, and who plays each seat (``"person"``, ``ELSEWHERE``
    or ``"bot:level"``); ``port`` the port to host it on (0: any free one)."""

    variant: str
    options: dict[str, Any]
    control: TimeControl
    seats: tuple[str, ...]
    port: int = 0

    @property
    def person_seat(self) -> int:
        return self.seats.index(PERSON)

    def referee_seats(self) -> list[str | None]:
        """The seats as the referee takes them: None for a seat joined over the network (the host's own person
        too, over loopback), a built-in bot's spec for the others."""
        return [None if who in (PERSON, ELSEWHERE) else f"sightline:{who}" for who in self.seats]


def _who(row: SeatRow) -> str:
    data = row.who.currentData()
    if data in (PERSON, ELSEWHERE):
        return str(data)
    return f"{data}:{row.level.currentData()}"


class HostDialog(NewGameDialog):
    """The new-game dialog, for a game whose seats may be played from other computers."""

    def __init__(self, parent: QWidget | None = None, listen: str = "0.0.0.0") -> None:
        """``listen``: the address the referee will listen on (where a chosen port is tried)."""
        super().__init__(parent)
        self.listen = listen
        self.setWindowTitle("Host a network game")
        self.setMinimumWidth(500)  # the seat rows' longer choices ("You, at this computer") read whole
        self.no_person.setText("One seat is yours (played at this computer) and at least one is played from "
                               "another computer; the others may be bots.")
        self.shuffle.setChecked(False)
        self._form.setRowVisible(self.shuffle, False)
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("any free port")
        self.port.setToolTip("The port the game is hosted on: a port your firewall or router lets through, or "
                             "any free one (the invitation names it either way).")
        self.port.setValue(_remembered_port())
        self._form.insertRow(self._form.rowCount() - 1, "Port", self.port)  # above the buttons, the last row

    def _build_game_rows(self, seats: list[SeatChoice]) -> None:
        super()._build_game_rows(seats)
        remembered = str(QSettings().value(f"hostgame/players/{self.chosen_key()}", "") or "").split(",")
        for index, row in enumerate(self.seat_rows):
            row.who.setItemText(0, "You, at this computer")
            row.who.insertItem(1, "Another computer", ELSEWHERE)
            row.who.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # the choices read whole
            choice = remembered[index] if len(remembered) == len(self.seat_rows) else ""
            if choice == ELSEWHERE or (not choice and index > 0):
                row.who.setCurrentIndex(1)  # first time: the first seat here, the others from elsewhere
            elif choice.partition(":")[0] not in ("", PERSON) and row.who.findData(choice.partition(":")[0]) > 0:
                row.who.setCurrentIndex(row.who.findData(choice.partition(":")[0]))
                row.level.setCurrentIndex(max(0, row.level.findData(choice.partition(":")[2])))
            elif choice == PERSON:
                row.who.setCurrentIndex(0)
        self._refresh()

    def _refresh(self) -> None:
        super()._refresh()
        if not hasattr(self, "seat_rows"):
            return
        whos = [row.who.currentData() for row in self.seat_rows]
        fine = whos.count(PERSON) == 1 and ELSEWHERE in whos
        self._form.setRowVisible(self.no_person, not fine)
        self._form.setRowVisible(self.shuffle, False)
        # The guests' windows cannot be told to hide the belief board's inference: it is offered to everyone.
        self._form.setRowVisible(self.inference, False)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(fine)
        self.adjustSize()

    def hosting(self) -> Hosting:
        choice = self.choice()
        return Hosting(choice.variant, choice.game_options(), choice.control,
                       tuple(_who(row) for row in self.seat_rows), self.port.value())

    def accept(self) -> None:
        problem = self._option_problem()
        if problem is not None:
            QMessageBox.warning(self, "Host a network game", problem if len(problem) <= 300 else problem[:299] + "…")
            return
        problem = port_problem(self.port.value(), self.listen)
        if problem is not None:
            QMessageBox.warning(self, "Host a network game", problem)
            self.port.setFocus()
            return
        QSettings().setValue(PORT_SETTING, self.port.value())
        # Remembered apart from the new-game dialog's seats (a seat "from another computer" is no choice there).
        QSettings().setValue(f"hostgame/players/{self.chosen_key()}",
                             ",".join(_who(row) for row in self.seat_rows))
        QDialog.accept(self)


def _remembered_port() -> int:
    try:
        port = int(str(QSettings().value(PORT_SETTING, 0) or 0))
    except (TypeError, ValueError):
        return 0
    return port if 0 <= port <= 65535 else 0


def port_problem(port: int, listen: str = "0.0.0.0") -> str | None:
    """Why a game cannot be hosted on ``port`` of address ``listen`` (None: it can, as far as can be told now; 0
    always can)."""
    if not port:
        return None
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the referee listens
        probe.bind((listen, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return (f"Port {port} is already in use on this computer (another program, or a game hosted "
                    "already). Choose another port, or any free port.")
        if error.errno == errno.EACCES:
            return (f"This computer does not let Sightline use port {port} (ports under 1024 are kept for the "
                    "system). Choose a port from 1024 up, or any free port.")
        return f"Port {port} cannot be used: {error.strerror or error}."
    finally:
        probe.close()
    return None
