"""Shared test set-up: no test writes into the user's real home, settings or Sightline data directory."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Programs the tests run, not tests: --doctest-modules would import them, and some misbehave on import on purpose
# (a bot file that calls os._exit ends the whole pytest run with no word).
collect_ignore = ["apps", "bots"]

# A scratch home for the whole run, set before Qt or platformdirs is imported: QSettings, platformdirs and
# every child process (bot workers, the app started by the SIGKILL test) then write there, never into the
# real ~/.config or ~/.local. The real home is kept for tools that need it (pip caches are not touched).
REAL_HOME = os.environ.get("HOME", "")
SCRATCH_HOME = tempfile.mkdtemp(prefix="sightline-test-home-")
atexit.register(shutil.rmtree, SCRATCH_HOME, True)
os.environ["HOME"] = SCRATCH_HOME
os.environ["SIGHTLINE_TEST_REAL_HOME"] = REAL_HOME
for _variable, _folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                           ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state")):
    os.environ[_variable] = os.path.join(SCRATCH_HOME, _folder)
    os.makedirs(os.environ[_variable], exist_ok=True)


@pytest.fixture(autouse=True)
def _instant_curtain(request, monkeypatch):
    """Scripted players press Space the moment the curtain falls; people get a short grace time (tested apart).
    Likewise the screen passes at once at the end of a turn and pieces do not glide, unless a
    test chose otherwise (tested apart)."""
    if "qtbot" in request.fixturenames:
        import app.ui.main_window  # noqa: F401 - a window test run alone must be patched too
    main_window = sys.modules.get("app.ui.main_window")
    if main_window is not None:
        monkeypatch.setattr(main_window, "CURTAIN_GRACE", 0.0)
        monkeypatch.setattr(main_window, "END_OF_TURN_DEFAULT", "at once")
    board_widget = sys.modules.get("app.ui.board_widget")
    if board_widget is not None:  # still pictures: pieces jump to their squares (the glide is tested apart)
        monkeypatch.setattr(board_widget, "GLIDE_MS", 0)


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
    from PySide6.QtCore import QSettings
    settings = QSettings()
    for how_play_goes in ("play", "view/animation"):  # chosen by an earlier test: every test starts from defaults
        settings.remove(how_play_goes)
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1000, 700)
    win.show()
    yield win
    if win.controller is not None:
        win.controller.stop()
    if win.inference is not None:
        win.inference.shutdown()
