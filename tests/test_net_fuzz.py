"""Thousands of malformed, oversized, truncated, replayed and out-of-order messages sent to a live referee
server: every one closes its connection (with a sentence where the server could say one), the server keeps
serving, the game whose seat they claim is untouched, and a game played meanwhile ends exactly as the same game
played locally."""

from __future__ import annotations

import json
import socket
from struct import error as struct_error

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.engine.clock import TimeControl
from app.hosting.agents import BotSpec
from app.hosting.runner import run_game
from app import games
from app.net import wire
from app.net.invitation import Throttle
from tests.test_net_support import GuestThread, RawClient, bot_guest, served, wait_for

scalars = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=10)
fields = st.dictionaries(st.sampled_from(["request", "action", "n", "message", "code", "token", "name", "thought",
                                          "accept", "x"]), json_values, max_size=4)

# Each case is what one connection sends after greeting with the seat's token (``after_hello``) or instead of a
# greeting; ``closes_with_error``: the server must answer with an error message before it closes.
cases = st.one_of(
    st.binary(min_size=1, max_size=200).map(lambda data: ("body", data)),  # any bytes as a message
    st.tuples(st.sampled_from(["hello", "act", "fail", "ping", "bye", "resign", "offer_draw", "answer_draw", "start",
                               "welcome", "observe", "clock", "zap"]),
              fields).map(lambda item: ("message", item)),  # wrong fields of known and unknown types
    st.sampled_from([0, 1, 3, 4, 9, 2 ** 40]).map(lambda seq: ("out_of_order", seq)),  # 2 is due after the hello
    st.just(("replay", None)),
    st.integers(wire.MAX_FRAME + 1, 2 ** 32 - 1).map(lambda length: ("oversized", length)),
    st.integers(1, 500).map(lambda length: ("truncated", length)),
    st.dictionaries(st.sampled_from(["square", "move", "zz", "type"]), json_values, max_size=3)
    .map(lambda action: ("bad_action", {**action, "zz": 1})),  # never an action: an unknown key is always there
    st.integers(0, 50).filter(lambda number: number != 1).map(lambda number: ("wrong_request", number)),
    st.text(max_size=12).map(lambda code: ("wrong_code", code)),
    st.binary(min_size=1, max_size=300).map(lambda data: ("not_tls", data)),
)


def poke(server, token: str, case: tuple[str, object]) -> None:  # type: ignore[no-untyped-def]
    kind, value = case
    if kind == "not_tls":
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as plain:
            plain.sendall(value)  # type: ignore[arg-type]
            plain.shutdown(socket.SHUT_WR)
            plain.settimeout(5)
            try:
                while plain.recv(4096):
                    pass
            except OSError:
                pass
        return
    client = RawClient(server)
    try:
        if kind == "wrong_code":
            client.hello(code=str(value))
            assert client.messages()[-1]["type"] == "error"
            return
        client.hello(token=token)
        client.until("act")  # resumed: everything the seat was told, and its open request
        if kind == "body":
            client.send_body(value)  # type: ignore[arg-type]
        elif kind == "message":
            message_type, message_fields = value  # type: ignore[misc]
            if message_type == "resign" and not message_fields:
                return  # a well-formed resignation is the seat's right: it would end the game under attack
            client.send(message_type, message_fields)
        elif kind == "out_of_order":
            client.send("ping", {"n": 1}, seq=int(value))  # type: ignore[call-overload]
        elif kind == "replay":
            client.send("ping", {"n": 1})
            client.send("ping", {"n": 1}, seq=client.seq)
        elif kind == "oversized":
            client.send_raw(wire.HEADER.pack(int(value)) + b"{")  # type: ignore[call-overload]
        elif kind == "truncated":
            client.send_raw(wire.HEADER.pack(int(value) + 10) + b"{" * int(value))  # type: ignore[call-overload]
            client.socket.shutdown(socket.SHUT_WR)
            client.messages()
            return
        elif kind == "bad_action":
            client.send("act", {"request": 1, "action": value, "thought": 0.0})
        elif kind == "wrong_request":
            client.send("act", {"request": value, "action": {"type": "sense", "square": "e4"}, "thought": None})
        received = client.messages()
        if kind == "message" and value[0] in ("ping", "bye", "offer_draw", "answer_draw") and \
                (not received or received[-1]["type"] != "error"):
            # a well-formed ping, bye or draw message is no violation: the server answers (RBC has no draws: the
            # draw is refused with a sentence) or lets the guest go
            return
        assert received and received[-1]["type"] == "error", (case, received)
    finally:
        client.close()


@pytest.mark.slow  # about 35 s: two thousand connections
def test_thousands_of_bad_messages_change_no_game_and_stop_no_server() -> None:
    # wrong codes are not slowed here (every connection comes from 127.0.0.1); the slowing is tested apart
    with served(throttle=Throttle(base=0.0)) as server:
        target = server.host_game("rbc", [None, "random"], seed=20, reconnect_limit=600)
        attacker = RawClient(server)
        attacker.hello(code=target.codes[0])
        token = attacker.until("start")[0]["token"]
        attacker.send("ready", {})
        attacker.until("act")
        attacker.close()
        seat = target.agents[0]
        wait_for(lambda: seat.waiting and not seat.connected, what="the seat to wait for its guest")
        told = list(target.game.observations(0))

        victim = server.host_game("rbc", [None, "random"], seed=10, max_plies=300)
        guest = GuestThread(bot_guest(victim.invitations()[0], seed=7))

        count = [0]

        @settings(max_examples=2000, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(case=cases)
        def fuzz(case: tuple[str, object]) -> None:
            count[0] += 1
            poke(server, token, case)

        fuzz()
        assert count[0] >= 2000
        assert server.violation_count > 1500
        assert all(violation.message for violation in server.violations)

        # the attacked game: nothing played, nothing told, still waiting for its seat's first answer
        assert target.game.ply == 0 and not target.finished.is_set()
        assert list(target.game.observations(0)) == told and seat.waiting

        # the victim game ended as the same game played locally, between the same bots
        guest.join(120)
        record = victim.wait(60)
        assert record is not None
        local_game = games.referee("rbc").from_options({})
        local = run_game(local_game, [BotSpec("random", "rbc").create(7), BotSpec("random", "rbc").create(11)],
                         TimeControl(None, 0.0), seed=10, max_plies=300)
        assert [(entry.seat, entry.action) for entry in record.entries] == \
               [(entry.seat, entry.action) for entry in local.entries]
        assert record.result == local.result

        # and the server still lets the seat's guest in and plays its answer
        late = RawClient(server)
        late.hello(token=token)
        late.until("act")
        late.send("act", {"request": 1, "action": {"type": "sense", "square": "e7"}, "thought": None})
        wait_for(lambda: target.game.phase == "move" or target.game.ply > 0, what="the answer to be played")
        late.close()
        json.dumps([violation.message for violation in server.violations[:5]])


def _hostile_cases():  # type: ignore[no-untyped-def]
    guest_types = st.sampled_from(["welcome", "start", "observe", "act", "clock", "closed", "refused", "end", "pong",
                                   "error", "hello", "zap"])
    message = st.tuples(guest_types, st.dictionaries(
        st.sampled_from(["game", "variant", "seat", "seat_names", "token", "resumed", "options", "opponent", "index",
                         "observation", "request", "phase", "choices", "seconds_left", "outcome", "n", "message",
                         "running", "sharing"]),
        json_values, max_size=5))
    step = st.one_of(
        message.map(lambda item: ("message", item)),
        st.binary(min_size=1, max_size=100).map(lambda data: ("body", data)),
        st.integers(wire.MAX_FRAME + 1, 2 ** 32 - 1).map(lambda length: ("oversized", length)),
        st.integers(1, 50).map(lambda length: ("truncated", length)),
        json_values.map(lambda value: ("observation", value)),
        json_values.map(lambda value: ("choices", value)),
        st.sampled_from([0, 1, 7]).map(lambda seq: ("seq", seq)),
    )
    return st.lists(step, min_size=1, max_size=4)


def _script(steps) -> bytes:  # type: ignore[no-untyped-def]
    """What a hostile host sends after the guest's hello: a proper welcome and start, then ``steps``."""
    seq = [0]

    def frame(kind: str, fields: dict[str, object], number: int | None = None) -> bytes:
        seq[0] += 1
        try:
            return wire.encode(seq[0] if number is None else number, kind, fields)
        except ValueError:  # not JSON at all (a float JSON cannot hold): send something else that is wrong
            return wire.HEADER.pack(1) + b"{"
    data = frame("welcome", {"game": "g", "variant": "rbc", "seat": 0, "seat_names": ["White", "Black"],
                             "token": "t", "resumed": False}) + frame("start", {"options": {}, "opponent": "x"})
    for kind, value in steps:
        if kind == "message":
            data += frame(value[0], value[1])
        elif kind == "body":
            data += wire.HEADER.pack(len(value)) + value
        elif kind == "oversized":
            data += wire.HEADER.pack(value) + b"{"
        elif kind == "truncated":
            data += wire.HEADER.pack(value + 10) + b"{" * value
        elif kind == "observation":
            data += frame("observe", {"index": 0, "observation": value if isinstance(value, dict) else {"x": value}})
        elif kind == "choices":
            data += frame("act", {"request": 1, "phase": "sense", "choices": value, "seconds_left": None})
        elif kind == "seq":
            data += frame("pong", {"n": 1}, number=value)
    return data


def test_a_hostile_host_stops_a_guest_with_a_sentence_and_nothing_else() -> None:
    import threading

    from app.net.guest import GuestError
    from app.net.invitation import Invitation, make_certificate, new_code, pem_fingerprint, server_context
    from tests.test_net_support import bot_guest

    certificate, key = make_certificate()
    context = server_context(certificate, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    script = [b""]
    stop = threading.Event()

    def host() -> None:
        while not stop.is_set():
            try:
                raw, _ = listener.accept()
            except (socket.timeout, TimeoutError):
                continue
            except OSError:
                return
            try:
                with context.wrap_socket(raw, server_side=True) as connection:
                    connection.settimeout(5)
                    header = connection.recv(4)
                    connection.recv(wire.HEADER.unpack(header)[0])  # the guest's hello
                    connection.sendall(script[0])
            except (OSError, ValueError, struct_error):
                pass

    thread = threading.Thread(target=host, daemon=True, name="test-hostile-host")
    thread.start()
    invitation = Invitation("127.0.0.1", listener.getsockname()[1], new_code(), pem_fingerprint(certificate))
    stopped = [0]
    try:
        @settings(max_examples=300, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(steps=_hostile_cases())
        def hostile(steps) -> None:  # type: ignore[no-untyped-def]
            script[0] = _script(steps)
            guest = bot_guest(invitation, reconnect_limit=0.0)
            try:
                guest.play()
            except GuestError as error:
                assert str(error)
                stopped[0] += 1
        hostile()
    finally:
        stop.set()
        listener.close()
        thread.join(10)
    assert stopped[0] >= 250

