"""Sixteen, the one-seat deal-and-place card solitaire of ``tests/games/sixteen``, added by its own package and
the ``SIGHTLINE_GAMES`` variable only: it is offered by the new-game dialog, plays through the window by real
clicks (a card of the hand, then a cell), saves and replays to the same deal, resumes after its window is
killed, runs in ``sightline match`` and exports, and nothing under ``app/`` names it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from app import games
from app.hosting.agents import BotSpec
from app.engine.record import load_record, read_record
from app.games.presenter import InputError, presenter_for
from app.games.scene import HandZone, PileZone
from app.hosting.runner import run_game

ROOT = Path(__file__).resolve().parent.parent
KEY = "sixteen"
MODULE = "tests.games.sixteen"
GAMES_VARIABLE = MODULE
"""What ``SIGHTLINE_GAMES`` holds for these tests: this game only."""


@pytest.fixture
def sixteen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Sixteen registered for one test (the registry reads the variable on every call)."""
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, GAMES_VARIABLE)
    yield


def _environment(**extra: str) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH", "")]))
    environment["SIGHTLINE_GAMES"] = GAMES_VARIABLE
    environment.update(extra)
    return environment


def _sightline(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=240, env=_environment())


def _bot_game(tmp_path: Path, seed: int = 3) -> Path:
    """A whole game between the random bot and the referee, saved; the record's path."""
    game = games.get(KEY).referee().from_options({})
    record = run_game(game, [BotSpec("random", KEY).create(seed)], seed=seed)
    path = tmp_path / "sixteen.json"
    record.save(path)
    return path


# ---- the rules ------------------------------------------------------------------------------------------------

def test_the_deal_follows_the_seed_and_the_board_fills_to_a_score(sixteen: None) -> None:
    from tests.games.sixteen.rules import CELLS, Place, Sixteen, Take, score
    first, again, other = Sixteen(seed=7), Sixteen(seed=7), Sixteen(seed=8)
    assert first.truth() == again.truth() and first.truth() != other.truth()
    game = first
    while game.outcome is None:
        card = game.hand[-1]
        game.play(0, Take(card))
        game.play(0, Place(card, game.board.index(None)))
    assert game.ply == CELLS and None not in game.board and len(game.pile) == 52 - CELLS and game.hand == []
    assert game.outcome.score == float(score(game.board)) and game.outcome.reason.value == "score"
    assert 0 <= game.outcome.score <= 32


def test_the_presenter_refuses_what_the_rules_refuse(sixteen: None) -> None:
    definition = games.get(KEY)
    game = definition.referee()(seed=1)
    presenter = presenter_for(KEY)
    view = definition.view().from_observations(game.observations(0))
    with pytest.raises(InputError, match="first click a card"):
        presenter.on_square(view, (0, 0))
    with pytest.raises(InputError, match="pile deals by itself"):
        presenter.on_zone(view, "pile", 0)
    card = view.hand[1]
    game.play(0, presenter.parse_text(view, card))
    view = definition.view().from_observations(game.observations(0))
    scene = presenter.scene(view)
    hand = scene.zone("hand")
    assert isinstance(hand, HandZone) and hand.selected == (1,) and hand.private_to == frozenset({0})
    pile = scene.zone("pile")
    assert isinstance(pile, PileZone) and pile.count == 49 and pile.top is None  # the pile's faces never shown
    with pytest.raises(InputError, match="place the"):
        presenter.on_zone(view, "hand", 0)
    game.play(0, presenter.parse_text(view, "b2"))
    view = definition.view().from_observations(game.observations(0))
    assert [marker.label for marker in presenter.scene(view).markers] == [card]
    game.play(0, presenter.on_zone(view, "hand", 0))
    view = definition.view().from_observations(game.observations(0))
    with pytest.raises(InputError, match="already holds"):
        presenter.on_square(view, (1, 1))


# ---- the window -----------------------------------------------------------------------------------------------

def _person_game(window: Any) -> Any:
    from app.engine.clock import TimeControl
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController(KEY, [SeatConfig(name) for name in games.get(KEY).seat_names],
                                TimeControl(None, 0), {}, parent=window)
    window._install(controller)  # what the window's start does once the new-game dialog has chosen the seats
    return controller


def _click_a_card(window: Any, qtbot: Any, index: int) -> None:
    """Click card ``index`` of the hand where the board drew it."""
    from PySide6.QtCore import Qt
    layout = window.board.zone_layout()
    assert layout is not None
    rect = next(placed.items for placed in layout.zones if placed.zone.id == "hand")[index]
    point = rect.center().toPoint()
    assert window.board.zone_item_at(point) == ("hand", index)
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=point)


def _click_a_cell(window: Any, qtbot: Any, square: tuple[int, int]) -> None:
    from PySide6.QtCore import Qt
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.square_rect(square).center())


def _play_by_clicks(window: Any, qtbot: Any, controller: Any, turns: int) -> None:
    """``turns`` turns by real clicks: the last card of the hand, then the first empty cell."""
    for _ in range(turns):
        view = controller.views[0]
        before = len(view.placed)
        _click_a_card(window, qtbot, len(view.hand) - 1)
        qtbot.waitUntil(lambda: controller.game.phase == "place", timeout=5000)
        assert window.board.sense_mode()
        empty = controller.views[0].board.index(None)
        _click_a_cell(window, qtbot, (empty % 4, empty // 4))
        qtbot.waitUntil(lambda: len(controller.views[0].placed) == before + 1 or controller.outcome is not None,
                        timeout=5000)


def test_the_window_offers_sixteen_and_plays_it_by_clicks(sixteen: None, window: Any, qtbot: Any,
                                                          tmp_path: Path) -> None:
    from app.ui.new_game_dialog import NewGameDialog
    dialog = NewGameDialog(window)
    offered = [dialog.game.itemData(index) for index in range(dialog.game.count())]
    assert KEY in offered and offered == [
        key for key in games.names() if not games.get(key).variant_of]  # a form is under its game
    dialog.deleteLater()
    controller = _person_game(window)
    assert window.title.text() == "Sixteen (test game)"
    _play_by_clicks(window, qtbot, controller, 16)
    qtbot.waitUntil(lambda: controller.outcome is not None, timeout=5000)
    outcome = controller.outcome
    assert outcome.score is not None and outcome.score == float(controller.views[0].points)
    assert "the board is full" in window.status.text()
    assert len(controller.session.record.entries) == 32  # a take and a place per cell
    # The record replays to the same final state: its chance seed deals the same cards.
    path = tmp_path / "clicked.json"
    record = controller.session.record
    record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data["chance_seed"], int) and data["options"] == {}
    replayed = load_record(path)
    assert replayed.game.truth() == controller.game.truth() and replayed.game.outcome == outcome


def test_the_save_replays_to_the_same_deal_and_end(sixteen: None, tmp_path: Path) -> None:
    path = _bot_game(tmp_path)
    record = read_record(path)
    replayed = load_record(path)
    assert replayed.game.outcome is not None and replayed.game.outcome.score is not None
    again = load_record(path)
    assert again.game.truth() == replayed.game.truth()
    assert read_record(path).to_json() == record.to_json()


# ---- resume after the window is killed ------------------------------------------------------------------------

_KILL_ME = """
import json, os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication
from app import games
from app.engine.clock import TimeControl
from app.ui.game_controller import GameController, SeatConfig
from app.ui.main_window import MainWindow


def state(window):
    controller = window.controller
    view = controller.views[0]
    return {"actions": len(controller.session.record.entries), "phase": controller.game.phase,
            "board": view.board, "hand": view.hand, "taken": view.taken, "pile": view.pile,
            "chance_seed": controller.session.record.chance_seed, "truth": repr(controller.game.truth())}


def main():
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineKillTest")
    QCoreApplication.setApplicationName(f"kill-{os.getpid()}")
    window = MainWindow()
    window.show()
    if sys.argv[1] == "play":
        key = sys.argv[2]
        controller = GameController(key, [SeatConfig(name) for name in games.get(key).seat_names],
                                    TimeControl(None, 0), {}, parent=window)
        window._install(controller)
        for cell in (0, 5, 10):
            window.board.zoneClicked.emit("hand", 0)
            window.board.senseRequested.emit((cell % 4, cell // 4))
        window.board.zoneClicked.emit("hand", 2)  # a card taken, not yet placed
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


def test_a_game_of_sixteen_survives_sigkill(tmp_path: Path) -> None:
    script = tmp_path / "kill_me.py"
    script.write_text(_KILL_ME, encoding="utf-8")
    env = _environment(SIGHTLINE_DATA_DIR=str(tmp_path / "data"), QT_QPA_PLATFORM="offscreen")
    player = subprocess.Popen([sys.executable, str(script), "play", KEY], stdout=subprocess.PIPE,
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
    assert before["actions"] == 7 and before["phase"] == "place" and before["taken"] is not None
    run = subprocess.run([sys.executable, str(script), "resume"], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESUMED")]
    assert lines, run.stderr[-2000:]
    after = json.loads(lines[0].split(" ", 1)[1])
    assert after.pop("resumed") is True
    assert after == before  # the same deal, board, hand, card taken, pile and seed


# ---- sightline match and export --------------------------------------------------------------------------------

def test_match_plays_sixteen_with_its_one_seat(tmp_path: Path) -> None:
    done = _sightline("match", "--variant", KEY, "--seat", "Player=random", "--games", "2", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "2 games" in done.stdout
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path in records:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["variant"] == KEY and len(data["players"]) == 1
        assert data["result"]["reason"] == "score" and "score" in data["result"]
        assert isinstance(data["chance_seed"], int) and "seed" not in data["options"]


def test_a_match_deals_again_from_its_deal_seed_which_nothing_a_bot_gets_decides(sixteen: None,
                                                                                  tmp_path: Path) -> None:
    """With ``deal_seed`` a match deals the same cards when run again. The bots are seeded from the match's
    ``seed`` and every record a bot is handed holds it; with that seed the same and the deal seed changed, the
    deals change, so nothing a bot is given decides them. Without a deal seed every game deals afresh."""
    from app.hosting.match import run_match

    def deals(out: Path, seed: int, deal_seed: int | None) -> list[tuple[int, int]]:
        run_match(KEY, seats=["random"], games=2, seed=seed, out_dir=str(out), deal_seed=deal_seed)
        records = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(out.glob("*.json"))]
        return [(data["seed"], data["chance_seed"]) for data in records]

    first, again = deals(tmp_path / "a", 5, 1234567), deals(tmp_path / "b", 5, 1234567)
    assert first == again and len({deal for _, deal in first}) == 2  # each game of the match its own deal
    other_deals = deals(tmp_path / "c", 5, 7654321)
    assert [seed for seed, _ in other_deals] == [seed for seed, _ in first]  # what the bots see: the same
    assert not {deal for _, deal in other_deals} & {deal for _, deal in first}  # the deals: not the same
    fresh, fresh_again = deals(tmp_path / "d", 5, None), deals(tmp_path / "e", 5, None)
    assert not {deal for _, deal in fresh} & {deal for _, deal in fresh_again}


def test_the_finished_record_exports_to_svg(sixteen: None, tmp_path: Path) -> None:
    path = _bot_game(tmp_path)
    out = tmp_path / "sixteen.svg"
    done = _sightline("export", str(path), str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    text = out.read_text(encoding="utf-8")
    assert text.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in text


def test_the_exported_board_names_the_placed_cards(sixteen: None, tmp_path: Path) -> None:
    path = _bot_game(tmp_path)
    out = tmp_path / "sixteen.svg"
    assert _sightline("export", str(path), str(out)).returncode == 0
    text = out.read_text(encoding="utf-8")
    board, _hand, _pile, _taken = load_record(path).game.truth()
    assert all(card in text for card in board)


def test_the_replay_shows_the_player_its_own_view_at_every_step(sixteen: None, tmp_path: Path) -> None:
    from app.engine.record import Timeline, allowed_perspectives
    path = _bot_game(tmp_path)
    record = read_record(path)
    definition = games.get(KEY)
    game = definition.referee()(seed=record.chance_seed)  # the record's chance seed deals the same cards
    timeline = Timeline(record)
    assert set(allowed_perspectives(record, 0)) == {0, None}  # finished: its own view and the truth
    for step, entry in enumerate(record.entries):
        assert timeline.frame(step, 0).view == definition.view().from_observations(game.observations(0))
        game.play(0, definition.referee().action_from_json(entry.action))
    assert game.truth() == load_record(path).game.truth()


# ---- nothing outside the game's own package names it ----------------------------------------------------------

def test_nothing_under_app_names_sixteen() -> None:
    for path in sorted((ROOT / "app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert MODULE not in text and f'"{KEY}"' not in text and f"'{KEY}'" not in text \
            and "Sixteen" not in text, path
