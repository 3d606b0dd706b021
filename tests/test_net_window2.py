"""The window's network play, the last gaps of issue 31: a guest's window says when its connection dropped and
when it is back; a host window carried on after a crash shows its Invitations panel again; the host picks its
port; draw offers between a host window and a guest window; the host's record offered for review.

Loopback only (127.0.0.1); nothing is announced (see tests/test_net_window.py's ``loopback``)."""

from __future__ import annotations

import threading

import pytest

from app.engine.clock import TimeControl

from tests.test_net_window import _fake_link, _host_rbc, _join, _second_window, _stop, loopback  # noqa: F401


def test_a_guest_says_when_its_connection_dropped_and_when_it_is_back() -> None:
    from app.hosting.agents import BotSpec
    from app.net.guest import Guest
    from tests.test_net_support import GuestThread, served

    states: list[str] = []
    cut = threading.Event()
    guest: Guest | None = None

    def make_agent(variant: str, seat: int):  # a random bot whose first answer comes after its line was cut
        agent = BotSpec("random", variant).create(3)
        act = agent.act

        def acting(request):
            if not cut.is_set():
                cut.set()
                guest._hang_up()  # the network drops: the guest comes back by itself
            return act(request)
        agent.act = acting
        return agent

    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], seed=2, max_plies=12, reconnect_limit=30)
        guest = Guest(hosted.invitations()[0], make_agent, on_link=states.append, reconnect_limit=30)
        outcome = GuestThread(guest).join(60)
        assert hosted.wait(30) is not None
    assert outcome is not None and cut.is_set() and guest.connections >= 2
    assert states[:2] == ["lost", "back"] and len(states) % 2 == 0  # each drop told once, each return once
    assert all(state == ("lost", "back")[index % 2] for index, state in enumerate(states))


def test_the_guest_window_says_its_connection_is_lost_then_back(qtbot) -> None:
    from app.ui.remote_controller import LOST, RemoteController
    link = _fake_link()
    controller = RemoteController(link, "rbc", 1)
    controller.start()
    try:
        link.started.emit({}, "White")
        qtbot.waitUntil(lambda: controller.started, timeout=5000)
        link.linkChanged.emit("lost")
        assert controller.status() == LOST == "Connection lost: trying to reconnect…"
        assert controller.log().count(LOST) == 1
        link.linkChanged.emit("lost")  # told once a drop
        assert controller.log().count(LOST) == 1
        link.linkChanged.emit("back")
        assert controller.status() != LOST and controller.log()[-1] == "Reconnected."
        link.linkChanged.emit("lost")
        link.failed.emit("the host could not be reached again")  # given up: the problem is said, not the retrying
        assert controller.status().startswith("Disconnected: ")
    finally:
        controller.stop()


def _free_port() -> int:
    import socket
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def test_the_host_picks_the_port_remembered_and_a_port_in_use_is_said_in_the_dialog(
        window, qtbot, loopback, monkeypatch) -> None:
    import socket

    from PySide6.QtWidgets import QDialog

    import app.ui.host_dialog as host_dialog
    from app.ui.host_dialog import HostDialog
    from app.ui.remote_controller import RemoteController
    warned: list[str] = []
    monkeypatch.setattr(host_dialog.QMessageBox, "warning", lambda _parent, _title, text: warned.append(text))
    dialog = HostDialog(window, "127.0.0.1")  # as the window passes its listening address (loopback in tests)
    qtbot.addWidget(dialog)
    assert dialog.port.value() == 0 and dialog.port.text() == "any free port"
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        dialog.port.setValue(busy.getsockname()[1])
        dialog.accept()  # another program listens there: the dialog says so and stays open
        assert dialog.result() != QDialog.DialogCode.Accepted and len(warned) == 1
        assert f"Port {busy.getsockname()[1]} is already in use" in warned[0]
    finally:
        busy.close()
    port = _free_port()
    dialog.port.setValue(port)
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted and len(warned) == 1
    hosting = dialog.hosting()
    assert hosting.port == port
    again = HostDialog(window, "127.0.0.1")  # remembered, like the dialog's other choices
    qtbot.addWidget(again)
    assert again.port.value() == port
    assert window.network.start_hosting(hosting)
    qtbot.waitUntil(lambda: isinstance(window.controller, RemoteController), timeout=10000)
    assert window.network.server.port == port
    assert f"127.0.0.1:{port}/" in window.network.panel.lines["Black"].text()  # the invitation names it
    # A port taken between the dialog and the hosting: said, not a crash.
    from app.ui.host_dialog import Hosting
    said: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "_warn", lambda *words: said.append(words))
    window.network._warn = lambda *words: said.append(words)
    assert not window.network.start_hosting(Hosting(hosting.variant, hosting.options, hosting.control,
                                                    hosting.seats, port))
    assert said and said[0][0] == "Cannot host the game" and f"Port {port} could not be opened" in said[0][1]
    assert window.network.server.port == port  # the game hosted first goes on


def _shown_draws(window) -> dict[str, tuple[str, bool]]:
    """The draw buttons in sight in ``window``'s panel: id -> (label, enabled)."""
    return {command_id: (button.text(), button.isEnabled())
            for command_id, button in window.panel.command_buttons.items()
            if command_id in ("offer_draw", "accept_draw", "decline_draw") and button.isVisible()}


def _press(window, qtbot, command_id: str) -> None:
    from PySide6.QtCore import Qt
    button = window.panel.command_buttons[command_id]
    assert button.isVisible() and button.isEnabled(), (command_id, _shown_draws(window))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


ANSWER = {"offer_draw": ("Offer draw", False), "accept_draw": ("Accept draw", True),
          "decline_draw": ("Decline draw", True)}
"""The draw buttons of a seat asked to answer an offer (the local window shows the same)."""


def _asked(window, qtbot, phase: str) -> None:
    controller = window.controller
    qtbot.waitUntil(lambda: controller.remote_game.request is not None
                    and controller.remote_game.request.phase == phase, timeout=10000)
    qtbot.wait(50)  # (the panel shows what the controller said)


def test_draw_offers_between_a_host_window_and_a_guest_window_in_blind_chess(window, qtbot, loopback) -> None:
    from app.engine.core import Reason
    from app.ui.host_dialog import Hosting
    from app.ui.remote_controller import RemoteController
    hosting = Hosting("blind", {}, TimeControl(600, 5), ("person", "another computer"))
    assert window.network.start_hosting(hosting)
    qtbot.waitUntil(lambda: isinstance(window.controller, RemoteController), timeout=10000)
    text = window.network.panel.lines["Black"].text()
    guest_window = _second_window(qtbot)
    try:
        _join(guest_window, qtbot, text)
        host, guest = window.controller, guest_window.controller
        qtbot.waitUntil(lambda: host.started and guest.started, timeout=10000)
        _asked(window, qtbot, "move")
        host.move((4, 1), (4, 3), None)  # e4
        # The guest offers a draw on its turn, once a turn.
        _asked(guest_window, qtbot, "move")
        assert _shown_draws(guest_window) == {"offer_draw": ("Offer draw", True)}
        _press(guest_window, qtbot, "offer_draw")
        # The host is asked to answer it, and declines.
        _asked(window, qtbot, "answer_draw")
        assert _shown_draws(window) == ANSWER  # as in a local game
        assert any("draw was offered" in line for line in host.log())
        _press(window, qtbot, "decline_draw")
        # Back to the guest's move: no second offer this turn; it moves.
        _asked(guest_window, qtbot, "move")
        assert any("declined" in line for line in guest.log())
        assert _shown_draws(guest_window) == {"offer_draw": ("Offer draw", False)}
        guest.move((4, 6), (4, 4), None)  # e5
        # The host offers; the guest window answers, and accepts: a draw for both.
        _asked(window, qtbot, "move")
        _press(window, qtbot, "offer_draw")
        _asked(guest_window, qtbot, "answer_draw")
        assert _shown_draws(guest_window) == ANSWER
        _press(guest_window, qtbot, "accept_draw")
        qtbot.waitUntil(lambda: host.outcome is not None and guest.outcome is not None, timeout=10000)
        assert host.outcome.winner is None and guest.outcome.winner is None
        assert host.outcome.reason == guest.outcome.reason == Reason.DRAW_AGREED
    finally:
        _stop(guest_window, window)
