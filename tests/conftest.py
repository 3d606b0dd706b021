"""Shared test set-up: no test writes into the user's real home, settings or Sightline data directory."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Bytecode. A shell that sets PYTHONDONTWRITEBYTECODE (this project's development shell does) made every test
# process, and every Python process a test starts, compile the app, the tests and their assertion rewriting anew
# (about 8 s of processor time per pytest process, a second or so per app started). The test run writes it as
# Python usually does, into the (git-ignored) __pycache__ folders, for this process and every child: set here,
# before the test processes (pytest-xdist) start. (Not PYTHONPYCACHEPREFIX: a folder of its own would hold no
# bytecode of the standard library and the installed packages at first, and every process would compile those.)
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    sys.dont_write_bytecode = False

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
def _cycles_collected_on_the_main_thread(request):
    """As in the app (app/ui/main_thread_gc.py): from the first window test on, cycles are collected on the main
    thread only, by the collector's timer while Qt's events are handled and after every test, never by a worker
    thread (a collection in the network test's event loop thread once deadlocked the run with the GUI thread)."""
    if "qtbot" in request.fixturenames:
        from app.ui import main_thread_gc
        main_thread_gc.install(request.getfixturevalue("qapp"))
    yield
    collector = getattr(sys.modules.get("app.ui.main_thread_gc"), "_installed", None)
    if collector is not None:
        collector.collect_due()


@pytest.fixture(autouse=True)
def _no_window_left_open(request):
    """A window or dialog a test left open is put away after the test (:func:`tests.windows.put_away_windows`), so
    that tests stay apart: the solver's "Could this deal be won?" box stayed visible through every later test of
    its process, and a window left visible takes a later test's simulated mouse moves (shown in
    tests/test_board_widget.py)."""
    yield
    if "qtbot" not in request.fixturenames:
        return
    from PySide6.QtWidgets import QApplication
    application = QApplication.instance()
    if isinstance(application, QApplication):
        from tests.windows import put_away_windows
        put_away_windows(application)


@pytest.fixture(scope="session")
def _data_dirs(tmp_path_factory):
    """The folder of the tests' data folders (below): one, so that pytest's numbered folders stay few (making a
    numbered folder reads every name beside it: thousands of them made each one slower)."""
    return tmp_path_factory.mktemp("sightline-data")


@pytest.fixture(autouse=True)
def _scratch_data_dir(tmp_path_factory, _data_dirs, monkeypatch):
    if "SIGHTLINE_DATA_DIR" not in os.environ or not os.environ["SIGHTLINE_DATA_DIR"].startswith(
            str(tmp_path_factory.getbasetemp())):
        monkeypatch.setenv("SIGHTLINE_DATA_DIR", tempfile.mkdtemp(prefix="test-", dir=_data_dirs))


@pytest.fixture(autouse=True)
def _signals_left_as_found():
    """A test that leaves SIGINT or SIGTERM handled otherwise than it found them fails (and they are put back):
    every process the rest of the run starts would inherit an ignored Ctrl+C."""
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    ignored = _ignored_signals()
    yield
    changed = [signal.Signals(number).name for number, handler in before.items()
               if signal.getsignal(number) is not handler]
    if _ignored_signals() != ignored:  # a library may ignore one below Python, where getsignal() cannot see it
        changed.append(f"the signals ignored (SigIgn {ignored} -> {_ignored_signals()})")
    for number, handler in before.items():
        signal.signal(number, handler)
    assert not changed, f"the test left {', '.join(changed)} handled differently"


def _ignored_signals() -> str:
    """The process's ignored signals as the kernel has them (Linux), or "" elsewhere."""
    try:
        with open("/proc/self/status") as status:
            return next((line.split()[1] for line in status if line.startswith("SigIgn:")), "")
    except OSError:
        return ""


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
    # Tests that take seconds each (pytest --durations; rough seconds on a quiet 2-core machine, from a run that
    # took about eight times as long on a loaded one): the quick tier (scripts/dev.sh test --quick, which is
    # pytest -m "not slow") leaves them out, and every run starts with them, longest first, so that no long test
    # starts last while the other processes have nothing left to do. A node id names one test, or with a trailing
    # "[" every parameter of it. (The tests of the built package, tests/test_packaging.py, are marked slow there;
    # they go first of all, in their order: the first builds the bundle, about 100 s, and the others use it.)
    "tests/test_inference_jit.py::test_every_operation_gives_what_the_numpy_kernels_give[": 25,
    "tests/test_inference.py::test_the_array_expansion_equals_the_reference_expansion[": 20,
    "tests/test_cloak_properties.py::test_nothing_a_seat_or_its_bot_receives_names_an_untold_enemy_identity": 16,
    "tests/test_cloak_properties.py::test_the_deduction_is_sound_at_every_step_and_exact_at_a_sample_of_steps": 15,
    "tests/test_cloak_rules.py::test_views_match_the_referees_choices_and_never_hold_the_opponents_arrangement": 15,
    "tests/test_losalamos.py::test_legal_moves_match_fairy_stockfish_along_80_random_games": 12,
    "tests/test_losalamos.py::test_start_perft_to_depth_4_matches_fairy_stockfish": 12,
    "tests/test_cloak_properties.py::test_castling_from_every_arrangement_for_both_sides": 12,
    "tests/test_inference.py::test_the_set_equals_the_python_chess_reference[": 10,
    "tests/test_cloak_rules.py::test_with_every_piece_uncloaked_the_moves_are_chess_moves": 10,
    "tests/test_inference_soundness.py::test_a_successor_dropped_from_the_sets_is_caught": 7,
    "tests/test_engine_api.py::test_the_whole_app_is_mypy_clean": 7,
    "tests/test_cloak_properties.py::test_the_choices_are_the_same_for_every_enemy_arrangement_the_seat_cannot_rule_out": 6,
    "tests/test_losalamos.py::test_random_playout_positions_perft_depth_3": 5,
    "tests/test_telepathy_rules.py::test_the_bots_never_offer_a_draw": 5,
    "tests/test_rbc_rules.py::test_rbc12_views_hold_only_own_knowledge_in_random_games": 4,
    "tests/test_inference_soundness.py::test_at_the_window_settings_exact_sets_hold_the_truth_and_estimates_stay_sound[": 4,
    "tests/test_record_fuzz.py::test_changed_removed_and_retyped_fields": 4,
    "tests/test_bots_blind.py::test_plays_legal_attempts_and_beats_random_and_greedy": 4,
    "tests/test_cloak_deduction.py::test_the_true_arrangement_is_always_consistent_and_both_seats_deduce_the_same": 4,
    "tests/test_whole_games.py::test_rbc_against_a_bot_by_clicks": 4,
    "tests/test_whole_games.py::test_a_whole_hot_seat_rbc_game_by_clicks_and_keys": 3,
    "tests/test_cloak_properties.py::test_in_real_play_the_public_judgement_of_material_is_the_true_boards": 3,
    "tests/test_cloak_properties.py::test_a_planted_bug_in_the_deduction_fails_the_check[": 3,
    "tests/test_inference.py::test_the_true_position_is_always_in_the_set[": 3,
    "tests/test_telepathy_rules.py::test_the_engine_team_beats_the_random_team": 3,
    "tests/test_cloak_rules.py::test_moves_tell_only_what_is_seen": 3,
    "tests/test_minit.py::test_moves_agree_with_fairy_stockfish_in_random_games": 3,
    "tests/test_cloak_presenter.py::test_the_board_offers_exactly_the_legal_moves_and_castling_both_ways": 3,
    "tests/test_match.py::test_troutbot_plays": 3,
    "tests/test_saves_window.py::test_a_game_survives_sigkill": 3,
    "tests/test_window_layout.py::test_a_seats_zones_take_the_same_room_all_game_long": 2,
    "tests/test_telepathy_rules.py::test_two_engines_agree_on_the_card_without_a_word": 2,
    "tests/test_cloak_bots.py::test_every_bot_plays_whole_games_against_every_bot_without_an_illegal_answer[": 2,
    "tests/test_move_input.py::test_the_san_of_every_legal_move_names_that_move[": 2,
    "tests/test_splitbrain_rules.py::test_the_engine_team_beats_the_random_team_in_a_few_games": 2,
    "tests/test_team_kit_windows.py::test_splitbrain_a_person_with_a_bot_partner_against_two_bots_to_the_end": 2,
    "tests/test_team_kit_windows.py::test_telepathy_a_person_with_a_bot_partner_against_two_bots_to_the_end": 1,
    "tests/test_bots_rbc.py::test_beats_the_scripted_attacker": 2,
    "tests/test_bots_rbc.py::test_plays_only_legal_actions_and_beats_the_random_bot": 2,
    "tests/test_record_fuzz.py::test_plausible_moves_and_positions": 2,
    "tests/test_minit.py::test_perft_start_against_fairy_stockfish": 2,
    "tests/test_cloak_bots.py::test_the_deduce_bot_decides_from_its_observations_only[": 2,
    "tests/test_blind.py::test_property_observations_hold_only_what_the_rulings_allow": 1,
    "tests/test_process_lifetime.py::test_no_worker_outlives_a_killed_app": 1,
    # Whole files of matches between bot processes and of replays, a second or so per test, and the next heaviest
    # tests: left out, the quick tier stays under two minutes.
    "tests/test_match_fairness.py": 2,
    "tests/test_rbc_differential.py": 2,
    "tests/test_records_corpus.py": 1,
    "tests/test_match.py": 1,
    "tests/test_net_window.py::test_a_guest_window_plays_a_whole_game_against_a_referee_in_another_process": 4,
    "tests/test_net_window.py::test_a_host_program_that_quits_at_once_still_tells_its_guest_the_game_was_aborted": 3,
    # Added with the card games and network play (seconds from a run on a loaded machine, roughly halved).
    "tests/test_booster_rules.py::test_the_game_agrees_with_a_plain_generator_on_random_positions": 12,
    "tests/test_net_wire.py::test_whatever_arrives_is_a_message_or_a_protocol_error": 3,
    "tests/test_net_faults.py::test_lag_and_cut_connections_lose_nothing": 3,
    "tests/test_net_fuzz.py::test_a_hostile_host_stops_a_guest_with_a_sentence_and_nothing_else": 3,
    "tests/test_net_faults.py::test_a_referee_killed_mid_game_carries_on_from_its_autosave": 3,
    "tests/test_parade.py::test_the_solvers_line_is_a_record_that_replays_to_its_score": 2,
    "tests/test_game_window.py::test_rendered_pixels_show_no_more_than_the_seat_was_told[": 2,
    "tests/test_blind.py::test_b5_decides_a_flag_fall_even_when_the_referee_overran_and_was_stopped": 2,
    "tests/test_team_games.py::test_the_script_resumes_the_secret_picks_test_game": 2,
    # A local Dask cluster of two workers each (marked slow there too; listed for their place in the order).
    "tests/test_match_cluster.py::test_a_seeded_match_gives_the_same_results_and_records_on_a_cluster": 4,
    "tests/test_match_cluster.py::test_a_worker_killed_mid_match_loses_no_game_and_counts_none_twice": 4,
    "tests/test_match_cluster.py::test_a_bot_that_kills_its_worker_gets_its_game_aborted_not_won": 4,
    "tests/test_match_cluster.py::test_hostile_outside_bots_on_a_worker_are_held_as_at_home": 4,
    "tests/test_match_cluster.py::test_ctrl_c_stops_a_cluster_match_and_keeps_every_finished_record": 4,
    "tests/test_autosave_slots.py": 1,
    "tests/test_cloak_presenter.py::test_a_seats_scene_shows_only_what_it_knows[": 1,
    "tests/test_inference_jit.py::test_memory_is_made_ready_in_a_few_steps_as_sets_grow": 3,
    "tests/test_game_window.py::test_hot_seat_game_never_shows_a_seat_more_than_it_was_told[": 2,
    "tests/test_cloak_deduction.py::test_time_per_deduction_on_a_long_game": 3,
    "tests/test_losalamos.py::test_hand_made_positions_perft_matches_fairy_stockfish[": 1,
    "tests/test_sightings.py::test_no_board_shows_as_current_a_piece_a_later_observation_contradicts": 2,
    "tests/test_inference_soundness.py::test_a_tiny_cap_estimates_but_never_shows_a_true_piece_impossible[": 2,
    "tests/test_team_games.py::test_a_team_game_survives_sigkill_in_the_middle_of_a_turn[": 1,
    "tests/test_bots_rbc.py::test_engine_failures_fall_back_to_the_built_in_evaluator": 2,
    "tests/test_belief.py::test_the_truth_placed_now_is_never_flagged": 2,
    "tests/test_bots_minit.py::test_hard_beats_a_fixed_two_ply_searcher": 2,
    "tests/test_game_window.py::test_rbc_against_the_attacker_bot_ends_with_a_result": 2,
    "tests/test_inference.py::test_with_the_default_cap_sets_are_never_empty[": 1,
    "tests/test_cloak_bots.py::test_the_random_bot_uses_every_phase": 1,
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
