"""The promotion chooser: a popup column of the pieces a pawn may become, in the moving side's colour.

The board widget opens it over the destination square when a move has promotion choices; it emits
``chosen(letter)`` or, on Escape or a click outside, ``cancelled()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QHideEvent, QIcon, QKeyEvent
from PySide6.QtWidgets import QFrame, QToolButton, QVBoxLayout, QWidget

from app.ui import pieces

__all__ = ["PromotionChooser"]


class PromotionChooser(QFrame):
    """A popup column of piece images; emits ``chosen(letter)`` or, on Escape or a click outside, ``cancelled()``.

    The letters emitted are the promotion choices given (``"q"``, ``"n"``, ...); the images
    show them in the moving side's colour. A choice can also be typed (``q``, ``r``, ``b``, ``n``).
    """

    chosen = Signal(str)
    cancelled = Signal()

    def __init__(
        self,
        choices: Sequence[str],
        white: bool,
        button_size: int,
        parent: QWidget | None = None,
        device_pixel_ratio: float = 1.0,
        upwards: bool = False,
    ) -> None:
        """``upwards`` lays the choices out bottom to top (the first one at the bottom)."""
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("promotionChooser")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setAccessibleName("Promotion")
        self._done = False
        self._choices = list(choices)
        self._buttons: dict[str, QToolButton] = {}
        radius = button_size // 2
        self.setStyleSheet(
            "#promotionChooser { background: #f4f4f4; border: 1px solid #7a7a7a; }"
            "QToolButton { border: none; border-radius: %dpx;"
            " background: qradialgradient(cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5,"
            " stop:0 #d8d8d8, stop:1 #9a9a9a); }"
            "QToolButton:hover, QToolButton:focus { border-radius: 4px;"
            " background: qradialgradient(cx:0.5, cy:0.5, radius:0.6, fx:0.5, fy:0.5,"
            " stop:0 #ffb347, stop:1 #d47800); }" % radius
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.setSpacing(3)
        icon_size = max(8, round(button_size * 0.92))
        for letter in reversed(self._choices) if upwards else self._choices:
            shown = letter.upper() if white else letter.lower()
            button = QToolButton(self)
            button.setObjectName(f"promote-{letter}")
            button.setIcon(QIcon(pieces.piece_pixmap(shown, icon_size, device_pixel_ratio)))
            button.setIconSize(QSize(icon_size, icon_size))
            button.setFixedSize(button_size, button_size)
            name = pieces.piece_name(shown).split()[-1]
            button.setToolTip(f"Promote to {name} ({letter.lower()})")
            button.setAccessibleName(f"Promote to {name}")
            button.clicked.connect(partial(self._choose, letter))
            layout.addWidget(button)
            self._buttons[letter] = button

    def buttons(self) -> dict[str, QToolButton]:
        """The button of each choice, by letter."""
        return dict(self._buttons)

    def choices(self) -> list[str]:
        """The promotion letters offered, in order."""
        return list(self._choices)

    def _choose(self, letter: str, _checked: bool = False) -> None:
        if self._done:
            return
        self._done = True
        self.chosen.emit(letter)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape cancels; the letter of a choice picks it."""
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self.close()
            return
        text = event.text().lower()
        for letter in self._choices:
            if text and text == letter.lower():
                event.accept()
                self._choose(letter)
                return
        super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """Closing without a choice (Escape, a click outside) cancels."""
        super().hideEvent(event)
        if not self._done:
            self._done = True
            self.cancelled.emit()
