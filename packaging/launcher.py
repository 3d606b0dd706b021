"""The frozen app's entry point: the same as the ``sightline`` command (``app.cli:main``)."""

import os
import sys

if getattr(sys, "frozen", False):
    # numba's cache of the compiled inference kernels: one folder whatever the working directory
    # (sightline_numba_cache.py says why). Inherited by the worker processes; a value set by the user wins.
    os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES",
                          "sightline_numba_cache.FrozenCacheLocator,"
                          "UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator")

from app.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
