"""Neighbour Chess Solitaire in the window: the deal in the title, a game by buttons and clicks (add, a square picked
for a piece whose square was taken, stop, a move on the board), undo and redo from the keys, a hint off the
window's thread, the win counted in the statistics, the solver after the game with its line in the replay viewer.
``NEIGHBOUR_SHOTS=/some/folder`` saves screenshots on the way (to look at the window as a player would)."""

from __future__ import annotations

import os
from typing import Any

import chess
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from app.games.neighbour.search import board_moves
from app.games.neighbour.state import NeighbourAdd, NeighbourPlace
from app.games.patience.statistics import load

SHOTS = os.environ.get("NEIGHBOUR_SHOTS", "")


def shot(window: Any, name: str) -> None:
    if SHOTS:
        window.grab().save(os.path.join(SHOTS, f"neighbour-{name}.png"))


def click_square(window: Any, qtbot: Any, name: str) -> None:
    square = chess.parse_square(name)
    cell = (chess.square_file(square), chess.square_rank(square))
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell).center())


def key(window: Any, sequence: str) -> None:
    wanted = QKeySequence(sequence)
    for action in window.solitaire.actions.values():
        if wanted in action.shortcuts():
            action.trigger()
            return
    raise AssertionError(f"no action on {sequence}")


def deal(window: Any, number: int) -> Any:
    window.solitaire.start_deal("neighbour", {"deal": number})
    assert window.controller is not None
    return window.controller


def test_a_game_by_buttons_clicks_and_keys(window: Any, qtbot: Any) -> None:
    controller = deal(window, 5)
    game = controller.game
    assert window.windowTitle().startswith("Neighbour Chess Solitaire, deal 5")
    assert controller.curtain_for is None
    shot(window, "start")
    while game.state.stage in ("add", "place") and game.state.added < 4:
        before = game.ply
        if game.state.stage == "place":
            click_square(window, qtbot, chess.square_name(game.state.candidates[0]))
        else:
            controller.act_on_command("add")
        qtbot.waitUntil(lambda: game.ply > before, timeout=5000)
    assert game.state.added == 4 and any("which is taken" in line for line in controller.log())
    shot(window, "added")
    controller.act_on_command("stop")
    qtbot.waitUntil(lambda: game.state.stage != "add", timeout=5000)
    assert game.outcome is None
    board = game.state.board

    def after(frm: int, to: int) -> str:
        cells = list(board)
        cells[to], cells[frm] = cells[frm], "."
        return "".join(cells)
    frm, to = next((f, t) for f, t in board_moves(board) if board_moves(after(f, t)))  # one that ends nothing
    click_square(window, qtbot, chess.square_name(frm))
    click_square(window, qtbot, chess.square_name(to))
    qtbot.waitUntil(lambda: game.state.moves == 1, timeout=5000)
    shot(window, "moved")
    assert window.solitaire.actions["undo"].isEnabled()
    key(window, "Ctrl+Z")
    qtbot.waitUntil(lambda: game.state.moves == 0, timeout=5000)
    key(window, "Ctrl+Z")
    qtbot.waitUntil(lambda: game.state.stage == "add", timeout=5000)
    assert not window.solitaire.actions["undo"].isEnabled()  # back to the last card turned
    key(window, "Ctrl+Y")
    qtbot.waitUntil(lambda: game.state.stage == "move", timeout=5000)
    kinds = [entry.action["type"] for entry in controller.session.record.entries]
    assert kinds[-5:] == ["stop", "move", "undo", "undo", "redo"]


def test_a_hint_comes_from_a_worker_and_plays_nothing(window: Any, qtbot: Any) -> None:
    controller = deal(window, 6)
    controller.act(NeighbourAdd())
    key(window, "H")
    assert window.solitaire.busy()
    qtbot.waitUntil(lambda: not window.solitaire.busy(), timeout=15000)
    assert window.solitaire.last_hint.startswith("Hint:")
    assert controller.game.ply == 1


def test_a_won_game_counts_once_and_the_solver_opens_its_line(window: Any, qtbot: Any) -> None:
    controller = deal(window, 6)
    for action in (NeighbourAdd(), NeighbourAdd(), NeighbourAdd(), NeighbourPlace("b4")):  # the best line, 30
        controller.act(action)
    qtbot.waitUntil(lambda: controller.outcome is not None, timeout=5000)
    shot(window, "won")
    assert controller.outcome.score == 30
    stats = load()["neighbour"]
    assert (stats.played, stats.won, stats.best) == (1, 1, 30)
    window._game_over(controller.outcome)
    assert load()["neighbour"].played == 1
    window.solitaire.solve(20)
    qtbot.waitUntil(lambda: window.solitaire.last_solution is not None, timeout=30000)
    assert window.solitaire.last_solution.words() == "best score 30, proven best"
    record = window.solitaire.solution_record
    assert record is not None and record.result.score == 30
    assert window.open_replay(record) is not None
