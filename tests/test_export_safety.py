"""Where exports (and saved records) may be written: never over their own input, never into special files or
folders that do not exist, through links to their targets, and with ordinary permissions."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Iterator

import pytest

from app.cli import main
from app.engine.core import Resign
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from app.engine.record import GameSession, atomic_write_text
from app.exports import check_export_target, export_record
from app.games.rbc.reconchess_history import record_to_history

needs_posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs, links and modes as on POSIX systems")


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    session = GameSession(ReconChess())
    for seat, action in ((0, Sense.parse("e7")), (0, MoveAction.parse("e2e4")), (1, Resign())):
        session.play(seat, action)
    path = tmp_path / "game.json"
    session.record.save(path)
    return path


def test_export_refuses_to_write_over_its_own_record(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = game_file.read_bytes()
    assert main(["export", str(game_file), str(game_file)]) == 1  # .json defaults to the reconchess format
    assert "that is the file being converted" in capsys.readouterr().err
    assert game_file.read_bytes() == before


@needs_posix
def test_export_refuses_its_own_record_under_another_name(game_file: Path, tmp_path: Path) -> None:
    before = game_file.read_bytes()
    soft, hard = tmp_path / "soft.json", tmp_path / "hard.json"
    soft.symlink_to(game_file)
    os.link(game_file, hard)
    for source, out in ((game_file, soft), (soft, game_file), (game_file, hard), (soft, hard)):
        assert main(["export", str(source), "--format", "pgn", "-o", str(out)]) == 1
    assert game_file.read_bytes() == before and soft.is_symlink()


def test_import_refuses_to_write_over_its_history(tmp_path: Path, game_file: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from app.engine.record import read_record
    history = tmp_path / "history.json"
    history.write_text(json.dumps(record_to_history(read_record(game_file))))
    before = history.read_bytes()
    assert main(["import", str(history), str(history)]) == 1
    assert "that is the file being converted" in capsys.readouterr().err
    assert history.read_bytes() == before


@needs_posix
def test_special_files_are_refused_without_blocking(game_file: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.pgn"
    os.mkfifo(fifo)
    assert main(["export", str(game_file), "--format", "pgn", "-o", str(fifo)]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    if os.path.exists("/dev/null"):
        with pytest.raises(OSError, match="not a regular file") as refused:
            check_export_target("/dev/null")
        assert refused.value.strerror and "FIFO, a device" in refused.value.strerror
    with pytest.raises(OSError, match="it is a folder"):
        check_export_target(tmp_path)


def test_a_missing_folder_is_not_created(game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no" / "such" / "folder" / "game.pgn"
    assert main(["export", str(game_file), "-o", str(out)]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()
    with pytest.raises(OSError, match="does not exist"):
        atomic_write_text(out, "text")  # a saved record is no different
    assert not (tmp_path / "no").exists()


@needs_posix
def test_a_link_is_written_through_to_its_target(game_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.pgn"
    target.write_text("old")
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    assert check_export_target(link) == target.resolve()
    assert main(["export", str(game_file), "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("[Event ")


@needs_posix
def test_new_files_get_ordinary_permissions(game_file: Path, tmp_path: Path, umask_022: None) -> None:
    from app.engine.record import read_record
    record = read_record(game_file)
    for fmt, name in (("pgn", "game.pgn"), ("reconchess", "history.json"), ("svg", "board.svg")):
        export_record(record, fmt, tmp_path / name)
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o644, fmt
    record.save(tmp_path / "copy.json")
    assert stat.S_IMODE(os.stat(tmp_path / "copy.json").st_mode) == 0o644


@needs_posix
def test_a_replaced_file_keeps_its_permissions(game_file: Path, tmp_path: Path, umask_022: None) -> None:
    out = tmp_path / "private.pgn"
    out.write_text("old")
    os.chmod(out, 0o600)
    assert main(["export", str(game_file), "-o", str(out)]) == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600 and out.read_text().startswith("[Event ")
