"""The board's pointer input: what a press, a move and a release of the mouse buttons mean.

The left button chooses a piece and moves it (click-click or drag and drop, through the promotion chooser when
the move has choices), picks a square in pick mode (at once, at a second click or after a hold, see
:data:`~app.ui.board_model.SENSE_CONFIRM`), or clicks an item beside the board; the right button draws the
player's arrows and circles, or takes a queued move back. Which moves exist comes from the window (the state's
``targets``): this part knows no rules. What it asks for goes out through the board's signals
(:class:`BoardHost`), which stay on the widget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPoint, QPointF, QRect, Qt, QTimer, SignalInstance
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QWidget

from app.ui.board_model import BoardState, Cell

if TYPE_CHECKING:
    from app.ui.promotion import PromotionChooser

__all__ = ["HOLD_MS", "BoardHost", "PointerInput"]

HOLD_MS = 350
"""How long the button is held on a square to pick it when picks are confirmed by a hold."""


class BoardHost(Protocol):
    """What the board's parts need of the board widget: its signals and where its squares and zone items are."""

    @property
    def moveRequested(self) -> SignalInstance: ...  # noqa: N802 - the widget's signal
    @property
    def senseRequested(self) -> SignalInstance: ...  # noqa: N802
    @property
    def squareClicked(self) -> SignalInstance: ...  # noqa: N802
    @property
    def zoneClicked(self) -> SignalInstance: ...  # noqa: N802
    @property
    def premoveCancelled(self) -> SignalInstance: ...  # noqa: N802

    def square_at(self, pos: QPoint | QPointF, /) -> Cell | None: ...
    def square_rect(self, square: Cell, /) -> QRect: ...
    def board_rect(self) -> QRect: ...
    def zone_item_at(self, pos: QPoint | QPointF, /) -> tuple[str, int] | None: ...
    def set_annotations(self, arrows: Iterable[tuple[Cell, Cell]] = (), circles: Iterable[Cell] = (), /) -> None: ...
    def clear_annotations(self) -> None: ...


class PointerInput:
    """Mouse input on the board: it changes the shared :class:`~app.ui.board_model.BoardState` and asks through
    ``board``'s signals; ``widget`` (the same board, as a Qt widget) is redrawn and parents the timers and the
    promotion chooser."""

    def __init__(self, board: BoardHost, widget: QWidget, state: BoardState) -> None:
        self._board = board
        self._widget = widget
        self._state = state
        self._hold: QTimer | None = None
        self.chooser: PromotionChooser | None = None

    # ------------------------------------------------------------------ the buttons

    def press(self, event: QMouseEvent) -> bool:
        """Left: select, move, pick or click a zone's item; right: start an arrow or circle, or take a queued move
        back. False for another button (not the board's)."""
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            self._right_press(self._board.square_at(event.position()))
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        event.accept()
        self._left_press(event.position())
        return True

    def _right_press(self, square: Cell | None) -> None:
        state = self._state
        if any(marker.kind == "premove" for marker in state.markers):
            state.selected = None
            state.drag.end()
            state.notes.cancel()
            self._board.premoveCancelled.emit()  # as on Lichess: the right click takes the premove back, no more
            return
        if state.drag.origin is not None or state.selected is not None:
            state.selected = None
            state.drag.end()
            self._widget.update()
        if state.annotations_enabled and square is not None:
            state.notes.begin(square)
            self._widget.update()

    def _left_press(self, pos: QPointF) -> None:
        state = self._state
        square = self._board.square_at(pos)
        if state.annotations_enabled and (state.notes.arrows or state.notes.circles):
            self._board.clear_annotations()
        if not state.interactive:
            return
        item = self._board.zone_item_at(pos) if square is None else None
        if item is not None:
            state.selected = None
            self._widget.update()
            self._board.zoneClicked.emit(*item)
            return
        if square is None:
            if state.selected is not None:
                state.selected = None
                self._widget.update()
            return
        self._board.squareClicked.emit(square)
        if state.sense_enabled and not state.move_press(square):
            self._pick_pressed(square)
            return
        self.forget_proposal()  # (a pick proposed before a piece was chosen)
        selected = state.selected
        if selected is not None and state.may_go(selected, square):
            self.request_move(selected, square)
            return
        if square in state.targets:
            state.press_was_selected = selected == square
            state.selected = square
            state.drag.press(square, pos)
        else:
            state.selected = None
        self.follow_pick_hover(square)
        self.update_pointer_shape(square)
        self._widget.update()

    def move(self, pos: QPointF) -> None:
        """Drags a piece, previews an arrow, follows the pick window."""
        state = self._state
        square = self._board.square_at(pos)
        if state.notes.follow(square):
            self._widget.update()
        if state.drag.follow(pos, square):
            self._widget.update()
        if state.sense_enabled:
            self.follow_pick_hover(square)
        over_zone_item = square is None and not state.drag.dragging and self._board.zone_item_at(pos) is not None
        self.update_pointer_shape(square, over_zone_item)

    def release(self, event: QMouseEvent) -> bool:
        """Drops a dragged piece; finishes an arrow or toggles a circle. False for another button."""
        square = self._board.square_at(event.position())
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            toggled = self._state.notes.finish(square)
            if toggled is not None and self._state.annotations_enabled:
                self._board.set_annotations(*toggled)
            self._widget.update()
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        event.accept()
        self._left_release(square)
        return True

    def _left_release(self, square: Cell | None) -> None:
        state = self._state
        if self._hold is not None and self._hold.isActive():
            self._hold.stop()  # let go too soon: the window stays shown, saying "hold"
            self._widget.update()
        origin, dragging = state.drag.end()
        if origin is None or not state.interactive:
            self.update_pointer_shape(square)
            self._widget.update()
            return
        if dragging:
            if square is not None and state.may_go(origin, square):
                state.dropped = (origin, square)  # the piece is already there: it does not glide again
                self.request_move(origin, square)
            elif square != origin:
                state.selected = None
        elif state.press_was_selected:
            state.selected = None  # a second click on the selected piece deselects it
        self.update_pointer_shape(square)
        self._widget.update()

    # ------------------------------------------------------------------ picks

    def _pick_pressed(self, square: Cell) -> None:
        """A left press in pick mode: pick now, or once confirmed (the state's ``sense_confirm``)."""
        state = self._state
        how = state.sense_confirm
        if how == "one click" or (how == "second click" and square == state.proposed):
            self.forget_proposal()
            self._board.senseRequested.emit(square)
            return
        state.proposed, state.proposed_by_key = square, False
        if how == "hold":
            if self._hold is None:
                self._hold = QTimer(self._widget)
                self._hold.setSingleShot(True)
                self._hold.timeout.connect(self._held)
            self._hold.start(HOLD_MS)
        self._widget.update()

    def _held(self) -> None:
        square = self._state.proposed
        self.forget_proposal()
        if square is not None and self._state.sense_enabled and self._state.interactive:
            self._board.senseRequested.emit(square)

    def forget_proposal(self) -> None:
        """Drops a pick waiting for its confirmation (and the hold's timer)."""
        if self._hold is not None:
            self._hold.stop()
        if self._state.proposed is not None:
            self._state.proposed = None
            self._widget.update()

    def follow_pick_hover(self, square: Cell | None) -> None:
        """The pointer (or the keyboard's cursor) is over ``square``: in pick mode, show the window a pick there
        would show (not over a piece that may move, nor while one is chosen: a click there is a move's)."""
        state = self._state
        if not (state.sense_enabled and state.interactive) or square is None or not state.on_board(square) \
                or state.move_press(square):
            square = None
        if square == state.sense_hover:
            return
        state.sense_hover = square
        state.hover_window = [] if square is None else state.pick_window(square)
        self._widget.update()

    # ------------------------------------------------------------------ moves and the pointer's shape

    def update_pointer_shape(self, square: Cell | None, over_zone_item: bool = False) -> None:
        """The pointer's shape over ``square``: a closed hand while dragging, a pointing hand where a click does
        something, a cross where it picks."""
        state = self._state
        if state.drag.dragging:
            shape = Qt.CursorShape.ClosedHandCursor
        elif state.interactive and over_zone_item:
            shape = Qt.CursorShape.PointingHandCursor
        elif not state.interactive or square is None:
            shape = Qt.CursorShape.ArrowCursor
        elif square in state.targets or (state.selected is not None
                                         and square in state.targets.get(state.selected, {})):
            shape = Qt.CursorShape.PointingHandCursor
        elif state.sense_enabled and not state.move_press(square):
            shape = Qt.CursorShape.CrossCursor
        else:
            shape = Qt.CursorShape.ArrowCursor
        if self._widget.cursor().shape() != shape:
            self._widget.setCursor(shape)

    def request_move(self, origin: Cell, dest: Cell) -> None:
        """Asks for the move (through the promotion chooser when it has choices), if the targets allow it."""
        choices = self._state.targets.get(origin, {}).get(dest)
        if choices is None:
            return
        self._state.selected = None
        if choices:
            self._open_chooser(origin, dest, choices)
        else:
            self._widget.update()
            self._board.moveRequested.emit(origin, dest, None)

    def cancel(self) -> None:
        """Drops everything under way: the chosen piece, a press, the promotion chooser, an arrow being drawn,
        the pick window under the pointer."""
        state = self._state
        state.selected = None
        state.drag.end()
        self.close_chooser()
        state.notes.cancel()
        state.sense_hover = None
        state.hover_window = []

    # ------------------------------------------------------------------ the promotion chooser

    def close_chooser(self) -> None:
        """Closes the promotion chooser, if open (the move waiting for it is dropped)."""
        if self.chooser is not None:
            self.chooser.close()  # emits cancelled, which clears the pending move
        self.chooser = None
        self._state.pending = None

    def _open_chooser(self, origin: Cell, dest: Cell, choices: Sequence[str]) -> None:
        self.close_chooser()
        # Deferred for start-up: the chooser loads at the first promotion, not with the window's first frame.
        from app.ui.promotion import PromotionChooser
        widget, state = self._widget, self._state
        letter = state.pieces.get(origin)
        white = letter.isupper() if letter else not state.flipped
        rect = self._board.square_rect(dest)
        size = min(96, max(36, rect.width()))
        # Lichess style: the first choice over the destination, the column running into the board.
        row = (rect.top() - self._board.board_rect().top()) // max(1, rect.height())  # counted from the top
        downwards = row < state.ranks / 2
        chooser = PromotionChooser(choices, white, size, widget, widget.devicePixelRatioF(), upwards=not downwards)
        chooser.chosen.connect(self._on_promotion_chosen)
        chooser.cancelled.connect(self._on_promotion_cancelled)
        chooser.adjustSize()
        hint = chooser.sizeHint()
        x = rect.center().x() - hint.width() // 2
        y = rect.top() - 3 if downwards else rect.bottom() + 4 - hint.height()
        position = widget.mapToGlobal(QPoint(x, y))
        screen = widget.screen().availableGeometry() if widget.screen() is not None else None
        if screen is not None:
            position.setX(max(screen.left(), min(position.x(), screen.right() - hint.width())))
            position.setY(max(screen.top(), min(position.y(), screen.bottom() - hint.height())))
        chooser.move(position)
        self.chooser = chooser
        state.pending = (origin, dest)
        widget.update()
        chooser.show()
        chooser.raise_()
        chooser.activateWindow()
        buttons = chooser.buttons()
        if choices and choices[0] in buttons:
            buttons[choices[0]].setFocus()

    def _on_promotion_chosen(self, letter: str) -> None:
        pending = self._state.pending
        self.chooser = None
        self._state.pending = None
        self._widget.update()
        if pending is not None:
            self._board.moveRequested.emit(pending[0], pending[1], letter)

    def _on_promotion_cancelled(self) -> None:
        self.chooser = None
        self._state.pending = None
        self._widget.update()
