"""Cycles are collected on the GUI thread only (app/ui/main_thread_gc.py): a collection started in a worker thread
could deadlock with the GUI thread inside Qt (a Qt connection in the garbage)."""

from __future__ import annotations

import gc
import os
import threading
import weakref
from pathlib import Path

import pytest

from app.ui import main_thread_gc

RECORDS = Path(__file__).parent / "data" / "records" / "rbc"


class _Cycle:
    """An object only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


def _cycle_dropped_by_a_worker() -> list[str]:
    """Make garbage cycles in a worker thread, more than the young generation's threshold; return the list the
    first cycle's finalizer writes the collecting thread's name into."""
    collected_on: list[str] = []

    def work() -> None:
        cycle = _Cycle()
        weakref.finalize(cycle, lambda: collected_on.append(threading.current_thread().name))
        del cycle
        for _ in range(2 * gc.get_threshold()[0]):
            _Cycle()

    worker = threading.Thread(target=work, name="worker")
    worker.start()
    worker.join()
    return collected_on


def test_garbage_a_worker_thread_makes_is_collected_on_the_gui_thread(qtbot, qapp):
    main_thread_gc.install(qapp)
    collected_on = _cycle_dropped_by_a_worker()
    assert collected_on == []  # the worker's allocations started no collection
    qtbot.waitUntil(lambda: bool(collected_on), timeout=5 * main_thread_gc.INTERVAL_MS)  # the timer's
    assert collected_on == [threading.main_thread().name]


def test_the_collector_collects_what_is_due_and_nothing_before(qtbot, qapp):
    collector = main_thread_gc.install(qapp)
    gc.collect()
    assert collector.collect_due() == 0  # nothing due: not a collection at every tick
    cycles = [_Cycle() for _ in range(2 * collector.thresholds[0])]
    del cycles
    assert collector.collect_due() >= 2 * collector.thresholds[0]
    assert gc.get_count()[0] <= collector.thresholds[0]
    assert not gc.isenabled()


class _Stop(Exception):
    pass


def test_the_main_window_and_the_replay_viewer_pin_the_collector_first(qapp, monkeypatch):
    installed = []

    def install(application):
        installed.append(application)
        raise _Stop  # before any window exists

    monkeypatch.setattr(main_thread_gc, "install", install)
    from app.ui import main_window, replay_window
    with pytest.raises(_Stop):
        main_window.run_app()
    with pytest.raises(_Stop):
        replay_window.run_replay(str(next(RECORDS.glob("*.json"))))
    assert installed == [qapp, qapp]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_collects_by_itself(qapp):
    main_thread_gc.install(qapp)
    pid = os.fork()
    if pid == 0:  # the child has no timer: the automatic collector must be back
        os._exit(0 if gc.isenabled() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert not gc.isenabled()


def test_it_is_installed_from_the_main_thread_only(qapp, monkeypatch):
    monkeypatch.setattr(main_thread_gc, "_installed", None)
    errors: list[BaseException] = []

    def install_from_a_worker() -> None:
        try:
            main_thread_gc.install(qapp)
        except RuntimeError as error:
            errors.append(error)

    worker = threading.Thread(target=install_from_a_worker)
    worker.start()
    worker.join()
    assert len(errors) == 1 and main_thread_gc._installed is None
