"""Start-up time of the frozen bundle against the venv, measured in the same run (by hand, never in the tests).

    .venv/bin/python packaging/bench_startup.py [--bundle dist/sightline/sightline] [--runs 10]

Times ``sightline --check`` (start Python, import the app and Qt, open the main window offscreen, render one
frame, exit) from the bundle and from the venv's ``sightline`` command, alternating the two so that a busy machine
slows both alike, and prints medians and their ratio. Also reports the bundle's and the .deb's sizes when present.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent


def time_once(command: list[str]) -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0 or result.stdout.strip().splitlines()[-1:] != ["OK"]:
        raise SystemExit(f"{' '.join(command)} failed: {result.stdout}{result.stderr}")
    return elapsed


def size_mib(path: Path) -> float:
    if path.is_file():
        return path.stat().st_size / 2**20
    return sum(item.lstat().st_size for item in path.rglob("*")) / 2**20


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", default=str(ROOT / "dist" / "sightline" / "sightline"))
    parser.add_argument("--venv-command", default=str(Path(sys.executable).parent / "sightline"))
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    bundle, venv = [args.bundle, "--check"], [args.venv_command, "--check"]
    for command in (bundle, venv):
        time_once(command)  # warm the page cache once each: we measure start-up, not the disk
    frozen, plain = [], []
    for _ in range(args.runs):
        frozen.append(time_once(bundle))
        plain.append(time_once(venv))
    frozen_median, plain_median = statistics.median(frozen), statistics.median(plain)
    print(f"sightline --check, {args.runs} runs each, alternating (median, min-max):")
    print(f"  bundle  {frozen_median:.3f} s  ({min(frozen):.3f}-{max(frozen):.3f})  {args.bundle}")
    print(f"  venv    {plain_median:.3f} s  ({min(plain):.3f}-{max(plain):.3f})  {args.venv_command}")
    print(f"  ratio bundle / venv = {frozen_median / plain_median:.2f}")
    folder = Path(args.bundle).parent
    print(f"bundle size {size_mib(folder):.1f} MiB ({sum(1 for p in folder.rglob('*') if p.is_file())} files)")
    for deb in sorted(folder.parent.glob("sightline_*.deb")):
        print(f"{deb.name} {size_mib(deb):.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
