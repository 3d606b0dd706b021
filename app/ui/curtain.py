"""The hot-seat curtain: an opaque cover over board and panels while the screen passes between players, and its
keeping over a main window (placed below the menu bar; floating panels put away while it is down)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent, QMouseEvent

CURTAIN_GRACE = 0.7  # seconds after the curtain falls during which presses do not lift it


class Curtain(QWidget):
    """An opaque cover over board and panel while the screen passes between hot-seat players. ``grace`` gives the
    seconds after it falls during which presses do not lift it (asked at each press)."""

    def __init__(self, parent: QWidget, grace: Callable[[], float] = lambda: CURTAIN_GRACE) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setObjectName("curtain")
        layout = QVBoxLayout(self)
        layout.addStretch()
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.hint = QLabel("Press Space or click when that player is at the screen.")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._dressed = False  # the style sheets are set when the curtain first falls (see show_for)
        layout.addWidget(self.label)
        layout.addWidget(self.hint)
        layout.addStretch()
        self.on_lift: Callable[[], None] = lambda: None
        self._grace = grace
        self._shown_at = 0.0

    def _dress(self) -> None:
        """Colours and type sizes, set before the curtain is first shown rather than when the window is made: a
        widget's first style sheet costs about 1.5 ms (Qt's style sheet style), which the first frame, with no
        curtain in it, need not pay."""
        if self._dressed:
            return
        self._dressed = True
        self.setStyleSheet("#curtain { background: #22262e; } QLabel { color: #f0f0f0; background: transparent; }")
        self.label.setStyleSheet("font-size: 20pt; font-weight: 600;")
        self.hint.setStyleSheet("font-size: 12pt; color: #c0c4cc;")

    def show_for(self, name: str) -> None:
        self._dress()
        self.label.setText(f"{name} to play")
        self._shown_at = time.monotonic()
        self.show()
        self.raise_()
        self.setFocus()

    def _may_lift(self) -> bool:
        # A key held down or a double click by the player who just moved must not lift the curtain on the
        # other player's side: presses in the first moments after it falls are ignored.
        return time.monotonic() - self._shown_at >= self._grace()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._may_lift():
            self.on_lift()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not event.isAutoRepeat() and self._may_lift():
                self.on_lift()
        else:
            super().keyPressEvent(event)


class WindowCurtain:
    """The curtain of a main window: it covers everything below the menu bar, and the floating panels (outside
    it) are put away while it is down."""

    def __init__(self, window: QMainWindow, curtain: Curtain) -> None:
        self._window = window
        self.curtain = curtain
        self._hidden_floating: list[QDockWidget] = []
        curtain.hide()

    def fall(self, name: str) -> None:
        """Cover the window for the player ``name``, who is to come to the screen."""
        self.curtain.show_for(name)
        self.place()
        for dock in self._window.findChildren(QDockWidget):
            if dock.isFloating() and dock.isVisible():
                dock.hide()  # a floating panel is outside the curtain: put it away until the curtain lifts
                self._hidden_floating.append(dock)

    def lift(self) -> None:
        self.curtain.hide()
        for dock in self._hidden_floating:
            dock.show()
        self._hidden_floating = []

    def place(self) -> None:
        """The curtain covers everything below the menu bar: board and docked panels."""
        window = self._window
        top = window.menuBar().height() if window.menuBar().isVisible() else 0
        self.curtain.setGeometry(0, top, window.width(), window.height() - top)
        self.curtain.raise_()

    def follow_resize(self) -> None:
        if self.curtain.isVisible():
            self.place()
