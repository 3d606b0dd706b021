"""Sightline's main window: the board, the side panel, the hot-seat curtain, menus."""

from __future__ import annotations

import concurrent.futures
import sys
import time
from functools import partial
from pathlib import Path

from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeyEvent, QKeySequence, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import (QApplication, QDialog, QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QPlainTextEdit, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget)

from app.engine.variants import TITLES
from app.ui.board_widget import BoardWidget
from app.ui.game_panel import GamePanel
from app.ui.move_input import MoveTextError, parse_move_text, parse_square_text
from app.ui.pieces import PIECE_SETS, set_piece_set

if TYPE_CHECKING:
    # Imported when the first game starts (python-chess, the referees, the bot workers): the window shows sooner.
    from app.engine.core import Outcome
    from app.engine.record import GameRecord, GameSession
    from app.ui.replay_window import ReplayWindow
    from app.ui.belief_panel import BeliefPanel
    from app.ui.inference_service import InferenceService
    from app.ui.game_controller import GameController
    from app.ui.new_game_dialog import NewGame

HIDDEN_GAMES = frozenset({"rbc", "blind"})  # the games with a belief board
ENTRY_HINTS = {"rbc": "Type a square to sense (d7), then a move (e2e4, Nf3) or pass",
               "blind": "Type a move (e2e4, Nf3) and press Enter", "minit": "Type a move (b2-b3, Nc3)"}
CURTAIN_GRACE = 0.7  # seconds after the curtain falls during which presses do not lift it
RECENT_LIMIT = 8
INFERENCE_CAP = 5000  # positions kept before sampling: refreshes stay well under a second on a slow machine
STATE_VERSION = 1  # of the dock layout saved with QMainWindow.saveState

RULES = Path(__file__).resolve().parent.parent.parent / "docs" / "rules"
ASSETS = Path(__file__).resolve().parent.parent / "assets"
DESKTOP_ID = "io.github.sightline.Sightline"  # as in packaging/appinfo.py


class Curtain(QWidget):
    """An opaque cover over board and panel while the screen passes between hot-seat players."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setObjectName("curtain")
        self.setStyleSheet("#curtain { background: #22262e; } QLabel { color: #f0f0f0; background: transparent; }")
        layout = QVBoxLayout(self)
        layout.addStretch()
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.label.setStyleSheet("font-size: 20pt; font-weight: 600;")
        self.hint = QLabel("Press Space or click when that player is at the screen.")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("font-size: 12pt; color: #c0c4cc;")
        layout.addWidget(self.label)
        layout.addWidget(self.hint)
        layout.addStretch()
        self.on_lift: Callable[[], None] = lambda: None
        self._shown_at = 0.0

    def show_for(self, name: str) -> None:
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

    autosaveFailed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Sightline")
        self.setObjectName("mainWindow")
        self.controller: GameController | None = None
        self._shown_seat: int | None = None  # whose annotations the board holds now
        self._restoring_notes = False
        self._hidden_floating: list[QDockWidget] = []
        self.board = BoardWidget()
        self.board.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.board.setMinimumSize(240, 240)
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
        self._belief_fed: tuple[int, int, int] | None = None  # (game, seat, observations) the panel last saw
        self._save_path: str | None = None
        self.last_warning = ""
        self.inference: InferenceService | None = None
        self._reviews: list[ReplayWindow] = []  # reviews of the game in progress, from the seat at the screen
        self._saver: concurrent.futures.ThreadPoolExecutor | None = None
        self._saves: list[concurrent.futures.Future[str | None]] = []
        self.autosaveFailed.connect(lambda message: self.statusBar().showMessage(message, 10000))
        self.curtain = Curtain(self)
        self.curtain.hide()
        self.curtain.on_lift = self._lift
        self._build_menus()
        self.board.moveRequested.connect(self._move)
        self.board.senseRequested.connect(self._sense)
        self.board.annotationsChanged.connect(self._annotations_changed)
        self.entry.returnPressed.connect(self._typed)
        self.pass_button.clicked.connect(self._pass)
        self.resign_button.clicked.connect(self._resign)
        self.draw_button.clicked.connect(self._offer_draw)
        self.accept_button.clicked.connect(lambda: self._answer_draw(True))
        self.decline_button.clicked.connect(lambda: self._answer_draw(False))
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
        game.addAction(self._action("&Save", self.save, QKeySequence.StandardKey.Save))
        game.addAction(self._action("Save &as...", self.save_as, QKeySequence("Ctrl+Shift+S")))
        export = game.addMenu("&Export")
        export.addAction(self._action("Moves as &PGN...", lambda: self._export_dialog("pgn")))
        export.addAction(self._action("RBC game for &reconchess (GameHistory JSON)...",
                                      lambda: self._export_dialog("reconchess")))
        export.addAction(self._action("&MinitChess moves as text...", lambda: self._export_dialog("minit")))
        export.addAction(self._action("&Copy MinitChess position", self._copy_position))
        game.addAction(self._action("New MinitChess game from the &pasted position", self._paste_position))
        export.addAction(self._action("&Board image (PNG or SVG)...", self._export_image_dialog))
        game.addAction(self._action("Re&view this game...", self.review, QKeySequence("Ctrl+R")))
        game.addSeparator()
        game.addAction(self._action("&Resign", self._resign))
        game.addAction(self._action("Offer &draw", self._offer_draw))
        game.addSeparator()
        game.addAction(self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))
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
        themes = view.addMenu("Board &theme")
        for name in ("brown", "blue", "green", "grey"):
            action = QAction(name.capitalize(), self)
            action.triggered.connect(lambda _checked=False, n=name: self._theme(n))
            themes.addAction(action)
        pieces = view.addMenu("&Piece set")
        for name in PIECE_SETS:
            action = QAction(name.capitalize(), self)
            action.triggered.connect(lambda _checked=False, n=name: self._piece_set(n))
            pieces.addAction(action)
        view.addSeparator()
        view.addAction(self.panel_dock.toggleViewAction())
        self._view_menu = view
        help_ = self.menuBar().addMenu("&Help")
        for variant, title in TITLES.items():
            action = QAction(f"Rules of {title}", self)
            action.triggered.connect(lambda _checked=False, v=variant: self._rules(v))
            help_.addAction(action)
        about = QAction("&About Sightline", self)
        about.triggered.connect(self._about)
        help_.addAction(about)

    def _theme(self, name: str) -> None:
        self.board.set_theme(name)
        QSettings().setValue("view/theme", name)

    def _piece_set(self, name: str) -> None:
        set_piece_set(name)
        self.board.update()
        QSettings().setValue("view/pieces", name)

    def _rules(self, variant: str) -> None:
        path = RULES / f"{variant}.md"
        text = path.read_text(encoding="utf-8") if path.exists() else "The rules file is missing."
        browser = QTextBrowser()
        browser.setMarkdown(text)
        browser.setWindowTitle(f"Rules of {TITLES[variant]}")
        browser.resize(720, 640)
        browser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        browser.show()
        self._rules_window = browser

    def _about(self) -> None:
        QMessageBox.about(self, "About Sightline", "Sightline: hidden-information chess on one computer.\n"
                          "Reconnaissance Blind Chess, Blind Chess and MinitChess.")

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
        if choice.vs_bot:
            bot = SeatConfig(f"{choice.bot} ({choice.level})", f"sightline:{choice.bot}:{choice.level}")
            you = SeatConfig("You")
            seats = [you, bot] if choice.human_seat == 0 else [bot, you]
        else:
            seats = [SeatConfig("White"), SeatConfig("Black")]
        options: dict[str, Any] = {"draw_rule": choice.draw_rule} if choice.variant == "rbc" else {}
        extra = {"inference": choice.inference} if choice.variant in HIDDEN_GAMES else {}
        self._install(GameController(choice.variant, seats, choice.control, options, parent=self, extra=extra))
        self._save_path = None

    def _install(self, controller: GameController) -> None:
        """Make ``controller`` the game of the window (a new one or a resumed one) and start it."""
        self._close_reviews()
        if self.controller is not None:
            self._clear_private()  # the last game's seat leaves the screen first
            self.controller.stop()
            self.controller.deleteLater()
        controller.changed.connect(self._refresh)
        controller.clocksChanged.connect(self._refresh_clocks)
        controller.curtainChanged.connect(self._curtain)
        controller.gameOver.connect(self._game_over)
        controller.thinkingChanged.connect(self.panel.thinking.setVisible)
        controller.autosave = self._autosave
        if self.inference is not None:
            self.inference.shutdown()
            self.inference.deleteLater()
            self.inference = None
        if controller.variant in HIDDEN_GAMES and controller.inference_allowed:
            from app.ui.inference_service import InferenceService
            options = {"cap": INFERENCE_CAP, "seed": controller.seed,
                       "start_fen": controller.game.options().get("fen")}
            self.inference = InferenceService(controller.variant, options, self)
            self.inference.ready.connect(self._inference_ready)
        self.controller = controller
        self._shown_seat = None
        self._belief_fed = None
        self._restoring_notes = True
        self.board.clear_annotations()
        self._restoring_notes = False
        self.panel.truth_button.setChecked(False)
        self._prepare_belief_dock(controller.variant in HIDDEN_GAMES)
        scene = controller.scene()
        self.board.set_board_size(scene.files, scene.ranks)
        self.board.set_flipped(not controller.hot_seat and controller.screen_seat == 1)
        controller.start()
        self._curtain()
        self._refresh()

    def _lift(self) -> None:
        if self.controller is not None:
            self.controller.lift_curtain()

    def _curtain(self) -> None:
        controller = self.controller
        if controller is not None and controller.curtain_for is not None:
            self._clear_private()
            self._close_reviews()
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
                self.board.set_flipped(controller.screen_seat == 1)

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
            dock = QDockWidget("Belief board", self)
            dock.setObjectName("beliefDock")
            dock.setWidget(panel)
            if not self.restoreDockWidget(dock):
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            panel.hypothesesChanged.connect(self._belief_changed)
            panel.overlayToggled.connect(lambda _on: self._apply_overlay())
            panel.heatMapToggled.connect(lambda _on: self._apply_overlay())
            self._view_menu.addAction(dock.toggleViewAction())
            self.belief_panel, self.belief_dock = panel, dock
        elif self._belief_auto_hidden:
            self.belief_dock.show()
        self._belief_auto_hidden = False

    def _show_belief(self, seat: int | None) -> None:
        """The belief board of the seat at the screen; an empty one (of nobody) behind the curtain."""
        panel, controller = self.belief_panel, self.controller
        if panel is None or controller is None or controller.variant not in HIDDEN_GAMES:
            return
        if seat is None or controller.seats[seat].is_bot:
            from app.engine.belief import BeliefBoard
            import chess
            panel.set_view(controller.empty_view(), chess.WHITE)
            panel.set_belief(BeliefBoard(enemy=chess.BLACK))
            panel.set_heat(None, "")
        else:
            panel.set_view(controller.views[seat], seat == 0)
            panel.set_belief(controller.belief_for(seat))
            self._belief_fed = (id(controller), seat, controller.seen(seat))
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
        status = "updating…"
        if summary is not None and not service.pending(seat):
            from app.engine.belief import positions_text
            if summary.problem:
                status = summary.problem
            elif summary.sampled:
                # A sampled set's count is only an order of magnitude: say what is certain.
                status = (f"more than {INFERENCE_CAP:,} positions possible; the heat map comes from a weighted "
                          f"sample of {INFERENCE_CAP:,}")
            else:
                status = positions_text(summary.count)
        if summary is None:
            panel.set_heat(None, status)
        else:
            panel.set_heat(summary.squares, status, by_type=summary.by_type)
        self._apply_overlay()

    def _belief_changed(self) -> None:
        if self.controller is not None and self._shown_seat is not None:
            self.controller.belief_changed(self._shown_seat)
        self._apply_overlay()

    def _apply_overlay(self) -> None:
        if self.belief_panel is not None and self.controller is not None \
                and self.controller.variant in HIDDEN_GAMES and self._shown_seat is not None:
            self.belief_panel.apply_overlay(self.board)
        else:
            self.board.set_ghosts({})
            self.board.set_flags({})
            self.board.set_heat(None)

    def _switch_notes(self, seat: int | None) -> None:
        """Give the board the annotations of the seat now at the screen (each seat keeps its own)."""
        if seat == self._shown_seat:
            return
        self._shown_seat = seat
        self._show_belief(seat)
        self._restoring_notes = True
        try:
            notes = self.controller.annotations.get(seat) if self.controller is not None and seat is not None \
                else None
            self.board.set_annotations(*(notes or ([], [])))
        finally:
            self._restoring_notes = False

    def _annotations_changed(self) -> None:
        controller = self.controller
        if self._restoring_notes or controller is None or self._shown_seat is None \
                or controller.screen_seat != self._shown_seat:
            return
        controller.annotations[self._shown_seat] = self.board.annotations()
        controller.annotations_changed(self._shown_seat)

    def _clear_private(self) -> None:
        """Nothing private of either seat stays in a widget while the curtain is up."""
        self._switch_notes(None)
        self._apply_overlay()
        self.board.set_pieces({})
        self.board.set_markers([])
        self.board.set_move_targets({})
        self.board.set_last_move(None)
        self.board.set_sense_mode(False, None)
        self.panel.clear_private()

    def _refresh(self) -> None:
        controller = self.controller
        panel = self.panel
        if controller is None:
            self.title.setText("Sightline")
            self.status.setText("Game > New game (Ctrl+N) to start.")
            for button in (self.pass_button, self.resign_button, self.draw_button, self.accept_button,
                           self.decline_button):
                button.setEnabled(False)
            self.entry.setEnabled(False)
            return
        self.title.setText(TITLES[controller.variant])
        self.status.setText(controller.status())
        self.entry.setPlaceholderText(ENTRY_HINTS[controller.variant])
        if controller.outcome is not None:
            panel.entry_error.hide()
        if controller.screen_seat is None:
            self._clear_private()
        else:
            self._switch_notes(controller.screen_seat)
            truth = controller.truth_scene()
            panel.truth_button.setVisible(truth is not None)
            show_truth = truth is not None and not panel.truth_button.isChecked()
            panel.truth_button.setText("Show what you saw" if show_truth else "Show the true position")
            scene = truth if show_truth and truth is not None else controller.scene()
            self.board.set_pieces(scene.pieces)
            self.board.set_markers(scene.markers)
            self.board.set_move_targets(scene.targets)
            self.board.set_last_move(*(scene.last_move or (None, None)))
            self.board.set_sense_mode(scene.sense_window is not None, scene.sense_window)
            self._request_inference()
            self._refresh_belief()
            log, moves = controller.log(), controller.move_list()
            if log != self._lines(self.log):
                panel.show_lines(self.log, log)
            if moves != self._lines(self.moves):
                panel.show_lines(self.moves, moves)
            self._refresh_clocks()
        self.pass_button.setVisible(controller.variant == "rbc")
        self.draw_button.setVisible(controller.variant == "blind")
        answering = controller.variant == "blind" and controller.can("answer_draw")
        for button in (self.accept_button, self.decline_button):
            button.setVisible(answering)
            button.setEnabled(answering)
        self.pass_button.setEnabled(controller.can("pass"))
        self.resign_button.setEnabled(controller.can("resign"))
        self.draw_button.setEnabled(controller.can("offer_draw"))
        self.entry.setEnabled(controller.screen_seat is not None and controller.outcome is None)

    def _refresh_belief(self) -> None:
        """New observations: the belief panel recomputes its counts and flags from the seat's view."""
        controller, panel, seat = self.controller, self.belief_panel, self._shown_seat
        if panel is None or controller is None or seat is None or controller.variant not in HIDDEN_GAMES \
                or controller.seats[seat].is_bot:
            return
        fed = (id(controller), seat, controller.seen(seat))
        if fed != self._belief_fed:
            self._belief_fed = fed
            panel.set_view(controller.views[seat], seat == 0)
            self._show_heat(seat)
            self._apply_overlay()

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

    def _move(self, from_sq: object, to_sq: object, promotion: object) -> None:
        if self.controller is not None:
            self.controller.move(from_sq, to_sq, promotion)  # type: ignore[arg-type]

    def _pass(self) -> None:
        if self.controller is not None:
            self.controller.pass_move()

    def _offer_draw(self) -> None:
        if self.controller is not None and self.controller.can("offer_draw"):
            self.controller.offer_draw()

    def _answer_draw(self, accept: bool) -> None:
        if self.controller is not None:
            self.controller.answer_draw(accept)

    def _typed(self) -> None:
        """A move typed in the entry: coordinates or SAN; in the RBC sense phase, a square to sense."""
        text = self.entry.text().strip()
        controller = self.controller
        if controller is None or not text:
            return
        error = self.panel.entry_error
        scene = controller.scene()
        try:
            if scene.sense_window is not None:
                square = parse_square_text(text, scene.files, scene.ranks)
                self.entry.setText("")
                error.hide()
                controller.sense(square)
                return
            if controller.variant == "rbc" and text.lower() == "pass":
                self.entry.setText("")
                error.hide()
                controller.pass_move()
                return
            from_sq, to_sq, promotion = parse_move_text(text, scene.pieces, scene.targets, scene.files,
                                                        scene.ranks)
        except MoveTextError as problem:
            error.setText(str(problem).capitalize() + ".")
            error.show()
            return
        self.entry.setText("")  # not clear(): Ctrl+Z would bring the move back for the next player to read
        error.hide()
        controller.move(from_sq, to_sq, promotion)

    def _resign(self) -> None:
        if self.controller is not None and self.controller.can("resign"):
            if QMessageBox.question(self, "Resign", "Resign this game?") == QMessageBox.StandardButton.Yes:
                self.controller.resign()

    def _game_over(self, outcome: Outcome) -> None:
        self._refresh()
        controller = self.controller
        assert controller is not None
        winner = "Draw" if outcome.winner is None else f"{controller.seats[outcome.winner].name} wins"
        self.status.setText(f"Game over. {winner}: {outcome.detail}")
        box = QMessageBox(QMessageBox.Icon.Information, "Game over",
                          f"{winner}: {outcome.detail}\n\nThe board now shows the true final position.",
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running (and tests are not stopped by a modal loop)
        self.game_over_box = box

    # -- files: save, open, autosave, resume, review, export -----------------------------------------
    def _ask(self, title: str, text: str) -> bool:
        """A yes/no question (tests replace this method)."""
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def _warn(self, title: str, text: str) -> None:
        """A problem the player must read (tests replace this method)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.last_warning = text

    def _autosave(self, session: GameSession) -> None:
        """Save the game as it is now. The copy is taken here; writing it (JSON, fsync, renames) happens on a
        saver thread, in order, so the event loop never waits for the disk."""
        record = session.snapshot()
        if self._saver is None:
            self._saver = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        future = self._saver.submit(_write_autosave, record)
        future.add_done_callback(self._autosave_done)
        self._saves.append(future)
        self._saves = [pending for pending in self._saves if not pending.done()]

    def _autosave_done(self, future: concurrent.futures.Future[str | None]) -> None:
        problem = future.result() if not future.cancelled() else None
        if problem:
            try:
                self.autosaveFailed.emit(problem)  # from the saver thread: shown by the UI thread
            except RuntimeError:
                pass  # the window is gone

    def flush_autosave(self, timeout: float = 10.0) -> None:
        """Wait until every autosave asked for so far is on disk (closing the window; tests)."""
        concurrent.futures.wait(self._saves, timeout=timeout)
        self._saves = []

    def offer_resume(self) -> bool:
        """On start: offer the unfinished game of the last session, if the autosave holds one."""
        from app.storage import discard_autosave, load_autosave
        problems: list[str] = []
        record = load_autosave(report=problems.append)
        if problems:
            self._warn("Autosave", "The last autosave could not be read and was set aside:\n" + "\n".join(problems))
        if record is None:
            return False
        players = " against ".join(player.name for player in record.players)
        moves = len(record.entries)
        if not self._ask("Unfinished game", f"Continue your unfinished game of {TITLES.get(record.variant, '?')} "
                         f"({players}, {moves} actions played)?"):
            try:
                discard_autosave()
            except OSError as error:
                self._warn("Autosave", f"The old autosave could not be removed: {error.strerror or error}")
            return False
        return self.resume_record(record)

    def resume_record(self, record: GameRecord) -> bool:
        """Continue an unfinished game from its record; a record that cannot continue is reported."""
        from app.engine.record import RecordError
        from app.ui.game_controller import GameController
        try:
            controller = GameController.from_record(record, parent=self)
        except (RecordError, ValueError) as error:
            self._warn("Cannot continue this game", str(error))
            return False
        self._install(controller)
        return True

    def save(self) -> None:
        if self.controller is None:
            return
        if self._save_path is None:
            self.save_as()
        else:
            self.save_to(self._save_path)

    def save_as(self) -> None:
        if self.controller is None:
            return
        path, _filter = QFileDialog.getSaveFileName(self, "Save game", str(self._default_dir() / "game.json"),
                                                    "Sightline games (*.json)")
        if path:
            self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the game as it is now (clocks, annotations, belief boards included), atomically."""
        if self.controller is None:
            return False
        try:
            self.controller.session.snapshot().save(path)
        except OSError as error:
            self._warn("Save", f"Could not save to {path}: {error.strerror or error}")
            return False
        self._save_path = path
        self._remember(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _open_dialog(self) -> None:
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
            self._warn("Cannot open this file", f"{path}: {error.strerror or error}")
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
        except (RecordError, ValueError) as error:
            self._warn("Cannot replay this game", str(error))
            return None
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.setWindowFlag(Qt.WindowType.Window, True)
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
        if window is not None and controller.outcome is None:
            self._reviews.append(window)  # one seat's private view: closed when the screen changes hands

    def _close_reviews(self) -> None:
        for window in self._reviews:
            try:
                window.close()
            except RuntimeError:
                pass  # already closed and deleted by the player
        self._reviews = []

    def _export_dialog(self, fmt: str) -> None:
        if self.controller is None:
            return
        suffix = {"pgn": "pgn", "reconchess": "json", "minit": "txt"}[fmt]
        path, _filter = QFileDialog.getSaveFileName(self, "Export", str(self._default_dir() / f"game.{suffix}"))
        if path:
            self.export_to(fmt, path)

    def export_to(self, fmt: str, path: str) -> bool:
        from app.engine.record import RecordError
        from app.exports import export_record
        assert self.controller is not None
        try:
            export_record(self.controller.session.snapshot(), fmt, path)
        except (RecordError, ValueError) as error:
            self._warn("Export", str(error))
            return False
        except OSError as error:
            self._warn("Export", f"Could not write {path}: {error.strerror or error}")
            return False
        self.statusBar().showMessage(f"Exported {path}", 5000)
        return True

    def _copy_position(self) -> None:
        controller = self.controller
        if controller is None or controller.variant != "minit":
            self._warn("Copy position", "Only MinitChess positions are copied as text.")
            return
        from app.exports import position_text
        QApplication.clipboard().setText(position_text(controller.game.position))  # type: ignore[attr-defined]
        self.statusBar().showMessage("Position copied", 3000)

    def _paste_position(self) -> None:
        """A two-player MinitChess game from a position on the clipboard (the rule text's notation)."""
        self.start_from_position(QApplication.clipboard().text())

    def start_from_position(self, text: str) -> bool:
        from app.exports import parse_position_text
        if not self._may_leave_game():
            return False
        from app.engine.clock import TimeControl
        from app.ui.game_controller import GameController, SeatConfig
        try:
            position = parse_position_text(text)
            controller = GameController("minit", [SeatConfig("White"), SeatConfig("Black")], TimeControl(None, 0),
                                        {"position": str(position)}, parent=self)
        except ValueError as error:
            self._warn("Paste position", f"That is not a MinitChess position: {error}")
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
        path, _filter = QFileDialog.getSaveFileName(self, "Board image", str(self._default_dir() / "board.png"),
                                                    "PNG image (*.png);;SVG image (*.svg)")
        if not path:
            return
        perspective = None if controller.outcome is not None else controller.screen_seat
        if controller.outcome is None and perspective is None:
            self._warn("Board image", "Lift the curtain first.")
            return
        from app.engine.record import RecordError
        from app.exports import export_record
        try:
            export_record(controller.session.snapshot(), "svg" if path.lower().endswith(".svg") else "png", path,
                          perspective=perspective)
        except (RecordError, ValueError, OSError) as error:
            self._warn("Board image", str(error))

    def _default_dir(self) -> Path:
        return Path(self._save_path).parent if self._save_path else Path.home()

    def _remember(self, path: str) -> None:
        settings = QSettings()
        recent = [str(item) for item in _as_list(settings.value("recent/files")) if str(item) != path]
        settings.setValue("recent/files", [path, *recent][:RECENT_LIMIT])

    def recent_files(self) -> list[str]:
        return [str(item) for item in _as_list(QSettings().value("recent/files"))]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for path in files:
            self.recent_menu.addAction(self._action(path, partial(self.open_file, path)))
        if not files:
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    # -- window state ----------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if isinstance(geometry, (QByteArray, bytes)):
            self.restoreGeometry(geometry)
        else:
            self.resize(1040, 720)
        state = settings.value("window/state")
        if isinstance(state, (QByteArray, bytes)):
            self.restoreState(state, STATE_VERSION)
        self.board.set_theme(str(settings.value("view/theme", "brown")))
        pieces = str(settings.value("view/pieces", "cburnett"))
        if pieces in PIECE_SETS:
            set_piece_set(pieces)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.curtain.isVisible():
            self._place_curtain()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState(STATE_VERSION))
        if self.controller is not None:
            self.controller.save_now()  # the clock as it is now, not as of the last action
            self.controller.stop()
        self.flush_autosave()
        if self.inference is not None:
            self.inference.shutdown()
        self._close_reviews()
        super().closeEvent(event)


def _write_autosave(record: GameRecord) -> str | None:
    """The saver thread's job: write the autosave; a problem comes back as text (a full disk must not stop play)."""
    from app.storage import autosave
    try:
        autosave(record)
    except (OSError, ValueError) as error:
        return f"Autosave failed: {error}"
    return None


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
        from app.bots.worker import warm_up
        warm_up()  # the fork server for bots and inference starts now, while the player reads the dialog
        if not window.offer_resume():
            window.new_game()

    QTimer.singleShot(0, first_game)
    return int(app.exec())
