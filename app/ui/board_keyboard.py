"""The board's keyboard: a square cursor moved by the arrow keys, a cursor over the items beside the board (Page
Down / Page Up), and Enter or Space doing there what a click does; Shift+Enter draws arrows and circles as the
right button does; Escape drops what the board holds. A screen reader hears where the cursor is.

Tab reaches the board (a click does not take the focus from the typing field). Up is up on the screen, whichever
way the board is turned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QAccessible, QAccessibleEvent, QKeyEvent
from PySide6.QtWidgets import QWidget

from app.ui.board_input import BoardHost, PointerInput
from app.ui.board_model import BoardState, Cell
from app.ui.board_words import cursor_words
from app.ui.board_zones import BoardZones

if TYPE_CHECKING:
    from app.ui.zones import ZoneLayout

__all__ = ["BOARD_NAME", "KeyboardCursor"]

BOARD_NAME = "Chess board"
"""The board's accessible name; the cursor's square is said after it."""

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
_STEPS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}
_CURSOR_KEYS = (*_STEPS, *_ENTER, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)


class KeyboardCursor:
    """The keyboard's cursors on the board (the state's ``cursor`` and ``zone_cursor``) and what keys do.

    It asks through ``board``'s signals and acts as a click through ``pointer``; ``zones`` and ``layout`` give the
    items beside the board; ``widget`` is redrawn and named for a screen reader.
    """

    def __init__(self, board: BoardHost, widget: QWidget, state: BoardState, pointer: PointerInput,
                 zones: BoardZones, layout: Callable[[], ZoneLayout | None]) -> None:
        self._board = board
        self._widget = widget
        self._state = state
        self._pointer = pointer
        self._zones = zones
        self._layout = layout

    # ------------------------------------------------------------------ the cursors

    def set_square(self, square: Cell | None) -> None:
        """Puts the square cursor on ``square`` and tells a screen reader what is there."""
        state = self._state
        if square is not None and not state.on_board(square):
            return
        state.cursor = square
        if square is not None and state.notes.follow(square):
            self._widget.update()  # an arrow begun from the keyboard follows the cursor
        if square is not None and state.sense_enabled:
            self._pointer.follow_pick_hover(square)  # the window a pick here would show, as under the mouse
        if square is not None:
            self._say(f"{BOARD_NAME}, {cursor_words(state, square)}")
        self._widget.update()

    def forget(self) -> None:
        """Takes the cursors away (the screen passes to another person: where the last one's cursor rested is
        theirs, and so is an arrow begun from the keyboard)."""
        self._state.cursor, self._state.zone_cursor = None, None
        self._state.notes.cancel()
        self._widget.setAccessibleName(BOARD_NAME)
        self._widget.update()

    def zone_cursor_rect(self) -> QRectF | None:
        """Where the item under the zone cursor is drawn, if the cursor is on one."""
        return self._zones.item_rect(self._layout(), self._state.zone_cursor)

    def _say(self, name: str) -> None:
        self._widget.setAccessibleName(name)
        QAccessible.updateAccessibility(QAccessibleEvent(self._widget, QAccessible.Event.NameChanged))

    def _back_on_board(self) -> None:
        self._state.zone_cursor = None
        self.set_square(self._state.cursor or (self._state.files // 2, 0))

    def _step_zone_cursor(self, step: int) -> None:
        """Page Down / Page Up: the cursor goes through the items of the zones beside the board, in the order they
        are laid out (and back onto the board after the last)."""
        items = self._zones.items(self._layout())
        if not items:
            return
        current = self._state.zone_cursor
        at = items.index(current) if current in items else (-1 if step > 0 else len(items))
        at += step
        if not 0 <= at < len(items):
            self._back_on_board()
            return
        self._state.zone_cursor = items[at]
        self._say(f"Beside the board, {self._zones.describe_item(items[at])}")
        self._widget.update()

    # ------------------------------------------------------------------ keys

    def takes(self, event: QEvent) -> bool:
        """Whether the board takes this key before the window's shortcuts: the cursor's keys (not the move list's),
        and Escape while the board holds something of its own to drop."""
        if not isinstance(event, QKeyEvent):
            return False
        return event.key() in _CURSOR_KEYS or (event.key() == Qt.Key.Key_Escape and self._state.something_to_drop())

    def key_press(self, event: QKeyEvent) -> bool:
        """Arrow keys move the square cursor; Enter or Space acts on its square as a left click does (select, move
        there, pick: the pick waits for Enter again unless one click picks); Shift+Enter (or Shift+Space) on one
        square and then on another draws an arrow between them (twice on the same square: a circle); Page Down
        and Page Up go through the items beside the board, Enter picking one as a click does; Escape drops a
        selection, a pick waiting for its confirmation or an arrow begun. False for a key the board does not
        use."""
        state = self._state
        key = event.key()
        step = _STEPS.get(Qt.Key(key))
        if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
            self._step_zone_cursor(1 if key == Qt.Key.Key_PageDown else -1)
        elif key in _ENTER and state.zone_cursor is not None:
            if state.interactive and self.zone_cursor_rect() is not None:
                self._board.zoneClicked.emit(*state.zone_cursor)
        elif step is not None and state.zone_cursor is not None:
            self._back_on_board()  # back onto the board, where the square cursor was
        elif step is not None:
            self._step(step)
        elif key in _ENTER and state.cursor is not None:
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self._mark(state.cursor)
            else:
                self._activate(state.cursor)
        elif key == Qt.Key.Key_Escape and state.something_to_drop():
            state.selected = None
            state.notes.cancel()
            self._pointer.forget_proposal()
            self._widget.update()
        else:
            return False
        return True

    def _step(self, step: tuple[int, int]) -> None:
        state = self._state
        if state.cursor is None:
            start = (state.files // 2, state.ranks - 1 if state.flipped else 0)  # the middle of the near edge
            self.set_square(state.selected or start)
            return
        if state.flipped:
            step = (-step[0], -step[1])
        self.set_square((min(state.files - 1, max(0, state.cursor[0] + step[0])),
                         min(state.ranks - 1, max(0, state.cursor[1] + step[1]))))

    def _mark(self, square: Cell) -> None:
        """Shift+Enter: begin an arrow on ``square``, or end the one begun (an arrow, or a circle on its own
        square), as pressing and letting go of the right button does."""
        notes = self._state.notes
        if not self._state.annotations_enabled:
            return
        if notes.draft_from is None:
            notes.begin(square)
            self._widget.update()
            return
        toggled = notes.finish(square)
        if toggled is not None:
            self._board.set_annotations(*toggled)
        self._widget.update()

    def _activate(self, square: Cell) -> None:
        """What a left click on ``square`` does, from the keyboard."""
        state = self._state
        if not state.interactive:
            return
        self._board.squareClicked.emit(square)
        if state.sense_enabled and not state.move_press(square):
            # As the mouse's second click: a pick is made at the first Enter only when one click picks.
            if state.sense_confirm == "one click" or square == state.proposed:
                self._pointer.forget_proposal()
                self._board.senseRequested.emit(square)
            else:
                self._pointer.forget_proposal()
                state.proposed, state.proposed_by_key = square, True
                self._widget.update()
            return
        selected = state.selected
        if selected is not None and state.may_go(selected, square):
            self._pointer.request_move(selected, square)
        elif square in state.targets and square != selected:
            state.selected = square
        else:
            state.selected = None
        self._widget.update()
