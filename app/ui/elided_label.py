"""A label whose size never depends on its text: a fixed number of lines, the rest cut with an ellipsis.

Word-wrapped labels grow a line taller for a longer text, and every widget below them moves: a click aimed at a
button lands on another. :class:`ElidedLabel` keeps the room of ``lines`` lines at all times (also while hidden:
it retains its size), wraps the text at spaces into them, ends the last line with "…" when the text needs more,
and then shows the whole text in its tooltip. ``text()`` is always the whole text.

>>> from PySide6.QtWidgets import QApplication
>>> app = QApplication.instance() or QApplication([])
>>> label = ElidedLabel(lines=2)
>>> label.setText("Choose a square to sense")
>>> label.text(), label.sizePolicy().retainSizeWhenHidden()
('Choose a square to sense', True)
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

__all__ = ["ElidedLabel", "fit_lines"]


def fit_lines(text: str, metrics: QFontMetrics, width: int, lines: int,
              mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> tuple[list[str], bool]:
    """``text`` wrapped at spaces (and at its own line breaks) into at most ``lines`` lines of ``width`` pixels,
    the last one holding the rest of the text cut with "…"; and whether anything had to be cut."""
    width = max(1, width)
    wrapped: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and metrics.horizontalAdvance(trial) > width:
                wrapped.append(line)
                line = word
            else:
                line = trial
        wrapped.append(line)
    while wrapped and not wrapped[-1]:
        wrapped.pop()
    cut = len(wrapped) > lines
    if cut:
        wrapped = wrapped[:lines - 1] + [" ".join(line for line in wrapped[lines - 1:] if line)]
    shown = []
    for line in wrapped:
        if metrics.horizontalAdvance(line) > width:
            line, cut = metrics.elidedText(line, mode, width), True
        shown.append(line)
    return shown, cut


class ElidedLabel(QLabel):
    """A plain-text label of ``lines`` lines whose size hint does not depend on its text (see the module).

    Style sheets, fonts and palettes work as on any label; padding is counted in its height. ``padding`` keeps room
    for the vertical padding of a style sheet set later (so the label is as tall before it as after it).
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, lines: int = 1,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight, padding: int = 0) -> None:
        super().__init__(parent)
        self._full = ""
        self._lines = max(1, lines)
        self._padding = padding  # pixels above and below kept from the start for a style sheet's padding to come
        self._mode = mode
        self._fitting = False
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        # Several lines start at the top of their room; one line is centred (a style sheet's padding on a label
        # aligned to the top is counted twice when drawn, and the line would be cut at the bottom).
        self.setAlignment(Qt.AlignmentFlag.AlignLeft
                          | (Qt.AlignmentFlag.AlignTop if self._lines > 1 else Qt.AlignmentFlag.AlignVCenter))
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.setText(text)

    def lines(self) -> int:
        return self._lines

    def text(self) -> str:  # noqa: D102 - the whole text, not the part shown
        return self._full

    def shown_text(self) -> str:
        """The lines drawn now (cut with "…" when the text needs more room)."""
        return super().text()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._full = text or ""
        self._fit()

    def _height(self) -> int:
        margins = self.contentsMargins()
        return (self._lines * self.fontMetrics().lineSpacing() + max(self._padding, margins.top())
                + max(self._padding, margins.bottom()))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self.fontMetrics().averageCharWidth() * 24, self._height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(0, self._height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.ContentsRectChange):
            self.updateGeometry()
            self._fit()

    def _fit(self) -> None:
        if self._fitting:
            return
        self._fitting = True
        try:
            shown, cut = fit_lines(self._full, self.fontMetrics(), self.contentsRect().width(), self._lines,
                                   self._mode)
            text = "\n".join(shown)
            if super().text() != text:
                super().setText(text)
            self.setToolTip(self._full if cut else "")
        finally:
            self._fitting = False
