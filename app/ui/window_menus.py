"""The main window's menus: Game (new, open, host or join a network game, save, export, review, resign, quit), View (the board, the remembered
choices, sound, looking back at one's moves, the panels) and Help; and which of the game's actions may be used
now."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from app import games
from app.ui.board_widget import SENSE_CONFIRM, BoardWidget
from app.ui.pieces import PIECE_SETS
from app.ui.settings import ANIMATION, THEME_NAMES, setting_choice
from app.ui.sounds import Sounds
from app.ui.window_common import make_action
from app.ui.window_exports import GameExports
from app.ui.window_files import GameFiles
from app.ui.window_help import HelpPages
from app.ui.window_view import END_OF_TURN, ViewChoices

if TYPE_CHECKING:
    from app.ui.game_controller import GameController


class MenusHost(Protocol):
    """The window's own commands that its menus call."""

    def new_game(self) -> None: ...

    def quit(self) -> None: ...

    def _command(self, command_id: str) -> None: ...

    def _resign(self) -> None: ...

    def _step(self, how: str) -> None: ...

    def _escape(self) -> None: ...


class WindowMenus:
    """The menu bar of ``window`` (``host``: the same window, as its menus see it), calling the window's
    ``files``, ``exports``, View ``choices`` and ``sounds``. ``defaults`` are the choices checked when none is
    remembered: how a square is picked, how a turn ends at one computer."""

    def __init__(self, window: QMainWindow, host: MenusHost, board: BoardWidget, panel_dock: QDockWidget,
                 files: GameFiles, exports: GameExports, choices: ViewChoices, sounds: Sounds,
                 defaults: tuple[str, str]) -> None:
        self._window = window
        self._host = host
        self._sounds = sounds
        sense_default, end_of_turn_default = defaults
        self.game_actions = self._build_game_menu(files, exports)
        view = window.menuBar().addMenu("&View")
        self.view_menu = view
        flip = QAction("&Flip board", window)
        flip.setShortcut(QKeySequence("F"))
        flip.triggered.connect(board.flip)
        view.addAction(flip)
        coords = QAction("&Coordinates", window)
        coords.setCheckable(True)
        coords.setChecked(True)
        coords.toggled.connect(board.set_coordinates_visible)
        view.addAction(coords)
        # Each menu shows the current choice checked (read when it opens: the settings may be restored later).
        choice_menu(view.addMenu("Board &theme"), THEME_NAMES, choices.theme, "view/theme", "brown")
        choice_menu(view.addMenu("&Piece set"), tuple(PIECE_SETS), choices.piece_set, "view/pieces", "cburnett")
        choice_menu(view.addMenu("Piece &animation"), ANIMATION, choices.animation, "view/animation", "glide",
                    labels={"glide": "Pieces glide to their squares", "off": "Off"})
        choice_menu(view.addMenu("Picking a &square"), SENSE_CONFIRM, choices.sense_confirm, "play/sense_confirm",
                    sense_default, labels={"one click": "One click picks it", "second click": "Click the square twice",
                                           "hold": "Hold the button down on the square"})
        self.sound_menu = self._add_sound_menu(view)
        choice_menu(view.addMenu("&End of turn at one computer"), END_OF_TURN, choices.end_of_turn,
                    "play/end_of_turn", end_of_turn_default,
                    labels={"moment": "Show its result for a moment", "button": "Wait for Pass the screen",
                            "at once": "Pass the screen at once"})
        self.look_back_actions = self._add_look_back_menu(view.addMenu("&Look back at your moves"))
        view.addSeparator()
        view.addAction(panel_dock.toggleViewAction())
        self.help = HelpPages(window, window.menuBar().addMenu("&Help"))

    def _build_game_menu(self, files: GameFiles, exports: GameExports) -> dict[str, QAction]:
        window, host = self._window, self._host
        game = window.menuBar().addMenu("&Game")
        game.addAction(make_action(window, "&New game...", host.new_game, QKeySequence.StandardKey.New))
        game.addAction(make_action(window, "&Open...", files.open_dialog, QKeySequence.StandardKey.Open))
        self.recent_menu = game.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(lambda: files.fill_recent(self.recent_menu))
        self._network_at = game.addSeparator()  # Host and Join go here (add_network)
        self.game_menu = game
        # The actions that depend on the game: enabled by refresh_actions as the game and the curtain change.
        actions: dict[str, QAction] = {
            "save": make_action(window, "&Save", files.save, QKeySequence.StandardKey.Save),
            "save_as": make_action(window, "Save &as...", files.save_as, QKeySequence("Ctrl+Shift+S")),
            # One action per export format any game writes (by its name), enabled for the games that write it.
            **{fmt.name: make_action(window, f"{fmt.label}...", partial(exports.export_dialog, fmt.name))
               for fmt in games.formats()},
            "copy_position": make_action(window, copy_label(None), exports.copy_position),
            "image": make_action(window, "&Board image (PNG or SVG)...", exports.image_dialog),
            "review": make_action(window, "Re&view this game...", files.review, QKeySequence("Ctrl+R")),
            "resign": make_action(window, "&Resign", host._resign),
            "offer_draw": make_action(window, "Offer &draw", lambda: host._command("offer_draw")),
        }
        game.addAction(actions["save"])
        game.addAction(actions["save_as"])
        export = game.addMenu("&Export")
        for name in (*games.format_names(), "copy_position", "image"):
            export.addAction(actions[name])
        for definition in games.all():
            if definition.clipboard is not None:
                game.addAction(make_action(window, definition.clipboard.paste_label,
                                           partial(exports.paste_position, definition.key)))
        game.addAction(actions["review"])
        game.addSeparator()
        game.addAction(actions["resign"])
        game.addAction(actions["offer_draw"])
        game.addSeparator()
        game.addAction(make_action(window, "&Quit", host.quit, QKeySequence.StandardKey.Quit))
        return actions

    def add_network(self, host: Callable[[], None], join: Callable[[], None]) -> None:
        """Game > Host a network game and Join a network game (the window's network part does the work)."""
        window = self._window
        self.network_actions = [make_action(window, "&Host a network game...", host),
                                make_action(window, "&Join a network game...", join)]
        self.game_menu.insertSeparator(self._network_at)
        self.game_menu.insertActions(self._network_at, self.network_actions)

    def _add_look_back_menu(self, menu: QMenu) -> list[QAction]:
        """Stepping through the seat's own past moments (the move list): the keys of every chess GUI. The typing
        field and the board keep these keys while they have the focus."""
        actions = []
        for text, how, key in (("&Previous move", "back", "Left"), ("&Next move", "forward", "Right"),
                               ("&First move", "first", "Home"), ("&Back to the game", "present", "End")):
            action = make_action(self._window, text, partial(self._host._step, how), key)
            menu.addAction(action)
            actions.append(action)
        escape = QAction("Back to the game", self._window)  # Esc too (no menu line of its own; see MainWindow._escape)
        escape.setShortcut(QKeySequence("Esc"))
        escape.triggered.connect(self._host._escape)
        self._window.addAction(escape)
        return actions

    def _add_sound_menu(self, view: QMenu) -> QMenu:
        """View > Sound: mute, and the volume, both remembered."""
        window, sounds = self._window, self._sounds
        menu = view.addMenu("&Sound")
        mute = QAction("&Mute sounds", window)
        mute.setCheckable(True)
        mute.setChecked(sounds.muted)
        mute.toggled.connect(sounds.set_muted)
        menu.addAction(mute)
        menu.addSeparator()
        group = QActionGroup(window)
        for volume in (25, 50, 80, 100):
            action = QAction(f"Volume {volume}%", window)
            action.setCheckable(True)
            action.setChecked(sounds.volume == volume)
            action.triggered.connect(lambda _checked=False, v=volume: sounds.set_volume(v))
            group.addAction(action)
            menu.addAction(action)
        note = QAction("", window)
        note.setEnabled(False)
        menu.addSeparator()
        menu.addAction(note)
        note.setVisible(False)

        def tell_when_silent() -> None:  # the sound system is looked for only when the menu first opens
            if not sounds.sink.available:
                note.setText("No sound: no sound device was found")
                note.setVisible(True)
        menu.aboutToShow.connect(tell_when_silent)
        return menu

    def refresh_actions(self, controller: GameController | None) -> None:
        """Enable only what may be done now: nothing of a seat's own while the curtain is up, no export that the
        game's state or kind refuses, no resigning or draw offers once it is over."""
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
            self.game_actions["copy_position"].setText(copy_label(definition))
            if getattr(controller, "record_kept_elsewhere", False):
                # A seat of a network game: the host keeps the record; this window has only its seat's view.
                # Its host's window reviews the host's record, once written (every seat's moves).
                kept = ("resign", "offer_draw") + (("review",) if getattr(controller, "record_path", None) else ())
                enabled.update({name: False for name in enabled if name not in kept})
        for name, action in self.game_actions.items():
            action.setEnabled(enabled[name])


def choice_menu(menu: QMenu, names: Sequence[str], choose: Callable[[str], None], key: str, default: str,
                labels: dict[str, str] | None = None) -> None:
    """A menu of exclusive choices, the current one (the setting ``key``) checked whenever it opens."""
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


def copy_label(definition: games.GameDefinition | None) -> str:
    """The copy action's words: the game's own, or (a game that copies nothing, or none) the first game's that
    copies a position."""
    if definition is not None and definition.clipboard is not None:
        return definition.clipboard.copy_label
    for other in games.all():
        if other.clipboard is not None:
            return other.clipboard.copy_label
    return "&Copy position"
