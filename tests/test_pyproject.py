"""pyproject.toml: what the build backend reads without a warning."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_licence_is_an_spdx_expression_read_by_the_setuptools_required() -> None:
    # A table ({ text = ... }) makes every setuptools from 77 on print a deprecation warning at each install
    # (scripts/dev.sh run showed three); a plain SPDX string needs setuptools 77 or newer.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "GPL-3.0-or-later"
    requirement = next(item for item in project["build-system"]["requires"] if item.startswith("setuptools"))
    least = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", requirement)
    assert least is not None and int(least.group(1)) >= 77
