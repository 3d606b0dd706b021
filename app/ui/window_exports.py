"""The main window's exports and positions: Game > Export (each game's formats, a board image), copying the
position as text, and a new game from a pasted position. What the window refuses to export (a seat's view behind
the curtain, the true moves of a game still hiding them) is said before a file is chosen."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QMainWindow

from app import games
from app.ui.disk_errors import os_error_text
from app.ui.window_files import FilesHost, GameFiles

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

log = logging.getLogger("sightline.window")


class GameExports:
    """Exports of the game of ``window`` (``host``: the same window, as the files see it), next to its ``files``
    (never written over, and whose folder is offered)."""

    def __init__(self, window: QMainWindow, host: FilesHost, files: GameFiles) -> None:
        self._window = window
        self._host = host
        self._files = files
        self.export_box: QMessageBox | None = None  # the message of the last export (a non-modal box)

    def refusal(self, fmt: str) -> str | None:
        """Why the window will not export ``fmt`` now, in the window's terms (asked before a file is chosen)."""
        controller = self._host.controller
        if controller is None:
            return "There is no game to export."
        over = controller.outcome is not None
        if not over and (controller.screen_seat is None or controller.curtain_for is not None):
            return "Lift the curtain first: only the player at the screen may export, and only their own view."
        definition = games.get(controller.variant)
        export_format = next((known for known in games.formats() if known.name == fmt), None)
        if export_format is None:
            return None  # a board image: any game's, as the seat at the screen sees it
        if fmt not in {own.name for own in definition.formats}:
            writing = [other.title for other in games.all() if fmt in {own.name for own in other.formats}]
            return f"{export_format.plain_label} is for {' and '.join(writing)} games only."
        if export_format.shows_truth and not over and definition.hidden_information:
            return ("This game is still in progress: its true moves stay hidden until it ends. Game > Export > "
                    "Board image saves the board as you see it now.")
        return None

    def export_dialog(self, fmt: str) -> None:
        refusal = self.refusal(fmt)
        if refusal is not None:
            self._host._warn("Export", refusal)
            return
        suffix = next(known.suffix for known in games.formats() if known.name == fmt)
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see main_window._LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self._window, "Export",
                                                    str(self._files.default_dir() / f"game{suffix}"))
        if path:
            self.export_to(fmt, path)

    def export_to(self, fmt: str, path: str) -> bool:
        # Not before the first frame: the engine and the exporters load with the first game.
        from app.engine.record import RecordError
        from app.exports import export_record
        refusal = self.refusal(fmt)
        controller = self._host.controller
        if refusal is not None or controller is None:
            self._host._warn("Export", refusal or "There is no game to export.")
            return False
        try:
            # Never over the game's own saved file, which an export of the same name would destroy.
            export_record(controller.session.snapshot(), fmt, path, source=self._files.save_path)
        except RecordError as error:
            self._host._warn("Export", str(error))
            return False
        except ValueError as error:
            log.warning("export to %s failed: %s", path, error)
            self._host._warn("Export", f"The game could not be exported as {fmt}.")
            return False
        except OSError as error:
            self._host._warn("Export", f"Could not write {path}: {os_error_text(error)}")
            return False
        label = next((known.plain_label for known in games.formats() if known.name == fmt), fmt)
        self._tell_exported(path, label)
        return True

    def image_dialog(self) -> None:
        """Game > Export > Board image: the board as the seat at the screen sees it (all of it once the game is
        over), as PNG or SVG."""
        controller = self._host.controller
        if controller is None:
            return
        refusal = self.refusal("image")
        if refusal is not None:
            self._host._warn("Board image", refusal)
            return
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see main_window._LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self._window, "Board image",
                                                    str(self._files.default_dir() / "board.png"),
                                                    "PNG image (*.png);;SVG image (*.svg)")
        if not path:
            return
        perspective = None if controller.outcome is not None else controller.screen_seat
        # Not before the first frame: the engine and the exporters load with the first game.
        from app.engine.record import RecordError
        from app.exports import export_record
        try:
            export_record(controller.session.snapshot(), "svg" if path.lower().endswith(".svg") else "png", path,
                          perspective=perspective, source=self._files.save_path)  # never over the game's own file
        except RecordError as error:
            self._host._warn("Board image", str(error))
        except ValueError as error:
            log.warning("board image %s failed: %s", path, error)
            self._host._warn("Board image", "The board image could not be made.")
        except OSError as error:
            self._host._warn("Board image", f"Could not write {path}: {os_error_text(error)}")
        else:
            self._tell_exported(path, "Board image")

    def _tell_exported(self, path: str, what: str) -> None:
        """An export worked: say where the file went, with a button opening its folder (and in the status bar)."""
        from app.ui.export_message import show_exported  # not before the first frame: nothing is exported then
        self._window.statusBar().showMessage(f"Exported {path}", 8000)
        self.export_box = show_exported(self._window, path, what)

    def copy_position(self) -> None:
        controller = self._host.controller
        clipboard = games.get(controller.variant).clipboard if controller is not None else None
        if controller is None or clipboard is None:
            self._host._warn("Copy position", "This game's positions are not copied as text.")
            return
        QApplication.clipboard().setText(clipboard.copy()(controller.game))
        self._window.statusBar().showMessage(f"{clipboard.what.capitalize()} copied", 3000)

    def paste_position(self, key: str) -> None:
        """A new game of the kind ``key`` from a position on the clipboard (two people at the screen)."""
        self.start_from_position(QApplication.clipboard().text(), key)

    def start_from_position(self, text: str, key: str | None = None) -> bool:
        """Start a game of the kind ``key`` (default: the first game that pastes positions) from pasted text,
        between two people at the screen; warn and return False if the text is no such position."""
        definition = next((known for known in games.all() if known.clipboard is not None
                           and (key is None or known.key == key)), None)
        if definition is None or definition.clipboard is None:
            return False
        if not self._host._may_leave_game():
            return False
        # Not before the first frame: python-chess, the referees and the bot workers load with the first game.
        from app.engine.clock import TimeControl
        from app.ui.game_controller import GameController, SeatConfig
        try:
            options = definition.clipboard.paste()(text)
            controller = GameController(definition.key, [SeatConfig(name) for name in definition.seat_names],
                                        TimeControl(None, 0), options, parent=self._window)
        except ValueError as error:
            self._host._warn("Paste position", f"That is not a {definition.title} {definition.clipboard.what}: "
                             f"{error}")
            return False
        if controller.outcome is not None:
            controller.deleteLater()
            self._host._warn("Paste position", f"That position is already decided ({controller.outcome.detail}): "
                             "there is nothing to play.")
            return False
        self._host._install(controller)
        self._files.save_path = None
        return True
