"""Files written whole or not at all: a crash mid-write never leaves a broken file.

Records, autosaves and exports are all written this way (:func:`atomic_write_text`,
:func:`atomic_write_bytes`); :func:`write_target` says what a path may be replaced by.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import threading
from pathlib import Path


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 with :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


_umask_lock = threading.Lock()


def _new_file_mode() -> int:
    """The permissions an ordinary new file gets here (0644 under the usual umask of 022)."""
    with _umask_lock:  # the umask can only be read by setting it; set it straight back
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file that writing to ``path`` will replace; ``OSError`` (with a readable ``strerror``) if it must not.

    A symbolic link is followed: its target is written and the link stays a link. A FIFO, a device or a folder
    is refused (writing there would block, never end or fail half-way), and so is a folder that does not
    exist: it is not created behind the user's back.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, a device or a socket)"
        raise OSError(errno.EINVAL, f"it is {kind}, so it cannot be replaced by a file", str(path))
    if not target.parent.is_dir():
        raise OSError(errno.ENOENT, f"the folder {target.parent} does not exist", str(path))
    return target


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk, then rename it over ``path``.

    What may be written is checked by :func:`write_target` (links are written through, special files and
    missing folders refused: ``OSError``). The file keeps the permissions of the file it replaces; a new file
    gets the ordinary ones (0644 under the usual umask), not the temporary file's private 0600.
    """
    target = write_target(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
