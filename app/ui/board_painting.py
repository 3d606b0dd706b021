"""Painting a board: one frame drawn from a :class:`BoardPicture`, everything the board shows at that moment.

The board widget (:mod:`app.ui.board_widget`) keeps its state and its input; when Qt asks it to paint, it hands
what it shows (pieces, marks, the selection, the piece being dragged ...) to a :class:`BoardPicture` and that
draws it with a :class:`~app.ui.board_geometry.BoardGeometry`. The layers, bottom to top: squares, highlights,
the heat map, marker fills, the sense hover, pieces, counters on squares, coordinates, move targets, marker
outlines, flags, heat values, annotations, the promotion shade, off-board zones, the dragged piece. A piece on a
square of a ``seen_old`` marker is old news (an enemy piece seen some turns ago) and is drawn faded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from app.ui import pieces
from app.ui.board_geometry import BoardGeometry, Cell
from app.ui.heat import heat_colour, percent

if TYPE_CHECKING:
    from app.games.scene import Zone
    from app.ui import zones as zone_parts

__all__ = ["BoardPicture", "MarkerLike"]


class _Theme(Protocol):
    @property
    def light(self) -> str: ...
    @property
    def dark(self) -> str: ...


class MarkerLike(Protocol):
    """What a marker must give to be drawn (the board's ``Marker``, or a scene's ``MarkerSpec``)."""

    @property
    def kind(self) -> str: ...
    @property
    def squares(self) -> Sequence[Cell]: ...
    @property
    def label(self) -> str: ...
    @property
    def opacity(self) -> float: ...


# Highlight colours, after Lichess.
_LAST_MOVE = QColor(155, 199, 0, 105)
_SELECTED = QColor(20, 85, 30, 128)
_DEST = QColor(20, 85, 30, 128)
_DEST_CAPTURE = QColor(20, 85, 0, 77)
_DEST_HOVER = QColor(20, 85, 30, 77)
_ANNOTATION = QColor(21, 120, 27, 200)
_PREVIEW = QColor(21, 120, 27, 130)
# Marker colours: distinct in hue and in shape.
_SENSE = QColor("#1565e0")
_HOVER = QColor("#4fc3f7")
_HOVER_EDGE = QColor("#0288d1")
_REVEAL = QColor("#ef7d00")
_LOST = QColor("#d32f2f")
_CAPTURED = QColor("#8e24aa")
_PREMOVE = QColor("#14551e")  # Lichess's premove: the move's squares tinted, darker than a destination
_SEEN_OLD = QColor("#616161")  # an old sighting's turn: grey, news no longer
_MARKER_COLOURS = {"sense": _SENSE, "sense_old": _SENSE, "reveal": _REVEAL, "lost": _LOST, "captured": _CAPTURED,
                   "premove": _PREMOVE, "seen_old": _SEEN_OLD}
_OLD_PIECE = 0.6  # how opaque a piece under a seen_old marker is drawn: a memory, not a sighting
_MARKER_WORDS = {
    "sense": "sensed",
    "sense_old": "sensed earlier",
    "reveal": "enemy piece seen",
    "seen_old": "seen earlier",
    "lost": "piece lost",
    "captured": "captured",
    "premove": "queued",
}

# Hypotheses and inference.
_FLAG = QColor("#e53935")
def _with_alpha(colour: QColor, alpha: float) -> QColor:
    result = QColor(colour)
    result.setAlphaF(min(1.0, max(0.0, alpha)))
    return result


@dataclass
class BoardPicture:
    """What one frame of a board shows, and the drawing of it (the widget's state at paint time, not copied).

    ``selected`` is the selected piece's square, ``drag_from`` / ``dragging`` / ``drag_pos`` a piece being moved,
    ``hover_square`` the square a dragged piece is over, ``hover_window`` / ``sense_hover`` the squares a sense
    would show, ``pending`` a move waiting for its promotion choice, ``right_from`` / ``right_to`` an arrow being
    drawn, ``zone_layout`` where the off-board zones go (None without zones), ``label_colour``
    the colour of their labels. ``glides`` are pieces on their way (letter, from, to) that are drawn
    ``glide_progress`` (0 to 1) of the way, not yet on their new squares; ``card_slide`` likewise a card on its
    way from one zone to another.
    """

    geometry: BoardGeometry
    theme: _Theme
    font: QFont
    coordinates: bool
    pieces: Mapping[Cell, str]
    ghosts: Mapping[Cell, str]
    heat: Mapping[Cell, float]
    heat_values: bool
    flags: Mapping[Cell, str]
    targets: Mapping[Cell, Mapping[Cell, Sequence[str]]]
    last_move: tuple[Cell, Cell] | None
    markers: Sequence[MarkerLike]
    arrows: Sequence[tuple[Cell, Cell]]
    circles: Sequence[Cell]
    right_from: Cell | None
    right_to: Cell | None
    selected: Cell | None
    drag_from: Cell | None
    dragging: bool
    drag_pos: QPointF
    hover_square: Cell | None
    hover_window: Sequence[Cell]
    sense_hover: Cell | None
    sense_enabled: bool
    pending: tuple[Cell, Cell] | None
    zones: Sequence[Zone]
    zone_layout: zone_parts.ZoneLayout | None
    label_colour: QColor
    glides: Sequence[tuple[str, Cell, Cell]] = ()
    glide_progress: float = 1.0
    card_slide: zone_parts.CardSlide | None = None
    proposed_window: Sequence[Cell] = ()
    proposal_label: str = ""
    cursor: Cell | None = None
    zone_cursor: QRectF | None = None

    def paint(self, painter: QPainter, dpr: float) -> None:
        """Draws the frame, layer by layer (see the module documentation)."""
        size = self.geometry.size
        self._paint_squares(painter, size)
        self._paint_highlights(painter)
        if self.heat:
            self._paint_heat(painter)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_marker_fills(painter, size)
        self._paint_sense_hover(painter, size)
        self._paint_proposal(painter, size)
        self._paint_pieces(painter, size, dpr)
        if self.zones:
            from app.ui import zones as zone_parts  # deferred for start-up: loaded only for a scene with zones
            zone_parts.paint_stacks(painter, self.zones, self.geometry.square_rect, self.geometry.on_board, self.font,
                                    size)
        if self.coordinates:  # above the pieces, as on Lichess: a knight's base would hide a letter
            self._paint_coordinates(painter, size)
        self._paint_targets(painter, size)
        labels = self._paint_marker_outlines(painter, size)
        self._paint_proposal_label(painter, size, labels)
        if self.flags:
            self._paint_flags(painter, size)
        if self.heat and self.heat_values:
            self._paint_heat_values(painter, size)
        self._paint_annotations(painter, size)
        if self.cursor is not None and self.geometry.on_board(self.cursor):  # the keyboard's square cursor
            width = max(2.0, size * 0.06)
            pen = QPen(QColor("#f9a825"), width)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            inset = width / 2
            painter.drawRect(QRectF(self.geometry.square_rect(self.cursor)).adjusted(inset, inset, -inset, -inset))
        if self.pending is not None:
            painter.fillRect(self.geometry.board_rect(), QColor(0, 0, 0, 60))

        if self.zone_layout is not None:
            from app.ui import zones as zone_parts  # deferred for start-up: loaded only for a scene with zones
            slide = self.card_slide if self.glide_progress < 1 else None
            zone_parts.paint_zones(painter, self.zone_layout, self.font, dpr, self.label_colour,
                                   arriving=None if slide is None else (slide[3], slide[4]))
            if slide is not None:
                zone_parts.paint_card_slide(painter, slide, 1 - (1 - self.glide_progress) ** 3, dpr)
        if self.zone_cursor is not None:  # the keyboard's cursor on an item beside the board, over the zones
            width = max(2.0, size * 0.05)
            painter.setPen(QPen(QColor("#f9a825"), width))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.zone_cursor.adjusted(width / 2, width / 2, -width / 2, -width / 2))
        self._paint_drag(painter, size, dpr)

    def _square_colour(self, square: Cell) -> QColor:
        light = (square[0] + square[1]) % 2 == 1  # a1 is dark
        return QColor(self.theme.light if light else self.theme.dark)

    def _paint_squares(self, painter: QPainter, size: int) -> None:
        light, dark = QColor(self.theme.light), QColor(self.theme.dark)
        painter.fillRect(self.geometry.board_rect(), dark)
        for file in range(self.geometry.files):
            for rank in range(self.geometry.ranks):
                if (file + rank) % 2 == 1:
                    painter.fillRect(self.geometry.square_rect((file, rank)), light)

    def _paint_highlights(self, painter: QPainter) -> None:
        if self.last_move is not None:
            for square in self.last_move:
                if self.geometry.on_board(square):
                    painter.fillRect(self.geometry.square_rect(square), _LAST_MOVE)
        if self.pending is not None:
            for square in self.pending:
                painter.fillRect(self.geometry.square_rect(square), _SELECTED)
        if self.selected is not None:
            painter.fillRect(self.geometry.square_rect(self.selected), _SELECTED)
            if self.dragging and self.hover_square is not None:
                if self.hover_square in self.targets.get(self.selected, {}):
                    painter.fillRect(self.geometry.square_rect(self.hover_square), _DEST_HOVER)

    def _paint_marker_fills(self, painter: QPainter, size: int) -> None:
        for marker in self.markers:
            colour = _MARKER_COLOURS[marker.kind]
            squares = [s for s in marker.squares if self.geometry.on_board(s)]
            if marker.kind == "sense":
                path = self.geometry.region_path(squares, 0, 0)
                painter.fillPath(path, _with_alpha(colour, 0.07 * marker.opacity))
            elif marker.kind == "lost":
                # Imported here, its one use: its first import builds the gradient's enums, which the window's
                # first frame (no lost piece yet) would otherwise wait for.
                from PySide6.QtGui import QRadialGradient
                for square in squares:
                    rect = QRectF(self.geometry.square_rect(square))
                    gradient = QRadialGradient(rect.center(), rect.width() * 0.75)
                    gradient.setColorAt(0.0, _with_alpha(colour, 0.0))
                    gradient.setColorAt(0.45, _with_alpha(colour, 0.12 * marker.opacity))
                    gradient.setColorAt(1.0, _with_alpha(colour, 0.7 * marker.opacity))
                    painter.fillRect(rect, QBrush(gradient))
            elif marker.kind == "captured":
                for square in squares:
                    painter.fillRect(self.geometry.square_rect(square), _with_alpha(colour, 0.22 * marker.opacity))
            elif marker.kind == "reveal":
                for square in squares:
                    painter.fillRect(self.geometry.square_rect(square), _with_alpha(colour, 0.18 * marker.opacity))
            elif marker.kind == "premove":
                for square in squares:
                    painter.fillRect(self.geometry.square_rect(square), _with_alpha(colour, 0.45 * marker.opacity))

    def _paint_sense_hover(self, painter: QPainter, size: int) -> None:
        if not self.hover_window:
            return
        path = self.geometry.region_path(self.hover_window, 0, 0)
        painter.fillPath(path, _with_alpha(_HOVER, 0.30))
        if self.sense_hover is not None:
            painter.fillRect(self.geometry.square_rect(self.sense_hover), _with_alpha(_HOVER, 0.25))
        width = max(2.0, size * 0.035)
        pen = QPen(_with_alpha(_HOVER_EDGE, 0.9), width)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.strokePath(self.geometry.region_path(self.hover_window, width / 2, width), pen)

    def _paint_proposal(self, painter: QPainter, size: int) -> None:
        """A pick clicked once, waiting for its confirmation: its window tinted and dashed, under the pieces (its
        label, saying how to confirm, is drawn over them with the markers' labels: :meth:`_paint_proposal_label`)."""
        if not self.proposed_window:
            return
        painter.fillPath(self.geometry.region_path(self.proposed_window, 0, 0), _with_alpha(_HOVER, 0.4))
        width = max(2.0, size * 0.045)
        pen = QPen(_SENSE, width, Qt.PenStyle.DashLine)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.strokePath(self.geometry.region_path(self.proposed_window, width / 2, width), pen)

    def _coordinate_font(self, size: int) -> QFont:
        font = QFont(self.font)
        font.setPixelSize(max(8, round(size * 0.17)))
        font.setBold(True)
        return font

    def coordinate_labels(self, size: int) -> list[tuple[Cell, QRect, Qt.AlignmentFlag, str]]:
        """Where each coordinate is written: (square, the rectangle it is aligned in, the alignment, the text).
        File letters in the bottom-right corner of the bottom row, rank numbers in the top-left corner of the left
        column, as on Lichess."""
        if size < 18 or not self.coordinates:
            return []
        pad = max(1, round(size * 0.035))
        labels = []
        for column in range(self.geometry.files):
            square = self.geometry.square_of_cell(column, self.geometry.ranks - 1)
            rect = self.geometry.square_rect(square).adjusted(pad, pad // 2, -pad, -pad // 2)
            labels.append((square, rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                           chr(97 + square[0])))
        for row in range(self.geometry.ranks):
            square = self.geometry.square_of_cell(0, row)
            rect = self.geometry.square_rect(square).adjusted(pad, pad // 2, -pad, -pad // 2)
            labels.append((square, rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(square[1] + 1)))
        return labels

    def _paint_coordinates(self, painter: QPainter, size: int) -> None:
        labels = self.coordinate_labels(size)
        if not labels:
            return
        painter.setFont(self._coordinate_font(size))
        light, dark = QColor(self.theme.light), QColor(self.theme.dark)
        for square, rect, align, text in labels:
            painter.setPen(dark if self._square_colour(square) == light else light)
            painter.drawText(rect, align, text)

    def _paint_pieces(self, painter: QPainter, size: int, dpr: float) -> None:
        dragged = self.drag_from if self.dragging else None
        ring_pen = QPen(QColor(30, 30, 30, 150), max(1.0, size * 0.028), Qt.PenStyle.DashLine)
        ring_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        flag_pen = QPen(_FLAG, max(1.5, size * 0.04), Qt.PenStyle.DashLine)
        flag_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        for square, letter in self.ghosts.items():
            if square in self.pieces:
                continue
            rect = self.geometry.square_rect(square)
            painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.5))
            painter.setPen(flag_pen if square in self.flags else ring_pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            inset = size * 0.07
            painter.drawEllipse(QRectF(rect).adjusted(inset, inset, -inset, -inset))
        arriving = {target for _letter, _origin, target in self.glides} if self.glide_progress < 1 else set()
        old = {square for marker in self.markers if marker.kind == "seen_old" for square in marker.squares}
        for square, letter in self.pieces.items():
            rect = self.geometry.square_rect(square)
            if square in arriving:
                continue  # drawn on its way below
            if square in old:  # where the seat saw it some turns ago: faded (drawn whole, then see-through, so the
                painter.save()  # black king's white parts under its black ones do not show through)
                painter.setOpacity(_OLD_PIECE)
                painter.drawPixmap(rect.topLeft(), pieces.piece_pixmap(letter, size, dpr))
                painter.restore()
            elif square == dragged:
                painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.3))
            elif self.pending is not None and square == self.pending[0]:
                painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.3))
            else:
                painter.drawPixmap(rect.topLeft(), pieces.piece_pixmap(letter, size, dpr))

        if arriving:
            # Ease out (a cubic): quick at first, settling onto the square, as chessground's pieces do.
            t = 1 - (1 - self.glide_progress) ** 3
            for letter, origin, target in self.glides:
                start, end = self.geometry.square_rect(origin).topLeft(), self.geometry.square_rect(target).topLeft()
                point = QPointF(start.x() + (end.x() - start.x()) * t, start.y() + (end.y() - start.y()) * t)
                painter.drawPixmap(point, pieces.piece_pixmap(letter, size, dpr))

    def _paint_targets(self, painter: QPainter, size: int) -> None:
        origin = self.selected  # (also while picks are taken: RBC's queue offers moves and a sense together)
        if origin is None:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        for dest in self.targets.get(origin, {}):
            if not self.geometry.on_board(dest):
                continue
            rect = QRectF(self.geometry.square_rect(dest))
            if dest in self.pieces:
                # Corners shaded around a circle, as Lichess marks a capture.
                path = QPainterPath()
                path.addRect(rect)
                circle = QPainterPath()
                radius = size * 0.565
                circle.addEllipse(rect.center(), radius, radius)
                painter.fillPath(path.subtracted(circle), _DEST_CAPTURE)
            else:
                radius = size * 0.135
                painter.setBrush(_DEST)
                painter.drawEllipse(rect.center(), radius, radius)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_marker_outlines(self, painter: QPainter, size: int) -> dict[Cell, int]:
        """The markers' outlines and labels, over the pieces; returns how many labels each square got."""
        labels: dict[Cell, int] = {}
        for marker in self.markers:
            squares = [s for s in marker.squares if self.geometry.on_board(s)]
            if not squares:
                continue
            colour = _MARKER_COLOURS[marker.kind]
            if marker.kind in ("sense", "sense_old"):
                strong = marker.kind == "sense"
                width = max(2.0, size * 0.055) if strong else max(1.5, size * 0.035)
                pen = QPen(_with_alpha(colour, (1.0 if strong else 0.8) * marker.opacity), width)
                if not strong:
                    pen.setStyle(Qt.PenStyle.DashLine)
                pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                inset = width / 2 + (0 if strong else size * 0.04)
                painter.strokePath(self.geometry.region_path(squares, inset, width), pen)
                # The label goes in the window's top-right square.
                corner = min(squares, key=lambda s: (self.geometry.cell(s)[1], -self.geometry.cell(s)[0]))
                if marker.label:
                    self._paint_label(painter, corner, marker.label, colour, marker.opacity, labels, size)
                continue
            width = max(1.5, size * 0.045)
            for square in squares:
                rect = QRectF(self.geometry.square_rect(square))
                if marker.kind == "reveal":
                    pen = QPen(_with_alpha(colour, marker.opacity), width)
                    inset = width / 2 + size * 0.02
                    painter.strokePath(self._rounded(rect, inset, width * 1.5), pen)
                elif marker.kind == "captured":
                    pen = QPen(_with_alpha(colour, marker.opacity), width, Qt.PenStyle.DotLine)
                    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                    painter.strokePath(self._rounded(rect, width / 2 + size * 0.02, width * 1.5), pen)
                elif marker.kind == "lost":
                    pen = QPen(_with_alpha(colour, marker.opacity), width)
                    painter.strokePath(self._rounded(rect, width / 2, 0), pen)
                elif marker.kind == "premove":
                    pen = QPen(_with_alpha(colour, 0.9 * marker.opacity), width, Qt.PenStyle.DashLine)
                    painter.strokePath(self._rounded(rect, width / 2 + size * 0.02, width), pen)
                if marker.label:
                    self._paint_label(painter, square, marker.label, colour, marker.opacity, labels, size)
        return labels

    def _paint_proposal_label(self, painter: QPainter, size: int, labels: dict[Cell, int]) -> None:
        """The word saying how to confirm a pick waiting for it ("again": click the same square again; "hold":
        hold the button down on it), over the pieces (a disc or a piece would cut it) and under any label the
        square already has."""
        if self.proposal_label and self.proposed_window:
            corner = min(self.proposed_window, key=lambda s: (self.geometry.cell(s)[1], -self.geometry.cell(s)[0]))
            self._paint_label(painter, corner, self.proposal_label, _SENSE, 1.0, labels, size)

    def label_rect(self, square: Cell, text: str, index: int, size: int) -> QRectF:
        """Where the ``index``-th label (counted from 0) of ``square`` is drawn, as a rectangle: a small pill in the
        square's top-right corner, the next one below it."""
        font = QFont(self.font)
        font.setPixelSize(max(7, round(size * 0.14)))
        font.setBold(True)
        metrics = QFontMetrics(font)
        height = metrics.height() + 1
        width = metrics.horizontalAdvance(text) + height * 0.6
        rect = QRectF(self.geometry.square_rect(square))
        margin = max(1.0, size * 0.02)
        return QRectF(rect.right() + 1 - margin - width, rect.top() + margin + index * (height + 1), width, height)

    @staticmethod
    def _rounded(rect: QRectF, inset: float, radius: float) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(rect.adjusted(inset, inset, -inset, -inset), radius, radius)
        return path

    def _paint_label(
        self,
        painter: QPainter,
        square: Cell,
        text: str,
        colour: QColor,
        opacity: float,
        stacked: dict[Cell, int],
        size: int,
    ) -> None:
        """A small pill in the top-right corner of ``square``; several labels on one square stack downwards."""
        if size < 22:
            return
        font = QFont(self.font)
        font.setPixelSize(max(7, round(size * 0.14)))
        font.setBold(True)
        painter.setFont(font)
        index = stacked.get(square, 0)
        stacked[square] = index + 1
        pill = self.label_rect(square, text, index, size)
        height = pill.height()
        painter.setPen(Qt.PenStyle.NoPen)
        # Faded markers keep readable labels: the pill fades less than the marker.
        painter.setBrush(_with_alpha(colour, 0.95 * (0.6 + 0.4 * opacity)))
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setPen(QColor("white"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _arrow_path(self, start: QPointF, end: QPointF, size: int) -> QPainterPath:
        """One filled outline for shaft and head, so a translucent arrow has no darker overlap."""
        dx, dy = end.x() - start.x(), end.y() - start.y()
        length = math.hypot(dx, dy)
        path = QPainterPath()
        if length < 1:
            return path
        ux, uy = dx / length, dy / length
        nx, ny = -uy, ux
        shaft = size * 0.085
        head_half = size * 0.25
        head_length = min(size * 0.42, length * 0.6)
        tip = QPointF(end.x() - ux * size * 0.06, end.y() - uy * size * 0.06)
        base = QPointF(tip.x() - ux * head_length, tip.y() - uy * head_length)
        begin = QPointF(start.x() + ux * size * 0.12, start.y() + uy * size * 0.12)
        points = [
            QPointF(begin.x() + nx * shaft, begin.y() + ny * shaft),
            QPointF(base.x() + nx * shaft, base.y() + ny * shaft),
            QPointF(base.x() + nx * head_half, base.y() + ny * head_half),
            tip,
            QPointF(base.x() - nx * head_half, base.y() - ny * head_half),
            QPointF(base.x() - nx * shaft, base.y() - ny * shaft),
            QPointF(begin.x() - nx * shaft, begin.y() - ny * shaft),
        ]
        path.addPolygon(QPolygonF(points))
        path.closeSubpath()
        return path

    def _paint_annotations(self, painter: QPainter, size: int) -> None:
        width = max(2.0, size * 0.07)
        for square in self.circles:
            if self.geometry.on_board(square):
                painter.strokePath(self._circle_path(square, width, size), QPen(_ANNOTATION, width))
        for origin, dest in self.arrows:
            if self.geometry.on_board(origin) and self.geometry.on_board(dest):
                path = self._arrow_path(self.geometry.centre(origin), self.geometry.centre(dest), size)
                painter.fillPath(path, _ANNOTATION)
        if self.right_from is not None and self.right_to is not None:
            if self.right_from == self.right_to:
                path = self._circle_path(self.right_from, width, size)
                painter.strokePath(path, QPen(_PREVIEW, width))
            else:
                start, end = self.geometry.centre(self.right_from), self.geometry.centre(self.right_to)
                path = self._arrow_path(start, end, size)
                painter.fillPath(path, _PREVIEW)

    def _circle_path(self, square: Cell, width: float, size: int) -> QPainterPath:
        path = QPainterPath()
        radius = size / 2 - width / 2 - size * 0.02
        path.addEllipse(self.geometry.centre(square), radius, radius)
        return path

    def _paint_heat(self, painter: QPainter) -> None:
        for square, value in self.heat.items():
            # Every chance above zero is tinted, however small: a plain square says "no enemy piece can be here",
            # and a player trusts that (inference gives 0 only where no possible position has a piece).
            if value > 0 and self.geometry.on_board(square):
                painter.fillRect(self.geometry.square_rect(square), heat_colour(value))

    def heat_labels(self, size: int) -> list[tuple[Cell, QRectF, Qt.AlignmentFlag, str, QFont]]:
        """Where each heat value is written: (square, band, alignment, text, font). A band runs along the bottom of
        its square, clear of the flag badge (bottom left) and of the file letter (bottom right, on the bottom row);
        a number too wide for its band is written smaller, or not at all (its tooltip still says it), so a number
        never hides a coordinate."""
        if size < 36 or not self.heat_values:
            return []
        labels = []
        letter_row = self.geometry.ranks - 1
        normal = self._coordinate_font(size)
        for square, value in self.heat.items():
            if value <= 0 or not self.geometry.on_board(square):
                continue
            rect = QRectF(self.geometry.square_rect(square))
            band = QRectF(rect.left(), rect.bottom() - size * 0.26, rect.width(), size * 0.24)
            if square in self.flags:
                band.adjust(size * 0.31, 0, 0, 0)
            if self.coordinates and self.geometry.cell(square)[1] == letter_row:
                band.adjust(0, 0, -size * 0.2, 0)
            text, font, fits = percent(value), normal, True
            while QFontMetricsF(font).horizontalAdvance(text) + 2 > band.width():
                if font.pixelSize() <= 7:
                    fits = False
                    break
                font = QFont(font)
                font.setPixelSize(font.pixelSize() - 1)
            if fits:
                labels.append((square, band, Qt.AlignmentFlag.AlignCenter, text, font))
        return labels

    def _paint_heat_values(self, painter: QPainter, size: int) -> None:
        for _square, band, align, text, font in self.heat_labels(size):
            painter.setFont(font)
            painter.setPen(QColor(255, 255, 255, 200))  # a light halo keeps the text readable on any square
            painter.drawText(band.translated(1, 1), align, text)
            painter.setPen(QColor(60, 0, 0))
            painter.drawText(band, align, text)

    def _paint_flags(self, painter: QPainter, size: int) -> None:
        radius = max(5.0, size * 0.13)
        font = QFont(self.font)
        font.setPixelSize(max(8, round(radius * 1.5)))
        font.setBold(True)
        painter.setFont(font)
        for square in self.flags:
            if not self.geometry.on_board(square):
                continue
            rect = QRectF(self.geometry.square_rect(square))
            painter.strokePath(self._rounded(rect, size * 0.03, size * 0.06), QPen(_with_alpha(_FLAG, 0.85),
                                                                                   max(1.5, size * 0.035)))
            centre = QPointF(rect.left() + radius + size * 0.04, rect.bottom() - radius - size * 0.04)
            painter.setPen(QPen(QColor("white"), max(1.0, size * 0.015)))
            painter.setBrush(_FLAG)
            painter.drawEllipse(centre, radius, radius)
            painter.setPen(QColor("white"))
            painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
                             Qt.AlignmentFlag.AlignCenter, "!")
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_drag(self, painter: QPainter, size: int, dpr: float) -> None:
        if not self.dragging or self.drag_from is None:
            return
        letter = self.pieces.get(self.drag_from)
        if letter is None:
            return
        pixmap = pieces.piece_pixmap(letter, size, dpr)
        painter.drawPixmap(
            QPointF(self.drag_pos.x() - size / 2, self.drag_pos.y() - size / 2),
            pixmap,
        )
