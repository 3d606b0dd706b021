"""The message after an export: what was written where, and a button that opens its folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl, Qt
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget


def open_folder(path: str | Path) -> bool:
    """Open the folder holding ``path`` in the desktop's file manager (False if the desktop refused)."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(path).resolve().parent)))


def show_exported(parent: QWidget, path: str | Path, what: str) -> QMessageBox:
    """Tell the player that ``path`` was written, holding ``what`` (a format's name, "Board image"), with *Open
    folder* beside *OK*. Not modal: a game may be running in the window behind it."""
    file = Path(path)
    box = QMessageBox(QMessageBox.Icon.Information, "Exported",
                      f"Exported.\n\nFile: {file.name}\nFolder: {file.resolve().parent}\nWhat: {what}",
                      QMessageBox.StandardButton.Ok, parent)
    folder = box.addButton("Open &folder", QMessageBox.ButtonRole.ActionRole)
    folder.clicked.connect(lambda: open_folder(file))
    box.setDefaultButton(QMessageBox.StandardButton.Ok)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the path may be copied
    box.open()
    return box
