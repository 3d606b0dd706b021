"""Sightline's main window: the board, the side panel, the hot-seat curtain, menus."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QHBoxLayout, QLabel, QLineEdit, QMainWindow, QMessageBox,
                               QPlainTextEdit, QPushButton, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget)

from app.engine.clock import TimeControl
from app.engine.core import Outcome
from app.engine.variants import TITLES
from app.ui.board_widget import BoardWidget
from app.ui.game_controller import GameController, SeatConfig
from app.ui.new_game_dialog import NewGame, NewGameDialog

RULES = Path(__file__).resolve().parent.parent.parent / "docs" / "rules"


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
        self.on_lift = lambda: None

    def show_for(self, name: str) -> None:
        self.label.setText(f"{name} to play")
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()
        self.setFocus()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.on_lift()

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.on_lift()
        else:
            super().keyPressEvent(event)


class MainWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Sightline")
        self.controller: GameController | None = None
        self._log_shown: tuple[int | None, int] = (None, 0)
        central = QWidget()
        self.setCentralWidget(central)
        row = QHBoxLayout(central)
        self.board = BoardWidget()
        self.board.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.board.setMinimumSize(320, 320)
        row.addWidget(self.board, 3)
        panel = QWidget()
        panel.setMinimumWidth(260)
        panel.setMaximumWidth(380)
        column = QVBoxLayout(panel)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-size: 14pt; font-weight: 600;")
        self.clocks = QLabel()
        self.clocks.setStyleSheet("font-size: 16pt; font-family: monospace;")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-size: 11pt;")
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("Type a move (e2e4) and press Enter")
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        buttons = QHBoxLayout()
        self.pass_button = QPushButton("Pass")
        self.resign_button = QPushButton("Resign")
        self.draw_button = QPushButton("Offer draw")
        self.flip_button = QPushButton("Flip")
        for button in (self.pass_button, self.resign_button, self.draw_button, self.flip_button):
            buttons.addWidget(button)
        answers = QHBoxLayout()
        self.accept_button = QPushButton("Accept draw")
        self.decline_button = QPushButton("Decline draw")
        answers.addWidget(self.accept_button)
        answers.addWidget(self.decline_button)
        for widget in (self.title, self.clocks, self.status, self.entry):
            column.addWidget(widget)
        column.addLayout(buttons)
        column.addLayout(answers)
        column.addWidget(QLabel("What you were told"))
        column.addWidget(self.log, 1)
        row.addWidget(panel, 1)
        self.curtain = Curtain(central)
        self.curtain.hide()
        self.curtain.on_lift = self._lift
        self._build_menus()
        self.board.moveRequested.connect(self._move)
        self.board.senseRequested.connect(self._sense)
        self.entry.returnPressed.connect(self._typed)
        self.pass_button.clicked.connect(lambda: self.controller and self.controller.pass_move())
        self.resign_button.clicked.connect(self._resign)
        self.draw_button.clicked.connect(lambda: self.controller and self.controller.offer_draw())
        self.accept_button.clicked.connect(lambda: self.controller and self.controller.answer_draw(True))
        self.decline_button.clicked.connect(lambda: self.controller and self.controller.answer_draw(False))
        self.flip_button.clicked.connect(self.board.flip)
        self._restore_geometry()
        self._refresh()

    # -- menus -------------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        game = self.menuBar().addMenu("&Game")
        new = QAction("&New game...", self, shortcut=QKeySequence.StandardKey.New, triggered=self.new_game)
        resign = QAction("&Resign", self, triggered=self._resign)
        draw = QAction("Offer &draw", self, triggered=lambda: self.controller and self.controller.offer_draw())
        quit_ = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit, triggered=self.close)
        for action in (new, resign, draw):
            game.addAction(action)
        game.addSeparator()
        game.addAction(quit_)
        view = self.menuBar().addMenu("&View")
        view.addAction(QAction("&Flip board", self, shortcut="F", triggered=self.board.flip))
        coords = QAction("&Coordinates", self, checkable=True, checked=True)
        coords.toggled.connect(self.board.set_coordinates_visible)
        view.addAction(coords)
        themes = view.addMenu("Board &theme")
        for name in ("brown", "blue", "green", "grey"):
            themes.addAction(QAction(name.capitalize(), self, triggered=lambda _=False, n=name: self._theme(n)))
        help_ = self.menuBar().addMenu("&Help")
        for variant, title in TITLES.items():
            help_.addAction(QAction(f"Rules of {title}", self, triggered=lambda _=False, v=variant: self._rules(v)))
        help_.addAction(QAction("&About Sightline", self, triggered=self._about))

    def _theme(self, name: str) -> None:
        self.board.set_theme(name)
        QSettings().setValue("view/theme", name)

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
    def new_game(self) -> None:
        dialog = NewGameDialog(self)
        if dialog.exec() == NewGameDialog.DialogCode.Accepted:
            self.start(dialog.choice())

    def start(self, choice: NewGame) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller.deleteLater()
        if choice.vs_bot:
            bot = SeatConfig(f"{choice.bot} ({choice.level})", f"sightline:{choice.bot}:{choice.level}")
            you = SeatConfig("You")
            seats = [you, bot] if choice.human_seat == 0 else [bot, you]
        else:
            seats = [SeatConfig("White"), SeatConfig("Black")]
        options = {"draw_rule": choice.draw_rule} if choice.variant == "rbc" else {}
        controller = GameController(choice.variant, seats, choice.control, options, parent=self)
        controller.changed.connect(self._refresh)
        controller.clocksChanged.connect(self._refresh_clocks)
        controller.curtainChanged.connect(self._curtain)
        controller.gameOver.connect(self._game_over)
        self.controller = controller
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
            self.curtain.show_for(controller.game.seat_names[controller.curtain_for])
        else:
            self.curtain.hide()
            if controller is not None and controller.hot_seat and controller.screen_seat is not None:
                self.board.set_flipped(controller.screen_seat == 1)

    def _clear_private(self) -> None:
        """Nothing private of either seat stays in a widget while the curtain is up."""
        self.board.set_pieces({})
        self.board.set_markers([])
        self.board.set_move_targets({})
        self.board.set_last_move(None)
        self.board.clear_annotations()
        self.log.setPlainText("")
        self._log_shown = (None, 0)
        self.clocks.setText("")

    def _refresh(self) -> None:
        controller = self.controller
        if controller is None:
            self.title.setText("Sightline")
            self.status.setText("Game > New game (Ctrl+N) to start.")
            for button in (self.pass_button, self.resign_button, self.draw_button, self.accept_button,
                           self.decline_button):
                button.setEnabled(False)
            return
        self.title.setText(TITLES[controller.variant])
        self.status.setText(controller.status())
        if controller.screen_seat is None:
            self._clear_private()
        else:
            scene = controller.scene()
            self.board.set_pieces(scene.pieces)
            self.board.set_markers(scene.markers)
            self.board.set_move_targets(scene.targets)
            self.board.set_last_move(*(scene.last_move or (None, None)))
            self.board.set_sense_mode(scene.sense_window is not None, scene.sense_window)
            lines = controller.log()
            shown = (controller.screen_seat, len(lines))
            if shown != self._log_shown:
                self._log_shown = shown
                self.log.setPlainText("\n".join(lines))
                self.log.verticalScrollBar().setValue(self.log.verticalScrollBar().maximum())
            self._refresh_clocks()
        self.pass_button.setVisible(controller.variant == "rbc")
        self.draw_button.setVisible(controller.variant == "blind")
        self.accept_button.setVisible(controller.variant == "blind" and controller.can("answer_draw"))
        self.decline_button.setVisible(controller.variant == "blind" and controller.can("answer_draw"))
        self.pass_button.setEnabled(controller.can("pass"))
        self.resign_button.setEnabled(controller.can("resign"))
        self.draw_button.setEnabled(controller.can("offer_draw"))
        self.entry.setEnabled(controller.screen_seat is not None and controller.outcome is None)

    def _refresh_clocks(self) -> None:
        controller = self.controller
        if controller is not None and controller.screen_seat is not None:
            self.clocks.setText("\n".join(f"{name:<6} {time}" for name, time in controller.clock_text()))

    def _sense(self, square: object) -> None:
        if self.controller is not None:
            self.controller.sense(square)  # type: ignore[arg-type]

    def _move(self, from_sq: object, to_sq: object, promotion: object) -> None:
        if self.controller is not None:
            self.controller.move(from_sq, to_sq, promotion)  # type: ignore[arg-type]

    def _typed(self) -> None:
        text = self.entry.text().strip().lower().replace("-", "")
        self.entry.clear()
        if self.controller is None or len(text) < 4:
            return
        files = "abcdefgh"
        try:
            from_sq = (files.index(text[0]), int(text[1]) - 1)
            to_sq = (files.index(text[2]), int(text[3]) - 1)
        except ValueError:
            self.status.setText(f"Not a move: {text}")
            return
        self.controller.move(from_sq, to_sq, text[4] if len(text) > 4 else None)

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
        box = QMessageBox(QMessageBox.Icon.Information, "Game over", f"{winner}: {outcome.detail}",
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running (and tests are not stopped by a modal loop)
        self.game_over_box = box

    # -- window state ----------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1040, 720)
        self.board.set_theme(str(settings.value("view/theme", "brown")))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.curtain.isVisible():
            self.curtain.setGeometry(self.centralWidget().rect())

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        QSettings().setValue("window/geometry", self.saveGeometry())
        if self.controller is not None:
            self.controller.stop()
        super().closeEvent(event)


def run_app(check: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    app.setOrganizationName("Sightline")
    app.setApplicationName("Sightline")
    window = MainWindow()
    if check:
        window.resize(1040, 720)
        image = window.grab()
        print("OK" if not image.isNull() else "FAILED")
        return 0 if not image.isNull() else 1
    window.show()
    QTimer.singleShot(0, window.new_game)
    return int(app.exec())
