"""Glides: a moved piece drawn on its way to its new square, and a card on its way from one zone to another.

A glide only draws: while pieces glide, the board's state (what a click means) is already the new one, so a glide
never delays input. :func:`moved_pieces` tells which pieces moved between two boards; :class:`Glides` times
them and the widget draws them at :meth:`Glides.progress` of the way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer

from app.ui.board_geometry import Cell

if TYPE_CHECKING:
    from app.ui.zones import CardSlide

__all__ = ["MOST_GLIDES", "FRAME_MS", "Glide", "Glides", "moved_pieces"]

MOST_GLIDES = 4
"""More pieces than this changing place at once is no move (a new game, another view): they are not animated."""
FRAME_MS = 15
"""How often a glide is drawn again, about once a frame."""

Glide = tuple[str, Cell, Cell]
"""A piece on its way: its letter, the square it left, the square it goes to."""


def moved_pieces(old: Mapping[Cell, str], new: Mapping[Cell, str]) -> list[Glide]:
    """The pieces that moved between two boards (letter, from, to): each piece that appeared on a square,
    matched with the nearest square the same piece left. Nothing when too much changed to be a move.

    >>> moved_pieces({(4, 1): "P", (6, 0): "N"}, {(4, 3): "P", (6, 0): "N"})
    [('P', (4, 1), (4, 3))]
    >>> moved_pieces({(4, 0): "K", (7, 0): "R"}, {(6, 0): "K", (5, 0): "R"})
    [('R', (7, 0), (5, 0)), ('K', (4, 0), (6, 0))]
    >>> moved_pieces({}, {(0, 0): "R"})
    []
    """
    left = {square: letter for square, letter in old.items() if new.get(square) != letter}
    arrived = [(square, letter) for square, letter in new.items() if old.get(square) != letter]
    if len(arrived) > MOST_GLIDES:
        return []
    glides = []
    for target, letter in sorted(arrived):
        origins = [square for square, piece in left.items() if piece == letter]
        if origins:
            origin = min(origins, key=lambda square: (abs(square[0] - target[0]) + abs(square[1] - target[1]),
                                                      square))
            del left[origin]
            glides.append((letter, origin, target))
    return glides


class Glides:
    """The pieces (and the card) on their way now, and the timer that redraws them until they arrive.

    ``owner`` parents the timer; ``redraw`` is called at every step and at the end; ``shown`` says whether the
    board is on screen (a board nobody sees does not animate).
    """

    def __init__(self, owner: QObject, ms: int, redraw: Callable[[], None], shown: Callable[[], bool]) -> None:
        self._owner = owner
        self._redraw = redraw
        self._shown = shown
        self.ms = max(0, int(ms))
        self.pieces: list[Glide] = []
        self.card_slide: CardSlide | None = None  # a card on its way from one zone to another
        self._started = 0.0
        self._timer: QTimer | None = None

    def animating(self) -> bool:
        """Whether a change now would glide (glides are on and the board is shown)."""
        return self.ms > 0 and self._shown()

    def set_ms(self, milliseconds: int) -> None:
        """How long a glide takes (0 turns animation off; a glide under way ends at once)."""
        self.ms = max(0, int(milliseconds))
        if not self.ms:
            self.end()

    def pieces_changed(self, old: Mapping[Cell, str], new: Mapping[Cell, str], seen_before: Iterable[Cell],
                       seen_now: Iterable[Cell], dropped: tuple[Cell, Cell] | None = None) -> None:
        """The board's pieces went from ``old`` to ``new``: the pieces that moved glide, except the one just
        ``dropped`` by a drag (already there) and any shown where it was last seen (``seen_before`` / ``seen_now``):
        nobody watched it on its way."""
        before, now = frozenset(seen_before), frozenset(seen_now)
        glides = moved_pieces(old, new) if self.animating() else []
        glides = [glide for glide in glides if (glide[1], glide[2]) != dropped
                  and glide[1] not in before and glide[2] not in now]
        if glides:
            self.start(glides)
        else:
            self.pieces = []  # a glide under way belonged to the pieces shown before (maybe another person's)

    def slide_card(self, slide: CardSlide | None) -> None:
        """A card goes from one zone to another (None: none does)."""
        self.card_slide = slide
        if slide is not None:
            self.start(self.pieces)

    def start(self, glides: list[Glide]) -> None:
        """Starts these glides (and the card slide, if one is set) now."""
        self.pieces = glides
        self._started = time.monotonic()
        if self._timer is None:
            self._timer = QTimer(self._owner)
            self._timer.setInterval(FRAME_MS)
            self._timer.setTimerType(Qt.TimerType.PreciseTimer)
            self._timer.timeout.connect(self._step)
        self._timer.start()

    def progress(self) -> float:
        """How far the glides under way have gone, from 0 to 1 (1 when none is under way)."""
        if not self.pieces and self.card_slide is None:
            return 1.0
        return min(1.0, (time.monotonic() - self._started) * 1000 / max(1, self.ms))

    def _step(self) -> None:
        if self.progress() >= 1.0:
            self.end()
        self._redraw()

    def end(self) -> None:
        """Every glide arrives now."""
        self.pieces = []
        self.card_slide = None
        if self._timer is not None:
            self._timer.stop()
        self._redraw()
