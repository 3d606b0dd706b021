"""Nothing Sightline starts outlives it: after the app is killed with SIGKILL, its inference worker, bot workers,
match workers, the fork server and multiprocessing's resource tracker all end by themselves."""

from __future__ import annotations

import json
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


# -- a referee's sweep: what outside bots leave behind ends with their game -------------------------------------

_FIRST_THREAD_ENDS = r"""
import ctypes, threading, time
threading.Thread(target=time.sleep, args=(60,)).start()
print("ready", flush=True)
ctypes.CDLL(None).pthread_exit(None)  # the first thread ends (ctypes lets go of the GIL); the other runs on
"""


def test_a_process_whose_first_thread_ended_still_runs() -> None:
    # /proc/<pid>/stat shows a zombie as soon as the first thread ends, killed or not, while the others run on and
    # the processes it started are still its children: read as ended, a referee swept too early (a bot's child
    # that had left its session was handed over after the sweep, and lived on).
    from app.hosting.worker import pid_alive
    process = subprocess.Popen([sys.executable, "-c", _FIRST_THREAD_ENDS], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        stat = Path(f"/proc/{process.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"  # its first thread has ended
        assert pid_alive(process.pid)
        process.kill()
        while stat.read_text().rsplit(")", 1)[1].split()[17] != "1" and time.monotonic() < deadline:
            time.sleep(0.01)  # its other thread ends too: now it has ended, though not yet reaped
        assert not pid_alive(process.pid)
    finally:
        process.kill()
        process.wait()


_SWEEPER = r"""
import json, subprocess, sys
from app.hosting.worker import become_subreaper, kill_strays
assert become_subreaper()
# a stray that left its bot's session, and its own child that left that one's session in turn
code = ("import subprocess, sys, time; child = subprocess.Popen([sys.executable, '-c', 'import time; "
        "time.sleep(60)'], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(child.pid, flush=True); time.sleep(60)")
stray = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         start_new_session=True)
grandchild = int(stray.stdout.readline())
swept = kill_strays(set())
print(json.dumps({"stray": stray.pid, "grandchild": grandchild, "swept": swept}), flush=True)
"""


def test_the_sweep_ends_what_the_processes_it_kills_started(tmp_path: Path) -> None:
    # Killing a stray hands its children to the sweeping process only once it has ended: a single look at the
    # sweeper's children missed them. Deterministic: the grandchild's parent runs when the sweep starts.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _SWEEPER], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    left = [pid for pid in (found["stray"], found["grandchild"]) if _alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, found
    assert found["stray"] in found["swept"] and found["grandchild"] in found["swept"]
