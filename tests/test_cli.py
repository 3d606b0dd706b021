"""The ``sightline`` command with bad input: a short message of our own and an exit status, never a traceback,
never Python's own error wording, whatever the argument or file holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import MESSAGE_LIMIT, XCB_LIBRARIES, main, window_problem
from app.engine.core import Resign
from app.games.rbc.rules import ReconChess
from app.engine.record import GameSession

HUGE = "9" * 5000  # more digits than Python converts to an int by default
PYTHON_WORDS = ("Traceback", "invalid literal", "int()", "Exceeds the limit", "codec", "set_int_max_str_digits",
                "expected one argument")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        status = stop.code if isinstance(stop.code, int) else 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1] if err.strip() else ""
    assert len(last) <= MESSAGE_LIMIT, last[:200]
    assert not any(words in err for words in PYTHON_WORDS), err[:500]
    return status, err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    session = GameSession(ReconChess())
    session.play(0, Resign())
    path = tmp_path / "game.json"
    session.record.save(path)
    return path


@pytest.mark.parametrize("depth", ["30", "100000", "99999999999999999999", HUGE, "1e9", "-1", "0", "²"])
def test_perft_depths_out_of_range(capsys: pytest.CaptureFixture[str], depth: str) -> None:
    status, err = run(capsys, "perft", "--depth", depth)
    assert status == 2 and err


@pytest.mark.parametrize("variant, position, words", [
    ("minit", "1 W k.... ..... ..... ..... ..... .....", "each side needs a king"),
    ("minit", "² W kqbnr ppppp ..... ..... PPPPP RNBQK", "move number"),
    ("minit", HUGE + " W kqbnr ppppp ..... ..... PPPPP RNBQK", "too long"),
    ("chess", "8/8/8/8/8/8/8/K7 w - - 0 1", "each side needs a king"),
    ("rbc", "x" * 100_000, "too long"),
])
def test_perft_positions_that_a_game_refuses(capsys: pytest.CaptureFixture[str], variant: str, position: str,
                                             words: str) -> None:
    status, err = run(capsys, "perft", "--variant", variant, "--depth", "2", "--position", position)
    assert status == 2 and words in err


def test_perft_still_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "minit", "--depth", "2"]) == 0
    assert "depth 2: 49" in capsys.readouterr().out


@pytest.mark.parametrize("time", ["-5+1", "-5", "1e400+1", HUGE, "99999999999+5", "5+" + HUGE])
def test_match_time_controls_get_our_message(capsys: pytest.CaptureFixture[str], time: str) -> None:
    status, err = run(capsys, "match", "--white", "random", "--black", "random", "--time", time)
    assert status == 2 and "sightline match:" in err and ("time control" in err or "at most a year" in err)


def test_an_argument_of_any_length_gets_a_short_message(capsys: pytest.CaptureFixture[str],
                                                        record_file: Path) -> None:
    status, err = run(capsys, "perft", "--variant", "q" * 100_000)
    assert status == 2 and "invalid choice" in err
    status, err = run(capsys, "export", str(record_file), "out.png", "--perspective", HUGE)
    assert status == 1 and "unknown perspective" in err
    status, err = run(capsys, "export", str(record_file), "out.png", "--size", HUGE)
    assert status == 2 and "far too large" in err


@pytest.mark.parametrize("contents", [
    '{"format": "sightline-record", "version": ' + HUGE + "}",
    b"\xff\xfe\x00 not text",
    "[" * 100_000,
    '{"format": "sightline-record", "version": 2, "variant": "rbc", "options": {"fen": "' + "x" * 100_000 + '"}, '
    '"players": [{"name": "a", "kind": "human"}, {"name": "b", "kind": "human"}], "actions": [], "result": null}',
])
def test_bad_records_get_a_short_message(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         contents: str | bytes) -> None:
    path = tmp_path / "bad.json"
    if isinstance(contents, bytes):
        path.write_bytes(contents)
    else:
        path.write_text(contents)
    for argv in (("export", str(path), "-o", str(tmp_path / "out.pgn")), ("import", str(path), str(tmp_path / "x"))):
        status, err = run(capsys, *argv)
        assert status == 1 and err
    assert not (tmp_path / "out.pgn").exists() and not (tmp_path / "x").exists()


def test_import_with_a_byte_order_mark_and_back(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                record_file: Path) -> None:
    history = tmp_path / "history.json"
    assert main(["export", str(record_file), str(history)]) == 0
    history.write_bytes(b"\xef\xbb\xbf" + history.read_bytes())
    assert main(["import", str(history), str(tmp_path / "back.json")]) == 0
    assert json.loads((tmp_path / "back.json").read_text())["result"]["reason"] == "resign"


def test_import_reads_the_formats_the_games_declare(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     record_file: Path) -> None:
    """The command asks the registry which files it reads (each game's ``imports``), never a game by name."""
    from app import games
    assert list(games.imports()) == ["reconchess"]
    history = tmp_path / "history.json"
    assert main(["export", str(record_file), str(history)]) == 0
    assert main(["import", "--format", "reconchess", str(history), str(tmp_path / "back.json")]) == 0
    with pytest.raises(SystemExit):
        main(["import", "--format", "pgn", str(history), str(tmp_path / "other.json")])
    assert "invalid choice: 'pgn'" in capsys.readouterr().err and not (tmp_path / "other.json").exists()


# ---- the window on a machine that cannot show one ------------------------------------------------------------

def test_no_display_is_said_in_words() -> None:
    problem = window_problem({}, "linux")
    assert problem is not None and "no display" in problem and "QT_QPA_PLATFORM=offscreen" in problem
    assert window_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux") is not None
    assert window_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert window_problem({}, "win32") is None and window_problem({}, "darwin") is None


def test_missing_x_libraries_are_named_with_their_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.cli
    monkeypatch.setattr(app.cli, "_xcb_plugin_error", lambda: "libxcb-icccm.so.4: cannot open shared object file")
    monkeypatch.setattr(app.cli, "_missing_libraries", lambda names: ["libxcb-icccm.so.4", "libxcb-cursor.so.0"])
    problem = window_problem({"DISPLAY": ":0"}, "linux")
    assert problem is not None and "sudo apt-get install libxcb-cursor0 libxcb-icccm4" in problem
    monkeypatch.setattr(app.cli, "_missing_libraries", lambda names: [])
    problem = window_problem({"DISPLAY": ":0"}, "linux")
    assert problem is not None and "libxcb-icccm.so.4: cannot open" in problem  # the loader's own words
    assert "libxcb-cursor.so.0" in XCB_LIBRARIES and "libxkbcommon-x11.so.0" in XCB_LIBRARIES


def test_a_plugin_that_loads_is_no_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.cli
    monkeypatch.setattr(app.cli, "_xcb_plugin_error", lambda: None)
    monkeypatch.setattr(app.cli, "_missing_libraries", lambda names: list(names))  # a bundle carries its own
    assert window_problem({"DISPLAY": ":0"}, "linux") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 and Wayland displays are Linux's")
def test_check_without_a_display_says_so_instead_of_aborting(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "app", "--check"], env=env, capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 1, done.stderr[-500:]
    assert "there is no display" in done.stderr and "Traceback" not in done.stderr


def test_match_move_limit_ends_an_untimed_game_with_a_silent_bot(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    silent = f"{Path(__file__).parent / 'bots' / 'hostile.py'}:Silent"
    status, _ = run(capsys, "match", "--untimed", "--move-limit", "0.5", "--white", silent, "--black", "random",
                    "--quiet", "--out", str(tmp_path))
    assert status == 0
    record = json.loads((tmp_path / "game-0001.json").read_text())
    assert record["result"]["winner"] == 1 and record["result"]["reason"] == "timeout"


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", "soon", HUGE])
def test_match_move_limit_must_be_a_sensible_number(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    status, err = run(capsys, "match", "--untimed", "--move-limit", limit, "--white", "random", "--black", "random")
    assert status == 2 and "--move-limit" in err


def test_match_says_when_no_process_can_be_started(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import app.hosting.match

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(app.hosting.match, "_Referee", refuse)
    status, err = run(capsys, "match", "--untimed", "--white", "random", "--black", "random", "--quiet")
    assert status == 1 and "cannot start a process" in err and "Resource temporarily unavailable" in err
