"""The shared engine API: variants, records of every game, perft, the command line, typing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.engine.clock import TimeControl
from app.engine.core import Reason
from app.engine.perft import perft
from app.engine.record import GameRecord, RecordError, load_record, replay
from app.engine.variants import TITLES, VARIANTS, game_type
from app.hosting.match import run_match

ROOT = Path(__file__).resolve().parent.parent


def test_every_variant_is_registered_with_a_title() -> None:
    assert set(VARIANTS) == {"rbc", "blind", "minit", "cloak", "telepathy", "splitbrain", "coop", "coop_solitaire",
                             "booster", "gravity", "parade", "neighbour"} == set(TITLES)
    with pytest.raises(ValueError, match="unknown game 'go'"):
        game_type("go")


@pytest.mark.parametrize("variant, bots", [("rbc", ("attacker", "random")), ("blind", ("greedy", "random")),
                                           ("minit", ("sightline:search:easy", "random"))])
def test_matches_of_every_game_write_records_that_replay(variant: str, bots: tuple[str, str],
                                                         tmp_path: Path) -> None:
    result = run_match(variant, *bots, games=2, seed=7, control=TimeControl(120, 1), swap_colors=True,
                       jobs=2, out_dir=str(tmp_path), max_plies=600)
    for game in result.games:
        assert game.path is not None and game.reason != "forfeit", game.detail
        replayed = load_record(game.path)
        assert replayed.game.outcome is not None
        assert (replayed.game.outcome.winner, replayed.game.outcome.reason.value) == (game.winner, game.reason)
        data = json.loads(Path(game.path).read_text())
        assert data["variant"] == variant and data["players"][0]["kind"] == "bot"
        # every action carries the seconds it took, and the clocks replay within the time control
        assert all(entry["elapsed"] >= 0 for entry in data["actions"])
        assert all(left <= 120 + 1 * game.plies for left in replayed.remaining)


def test_match_safety_limit_draws_endless_games() -> None:
    result = run_match("blind", "random", "random", games=1, seed=3, control=TimeControl(None, 0), max_plies=6)
    assert result.games[0].winner is None and result.games[0].reason == Reason.TURN_LIMIT.value
    assert result.games[0].plies == 6


def test_perft_counts() -> None:
    assert perft("chess", 3) == [20, 400, 8902]
    assert perft("chess", 2, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1") == [48, 2039]
    assert perft("rbc", 3) == [34, 1156, 40154]
    assert perft("minit", 4) == [7, 49, 473, 4627]
    with pytest.raises(ValueError):
        perft("minit", 2, "junk")
    with pytest.raises(ValueError):
        perft("go", 2)


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "minit", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "depth 1: 7\ndepth 2: 49\ndepth 3: 473" in out
    assert main(["perft", "--variant", "minit", "--depth", "2", "--position",
                 "1 W k.... ..... ..... ..... ..... Q...K"]) == 0
    assert "depth 2: 42" in capsys.readouterr().out
    assert main(["perft", "--variant", "chess", "--position", "not a fen"]) == 2
    assert "bad position" in capsys.readouterr().err


def test_cli_match_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--variant", "minit", "--white", "search", "--black", "random", "--games", "2",
                 "--time", "20+0", "--quiet", "--jobs", "2"]) == 0
    assert "search vs random: 2 games" in capsys.readouterr().out
    assert main(["match", "--variant", "blind", "--white", "attacker", "--black", "random", "--quiet"]) == 2
    assert "not a built-in blind bot" in capsys.readouterr().err


def test_records_name_the_entry_that_does_not_replay() -> None:
    result = run_match("rbc", "random", "random", games=1, seed=1, control=TimeControl(None, 0))
    assert result.games[0].plies > 0
    from app.hosting.agents import BotSpec
    from app.games.rbc.rules import ReconChess
    from app.hosting.runner import run_game
    record = run_game(ReconChess(), [BotSpec("random", "rbc").create(1), BotSpec("random", "rbc").create(2)])
    data = record.to_json()
    data["actions"][3]["action"]["move"] = "e1e8"
    with pytest.raises(RecordError, match=r"action 4 \(move by Black\) does not replay"):
        replay(GameRecord.from_json(data))
    data = record.to_json()
    data["result"]["reason"] = "timeout"
    with pytest.raises(RecordError, match="does not match the replay"):
        replay(GameRecord.from_json(data))
    data = record.to_json()
    data["version"] = 99
    with pytest.raises(RecordError, match="newer Sightline"):
        GameRecord.from_json(data)


def test_the_whole_app_is_mypy_clean() -> None:
    pytest.importorskip("mypy")
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)  # pyproject's files
    assert run.returncode == 0, run.stdout + run.stderr


def test_engine_knows_nothing_of_qt() -> None:
    for path in (ROOT / "app" / "engine").glob("*.py"):
        text = path.read_text()
        assert "PySide6" not in text and "QtCore" not in text, path


def test_perft_counters_come_from_the_definitions() -> None:
    from app import games
    from app.games.minit.rules import MAX_PERFT_DEPTH
    from app.engine.perft import CHESS, MAX_DEPTH, counters
    assert list(counters()) == [CHESS, *(game.perft_name for game in games.all() if game.perft)]
    assert MAX_PERFT_DEPTH >= MAX_DEPTH  # a game's own cap never refuses a depth the command line allows
