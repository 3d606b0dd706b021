"""The seat's move list: one row per line of the game's score sheet, a row to click to look back at that moment.

The list holds no game: the window gives it the lines (from the seat's own view) and which one is being looked
at, and hears which row the person chose. The keys that step through it (Left, Right, Home, End) are the
window's, so they work wherever the focus is, except in the typing field and on the board, which keep their own.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget


class MoveList(QListWidget):
    """Rows of moves; ``rowChosen`` is emitted with the row a person clicked (or picked with the Up and Down keys).

    >>> from PySide6.QtWidgets import QApplication
    >>> app = QApplication.instance() or QApplication([])
    >>> moves = MoveList()
    >>> moves.show_lines(["1. e4", "2. Nf3"], looking_at=0)
    >>> moves.lines(), moves.currentRow(), moves.toPlainText()
    (['1. e4', '2. Nf3'], 0, '1. e4\\n2. Nf3')
    """

    rowChosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)  # long games: Qt then measures one row, not every row
        self.setWordWrap(False)
        self.setAccessibleName("Your moves")
        self.setToolTip("Click a move to look back at your board as it was then (Left, Right, Home, End step; "
                        "End or Esc returns to the game)")
        self._filling = False
        self.itemClicked.connect(lambda item: self.rowChosen.emit(self.row(item)))
        self.currentRowChanged.connect(self._row_changed)

    def _row_changed(self, row: int) -> None:
        if not self._filling and row >= 0 and self.hasFocus():
            self.rowChosen.emit(row)  # Up and Down in the list, as a click

    def lines(self) -> list[str]:
        """The rows' texts, in order."""
        return [self.item(row).text() for row in range(self.count())]

    def toPlainText(self) -> str:  # noqa: N802 - as the text widget this list replaced
        """The rows as text, one per line."""
        return "\n".join(self.lines())

    def show_lines(self, lines: list[str], looking_at: int | None = None) -> None:
        """Show ``lines``; the row ``looking_at`` is marked as the moment shown (None: the present, with the
        newest row in sight)."""
        self._filling = True
        try:
            if lines != self.lines():
                known = self.count()
                if lines[:known] == self.lines():  # a game adds lines at the end: only those are made
                    for text in lines[known:]:
                        self.addItem(QListWidgetItem(text))
                else:
                    self.clear()
                    self.addItems(lines)
            for row in range(self.count()):
                item = self.item(row)
                font = item.font()
                if font.bold() != (row == looking_at):
                    font.setWeight(QFont.Weight.Bold if row == looking_at else QFont.Weight.Normal)
                    item.setFont(font)
            if looking_at is None:
                self.clearSelection()
                self.setCurrentRow(-1)
                self.scrollToBottom()
            else:
                self.setCurrentRow(looking_at)
                self.scrollToItem(self.item(looking_at), QAbstractItemView.ScrollHint.EnsureVisible)
        finally:
            self._filling = False

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        # Up and Down move the current row themselves (as a click); Left, Right, Home, End are the window's.
        if event.key() in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End):
            event.ignore()
            return
        super().keyPressEvent(event)
