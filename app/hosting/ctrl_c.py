"""Ctrl+C during a match, never lost.

Python turns SIGINT into a KeyboardInterrupt at whatever line the main thread is running. When that line is
inside a ``__del__`` method or a weakref callback (Dask's futures have both, and a match drops one per game),
Python prints "Exception ignored in ..." and goes on: the interrupt is gone and the match plays every game
that was left. :class:`CtrlC` also remembers the signal, so a match loop that asks :meth:`CtrlC.check` after
each game stops at the latest there.

>>> with CtrlC() as ctrl_c:
...     ctrl_c.check()  # nothing pressed: returns
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


class CtrlC:
    """While in use, SIGINT raises KeyboardInterrupt as usual and is remembered; :meth:`check` raises it again
    if it was swallowed. Only when Python's own handler is in place, in the main thread: a program started with
    Ctrl+C ignored (a background job) or with a handler of its own keeps it."""

    def __init__(self) -> None:
        self.pressed = False
        self._before: Any = None

    def __enter__(self) -> CtrlC:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self._before = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)
            self._before = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.pressed = True
        raise KeyboardInterrupt

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl+C was pressed since this began (even if it was raised already)."""
        if self.pressed:
            raise KeyboardInterrupt
