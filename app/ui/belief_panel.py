"""The belief panel: one seat's notebook of supposed enemy pieces, beside the main board.

:class:`BeliefPanel` shows a small board with what the seat knows (its own pieces and
the enemy pieces its observations showed, from :mod:`app.games.scene`) and, drawn as
translucent ghosts, the enemy pieces the player *supposes* (an
:class:`app.engine.belief.BeliefBoard`). Below it:

- a palette of the opponent's piece types with ``placed/possible`` counts (from
  :func:`app.engine.belief.palette_counts`): drag a piece onto the board, or click it and
  then click squares;
- buttons Undo, Redo (also Ctrl+Z and Ctrl+Shift+Z), Clear, Start (the opponent's starting
  position, in one step) and Fix flagged;
- switches for the ghost overlay on the main board, the heat map and the position count. They belong to the
  seat: a :class:`SeatBelief` (the board a game hands out for a person's seat) carries them, so in hot-seat each
  player finds their own and a new game starts with them off.

On the board a supposed piece is moved by dragging it, and removed by dragging it off the
board or by a right click. Pieces that contradict what the seat was told are flagged (a red
badge and ring); the reason is the square's tooltip.

The panel reads inference results as plain data (:meth:`BeliefPanel.set_heat`: a chance per
square and a status text such as "about 12,400 positions possible"); it does not compute
them. Signals: ``hypothesesChanged()``, ``overlayToggled(bool)``, ``heatMapToggled(bool)``,
``countToggled(bool)``, ``paletteHovered(piece type or None)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import chess
from PySide6.QtCore import QByteArray, QEvent, QMimeData, QObject, QPoint, QPointF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QDrag,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.engine.belief import (
    PALETTE_ORDER,
    STANDARD_ARMY,
    ArmyCounts,
    BeliefBoard,
    PieceType,
    palette_counts,
)
from app import games
from app.ui import pieces
from app.ui.board_widget import BoardWidget, Marker, Cell
from app.ui.elided_label import ElidedLabel

__all__ = ["MIME_TYPE", "BeliefBoardWidget", "BeliefPanel", "BeliefSwitches", "PaletteButton", "SeatBelief",
           "palette_mime"]

MIME_TYPE = "application/x-sightline-belief-piece"
"""The drag data of a palette piece: its FEN letter in the enemy's colour."""

_DRAG_THRESHOLD = 4
_MIN_SQUARE = 18  # pixels: the smallest squares the panel's board shrinks to before the panel scrolls
_MIN_VISIBLE_HEIGHT = 120  # pixels: a dock never squeezes the panel below this (it scrolls inside instead)


def to_square(square: int) -> Cell:
    """A python-chess square as the board widget's ``(file, rank)``."""
    return chess.square_file(square), chess.square_rank(square)


def from_square(square: Cell) -> int:
    """A board widget ``(file, rank)`` as a python-chess square."""
    return chess.square(square[0], square[1])


def _belief_game_of(view: Any) -> str:
    """The key of the game whose seats keep a belief board and whose view ``view`` is; ``TypeError`` if none."""
    kept = [definition for definition in games.all() if definition.belief]
    for definition in kept:
        if isinstance(view, definition.view()):
            return definition.key
    titles = " and ".join(definition.title for definition in kept)
    raise TypeError(f"the belief board is for {titles}, not {type(view).__name__}")


def palette_mime(letter: str) -> QMimeData:
    """The drag data of a palette piece (``letter`` is a FEN letter)."""
    data = QMimeData()
    data.setData(MIME_TYPE, QByteArray(letter.encode("ascii")))
    data.setText(letter)
    return data


def _letter_of(data: QMimeData) -> str | None:
    if not data.hasFormat(MIME_TYPE):
        return None
    letter = bytes(data.data(MIME_TYPE).data()).decode("ascii", "replace")
    return letter if len(letter) == 1 and letter in pieces.PIECE_LETTERS else None


@dataclass(frozen=True)
class BeliefSwitches:
    """Which of the panel's aids a seat has turned on: ghosts on the main board, the heat map, the position count.

    Each seat has its own (in hot-seat, what White turned on says something about White's play, so Black must
    not inherit it). Kept in the record as the seat's ``switches`` note.

    >>> BeliefSwitches.from_json({"ghosts": True, "heat_map": "yes", "colour": 3})
    BeliefSwitches(ghosts=True, heat_map=False, count=False)
    >>> BeliefSwitches(count=True).to_json()
    {'ghosts': False, 'heat_map': False, 'count': True}
    """

    ghosts: bool = False
    heat_map: bool = False
    count: bool = False

    def to_json(self) -> dict[str, bool]:
        return {"ghosts": self.ghosts, "heat_map": self.heat_map, "count": self.count}

    @classmethod
    def from_json(cls, data: object) -> "BeliefSwitches":
        """Read leniently: a note from a damaged file turns a switch off, it never stops the game."""
        if not isinstance(data, Mapping):
            return cls()
        return cls(*(data.get(name) is True for name in ("ghosts", "heat_map", "count")))


@dataclass
class SeatBelief(BeliefBoard):
    """A person's belief board together with the panel switches they chose.

    The panel shows a seat's switches when it is given its board (:meth:`BeliefPanel.set_belief`), writes the
    player's changes back here and calls ``on_switches_changed`` so that the owner can keep them in the record.
    A plain :class:`BeliefBoard` (nobody's, behind the curtain) shows every switch off.
    """

    switches: BeliefSwitches = field(default_factory=BeliefSwitches)
    on_switches_changed: Callable[[], None] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def holding(cls, board: BeliefBoard, switches: BeliefSwitches) -> "SeatBelief":
        """A seat's board with the pieces (and their stamps) and the undo history of ``board``."""
        return cls(board.enemy, board.ply, _pieces=board.hypotheses(), _undo=list(board._undo),
                   _redo=list(board._redo), switches=switches)


class BeliefBoardWidget(BoardWidget):
    """The panel's board: ghosts are supposed pieces that the player drags, drops and right-clicks away.

    It holds no belief itself; it reports what the player asks for:

    - ``pieceDropped(square, letter)``: a palette piece dropped (or click-placed) on ``square``;
    - ``pieceMoved(from_square, to_square)``: a supposed piece dragged to another square;
    - ``pieceRemoved(square)``: a supposed piece dragged off the board or right-clicked.
    """

    pieceDropped = Signal(object, str)
    pieceMoved = Signal(object, object)
    pieceRemoved = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.set_annotations_enabled(False)
        self.setAcceptDrops(True)
        self.setMinimumSize(QSize(8 * _MIN_SQUARE, 8 * _MIN_SQUARE))
        self._armed: str | None = None  # palette letter placed by a click on a square
        self._press_square: Cell | None = None
        self._press_pos = QPointF()
        self._drag_letter: str | None = None
        self._drag_at = QPointF()
        self._dragging_ghost = False
        self._drop_hover: Cell | None = None
        self._saved_ghosts: dict[Cell, str] = {}

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The board is square: never taller than it is wide, so spare height goes below the panel's controls.

        A cap rather than height-for-width: height-for-width would make the board's height rigid, and a short
        dock could then only cut the panel off instead of shrinking the board.
        """
        super().resizeEvent(event)
        files, ranks = self.board_size()
        self.setMaximumHeight(max(self.minimumHeight(), round(self.width() * ranks / files)))

    def set_armed(self, letter: str | None) -> None:
        """A palette piece chosen by a click: a left click on a square places it there."""
        self._armed = letter
        self.setCursor(Qt.CursorShape.CrossCursor if letter else Qt.CursorShape.ArrowCursor)

    def armed(self) -> str | None:
        return self._armed

    # -- supposed pieces moved by the mouse -------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        square = self.square_at(event.position())
        ghosts = self.ghosts()
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            if square is not None and square in ghosts:
                self.pieceRemoved.emit(square)
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        if square is None:
            return
        if square in ghosts:
            self._press_square = square
            self._press_pos = QPointF(event.position())
            self._drag_letter = ghosts[square]
            self._dragging_ghost = False
        elif self._armed is not None:
            self.pieceDropped.emit(square, self._armed)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press_square is not None:
            delta = event.position() - self._press_pos
            if not self._dragging_ghost and abs(delta.x()) + abs(delta.y()) >= _DRAG_THRESHOLD:
                self._dragging_ghost = True
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
                # The piece leaves its square while it follows the cursor.
                self._saved_ghosts = self.ghosts()
                super().set_ghosts({s: l for s, l in self._saved_ghosts.items() if s != self._press_square})
            if self._dragging_ghost:
                self._drag_at = QPointF(event.position())
                self.update()
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press_square is None:
            event.accept()
            return
        event.accept()
        origin, dragging = self._press_square, self._dragging_ghost
        self._press_square, self._drag_letter, self._dragging_ghost = None, None, False
        self.set_armed(self._armed)  # restores the cursor
        if not dragging:
            self.update()
            return
        super().set_ghosts(self._saved_ghosts)  # whoever listens redraws the result
        square = self.square_at(event.position())
        if square is None:
            self.pieceRemoved.emit(origin)
        elif square != origin:
            self.pieceMoved.emit(origin, square)

    def dragged_square(self) -> Cell | None:
        """The square of the supposed piece being dragged, if any."""
        return self._press_square if self._dragging_ghost else None

    # -- palette pieces dropped from outside ------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _letter_of(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        square = self.square_at(event.position())
        if _letter_of(event.mimeData()) is None or square is None:
            event.ignore()
            self._set_drop_hover(None)
            return
        event.acceptProposedAction()
        self._set_drop_hover(square)

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self._set_drop_hover(None)
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self._set_drop_hover(None)
        letter = _letter_of(event.mimeData())
        square = self.square_at(event.position())
        if letter is None or square is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.pieceDropped.emit(square, letter)

    def _set_drop_hover(self, square: Cell | None) -> None:
        if square != self._drop_hover:
            self._drop_hover = square
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        """The board, then the square under a palette drag and the supposed piece being dragged."""
        super().paintEvent(event)
        if self._drop_hover is None and not self._dragging_ghost:
            return
        painter = QPainter(self)
        size = self.square_size()
        if self._drop_hover is not None:
            painter.fillRect(self.square_rect(self._drop_hover), QColor(20, 85, 30, 77))
            painter.setPen(QPen(QColor(20, 85, 30, 200), max(2, size // 20)))
            painter.drawRect(self.square_rect(self._drop_hover).adjusted(1, 1, -2, -2))
        if self._dragging_ghost and self._drag_letter is not None:
            pixmap = pieces.ghost_pixmap(self._drag_letter, size, self.devicePixelRatioF(), 0.8)
            painter.drawPixmap(QPointF(self._drag_at.x() - size / 2, self._drag_at.y() - size / 2), pixmap)
        painter.end()


class PaletteButton(QToolButton):
    """One opponent piece type: drag it onto the board, or click it to place it by clicking squares."""

    hovered = Signal(object)  # the piece type, or None when the mouse leaves

    def __init__(self, piece_type: PieceType, letter: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.piece_type = piece_type
        self.letter = letter
        self._press: QPoint | None = None
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        self.setIconSize(QSize(32, 32))
        self.setIcon(QIcon(pieces.piece_pixmap(letter, 32, self.devicePixelRatioF())))
        # As wide as the widest count it shows in a game (two figures placed, as many as the opponent's army has,
        # and "+" where a promotion may add more), whatever it shows now: a count never widens the panel.
        most = STANDARD_ARMY[piece_type]
        self.setText(f"{most}/{most}" if piece_type == chess.KING else
                     f"10/{most}" + ("" if piece_type == chess.PAWN else "+"))
        self._widest = super().sizeHint()
        self.setText("")
        self.setObjectName(f"palette-{chess.piece_symbol(piece_type)}")
        self.setAccessibleName(f"Suppose a {pieces.piece_name(letter)}")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self._widest.width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.sizeHint()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            if (event.position().toPoint() - self._press).manhattanLength() >= QApplication.startDragDistance():
                self._press = None
                self.setDown(False)
                self._start_drag()
                return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._press = None
        super().mouseReleaseEvent(event)

    def _start_drag(self) -> None:
        drag = QDrag(self)
        drag.setMimeData(palette_mime(self.letter))
        size = 44
        drag.setPixmap(pieces.piece_pixmap(self.letter, size, self.devicePixelRatioF()))
        drag.setHotSpot(QPoint(size // 2, size // 2))
        drag.exec(Qt.DropAction.CopyAction)

    def enterEvent(self, event: Any) -> None:
        self.hovered.emit(self.piece_type)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self.hovered.emit(None)
        super().leaveEvent(event)


class _ScrollWhenShort(QScrollArea):
    """Holds the panel's contents: they fill the area, and scroll only when it is shorter than they can shrink.

    QScrollArea's own resizing (``widgetResizable``) sizes contents with word-wrapped labels by their preferred
    height for the width, which would scroll the panel at every ordinary dock size; here the contents get the
    whole width and at least the minimum height their layout needs for that width.
    """

    def __init__(self, content: QWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWidgetResizable(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(content)
        content.installEventFilter(self)
        self._fitting = False
        self._fit()

    def _content_minimum(self, content: QWidget, width: int) -> int:
        layout = content.layout()
        if layout is None:
            return content.minimumSizeHint().height()
        return max(layout.totalMinimumSize().height(), layout.totalMinimumHeightForWidth(width))

    def _fit(self) -> None:
        content = self.widget()
        if content is None or self._fitting:
            return
        self._fitting = True
        try:
            layout = content.layout()
            minimum_width = layout.totalMinimumSize().width() if layout is not None else 0
            # Wide enough for the contents and a vertical scroll bar: the panel never scrolls sideways.
            self.setMinimumWidth(minimum_width + self.verticalScrollBar().sizeHint().width())
            width = max(self.viewport().width(), minimum_width)
            height = max(self.viewport().height(), self._content_minimum(content, width))
            if content.size() != QSize(width, height):
                content.resize(width, height)
        finally:
            self._fitting = False

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), _MIN_VISIBLE_HEIGHT))

    def sizeHint(self) -> QSize:
        content = self.widget()
        return content.sizeHint() if content is not None else super().sizeHint()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit()
        return super().viewportEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit()  # a label appeared or went away: the contents' minimum may have changed
        return super().eventFilter(watched, event)


class BeliefPanel(QWidget):
    """One seat's belief board with its palette, history buttons and inference switches.

    Feed it with :meth:`set_view` after every observation of the seat (it recomputes the
    palette counts and the flags) and with :meth:`set_heat` when inference results come.
    :meth:`apply_overlay` draws the ghosts, flags and heat map on another board widget
    (the main board), as the switches say.
    """

    hypothesesChanged = Signal()
    overlayToggled = Signal(bool)
    heatMapToggled = Signal(bool)
    countToggled = Signal(bool)
    paletteHovered = Signal(object)

    def __init__(self, parent: QWidget | None = None, seat_colour: chess.Color = chess.WHITE) -> None:
        super().__init__(parent)
        self.setObjectName("beliefPanel")
        self._belief = BeliefBoard(enemy=not seat_colour)
        self._seat_colour = seat_colour
        self._view: Any = None  # the seat's view, of a game with the belief board kit
        self._game = games.default().key  # the key of that game
        self._flags: dict[int, str] = {}
        self._counts: ArmyCounts | None = None
        self._heat: dict[int, float] | None = None
        self._heat_by_type: dict[PieceType, dict[int, float]] = {}
        self._status = ""
        self._heat_note = ""  # said while the heat map is on and its figures are estimates
        self._possible: dict[PieceType, int] | None = None  # where each enemy type may stand (fresh inference)
        self._hovered_type: PieceType | None = None
        self._showing_switches = False  # set while a seat's switches are put on the boxes: not the player's doing

        self.board = BeliefBoardWidget(self)
        self.board.setAccessibleName("Belief board")
        self.board.pieceDropped.connect(self._on_dropped)
        self.board.pieceMoved.connect(self._on_moved)
        self.board.pieceRemoved.connect(self._on_removed)

        content = QWidget(self)
        content.setObjectName("beliefPanelContent")
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.board)

        palette_row = QHBoxLayout()
        palette_row.setSpacing(0)
        self._palette: dict[PieceType, PaletteButton] = {}
        for piece_type in PALETTE_ORDER:
            button = PaletteButton(piece_type, chess.Piece(piece_type, self._belief.enemy).symbol(), self)
            button.clicked.connect(lambda checked=False, t=piece_type: self._on_palette_clicked(t, checked))
            button.hovered.connect(self._on_palette_hovered)
            palette_row.addWidget(button)
            self._palette[piece_type] = button
        layout.addLayout(palette_row)

        buttons = QHBoxLayout()
        buttons.setSpacing(3)
        self.undo_action = self._action("Undo", "Take back the last change", self.undo,
                                        [QKeySequence("Ctrl+Z")])
        self.redo_action = self._action("Redo", "Do again the change taken back", self.redo,
                                        [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.undo_button = self._button(self.undo_action)
        self.redo_button = self._button(self.redo_action)
        self.clear_button = self._plain_button("Clear", "Remove every supposed piece", self.clear)
        self.start_button = self._plain_button("Start", "Suppose the opponent's pieces stand where they started",
                                               self.place_starting_position)
        self.fix_button = self._plain_button("Fix flagged", "Remove the flagged pieces, or move them where a "
                                             "piece of their type was seen", self.fix_flagged)
        for history_button in (self.undo_button, self.redo_button, self.clear_button, self.start_button,
                               self.fix_button):
            buttons.addWidget(history_button)
        layout.addLayout(buttons)

        toggles = QHBoxLayout()
        self.overlay_box = QCheckBox("Ghosts", self)
        self.overlay_box.setToolTip("Draw the supposed pieces on the main board")
        self.heat_box = QCheckBox("Heat map", self)
        self.heat_box.setToolTip("Tint each square by the chance that an enemy piece stands there;\n"
                                 "hovering a palette piece shows where that piece can be")
        self.count_box = QCheckBox("Count", self)
        self.count_box.setToolTip("Show how many positions fit what you know")
        for box in (self.overlay_box, self.heat_box, self.count_box):
            toggles.addWidget(box)
        toggles.addStretch(1)
        self.overlay_box.toggled.connect(self._on_overlay_toggled)
        self.heat_box.toggled.connect(self._on_heat_toggled)
        self.count_box.toggled.connect(self._on_count_toggled)
        layout.addLayout(toggles)

        # The texts below keep their room whatever they say and whether they are shown (a longer text is cut, whole
        # in its tooltip): placing a piece or flipping a switch never moves a button or shrinks the board. The hint
        # (an empty board) and the flags (supposed pieces) never show together: they share one place.
        messages = QGridLayout()
        messages.setContentsMargins(0, 0, 0, 0)
        self.hint = ElidedLabel("Drag a piece onto the board, or click it and then click squares.", self, lines=2)
        self.hint.setStyleSheet("color: palette(placeholder-text);")
        self.flag_label = ElidedLabel(parent=self, lines=2)
        self.flag_label.setStyleSheet("color: #c62828;")
        messages.addWidget(self.hint, 0, 0)
        messages.addWidget(self.flag_label, 0, 0)
        layout.addLayout(messages)
        self.status_label = ElidedLabel(parent=self, lines=2)
        self.status_label.setObjectName("positionCount")
        layout.addWidget(self.status_label)
        layout.addStretch(1)  # spare height goes below: the board stays square (its height is capped)

        self.scroll_area = _ScrollWhenShort(content, self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)

        self._refresh()

    def _action(self, text: str, tip: str, slot: Any, keys: list[QKeySequence]) -> QAction:
        action = QAction(text, self)
        action.setShortcuts(keys)
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(f"{tip} ({keys[0].toString(QKeySequence.SequenceFormat.NativeText)})")
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _button(self, action: QAction) -> QToolButton:
        button = QToolButton(self)
        button.setDefaultAction(action)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        return button

    def _plain_button(self, text: str, tip: str, slot: Any) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    # ------------------------------------------------------------------ state

    def belief(self) -> BeliefBoard:
        """The belief board shown (the panel changes it in place)."""
        return self._belief

    def set_belief(self, belief: BeliefBoard) -> None:
        """Show another belief board (say, the other seat's in a hot-seat game).

        The switches follow the board: a :class:`SeatBelief` brings its seat's own, any other board shows them
        all off, so nothing one seat turned on is left for the next.
        """
        self._belief = belief
        self._seat_colour = not belief.enemy
        if self._view is not None:
            belief.ply = self._view.ply
        self._update_palette_letters()
        self._show_switches(belief.switches if isinstance(belief, SeatBelief) else BeliefSwitches())
        self._changed(emit=True)

    def switches(self) -> BeliefSwitches:
        """The switches as the boxes show them now."""
        return BeliefSwitches(self.overlay_box.isChecked(), self.heat_box.isChecked(), self.count_box.isChecked())

    def _show_switches(self, switches: BeliefSwitches) -> None:
        self._showing_switches = True
        try:
            self.overlay_box.setChecked(switches.ghosts)
            self.heat_box.setChecked(switches.heat_map)
            self.count_box.setChecked(switches.count)
        finally:
            self._showing_switches = False

    def seat_colour(self) -> chess.Color:
        return self._seat_colour

    def set_view(self, view: Any, seat_colour: chess.Color, game: str | None = None) -> None:
        """What the seat knows now: redraws the known pieces and recomputes the counts and flags.

        ``game`` is the key of the view's game (found from the view's class when not given). A seat of the other
        colour than the belief board's starts a fresh, empty one, with every switch off. Raises ``TypeError``
        for a game with no hidden pieces.
        """
        self._game = game if game is not None else _belief_game_of(view)
        if seat_colour == self._belief.enemy:
            self._belief = BeliefBoard(enemy=not seat_colour)
            self._update_palette_letters()
            self._show_switches(BeliefSwitches())
        self._seat_colour = seat_colour
        self._view = view
        self._possible = None  # from the previous observations: the opponent may have moved since
        self._belief.ply = view.ply
        self.board.set_flipped(seat_colour == chess.BLACK)
        from app.games.presenter import presenter_for  # no Qt there; imported late to keep this module light
        scene = presenter_for(self._game).scene(view)
        self.board.set_pieces(scene.pieces, scene.last_seen)
        self.board.set_markers([Marker(m.kind, tuple(m.squares), m.label, m.opacity) for m in scene.markers])
        self.board.set_last_move(*(scene.last_move or (None, None)))
        self._changed(emit=False)

    def show_nobody(self, view: Any | None = None, game: str | None = None) -> None:
        """Show nobody's panel (behind the hot-seat curtain, or while a game without hidden pieces is played):
        ``view`` (a view of ``game`` that knows nothing; by default a new one of the game shown last), an empty
        belief board with every switch off, no heat map and no count."""
        game = game if game is not None else self._game
        if view is None:
            try:
                view = games.get(game).view()()
            except KeyError:
                return  # the game shown last is no longer registered: no view of it can be made
        self.set_view(view, chess.WHITE, game)
        self.set_belief(BeliefBoard(enemy=chess.BLACK))
        self.set_heat(None, "")

    def flags(self) -> dict[int, str]:
        """The flagged supposed pieces (python-chess squares) with their reasons."""
        return dict(self._flags)

    def ghosts(self) -> dict[Cell, str]:
        """The supposed pieces as the board widget draws them: FEN letters by ``(file, rank)``."""
        return {to_square(square): letter for square, letter in self._belief.letters().items()}

    def counts(self) -> ArmyCounts | None:
        """The palette counts from the last view (``None`` before :meth:`set_view`)."""
        return self._counts

    def overlay_enabled(self) -> bool:
        return self.overlay_box.isChecked()

    def heat_enabled(self) -> bool:
        return self.heat_box.isChecked()

    def count_enabled(self) -> bool:
        return self.count_box.isChecked()

    def palette_button(self, piece_type: PieceType) -> PaletteButton:
        return self._palette[piece_type]

    # ------------------------------------------------------------------ inference results

    def set_heat(self, probabilities: Mapping[int, float] | None, status: str = "",
                 by_type: Mapping[PieceType, Mapping[int, float]] | None = None, *,
                 possible: Mapping[PieceType, int] | None = None, heat_note: str = "") -> None:
        """Inference results as plain data: the chance of an enemy piece on each square, and a status text.

        ``by_type`` may give, for each piece type, the chance that a piece of that type
        stands on each square; the heat map shows it while the mouse is over that palette
        piece. (Or answer ``paletteHovered`` with :meth:`set_type_heat`.) ``None`` clears.
        ``possible`` (a bitboard per piece type, from inference over the seat's *current*
        observations) flags supposed pieces that no possible position allows; it is
        forgotten at the next :meth:`set_view`. ``heat_note`` is shown under the count
        while the heat map is on (e.g. that its figures are estimates).
        """
        self._heat = None if probabilities is None else {int(s): float(p) for s, p in probabilities.items()}
        self._heat_by_type = {int(t): {int(s): float(p) for s, p in values.items()}
                              for t, values in (by_type or {}).items()}
        self._status = status
        self._heat_note = heat_note
        if possible is not None or self._possible is not None:
            self._possible = None if possible is None else {int(t): int(b) for t, b in possible.items()}
            self._changed(emit=False)
        self._refresh_heat()
        self._refresh_status()

    def set_type_heat(self, piece_type: PieceType, probabilities: Mapping[int, float] | None) -> None:
        """Where ``piece_type`` can be (chance per square), shown while its palette piece is hovered."""
        if probabilities is None:
            self._heat_by_type.pop(piece_type, None)
        else:
            self._heat_by_type[piece_type] = {int(s): float(p) for s, p in probabilities.items()}
        self._refresh_heat()

    def shown_heat(self) -> dict[int, float] | None:
        """The heat map on the panel's board now (``None`` when it is off or there is none)."""
        if not self.heat_box.isChecked():
            return None
        if self._hovered_type is not None and self._hovered_type in self._heat_by_type:
            return dict(self._heat_by_type[self._hovered_type])
        return None if self._heat is None else dict(self._heat)

    def apply_overlay(self, board: BoardWidget) -> None:
        """Draw on ``board`` (the main board) what the switches ask for: ghosts with their flags, the heat map."""
        if self.overlay_box.isChecked():
            board.set_ghosts(self.ghosts())
            board.set_flags({to_square(square): reason for square, reason in self._flags.items()})
        else:
            board.set_ghosts({})
            board.set_flags({})
        heat = self.shown_heat()
        board.set_heat(None if heat is None else {to_square(s): p for s, p in heat.items()})

    # ------------------------------------------------------------------ actions

    def place_piece(self, square: int, piece_type: PieceType) -> bool:
        return self._do(lambda: self._belief.place(square, piece_type))

    def move_piece(self, origin: int, target: int) -> bool:
        return self._do(lambda: self._belief.move(origin, target))

    def remove_piece(self, square: int) -> bool:
        return self._do(lambda: self._belief.remove(square))

    def clear(self) -> bool:
        return self._do(self._belief.clear)

    def undo(self) -> bool:
        return self._do(self._belief.undo)

    def redo(self) -> bool:
        return self._do(self._belief.redo)

    def place_starting_position(self) -> bool:
        """The opponent's pieces where they started, except on squares the seat's own pieces hold now."""
        own: set[int] = set()
        if self._view is not None:
            own = set(chess.scan_forward(self._view.own_board.occupied))
        return self._do(lambda: self._belief.place_starting_position(self._game, self._seat_colour, skip=own))

    def fix_flagged(self) -> bool:
        """Remove the flagged pieces (or move them where obvious), in one undo step: every piece the panel shows
        flagged, those the inference rules out included (the same ``possible`` as the flags were found with)."""
        view = self._view
        if view is None:
            return False
        return self._do(lambda: bool(self._belief.fix_flagged(view, possible=self._possible)))

    def _do(self, change: Any) -> bool:
        changed = bool(change())
        if changed:
            self._changed(emit=True)
        return changed

    # ------------------------------------------------------------------ reactions

    def _on_dropped(self, square: Cell, letter: str) -> None:
        piece = chess.Piece.from_symbol(letter)
        self.place_piece(from_square(square), piece.piece_type)

    def _on_moved(self, origin: Cell, target: Cell) -> None:
        self.move_piece(from_square(origin), from_square(target))

    def _on_removed(self, square: Cell) -> None:
        self.remove_piece(from_square(square))

    def _on_palette_clicked(self, piece_type: PieceType, checked: bool) -> None:
        for other, button in self._palette.items():
            if other != piece_type:
                button.setChecked(False)
        self.board.set_armed(self._palette[piece_type].letter if checked else None)

    def _on_palette_hovered(self, piece_type: PieceType | None) -> None:
        self._hovered_type = piece_type
        self.paletteHovered.emit(piece_type)
        self._refresh_heat()

    def _on_overlay_toggled(self, on: bool) -> None:
        self._switch_changed()
        self.overlayToggled.emit(on)

    def _on_heat_toggled(self, on: bool) -> None:
        self._switch_changed()
        self._refresh_heat()
        self._refresh_status()  # the heat map's own note comes and goes with it
        self.heatMapToggled.emit(on)

    def _on_count_toggled(self, on: bool) -> None:
        self._switch_changed()
        self._refresh_status()
        self.countToggled.emit(on)

    def _switch_changed(self) -> None:
        """The player flipped a switch: it belongs to the seat whose board is shown."""
        belief = self._belief
        if self._showing_switches or not isinstance(belief, SeatBelief):
            return
        switches = self.switches()
        if switches != belief.switches:
            belief.switches = switches
            if belief.on_switches_changed is not None:
                belief.on_switches_changed()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+Z and Ctrl+Shift+Z when no shortcut took them (say, the board has the focus); Escape drops the
        palette piece chosen by a click."""
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        control = Qt.KeyboardModifier.ControlModifier
        if event.key() == Qt.Key.Key_Z and modifiers == control:
            self.undo()
        elif (event.key() == Qt.Key.Key_Z and modifiers == control | Qt.KeyboardModifier.ShiftModifier) or (
                event.key() == Qt.Key.Key_Y and modifiers == control):
            self.redo()
        elif event.key() == Qt.Key.Key_Escape and self.board.armed() is not None:
            for button in self._palette.values():
                button.setChecked(False)
            self.board.set_armed(None)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # ------------------------------------------------------------------ drawing

    def _update_palette_letters(self) -> None:
        for piece_type, button in self._palette.items():
            letter = chess.Piece(piece_type, self._belief.enemy).symbol()
            button.letter = letter
            button.setIcon(QIcon(pieces.piece_pixmap(letter, 32, button.devicePixelRatioF())))
            button.setAccessibleName(f"Suppose a {pieces.piece_name(letter)}")
        armed = self.board.armed()
        if armed is not None:
            self.board.set_armed(armed.upper() if self._belief.enemy == chess.WHITE else armed.lower())

    def _changed(self, emit: bool) -> None:
        if self._view is not None:
            self._counts = palette_counts(self._view)
            self._flags = self._belief.contradictions(self._view, possible=self._possible)
        else:
            self._counts = None
            self._flags = {}
        self._refresh()
        if emit:
            self.hypothesesChanged.emit()

    def _refresh(self) -> None:
        self.board.set_ghosts(self.ghosts())
        self.board.set_flags({to_square(square): reason for square, reason in self._flags.items()})
        self.undo_action.setEnabled(self._belief.can_undo)
        self.redo_action.setEnabled(self._belief.can_redo)
        self.clear_button.setEnabled(len(self._belief) > 0)
        flagged = len(self._flags)
        self.fix_button.setEnabled(flagged > 0)  # (the label stays: the message below counts them)
        if flagged:
            noun = "piece contradicts" if flagged == 1 else "pieces contradict"
            self.flag_label.setText(f"{flagged} supposed {noun} what you know: hover a red badge to see why.")
        else:
            self.flag_label.setText("")
        self.flag_label.setVisible(flagged > 0)
        self.hint.setVisible(len(self._belief) == 0)
        self._refresh_palette()

    def _refresh_palette(self) -> None:
        counts = self._counts
        for piece_type, button in self._palette.items():
            placed = self._belief.count(piece_type)
            possible = counts[piece_type] if counts is not None else STANDARD_ARMY[piece_type]
            name = chess.piece_name(piece_type)
            extra = counts is not None and counts.promotions_possible and piece_type not in (chess.PAWN, chess.KING)
            button.setText(f"{placed}/{possible}{'+' if extra else ''}")
            over = placed > possible and not extra
            button.setStyleSheet("QToolButton { color: #c62828; font-weight: bold; }" if over else "")
            tip = [f"{name.capitalize()}: the opponent can have {possible}"
                   + (" (more if a pawn was promoted)" if extra else "") + f"; you suppose {placed}."]
            if counts is not None and counts.unknown_captures:
                tip.append(f"You captured {counts.unknown_captures} piece(s) without seeing what they were.")
            tip.append("Drag onto the board, or click and then click squares.")
            button.setToolTip("\n".join(tip))

    def _refresh_heat(self) -> None:
        heat = self.shown_heat()
        self.board.set_heat(None if heat is None else {to_square(s): p for s, p in heat.items()})

    def _refresh_status(self) -> None:
        parts = [self._status if self.count_box.isChecked() else "",
                 self._heat_note if self.heat_box.isChecked() else ""]
        text = "\n".join(part for part in parts if part)
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))

