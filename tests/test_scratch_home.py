"""The suite never writes into the real home: settings and data go to a scratch home (conftest)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

SCRATCH_HOME = os.environ["HOME"]
REAL_HOME = os.environ.get("SIGHTLINE_TEST_REAL_HOME") or pwd.getpwuid(os.getuid()).pw_dir


def test_home_and_xdg_folders_are_scratch() -> None:
    assert Path(SCRATCH_HOME).name.startswith("sightline-test-home-") and SCRATCH_HOME != REAL_HOME
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        assert Path(os.environ[variable]).is_relative_to(SCRATCH_HOME)


def test_qsettings_and_platformdirs_write_into_the_scratch_home(qapp) -> None:
    import platformdirs
    from PySide6.QtCore import QSettings

    settings = QSettings("SightlineTests", "scratch-home-check")
    settings.setValue("probe", 1)
    settings.sync()
    assert Path(settings.fileName()).resolve().is_relative_to(Path(SCRATCH_HOME).resolve())
    assert Path(platformdirs.user_data_dir("Sightline")).is_relative_to(SCRATCH_HOME)
    assert Path(platformdirs.user_config_dir("Sightline")).is_relative_to(SCRATCH_HOME)
