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


# -- the quick tier and the order of the run ----------------------------------------------------------------------

HEAVY = {
    # Tests that take seconds each on a quiet 2-core machine (pytest --durations), with a rough figure: the quick
    # tier (scripts/dev.sh test --quick, which is pytest -m "not slow") leaves them out, and every run starts
    # with them, longest first, so that no long test starts last while the other processes have nothing to do.
    # A node id names one test, or with a trailing "[" every parameter of it, or a whole file. (The tests of the
    # built package, tests/test_packaging.py, are marked slow there; they go first of all, in their order: the
    # first builds the bundle, about 100 s, and the others use it.)
    "tests/test_inference_jit.py::test_every_operation_gives_what_the_numpy_kernels_give[": 25,
    "tests/test_inference.py::test_the_array_expansion_equals_the_reference_expansion[": 20,
    "tests/test_cloak_rules.py::test_views_match_the_referees_choices_and_never_hold_the_opponents_arrangement": 16,
    "tests/test_losalamos.py::test_legal_moves_match_fairy_stockfish_along_80_random_games": 14,
    "tests/test_inference.py::test_the_set_equals_the_python_chess_reference[": 12,
    "tests/test_cloak_properties.py::test_nothing_a_seat_or_its_bot_receives_names_an_untold_enemy_identity": 12,
    "tests/test_cloak_properties.py::test_castling_from_every_arrangement_for_both_sides": 12,
    "tests/test_cloak_rules.py::test_with_every_piece_uncloaked_the_moves_are_chess_moves": 10,
    "tests/test_losalamos.py::test_random_playout_positions_perft_depth_3": 8,
    "tests/test_cloak_properties.py::test_the_deduction_is_sound_at_every_step_and_exact_at_a_sample_of_steps": 7,
    "tests/test_engine_api.py::test_the_whole_app_is_mypy_clean": 7,
    "tests/test_inference_soundness.py::test_a_successor_dropped_from_the_sets_is_caught": 7,
    "tests/test_losalamos.py::test_start_perft_to_depth_4_matches_fairy_stockfish": 6,
    "tests/test_cloak_properties.py::test_the_choices_are_the_same_for_every_enemy_arrangement_the_seat_cannot_rule_out": 6,
    "tests/test_whole_games.py::test_rbc_against_a_bot_by_clicks": 6,
    "tests/test_whole_games.py::test_a_whole_hot_seat_rbc_game_by_clicks_and_keys": 4,
    "tests/test_saves_window.py::test_a_game_survives_sigkill": 5,
    "tests/test_move_input.py::test_the_san_of_every_legal_move_names_that_move[": 4,
    "tests/test_process_lifetime.py::test_no_worker_outlives_a_killed_app": 4,
    "tests/test_inference_soundness.py::test_at_the_window_settings_exact_sets_hold_the_truth_and_estimates_stay_sound[": 4,
}


def _heavy_cost(nodeid: str) -> int | None:
    for prefix, seconds in HEAVY.items():
        if nodeid == prefix or nodeid.startswith(prefix if prefix.endswith("[") else prefix + "::") or (
                nodeid.startswith(prefix + "[")):
            return seconds
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the tests of :data:`HEAVY` slow, then moves every slow test to the front, longest first (a stable
    sort: a file's tests keep their order). Every pytest-xdist process sorts the same way, so they agree."""
    cost: dict[str, int] = {}
    for item in items:
        seconds = _heavy_cost(item.nodeid)
        if seconds is not None:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow") is not None:
            cost[item.nodeid] = 1000 if "built_deb" in getattr(item, "fixturenames", ()) else seconds or 0
    items.sort(key=lambda item: -cost.get(item.nodeid, -1))
