"""Autosave slots: each running window keeps its own game, locked; every unfinished game left by a window that is
gone is offered, and none that a live window still holds. Qt-free: the locks are tested with real processes."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app import storage
from app.engine.blind import BlindChess
from app.engine.clock import TimeControl
from app.engine.core import Resign
from app.engine.record import GameSession
from test_record_fuzz import random_action  # tests/ is on the path (pytest prepend import mode)

ROOT = Path(__file__).resolve().parent.parent

# A window in another process: it claims a slot, saves a game of ``steps`` actions, says READY and waits to be
# killed (or for its standard input to close, when it lets go of the slot properly).
OWNER = textwrap.dedent("""
    import random, sys
    from app import storage
    from app.engine.blind import BlindChess
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
