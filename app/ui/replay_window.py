"""The replay viewer: step through a recorded game as the truth or as one seat saw it.

Which perspectives open is the engine's rule (:func:`~app.engine.record.allowed_perspectives`):
a finished game opens the truth and both seats; a game still being played opens only the
seat that asks (in hot-seat, the seat at the screen), so reviewing cannot leak anything.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QFileDialog, QHBoxLayout, QLabel, QMainWindow,
                               QMessageBox, QPlainTextEdit, QPushButton, QSizePolicy, QSlider, QVBoxLayout, QWidget)

from app import games
from app.ui import main_thread_gc
from app.engine.clock import by_clock
from app.engine.core import Seat
from app.engine.belief import BeliefBoard
from app.engine.record import Frame, GameRecord, RecordError, Timeline, allowed_perspectives, read_record
from app.games.chess_kit import sq8
from app.games.presenter import BELIEF_PANEL, presenter_for
from app.games.scene import BoardScene
from app.ui.board_annotations import annotations_from_json
from app.ui.board_widget import BoardWidget
from app.ui.export_message import show_exported
from app.ui.settings import ANIMATION, THEME_NAMES, glide_ms_for, setting_choice
from app.ui.window_place import place_over

if TYPE_CHECKING:
    from app.ui.inference_service import InferenceService


def _seat_names(record: GameRecord) -> list[str]:
    return list(games.get(record.variant).seat_names)


def _entry_text(record: GameRecord, index: int) -> str:
    """One recorded action in a line, in the game's words: ``12. Black: move e7 to e5``."""
    entry = record.entries[index]
    names = _seat_names(record)
    name = names[entry.seat] if 0 <= entry.seat < len(names) else f"seat {entry.seat}"
    return f"{index + 1}. {name}: {presenter_for(record.variant).describe_action(entry.action)}"


class ReplayWindow(QMainWindow):
    """A recorded game, step by step (step 0 is the start; each action is one step)."""

    def __init__(self, record: GameRecord, asking_seat: Seat | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.presenter = presenter_for(record.variant)
        self.timeline = Timeline(record)  # raises RecordError for a record that does not replay
        self.perspectives = allowed_perspectives(record, asking_seat)
        if not self.perspectives:
            raise RecordError("this game is still being played: it can be reviewed only by a seat playing it")
        players = " – ".join(player.name for player in record.players)
        state = "finished" if record.result is not None else "in progress"
        self.setWindowTitle(f"Replay: {games.get(record.variant).title}, {players} ({state})")
        self.board = BoardWidget()
        self.board.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.board.set_interactive(False)

        self.board.set_glide_ms(glide_ms_for(setting_choice(QSettings(), "view/animation", ANIMATION, "glide")))
        self.board.set_theme(setting_choice(QSettings(), "view/theme", THEME_NAMES, "brown"))  # as the window's boards
        self.perspective = QComboBox()
        names = _seat_names(record)
        for perspective in self.perspectives:
            label = "The truth (every piece)" if perspective is None else f"What {names[perspective]} saw"
            self.perspective.addItem(label, perspective)
        # Partners review a finished game together: a team's perspective follows the partner acting at each step
        # and tells what each of them was told. (While the game goes on a seat sees its own view only.)
        self.teams = _team_members(record) if None in self.perspectives else []
        for members in self.teams:
            self.perspective.addItem(f"What {' and '.join(names[seat] for seat in members)} saw (their team)",
                                     f"team:{','.join(map(str, members))}")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, self.timeline.steps)
        self.first, self.back, self.forward, self.last = (QPushButton(text) for text in ("«", "‹", "›", "»"))
        for button, tip in ((self.first, "Start (Home)"), (self.back, "Back one step (Left)"),
                            (self.forward, "Forward one step (Right)"), (self.last, "End (End)")):
            button.setToolTip(tip)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.step_label = QLabel()
        self.step_label.setStyleSheet("font-weight: 600;")
        self.clocks = QLabel()
        self.accuracy = QLabel()
        self.accuracy.setWordWrap(True)
        # A short label: a check box does not wrap, and the side column is narrow. The tooltip says the rest.
        self.heat = QCheckBox("Heat map")
        self.heat.setToolTip("Tint each square by the chance that an enemy piece stands there,\n"
                             "as the seat could infer it from what it had been told at this step")
        self.heat_status = QLabel()
        self.heat_status.setWordWrap(True)
        hidden = games.get(record.variant).inference is not None  # a heat map is what the inference draws
        allowed = bool(record.extra.get("inference", True))
        self.heat.setVisible(hidden)
        self.heat_status.setVisible(hidden)
        self.heat.setEnabled(allowed)
        if not allowed:
            self.heat.setToolTip("Inference was switched off for this game")
        self.inference: InferenceService | None = None
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.moves = QPlainTextEdit()
        self.moves.setReadOnly(True)
        side = QWidget()
        side.setMinimumWidth(280)
        column = QVBoxLayout(side)
        column.addWidget(QLabel("Perspective"))
        column.addWidget(self.perspective)
        row = QHBoxLayout()
        for button in (self.first, self.back, self.forward, self.last):
            row.addWidget(button)
        column.addLayout(row)
        column.addWidget(self.slider)
        for widget in (self.step_label, self.clocks, self.accuracy, self.heat, self.heat_status):
            column.addWidget(widget)
        column.addWidget(QLabel("Told at this step / actions"))
        column.addWidget(self.text, 2)
        column.addWidget(QLabel("Moves so far"))
        column.addWidget(self.moves, 1)
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.addWidget(self.board, 3)
        layout.addWidget(side, 1)
        self.setCentralWidget(central)
        self.step: int = -1
        self.first.clicked.connect(lambda: self.show_step(0))
        self.back.clicked.connect(lambda: self.show_step(self.step - 1))
        self.forward.clicked.connect(lambda: self.show_step(self.step + 1))
        self.last.clicked.connect(lambda: self.show_step(self.timeline.steps))
        self.slider.valueChanged.connect(self.show_step)
        self.perspective.currentIndexChanged.connect(lambda _index: self.show_step(self.step))
        self.heat.toggled.connect(lambda _on: self.show_step(self.step))
        export = QAction("Export this board as an image...", self)
        export.setShortcut(QKeySequence("Ctrl+E"))
        export.triggered.connect(self._export_image)
        menu = self.menuBar().addMenu("&Replay")
        menu.addAction(export)
        close = QAction("&Close", self)
        close.setShortcut(QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)
        menu.addAction(close)
        self.resize(1000, 680)
        self.frame: Frame | None = None
        self.show_step(self.timeline.steps)

    @property
    def current_team(self) -> tuple[Seat, ...] | None:
        """The partners whose team perspective is chosen, or None for the truth or one seat."""
        data: Any = self.perspective.currentData()
        if isinstance(data, str) and data.startswith("team:"):
            return tuple(int(seat) for seat in data[5:].split(","))
        return None

    @property
    def current_perspective(self) -> Seat | None:
        """The seat whose view is drawn: the chosen seat, or in a team's perspective the partner acting at this
        step (else the partner who acted last, else the first); None for the truth."""
        data: Any = self.perspective.currentData()
        team = self.current_team
        if team is None:
            return None if data is None else int(data)
        entries = self.record.entries
        for index in range(min(self.step, len(entries)) - 1, -1, -1):
            if entries[index].seat in team:
                return entries[index].seat
        return team[0]

    def show_step(self, step: int) -> None:
        step = max(0, min(self.timeline.steps, step))
        self.step = step
        perspective = self.current_perspective
        frame = self.timeline.frame(step, perspective)
        self.step, self.frame = step, frame
        if self.slider.value() != step:
            self.slider.blockSignals(True)
            self.slider.setValue(step)
            self.slider.blockSignals(False)
        if perspective is None:
            scene: BoardScene = self.presenter.truth_scene(frame.truth, frame.last_move)
        else:  # the seat's view with the private marks it had kept then (a deduction grid's circles)
            notes = frame.notes.get(perspective)
            scene = self.presenter.bound(None if notes is None else notes.marks).scene(frame.view)
        # A replay is looked at, not played: no moves or picks; the truth shows no seat's marks.
        scene = dataclasses.replace(scene, targets={}, sense_window=None,
                                    markers=scene.markers if perspective is not None else [])
        # A seat sees the board turned as its definition says; the truth is shown unturned.
        self.board.set_flipped(perspective is not None and games.get(self.record.variant).seats[perspective].flipped)
        self.board.set_scene(scene)
        self._show_notes(frame, perspective)
        names = _seat_names(self.record)
        # Two sides (or two teams) take turns; a solitaire's one player has steps only.
        turn = f" · turn {frame.ply // 2 + 1}" if len(names) > 1 else ""
        showing = f" · {names[perspective]}'s board" if self.current_team and perspective is not None else ""
        self.step_label.setText(f"Step {step} of {self.timeline.steps}{turn}"
                                + (f" · {frame.phase}" if frame.phase not in ("over", "") else "") + showing)
        shown = (range(len(frame.remaining)) if perspective is None
                 else self.presenter.visible_clocks(perspective, len(frame.remaining)))
        groups = by_clock([seat for seat in shown if seat < len(frame.remaining)],  # a team's one clock (G5)
                          games.referee(self.record.variant).teams())
        self.clocks.setText("   ".join(f"{' & '.join(names[seat] for seat in group)} "
                                       f"{_clock(frame.remaining[group[0]])}" for group in groups))
        self._show_text(frame, perspective)
        self._request_heat(frame, perspective)
        for button, enabled in ((self.first, step > 0), (self.back, step > 0),
                                (self.forward, step < self.timeline.steps), (self.last, step < self.timeline.steps)):
            button.setEnabled(enabled)

    def _request_heat(self, frame: Frame, perspective: Seat | None) -> None:
        """The seat's inference at this step, computed in a worker; drawn when it arrives (if still wanted)."""
        self.board.set_heat(None)
        self.heat_status.setText("")
        if perspective is None or not self.heat.isChecked() or not self.heat.isEnabled():
            return
        if self.inference is None:
            # numpy and the inference code (0.35 s) only once the heat map is asked for, not when a replay opens
            from app.inference_jobs import WINDOW_OPTIONS
            from app.ui.inference_service import InferenceService  # (as above)
            options = {**WINDOW_OPTIONS, "seed": self.record.seed or 0, "start_fen": self.record.options.get("fen")}
            self.inference = InferenceService(self.record.variant, options, self)
            self.inference.ready.connect(self._heat_ready)
        self.heat_status.setText("updating…")
        self.inference.request(perspective, list(frame.observations))
        summary = self.inference.summaries.get(perspective)
        if summary is not None and not self.inference.pending(perspective):
            self._heat_ready(perspective, summary)  # nothing new for this seat at this step: no job was needed

    def _heat_ready(self, seat: int, summary: Any) -> None:
        frame = self.frame
        if frame is None or seat != self.current_perspective or not self.heat.isChecked() \
                or self.inference is None or self.inference.pending(seat):
            return
        self.board.set_heat({sq8(square): p for square, p in summary.squares.items()})
        estimated = "" if summary.heat_exact or summary.problem else "; heat map estimated from a sample"
        self.heat_status.setText(summary.count_text() + estimated)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if self.inference is not None:
            self.inference.shutdown()
        super().closeEvent(event)

    def _show_notes(self, frame: Frame, perspective: Seat | None) -> None:
        """A seat's own annotations and belief board at that step; with the truth, how right the belief was."""
        self.board.set_annotations([], [])
        self.board.set_ghosts({})
        self.accuracy.setText("")
        self.accuracy.hide()  # an empty line would push the rest of the column down
        if perspective is None:
            return
        notes = frame.notes.get(perspective)
        if notes is None:
            return
        self.board.set_annotations(*annotations_from_json(notes.annotations))
        if notes.hypotheses is None or BELIEF_PANEL not in self.presenter.panels():
            return
        try:
            belief = BeliefBoard.from_json(notes.hypotheses, enemy=perspective != 0)
        except ValueError:
            return
        self.board.set_ghosts({sq8(square): letter for square, letter in belief.letters().items()})
        if self.record.result is not None and belief.pieces():
            right, total = belief.score(frame.truth)
            self.accuracy.setText(f"Belief board: {right} of {total} supposed pieces right ({right / total:.0%})")
            self.accuracy.show()

    def _show_text(self, frame: Frame, perspective: Seat | None) -> None:
        if perspective is None:
            lines = [_entry_text(self.record, index) for index in range(frame.step)]
            self.text.setPlainText("\n".join(lines[-40:]))
            self.moves.setPlainText("\n".join(self.truth_score_sheet(frame.step)))
        elif self.current_team:  # each partner's notices under their name
            names, blocks = _seat_names(self.record), []
            for seat in self.current_team:
                told = self.timeline.frame(frame.step, seat).observations
                lines = [line for line in (self.presenter.describe(o, seat) for o in told) if line]
                blocks.append("\n".join([f"{names[seat]} was told:", *(f"  {line}" for line in lines)]))
            self.text.setPlainText("\n\n".join(blocks))
            self.moves.setPlainText("\n".join(self.presenter.move_list(frame.view)))
        else:
            lines = [line for line in (self.presenter.describe(o, perspective) for o in frame.observations) if line]
            self.text.setPlainText("\n".join(lines))
            self.moves.setPlainText("\n".join(self.presenter.move_list(frame.view)))
        for widget in (self.text, self.moves):
            widget.verticalScrollBar().setValue(widget.verticalScrollBar().maximum())

    def truth_score_sheet(self, step: int) -> list[str]:
        """Every move up to ``step``, in the game's own notation: the seats' move lists (each written by the game
        from what that seat was told, which once the game is over may all be shown) put together turn by turn.
        Where the seats were told the same moves, their lists are one; where each knew only its own (the blind
        games), a turn has a line for each seat's part, under its name."""
        names = _seat_names(self.record)
        turns: dict[int, list[tuple[int, str]]] = {}
        loose: list[str] = []
        for seat in range(len(names)):
            view = self.timeline.frame(step, seat).view
            for line in self.presenter.move_list(view) if view is not None else []:
                head, dot, rest = line.partition(". ")
                if dot and head.isdigit():
                    parts = turns.setdefault(int(head), [])
                    if all(rest != text for _seat, text in parts):
                        parts.append((seat, rest))
                elif line not in loose:
                    loose.append(line)
        sheet: list[str] = []
        for number, parts in sorted(turns.items()):
            if len(parts) == 1:
                sheet.append(f"{number}. {parts[0][1]}")
                continue
            indent = " " * (len(str(number)) + 2)
            sheet.extend(f"{f'{number}. ' if index == 0 else indent}{names[seat]}: {text}"
                         for index, (seat, text) in enumerate(parts))
        return sheet + loose

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Up):
            self.show_step(self.step - 1)
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_Down):
            self.show_step(self.step + 1)
        elif key == Qt.Key.Key_Home:
            self.show_step(0)
        elif key == Qt.Key.Key_End:
            self.show_step(self.timeline.steps)
        else:
            super().keyPressEvent(event)

    def _export_image(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, "Export board image", "board.png",
                                                    "PNG image (*.png);;SVG image (*.svg)")
        if path:
            self.export_image(path)

    def export_image(self, path: str) -> None:
        """Write the board shown (this step, this perspective) as PNG or SVG, by the file's extension."""
        from app.exports import frame_png, frame_svg  # only for an export: 0.1 s that opening a replay does not pay
        assert self.frame is not None
        try:
            if path.lower().endswith(".svg"):
                Path(path).write_text(frame_svg(self.record.variant, self.frame), encoding="utf-8")
            else:
                Path(path).write_bytes(frame_png(self.record.variant, self.frame))
        except OSError as error:
            QMessageBox.warning(self, "Export", f"Could not write {path}: {error.strerror or error}")
        else:
            self.export_box = show_exported(self, path, "Board image")


def _team_members(record: GameRecord) -> list[tuple[Seat, ...]]:
    """The teams of two seats or more in ``record``'s game, each as its seats in order (none in two-seat games)."""
    teams: dict[int, list[Seat]] = {}
    for seat, team in enumerate(games.referee(record.variant).teams()):
        teams.setdefault(team, []).append(seat)
    return [tuple(members) for members in teams.values() if len(members) > 1]


def _clock(seconds: float) -> str:
    if seconds == float("inf"):
        return "--:--"
    whole = int(max(0.0, seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def run_replay(path: str) -> int:
    """``sightline replay FILE``: open the replay viewer on a saved game; a bad file is reported, not raised."""
    try:
        record = read_record(path)
    except RecordError as error:
        print(f"sightline replay: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"sightline replay: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return 1
    app = QApplication.instance() or QApplication(sys.argv)
    main_thread_gc.install(app)  # as in the main window's run_app
    try:
        # A game still in progress opens only from a seat playing it: from the command line, nobody's.
        window = ReplayWindow(record)
    except RecordError as error:
        print(f"sightline replay: {error}", file=sys.stderr)
        return 1
    place_over(window, None)  # in the middle of the screen, within its free area
    window.show()
    return int(app.exec()) if isinstance(app, QApplication) else 0
