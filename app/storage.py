"""Where Sightline keeps its files, and the autosaves of the games being played.

The data directory is the user data directory of the platform (platformdirs:
``~/.local/share/Sightline`` on Linux, ``%LOCALAPPDATA%\\Sightline`` on Windows,
``~/Library/Application Support/Sightline`` on macOS). The environment variable
``SIGHTLINE_DATA_DIR`` replaces it (tests, portable installs).

Each running window keeps its game in its own **autosave slot**, a folder under
``autosaves/`` holding the autosave, its previous copy and a lock file. The
window holds an operating-system lock on that file (``flock`` on Linux and
macOS, ``msvcrt.locking`` on Windows) for as long as it owns the slot. The
system drops such a lock when the process ends, however it ends, so a crashed
window never blocks its slot, and a slot whose lock is held belongs to a live
window: :func:`unfinished_games` neither offers nor takes it. Two windows open
at once therefore each keep their own game, and after a crash of both the next
start finds both.

The single ``autosave.json`` of earlier versions (directly in the data
directory) is moved into a slot of its own the first time it is looked for, so
it is still offered.

Every write goes to a temporary file that is flushed to disk and then renamed
over the autosave, and the autosave it replaces is kept as the previous copy
(``autosave.prev.json``) until the new one is in place. A crash at any moment
therefore leaves at least one complete, readable game. A damaged file (not a
game, cut short, impossible) is moved aside (``autosave.corrupt-<time>.json``),
never deleted, and logged; a finished game is never offered. A file that cannot
be read at all just now (no permission, a disk error, a folder or a FIFO where
the file should be) and a game written by a newer Sightline are left exactly as
they are, reported, and looked at again at the next start: their slot is not
emptied. Only what is known to be finished, or nothing, is ever removed.

>>> import tempfile, os
>>> from app.games.minit.rules import MinitChess, MinitMove
>>> from app.engine.record import GameSession
>>> os.environ["SIGHTLINE_DATA_DIR"] = tempfile.mkdtemp()
>>> session = GameSession(MinitChess())
>>> session.play(0, MinitMove.parse("b1-c3"))
>>> slot = claim_slot()
>>> slot.save(session).name
'autosave.json'
>>> unfinished_games()  # the slot is held by a live owner: not offered
[]
>>> slot.release()
>>> [len(game.record.entries) for game in unfinished_games()]
[1]
>>> del os.environ["SIGHTLINE_DATA_DIR"]
"""

from __future__ import annotations

import datetime as _dt
import enum
import json
import logging
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator

import platformdirs

from app.engine.record import (FORMAT, VERSION, GameRecord, GameSession, RecordError, parse_record, read_limited,
                               replay)

__all__ = ["AUTOSAVE_NAME", "locked_while", "DATA_DIR_ENV", "PREVIOUS_NAME", "SLOTS_NAME", "AutosaveSlot", "UnfinishedGame",
           "autosave", "autosave_path", "claim_slot", "data_dir", "discard_autosave", "load_autosave",
           "release_all", "slots_dir", "unfinished_games"]

APP_NAME = "Sightline"
DATA_DIR_ENV = "SIGHTLINE_DATA_DIR"
AUTOSAVE_NAME = "autosave.json"
PREVIOUS_NAME = "autosave.prev.json"
SLOTS_NAME = "autosaves"  # the folder of the slots, in the data directory
LOCK_NAME = "lock"
MIGRATION_LOCK_NAME = ".legacy.lock"  # held while the old single autosave moves into a slot

log = logging.getLogger("sightline.storage")

Report = Callable[[str], None]


def data_dir() -> Path:
    """Sightline's user data directory (``$SIGHTLINE_DATA_DIR`` if set); not created here."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def autosave_path() -> Path:
    """The single autosave of earlier versions (still read, and written by :func:`autosave`)."""
    return data_dir() / AUTOSAVE_NAME


def slots_dir() -> Path:
    return data_dir() / SLOTS_NAME


# ---- writing and reading one folder's autosave ------------------------------------------------------------------

def _fsync_dir(directory: Path) -> None:
    # Make the renames durable too (POSIX; Windows cannot open a directory, and its renames are journaled).
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write(directory: Path, game: GameRecord | GameSession) -> Path:
    record = game.snapshot() if isinstance(game, GameSession) else game
    # Compact JSON: this runs after every action.
    data = json.dumps(record.to_json(), separators=(",", ":")).encode("utf-8")
    target = directory / AUTOSAVE_NAME
    previous = directory / PREVIOUS_NAME
    fd, temp = tempfile.mkstemp(prefix=".autosave.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # Two renames, each atomic: between them the previous copy is complete and the new one is whole in
        # the temporary file, so no moment lacks a readable game.
        if target.exists():
            os.replace(target, previous)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    if record.result is not None:
        # A finished game: the unfinished copy before it must not be offered if this one is lost later.
        previous.unlink(missing_ok=True)
    _fsync_dir(directory)
    return target


def _tell(message: str, report: Report | None) -> None:
    log.warning("%s", message)
    if report is not None:
        report(message)


def _set_aside(path: Path, problem: str, report: Report | None) -> bool:
    """Move a damaged autosave out of the way (never delete it); False when it had to stay where it is."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"autosave.corrupt-{stamp}.json")
    counter = 1
    while aside.exists():
        counter += 1
        aside = path.with_name(f"autosave.corrupt-{stamp}-{counter}.json")
    try:
        os.replace(path, aside)
    except OSError as error:
        _tell(f"the autosave {path} cannot be read ({problem}) nor moved aside ({error.strerror or error}); "
              "it was left where it is", report)
        return False
    _tell(f"the autosave {path} cannot be read ({problem}); it was moved to {aside}", report)
    return True


class Found(enum.Enum):
    """What a folder's autosave holds."""

    NOTHING = "nothing"  # no autosave (or only damaged ones, now set aside)
    FINISHED = "finished"  # a finished game: nothing to offer
    UNFINISHED = "unfinished"
    KEPT = "kept"  # a file that cannot be read now, or a newer Sightline's game: left alone, reported


def _newer_version(data: bytes) -> bool:
    """Whether ``data`` is a record of a newer format version than this Sightline reads."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return False
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        return False
    version = value.get("version")
    return isinstance(version, int) and not isinstance(version, bool) and version > VERSION


def _read(path: Path, report: Report | None) -> tuple[Found, GameRecord | None]:
    """What ``path`` holds, and the game if it is unfinished."""
    if not os.path.lexists(path):
        return Found.NOTHING, None
    try:
        # Regular files only, opened without waiting: a FIFO would hang the window's start.
        data = read_limited(path, "an autosave")
    except RecordError as error:
        if not os.path.lexists(path):
            return Found.NOTHING, None  # gone in the meantime
        _tell(f"{error}; the autosave was left as it is and is tried again at the next start", report)
        return Found.KEPT, None
    try:
        record = parse_record(data, str(path))
        game = replay(record).game
    except RecordError as error:
        if _newer_version(data):
            _tell(f"the autosave {path} was written by a newer Sightline; it was left as it is, for that "
                  "version to continue", report)
            return Found.KEPT, None
        return (Found.NOTHING if _set_aside(path, str(error), report) else Found.KEPT), None
    if record.result is not None or game.is_over:
        return Found.FINISHED, None
    return Found.UNFINISHED, record


def _load(directory: Path, report: Report | None) -> tuple[Found, GameRecord | None]:
    """The folder's autosave, or its previous copy when the autosave is missing or was set aside. A newest copy
    that cannot be read keeps the whole folder as it is: continuing the older one would write over it."""
    found, record = _read(directory / AUTOSAVE_NAME, report)
    if found is not Found.NOTHING:
        return found, record
    return _read(directory / PREVIOUS_NAME, report)


def _discard(directory: Path) -> None:
    for name in (AUTOSAVE_NAME, PREVIOUS_NAME):
        (directory / name).unlink(missing_ok=True)


# ---- the single autosave of earlier versions -------------------------------------------------------------------

def autosave(game: GameRecord | GameSession) -> Path:
    """Save a game (a session: with its running clock) as the single autosave of the data directory.

    Windows use an :class:`AutosaveSlot` instead; this stays for scripts and for the files of earlier versions.
    The write is atomic and the previous autosave survives until the new one is complete. Raises ``OSError``
    when the disk refuses.
    """
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return _write(directory, game)


def load_autosave(report: Report | None = None) -> GameRecord | None:
    """The unfinished game in the single autosave, or ``None``.

    A finished game is not offered. A damaged autosave (corrupt, truncated) is
    moved aside and logged, and ``report`` (if given) is told why, in words for
    the player; then the previous copy is tried. One that cannot be read just now,
    or that a newer Sightline wrote, is left as it is and reported. Pass the
    result to :func:`app.engine.record.resume`.
    """
    return _load(data_dir(), report)[1]


def discard_autosave() -> None:
    """Forget the single autosave. Set-aside files stay."""
    _discard(data_dir())


# ---- locks ---------------------------------------------------------------------------------------------------------

def _try_lock(path: Path) -> IO[bytes] | None:
    """An exclusive lock on ``path`` (created if missing), or ``None`` when someone else holds it.

    The lock belongs to the open file, not to the process, so a second window in the same process is refused
    like a window of another process; the system drops it when the file is closed or the process dies.
    """
    try:
        handle = open(path, "a+b")
    except OSError:
        return None  # the slot vanished (its owner removed it) or cannot be used
    try:
        if sys.platform == "win32":
            import msvcrt  # Windows only
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl  # POSIX only
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            # The owner may have removed the file between our open and our lock: then the lock guards nothing.
            if os.fstat(handle.fileno()).st_ino != os.stat(path).st_ino:
                raise OSError("the lock file was replaced")
    except OSError:
        handle.close()
        return None
    return handle


@contextmanager
def locked_while(path: Path, wait: float = 5.0) -> Iterator[bool]:
    """Hold the lock file ``path`` while the block runs (a read, change and write of a file that several windows
    or processes may change at once), waiting up to ``wait`` seconds for whoever holds it; yields whether the lock
    was had (the block runs either way: a lock that cannot be had must not stop the caller's work).

    >>> import tempfile
    >>> lock = Path(tempfile.mkdtemp()) / "x.lock"
    >>> with locked_while(lock) as had:
    ...     with locked_while(lock, wait=0.05) as again:
    ...         (had, again)
    (True, False)
    """
    deadline = time.monotonic() + wait
    handle = _try_lock(path)
    while handle is None and time.monotonic() < deadline:
        time.sleep(0.01)
        handle = _try_lock(path)
    try:
        yield handle is not None
    finally:
        if handle is not None:
            _unlock(handle)


def _unlock(handle: IO[bytes]) -> None:
    try:
        if sys.platform == "win32":
            import msvcrt  # Windows only
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl  # POSIX only
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    except OSError:
        pass  # closing the file drops it anyway
    finally:
        handle.close()


# ---- slots -----------------------------------------------------------------------------------------------------------

class AutosaveSlot:
    """One window's autosave: a folder it holds locked while it owns it. Made by :func:`claim_slot` or taken
    over from :func:`unfinished_games`."""

    def __init__(self, directory: Path, lock: IO[bytes]) -> None:
        self.directory = directory
        self._lock: IO[bytes] | None = lock

    def __repr__(self) -> str:
        return f"AutosaveSlot({str(self.directory)!r}, held={self.held})"

    @property
    def held(self) -> bool:
        return self._lock is not None

    @property
    def path(self) -> Path:
        return self.directory / AUTOSAVE_NAME

    def save(self, game: GameRecord | GameSession) -> Path:
        """Write the game atomically (see the module text); raises ``OSError`` when the disk refuses, and
        ``RuntimeError`` once the slot is released."""
        if self._lock is None:
            raise RuntimeError("this autosave slot was released")
        return _write(self.directory, game)

    def load(self, report: Report | None = None) -> GameRecord | None:
        """The unfinished game in the slot, as :func:`load_autosave` reads it."""
        return _load(self.directory, report)[1]

    def discard(self) -> None:
        """Forget the slot's game (finished, or declined). Set-aside files stay."""
        _discard(self.directory)

    def release(self) -> None:
        """Let go of the slot: an unfinished game in it is offered at the next start; an empty slot is removed."""
        lock, self._lock = self._lock, None
        if lock is None:
            return
        if sys.platform == "win32":
            # Windows cannot remove an open file, so the empty slot goes only once the lock is dropped. That is
            # still safe: anyone who took the lock file in between has it open, so it cannot be removed, and a
            # lock file made after ours went keeps the folder from being removed.
            _unlock(lock)
            if self._empty():
                _remove_empty_slot(self.directory)
            return
        if self._empty():
            # Removed while still locked: a window that opened the lock file before cannot lock it (and finds it
            # replaced or gone once we let go); one that opens it after gets a new file, which keeps the folder.
            # Nothing is removed after the lock is dropped, so no one else's lock file or folder can go.
            _remove_empty_slot(self.directory)
        _unlock(lock)

    def fingerprint(self) -> str:
        """The state of the slot's files (which exist, when each was last written): equal fingerprints mean
        nothing was written to the slot in between."""
        parts = []
        for name in (AUTOSAVE_NAME, PREVIOUS_NAME):
            try:
                parts.append(str((self.directory / name).stat().st_mtime_ns))
            except OSError:
                parts.append("-")
        return "|".join(parts)

    def _empty(self) -> bool:
        try:
            return not any(path.name != LOCK_NAME for path in self.directory.iterdir())
        except OSError:
            return False


def _remove_empty_slot(directory: Path) -> None:
    """Remove a slot folder holding nothing but its lock file (see :meth:`AutosaveSlot.release` for when)."""
    try:
        (directory / LOCK_NAME).unlink(missing_ok=True)
        directory.rmdir()
    except OSError:
        pass  # something else lives there (a set-aside file): keep it


def claim_slot() -> AutosaveSlot:
    """A new, empty slot, locked for the caller. Raises ``OSError`` when the data directory cannot be written."""
    root = slots_dir()
    root.mkdir(parents=True, exist_ok=True)
    for _attempt in range(20):
        directory = Path(tempfile.mkdtemp(prefix="slot-", dir=root))
        lock = _try_lock(directory / LOCK_NAME)
        if lock is not None:
            if directory.is_dir():
                return AutosaveSlot(directory, lock)
            _unlock(lock)
        # A scan of another window took this fresh, empty folder for an abandoned one and removed it: again.
    raise OSError(f"no autosave slot could be made in {root}")


def _adopt_legacy(report: Report | None) -> None:
    """Move the single autosave of an earlier version into a slot of its own, so it is offered like the rest."""
    legacy = [data_dir() / name for name in (AUTOSAVE_NAME, PREVIOUS_NAME)]
    if not any(path.exists() for path in legacy):
        return
    root = slots_dir()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        if report is not None:
            report(f"the autosave folder {root} cannot be made: {error.strerror or error}")
        return
    guard = _try_lock(root / MIGRATION_LOCK_NAME)
    if guard is None:
        return  # another window is moving it right now; it will offer it
    try:
        slot = claim_slot()
        try:
            for path in legacy:
                if path.exists():
                    os.replace(path, slot.directory / path.name)
        finally:
            slot.release()
    except OSError as error:
        log.warning("cannot move the old autosave into a slot: %s", error)
    finally:
        _unlock(guard)


@dataclass
class UnfinishedGame:
    """An unfinished game left in a slot nobody holds; the caller now holds the slot (see :func:`unfinished_games`)."""

    slot: AutosaveSlot
    record: GameRecord
    saved: float  # when it was last written (seconds since the epoch)
    note: str = ""  # what the window knows about it (an older copy of a game saved elsewhere)


def unfinished_games(report: Report | None = None) -> list[UnfinishedGame]:
    """Every unfinished game in a slot no live window holds, newest first, including the single autosave of an
    earlier version.

    The caller holds each returned slot: it continues the game in one (:meth:`AutosaveSlot` is then its own),
    discards some, and must :meth:`~AutosaveSlot.release` the others so that they are offered again next time.
    Slots with no unfinished game are cleaned away (set-aside damaged files stay). ``report`` is told, in words
    for the player, of every autosave that could not be read.
    """
    _adopt_legacy(report)
    try:
        folders = sorted(path for path in slots_dir().iterdir() if path.is_dir())
    except OSError:
        return []
    found: list[UnfinishedGame] = []
    for directory in folders:
        lock = _try_lock(directory / LOCK_NAME)
        if lock is None:
            continue  # a live window's slot
        slot = AutosaveSlot(directory, lock)
        try:
            what, record = _load(directory, report)
            if what is Found.UNFINISHED and record is not None:
                found.append(UnfinishedGame(slot, record, _saved_time(directory)))
                continue
            if what is not Found.KEPT:
                slot.discard()  # a finished game (or nothing): not offered, and the slot is freed
        except OSError as error:
            _tell(f"the autosave folder {directory} cannot be cleaned up: {error.strerror or error}", report)
        slot.release()  # a slot whose autosave cannot be read stays as it is, for the next start
    found.sort(key=lambda game: game.saved, reverse=True)
    return found


def _saved_time(directory: Path) -> float:
    for name in (AUTOSAVE_NAME, PREVIOUS_NAME):
        try:
            return (directory / name).stat().st_mtime
        except OSError:
            pass
    return 0.0


def release_all(games: list[UnfinishedGame], keep: AutosaveSlot | None = None) -> None:
    """Release the slots of ``games`` except ``keep`` (the one the window took over)."""
    for game in games:
        if game.slot is not keep:
            game.slot.release()

