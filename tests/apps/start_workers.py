"""Starts every kind of worker process Sightline uses (an inference worker, a bot worker, a match), prints
``READY`` and waits to be killed: the process-lifetime test kills it with SIGKILL and checks that nothing it
started is left behind. Run with QT_QPA_PLATFORM=offscreen and SIGHTLINE_DATA_DIR set to a scratch directory."""

from __future__ import annotations

import os
import sys
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402


def main() -> int:
    app = QCoreApplication(sys.argv)
    from app.hosting.worker import BotProcess
    from app.games.rbc.rules import ReconChess
    from app.ui.inference_service import InferenceService

    game = ReconChess()
    service = InferenceService("rbc", {"cap": 500})
    service.request(1, list(game.observations(1)))
    bot = BotProcess("random", "rbc", 1, game.options(), "you", seed=1)
    bot.wait_ready(60)

    def match() -> None:
        # A match in the background whose referee is stuck in a game: an outside bot that never answers (its
        # process too must go), and the default per-call limit of minutes.
        from pathlib import Path

        from app.engine.clock import TimeControl
        from app.hosting.match import run_match
        silent = f"{Path(__file__).resolve().parent.parent / 'bots' / 'hostile.py'}:Silent"
        run_match("rbc", silent, "random", games=10, jobs=1, control=TimeControl(None, 0.0))

    threading.Thread(target=match, daemon=True).start()
    deadline = time.monotonic() + 60
    while service.pending(1) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    time.sleep(3.0)  # the match has started its referee and the outside bot's process
    print("READY", flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    sys.exit(main())
