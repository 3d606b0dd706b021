"""Quitting: Game > Quit and the window's close button (Alt+F4) ask before leaving an unfinished game, with the
answer that loses nothing as the default, and leave no window of Sightline behind to keep the process alive."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QCloseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402


class UserClose(QCloseEvent):
    """A close asked for by the window system (the close button, Alt+F4), as Qt delivers it."""

    def spontaneous(self) -> bool:  # noqa: D102 - read by the window's closeEvent
        return True


def start_hot_seat(window) -> None:
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()


def test_quit_closes_the_rules_windows_too(window) -> None:
    window.help_pages.rules("rbc")
    rules = window.help_pages.last_page
    assert rules.isVisible()
    window.quit()
    assert not window.isVisible()
    assert not rules.isVisible()
    assert not [widget for widget in QApplication.topLevelWidgets()
                if widget.isVisible() and widget.window() is rules]


def test_the_rules_window_opens_on_the_screen(window) -> None:
    window.move(500, 400)  # near a corner of the 800x800 test screen
    window.help_pages.rules("blind")
    area = window.screen().availableGeometry()
    assert area.contains(window.help_pages.last_page.geometry())


def test_quit_and_alt_f4_ask_before_leaving_an_unfinished_game(window) -> None:
    start_hot_seat(window)
    questions: list[str] = []
    answer = [False]
    window._ask = lambda title, text: questions.append(title) or answer[0]
    window.quit()
    assert questions == ["Leave this game?"] and window.isVisible()
    event = UserClose()
    window.closeEvent(event)
    assert not event.isAccepted() and window.isVisible() and len(questions) == 2
    answer[0] = True
    window.quit()
    assert not window.isVisible()


@pytest.mark.parametrize("game", ["none", "finished"])
def test_a_finished_game_or_none_closes_without_a_question(window, game) -> None:
    if game == "finished":
        start_hot_seat(window)
        window.controller.move((1, 1), (1, 2), None)  # a game with moves in it, then over
        window.controller.lift_curtain()
        window.controller.resign()
        assert window.controller.outcome is not None
    window._ask = lambda title, text: (_ for _ in ()).throw(AssertionError(f"asked {title}"))
    window.quit()
    assert not window.isVisible()


def test_closing_from_the_program_does_not_ask(window) -> None:
    start_hot_seat(window)
    window._ask = lambda title, text: (_ for _ in ()).throw(AssertionError(f"asked {title}"))
    window.close()  # the session ends, a test tears down: saved, not asked
    assert not window.isVisible()


def test_leave_and_resign_questions_default_to_no(window, monkeypatch) -> None:
    asked = []

    def question(parent, title, text, buttons=None, default=QMessageBox.StandardButton.NoButton):
        asked.append((title, default))
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    start_hot_seat(window)
    window.new_game()  # "Leave this game?" answered by Enter: the default
    window._resign()
    window.quit()
    assert asked == [("Leave this game?", QMessageBox.StandardButton.No),
                     ("Resign", QMessageBox.StandardButton.No),
                     ("Leave this game?", QMessageBox.StandardButton.No)]
    assert window.isVisible() and window.controller.outcome is None


def test_help_shows_each_game_how_to_play_for_players_first_then_the_full_rules(window) -> None:
    """Every registered game has a page for players (no rule ids, no code words) shown first by Help."""
    import re

    from app import games
    from app.ui.window_help import RULES, rules_text
    for definition in games.all():
        if definition.presenter is None:
            continue  # a rules-only test game
        name = definition.rules_doc or f"{definition.key}.md"
        page = (RULES / "players" / name).read_text(encoding="utf-8")
        assert page.startswith("# ") and "how to play" in page.splitlines()[0].lower(), name
        for word in ("ValueError", "seat 0", "FEN", "reconchess", "python-chess", "ruling"):
            assert word not in page, (name, word)
        assert not re.search(r"\b(RBC-\d+|TP\d|SB\d|CD\d|G\d|M\d)\b", page), name  # no rule ids
        shown = rules_text(name)
        assert shown.startswith(page) and shown.endswith((RULES / name).read_text(encoding="utf-8"))
    window.help_pages.rules("rbc")
    assert "Playing it in Sightline" in window.help_pages.pages["rbc"].toPlainText()
