"""Inference off the UI thread: a worker process computes each seat's belief summary; the window is told when
it is ready and shows "updating…" until then.

One worker process serves the window (started from the same fork server as the bots); requests carry the seat's
own observations only, and answers come back through a queued signal. An answer for observations that have since
grown is dropped: only the freshest is shown. A worker that dies is replaced at the next request, and the failed
request is answered with a summary whose ``problem`` says what happened, so the window can say it.
"""

from __future__ import annotations

import concurrent.futures
import itertools
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.engine.core import Seat
from app.engine.inference import InferenceSummary
from app.hosting.worker import _context
from app.inference_jobs import prepare_worker, summarize

_games = itertools.count(1)


class InferenceService(QObject):
    """The belief summaries of one game's seats, computed in a worker process."""

    ready = Signal(int, object)  # seat, InferenceSummary: the freshest summary of that seat
    _finished = Signal(int, int, object)  # seat, observations counted, summary (emitted from the dispatcher)

    def __init__(self, variant: str, options: dict[str, Any] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.variant = variant
        self.options = dict(options or {})
        self.key = f"game-{next(_games)}"
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None  # used by the dispatcher thread only
        self._dispatcher = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="inference")
        self._latest: dict[Seat, int] = {}  # observations in the newest request, per seat
        self._counted: dict[Seat, int] = {}  # observations behind the summary shown, per seat
        self.summaries: dict[Seat, Any] = {}
        self._finished.connect(self._on_finished)

    def pending(self, seat: Seat) -> bool:
        """Whether a newer summary of ``seat`` is being computed (the window shows "updating…")."""
        return seat in self._latest and self._counted.get(seat) != self._latest[seat]

    def request(self, seat: Seat, observations: list[Any]) -> None:
        """Compute ``seat``'s summary after ``observations`` (that seat's own, all of them, in order).

        Returns at once: a dispatcher thread hands the job to the worker process (starting it if needed, which
        can take a moment) and waits for the answer, so the event loop never does.
        """
        count = len(observations)
        if self._latest.get(seat) == count:
            return
        self._latest[seat] = count
        try:
            self._dispatcher.submit(self._run, seat, count, list(observations))
        except RuntimeError:
            pass  # shut down: the window is closing

    def _run(self, seat: Seat, count: int, observations: list[Any]) -> None:
        """In the dispatcher thread: one job in the worker process, its answer sent to the UI thread."""
        if self._latest.get(seat) != count:
            return  # newer observations came meanwhile: skip straight to them
        try:
            if self._pool is None:
                # The worker ends with the window, even a killed one (it would otherwise wait on its queue forever),
                # and warms up the compiled kernels from the start.
                self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=_context(),
                                                                    initializer=prepare_worker)
            summary = self._pool.submit(summarize, self.key, self.variant, seat, observations, self.options).result()
        except concurrent.futures.BrokenExecutor:
            self._pool = None  # the worker died: the next request starts another
            summary = _failed("the inference worker stopped; it restarts with the next move")
        except Exception as error:  # noqa: BLE001 - any failure of the job is shown, never raised in the UI
            summary = _failed(f"inference failed: {type(error).__name__}: {error}")
        try:
            self._finished.emit(seat, count, summary)  # queued: the slot runs in the UI thread
        except RuntimeError:
            pass  # the window closed meanwhile: nobody is waiting for this answer

    def _on_finished(self, seat: Seat, count: int, summary: Any) -> None:
        self._deliver(seat, count, summary)

    def _deliver(self, seat: Seat, count: int, summary: Any) -> None:
        if self._latest.get(seat) != count:
            return  # stale: newer observations are being worked on
        self.summaries[seat] = summary
        self._counted[seat] = count
        self.ready.emit(seat, summary)

    def shutdown(self) -> None:
        self._dispatcher.shutdown(wait=False, cancel_futures=True)
        pool = self._pool
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _failed(problem: str) -> Any:
    return InferenceSummary(0, 0, False, {}, {}, problem)
