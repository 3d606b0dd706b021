"""Parade Chess Solitaire in the window: the deal in the title, moves by real clicks, undo and redo from the keys,
a hint off the window's thread, statistics counted once at the end, the solver after the game and its line in the
replay viewer, a chosen deal and a bad deal number."""

from __future__ import annotations

import json
from typing import Any

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from app.games.parade.rules import ParadeMove
from app.games.patience.statistics import load, statistics_path

SOLUTION_OF_2 = [("h4", "e3"), ("a2", "c2"), ("g1", "d2")]  # deal 2's best line (5 points), from the solver


def _click(window: Any, qtbot: Any, name: str) -> None:
    square = chess.parse_square(name)
    rect = window.board.square_rect((chess.square_file(square), chess.square_rank(square)))
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=rect.center())


def _deal(window: Any, number: int) -> Any:
    """A person's game of deal ``number`` (what the new-game dialog starts, or Solitaire > Deal number...)."""
    window.solitaire.start_deal("parade", {"deal": number})
    assert window.controller is not None
    return window.controller


def _key(window: Any, qtbot: Any, sequence: str) -> None:
    """Trigger the window's action that has the shortcut ``sequence`` (as the key press would)."""
    wanted = QKeySequence(sequence)
    for action in window.solitaire.actions.values():
        if wanted in action.shortcuts():
            action.trigger()
            return
    raise AssertionError(f"no action on {sequence}")


def test_the_deal_is_in_the_title_and_moves_are_made_by_clicks(window: Any, qtbot: Any) -> None:
    controller = _deal(window, 2)
    assert window.windowTitle().startswith("Parade Chess Solitaire, deal 2")
    assert "deal 2" in window.title.text()
    _click(window, qtbot, "h4")
    _click(window, qtbot, "e3")
    qtbot.waitUntil(lambda: controller.game.ply == 1, timeout=5000)
    assert controller.game.cards_left == 7 and window.solitaire.actions["undo"].isEnabled()
    _key(window, qtbot, "Ctrl+Z")
    qtbot.waitUntil(lambda: controller.game.cards_left == 8, timeout=5000)
    assert window.solitaire.actions["redo"].isEnabled()
    _key(window, qtbot, "Ctrl+Y")
    qtbot.waitUntil(lambda: controller.game.cards_left == 7, timeout=5000)
    assert [entry.action["type"] for entry in controller.session.record.entries] == ["move", "undo", "redo"]


def test_a_hint_comes_from_a_worker_and_names_an_action(window: Any, qtbot: Any) -> None:
    controller = _deal(window, 2)
    _key(window, qtbot, "H")
    assert window.solitaire.busy()  # the window goes on while it thinks, its thinking bar running
    assert window.panel.thinking.isVisibleTo(window.panel)
    qtbot.waitUntil(lambda: not window.solitaire.busy(), timeout=10000)
    assert not window.panel.thinking.isVisibleTo(window.panel)
    assert window.solitaire.last_hint.startswith("Hint: move the piece on")
    assert controller.game.ply == 0  # a hint plays nothing


def test_a_won_game_counts_once_and_the_solver_opens_its_line(window: Any, qtbot: Any) -> None:
    controller = _deal(window, 2)
    assert not window.solitaire.actions["solve"].isEnabled()  # not during the game: it knows every card
    for frm, to in SOLUTION_OF_2:
        controller.act(ParadeMove(frm, to))
    qtbot.waitUntil(lambda: controller.outcome is not None, timeout=5000)
    stats = load()["parade"]
    assert (stats.played, stats.won, stats.best, stats.streak) == (1, 1, 5, 1)
    window._game_over(controller.outcome)  # shown again: still counted once
    assert load()["parade"].played == 1
    assert json.loads(statistics_path().read_text())["games"]["parade"]["won"] == 1
    assert window.solitaire.actions["solve"].isEnabled()
    window.solitaire.solve(20)
    qtbot.waitUntil(lambda: window.solitaire.last_solution is not None, timeout=30000)
    assert window.solitaire.last_solution.words() == "best score 5, proven best"
    record = window.solitaire.solution_record
    assert record is not None and record.result.score == 5
    replay = window.open_replay(record)
    assert replay is not None
    window.solitaire.show_statistics()
    assert "Parade Chess Solitaire" in window.solitaire.statistics_box.table.text()


def test_giving_up_counts_a_lost_game(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    controller = _deal(window, 9)
    monkeypatch.setattr(window, "_ask", lambda *_: True)
    window._resign()
    qtbot.waitUntil(lambda: controller.outcome is not None, timeout=5000)
    stats = load()["parade"]
    assert (stats.played, stats.won, stats.streak, stats.best) == (1, 0, -1, None)


def test_a_chosen_deal_number_and_a_bad_one(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QInputDialog
    _deal(window, 2)
    monkeypatch.setattr(window, "_ask", lambda *_: True)  # leaving the unfinished game is confirmed
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *_args, **_kw: ("4711", True)))
    window.solitaire.choose_deal()
    assert window.controller.game.deal == 4711 and "deal 4711" in window.windowTitle()
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *_args, **_kw: ("0", True)))
    window.solitaire.choose_deal()
    assert window.controller.game.deal == 4711  # nothing started, nothing lost
    assert "a deal number is a whole number" in window.statusBar().currentMessage().lower()


def test_other_games_have_no_solitaire_menu(window: Any) -> None:
    window.solitaire.refresh()
    assert not window.solitaire.menu.menuAction().isVisible()
    assert window.windowTitle() == "Sightline"


def test_the_game_menu_offers_new_deals_and_the_statistics(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game_menu = next(action.menu() for action in window.menuBar().actions() if action.text() == "&Game")
    texts = [action.text() for action in game_menu.actions() if action.isVisible()]
    assert "Solitaire s&tatistics..." in texts and "New &deal" not in texts  # no solitaire in the window yet
    controller = _deal(window, 2)
    texts = [action.text() for action in game_menu.actions() if action.isVisible()]
    assert texts[:4] == ["&New game...", "New &deal", "Deal n&umber...", "Solitaire s&tatistics..."]
    monkeypatch.setattr(window, "_ask", lambda *_: True)  # leaving the unfinished deal is confirmed
    window.solitaire.game_menu_actions["new_deal"].trigger()
    assert window.controller is not controller and window.controller.variant == "parade"
