"""The window's network play (issue 31): Game > Host a network game and Join a network game, a host window and a
guest window in one process over loopback, each holding only its own seat's observations.

Loopback only (127.0.0.1); the games announced nearby come from a fake browse (real mDNS is opt-in, in
tests/test_net_announce.py)."""

from __future__ import annotations

import os
import socket
import time

import pytest

from app.engine.clock import TimeControl


@pytest.fixture
def loopback(monkeypatch):
    """Host windows listen on 127.0.0.1 only and announce nothing (zeroconf binds port 5353)."""
    import app.ui.window_network as network
    monkeypatch.setattr(network, "LISTEN", "127.0.0.1")
    monkeypatch.setattr(network, "ANNOUNCE", False)
    return network


def _second_window(qtbot):
    from app.ui.main_window import MainWindow
    other = MainWindow()
    qtbot.addWidget(other)
    other.resize(1000, 700)
    other.show()
    return other


def _host_rbc(window, qtbot):
    from app.ui.host_dialog import Hosting
    from app.ui.remote_controller import RemoteController
    hosting = Hosting("rbc", {}, TimeControl(600, 5), ("person", "another computer"))
    assert window.network.start_hosting(hosting)
    qtbot.waitUntil(lambda: isinstance(window.controller, RemoteController), timeout=10000)
    return window.network.panel.lines["Black"].text()


def _join(guest, qtbot, text: str):
    from app.ui.remote_controller import RemoteController
    guest.network.browse = lambda: []
    guest.network.join()
    dialog = guest.network.join_dialog
    dialog.name.setText(" Ada ")
    dialog.invitation.setText(text)
    dialog.join()
    qtbot.waitUntil(lambda: isinstance(guest.controller, RemoteController), timeout=10000)
    return dialog


def _stop(*windows) -> None:
    for window in windows:
        window.close()


def _turn(window, qtbot) -> None:
    """The window's seat senses and passes when its turn comes."""
    controller = window.controller
    qtbot.waitUntil(lambda: controller.game.to_move == controller.remote_game.seat
                    and controller.game.phase == "sense", timeout=10000)
    controller.sense((4, 4))
    qtbot.waitUntil(lambda: controller.game.phase == "move", timeout=10000)
    controller.act_on_command("pass")


def test_a_host_window_and_a_guest_window_play_rbc_over_loopback_each_seeing_only_its_seat(
        window, qtbot, loopback) -> None:
    from app.games.rbc.rules import ReconChessView
    text = _host_rbc(window, qtbot)
    host = window.controller
    assert "127.0.0.1" in text and host.status() == "Waiting for every player to join"
    guest_window = _second_window(qtbot)
    try:
        _join(guest_window, qtbot, text)
        guest = guest_window.controller
        qtbot.waitUntil(lambda: host.started and guest.started, timeout=10000)
        hosted = window.network.hosted
        assert hosted.remote_seats[1].name == "Ada"  # the name typed in the Join dialog, in the host's record
        qtbot.waitUntil(lambda: not window.network.dock.isVisible(), timeout=5000)  # everyone joined
        # The record is the host's: neither window saves or exports the game (each has one seat's view only).
        assert not any(guest_window.game_actions[name].isEnabled() for name in ("save", "save_as", "review", "image"))
        assert not any(window.game_actions[name].isEnabled() for name in ("save", "save_as", "review", "image"))
        for _ in range(2):
            _turn(window, qtbot)
            _turn(guest_window, qtbot)
        # A premove: Black queues its sense while White thinks; it is played the moment Black is asked.
        qtbot.waitUntil(lambda: guest.views[1].phase == "wait", timeout=10000)  # told its move's result
        guest.sense((3, 3))
        assert guest.premoves and guest.game.to_move != 1
        _turn(window, qtbot)
        qtbot.waitUntil(lambda: guest.game.to_move == 1 and guest.game.phase == "move", timeout=10000)
        assert not guest.premoves and any("Sensed around d4" in line for line in guest.log())
        guest.act_on_command("pass")
        qtbot.waitUntil(lambda: host.game.to_move == 0 and host.game.phase == "sense", timeout=10000)
        hosted = window.network.hosted
        truth = hosted.session.game
        # Each window holds its own seat's observations, exactly as the referee told them, and nothing else.
        assert list(host.game.observations(0)) == list(truth.observations(0))
        qtbot.waitUntil(lambda: len(guest.game.observations(1)) == len(truth.observations(1)), timeout=5000)
        assert list(guest.game.observations(1)) == list(truth.observations(1))
        assert not host.game.observations(1) and not guest.game.observations(0)
        assert isinstance(guest.views[1], ReconChessView) and guest.seen(0) == 0 and host.seen(1) == 0
        assert guest_window.board.is_flipped()  # Black at the bottom, as in a local game
        window.controller.resign()  # White resigns on its turn
        qtbot.waitUntil(lambda: guest.outcome is not None and host.outcome is not None, timeout=10000)
        assert guest.outcome.winner == 1 and host.outcome.winner == 1
        assert guest.truth_scene() is None  # the true position stays with the referee
        assert "true final position" not in guest_window.game_over_box.text()
        qtbot.waitUntil(hosted.finished.is_set, timeout=10000)
        assert hosted.record_path is not None and hosted.record_path.is_file()  # the host keeps the record
        qtbot.waitUntil(lambda: str(hosted.record_path) in host.log()[-1], timeout=5000)  # and its window says where
        assert not any(str(hosted.record_path) in line for line in guest.log())
        # Game > Review replays the host's record, every seat's moves; the guest's window has none to review.
        assert window.game_actions["review"].isEnabled() and not guest_window.game_actions["review"].isEnabled()
        assert not window.game_actions["save"].isEnabled()
        window.game_actions["review"].trigger()
        replay = window.files.replay_window
        assert replay is not None and replay.record.result is not None
        assert {entry.seat for entry in replay.record.entries} == {0, 1}
        replay.close()
    finally:
        _stop(guest_window, window)


@pytest.mark.parametrize("what", ["garbage", "wrong code", "dead port", "wrong certificate"])
def test_a_bad_invitation_is_told_in_the_join_dialog(window, qtbot, loopback, what) -> None:
    from app.net.invitation import Invitation
    if what == "garbage":
        text = "sightline://nowhere"
    else:
        host_text = _host_rbc(window, qtbot)
        good = Invitation.parse(host_text)
        if what == "wrong code":
            text = Invitation(good.host, good.port, "ABCD-EFGH", good.fingerprint).text()
        elif what == "wrong certificate":
            text = Invitation(good.host, good.port, good.code, "ab" * 32).text()
        else:
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
            probe.close()  # nobody listens there now
            text = Invitation("127.0.0.1", port, good.code, good.fingerprint).text()
    guest_window = _second_window(qtbot)
    try:
        guest_window.network.browse = lambda: []
        guest_window.network.join()
        dialog = guest_window.network.join_dialog
        dialog.invitation.setText(text)
        dialog.join()
        qtbot.waitUntil(lambda: dialog.message.text().startswith(("Could not join", "The invitation",
                                                                  "An invitation")), timeout=10000)
        words = dialog.message.text().lower()
        assert {"garbage": "address", "wrong code": "wrong join code", "dead port": "cannot reach",
                "wrong certificate": "certificate"}[what] in words, words
        assert dialog.isVisible() and guest_window.controller is None and dialog.join_button.isEnabled()
        dialog.reject()
    finally:
        _stop(guest_window)


def test_game_join_a_network_game_opens_the_dialog_without_stopping_the_window(window, qtbot) -> None:
    texts = [action.text() for action in window.menus.game_menu.actions()]
    assert texts.index("&Host a network game...") + 1 == texts.index("&Join a network game...")
    window.network.browse = lambda: []
    window.menus.network_actions[1].trigger()
    dialog = window.network.join_dialog
    qtbot.waitUntil(lambda: dialog.isVisible() and "No game is announced" in dialog.searching.text(), timeout=5000)
    dialog.reject()


def test_the_join_dialog_lists_the_games_nearby_from_its_browse(qtbot) -> None:
    from app.net.announce import Listing
    from app.ui.join_dialog import JoinDialog
    listing = Listing("Sightline Reconnaissance Blind Chess 1a2b3c4d._sightline._tcp.local.", "127.0.0.1", 40123,
                      "rbc", "Reconnaissance Blind Chess", ("Black",), "ab" * 32)
    dialog = JoinDialog(lambda: [listing], "tester")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.games.count() == 1, timeout=5000)
    assert "open for Black" in dialog.games.item(0).text()
    assert dialog.name.text() == "tester"
    dialog.games.setCurrentRow(0)
    dialog.code.setText("k7q4m2xd")
    invitation = dialog.chosen_invitation()
    assert (invitation.host, invitation.port, invitation.code, invitation.fingerprint) == \
        ("127.0.0.1", 40123, "K7Q4M2XD", "ab" * 32)
    dialog.reject()


def test_the_join_dialog_survives_a_browse_that_fails(qtbot) -> None:
    from app.ui.join_dialog import JoinDialog

    def broken() -> list:
        raise OSError("no multicast here")
    dialog = JoinDialog(broken, "tester")
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: "cannot be listed" in dialog.searching.text(), timeout=5000)
    assert "no multicast here" in dialog.searching.text()
    dialog.reject()


def test_a_guest_window_closed_mid_game_comes_back_to_its_seat_when_opened_again(window, qtbot, loopback) -> None:
    from app.net.remote_session import network_link
    from app.ui.remote_controller import RemoteController
    text = _host_rbc(window, qtbot)
    host = window.controller
    guest_window = _second_window(qtbot)
    again = None
    try:
        _join(guest_window, qtbot, text)
        guest = guest_window.controller
        qtbot.waitUntil(lambda: guest.started, timeout=10000)
        _turn(window, qtbot)
        _turn(guest_window, qtbot)
        guest.annotations[1] = ([], [(4, 4)])  # a circle of the guest's, kept with its seat
        guest.annotations_changed(1)
        _turn(window, qtbot)
        qtbot.waitUntil(lambda: guest.game.to_move == 1 and guest.game.phase == "sense", timeout=10000)
        token = guest.session.record.extra["network"]["token"]
        assert token and guest.session.record.extra["network"]["seat"] == 1
        guest_window.close()  # mid-turn: the host keeps the seat for its reconnect limit
        again = _second_window(qtbot)
        again._pick_unfinished = lambda found: next(game for game in found
                                                    if (network_link(game.record) or {}).get("seat") == 1)
        assert again.offer_resume()
        back = again.controller
        assert isinstance(back, RemoteController) and back.remote_game.seat == 1
        truth = window.network.hosted.session.game
        qtbot.waitUntil(lambda: back.game.to_move == 1 and back.game.phase == "sense"
                        and len(back.game.observations(1)) == len(truth.observations(1)), timeout=10000)
        assert list(back.game.observations(1)) == list(truth.observations(1))  # told again all it was told
        assert back.annotations.get(1) == ([], [(4, 4)])
        _turn(again, qtbot)  # and it plays on
        qtbot.waitUntil(lambda: host.game.to_move == 0, timeout=10000)
    finally:
        _stop(*(w for w in (again, guest_window, window) if w is not None))


class _FakeGuest:
    """A guest that never connects: the tests hand its link the referee's words themselves."""

    def __init__(self, invitation, make_agent, *, name, token=None, on_token=None, on_clock=None,
                 on_link=None) -> None:
        self.invitation, self.token, self.on_clock = invitation, token, on_clock

    def play(self) -> None: ...

    def close(self) -> None: ...


def _fake_link(guest_class=_FakeGuest):
    from app.net.invitation import Invitation
    from app.ui.guest_link import GuestLink, make_guest
    import app.ui.guest_link as guest_link
    original = guest_link.Guest
    guest_link.Guest = guest_class
    try:
        return GuestLink(Invitation("127.0.0.1", 9, "ABCDEFGH", "ab" * 32), build=make_guest)
    finally:
        guest_link.Guest = original


def test_the_guest_window_shows_the_clocks_the_referee_tells_it_counting_down_between_words(qtbot) -> None:
    import time
    from types import SimpleNamespace
    from app.bots.base import ActionRequest
    from app.ui.remote_controller import RemoteController
    link = _fake_link()
    assert link.guest.on_clock is not None  # a Guest that takes clock words is given them
    controller = RemoteController(link, "rbc", 0)
    controller.start()
    try:
        assert controller.clock_text() == [("White", "--:--", False)]  # nothing told yet
        link.clockUpdate.emit(SimpleNamespace(running=0, seconds_left={0: 125.0}, received=time.monotonic() - 5))
        ((label, shown, low),) = controller.clock_text()  # RBC: a seat sees its own clock only
        assert label == "White" and shown in ("2:00", "1:59") and not low
        link.clockUpdate.emit(SimpleNamespace(running=1, seconds_left={0: 20.0}, received=time.monotonic() - 9))
        assert controller.clock_text() == [("White", "0:20", True)]  # not running: as told, and low
        link.clockUpdate.emit("nonsense")  # a word the window cannot read changes nothing
        assert controller.clock_text() == [("White", "0:20", True)]
        # Without clock words, a request's own time left is shown and counts down while the seat thinks.
        link.asked.emit(ActionRequest(0, "sense", {}, 300.0))
        qtbot.waitUntil(lambda: controller.remote_game.request is not None, timeout=5000)
        assert controller.clock_text()[0][1].startswith(("5:00", "4:5"))
        assert not controller.can("resign") or controller.game.to_move == 0
    finally:
        controller.stop()


def _crash_host(window) -> None:
    """The host window's process dies: its connections are cut without a word, nothing of it is cleaned up (its
    state folder stays as the crash left it)."""
    import asyncio
    from pathlib import Path
    old = window.network.server
    state = Path(old.state_dir)
    kept = {path.name: path.read_bytes() for path in state.iterdir() if path.is_file()}

    async def cut() -> None:
        old._server.close()
        for connection in list(old._connections):
            connection.writer.transport.abort()
    asyncio.run_coroutine_threadsafe(cut(), old._loop).result(5)
    window.controller.on_stop = None
    window.close()
    old.close()  # (the dead process's threads: the files are put back as the crash left them)
    for name, data in kept.items():
        (state / name).write_bytes(data)


def test_a_host_window_that_crashed_before_its_guest_joined_gives_the_invitation_again(
        window, qtbot, loopback) -> None:
    from app.net.remote_session import network_link
    text = _host_rbc(window, qtbot)
    _crash_host(window)
    again = _second_window(qtbot)
    guest_window = None
    try:
        again._pick_unfinished = lambda found: next(game for game in found
                                                    if (network_link(game.record) or {}).get("seat") == 0)
        assert again.offer_resume()
        back = again.controller
        assert any(line == f"Black has not joined yet: its invitation is {text}" for line in back.log())
        # The Invitations panel is back too, for the seat nobody joined yet.
        assert again.network.dock is not None and again.network.dock.isVisible()
        assert list(again.network.panel.lines) == ["Black"] and again.network.panel.lines["Black"].text() == text
        guest_window = _second_window(qtbot)
        _join(guest_window, qtbot, text)  # the same invitation still works: same port, certificate and code
        qtbot.waitUntil(lambda: back.game.to_move == 0 and back.game.phase == "sense", timeout=10000)
        qtbot.waitUntil(lambda: not again.network.dock.isVisible(), timeout=5000)  # everyone joined: it goes
    finally:
        _stop(*(w for w in (guest_window, again, window) if w is not None))


@pytest.mark.slow
def test_a_host_window_that_crashed_carries_the_game_on_and_its_guest_comes_back(window, qtbot, loopback) -> None:
    from app.net.remote_session import network_link
    from app.ui.remote_controller import RemoteController
    text = _host_rbc(window, qtbot)
    host = window.controller
    guest_window = _second_window(qtbot)
    again = None
    try:
        _join(guest_window, qtbot, text)
        guest = guest_window.controller
        qtbot.waitUntil(lambda: guest.started, timeout=10000)
        _turn(window, qtbot)
        _turn(guest_window, qtbot)
        qtbot.waitUntil(lambda: host.game.to_move == 0 and host.game.phase == "sense", timeout=10000)
        told = len(guest.game.observations(1))
        _crash_host(window)
        assert guest.outcome is None  # the guest heard nothing: it keeps trying to come back, and says so
        from app.ui.remote_controller import LOST
        qtbot.waitUntil(lambda: guest.status() == LOST and guest.log().count(LOST) == 1, timeout=10000)
        qtbot.waitUntil(lambda: guest_window.status.text() == LOST, timeout=5000)  # the window's status line
        again = _second_window(qtbot)
        again._pick_unfinished = lambda found: next(game for game in found
                                                    if (network_link(game.record) or {}).get("seat") == 0)
        assert again.offer_resume(), getattr(again, "last_warning", "")
        back = again.controller
        assert isinstance(back, RemoteController) and back.remote_game.seat == 0
        qtbot.waitUntil(lambda: back.game.to_move == 0 and back.game.phase == "sense", timeout=15000)
        _turn(again, qtbot)
        qtbot.waitUntil(lambda: len(guest.game.observations(1)) > told and guest.game.to_move == 1, timeout=15000)
        assert "Reconnected." in guest.log() and guest.status() != LOST
        assert guest.outcome is None and back.outcome is None
    finally:
        _stop(*(w for w in (again, guest_window, window) if w is not None))


def _guest_window_after_white_sensed(window, qtbot, sense_at) -> "object":
    """A host window (White) and a guest window (Black), untimed; White senses at ``sense_at`` and passes; the
    guest window as Black's person sees it then, painted whole (every page of its tabbed panels)."""
    from PySide6.QtWidgets import QTabWidget
    from app.ui.host_dialog import Hosting
    from app.ui.remote_controller import RemoteController
    assert window.network.start_hosting(Hosting("rbc", {}, TimeControl(None, 0.0), ("person", "another computer")))
    qtbot.waitUntil(lambda: isinstance(window.controller, RemoteController), timeout=10000)
    host = window.controller
    guest_window = _second_window(qtbot)
    try:
        _join(guest_window, qtbot, window.network.panel.lines["Black"].text())
        guest = guest_window.controller
        qtbot.waitUntil(lambda: host.game.to_move == 0 and host.game.phase == "sense", timeout=10000)
        host.sense(sense_at)
        qtbot.waitUntil(lambda: host.game.phase == "move", timeout=10000)
        host.annotations[0] = ([((4, 1), (4, 3))], [sense_at])  # White's own marks stay on White's screen
        host.annotations_changed(0)
        host.act_on_command("pass")
        qtbot.waitUntil(lambda: guest.game.to_move == 1 and guest.game.phase == "sense", timeout=10000)
        qtbot.wait(50)
        pictures = [guest_window.grab().toImage()]
        for tabs in guest_window.findChildren(QTabWidget):
            for index in range(tabs.count()):
                tabs.setCurrentIndex(index)
                pictures.append(guest_window.grab().toImage())
        return pictures
    finally:
        _stop(guest_window, window)


def test_what_the_host_seat_did_privately_never_reaches_the_guest_window(qtbot, loopback) -> None:
    """Two games that differ only in White's sense (and White's own marks): Black's window paints the same."""
    from PySide6.QtCore import QSettings
    from app.ui.main_window import MainWindow
    pictures = []
    for sense_at in ((4, 4), (1, 1)):
        QSettings().remove("window")  # both rounds start from the same layout (a closing window keeps its own)
        host_window = MainWindow()
        qtbot.addWidget(host_window)
        host_window.resize(1000, 700)
        host_window.show()
        pictures.append(_guest_window_after_white_sensed(host_window, qtbot, sense_at))
    assert len(pictures[0]) == len(pictures[1]) > 1
    assert all(first == second for first, second in zip(*pictures))


def _act_at_random(window, rng) -> None:
    """The window's seat makes some legal move, pick, card or command from what its own screen offers."""
    controller = window.controller
    scene = controller.scene()
    if scene.targets:
        origin = rng.choice(sorted(scene.targets))
        window.board.moveRequested.emit(origin, rng.choice(sorted(scene.targets[origin])), None)
        return
    if scene.sense_window is not None:
        controller.sense((rng.randrange(scene.files), rng.randrange(scene.ranks)))
        return
    for zone in scene.zones:  # a card of the hand (the first the game takes now)
        for index in range(len(getattr(zone, "cards", ()))):
            controller.zone(zone.id, index)
            if controller.remote_game.request is None:
                return
    commands = [command.id for command in controller.commands() if command.enabled]
    controller.act_on_command(rng.choice(commands))


def test_a_four_seat_game_with_bots_on_the_host_and_one_guest_plays_on(window, qtbot, loopback) -> None:
    import random
    from app.ui.host_dialog import Hosting
    from app.ui.remote_controller import RemoteController
    hosting = Hosting("telepathy", {}, TimeControl(None, 0.0), ("person", "random:easy", "another computer",
                                                                "random:easy"))
    assert window.network.start_hosting(hosting)
    qtbot.waitUntil(lambda: isinstance(window.controller, RemoteController), timeout=10000)
    assert list(window.network.panel.lines) == ["B1"]
    guest_window = _second_window(qtbot)
    rng = random.Random(5)
    try:
        _join(guest_window, qtbot, window.network.panel.lines["B1"].text())
        host, guest = window.controller, guest_window.controller
        acted = {0: 0, 2: 0}
        while min(acted.values()) < 3 and host.outcome is None:
            qtbot.waitUntil(lambda: host.outcome is not None or host.remote_game.request is not None
                            or guest.remote_game.request is not None, timeout=15000)
            for seat, (side, controller) in {0: (window, host), 2: (guest_window, guest)}.items():
                if controller.outcome is None and controller.remote_game.request is not None:
                    _act_at_random(side, rng)
                    acted[seat] += 1
        truth = window.network.hosted.session.game
        # A seat is sent its news before it is asked (as a bot is): what it has is the beginning of its own.
        told = list(guest.game.observations(2))
        assert told and told == list(truth.observations(2))[:len(told)]
        assert all(not guest.game.observations(seat) for seat in (0, 1, 3))
        assert guest.status().startswith(("Waiting for the other players", "Game over"))
    finally:
        _stop(guest_window, window)


def test_a_hosted_game_is_announced_with_only_the_other_seats_open_and_withdrawn_once_full(
        window, qtbot, loopback, monkeypatch) -> None:
    import app.net.announce as announce
    made = []

    class FakeAnnouncer:  # the real one binds port 5353 (tests/test_net_announce.py, opt-in)
        def __init__(self, server, hosted) -> None:
            self.open = [hosted.seat_names[seat] for seat, agent in hosted.remote_seats.items()
                         if not agent.joined.is_set()]
            self.closed = 0
            made.append(self)

        def close(self) -> None:
            self.closed += 1
    monkeypatch.setattr(announce, "Announcer", FakeAnnouncer)
    monkeypatch.setattr(loopback, "ANNOUNCE", True)
    text = _host_rbc(window, qtbot)
    qtbot.waitUntil(lambda: len(made) == 1 and window.network.panel.nearby.isVisible(), timeout=5000)
    assert made[0].open == ["Black"] and made[0].closed == 0  # the host's own seat is not offered
    guest_window = _second_window(qtbot)
    try:
        _join(guest_window, qtbot, text)
        qtbot.waitUntil(lambda: made[0].closed == 1, timeout=5000)
    finally:
        _stop(guest_window, window)
    qtbot.wait(200)
    assert made[0].closed == 1  # withdrawn once, however the game ends


def test_quitting_the_host_window_asks_then_ends_the_game_for_its_guest(window, qtbot, loopback) -> None:
    text = _host_rbc(window, qtbot)
    guest_window = _second_window(qtbot)
    try:
        _join(guest_window, qtbot, text)
        guest = guest_window.controller
        qtbot.waitUntil(lambda: guest.started, timeout=10000)
        asked = []
        guest_window._ask = lambda title, words: asked.append(words) and False  # "No": the guest stays
        guest_window.quit()
        assert guest_window.isVisible() and "keeps your seat" in asked[-1]
        window._ask = lambda title, words: asked.append(words) or True
        window.quit()
        assert "ends it for every player" in asked[-1] and not window.isVisible()
        # The referee stops: the game is aborted, in the host's record and for the guest, as any ending.
        qtbot.waitUntil(lambda: guest.outcome is not None, timeout=10000)
        assert guest.status().startswith("Game over: no result") and "shut down" in guest.status()
        assert not guest.can("resign")
    finally:
        _stop(guest_window, window)


def test_hosting_again_replaces_the_first_hosted_game_and_its_invitations(window, qtbot, loopback) -> None:
    first_text = _host_rbc(window, qtbot)
    first = window.network.server
    window._ask = lambda title, words: True  # "Leave this game?": yes
    second_text = _host_rbc(window, qtbot)
    try:
        qtbot.waitUntil(lambda: window.controller.link.invitation.port != first.port, timeout=10000)
        assert window.network.server is not first and second_text != first_text
        assert window.network.dock.isVisible() and window.network.panel.lines["Black"].text() == second_text
        qtbot.waitUntil(lambda: first.closing, timeout=5000)  # the first game's referee was stopped
    finally:
        _stop(window)


@pytest.mark.slow
def test_a_guest_window_plays_a_whole_game_against_a_referee_in_another_process(window, qtbot, tmp_path) -> None:
    """The referee server on a computer neither player owns: here a `sightline serve` process of its own, with
    its bot as White, and this window joining it as Black, playing (at random, from what its own screen offers)
    until the game is over; the referee's record replays to the result the window was told."""
    import random

    from app.engine.record import read_record
    from app.engine.timeline import Timeline
    from tests.test_net_support import finish, read_invitations, sightline, stop_all
    host = sightline("serve", "--variant", "rbc", "--white", "random", "--black", "remote", "--untimed",
                     "--seed", "3", "--max-plies", "60", "--out", str(tmp_path))
    try:
        invitation = read_invitations(host, 1)["Black"]
        _join(window, qtbot, invitation)
        guest = window.controller
        rng = random.Random(5)
        for _ in range(200):
            qtbot.waitUntil(lambda: guest.outcome is not None or guest.remote_game.request is not None, timeout=20000)
            if guest.outcome is not None:
                break
            _act_at_random(window, rng)
            qtbot.waitUntil(lambda: guest.outcome is not None or guest.remote_game.request is None, timeout=20000)
        assert guest.outcome is not None and guest.status().startswith("Game over")
        code, out, err = finish(host)
        assert code == 0, err
    finally:
        stop_all([host])
    (path,) = tmp_path.glob("rbc-*.json")
    record = read_record(path)
    assert record.players[1].name == "Ada" and record.result is not None
    assert record.result.winner == guest.outcome.winner and record.result.reason == guest.outcome.reason
    assert list(Timeline(record).game.observations(1)) == list(guest.game.observations(1))


HOST_THAT_QUITS = """
import sys
from app import games
from app.net.server import RefereeServer
from app.ui import window_network
server = RefereeServer("127.0.0.1", 0)
hosted = server.host_game("rbc", [None, "random"], seed=4)
print(hosted.invitations()[0].text(), flush=True)
sys.stdin.readline()                       # the guest has started: quit as a window closing the app does
window_network._stopper(server, [])()
"""


def test_a_host_program_that_quits_at_once_still_tells_its_guest_the_game_was_aborted(tmp_path) -> None:
    """The stop of a hosted game runs in a thread of its own; the program quitting right after it (the last
    window closed) used to end that thread before the guests were told, so they saw only a dropped connection."""
    import subprocess
    import sys
    from pathlib import Path

    from app.net.invitation import Invitation
    from tests.test_net_support import GuestThread, bot_guest
    root = Path(__file__).resolve().parent.parent
    host = subprocess.Popen([sys.executable, "-c", HOST_THAT_QUITS], cwd=root, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    try:
        assert host.stdout is not None and host.stdin is not None
        invitation = Invitation.parse(host.stdout.readline().strip())
        guest = bot_guest(invitation, seed=2, reconnect_limit=2.0)
        playing = GuestThread(guest)
        deadline = time.monotonic() + 30
        while not guest.observations and time.monotonic() < deadline:
            time.sleep(0.05)
        host.stdin.write("quit\n")
        host.stdin.flush()
        outcome = playing.join(30)
        assert outcome.reason.value == "aborted", outcome
        assert host.wait(10) == 0
    finally:
        host.kill()
