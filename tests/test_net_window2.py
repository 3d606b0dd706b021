"""The window's network play, the last gaps of issue 31: a guest's window says when its connection dropped and
when it is back; a host window carried on after a crash shows its Invitations panel again; the host picks its
port; draw offers between a host window and a guest window; the host's record offered for review.

Loopback only (127.0.0.1); nothing is announced (see tests/test_net_window.py's ``loopback``)."""

from __future__ import annotations

import threading

import pytest

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
