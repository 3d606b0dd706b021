"""Shared test set-up: no test writes into the user's real Sightline data directory."""

from __future__ import annotations

import os
import sys

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _instant_curtain(monkeypatch):
    """Scripted players press Space the moment the curtain falls; people get a short grace time (tested apart)."""
    main_window = sys.modules.get("app.ui.main_window")
    if main_window is not None:
        monkeypatch.setattr(main_window, "CURTAIN_GRACE", 0.0)


@pytest.fixture(autouse=True)
def _scratch_data_dir(tmp_path_factory, monkeypatch):
    if "SIGHTLINE_DATA_DIR" not in os.environ or not os.environ["SIGHTLINE_DATA_DIR"].startswith(
            str(tmp_path_factory.getbasetemp())):
        monkeypatch.setenv("SIGHTLINE_DATA_DIR", str(tmp_path_factory.mktemp("sightline-data")))


@pytest.fixture
def window(qtbot):
    """A shown main window (1000x700) with its settings kept apart from the user's; its game stops afterwards."""
    from PySide6.QtCore import QCoreApplication

    from app.ui.main_window import MainWindow
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"tests-{os.getpid()}")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1000, 700)
    win.show()
    yield win
    if win.controller is not None:
        win.controller.stop()
    if win.inference is not None:
        win.inference.shutdown()
