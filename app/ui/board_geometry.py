"""Where a board's squares are on screen: the one place that turns squares into pixels and pixels into squares.

A :class:`BoardGeometry` is worked out from the board's size, its orientation and the room it is given (less
what off-board zones take, :mod:`app.ui.zones`); the board widget, its painting and its input all ask it, so
they cannot disagree about where a square is.

>>> geometry = BoardGeometry.fit(8, 8, False, 400, 300)
>>> geometry.size, geometry.board_rect().getRect(), geometry.square_at(QPointF(51, 0))
(37, (52, 2, 296, 296), None)
>>> geometry.square_rect((0, 0)).getRect(), geometry.square_at(QPointF(60, 290))
((52, 261, 37, 37), (0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF
from PySide6.QtGui import QPainterPath

__all__ = ["BoardGeometry", "Cell"]

Cell = tuple[int, int]
"""``(file, rank)``, 0-based: file 0 is the a-file, rank 0 is the first rank."""


@dataclass(frozen=True)
class BoardGeometry:
    """A ``files`` x ``ranks`` board of ``size``-pixel squares whose top-left corner is at ``(left, top)``, Black
    at the bottom when ``flipped``."""

    files: int
    ranks: int
    flipped: bool
    left: int
    top: int
    size: int

    @classmethod
    def fit(cls, files: int, ranks: int, flipped: bool, width: int, height: int) -> BoardGeometry:
        """The largest board of square squares (at least 1 pixel) that fits ``width`` x ``height``, centred."""
        size = max(1, min(width // files, height // ranks))
        return cls(files, ranks, flipped, (width - size * files) // 2, (height - size * ranks) // 2, size)

    @classmethod
    def at(cls, files: int, ranks: int, flipped: bool, rect: QRect, size: int) -> BoardGeometry:
        """The board drawn in ``rect`` (laid out beside zones) with ``size``-pixel squares."""
        return cls(files, ranks, flipped, rect.x(), rect.y(), size)

    def board_rect(self) -> QRect:
        """The whole board's pixels."""
        return QRect(self.left, self.top, self.size * self.files, self.size * self.ranks)

    def on_board(self, square: Cell) -> bool:
        """Whether ``square`` lies on the board."""
        return 0 <= square[0] < self.files and 0 <= square[1] < self.ranks

    def cell(self, square: Cell) -> tuple[int, int]:
        """The (column, row) on screen of a square, row 0 at the top."""
        file, rank = square
        if self.flipped:
            return self.files - 1 - file, rank
        return file, self.ranks - 1 - rank

    def square_of_cell(self, column: int, row: int) -> Cell:
        """The square shown at screen (column, row)."""
        if self.flipped:
            return self.files - 1 - column, row
        return column, self.ranks - 1 - row

    def square_rect(self, square: Cell) -> QRect:
        """The pixel rectangle of ``square``."""
        column, row = self.cell(square)
        return QRect(self.left + column * self.size, self.top + row * self.size, self.size, self.size)

    def centre(self, square: Cell) -> QPointF:
        """The centre of ``square``."""
        return QRectF(self.square_rect(square)).center()

    def square_at(self, pos: QPoint | QPointF) -> Cell | None:
        """The square under a position, or ``None`` off the board."""
        x, y = pos.x() - self.left, pos.y() - self.top
        if x < 0 or y < 0 or x >= self.size * self.files or y >= self.size * self.ranks:
            return None
        return self.square_of_cell(int(x // self.size), int(y // self.size))

    def region_path(self, squares: Iterable[Cell], inset: float, radius: float) -> QPainterPath:
        """The outline of a group of squares, ``inset`` pixels inside its edge (rounded by ``radius`` when the
        group is a rectangle)."""
        size = self.size
        cells = {self.cell(s) for s in squares if self.on_board(s)}
        path = QPainterPath()
        if not cells:
            return path
        columns = [c for c, _ in cells]
        rows = [r for _, r in cells]
        left, right, top, bottom = min(columns), max(columns), min(rows), max(rows)
        if len(cells) == (right - left + 1) * (bottom - top + 1):
            rect = QRectF(
                self.left + left * size, self.top + top * size, (right - left + 1) * size, (bottom - top + 1) * size
            ).adjusted(inset, inset, -inset, -inset)
            path.addRoundedRect(rect, radius, radius)
            return path
        for column, row in cells:  # any other shape: the outer edges of its squares
            x0, y0 = self.left + column * size, self.top + row * size
            x1, y1 = x0 + size, y0 + size
            if (column - 1, row) not in cells:
                path.moveTo(x0 + inset, y0)
                path.lineTo(x0 + inset, y1)
            if (column + 1, row) not in cells:
                path.moveTo(x1 - inset, y0)
                path.lineTo(x1 - inset, y1)
            if (column, row - 1) not in cells:
                path.moveTo(x0, y0 + inset)
                path.lineTo(x1, y0 + inset)
            if (column, row + 1) not in cells:
                path.moveTo(x0, y1 - inset)
                path.lineTo(x1, y1 - inset)
        return path
