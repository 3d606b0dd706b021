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

:meth:`BoardWidget.set_scene` gives it a whole :class:`~app.games.scene.BoardScene` at once, zones included.

The widget keeps the board's state and turns input (clicks, drags, the right button's arrows) into signals; the
other jobs are parts of their own: :mod:`app.ui.board_geometry` (squares to pixels and back),
:mod:`app.ui.board_painting` (drawing a frame), :mod:`app.ui.board_drag` (a piece held by the pointer),
:mod:`app.ui.board_annotations` (the player's arrows and circles),
:mod:`app.ui.promotion` (the promotion chooser),
:mod:`app.ui.zones` (laying out, drawing and hit-testing off-board zones) and :mod:`app.ui.cards` (card images).

Squares are ``(file, rank)`` tuples counted from 0: ``(0, 0)`` is a1, ``(4, 5)`` is
e6 on the 5x6 MinitChess board. Piece letters are FEN letters, uppercase for White.
A hidden enemy piece never reaches the widget, so it cannot be drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCursor, QFocusEvent, QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.ui import pieces
from app.ui.board_annotations import Annotations
from app.ui.board_drag import PieceDrag
from app.ui.board_geometry import BoardGeometry
from app.ui.heat import percent
from app.ui.board_painting import BoardPicture, MarkerLike

if TYPE_CHECKING:
    from app.ui.promotion import PromotionChooser
    from app.games.scene import BoardScene, Zone
    from app.ui import zones as zone_parts

__all__ = [
    "MARKER_KINDS",
    "THEMES",
    "BoardTheme",
    "BoardWidget",
    "Marker",
    "MoveTargets",
    "PromotionChooser",
    "Cell",
    "SenseWindow",
    "clipped_window",
    "moved_pieces",
    "square_name",
]

Cell = tuple[int, int]
"""``(file, rank)``, 0-based: file 0 is the a-file, rank 0 is the first rank."""

MoveTargets = dict[Cell, dict[Cell, list[str]]]
"""For each movable piece's square, its destinations and each destination's promotion letters."""

SenseWindow = Callable[[Cell], list[Cell]]
"""Given the hovered square, the squares a sense there would show."""

MARKER_KINDS = ("sense", "sense_old", "reveal", "seen_old", "lost", "captured", "premove")
"""What a :class:`Marker` can show (see :class:`Marker`)."""


GLIDE_MS = 180
"""How long a moved piece glides to its new square by default, in milliseconds (as Lichess's 0.2 s)."""
SENSE_CONFIRM = ("one click", "second click", "hold")
"""How a square is picked on the board whenever the scene asks for a pick (RBC's sense, a removal, a Split-Brain
pick, a checker to uncloak): at the first click, at a second click on the same square (the first only shows the
window chosen, labelled "again"), or by holding the button down for :data:`HOLD_MS` (labelled "hold")."""
HOLD_MS = 350
MOST_GLIDES = 4
"""More pieces than this changing place at once is no move (a new game, another view): they are not animated."""


def moved_pieces(old: Mapping[Cell, str], new: Mapping[Cell, str]) -> list[tuple[str, Cell, Cell]]:
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


def square_name(square: Cell) -> str:
    """The algebraic name of a square.

    >>> square_name((4, 3)), square_name((0, 0))
    ('e4', 'a1')
    """
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def clipped_window(square: Cell, files: int, ranks: int, radius: int = 1) -> list[Cell]:
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


@dataclass(frozen=True)
class Marker:
    """A group of squares to highlight, with an optional small label such as the turn ``"t12"``.

    ``kind`` is one of :data:`MARKER_KINDS`:

    - ``"sense"``: the latest sense window, outlined strongly (label in its top-right corner);
    - ``"sense_old"``: an older sense window, dashed and faded;
    - ``"reveal"``: squares where an enemy piece was seen;
    - ``"seen_old"``: squares of enemy pieces seen some turns ago: the pieces drawn faded, the label grey;
    - ``"lost"``: squares where this seat lost a piece;
    - ``"captured"``: squares where this seat captured;
    - ``"premove"``: a move or sense queued while a bot thinks (a right click on the board cancels it).

    ``opacity`` (0 to 1) fades the whole marker. Squares may be any sequence; they are
    stored as a tuple.

    >>> Marker("lost", [(4, 3)], "t12").squares
    ((4, 3),)
    """

    kind: str
    squares: tuple[Cell, ...]
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

# What a tooltip calls each kind of marker.
_MARKER_WORDS = {
    "sense": "sensed",
    "sense_old": "sensed earlier",
    "reveal": "enemy piece seen",
    "seen_old": "",  # the piece's note says when it was seen
    "lost": "piece lost",
    "captured": "captured",
    "premove": "queued",
}

_MIN_SQUARE = 20
_HINT_SQUARE = 64


def __getattr__(name: str) -> object:
    """``PromotionChooser`` is still importable from here, loaded when first asked for."""
    if name == "PromotionChooser":
        from app.ui.promotion import PromotionChooser
        return PromotionChooser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _extra_squares(zones: Sequence[Zone]) -> tuple[float, float]:
    """The squares of width and height off-board zones add; the zone code loads only for a scene that has zones
    (it is not needed for the window's first frame)."""
    if not zones:
        return 0.0, 0.0
    from app.ui import zones as zone_parts
    return zone_parts.extra_squares(zones)


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
    premoveCancelled = Signal()  # a right click while a premove is shown (it cancels it, drawing nothing)

    def __init__(self, parent: QWidget | None = None, files: int = 8, ranks: int = 8) -> None:
        super().__init__(parent)
        self._files = 0  # set_board_size below
        self._ranks = 0
        self._theme = THEMES["brown"]
        self._flipped = False
        self._coordinates = True
        self._pieces: dict[Cell, str] = {}
        self._last_seen: frozenset[Cell] = frozenset()  # squares of pieces shown as last seen (they never glide)
        self._piece_notes: dict[Cell, str] = {}  # what the tooltip says of a piece instead of its name
        self._ghosts: dict[Cell, str] = {}
        self._heat: dict[Cell, float] = {}
        self._heat_values = False
        self._flags: dict[Cell, str] = {}
        self._targets: MoveTargets = {}
        self._last_move: tuple[Cell, Cell] | None = None
        self._markers: list[Marker] = []
        self._interactive = True
        self._annotations_enabled = True
        self._notes = Annotations()
        # Sense mode.
        self._sense_enabled = False
        self._sense_window: SenseWindow | None = None
        self._sense_hover: Cell | None = None
        self._hover_window: list[Cell] = []
        self._sense_confirm = "one click"
        self._proposed: Cell | None = None  # a sense waiting for its confirmation (second click or hold)
        self._proposed_by_key = False  # proposed with Enter: confirmed by Enter again, whatever the mouse's way
        self._hold: QTimer | None = None
        # Selection and dragging.
        self._selected: Cell | None = None
        self._press_was_selected = False
        self._drag = PieceDrag()
        # Right-button annotation in progress.
        # Promotion.
        self._chooser: PromotionChooser | None = None
        self._pending: tuple[Cell, Cell] | None = None
        # Off-board zones, and their layout for the last widget size asked about.
        self._zones: list[Zone] = []
        self._layout: tuple[tuple[int, int, bool], zone_parts.ZoneLayout] | None = None
        self._geometry_cache: tuple[tuple[int, int, int, int, bool], BoardGeometry] | None = None
        # Pieces gliding to their new squares (letter, from, to): drawn on their way for _glide_ms, while the
        # board's state (what a click means) is already the new one, so a glide never delays input.
        self._glide_ms = GLIDE_MS
        self._glides: list[tuple[str, Cell, Cell]] = []
        self._glide_started = 0.0
        self._glide_timer: QTimer | None = None
        self._dropped: tuple[Cell, Cell] | None = None  # the move of the last drag: it is already where it goes
        self._card_slide: zone_parts.CardSlide | None = None  # a card on its way from one zone to another

        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self.setAccessibleName("Chess board")
        # The keyboard: Tab reaches the board (a click does not take the focus from the typing field); then the
        # arrow keys move a square cursor and Enter or Space does what a click on that square does.
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._cursor: Cell | None = None
        self._zone_cursor: tuple[str, int] | None = None  # an item beside the board (a card, a cell of a grid)
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
            self._glides = []
            self._ghosts.clear()
            self._heat.clear()
            self._flags.clear()
            self._targets = {}
            self._markers = []
            self._last_move = None
            self._notes = Annotations()
            self._zones, self._layout, self._geometry_cache = [], None, None
            self._zone_cursor = None
            self._update_accessible()
            self.updateGeometry()
            self.update()

    def _hint(self, square: int) -> QSize:
        extra_w, extra_h = _extra_squares(self._zones)
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
        key = (self.width(), self.height(), self._flipped)
        if self._layout is None or self._layout[0] != key:
            from app.ui import zones as zone_parts
            self._layout = key, zone_parts.lay_out(self._zones, self._files, self._ranks, self.width(),
                                                   self.height(), self._flipped)
        return self._layout[1]

    def _geometry(self) -> BoardGeometry:
        """Where the squares are now (worked out again only when the size, orientation or zones change)."""
        key = (self.width(), self.height(), self._files, self._ranks, self._flipped)
        if self._geometry_cache is None or self._geometry_cache[0] != key:
            layout = self.zone_layout()
            if layout is None:
                geometry = BoardGeometry.fit(self._files, self._ranks, self._flipped, self.width(), self.height())
            else:
                geometry = BoardGeometry.at(self._files, self._ranks, self._flipped, layout.board, layout.square)
            self._geometry_cache = key, geometry
        return self._geometry_cache[1]

    def square_size(self) -> int:
        """The side of a square in pixels (the largest that fits beside the zones; at least 1)."""
        return self._geometry().size

    def board_rect(self) -> QRect:
        """Where the board is drawn: centred in the widget (in what the zones leave of it)."""
        return self._geometry().board_rect()

    def _cell(self, square: Cell) -> tuple[int, int]:
        """The (column, row) on screen of a square, row 0 at the top."""
        return self._geometry().cell(square)

    def on_board(self, square: Cell) -> bool:
        """Whether ``square`` lies on the board."""
        return 0 <= square[0] < self._files and 0 <= square[1] < self._ranks

    def square_rect(self, square: Cell) -> QRect:
        """The pixel rectangle of ``square`` in widget coordinates."""
        return self._geometry().square_rect(square)

    def square_at(self, pos: QPoint | QPointF) -> Cell | None:
        """The square under a widget position, or ``None`` outside the board."""
        return self._geometry().square_at(pos)

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

    def pieces(self) -> dict[Cell, str]:
        """The pieces drawn, by square (a copy)."""
        return dict(self._pieces)

    def _checked_pieces(self, pieces_by_square: Mapping[Cell, str], what: str) -> dict[Cell, str]:
        result: dict[Cell, str] = {}
        for square, letter in pieces_by_square.items():
            square = (int(square[0]), int(square[1]))
            if not self.on_board(square):
                raise ValueError(f"{what} on {square}, off the {self._files}x{self._ranks} board")
            if len(letter) != 1 or letter not in pieces.PIECE_LETTERS:
                raise ValueError(f"{what} {letter!r} on {square_name(square)} is not a piece letter")
            result[square] = letter
        return result

    def set_pieces(self, pieces_by_square: Mapping[Cell, str], last_seen: Iterable[Cell] = (),
                   notes: Mapping[Cell, str] | None = None) -> None:
        """Sets the pieces to draw: FEN letters by square. Only these are drawn. A piece that moved (it left one
        square and the same piece appeared on another) glides there (see :meth:`set_glide_ms`), unless it stands,
        or stood, on a square of ``last_seen``: a piece shown where it was last seen was not watched on its way.
        ``notes``: what a square's tooltip says of its piece instead of the piece's name."""
        new = self._checked_pieces(pieces_by_square, "piece")
        self._piece_notes = {(int(cell[0]), int(cell[1])): str(text) for cell, text in (notes or {}).items()}
        seen_now = frozenset(last_seen)
        glides = moved_pieces(self._pieces, new) if self._glide_ms > 0 and self.isVisible() else []
        glides = [glide for glide in glides if (glide[1], glide[2]) != self._dropped
                  and glide[1] not in self._last_seen and glide[2] not in seen_now]
        self._dropped = None
        self._pieces, self._last_seen = new, seen_now
        if glides:
            self._start_glides(glides)
        else:
            self._glides = []  # a glide under way belonged to the pieces shown before (maybe another person's)
        self._update_accessible()
        self.update()

    def glide_ms(self) -> int:
        """How long a moved piece takes to glide to its square, in milliseconds (0: no animation)."""
        return self._glide_ms

    def set_glide_ms(self, milliseconds: int) -> None:
        """Sets how long a moved piece glides (0 turns animation off; a glide under way ends at once)."""
        self._glide_ms = max(0, int(milliseconds))
        if not self._glide_ms:
            self._end_glides()

    def gliding(self) -> list[tuple[str, Cell, Cell]]:
        """The pieces on their way now (letter, from, to)."""
        return list(self._glides)

    def sliding_card(self) -> zone_parts.CardSlide | None:
        """The card on its way between zones now (face, from, to, zone id, index), if one is."""
        return self._card_slide

    def _start_glides(self, glides: list[tuple[str, Cell, Cell]]) -> None:
        import time
        self._glides = glides
        self._glide_started = time.monotonic()
        if self._glide_timer is None:
            self._glide_timer = QTimer(self)
            self._glide_timer.setInterval(15)  # about one frame
            self._glide_timer.setTimerType(Qt.TimerType.PreciseTimer)
            self._glide_timer.timeout.connect(self._glide_step)
        self._glide_timer.start()

    def _glide_progress(self) -> float:
        import time
        if not self._glides and self._card_slide is None:
            return 1.0
        return min(1.0, (time.monotonic() - self._glide_started) * 1000 / max(1, self._glide_ms))

    def _glide_step(self) -> None:
        if self._glide_progress() >= 1.0:
            self._end_glides()
        self.update()

    def _end_glides(self) -> None:
        self._glides = []
        self._card_slide = None
        if self._glide_timer is not None:
            self._glide_timer.stop()
        self.update()

    def ghosts(self) -> dict[Cell, str]:
        """The hypothesised pieces drawn translucent (a copy)."""
        return dict(self._ghosts)

    def set_ghosts(self, ghosts: Mapping[Cell, str]) -> None:
        """Sets hypothesised pieces, drawn translucent in a dashed ring (hidden under a real piece)."""
        self._ghosts = self._checked_pieces(ghosts, "ghost")
        self.update()

    def heat(self) -> dict[Cell, float]:
        """The heat map drawn: a value from 0 to 1 by square (a copy; empty when there is none)."""
        return dict(self._heat)

    def set_heat(self, values: Mapping[Cell, float] | None, show_values: bool = False) -> None:
        """Tints squares by a value from 0 to 1 (say, the chance that an enemy piece stands there).

        The tint is drawn under the pieces, from pale yellow (unlikely) to red (likely);
        squares below 0.5% are left plain. ``None`` or an empty mapping removes the map.
        ``show_values`` also writes each value as a percentage when squares are large
        enough. Values outside 0 to 1 are clipped; a square off the board or a value that
        is not a number raises ``ValueError``.
        """
        heat: dict[Cell, float] = {}
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

    def flags(self) -> dict[Cell, str]:
        """The flagged squares with their reasons (a copy)."""
        return dict(self._flags)

    def set_flags(self, flags: Mapping[Cell, str]) -> None:
        """Marks squares whose hypothesised piece contradicts what the seat knows; the reason shows as a tooltip.

        A flagged square gets a red badge in its bottom-left corner, and a ghost on it a
        red ring instead of the dark dashed one.
        """
        checked: dict[Cell, str] = {}
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

    def set_move_targets(self, targets: Mapping[Cell, Mapping[Cell, Sequence[str]]]) -> None:
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
        if self._drag.origin is not None and self._drag.origin not in new:
            self._drag.end()
        if self._pending is not None:
            origin, dest = self._pending
            if dest not in new.get(origin, {}):
                self._close_chooser()
        self._update_cursor(None)
        self.update()

    def last_move(self) -> tuple[Cell, Cell] | None:
        """The highlighted last move, if any."""
        return self._last_move

    def set_last_move(self, from_sq: Cell | None, to_sq: Cell | None = None) -> None:
        """Highlights the last move's two squares; ``None`` clears the highlight."""
        if from_sq is None or to_sq is None:
            self._last_move = None
        else:
            self._last_move = ((int(from_sq[0]), int(from_sq[1])), (int(to_sq[0]), int(to_sq[1])))
        self.update()

    def markers(self) -> list[Marker]:
        """The markers drawn (a copy)."""
        return list(self._markers)

    def set_markers(self, markers: Iterable[Marker | MarkerLike]) -> None:
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
        before = self.zone_layout() if self._glide_ms > 0 and self.isVisible() and self._zones and new else None
        resized = _extra_squares(new) != _extra_squares(self._zones)
        self._zones, self._layout, self._geometry_cache = new, None, None
        self._card_slide = None  # a slide under way belonged to the zones shown before
        if before is not None:
            from app.ui import zones as zone_parts
            after = self.zone_layout()
            slide = zone_parts.moved_card(before, after) if after is not None else None
            if slide is not None:
                self._card_slide = slide
                self._start_glides(self._glides)
        self._update_accessible()
        if resized:
            self.updateGeometry()
        self.update()

    def set_scene(self, scene: BoardScene) -> None:
        """Shows a whole scene: its board size, pieces, marks, the moves or picks it allows, the last move and its
        zones. The one call a window needs per change of what a seat sees."""
        self.set_board_size(scene.files, scene.ranks)
        self.set_pieces(scene.pieces, scene.last_seen, scene.notes)
        self.set_markers(scene.markers)
        self.set_move_targets(scene.targets)
        self.set_last_move(*(scene.last_move or (None, None)))
        self.set_sense_mode(scene.sense_window is not None, scene.sense_window)
        self.set_zones(scene.zones)

    def zone_item_at(self, pos: QPoint | QPointF) -> tuple[str, int] | None:
        """The ``(zone id, item index)`` under a widget position, or None."""
        layout = self.zone_layout()
        if layout is None:
            return None
        from app.ui import zones as zone_parts
        return zone_parts.item_at(layout, QPointF(pos))

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
            self._notes.cancel()
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
        if bool(enabled) == self._sense_enabled:
            # The same mode redrawn (a bot answered, the clock or the belief panel moved on): a sense waiting for
            # its confirmation, the window under the pointer and a chosen piece stay, as long as they still fit.
            self._sense_window = window
            if self._proposed is not None and not self._proposed_window():
                self._forget_proposal()
            if enabled:
                hovered, self._sense_hover = self._sense_hover, None
                self._update_sense_hover(hovered)
            self.update()
            return
        self._sense_enabled = bool(enabled)
        self._sense_window = window
        self._forget_proposal()
        self._selected = None
        self._drag.end()
        hovered = self._sense_hover
        self._sense_hover = None
        self._hover_window = []
        if self._sense_enabled and hovered is not None:
            self._update_sense_hover(hovered)
        elif self._sense_enabled and self.underMouse():
            self._update_sense_hover(self.square_at(self.mapFromGlobal(QCursor.pos())))
        self._update_cursor(None)
        self.update()

    def sense_confirmation(self) -> str:
        """How a sense is confirmed: one of :data:`SENSE_CONFIRM`."""
        return self._sense_confirm

    def set_sense_confirmation(self, how: str) -> None:
        """Choose how a left click asks for a sense (:data:`SENSE_CONFIRM`): a stray click then loses nothing."""
        if how not in SENSE_CONFIRM:
            raise ValueError(f"unknown sense confirmation {how!r}")
        self._sense_confirm = how
        self._forget_proposal()

    def proposed_sense(self) -> Cell | None:
        """The square of a sense clicked once and waiting for its confirmation, if any."""
        return self._proposed

    def _forget_proposal(self) -> None:
        if self._hold is not None:
            self._hold.stop()
        if self._proposed is not None:
            self._proposed = None
            self.update()

    def _proposed_window(self) -> list[Cell]:
        square = self._proposed
        if square is None:
            return []
        squares = self._sense_window(square) if self._sense_window is not None else clipped_window(
            square, self._files, self._ranks)
        return [s for s in squares if self.on_board(s)]

    def _sense_pressed(self, square: Cell) -> None:
        """A left press in sense mode: sense now, or once confirmed (see :meth:`set_sense_confirmation`)."""
        how = self._sense_confirm
        if how == "one click" or (how == "second click" and square == self._proposed):
            self._forget_proposal()
            self.senseRequested.emit(square)
            return
        self._proposed, self._proposed_by_key = square, False
        if how == "hold":
            if self._hold is None:
                self._hold = QTimer(self)
                self._hold.setSingleShot(True)
                self._hold.timeout.connect(self._held)
            self._hold.start(HOLD_MS)
        self.update()

    def _held(self) -> None:
        square = self._proposed
        self._forget_proposal()
        if square is not None and self._sense_enabled and self._interactive:
            self.senseRequested.emit(square)

    def hovered_window(self) -> list[Cell]:
        """The squares highlighted by the sense hover (empty when none)."""
        return list(self._hover_window)

    def selected_square(self) -> Cell | None:
        """The selected piece's square, if any."""
        return self._selected

    def promotion_chooser(self) -> PromotionChooser | None:
        """The promotion chooser while it is open."""
        return self._chooser

    # ------------------------------------------------------------------ annotations

    def annotations(self) -> tuple[list[tuple[Cell, Cell]], list[Cell]]:
        """The player's arrows ``(from, to)`` and circled squares."""
        return list(self._notes.arrows), list(self._notes.circles)

    def set_annotations(
        self, arrows: Iterable[tuple[Cell, Cell]] = (), circles: Iterable[Cell] = ()
    ) -> None:
        """Restores arrows and circles; emits ``annotationsChanged`` if they differ."""
        if self._notes.set(arrows, circles):
            self.update()
            self.annotationsChanged.emit()

    @Slot()
    def clear_annotations(self) -> None:
        """Removes every arrow and circle."""
        self.set_annotations([], [])

    # ------------------------------------------------------------------ interaction state

    def _close_chooser(self) -> None:
        if self._chooser is not None:
            self._chooser.close()  # emits cancelled, which clears the pending move
        self._chooser = None
        self._pending = None

    def _cancel_interaction(self) -> None:
        self._selected = None
        self._drag.end()
        self._close_chooser()
        self._notes.cancel()
        self._sense_hover = None
        self._hover_window = []

    def _update_sense_hover(self, square: Cell | None) -> None:
        if not (self._sense_enabled and self._interactive) or square is None or not self.on_board(square) \
                or self._move_press(square):
            square = None  # (over a piece that may move, or while one is chosen, a click is a move's)
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

    def _update_cursor(self, square: Cell | None, over_zone_item: bool = False) -> None:
        if self._drag.dragging:
            shape = Qt.CursorShape.ClosedHandCursor
        elif self._interactive and over_zone_item:
            shape = Qt.CursorShape.PointingHandCursor
        elif not self._interactive or square is None:
            shape = Qt.CursorShape.ArrowCursor
        elif square in self._targets or (
            self._selected is not None and square in self._targets.get(self._selected, {})
        ):
            shape = Qt.CursorShape.PointingHandCursor
        elif self._sense_enabled and not self._move_press(square):
            shape = Qt.CursorShape.CrossCursor
        else:
            shape = Qt.CursorShape.ArrowCursor
        if self.cursor().shape() != shape:
            self.setCursor(shape)

    def _request_move(self, origin: Cell, dest: Cell) -> None:
        choices = self._targets.get(origin, {}).get(dest)
        if choices is None:
            return
        self._selected = None
        if choices:
            self._open_chooser(origin, dest, choices)
        else:
            self.update()
            self.moveRequested.emit(origin, dest, None)

    def _open_chooser(self, origin: Cell, dest: Cell, choices: Sequence[str]) -> None:
        self._close_chooser()
        letter = self._pieces.get(origin)
        white = letter.isupper() if letter else not self._flipped
        rect = self.square_rect(dest)
        size = min(96, max(36, rect.width()))
        # Lichess style: the first choice over the destination, the column running into the board.
        downwards = self._cell(dest)[1] < self._ranks / 2
        from app.ui.promotion import PromotionChooser  # loaded at the first promotion, not at start-up
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
            if any(marker.kind == "premove" for marker in self._markers):
                self._selected = None
                self._drag.end()
                self._notes.cancel()
                self.premoveCancelled.emit()  # as on Lichess: the right click takes the premove back, nothing else
                return
            if self._drag.origin is not None or self._selected is not None:
                self._selected = None
                self._drag.end()
                self.update()
            if self._annotations_enabled and square is not None:
                self._notes.begin(square)
                self.update()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        if self._annotations_enabled and (self._notes.arrows or self._notes.circles):
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
        if self._sense_enabled and not self._move_press(square):
            self._sense_pressed(square)
            return
        self._forget_proposal()  # (a pick proposed before a piece was chosen)
        selected = self._selected
        if selected is not None and square != selected and square in self._targets.get(selected, {}):
            self._request_move(selected, square)
            return
        if square in self._targets:
            self._press_was_selected = selected == square
            self._selected = square
            self._drag.press(square, pos)
        else:
            self._selected = None
        self._update_sense_hover(square)
        self._update_cursor(square)
        self.update()

    def _move_press(self, square: Cell) -> bool:
        """Whether a left press on ``square`` belongs to a move while the board also takes picks (a scene with
        both, as RBC's queue while the bot thinks): a press on a piece that may move, or any press while a piece is
        chosen (a square it cannot go to drops the choice, as in a move). Elsewhere the press is a pick."""
        return bool(self._targets) and (square in self._targets or self._selected is not None)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Drags a piece, previews an arrow, follows the sense window."""
        pos = event.position()
        square = self.square_at(pos)
        if self._notes.follow(square):
            self.update()
        if self._drag.follow(pos, square):
            self.update()
        if self._sense_enabled:
            self._update_sense_hover(square)
        over_zone_item = square is None and not self._drag.dragging and self.zone_item_at(pos) is not None
        self._update_cursor(square, over_zone_item)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Drops a dragged piece; finishes an arrow or toggles a circle."""
        pos = event.position()
        square = self.square_at(pos)
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            toggled = self._notes.finish(square)
            if toggled is not None and self._annotations_enabled:
                self.set_annotations(*toggled)
            self.update()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        event.accept()
        if self._hold is not None and self._hold.isActive():
            self._hold.stop()  # let go too soon: the window stays shown, saying "hold"
            self.update()
        origin, dragging = self._drag.end()
        if origin is None or not self._interactive:
            self._update_cursor(square)
            self.update()
            return
        if dragging:
            if square is not None and square != origin and square in self._targets.get(origin, {}):
                self._dropped = (origin, square)  # the piece is already there: it does not glide again
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

    def _tooltip_event(self, event: QEvent) -> bool:
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

    def _describe(self, square: Cell) -> str:
        parts = [square_name(square)]
        note = self._piece_notes.get(square) if square in self._pieces else None  # names its square itself
        if square in self._pieces:
            parts.append(pieces.piece_name(self._pieces[square]))
        elif square in self._ghosts:
            parts.append(f"maybe a {pieces.piece_name(self._ghosts[square])}")
        if square in self._flags:
            parts.append(f"contradicted: {self._flags[square]}")
        if square in self._heat:
            parts.append(f"enemy piece here: {percent(self._heat[square])}")
        for marker in self._markers:
            if square in marker.squares:
                word = _MARKER_WORDS[marker.kind]
                if word:
                    parts.append(f"{word} ({marker.label})" if marker.label else word)
        return (note or ": ".join(parts[:2])) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "")

    def _describe_zone_item(self, pos: QPoint) -> str:
        item = self.zone_item_at(pos)
        if item is None:
            return ""
        zone = next(z for z in self._zones if z.id == item[0])
        from app.ui import zones as zone_parts
        return zone_parts.describe_item(zone, item[1])

    def _update_accessible(self) -> None:
        shown = ", ".join(
            f"{pieces.piece_name(letter)} {square_name(square)}" for square, letter in sorted(self._pieces.items())
        )
        zones = ""
        if self._zones:
            from app.ui import zones as zone_parts
            zones = "".join(" " + zone_parts.describe_zone(zone) for zone in self._zones)
        self.setAccessibleDescription(f"{self._files} by {self._ranks} board. {shown or 'No pieces shown.'}{zones}")

    # ------------------------------------------------------------------ keyboard

    def cursor_square(self) -> Cell | None:
        """The keyboard's square cursor (shown while the board has the focus), or None."""
        return self._cursor

    def set_cursor_square(self, square: Cell | None) -> None:
        """Put the keyboard's square cursor on ``square``, and tell a screen reader what is there."""
        if square is not None and not self.on_board(square):
            return
        self._cursor = square
        if square is not None and self._notes.follow(square):
            self.update()  # an arrow begun from the keyboard follows the cursor
        if square is not None and self._sense_enabled:
            self._update_sense_hover(square)  # the window a sense here would show, as under the mouse
        if square is not None:
            words = self._describe(square)
            if square not in self._pieces and square not in self._ghosts:
                words = words.replace(square_name(square), f"{square_name(square)}, empty", 1)
            if self._selected is not None and square in self._targets.get(self._selected, {}):
                words += "; the chosen piece may move here (Enter)"
            elif square in self._targets:
                words += "; it may move (Enter to choose it)"
            elif self._sense_enabled and self._interactive:
                words += "; Enter twice picks here" if self._sense_confirm != "one click" else "; Enter picks here"
            self.setAccessibleName(f"Chess board, {words}")
            from PySide6.QtGui import QAccessible, QAccessibleEvent
            QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.NameChanged))
        self.update()

    def forget_cursor(self) -> None:
        """Take the keyboard cursors away (the screen passes to another person: where the last one's cursor
        rested is theirs, and so is an arrow begun from the keyboard)."""
        self._cursor, self._zone_cursor = None, None
        self._notes.cancel()
        self.setAccessibleName("Chess board")
        self.update()

    def zone_cursor(self) -> tuple[str, int] | None:
        """The keyboard's cursor on an item beside the board (zone id, item index), or None."""
        return self._zone_cursor

    def _step_zone_cursor(self, step: int) -> None:
        """Page Down / Page Up: the cursor goes through the items of the zones beside the board, in the order they
        are laid out (and back onto the board after the last)."""
        layout = self.zone_layout()
        items = [(placed.zone.id, index) for placed in (layout.zones if layout is not None else ())
                 for index in range(len(placed.items))]
        if not items:
            return
        at = items.index(self._zone_cursor) if self._zone_cursor in items else (-1 if step > 0 else len(items))
        at += step
        if not 0 <= at < len(items):
            self._zone_cursor = None
            self.set_cursor_square(self._cursor or (self._files // 2, 0))
            return
        self._zone_cursor = items[at]
        from app.ui import zones as zone_parts
        zone = next(z for z in self._zones if z.id == items[at][0])
        self.setAccessibleName(f"Beside the board, {zone_parts.describe_item(zone, items[at][1])}")
        from PySide6.QtGui import QAccessible, QAccessibleEvent
        QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.NameChanged))
        self.update()

    def _zone_cursor_rect(self) -> QRectF | None:
        layout = self.zone_layout()
        if self._zone_cursor is None or layout is None:
            return None
        for placed in layout.zones:
            if placed.zone.id == self._zone_cursor[0] and self._zone_cursor[1] < len(placed.items):
                return placed.items[self._zone_cursor[1]]
        return None

    def event(self, event: QEvent) -> bool:  # noqa: D102 - see below
        if event.type() == QEvent.Type.ShortcutOverride and (self._cursor_key(event) or self._escape_here(event)):
            event.accept()  # the arrow keys move the square cursor here, not through the move list
            return True
        return self._tooltip_event(event)

    def _escape_here(self, event: QEvent) -> bool:
        """Esc with something of the board's own to drop: the board takes it before the window's Esc."""
        from PySide6.QtGui import QKeyEvent
        return isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape and self._something_to_drop()

    def _something_to_drop(self) -> bool:
        """A chosen piece, a sense waiting for its confirmation or an arrow begun from the keyboard."""
        return self._selected is not None or self._proposed is not None or self._notes.draft_from is not None

    @staticmethod
    def _cursor_key(event: QEvent) -> bool:
        from PySide6.QtGui import QKeyEvent
        return isinstance(event, QKeyEvent) and event.key() in (
            Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter,
            Qt.Key.Key_Space, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        """Arrow keys move the square cursor (up is up on the screen, whichever way the board is turned); Enter
        or Space acts on its square as a left click does (select, move there, sense: the sense waits for Enter
        again unless one click senses); Shift+Enter (or Shift+Space) on one square and then on another draws an
        arrow between them (twice on the same square: a circle), as the right button does; Page Down and Page Up
        go through the items beside the board (cards, piles, grid cells), Enter picking one as a click does;
        Escape drops a selection, a sense waiting for its confirmation or an arrow begun."""
        key = event.key()
        steps = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}
        step = steps.get(Qt.Key(key))
        if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
            self._step_zone_cursor(1 if key == Qt.Key.Key_PageDown else -1)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self._zone_cursor is not None:
            if self._interactive and self._zone_cursor_rect() is not None:
                self.zoneClicked.emit(*self._zone_cursor)
            return
        if step is not None and self._zone_cursor is not None:
            self._zone_cursor = None  # back onto the board, where the square cursor was
            self.set_cursor_square(self._cursor or (self._files // 2, 0))
            return
        if step is not None:
            if self._cursor is None:
                start = (self._files // 2, self._ranks - 1 if self._flipped else 0)  # the middle of the near edge
                self.set_cursor_square(self._selected or start)
                return
            if self._flipped:
                step = (-step[0], -step[1])
            self.set_cursor_square((min(self._files - 1, max(0, self._cursor[0] + step[0])),
                                    min(self._ranks - 1, max(0, self._cursor[1] + step[1]))))
            return
        shifted = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and shifted and self._cursor is not None:
            self._mark_from_keyboard(self._cursor)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self._cursor is not None:
            self._activate(self._cursor)
            return
        if key == Qt.Key.Key_Escape and self._something_to_drop():
            self._selected = None
            self._notes.cancel()
            self._forget_proposal()
            self.update()
            return
        super().keyPressEvent(event)

    def _mark_from_keyboard(self, square: Cell) -> None:
        """Shift+Enter: begin an arrow on ``square``, or end the one begun (an arrow, or a circle on its own
        square), as pressing and letting go of the right button does."""
        if not self._annotations_enabled:
            return
        if self._notes.draft_from is None:
            self._notes.begin(square)
            self.update()
            return
        toggled = self._notes.finish(square)
        if toggled is not None:
            self.set_annotations(*toggled)
        self.update()

    def _activate(self, square: Cell) -> None:
        """What a left click on ``square`` does, from the keyboard."""
        if not self._interactive:
            return
        self.squareClicked.emit(square)
        if self._sense_enabled and not self._move_press(square):
            # As the mouse's second click: a sense is made at the first Enter only when one click senses.
            if self._sense_confirm == "one click" or square == self._proposed:
                self._forget_proposal()
                self.senseRequested.emit(square)
            else:
                self._forget_proposal()
                self._proposed, self._proposed_by_key = square, True
                self.update()
            return
        selected = self._selected
        if selected is not None and square != selected and square in self._targets.get(selected, {}):
            self._request_move(selected, square)
        elif square in self._targets and square != selected:
            self._selected = square
        else:
            self._selected = None
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)
        self.update()  # the cursor is drawn only while the board has the focus

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draws what the board shows now (:class:`~app.ui.board_painting.BoardPicture` does the drawing)."""
        picture = self.picture()
        painter = QPainter(self)
        picture.paint(painter, self.devicePixelRatioF())
        painter.end()

    def picture(self) -> BoardPicture:
        """What the board shows now, as the picture that draws it (where its labels go, for instance)."""
        return BoardPicture(
            geometry=self._geometry(), theme=self._theme, font=self.font(), coordinates=self._coordinates,
            pieces=self._pieces, ghosts=self._ghosts, heat=self._heat, heat_values=self._heat_values,
            flags=self._flags, targets=self._targets, last_move=self._last_move, markers=self._markers,
            arrows=self._notes.arrows, circles=self._notes.circles, right_from=self._notes.draft_from,
            right_to=self._notes.draft_to,
            selected=self._selected, drag_from=self._drag.origin, dragging=self._drag.dragging,
            drag_pos=self._drag.pos, hover_square=self._drag.over, hover_window=self._hover_window,
            sense_hover=self._sense_hover,
            sense_enabled=self._sense_enabled, pending=self._pending, zones=self._zones,
            zone_layout=self.zone_layout(),
            label_colour=self.palette().color(QPalette.ColorRole.WindowText),
            glides=self._glides, glide_progress=self._glide_progress(), card_slide=self._card_slide,
            proposed_window=self._proposed_window(),
            cursor=self._cursor if self.hasFocus() and self._zone_cursor is None else None,
            zone_cursor=self._zone_cursor_rect() if self.hasFocus() else None,
            proposal_label="hold" if self._sense_confirm == "hold" and not self._proposed_by_key else "again",
        )
