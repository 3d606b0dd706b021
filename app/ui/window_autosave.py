"""The main window's autosave: each change of the game written to the window's own slot on a saver thread, a
failing disk shown in a red bar and retried, the slot let go (or emptied) on closing, and the marks of slots left
holding an older copy of a game that was saved elsewhere."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import QStatusBar

from app.ui.disk_errors import os_error_text
from app.ui.elided_label import ElidedLabel
from app.ui.window_common import bounded, settings_list

if TYPE_CHECKING:
    import concurrent.futures

    from app.engine.record import GameRecord, GameSession
    from app.storage import AutosaveSlot, UnfinishedGame

AUTOSAVE_RETRY_MS = 5000  # while autosave fails, it is tried again this often even if nothing happens
SUPERSEDED_KEY = "autosave/olderCopies"  # slots left holding an older copy of a game saved elsewhere on close

log = logging.getLogger("sightline.window")


class Autosaver(QObject):
    """Autosave for one window. ``session`` gives the game to save when a failed write is retried (None: no
    game); the red bar showing a failure is ``banner``, kept in ``status_bar``."""

    written = Signal(str)  # from the saver thread: "" when a write worked, else the problem in words

    def __init__(self, status_bar: QStatusBar, session: Callable[[], GameSession | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._status_bar = status_bar
        self._session = session
        self._saver: concurrent.futures.ThreadPoolExecutor | None = None
        self._saves: list[concurrent.futures.Future[str | None]] = []
        self.slot: AutosaveSlot | None = None  # this window's own autosave folder, locked while it is ours
        self.last_write_problem: str | None = None  # of the newest finished write (set on the saver thread)
        self.problem: str | None = None  # shown in the window until a write works again
        self.failing_since: str = ""
        # One line, in room the status bar always keeps for it (also while it is hidden, with room for the padding
        # its style will add): the red bar never shrinks the board. Its whole text is in the tooltip; the middle is
        # cut, so both the problem and the way out stay in sight.
        self.banner = ElidedLabel(lines=1, mode=Qt.TextElideMode.ElideMiddle, padding=4)
        self.banner.setObjectName("autosaveBanner")
        self.banner.hide()  # its red style is set when it is first shown (see show_result)
        status_bar.addPermanentWidget(self.banner, 1)
        self.retry_timer = QTimer(self)
        self.retry_timer.setInterval(AUTOSAVE_RETRY_MS)
        self.retry_timer.timeout.connect(self.retry)
        self.written.connect(self.show_result)

    def save(self, session: GameSession) -> None:
        """Save the game as it is now, in this window's own slot. The copy is taken here; writing it (JSON,
        fsync, renames) happens on a saver thread, in order, so the event loop never waits for the disk."""
        record = session.snapshot()
        slot = self.own_slot()
        if slot is None:
            return
        if self._saver is None:
            import concurrent.futures  # not before the first frame: no game, nothing to save (about 13 ms)
            self._saver = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        for pending in self._saves:
            pending.cancel()  # a write still waiting is superseded by this newer record (a slow disk never piles up)
        future = self._saver.submit(write_autosave, slot, record)
        future.add_done_callback(self._done)
        self._saves.append(future)
        self._saves = [pending for pending in self._saves if not pending.done()]

    def own_slot(self) -> AutosaveSlot | None:
        """This window's autosave slot, claimed the first time a game is saved; None (reported) if the data
        folder refuses."""
        if self.slot is None:
            from app.storage import claim_slot  # not before the first frame: the storage loads the game records
            try:
                self.slot = claim_slot()
            except OSError as error:
                self.show_result(f"the autosave folder cannot be used ({os_error_text(error)})")
                return None
        return self.slot

    def take_slot(self, slot: AutosaveSlot | None) -> None:
        """Use ``slot`` (a game taken over from the start-up offer) from now on; the slot of the game this window
        leaves is emptied and let go (the player agreed to leave that game)."""
        if slot is self.slot:
            return
        self.flush()
        if self.slot is not None:
            self._discard(self.slot)
            self.slot.release()
        self.slot = slot

    def _done(self, future: concurrent.futures.Future[str | None]) -> None:
        if future.cancelled():
            return  # superseded before it was written: it says nothing about the disk
        problem = future.result()
        self.last_write_problem = problem
        try:
            self.written.emit(problem or "")  # from the saver thread: handled on the UI thread
        except RuntimeError:
            pass  # the window is gone

    def show_result(self, problem: str) -> None:
        """A write ended. A failure stays in sight (a red bar) and is retried until a write works again."""
        if not problem:
            if self.problem is not None:
                self.problem = None
                self.banner.hide()
                self.retry_timer.stop()
                self._status_bar.showMessage("Autosave works again; the game is safe.", 8000)
            return
        first = self.problem is None
        self.problem = problem
        if first:
            import datetime as _dt  # not before the first frame: only a failing autosave is dated (about 20 ms)
            self.failing_since = _dt.datetime.now().strftime("%H:%M:%S")
        self.banner.setText(bounded(
            f"Autosave is failing since {self.failing_since}: {problem}. Sightline keeps trying; "
            "use Game > Save as... to keep this game somewhere else."))
        if not self.banner.styleSheet():  # set here, not before the first frame (see Curtain._dress)
            self.banner.setStyleSheet("#autosaveBanner { background: #b02020; color: white;"
                                      " font-weight: 600; padding: 4px 8px; }")
        self.banner.show()
        if not self.retry_timer.isActive():
            self.retry_timer.start()
        # No message box: it would pop up in the middle of a turn and take the move's clicks while the clock runs.
        # The red bar says it; closing the window asks what to do (see MainWindow._may_close).

    def retry(self) -> None:
        """Try again while nothing else is being written (also when no one acts: an untimed game may wait)."""
        session = self._session()
        if session is not None and all(pending.done() for pending in self._saves):
            self.save(session)

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every autosave asked for so far is on disk (closing the window; tests)."""
        if self._saves:
            import concurrent.futures  # not before the first frame (see save)
            concurrent.futures.wait(self._saves, timeout=timeout)
        self._saves = []

    def close(self, finished: bool, rescued_to: str | None) -> None:
        """The window closes: let the slot go. Nothing is offered next time if the game is ``finished``, or safe
        in the file ``rescued_to`` it was just saved to (while autosave failed, the slot holds an older copy, which
        must not come back as the game); an unfinished game stays in it and is offered at the next start."""
        self.retry_timer.stop()
        self.flush()
        if self.slot is None:
            return
        if (finished or rescued_to is not None) and not self._discard(self.slot):
            if not finished and rescued_to is not None:
                remember_older_copy(self.slot, rescued_to)
        self.slot.release()
        self.slot = None

    @staticmethod
    def _discard(slot: AutosaveSlot) -> bool:
        """Empty ``slot``; False (logged) if the disk refuses."""
        try:
            slot.discard()
        except OSError as error:
            log.warning("cannot empty the autosave slot %s: %s", slot.directory, error)
            return False
        return True


def write_autosave(slot: AutosaveSlot, record: GameRecord) -> str | None:
    """The saver thread's job: write the autosave; a problem comes back in words (a full disk must not stop
    play)."""
    try:
        slot.save(record)
    except OSError as error:
        return f"the disk refused ({os_error_text(error)})"
    except (ValueError, RuntimeError) as error:
        log.warning("autosave failed: %s", error)
        return "the game could not be written (see the log)"
    return None


def mark_older_copies(games: list[UnfinishedGame]) -> list[UnfinishedGame]:
    """Put last, and say so, the games whose slot still holds the stale copy left when the window was closed
    after saving the game elsewhere (its autosave was failing and the copy could not be removed)."""
    settings = QSettings()
    marks = older_copy_marks(settings)
    current, older = [], []
    for game in games:
        path = marks.get((str(game.slot.directory), game.slot.fingerprint()))
        if path is None:
            current.append(game)
        else:
            game.note = f"an older copy: the game was saved later to {path}"
            older.append(game)
    # Marks of slots that are gone are forgotten (a changed slot no longer matches its mark anyway).
    kept = {key: path for key, path in marks.items() if Path(key[0]).is_dir()}
    if kept != marks:
        store_older_copy_marks(settings, kept)
    return current + older


def remember_older_copy(slot: AutosaveSlot, path: str) -> None:
    settings = QSettings()
    marks = older_copy_marks(settings)
    marks[(str(slot.directory), slot.fingerprint())] = path
    store_older_copy_marks(settings, dict(list(marks.items())[-20:]))


def older_copy_marks(settings: QSettings) -> dict[tuple[str, str], str]:
    """(slot folder, fingerprint) -> the file the game was saved to, for slots left with an older copy."""
    import json  # not before the first frame: read when a game is saved elsewhere or closed (about 7 ms)
    marks: dict[tuple[str, str], str] = {}
    for item in settings_list(settings.value(SUPERSEDED_KEY)):
        try:
            directory, fingerprint, path = json.loads(str(item))
        except (ValueError, TypeError, RecursionError):
            continue  # a damaged or foreign setting: ignored
        if isinstance(directory, str) and isinstance(fingerprint, str) and isinstance(path, str):
            marks[directory, fingerprint] = path
    return marks


def store_older_copy_marks(settings: QSettings, marks: dict[tuple[str, str], str]) -> None:
    import json  # not before the first frame (see older_copy_marks)
    settings.setValue(SUPERSEDED_KEY, [json.dumps([directory, fingerprint, path])
                                       for (directory, fingerprint), path in marks.items()])
