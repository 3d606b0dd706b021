"""The side panel of a game: title, clocks, phase, typed moves, buttons, the move list and the notices.

The panel holds no game logic: the main window fills it from the game controller,
which only ever hands over what the seat at the screen may see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QMargins, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPalette, QResizeEvent
from PySide6.QtWidgets import (QGridLayout, QLabel, QLayout, QLayoutItem, QLineEdit, QPlainTextEdit, QProgressBar,
                               QPushButton, QTabWidget, QVBoxLayout, QWidget, QWidgetItem)

from app.ui.elided_label import ElidedLabel
from app.ui.move_list import MoveList

if TYPE_CHECKING:
    from app.games.presenter import Command

LOW_TIME_STYLE = "color: #d03030; font-weight: 700;"
LOG_LINES = 5  # lines of the log always in sight
DRAW_COMMANDS = frozenset({"offer_draw", "accept_draw", "decline_draw"})  # a game listing one may need the answers
ENTRY_ERROR_COLOUR = QColor("#b03030")  # the red of a typed move that was refused


def _set_font(label: QLabel, points: int, weight: QFont.Weight | None = None, family: str | None = None) -> None:
    """Change only the given parts of ``label``'s font (the rest still follows the application's font)."""
    font = QFont()
    font.setPointSize(points)
    if weight is not None:
        font.setWeight(weight)
    if family is not None:
        font.setFamily(family)
        if family == "monospace":  # an alias fontconfig knows; the hint finds a fixed-width face everywhere
            font.setStyleHint(QFont.StyleHint.Monospace)
    label.setFont(font)


class FlowLayout(QLayout):
    """Widgets side by side, onto as many rows as the width needs: a row of buttons that never cuts a label.

    A row takes widgets while each still shows its whole label (a push button may be narrower than the style's
    preferred 80 pixels, never narrower than its text); the next widget starts a new row. Each row is then
    widened to fill the width, as a row of a box layout is. A hidden widget takes no room. The layout is as
    narrow as its widest widget and as tall as its rows at the width it is given.

    >>> from PySide6.QtWidgets import QApplication
    >>> app = QApplication.instance() or QApplication([])
    >>> holder = QWidget()
    >>> flow = FlowLayout(holder)
    >>> for label in ("One", "Two"):
    ...     flow.addWidget(QPushButton(label))
    >>> flow.count(), flow.hasHeightForWidth()
    (2, True)
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        # Qt asks for the sizes many times per layout pass (about 160 calls before the first frame): they are
        # worked out once until a widget changes (invalidate), not walked in Python each time.
        self._shown: list[tuple[QLayoutItem, int, int, int]] | None = None  # (item, least, preferred width, height)
        self._rows: dict[int, list[list[int]]] = {}  # width -> the rows, as indexes into _shown

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt override
        self._items.append(item)
        self.invalidate()

    def insertWidget(self, index: int, widget: QWidget) -> None:  # noqa: N802 - named as QBoxLayout's
        """Put ``widget`` at ``index`` among the widgets (as :meth:`QBoxLayout.insertWidget` does)."""
        self.addChildWidget(widget)  # gives it the layout's widget as parent; adds no item
        self._items.insert(index, QWidgetItem(widget))
        self.invalidate()

    def widgets(self) -> list[QWidget]:
        """The widgets in layout order (which is also their keyboard focus order)."""
        return [widget for item in self._items if (widget := item.widget()) is not None]

    def put_in_order(self, widgets: Sequence[QWidget]) -> bool:
        """Put ``widgets`` (some of this layout's) in the given order, in the places they hold between them; the
        others stay where they are. True when anything moved.

        >>> from PySide6.QtWidgets import QApplication
        >>> app = QApplication.instance() or QApplication([])
        >>> holder = QWidget()
        >>> flow = FlowLayout(holder)
        >>> one, two, three = QPushButton("1"), QPushButton("2"), QPushButton("3")
        >>> for button in (one, two, three):
        ...     flow.addWidget(button)
        >>> flow.put_in_order([three, one]), [button.text() for button in flow.widgets()]
        (True, ['3', '2', '1'])
        """
        places = [index for index, item in enumerate(self._items) if item.widget() in widgets]
        items = {id(item.widget()): item for item in self._items if item.widget() in widgets}
        ordered = [items[id(widget)] for widget in widgets if id(widget) in items]
        if [self._items[index] for index in places] == ordered:
            return False
        for index, item in zip(places, ordered):
            self._items[index] = item
        self.invalidate()
        return True

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        if not 0 <= index < len(self._items):
            return None
        item = self._items.pop(index)
        self.invalidate()
        return item

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt override
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def invalidate(self) -> None:
        """A widget was added, shown, hidden or changed its label: the remembered sizes are stale."""
        self._shown = None
        self._rows.clear()
        super().invalidate()

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt override
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt override
        """As wide as the widest widget (its whole label) and one row high."""
        shown = self._measure()
        width = max((least for _item, least, _preferred, _height in shown), default=0)
        height = max((height for _item, _least, _preferred, height in shown), default=0)
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    def _measure(self) -> list[tuple[QLayoutItem, int, int, int]]:
        """The shown widgets with their least and preferred widths and their height, worked out once for each
        layout pass (Qt asks for them many times in one)."""
        if self._shown is None:
            self._shown = []
            for item in self._items:
                if not item.isEmpty():
                    hint = item.sizeHint().expandedTo(item.minimumSize())
                    least = self._least_width(item, hint.width())
                    self._shown.append((item, least, max(least, hint.width()), hint.height()))
        return self._shown

    _button_frame: int | None = None
    """Pixels a push button adds around its text, measured once (see _least_width)."""

    @classmethod
    def _least_width(cls, item: QLayoutItem, preferred: int) -> int:
        """The narrowest ``item`` may be: a push button its text and frame (the style prefers at least 80 px,
        which would put the four usual buttons on two rows of a 320 px panel), anything else its size hint."""
        button = item.widget()
        if not isinstance(button, QPushButton) or not button.icon().isNull():
            return preferred
        if cls._button_frame is None:
            # Measured on a label long enough to be past the style's least width.
            probe_text = "W" * 40
            probe = QPushButton(probe_text)
            cls._button_frame = max(0, probe.sizeHint().width() - probe.fontMetrics().horizontalAdvance(probe_text))
            probe.deleteLater()
        text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")  # without the mnemonic mark
        return min(preferred, button.fontMetrics().horizontalAdvance(text) + cls._button_frame)

    def _arrange(self, rect: QRect, place: bool) -> int:
        """Lay the shown widgets out in rows inside ``rect`` (only measuring unless ``place``); the height used."""
        margins: QMargins = self.contentsMargins()
        area = rect.marginsRemoved(margins)
        # QLayout.spacing() of a plain layout already asks the parent layout or the widget's style (importing
        # QStyle to ask for the two directions apart would cost about 4 ms of start-up for its enums).
        gap = self.spacing() if self.spacing() >= 0 else 6
        shown = self._measure()
        rows = self._rows.get(area.width())
        if rows is None:
            rows = self._rows[area.width()] = [[]]
            used = 0
            for index, (_item, least, _preferred, _height) in enumerate(shown):
                if rows[-1] and used + gap + least > area.width():
                    rows.append([])
                    used = 0
                used += (gap if rows[-1] else 0) + least
                rows[-1].append(index)
        y = area.y()
        for number, indexes in enumerate(rows):
            if not indexes:
                continue
            row = [shown[index] for index in indexes]
            height = max(height for _item, _least, _preferred, height in row)
            if place:
                self._place_row([(item, least, preferred) for item, least, preferred, _height in row],
                                QRect(area.x(), y, area.width(), height), gap)
            y += height + (gap if number < len(rows) - 1 else 0)
        return y - rect.y() + margins.bottom()

    @staticmethod
    def _place_row(row: list[tuple[QLayoutItem, int, int]], band: QRect, gap: int) -> None:
        """Fill the row's width: first up to each widget's preferred width, then evenly, as a box layout does."""
        spare = band.width() - sum(least for _item, least, _preferred in row) - gap * (len(row) - 1)
        widths = [least for _item, least, _preferred in row]
        wanting = [index for index, (_item, least, preferred) in enumerate(row) if preferred > least]
        while spare > 0 and wanting:  # towards the preferred widths, a pixel share at a time
            share = max(1, spare // len(wanting))
            for index in list(wanting):
                grant = min(share, row[index][2] - widths[index], spare)
                widths[index] += grant
                spare -= grant
                if widths[index] >= row[index][2]:
                    wanting.remove(index)
                if spare <= 0:
                    break
        if spare > 0:  # everyone has its preferred width: the rest is shared out evenly
            for index in range(len(widths)):
                widths[index] += spare // len(widths) + (1 if index < spare % len(widths) else 0)
        x = band.x()
        for (item, _least, _preferred), width in zip(row, widths):
            item.setGeometry(QRect(QPoint(x, band.y()), QSize(width, band.height())))
            x += width + gap


class _CommandArea(QWidget):
    """The area of the command buttons: says when its rows may need other room (a button shown or hidden, a label
    changed, another width), so the panel can keep its height (see GamePanel._keep_command_room)."""

    def __init__(self, changed: Callable[[], None]) -> None:
        super().__init__()
        self._changed = changed

    def event(self, event: QEvent) -> bool:  # noqa: D102 - Qt override
        handled = super().event(event)
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._changed()
        return handled


class GamePanel(QWidget):
    """Everything beside the board. Widgets are public attributes: the window connects and fills them."""

    commandClicked = Signal(str)  # the id of the game command whose button was pressed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumWidth(240)
        column = QVBoxLayout(self)
        # Fonts and colours set as fonts and palettes, not style sheets: the first style sheet in a window costs
        # about 1.5 ms of start-up (Qt's style sheet style), and these look the same either way.
        self.title = QLabel()
        self.title.setWordWrap(True)
        _set_font(self.title, points=14, weight=QFont.Weight.DemiBold)
        self.clocks = QLabel()
        self.clocks.setTextFormat(Qt.TextFormat.RichText)
        _set_font(self.clocks, points=16, family="monospace")
        # The status keeps the room of three lines whatever it says (a longer one is cut, whole in its tooltip),
        # and the thinking bar keeps its room while hidden: the buttons and the log below never move under a click.
        self.status = ElidedLabel(lines=3)
        _set_font(self.status, points=11)
        self.thinking = QProgressBar()
        self.thinking.setRange(0, 0)  # an endless bar: the bot is thinking
        self.thinking.setMaximumHeight(8)
        self.thinking.setTextVisible(False)
        policy = self.thinking.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.thinking.setSizePolicy(policy)
        self.thinking.hide()
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("Type a move (e2e4, Nf3) or a square to sense, then Enter")
        # A refused typed move is explained on one line under the entry (whole in its tooltip when cut); the line
        # keeps its room while empty or hidden, so the buttons below do not move when an error comes or goes.
        self.entry_error = ElidedLabel(lines=1)
        palette = self.entry_error.palette()
        palette.setColor(QPalette.ColorRole.WindowText, ENTRY_ERROR_COLOUR)
        self.entry_error.setPalette(palette)
        self.entry_error.hide()
        # The buttons wrap onto more rows when the panel is narrow or labels are long (a game's commands can be
        # "Guess checker 3 is a knight"): a single row would squeeze every label into a few cut-off letters.
        buttons = FlowLayout()
        self.pass_button = QPushButton("Pass")
        self.resign_button = QPushButton("Resign")
        self.draw_button = QPushButton("Offer draw")
        self.flip_button = QPushButton("Flip")
        for button in (self.pass_button, self.resign_button, self.draw_button, self.flip_button):
            buttons.addWidget(button)
        answers = FlowLayout()
        self.accept_button = QPushButton("Accept draw")
        self.decline_button = QPushButton("Decline draw")
        answers.addWidget(self.accept_button)
        answers.addWidget(self.decline_button)
        self._buttons_row = buttons
        self._answers_row = answers
        # The buttons of the games' commands, by command id: these have their places in the rows above; a game
        # offering another command gets a button made for it (see show_commands).
        self.command_buttons: dict[str, QPushButton] = {}
        for command_id, button in (("pass", self.pass_button), ("offer_draw", self.draw_button),
                                   ("accept_draw", self.accept_button), ("decline_draw", self.decline_button)):
            self._adopt_command_button(command_id, button)
        self._fixed_buttons = frozenset(self.command_buttons)
        self.truth_button = QPushButton("Show my view")
        self.truth_button.setCheckable(True)
        self.truth_button.setToolTip("The game is over: switch between the true final position and what you saw")
        self.truth_button.hide()
        for widget in (self.title, self.clocks, self.status):
            column.addWidget(widget)
        # The thinking bar and the error line share one line right under the entry (the room is short when a
        # belief panel stands below: together they take what the bar and its spacing took): an error, drawn on its
        # own background, covers the bar while it is shown.
        self.entry_error.setAutoFillBackground(True)
        typing = QGridLayout()
        typing.setSpacing(0)
        typing.addWidget(self.entry, 0, 0)
        typing.addWidget(self.thinking, 1, 0, Qt.AlignmentFlag.AlignVCenter)
        typing.addWidget(self.entry_error, 1, 0)
        column.addLayout(typing)
        # The buttons' rows change with the game's phase (Cloak's arranging offers more than its moving) and a
        # draw's answers add one: their area keeps the most room this game has needed (and a second row from the
        # start in a game that lists a draw command, for the answers to an offer), so the log below never moves under
        # a click. It starts again with each game (new_game).
        # What the area showed in this game (the buttons' labels, the answers' labels, the end's switch): its room
        # is the most any of them needs at the width it has now.
        self._command_sets: set[tuple[tuple[str, ...], tuple[str, ...], bool]] = set()
        self._draws = False  # whether this game listed a draw command: room for the answers' row then
        self.command_area = _CommandArea(self._keep_command_room)
        area = QVBoxLayout(self.command_area)
        area.setContentsMargins(0, 0, 0, 0)
        area.addLayout(buttons)
        area.addLayout(answers)
        area.addWidget(self.truth_button)
        area.addStretch(1)
        column.addWidget(self.command_area)
        self.tabs = QTabWidget()
        self.moves = MoveList()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.tabs.addTab(self.log, "What you were told")
        self.tabs.addTab(self.moves, "Your moves")
        # Whole tab labels (never "What you w..."), and room for a few lines of the log however small the panel.
        self.tabs.setElideMode(Qt.TextElideMode.ElideNone)
        self.tabs.tabBar().setExpanding(False)
        # (On the tab widget itself: it does not ask its pages for their minimum.)
        line = self.log.fontMetrics().lineSpacing()
        self.tabs.setMinimumHeight(self.tabs.tabBar().sizeHint().height() + LOG_LINES * line + 16)
        column.addWidget(self.tabs, 1)
        margins = column.contentsMargins()
        self.setMinimumWidth(max(240, self.tabs.tabBar().sizeHint().width() + margins.left() + margins.right() + 8))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._keep_room_for_wrapped_text()

    def new_game(self) -> None:
        """A new game: its command buttons start from the room of one row again."""
        self._command_sets.clear()
        self._draws = False
        self._keep_command_room()

    def _keep_command_room(self) -> None:
        """The command area as tall as the most rows any set of buttons shown in this game needs at the area's width
        (so a phase with fewer buttons keeps the room of one with more, until the next game)."""
        area = self.command_area
        layout = area.layout()
        assert layout is not None  # set in __init__
        gap = layout.spacing() if layout.spacing() >= 0 else 6
        shown = (tuple(button.text() for button in self._buttons_row.widgets()
                       if isinstance(button, QPushButton) and not button.isHidden()),
                 tuple(button.text() for button in self._answers_row.widgets()
                       if isinstance(button, QPushButton) and not button.isHidden()),
                 not self.truth_button.isHidden())
        self._command_sets.add(shown)
        width = area.width() if area.width() > 0 else self.width()
        row = self.pass_button.sizeHint().height()
        room = row * 2 + gap if self._draws else row
        for buttons, answers, truth in self._command_sets:
            needed = self._rows(buttons, width) * (row + gap) - gap
            if answers:
                needed += self._rows(answers, width) * (row + gap)
            if truth:
                needed += gap + self.truth_button.sizeHint().height()
            room = max(room, needed)
        if area.width() > 0 and layout.hasHeightForWidth():  # never less than the rows shown now really take
            room = max(room, layout.heightForWidth(area.width()))
        if area.minimumHeight() != room or area.maximumHeight() != room:
            area.setFixedHeight(room)

    def _rows(self, labels: tuple[str, ...], width: int) -> int:
        """How many rows buttons with these labels take at ``width`` (as FlowLayout lays them out)."""
        if FlowLayout._button_frame is None:
            FlowLayout._least_width(QWidgetItem(self.pass_button), 10 ** 6)  # measures the frame once
        gap = self._buttons_row.spacing() if self._buttons_row.spacing() >= 0 else 6
        metrics = self.pass_button.fontMetrics()
        rows, used = 0, 0
        for label in labels:
            text = label.replace("&&", "\0").replace("&", "").replace("\0", "&")
            least = metrics.horizontalAdvance(text) + (FlowLayout._button_frame or 0)
            if rows == 0 or used + gap + least > width:
                rows, used = rows + 1, least
            else:
                used += gap + least
        return rows

    def _keep_room_for_wrapped_text(self) -> None:
        """A title or status that wraps onto more lines needs more height than Qt's minimum size (which ignores
        wrapping) says: the dock would then squeeze the log out of sight. Ask the layout at the actual width."""
        layout = self.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        needed = layout.minimumHeightForWidth(self.width())
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)

    def _adopt_command_button(self, command_id: str, button: QPushButton) -> None:
        button.clicked.connect(lambda _checked=False: self.commandClicked.emit(command_id))
        self.command_buttons[command_id] = button

    def show_commands(self, commands: list[Command]) -> None:
        """Show the buttons of the game's ``commands`` (with their labels, enabled as each says) and hide the
        others."""
        offered = {command.id: command for command in commands}
        self._draws = self._draws or not DRAW_COMMANDS.isdisjoint(offered)
        for command in commands:
            if command.id not in self.command_buttons:
                button = QPushButton(command.label)
                self._buttons_row.insertWidget(self._buttons_row.count() - 1, button)  # before Flip
                self._adopt_command_button(command.id, button)
                self._tab_through_buttons()
        # The buttons made for the game in the order it lists them (its phase's own action first, anytime ones
        # after), in the places of the row they hold: one made in an earlier phase would otherwise stay in front.
        # (Pass, Resign, Offer draw and Flip keep their places.)
        made = [self.command_buttons[command.id] for command in commands if command.id not in self._fixed_buttons]
        if self._buttons_row.put_in_order(made):
            self._tab_through_buttons()
        for command_id, button in self.command_buttons.items():
            shown = offered.get(command_id)
            button.setVisible(shown is not None)
            button.setEnabled(shown is not None and shown.enabled)
            if shown is not None and button.text() != shown.label:
                button.setText(shown.label)
        self._keep_command_room()

    def _tab_through_buttons(self) -> None:
        """Tab visits the buttons in the order they are shown (a button made later would otherwise come last,
        after the move list)."""
        row = self._buttons_row.widgets()
        for before, after in zip(row, row[1:]):
            QWidget.setTabOrder(before, after)

    def disable_commands(self) -> None:
        """No game: every command button stays where it is, but cannot be pressed."""
        for button in self.command_buttons.values():
            button.setEnabled(False)

    def set_clocks(self, lines: list[tuple[str, str, bool]]) -> None:
        """Show (name, time, low) lines; a low clock is drawn in red."""
        import html  # not before the first frame: no game, no clocks (about 1.5 ms of start-up)
        rows = []
        for name, time, low in lines:
            text = html.escape(f"{name:<6} {time}").replace(" ", "&nbsp;")
            rows.append(f'<span style="{LOW_TIME_STYLE}">{text}</span>' if low else text)
        self.clocks.setText("<br>".join(rows))

    def clock_is_low(self) -> bool:
        return "#d03030" in self.clocks.text()

    def show_lines(self, widget: QPlainTextEdit, lines: list[str]) -> None:  # (the log)
        """Replace a text list, keeping it scrolled to the newest line."""
        widget.setPlainText("\n".join(lines))
        bar = widget.verticalScrollBar()
        bar.setValue(bar.maximum())
