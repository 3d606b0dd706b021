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
  position of a track, a cell of a deduction grid);
- ``premoveCancelled()``: a right click while a queued move is shown.

:meth:`BoardWidget.set_scene` gives it a whole :class:`~app.games.scene.BoardScene` at once, zones included.

As chessground does, the widget is split by job into parts it owns, which share one
:class:`~app.ui.board_model.BoardState` and never import the widget: :mod:`app.ui.board_input` (the mouse:
choosing, moving, dragging, picking, the promotion chooser), :mod:`app.ui.board_keyboard` (the keyboard's
cursors), :mod:`app.ui.board_animation` (glides), :mod:`app.ui.board_zones` (off-board zones: layout and the
hit-test of a click), :mod:`app.ui.board_words` (tooltips and what a screen reader hears),
:mod:`app.ui.board_painting` (drawing a frame), with :mod:`app.ui.board_geometry` (squares to pixels and back),
:mod:`app.ui.board_drag` (a piece held by the pointer) and :mod:`app.ui.board_annotations` (the player's arrows
and circles). The widget keeps the setters the window calls, the signals, and Qt's event handlers, which hand
each event to its part.

Squares are ``(file, rank)`` tuples counted from 0: ``(0, 0)`` is a1, ``(4, 5)`` is
e6 on the 5x6 MinitChess board. Piece letters are FEN letters, uppercase for White.
A hidden enemy piece never reaches the widget, so it cannot be drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QSize, Qt, Signal, Slot
from PySide6.QtGui import QCursor, QFocusEvent, QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.ui import pieces
from app.ui.board_animation import MOST_GLIDES, Glides, moved_pieces
from app.ui.board_geometry import BoardGeometry
from app.ui.board_input import HOLD_MS, PointerInput
from app.ui.board_keyboard import BOARD_NAME, KeyboardCursor
from app.ui.board_model import (
    MARKER_KINDS,
    SENSE_CONFIRM,
    THEMES,
    BoardState,
    BoardTheme,
    Cell,
    Marker,
    MoveTargets,
    SenseWindow,
    clipped_window,
    square_name,
)
from app.ui.board_painting import BoardPicture, MarkerLike
from app.ui.board_words import board_description, describe_square
from app.ui.board_zones import BoardZones, extra_squares

if TYPE_CHECKING:
    from app.games.scene import BoardScene, Zone
    from app.ui.promotion import PromotionChooser
    from app.ui.zones import CardSlide, ZoneLayout

__all__ = [
    "GLIDE_MS",
    "HOLD_MS",
    "MARKER_KINDS",
    "MOST_GLIDES",
    "SENSE_CONFIRM",
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

GLIDE_MS = 180
"""How long a moved piece glides to its new square by default, in milliseconds (as Lichess's 0.2 s). A new board
reads it when made (tests set it to 0 here)."""

_MIN_SQUARE = 20
_HINT_SQUARE = 64


def __getattr__(name: str) -> object:
    """``PromotionChooser`` is still importable from here, loaded when first asked for."""
    if name == "PromotionChooser":
        from app.ui.promotion import PromotionChooser  # deferred for start-up: the chooser waits for a promotion
        return PromotionChooser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        self._state = BoardState()
        self._zones = BoardZones(self._state)
        self._geometry_cache: tuple[tuple[int, int, int, int, bool], BoardGeometry] | None = None
        self._glides = Glides(self, GLIDE_MS, self.update, self.isVisible)
        self._pointer = PointerInput(self, self, self._state)
        self._keyboard = KeyboardCursor(self, self, self._state, self._pointer, self._zones, self.zone_layout)

        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self.setAccessibleName(BOARD_NAME)
        # The keyboard: Tab reaches the board (a click does not take the focus from the typing field); then the
        # arrow keys move a square cursor and Enter or Space does what a click on that square does.
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.set_board_size(files, ranks)

    # ------------------------------------------------------------------ geometry

    def board_size(self) -> tuple[int, int]:
        """``(files, ranks)``."""
        return self._state.files, self._state.ranks

    @Slot(int, int)
    def set_board_size(self, files: int, ranks: int) -> None:
        """Sets the number of files and ranks (1 to 26 files); a new size clears pieces, targets and marks."""
        if not (1 <= files <= 26 and 1 <= ranks <= 99):
            raise ValueError(f"unsupported board size {files}x{ranks}")
        state = self._state
        if (files, ranks) != (state.files, state.ranks):
            state.files, state.ranks = files, ranks
            self._pointer.cancel()
            state.clear_content()
            self._glides.pieces = []
            self._zones.clear()
            self._geometry_cache = None
            self._update_accessible()
            self.updateGeometry()
            self.update()

    def _hint(self, square: int) -> QSize:
        extra_w, extra_h = extra_squares(self._zones.zones)
        return QSize(math.ceil((self._state.files + extra_w) * square),
                     math.ceil((self._state.ranks + extra_h) * square))

    def sizeHint(self) -> QSize:
        """64 pixels a square (zones beside the board measured in squares too)."""
        return self._hint(_HINT_SQUARE)

    def minimumSizeHint(self) -> QSize:
        """20 pixels a square."""
        return self._hint(_MIN_SQUARE)

    def zone_layout(self) -> ZoneLayout | None:
        """Where the board and each off-board zone are drawn now; None when the scene has no zones."""
        return self._zones.layout(self.width(), self.height())

    def _geometry(self) -> BoardGeometry:
        """Where the squares are now (worked out again only when the size, orientation or zones change)."""
        state = self._state
        key = (self.width(), self.height(), state.files, state.ranks, state.flipped)
        if self._geometry_cache is None or self._geometry_cache[0] != key:
            layout = self.zone_layout()
            if layout is None:
                geometry = BoardGeometry.fit(state.files, state.ranks, state.flipped, self.width(), self.height())
            else:
                geometry = BoardGeometry.at(state.files, state.ranks, state.flipped, layout.board, layout.square)
            self._geometry_cache = key, geometry
        return self._geometry_cache[1]

    def square_size(self) -> int:
        """The side of a square in pixels (the largest that fits beside the zones; at least 1)."""
        return self._geometry().size

    def board_rect(self) -> QRect:
        """Where the board is drawn: centred in the widget (in what the zones leave of it)."""
        return self._geometry().board_rect()

    def on_board(self, square: Cell) -> bool:
        """Whether ``square`` lies on the board."""
        return self._state.on_board(square)

    def square_rect(self, square: Cell) -> QRect:
        """The pixel rectangle of ``square`` in widget coordinates."""
        return self._geometry().square_rect(square)

    def square_at(self, pos: QPoint | QPointF) -> Cell | None:
        """The square under a widget position, or ``None`` outside the board."""
        return self._geometry().square_at(pos)

    # ------------------------------------------------------------------ appearance

    def theme(self) -> BoardTheme:
        """The current theme."""
        return self._state.theme

    @Slot(str)
    def set_theme(self, name: str) -> None:
        """Chooses a theme from :data:`THEMES` ("brown", "blue", "green", "grey")."""
        key = name.strip().lower()
        if key not in THEMES:
            raise ValueError(f"unknown board theme {name!r} (known: {', '.join(THEMES)})")
        self._state.theme = THEMES[key]
        self.update()

    def is_flipped(self) -> bool:
        """Whether Black is at the bottom."""
        return self._state.flipped

    @Slot(bool)
    def set_flipped(self, flipped: bool) -> None:
        """Puts Black at the bottom when ``flipped``."""
        if bool(flipped) != self._state.flipped:
            self._state.flipped = bool(flipped)
            self._pointer.close_chooser()
            self._pointer.follow_pick_hover(None)
            self.update()

    @Slot()
    def flip(self) -> None:
        """Turns the board around."""
        self.set_flipped(not self._state.flipped)

    def coordinates_visible(self) -> bool:
        """Whether file letters and rank numbers are drawn."""
        return self._state.coordinates

    @Slot(bool)
    def set_coordinates_visible(self, visible: bool) -> None:
        """Shows or hides the coordinates drawn inside the edge squares."""
        self._state.coordinates = bool(visible)
        self.update()

    # ------------------------------------------------------------------ content

    def pieces(self) -> dict[Cell, str]:
        """The pieces drawn, by square (a copy)."""
        return dict(self._state.pieces)

    def _on_board_or_error(self, square: Cell, what: str) -> Cell:
        square = (int(square[0]), int(square[1]))
        if not self.on_board(square):
            raise ValueError(f"{what} on {square}, off the {self._state.files}x{self._state.ranks} board")
        return square

    def _checked_pieces(self, pieces_by_square: Mapping[Cell, str], what: str) -> dict[Cell, str]:
        result: dict[Cell, str] = {}
        for square, letter in pieces_by_square.items():
            square = self._on_board_or_error(square, what)
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
        state = self._state
        new = self._checked_pieces(pieces_by_square, "piece")
        state.piece_notes = {(int(cell[0]), int(cell[1])): str(text) for cell, text in (notes or {}).items()}
        seen_now = frozenset(last_seen)
        self._glides.pieces_changed(state.pieces, new, state.last_seen, seen_now, state.dropped)
        state.dropped = None
        state.pieces, state.last_seen = new, seen_now
        self._update_accessible()
        self.update()

    def glide_ms(self) -> int:
        """How long a moved piece takes to glide to its square, in milliseconds (0: no animation)."""
        return self._glides.ms

    def set_glide_ms(self, milliseconds: int) -> None:
        """Sets how long a moved piece glides (0 turns animation off; a glide under way ends at once)."""
        self._glides.set_ms(milliseconds)

    def gliding(self) -> list[tuple[str, Cell, Cell]]:
        """The pieces on their way now (letter, from, to)."""
        return list(self._glides.pieces)

    def sliding_card(self) -> CardSlide | None:
        """The card on its way between zones now (face, from, to, zone id, index), if one is."""
        return self._glides.card_slide

    def ghosts(self) -> dict[Cell, str]:
        """The hypothesised pieces drawn translucent (a copy)."""
        return dict(self._state.ghosts)

    def set_ghosts(self, ghosts: Mapping[Cell, str]) -> None:
        """Sets hypothesised pieces, drawn translucent in a dashed ring (hidden under a real piece)."""
        self._state.ghosts = self._checked_pieces(ghosts, "ghost")
        self.update()

    def heat(self) -> dict[Cell, float]:
        """The heat map drawn: a value from 0 to 1 by square (a copy; empty when there is none)."""
        return dict(self._state.heat)

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
            square = self._on_board_or_error(square, "heat")
            number = float(value)
            if math.isnan(number):
                raise ValueError(f"heat on {square_name(square)} is not a number")
            heat[square] = min(1.0, max(0.0, number))
        self._state.heat = heat
        self._state.heat_values = bool(show_values)
        self.update()

    def flags(self) -> dict[Cell, str]:
        """The flagged squares with their reasons (a copy)."""
        return dict(self._state.flags)

    def set_flags(self, flags: Mapping[Cell, str]) -> None:
        """Marks squares whose hypothesised piece contradicts what the seat knows; the reason shows as a tooltip.

        A flagged square gets a red badge in its bottom-left corner, and a ghost on it a
        red ring instead of the dark dashed one.
        """
        self._state.flags = {self._on_board_or_error(square, "flag"): str(reason) for square, reason in flags.items()}
        self.update()

    def move_targets(self) -> MoveTargets:
        """The move targets given (a copy)."""
        return {origin: {dest: list(p) for dest, p in dests.items()} for origin, dests in self._state.targets.items()}

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
        state = self._state
        if new == state.targets:
            return
        state.targets = new
        if state.selected is not None and state.selected not in new:
            state.selected = None
        if state.drag.origin is not None and state.drag.origin not in new:
            state.drag.end()
        if state.pending is not None:
            origin, dest = state.pending
            if dest not in new.get(origin, {}):
                self._pointer.close_chooser()
        self._pointer.update_pointer_shape(None)
        self.update()

    def last_move(self) -> tuple[Cell, Cell] | None:
        """The highlighted last move, if any."""
        return self._state.last_move

    def set_last_move(self, from_sq: Cell | None, to_sq: Cell | None = None) -> None:
        """Highlights the last move's two squares; ``None`` clears the highlight."""
        if from_sq is None or to_sq is None:
            self._state.last_move = None
        else:
            self._state.last_move = ((int(from_sq[0]), int(from_sq[1])), (int(to_sq[0]), int(to_sq[1])))
        self.update()

    def markers(self) -> list[Marker]:
        """The markers drawn (a copy)."""
        return list(self._state.markers)

    def set_markers(self, markers: Iterable[Marker | MarkerLike]) -> None:
        """Sets the markers; anything with ``kind``, ``squares``, ``label`` and ``opacity`` is accepted."""
        self._state.markers = [
            m if isinstance(m, Marker) else Marker(m.kind, tuple(m.squares), m.label, m.opacity) for m in markers
        ]
        self.update()

    def zones(self) -> list[Zone]:
        """The off-board zones drawn (a copy)."""
        return list(self._zones.zones)

    def set_zones(self, zones: Iterable[Zone]) -> None:
        """Sets the off-board zones (hands, piles, tracks, trays, grids, counters on squares); ids must be unique.

        Zones take room beside the board, so the board shrinks to leave it; with none it fills the widget. A card
        that went from one zone to another slides there.
        """
        new = list(zones)
        if not self._zones.differs(new):
            return
        old = self._zones.zones
        before = self.zone_layout() if self._glides.animating() and old and new else None
        resized = extra_squares(new) != extra_squares(old)
        self._zones.replace(new)
        self._geometry_cache = None
        self._glides.card_slide = None  # a slide under way belonged to the zones shown before
        if before is not None:
            self._glides.slide_card(self._zones.moved_card(before, self.zone_layout()))
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
        return self._zones.item_at(self.zone_layout(), pos)

    # ------------------------------------------------------------------ modes

    def is_interactive(self) -> bool:
        """Whether the board takes moves, senses and clicks."""
        return self._state.interactive

    @Slot(bool)
    def set_interactive(self, interactive: bool) -> None:
        """Enables or disables all left-button input (annotations follow :meth:`set_annotations_enabled`)."""
        self._state.interactive = bool(interactive)
        if not self._state.interactive:
            self._pointer.cancel()
        self._pointer.update_pointer_shape(None)
        self.update()

    def annotations_enabled(self) -> bool:
        """Whether the right button draws arrows and circles."""
        return self._state.annotations_enabled

    @Slot(bool)
    def set_annotations_enabled(self, enabled: bool) -> None:
        """Enables or disables drawing arrows and circles (the ones drawn stay)."""
        self._state.annotations_enabled = bool(enabled)
        if not enabled:
            self._state.notes.cancel()
            self.update()

    def sense_mode(self) -> bool:
        """Whether a left click asks for a sense."""
        return self._state.sense_enabled

    def set_sense_mode(self, enabled: bool, window: SenseWindow | None = None) -> None:
        """Turns sense mode on or off.

        While on, hovering a square highlights ``window(square)`` (by default the 3x3
        window clipped at the edges) and a left click emits ``senseRequested(square)``
        instead of selecting pieces.
        """
        state = self._state
        if bool(enabled) == state.sense_enabled:
            # The same mode redrawn (a bot answered, the clock or the belief panel moved on): a sense waiting for
            # its confirmation, the window under the pointer and a chosen piece stay, as long as they still fit.
            state.sense_window = window
            if state.proposed is not None and not state.proposed_window():
                self._pointer.forget_proposal()
            if enabled:
                hovered, state.sense_hover = state.sense_hover, None
                self._pointer.follow_pick_hover(hovered)
            self.update()
            return
        state.sense_enabled = bool(enabled)
        state.sense_window = window
        self._pointer.forget_proposal()
        state.selected = None
        state.drag.end()
        hovered = state.sense_hover
        state.sense_hover = None
        state.hover_window = []
        if state.sense_enabled and hovered is not None:
            self._pointer.follow_pick_hover(hovered)
        elif state.sense_enabled and self.underMouse():
            self._pointer.follow_pick_hover(self.square_at(self.mapFromGlobal(QCursor.pos())))
        self._pointer.update_pointer_shape(None)
        self.update()

    def sense_confirmation(self) -> str:
        """How a sense is confirmed: one of :data:`SENSE_CONFIRM`."""
        return self._state.sense_confirm

    def set_sense_confirmation(self, how: str) -> None:
        """Choose how a left click asks for a sense (:data:`SENSE_CONFIRM`): a stray click then loses nothing."""
        if how not in SENSE_CONFIRM:
            raise ValueError(f"unknown sense confirmation {how!r}")
        self._state.sense_confirm = how
        self._pointer.forget_proposal()

    def proposed_sense(self) -> Cell | None:
        """The square of a sense clicked once and waiting for its confirmation, if any."""
        return self._state.proposed

    def hovered_window(self) -> list[Cell]:
        """The squares highlighted by the sense hover (empty when none)."""
        return list(self._state.hover_window)

    def selected_square(self) -> Cell | None:
        """The selected piece's square, if any."""
        return self._state.selected

    def promotion_chooser(self) -> PromotionChooser | None:
        """The promotion chooser while it is open."""
        return self._pointer.chooser

    # ------------------------------------------------------------------ annotations

    def annotations(self) -> tuple[list[tuple[Cell, Cell]], list[Cell]]:
        """The player's arrows ``(from, to)`` and circled squares."""
        return list(self._state.notes.arrows), list(self._state.notes.circles)

    def set_annotations(
        self, arrows: Iterable[tuple[Cell, Cell]] = (), circles: Iterable[Cell] = ()
    ) -> None:
        """Restores arrows and circles; emits ``annotationsChanged`` if they differ."""
        if self._state.notes.set(arrows, circles):
            self.update()
            self.annotationsChanged.emit()

    @Slot()
    def clear_annotations(self) -> None:
        """Removes every arrow and circle."""
        self.set_annotations([], [])

    # ------------------------------------------------------------------ words

    def describe_square(self, square: Cell) -> str:
        """What the square's tooltip says: its name, its piece or ghost, a flag's reason, the heat, its markers."""
        return describe_square(self._state, square)

    def describe_at(self, pos: QPoint | QPointF) -> str:
        """What the tooltip says at a widget position: a square's words, or an item's beside the board ("" for
        none)."""
        square = self.square_at(pos)
        if square is not None:
            return self.describe_square(square)
        item = self.zone_item_at(pos)
        return "" if item is None else self._zones.describe_item(item)

    def _update_accessible(self) -> None:
        self.setAccessibleDescription(board_description(self._state, self._zones.description()))

    # ------------------------------------------------------------------ mouse (board_input does the work)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Left: select, move or sense; right: start an arrow or circle."""
        if not self._pointer.press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Drags a piece, previews an arrow, follows the sense window."""
        self._pointer.move(event.position())
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Drops a dragged piece; finishes an arrow or toggles a circle."""
        if not self._pointer.release(event):
            super().mouseReleaseEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        """Forgets the sense hover."""
        self._pointer.follow_pick_hover(None)
        super().leaveEvent(event)

    # ------------------------------------------------------------------ keyboard (board_keyboard does the work)

    def cursor_square(self) -> Cell | None:
        """The keyboard's square cursor (shown while the board has the focus), or None."""
        return self._state.cursor

    def set_cursor_square(self, square: Cell | None) -> None:
        """Put the keyboard's square cursor on ``square``, and tell a screen reader what is there."""
        self._keyboard.set_square(square)

    def forget_cursor(self) -> None:
        """Take the keyboard cursors away (the screen passes to another person: where the last one's cursor
        rested is theirs, and so is an arrow begun from the keyboard)."""
        self._keyboard.forget()

    def zone_cursor(self) -> tuple[str, int] | None:
        """The keyboard's cursor on an item beside the board (zone id, item index), or None."""
        return self._state.zone_cursor

    def event(self, event: QEvent) -> bool:
        """The board's own keys before the window's shortcuts; tooltips (a square's words, or a zone item's)."""
        if event.type() == QEvent.Type.ShortcutOverride and self._keyboard.takes(event):
            event.accept()  # the arrow keys move the square cursor here, not through the move list
            return True
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.describe_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        """Arrow keys move the square cursor (up is up on the screen, whichever way the board is turned); Enter
        or Space acts on its square as a left click does; Shift+Enter draws arrows and circles; Page Down and Page
        Up go through the items beside the board; Escape drops what the board holds (see
        :meth:`app.ui.board_keyboard.KeyboardCursor.key_press`)."""
        if not self._keyboard.key_press(event):
            super().keyPressEvent(event)

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
        state, glides, focused = self._state, self._glides, self.hasFocus()
        return BoardPicture(
            geometry=self._geometry(), theme=state.theme, font=self.font(), coordinates=state.coordinates,
            pieces=state.pieces, ghosts=state.ghosts, heat=state.heat, heat_values=state.heat_values,
            flags=state.flags, targets=state.targets, last_move=state.last_move, markers=state.markers,
            arrows=state.notes.arrows, circles=state.notes.circles, right_from=state.notes.draft_from,
            right_to=state.notes.draft_to,
            selected=state.selected, drag_from=state.drag.origin, dragging=state.drag.dragging,
            drag_pos=state.drag.pos, hover_square=state.drag.over, hover_window=state.hover_window,
            sense_hover=state.sense_hover,
            sense_enabled=state.sense_enabled, pending=state.pending, zones=self._zones.zones,
            zone_layout=self.zone_layout(),
            label_colour=self.palette().color(QPalette.ColorRole.WindowText),
            glides=glides.pieces, glide_progress=glides.progress(), card_slide=glides.card_slide,
            proposed_window=state.proposed_window(),
            cursor=state.cursor if focused and state.zone_cursor is None else None,
            zone_cursor=self._keyboard.zone_cursor_rect() if focused else None,
            proposal_label="hold" if state.sense_confirm == "hold" and not state.proposed_by_key else "again",
        )
