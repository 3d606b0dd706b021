"""The belief board's inference in the window: heat map and count per seat, off the UI thread, privacy, the
new-game option that switches it off."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402



def _fresh(window, seat):
    service = window.inference
    return service.summaries.get(seat) is not None and not service.pending(seat)


def test_the_heat_map_follows_what_the_seat_knows(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert "1 position possible" in panel.status_label.text()  # White knows Black's start
    assert window.board.heat()[(4, 6)] == pytest.approx(1.0)  # e7: certainly a pawn there
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller.lift_curtain()  # Black at the screen: its own inference, never White's
    assert window.board.heat() == {} or window.inference.summaries.get(1) is not None
    qtbot.waitUntil(lambda: _fresh(window, 1), timeout=20000)
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    assert "21 positions possible" in panel.status_label.text()  # White's 20 first moves and the pass
    assert 0 < window.board.heat()[(4, 3)] < 1  # e4: one of the 21
    controller.sense((4, 3))  # the sense sees the pawn on e4: one position is left
    qtbot.waitUntil(lambda: _fresh(window, 1) and "1 position" in panel.status_label.text(), timeout=20000)
    assert window.board.heat()[(4, 3)] == pytest.approx(1.0)


def test_the_heat_map_is_put_away_behind_the_curtain(window, qtbot) -> None:
    window.start(NewGame("blind", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert window.board.heat()
    controller.move((4, 1), (4, 3), None)
    assert controller.curtain_for == 1
    assert window.board.heat() == {} and panel.shown_heat() is None and panel.status_label.text() == ""


def test_inference_can_be_switched_off_for_a_game(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move", inference=False))
    window.controller.lift_curtain()
    panel = window.belief_panel
    assert window.inference is None
    assert not panel.heat_box.isEnabled() and not panel.count_box.isEnabled()
    assert "switched off" in panel.heat_box.toolTip()
    assert window.controller.session.record.extra["inference"] is False
    panel.place_piece(chess.E5, chess.PAWN)  # the belief board itself still works
    assert panel.belief().pieces() == {chess.E5: chess.PAWN}


def _finished_rbc_record():
    import random

    from app.engine.core import Resign
    from app.games.rbc.rules import MoveAction, ReconChess, Sense
    from app.engine.record import GameSession
    rng = random.Random(3)
    game = ReconChess()
    session = GameSession(game, TimeControl(900, 5))
    for _ in range(6):
        seat = game.to_move
        session.play(seat, Sense(rng.randrange(64)))
        session.play(seat, MoveAction(rng.choice(game.move_actions())))
    session.play(game.to_move, Resign())
    return session.record


@pytest.mark.parametrize("size", [(1000, 680), (760, 520)])
def test_the_replay_viewers_heat_map_text_is_never_cut_off(qtbot, size) -> None:
    from PySide6.QtWidgets import QApplication

    from app.ui.replay_window import ReplayWindow
    replay = ReplayWindow(_finished_rbc_record())
    qtbot.addWidget(replay)
    replay.resize(*size)
    replay.show()
    qtbot.waitExposed(replay)
    replay.heat.setChecked(True)  # on the truth: nothing to infer, so no worker starts
    replay.heat_status.setText("more than 5,000 positions possible (heat map from a sample)")
    QApplication.processEvents()
    assert replay.heat.isVisible() and replay.heat.sizeHint().width() <= replay.heat.width()
    status = replay.heat_status
    assert status.heightForWidth(status.width()) <= status.height()  # every wrapped line has room
    assert "enemy piece" in replay.heat.toolTip()  # what the short label leaves out
    replay.close()


def _black_after_e4(window, qtbot):
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller.lift_curtain()  # Black at the screen, before its sense: it knows only that White moved
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 1), timeout=20000)
    return controller, panel


def test_a_guess_no_possible_position_allows_is_flagged(window, qtbot) -> None:
    controller, panel = _black_after_e4(window, qtbot)
    panel.place_piece(chess.E5, chess.KNIGHT)  # nothing Black was told says so, but no first move puts one there
    panel.place_piece(chess.F3, chess.KNIGHT)  # possible: Ng1-f3
    assert chess.E5 in panel.flags() and chess.F3 not in panel.flags()
    assert "no position that fits what you know" in panel.flags()[chess.E5]
    controller.sense((4, 3))  # new observations: the old positions no longer count until the fresh ones come
    qtbot.waitUntil(lambda: _fresh(window, 1), timeout=20000)
    assert chess.E5 in panel.flags()


def test_estimated_figures_say_so_and_never_hide_a_possible_piece(window, qtbot, monkeypatch) -> None:
    import app.inference_jobs
    monkeypatch.setattr(app.inference_jobs, "WINDOW_OPTIONS", {"cap": 4, "expansion_limit": 8})
    controller, panel = _black_after_e4(window, qtbot)  # 21 positions: more than the 4 kept
    text = panel.status_label.text()
    assert "between" in text and "estimate" in text and "Heat map estimated from a sample" in text
    heat = window.board.heat()
    assert heat[(4, 3)] > 0  # e4, where White's pawn truly stands, is never shown as impossible
    assert heat.get((4, 4), 0) == 0  # e5: no first move of White's reaches it


def test_no_heat_map_is_shown_from_older_observations(window, qtbot) -> None:
    # After an opponent turn an old map's blank squares may hold pieces: nothing is drawn until the fresh one.
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert window.board.heat()
    controller.sense((3, 6))
    controller.move((4, 1), (4, 3), None)
    controller.lift_curtain()
    controller.sense((4, 4))
    controller.move((4, 6), (4, 4), None)
    controller.lift_curtain()  # White again: Black has moved since White's last map
    assert window.inference.pending(0)
    assert window.board.heat() == {} and panel.shown_heat() is None
    assert "updating" in panel.status_label.text()
    qtbot.waitUntil(lambda: _fresh(window, 0) and bool(window.board.heat()), timeout=20000)


def test_no_heat_map_is_drawn_over_the_true_position_after_the_game(window, qtbot) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    panel.heat_box.setChecked(True)
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)
    assert window.board.heat()
    controller.resign()  # the game is over: the true position is shown
    qtbot.waitUntil(lambda: _fresh(window, 0), timeout=20000)  # whatever the inference answers after the end
    panel.heat_box.setChecked(False)
    panel.heat_box.setChecked(True)  # and the heat map asked for again, on the true position
    qtbot.wait(100)
    assert window.panel.truth_button.isVisible() and window.board.heat() == {} and window.board.ghosts() == {}
    window.panel.truth_button.click()  # back to what the seat saw: its heat map again
    qtbot.waitUntil(lambda: bool(window.board.heat()), timeout=20000)
