"""Shared test set-up: no test writes into the user's real Sightline data directory."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _scratch_data_dir(tmp_path_factory, monkeypatch):
    if "SIGHTLINE_DATA_DIR" not in os.environ or not os.environ["SIGHTLINE_DATA_DIR"].startswith(
            str(tmp_path_factory.getbasetemp())):
        monkeypatch.setenv("SIGHTLINE_DATA_DIR", str(tmp_path_factory.mktemp("sightline-data")))
