"""Where the frozen app keeps numba's compiled inference kernels (``app/engine/inference_jit.py``).

numba stores the machine code of a ``cache=True`` function beside its source, or in a user-wide folder, in a
subfolder named after a hash of the source's absolute path. In a PyInstaller bundle a module's code carries a
*relative* file name (``app/engine/inference_jit.py``), numba makes it absolute against the current directory,
and so every working directory the app is started from gets its own cache: a recompile of several seconds and
another folder under ``~/.cache/numba`` each time. ``NUMBA_CACHE_DIR`` does not help: numba uses it only for a
source file that exists on disk.

The bundle's launcher (``launcher.py``) therefore names :class:`FrozenCacheLocator` in
``NUMBA_CACHE_LOCATOR_CLASSES``, ahead of numba's own locators. numba imports this module only when it first
looks up a cache, so starting the app costs nothing. For a module of the bundle the cache goes to
``<user cache dir>/Sightline/numba`` (``~/.cache/Sightline/numba`` on Linux, ``%LOCALAPPDATA%\\Sightline\\Cache\\numba``
on Windows, ``~/Library/Caches/Sightline/numba`` on macOS), or to ``$NUMBA_CACHE_DIR`` when that is set, in a
subfolder named after the module's relative path: the same from any working directory. As for numba's own frozen
locator, the code is valid for the executable it was compiled by (its contents, which hold the app's modules, are
hashed): a new version of the app compiles anew. Where that folder cannot be written, numba's locators decide.
"""

from __future__ import annotations

import hashlib
import os
import sys
from typing import Any

from numba.core import caching, config

__all__ = ["LOCATORS", "FrozenCacheLocator", "cache_root"]

LOCATORS = "sightline_numba_cache.FrozenCacheLocator,UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator"
"""The value of ``NUMBA_CACHE_LOCATOR_CLASSES`` in the bundle: ours, then numba's usual ones in numba's order."""


def cache_root() -> str:
    """``$NUMBA_CACHE_DIR`` if set, else the app's user cache folder (platformdirs, as ``app.storage``) + numba."""
    if config.CACHE_DIR:
        return str(config.CACHE_DIR)
    import platformdirs

    from app.storage import APP_NAME
    return os.path.join(platformdirs.user_cache_dir(APP_NAME, appauthor=False), "numba")


class FrozenCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):  # type: ignore[misc]
    """numba's cache locator for the functions of a frozen app's own modules (relative file names)."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = os.path.dirname(py_file.replace("\\", "/"))
        digest = hashlib.sha1(folder.encode()).hexdigest()[:16]
        self._cache_path = os.path.join(cache_root(), f"{os.path.basename(folder) or 'top'}_{digest}")

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> FrozenCacheLocator | None:
        if not getattr(sys, "frozen", False) or os.path.isabs(py_file):
            return None  # not a module inside the bundle: numba's own locators
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None  # cannot write there: numba's user-wide folder, as without this class
        return locator
