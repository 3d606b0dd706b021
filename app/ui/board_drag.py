"""A piece held by the left button: pressed on its square, it becomes a drag once the pointer has moved a few
pixels (less is a click), follows the pointer over the squares, and ends when the button is let go.

>>> drag = PieceDrag()
>>> drag.press((4, 1), QPointF(10, 10)); drag.follow(QPointF(12, 10), (4, 1)), drag.dragging
(False, False)
>>> drag.follow(QPointF(40, 10), (5, 1)), drag.dragging, drag.over
(True, True, (5, 1))
>>> drag.end(), drag.origin
(((4, 1), True), None)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QPointF

from app.ui.board_geometry import Cell

__all__ = ["DRAG_THRESHOLD", "PieceDrag"]

DRAG_THRESHOLD = 4
"""Pixels of movement (across plus down) before a press becomes a drag: a shaky click stays a click."""


@dataclass
class PieceDrag:
    """The press under way: ``origin`` the pressed piece's square (None: no press), ``dragging`` whether it moved
    far enough to be a drag, ``pos`` where the pointer is, ``over`` the square under it while dragging."""

    origin: Cell | None = None
    press_pos: QPointF = field(default_factory=QPointF)
    pos: QPointF = field(default_factory=QPointF)
    dragging: bool = False
    over: Cell | None = None

    def press(self, square: Cell, pos: QPointF) -> None:
        """The left button went down on the piece on ``square``."""
        self.origin, self.press_pos, self.pos = square, QPointF(pos), QPointF(pos)
        self.dragging, self.over = False, None

    def follow(self, pos: QPointF, square: Cell | None) -> bool:
        """The pointer moved to ``pos`` (over ``square``); True when the dragged piece must be drawn again."""
        if self.origin is None:
            return False
        if not self.dragging:
            delta = pos - self.press_pos
            self.dragging = abs(delta.x()) + abs(delta.y()) >= DRAG_THRESHOLD
        if self.dragging:
            self.pos, self.over = QPointF(pos), square
        return self.dragging

    def end(self) -> tuple[Cell | None, bool]:
        """Lets go: the square the press began on and whether it was a drag; nothing is held afterwards."""
        result = self.origin, self.dragging
        self.origin, self.dragging, self.over = None, False, None
        return result
