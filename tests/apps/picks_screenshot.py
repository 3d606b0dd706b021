"""An offscreen picture of A2's screen in a game of Secret Picks (the test game of ``tests/games/picks``) among
four people: every seat has named its double round, A1 has picked a card of round 1, and A2 has just lifted the
curtain. A2 must see its own hand's faces and nothing of A1's pick. Run from the repository's root with
``SIGHTLINE_GAMES=tests.games.picks`` and the root on ``PYTHONPATH``; the picture goes to the path given (default
``picks.png``)."""

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
    """Play the setup and A1's pick through the window's signals, lift the curtain for A2, save the picture."""
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineScreenshot")
    QCoreApplication.setApplicationName(f"shot-{os.getpid()}")
    window = MainWindow()
    window.resize(1000, 700)
    window.show()
    controller = GameController("picks", [SeatConfig(name) for name in games.get("picks").seat_names],
                                TimeControl(None, 0), {}, parent=window)
    window._install(controller)
    for double in (2, 1, 3, 1):
        controller.lift_curtain()
        window.panel.commandClicked.emit(f"double-{double}")
    controller.lift_curtain()  # A1
    window.board.zoneClicked.emit("hand", 1)
    controller.lift_curtain()  # A2
    app.processEvents()
    print(f"A1 picked {controller.views[0].my_picks[1]}; A2's hand {controller.views[1].hand}")
    saved = window.grab().save(out)
    controller.stop()
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "picks.png"))
