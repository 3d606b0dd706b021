"""The board widget: draws any rectangular board from what it is given, and turns input into requests.

:class:`BoardWidget` works like Lichess's chessground or Cute Chess's board: it knows
no chess rules. The window gives it the pieces a seat may see
(:meth:`BoardWidget.set_pieces`), the moves that seat may try
(:meth:`BoardWidget.set_move_targets`), highlights and :class:`Marker` s; the widget
draws them and reports what the player asks for with signals:

- ``moveRequested(from_sq, to_sq, promotion)``: a move by click-click or drag and
  drop; ``promotion`` is the letter chosen in the promotion chooser, or ``None``;
- ``senseRequested(square)``: a left click in sense mode (:meth:`BoardWidget.set_sense_mode`);
- ``squareClicked(square)``: any left press on a square, before anything else happens;
- ``annotationsChanged()``: the player's arrows and circles (right button) changed;
- ``zoneClicked(zone_id, index)``: a left click on an item of an off-board zone (a card of a hand, a pile, a
  position of a track, a cell of a deduction grid).

:meth:`BoardWidget.set_scene` gives it a whole :class:`~app.games.scene.BoardScene` at once, zones included;
the zones are laid out and drawn by :mod:`app.ui.zones` (cards by :mod:`app.ui.cards`).

Squares are ``(file, rank)`` tuples counted from 0: ``(0, 0)`` is a1, ``(4, 5)`` is
e6 on the 5x6 MinitChess board. Piece letters are FEN letters, uppercase for White.
A hidden enemy piece never reaches the widget, so it cannot be drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal, Slot
from PySide6.QtGui import (
    QBrush,
    QColor,
    QCursor,
    QFont,
    QHelpEvent,
    QHideEvent,
    QIcon,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPolygonF,
    QRadialGradient,
)
from PySide6.QtWidgets import QFrame, QSizePolicy, QToolButton, QToolTip, QVBoxLayout, QWidget

from app.games.scene import Zone
from app.ui import pieces
from app.ui import zones as zone_parts

if TYPE_CHECKING:
    from app.games.scene import BoardScene

__all__ = [
    "MARKER_KINDS",
    "THEMES",
    "BoardTheme",
    "BoardWidget",
    "Marker",
    "MoveTargets",
    "PromotionChooser",
    "Square",
    "SenseWindow",
    "clipped_window",
    "square_name",
]

Square = tuple[int, int]
"""``(file, rank)``, 0-based: file 0 is the a-file, rank 0 is the first rank."""

MoveTargets = dict[Square, dict[Square, list[str]]]
"""For each movable piece's square, its destinations and each destination's promotion letters."""

SenseWindow = Callable[[Square], list[Square]]
"""Given the hovered square, the squares a sense there would show."""

MARKER_KINDS = ("sense", "sense_old", "reveal", "lost", "captured")
"""What a :class:`Marker` can show (see :class:`Marker`)."""


def square_name(square: Square) -> str:
    """The algebraic name of a square.

    >>> square_name((4, 3)), square_name((0, 0))
    ('e4', 'a1')
    """
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def clipped_window(square: Square, files: int, ranks: int, radius: int = 1) -> list[Square]:
    """The ``(2 * radius + 1)``-square window centred on ``square``, clipped at the board edges.

    >>> clipped_window((0, 0), 8, 8)
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    file, rank = square
    return [
        (f, r)
        for f in range(max(0, file - radius), min(files, file + radius + 1))
        for r in range(max(0, rank - radius), min(ranks, rank + radius + 1))
    ]


class _MarkerLike(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def squares(self) -> Sequence[Square]: ...
    @property
    def label(self) -> str: ...
    @property
    def opacity(self) -> float: ...


@dataclass(frozen=True)
class Marker:
    """A group of squares to highlight, with an optional small label such as the turn ``"t12"``.

    ``kind`` is one of :data:`MARKER_KINDS`:

    - ``"sense"``: the latest sense window, outlined strongly (label in its top-right corner);
    - ``"sense_old"``: an older sense window, dashed and faded;
    - ``"reveal"``: squares where an enemy piece was seen;
    - ``"lost"``: squares where this seat lost a piece;
    - ``"captured"``: squares where this seat captured.

    ``opacity`` (0 to 1) fades the whole marker. Squares may be any sequence; they are
    stored as a tuple.

    >>> Marker("lost", [(4, 3)], "t12").squares
    ((4, 3),)
    """

    kind: str
    squares: tuple[Square, ...]
    label: str = ""
    opacity: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in MARKER_KINDS:
            raise ValueError(f"unknown marker kind {self.kind!r} (expected one of {', '.join(MARKER_KINDS)})")
        object.__setattr__(self, "squares", tuple((int(f), int(r)) for f, r in self.squares))
        object.__setattr__(self, "opacity", min(1.0, max(0.0, float(self.opacity))))


@dataclass(frozen=True)
class BoardTheme:
    """Square colours of a board theme (``#rrggbb``)."""

    name: str
    light: str
    dark: str


THEMES: dict[str, BoardTheme] = {
    theme.name: theme
    for theme in (
        BoardTheme("brown", "#f0d9b5", "#b58863"),
        BoardTheme("blue", "#dee3e6", "#8ca2ad"),
        BoardTheme("green", "#ffffdd", "#86a666"),
        BoardTheme("grey", "#e4e4e4", "#a8a8a8"),
    )
}
"""The themes :meth:`BoardWidget.set_theme` knows, by name."""

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
_MARKER_COLOURS = {"sense": _SENSE, "sense_old": _SENSE, "reveal": _REVEAL, "lost": _LOST, "captured": _CAPTURED}
_MARKER_WORDS = {
    "sense": "sensed",
    "sense_old": "sensed earlier",
    "reveal": "enemy piece seen",
    "lost": "piece lost",
    "captured": "captured",
}

# Hypotheses and inference.
_FLAG = QColor("#e53935")
_HEAT_LOW = QColor("#ffb300")  # amber: even the smallest chance stands out from both square colours
_HEAT_HIGH = QColor("#c62828")


def _heat_colour(value: float) -> QColor:
    """Pale yellow to deep red, more opaque as the value grows (its square root, so small chances still show)."""
    t = math.sqrt(min(1.0, max(0.0, value)))
    colour = QColor(
        round(_HEAT_LOW.red() + (_HEAT_HIGH.red() - _HEAT_LOW.red()) * t),
        round(_HEAT_LOW.green() + (_HEAT_HIGH.green() - _HEAT_LOW.green()) * t),
        round(_HEAT_LOW.blue() + (_HEAT_HIGH.blue() - _HEAT_LOW.blue()) * t),
    )
    colour.setAlphaF(0.34 + 0.3 * t)  # at most 0.64: pieces and ghosts must stay readable on top
    return colour


def _percent(value: float) -> str:
    """A chance as a short percentage: ``"<1%"``, ``"37%"``, ``"100%"``."""
    if 0 < value < 0.01:
        return "<1%"
    return f"{round(value * 100)}%"


_DRAG_THRESHOLD = 4  # pixels of movement before a press becomes a drag
_MIN_SQUARE = 20
_HINT_SQUARE = 64


def _with_alpha(colour: QColor, alpha: float) -> QColor:
    result = QColor(colour)
    result.setAlphaF(min(1.0, max(0.0, alpha)))
    return result


class PromotionChooser(QFrame):
    """A popup column of piece images; emits ``chosen(letter)`` or, on Escape or a click outside, ``cancelled()``.

    The letters emitted are the promotion choices given (``"q"``, ``"n"``, ...); the images
    show them in the moving side's colour. A choice can also be typed (``q``, ``r``, ``b``, ``n``).
    """

    chosen = Signal(str)
    cancelled = Signal()

    def __init__(
        self,
        choices: Sequence[str],
        white: bool,
        button_size: int,
        parent: QWidget | None = None,
        device_pixel_ratio: float = 1.0,
        upwards: bool = False,
    ) -> None:
        """``upwards`` lays the choices out bottom to top (the first one at the bottom)."""
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("promotionChooser")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setAccessibleName("Promotion")
        self._done = False
        self._choices = list(choices)
        self._buttons: dict[str, QToolButton] = {}
        radius = button_size // 2
        self.setStyleSheet(
            "#promotionChooser { background: #f4f4f4; border: 1px solid #7a7a7a; }"
            "QToolButton { border: none; border-radius: %dpx;"
            " background: qradialgradient(cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5,"
            " stop:0 #d8d8d8, stop:1 #9a9a9a); }"
            "QToolButton:hover, QToolButton:focus { border-radius: 4px;"
            " background: qradialgradient(cx:0.5, cy:0.5, radius:0.6, fx:0.5, fy:0.5,"
            " stop:0 #ffb347, stop:1 #d47800); }" % radius
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.setSpacing(3)
        icon_size = max(8, round(button_size * 0.92))
        for letter in reversed(self._choices) if upwards else self._choices:
            shown = letter.upper() if white else letter.lower()
            button = QToolButton(self)
            button.setObjectName(f"promote-{letter}")
            button.setIcon(QIcon(pieces.piece_pixmap(shown, icon_size, device_pixel_ratio)))
            button.setIconSize(QSize(icon_size, icon_size))
            button.setFixedSize(button_size, button_size)
            name = pieces.piece_name(shown).split()[-1]
            button.setToolTip(f"Promote to {name} ({letter.lower()})")
            button.setAccessibleName(f"Promote to {name}")
            button.clicked.connect(partial(self._choose, letter))
            layout.addWidget(button)
            self._buttons[letter] = button

    def buttons(self) -> dict[str, QToolButton]:
        """The button of each choice, by letter."""
        return dict(self._buttons)

    def choices(self) -> list[str]:
        """The promotion letters offered, in order."""
        return list(self._choices)

    def _choose(self, letter: str, _checked: bool = False) -> None:
        if self._done:
            return
        self._done = True
        self.chosen.emit(letter)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape cancels; the letter of a choice picks it."""
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self.close()
            return
        text = event.text().lower()
        for letter in self._choices:
            if text and text == letter.lower():
                event.accept()
                self._choose(letter)
                return
        super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """Closing without a choice (Escape, a click outside) cancels."""
        super().hideEvent(event)
        if not self._done:
            self._done = True
            self.cancelled.emit()


class BoardWidget(QWidget):
    """A rectangular chess board that draws what it is given and holds no chess rules.

    See the module documentation for the signals. The board is drawn as large as the
    widget allows, centred, with square squares.
    """

    moveRequested = Signal(object, object, object)
    senseRequested = Signal(object)
    squareClicked = Signal(object)
    annotationsChanged = Signal()
    zoneClicked = Signal(str, int)

    def __init__(self, parent: QWidget | None = None, files: int = 8, ranks: int = 8) -> None:
        super().__init__(parent)
        self._files = 0  # set_board_size below
        self._ranks = 0
        self._theme = THEMES["brown"]
        self._flipped = False
        self._coordinates = True
        self._pieces: dict[Square, str] = {}
        self._ghosts: dict[Square, str] = {}
        self._heat: dict[Square, float] = {}
        self._heat_values = False
        self._flags: dict[Square, str] = {}
        self._targets: MoveTargets = {}
        self._last_move: tuple[Square, Square] | None = None
        self._markers: list[Marker] = []
        self._interactive = True
        self._annotations_enabled = True
        self._arrows: list[tuple[Square, Square]] = []
        self._circles: list[Square] = []
        # Sense mode.
        self._sense_enabled = False
        self._sense_window: SenseWindow | None = None
        self._sense_hover: Square | None = None
        self._hover_window: list[Square] = []
        # Selection and dragging.
        self._selected: Square | None = None
        self._press_was_selected = False
        self._drag_from: Square | None = None
        self._drag_origin = QPointF()
        self._drag_pos = QPointF()
        self._dragging = False
        self._hover_square: Square | None = None
        # Right-button annotation in progress.
        self._right_from: Square | None = None
        self._right_to: Square | None = None
        # Promotion.
        self._chooser: PromotionChooser | None = None
        self._pending: tuple[Square, Square] | None = None
        # Off-board zones, and their layout for the last widget size asked about.
        self._zones: list[Zone] = []
        self._layout: tuple[tuple[int, int], zone_parts.ZoneLayout] | None = None

        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self.setAccessibleName("Chess board")
        self.set_board_size(files, ranks)

    # ------------------------------------------------------------------ geometry

    def board_size(self) -> tuple[int, int]:
        """``(files, ranks)``."""
        return self._files, self._ranks

    @Slot(int, int)
    def set_board_size(self, files: int, ranks: int) -> None:
        """Sets the number of files and ranks (1 to 26 files); a new size clears pieces, targets and marks."""
        if not (1 <= files <= 26 and 1 <= ranks <= 99):
            raise ValueError(f"unsupported board size {files}x{ranks}")
        if (files, ranks) != (self._files, self._ranks):
            self._files, self._ranks = files, ranks
            self._cancel_interaction()
            self._pieces.clear()
            self._ghosts.clear()
            self._heat.clear()
            self._flags.clear()
            self._targets = {}
            self._markers = []
            self._last_move = None
            self._arrows, self._circles = [], []
            self._zones, self._layout = [], None
            self._update_accessible()
            self.updateGeometry()
            self.update()

    def _hint(self, square: int) -> QSize:
        extra_w, extra_h = zone_parts.extra_squares(self._zones)
        return QSize(math.ceil((self._files + extra_w) * square), math.ceil((self._ranks + extra_h) * square))

    def sizeHint(self) -> QSize:
        """64 pixels a square (zones beside the board measured in squares too)."""
        return self._hint(_HINT_SQUARE)

    def minimumSizeHint(self) -> QSize:
        """20 pixels a square."""
        return self._hint(_MIN_SQUARE)

    def zone_layout(self) -> zone_parts.ZoneLayout | None:
        """Where the board and each off-board zone are drawn now; None when the scene has no zones."""
        if not self._zones:
            return None
        size = (self.width(), self.height())
        if self._layout is None or self._layout[0] != size:
            self._layout = size, zone_parts.lay_out(self._zones, self._files, self._ranks, *size)
        return self._layout[1]

    def square_size(self) -> int:
        """The side of a square in pixels (the largest that fits beside the zones; at least 1)."""
        layout = self.zone_layout()
        if layout is not None:
            return layout.square
        return max(1, min(self.width() // self._files, self.height() // self._ranks))

    def board_rect(self) -> QRect:
        """Where the board is drawn: centred in the widget (in what the zones leave of it)."""
        layout = self.zone_layout()
        if layout is not None:
            return QRect(layout.board)
        size = self.square_size()
        width, height = size * self._files, size * self._ranks
        return QRect((self.width() - width) // 2, (self.height() - height) // 2, width, height)

    def _cell(self, square: Square) -> tuple[int, int]:
        """The (column, row) on screen of a square, row 0 at the top."""
        file, rank = square
        if self._flipped:
            return self._files - 1 - file, rank
        return file, self._ranks - 1 - rank

    def _square_of_cell(self, column: int, row: int) -> Square:
        if self._flipped:
            return self._files - 1 - column, row
        return column, self._ranks - 1 - row

    def on_board(self, square: Square) -> bool:
        """Whether ``square`` lies on the board."""
        return 0 <= square[0] < self._files and 0 <= square[1] < self._ranks

    def square_rect(self, square: Square) -> QRect:
        """The pixel rectangle of ``square`` in widget coordinates."""
        size = self.square_size()
        origin = self.board_rect().topLeft()
        column, row = self._cell(square)
        return QRect(origin.x() + column * size, origin.y() + row * size, size, size)

    def square_at(self, pos: QPoint | QPointF) -> Square | None:
        """The square under a widget position, or ``None`` outside the board."""
        rect = self.board_rect()
        x, y = pos.x() - rect.x(), pos.y() - rect.y()
        if x < 0 or y < 0 or x >= rect.width() or y >= rect.height():
            return None
        size = self.square_size()
        return self._square_of_cell(int(x // size), int(y // size))

    # ------------------------------------------------------------------ appearance

    def theme(self) -> BoardTheme:
        """The current theme."""
        return self._theme

    @Slot(str)
    def set_theme(self, name: str) -> None:
        """Chooses a theme from :data:`THEMES` ("brown", "blue", "green", "grey")."""
        key = name.strip().lower()
        if key not in THEMES:
            raise ValueError(f"unknown board theme {name!r} (known: {', '.join(THEMES)})")
        self._theme = THEMES[key]
        self.update()

    def is_flipped(self) -> bool:
        """Whether Black is at the bottom."""
        return self._flipped

    @Slot(bool)
    def set_flipped(self, flipped: bool) -> None:
        """Puts Black at the bottom when ``flipped``."""
        if bool(flipped) != self._flipped:
            self._flipped = bool(flipped)
            self._close_chooser()
            self._update_sense_hover(None)
            self.update()

    @Slot()
    def flip(self) -> None:
        """Turns the board around."""
        self.set_flipped(not self._flipped)

    def coordinates_visible(self) -> bool:
        """Whether file letters and rank numbers are drawn."""
        return self._coordinates

    @Slot(bool)
    def set_coordinates_visible(self, visible: bool) -> None:
        """Shows or hides the coordinates drawn inside the edge squares."""
        self._coordinates = bool(visible)
        self.update()

    # ------------------------------------------------------------------ content

    def pieces(self) -> dict[Square, str]:
        """The pieces drawn, by square (a copy)."""
        return dict(self._pieces)

    def _checked_pieces(self, pieces_by_square: Mapping[Square, str], what: str) -> dict[Square, str]:
        result: dict[Square, str] = {}
        for square, letter in pieces_by_square.items():
            square = (int(square[0]), int(square[1]))
            if not self.on_board(square):
                raise ValueError(f"{what} on {square}, off the {self._files}x{self._ranks} board")
            if len(letter) != 1 or letter not in pieces.PIECE_LETTERS:
                raise ValueError(f"{what} {letter!r} on {square_name(square)} is not a piece letter")
            result[square] = letter
        return result

    def set_pieces(self, pieces_by_square: Mapping[Square, str]) -> None:
        """Sets the pieces to draw: FEN letters by square. Only these are drawn."""
        self._pieces = self._checked_pieces(pieces_by_square, "piece")
        self._update_accessible()
        self.update()

    def ghosts(self) -> dict[Square, str]:
        """The hypothesised pieces drawn translucent (a copy)."""
        return dict(self._ghosts)

    def set_ghosts(self, ghosts: Mapping[Square, str]) -> None:
        """Sets hypothesised pieces, drawn translucent in a dashed ring (hidden under a real piece)."""
        self._ghosts = self._checked_pieces(ghosts, "ghost")
        self.update()

    def heat(self) -> dict[Square, float]:
        """The heat map drawn: a value from 0 to 1 by square (a copy; empty when there is none)."""
        return dict(self._heat)

    def set_heat(self, values: Mapping[Square, float] | None, show_values: bool = False) -> None:
        """Tints squares by a value from 0 to 1 (say, the chance that an enemy piece stands there).

        The tint is drawn under the pieces, from pale yellow (unlikely) to red (likely);
        squares below 0.5% are left plain. ``None`` or an empty mapping removes the map.
        ``show_values`` also writes each value as a percentage when squares are large
        enough. Values outside 0 to 1 are clipped; a square off the board or a value that
        is not a number raises ``ValueError``.
        """
        heat: dict[Square, float] = {}
        for square, value in (values or {}).items():
            square = (int(square[0]), int(square[1]))
            if not self.on_board(square):
                raise ValueError(f"heat on {square}, off the {self._files}x{self._ranks} board")
            number = float(value)
            if math.isnan(number):
                raise ValueError(f"heat on {square_name(square)} is not a number")
            heat[square] = min(1.0, max(0.0, number))
        self._heat = heat
        self._heat_values = bool(show_values)
        self.update()

    def flags(self) -> dict[Square, str]:
        """The flagged squares with their reasons (a copy)."""
        return dict(self._flags)

    def set_flags(self, flags: Mapping[Square, str]) -> None:
        """Marks squares whose hypothesised piece contradicts what the seat knows; the reason shows as a tooltip.

        A flagged square gets a red badge in its bottom-left corner, and a ghost on it a
        red ring instead of the dark dashed one.
        """
        checked: dict[Square, str] = {}
        for square, reason in flags.items():
            square = (int(square[0]), int(square[1]))
            if not self.on_board(square):
                raise ValueError(f"flag on {square}, off the {self._files}x{self._ranks} board")
            checked[square] = str(reason)
        self._flags = checked
        self.update()

    def move_targets(self) -> MoveTargets:
        """The move targets given (a copy)."""
        return {origin: {dest: list(p) for dest, p in dests.items()} for origin, dests in self._targets.items()}

    def set_move_targets(self, targets: Mapping[Square, Mapping[Square, Sequence[str]]]) -> None:
        """Sets, for each movable piece's square, its destinations and their promotion letters.

        An empty mapping (not this seat's turn) makes every click select nothing. A
        selection or drag that the new targets no longer allow is dropped.
        """
        new: MoveTargets = {
            (int(origin[0]), int(origin[1])): {
                (int(dest[0]), int(dest[1])): list(promotions) for dest, promotions in dests.items()
            }
            for origin, dests in targets.items()
            if dests
        }
        if new == self._targets:
            return
        self._targets = new
        if self._selected is not None and self._selected not in new:
            self._selected = None
        if self._drag_from is not None and self._drag_from not in new:
            self._end_drag()
        if self._pending is not None:
            origin, dest = self._pending
            if dest not in new.get(origin, {}):
                self._close_chooser()
        self._update_cursor(None)
        self.update()

    def last_move(self) -> tuple[Square, Square] | None:
        """The highlighted last move, if any."""
        return self._last_move

    def set_last_move(self, from_sq: Square | None, to_sq: Square | None = None) -> None:
        """Highlights the last move's two squares; ``None`` clears the highlight."""
        if from_sq is None or to_sq is None:
            self._last_move = None
        else:
            self._last_move = ((int(from_sq[0]), int(from_sq[1])), (int(to_sq[0]), int(to_sq[1])))
        self.update()

    def markers(self) -> list[Marker]:
        """The markers drawn (a copy)."""
        return list(self._markers)

    def set_markers(self, markers: Iterable[Marker | _MarkerLike]) -> None:
        """Sets the markers; anything with ``kind``, ``squares``, ``label`` and ``opacity`` is accepted."""
        self._markers = [
            m if isinstance(m, Marker) else Marker(m.kind, tuple(m.squares), m.label, m.opacity) for m in markers
        ]
        self.update()

    def zones(self) -> list[Zone]:
        """The off-board zones drawn (a copy)."""
        return list(self._zones)

    def set_zones(self, zones: Iterable[Zone]) -> None:
        """Sets the off-board zones (hands, piles, tracks, trays, grids, counters on squares); ids must be unique.

        Zones take room beside the board, so the board shrinks to leave it; with none it fills the widget.
        """
        new = list(zones)
        ids = [zone.id for zone in new]
        if len(set(ids)) != len(ids):
            raise ValueError(f"zone ids must differ: {', '.join(ids)}")
        if new == self._zones:
            return
        resized = zone_parts.extra_squares(new) != zone_parts.extra_squares(self._zones)
        self._zones, self._layout = new, None
        if resized:
            self.updateGeometry()
        self.update()

    def set_scene(self, scene: BoardScene) -> None:
        """Shows a whole scene: its board size, pieces, marks, the moves or picks it allows, the last move and its
        zones. The one call a window needs per change of what a seat sees."""
        self.set_board_size(scene.files, scene.ranks)
        self.set_pieces(scene.pieces)
        self.set_markers(scene.markers)
        self.set_move_targets(scene.targets)
        self.set_last_move(*(scene.last_move or (None, None)))
        self.set_sense_mode(scene.sense_window is not None, scene.sense_window)
        self.set_zones(scene.zones)

    def zone_item_at(self, pos: QPoint | QPointF) -> tuple[str, int] | None:
        """The ``(zone id, item index)`` under a widget position, or None."""
        layout = self.zone_layout()
        return None if layout is None else zone_parts.item_at(layout, QPointF(pos))

    # ------------------------------------------------------------------ modes

    def is_interactive(self) -> bool:
        """Whether the board takes moves, senses and clicks."""
        return self._interactive

    @Slot(bool)
    def set_interactive(self, interactive: bool) -> None:
        """Enables or disables all left-button input (annotations follow :meth:`set_annotations_enabled`)."""
        self._interactive = bool(interactive)
        if not self._interactive:
            self._cancel_interaction()
        self._update_cursor(None)
        self.update()

    def annotations_enabled(self) -> bool:
        """Whether the right button draws arrows and circles."""
        return self._annotations_enabled

    @Slot(bool)
    def set_annotations_enabled(self, enabled: bool) -> None:
        """Enables or disables drawing arrows and circles (the ones drawn stay)."""
        self._annotations_enabled = bool(enabled)
        if not enabled:
            self._right_from = self._right_to = None
            self.update()

    def sense_mode(self) -> bool:
        """Whether a left click asks for a sense."""
        return self._sense_enabled

    def set_sense_mode(self, enabled: bool, window: SenseWindow | None = None) -> None:
        """Turns sense mode on or off.

        While on, hovering a square highlights ``window(square)`` (by default the 3x3
        window clipped at the edges) and a left click emits ``senseRequested(square)``
        instead of selecting pieces.
        """
        self._sense_enabled = bool(enabled)
        self._sense_window = window
        self._selected = None
        self._end_drag()
        hovered = self._sense_hover
        self._sense_hover = None
        self._hover_window = []
        if self._sense_enabled and hovered is not None:
            self._update_sense_hover(hovered)
        elif self._sense_enabled and self.underMouse():
            self._update_sense_hover(self.square_at(self.mapFromGlobal(QCursor.pos())))
        self._update_cursor(None)
        self.update()

    def hovered_window(self) -> list[Square]:
        """The squares highlighted by the sense hover (empty when none)."""
        return list(self._hover_window)

    def selected_square(self) -> Square | None:
        """The selected piece's square, if any."""
        return self._selected

    def promotion_chooser(self) -> PromotionChooser | None:
        """The promotion chooser while it is open."""
        return self._chooser

    # ------------------------------------------------------------------ annotations

    def annotations(self) -> tuple[list[tuple[Square, Square]], list[Square]]:
        """The player's arrows ``(from, to)`` and circled squares."""
        return list(self._arrows), list(self._circles)

    def set_annotations(
        self, arrows: Iterable[tuple[Square, Square]] = (), circles: Iterable[Square] = ()
    ) -> None:
        """Restores arrows and circles; emits ``annotationsChanged`` if they differ."""
        new_arrows = [((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))) for a, b in arrows]
        new_circles = [(int(s[0]), int(s[1])) for s in circles]
        if (new_arrows, new_circles) != (self._arrows, self._circles):
            self._arrows, self._circles = new_arrows, new_circles
            self.update()
            self.annotationsChanged.emit()

    @Slot()
    def clear_annotations(self) -> None:
        """Removes every arrow and circle."""
        self.set_annotations([], [])

    # ------------------------------------------------------------------ interaction state

    def _end_drag(self) -> None:
        self._drag_from = None
        self._dragging = False
        self._hover_square = None

    def _close_chooser(self) -> None:
        if self._chooser is not None:
            self._chooser.close()  # emits cancelled, which clears the pending move
        self._chooser = None
        self._pending = None

    def _cancel_interaction(self) -> None:
        self._selected = None
        self._end_drag()
        self._close_chooser()
        self._right_from = self._right_to = None
        self._sense_hover = None
        self._hover_window = []

    def _update_sense_hover(self, square: Square | None) -> None:
        if not (self._sense_enabled and self._interactive) or square is None or not self.on_board(square):
            square = None
        if square == self._sense_hover:
            return
        self._sense_hover = square
        if square is None:
            self._hover_window = []
        elif self._sense_window is not None:
            self._hover_window = [s for s in self._sense_window(square) if self.on_board(s)]
        else:
            self._hover_window = clipped_window(square, self._files, self._ranks)
        self.update()

    def _update_cursor(self, square: Square | None) -> None:
        if self._dragging:
            shape = Qt.CursorShape.ClosedHandCursor
        elif not self._interactive or square is None:
            shape = Qt.CursorShape.ArrowCursor
        elif self._sense_enabled:
            shape = Qt.CursorShape.CrossCursor
        elif square in self._targets or (
            self._selected is not None and square in self._targets.get(self._selected, {})
        ):
            shape = Qt.CursorShape.PointingHandCursor
        else:
            shape = Qt.CursorShape.ArrowCursor
        if self.cursor().shape() != shape:
            self.setCursor(shape)

    def _request_move(self, origin: Square, dest: Square) -> None:
        choices = self._targets.get(origin, {}).get(dest)
        if choices is None:
            return
        self._selected = None
        if choices:
            self._open_chooser(origin, dest, choices)
        else:
            self.update()
            self.moveRequested.emit(origin, dest, None)

    def _open_chooser(self, origin: Square, dest: Square, choices: Sequence[str]) -> None:
        self._close_chooser()
        letter = self._pieces.get(origin)
        white = letter.isupper() if letter else not self._flipped
        rect = self.square_rect(dest)
        size = min(96, max(36, rect.width()))
        # Lichess style: the first choice over the destination, the column running into the board.
        downwards = self._cell(dest)[1] < self._ranks / 2
        chooser = PromotionChooser(choices, white, size, self, self.devicePixelRatioF(), upwards=not downwards)
        chooser.chosen.connect(self._on_promotion_chosen)
        chooser.cancelled.connect(self._on_promotion_cancelled)
        chooser.adjustSize()
        hint = chooser.sizeHint()
        x = rect.center().x() - hint.width() // 2
        y = rect.top() - 3 if downwards else rect.bottom() + 4 - hint.height()
        position = self.mapToGlobal(QPoint(x, y))
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None:
            position.setX(max(screen.left(), min(position.x(), screen.right() - hint.width())))
            position.setY(max(screen.top(), min(position.y(), screen.bottom() - hint.height())))
        chooser.move(position)
        self._chooser = chooser
        self._pending = (origin, dest)
        self.update()
        chooser.show()
        chooser.raise_()
        chooser.activateWindow()
        buttons = chooser.buttons()
        if choices and choices[0] in buttons:
            buttons[choices[0]].setFocus()

    @Slot(str)
    def _on_promotion_chosen(self, letter: str) -> None:
        pending = self._pending
        self._chooser = None
        self._pending = None
        self.update()
        if pending is not None:
            self.moveRequested.emit(pending[0], pending[1], letter)

    @Slot()
    def _on_promotion_cancelled(self) -> None:
        self._chooser = None
        self._pending = None
        self.update()

    # ------------------------------------------------------------------ mouse

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Left: select, move or sense; right: start an arrow or circle."""
        pos = event.position()
        square = self.square_at(pos)
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            if self._drag_from is not None or self._selected is not None:
                self._selected = None
                self._end_drag()
                self.update()
            if self._annotations_enabled and square is not None:
                self._right_from = self._right_to = square
                self.update()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        if self._annotations_enabled and (self._arrows or self._circles):
            self.clear_annotations()
        if not self._interactive:
            return
        item = self.zone_item_at(pos) if square is None else None
        if item is not None:
            self._selected = None
            self.update()
            self.zoneClicked.emit(*item)
            return
        if square is None:
            if self._selected is not None:
                self._selected = None
                self.update()
            return
        self.squareClicked.emit(square)
        if self._sense_enabled:
            self.senseRequested.emit(square)
            return
        selected = self._selected
        if selected is not None and square != selected and square in self._targets.get(selected, {}):
            self._request_move(selected, square)
            return
        if square in self._targets:
            self._press_was_selected = selected == square
            self._selected = square
            self._drag_from = square
            self._drag_origin = QPointF(pos)
            self._drag_pos = QPointF(pos)
            self._dragging = False
            self._hover_square = None
        else:
            self._selected = None
        self._update_cursor(square)
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Drags a piece, previews an arrow, follows the sense window."""
        pos = event.position()
        square = self.square_at(pos)
        if self._right_from is not None and square != self._right_to:
            self._right_to = square
            self.update()
        if self._drag_from is not None:
            if not self._dragging:
                delta = pos - self._drag_origin
                if abs(delta.x()) + abs(delta.y()) >= _DRAG_THRESHOLD:
                    self._dragging = True
            if self._dragging:
                self._drag_pos = QPointF(pos)
                self._hover_square = square
                self.update()
        if self._sense_enabled:
            self._update_sense_hover(square)
        self._update_cursor(square)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Drops a dragged piece; finishes an arrow or toggles a circle."""
        pos = event.position()
        square = self.square_at(pos)
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            origin, self._right_from, self._right_to = self._right_from, None, None
            if origin is not None and square is not None and self._annotations_enabled:
                if square == origin:
                    circles = [s for s in self._circles if s != square]
                    if len(circles) == len(self._circles):
                        circles.append(square)
                    self.set_annotations(self._arrows, circles)
                else:
                    arrow = (origin, square)
                    arrows = [a for a in self._arrows if a != arrow]
                    if len(arrows) == len(self._arrows):
                        arrows.append(arrow)
                    self.set_annotations(arrows, self._circles)
            self.update()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        event.accept()
        origin, dragging = self._drag_from, self._dragging
        self._end_drag()
        if origin is None or not self._interactive:
            self._update_cursor(square)
            self.update()
            return
        if dragging:
            if square is not None and square != origin and square in self._targets.get(origin, {}):
                self._request_move(origin, square)
            elif square != origin:
                self._selected = None
        elif self._press_was_selected:
            self._selected = None  # a second click on the selected piece deselects it
        self._update_cursor(square)
        self.update()

    def leaveEvent(self, event: QEvent) -> None:
        """Forgets the sense hover."""
        self._update_sense_hover(None)
        super().leaveEvent(event)

    def event(self, event: QEvent) -> bool:
        """Tooltips: the square's name, its piece or ghost and its markers."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            square = self.square_at(event.pos())
            text = self._describe(square) if square is not None else self._describe_zone_item(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def _describe(self, square: Square) -> str:
        parts = [square_name(square)]
        if square in self._pieces:
            parts.append(pieces.piece_name(self._pieces[square]))
        elif square in self._ghosts:
            parts.append(f"maybe a {pieces.piece_name(self._ghosts[square])}")
        if square in self._flags:
            parts.append(f"contradicted: {self._flags[square]}")
        if square in self._heat:
            parts.append(f"enemy piece here: {_percent(self._heat[square])}")
        for marker in self._markers:
            if square in marker.squares:
                word = _MARKER_WORDS[marker.kind]
                parts.append(f"{word} ({marker.label})" if marker.label else word)
        return ": ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "")

    def _describe_zone_item(self, pos: QPoint) -> str:
        item = self.zone_item_at(pos)
        if item is None:
            return ""
        zone = next(z for z in self._zones if z.id == item[0])
        return zone_parts.describe_item(zone, item[1])

    def _update_accessible(self) -> None:
        shown = ", ".join(
            f"{pieces.piece_name(letter)} {square_name(square)}" for square, letter in sorted(self._pieces.items())
        )
        self.setAccessibleDescription(f"{self._files} by {self._ranks} board. {shown or 'No pieces shown.'}")

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event: QPaintEvent) -> None:
        """Squares, highlights, markers, pieces (from the pixmap cache), annotations, the dragged piece."""
        painter = QPainter(self)
        size = self.square_size()
        dpr = self.devicePixelRatioF()
        self._paint_squares(painter, size)
        self._paint_highlights(painter)
        if self._heat:
            self._paint_heat(painter)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_marker_fills(painter, size)
        self._paint_sense_hover(painter, size)
        self._paint_pieces(painter, size, dpr)
        if self._zones:
            zone_parts.paint_stacks(painter, self._zones, self.square_rect, self.on_board, self.font(), size)
        if self._coordinates:  # above the pieces, as on Lichess: a knight's base would hide a letter
            self._paint_coordinates(painter, size)
        self._paint_targets(painter, size)
        self._paint_marker_outlines(painter, size)
        if self._flags:
            self._paint_flags(painter, size)
        if self._heat and self._heat_values:
            self._paint_heat_values(painter, size)
        self._paint_annotations(painter, size)
        if self._pending is not None:
            painter.fillRect(self.board_rect(), QColor(0, 0, 0, 60))
        layout = self.zone_layout()
        if layout is not None:
            zone_parts.paint_zones(painter, layout, self.font(), dpr)
        self._paint_drag(painter, size, dpr)
        painter.end()

    def _square_colour(self, square: Square) -> QColor:
        light = (square[0] + square[1]) % 2 == 1  # a1 is dark
        return QColor(self._theme.light if light else self._theme.dark)

    def _paint_squares(self, painter: QPainter, size: int) -> None:
        light, dark = QColor(self._theme.light), QColor(self._theme.dark)
        painter.fillRect(self.board_rect(), dark)
        for file in range(self._files):
            for rank in range(self._ranks):
                if (file + rank) % 2 == 1:
                    painter.fillRect(self.square_rect((file, rank)), light)

    def _paint_highlights(self, painter: QPainter) -> None:
        if self._last_move is not None:
            for square in self._last_move:
                if self.on_board(square):
                    painter.fillRect(self.square_rect(square), _LAST_MOVE)
        if self._pending is not None:
            for square in self._pending:
                painter.fillRect(self.square_rect(square), _SELECTED)
        if self._selected is not None:
            painter.fillRect(self.square_rect(self._selected), _SELECTED)
            if self._dragging and self._hover_square is not None:
                if self._hover_square in self._targets.get(self._selected, {}):
                    painter.fillRect(self.square_rect(self._hover_square), _DEST_HOVER)

    def _region_path(self, squares: Iterable[Square], inset: float, radius: float) -> QPainterPath:
        """The outline of a group of squares, ``inset`` pixels inside its edge."""
        size = self.square_size()
        origin = self.board_rect().topLeft()
        cells = {self._cell(s) for s in squares if self.on_board(s)}
        path = QPainterPath()
        if not cells:
            return path
        columns = [c for c, _ in cells]
        rows = [r for _, r in cells]
        left, right, top, bottom = min(columns), max(columns), min(rows), max(rows)
        if len(cells) == (right - left + 1) * (bottom - top + 1):
            rect = QRectF(
                origin.x() + left * size, origin.y() + top * size, (right - left + 1) * size, (bottom - top + 1) * size
            ).adjusted(inset, inset, -inset, -inset)
            path.addRoundedRect(rect, radius, radius)
            return path
        for column, row in cells:  # any other shape: the outer edges of its squares
            x0, y0 = origin.x() + column * size, origin.y() + row * size
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

    def _paint_marker_fills(self, painter: QPainter, size: int) -> None:
        for marker in self._markers:
            colour = _MARKER_COLOURS[marker.kind]
            squares = [s for s in marker.squares if self.on_board(s)]
            if marker.kind == "sense":
                path = self._region_path(squares, 0, 0)
                painter.fillPath(path, _with_alpha(colour, 0.07 * marker.opacity))
            elif marker.kind == "lost":
                for square in squares:
                    rect = QRectF(self.square_rect(square))
                    gradient = QRadialGradient(rect.center(), rect.width() * 0.75)
                    gradient.setColorAt(0.0, _with_alpha(colour, 0.0))
                    gradient.setColorAt(0.45, _with_alpha(colour, 0.12 * marker.opacity))
                    gradient.setColorAt(1.0, _with_alpha(colour, 0.7 * marker.opacity))
                    painter.fillRect(rect, QBrush(gradient))
            elif marker.kind == "captured":
                for square in squares:
                    painter.fillRect(self.square_rect(square), _with_alpha(colour, 0.22 * marker.opacity))
            elif marker.kind == "reveal":
                for square in squares:
                    painter.fillRect(self.square_rect(square), _with_alpha(colour, 0.18 * marker.opacity))

    def _paint_sense_hover(self, painter: QPainter, size: int) -> None:
        if not self._hover_window:
            return
        path = self._region_path(self._hover_window, 0, 0)
        painter.fillPath(path, _with_alpha(_HOVER, 0.30))
        if self._sense_hover is not None:
            painter.fillRect(self.square_rect(self._sense_hover), _with_alpha(_HOVER, 0.25))
        width = max(2.0, size * 0.035)
        pen = QPen(_with_alpha(_HOVER_EDGE, 0.9), width)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.strokePath(self._region_path(self._hover_window, width / 2, width), pen)

    def _paint_coordinates(self, painter: QPainter, size: int) -> None:
        if size < 18:
            return
        font = QFont(self.font())
        font.setPixelSize(max(8, round(size * 0.17)))
        font.setBold(True)
        painter.setFont(font)
        pad = max(1, round(size * 0.035))
        light, dark = QColor(self._theme.light), QColor(self._theme.dark)
        for column in range(self._files):  # file letters: bottom-right of the bottom row
            square = self._square_of_cell(column, self._ranks - 1)
            rect = self.square_rect(square).adjusted(pad, pad // 2, -pad, -pad // 2)
            painter.setPen(dark if self._square_colour(square) == light else light)
            painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, chr(97 + square[0]))
        for row in range(self._ranks):  # rank numbers: top-left of the left column
            square = self._square_of_cell(0, row)
            rect = self.square_rect(square).adjusted(pad, pad // 2, -pad, -pad // 2)
            painter.setPen(dark if self._square_colour(square) == light else light)
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(square[1] + 1))

    def _paint_pieces(self, painter: QPainter, size: int, dpr: float) -> None:
        dragged = self._drag_from if self._dragging else None
        ring_pen = QPen(QColor(30, 30, 30, 150), max(1.0, size * 0.028), Qt.PenStyle.DashLine)
        ring_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        flag_pen = QPen(_FLAG, max(1.5, size * 0.04), Qt.PenStyle.DashLine)
        flag_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        for square, letter in self._ghosts.items():
            if square in self._pieces:
                continue
            rect = self.square_rect(square)
            painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.5))
            painter.setPen(flag_pen if square in self._flags else ring_pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            inset = size * 0.07
            painter.drawEllipse(QRectF(rect).adjusted(inset, inset, -inset, -inset))
        for square, letter in self._pieces.items():
            rect = self.square_rect(square)
            if square == dragged:
                painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.3))
            elif self._pending is not None and square == self._pending[0]:
                painter.drawPixmap(rect.topLeft(), pieces.ghost_pixmap(letter, size, dpr, 0.3))
            else:
                painter.drawPixmap(rect.topLeft(), pieces.piece_pixmap(letter, size, dpr))

    def _paint_targets(self, painter: QPainter, size: int) -> None:
        origin = self._selected
        if origin is None or self._sense_enabled:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        for dest in self._targets.get(origin, {}):
            if not self.on_board(dest):
                continue
            rect = QRectF(self.square_rect(dest))
            if dest in self._pieces:
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

    def _paint_marker_outlines(self, painter: QPainter, size: int) -> None:
        labels: dict[Square, int] = {}
        for marker in self._markers:
            squares = [s for s in marker.squares if self.on_board(s)]
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
                painter.strokePath(self._region_path(squares, inset, width), pen)
                # The label goes in the window's top-right square.
                corner = min(squares, key=lambda s: (self._cell(s)[1], -self._cell(s)[0]))
                if marker.label:
                    self._paint_label(painter, corner, marker.label, colour, marker.opacity, labels, size)
                continue
            width = max(1.5, size * 0.045)
            for square in squares:
                rect = QRectF(self.square_rect(square))
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
                if marker.label:
                    self._paint_label(painter, square, marker.label, colour, marker.opacity, labels, size)

    @staticmethod
    def _rounded(rect: QRectF, inset: float, radius: float) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(rect.adjusted(inset, inset, -inset, -inset), radius, radius)
        return path

    def _paint_label(
        self,
        painter: QPainter,
        square: Square,
        text: str,
        colour: QColor,
        opacity: float,
        stacked: dict[Square, int],
        size: int,
    ) -> None:
        """A small pill in the top-right corner of ``square``; several labels on one square stack downwards."""
        if size < 22:
            return
        font = QFont(self.font())
        font.setPixelSize(max(7, round(size * 0.14)))
        font.setBold(True)
        painter.setFont(font)
        metrics = painter.fontMetrics()
        height = metrics.height() + 1
        width = metrics.horizontalAdvance(text) + height * 0.6
        index = stacked.get(square, 0)
        stacked[square] = index + 1
        rect = QRectF(self.square_rect(square))
        margin = max(1.0, size * 0.02)
        pill = QRectF(rect.right() + 1 - margin - width, rect.top() + margin + index * (height + 1), width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        # Faded markers keep readable labels: the pill fades less than the marker.
        painter.setBrush(_with_alpha(colour, 0.95 * (0.6 + 0.4 * opacity)))
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setPen(QColor("white"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _centre(self, square: Square) -> QPointF:
        return QRectF(self.square_rect(square)).center()

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
        for square in self._circles:
            if self.on_board(square):
                painter.strokePath(self._circle_path(square, width, size), QPen(_ANNOTATION, width))
        for origin, dest in self._arrows:
            if self.on_board(origin) and self.on_board(dest):
                painter.fillPath(self._arrow_path(self._centre(origin), self._centre(dest), size), _ANNOTATION)
        if self._right_from is not None and self._right_to is not None:
            if self._right_from == self._right_to:
                path = self._circle_path(self._right_from, width, size)
                painter.strokePath(path, QPen(_PREVIEW, width))
            else:
                path = self._arrow_path(self._centre(self._right_from), self._centre(self._right_to), size)
                painter.fillPath(path, _PREVIEW)

    def _circle_path(self, square: Square, width: float, size: int) -> QPainterPath:
        path = QPainterPath()
        radius = size / 2 - width / 2 - size * 0.02
        path.addEllipse(self._centre(square), radius, radius)
        return path

    def _paint_heat(self, painter: QPainter) -> None:
        for square, value in self._heat.items():
            # Every chance above zero is tinted, however small: a plain square says "no enemy piece can be here",
            # and a player trusts that (inference gives 0 only where no possible position has a piece).
            if value > 0 and self.on_board(square):
                painter.fillRect(self.square_rect(square), _heat_colour(value))

    def _paint_heat_values(self, painter: QPainter, size: int) -> None:
        if size < 36:
            return
        font = QFont(self.font())
        font.setPixelSize(max(8, round(size * 0.17)))
        font.setBold(True)
        painter.setFont(font)
        for square, value in self._heat.items():
            if value <= 0 or not self.on_board(square):
                continue
            rect = QRectF(self.square_rect(square))
            band = QRectF(rect.left(), rect.bottom() - size * 0.26, rect.width(), size * 0.24)
            text = _percent(value)
            # Right-aligned beside a flag badge (bottom-left), centred otherwise.
            align = Qt.AlignmentFlag.AlignCenter
            if square in self._flags:
                band.adjust(0, 0, -size * 0.06, 0)
                align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.setPen(QColor(255, 255, 255, 200))  # a light halo keeps the text readable on any square
            painter.drawText(band.translated(1, 1), align, text)
            painter.setPen(QColor(60, 0, 0))
            painter.drawText(band, align, text)

    def _paint_flags(self, painter: QPainter, size: int) -> None:
        radius = max(5.0, size * 0.13)
        font = QFont(self.font())
        font.setPixelSize(max(8, round(radius * 1.5)))
        font.setBold(True)
        painter.setFont(font)
        for square in self._flags:
            if not self.on_board(square):
                continue
            rect = QRectF(self.square_rect(square))
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
        if not self._dragging or self._drag_from is None:
            return
        letter = self._pieces.get(self._drag_from)
        if letter is None:
            return
        pixmap = pieces.piece_pixmap(letter, size, dpr)
        painter.drawPixmap(
            QPointF(self._drag_pos.x() - size / 2, self._drag_pos.y() - size / 2),
            pixmap,
        )
