"""Off-board zones beside the board: where they go (layout), how they look (painting), what is under a click.

The board widget hands this module the scene's zones (:mod:`app.games.scene`) and its own size; :func:`lay_out`
shares the widget between the board and bands of zones above, below, left and right of it, all measured in
squares so that cards and counters grow with the board. Zones sharing a side stand one after another, the first
nearest the board. With no zones the board gets the whole widget, exactly as it always did.

Counters stacked on squares (:class:`~app.games.scene.StackZone`) are drawn on the board by
:func:`paint_stacks`; they take no band.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QRadialGradient

from app.games.scene import (
    Card,
    CardRowZone,
    GridZone,
    HandZone,
    PileZone,
    ShownCard,
    Cell,
    StackZone,
    TrackZone,
    TrayZone,
    Zone,
    zone_bands,
)
from app.ui import cards, pieces
from app.ui.heat import heat_colour

__all__ = ["PlacedZone", "ZoneLayout", "card_name", "describe_item", "describe_zone", "item_at", "lay_out",
           "paint_stacks", "paint_zones", "row_head"]

# Sizes in squares.
_PAD = 0.12  # around a band's contents
_LABEL = 0.34  # a label's line
_CARD_W = 0.9
_CARD_H = _CARD_W * cards.CARD_RATIO
_RAISE = 0.16  # how far a selected card stands out of its hand
_TOKEN = 0.62  # a track position or a captured piece
_CELL = 0.42  # a deduction grid's cell
_ROW_HEAD = 0.9  # a deduction grid's row headings, at most (short headings take less: see _row_head)
_GAP = 0.08  # between items that fit side by side
_SIDE_LABEL = 1.15  # the least width of a labelled band left or right of the board

_TEXT = QColor("#303030")  # on the light faces of cards and track positions
_SELECTED = QColor(20, 85, 30, 200)
_COIN_LIGHT, _COIN_DARK = QColor("#ffe082"), QColor("#c49000")


@dataclass(frozen=True)
class PlacedZone:
    """A zone with its band and the rectangle of each of its items, in widget pixels."""

    zone: Zone
    band: QRectF
    items: tuple[QRectF, ...]


@dataclass(frozen=True)
class ZoneLayout:
    """The board's rectangle, its square size, and every zone that takes a band."""

    board: QRect
    square: int
    zones: tuple[PlacedZone, ...]


def row_head(zone: GridZone) -> float:
    """The width of a grid's row headings, in squares: room for the longest, at most :data:`_ROW_HEAD` (a grid
    headed by single letters, K Q R B N, gives the board the room it does not need)."""
    longest = max((len(heading) for heading in zone.rows), default=0)
    return min(_ROW_HEAD, 0.22 + 0.12 * longest)


def _item_size(zone: Zone) -> tuple[float, float]:
    """One item's width and height in squares (a grid's whole table)."""
    if isinstance(zone, (HandZone, CardRowZone, PileZone)):
        return _CARD_W, _CARD_H
    if isinstance(zone, GridZone):
        return row_head(zone) + _CELL * len(zone.columns), _CELL * (len(zone.rows) + 1)
    return _TOKEN, _TOKEN


def _thickness(zone: Zone) -> float:
    """How deep the zone's band is, in squares, across its side of the board."""
    width, height = _item_size(zone)
    label = _LABEL if zone.label else 0.0
    raise_room = _RAISE if isinstance(zone, HandZone) else 0.0
    if zone.place in ("above", "below"):
        return 2 * _PAD + label + height + raise_room
    # A side band is as wide as its items, and wide enough for a short label over them.
    return max(2 * _PAD + width + raise_room, _SIDE_LABEL if zone.label else 0.0)


def banded(zones: Sequence[Zone]) -> list[Zone]:
    """The zones that take a band beside the board (all but counters on squares)."""
    return [zone for zone in zones if not isinstance(zone, StackZone)]


def _band_thickness(band: Sequence[Zone]) -> float:
    """How deep a band is: as deep as the deepest of the zones standing side by side in it."""
    return max(_thickness(zone) for zone in band)


def _length(zone: Zone) -> float:
    """How long a zone would like to be along its side of the board, in squares (for zones sharing a band)."""
    width, height = _item_size(zone)
    across = zone.place in ("above", "below")
    if isinstance(zone, GridZone):
        return 2 * _PAD + (width if across else height + (_LABEL if zone.label else 0.0))
    count = max(1, zone.item_count())
    extent = (width if across else height) * count + _GAP * (count - 1)
    return max(2 * _PAD + extent + (0.0 if across or not zone.label else _LABEL), _SIDE_LABEL)


def extra_squares(zones: Sequence[Zone]) -> tuple[float, float]:
    """How many squares' worth of width and height the zones add to the board."""
    bands = zone_bands(zones)
    width = sum(_band_thickness(band) for band in bands if band[0].place in ("left", "right"))
    height = sum(_band_thickness(band) for band in bands if band[0].place in ("above", "below"))
    return width, height


def lay_out(zones: Sequence[Zone], files: int, ranks: int, width: int, height: int,
            flipped: bool = False) -> ZoneLayout:
    """Shares a ``width`` x ``height`` widget between a ``files`` x ``ranks`` board and the zones' bands (a grid
    whose columns go ``along_files`` runs right to left when the board is ``flipped``)."""
    extra_w, extra_h = extra_squares(zones)
    size = max(1, int(min(width / (files + extra_w), height / (ranks + extra_h))))
    bands = zone_bands(zones)
    left = sum(_band_thickness(band) for band in bands if band[0].place == "left") * size
    above = sum(_band_thickness(band) for band in bands if band[0].place == "above") * size
    block_w, block_h = (files + extra_w) * size, (ranks + extra_h) * size
    board = QRect(round((width - block_w) / 2 + left), round((height - block_h) / 2 + above), files * size,
                  ranks * size)
    placed: dict[int, PlacedZone] = {}
    reached = {"above": float(board.top()), "below": float(board.bottom() + 1), "left": float(board.left()),
               "right": float(board.right() + 1)}
    for band_zones in bands:
        place = band_zones[0].place
        depth = _band_thickness(band_zones) * size
        if place == "above":
            band = QRectF(board.left(), reached["above"] - depth, board.width(), depth)
            reached["above"] -= depth
        elif place == "below":
            band = QRectF(board.left(), reached["below"], board.width(), depth)
            reached["below"] += depth
        elif place == "left":
            band = QRectF(reached["left"] - depth, board.top(), depth, board.height())
            reached["left"] -= depth
        else:
            band = QRectF(reached["right"], board.top(), depth, board.height())
            reached["right"] += depth
        for zone, part in zip(band_zones, _shared(band_zones, band, size)):
            placed[id(zone)] = PlacedZone(zone, part, _items(zone, part, size, flipped))
    return ZoneLayout(board, size, tuple(placed[id(zone)] for zone in banded(zones)))


def _shared(band_zones: Sequence[Zone], band: QRectF, size: int) -> list[QRectF]:
    """A band shared out along the board's edge among the zones standing side by side in it: each as long as it
    would like; if together they are too long, the zones of several items (a hand, a line of cards: their items
    overlap) are shortened alike and a zone of one item (a pile) keeps its length, so that its card and label
    stay whole (all alike if the one-item zones alone are too long). A zone alone gets the whole band."""
    if len(band_zones) == 1:
        return [band]
    across = band_zones[0].place in ("above", "below")
    lengths = [_length(zone) * size for zone in band_zones]
    room = band.width() if across else band.height()
    fixed = sum(length for zone, length in zip(band_zones, lengths) if zone.item_count() <= 1)
    flexible = sum(lengths) - fixed
    if sum(lengths) <= room:
        scales = [1.0] * len(lengths)
    elif flexible > 0 and fixed < room:
        shrink = (room - fixed) / flexible
        scales = [1.0 if zone.item_count() <= 1 else shrink for zone in band_zones]
    else:
        scales = [room / sum(lengths)] * len(lengths)
    parts, start = [], band.left() if across else band.top()
    for length, scale in zip(lengths, scales):
        length *= scale
        parts.append(QRectF(start, band.top(), length, band.height()) if across
                     else QRectF(band.left(), start, band.width(), length))
        start += length
    return parts


def _items(zone: Zone, band: QRectF, size: int, flipped: bool = False) -> tuple[QRectF, ...]:
    """Each item's rectangle: in a row along the band, overlapping when there are too many to fit."""
    pad, label = _PAD * size, (_LABEL * size if zone.label else 0.0)
    inner = band.adjusted(pad, pad + label, -pad, -pad)
    width, height = (w * size for w in _item_size(zone))
    if isinstance(zone, GridZone):
        table = QRectF(inner.left(), inner.top(), width, height)
        head, cell = row_head(zone) * size, _CELL * size
        columns = len(zone.columns)
        mirrored = flipped and zone.along_files  # the board turned: its files, and so these columns, run backwards
        return tuple(QRectF(table.left() + head + (columns - 1 - column if mirrored else column) * cell,
                            table.top() + (row + 1) * cell, cell, cell)
                     for row in range(len(zone.rows)) for column in range(columns))
    count = zone.item_count()
    if count == 0:
        return ()
    across = zone.place in ("above", "below")
    length = inner.width() if across else inner.height()
    extent = width if across else height
    step = extent + _GAP * size
    if count > 1 and step * (count - 1) + extent > length:
        step = max(1.0, (length - extent) / (count - 1))  # overlap, each item still showing its corner
    raise_room = _RAISE * size if isinstance(zone, HandZone) else 0.0
    rects = []
    for index in range(count):
        if across:
            rect = QRectF(inner.left() + index * step, inner.top() + raise_room, width, height)
        else:
            rect = QRectF(inner.left() + raise_room, inner.top() + index * step, width, height)
        if isinstance(zone, HandZone) and index in zone.selected:
            # A chosen card stands out towards the board.
            towards = {"above": (0.0, raise_room), "below": (0.0, -raise_room), "left": (raise_room, 0.0),
                       "right": (-raise_room, 0.0)}[zone.place]
            rect.translate(*towards)
        rects.append(rect)
    return tuple(rects)


def item_at(layout: ZoneLayout, pos: QPointF) -> tuple[str, int] | None:
    """The ``(zone id, item index)`` under ``pos``, the item drawn on top where cards overlap; None if none."""
    for placed in reversed(layout.zones):
        if not placed.band.contains(pos) and not any(r.contains(pos) for r in placed.items):
            continue
        for index in reversed(range(len(placed.items))):
            if placed.items[index].contains(pos):
                return placed.zone.id, index
    return None


_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card_name(card: ShownCard) -> str:
    """``"Queen of spades"``, or ``"a card face down"``."""
    if card is None:
        return "a card face down"
    return f"{_RANK_NAMES.get(card.rank, card.rank)} of {_SUIT_NAMES[card.suit]}"


def describe_item(zone: Zone, index: int) -> str:
    """A tooltip's words for one item of a zone."""
    prefix = f"{zone.label}: " if zone.label else ""
    if isinstance(zone, (HandZone, CardRowZone)) and 0 <= index < len(zone.cards):
        return prefix + card_name(zone.cards[index])
    if isinstance(zone, PileZone):
        top = f", {card_name(zone.top)} on top" if zone.top is not None and zone.count else ""
        return prefix + f"{zone.count} card{'s' if zone.count != 1 else ''}{top}"
    if isinstance(zone, TrackZone) and 0 <= index < len(zone.positions):
        here = " (the marker is here)" if zone.marker == index else ""
        return prefix + f"position {zone.positions[index]}{here}"
    if isinstance(zone, TrayZone) and 0 <= index < len(zone.pieces):
        return prefix + pieces.piece_name(zone.pieces[index])
    if isinstance(zone, GridZone) and zone.columns and 0 <= index < zone.item_count():
        row, column = divmod(index, len(zone.columns))
        said = [text for text in (zone.marks[row][column], zone.note(row, column)) if text]
        if zone.shade(row, column) == 0.0:
            said.append("impossible")
        if zone.flag(row, column):
            said.append(f"contradicted: {zone.flag(row, column)}")
        return prefix + f"{zone.rows[row]} / {zone.columns[column]}" + (f": {', '.join(said)}" if said else "")
    return prefix.rstrip(": ")


def describe_zone(zone: Zone) -> str:
    """One sentence saying what a zone shows (for screen readers: the same things the pixels show)."""
    name = zone.label or zone.id
    if isinstance(zone, (HandZone, CardRowZone)):
        return f"{name}: {', '.join(card_name(card) for card in zone.cards) or 'no cards'}."
    if isinstance(zone, PileZone):
        return describe_item(zone, 0) + "." if zone.label else f"{name}: " + describe_item(zone, 0) + "."
    if isinstance(zone, TrackZone):
        where = zone.positions[zone.marker] if zone.marker is not None else "off the track"
        return f"{name}: the marker on {where}."
    if isinstance(zone, TrayZone):
        return f"{name}: {', '.join(pieces.piece_name(letter) for letter in zone.pieces) or 'nothing'}."
    if isinstance(zone, GridZone):
        return f"{name}: a grid of {len(zone.rows)} rows and {len(zone.columns)} columns."
    if isinstance(zone, StackZone):
        heights = ", ".join(f"{chr(97 + file)}{rank + 1} {height}" for (file, rank), height in zone.stacks)
        return f"{name}: counters {heights or 'none'}."
    return f"{name}."


# ---------------------------------------------------------------------------------------------------- painting


def _font(base: QFont, pixels: float, bold: bool = True) -> QFont:
    font = QFont(base)
    font.setPixelSize(max(8, round(pixels)))
    font.setBold(bold)
    return font


CardSlide = tuple[ShownCard, QRectF, QRectF, str, int]
"""A card on its way between zones: its face (None: a back), where it was, where it goes, and the zone id and
item index it goes to (not drawn there until it arrives)."""


def _held_cards(placed: PlacedZone) -> tuple[list[ShownCard], Sequence[QRectF]]:
    """A zone's cards and the rectangle each is drawn in (a pile: its count, all in the pile's one rectangle)."""
    zone = placed.zone
    if isinstance(zone, (HandZone, CardRowZone)):
        return list(zone.cards), placed.items
    if isinstance(zone, PileZone):
        return [zone.top] * zone.count, [placed.items[0]] * zone.count
    return [], ()


def moved_card(old: ZoneLayout, new: ZoneLayout) -> CardSlide | None:
    """The card that went from one zone to another between two layouts: when exactly one zone holds one card
    fewer and exactly one other zone one card more (a card played, drawn or discarded); None otherwise (a
    deal, a new game, another seat's view).

    It leaves from the first place where the losing zone's cards differ, and arrives at the first place where
    the gaining zone's do (the end of a hand, the top of a pile).
    """
    before = {placed.zone.id: _held_cards(placed) for placed in old.zones}
    after = {placed.zone.id: _held_cards(placed) for placed in new.zones}
    if set(before) != set(after):
        return None
    changed = {zone_id: len(after[zone_id][0]) - len(before[zone_id][0]) for zone_id in after
               if after[zone_id][0] != before[zone_id][0]}
    losing = [zone_id for zone_id, change in changed.items() if change == -1]
    gaining = [zone_id for zone_id, change in changed.items() if change == 1]
    if len(losing) != 1 or len(gaining) != 1 or len(changed) != 2:
        return None

    def first_difference(longer: list[ShownCard], shorter: list[ShownCard]) -> int:
        return next((index for index, card in enumerate(shorter) if card != longer[index]), len(shorter))

    (old_cards, old_rects), (new_cards, new_rects) = before[losing[0]], after[gaining[0]]
    leaving = first_difference(old_cards, after[losing[0]][0])
    arriving = first_difference(new_cards, before[gaining[0]][0])
    return new_cards[arriving], old_rects[leaving], new_rects[arriving], gaining[0], arriving


def paint_card_slide(painter: QPainter, slide: CardSlide, progress: float, dpr: float) -> None:
    """The card of ``slide`` drawn ``progress`` (0 to 1, eased by the caller) of the way."""
    card, start, end, _zone_id, _index = slide
    rect = QRectF(start.x() + (end.x() - start.x()) * progress, start.y() + (end.y() - start.y()) * progress,
                  start.width() + (end.width() - start.width()) * progress,
                  start.height() + (end.height() - start.height()) * progress)
    _paint_card(painter, card, rect, dpr)


def paint_zones(painter: QPainter, layout: ZoneLayout, base_font: QFont, dpr: float,
                ink: QColor = _TEXT, arriving: tuple[str, int] | None = None) -> None:
    """Draws every banded zone: a faint panel, its label, its items. ``ink`` is the colour of words written on
    the widget's background (the window's text colour, so labels stay readable on a dark desktop too).
    ``arriving`` (zone id, item index) is a card still on its way there: its place is left empty."""
    panel = QColor(ink)
    panel.setAlpha(16)  # a tint of the text colour: darker on a light window, lighter on a dark one
    size = layout.square
    for placed in layout.zones:
        zone, band = placed.zone, placed.band
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(panel)
        inset = max(1.0, size * 0.03)
        painter.drawRoundedRect(band.adjusted(inset, inset, -inset, -inset), size * 0.08, size * 0.08)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if zone.label:
            pad = _PAD * size
            painter.setFont(_font(base_font, size * 0.2))
            painter.setPen(ink)
            label = QRectF(band.left() + pad, band.top() + pad * 0.6, band.width() - 2 * pad, _LABEL * size)
            text = painter.fontMetrics().elidedText(zone.label, Qt.TextElideMode.ElideRight, int(label.width()))
            painter.drawText(label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        if isinstance(zone, (HandZone, CardRowZone)):
            chosen = zone.selected if isinstance(zone, HandZone) else ()
            skip = arriving[1] if arriving is not None and arriving[0] == zone.id else None
            _paint_cards(painter, zone.cards, placed.items, chosen, size, dpr, skip)
        elif isinstance(zone, PileZone):
            if arriving is not None and arriving[0] == zone.id:  # the pile as it was, one card lower
                zone = replace(zone, count=zone.count - 1, top=None if zone.count == 1 else zone.top)
            _paint_pile(painter, zone, placed.items[0], base_font, size, dpr)
        elif isinstance(zone, TrackZone):
            _paint_track(painter, zone, placed.items, base_font, size)
        elif isinstance(zone, TrayZone):
            for letter, rect in zip(zone.pieces, placed.items):
                painter.drawPixmap(rect.topLeft(), pieces.piece_pixmap(letter, round(rect.width()), dpr))
        elif isinstance(zone, GridZone):
            _paint_grid(painter, zone, placed.items, base_font, size, ink)


def _paint_card(painter: QPainter, card: ShownCard, rect: QRectF, dpr: float) -> None:
    code = card.code if isinstance(card, Card) else None
    painter.drawPixmap(rect.topLeft(), cards.card_pixmap(code, round(rect.width()), dpr))


def _paint_cards(painter: QPainter, shown: Sequence[ShownCard], rects: Sequence[QRectF], selected: Sequence[int],
                 size: int, dpr: float, skip: int | None = None) -> None:
    for index, (card, rect) in enumerate(zip(shown, rects)):
        if index == skip:
            continue
        _paint_card(painter, card, rect, dpr)
        if index in selected:
            painter.setPen(QPen(_SELECTED, max(2.0, size * 0.05)))
            painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), size * 0.08, size * 0.08)


def _badge(painter: QPainter, centre: QPointF, text: str, base_font: QFont, size: int, fill: QColor) -> None:
    """A round number badge (a pile's count, a stack's height)."""
    painter.setFont(_font(base_font, size * 0.2))
    metrics = painter.fontMetrics()
    height = metrics.height() + 2
    width = max(height, metrics.horizontalAdvance(text) + height * 0.6)
    pill = QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height)
    painter.setPen(QPen(QColor("white"), max(1.0, size * 0.02)))
    painter.setBrush(fill)
    painter.drawRoundedRect(pill, height / 2, height / 2)
    painter.setPen(QColor("white"))
    painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _paint_pile(painter: QPainter, zone: PileZone, rect: QRectF, base_font: QFont, size: int, dpr: float) -> None:
    if zone.count == 0:
        pen = QPen(QColor(0, 0, 0, 90), max(1.0, size * 0.025), Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), size * 0.08, size * 0.08)
    else:
        # A card or two peeking out below the top one says "a pile" before the count is read.
        shift = max(1.0, size * 0.03)
        for depth in range(min(2, zone.count - 1), 0, -1):
            _paint_card(painter, None, rect.translated(depth * shift, depth * shift), dpr)
        _paint_card(painter, zone.top, rect, dpr)
    _badge(painter, QPointF(rect.right() - size * 0.12, rect.bottom() - size * 0.12), str(zone.count), base_font,
           size, QColor("#37474f"))


def _paint_track(painter: QPainter, zone: TrackZone, rects: Sequence[QRectF], base_font: QFont, size: int) -> None:
    if len(rects) > 1:  # the path the marker moves along, behind the positions
        painter.setPen(QPen(QColor(0, 0, 0, 70), max(1.5, size * 0.04)))
        painter.drawLine(rects[0].center(), rects[-1].center())
    painter.setFont(_font(base_font, size * 0.19))
    for index, (text, rect) in enumerate(zip(zone.positions, rects)):
        circle = rect.adjusted(size * 0.05, size * 0.05, -size * 0.05, -size * 0.05)
        if index == zone.marker:
            gradient = QRadialGradient(circle.center() - QPointF(circle.width() * 0.15, circle.height() * 0.15),
                                       circle.width() * 0.6)
            gradient.setColorAt(0.0, _COIN_LIGHT)
            gradient.setColorAt(1.0, _COIN_DARK)
            painter.setBrush(gradient)
            painter.setPen(QPen(QColor("#7a5a00"), max(1.5, size * 0.035)))
        else:
            painter.setBrush(QColor("#fafafa"))
            painter.setPen(QPen(QColor("#8a8a8a"), max(1.0, size * 0.025)))
        painter.drawEllipse(circle)
        painter.setPen(_TEXT)
        painter.drawText(circle, Qt.AlignmentFlag.AlignCenter, text)
    painter.setBrush(Qt.BrushStyle.NoBrush)


_IMPOSSIBLE = QColor("#c9c9c9")  # a grid cell ruled out: greyed, and crossed by fine hatching
_FLAG = QColor("#e53935")  # as the board's flags on contradicted pieces


def _paint_grid(painter: QPainter, zone: GridZone, rects: Sequence[QRectF], base_font: QFont, size: int,
                ink: QColor) -> None:
    if not rects:
        return
    cell = _CELL * size
    painter.setFont(_font(base_font, size * 0.17))
    painter.setPen(ink)
    first = rects[0]
    left = min(rect.left() for rect in rects[:len(zone.columns)])  # (the columns may run right to left)
    for column, heading in enumerate(zone.columns):
        painter.drawText(QRectF(rects[column].left(), first.top() - cell, cell, cell),
                         Qt.AlignmentFlag.AlignCenter, heading)
    head = row_head(zone) * size
    for row, heading in enumerate(zone.rows):
        box = QRectF(left - head, first.top() + row * cell, head - size * 0.05, cell)
        text = painter.fontMetrics().elidedText(heading, Qt.TextElideMode.ElideRight, int(box.width()))
        painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
    mark_font, note_font = _font(base_font, size * 0.24), _font(base_font, size * 0.115, bold=False)
    columns = len(zone.columns)
    for index, rect in enumerate(rects):
        row, column = divmod(index, columns)
        shade = zone.shade(row, column)
        painter.setPen(QPen(QColor("#9e9e9e"), 1))
        painter.setBrush(_IMPOSSIBLE if shade == 0.0 else QColor("#fdfdfd"))
        painter.drawRect(rect)
        if shade == 0.0:
            painter.fillRect(rect.adjusted(1, 1, 0, 0), QBrush(QColor(0, 0, 0, 50), Qt.BrushStyle.BDiagPattern))
        elif shade is not None and shade > 0:
            painter.fillRect(rect.adjusted(1, 1, 0, 0), heat_colour(shade))
        mark, note = zone.marks[row][column], zone.note(row, column)
        mark_box = rect.adjusted(0, 0, 0, -rect.height() * 0.3) if note else rect
        if mark:
            painter.setFont(mark_font)
            painter.setPen(QColor("#b71c1c") if mark.lower() in ("x", "\u00d7") else QColor("#1b5e20"))
            painter.drawText(mark_box, Qt.AlignmentFlag.AlignCenter, mark)
        if note:
            painter.setFont(note_font)
            painter.setPen(QColor("#202020"))
            note_box = QRectF(rect.left(), rect.bottom() - rect.height() * 0.42, rect.width(), rect.height() * 0.4)
            painter.drawText(note_box, Qt.AlignmentFlag.AlignCenter, note)
        if zone.flag(row, column):
            painter.setPen(QPen(_FLAG, max(2.0, size * 0.035)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))
            radius = max(3.5, cell * 0.16)
            centre = QPointF(rect.right() - radius - 1, rect.top() + radius + 1)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_FLAG)
            painter.drawEllipse(centre, radius, radius)
            painter.setFont(_font(base_font, radius * 1.6))
            painter.setPen(QColor("white"))
            painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
                             Qt.AlignmentFlag.AlignCenter, "!")
    painter.setBrush(Qt.BrushStyle.NoBrush)


def paint_stacks(painter: QPainter, zones: Sequence[Zone], square_rect: Callable[[Cell], QRect],
                 on_board: Callable[[Cell], bool], base_font: QFont, size: int) -> None:
    """Counters stacked on squares: a few discs in the square's lower left corner and the height on top (the
    corner no coordinate is written in)."""
    for zone in zones:
        if not isinstance(zone, StackZone):
            continue
        colour = QColor(zone.colour)
        for square, height in zone.stacks:
            if height <= 0 or not on_board(square):
                continue
            rect = QRectF(square_rect(square))
            disc_w, disc_h = size * 0.34, size * 0.11
            left, bottom = rect.left() + size * 0.05, rect.bottom() - size * 0.06
            painter.setPen(QPen(colour.darker(170), max(1.0, size * 0.02)))
            painter.setBrush(colour)
            for level in range(min(height, 4)):  # at most four discs: the number says the rest
                painter.drawEllipse(QRectF(left, bottom - disc_h - level * disc_h * 0.55, disc_w, disc_h))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            top = bottom - disc_h - (min(height, 4) - 1) * disc_h * 0.55
            _badge(painter, QPointF(left + disc_w / 2, top - size * 0.1), str(height), base_font, size,
                   colour.darker(200))
