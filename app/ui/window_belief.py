"""The main window's belief board: the dock made for the first game with hidden pieces, fed with the view of the
person at the screen (nobody's behind the curtain), the inference service's heat map and position count for that
seat, and the overlay of the seat's guesses on the game's board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from app import games
from app.ui.board_widget import BoardWidget
from app.ui.seat_screen import PrivateSurfaces, SeatScreen
from app.ui.settings import THEME_NAMES, setting_choice
from app.ui.window_common import DOCK_WIDTH

if TYPE_CHECKING:
    from app.ui.belief_panel import BeliefPanel
    from app.ui.game_controller import GameController
    from app.ui.inference_service import InferenceService




class BeliefHost(Protocol):
    """What the belief board reads of the window: its game, whose marks the board holds now, and whether the
    board shows the true position or a past moment (no overlay of today's guesses on either)."""

    controller: GameController | None
    _shown_seat: int | None
    _truth_shown: bool
    _looking_back: bool


class BeliefDock:
    """The belief board of ``window`` (``host``: the same window, as the belief board sees it), drawn over the
    game's ``board``; its dock goes under ``panel_dock`` and its toggle into ``view_menu``."""

    def __init__(self, window: QMainWindow, host: BeliefHost, board: BoardWidget, panel_dock: QDockWidget,
                 private: PrivateSurfaces) -> None:
        self._window = window
        self._host = host
        self._board = board
        self._panel_dock = panel_dock
        self._private = private
        self.view_menu: QMenu | None = None  # View: the dock's toggle goes there when it is made
        self.panel: BeliefPanel | None = None  # made for the first game with hidden pieces
        self.dock: QDockWidget | None = None
        self.auto_hidden = False
        self._fed: tuple[int, int | None, int] | None = None  # (game, seat, observations) the panel last saw
        self.inference: InferenceService | None = None

    def new_game(self, controller: GameController) -> None:
        """A new game in the window: the last game's inference stops; this one's starts if it offers any."""
        self.shutdown()
        if self.inference is not None:
            self.inference.deleteLater()
            self.inference = None
        if games.get(controller.variant).inference is not None and controller.inference_allowed:
            # Not before the first frame: the inference worker loads with the first game that has it.
            from app.inference_jobs import WINDOW_OPTIONS
            from app.ui.inference_service import InferenceService
            options = {**WINDOW_OPTIONS, "seed": controller.seed, "start_fen": controller.game.options().get("fen")}
            self.inference = InferenceService(controller.variant, options, self._window)
            self.inference.ready.connect(self._inference_ready)
        self._fed = None

    def shutdown(self) -> None:
        if self.inference is not None:
            self.inference.shutdown()

    def prepare(self, wanted: bool) -> None:
        """Make the belief dock for the first game with hidden pieces; put it away for MinitChess."""
        if not wanted:
            if self.dock is not None and self.dock.isVisible():
                self.dock.hide()
                self.auto_hidden = True
            return
        if self.dock is None:
            self._make_dock()
        elif self.auto_hidden:
            self.dock.show()
        self.auto_hidden = False

    def _make_dock(self) -> None:
        # Not before the first frame: the belief panel loads the belief kit, with the first game that has it.
        from app.ui.belief_panel import BeliefPanel
        window = self._window
        panel = BeliefPanel()
        panel.board.set_theme(setting_choice(QSettings(), "view/theme", THEME_NAMES, "brown"))  # as the game's board
        dock = QDockWidget("Belief board", window)
        dock.setObjectName("beliefDock")
        dock.setWidget(panel)
        if not window.restoreDockWidget(dock):
            window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            # Under the game panel, sharing the height so that the log keeps several lines in sight.
            window.resizeDocks([self._panel_dock, dock], [window.height() // 2, window.height() // 2],
                               Qt.Orientation.Vertical)
            window.resizeDocks([self._panel_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
            dock.show()  # resizing leaves a dock not yet laid out hidden until the next event loop turn
        panel.hypothesesChanged.connect(self._belief_changed)
        panel.overlayToggled.connect(lambda _on: self.apply_overlay())
        panel.heatMapToggled.connect(lambda _on: self.apply_overlay())
        if self.view_menu is not None:
            self.view_menu.addAction(dock.toggleViewAction())
        self.panel, self.dock = panel, dock
        self._private.add("belief", self.show)

    def show_again(self) -> None:
        """The window closes: a dock put away only because the last game was MinitChess is shown again, so that
        the next RBC or Blind Chess game finds it (the layout is saved with it)."""
        if self.auto_hidden and self.dock is not None:
            self.dock.show()

    @staticmethod
    def offered(controller: GameController | None) -> bool:
        """Whether the game offers its people the belief board (its presenter lists the panel)."""
        from app.games.presenter import BELIEF_PANEL  # the game code loads with the first game, not before
        return controller is not None and BELIEF_PANEL in controller.presenter.panels()

    def show(self, screen: SeatScreen) -> None:
        """The belief board of the person at the screen; nobody's (empty, every switch off) behind the curtain,
        for a bot's seat, and while a game without the belief board is played."""
        panel, controller, seat = self.panel, self._host.controller, screen.seat
        if panel is None:
            return
        if controller is None or seat is None or not self.offered(controller) or controller.seats[seat].is_bot:
            fed: tuple[int, int | None, int] = (id(controller), None, 0)
            if fed != self._fed:
                self._fed = fed
                if controller is not None and self.offered(controller):
                    panel.show_nobody(screen.view, controller.variant)
                else:
                    panel.show_nobody()  # a view of the game it showed last, that knows nothing
        else:
            fed = (id(controller), seat, controller.seen(seat))
            if fed != self._fed:
                white = not games.get(controller.variant).seats[seat].flipped  # the belief kit's games are chess
                if self._fed is None or self._fed[:2] != fed[:2]:
                    panel.set_view(screen.view, white, controller.variant)
                    panel.set_belief(controller.belief_for(seat))  # another seat: its own board and switches
                else:
                    panel.set_view(screen.view, white, controller.variant)  # the same seat learnt more
                self._fed = fed
                self.show_heat(seat)
        self.apply_overlay()

    def request_inference(self) -> None:
        """Each person's seat asks for the summary of what it now knows (computed in the worker)."""
        controller, service = self._host.controller, self.inference
        if controller is None or service is None:
            return
        for seat, config in enumerate(controller.seats):
            if not config.is_bot:
                service.request(seat, list(controller.game.observations(seat)[:controller.seen(seat)]))

    def _inference_ready(self, seat: int, _summary: object) -> None:
        if seat == self._host._shown_seat:
            self.show_heat(seat)

    def show_heat(self, seat: int) -> None:
        """The heat map and position count of the seat at the screen (never another seat's)."""
        panel, service, controller = self.panel, self.inference, self._host.controller
        if panel is None or controller is None or seat != self._host._shown_seat:
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
            return self.apply_overlay()
        note = "" if summary.heat_exact or summary.problem else (
            "Heat map estimated from a sample; a square is left blank only where no possible position puts a piece")
        # Guesses are checked against the possible positions: these are of the seat's current observations.
        panel.set_heat(summary.squares, summary.count_text(), by_type=summary.by_type, heat_note=note,
                       possible=None if summary.problem else summary.possible_by_type)
        self.apply_overlay()

    def _belief_changed(self) -> None:
        host = self._host
        if host.controller is not None and host._shown_seat is not None:
            host.controller.belief_changed(host._shown_seat)
        self.apply_overlay()

    def apply_overlay(self) -> None:
        host, board = self._host, self._board
        if self.panel is not None and self.offered(host.controller) and host._shown_seat is not None \
                and not host._truth_shown and not host._looking_back:
            self.panel.apply_overlay(board)
        else:
            board.set_ghosts({})
            board.set_flags({})
            board.set_heat(None)
