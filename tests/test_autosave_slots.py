"""Autosave slots: each running window keeps its own game, locked; every unfinished game left by a window that is
gone is offered, and none that a live window still holds. Qt-free: the locks are tested with real processes."""

from __future__ import annotations

import builtins
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from app import storage
from app.games.blind.rules import BlindChess
from app.engine.clock import TimeControl
from app.engine.core import Resign
from app.engine.record import VERSION, GameSession
from test_record_fuzz import random_action  # tests/ is on the path (pytest prepend import mode)

ROOT = Path(__file__).resolve().parent.parent

# A window in another process: it claims a slot, saves a game of ``steps`` actions, says READY and waits to be
# killed (or for its standard input to close, when it lets go of the slot properly).
OWNER = textwrap.dedent("""
    import random, sys
    from app import storage
    from app.games.blind.rules import BlindChess
    from app.engine.record import GameSession
    from test_record_fuzz import random_action
    session = GameSession(BlindChess())
    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[1])):
        session.play(session.game.to_move, random_action(session.game, rng))
    slot = storage.claim_slot()
    slot.save(session)
    print("READY", slot.directory, flush=True)
    sys.stdin.read()
    slot.release()
""")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.DATA_DIR_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def unfinished(steps: int, seed: int = 1) -> GameSession:
    session = GameSession(BlindChess(), TimeControl(300, 5))
    rng = random.Random(seed)
    for _ in range(steps):
        session.play(session.game.to_move or 0, random_action(session.game, rng))  # type: ignore[arg-type]
    return session


def start_owner(data_dir: Path, steps: int) -> tuple[subprocess.Popen[str], Path]:
    env = dict(os.environ, SIGHTLINE_DATA_DIR=str(data_dir),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(steps)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert owner.stdout is not None
    line = owner.stdout.readline()
    assert line.startswith("READY"), "the owner process failed before it held its slot"
    return owner, Path(line.split(" ", 1)[1].strip())


def offered_lengths() -> list[int]:
    games = storage.unfinished_games()
    lengths = sorted(len(game.record.entries) for game in games)
    storage.release_all(games)
    return lengths


def test_two_windows_at_once_each_keep_their_own_game(data_dir: Path) -> None:
    first, second = storage.claim_slot(), storage.claim_slot()
    assert first.directory != second.directory
    first.save(unfinished(4))
    second.save(unfinished(6, seed=2))
    first.save(unfinished(5))  # the first window plays on: the second's game is untouched
    assert len(first.load().entries) == 5 and len(second.load().entries) == 6  # type: ignore[union-attr]
    assert storage.unfinished_games() == []  # both are held: neither is offered to a third window
    first.release()
    second.release()
    assert offered_lengths() == [5, 6]


def test_a_slot_held_by_a_live_process_is_neither_offered_nor_taken(data_dir: Path) -> None:
    owner, directory = start_owner(data_dir, 4)
    try:
        assert storage.unfinished_games() == []
        assert (directory / storage.AUTOSAVE_NAME).exists()  # the scan left it alone
    finally:
        owner.communicate("")  # the owner lets go
    assert owner.returncode == 0
    assert offered_lengths() == [4]


def test_after_both_windows_crash_the_next_start_offers_both(data_dir: Path) -> None:
    owners = [start_owner(data_dir, steps) for steps in (3, 7)]
    for owner, _directory in owners:
        owner.send_signal(signal.SIGKILL)
        owner.wait(timeout=60)
    games = storage.unfinished_games()
    assert sorted(len(game.record.entries) for game in games) == [3, 7]
    assert storage.unfinished_games() == []  # while this start holds them, another start gets none
    storage.release_all(games)
    assert offered_lengths() == [3, 7]


def test_the_game_taken_over_stays_held_and_the_others_are_offered_later(data_dir: Path) -> None:
    for steps in (2, 4):
        slot = storage.claim_slot()
        slot.save(unfinished(steps))
        slot.release()
    games = storage.unfinished_games()
    taken = games[0].slot
    storage.release_all(games, keep=taken)
    assert taken.held
    left = storage.unfinished_games()
    assert [len(game.record.entries) for game in left] == [len(games[1].record.entries)]
    storage.release_all(left)
    taken.save(unfinished(9))
    taken.release()
    assert offered_lengths() == [len(games[1].record.entries), 9]


def test_the_single_autosave_of_an_earlier_version_is_still_offered(data_dir: Path) -> None:
    storage.autosave(unfinished(4))
    storage.autosave(unfinished(5))  # and its previous copy moves with it
    assert offered_lengths() == [5]
    assert not (data_dir / storage.AUTOSAVE_NAME).exists() and not (data_dir / storage.PREVIOUS_NAME).exists()
    games = storage.unfinished_games()
    (directory,) = [game.slot.directory for game in games]
    assert sorted(path.name for path in directory.iterdir()) == sorted(
        [storage.AUTOSAVE_NAME, storage.PREVIOUS_NAME, storage.LOCK_NAME])
    storage.release_all(games)


def test_finished_and_empty_slots_are_cleaned_away_and_damaged_files_kept(data_dir: Path) -> None:
    empty = storage.claim_slot()
    empty.release()
    assert not empty.directory.exists()
    session = unfinished(4)
    finished = storage.claim_slot()
    finished.save(session)
    session.play(session.game.to_move or 0, Resign())
    finished.save(session)
    finished.release()
    damaged = storage.claim_slot()
    damaged.path.write_bytes(b"{")
    damaged.release()
    reported: list[str] = []
    assert storage.unfinished_games(reported.append) == []
    assert "not valid JSON" in reported[0]
    assert not finished.directory.exists()
    kept = [path.name for path in damaged.directory.iterdir() if path.name != storage.LOCK_NAME]
    assert len(kept) == 1 and kept[0].startswith("autosave.corrupt-")


def test_a_released_slot_refuses_to_write(data_dir: Path) -> None:
    slot = storage.claim_slot()
    slot.release()
    with pytest.raises(RuntimeError):
        slot.save(unfinished(1))


# ---- autosaves that cannot be read, hostile folders, the release race ----------------------------------------

def left_slot(steps: int = 3, copies: int = 2) -> Path:
    """A slot left by a window that is gone, holding an unfinished game (and its previous copy)."""
    slot = storage.claim_slot()
    for copy in range(copies):
        slot.save(unfinished(steps - copies + 1 + copy))
    slot.release()
    return slot.directory


def names(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir() if path.name != storage.LOCK_NAME)


def refuse_reading(monkeypatch: pytest.MonkeyPatch, target: Path, errno: int, text: str) -> None:
    """Opening ``target`` fails as it does for a file owned by root (EACCES) or on a failing disk (EIO)."""
    real_open = builtins.open

    def fake_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(path, (str, os.PathLike)) and Path(path) == target and "r" in mode:
            raise OSError(errno, text, str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)


@pytest.mark.parametrize("copies", [1, 2])  # with a previous copy, continuing that would overwrite the newest
@pytest.mark.parametrize("errno, text", [(13, "Permission denied"), (5, "Input/output error")])
def test_an_autosave_that_cannot_be_read_is_left_alone_and_reported(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch, errno: int, text: str, copies: int) -> None:
    directory = left_slot(copies=copies)
    before = {name: (directory / name).read_bytes() for name in names(directory)}
    reported: list[str] = []
    with monkeypatch.context() as patch:
        refuse_reading(patch, directory / storage.AUTOSAVE_NAME, errno, text)
        storage.release_all(storage.unfinished_games(reported.append))
        assert {name: (directory / name).read_bytes() for name in names(directory)} == before  # nothing lost
        assert len(reported) == 1 and text in reported[0] and "left as it is" in reported[0]
        # Released, not held: the next start looks at it again, and offers it once it can be read.
        assert storage.unfinished_games(reported.append) == [] and len(reported) == 2
    assert offered_lengths() == [3]


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_a_folder_or_fifo_in_place_of_the_autosave_neither_crashes_nor_hangs_the_scan(
        data_dir: Path, kind: str) -> None:
    hostile = left_slot(2)
    (hostile / storage.AUTOSAVE_NAME).unlink()
    if kind == "directory":
        (hostile / storage.AUTOSAVE_NAME).mkdir()
    else:
        os.mkfifo(hostile / storage.AUTOSAVE_NAME)
    fine = left_slot(5)

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("the scan hangs")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        reported: list[str] = []
        games = storage.unfinished_games(reported.append)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [game.slot.directory for game in games] == [fine]  # the scan went on
    storage.release_all(games)
    assert len(reported) == 1 and str(hostile / storage.AUTOSAVE_NAME) in reported[0]
    assert names(hostile) == [storage.AUTOSAVE_NAME, storage.PREVIOUS_NAME]  # the previous copy is kept too


def test_a_finished_game_that_cannot_be_removed_is_reported_and_the_scan_goes_on(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = unfinished(4)
    session.play(session.game.to_move or 0, Resign())
    finished = storage.claim_slot()
    finished.save(session)
    finished.release()
    fine = left_slot(5)

    def read_only(self: storage.AutosaveSlot) -> None:
        raise OSError(30, "Read-only file system")

    reported: list[str] = []
    with monkeypatch.context() as patch:
        patch.setattr(storage.AutosaveSlot, "discard", read_only)
        games = storage.unfinished_games(reported.append)
        assert [game.slot.directory for game in games] == [fine]
        storage.release_all(games)
    assert len(reported) == 1 and "Read-only file system" in reported[0]
    assert finished.directory.exists()
    assert offered_lengths() == [5]  # released: a later start cleans it away
    assert not finished.directory.exists()


def test_an_autosave_of_a_newer_sightline_is_kept_where_it_is_and_reported(data_dir: Path) -> None:
    directory = left_slot()
    newer = json.loads((directory / storage.AUTOSAVE_NAME).read_bytes())
    newer["version"] = VERSION + 1
    (directory / storage.AUTOSAVE_NAME).write_text(json.dumps(newer))
    before = {name: (directory / name).read_bytes() for name in names(directory)}
    reported: list[str] = []
    assert storage.unfinished_games(reported.append) == []  # nor its older previous copy, which would overwrite it
    assert len(reported) == 1 and "newer Sightline" in reported[0]
    assert {name: (directory / name).read_bytes() for name in names(directory)} == before


def test_a_damaged_autosave_that_cannot_be_moved_aside_is_not_deleted(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = left_slot()
    (directory / storage.PREVIOUS_NAME).unlink()
    (directory / storage.AUTOSAVE_NAME).write_bytes(b"{")
    real_replace = os.replace

    def refuse(source: object, target: object) -> None:
        if "corrupt" in str(target):
            raise OSError(13, "Permission denied")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", refuse)
    reported: list[str] = []
    assert storage.unfinished_games(reported.append) == []
    assert "left where it is" in reported[0]
    assert (directory / storage.AUTOSAVE_NAME).read_bytes() == b"{"


def test_releasing_an_empty_slot_never_removes_a_lock_taken_after_it(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another window's scan tries to take the folder at the moment the owner lets go of its lock.
    slot = storage.claim_slot()
    lock_path = slot.directory / storage.LOCK_NAME
    real_unlock = storage._unlock
    taken: list[object] = []

    def unlock_then_someone_claims(handle: object) -> None:
        real_unlock(handle)  # type: ignore[arg-type]
        if not taken:
            taken.append(storage._try_lock(lock_path))

    monkeypatch.setattr(storage, "_unlock", unlock_then_someone_claims)
    slot.release()
    (claimer,) = taken
    if claimer is not None:  # whoever holds a lock must still have its lock file, in its folder
        assert lock_path.exists()
        assert os.stat(lock_path).st_ino == os.fstat(claimer.fileno()).st_ino  # type: ignore[attr-defined]
        real_unlock(claimer)  # type: ignore[arg-type]
    else:
        assert not slot.directory.exists()  # removed while still locked: nothing for anyone to take
