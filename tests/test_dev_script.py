"""scripts/dev.sh, the README's commands: run in a scratch copy of the project with a stand-in app."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or not sys.platform.startswith("linux"),
                                reason="the script is for Debian and Ubuntu")


def scratch_project(tmp_path: Path) -> Path:
    """A copy of the script beside a venv that is already set up, whose `sightline` only says it started."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "dev.sh", tmp_path / "scripts" / "dev.sh")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    os.symlink(sys.executable, bin_dir / "python")
    (bin_dir / "sightline").write_text("#!/bin/sh\necho started \"$@\"\n")
    (bin_dir / "sightline").chmod(0o755)
    stamp = hashlib.sha256((tmp_path / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (tmp_path / ".venv" / ".sightline-installed").write_text(stamp + "\n")
    return tmp_path


def test_run_starts_the_app_when_the_venv_has_no_x11_plugin(tmp_path: Path) -> None:
    # With no Qt X11 plugin to inspect (a PySide6 without it, or another layout), the check is skipped, not fatal.
    project = scratch_project(tmp_path)
    env = {**os.environ, "DISPLAY": ":99"}
    env.pop("QT_QPA_PLATFORM", None)
    run = subprocess.run(["bash", str(project / "scripts" / "dev.sh"), "run", "--check"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "started --check"


def test_run_without_a_display_says_so(tmp_path: Path) -> None:
    project = scratch_project(tmp_path)
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    run = subprocess.run(["bash", str(project / "scripts" / "dev.sh"), "run"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 1 and "there is no display" in run.stderr
    assert "started" not in run.stdout


@pytest.mark.parametrize("arguments, parallel", [
    ([], True), (["-k", "differential"], True), (["-n", "0"], False), (["-n0"], False),
    (["-p", "no:xdist"], False), (["--pdb"], False), (["-p", "no:cacheprovider"], True),
])
def test_test_runs_one_process_per_core_unless_told_otherwise(tmp_path: Path, arguments: list[str],
                                                              parallel: bool) -> None:
    project = scratch_project(tmp_path)
    python = project / ".venv" / "bin" / "python"
    python.unlink()
    python.write_text("#!/bin/sh\necho \"$@\"\n")  # a stand-in that says how pytest would be started
    python.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    run = subprocess.run(["bash", str(project / "scripts" / "dev.sh"), "test", *arguments], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    expected = ["-m", "pytest", *(["-n", "auto", "--dist", "worksteal"] if parallel else []), *arguments]
    assert run.stdout.split() == expected


@pytest.mark.parametrize("arguments, expected", [
    (["--quick"], ["-n", "auto", "--dist", "worksteal", "-m", "not slow"]),
    (["--quick", "-k", "blind"], ["-n", "auto", "--dist", "worksteal", "-m", "not slow", "-k", "blind"]),
    (["-x", "--quick", "-n", "0"], ["-m", "not slow", "-x", "-n", "0"]),
])
def test_quick_leaves_the_slow_tests_out(tmp_path: Path, arguments: list[str], expected: list[str]) -> None:
    project = scratch_project(tmp_path)
    python = project / ".venv" / "bin" / "python"
    python.unlink()
    # A stand-in that says how pytest would be started, one argument a line ("not slow" is one argument).
    python.write_text("#!/bin/sh\nprintf '%s\\n' \"$@\"\n")
    python.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    run = subprocess.run(["bash", str(project / "scripts" / "dev.sh"), "test", *arguments], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines() == ["-m", "pytest", *expected]
