"""Small helpers every part of the main window shares: words cut to a size a label can show, players' names,
game titles, lists read back from the settings, menu actions."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from app import games

MESSAGE_LIMIT = 1500  # characters of a message shown to the player (a file's field may be megabytes long)
NAME_LIMIT = 60  # characters of a player's name in the window's sentences
DOCK_WIDTH = 320  # the panels' width when no layout was saved (the first start; restarts restore the last size)


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters and 30 lines, saying how much was left out: a message box or label
    with megabytes of text (a field of a damaged file) would freeze the window."""
    lines = text.split("\n")
    cut = "\n".join(lines[:30]) if len(lines) > 30 else text
    if len(cut) > limit:
        cut = cut[:limit]
    if len(cut) < len(text):
        return f"{cut}… ({len(text) - len(cut):,} more characters not shown)"
    return text


def short_name(name: str) -> str:
    """A player's name for the window's sentences (a file may hold any name)."""
    name = " ".join(name.split())
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"


def game_title(key: str, unknown: str) -> str:
    """The title of the game ``key`` as the registry has it now (a game registered after the window was made has
    one too); ``unknown`` for a game the registry does not know (a record of a game no longer installed)."""
    try:
        return games.get(key).title
    except KeyError:
        return unknown


def settings_list(value: object) -> list[object]:
    """A QSettings list: one stored item comes back as a plain string, none as None."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def make_action(parent: QObject, text: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None) -> QAction:
    """A menu action of ``parent`` calling ``slot`` (without the checked flag), with an optional shortcut."""
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(lambda _checked=False: slot())
    return action
