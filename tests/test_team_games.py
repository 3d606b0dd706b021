"""Every game of four seats in two teams, as the registry lists them: a hot-seat game killed with SIGKILL in the
middle of a team's turn resumes where it was, for every seat, with the team clocks as they were.

The games are found through the registry, so a new team game is checked without naming it here; the Secret
Picks test game (``tests/games/picks``) stands in when the environment names it, as the fixture below does for
the check that the script itself works.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app import games

ROOT = Path(__file__).resolve().parent.parent


def _team_games() -> list[str]:
    return [definition.key for definition in games.all()
            if len(definition.seats) == 4 and len({seat.team for seat in definition.seats}) == 2
            and definition.presenter is not None]


_KILL_ME = """
import json, os, random, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication
from app import games
from app.engine.clock import TimeControl
from app.ui.game_controller import GameController, SeatConfig
from app.ui.main_window import MainWindow


def state(window):
    controller = window.controller
    seats = range(len(controller.seats))
    return {"actions": len(controller.session.record.entries), "phase": controller.game.phase,
            "to_move": controller.game.to_move, "views": [repr(controller.views[seat]) for seat in seats],
            "truth": repr(controller.game.truth()), "chance_seed": controller.session.record.chance_seed,
            "remaining": [controller.session.seconds_left(seat) for seat in seats]}


def flat(choices):
    if isinstance(choices, dict):  # (no draw offers: four random yeses would end the game before the kill)
        return [action for key, actions in choices.items() if key != "offer_draw" for action in flat(actions)]
    return list(choices)


def main():
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineKillTest")
    QCoreApplication.setApplicationName(f"kill-{os.getpid()}")
    window = MainWindow()
    window.show()
    if sys.argv[1] == "play":
        key, steps = sys.argv[2], int(sys.argv[3])
        controller = GameController(key, [SeatConfig(name) for name in games.get(key).seat_names],
                                    TimeControl(600, 5), {}, parent=window)
        window._install(controller)
        chooser = random.Random(7)
        for _ in range(steps):
            controller.lift_curtain()
            assert controller.screen_seat == controller.game.to_move
            controller.act(chooser.choice(flat(controller.game.choices())))
            assert controller.game.outcome is None
        window.flush_autosave()
        print("READY " + json.dumps(state(window)), flush=True)
        return int(app.exec())  # until SIGKILL
    window._pick_unfinished = lambda found: found[0]
    resumed = window.offer_resume()
    print("RESUMED " + json.dumps({"resumed": resumed, **(state(window) if resumed else {})}), flush=True)
    if window.controller is not None:
        window.controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
"""


def _environment(**extra: str) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH", "")]))
    environment.update(extra)
    return environment


def _kill_and_resume(tmp_path: Path, key: str, steps: int, **extra: str) -> tuple[dict, dict]:
    script = tmp_path / "kill_me.py"
    script.write_text(_KILL_ME, encoding="utf-8")
    env = _environment(SIGHTLINE_DATA_DIR=str(tmp_path / "data"), QT_QPA_PLATFORM="offscreen", **extra)
    player = subprocess.Popen([sys.executable, str(script), "play", key, str(steps)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        line = ""
        while not line.startswith("READY"):
            line = player.stdout.readline() if player.stdout else ""
            if not line:
                pytest.fail("the app ended before it was ready: " + (player.stderr.read() if player.stderr else ""))
        before = json.loads(line.split(" ", 1)[1])
    finally:
        player.send_signal(signal.SIGKILL)
        player.wait(timeout=30)
    assert player.returncode == -signal.SIGKILL
    run = subprocess.run([sys.executable, str(script), "resume"], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESUMED")]
    assert lines, run.stderr[-2000:]
    return before, json.loads(lines[0].split(" ", 1)[1])


def _same_but_the_clocks(before: dict, after: dict) -> None:
    assert after.pop("resumed") is True
    remaining_before, remaining_after = before.pop("remaining"), after.pop("remaining")
    assert remaining_after == pytest.approx(remaining_before, abs=1.0)  # the seconds the restart took
    assert remaining_after[0] == remaining_after[1] and remaining_after[2] == remaining_after[3]  # team clocks
    assert after == before  # the same actions, phase, seat to move, every seat's view and the true state


def test_the_script_resumes_the_secret_picks_test_game(tmp_path: Path) -> None:
    before, after = _kill_and_resume(tmp_path, "picks", 6, SIGHTLINE_GAMES="tests.games.picks")
    assert before["actions"] == 6 and before["to_move"] == 2
    _same_but_the_clocks(before, after)


@pytest.mark.parametrize("key", _team_games())
def test_a_team_game_survives_sigkill_in_the_middle_of_a_turn(tmp_path: Path, key: str) -> None:
    before, after = _kill_and_resume(tmp_path, key, 7)
    assert before["actions"] == 7
    _same_but_the_clocks(before, after)


@pytest.mark.parametrize("key, steps", [("coop", 5), ("coop_solitaire", 5), ("booster", 5), ("gravity", 5),
                                        ("parade", 5), ("neighbour", 2)])
def test_a_card_game_survives_sigkill_in_the_middle_of_a_turn(tmp_path: Path, key: str, steps: int) -> None:
    """The kit games dealt from a deck: killed after a few actions (a card played, a piece moved part of a turn),
    resumed from the autosave with the same deal, hands, piles and every seat's view. (The seeded random actions
    end a Neighbour game at its third: two pieces side by side are a group.)"""
    before, after = _kill_and_resume(tmp_path, key, steps)
    assert before["actions"] == steps and after.pop("resumed") is True
    assert after.pop("remaining") == pytest.approx(before.pop("remaining"), abs=1.0)  # the seconds the restart took
    assert after == before


def test_the_team_games_are_checked() -> None:
    assert {"telepathy", "splitbrain"} <= set(_team_games())


def _finished_picks_record(monkeypatch: pytest.MonkeyPatch) -> object:
    import random
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("SIGHTLINE_GAMES", "tests.games.picks")
    from app.engine.clock import TimeControl
    from app.engine.record import GameSession
    from tests.games.picks import rules
    game = rules.SecretPicks.create({}, 3)
    session, chooser = GameSession(game, TimeControl(None, 0)), random.Random(2)
    while game.outcome is None:
        choices = [action for actions in game.choices().values() for action in actions]
        session.play(game.to_move, chooser.choice(choices))
    return session.record


def test_partners_review_a_finished_game_together(monkeypatch: pytest.MonkeyPatch, qtbot: object) -> None:
    from app.ui.replay_window import ReplayWindow
    record = _finished_picks_record(monkeypatch)
    replay = ReplayWindow(record)
    labels = [replay.perspective.itemText(index) for index in range(replay.perspective.count())]
    assert labels[-2:] == ["What A1 and A2 saw (their team)", "What B1 and B2 saw (their team)"]
    replay.perspective.setCurrentIndex(labels.index("What B1 and B2 saw (their team)"))
    replay.show_step(3)  # A1, A2 and B1 have arranged their games: B1 acted last
    assert replay.current_team == (2, 3) and replay.current_perspective == 2
    assert "B1's board" in replay.step_label.text()
    text = replay.text.toPlainText()
    assert text.index("B1 was told:") < text.index("B2 was told:")
    replay.show_step(4)  # B2's own setup: its view is drawn
    assert replay.current_perspective == 3
    replay.close()


def test_an_unfinished_game_offers_no_team_perspective(monkeypatch: pytest.MonkeyPatch, qtbot: object) -> None:
    from app.ui.replay_window import ReplayWindow
    record = _finished_picks_record(monkeypatch)
    record.entries = record.entries[:5]
    record.result = None
    replay = ReplayWindow(record, asking_seat=1)
    assert [replay.perspective.itemText(i) for i in range(replay.perspective.count())] == ["What A2 saw"]
    replay.close()


@pytest.mark.parametrize("key", ["telepathy", "splitbrain"])
def test_a_match_of_four_random_bots_and_its_replay_by_team(tmp_path: Path, key: str, qtbot: object) -> None:
    from app.cli import main
    from app.engine.record import read_record
    from app.ui.replay_window import ReplayWindow
    seats = [arg for seat in ("W1", "W2", "B1", "B2") for arg in ("--seat", f"{seat}=random")]
    assert main(["match", "--variant", key, *seats, "--games", "1", "--out", str(tmp_path)]) == 0
    record = read_record(next(tmp_path.glob("*.json")))
    assert record.variant == key and len(record.players) == 4 and record.result is not None
    replay = ReplayWindow(record)
    labels = [replay.perspective.itemText(index) for index in range(replay.perspective.count())]
    assert labels[-2:] == ["What W1 and W2 saw (their team)", "What B1 and B2 saw (their team)"]
    replay.perspective.setCurrentIndex(len(labels) - 2)
    replay.show_step(2)
    assert replay.current_perspective == record.entries[1].seat and "W1 was told:" in replay.text.toPlainText()
    replay.close()
