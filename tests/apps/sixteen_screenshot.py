"""An offscreen picture of the window in the middle of a game of Sixteen (the card solitaire of
``tests/games/sixteen``): five cards placed and a sixth taken from the hand. Run from the repository's root
with ``SIGHTLINE_GAMES=tests.games.sixteen`` and the root on ``PYTHONPATH``; the picture goes to the path given
(default ``sixteen.png``)."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.ui.game_controller import GameController, SeatConfig  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402


def main(out: str) -> int:
    """Play five turns and a half through the board's signals, then save the window's picture to ``out``."""
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineScreenshot")
    QCoreApplication.setApplicationName(f"shot-{os.getpid()}")
    window = MainWindow()
    window.resize(1000, 700)
    window.show()
    controller = GameController("sixteen", [SeatConfig(name) for name in games.get("sixteen").seat_names],
                                TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    for cell in (0, 1, 5, 10, 15):
        window.board.zoneClicked.emit("hand", 0)
        window.board.senseRequested.emit((cell % 4, cell // 4))
    window.board.zoneClicked.emit("hand", 1)
    app.processEvents()
    saved = window.grab().save(out)
    controller.stop()
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "sixteen.png"))
