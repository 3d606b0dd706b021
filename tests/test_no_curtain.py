"""A hot-seat game in which nothing is hidden (MinitChess, Gravity Chess): no curtain at any point; the screen passes
to the next person as the turn does, and their clock starts then, as on a chess clock. Games with hidden
information keep the curtain (tests/test_end_of_turn.py, tests/test_curtain_leaks.py)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt

from app import games
from app.engine.clock import TimeControl


def _click(window: Any, qtbot: Any, file: int, rank: int) -> None:
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect((file, rank)).center())


def _hot_seat(window: Any, key: str, end_of_turn: str = "moment") -> Any:
    from app.ui.new_game_dialog import NewGame
    QSettings().setValue("play/end_of_turn", end_of_turn)  # the moment before the curtain: not needed here
    window.start(NewGame(key, False, "random", "medium", 0, TimeControl(300, 0), "50-move"))
    return window.controller


@pytest.mark.parametrize("end_of_turn", ["moment", "button", "at once"])
def test_minit_at_one_screen_by_clicks_has_no_curtain(window: Any, qtbot: Any, end_of_turn: str) -> None:
    from app.ui.game_controller import NO_CURTAIN
    controller = _hot_seat(window, "minit", end_of_turn)
    clock = controller.session.clock
    assert controller.curtain_for is None and not window.curtain.isVisible() and not controller.curtained
    assert controller.screen_seat == 0 and clock.running == 0  # White's clock runs from the start
    assert NO_CURTAIN in window.panel.log.toPlainText()  # said once, plainly
    for mover, (start, end) in enumerate([((1, 1), (1, 2)), ((1, 4), (1, 3)), ((2, 1), (2, 2))]):
        seat = mover % 2
        assert controller.screen_seat == seat and controller.game.to_move == seat
        _click(window, qtbot, *start)
        _click(window, qtbot, *end)
        assert controller.game.to_move == 1 - seat, f"move {mover + 1} was not played by clicks"
        # No curtain, no end-of-turn moment: the next person is at the screen and their clock runs.
        assert controller.curtain_for is None and controller.passing_to is None and not window.curtain.isVisible()
        assert controller.screen_seat == 1 - seat and clock.running == 1 - seat
        assert "pass the screen" not in window.status.text()
    assert window.panel.log.toPlainText().count(NO_CURTAIN) == 1


def test_gravity_at_one_screen_has_no_curtain_and_resumes_without_one(window: Any, qtbot: Any) -> None:
    from app.engine.record import GameRecord
    from app.ui.game_controller import GameController
    controller = _hot_seat(window, "gravity")
    assert controller.curtain_for is None and controller.screen_seat == 0
    assert controller.session.clock.running == 0 and not window.curtain.isVisible()
    record = GameRecord.from_json(controller.session.record.to_json())
    window._install(GameController.from_record(record, parent=window))  # a saved hot-seat game, continued
    again = window.controller
    assert again.curtain_for is None and again.screen_seat == 0 and again.session.clock.running == 0
    assert not window.curtain.isVisible()


def test_a_game_with_hidden_information_keeps_its_curtain(window: Any) -> None:
    controller = _hot_seat(window, "blind", "at once")
    assert controller.curtained and controller.curtain_for == 0 and window.curtain.isVisible()
    assert controller.session.clock.running is None  # the first clock starts when the curtain lifts


@pytest.mark.parametrize("key", [game.key for game in games.all() if not game.hidden_information])
def test_a_game_without_hidden_information_marks_nothing_private(key: str) -> None:
    """The curtain is left out because the definition says nothing is hidden: then nothing may be marked private
    to one seat (a zone of its own, a face only it sees), at the start or along a game of random choices."""
    from app.bots.base import ActionRequest
    from app.games.presenter import presenter_for
    definition = games.get(key)
    game = definition.referee().create({}, seed=7)
    presenter = presenter_for(key)
    bots = [dict(definition.bots)["random"]()(seed=seat) for seat in range(len(definition.seats))]
    told = [0] * len(bots)
    for seat, bot in enumerate(bots):
        bot.start(seat, game.options())
    for _turn in range(40):
        for seat, bot in enumerate(bots):
            observations = game.observations(seat)
            view = definition.view().from_observations(observations)
            assert not any(zone.private for zone in presenter.scene(view).zones), (key, seat, game.ply)
            for observation in observations[told[seat]:]:
                bot.observe(observation)
            told[seat] = len(observations)
        mover = game.to_move
        if mover is None:
            break
        game.play(mover, bots[mover].act(ActionRequest(mover, game.phase, game.choices())))
