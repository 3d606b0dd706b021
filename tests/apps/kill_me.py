"""A Sightline window driven by a script, for the SIGKILL test: ``play`` plays into a hot-seat RBC game, prints
what it shows and keeps running until it is killed; ``resume`` starts again, accepts the offered unfinished game
and prints what it shows then. Run with SIGHTLINE_DATA_DIR set to a scratch directory."""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402


def state(window: MainWindow) -> dict[str, object]:
    controller = window.controller
    assert controller is not None
    return {
        "actions": len(controller.session.record.entries),
        "phase": controller.game.phase,
        "to_move": controller.game.to_move,
        "curtain_for": controller.curtain_for,
        "remaining": [controller.session.seconds_left(seat) for seat in (0, 1)],
        "annotations": {str(seat): [list(map(list, a)) for a in notes[0]] + [list(c) for c in notes[1]]
                        for seat, notes in sorted(controller.annotations.items())},
        "beliefs": {str(seat): belief.to_json() for seat, belief in sorted(controller.beliefs.items())},
        "log": controller.logs[controller.game.to_move or 0][-3:],
    }


def main() -> int:
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineKillTest")
    QCoreApplication.setApplicationName(f"kill-{os.getpid()}")
    window = MainWindow()
    window.show()
    if sys.argv[1] == "play":
        window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
        controller = window.controller
        assert controller is not None
        controller.lift_curtain()
        controller.sense((3, 6))
        window.board.set_annotations([((4, 1), (4, 3))], [(3, 4)])
        window.belief_panel.place_piece(chess.D5, chess.KNIGHT)  # type: ignore[union-attr]
        controller.move((4, 1), (4, 3), None)
        controller.lift_curtain()  # Black at the screen; Black's clock runs
        controller.sense((4, 3))
        window.board.set_annotations([], [(2, 2)])
        window.belief_panel.place_starting_position()  # type: ignore[union-attr]
        window.flush_autosave()  # the app idles a moment: its saver thread has written the last change
        print("READY " + json.dumps(state(window)), flush=True)
        return int(app.exec())  # until SIGKILL
    window._pick_unfinished = lambda games: games[0]  # type: ignore[method-assign]
    resumed = window.offer_resume()
    if resumed and window.controller is not None and window.controller.curtain_for is not None:
        window.controller.lift_curtain()
    print("RESUMED " + json.dumps({"resumed": resumed, **(state(window) if resumed else {})}), flush=True)
    if window.controller is not None:
        window.controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
