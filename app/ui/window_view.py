"""The main window's remembered View and play choices: board theme, piece set, piece animation, how a square is
picked, how a turn ends at one computer. Each choice is stored in the settings and given to every board it
concerns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow

from app.ui.board_widget import SENSE_CONFIRM, BoardWidget
from app.ui.pieces import PIECE_SETS, set_piece_set
from app.ui.settings import ANIMATION, THEME_NAMES, glide_ms_for, setting_choice

if TYPE_CHECKING:
    from app.ui.game_controller import GameController

END_OF_TURN = ("moment", "button", "at once")
"""How a turn ends at one computer (View > End of turn): the mover sees what came of it for a moment, or until
"Pass the screen" is pressed, or the curtain falls at once (the controller's ``end_of_turn``)."""
END_OF_TURN_DEFAULT = "moment"

SENSE_CONFIRM_DEFAULT = "one click"
"""View > Picking a square: how every pick of a square on the board is made (RBC's sense, a removal, a Split-Brain
pick, a checker to uncloak, a pawn's drop). One click does it, as every prompt says, unless the player asked for a
confirmation (a second click on the same square, or holding the button down)."""


class ViewChoices:
    """The View menu's choices for the boards of ``window``: the game's ``board``, the belief board (when there
    is one) and those of the window's open replays."""

    def __init__(self, window: QMainWindow, board: BoardWidget, belief_board: Callable[[], BoardWidget | None],
                 controller: Callable[[], GameController | None]) -> None:
        self._window = window
        self._board = board
        self._belief_board = belief_board
        self._controller = controller

    def restore(self, settings: QSettings, sense_default: str = SENSE_CONFIRM_DEFAULT) -> None:
        """Put back the theme, piece set, animation and way of picking squares of the last session; anything
        unreadable or unknown gives the default."""
        board = self._board
        board.set_theme(setting_choice(settings, "view/theme", THEME_NAMES, "brown"))
        set_piece_set(setting_choice(settings, "view/pieces", tuple(PIECE_SETS), "cburnett"))
        board.set_glide_ms(glide_ms_for(setting_choice(settings, "view/animation", ANIMATION, "glide")))
        board.set_sense_confirmation(setting_choice(settings, "play/sense_confirm", SENSE_CONFIRM, sense_default))

    def boards(self) -> list[BoardWidget]:
        """Every board the window shows: the game's, the belief board's, and those of its open replays."""
        boards = [self._board]
        belief = self._belief_board()
        if belief is not None:
            boards.append(belief)
        for child in self._window.findChildren(QMainWindow):  # replays (the rules windows have no board)
            board = getattr(child, "board", None)
            if isinstance(board, BoardWidget):
                boards.append(board)
        return boards

    def theme(self, name: str) -> None:
        """View > Board theme: every board of the window takes it (the game's, the belief board, open replays)."""
        if name not in THEME_NAMES:
            return
        QSettings().setValue("view/theme", name)
        for board in self.boards():
            board.set_theme(name)

    def piece_set(self, name: str) -> None:
        if name not in PIECE_SETS:
            return
        set_piece_set(name)
        self._board.update()
        QSettings().setValue("view/pieces", name)

    def animation(self, name: str) -> None:
        QSettings().setValue("view/animation", name)
        self._board.set_glide_ms(glide_ms_for(name))
        belief = self._belief_board()
        if belief is not None:
            belief.set_glide_ms(glide_ms_for(name))

    def sense_confirm(self, how: str) -> None:
        QSettings().setValue("play/sense_confirm", how)
        self._board.set_sense_confirmation(how)

    def end_of_turn(self, name: str) -> None:
        QSettings().setValue("play/end_of_turn", name)
        controller = self._controller()
        if controller is not None:
            controller.end_of_turn = name
