"""Event-loop stalls of the game window while a bot thinks, against the same window idle.

A 1 ms timer runs in the window's event loop; every gap between its ticks beyond
the interval is time the loop could not answer the user. The window plays games
against a built-in bot (the person's moves are made through the controller, as
clicks would make them), so the figures include the bot worker's messages, the
board redraws after each move and the clocks. The peer is the same window with no
game, measured in the same run. Run by hand::

    .venv/bin/python benchmarks/ui_latency.py --seconds 20

Goal: p99 stall <= 16 ms (one frame at 60 Hz) while the bot thinks. The gaps over all ticks, the person's own
moves included (redraw, belief panel, inference request, autosave hand-off), are printed too.

Animation and sound are on, as a player has them by default: pieces glide (View > Piece animation), and the
cues play through miniaudio's mixer on its null backend (it takes samples at the real rate with no sound card),
so the mixer's audio thread competes for Python's lock as it would on a desktop.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402


def measure(app: QApplication, seconds: float, step=None, tag=None) -> list[float]:
    """Gaps (ms) between 1 ms timer ticks for ``seconds``; ``step`` runs on each tick (cheap checks only).

    With ``tag``, only the gaps that begin while ``tag()`` is true are kept (say, while the bot thinks).
    """
    gaps: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.nsecsElapsed()]
    timer = QTimer()
    timer.setInterval(1)

    state = [True]

    def tick() -> None:
        now = clock.nsecsElapsed()
        if state[0]:
            gaps.append((now - last[0]) / 1e6)
        last[0] = now
        if step is not None:
            step()  # without a tag its time shows in the next gap: a person's move is UI work too
        if tag is not None:
            last[0] = clock.nsecsElapsed()  # the person's own move is not "while the bot thinks"
            state[0] = tag()

    timer.timeout.connect(tick)
    timer.start()
    # The application's own event loop, as the window runs in: each pass serves whatever is ready (the bot's
    # answer, a deferred redraw, paints, the tick), so a gap is what one pass, or several back to back, cost.
    QTimer.singleShot(int(seconds * 1000), app.quit)
    app.exec()
    timer.stop()
    return gaps


THINK = 0.3  # seconds the scripted person waits before answering: a fast human
BOTS = (("minit", "search", "hard"), ("rbc", "belief", "medium"), ("rbc", "attacker", "medium"),
        ("blind", "greedy", "medium"))


def summary(name: str, gaps: list[float]) -> float:
    ordered = sorted(gaps)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else float("nan")
    print(f"{name:<34} ticks {len(gaps):6d}   p50 {statistics.median(gaps):5.1f} ms   p99 {p99:5.1f} ms   "
          f"max {max(gaps):6.1f} ms   over 16 ms: {sum(g > 16 for g in gaps)}")
    return p99


def play_against(window: MainWindow, app: QApplication, variant: str, bot: str, level: str,
                 seconds: float, only_while_bot_thinks: bool) -> tuple[list[float], int]:
    """The person answers THINK seconds after the bot (a fast human), by the same calls clicks make."""
    rng = random.Random(1)
    games = [0]
    turn_began = [time.monotonic()]

    def new_game() -> None:
        window.start(NewGame(variant, True, bot, level, 0, TimeControl(600, 0), "50-move"))
        games[0] += 1

    new_game()

    def step() -> None:
        controller = window.controller
        if controller is None:
            return
        if controller.outcome is not None:
            new_game()
            return
        if controller.game.to_move != 0:
            turn_began[0] = time.monotonic()
            return  # the bot is thinking
        if time.monotonic() - turn_began[0] < THINK:
            return  # the person is thinking
        turn_began[0] = time.monotonic()
        scene = controller.scene()
        if scene.sense_window is not None:
            controller.sense((rng.randrange(1, 7), rng.randrange(1, 7)))
        elif scene.targets:
            origin = rng.choice(sorted(scene.targets))
            target = rng.choice(sorted(scene.targets[origin]))
            promotions = scene.targets[origin][target]
            controller.move(origin, target, promotions[0] if promotions else None)
        elif variant == "rbc":
            controller.act_on_command("pass")

    def bot_thinking() -> bool:
        controller = window.controller
        return controller is not None and controller.outcome is None and controller.game.to_move == 1

    gaps = measure(app, seconds, step, bot_thinking if only_while_bot_thinks else None)
    bot_moves = sum(1 for entry in window.controller.session.record.entries if entry.seat == 1)
    return gaps, games[0] * 1000 + bot_moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per scenario")
    args = parser.parse_args()
    app = QApplication(sys.argv)
    QCoreApplication.setOrganizationName("SightlineBenchmarks")
    QCoreApplication.setApplicationName("ui-latency")
    import miniaudio

    from app.ui import board_widget
    from app.ui.sounds import LazySink, MiniaudioSink
    LazySink._shared = MiniaudioSink(backends=[miniaudio.Backend.NULL])
    window = MainWindow()
    window.resize(1040, 720)
    window.show()
    window.sounds.set_muted(False)
    window.sounds.set_volume(80)
    window.view_choices.animation("glide")
    print(f"{args.seconds:.0f} s per scenario, platform {os.environ['QT_QPA_PLATFORM']}, "
          f"Python {sys.version.split()[0]}; pieces glide {window.board.glide_ms()} ms "
          f"(default {board_widget.GLIDE_MS}), sound on (miniaudio null backend)")
    idle = summary("peer: idle window, no game", measure(app, min(args.seconds, 10.0)))
    worst = 0.0
    for variant, bot, level in BOTS:
        gaps, _ = play_against(window, app, variant, bot, level, args.seconds, True)
        worst = max(worst, summary(f"while {variant} {bot}:{level} thinks", gaps))
    print(f"worst p99 while a bot thinks: {worst:.1f} ms (goal <= 16 ms); idle p99 {idle:.1f} ms; "
          f"ratio {worst / idle:.2f}x")
    everything = 0.0
    for variant, bot, level in BOTS:
        gaps, _ = play_against(window, app, variant, bot, level, args.seconds, False)
        everything = max(everything, summary(f"all ticks, vs {variant} {bot}:{level}", gaps))
    print(f"worst p99 over all ticks (the person's own moves included): {everything:.1f} ms")
    mixed = LazySink._shared.frames_mixed  # type: ignore[union-attr]
    print(f"sound: {mixed} frames of cues mixed ({mixed / MiniaudioSink.RATE:.1f} s of cues)")
    if window.controller is not None:
        window.controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
