"""Every bot says in a player's words what it is like at each level, and the new-game dialog shows it (issue 32:
"the bot's strength at each level is shown in the new-game dialog in words a player understands")."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt

from app import games
from app.ui.host_dialog import ELSEWHERE, HostDialog
from app.ui.new_game_dialog import LEVELS, PERSON, NewGameDialog


@pytest.mark.parametrize("key", [definition.key for definition in games.all()])
def test_every_bot_has_words_for_every_level(key: str) -> None:
    definition = games.get(key)
    assert set(definition.bot_words) == {name for name, _ in definition.bots}
    for bot, words in definition.bot_words.items():
        assert set(words) in ({""}, set(LEVELS)), f"{key} {bot}: words for {sorted(words)}"
        for level in LEVELS:
            text = definition.words_for(bot, level)
            assert 20 <= len(text) <= 220 and text.endswith(".")
        if definition.bot_has_levels(bot):
            assert len({definition.words_for(bot, level) for level in LEVELS}) == 3, "each level says its own"


def test_a_game_that_says_nothing_keeps_its_levels() -> None:
    definition = games.get("rbc")
    assert definition.words_for("no such bot", "hard") == ""
    assert definition.bot_has_levels("no such bot")


@pytest.fixture
def fresh_settings(qtbot):  # noqa: ARG001 - qtbot: the shared application
    QCoreApplication.setOrganizationName("SightlineTests")  # the run's scratch settings, as the window fixture
    QCoreApplication.setApplicationName(f"tests-{os.getpid()}")
    QSettings().clear()
    yield
    QSettings().clear()


def test_the_dialog_says_what_the_chosen_bot_is_like(qtbot, fresh_settings) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.game.setCurrentIndex(dialog.game.findData("rbc"))
    black = dialog.seat_rows[1]
    black.who.setCurrentIndex(black.who.findData("belief"))
    black.level.setCurrentIndex(black.level.findData("hard"))
    rbc = games.get("rbc")
    assert dialog.bot_words.text() == f"Belief, hard: {rbc.words_for('belief', 'hard')}"
    assert black.level.itemData(black.level.findData("easy"), Qt.ItemDataRole.ToolTipRole) == \
        rbc.words_for("belief", "easy")
    black.level.setCurrentIndex(black.level.findData("easy"))
    assert dialog.bot_words.text() == f"Belief, easy: {rbc.words_for('belief', 'easy')}"
    # A bot whose level changes nothing: no level to pick, and its words without one.
    black.who.setCurrentIndex(black.who.findData("random"))
    assert not black.level.isEnabled()
    assert dialog.bot_words.text() == f"Random: {rbc.words_for('random', '')}"
    # People only: nothing to say, and the row is hidden.
    black.who.setCurrentIndex(black.who.findData(PERSON))
    assert dialog.bot_words.text() == ""
    assert not dialog._form.isRowVisible(dialog.bot_words)


def test_four_seats_say_each_bot_and_level_once(qtbot, fresh_settings) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.game.setCurrentIndex(dialog.game.findData("telepathy"))
    for row in dialog.seat_rows[1:]:
        row.who.setCurrentIndex(row.who.findData("engine"))
        row.level.setCurrentIndex(row.level.findData("medium"))
    dialog.seat_rows[3].level.setCurrentIndex(dialog.seat_rows[3].level.findData("hard"))
    lines = dialog.bot_words.text().splitlines()
    assert [line.split(":")[0] for line in lines] == ["Engine, medium", "Engine, hard"]


def test_a_seat_played_from_another_computer_has_no_level(qtbot, fresh_settings) -> None:
    dialog = HostDialog()
    qtbot.addWidget(dialog)
    dialog.game.setCurrentIndex(dialog.game.findData("rbc"))
    row = dialog.seat_rows[1]
    row.who.setCurrentIndex(row.who.findData(ELSEWHERE))
    assert not row.level.isEnabled()
    row.who.setCurrentIndex(row.who.findData("belief"))
    assert row.level.isEnabled()
    assert "Belief" in dialog.bot_words.text()
