"""Games added by the ``SIGHTLINE_GAMES`` environment variable: the two test games (``tests/games``) are written
as a newcomer would write a game, named once in the variable, and then play through ``sightline match`` (in its
referee processes), save and replay, keep each seat's secrets, and leave the real games alone.

- ``lights``: Lights Out, one seat on a 4x4 board, dealt by chance;
- ``scouts``: four seats in two teams on a 6x6 board, each seat seeing only its own scouts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from app import games
from app.hosting.agents import BotSpec
from app.hosting.bot_registry import builtin_bots
from app.engine import variants
from app.engine.core import Game, View
from app.engine.record import load_record, read_record
from app.games.presenter import InputError, presenter_for
from app.hosting.runner import run_game

ROOT = Path(__file__).resolve().parent.parent
REAL_GAMES = ("rbc", "blind", "minit", "cloak", "telepathy", "splitbrain", "coop", "coop_solitaire", "booster",
              "gravity", "parade", "neighbour")
TEST_GAMES = "tests.games.lights,tests.games.scouts"


@pytest.fixture
def extra_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test games registered for one test; afterwards the app knows the real games only again.

    The registry reads the variable on every call, and the engine's game tables (``app.engine.variants``)
    follow the registry, so setting the variable is all it takes.
    """
    monkeypatch.syspath_prepend(str(ROOT))  # the test games are imported as tests.games.*
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, TEST_GAMES)
    yield


def _environment(**extra: str) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH", "")]))
    environment.update(extra)
    return environment


def _sightline(*argv: str, games_variable: str = TEST_GAMES) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=240, env=_environment(SIGHTLINE_GAMES=games_variable))


def _play(key: str, seed: int = 0, options: dict[str, Any] | None = None) -> tuple[Game, Any]:
    """A whole game of ``key`` (with ``options``) between its random bots, in this process; the game and its
    record."""
    game = games.get(key).referee().from_options(options or {})
    agents = [BotSpec("random", key).create(seed * 10 + seat) for seat in range(len(game.seat_names))]
    return game, run_game(game, agents, seed=seed)


# ---- the registry -------------------------------------------------------------------------------------------

def test_extra_games_follow_the_real_ones(extra_games: None) -> None:
    assert games.names() == (*REAL_GAMES, "lights", "scouts")
    assert games.default().key == REAL_GAMES[0]
    assert games.get("scouts").seat_names == ("W1", "W2", "B1", "B2")
    assert [seat.team for seat in games.get("scouts").seats] == [0, 0, 1, 1]
    assert set(variants.VARIANTS) == set(games.names())  # the engine finds their referees through the registry
    assert games.extra_game_problems() == ()


def test_the_real_games_alone_once_the_variable_is_gone(extra_games: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert "lights" in games.names()
    monkeypatch.delenv(games.EXTRA_GAMES_VARIABLE)
    assert games.names() == REAL_GAMES
    with pytest.raises(KeyError, match="unknown game 'lights'"):
        games.get("lights")


def test_a_bad_entry_is_named_left_out_and_harms_no_other_game(extra_games: None, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "again_rbc.py").write_text(f"from {games.ENTRIES[0]} import DEFINITION\n", encoding="utf-8")
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('half written')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, " no_such_game_module , tests.games.lights,app.games.definition,"
                                                   "again_rbc,broken_game,,")
    assert games.names() == (*REAL_GAMES, "lights")
    problems = games.extra_game_problems()
    assert len(problems) == 4
    expected = [("no_such_game_module", "No module named"), ("app.games.definition", "is not a GameDefinition"),
                ("again_rbc", f"already a game called '{REAL_GAMES[0]}'"), ("broken_game", "half written")]
    for problem, (module, why) in zip(problems, expected):
        assert f"SIGHTLINE_GAMES: the game module '{module}' was left out" in problem and why in problem
    err = capsys.readouterr().err
    assert all(f"sightline: {problem}" in err for problem in problems) and "Traceback" not in err
    games.names()
    assert capsys.readouterr().err == ""  # each problem is said once


def test_reading_the_registry_with_extra_games_imports_no_game_code() -> None:
    code = ("from app import games\nimport sys\n"
            "assert [d.key for d in games.all()][-2:] == ['lights', 'scouts'], games.names()\n"
            "print('\\n'.join(sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=_environment(SIGHTLINE_GAMES=TEST_GAMES))
    modules = set(run.stdout.split())
    assert {"tests.games.lights", "tests.games.scouts"} <= modules  # the definitions were read...
    assert not {name for name in modules if name.endswith((".rules", ".presenter", ".bots"))}  # ...nothing more
    assert not {"chess", "app.engine.core"} & modules


def test_bots_of_the_extra_games_are_found_by_name(extra_games: None) -> None:
    assert list(builtin_bots("scouts")) == ["random"] and list(builtin_bots("lights")) == ["random"]
    assert BotSpec("random", "scouts").builtin == ("random", "medium")
    assert BotSpec("sightline:random:easy", "lights").display_name == "random:easy"


# ---- sightline match, in its referee processes ----------------------------------------------------------------

def test_match_plays_the_team_game_with_a_bot_in_every_seat(tmp_path: Path) -> None:
    done = _sightline("match", "--variant", "scouts", "--seat", "W1=random", "--seat", "W2=random",
                      "--seat", "B1=random", "--seat", "B2=random", "--games", "2", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "result" in done.stdout and "mean plies per game" in done.stdout
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path in records:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["variant"] == "scouts" and len(data["players"]) == 4 and data["result"] is not None


def test_match_plays_the_solitaire_with_its_one_seat(tmp_path: Path) -> None:
    done = _sightline("match", "--variant", "lights", "--seat", "Player=random", "--games", "2",
                      "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2 games" in done.stdout and "lost" in done.stdout  # a random presser does not solve the puzzle
    for path in sorted(tmp_path.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["variant"] == "lights" and len(data["players"]) == 1
        assert data["result"]["reason"] == "score" and "score" in data["result"]
        # the deal's seed is in the record, so a replay deals it again, but not in the options a seat is given
        assert isinstance(data["chance_seed"], int) and "seed" not in data["options"]


def test_match_refuses_a_seat_the_game_does_not_have() -> None:
    done = _sightline("match", "--variant", "lights", "--seat", "White=random")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "White" in done.stderr


def test_a_broken_extra_game_leaves_the_match_of_a_real_game_alone() -> None:
    done = _sightline("match", "--variant", REAL_GAMES[2], "--white", "random", "--black", "random", "--games", "1",
                      "--quiet", games_variable="tests.games.lights,no_such_game_module")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "'no_such_game_module' was left out" in done.stderr and "Traceback" not in done.stderr


# ---- records --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key, options", [("lights", {}), ("lights", {"seed": 5}),  # the seed as older records had
                                          ("scouts", {})])
def test_a_record_saves_and_replays_to_the_same_end(extra_games: None, tmp_path: Path, key: str,
                                                    options: dict[str, Any]) -> None:
    game, record = _play(key, seed=3, options=options)
    path = tmp_path / "game.json"
    record.save(path)
    replayed = load_record(path)  # checks the replay reaches the recorded result
    assert replayed.game.truth() == game.truth()
    assert replayed.game.outcome == game.outcome and replayed.game.ply == game.ply
    assert read_record(path).to_json() == record.to_json()
    view_type = games.get(key).view()
    for seat in range(len(game.seat_names)):
        assert view_type.from_observations(replayed.game.observations(seat)) == \
            view_type.from_observations(game.observations(seat))


def test_the_solitaire_is_won_by_switching_every_light_off(extra_games: None, tmp_path: Path) -> None:
    from tests.games.lights.rules import Press, cell_number
    game = games.get("lights").referee().from_options({"lights": "1100" "1000" "0000" "0000"})
    presenter = presenter_for("lights")
    view = games.get("lights").view().from_observations(game.observations(0))
    game.play(0, presenter.parse_text(view, "a1"))
    assert game.outcome is not None and (game.outcome.winner, game.outcome.team) == (0, 0)
    assert game.outcome.score == 16.0
    assert presenter.describe(game.observations(0)[-1], 0) == "Every light out after 1 presses."
    with pytest.raises(InputError, match="not a cell"):
        presenter.parse_text(view, "e5")
    assert Press(cell_number("d4")).to_json() == {"type": "press", "cell": "d4"}


# ---- privacy: a seat's view is made of its own observations ---------------------------------------------------

def _mentioned_cells(observation: Any) -> set[int]:
    from tests.games.scouts.rules import Captured, Deployed, Stepped
    if isinstance(observation, Deployed):
        return set(observation.scouts)
    if isinstance(observation, Stepped):
        return {observation.step.from_cell, observation.step.to_cell}
    if isinstance(observation, Captured):
        return {observation.cell}
    return set()


@pytest.mark.parametrize("seed", range(4))
def test_a_seat_never_sees_another_seats_scouts(extra_games: None, seed: int) -> None:
    from tests.games.scouts.rules import Captured, Deployed, Stepped
    definition = games.get("scouts")
    presenter = presenter_for("scouts")
    game, _ = _play("scouts", seed=seed)
    for seat in range(len(game.seat_names)):
        observations = game.observations(seat)
        own_cells = set().union(*(_mentioned_cells(o) for o in observations if isinstance(o, (Deployed, Stepped))))
        captures = {o.cell for o in observations if isinstance(o, Captured)}
        # Every cell a seat was told of is one its own scouts stood on or where a capture was announced to all.
        assert set().union(*(_mentioned_cells(o) for o in observations)) <= own_cells | captures
        view = definition.view().from_observations(observations)
        assert view.scouts == game.scouts[seat]
        assert set(presenter.scene(view).pieces) == {(c % 6, c // 6) for c in game.scouts[seat]}


def test_partners_see_only_their_own_scouts_at_every_turn(extra_games: None) -> None:
    from tests.games.scouts.rules import ScoutsGame, Step
    import random
    rng = random.Random(1)
    game = ScoutsGame()
    presenter = presenter_for("scouts")
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        for seat in range(4):
            view: Any = ScoutsGame.view_type.from_observations(game.observations(seat))
            assert isinstance(view, View) and view.to_move == mover  # every seat can tell whose turn it is
            pieces = presenter.scene(view).pieces
            others = {(c % 6, c // 6) for other in range(4) if other != seat for c in game.scouts[other]}
            assert set(pieces) == {(c % 6, c // 6) for c in game.scouts[seat]}
            assert not set(pieces) & others - {(c % 6, c // 6) for c in game.scouts[seat]}
        mover_view: Any = ScoutsGame.view_type.from_observations(game.observations(mover))
        # the referee's choices are what the mover's own view allows: they reveal nothing else
        assert game.choices()["steps"] == mover_view.legal_steps()
        step: Step = rng.choice(mover_view.legal_steps())
        assert presenter.parse_text(mover_view, str(step)) == step
        game.play(mover, step)
    assert game.outcome is not None


# ---- the window -----------------------------------------------------------------------------------------------

@pytest.fixture
def window_with_extra_games(extra_games: None, window: Any) -> Any:
    """The window, after the test games were registered (it reads a game's title from the registry when needed)."""
    return window


def _person_game(window: Any, key: str, options: dict[str, Any] | None = None) -> Any:
    from app.engine.clock import TimeControl
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController(key, [SeatConfig(name) for name in games.get(key).seat_names],
                                TimeControl(None, 0), options or {}, parent=window)
    window._install(controller)  # what the window's start does once the new-game dialog has chosen the seats
    return controller


def test_the_window_offers_the_extra_games_and_plays_the_solitaire_by_a_click(window_with_extra_games: Any,
                                                                              qtbot: Any) -> None:
    from PySide6.QtCore import Qt
    from app.ui.new_game_dialog import NewGameDialog
    window = window_with_extra_games
    dialog = NewGameDialog(window)
    # every game, but a form of another game (its solitaire), which is offered under that game
    assert [dialog.game.itemData(index) for index in range(dialog.game.count())] == [
        key for key in games.names() if not games.get(key).variant_of]
    dialog.deleteLater()
    controller = _person_game(window, "lights", {"lights": "1100" "1000" "0000" "0000"})
    assert window.title.text() == "Lights Out (test game)" and window.board.sense_mode()
    assert sorted(window.board.markers()[0].squares) == [(0, 0), (0, 1), (1, 0)]
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect((0, 0)).center())
    qtbot.waitUntil(lambda: controller.outcome is not None, timeout=5000)
    assert controller.outcome.winner == 0 and controller.outcome.score == 16.0
    assert "every light out" in window.status.text()


def test_the_dialog_leaves_out_a_game_the_window_cannot_show(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered game without a presenter (a rules-only test game) plays in matches but is not offered in the
    window, where starting it could only fail."""
    from types import SimpleNamespace
    from app.ui import new_game_dialog
    real = games.all
    rules_only = SimpleNamespace(key="rules-only", title="Rules only", presenter=None, bots=(), variant_of="")
    monkeypatch.setattr(new_game_dialog.games, "all", lambda: [*real(), rules_only])
    dialog = new_game_dialog.NewGameDialog(window)
    offered = [dialog.game.itemData(index) for index in range(dialog.game.count())]
    dialog.deleteLater()
    assert offered == [definition.key for definition in real() if not definition.variant_of]


def test_a_click_on_a_zone_goes_to_the_games_presenter(window_with_extra_games: Any, qtbot: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's zone clicks reach the presenter's on_zone with the seat's view; a refusal is logged."""
    window = window_with_extra_games
    controller = _person_game(window, "lights", {"lights": "1100" "1000" "0000" "0000"})
    asked: list[tuple[Any, str, int]] = []
    refuse = controller.presenter.on_zone

    def on_zone(view: Any, zone_id: str, index: int) -> Any:
        asked.append((view, zone_id, index))
        return refuse(view, zone_id, index)  # a game without zones refuses every zone click

    monkeypatch.setattr(controller.presenter, "on_zone", on_zone)
    window.board.zoneClicked.emit("pile", 2)
    assert asked == [(controller.views[0], "pile", 2)]
    assert controller.logs[0][-1].startswith("Not possible:") and controller.outcome is None


def test_the_window_curtain_keeps_partners_scouts_apart(window_with_extra_games: Any, qtbot: Any) -> None:
    import random
    from PySide6.QtCore import Qt
    window = window_with_extra_games
    controller = _person_game(window, "scouts")
    rng = random.Random(3)
    seats_shown = set()
    for _ in range(60):
        if controller.outcome is not None:
            break
        if controller.curtain_for is not None:
            assert window.board.pieces() == {}  # behind the curtain nobody's scouts are on the screen
            qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
        seat = controller.screen_seat
        assert seat == controller.game.to_move
        seats_shown.add(seat)
        own = {(cell % 6, cell // 6) for cell in controller.game.scouts[seat]}
        assert set(window.board.pieces()) == own  # not the partner's, not the enemies'
        scene = controller.scene()
        origin = rng.choice(sorted(scene.targets))
        target = rng.choice(sorted(scene.targets[origin]))
        played = len(controller.session.record.entries)
        for cell in (origin, target):  # a person's two clicks: the scout, then where it goes
            qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(cell).center())
        assert len(controller.session.record.entries) == played + 1
    assert seats_shown == {0, 1, 2, 3}
    assert len(controller.session.record.entries) >= 12


_BOT_IN_ITS_OWN_PROCESS = """
from app.bots.base import ActionRequest
from app.hosting.worker import BotProcess
from app.engine.variants import game_type
import time

def main():
    game = game_type("scouts")()
    bot = BotProcess("sightline:random:medium", "scouts", 0, {}, "B1 and B2", 1)
    try:
        bot.observe(list(game.observations(0)))
        bot.request(ActionRequest(0, game.phase, game.choices(), 10.0))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            event = bot.poll()
            if event is not None:
                print(event.kind, event.action in game.choices()["steps"], event.message)
                return
            time.sleep(0.02)
        print("silent")
    finally:
        bot.kill()

if __name__ == "__main__":
    main()
"""


def test_a_bot_of_an_extra_game_answers_from_its_own_process(tmp_path: Path) -> None:
    # The window runs a bot seat in a worker process of its own, and reads its answer with an unpickler that
    # builds only the engine's classes, python-chess's and those of the registered games' rules and views: a
    # game kept elsewhere but named in the registry is answered for like the real ones.
    script = tmp_path / "bot_process.py"
    script.write_text(_BOT_IN_ITS_OWN_PROCESS, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=_environment(SIGHTLINE_GAMES=TEST_GAMES))
    answer = done.stdout.strip()
    assert answer.startswith("action True"), (answer, done.stderr[-2000:])


def test_an_unfinished_team_game_resumes_and_replays_per_seat(extra_games: None) -> None:
    import random
    from app.engine.record import GameRecord, GameSession, Timeline, allowed_perspectives, resume
    definition = games.get("scouts")
    session = GameSession(definition.referee()())
    rng = random.Random(5)
    views_at: list[list[Any]] = []
    for _ in range(10):
        game = session.game
        views_at.append([definition.view().from_observations(game.observations(seat)) for seat in range(4)])
        assert game.to_move is not None
        session.play(game.to_move, rng.choice(game.choices()["steps"]))
    saved = GameRecord.from_json(json.loads(json.dumps(session.snapshot().to_json())))
    again = resume(saved, start_clock=False)
    assert again.game.truth() == session.game.truth() and again.game.to_move == session.game.to_move
    for seat in range(4):
        assert list(again.game.observations(seat)) == list(session.game.observations(seat))
    # while it goes on, a seat may review its own view only; nobody may see the truth
    assert allowed_perspectives(saved, 2) == [2] and allowed_perspectives(saved, None) == []
    timeline = Timeline(saved)
    for step, views in enumerate(views_at):
        for seat in range(4):
            assert timeline.frame(step, seat).view == views[seat]


def test_nothing_outside_the_test_games_names_them() -> None:
    # Adding them took their own packages and the variable: the app has no word for them.
    for path in sorted((ROOT / "app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "tests.games" not in text and not any(f'"{key}"' in text or f"'{key}'" in text
                                                     for key in ("lights", "scouts")), path
