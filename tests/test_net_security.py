"""Security of network play: the guest checks the host's certificate by the invitation's fingerprint before it says
anything; a join code works once; wrong codes are slowed per address; a seat's connection can answer only its own
seat's requests."""

from __future__ import annotations

import dataclasses
import time

import pytest

from app.engine.core import Reason
from app.net.guest import GuestError
from app.net.invitation import Throttle
from tests.test_net_support import GuestThread, RawClient, bot_guest, served, wait_for


def test_a_guest_refuses_a_host_whose_certificate_is_not_the_invitations() -> None:
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], max_plies=20)
        good = hosted.invitations()[0]
        forged = dataclasses.replace(good, fingerprint="0" * 64)
        with pytest.raises(GuestError, match="certificate is not the one the invitation names"):
            bot_guest(forged).play()
        assert server.violation_count == 0  # it never spoke: not even the code was sent
        assert not hosted.agents[0].joined.is_set()
        GuestThread(bot_guest(good)).join(60)  # the code is still good for the right guest
        assert hosted.wait(30) is not None


def test_a_join_code_works_once() -> None:
    with served(throttle=Throttle(base=0.0)) as server:
        hosted = server.host_game("rbc", [None, "random"], max_plies=20)
        first = RawClient(server)
        first.hello(code=hosted.codes[0].lower().replace("-", " "))  # as typed: any case, any separator
        assert first.until("welcome")[-1]["seat"] == 0
        second = RawClient(server)
        second.hello(code=hosted.codes[0])
        assert second.messages()[-1]["message"].startswith("wrong join code (or one already used)")
        first.close()
        second.close()


def test_wrong_codes_slow_their_address_even_for_the_right_code() -> None:
    with served(throttle=Throttle(base=0.4, ceiling=2.0)) as server:
        hosted = server.host_game("rbc", [None, "random"], max_plies=20)
        wrong = RawClient(server)
        wrong.hello(code="AAAA-AAAA")
        assert "wrong join code" in wrong.messages()[-1]["message"]
        right = RawClient(server)
        right.hello(code=hosted.codes[0])
        refusal = right.messages()[-1]["message"]
        assert refusal.startswith("too many wrong codes from your address: try again in")
        assert not hosted.agents[0].joined.is_set()
        time.sleep(0.5)
        again = RawClient(server)
        again.hello(code=hosted.codes[0])
        assert again.until("welcome")[-1]["seat"] == 0
        for client in (wrong, right, again):
            client.close()


def test_a_wrong_token_is_refused_and_counted_as_a_wrong_try() -> None:
    with served(throttle=Throttle(base=5.0)) as server:
        server.host_game("rbc", [None, "random"])
        client = RawClient(server)
        client.hello(token="not-a-token")
        assert client.messages()[-1]["message"] == "that seat token is not known here"
        assert server.throttle.wait("127.0.0.1") > 0
        client.close()


def test_a_connection_answers_only_its_own_seats_requests() -> None:
    with served() as server:
        hosted = server.host_game("rbc", [None, None], max_plies=20)
        white, black = hosted.agents
        intruder = RawClient(server)
        intruder.hello(code=hosted.codes[1])  # Black's seat
        intruder.until("welcome")
        white_guest = bot_guest(hosted.invitations()[0], reconnect_limit=2)
        white_guest.make_agent = lambda variant, seat: _Slow()  # type: ignore[assignment,misc]
        thread = GuestThread(white_guest)
        intruder.until("start")
        intruder.send("ready", {})
        wait_for(lambda: white.waiting, 30, "White's first request")
        # Black's connection answers White's open request 1 with a sense of Black's side
        intruder.send("act", {"request": 1, "action": {"type": "sense", "square": "e7"}, "thought": 0.1})
        closing = intruder.messages()
        assert closing[-1] == {**closing[-1], "type": "error",
                               "message": "an answer to request 1, but no request is open"}
        assert hosted.game.ply == 0 and hosted.game.phase == "sense" and white.waiting
        assert not hosted.game.observations(0)[-1].__class__.__name__ == "SenseResult"
        server.close()
        assert thread.join(30).reason is Reason.ABORTED  # told so, as any ending
        intruder.close()


class _Slow:
    observes = False
    name = "slow"

    def start(self, *args: object) -> None:
        pass

    def act(self, request: object) -> None:
        time.sleep(1.0)
        raise RuntimeError("no move")

    def end(self, *args: object) -> None:
        pass


def test_a_flood_of_connections_is_cut_off_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.net import server as server_module
    monkeypatch.setattr(server_module, "MAX_CONNECTIONS", 3)
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], max_plies=20)
        idle = [RawClient(server) for _ in range(3)]
        wait_for(lambda: len(server._connections) == 3, 10, "three connections")
        extra = RawClient(server)
        assert extra.messages()[-1]["message"].startswith("the server holds as many connections as it can")
        for client in idle:
            client.close()
        wait_for(lambda: not server._connections, 10, "the idle connections to go")
        GuestThread(bot_guest(hosted.invitations()[0])).join(60)
        extra.close()


def test_both_ends_probe_an_idle_connection_so_a_silent_drop_is_noticed() -> None:
    import socket

    with served() as server:
        server.host_game("rbc", [None, "random"])
        client = RawClient(server)
        wait_for(lambda: len(server._connections) == 1, 10, "the connection")
        (connection,) = server._connections
        assert connection.writer.get_extra_info("socket").getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)
        client.close()
    from app.net.invitation import keep_alive
    with socket.socket() as plain:
        keep_alive(plain)
        assert plain.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)
        assert plain.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 10


def test_a_referees_own_seats_take_built_in_bots_only() -> None:
    # an outside program in the referee's process could read the whole game, the guests' secrets included
    with served() as server:
        with pytest.raises(ValueError, match="not a built-in Reconnaissance Blind Chess bot"):
            server.host_game("rbc", [None, "tests/bots/some_bot.py"])
        with pytest.raises(ValueError, match="not a built-in"):
            server.host_game("rbc", [None, "reconchess.bots.random_bot"])
