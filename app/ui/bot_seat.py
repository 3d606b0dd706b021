"""A bot's seat in the game window: the bot runs in its own process, the window never waits for it.

:class:`BotSeat` wraps an :class:`app.hosting.worker.BotProcess`. It watches the process's answer pipe with a
``QSocketNotifier`` (a 15 ms ``QTimer`` where pipes cannot be watched, as on Windows), so the UI thread only
ever reads an answer that is already there. A request may carry a deadline (the seat's time left): a bot that
has not answered by then is killed and reported as out of time.

Signals (all emitted from the event loop, never from inside :meth:`BotSeat.ask` or :meth:`BotSeat.observe`):

- ``actionReady(action, seconds)``: the bot's answer and the seconds it spent on it (measured in the worker);
- ``failed(message)``: the bot raised, failed to load, crashed its process or ran out of time; ``message``
  starts with the bot's name (``"RaisingBot raised RuntimeError: ... at bot.py:12"``). The bot is then gone;
- ``thinkingChanged(thinking)``: a request is (no longer) pending;
- ``ready()``: the bot has started (for a status line; asking earlier is fine, requests queue up).

The window checks each action against the referee as for any seat (``GameSession.play`` raises
``IllegalAction`` for a bad one) and decides what a failure means for the game (usually a forfeit).
"""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal

from app.bots.base import ActionRequest
from app.hosting.worker import BotProcess, WorkerEvent
from app.engine.core import Outcome, Seat
from app.engine.record import GameRecord

POLL_INTERVAL_MS = 15
"""How often the fallback timer looks for an answer where the pipe cannot be watched."""


class BotSeat(QObject):
    """One seat played by a bot in a worker process. See the module's documentation."""

    actionReady = Signal(object, float)
    failed = Signal(str)
    thinkingChanged = Signal(bool)
    ready = Signal()

    def __init__(self, spec: str, variant: str, seat: Seat, options: dict[str, Any] | None = None,
                 opponent_name: str = "", seed: int | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.variant = variant
        self.seat = seat
        self.options = dict(options or {})
        self.opponent_name = opponent_name
        self.seed = seed
        self._name = spec
        self._process: BotProcess | None = None
        self._notifiers: list[QSocketNotifier] = []
        self._sentinel_notifier: QSocketNotifier | None = None
        self._poller: QTimer | None = None
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setTimerType(Qt.TimerType.PreciseTimer)
        self._deadline.timeout.connect(self._out_of_time)
        self._thinking = False
        self._announced_ready = False
        self._failure: str | None = None
        self.timed_out = False  # the failure, if any, was the deadline (not a crash or a bad answer)
        self._stopped = False

    # -- state ----------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The bot's name (the agent's own once it has started)."""
        return self._process.name if self._process is not None else self._name

    @property
    def thinking(self) -> bool:
        return self._thinking

    @property
    def failure(self) -> str | None:
        """The message of the failure that ended this bot, if one did."""
        return self._failure

    @property
    def process(self) -> BotProcess | None:
        return self._process

    @property
    def alive(self) -> bool:
        return self._process is not None and self._failure is None and self._process.alive

    # -- control --------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker process (the first one also starts the fork server: see ``worker.warm_up``)."""
        if self._process is not None or self._stopped:
            return
        try:
            self._process = BotProcess(self.spec, self.variant, self.seat, self.options, self.opponent_name,
                                       self.seed)
        except Exception as error:  # noqa: BLE001 - e.g. the system refuses another process
            self._fail_later(f"{self.name} could not be started: {type(error).__name__}: {error}")
            return
        self._name = self._process.name
        self._watch(self._process)

    def observe(self, observations: list[Any]) -> None:
        """Hand the seat's new observations to the bot (in order). Never blocks."""
        if self._process is not None and self._failure is None and not self._stopped:
            self._process.observe(list(observations))

    def ask(self, request: ActionRequest, deadline_seconds: float | None = None) -> None:
        """Ask for an action; ``actionReady`` or ``failed`` follows. Never blocks.

        With ``deadline_seconds``, a bot that has not answered by then is killed and ``failed`` says it ran
        out of time.
        """
        if self._stopped:
            return
        if self._process is None or self._failure is not None:
            self._fail_later(self._failure or f"{self.name} is not running", again=True)
            return
        if self._thinking:
            raise RuntimeError(f"{self.name} is already thinking")
        self._process.request(request)
        self._set_thinking(True)
        if deadline_seconds is not None:
            self._deadline.start(max(0, int(deadline_seconds * 1000)))

    def stop(self, outcome: Outcome | None = None, record: GameRecord | None = None, grace: float = 2.0) -> None:
        """Stop the bot. With the game's ``outcome`` and ``record`` it is first told the result and given
        ``grace`` seconds to finish (without blocking the window); a bot in the middle of a request is
        killed at once."""
        self._stopped = True
        self._deadline.stop()
        self._unwatch()
        process = self._process
        was_thinking = self._thinking
        if was_thinking:
            self._set_thinking(False)
        if process is None:
            return
        if outcome is not None and record is not None and not was_thinking and self._failure is None \
                and process.alive:
            try:
                process.end(outcome, record, timeout=0)
            except Exception:  # noqa: BLE001 - the news is a courtesy
                process.kill()
                return
            QTimer.singleShot(max(0, int(grace * 1000)), process.kill)
        else:
            process.kill()

    # -- inside ---------------------------------------------------------------------------------------------
    def _watch(self, process: BotProcess) -> None:
        if sys.platform != "win32":
            try:
                for fd in (process.fileno(), process.sentinel):
                    notifier = QSocketNotifier(fd, QSocketNotifier.Type.Read, self)
                    if not notifier.isValid():
                        raise OSError(f"cannot watch fd {fd}")
                    notifier.activated.connect(self._drain)
                    self._notifiers.append(notifier)
                self._sentinel_notifier = self._notifiers[-1]
                return
            except (OSError, ValueError, TypeError):
                self._unwatch()
        self._poller = QTimer(self)
        self._poller.setInterval(POLL_INTERVAL_MS)
        self._poller.timeout.connect(self._drain)
        self._poller.start()

    def _unwatch(self) -> None:
        for notifier in self._notifiers:
            notifier.setEnabled(False)
            notifier.deleteLater()
        self._notifiers.clear()
        self._sentinel_notifier = None
        if self._poller is not None:
            self._poller.stop()
            self._poller.deleteLater()
            self._poller = None

    def _drain(self, *_: Any) -> None:
        process = self._process
        while process is not None and self._failure is None and not self._stopped:
            event = process.poll()
            if process.ready and not self._announced_ready:
                self._announced_ready = True
                self._name = process.name
                self.ready.emit()
            if event is None:
                if process.orphaned and self._sentinel_notifier is not None:
                    # The fork server died (a bot may have stopped it): the sentinel stays readable for good and
                    # would wake this up without end; the answer pipe's end of file still tells the process's end.
                    self._sentinel_notifier.setEnabled(False)
                    self._notifiers.remove(self._sentinel_notifier)
                    self._sentinel_notifier.deleteLater()
                    self._sentinel_notifier = None
                return
            if event.kind == "action":
                if self._thinking:
                    self._deadline.stop()
                    self._set_thinking(False)
                    self.actionReady.emit(event.action, event.seconds)
                continue
            self._fail(self._describe(event))
            return

    def _describe(self, event: WorkerEvent) -> str:
        return f"{self.name} {event.message}"

    def _out_of_time(self) -> None:
        self._drain()  # the answer may be waiting already
        if self._thinking and self._failure is None and not self._stopped:
            self.timed_out = True
            self._fail(f"{self.name} ran out of time")

    def _fail(self, message: str) -> None:
        if self._failure is not None:
            return
        self._failure = message
        self._deadline.stop()
        self._unwatch()
        if self._process is not None:
            self._process.kill()
        if self._thinking:
            self._set_thinking(False)
        self.failed.emit(message)

    def _fail_later(self, message: str, again: bool = False) -> None:
        def emit() -> None:
            if again:
                self.failed.emit(message)
            else:
                self._fail(message)
        QTimer.singleShot(0, self, emit)

    def _set_thinking(self, thinking: bool) -> None:
        if thinking != self._thinking:
            self._thinking = thinking
            self.thinkingChanged.emit(thinking)
