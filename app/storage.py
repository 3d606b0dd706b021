"""Where Sightline keeps its files, and the autosave of the game being played.

The data directory is the user data directory of the platform (platformdirs:
``~/.local/share/Sightline`` on Linux, ``%LOCALAPPDATA%\\Sightline`` on Windows,
``~/Library/Application Support/Sightline`` on macOS). The environment variable
``SIGHTLINE_DATA_DIR`` replaces it (tests, portable installs).

The autosave holds one game, the one being played: the window calls
:func:`autosave` after every action (and when notes change), :func:`load_autosave`
on start to offer an unfinished game for resumption, and :func:`discard_autosave`
when the game is over or the player declines it.

Every write goes to a temporary file that is flushed to disk and then renamed
over the autosave, and the autosave it replaces is kept as the previous copy
(``autosave.prev.json``) until the new one is in place. A crash at any moment
therefore leaves at least one complete, readable game. A file that cannot be
read is moved aside (``autosave.corrupt-<time>.json``), never deleted, and
logged; a finished game is never offered.

>>> import tempfile, os
>>> from app.engine.minit import MinitChess, MinitMove
>>> from app.engine.record import GameSession
>>> os.environ["SIGHTLINE_DATA_DIR"] = tempfile.mkdtemp()
>>> session = GameSession(MinitChess())
>>> session.play(0, MinitMove.parse("b1-c3"))
>>> autosave(session).name
'autosave.json'
>>> len(load_autosave().entries)
1
>>> discard_autosave(); load_autosave() is None
True
>>> del os.environ["SIGHTLINE_DATA_DIR"]
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Callable

from app.engine.record import MAX_RECORD_BYTES, GameRecord, GameSession, RecordError, parse_record, replay

__all__ = ["AUTOSAVE_NAME", "DATA_DIR_ENV", "PREVIOUS_NAME", "autosave", "autosave_path", "data_dir",
           "discard_autosave", "load_autosave"]

APP_NAME = "Sightline"
DATA_DIR_ENV = "SIGHTLINE_DATA_DIR"
AUTOSAVE_NAME = "autosave.json"
PREVIOUS_NAME = "autosave.prev.json"

log = logging.getLogger("sightline.storage")


def data_dir() -> Path:
    """Sightline's user data directory (``$SIGHTLINE_DATA_DIR`` if set); not created here."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def autosave_path() -> Path:
    """The autosave of the current game."""
    return data_dir() / AUTOSAVE_NAME


def _previous_path() -> Path:
    return data_dir() / PREVIOUS_NAME


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


def autosave(game: GameRecord | GameSession) -> Path:
    """Save the current game (a session: with its running clock, see ``GameSession.snapshot``).

    The write is atomic and the previous autosave survives until the new one
    is complete. Returns the autosave's path; raises ``OSError`` when the disk
    refuses (the window reports it and plays on).
    """
    record = game.snapshot() if isinstance(game, GameSession) else game
    # Compact JSON: this runs after every action.
    data = json.dumps(record.to_json(), separators=(",", ":")).encode("utf-8")
    target = autosave_path()
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".autosave.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # Two renames, each atomic: between them the previous copy is complete and the new one is whole in
        # the temporary file, so no moment lacks a readable game.
        if target.exists():
            os.replace(target, _previous_path())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    if record.result is not None:
        # A finished game: the unfinished copy before it must not be offered if this one is lost later.
        _previous_path().unlink(missing_ok=True)
    _fsync_dir(directory)
    return target


def _set_aside(path: Path, problem: str, report: Callable[[str], None] | None) -> None:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"autosave.corrupt-{stamp}.json")
    counter = 1
    while aside.exists():
        counter += 1
        aside = path.with_name(f"autosave.corrupt-{stamp}-{counter}.json")
    try:
        os.replace(path, aside)
    except OSError as error:
        message = f"the autosave {path} cannot be read ({problem}) nor moved aside ({error.strerror or error})"
    else:
        message = f"the autosave {path} cannot be read ({problem}); it was moved to {aside}"
    log.warning("%s", message)
    if report is not None:
        report(message)


def _read(path: Path, report: Callable[[str], None] | None) -> tuple[bool, GameRecord | None]:
    """(whether ``path`` held a readable game, the game if it is unfinished)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)  # parse_record refuses anything larger
    except FileNotFoundError:
        return False, None
    except OSError as error:
        log.warning("cannot read the autosave %s: %s", path, error.strerror or error)
        if report is not None:
            report(f"cannot read the autosave {path}: {error.strerror or error}")
        return False, None
    try:
        record = parse_record(data, str(path))
        game = replay(record).game
    except RecordError as error:
        _set_aside(path, str(error), report)
        return False, None
    if record.result is not None or game.is_over:
        return True, None
    return True, record


def load_autosave(report: Callable[[str], None] | None = None) -> GameRecord | None:
    """The unfinished game to offer for resumption, or ``None``.

    A finished game is not offered. An autosave that cannot be read (corrupt,
    truncated, from a newer Sightline) is moved aside and logged, and ``report``
    (if given) is told why, in words for the player; then the previous copy is
    tried. Pass the result to :func:`app.engine.record.resume`.
    """
    found, record = _read(autosave_path(), report)
    if found:
        return record
    return _read(_previous_path(), report)[1]


def discard_autosave() -> None:
    """Forget the autosaved game (it ended, or the player declined to resume it). Set-aside files stay."""
    for path in (autosave_path(), _previous_path()):
        path.unlink(missing_ok=True)
