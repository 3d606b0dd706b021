"""Neighbour Chess Solitaire in the window: a game by buttons and clicks (add, a square picked for a piece whose
square was taken, stop, a move on the board, undo), the one-seat clock showing the time taken, no curtain."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.neighbour.state import State  # noqa: E402

SHOTS = os.environ.get("NEIGHBOUR_SHOTS", "")
"""A folder to save screenshots in while the test runs (to look at the window as a player would); empty: none."""


def shot(window: Any, name: str) -> None:
    if SHOTS:
        window.grab().save(os.path.join(SHOTS, f"neighbour-{name}.png"))


def click_square(window: Any, qtbot: Any, name: str) -> None:
    square = chess.parse_square(name)
    cell = (chess.square_file(square), chess.square_rank(square))
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell).center())


def test_a_game_by_buttons_and_clicks(window: Any, qtbot: Any) -> None:
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController("neighbour", [SeatConfig("Player")], TimeControl(None, 0), {"deal": "2"},
                                parent=window)
    window._install(controller)
    game = controller.game
    assert controller.curtain_for is None
    shot(window, "start")
    while game.state.stage in ("add", "place") and game.state.added < 4:
        before = game.ply
        if game.state.stage == "place":
            click_square(window, qtbot, chess.square_name(game.state.candidates[0]))
        else:
            controller.act_on_command("add")
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
    shot(window, "added")
    if game.outcome is None:
        before = game.ply
        controller.act_on_command("stop")
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
    if game.outcome is None:
        frm, to = next((f, t) for f, t in __import__("app.games.neighbour.search", fromlist=["board_moves"])
                       .board_moves(game.state.board))
        before = game.ply
        click_square(window, qtbot, chess.square_name(frm))
        click_square(window, qtbot, chess.square_name(to))
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
        assert game.state.moves == 1
        shot(window, "moved")
    if game.outcome is None:
        before = game.ply
        controller.act_on_command("undo")
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
        assert game.state.moves == 0
    assert any("Turned the" in line for line in controller.log())
    assert isinstance(game.truth(), State)
