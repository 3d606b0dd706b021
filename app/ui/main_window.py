"""Sightline's main window: the board, the side panel, the hot-seat curtain, menus."""

from __future__ import annotations

import logging
import sys
import time
from functools import partial
from pathlib import Path

from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (QApplication, QDialog, QDockWidget, QLabel, QMainWindow, QPushButton, QSizePolicy,
                               QVBoxLayout, QWidget)

from app import games
from app.ui.board_widget import SENSE_CONFIRM, BoardWidget
from app.ui.disk_errors import os_error_text
from app.ui.elided_label import ElidedLabel
from app.ui.game_panel import GamePanel
from app.ui.pieces import PIECE_SETS, set_piece_set
from app.ui.seat_screen import PrivateSurfaces, SeatScreen
from app.ui.settings import ANIMATION, THEME_NAMES, glide_ms_for, setting_choice
from app.ui.window_place import WindowNumber, cascaded, fitted, place_over

if TYPE_CHECKING:
    import concurrent.futures

    from PySide6.QtGui import QCloseEvent, QKeyEvent, QMouseEvent, QResizeEvent
    from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser

    # Imported when the first game starts (python-chess, the referees, the bot workers): the window shows sooner.
    from app.engine.core import Outcome
    from app.engine.record import GameRecord, GameSession
    from app.storage import AutosaveSlot, UnfinishedGame
    from app.ui.replay_window import ReplayWindow
    from app.ui.belief_panel import BeliefPanel
    from app.ui.inference_service import InferenceService
    from app.ui.game_controller import GameController
    from app.ui.new_game_dialog import NewGame

CURTAIN_GRACE = 0.7  # seconds after the curtain falls during which presses do not lift it
RECENT_LIMIT = 8
STATE_VERSION = 1  # of the dock layout saved with QMainWindow.saveState
AUTOSAVE_RETRY_MS = 5000  # while autosave fails, it is tried again this often even if nothing happens
MESSAGE_LIMIT = 1500  # characters of a message shown to the player (a file's field may be megabytes long)
NAME_LIMIT = 60  # characters of a player's name in the window's sentences
SUPERSEDED_KEY = "autosave/olderCopies"  # slots left holding an older copy of a game saved elsewhere on close
DEFAULT_SIZE = (1100, 760)
DOCK_WIDTH = 320  # the panels' width when no layout was saved (the first start; restarts restore the last size)
BOARD_MINIMUM = 360  # pixels: however small the window, the board stays playable and the panels give way
PATH_LIMIT = 4096  # characters of a remembered file name

log = logging.getLogger("sightline.window")

# Imported by the functions that use them, not before the first frame: the window shows none of them, and
# PySide6 builds each class's Python enums on its first import (the message box, file dialog, list and
# button box together cost about 3 ms of start-up; concurrent.futures, json and datetime about 4 ms more).
_LATER_QT_WIDGETS = ("QDialogButtonBox", "QFileDialog", "QListWidget", "QMessageBox", "QTextBrowser")


def __getattr__(name: str) -> Any:
    """``app.ui.main_window.QFileDialog`` and the like still name the Qt class (tests replace its static
    methods by that name), imported on that first use."""
    if name in _LATER_QT_WIDGETS:
        from PySide6 import QtWidgets
        return getattr(QtWidgets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

RULES = Path(__file__).resolve().parent.parent.parent / "docs" / "rules"
ASSETS = Path(__file__).resolve().parent.parent / "assets"
DESKTOP_ID = "io.github.sightline.Sightline"  # as in packaging/appinfo.py


class Curtain(QWidget):
    """An opaque cover over board and panel while the screen passes between hot-seat players."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setObjectName("curtain")
        layout = QVBoxLayout(self)
        layout.addStretch()
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.hint = QLabel("Press Space or click when that player is at the screen.")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._dressed = False  # the style sheets are set when the curtain first falls (see show_for)
        layout.addWidget(self.label)
        layout.addWidget(self.hint)
        layout.addStretch()
        self.on_lift: Callable[[], None] = lambda: None
        self._shown_at = 0.0

    def _dress(self) -> None:
        """Colours and type sizes, set before the curtain is first shown rather than when the window is made: a
        widget's first style sheet costs about 1.5 ms (Qt's style sheet style), which the first frame, with no
        curtain in it, need not pay."""
        if self._dressed:
            return
        self._dressed = True
        self.setStyleSheet("#curtain { background: #22262e; } QLabel { color: #f0f0f0; background: transparent; }")
        self.label.setStyleSheet("font-size: 20pt; font-weight: 600;")
        self.hint.setStyleSheet("font-size: 12pt; color: #c0c4cc;")

    def show_for(self, name: str) -> None:
        self._dress()
        self.label.setText(f"{name} to play")
        self._shown_at = time.monotonic()
        self.show()
        self.raise_()
        self.setFocus()

    def _may_lift(self) -> bool:
        # A key held down or a double click by the player who just moved must not lift the curtain on the
        # other player's side: presses in the first moments after it falls are ignored.
        return time.monotonic() - self._shown_at >= CURTAIN_GRACE

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._may_lift():
            self.on_lift()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not event.isAutoRepeat() and self._may_lift():
                self.on_lift()
        else:
            super().keyPressEvent(event)


class MainWindow(QMainWindow):
    """The board in the middle, the game panel in a dock, menus; one game at a time."""

    autosaveWritten = Signal(str)  # from the saver thread: "" when a write worked, else the problem in words

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Sightline")
        self.setObjectName("mainWindow")
        self.controller: GameController | None = None
        self._shown_seat: int | None = None  # whose annotations the board holds now
        self._said: tuple[Any, ...] = ()  # what the panel says now (seat, status, log length)
        self._refused: tuple[str, tuple[Any, ...]] | None = None  # typed text refused, and what was said then
        self._truth_shown = False  # the board shows the true position (after the game): no belief overlay on it
        self._board_seat: int | None = None  # whose screen the board shows (its keyboard cursor is theirs)
        self._refresh_pending = False  # a redraw asked for in the event loop's next pass (see _changed)
        self._looking_back = False  # the board shows a past moment of the seat's view: no overlay of today's either
        self._restoring_notes = False
        self._hidden_floating: list[QDockWidget] = []
        self.board = BoardWidget()
        self.board.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.board.setMinimumSize(BOARD_MINIMUM, BOARD_MINIMUM)
        self.setCentralWidget(self.board)
        self.panel = GamePanel()
        self.panel_dock = QDockWidget("Game", self)
        self.panel_dock.setObjectName("gameDock")
        self.panel_dock.setWidget(self.panel)
        self.panel_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                    | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel_dock)
        # Short names for the panel's widgets (the tests and the rest of the window use them).
        panel = self.panel
        self.title, self.clocks, self.status, self.entry = panel.title, panel.clocks, panel.status, panel.entry
        self.log, self.moves = panel.log, panel.moves
        self.pass_button, self.resign_button, self.draw_button = (panel.pass_button, panel.resign_button,
                                                                  panel.draw_button)
        self.accept_button, self.decline_button = panel.accept_button, panel.decline_button
        self.belief_panel: BeliefPanel | None = None  # made for the first game with hidden pieces
        self.belief_dock: QDockWidget | None = None
        self._belief_auto_hidden = False
        self._belief_fed: tuple[int, int | None, int] | None = None  # (game, seat, observations) the panel last saw
        self._save_path: str | None = None
        self.last_warning = ""
        self.inference: InferenceService | None = None
        # Reviews of the game in progress, each with the seat at the screen that opened it (it shows that seat's view).
        self._reviews: list[tuple[int, ReplayWindow]] = []
        self._saver: concurrent.futures.ThreadPoolExecutor | None = None
        self._saves: list[concurrent.futures.Future[str | None]] = []
        self._slot: AutosaveSlot | None = None  # this window's own autosave folder, locked while it is ours
        self._last_write_problem: str | None = None  # of the newest finished write (set on the saver thread)
        self._rescued_to: str | None = None  # where the game was saved on closing while autosave failed
        self.autosave_problem: str | None = None  # shown in the window until a write works again
        self._autosave_failing_since: str = ""
        # One line, in room the status bar always keeps for it (also while it is hidden, with room for the padding
        # its style will add): the red bar never shrinks the board. Its whole text is in the tooltip; the middle is
        # cut, so both the problem and the way out stay in sight.
        self.autosave_banner = ElidedLabel(lines=1, mode=Qt.TextElideMode.ElideMiddle, padding=4)
        self.autosave_banner.setObjectName("autosaveBanner")
        self.autosave_banner.hide()  # its red style is set when it is first shown (see _autosave_result)
        self.statusBar().addPermanentWidget(self.autosave_banner, 1)
        self._autosave_retry = QTimer(self)
        self._autosave_retry.setInterval(AUTOSAVE_RETRY_MS)
        self._autosave_retry.timeout.connect(self._retry_autosave)
        self.autosaveWritten.connect(self._autosave_result)
        self._asked_to_quit = False
        self._rules_windows: dict[str, QTextBrowser] = {}
        self.curtain = Curtain(self)
        self.curtain.hide()
        self.curtain.on_lift = self._lift
        self._build_menus()
        self._window_number = WindowNumber()  # a second window opens beside the first (see _restore_geometry)
        self.destroyed.connect(self._window_number.release)
        # Every widget showing what a seat knows is fed through here, with the seat's screen or nobody's: see
        # app.ui.seat_screen. The belief panel joins when it is made (the first game with hidden pieces).
        self.private = PrivateSurfaces()
        self.private.add("board", self._show_board)
        self.private.add("notes", self._show_notes)
        self.private.add("panel", self._show_panel)
        self.private.add("reviews", self._show_reviews)
        self.board.moveRequested.connect(self._move)
        self.board.senseRequested.connect(self._sense)
        self.board.zoneClicked.connect(self._zone)
        self.board.annotationsChanged.connect(self._annotations_changed)
        self.board.premoveCancelled.connect(self._cancel_premoves)
        self.board.installEventFilter(self)  # a click or key on the board first brings a pending redraw in
        self.entry.returnPressed.connect(self._typed)
        panel.commandClicked.connect(self._command)
        self.moves.rowChosen.connect(self._look_back)
        self.resign_button.clicked.connect(self._resign)
        panel.flip_button.clicked.connect(self.board.flip)
        panel.truth_button.toggled.connect(lambda _checked: self._refresh())
        self._restore_geometry()
        self._refresh()

    # -- menus -------------------------------------------------------------------------------------
    def _action(self, text: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_menus(self) -> None:
        game = self.menuBar().addMenu("&Game")
        game.addAction(self._action("&New game...", self.new_game, QKeySequence.StandardKey.New))
        game.addAction(self._action("&Open...", self._open_dialog, QKeySequence.StandardKey.Open))
        self.recent_menu = game.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        # The actions that depend on the game: enabled by _refresh_actions as the game and the curtain change.
        self.game_actions: dict[str, QAction] = {
            "save": self._action("&Save", self.save, QKeySequence.StandardKey.Save),
            "save_as": self._action("Save &as...", self.save_as, QKeySequence("Ctrl+Shift+S")),
            # One action per export format any game writes (by its name), enabled for the games that write it.
            **{fmt.name: self._action(f"{fmt.label}...", partial(self._export_dialog, fmt.name))
               for fmt in games.formats()},
            "copy_position": self._action(self._copy_label(None), self._copy_position),
            "image": self._action("&Board image (PNG or SVG)...", self._export_image_dialog),
            "review": self._action("Re&view this game...", self.review, QKeySequence("Ctrl+R")),
            "resign": self._action("&Resign", self._resign),
            "offer_draw": self._action("Offer &draw", lambda: self._command("offer_draw")),
        }
        actions = self.game_actions
        game.addAction(actions["save"])
        game.addAction(actions["save_as"])
        export = game.addMenu("&Export")
        for name in (*games.format_names(), "copy_position", "image"):
            export.addAction(actions[name])
        for definition in games.all():
            if definition.clipboard is not None:
                game.addAction(self._action(definition.clipboard.paste_label,
                                            partial(self._paste_position, definition.key)))
        game.addAction(actions["review"])
        game.addSeparator()
        game.addAction(actions["resign"])
        game.addAction(actions["offer_draw"])
        game.addSeparator()
        game.addAction(self._action("&Quit", self.quit, QKeySequence.StandardKey.Quit))
        view = self.menuBar().addMenu("&View")
        flip = QAction("&Flip board", self)
        flip.setShortcut(QKeySequence("F"))
        flip.triggered.connect(self.board.flip)
        view.addAction(flip)
        coords = QAction("&Coordinates", self)
        coords.setCheckable(True)
        coords.setChecked(True)
        coords.toggled.connect(self.board.set_coordinates_visible)
        view.addAction(coords)
        # Each menu shows the current choice checked (read when it opens: the settings may be restored later).
        self._choice_menu(view.addMenu("Board &theme"), THEME_NAMES, self._theme, "view/theme", "brown")
        self._choice_menu(view.addMenu("&Piece set"), tuple(PIECE_SETS), self._piece_set, "view/pieces", "cburnett")
        self._choice_menu(view.addMenu("Piece &animation"), ANIMATION, self._animation, "view/animation", "glide",
                          labels={"glide": "Pieces glide to their squares", "off": "Off"})
        self._choice_menu(view.addMenu("Picking a &square"), SENSE_CONFIRM, self._sense_confirm, "play/sense_confirm",
                          SENSE_CONFIRM_DEFAULT,
                          labels={"one click": "One click picks it", "second click": "Click the square twice",
                                  "hold": "Hold the button down on the square"})
        self._add_sound_menu(view)
        self._choice_menu(view.addMenu("&End of turn at one computer"), END_OF_TURN, self._end_of_turn,
                          "play/end_of_turn", END_OF_TURN_DEFAULT,
                          labels={"moment": "Show its result for a moment", "button": "Wait for Pass the screen",
                                  "at once": "Pass the screen at once"})
        self._add_look_back_menu(view.addMenu("&Look back at your moves"))
        view.addSeparator()
        view.addAction(self.panel_dock.toggleViewAction())
        self._view_menu = view
        help_ = self.menuBar().addMenu("&Help")
        self._help_menu = help_
        help_.aboutToShow.connect(self._fill_help)
        self._fill_help()

    def _add_look_back_menu(self, menu: Any) -> None:
        """Stepping through the seat's own past moments (the move list): the keys of every chess GUI. The typing
        field and the board keep these keys while they have the focus."""
        self._look_back_actions = []
        for text, how, key in (("&Previous move", "back", "Left"), ("&Next move", "forward", "Right"),
                               ("&First move", "first", "Home"), ("&Back to the game", "present", "End")):
            action = self._action(text, partial(self._step, how), key)
            menu.addAction(action)
            self._look_back_actions.append(action)
        escape = QAction("Back to the game", self)  # Esc too (no menu line of its own; see _escape)
        escape.setShortcut(QKeySequence("Esc"))
        escape.triggered.connect(self._escape)
        self.addAction(escape)

    def _step(self, how: str) -> None:
        if self.controller is not None:
            self.controller.step_back(how)

    def _look_back(self, row: int) -> None:
        if self.controller is not None:
            self.controller.look_back(row)

    def _escape(self) -> None:
        """Esc: back to the game from looking back, else take back the queued premoves."""
        controller = self.controller
        if controller is not None:
            if controller.looking_back is not None:
                controller.look_back(None)
            else:
                controller.cancel_premoves()

    def _cancel_premoves(self) -> None:
        if self.controller is not None:
            self.controller.cancel_premoves()

    def _sense_confirm(self, how: str) -> None:
        QSettings().setValue("play/sense_confirm", how)
        self.board.set_sense_confirmation(how)

    def _animation(self, name: str) -> None:
        QSettings().setValue("view/animation", name)
        self.board.set_glide_ms(glide_ms_for(name))
        if self.belief_panel is not None:
            self.belief_panel.board.set_glide_ms(glide_ms_for(name))

    def _end_of_turn(self, name: str) -> None:
        QSettings().setValue("play/end_of_turn", name)
        if self.controller is not None:
            self.controller.end_of_turn = name

    def _choice_menu(self, menu: Any, names: Sequence[str], choose: Callable[[str], None], key: str,
                     default: str, labels: dict[str, str] | None = None) -> None:
        """A menu of exclusive choices, the current one (the setting ``key``) checked whenever it opens."""
        from PySide6.QtGui import QActionGroup
        group = QActionGroup(menu)
        actions = {}
        for name in names:
            action = QAction((labels or {}).get(name, name.capitalize()), menu)
            action.setCheckable(True)
            action.triggered.connect(lambda _checked=False, n=name: choose(n))
            group.addAction(action)
            menu.addAction(action)
            actions[name] = action

        def show_current() -> None:
            current = setting_choice(QSettings(), key, tuple(names), default)
            actions[current].setChecked(True)
        menu.aboutToShow.connect(show_current)
        show_current()

    def _add_sound_menu(self, view: Any) -> None:
        """View > Sound: mute, and the volume, both remembered."""
        from PySide6.QtGui import QActionGroup
        from app.ui.sounds import LazySink, Sounds
        self.sounds = Sounds(LazySink(), QSettings())
        menu = view.addMenu("&Sound")
        mute = QAction("&Mute sounds", self)
        mute.setCheckable(True)
        mute.setChecked(self.sounds.muted)
        mute.toggled.connect(self.sounds.set_muted)
        menu.addAction(mute)
        menu.addSeparator()
        group = QActionGroup(self)
        for volume in (25, 50, 80, 100):
            action = QAction(f"Volume {volume}%", self)
            action.setCheckable(True)
            action.setChecked(self.sounds.volume == volume)
            action.triggered.connect(lambda _checked=False, v=volume: self.sounds.set_volume(v))
            group.addAction(action)
            menu.addAction(action)
        note = QAction("", self)
        note.setEnabled(False)
        menu.addSeparator()
        menu.addAction(note)
        note.setVisible(False)

        def tell_when_silent() -> None:  # the sound system is looked for only when the menu first opens
            if not self.sounds.sink.available:
                note.setText("No sound: no sound device was found")
                note.setVisible(True)
        menu.aboutToShow.connect(tell_when_silent)
        self._sound_menu = menu

    def _fill_help(self) -> None:
        """One rules entry per game the registry holds when the menu opens (a game registered after the window
        was made is there too; the registry is plain data, so no game code is imported for the titles)."""
        help_ = self._help_menu
        help_.clear()
        guide = QAction("&Using the window and its keys", help_)
        guide.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        guide.triggered.connect(self._window_guide)
        help_.addAction(guide)
        help_.addSeparator()
        for definition in games.all():
            action = QAction(f"Rules of {definition.title}", help_)
            action.triggered.connect(lambda _checked=False, v=definition.key: self._rules(v))
            help_.addAction(action)
        about = QAction("&About Sightline", help_)
        about.triggered.connect(self._about)
        help_.addAction(about)

    def _theme(self, name: str) -> None:
        """View > Board theme: every board of the window takes it (the game's, the belief board, open replays)."""
        if name not in THEME_NAMES:
            return
        QSettings().setValue("view/theme", name)
        for board in self._boards():
            board.set_theme(name)

    def _boards(self) -> list[BoardWidget]:
        """Every board this window shows: the game's, the belief board's, and those of its open replays."""
        boards = [self.board]
        if self.belief_panel is not None:
            boards.append(self.belief_panel.board)
        for child in self.findChildren(QMainWindow):  # replays (the rules windows have no board)
            board = getattr(child, "board", None)
            if isinstance(board, BoardWidget):
                boards.append(board)
        return boards

    def _piece_set(self, name: str) -> None:
        if name not in PIECE_SETS:
            return
        set_piece_set(name)
        self.board.update()
        QSettings().setValue("view/pieces", name)

    def _window_guide(self) -> None:
        """Help > Using the window and its keys: docs/window.md, in a window of its own like the rules."""
        self._show_page(GUIDE_KEY, "Using the Sightline window", guide_text())

    def _rules(self, variant: str) -> None:
        """The rules in a window of their own, on the main window's screen; closed with the main window."""
        if variant in self._rules_windows:
            self._show_page(variant, "", "")
            return
        try:
            definition: games.GameDefinition | None = games.get(variant)
        except KeyError:
            definition = None  # a game that was registered when the menu was made and is not any more
        text = rules_text((definition.rules_doc if definition is not None else "") or f"{variant}.md")
        self._show_page(variant, f"Rules of {definition.title if definition is not None else variant}", text)

    def _show_page(self, key: str, title: str, text: str) -> None:
        """A help page (markdown) in a window of its own, on the main window's screen, one per ``key``; closed
        with the main window."""
        window = self._rules_windows.get(key)
        if window is None:
            from PySide6.QtWidgets import QTextBrowser  # not before the first frame (see _LATER_QT_WIDGETS)
            window = QTextBrowser(self)
            window.setWindowFlag(Qt.WindowType.Window, True)  # a window of its own, but owned by this one
            window.setOpenExternalLinks(True)
            window.setMarkdown(text)
            window.setWindowTitle(title)
            window.destroyed.connect(lambda _object=None, v=key: self._rules_windows.pop(v, None))
            window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self._rules_windows[key] = window
            window.resize(720, 640)
            place_over(window, self)  # over this window, within the screen's free area
        window.show()
        window.raise_()
        window.activateWindow()
        self._rules_window = window

    def _about(self) -> None:
        """Help > About: what Sightline is, its version, and the games it plays (not modal: a clock may run)."""
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.NoIcon, "About Sightline", about_text(), QMessageBox.StandardButton.Ok,
                          self)
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.about_box = box

    # -- games -----------------------------------------------------------------------------------------
    def _may_leave_game(self) -> bool:
        """Before another game replaces an unfinished one (whose autosave it would overwrite), ask."""
        controller = self.controller
        if controller is None or controller.outcome is not None:
            return True
        return self._ask("Leave this game?", "The game being played is not finished. Start another one instead? "
                         "(Save it first with Game > Save to keep it.)")

    def new_game(self) -> None:
        from app.ui.new_game_dialog import NewGameDialog
        if not self._may_leave_game():
            return
        dialog = NewGameDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start(dialog.choice())

    def start(self, choice: NewGame) -> None:
        from app.ui.game_controller import GameController, SeatConfig
        definition = games.get(choice.variant)
        chosen = choice.seat_choices()
        people = sum(seat.is_person for seat in chosen)
        seats = []
        for spec, seat in zip(definition.seats, chosen):
            if seat.bot is not None:
                seats.append(SeatConfig(f"{seat.bot} ({seat.level})", f"sightline:{seat.bot}:{seat.level}"))
            else:  # one person playing bots is "You"; people taking turns are called by their seats
                seats.append(SeatConfig("You" if people == 1 else spec.name))
        options: dict[str, Any] = choice.game_options()
        extra = {"inference": choice.inference} if definition.inference is not None else {}
        self._install(GameController(choice.variant, seats, choice.control, options, parent=self, extra=extra))
        self._save_path = None

    def _seat_flipped(self, seat: int) -> bool:
        """Whether ``seat`` sees the board turned half round (its definition says so)."""
        controller = self.controller
        assert controller is not None
        return games.get(controller.variant).seats[seat].flipped

    def _install(self, controller: GameController) -> None:
        """Make ``controller`` the game of the window (a new one or a resumed one) and start it."""
        self._close_reviews()
        if self.controller is not None:
            self.private.show(self.controller.nobody_screen())  # the last game's seat leaves the screen first
            self.controller.stop()
            self.controller.deleteLater()
        controller.changed.connect(self._changed)
        controller.clocksChanged.connect(self._refresh_clocks)
        controller.curtainChanged.connect(self._curtain)
        controller.gameOver.connect(self._game_over)
        controller.thinkingChanged.connect(self.panel.thinking.setVisible)
        controller.soundCue.connect(self.sounds.play)
        controller.end_of_turn = setting_choice(QSettings(), "play/end_of_turn", END_OF_TURN, END_OF_TURN_DEFAULT)
        controller.autosave = self._autosave
        if self.inference is not None:
            self.inference.shutdown()
            self.inference.deleteLater()
            self.inference = None
        if games.get(controller.variant).inference is not None and controller.inference_allowed:
            from app.ui.inference_service import InferenceService
            from app.inference_jobs import WINDOW_OPTIONS
            options = {**WINDOW_OPTIONS, "seed": controller.seed, "start_fen": controller.game.options().get("fen")}
            self.inference = InferenceService(controller.variant, options, self)
            self.inference.ready.connect(self._inference_ready)
        self.controller = controller
        self._shown_seat = None
        self._belief_fed = None
        self._restoring_notes = True
        self.board.clear_annotations()
        self._restoring_notes = False
        # Nobody of the new game at the screen until it starts (a belief panel made just now starts from this).
        self.private.show(controller.nobody_screen())
        self.panel.truth_button.setChecked(False)
        self.panel.new_game()  # its command buttons keep the room this game needs, not the last one's
        self._prepare_belief_dock(self._has_belief_panel(controller))
        scene = controller.scene()
        self.board.set_board_size(scene.files, scene.ranks)
        self.board.set_flipped(not controller.hot_seat and controller.screen_seat is not None
                               and self._seat_flipped(controller.screen_seat))
        controller.start()
        self._curtain()
        self._refresh()

    def _lift(self) -> None:
        if self.controller is not None:
            self.controller.lift_curtain()

    def _curtain(self) -> None:
        controller = self.controller
        if controller is not None and controller.curtain_for is not None:
            self.private.show(controller.nobody_screen())
            self.curtain.show_for(controller.game.seat_names[controller.curtain_for])
            self._place_curtain()
            for dock in self.findChildren(QDockWidget):
                if dock.isFloating() and dock.isVisible():
                    dock.hide()  # a floating panel is outside the curtain: put it away until the curtain lifts
                    self._hidden_floating.append(dock)
        else:
            self.curtain.hide()
            for dock in self._hidden_floating:
                dock.show()
            self._hidden_floating = []
            if controller is not None and controller.hot_seat and controller.screen_seat is not None:
                self.board.set_flipped(self._seat_flipped(controller.screen_seat))

    def _place_curtain(self) -> None:
        """The curtain covers everything below the menu bar: board and docked panels."""
        top = self.menuBar().height() if self.menuBar().isVisible() else 0
        self.curtain.setGeometry(0, top, self.width(), self.height() - top)
        self.curtain.raise_()

    # -- the belief board ----------------------------------------------------------------------------
    def _prepare_belief_dock(self, wanted: bool) -> None:
        """Make the belief dock for the first game with hidden pieces; put it away for MinitChess."""
        if not wanted:
            if self.belief_dock is not None and self.belief_dock.isVisible():
                self.belief_dock.hide()
                self._belief_auto_hidden = True
            return
        if self.belief_dock is None:
            from app.ui.belief_panel import BeliefPanel
            panel = BeliefPanel()
            panel.board.set_theme(setting_choice(QSettings(), "view/theme", THEME_NAMES, "brown"))  # as the game's board
            dock = QDockWidget("Belief board", self)
            dock.setObjectName("beliefDock")
            dock.setWidget(panel)
            if not self.restoreDockWidget(dock):
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
                # Under the game panel, sharing the height so that the log keeps several lines in sight.
                self.resizeDocks([self.panel_dock, dock], [self.height() // 2, self.height() // 2],
                                 Qt.Orientation.Vertical)
                self.resizeDocks([self.panel_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
                dock.show()  # resizing leaves a dock not yet laid out hidden until the next event loop turn
            panel.hypothesesChanged.connect(self._belief_changed)
            panel.overlayToggled.connect(lambda _on: self._apply_overlay())
            panel.heatMapToggled.connect(lambda _on: self._apply_overlay())
            self._view_menu.addAction(dock.toggleViewAction())
            self.belief_panel, self.belief_dock = panel, dock
            self.private.add("belief", self._show_belief)
        elif self._belief_auto_hidden:
            self.belief_dock.show()
        self._belief_auto_hidden = False

    @staticmethod
    def _has_belief_panel(controller: GameController | None) -> bool:
        """Whether the game offers its people the belief board (its presenter lists the panel)."""
        from app.games.presenter import BELIEF_PANEL  # the game code loads with the first game, not before
        return controller is not None and BELIEF_PANEL in controller.presenter.panels()

    def _show_belief(self, screen: SeatScreen) -> None:
        """The belief board of the person at the screen; nobody's (empty, every switch off) behind the curtain,
        for a bot's seat, and while a game without the belief board is played."""
        panel, controller, seat = self.belief_panel, self.controller, screen.seat
        if panel is None:
            return
        if controller is None or seat is None or not self._has_belief_panel(controller) \
                or controller.seats[seat].is_bot:
            fed: tuple[int, int | None, int] = (id(controller), None, 0)
            if fed != self._belief_fed:
                self._belief_fed = fed
                if controller is not None and self._has_belief_panel(controller):
                    panel.show_nobody(screen.view, controller.variant)
                else:
                    panel.show_nobody()  # a view of the game it showed last, that knows nothing
        else:
            fed = (id(controller), seat, controller.seen(seat))
            if fed != self._belief_fed:
                white = not games.get(controller.variant).seats[seat].flipped  # the belief kit's games are chess
                if self._belief_fed is None or self._belief_fed[:2] != fed[:2]:
                    panel.set_view(screen.view, white, controller.variant)
                    panel.set_belief(controller.belief_for(seat))  # another seat: its own board and switches
                else:
                    panel.set_view(screen.view, white, controller.variant)  # the same seat learnt more
                self._belief_fed = fed
                self._show_heat(seat)
        self._apply_overlay()

    def _request_inference(self) -> None:
        """Each person's seat asks for the summary of what it now knows (computed in the worker)."""
        controller, service = self.controller, self.inference
        if controller is None or service is None:
            return
        for seat, config in enumerate(controller.seats):
            if not config.is_bot:
                service.request(seat, list(controller.game.observations(seat)[:controller.seen(seat)]))

    def _inference_ready(self, seat: int, _summary: object) -> None:
        if seat == self._shown_seat:
            self._show_heat(seat)

    def _show_heat(self, seat: int) -> None:
        """The heat map and position count of the seat at the screen (never another seat's)."""
        panel, service, controller = self.belief_panel, self.inference, self.controller
        if panel is None or controller is None or seat != self._shown_seat:
            return
        allowed = service is not None
        for box in (panel.heat_box, panel.count_box):
            box.setEnabled(allowed)
            box.setToolTip(box.toolTip() if allowed else "Inference is switched off for this game (new-game option)")
        if service is None:
            panel.set_heat(None, "Inference is switched off for this game.")
            return
        summary = service.summaries.get(seat)
        if summary is None or service.pending(seat):
            # No map from older observations: after an opponent turn a square it leaves blank may now hold a piece,
            # and a blank square promises that none can be there.
            panel.set_heat(None, "updating…")
            return self._apply_overlay()
        note = "" if summary.heat_exact or summary.problem else (
            "Heat map estimated from a sample; a square is left blank only where no possible position puts a piece")
        # Guesses are checked against the possible positions: these are of the seat's current observations.
        panel.set_heat(summary.squares, summary.count_text(), by_type=summary.by_type, heat_note=note,
                       possible=None if summary.problem else summary.possible_by_type)
        self._apply_overlay()

    def _belief_changed(self) -> None:
        if self.controller is not None and self._shown_seat is not None:
            self.controller.belief_changed(self._shown_seat)
        self._apply_overlay()

    def _apply_overlay(self) -> None:
        if self.belief_panel is not None and self._has_belief_panel(self.controller) and self._shown_seat is not None \
                and not self._truth_shown and not self._looking_back:
            self.belief_panel.apply_overlay(self.board)
        else:
            self.board.set_ghosts({})
            self.board.set_flags({})
            self.board.set_heat(None)

    def _show_notes(self, screen: SeatScreen) -> None:
        """Give the board the arrows and circles of the seat at the screen (each seat keeps its own); none for
        nobody."""
        seat = screen.seat
        notes = self.controller.annotations.get(seat) if self.controller is not None and seat is not None else None
        arrows, circles = notes or ([], [])
        if seat == self._shown_seat and (list(arrows), list(circles)) == self.board.annotations():
            return  # the same seat's marks, unchanged (the controller clears them when the opponent moves)
        self._shown_seat = seat
        self._restoring_notes = True
        try:
            self.board.set_annotations(arrows, circles)
        finally:
            self._restoring_notes = False

    def _annotations_changed(self) -> None:
        controller = self.controller
        if self._restoring_notes or controller is None or self._shown_seat is None \
                or controller.screen_seat != self._shown_seat:
            return
        controller.annotations[self._shown_seat] = self.board.annotations()
        controller.annotations_changed(self._shown_seat)

    # -- what the seat at the screen sees: every private surface ----------------------------------------
    def _show_board(self, screen: SeatScreen) -> None:
        """The board of the screen's scene: pieces, marks, the moves or picks it allows, the last move and the
        off-board zones (nobody's scene has none: behind the curtain no zone is drawn, private or not). The
        keyboard's cursors do not pass from one person to the next."""
        if screen.seat != self._board_seat:
            self.board.forget_cursor()
            self._board_seat = screen.seat
        self.board.set_scene(screen.scene)

    def _show_panel(self, screen: SeatScreen) -> None:
        """The game panel's part of the screen: status, clocks, log, moves, the game's buttons, the typing field."""
        panel = self.panel
        self.status.setText(bounded(screen.status, 300))
        self.entry.setPlaceholderText(screen.entry_hint)
        if screen.seat is None:
            self.entry.setText("")  # not clear(): its undo history would keep the last player's typing
            panel.entry_error.hide()
        self._said = (screen.seat, screen.status, len(screen.log))
        if self._refused is not None and self._refused[1] != self._said:
            # The game moved on: a refusal of typed text is stale, and so is the text (typing on would add to it).
            if self.entry.text().strip() == self._refused[0]:
                self.entry.setText("")
            panel.entry_error.hide()
            self._refused = None
        if list(screen.log) != self._lines(self.log):
            panel.show_lines(self.log, list(screen.log))
        self.moves.show_lines(list(screen.moves), screen.looking_at)
        panel.set_clocks(list(screen.clocks))
        panel.show_commands(list(screen.commands))

    def _show_reviews(self, screen: SeatScreen) -> None:
        """A review of the game in progress shows the view of the seat that opened it: closed once another seat
        (or nobody) is at the screen."""
        kept = []
        for seat, window in self._reviews:
            if seat == screen.seat:
                kept.append((seat, window))
                continue
            try:
                window.close()
            except RuntimeError:
                pass  # already closed and deleted by the player
        self._reviews = kept

    def _changed(self) -> None:
        """The game changed: redraw now, or, while a bot's answer is taken in, in the next pass of the event loop
        (coalesced: a sense and a move answered together are drawn once). The redraw reads the controller as it
        is then, so it can never show what the controller no longer allows (the curtain is drawn at once)."""
        controller = self.controller
        if controller is None or not controller.answering_bot:
            self._refresh()
        elif not self._refresh_pending:
            self._refresh_pending = True
            QTimer.singleShot(0, self._pending_refresh)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        """Input on the board is judged against the board as the game is now: a redraw still waiting for the
        event loop's next pass (see _changed) is made first."""
        if self._refresh_pending and watched is self.board and event.type() in (
                QEvent.Type.MouseButtonPress, QEvent.Type.KeyPress):
            self._pending_refresh()
        return super().eventFilter(watched, event)

    def _pending_refresh(self) -> None:
        if self._refresh_pending:
            self._refresh_pending = False
            self._refresh()

    def _refresh(self) -> None:
        self._refresh_pending = False
        controller = self.controller
        panel = self.panel
        if controller is None:
            self.title.setText("Sightline")
            self.status.setText("Game > New game (Ctrl+N) to start.")
            self.panel.disable_commands()
            self.resign_button.setEnabled(False)
            self.entry.setEnabled(False)
            self._refresh_actions()
            return
        self.title.setText(games.get(controller.variant).title)
        if controller.outcome is not None:
            panel.entry_error.hide()
        truth = None
        if controller.screen_seat is not None:
            truth = controller.truth_scene()
            panel.truth_button.setVisible(truth is not None)
            show_truth = truth is not None and not panel.truth_button.isChecked()
            panel.truth_button.setText("Show what you saw" if show_truth else "Show the true position")
            truth = truth if show_truth and controller.looking_back is None else None
            if truth is not None and not truth.zones:
                # The true position has no zones of its own: it keeps the seat's (its own cards, grids, track), so
                # the board keeps their room and its size and place when the game ends.
                truth.zones = controller.scene().zones
            self._request_inference()
        self._truth_shown = truth is not None
        self._looking_back = controller.looking_back is not None
        self.private.show(controller.seat_screen(truth))
        if self._truth_shown or self._looking_back:
            self._apply_overlay()  # the seat's guesses and heat belong on its own view, not on the true position
        self.resign_button.setEnabled(controller.can("resign"))
        self.entry.setEnabled(controller.screen_seat is not None and controller.outcome is None)
        self._refresh_actions()

    def _refresh_actions(self) -> None:
        """Enable only what may be done now: nothing of a seat's own while the curtain is up, no export that the
        game's state or kind refuses, no resigning or draw offers once it is over."""
        controller = self.controller
        enabled = dict.fromkeys(self.game_actions, False)
        if controller is not None:
            over = controller.outcome is not None
            at_screen = over or (controller.screen_seat is not None and controller.curtain_for is None)
            definition = games.get(controller.variant)
            # True moves: once nothing is hidden.
            truth_allowed = over or not definition.hidden_information
            written = {fmt.name for fmt in definition.formats}
            for fmt in games.formats():  # a format is offered to the games that write it
                fits = fmt.name in written
                enabled[fmt.name] = at_screen and fits and (truth_allowed or not fmt.shows_truth)
            enabled.update(save=True, save_as=True, review=at_screen, image=at_screen,
                           copy_position=at_screen and definition.clipboard is not None,
                           resign=controller.can("resign"), offer_draw=controller.can("offer_draw"))
            self.game_actions["copy_position"].setText(self._copy_label(definition))
        for name, action in self.game_actions.items():
            action.setEnabled(enabled[name])

    @staticmethod
    def _copy_label(definition: games.GameDefinition | None) -> str:
        """The copy action's words: the game's own, or (a game that copies nothing, or none) the first game's
        that copies a position."""
        if definition is not None and definition.clipboard is not None:
            return definition.clipboard.copy_label
        for other in games.all():
            if other.clipboard is not None:
                return other.clipboard.copy_label
        return "&Copy position"

    @staticmethod
    def _lines(widget: QPlainTextEdit) -> list[str]:
        text = widget.toPlainText()
        return text.split("\n") if text else []

    def _refresh_clocks(self) -> None:
        controller = self.controller
        if controller is not None and controller.screen_seat is not None:
            self.panel.set_clocks(controller.clock_text())

    def _sense(self, square: object) -> None:
        if self.controller is not None:
            self.controller.sense(square)  # type: ignore[arg-type]

    def _zone(self, zone_id: str, index: int) -> None:
        if self.controller is not None:
            self.controller.zone(zone_id, index)

    def _move(self, from_sq: object, to_sq: object, promotion: object) -> None:
        if self.controller is not None:
            self.controller.move(from_sq, to_sq, promotion)  # type: ignore[arg-type]

    def _command(self, command_id: str) -> None:
        """A button (or menu item) of one of the game's commands: pass, offer a draw, answer one ..."""
        if self.controller is not None:
            self.controller.act_on_command(command_id)

    def _typed(self) -> None:
        """Text typed in the entry: read by the game (a move as coordinates or SAN, a square to sense, pass ...)."""
        text = self.entry.text().strip()
        controller = self.controller
        if controller is None or not text:
            return
        error = self.panel.entry_error
        from app.games.presenter import InputError
        try:  # while a bot is to act, typing queues a premove as a click does; else the game reads the text
            action = None if controller.queue_typed(text) else controller.parse_text(text)
        except InputError as problem:
            message = bounded(str(problem), 300)
            error.setText(message[:1].upper() + message[1:] + ".")
            error.show()
            self._refused = (text, self._said)  # said until the game says something new (see _show_panel)
            return
        self.entry.setText("")  # not clear(): Ctrl+Z would bring the move back for the next player to read
        error.hide()
        if action is not None:
            controller.act(action)

    def _resign(self) -> None:
        if self.controller is not None and self.controller.can("resign"):
            if self._ask("Resign", "Resign this game?"):
                self.controller.resign()

    def _game_over(self, outcome: Outcome) -> None:
        self._refresh()
        controller = self.controller
        assert controller is not None
        from app.games.describe import outcome_headline
        winner = outcome_headline(outcome, [short_name(seat.name) for seat in controller.seats], controller.game.teams())
        detail = bounded(outcome.detail, 300)
        self.status.setText(f"Game over. {winner}: {detail}")
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.Information, "Game over",
                          f"{winner}: {detail}\n\nThe board now shows the true final position.",
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running (and tests are not stopped by a modal loop)
        self.game_over_box = box

    # -- files: save, open, autosave, resume, review, export -----------------------------------------
    def _ask(self, title: str, text: str) -> bool:
        """A yes/no question whose default (Enter, Escape) is No, the answer that loses nothing (tests replace
        this method)."""
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
        return QMessageBox.question(self, title, bounded(text), buttons,
                                    QMessageBox.StandardButton.No) == QMessageBox.StandardButton.Yes

    def _warn(self, title: str, text: str) -> None:
        """A problem the player must read (tests replace this method)."""
        text = bounded(text)
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.last_warning = text

    def _autosave(self, session: GameSession) -> None:
        """Save the game as it is now, in this window's own slot. The copy is taken here; writing it (JSON,
        fsync, renames) happens on a saver thread, in order, so the event loop never waits for the disk."""
        record = session.snapshot()
        slot = self._own_slot()
        if slot is None:
            return
        if self._saver is None:
            import concurrent.futures  # not before the first frame: no game, nothing to save
            self._saver = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        for pending in self._saves:
            pending.cancel()  # a write still waiting is superseded by this newer record (a slow disk never piles up)
        future = self._saver.submit(_write_autosave, slot, record)
        future.add_done_callback(self._autosave_done)
        self._saves.append(future)
        self._saves = [pending for pending in self._saves if not pending.done()]

    def _own_slot(self) -> AutosaveSlot | None:
        """This window's autosave slot, claimed the first time a game is saved; None (reported) if the data
        folder refuses."""
        if self._slot is None:
            from app.storage import claim_slot
            try:
                self._slot = claim_slot()
            except OSError as error:
                self._autosave_result(f"the autosave folder cannot be used ({os_error_text(error)})")
                return None
        return self._slot

    def _take_slot(self, slot: AutosaveSlot | None) -> None:
        """Use ``slot`` (a game taken over from the start-up offer) from now on; the slot of the game this window
        leaves is emptied and let go (the player agreed to leave that game)."""
        if slot is self._slot:
            return
        self.flush_autosave()
        if self._slot is not None:
            try:
                self._slot.discard()
            except OSError as error:
                log.warning("cannot empty the autosave slot %s: %s", self._slot.directory, error)
            self._slot.release()
        self._slot = slot

    def _autosave_done(self, future: concurrent.futures.Future[str | None]) -> None:
        if future.cancelled():
            return  # superseded before it was written: it says nothing about the disk
        problem = future.result()
        self._last_write_problem = problem
        try:
            self.autosaveWritten.emit(problem or "")  # from the saver thread: handled on the UI thread
        except RuntimeError:
            pass  # the window is gone

    def _autosave_result(self, problem: str) -> None:
        """A write ended. A failure stays in sight (a red bar) and is retried until a write works again."""
        if not problem:
            if self.autosave_problem is not None:
                self.autosave_problem = None
                self.autosave_banner.hide()
                self._autosave_retry.stop()
                self.statusBar().showMessage("Autosave works again; the game is safe.", 8000)
            return
        first = self.autosave_problem is None
        self.autosave_problem = problem
        if first:
            import datetime as _dt  # not before the first frame: only a failing autosave is dated
            self._autosave_failing_since = _dt.datetime.now().strftime("%H:%M:%S")
        self.autosave_banner.setText(bounded(
            f"Autosave is failing since {self._autosave_failing_since}: {problem}. Sightline keeps trying; "
            "use Game > Save as... to keep this game somewhere else."))
        if not self.autosave_banner.styleSheet():  # set here, not before the first frame (see Curtain._dress)
            self.autosave_banner.setStyleSheet("#autosaveBanner { background: #b02020; color: white;"
                                               " font-weight: 600; padding: 4px 8px; }")
        self.autosave_banner.show()
        if not self._autosave_retry.isActive():
            self._autosave_retry.start()
        # No message box: it would pop up in the middle of a turn and take the move's clicks while the clock runs.
        # The red bar says it; closing the window asks what to do (see _may_close).

    def _retry_autosave(self) -> None:
        """Try again while nothing else is being written (also when no one acts: an untimed game may wait)."""
        if self.controller is not None and all(pending.done() for pending in self._saves):
            self._autosave(self.controller.session)

    def flush_autosave(self, timeout: float = 10.0) -> None:
        """Wait until every autosave asked for so far is on disk (closing the window; tests)."""
        import concurrent.futures  # not before the first frame (see _autosave)
        concurrent.futures.wait(self._saves, timeout=timeout)
        self._saves = []

    def offer_resume(self) -> bool:
        """On start: offer every unfinished game that no running window holds (a crash may have left several)."""
        from app.storage import release_all, unfinished_games
        problems: list[str] = []
        try:
            games = unfinished_games(report=problems.append)
        except Exception as error:  # noqa: BLE001 - the start must go on to a new game whatever the disk holds
            log.exception("cannot look for unfinished games")
            text = os_error_text(error) if isinstance(error, OSError) else "see the log"
            problems.append(f"the autosaves could not be looked through ({text})")
            games = []
        if problems:
            self._warn("Autosave", "Some autosaves cannot be offered now (nothing was deleted):\n"
                       + "\n".join(problems))
        if not games:
            return False
        games = self._mark_older_copies(games)
        chosen = self._pick_unfinished(games)
        release_all(games, keep=chosen.slot if chosen is not None else None)
        if chosen is None:
            return False
        if self.resume_record(chosen.record, chosen.slot):
            return True
        chosen.slot.release()  # kept for another try (a newer Sightline may continue it)
        return False

    def _mark_older_copies(self, games: list[UnfinishedGame]) -> list[UnfinishedGame]:
        """Put last, and say so, the games whose slot still holds the stale copy left when the window was closed
        after saving the game elsewhere (its autosave was failing and the copy could not be removed)."""
        settings = QSettings()
        marks = _older_copy_marks(settings)
        current, older = [], []
        for game in games:
            path = marks.get((str(game.slot.directory), game.slot.fingerprint()))
            if path is None:
                current.append(game)
            else:
                game.note = f"an older copy: the game was saved later to {path}"
                older.append(game)
        # Marks of slots that are gone are forgotten (a changed slot no longer matches its mark anyway).
        kept = {key: path for key, path in marks.items() if Path(key[0]).is_dir()}
        if kept != marks:
            _store_older_copy_marks(settings, kept)
        return current + older

    def _remember_older_copy(self, slot: AutosaveSlot, path: str) -> None:
        settings = QSettings()
        marks = _older_copy_marks(settings)
        marks[(str(slot.directory), slot.fingerprint())] = path
        _store_older_copy_marks(settings, dict(list(marks.items())[-20:]))

    def _pick_unfinished(self, games: list[UnfinishedGame]) -> UnfinishedGame | None:
        """Which unfinished game to continue (None: none now; they are offered again next time). The player may
        also discard games here. Tests replace this method."""
        from app.ui.unfinished_dialog import UnfinishedGamesDialog  # not before the first frame
        dialog = UnfinishedGamesDialog(games, describe_unfinished, self._ask, self._warn, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.chosen()

    def resume_record(self, record: GameRecord, slot: AutosaveSlot | None = None) -> bool:
        """Continue an unfinished game from its record (from ``slot``, a game taken over from the start-up offer,
        whose slot becomes this window's); a record that cannot continue is reported."""
        from app.engine.record import RecordError
        from app.ui.game_controller import GameController
        try:
            controller = GameController.from_record(record, parent=self)
        except RecordError as error:
            self._warn("Cannot continue this game", str(error))
            return False
        except ValueError as error:
            log.warning("cannot continue a game: %s", error)
            self._warn("Cannot continue this game", "The game's file holds something this version of Sightline "
                       "cannot continue. It can still be replayed.")
            return False
        if slot is not None:
            self._take_slot(slot)
        self._install(controller)
        return True

    def save(self) -> None:
        if self.controller is None:
            return
        if self._save_path is None:
            self.save_as()
        else:
            self.save_to(self._save_path)

    def save_as(self) -> bool:
        """Ask for a file and save the game there; False if the player cancelled or the write failed."""
        if self.controller is None:
            return False
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see _LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self, "Save game", str(self._default_dir() / "game.json"),
                                                    "Sightline games (*.json)")
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the game as it is now (clocks, annotations, belief boards included), atomically."""
        if self.controller is None:
            return False
        try:
            self.controller.session.snapshot().save(path)
        except OSError as error:
            self._warn("Save", f"Could not save to {path}: {os_error_text(error)}")
            return False
        self._save_path = path
        self._remember(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see _LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getOpenFileName(self, "Open game", str(self._default_dir()),
                                                    "Sightline games (*.json);;All files (*)")
        if path:
            self.open_file(path)

    def open_file(self, path: str) -> bool:
        """Open a saved game: a finished one in the replay viewer, an unfinished one to play on.

        A corrupt, truncated, foreign or future file is reported with what is wrong, and nothing changes.
        """
        from app.engine.record import RecordError, read_record
        try:
            record = read_record(path)
        except RecordError as error:
            self._warn("Cannot open this file", f"{path}:\n{error}")
            return False
        except OSError as error:
            self._warn("Cannot open this file", f"{path}: {os_error_text(error)}")
            return False
        self._remember(path)
        if record.result is not None:
            return self.open_replay(record) is not None
        if not self._may_leave_game():
            return False
        if self.resume_record(record):
            self._save_path = path
            return True
        return False

    def open_replay(self, record: GameRecord, asking_seat: int | None = None) -> ReplayWindow | None:
        from app.engine.record import RecordError
        from app.ui.replay_window import ReplayWindow
        try:
            window = ReplayWindow(record, asking_seat, self)
        except RecordError as error:
            self._warn("Cannot replay this game", str(error))
            return None
        except ValueError as error:
            log.warning("cannot replay a game: %s", error)
            self._warn("Cannot replay this game", "The game holds something this version of Sightline cannot "
                       "replay.")
            return None
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.setWindowFlag(Qt.WindowType.Window, True)
        place_over(window, self)  # over this window, within the screen's free area
        window.show()
        self.replay_window = window
        return window

    def review(self) -> None:
        """Review the game being played: a finished game from every side, a running one only as the seat at the
        screen sees it (behind the curtain, by nobody)."""
        controller = self.controller
        if controller is None:
            return
        if controller.outcome is None and controller.screen_seat is None:
            self._warn("Review", "Lift the curtain first: a game in progress is reviewed by the player at the screen.")
            return
        window = self.open_replay(controller.session.snapshot(), controller.screen_seat)
        if window is not None and controller.outcome is None and controller.screen_seat is not None:
            self._reviews.append((controller.screen_seat, window))  # one seat's view: closed when it leaves

    def _close_reviews(self) -> None:
        for _seat, window in self._reviews:
            try:
                window.close()
            except RuntimeError:
                pass  # already closed and deleted by the player
        self._reviews = []

    def _export_refusal(self, fmt: str) -> str | None:
        """Why the window will not export ``fmt`` now, in the window's terms (asked before a file is chosen)."""
        controller = self.controller
        if controller is None:
            return "There is no game to export."
        over = controller.outcome is not None
        if not over and (controller.screen_seat is None or controller.curtain_for is not None):
            return "Lift the curtain first: only the player at the screen may export, and only their own view."
        definition = games.get(controller.variant)
        export_format = next((known for known in games.formats() if known.name == fmt), None)
        if export_format is None:
            return None  # a board image: any game's, as the seat at the screen sees it
        if fmt not in {own.name for own in definition.formats}:
            writing = [other.title for other in games.all() if fmt in {own.name for own in other.formats}]
            return f"{export_format.plain_label} is for {' and '.join(writing)} games only."
        if export_format.shows_truth and not over and definition.hidden_information:
            return ("This game is still in progress: its true moves stay hidden until it ends. Game > Export > "
                    "Board image saves the board as you see it now.")
        return None

    def _export_dialog(self, fmt: str) -> None:
        refusal = self._export_refusal(fmt)
        if refusal is not None:
            self._warn("Export", refusal)
            return
        suffix = next(known.suffix for known in games.formats() if known.name == fmt)
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see _LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self, "Export", str(self._default_dir() / f"game{suffix}"))
        if path:
            self.export_to(fmt, path)

    def export_to(self, fmt: str, path: str) -> bool:
        from app.engine.record import RecordError
        from app.exports import export_record
        refusal = self._export_refusal(fmt)
        if refusal is not None or self.controller is None:
            self._warn("Export", refusal or "There is no game to export.")
            return False
        try:
            # Never over the game's own saved file, which an export of the same name would destroy.
            export_record(self.controller.session.snapshot(), fmt, path, source=self._save_path)
        except RecordError as error:
            self._warn("Export", str(error))
            return False
        except ValueError as error:
            log.warning("export to %s failed: %s", path, error)
            self._warn("Export", f"The game could not be exported as {fmt}.")
            return False
        except OSError as error:
            self._warn("Export", f"Could not write {path}: {os_error_text(error)}")
            return False
        label = next((known.plain_label for known in games.formats() if known.name == fmt), fmt)
        self._tell_exported(path, label)
        return True

    def _tell_exported(self, path: str, what: str) -> None:
        """An export worked: say where the file went, with a button opening its folder (and in the status bar)."""
        from app.ui.export_message import show_exported  # not before the first frame: nothing is exported then
        self.statusBar().showMessage(f"Exported {path}", 8000)
        self.export_box = show_exported(self, path, what)

    def _copy_position(self) -> None:
        controller = self.controller
        clipboard = games.get(controller.variant).clipboard if controller is not None else None
        if controller is None or clipboard is None:
            self._warn("Copy position", "This game's positions are not copied as text.")
            return
        QApplication.clipboard().setText(clipboard.copy()(controller.game))
        self.statusBar().showMessage(f"{clipboard.what.capitalize()} copied", 3000)

    def _paste_position(self, key: str) -> None:
        """A new game of the kind ``key`` from a position on the clipboard (two people at the screen)."""
        self.start_from_position(QApplication.clipboard().text(), key)

    def start_from_position(self, text: str, key: str | None = None) -> bool:
        """Start a game of the kind ``key`` (default: the first game that pastes positions) from pasted text,
        between two people at the screen; warn and return False if the text is no such position."""
        definition = next((known for known in games.all() if known.clipboard is not None
                           and (key is None or known.key == key)), None)
        if definition is None or definition.clipboard is None:
            return False
        if not self._may_leave_game():
            return False
        from app.engine.clock import TimeControl
        from app.ui.game_controller import GameController, SeatConfig
        try:
            options = definition.clipboard.paste()(text)
            controller = GameController(definition.key, [SeatConfig(name) for name in definition.seat_names],
                                        TimeControl(None, 0), options, parent=self)
        except ValueError as error:
            self._warn("Paste position", f"That is not a {definition.title} {definition.clipboard.what}: {error}")
            return False
        if controller.outcome is not None:
            controller.deleteLater()
            self._warn("Paste position", f"That position is already decided ({controller.outcome.detail}): "
                       "there is nothing to play.")
            return False
        self._install(controller)
        self._save_path = None
        return True

    def _export_image_dialog(self) -> None:
        controller = self.controller
        if controller is None:
            return
        refusal = self._export_refusal("image")
        if refusal is not None:
            self._warn("Board image", refusal)
            return
        from PySide6.QtWidgets import QFileDialog  # not before the first frame (see _LATER_QT_WIDGETS)
        path, _filter = QFileDialog.getSaveFileName(self, "Board image", str(self._default_dir() / "board.png"),
                                                    "PNG image (*.png);;SVG image (*.svg)")
        if not path:
            return
        perspective = None if controller.outcome is not None else controller.screen_seat
        from app.engine.record import RecordError
        from app.exports import export_record
        try:
            export_record(controller.session.snapshot(), "svg" if path.lower().endswith(".svg") else "png", path,
                          perspective=perspective, source=self._save_path)  # never over the game's own file
        except RecordError as error:
            self._warn("Board image", str(error))
        except ValueError as error:
            log.warning("board image %s failed: %s", path, error)
            self._warn("Board image", "The board image could not be made.")
        except OSError as error:
            self._warn("Board image", f"Could not write {path}: {os_error_text(error)}")
        else:
            self._tell_exported(path, "Board image")

    def _default_dir(self) -> Path:
        return Path(self._save_path).parent if self._save_path else Path.home()

    def _remember(self, path: str) -> None:
        settings = QSettings()
        recent = [item for item in self.recent_files() if item != path]
        settings.setValue("recent/files", [path, *recent][:RECENT_LIMIT])

    def recent_files(self) -> list[str]:
        """The recently opened files, newest first; entries that are not file names (a damaged or hand-edited
        settings file) are left out."""
        files = [item for item in _as_list(QSettings().value("recent/files"))
                 if isinstance(item, str) and 0 < len(item) <= PATH_LIMIT and "\x00" not in item]
        return list(dict.fromkeys(files))[:RECENT_LIMIT]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for path in files:
            self.recent_menu.addAction(self._action(bounded(path, 200).replace("&", "&&"),
                                                    partial(self.open_file, path)))
        if not files:
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    # -- window state ----------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        """Put back the window, docks, theme and piece set of the last session. Anything unreadable, unknown (from
        a newer Sightline) or impossible is ignored and the default used: settings never stop the window."""
        settings = QSettings()
        geometry = settings.value("window/geometry")
        restored = isinstance(geometry, (QByteArray, bytes)) and self.restoreGeometry(geometry)
        if not restored:
            self.resize(DEFAULT_SIZE[0], DEFAULT_SIZE[1])
            self._fit_to_screen()
        self._cascade()
        state = settings.value("window/state")
        self._layout_restored = isinstance(state, (QByteArray, bytes)) and self.restoreState(state, STATE_VERSION)
        if not self._layout_restored:
            # The first start (or a layout that could not be read): the board takes what the panel leaves.
            self.resizeDocks([self.panel_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
        self.board.set_theme(setting_choice(settings, "view/theme", THEME_NAMES, "brown"))
        set_piece_set(setting_choice(settings, "view/pieces", tuple(PIECE_SETS), "cburnett"))
        self.board.set_glide_ms(glide_ms_for(setting_choice(settings, "view/animation", ANIMATION, "glide")))
        self.board.set_sense_confirmation(setting_choice(settings, "play/sense_confirm", SENSE_CONFIRM,
                                                         SENSE_CONFIRM_DEFAULT))

    def _cascade(self) -> None:
        """A second (third ...) open window steps down and to the right of the remembered place, so that it does
        not open exactly over the first."""
        number = self._window_number.number
        if number == 0 or self.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
            return
        screen = self.screen() or QApplication.primaryScreen()
        if screen is not None:
            self.setGeometry(cascaded(self.geometry(), number, screen.availableGeometry()))

    def _fit_to_screen(self) -> None:
        """No bigger than the screen's free area, and on it."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        self.setGeometry(fitted(self.geometry(), screen.availableGeometry()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.curtain.isVisible():
            self._place_curtain()

    def quit(self) -> None:
        """Game > Quit: ask as closing the window does, then close it and every window it opened."""
        self._asked_to_quit = True
        try:
            self.close()
        finally:
            self._asked_to_quit = False

    def _may_close(self) -> bool:
        """The player closes the window: a game whose newest moves are not on disk, or an unfinished one, asks."""
        controller = self.controller
        if controller is None:
            return True
        controller.save_now()  # one more try, with the clocks as they are now
        self.flush_autosave()
        if self._last_write_problem is not None or self.autosave_problem is not None:
            answer = self._ask_unsaved_close(self._last_write_problem or self.autosave_problem or "")
            if answer == "save":
                saved = self.save_as()
                self._rescued_to = self._save_path if saved else None
                return saved
            return answer == "close"
        if controller.outcome is not None:
            return True
        return self._ask("Leave this game?", "The game is not finished. Quit anyway? It is kept, and Sightline "
                         "offers to continue it when it starts again.")

    def _ask_unsaved_close(self, problem: str) -> str:
        """Autosave is failing and the window is closing: "save" (elsewhere first), "close" (lose the newest
        actions) or "cancel". Tests replace this method."""
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.Warning, "The game is not saved",
                          unsaved_close_text(problem, self._autosave_failing_since),
                          QMessageBox.StandardButton.NoButton, self)
        save = box.addButton("&Save as...", QMessageBox.ButtonRole.AcceptRole)
        close = box.addButton("&Close without saving", QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save)
        box.setEscapeButton(cancel)
        box.exec()
        clicked = box.clickedButton()
        return "save" if clicked is save else "close" if clicked is close else "cancel"

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        # Only a close asked for by the player (the window's close button, Alt+F4, Game > Quit) asks; a close
        # from the program itself (the session ending, tests) saves and goes.
        if (event.spontaneous() or self._asked_to_quit) and not self._may_close():
            event.ignore()
            return
        settings = QSettings()
        if self._belief_auto_hidden and self.belief_dock is not None:
            # Put away only because the last game was MinitChess: the next RBC or Blind Chess game wants it back.
            self.belief_dock.show()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState(STATE_VERSION))
        self._autosave_retry.stop()
        if self.controller is not None:
            self.controller.save_now()  # the clock as it is now, not as of the last action
            self.controller.stop()
        self.flush_autosave()
        if self._slot is not None:
            finished = self.controller is None or self.controller.outcome is not None
            if finished or self._rescued_to is not None:
                # Nothing to offer next time: the game is over, or safe in the file it was just saved to (while
                # autosave failed, the slot holds an older copy, which must not come back as the game).
                try:
                    self._slot.discard()
                except OSError as error:
                    log.warning("cannot empty the autosave slot %s: %s", self._slot.directory, error)
                    if not finished and self._rescued_to is not None:
                        self._remember_older_copy(self._slot, self._rescued_to)
            self._slot.release()  # an unfinished game stays in it and is offered at the next start
            self._slot = None
        if self.inference is not None:
            self.inference.shutdown()
        self._close_reviews()
        for window in self._rules_windows.values():
            window.close()
        for child in self.findChildren(QWidget):
            if child.isWindow() and child.isVisible():
                child.close()  # replays, rules: the process must not live on for a window of a closed game
        self._window_number.release()  # the next window to open may take this one's place
        super().closeEvent(event)


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters and 30 lines, saying how much was left out: a message box or label
    with megabytes of text (a field of a damaged file) would freeze the window."""
    lines = text.split("\n")
    cut = "\n".join(lines[:30]) if len(lines) > 30 else text
    if len(cut) > limit:
        cut = cut[:limit]
    if len(cut) < len(text):
        return f"{cut}… ({len(text) - len(cut):,} more characters not shown)"
    return text


def app_version() -> str:
    """Sightline's version: the installed package's (its metadata), else that of the source tree's
    pyproject.toml, else "unknown"."""
    from importlib import metadata
    try:
        return metadata.version("sightline")
    except metadata.PackageNotFoundError:
        pass
    try:
        import tomllib
        with open(Path(__file__).resolve().parent.parent.parent / "pyproject.toml", "rb") as stream:
            return str(tomllib.load(stream)["project"]["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"


def about_text() -> str:
    """Help > About's words: the version first, then the games and what runs it."""
    import platform
    from PySide6 import __version__ as pyside_version
    titles = [definition.title for definition in games.all()]
    listed = ", ".join(titles[:-1]) + (" and " if len(titles) > 1 else "") + titles[-1] if titles else ""
    return (f"Sightline {app_version()}\n\nHidden-information chess on one computer: {listed}.\n\n"
            f"Python {platform.python_version()}, Qt {pyside_version}. Licence: GPL 3.0 or later.")


def unsaved_close_text(problem: str, since: str) -> str:
    """What closing asks while autosave fails: the problem (already in words, perhaps with the system's words in
    brackets) as a sentence of its own, so that no bracket closes another."""
    problem = " ".join(problem.split()).rstrip(".")
    return bounded(f"Autosave is failing: {problem}. Closing now loses everything played since "
                   f"{since or 'the last save'}.\n\nSave the game to another place first?")


def short_name(name: str) -> str:
    """A player's name for the window's sentences (a file may hold any name)."""
    name = " ".join(name.split())
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"


def describe_unfinished(game: UnfinishedGame) -> str:
    """The start-up offer's entry for ``game``, in short lines: which game and who; how far and when; what else
    is known of it (an older copy of a game saved elsewhere)."""
    record = game.record
    players = " against ".join(short_name(player.name) for player in record.players[:4])
    import datetime as _dt  # not before the first frame: only the offer to resume dates games
    saved = _dt.datetime.fromtimestamp(game.saved).strftime("%Y-%m-%d %H:%M") if game.saved else "an unknown time"
    actions = len(record.entries)
    lines = [f"{game_title(record.variant, 'A game')}: {players}",
             f"{actions} action{'' if actions == 1 else 's'} played, saved {saved}"]
    if game.note:
        note = bounded(game.note, 300)
        lines.append(note[:1].upper() + note[1:])
    return "\n".join(lines)


def game_title(key: str, unknown: str) -> str:
    """The title of the game ``key`` as the registry has it now (a game registered after the window was made has
    one too); ``unknown`` for a game the registry does not know (a record of a game no longer installed)."""
    try:
        return games.get(key).title
    except KeyError:
        return unknown


def _write_autosave(slot: AutosaveSlot, record: GameRecord) -> str | None:
    """The saver thread's job: write the autosave; a problem comes back in words (a full disk must not stop
    play)."""
    try:
        slot.save(record)
    except OSError as error:
        return f"the disk refused ({os_error_text(error)})"
    except (ValueError, RuntimeError) as error:
        log.warning("autosave failed: %s", error)
        return "the game could not be written (see the log)"
    return None


END_OF_TURN = ("moment", "button", "at once")
"""How a turn ends at one computer (View > End of turn): the mover sees what came of it for a moment, or until
"Pass the screen" is pressed, or the curtain falls at once (the controller's ``end_of_turn``)."""
END_OF_TURN_DEFAULT = "moment"


def rules_text(name: str) -> str:
    """What Help shows for a game's rules page ``name``: the page written for players (how to play, in
    ``docs/rules/players``) first, then the full rules, rule by rule, as Sightline referees them. A missing
    page is said, never fatal."""
    parts = []
    for path in (RULES / "players" / name, RULES / name):
        try:
            parts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeError):
            continue
    if not parts:
        return "The rules file is missing or damaged; the installation may be incomplete."
    between = "\n\n---\n\n*What follows is the full text of the rules, rule by rule, as Sightline referees them.*\n\n"
    return between.join(parts)


GUIDE_KEY = "(window)"
"""The help window of docs/window.md among the rules windows (no game's key has brackets)."""


def guide_text() -> str:
    """What Help > Using the window shows: docs/window.md, the window's guide and its keys. A missing page is
    said, never fatal."""
    try:
        return (RULES.parent / "window.md").read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return "The guide to the window is missing or damaged; the installation may be incomplete."


SENSE_CONFIRM_DEFAULT = "one click"
"""View > Picking a square: how every pick of a square on the board is made (RBC's sense, a removal, a Split-Brain
pick, a checker to uncloak, a pawn's drop). One click does it, as every prompt says, unless the player asked for a
confirmation (a second click on the same square, or holding the button down)."""
def _older_copy_marks(settings: QSettings) -> dict[tuple[str, str], str]:
    """(slot folder, fingerprint) -> the file the game was saved to, for slots left with an older copy."""
    import json  # not before the first frame: read when a game is saved elsewhere or closed
    marks: dict[tuple[str, str], str] = {}
    for item in _as_list(settings.value(SUPERSEDED_KEY)):
        try:
            directory, fingerprint, path = json.loads(str(item))
        except (ValueError, TypeError, RecursionError):
            continue  # a damaged or foreign setting: ignored
        if isinstance(directory, str) and isinstance(fingerprint, str) and isinstance(path, str):
            marks[directory, fingerprint] = path
    return marks


def _store_older_copy_marks(settings: QSettings, marks: dict[tuple[str, str], str]) -> None:
    import json  # not before the first frame (see _older_copy_marks)
    settings.setValue(SUPERSEDED_KEY, [json.dumps([directory, fingerprint, path])
                                       for (directory, fingerprint), path in marks.items()])


def _as_list(value: object) -> list[object]:
    """A QSettings list: one stored item comes back as a plain string, none as None."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def run_app(check: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    app.setOrganizationName("Sightline")
    app.setApplicationName("Sightline")
    if isinstance(app, QApplication):
        app.setWindowIcon(QIcon(str(ASSETS / "icon.svg")))
        app.setDesktopFileName(DESKTOP_ID)  # desktops match the window to its menu entry and icon
    window = MainWindow()
    if check:
        window.resize(1040, 720)
        image = window.grab()
        print("OK" if not image.isNull() else "FAILED")
        return 0 if not image.isNull() else 1
    window.show()

    def first_game() -> None:
        from app.hosting.worker import warm_up
        warm_up()  # the fork server for bots and inference starts now, while the player reads the dialog
        if not window.offer_resume():
            window.new_game()

    QTimer.singleShot(0, first_game)
    return int(app.exec())
