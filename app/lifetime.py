"""Worker processes end when the process that started them ends, however it ends (even ``kill -9``).

Sightline's workers (bots, inference, match games) are started through :mod:`multiprocessing` from a fork server
(``spawn`` where there is none). Nothing in :mod:`multiprocessing` stops such a worker when its starter dies: a
worker blocked on its own input queue never sees the end of it (it holds a copy of the queue's writing end), and
while one worker lives, the fork server and the resource tracker live on too (each worker holds the pipes that keep
them running). After a killed window, about 100 MB of processes would stay behind for good.

Every worker therefore calls :func:`exit_with_parent` as it starts. It watches the *parent sentinel* that
:mod:`multiprocessing` gives every child: a pipe end (a process handle on Windows) that becomes ready when the
process that created the child ends, whichever start method was used. A daemon thread waits on it and ends the
worker at once. With the workers gone, the fork server and the resource tracker see their pipes close and end by
themselves.

>>> exit_with_parent()  # in a process that multiprocessing did not start, there is nothing to watch
False
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading

__all__ = ["ORPHANED_EXIT_CODE", "exit_with_parent"]

ORPHANED_EXIT_CODE = 70
"""The exit code of a worker ended because its starter died (no one is left to read it; it marks the cause)."""

_watching = False


def exit_with_parent() -> bool:
    """End this process as soon as the process that started it ends. Returns whether it is now watched.

    Safe to call more than once (a single watcher runs). Call it first thing in a worker's body, or as a
    ``ProcessPoolExecutor`` initializer.
    """
    global _watching
    if _watching:
        return True
    parent = multiprocessing.parent_process()
    if parent is None:
        return False
    try:
        sentinel = parent.sentinel
    except ValueError:
        return False  # no sentinel was handed to this process: nothing to watch

    def watch() -> None:
        try:
            multiprocessing.connection.wait([sentinel])
        except OSError:
            pass  # the sentinel itself is gone: the parent is no more either
        os._exit(ORPHANED_EXIT_CODE)  # not sys.exit: a worker's threads or a bot's loop must not hold it

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
    _watching = True
    return True
