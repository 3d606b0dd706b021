"""The main window's solitaire tools, for the games whose deals are numbered (their presenter offers a
``solitaire`` door: see :mod:`app.games.patience`), none of them named here.

A **Solitaire** menu beside Game (New deal, Deal number... and Statistics... also in the Game menu, under New game):
New deal (Ctrl+Shift+N), Deal number... (a chosen deal), Undo (Ctrl+Z), Redo
(Ctrl+Y and Ctrl+Shift+Z), Hint (H), Solve this deal... (after the game: the best score knowing every card, its
progress shown while it runs, the line opened in the replay viewer) and Statistics.... The window's title names the
deal. A hint and a solve run in a worker thread, never in the window's own: the panel's thinking bar runs and the
status bar says a hint is being thought of, and its answer arrives within its time limit (the game moving on in the meantime drops it).

Statistics are counted when a game of a person ends in the window (a bot's games, and records opened or replayed,
are not), once per game.
"""

from __future__ import annotations

import copy
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from app import games
from app.ui.window_common import bounded

if TYPE_CHECKING:
    from app.engine.core import Outcome
    from app.ui.game_controller import GameController

__all__ = ["HINT_SECONDS", "SOLVE_SECONDS", "SolitaireTools", "solitaire_door"]

HINT_SECONDS = 1.5
"""How long a hint thinks (the answer comes within 2 s)."""
SOLVE_SECONDS = 30.0
"""How long Solve this deal searches at most."""


def solitaire_door(controller: GameController | None) -> Any:
    """The solitaire door of the game in the window (its presenter's ``solitaire``), or ``None``."""
    if controller is None:
        return None
    return getattr(controller.presenter, "solitaire", None)


class SolitaireTools(QObject):
    """The Solitaire menu and what it runs (see the module)."""

    def __init__(self, window: QMainWindow, controller: Callable[[], GameController | None],
                 may_leave: Callable[[], bool], install: Callable[[GameController], None],
                 open_replay: Callable[[Any], Any], command: Callable[[str], None], say: Callable[[str], None],
                 thinking: Callable[[bool], None] = lambda _on: None) -> None:
        super().__init__(window)
        self._thinking = thinking
        self._window, self._controller, self._open_replay = window, controller, open_replay
        self._may_leave, self._install = may_leave, install
        self._command, self._say = command, say
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solitaire")
        self._stop = threading.Event()
        self._job: tuple[str, Future[Any], Any] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(100)
        self._poll.timeout.connect(self._check_job)
        self._latest: list[Any] = [None]
        self.solution_record: Any = None
        self.result_box: Any = None
        self.last_hint = ""
        self.last_solution: Any = None
        self.progress_text = ""
        self.statistics_box: Any = None
        self.solve_box: Any = None
        bar = window.menuBar()
        last = bar.actions()[-1] if bar.actions() else None
        menu = bar.addMenu("&Solitaire")
        if last is not None and last.text() == "&Help":  # before Help, which stays last
            bar.insertMenu(last, menu)
        self.menu = menu

        def action(text: str, slot: Callable[[], None], *keys: str) -> QAction:
            made = QAction(text, window)
            if keys:
                made.setShortcuts([QKeySequence(key) for key in keys])
            made.triggered.connect(lambda _checked=False: slot())
            menu.addAction(made)
            return made
        self.actions = {
            "new_deal": action("&New deal", self.new_deal, "Ctrl+Shift+N"),
            "choose_deal": action("&Deal number...", self.choose_deal),
            "undo": action("&Undo", lambda: self._command("undo"), "Ctrl+Z"),
            "redo": action("&Redo", lambda: self._command("redo"), "Ctrl+Y", "Ctrl+Shift+Z"),
            "hint": action("&Hint", self.hint, "H"),
            "solve": action("&Solve this deal...", self.solve),
        }
        menu.addSeparator()
        self.actions["statistics"] = action("S&tatistics...", self.show_statistics)
        # The Game menu offers the deals and the statistics too, under New game (where a patience player looks).
        game_menu = next((found.menu() for found in bar.actions()
                          if found.text() == "&Game" and isinstance(found.menu(), QMenu)), None)
        self.game_menu_actions: dict[str, QAction] = {}
        if isinstance(game_menu, QMenu):
            after = game_menu.actions()[1] if len(game_menu.actions()) > 1 else None
            for key, text in (("new_deal", "New &deal"), ("choose_deal", "Deal n&umber..."),
                              ("statistics", "Solitaire s&tatistics...")):
                twin = QAction(text, window)
                twin.triggered.connect(self.actions[key].trigger)
                if after is not None:
                    game_menu.insertAction(after, twin)
                else:
                    game_menu.addAction(twin)
                self.game_menu_actions[key] = twin

    # -- the window's state -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Enable what may be done now; name the deal in the window's title."""
        controller = self._controller()
        door = solitaire_door(controller)
        self.menu.menuAction().setVisible(door is not None)
        for key, twin in self.game_menu_actions.items():
            twin.setVisible(door is not None or key == "statistics")
        for action in self.actions.values():
            action.setEnabled(False)
        self.actions["statistics"].setEnabled(True)
        if door is None or controller is None:
            self._window.setWindowTitle("Sightline")
            self._twins()
            return
        title = games.get(controller.variant).title
        deal = controller.game.options().get(door.deal_option)
        self._window.setWindowTitle(f"{title}, deal {deal} - Sightline")
        over = controller.outcome is not None
        person = controller.screen_seat is not None
        self.actions["new_deal"].setEnabled(True)
        self.actions["choose_deal"].setEnabled(True)
        self.actions["undo"].setEnabled(controller.can("undo"))
        self.actions["redo"].setEnabled(controller.can("redo"))
        self.actions["hint"].setEnabled(person and not over and self._job is None)
        self.actions["solve"].setEnabled(over and self._job is None)
        self._twins()

    def _twins(self) -> None:
        for key, twin in self.game_menu_actions.items():
            twin.setEnabled(self.actions[key].isEnabled())

    def deal_title(self) -> str | None:
        """The game and its deal (the panel's title), or ``None`` for a game without numbered deals."""
        controller = self._controller()
        door = solitaire_door(controller)
        if door is None or controller is None:
            return None
        return f"{games.get(controller.variant).title}, deal {controller.game.options().get(door.deal_option)}"

    # -- deals --------------------------------------------------------------------------------------------------
    def new_deal(self, deal: int | None = None) -> None:
        """A new game of the same solitaire: the deal ``deal``, or one drawn at random."""
        controller = self._controller()
        door = solitaire_door(controller)
        if door is None or controller is None:
            return
        self.start_deal(controller.variant, {} if deal is None else {door.deal_option: deal})

    def start_deal(self, variant: str, options: dict[str, Any]) -> None:
        """The same solitaire with ``options``, the person in its one seat, untimed; a refused deal is said."""
        from app.engine.clock import TimeControl  # deferred as in MainWindow.start: loaded with the first game
        from app.ui.game_controller import GameController, SeatConfig
        if not self._may_leave():
            return
        try:
            controller = GameController(variant, [SeatConfig("You")], TimeControl(None, 0.0), options,
                                        parent=self._window)
        except ValueError as error:
            self._say(bounded(str(error), 300))
            return
        self._install(controller)

    def choose_deal(self) -> None:
        from PySide6.QtWidgets import QInputDialog  # not before the first frame
        from app.games.patience.deals import DEALS, check_deal
        controller = self._controller()
        if solitaire_door(controller) is None:
            return
        text, chosen = QInputDialog.getText(self._window, "Deal number", f"Deal number (1 to {DEALS}):")
        if not chosen:
            return
        try:
            deal = check_deal(text)
        except ValueError as error:
            self._say(str(error)[:1].upper() + str(error)[1:] + ".")
            return
        self.new_deal(deal)

    # -- background jobs ----------------------------------------------------------------------------------------
    def _run(self, kind: str, job: Callable[[], Any], context: Any) -> None:
        self._job = (kind, self._pool.submit(job), context)
        self._thinking(True)
        self._poll.start()
        self.refresh()

    def busy(self) -> bool:
        return self._job is not None

    def _check_job(self) -> None:
        if self._job is None:
            self._poll.stop()
            return
        kind, future, context = self._job
        if kind == "solve":
            self._show_progress()
        if not future.done():
            return
        self._job = None
        self._poll.stop()
        self._thinking(False)
        try:
            answer = future.result()
        except Exception as error:  # noqa: BLE001 - a failed search is said, never a crash
            self._say(f"The {kind} could not be worked out: {str(error)[:200]}")
            self.refresh()
            return
        if kind == "hint":
            self._hint_arrived(answer, context)
        else:
            self._solved(answer, context)
        self.refresh()

    def stop(self) -> None:
        """Drop any job (the window closes, or another game starts)."""
        self._stop.set()
        if self._job is not None:
            self._thinking(False)
        self._job = None
        self._poll.stop()
        if self.solve_box is not None:
            self.solve_box.close()
            self.solve_box = None

    def shutdown(self) -> None:
        self.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- hints --------------------------------------------------------------------------------------------------
    def hint(self) -> None:
        """Ask for a hint about the seat at the screen's position (its own view only), off the window's thread."""
        controller = self._controller()
        door = solitaire_door(controller)
        if door is None or controller is None or controller.outcome is not None or self._job is not None:
            return
        seat = controller.screen_seat
        if seat is None:
            return
        view = copy.deepcopy(controller.views[seat])  # the window goes on changing its own while the hint thinks
        self._stop = threading.Event()  # each job its own: a job dropped keeps its stop set while the next one runs
        stop = self._stop.is_set
        self.last_hint = ""
        self._say("Thinking of a hint…")
        self._run("hint", lambda: door.hint(view, HINT_SECONDS, stop), (controller, controller.game.ply))

    def _hint_arrived(self, answer: Any, context: Any) -> None:
        controller: GameController = context[0]
        ply: int = context[1]
        if controller is not self._controller() or controller.game.ply != ply or controller.outcome is not None:
            self._say("")
            return  # the game moved on: the hint was about a position that is gone
        action, words = answer
        if action is None:
            self.last_hint = f"Hint: {words}."
        else:
            said = controller.presenter.describe_action(action.to_json())
            self.last_hint = f"Hint: {said} ({words})."
        self._say(self.last_hint)

    # -- the solver ---------------------------------------------------------------------------------------------
    def solve(self, seconds: float = SOLVE_SECONDS) -> None:
        """After the game: the best score of the deal knowing every card, with its progress shown."""
        controller = self._controller()
        door = solitaire_door(controller)
        if door is None or controller is None or controller.outcome is None or self._job is not None:
            return
        from PySide6.QtWidgets import QMessageBox  # not before the first frame
        options = dict(controller.game.options())
        latest: list[Any] = [None]  # the search's last progress, written by the worker, read by the poll
        self._stop = threading.Event()  # each job its own (see hint)
        stop = self._stop.is_set
        box = QMessageBox(QMessageBox.Icon.Information, "Solving the deal", "Starting…",
                          QMessageBox.StandardButton.Cancel, self._window)
        box.rejected.connect(self._stop.set)
        box.open()
        self.solve_box = box
        self.progress_text = ""
        self._latest = latest
        def progress(state: Any) -> None:
            latest[0] = state
        self._run("solve", lambda: door.solve(options, seconds, progress, stop), options)

    def _show_progress(self) -> None:
        progress = self._latest[0]
        if progress is None or self.solve_box is None:
            return
        best = "none yet" if progress.best is None else str(progress.best)
        self.progress_text = (f"Searching every order of play knowing every card: {progress.nodes} positions in "
                              f"{progress.seconds:.0f} s; best score so far: {best}.")
        self.solve_box.setText(self.progress_text)

    def _solved(self, answer: Any, options: Any) -> None:
        from PySide6.QtWidgets import QMessageBox  # not before the first frame
        solution, record = answer
        self.last_solution = solution
        if self.solve_box is not None:
            self.solve_box.done(0)
            self.solve_box = None
        words = solution.words()
        text = f"Knowing every card: {words} ({solution.nodes} positions, {solution.seconds:.1f} s)."
        self._say(text)
        buttons = QMessageBox.StandardButton.Ok
        box = QMessageBox(QMessageBox.Icon.Information, "Could this deal be won?", text, buttons, self._window)
        if record is not None:
            step = box.addButton("Step through the line", QMessageBox.ButtonRole.ActionRole)
            step.clicked.connect(lambda: self._open_replay(record))
        self.solution_record = record
        box.open()
        self.solve_box = None
        self.result_box = box

    # -- statistics ---------------------------------------------------------------------------------------------
    def game_over(self, controller: GameController, outcome: Outcome) -> None:
        """Count a finished game of a person (once: the record's start and deal name it)."""
        door = solitaire_door(controller)
        if door is None:
            return
        players = controller.session.record.players
        if not players or players[0].kind != "human":
            return
        from app.games.patience.statistics import record_game
        record = controller.session.record
        identity = f"{record.started}/{record.chance_seed}/{controller.game.options().get(door.deal_option)}"
        won = outcome.winner == 0 and outcome.score is not None
        record_game(controller.variant, won, None if outcome.score is None else int(outcome.score), identity,
                    report=self._say)

    def show_statistics(self) -> None:
        from app.ui.solitaire_statistics import StatisticsDialog  # not before the first frame
        box = StatisticsDialog(self._window)
        box.open()
        self.statistics_box = box

