"""A guest receives only what its seat is told: every byte it receives is recorded; two games that differ only in
the other seat's hidden moves give it byte-identical traffic, and that traffic decodes to exactly the
observations (and choices) its seat gets in the same game played locally. The games are timed, on a clock that
stands still (a fake time source): the clock updates are in the traffic, and name only the clocks the seat may
see."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from app import games
from app.bots.base import ActionRequest
from app.bots.contract import Agent
from app.engine.clock import TimeControl
from app.engine.core import Outcome
from app.games.rbc.rules import MoveAction, Sense
from app.hosting.runner import run_game
from app.net import server as server_module, values, wire
from app.net.guest import Guest
from tests.test_net_support import GuestThread, served

PLIES = 14
CLOCK = TimeControl(600, 5)


def still() -> float:
    """A time source that stands still: the clocks' figures depend on the game alone."""
    return 1000.0


class Script(Agent):
    """Plays a fixed list of moves (and senses one square), keeping what it is told and asked."""

    def __init__(self, moves: list[str], sense: int, name: str = "script") -> None:
        self.moves = list(moves)
        self.sense = sense
        self.name = name
        self.observed: list[Any] = []
        self.choices: list[Any] = []

    def start(self, seat: int, options: dict[str, Any], opponent_name: str) -> None:
        pass

    def observe(self, observation: Any) -> None:
        self.observed.append(observation)

    def act(self, request: ActionRequest) -> Any:
        self.choices.append(request.choices)
        if request.phase == "sense":
            return Sense(self.sense)
        return MoveAction(chess.Move.from_uci(self.moves.pop(0)))

    def end(self, outcome: Outcome, record: Any) -> None:
        pass


WHITE = ["b1c3", "c3b1"] * 10
"""White's knight goes out and back: it never meets Black, and White senses a1 (its own corner) only."""
BLACK_A = ["a7a6", "b7b6", "a6a5", "b6b5", "a5a4", "b5b4", "h7h6", "g7g6", "f7f6", "e7e6"]
BLACK_B = ["h7h5", "g7g5", "h5h4", "g5g4", "e7e5", "d7d5", "c7c6", "b8a6", "g8f6", "f8e7"]


def traffic(monkeypatch: pytest.MonkeyPatch, black: list[str]) -> tuple[bytes, Guest, Any]:
    """Every byte White's guest receives in a game where Black plays ``black``."""
    monkeypatch.setattr(server_module, "new_token", lambda: "the-seat-token")  # the secrets are random by design,
    monkeypatch.setattr(server_module.secrets, "token_hex", lambda size: "game")  # not by the game: fixed here
    received: list[bytes] = []
    with served(time_source=still) as server:
        hosted = server.host_game("rbc", [None, None], max_plies=PLIES, control=CLOCK)
        black_guest = Guest(hosted.invitations()[1], lambda variant, seat: Script(black, chess.E2, "black"))
        white_guest = Guest(hosted.invitations()[0], lambda variant, seat: Script(WHITE, chess.A1, "white"),
                            on_bytes=received.append)
        threads = [GuestThread(black_guest), GuestThread(white_guest)]
        for thread in threads:
            thread.join(60)
        record = hosted.wait(30)
    return b"".join(received), white_guest, record


def local_white(black: list[str]) -> Script:
    """The same game played in this process, without a network: what White's seat is told and asked."""
    white = Script(WHITE, chess.A1, "white")
    run_game(games.referee("rbc").from_options({}), [white, Script(black, chess.E2, "black")],
             TimeControl(None, 0.0), max_plies=PLIES)
    return white


def messages(data: bytes) -> list[dict[str, Any]]:
    reader, found = wire.Reader(wire.TO_GUEST), []
    while data:
        length = wire.frame_length(data[:4])
        found.append(reader.message(data[4:4 + length]))
        data = data[4 + length:]
    return found


def test_other_seats_secrets_do_not_change_a_single_byte_a_guest_receives(monkeypatch: pytest.MonkeyPatch) -> None:
    bytes_a, guest_a, record_a = traffic(monkeypatch, BLACK_A)
    bytes_b, guest_b, record_b = traffic(monkeypatch, BLACK_B)
    # the two games really differ: Black's moves are in the host's records, and not in White's traffic
    moves_a = [entry.action for entry in record_a.entries if entry.seat == 1]
    moves_b = [entry.action for entry in record_b.entries if entry.seat == 1]
    assert moves_a != moves_b and len(record_a.entries) == len(record_b.entries) > PLIES
    assert len(bytes_a) > 1000
    assert bytes_a == bytes_b
    for black in (b"a7a6", b"h7h5", b"a6", b"h5"):
        assert black not in bytes_a


@pytest.mark.parametrize("black", [BLACK_A, BLACK_B])
def test_what_a_guest_receives_is_what_its_seat_is_told_locally(monkeypatch: pytest.MonkeyPatch,
                                                                 black: list[str]) -> None:
    data, guest, _record = traffic(monkeypatch, black)
    local = local_white(black)
    received = messages(data)
    observed = [values.observation_from_json("rbc", message["observation"])
                for message in received if message["type"] == "observe"]
    asked = [values.choices_from_json("rbc", message["choices"]) for message in received if message["type"] == "act"]
    assert observed == local.observed == guest.observations
    assert len(asked) == len(local.choices)
    for remote_choices, local_choices in zip(asked, local.choices):
        assert remote_choices.keys() == local_choices.keys()
        for key in local_choices:
            assert list(remote_choices[key]) == list(local_choices[key])
    kinds = {message["type"] for message in received}
    assert kinds == {"welcome", "start", "observe", "act", "clock", "end"}
    clocks = [message for message in received if message["type"] == "clock"]
    assert all([seat for seat, _ in message["seconds_left"]] == [0] and message["running"] in (0, None)
               for message in clocks)  # ruling R4: White is never told Black's time, nor when Black's clock runs


@pytest.mark.parametrize("variant", sorted(games.names()))
def test_every_game_tells_each_guest_exactly_its_seats_observations(variant: str) -> None:
    """Every seat of every game played from elsewhere (partners too): each guest ends up told exactly what the
    referee told its seat, in order, and the game ends with an ordinary record."""
    from app.engine.timeline import Timeline
    from tests.test_net_support import bot_guest

    definition = games.get(variant)
    bots = list(definition.bot_classes())
    bot = "random" if "random" in bots else bots[-1]
    updates: dict[int, list[Any]] = {seat: [] for seat in range(len(definition.seat_names))}
    with served(time_source=still) as server:
        hosted = server.host_game(variant, [None] * len(definition.seat_names), max_plies=40, control=CLOCK)
        guests = [bot_guest(invitation, bot, seed=seat, on_clock=updates[seat].append)
                  for seat, invitation in sorted(hosted.invitations().items())]
        threads = [GuestThread(guest) for guest in guests]
        for thread in threads:
            thread.join(120)
        record = hosted.wait(30)
    assert record is not None and record.result is not None
    for seat, guest in enumerate(guests):
        assert guest.seat == seat
        assert guest.observations == list(hosted.game.observations(seat))
        assert guest.outcome == record.result
        visible = set(definition.presenter().visible_clocks(seat, len(definition.seat_names)))
        assert updates[seat] and all(set(update.seconds_left) == visible for update in updates[seat])
        assert all(update.running is None or update.running in visible for update in updates[seat])
    Timeline(record)
