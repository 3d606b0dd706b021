"""The window's remembered choices (QSettings) that several windows read: the board theme, piece animation.

>>> THEME_NAMES[0], glide_ms_for("off")
('brown', 0)
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

from app.ui import board_widget

__all__ = ["ANIMATION", "THEME_NAMES", "glide_ms_for", "setting_choice"]

THEME_NAMES = ("brown", "blue", "green", "grey")
"""View > Board theme: the names of the board's colour themes (``board_widget.THEMES`` holds their colours)."""
ANIMATION = ("glide", "off")
"""View > Piece animation: moved pieces glide to their squares, or jump."""


def glide_ms_for(choice: str) -> int:
    """The glide time of a View > Piece animation choice (read from the board module when asked: tests may set
    it to 0 for still pictures)."""
    return board_widget.GLIDE_MS if choice == "glide" else 0


def setting_choice(settings: QSettings, key: str, allowed: tuple[str, ...], default: str) -> str:
    """A remembered choice among ``allowed``; anything else (a newer version's choice, a wrong type) gives the
    default."""
    value = settings.value(key, default)
    return value if isinstance(value, str) and value in allowed else default
