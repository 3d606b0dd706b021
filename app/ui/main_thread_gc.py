"""Python's cycle collector, run on the GUI thread only, from a timer.

Why: Python collects reference cycles in whichever thread happens to allocate when a threshold is passed. The
window has threads of its own (the network's event loop, the belief's inference, autosave), so a collection can
start in one of them. If the garbage holds a Qt connection, PySide lets go of the GIL inside
``QObject::disconnect`` while holding Qt's lock on the connection, then asks for the GIL back to look up a Python
method; the GUI thread, holding the GIL, may at that moment wait for the same lock to connect something (showing a
widget does). Each waits for the other for ever: seen once in the test run (2026-11-28), the GUI thread in
``QWidget.setVisible`` and the network thread in a collection started by an allocation. Collecting only on the GUI
thread, the one that owns the Qt objects, leaves nothing to wait on. The same cure as pyqtgraph's
``GarbageCollector`` and calibre's.

:func:`install` switches automatic collection off for the whole process and starts a timer that does what the
automatic collector would have done (each generation collected once its count passes Python's threshold), so the
memory kept by cycles stays what it was. A child made with ``os.fork`` gets automatic collection back, since it
has no timer. Cycles freed by a thread's own reference counting (not by the collector) are not covered: no code of
Sightline drops a Qt object from another thread.

>>> import gc
>>> from PySide6.QtWidgets import QApplication
>>> application = QApplication.instance() or QApplication([])
>>> collector = install(application)
>>> gc.isenabled(), install(application) is collector
(False, True)
"""

from __future__ import annotations

import gc
import os
import threading

from PySide6.QtCore import QCoreApplication, QObject, QTimer

__all__ = ["INTERVAL_MS", "MainThreadCollector", "install"]

INTERVAL_MS = 500
"""How often the timer looks at the collector's counts: twice a second costs nothing measurable (a look is one
``gc.get_count()``; a young collection takes well under a millisecond) and keeps garbage from piling up."""

_installed: MainThreadCollector | None = None


class MainThreadCollector(QObject):
    """Collects cycles on the thread it lives on, when due, every :data:`INTERVAL_MS` and on :meth:`collect_due`."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.collect_due)

    def start(self) -> None:
        gc.disable()
        self._timer.start()

    def collect_due(self) -> int:
        """When the young generation's count has passed its threshold, collect the oldest generation that is due
        (with the younger ones), as CPython would have; return how many objects were found unreachable. Called on
        the owning thread only."""
        young, middle, old = gc.get_count()
        if young <= self.thresholds[0]:
            return 0
        # Each collection adds one to the next generation's count: CPython picks the oldest one over its threshold.
        generation = 2 if old > self.thresholds[2] else 1 if middle > self.thresholds[1] else 0
        return gc.collect(generation)


def install(application: QCoreApplication) -> MainThreadCollector:
    """Pin cycle collection to ``application``'s thread (the GUI thread) for the rest of the process; calling it
    again returns the collector already installed."""
    global _installed
    if _installed is None:
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("the collector belongs on the main thread")
        _installed = MainThreadCollector(application)
        _installed.start()
        os.register_at_fork(after_in_child=gc.enable)
    return _installed
