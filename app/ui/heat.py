"""The board's scale of chances: the colour of a square's heat, and a chance in words.

The board (its heat over the squares) and the off-board zones (a deduction grid's shades) read chances the same
way, so both take them from here.

>>> percent(0.004), percent(0.372)
('<1%', '37%')
"""

from __future__ import annotations

import math

from PySide6.QtGui import QColor

__all__ = ["heat_colour", "percent"]

_HEAT_LOW = QColor("#ffb300")  # amber: even the smallest chance stands out from both square colours
_HEAT_HIGH = QColor("#c62828")


def heat_colour(value: float) -> QColor:
    """Pale yellow to deep red, more opaque as the value grows (its square root, so small chances still show)."""
    t = math.sqrt(min(1.0, max(0.0, value)))
    colour = QColor(
        round(_HEAT_LOW.red() + (_HEAT_HIGH.red() - _HEAT_LOW.red()) * t),
        round(_HEAT_LOW.green() + (_HEAT_HIGH.green() - _HEAT_LOW.green()) * t),
        round(_HEAT_LOW.blue() + (_HEAT_HIGH.blue() - _HEAT_LOW.blue()) * t),
    )
    colour.setAlphaF(0.34 + 0.3 * t)  # at most 0.64: pieces and ghosts must stay readable on top
    return colour


def percent(value: float) -> str:
    """A chance as a short percentage: ``"<1%"``, ``"37%"``, ``"100%"``."""
    if 0 < value < 0.01:
        return "<1%"
    return f"{round(value * 100)}%"
