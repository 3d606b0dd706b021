"""The board's off-board zones (hands, piles, tracks, grids): where they are laid out for the widget's size,
what lies under a click or under the keyboard's zone cursor, and what they are called.

:mod:`app.ui.zones` does the laying out, drawing and words; this part keeps the scene's zones and their layout
for the widget's last size. :mod:`app.ui.zones` (with the card images it needs) is imported only when a scene
has zones: the window's first frame has none, and the start-up budget has no room for it. Those deferred imports
are marked "deferred for start-up".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF, QRectF

from app.ui.board_model import BoardState

if TYPE_CHECKING:
    from app.games.scene import Zone
    from app.ui.zones import CardSlide, ZoneLayout

__all__ = ["BoardZones", "ZoneItem", "extra_squares"]

ZoneItem = tuple[str, int]
"""An item beside the board: its zone's id and its index in the zone."""


def extra_squares(zones: Sequence[Zone]) -> tuple[float, float]:
    """The squares of width and height off-board zones add to the board."""
    if not zones:
        return 0.0, 0.0
    from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
    return zone_parts.extra_squares(zones)


class BoardZones:
    """The scene's zones beside the board, and their layout for the last widget size asked about."""

    def __init__(self, state: BoardState) -> None:
        self._state = state
        self.zones: list[Zone] = []
        self._layout: tuple[tuple[int, int, bool], ZoneLayout] | None = None

    def differs(self, zones: Sequence[Zone]) -> bool:
        """Whether ``zones`` differ from the zones kept; their ids must differ from one another (ValueError)."""
        ids = [zone.id for zone in zones]
        if len(set(ids)) != len(ids):
            raise ValueError(f"zone ids must differ: {', '.join(ids)}")
        return list(zones) != self.zones

    def replace(self, zones: Iterable[Zone]) -> None:
        """Keeps these zones (laid out again when next asked)."""
        self.zones, self._layout = list(zones), None

    def clear(self) -> None:
        """No zones (a new board size)."""
        self.zones, self._layout = [], None

    def layout(self, width: int, height: int) -> ZoneLayout | None:
        """Where the board and each zone go in a ``width`` x ``height`` widget; None when there are no zones."""
        if not self.zones:
            return None
        state = self._state
        key = (width, height, state.flipped)
        if self._layout is None or self._layout[0] != key:
            from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
            self._layout = key, zone_parts.lay_out(self.zones, state.files, state.ranks, width, height,
                                                   state.flipped)
        return self._layout[1]

    @staticmethod
    def moved_card(before: ZoneLayout, after: ZoneLayout | None) -> CardSlide | None:
        """The card that went from one zone to another between two layouts, if exactly one did."""
        if after is None:
            return None
        from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
        return zone_parts.moved_card(before, after)

    @staticmethod
    def item_at(layout: ZoneLayout | None, pos: QPoint | QPointF) -> ZoneItem | None:
        """The item of a zone under a widget position, or None (the hit-test of a click beside the board)."""
        if layout is None:
            return None
        from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
        return zone_parts.item_at(layout, QPointF(pos))

    @staticmethod
    def items(layout: ZoneLayout | None) -> list[ZoneItem]:
        """Every item beside the board, in the order the zones are laid out (the keyboard's order)."""
        if layout is None:
            return []
        return [(placed.zone.id, index) for placed in layout.zones for index in range(len(placed.items))]

    @staticmethod
    def item_rect(layout: ZoneLayout | None, item: ZoneItem | None) -> QRectF | None:
        """Where an item is drawn, or None when it is not (any more)."""
        if item is None or layout is None:
            return None
        for placed in layout.zones:
            if placed.zone.id == item[0] and item[1] < len(placed.items):
                return placed.items[item[1]]
        return None

    def describe_item(self, item: ZoneItem) -> str:
        """What an item is, in words (a tooltip, a screen reader)."""
        zone = next(z for z in self.zones if z.id == item[0])
        from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
        return zone_parts.describe_item(zone, item[1])

    def description(self) -> str:
        """Every zone in words, each after a space (empty with no zones): the end of the board's description."""
        if not self.zones:
            return ""
        from app.ui import zones as zone_parts  # deferred for start-up (see the module's note)
        return "".join(" " + zone_parts.describe_zone(zone) for zone in self.zones)
