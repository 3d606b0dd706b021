"""Nothing Sightline starts outlives it: after the app is killed with SIGKILL, its inference worker, bot workers,
match workers, the fork server and multiprocessing's resource tracker all end by themselves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="walks the process tree in /proc")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_no_worker_outlives_a_killed_app(tmp_path) -> None:
    env = {**os.environ, "SIGHTLINE_DATA_DIR": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "apps" / "start_workers.py")],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    try:
        line = ""
        while not line.startswith("READY"):
            line = app.stdout.readline()
            assert line, "the app ended before it was ready"
        started = _descendants(app.pid)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=30)
    # A fork server, a resource tracker, the inference worker, the bot worker and the match's worker at least.
    assert len(started) >= 5, started
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(pid) for pid in started):
        time.sleep(0.2)
    left = sorted(pid for pid in started if _alive(pid))
    for pid in left:  # clean up before failing, so that one failure does not leave processes behind
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert not left, f"{len(left)} of {len(started)} processes outlived the app: " + ", ".join(
        Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:100] if Path(f"/proc/{pid}").exists()
        else str(pid) for pid in left)
