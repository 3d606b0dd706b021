"""Sightline's main window: the board in the middle, the game panel in a dock, the hot-seat curtain, menus.

The window wires its parts together and feeds every surface private to a seat (see app.ui.seat_screen). Each
job has its own module: ``curtain`` (the hot-seat cover), ``window_menus`` (the menu bar and which actions are
enabled), ``window_view`` (the remembered View choices), ``window_help`` (the guide, rules and About),
``window_files`` (save, open, recent files, replays and reviews), ``window_exports`` (exports, copied and pasted
positions), ``window_autosave`` (autosave and its failures), ``window_resume`` (the offer of unfinished games at
start), ``window_belief`` (the belief board and inference) and ``window_network`` (hosting and joining network
games)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QMainWindow, QSizePolicy, QWidget

from app import games
from app.ui import main_thread_gc
from app.ui.board_widget import BoardWidget
from app.ui.curtain import CURTAIN_GRACE, Curtain, WindowCurtain
from app.ui.game_panel import GamePanel
from app.ui.seat_screen import PrivateSurfaces, SeatScreen
from app.ui.settings import setting_choice
from app.ui.sounds import LazySink, Sounds
from app.ui.window_autosave import Autosaver
from app.ui.window_belief import BeliefDock
from app.ui.window_common import DOCK_WIDTH, bounded, short_name
from app.ui.window_exports import GameExports
from app.ui.window_files import GameFiles
from app.ui.window_menus import WindowMenus
from app.ui.window_network import NetworkPlay
from app.ui.window_place import WindowNumber, cascaded, fitted
from app.ui.window_resume import describe_unfinished, offer_unfinished
from app.ui.window_solitaire import SolitaireTools
from app.ui.window_view import END_OF_TURN, END_OF_TURN_DEFAULT, SENSE_CONFIRM_DEFAULT, ViewChoices

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QResizeEvent
    from PySide6.QtWidgets import QMessageBox, QPlainTextEdit

    # Imported when the first game starts (python-chess, the referees, the bot workers): the window shows sooner.
    from app.engine.core import Outcome
    from app.engine.record import GameRecord, GameSession
    from app.storage import AutosaveSlot, UnfinishedGame
    from app.ui.belief_panel import BeliefPanel
    from app.ui.game_controller import GameController
    from app.ui.inference_service import InferenceService
    from app.ui.new_game_dialog import NewGame
    from app.ui.replay_window import ReplayWindow

__all__ = ["CURTAIN_GRACE", "END_OF_TURN_DEFAULT", "SENSE_CONFIRM_DEFAULT", "Curtain", "MainWindow", "run_app"]
# CURTAIN_GRACE (seconds after the curtain falls during which presses do not lift it), END_OF_TURN_DEFAULT and
# SENSE_CONFIRM_DEFAULT (the defaults of View > End of turn and View > Picking a square) are this module's names,
# read when used: a test that sets them here (tests/conftest.py does) changes what the window does.

STATE_VERSION = 1  # of the dock layout saved with QMainWindow.saveState
DEFAULT_SIZE = (1100, 760)
BOARD_MINIMUM = 360  # pixels: however small the window, the board stays playable and the panels give way

# Imported by the functions that use them, not before the first frame: the window shows none of them, and
# PySide6 builds each class's Python enums on its first import (the message box, file dialog, list and
# button box together cost about 3 ms of start-up; concurrent.futures, json and datetime about 4 ms more).
_LATER_QT_WIDGETS = ("QDialogButtonBox", "QFileDialog", "QListWidget", "QMessageBox", "QTextBrowser")


def __getattr__(name: str) -> Any:
    """``app.ui.main_window.QFileDialog`` and the like still name the Qt class (tests replace its static
    methods by that name), imported on that first use."""
    if name in _LATER_QT_WIDGETS:
        from PySide6 import QtWidgets  # not before the first frame (see _LATER_QT_WIDGETS)
        return getattr(QtWidgets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ASSETS = Path(__file__).resolve().parent.parent / "assets"
DESKTOP_ID = "io.github.sightline.Sightline"  # as in packaging/appinfo.py


class MainWindow(QMainWindow):
    """The board in the middle, the game panel in a dock, menus; one game at a time."""

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
        self.last_warning = ""
        self.game_over_box: QMessageBox | None = None
        self._rescued_to: str | None = None  # where the game was saved on closing while autosave failed
        self._asked_to_quit = False
        # Every widget showing what a seat knows is fed through here, with the seat's screen or nobody's: see
        # app.ui.seat_screen. The belief panel joins when it is made (the first game with hidden pieces).
        self.private = PrivateSurfaces()
        # The window's parts, each a job of its own (see the module's docstring).
        self.autosaver = Autosaver(self.statusBar(), self._session, self)
        self.autosave_banner = self.autosaver.banner
        self.curtain = Curtain(self, grace=lambda: CURTAIN_GRACE)  # read at each press (tests set it)
        self.curtain.on_lift = self._lift
        self.cover = WindowCurtain(self, self.curtain)
        self.belief = BeliefDock(self, self, self.board, self.panel_dock, self.private)
        self.files = GameFiles(self, self, self.autosaver.take_slot)
        self.exports = GameExports(self, self, self.files)
        self.view_choices = ViewChoices(self, self.board, self._belief_board, lambda: self.controller)
        self.sounds = Sounds(LazySink(), QSettings())
        self.menus = WindowMenus(self, self, self.board, self.panel_dock, self.files, self.exports,
                                 self.view_choices, self.sounds, (SENSE_CONFIRM_DEFAULT, END_OF_TURN_DEFAULT))
        self.belief.view_menu = self.menus.view_menu
        self.network = NetworkPlay(self, self._may_leave_game, self._install_new, lambda *said: self._warn(*said))
        self.menus.add_network(self.network.host, self.network.join)
        self.help_pages = self.menus.help
        self.game_actions, self.recent_menu = self.menus.game_actions, self.menus.recent_menu
        # The solitaires' deal numbers, undo and redo keys, hints, solver and statistics (a menu of its own).
        self.solitaire = SolitaireTools(self, lambda: self.controller, self._may_leave_game, self._install_new,
                                        self.open_replay, self._command, self.statusBar().showMessage,
                                        panel.thinking.setVisible)
        self._window_number = WindowNumber()  # a second window opens beside the first (see _restore_geometry)
        self.destroyed.connect(self._window_number.release)
        self.private.add("board", self._show_board)
        self.private.add("notes", self._show_notes)
        self.private.add("panel", self._show_panel)
        self.private.add("reviews", self.files.show_reviews)
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

    # -- the parts' state, by the names the rest of the app and the tests use ----------------------------
    @property
    def belief_panel(self) -> BeliefPanel | None:
        return self.belief.panel

    @property
    def belief_dock(self) -> QDockWidget | None:
        return self.belief.dock

    @property
    def inference(self) -> InferenceService | None:
        return self.belief.inference

    @property
    def autosave_problem(self) -> str | None:
        """Shown in the window (a red bar) until an autosave write works again."""
        return self.autosaver.problem

    @property
    def replay_window(self) -> ReplayWindow | None:
        return self.files.replay_window

    @property
    def export_box(self) -> QMessageBox | None:
        return self.exports.export_box

    @property
    def about_box(self) -> QMessageBox | None:
        return self.help_pages.about_box

    def _belief_board(self) -> BoardWidget | None:
        return self.belief.panel.board if self.belief.panel is not None else None

    def _session(self) -> GameSession | None:
        return self.controller.session if self.controller is not None else None

    # -- files: the menus' and the tests' doors to the window's parts ------------------------------------
    def save(self) -> None:
        self.files.save()

    def save_as(self) -> bool:
        return self.files.save_as()

    def save_to(self, path: str) -> bool:
        return self.files.save_to(path)

    def open_file(self, path: str) -> bool:
        return self.files.open_file(path)

    def open_replay(self, record: GameRecord, asking_seat: int | None = None) -> ReplayWindow | None:
        return self.files.open_replay(record, asking_seat)

    def resume_record(self, record: GameRecord, slot: AutosaveSlot | None = None) -> bool:
        return self.files.resume_record(record, slot)

    def review(self) -> None:
        self.files.review()

    def recent_files(self) -> list[str]:
        return self.files.recent_files()

    def export_to(self, fmt: str, path: str) -> bool:
        return self.exports.export_to(fmt, path)

    def start_from_position(self, text: str, key: str | None = None) -> bool:
        return self.exports.start_from_position(text, key)

    def flush_autosave(self, timeout: float = 10.0) -> None:
        """Wait until every autosave asked for so far is on disk (closing the window; tests)."""
        self.autosaver.flush(timeout)

    def offer_resume(self) -> bool:
        """On start: offer every unfinished game that no running window holds (a crash may have left several)."""
        return offer_unfinished(self, self.files.resume_record)

    # -- input: the board, the panel and the menus' keys, passed to the game -------------------------------
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
        from app.games.presenter import InputError  # the game code loads with the first game, not before
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

    # -- games -----------------------------------------------------------------------------------------
    def _may_leave_game(self) -> bool:
        """Before another game replaces an unfinished one (whose autosave it would overwrite), ask."""
        controller = self.controller
        if controller is None or controller.outcome is not None:
            return True
        return self._ask("Leave this game?", "The game being played is not finished. Start another one instead? "
                         "(Save it first with Game > Save to keep it.)")

    def new_game(self) -> None:
        from app.ui.new_game_dialog import NewGameDialog  # not before the first frame: it loads the game options
        if not self._may_leave_game():
            return
        dialog = NewGameDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start(dialog.choice())

    def start(self, choice: NewGame) -> None:
        # Not before the first frame: python-chess, the referees and the bot workers load with the first game.
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
        self._install_new(GameController(choice.variant, seats, choice.control, options, parent=self, extra=extra))

    def _install_new(self, controller: GameController) -> None:
        """Make a new game, never saved yet, the game of the window."""
        self._install(controller)
        self.files.save_path = None

    def _seat_flipped(self, seat: int) -> bool:
        """Whether ``seat`` sees the board turned half round (its definition says so)."""
        controller = self.controller
        assert controller is not None
        return games.get(controller.variant).seats[seat].flipped

    def _install(self, controller: GameController) -> None:
        """Make ``controller`` the game of the window (a new one or a resumed one) and start it."""
        self.files.close_reviews()
        self.solitaire.stop()  # a hint or a solve of the last game is dropped
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
        controller.autosave = self.autosaver.save
        self.belief.new_game(controller)
        self.controller = controller
        self._shown_seat = None
        self._restoring_notes = True
        self.board.clear_annotations()
        self._restoring_notes = False
        # Nobody of the new game at the screen until it starts (a belief panel made just now starts from this).
        self.private.show(controller.nobody_screen())
        self.panel.truth_button.setChecked(False)
        self.panel.new_game()  # its command buttons keep the room this game needs, not the last one's
        self.belief.prepare(self.belief.offered(controller))
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
            self.cover.fall(controller.game.seat_names[controller.curtain_for])
        else:
            self.cover.lift()
            if controller is not None and controller.hot_seat and controller.screen_seat is not None:
                self.board.set_flipped(self._seat_flipped(controller.screen_seat))

    def _game_over(self, outcome: Outcome) -> None:
        self._refresh()
        controller = self.controller
        assert controller is not None
        from app.games.describe import outcome_headline  # the game code loads with the first game, not before
        winner = outcome_headline(outcome, [short_name(seat.name) for seat in controller.seats], controller.game.teams())
        detail = bounded(outcome.detail, 300)
        self.status.setText(f"Game over. {winner}: {detail}")
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.Information, "Game over",
                          f"{winner}: {detail}" + ("\n\nThe board now shows the true final position."
                                                   if controller.truth_scene() is not None else ""),
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running (and tests are not stopped by a modal loop)
        self.game_over_box = box
        self.solitaire.game_over(controller, outcome)

    # -- what the seat at the screen sees: the board, its marks, the panel (the belief board: window_belief) --
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
            self.menus.refresh_actions(self.controller)
            self.solitaire.refresh()
            return
        self.title.setText(self.solitaire.deal_title() or games.get(controller.variant).title)
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
            self.belief.request_inference()
        self._truth_shown = truth is not None
        self._looking_back = controller.looking_back is not None
        self.private.show(controller.seat_screen(truth))
        if self._truth_shown or self._looking_back:
            self.belief.apply_overlay()  # the seat's guesses and heat belong on its own view, not on the true position
        self.resign_button.setEnabled(controller.can("resign"))
        self.entry.setEnabled(controller.screen_seat is not None and controller.outcome is None)
        self.menus.refresh_actions(self.controller)
        self.solitaire.refresh()

    @staticmethod
    def _lines(widget: QPlainTextEdit) -> list[str]:
        text = widget.toPlainText()
        return text.split("\n") if text else []

    def _refresh_clocks(self) -> None:
        controller = self.controller
        if controller is not None and controller.screen_seat is not None:
            self.panel.set_clocks(controller.clock_text())

    # -- the window's questions to the player (tests replace these methods) ----------------------------
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

    def _pick_unfinished(self, games: list[UnfinishedGame]) -> UnfinishedGame | None:
        """Which unfinished game to continue (None: none now; they are offered again next time). The player may
        also discard games here. Tests replace this method."""
        from app.ui.unfinished_dialog import UnfinishedGamesDialog  # not before the first frame
        dialog = UnfinishedGamesDialog(games, describe_unfinished, self._ask, self._warn, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.chosen()

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
        self.view_choices.restore(settings, SENSE_CONFIRM_DEFAULT)

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
        self.cover.follow_resize()

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
        if self.autosaver.last_write_problem is not None or self.autosave_problem is not None:
            answer = self._ask_unsaved_close(self.autosaver.last_write_problem or self.autosave_problem or "")
            if answer == "save":
                saved = self.save_as()
                self._rescued_to = self.files.save_path if saved else None
                return saved
            return answer == "close"
        if controller.outcome is not None:
            return True
        return self._ask("Leave this game?", controller.leave_words)

    def _ask_unsaved_close(self, problem: str) -> str:
        """Autosave is failing and the window is closing: "save" (elsewhere first), "close" (lose the newest
        actions) or "cancel". Tests replace this method."""
        from PySide6.QtWidgets import QMessageBox  # not before the first frame (see _LATER_QT_WIDGETS)
        box = QMessageBox(QMessageBox.Icon.Warning, "The game is not saved",
                          unsaved_close_text(problem, self.autosaver.failing_since),
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
        # Put away only because the last game was MinitChess: the next RBC or Blind Chess game wants it back.
        self.belief.show_again()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState(STATE_VERSION))
        self.autosaver.retry_timer.stop()
        if self.controller is not None:
            self.controller.save_now()  # the clock as it is now, not as of the last action
            self.controller.stop()
        self.autosaver.close(self.controller is None or self.controller.outcome is not None, self._rescued_to)
        self.belief.shutdown()
        self.solitaire.shutdown()
        self.files.close_reviews()
        self.help_pages.close_all()
        for child in self.findChildren(QWidget):
            if child.isWindow() and child.isVisible():
                child.close()  # replays, rules: the process must not live on for a window of a closed game
        self._window_number.release()  # the next window to open may take this one's place
        super().closeEvent(event)


def unsaved_close_text(problem: str, since: str) -> str:
    """What closing asks while autosave fails: the problem (already in words, perhaps with the system's words in
    brackets) as a sentence of its own, so that no bracket closes another."""
    problem = " ".join(problem.split()).rstrip(".")
    return bounded(f"Autosave is failing: {problem}. Closing now loses everything played since "
                   f"{since or 'the last save'}.\n\nSave the game to another place first?")


def run_app(check: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    main_thread_gc.install(app)  # before any thread starts: see app/ui/main_thread_gc.py
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
        from app.hosting.worker import warm_up  # not before the first frame: the workers load the engine
        warm_up()  # the fork server for bots and inference starts now, while the player reads the dialog
        if not window.offer_resume():
            window.new_game()

    QTimer.singleShot(0, first_game)
    return int(app.exec())
