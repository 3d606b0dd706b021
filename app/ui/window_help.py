"""The main window's Help menu: the guide to the window, each game's rules, each in a window of its own, and the
About box."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from app import games
from app.ui.window_place import place_over

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox, QTextBrowser

RULES = Path(__file__).resolve().parent.parent.parent / "docs" / "rules"
GUIDE_KEY = "(window)"
"""The help window of docs/window.md among the rules windows (no game's key has brackets)."""


class HelpPages:
    """Help > ...: pages (markdown) in windows of their own over ``window``, one per page, closed with it."""

    def __init__(self, window: QMainWindow, menu: QMenu) -> None:
        self._window = window
        self.menu = menu
        self.pages: dict[str, QTextBrowser] = {}
        self.last_page: QTextBrowser | None = None  # the page shown last (tests look at it)
        self.about_box: QMessageBox | None = None
        menu.aboutToShow.connect(self.fill_menu)
        self.fill_menu()

    def fill_menu(self) -> None:
        """One rules entry per game the registry holds when the menu opens (a game registered after the window
        was made is there too; the registry is plain data, so no game code is imported for the titles)."""
        menu = self.menu
        menu.clear()
        guide = QAction("&Using the window and its keys", menu)
        guide.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        guide.triggered.connect(self.window_guide)
        menu.addAction(guide)
        menu.addSeparator()
        for definition in games.all():
            action = QAction(f"Rules of {definition.title}", menu)
            action.triggered.connect(lambda _checked=False, v=definition.key: self.rules(v))
            menu.addAction(action)
        about = QAction("&About Sightline", menu)
        about.triggered.connect(self.about)
        menu.addAction(about)

    def window_guide(self) -> None:
        """Help > Using the window and its keys: docs/window.md, in a window of its own like the rules."""
        self.show_page(GUIDE_KEY, "Using the Sightline window", guide_text())

    def rules(self, variant: str) -> None:
        """The rules in a window of their own, on the main window's screen; closed with the main window."""
        if variant in self.pages:
            self.show_page(variant, "", "")
            return
        try:
            definition: games.GameDefinition | None = games.get(variant)
        except KeyError:
            definition = None  # a game that was registered when the menu was made and is not any more
        text = rules_text((definition.rules_doc if definition is not None else "") or f"{variant}.md")
        self.show_page(variant, f"Rules of {definition.title if definition is not None else variant}", text)

    def show_page(self, key: str, title: str, text: str) -> None:
        """A help page (markdown) in a window of its own, on the main window's screen, one per ``key``; closed
        with the main window."""
        window = self.pages.get(key)
        if window is None:
            # Not before the first frame: PySide6 builds a Qt class's enums on its first import (see main_window).
            from PySide6.QtWidgets import QTextBrowser
            window = QTextBrowser(self._window)
            window.setWindowFlag(Qt.WindowType.Window, True)  # a window of its own, but owned by this one
            window.setOpenExternalLinks(True)
            window.setMarkdown(text)
            window.setWindowTitle(title)
            window.destroyed.connect(lambda _object=None, v=key: self.pages.pop(v, None))
            window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.pages[key] = window
            window.resize(720, 640)
            place_over(window, self._window)  # over the main window, within the screen's free area
        window.show()
        window.raise_()
        window.activateWindow()
        self.last_page = window

    def about(self) -> None:
        """Help > About: what Sightline is, its version, and the games it plays (not modal: a clock may run)."""
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see main_window._LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.NoIcon, "About Sightline", about_text(), QMessageBox.StandardButton.Ok,
                          self._window)
        box.setIconPixmap(self._window.windowIcon().pixmap(64, 64))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.about_box = box

    def close_all(self) -> None:
        for window in list(self.pages.values()):
            window.close()


def app_version() -> str:
    """Sightline's version: the installed package's (its metadata), else that of the source tree's
    pyproject.toml, else "unknown"."""
    from importlib import metadata  # not before the first frame: about 10 ms of imports, for Help > About only
    try:
        return metadata.version("sightline")
    except metadata.PackageNotFoundError:
        pass
    try:
        import tomllib  # not before the first frame (see above)
        with open(Path(__file__).resolve().parent.parent.parent / "pyproject.toml", "rb") as stream:
            return str(tomllib.load(stream)["project"]["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"


def about_text() -> str:
    """Help > About's words: the version first, then the games and what runs it."""
    import platform  # not before the first frame: about 2 ms, for Help > About only
    titles = [definition.title for definition in games.all()]
    listed = ", ".join(titles[:-1]) + (" and " if len(titles) > 1 else "") + titles[-1] if titles else ""
    return (f"Sightline {app_version()}\n\nHidden-information chess on one computer: {listed}.\n\n"
            f"Python {platform.python_version()}, Qt {pyside_version}. Licence: GPL 3.0 or later.")


def rules_text(name: str) -> str:
    """What Help shows for a game's rules page ``name``: the page written for players (how to play, in
    ``docs/rules/players``) first, then the full rules, rule by rule, as Sightline referees them. A missing
    page is said, never fatal."""
    parts = []
    for path in (RULES / "players" / name, RULES / name):
        try:
            parts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeError):
            continue
    if not parts:
        return "The rules file is missing or damaged; the installation may be incomplete."
    between = "\n\n---\n\n*What follows is the full text of the rules, rule by rule, as Sightline referees them.*\n\n"
    return between.join(parts)


def guide_text() -> str:
    """What Help > Using the window shows: docs/window.md, the window's guide and its keys. A missing page is
    said, never fatal."""
    try:
        return (RULES.parent / "window.md").read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return "The guide to the window is missing or damaged; the installation may be incomplete."
