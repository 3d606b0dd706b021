"""The main window's files: Game > Save, Save as, Open and Open recent, continuing an unfinished game from its
record, and replays (of a finished game, or a review of the game in progress as one seat sees it)."""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMainWindow, QMenu

from app.ui.disk_errors import os_error_text
from app.ui.seat_screen import SeatScreen
from app.ui.window_common import bounded, make_action, settings_list
from app.ui.window_place import place_over

if TYPE_CHECKING:
    from app.engine.record import GameRecord
    from app.storage import AutosaveSlot
    from app.ui.game_controller import GameController
    from app.ui.replay_window import ReplayWindow

RECENT_LIMIT = 8
PATH_LIMIT = 4096  # characters of a remembered file name

log = logging.getLogger("sightline.window")


class FilesHost(Protocol):
    """What the files ask of the window: its game, its warnings, leave to replace the game, and installing one."""

    controller: GameController | None

    def _warn(self, title: str, text: str) -> None: ...

    def _may_leave_game(self) -> bool: ...

    def _install(self, controller: GameController) -> None: ...


class GameFiles:
    """Saving and opening the game of ``window`` (``host``: the same window, as the files see it); ``take_slot``
    makes an autosave slot taken over from the start-up offer the window's own."""

    def __init__(self, window: QMainWindow, host: FilesHost,
                 take_slot: Callable[[AutosaveSlot | None], None]) -> None:
        self._window = window
        self._host = host
        self._take_slot = take_slot
        self.save_path: str | None = None  # the file the game was last saved to or opened from
        self.replay_window: ReplayWindow | None = None  # the replay opened last
        # Reviews of the game in progress, each with the seat at the screen that opened it (it shows that seat's view).
        self._reviews: list[tuple[int, ReplayWindow]] = []

    def save(self) -> None:
        if self._host.controller is None:
            return
        if self.save_path is None:
            self.save_as()
        else:
            self.save_to(self.save_path)

    def save_as(self) -> bool:
        """Ask for a file and save the game there; False if the player cancelled or the write failed."""
        if self._host.controller is None:
            return False
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see main_window._LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self._window, "Save game", str(self.default_dir() / "game.json"),
                                                    "Sightline games (*.json)")
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the game as it is now (clocks, annotations, belief boards included), atomically."""
        controller = self._host.controller
        if controller is None:
            return False
        try:
            controller.session.snapshot().save(path)
        except OSError as error:
            self._host._warn("Save", f"Could not save to {path}: {os_error_text(error)}")
            return False
        self.save_path = path
        self.remember(path)
        self._window.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see main_window._LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getOpenFileName(self._window, "Open game", str(self.default_dir()),
                                                    "Sightline games (*.json);;All files (*)")
        if path:
            self.open_file(path)

    def open_file(self, path: str) -> bool:
        """Open a saved game: a finished one in the replay viewer, an unfinished one to play on.

        A corrupt, truncated, foreign or future file is reported with what is wrong, and nothing changes.
        """
        from app.engine.record import RecordError, read_record  # not before the first frame: the engine loads then
        try:
            record = read_record(path)
        except RecordError as error:
            self._host._warn("Cannot open this file", f"{path}:\n{error}")
            return False
        except OSError as error:
            self._host._warn("Cannot open this file", f"{path}: {os_error_text(error)}")
            return False
        self.remember(path)
        if record.result is not None:
            return self.open_replay(record) is not None
        if not self._host._may_leave_game():
            return False
        if self.resume_record(record):
            self.save_path = path
            return True
        return False

    def resume_record(self, record: GameRecord, slot: AutosaveSlot | None = None) -> bool:
        """Continue an unfinished game from its record (from ``slot``, a game taken over from the start-up offer,
        whose slot becomes this window's); a record that cannot continue is reported."""
        # Not before the first frame: python-chess, the referees and the bot workers load with the first game.
        from app.engine.record import RecordError
        from app.net.remote_session import network_link
        from app.ui.game_controller import GameController
        from app.ui.window_network import rejoin
        controller: GameController
        try:
            if network_link(record) is not None:  # a seat of a network game: back to it, with its token
                controller = rejoin(record, parent=self._window)
            else:
                controller = GameController.from_record(record, parent=self._window)
        except RecordError as error:
            self._host._warn("Cannot continue this game", str(error))
            return False
        except ValueError as error:
            if network_link(record) is not None:
                self._host._warn("Cannot go back to this network game", str(error))
                return False
            log.warning("cannot continue a game: %s", error)
            self._host._warn("Cannot continue this game", "The game's file holds something this version of "
                             "Sightline cannot continue. It can still be replayed.")
            return False
        if slot is not None:
            self._take_slot(slot)
        self._host._install(controller)
        return True

    def open_replay(self, record: GameRecord, asking_seat: int | None = None) -> ReplayWindow | None:
        # Not before the first frame: the replay viewer loads the engine.
        from app.engine.record import RecordError
        from app.ui.replay_window import ReplayWindow
        try:
            window = ReplayWindow(record, asking_seat, self._window)
        except RecordError as error:
            self._host._warn("Cannot replay this game", str(error))
            return None
        except ValueError as error:
            log.warning("cannot replay a game: %s", error)
            self._host._warn("Cannot replay this game", "The game holds something this version of Sightline "
                             "cannot replay.")
            return None
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.setWindowFlag(Qt.WindowType.Window, True)
        place_over(window, self._window)  # over the main window, within the screen's free area
        window.show()
        self.replay_window = window
        return window

    def review(self) -> None:
        """Review the game being played: a finished game from every side, a running one only as the seat at the
        screen sees it (behind the curtain, by nobody)."""
        controller = self._host.controller
        if controller is None:
            return
        path = getattr(controller, "record_path", None)
        if path:  # a network game this window hosted: its record, every seat's moves (the window has one seat's)
            self.open_file(path)
            return
        if controller.outcome is None and controller.screen_seat is None:
            self._host._warn("Review", "Lift the curtain first: a game in progress is reviewed by the player at "
                             "the screen.")
            return
        window = self.open_replay(controller.session.snapshot(), controller.screen_seat)
        if window is not None and controller.outcome is None and controller.screen_seat is not None:
            self._reviews.append((controller.screen_seat, window))  # one seat's view: closed when it leaves

    def show_reviews(self, screen: SeatScreen) -> None:
        """A review of the game in progress shows the view of the seat that opened it: closed once another seat
        (or nobody) is at the screen."""
        kept = []
        for seat, window in self._reviews:
            if seat == screen.seat:
                kept.append((seat, window))
                continue
            try:
                window.close()
            except RuntimeError:
                pass  # already closed and deleted by the player
        self._reviews = kept

    def close_reviews(self) -> None:
        for _seat, window in self._reviews:
            try:
                window.close()
            except RuntimeError:
                pass  # already closed and deleted by the player
        self._reviews = []

    def default_dir(self) -> Path:
        return Path(self.save_path).parent if self.save_path else Path.home()

    def remember(self, path: str) -> None:
        settings = QSettings()
        recent = [item for item in self.recent_files() if item != path]
        settings.setValue("recent/files", [path, *recent][:RECENT_LIMIT])

    def recent_files(self) -> list[str]:
        """The recently opened files, newest first; entries that are not file names (a damaged or hand-edited
        settings file) are left out."""
        files = [item for item in settings_list(QSettings().value("recent/files"))
                 if isinstance(item, str) and 0 < len(item) <= PATH_LIMIT and "\x00" not in item]
        return list(dict.fromkeys(files))[:RECENT_LIMIT]

    def fill_recent(self, menu: QMenu) -> None:
        """Game > Open recent, filled as it opens."""
        menu.clear()
        files = self.recent_files()
        for path in files:
            menu.addAction(make_action(self._window, bounded(path, 200).replace("&", "&&"),
                                       partial(self.open_file, path)))
        if not files:
            menu.addAction("(none yet)").setEnabled(False)
