"""Names every installer shares, in one place.

``APP_ID`` is the reverse-DNS application id: the .desktop file, the AppStream metainfo, the hicolor icon name
and the macOS bundle identifier all use it, so that desktops match the running window to its entry and icon.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["APP_ID", "NAME", "PACKAGE", "ROOT", "SUMMARY", "version"]

ROOT = Path(__file__).resolve().parent.parent
"""The checkout."""

APP_ID = "io.github.sightline.Sightline"
NAME = "Sightline"
PACKAGE = "sightline"
"""The Debian package, the command and the bundle's folder."""

SUMMARY = "Hidden-information chess: Reconnaissance Blind Chess, Blind Chess and MinitChess"


def version(root: Path = ROOT) -> str:
    """The project's version, from pyproject.toml.

    >>> version().count(".") >= 1
    True
    """
    with open(root / "pyproject.toml", "rb") as stream:
        return str(tomllib.load(stream)["project"]["version"])
