"""The player's own marks on a board, drawn with the right button: arrows from square to square and circled
squares, and the one being drawn while the button is down. Pressing and letting go on one square toggles its
circle; on another square, the arrow between them. The marks are the player's notes, not moves.

>>> notes = Annotations()
>>> notes.begin((4, 1)); notes.follow((4, 3)), notes.draft
(True, ((4, 1), (4, 3)))
>>> marks = notes.finish((4, 3)); marks, notes.draft
(([((4, 1), (4, 3))], []), None)
>>> notes.set(*marks), notes.arrows
(True, [((4, 1), (4, 3))])
>>> notes.set(*notes.finish_toggle((4, 1), (4, 3))), notes.arrows  # the same arrow again takes it away
(True, [])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.ui.board_geometry import Cell

__all__ = ["Annotations", "Arrow"]

Arrow = tuple[Cell, Cell]
"""From a square to another."""


@dataclass
class Annotations:
    """The arrows and circles drawn, and the draft (``draft_from`` / ``draft_to``) while the button is down."""

    arrows: list[Arrow] = field(default_factory=list)
    circles: list[Cell] = field(default_factory=list)
    draft_from: Cell | None = None
    draft_to: Cell | None = None

    @property
    def draft(self) -> Arrow | None:
        """The arrow (or, both ends on one square, the circle) being drawn now."""
        if self.draft_from is None or self.draft_to is None:
            return None
        return self.draft_from, self.draft_to

    def set(self, arrows: Iterable[Arrow], circles: Iterable[Cell]) -> bool:
        """Replaces the marks (squares given as any pair of numbers); True if they changed."""
        new_arrows = [((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))) for a, b in arrows]
        new_circles = [(int(s[0]), int(s[1])) for s in circles]
        if (new_arrows, new_circles) == (self.arrows, self.circles):
            return False
        self.arrows, self.circles = new_arrows, new_circles
        return True

    def begin(self, square: Cell) -> None:
        """The right button went down on ``square``."""
        self.draft_from = self.draft_to = square

    def follow(self, square: Cell | None) -> bool:
        """The pointer moved over ``square`` (None: off the board); True when the draft changed."""
        if self.draft_from is None or square == self.draft_to:
            return False
        self.draft_to = square
        return True

    def cancel(self) -> None:
        """Forgets the draft."""
        self.draft_from = self.draft_to = None

    def finish(self, square: Cell | None) -> tuple[list[Arrow], list[Cell]] | None:
        """The button came up over ``square``: the marks with the draft's arrow or circle toggled, or None when
        there was no draft or the pointer left the board. The draft is forgotten either way; the marks stay as
        they are until :meth:`set` (the widget also announces the change)."""
        origin = self.draft_from
        self.cancel()
        if origin is None or square is None:
            return None
        return self.finish_toggle(origin, square)

    def finish_toggle(self, origin: Cell, square: Cell) -> tuple[list[Arrow], list[Cell]]:
        """The marks with the circle on ``square`` (``origin`` the same square) or the arrow toggled."""
        if square == origin:
            circles = [s for s in self.circles if s != square]
            if len(circles) == len(self.circles):
                circles.append(square)
            return list(self.arrows), circles
        arrow = (origin, square)
        arrows = [a for a in self.arrows if a != arrow]
        if len(arrows) == len(self.arrows):
            arrows.append(arrow)
        return arrows, list(self.circles)


def annotations_to_json(arrows: list[tuple[Cell, Cell]], circles: list[Cell]) -> list[Any]:
    """Arrows and circles as record notes: ``[{"arrow": [[4, 1], [4, 3]]}, {"circle": [3, 4]}]``."""
    return ([{"arrow": [list(a), list(b)]} for a, b in arrows] + [{"circle": list(c)} for c in circles])


def annotations_from_json(data: Any) -> tuple[list[tuple[Cell, Cell]], list[Cell]]:
    """The inverse of :func:`annotations_to_json`; anything malformed is skipped, never fatal."""
    arrows: list[tuple[Cell, Cell]] = []
    circles: list[Cell] = []

    def square(value: Any) -> Cell | None:
        if isinstance(value, list) and len(value) == 2 and all(type(v) is int and 0 <= v < 16 for v in value):
            return value[0], value[1]
        return None

    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict) and isinstance(item.get("arrow"), list) and len(item["arrow"]) == 2:
            ends = [square(end) for end in item["arrow"]]
            if ends[0] is not None and ends[1] is not None:
                arrows.append((ends[0], ends[1]))
        elif isinstance(item, dict):
            circle = square(item.get("circle"))
            if circle is not None:
                circles.append(circle)
    return arrows, circles
