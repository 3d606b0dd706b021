"""Saved games in the window: save and open, autosave and resume (also after SIGKILL), replay, exports."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QCoreApplication, Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Reason  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "data"
    monkeypatch.setenv("SIGHTLINE_DATA_DIR", str(path))
    return path


@pytest.fixture
def make_window(qtbot, data_dir):
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"saves-{os.getpid()}")
    windows = []

    def make() -> MainWindow:
        window = MainWindow()
        qtbot.addWidget(window)
        window.resize(1000, 700)
        window.show()
        window._ask = lambda title, text: True
        window._pick_unfinished = lambda games: games[0]
        window.warnings = []
        window._warn = lambda title, text: window.warnings.append(text)
        windows.append(window)
        return window

    yield make
    for window in windows:
        if window.controller is not None:
            window.controller.stop()


def _play_some(window) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    controller.sense((3, 6))
    window.board.set_annotations([((4, 1), (4, 3))], [(3, 4)])
    window.belief_panel.place_piece(chess.D5, chess.KNIGHT)
    controller.move((4, 1), (4, 3), None)
    controller.lift_curtain()
    controller.sense((4, 3))
    window.flush_autosave()


def test_save_and_open_continue_the_same_game(make_window, tmp_path) -> None:
    first = make_window()
    _play_some(first)
    first.board.set_annotations([((4, 6), (4, 4))], [(3, 3)])  # Black, at the screen, draws (White's went when
    first._annotations_changed()  # Black sensed: an opponent's action clears a seat's arrows and circles)
    path = tmp_path / "game.json"
    assert first.save_to(str(path))
    left = [first.controller.session.seconds_left(seat) for seat in (0, 1)]
    second = make_window()
    assert second.open_file(str(path))
    controller = second.controller
    assert len(controller.session.record.entries) == 3 and controller.game.phase == "move"
    assert controller.curtain_for == 1  # hot-seat: the curtain comes first
    assert [controller.session.seconds_left(seat) for seat in (0, 1)] == pytest.approx(left, abs=0.2)
    controller.lift_curtain()
    assert controller.annotations[0] == ([], []) and controller.annotations[1] == ([((4, 6), (4, 4))], [(3, 3)])
    assert controller.beliefs[0].pieces() == {chess.D5: chess.KNIGHT}
    assert second.recent_files()[0] == str(path)


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b'{"format": "sightline-record", "version": 99}',
                                     b"\xff\xfe garbage", b'{"format": "other"}'])
def test_a_bad_file_is_reported_and_changes_nothing(make_window, tmp_path, content) -> None:
    window = make_window()
    _play_some(window)
    before = len(window.controller.session.record.entries)
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert not window.open_file(str(path))
    assert window.warnings and str(path) in window.warnings[-1]
    assert len(window.controller.session.record.entries) == before
    assert not window.open_file(str(tmp_path / "missing.json"))


def test_a_finished_game_opens_in_the_replay_viewer(make_window, tmp_path, qtbot) -> None:
    window = make_window()
    _play_some(window)
    assert window.open_replay(window.controller.session.snapshot()) is None  # in progress: not from outside
    review = window.open_replay(window.controller.session.snapshot(), 1)
    assert review.perspectives == [1]  # in progress: only the asking seat
    window.controller.resign()
    path = tmp_path / "done.json"
    window.save_to(str(path))
    second = make_window()
    assert second.open_file(str(path))
    replay = second.replay_window
    assert replay.perspectives == [None, 0, 1]
    assert replay.step == replay.timeline.steps
    qtbot.keyClick(replay, Qt.Key.Key_Home)
    assert replay.step == 0 and len(replay.board.pieces()) == 32  # the truth at the start
    qtbot.keyClick(replay, Qt.Key.Key_Right)
    qtbot.keyClick(replay, Qt.Key.Key_Right)
    assert replay.step == 2
    replay.perspective.setCurrentIndex(1)  # White's view: own pieces plus what White's sense showed
    assert all(letter.isupper() or (square[1] >= 5) for square, letter in replay.board.pieces().items())
    assert replay.board.ghosts() == {(3, 4): "n"}  # White's belief board at that step
    replay.show_step(replay.timeline.steps)
    image = Path(tmp_path / "board.png")
    replay.export_image(str(image))
    assert image.read_bytes().startswith(b"\x89PNG")


def test_exports_from_the_window_respect_a_game_in_progress(make_window, tmp_path) -> None:
    window = make_window()
    _play_some(window)
    assert not window.export_to("pgn", str(tmp_path / "spoiler.pgn"))
    assert "in progress" in window.warnings[-1]
    window.controller.resign()
    assert window.controller.outcome.reason == Reason.RESIGN
    assert window.export_to("pgn", str(tmp_path / "game.pgn"))
    assert "[White " in (tmp_path / "game.pgn").read_text()
    assert window.export_to("reconchess", str(tmp_path / "history.json"))


def test_autosave_is_offered_on_start_and_can_be_kept_for_later_or_discarded(make_window) -> None:
    window = make_window()
    _play_some(window)
    assert make_window().offer_resume() is False  # held by the running window: not offered to another
    window.close()
    offered = []
    again = make_window()
    again._pick_unfinished = lambda games: offered.append(games) or None  # "Not now"
    assert not again.offer_resume()
    assert [len(game.record.entries) for game in offered[0]] == [3]
    third = make_window()
    third._pick_unfinished = lambda games: [game.slot.discard() for game in games] and None  # "Discard"
    assert not third.offer_resume()
    assert make_window().offer_resume() is False  # discarded: gone
    fourth = make_window()
    _play_some(fourth)
    fourth.controller.resign()  # a finished game is never offered
    fourth.close()
    assert make_window().offer_resume() is False


def test_a_game_survives_sigkill(data_dir) -> None:
    env = dict(os.environ, SIGHTLINE_DATA_DIR=str(data_dir), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    script = str(ROOT / "tests" / "apps" / "kill_me.py")
    player = subprocess.Popen([sys.executable, script, "play"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env=env, cwd=ROOT)
    try:
        line = ""
        while not line.startswith("READY"):
            line = player.stdout.readline()
            assert line, "the app ended before it was ready"
        before = json.loads(line.split(" ", 1)[1])
    finally:
        player.send_signal(signal.SIGKILL)
        player.wait(timeout=30)
    assert player.returncode == -signal.SIGKILL
    run = subprocess.run([sys.executable, script, "resume"], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    line = next(line for line in run.stdout.splitlines() if line.startswith("RESUMED"))
    after = json.loads(line.split(" ", 1)[1])
    assert after.pop("resumed") is True
    assert after.pop("curtain_for") is None and before.pop("curtain_for") is None
    assert after.pop("remaining") == pytest.approx(before.pop("remaining"), abs=0.5)
    assert after == before  # same actions, phase, seat to move, annotations, belief boards and notices


def test_a_minitchess_position_is_copied_and_pasted(make_window) -> None:
    window = make_window()
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    window.controller.move((1, 1), (1, 2), None)
    window.exports.copy_position()
    from PySide6.QtWidgets import QApplication
    copied = QApplication.clipboard().text()
    assert copied.startswith("1 B")
    other = make_window()
    assert other.start_from_position(copied)
    assert str(other.controller.game.position) == str(window.controller.game.position)
    assert not other.start_from_position("kqbnr ppppp nonsense")
    assert "not a MinitChess position" in other.warnings[-1]


def test_the_replay_viewer_shows_a_seats_heat_map_at_any_step(make_window, qtbot) -> None:
    window = make_window()
    _play_some(window)
    window.controller.resign()
    replay = window.open_replay(window.controller.session.snapshot())
    replay.perspective.setCurrentIndex(2)  # Black
    replay.show_step(2)  # White has sensed and moved: Black knows one of 21 positions
    replay.heat.setChecked(True)
    qtbot.waitUntil(lambda: "21 positions possible" in replay.heat_status.text(), timeout=20000)
    assert 0 < replay.board.heat()[(4, 3)] < 1
    replay.show_step(3)  # Black's sense of e4 leaves one
    qtbot.waitUntil(lambda: "1 position possible" in replay.heat_status.text(), timeout=20000)
    replay.perspective.setCurrentIndex(0)  # the truth has no heat map
    assert replay.board.heat() == {}
    replay.close()


def test_a_review_of_a_running_game_closes_when_the_screen_changes_hands(make_window) -> None:
    window = make_window()
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    controller.sense((3, 6))
    window.review()
    review = window.replay_window
    assert review.isVisible() and review.perspectives == [0]
    controller.move((4, 1), (4, 3), None)  # the curtain falls for Black
    assert not review.isVisible()


def test_a_game_file_naming_an_outside_bot_is_not_run(make_window, tmp_path) -> None:
    from app.engine.record import GameSession, PlayerInfo
    from app.games.rbc.rules import ReconChess
    marker = tmp_path / "ran"
    evil = tmp_path / "evil.py"
    evil.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    session = GameSession(ReconChess(), TimeControl(None, 0),
                          [PlayerInfo("You"), PlayerInfo("Evil", "bot", str(evil))])
    path = tmp_path / "evil-game.json"
    session.snapshot().save(path)
    window = make_window()
    assert not window.open_file(str(path))
    assert "Sightline's own bots" in window.warnings[-1]
    assert not marker.exists() and window.controller is None


def test_a_decided_minitchess_position_is_not_started(make_window) -> None:
    window = make_window()
    assert not window.start_from_position("99999 W kqbnr ppppp ..... ..... PPPPP RNBQK")
    assert "already decided" in window.warnings[-1]


def test_two_windows_keep_their_own_games_and_both_are_offered_after_they_end(make_window) -> None:
    first, second = make_window(), make_window()
    _play_some(first)
    second.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    second.controller.lift_curtain()
    second.controller.move((1, 1), (1, 2), None)
    _play_some(first)  # the first window plays on after the second saved
    second.flush_autosave()
    assert make_window().offer_resume() is False  # both still held by running windows
    first.close()
    second.close()
    offered = []
    third = make_window()
    third._pick_unfinished = lambda games: offered.extend(games) or None
    third.offer_resume()
    assert sorted((game.record.variant, len(game.record.entries)) for game in offered) == [("minit", 1),
                                                                                           ("rbc", 3)]


def test_a_failing_autosave_stays_in_sight_is_retried_and_asked_about_on_close(make_window, monkeypatch,
                                                                               qtbot) -> None:
    from app import storage
    window = make_window()
    _play_some(window)
    real_save = storage.AutosaveSlot.save

    def refuse(slot, game):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.AutosaveSlot, "save", refuse)
    window.controller.move((3, 6), (3, 4), None)  # Black plays: this write fails
    window.flush_autosave()
    qtbot.waitUntil(lambda: window.autosave_banner.isVisible())
    assert "No space left on device" in window.autosave_banner.text()
    assert "Errno" not in window.autosave_banner.text()
    # No message box in the middle of a turn (it would take the move's clicks while the clock runs): the bar is it.
    assert window.warnings == [] and window.findChildren(QMessageBox) == []
    window.controller.annotations_changed(1)  # more failures do not pile up boxes
    window.flush_autosave()
    qtbot.waitUntil(lambda: window.autosaver.last_write_problem is not None)
    assert window.warnings == [] and window.findChildren(QMessageBox) == []
    assert window.controller.outcome is None  # the game goes on
    answers = ["cancel"]
    window._ask_unsaved_close = lambda problem: answers.pop(0)
    window.quit()
    assert window.isVisible()  # cancelled: nothing lost
    monkeypatch.setattr(storage.AutosaveSlot, "save", real_save)
    window.autosaver.retry()  # what the retry timer does when nobody acts
    window.flush_autosave()
    qtbot.waitUntil(lambda: not window.autosave_banner.isVisible())
    assert window.autosaver.retry_timer.isActive() is False


def test_the_question_on_closing_while_autosave_fails_reads_well() -> None:
    from app.ui.main_window import unsaved_close_text
    from app.ui.window_autosave import write_autosave

    class Refusing:
        def save(self, record):
            raise PermissionError(1, "Operation not permitted")

    problem = write_autosave(Refusing(), None)  # the words the window gets from a failing write
    text = unsaved_close_text(problem, "21:04:05")
    assert "Operation not permitted" in text and "21:04:05" in text
    assert "))" not in text and text.count("(") == text.count(")")
    assert "Errno" not in text


def test_closing_while_autosave_fails_offers_save_as(make_window, monkeypatch, tmp_path, qtbot) -> None:
    from app import storage
    from app.engine.record import read_record
    window = make_window()
    _play_some(window)
    monkeypatch.setattr(storage.AutosaveSlot, "save", lambda slot, game: (_ for _ in ()).throw(OSError(30, "Read-only file system")))
    window.controller.move((3, 6), (3, 4), None)
    target = tmp_path / "rescued.json"
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    asked = []
    window._ask_unsaved_close = lambda problem: asked.append(problem) or "save"
    window.quit()
    assert asked and "Read-only file system" in asked[0]
    assert not window.isVisible()
    assert len(read_record(str(target)).entries) == 4


def test_messages_are_bounded_and_never_raw_python(make_window, tmp_path) -> None:
    from app.engine.record import GameSession, PlayerInfo
    from app.games.minit.rules import MinitChess
    session = GameSession(MinitChess(), TimeControl(None, 0), [PlayerInfo("x" * 10_000_000), PlayerInfo("B")])
    window = make_window()
    window._warn("Test", "y" * 10_000_000)
    assert len(window.warnings[-1]) == 10_000_000  # the test's own recorder: the real one is checked below
    real = MainWindow()
    real._warn("Test", "y" * 10_000_000)
    assert len(real.last_warning) < 2000 and "more characters" in real.last_warning
    real.close()
    window.resume_record(session.snapshot())
    window.controller.lift_curtain()
    assert len(window.status.text()) < 400
    window.controller.resign()
    assert len(window.status.text()) < 400 and len(window.game_over_box.text()) < 2000


def test_an_export_from_the_window_never_replaces_the_games_own_file(make_window, tmp_path) -> None:
    window = make_window()
    _play_some(window)
    window.controller.resign()
    saved = tmp_path / "game.json"
    assert window.save_to(str(saved))
    before = saved.read_bytes()
    assert not window.export_to("reconchess", str(saved))  # the same name: refused, the game kept
    assert "being converted" in window.warnings[-1]
    assert saved.read_bytes() == before
    assert window.export_to("reconchess", str(tmp_path / "history.json"))


def test_a_board_image_never_replaces_the_games_own_file(make_window, tmp_path, monkeypatch) -> None:
    window = make_window()
    _play_some(window)
    saved = tmp_path / "game.json"
    assert window.save_to(str(saved))
    before = saved.read_bytes()
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName", lambda *a, **k: (str(saved), ""))
    window.exports.image_dialog()
    assert saved.read_bytes() == before  # not a PNG over the game
    assert "being converted" in window.warnings[-1]


def _close_after_saving_elsewhere(window, monkeypatch, target) -> None:
    """Autosave fails from Black's move on; the player closes and saves the game to ``target`` when asked."""
    from app import storage
    monkeypatch.setattr(storage.AutosaveSlot, "save",
                        lambda slot, game: (_ for _ in ()).throw(OSError(30, "Read-only file system")))
    window.controller.move((3, 6), (3, 4), None)
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    window._ask_unsaved_close = lambda problem: "save"
    window.quit()
    assert not window.isVisible()


def test_the_stale_autosave_is_not_offered_once_the_game_was_saved_elsewhere_on_close(
        make_window, monkeypatch, tmp_path) -> None:
    from app.engine.record import read_record
    window = make_window()
    _play_some(window)
    target = tmp_path / "rescued.json"
    with monkeypatch.context() as patch:
        _close_after_saving_elsewhere(window, patch, target)
    assert len(read_record(str(target)).entries) == 4
    offered = []
    again = make_window()
    again._pick_unfinished = lambda games: offered.extend(games) or None
    assert again.offer_resume() is False
    assert offered == []  # the slot's copy (3 actions, older than the file) is gone


def test_a_stale_autosave_that_cannot_be_removed_is_offered_last_and_named_an_older_copy(
        make_window, monkeypatch, tmp_path) -> None:
    from app import storage
    from app.ui.window_resume import describe_unfinished
    from app.games.minit.rules import MinitChess, MinitMove
    from app.engine.record import GameSession
    earlier = storage.claim_slot()  # a game left by another window, saved before the stale copy below
    session = GameSession(MinitChess())
    session.play(0, MinitMove.parse("b1-c3"))
    earlier.save(session)
    os.utime(earlier.path, (1_000_000_000, 1_000_000_000))
    earlier.release()
    stale = make_window()
    _play_some(stale)
    target = tmp_path / "rescued.json"
    with monkeypatch.context() as patch:
        patch.setattr(storage.AutosaveSlot, "discard",
                      lambda slot: (_ for _ in ()).throw(OSError(30, "Read-only file system")))
        _close_after_saving_elsewhere(stale, patch, target)
    offered = []
    again = make_window()
    again._pick_unfinished = lambda games: offered.extend(games) or None
    assert again.offer_resume() is False
    assert [game.record.variant for game in offered] == ["minit", "rbc"]  # the stale copy is not the newest
    assert "older copy" in describe_unfinished(offered[1]) and str(target) in describe_unfinished(offered[1])
    assert "older copy" not in describe_unfinished(offered[0])


def test_the_unfinished_games_are_read_at_the_offers_own_size_without_scrolling_sideways(make_window, qtbot) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QListWidget
    from app.games.minit.rules import MinitChess, MinitMove
    from app.engine.record import GameSession
    from app.storage import UnfinishedGame
    session = GameSession(MinitChess())
    session.play(0, MinitMove.parse("b1-c3"))
    folder = "/home/someone/" + "_".join(["a_rather_long_folder_name"] * 8)
    games = [UnfinishedGame(None, session.record, 1_700_000_000.0,
                            note=f"an older copy: the game was saved later to {folder}/rescued-game.json"),
             UnfinishedGame(None, session.record, 1_700_000_000.0)]
    window = make_window()
    del window._pick_unfinished  # the real offer, as a player meets it
    seen = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        listing = dialog.findChild(QListWidget)
        seen["sideways"] = listing.horizontalScrollBar().maximum()
        seen["fits"] = [listing.visualItemRect(listing.item(row)).right() <= listing.viewport().width()
                        for row in range(listing.count())]
        seen["tips"] = [listing.item(row).toolTip() for row in range(listing.count())]
        seen["texts"] = [listing.item(row).text() for row in range(listing.count())]
        dialog.reject()

    QTimer.singleShot(0, look)
    assert window._pick_unfinished(games) is None
    assert seen["sideways"] == 0 and all(seen["fits"])
    assert "saved later to" in seen["texts"][0] and "rescued-game.json" in seen["tips"][0]  # all of it, in the tip
    assert folder in seen["tips"][0]


@pytest.mark.parametrize("hostile", ["directory", "unreadable", "scan fails"])
def test_the_start_up_offer_reports_what_it_cannot_read_and_goes_on(make_window, data_dir, monkeypatch,
                                                                     hostile) -> None:
    import builtins

    from app import storage
    window = make_window()
    _play_some(window)
    slot = window.autosaver.slot
    window.close()
    autosave = slot.directory / storage.AUTOSAVE_NAME
    if hostile == "directory":
        autosave.unlink()
        autosave.mkdir()
    elif hostile == "unreadable":
        real_open = builtins.open

        def refuse(path, mode="r", *args, **kwargs):
            if isinstance(path, (str, os.PathLike)) and Path(path) == autosave and "r" in mode:
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, mode, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", refuse)
    else:
        monkeypatch.setattr(storage, "unfinished_games",
                            lambda report=None: (_ for _ in ()).throw(OSError(5, "Input/output error")))
    again = make_window()
    again._pick_unfinished = lambda games: pytest.fail("nothing can be offered")
    assert again.offer_resume() is False  # no exception: the first-game path goes on to a new game
    assert len(again.warnings) == 1 and "nothing was deleted" in again.warnings[0]
    assert "Errno" not in again.warnings[0] and "Traceback" not in again.warnings[0]
    assert autosave.exists()  # left as it was
