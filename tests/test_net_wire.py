"""The wire format, the values that travel on it, invitations and the slowing of wrong guesses (no sockets)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from app import games
from app.bots.contract import BotAgent
from app.engine.core import Outcome, Reason
from app.hosting.agents import BotSpec
from app.hosting.runner import run_game
from app.net import values, wire
from app.net.invitation import Invitation, InvitationError, Throttle, make_certificate, new_code, pem_fingerprint


def body(**fields: object) -> bytes:
    return json.dumps({"v": wire.VERSION, "seq": 1, **fields}).encode()


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b"[" * 100_000, "nested too deeply"),
    (b'{"v": 2, "v": 2}', "appears twice"),
    (b'{"v": 2, "seq": 1, "type": "ping", "n": NaN}', "not a number JSON allows"),
    (b'{"v": 2, "seq": 1, "type": "ping", "n": 1e999}', "too large"),
    (body(type="ping", n=1).replace(b'"v": 2', b'"v": 1'), "format version 1"),  # the first, never released
    (body(type="ping", n=1).replace(b'"seq": 1', b'"seq": "1"'), "sequence number"),
    (body(type="launch"), "unknown message type 'launch'"),
    (body(type="ping", n=1, extra=2), "unknown field 'extra'"),
    (body(type="ping"), "without its field 'n'"),
    (body(type="ping", n=True), "whose n is True"),
    (body(type="ping", n=-1), "whose n is -1"),
    (body(type="hello", protocol="sightline-net", version=1, code="x" * 201, token=None, name="a"), "whose code"),
    (body(type="act", request=1, action=[1], thought=0), r"an act message whose action is \[1\]"),
    (body(type="act", request=1, action={}), "without its field 'thought'"),
    (body(type="act", request=1, action={}, thought=-1), "whose thought is -1"),
    (body(type="act", request=1, action={}, thought="1"), "whose thought is '1'"),
    (body(type="resign", seat=1), "unknown field 'seat'"),  # a guest resigns for its own seat only
    (body(type="offer_draw", request=None, to=2), "unknown field 'to'"),
    (body(type="offer_draw"), "without its field 'request'"),
    (body(type="answer_draw", request=1), "without its field 'accept'"),
    (body(type="answer_draw", accept=1, request=1), "whose accept is 1"),
    (body(type="answer_draw", accept=None, request=1), "whose accept is None"),
    (body(type="answer_draw", accept=True, request="1"), "whose request is '1'"),
])
def test_every_kind_of_bad_message_is_one_error_with_a_sentence(data: bytes, words: str) -> None:
    with pytest.raises(wire.ProtocolError, match=words):
        wire.Reader(wire.TO_HOST).message(data)


def test_sequence_numbers_catch_repeated_and_reordered_messages() -> None:
    reader = wire.Reader(wire.TO_HOST)
    first = wire.encode(1, "ping", {"n": 1})[4:]
    assert reader.message(first) == {"type": "ping", "n": 1}
    with pytest.raises(wire.ProtocolError, match="message 1 arrived where message 2 was due"):
        reader.message(first)  # replayed
    reader = wire.Reader(wire.TO_HOST)
    with pytest.raises(wire.ProtocolError, match="message 2 arrived where message 1 was due"):
        reader.message(wire.encode(2, "ping", {"n": 1})[4:])  # out of order


def test_a_frame_over_the_limit_is_refused_from_its_header() -> None:
    with pytest.raises(wire.ProtocolError, match="over the limit"):
        wire.frame_length(wire.HEADER.pack(wire.MAX_FRAME + 1))
    with pytest.raises(wire.ProtocolError, match="empty"):
        wire.frame_length(wire.HEADER.pack(0))
    assert wire.frame_length(wire.HEADER.pack(wire.MAX_FRAME)) == wire.MAX_FRAME
    with pytest.raises(ValueError, match="over the limit"):
        wire.encode(1, "error", {"message": "x" * (wire.MAX_FRAME + 1)})


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=300) | json_values.map(lambda value: json.dumps(value).encode())
       | st.dictionaries(st.sampled_from(["v", "seq", "type", "n", "request", "action", "code", "token", "name",
                                          "protocol", "version", "message"]), json_values)
       .map(lambda value: json.dumps(value).encode()))
def test_whatever_arrives_is_a_message_or_a_protocol_error(data: bytes) -> None:
    for schema in (wire.TO_HOST, wire.TO_GUEST):
        try:
            message = wire.Reader(schema).message(data)
        except wire.ProtocolError as error:
            assert str(error)
        else:
            assert message["type"] in schema


def _class_names() -> list[str]:
    """``module:Name`` of every class in the games' packages and the shared kits (what a peer might name)."""
    import importlib
    import pkgutil
    import app.games
    names = []
    for module_info in pkgutil.walk_packages(app.games.__path__, "app.games."):
        try:
            module = importlib.import_module(module_info.name)
        except Exception:  # noqa: BLE001 - a module that needs what is not installed
            continue
        names += [f"{module.__name__}:{name}" for name, value in vars(module).items()
                  if isinstance(value, type) and value.__module__ == module.__name__]
    return sorted(names)


CLASS_NAMES = _class_names()
named = st.builds(lambda name, data: {"class": name, "data": data}, st.sampled_from(CLASS_NAMES), json_values)
tagged = st.builds(lambda name, data: {"object": name, "data": data}, st.sampled_from(CLASS_NAMES), json_values)


@settings(max_examples=600, deadline=None)
@given(json_values | named | tagged, st.sampled_from(sorted(games.names())))
def test_whatever_a_guest_calls_an_action_is_an_action_or_a_protocol_error(data: object, variant: str) -> None:
    for read in (lambda: values.action_from_json(variant, data), lambda: values.choices_from_json(variant, data),
                 lambda: values.observation_from_json(variant, data)):
        try:
            read()
        except wire.ProtocolError as error:
            assert str(error)


def test_only_the_games_own_classes_are_read() -> None:
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):
        values.observation_from_json("rbc", {"class": "subprocess:Popen", "data": {}})
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):
        values.choices_from_json("rbc", {"object": "app.net.server:Violation", "data": {}})
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):  # another game's own rules
        values.observation_from_json("rbc", {"class": "app.games.minit.rules:GameStarted", "data": {}})


class _Keeper(BotAgent):
    """A built-in bot that keeps what its seat was told and asked, to check each survives the trip."""

    def __init__(self, agent: BotAgent, seen: list[tuple[str, object]]) -> None:
        super().__init__(agent.bot, agent.name)
        self.observes = True
        self.seen = seen

    def observe(self, observation: object) -> None:
        self.seen.append(("observation", observation))
        super().observe(observation)

    def act(self, request):  # type: ignore[no-untyped-def]
        self.seen.append(("choices", request.choices))
        action = super().act(request)
        self.seen.append(("action", action))
        return action


def _same(left: object, right: object) -> bool:
    if isinstance(left, (list, tuple)) or type(left).__name__ == "MoveActions":
        return isinstance(right, (list, tuple)) and len(left) == len(right) and all(  # type: ignore[arg-type]
            _same(a, b) for a, b in zip(left, right))  # type: ignore[call-overload]
    if isinstance(left, dict):
        return isinstance(right, dict) and left.keys() == right.keys() and all(_same(left[k], right[k]) for k in left)
    return left == right and type(left) is type(right)


@pytest.mark.parametrize("variant", sorted(games.names()))
def test_every_games_observations_choices_and_actions_survive_the_trip(variant: str) -> None:
    definition = games.get(variant)
    bots = list(definition.bot_classes())
    bot = "random" if "random" in bots else bots[-1]
    seen: list[tuple[str, object]] = []
    game = definition.referee().from_options({})
    agents = [_Keeper(BotSpec(bot, variant).create(seat), seen)  # type: ignore[arg-type]
              for seat in range(len(definition.seat_names))]
    run_game(game, agents, seed=3, max_plies=60)
    assert seen
    for kind, value in seen:
        if kind == "observation":
            data = json.loads(json.dumps(values.observation_to_json(value)))
            back = values.observation_from_json(variant, data)
        elif kind == "choices":
            back = values.choices_from_json(variant, json.loads(json.dumps(values.choices_to_json(value))))
        else:
            back = values.action_from_json(variant, json.loads(json.dumps(values.action_to_json(value))))  # type: ignore[arg-type]
        assert _same(value, back), (kind, value, back)


def test_an_outcome_is_read_as_written() -> None:
    from app.engine import codec
    outcome = Outcome(None, Reason.TIMEOUT, "Black ran out of time", team=0)
    assert codec.from_json(Outcome, json.loads(json.dumps(codec.to_json(outcome)))) == outcome


# ---- invitations -------------------------------------------------------------------------------------------

def test_an_invitation_is_one_line_that_reads_back() -> None:
    certificate, _key = make_certificate()
    invitation = Invitation("127.0.0.1", 4567, new_code(), pem_fingerprint(certificate))
    text = invitation.text()
    assert "\n" not in text and text.startswith("sightline://127.0.0.1:4567/")
    assert Invitation.parse(f"  '{text}'\n") == invitation
    ipv6 = Invitation("::1", 80, invitation.code, invitation.fingerprint)
    assert Invitation.parse(ipv6.text()) == ipv6


@pytest.mark.parametrize("text, words", [
    ("http://127.0.0.1:1/K7Q4-M2XD?sha256=" + "a" * 64, "starts with sightline://"),
    ("sightline://127.0.0.1/K7Q4-M2XD?sha256=" + "a" * 64, "no address and port"),
    ("sightline://127.0.0.1:1/K7Q4?sha256=" + "a" * 64, "join code"),
    ("sightline://127.0.0.1:1/K7Q4-M2X0?sha256=" + "a" * 64, "join code"),
    ("sightline://127.0.0.1:1/K7Q4-M2XD", "fingerprint"),
    ("sightline://127.0.0.1:99999/K7Q4-M2XD?sha256=" + "a" * 64, "not an invitation"),
    ("x" * 500, "too long"),
])
def test_a_bad_invitation_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvitationError, match=words):
        Invitation.parse(text)


def test_wrong_tries_slow_their_address_and_only_theirs() -> None:
    now = [100.0]
    throttle = Throttle(base=0.5, ceiling=8.0, now=lambda: now[0])
    assert throttle.wait("10.0.0.1") == 0
    delays = [throttle.failed("10.0.0.1") for _ in range(6)]
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert throttle.wait("10.0.0.1") == 8.0 and throttle.wait("10.0.0.2") == 0
    now[0] += 8.0
    assert throttle.wait("10.0.0.1") == 0


def test_classes_of_the_games_own_package_and_of_the_shared_kits_are_read() -> None:
    from app.games.team_draw import DrawProposed
    assert values.observation_from_json("telepathy", values.observation_to_json(DrawProposed(2))) == DrawProposed(2)
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):  # a kit, but no record class
        values.observation_from_json("rbc", {"class": "app.games.definition:Lazy", "data": {}})
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):  # another game's package
        values.observation_from_json("rbc", {"class": "app.games.minit:DEFINITION", "data": {}})
    with pytest.raises(wire.ProtocolError, match="not a class of this game"):
        values.choices_from_json("rbc", {"object": "app.games.splitbrain.rules:PickPiece", "data": {"square": "e2"}})


def test_a_class_the_codec_cannot_build_is_a_protocol_error_too() -> None:
    with pytest.raises(wire.ProtocolError, match="cannot be read"):
        values.observation_from_json("rbc", {"class": "app.games.scene:BoardScene", "data": {}})
    with pytest.raises(wire.ProtocolError, match="cannot be read"):
        values.choices_from_json("rbc", {"object": "app.games.scene:BoardScene", "data": {}})
