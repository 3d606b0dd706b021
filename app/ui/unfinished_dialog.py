"""The start-up offer of unfinished games: one entry per game, read at the dialog's own size without scrolling
sideways (each entry wraps onto lines of its own; a line too long for any width, such as a long file name, is
cut in the middle and the whole entry is in its tooltip). Continue one, discard one, or not now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtWidgets import QAbstractItemView, QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, \
    QStyledItemDelegate, QStyleOptionViewItem, QVBoxLayout, QWidget

from app.ui.disk_errors import os_error_text

if TYPE_CHECKING:
    from app.storage import UnfinishedGame

DIALOG_SIZE = (560, 340)
"""The dialog's size when it opens: an entry's lines fit this width (the player may make it larger)."""


class _NoWiderThanTheList(QStyledItemDelegate):
    """Entries as wide as the list at most: a word longer than a line (a file name) is then cut in the middle when
    drawn, instead of widening its entry past the list's edge (which would need a sideways scroll bar)."""

    def __init__(self, listing: QListWidget) -> None:
        super().__init__(listing)
        self._listing = listing

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt override
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        room = self._listing.viewport().width() - 2 * self._listing.spacing()
        return QSize(min(hint.width(), max(room, 1)), hint.height())


class UnfinishedGamesDialog(QDialog):
    """Which of ``games`` to continue. ``describe`` gives an entry's text (lines apart by newlines); ``ask`` a
    yes/no question and ``warn`` a problem (the main window's, which tests replace)."""

    def __init__(self, games: Sequence[UnfinishedGame], describe: Callable[[UnfinishedGame], str],
                 ask: Callable[[str, str], bool], warn: Callable[[str, str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Unfinished games")
        self._ask, self._warn = ask, warn
        self.remaining = list(games)
        layout = QVBoxLayout(self)
        count = len(games)
        heading = QLabel("Sightline stopped before this game ended. Continue it?" if count == 1 else
                         f"Sightline stopped before these {count} games ended. Continue one?")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        listing = QListWidget()
        listing.setWordWrap(True)
        listing.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        listing.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        listing.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        listing.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        listing.setResizeMode(QListWidget.ResizeMode.Adjust)  # entries wrap again when the dialog is resized
        listing.setSpacing(3)
        listing.setAlternatingRowColors(True)
        listing.setItemDelegate(_NoWiderThanTheList(listing))
        for game in games:
            text = describe(game)
            item = QListWidgetItem(text)
            item.setToolTip(text)
            listing.addItem(item)
        listing.setCurrentRow(0)
        listing.itemDoubleClicked.connect(lambda _item: self.accept())
        layout.addWidget(listing)
        self.listing = listing
        buttons = QDialogButtonBox()
        resume = buttons.addButton("&Continue", QDialogButtonBox.ButtonRole.AcceptRole)
        discard = buttons.addButton("&Discard...", QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton("&Not now", QDialogButtonBox.ButtonRole.RejectRole)
        layout.addWidget(buttons)
        resume.setDefault(True)
        discard.clicked.connect(self.discard_selected)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.resize(*DIALOG_SIZE)

    def discard_selected(self) -> None:
        """Discard the selected game after asking (it cannot be brought back)."""
        listing = self.listing
        row = listing.currentRow()
        if row < 0 or not self._ask("Discard this game?", f"{listing.item(row).text()}\n\nIt cannot be "
                                    "brought back."):
            return
        try:
            self.remaining[row].slot.discard()
        except OSError as error:
            self._warn("Autosave", f"The game could not be removed: {os_error_text(error)}")
            return
        del self.remaining[row]
        listing.takeItem(row)
        if not self.remaining:
            self.reject()

    def chosen(self) -> UnfinishedGame | None:
        """The game to continue once the dialog was accepted (None: none selected, or none left)."""
        row = self.listing.currentRow()
        return self.remaining[row] if self.remaining and 0 <= row < len(self.remaining) else None
