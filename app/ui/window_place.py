"""Where windows open: on the screen, and not exactly over one another.

Each main window of Sightline that is open (in this process or another) holds a numbered lock file; a window
that finds number 0 taken takes the next free number and opens that many steps down and to the right of the
remembered place (a cascade), so that a second window does not hide the first. A lock dies with its process, so
a window that crashed frees its number. Windows of their own that a main window opens (the replay) open over
it, within the free area of its screen.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from PySide6.QtCore import QDir, QLockFile, QRect, QSettings
from PySide6.QtWidgets import QApplication, QWidget

CASCADE_STEP = 32
"""Pixels right and down from one open window to the next."""
MOST_WINDOWS = 24
"""Numbers looked at for a free one (past them, the last number is shared)."""
TITLE_BAR = 40
"""Room kept above a placed window for its title bar (the geometry set is that of its inside)."""


def fitted(rect: QRect, area: QRect) -> QRect:
    """``rect`` made no bigger than ``area`` and moved inside it."""
    width, height = min(rect.width(), area.width()), min(rect.height(), area.height())
    x = min(max(rect.x(), area.x()), area.x() + area.width() - width)
    y = min(max(rect.y(), area.y()), area.y() + area.height() - height)
    return QRect(x, y, width, height)


def cascaded(rect: QRect, number: int, area: QRect, step: int = CASCADE_STEP) -> QRect:
    """``rect`` moved ``number`` steps down and to the right, within ``area`` (made smaller to stay in it). Where
    that would leave it smaller than two thirds of itself, the steps start again from the area's corner.

    >>> cascaded(QRect(0, 0, 800, 600), 1, QRect(0, 0, 800, 600))
    PySide6.QtCore.QRect(32, 32, 768, 568)
    >>> cascaded(QRect(100, 100, 400, 300), 2, QRect(0, 0, 1920, 1080))
    PySide6.QtCore.QRect(164, 164, 400, 300)
    >>> cascaded(QRect(0, 0, 800, 600), 3, QRect(0, 0, 800, 600))
    PySide6.QtCore.QRect(96, 96, 704, 504)
    """
    start = fitted(rect, area)
    if number <= 0:
        return start
    corners = [(start.x() + step * number, start.y() + step * number)]
    corners += [(area.x() + step * turn, area.y() + step * turn) for turn in (number, *range(number - 1, 0, -1))]
    for x, y in corners:
        width = min(start.width(), area.x() + area.width() - x)
        height = min(start.height(), area.y() + area.height() - y)
        if width >= start.width() * 2 // 3 and height >= start.height() * 2 // 3:
            return QRect(x, y, width, height)
    return start


class WindowNumber:
    """This window's number among the open main windows of Sightline (0 for the first), held until
    :meth:`release`."""

    def __init__(self) -> None:
        self.number = MOST_WINDOWS - 1
        self._lock: QLockFile | None = None
        folder = Path(QDir.tempPath())
        # Apart for each settings file (each user, and each test's own settings) and each user of the computer.
        key = hashlib.sha1(f"{QSettings().fileName()}|{os.getuid() if hasattr(os, 'getuid') else ''}".encode())
        for number in range(MOST_WINDOWS):
            lock = QLockFile(str(folder / f"sightline-window-{key.hexdigest()[:16]}-{number}.lock"))
            lock.setStaleLockTime(0)  # taken for as long as its process lives, however long that is
            if lock.tryLock(0):
                self.number, self._lock = number, lock
                break

    def release(self) -> None:
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


def available_area(widget: QWidget | None) -> QRect:
    """The free area (without panels and docks) of the screen ``widget`` is on, else of the main screen."""
    screen = (widget.screen() if widget is not None else None) or QApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 768)


def place_over(window: QWidget, owner: QWidget | None) -> None:
    """Put ``window`` (already given its preferred size) over the middle of ``owner``, or in the middle of the
    screen, and make it fit the screen's free area with room for its title bar."""
    area = available_area(owner)
    rect = QRect(0, 0, window.width(), window.height())
    if owner is not None and owner.isVisible() and area.intersects(owner.frameGeometry()):
        rect.moveCenter(owner.frameGeometry().center())
    else:
        rect.moveCenter(area.center())
    window.setGeometry(fitted(rect, area.adjusted(0, TITLE_BAR, 0, -10)))
