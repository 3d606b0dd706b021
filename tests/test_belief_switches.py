"""The belief panel's switches (Ghosts, Heat map, Count) belong to a seat: in hot-seat the other player never
inherits them, they are saved and resumed with the game, and a new game starts with them off."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402

import chess  # noqa: E402
import pytest  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.engine.record import GameRecord, RecordError, notes_at  # noqa: E402
from app.ui.belief_panel import BeliefPanel, BeliefSwitches, SeatBelief  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402

HOT_SEAT_RBC = NewGame("rbc", False, "random", "medium", 0, TimeControl(900, 5), "50-move")


def _boxes(panel: BeliefPanel) -> tuple[bool, bool, bool]:
    return panel.overlay_box.isChecked(), panel.heat_box.isChecked(), panel.count_box.isChecked()


def _white_turns_everything_on_and_moves(window) -> None:
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    assert controller.screen_seat == 0
    panel.overlay_box.setChecked(True)
    panel.heat_box.setChecked(True)
    panel.count_box.setChecked(True)
    controller.sense((4, 6))
    controller.move((4, 1), (4, 3), None)
    assert controller.curtain_for == 1


def test_the_next_player_does_not_inherit_the_switches(window) -> None:
    window.start(HOT_SEAT_RBC)
    controller, panel = window.controller, window.belief_panel
    _white_turns_everything_on_and_moves(window)
    assert _boxes(panel) == (False, False, False)  # behind the curtain: nobody's switches
    controller.lift_curtain()
    assert controller.screen_seat == 1
    assert _boxes(panel) == (False, False, False)  # Black does not learn what White used
    panel.count_box.setChecked(True)
    controller.sense((4, 3))
    controller.move((4, 6), (4, 4), None)
    controller.lift_curtain()
    assert controller.screen_seat == 0
    assert _boxes(panel) == (True, True, True)  # White finds its own again
    controller.sense((4, 4))
    controller.move((6, 0), (5, 2), None)
    controller.lift_curtain()
    assert _boxes(panel) == (False, False, True)


def test_the_switches_are_saved_and_resumed_with_the_game(window) -> None:
    window.start(HOT_SEAT_RBC)
    _white_turns_everything_on_and_moves(window)
    window.controller.lift_curtain()
    window.belief_panel.count_box.setChecked(True)
    record = GameRecord.from_json(json.loads(json.dumps(window.controller.session.snapshot().to_json())))
    assert notes_at(record, 0).switches == {"ghosts": True, "heat_map": True, "count": True}
    assert notes_at(record, 1).switches == {"ghosts": False, "heat_map": False, "count": True}
    window.start(HOT_SEAT_RBC)  # another game in between: it starts with every switch off
    window.controller.lift_curtain()
    assert _boxes(window.belief_panel) == (False, False, False)
    assert window.resume_record(record)
    controller, panel = window.controller, window.belief_panel
    controller.lift_curtain()
    assert controller.screen_seat == 1 and _boxes(panel) == (False, False, True)
    controller.sense((4, 3))
    controller.move((4, 6), (4, 4), None)
    controller.lift_curtain()
    assert controller.screen_seat == 0 and _boxes(panel) == (True, True, True)


def test_a_new_game_starts_with_the_switches_off(window) -> None:
    window.start(NewGame("blind", True, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    window.controller.lift_curtain()
    panel = window.belief_panel
    panel.overlay_box.setChecked(True)
    panel.heat_box.setChecked(True)
    window.start(NewGame("blind", True, "random", "medium", 0, TimeControl(900, 5), "50-move"))
    window.controller.lift_curtain()
    assert _boxes(panel) == (False, False, False)


def test_old_and_damaged_switch_notes() -> None:
    from app.games.blind.rules import BlindChess
    from app.engine.record import GameSession
    from app.ui.game_controller import GameController
    session = GameSession(BlindChess(), TimeControl(900, 5))
    data = session.snapshot().to_json()
    old = GameController.from_record(GameRecord.from_json(data))  # a file from before the switches
    assert old.belief_for(0).switches == BeliefSwitches()
    data["notes"] = [{"seat": 0, "step": 0, "switches": {"ghosts": True, "heat_map": "yes", "what": 1}}]
    damaged = GameController.from_record(GameRecord.from_json(data))
    assert damaged.belief_for(0).switches == BeliefSwitches(ghosts=True)  # an unreadable switch is off
    data["notes"] = [{"seat": 0, "step": 0, "switches": [True]}]
    with pytest.raises(RecordError, match="'switches' must be an object or null"):
        GameRecord.from_json(data)


def test_the_panel_writes_a_flip_to_the_seat_shown(qtbot) -> None:
    panel = BeliefPanel()
    qtbot.addWidget(panel)
    flips: list[str] = []
    white = SeatBelief(enemy=chess.BLACK, on_switches_changed=lambda: flips.append("white"))
    black = SeatBelief(enemy=chess.WHITE, switches=BeliefSwitches(count=True),
                       on_switches_changed=lambda: flips.append("black"))
    panel.set_belief(white)
    panel.heat_box.setChecked(True)
    assert white.switches == BeliefSwitches(heat_map=True) and flips == ["white"]
    panel.set_belief(black)  # showing a seat's switches is not a flip
    assert _boxes(panel) == (False, False, True) and flips == ["white"]
    assert white.switches == BeliefSwitches(heat_map=True)
    from app.engine.belief import BeliefBoard
    panel.set_belief(BeliefBoard(enemy=chess.WHITE))  # nobody's board (behind the curtain): every switch off
    assert _boxes(panel) == (False, False, False) and black.switches == BeliefSwitches(count=True)
    panel.overlay_box.setChecked(True)  # a flip on nobody's board belongs to nobody
    assert flips == ["white"] and black.switches == BeliefSwitches(count=True)
