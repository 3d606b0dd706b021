"""Start-up time: from process start to the first painted frame, Sightline's window against a bare PySide6 window.

Each sample is a fresh Python process, timed from just before it is spawned to the moment its window receives its
first paint event; the two kinds alternate so that both see the same machine state. Memory is the resident set
size at that moment. Run by hand::

    .venv/bin/python benchmarks/startup.py --runs 7

QT_QPA_PLATFORM defaults to offscreen (set it to xcb under Xvfb or a desktop to include the window system).
The children may write bytecode caches (as an installed app has them); the warm-up run writes them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys, time
kind = sys.argv[1]
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")

app = QApplication(sys.argv)
if kind == "sightline":
    from app.ui.main_window import MainWindow
    app.setOrganizationName("SightlineBenchmarks")
    app.setApplicationName("startup")
    window = MainWindow()
else:
    window = QWidget()
    window.resize(1040, 720)

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            print(f"PAINTED {time.time():.6f} {rss_mb():.1f}", flush=True)
            QTimer.singleShot(0, app.quit)
            obj.removeEventFilter(self)
        return False

spy = FirstPaint()
window.installEventFilter(spy)
window.show()
app.exec()
"""


def sample(kind: str) -> tuple[float, float]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    # An installed app runs from compiled bytecode; a shell that forbids writing it would time the compiler.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    start = time.time()
    run = subprocess.run([sys.executable, "-c", CHILD, kind], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    for line in run.stdout.splitlines():
        if line.startswith("PAINTED"):
            _, stamp, rss = line.split()
            return float(stamp) - start, float(rss)
    raise RuntimeError(f"{kind}: no frame painted\n{run.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sample("bare")  # warm the file cache for both, outside the figures
    sample("sightline")
    results: dict[str, list[tuple[float, float]]] = {"bare": [], "sightline": []}
    for _ in range(args.runs):
        for kind in results:
            results[kind].append(sample(kind))
    print(f"runs per kind: {args.runs}, platform {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}, "
          f"Python {sys.version.split()[0]}")
    medians = {}
    for kind, values in results.items():
        times = [t for t, _ in values]
        medians[kind] = statistics.median(times)
        rss = statistics.median(r for _, r in values)
        print(f"{kind:<10} first frame: median {medians[kind] * 1000:7.1f} ms  "
              f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})   RSS {rss:6.1f} MB")
    ratio = medians["sightline"] / medians["bare"]
    print(f"ratio sightline / bare PySide6 window: {ratio:.2f}x   (goal <= 1.5x, <= 150 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
