"""Clocks over the network: each guest is sent the clocks its seat may see (the game's presenter says which, as
for the window), when what it may see of them changes, and counts the running one down between updates; the
referee gives a seat back its measured network lag within a bound, and the record charges what a local game
would. Time here is a fake that moves only when a test says: every figure is exact, no timing is asserted."""

from __future__ import annotations

from typing import Any

from app import games
from app.engine.clock import TimeControl
from app.engine.core import Adjudication
from app.engine.timeline import Timeline
from app.net.guest import ClockUpdate, Guest
from app.net.server import LagAllowance
from tests.test_net_support import FakeTime, GuestThread, bot_guest, served


def _play(variant: str, control: TimeControl, max_plies: int = 12, **guest_options: Any) -> tuple[Any, list[Guest],
                                                                                                   list[list[ClockUpdate]]]:
    definition = games.get(variant)
    updates: list[list[ClockUpdate]] = [[] for _ in definition.seat_names]
    with served(time_source=FakeTime()) as server:
        hosted = server.host_game(variant, [None] * len(definition.seat_names), control=control, seed=3,
                                  max_plies=max_plies)
        guests = [bot_guest(invitation, "random", seed=seat, on_clock=updates[seat].append, **guest_options)
                  for seat, invitation in sorted(hosted.invitations().items())]
        threads = [GuestThread(guest) for guest in guests]
        for thread in threads:
            thread.join(60)
        record = hosted.wait(30)
    return record, guests, updates


def test_an_rbc_guest_is_told_its_own_clock_only_and_only_when_its_own_turn_starts_or_ends() -> None:
    record, guests, updates = _play("rbc", TimeControl(60, 2))
    assert record is not None and record.result is not None
    for seat, seen in enumerate(updates):
        assert len(seen) >= 4
        assert guests[seat].clock == seen[-1]
        for update in seen:  # ruling R4: the opponent's clock is never named, not even as the running one
            assert set(update.seconds_left) == {seat}
            assert update.running in (seat, None) and update.sharing <= {seat}
        # one update when its turn starts, one when it ends: never one for a step of the opponent's turn
        running = [update.running for update in seen]
        assert all(a != b for a, b in zip(running, running[1:])), running
        # no time passed (the fake clock stood still): the clock shows 60 s and each ended turn's 2 s increment
        turns = [update for update in seen if update.running == seat]
        assert [update.seconds_left[seat] for update in turns] == [60.0 + 2 * index for index in range(len(turns))]
    # the clocks as they stand before the game starts, then White's running: White moves first
    assert [update.running for update in updates[0][:2]] == [None, 0] and updates[1][0].running is None


def test_a_blind_chess_guest_sees_both_clocks_and_every_turn_change() -> None:
    record, guests, updates = _play("blind", TimeControl(30, 1), max_plies=8)
    assert record is not None
    turns = sum(1 for entry in record.entries if not isinstance(entry.action, Adjudication))
    for seat, seen in enumerate(updates):
        assert all(set(update.seconds_left) == {0, 1} for update in seen)
        assert seen[0].running is None and seen[-1].running is None  # before the start, and at the end
        assert all(update.running in (0, 1) for update in seen[1:-1])
        assert len(seen) >= min(turns, 8)


def test_partners_on_one_clock_both_count_down() -> None:
    record, guests, updates = _play("telepathy", TimeControl(100, 0), max_plies=6)
    assert record is not None
    first = updates[2][1]  # B1 sees every clock; W1 is to act, on White's team clock
    assert set(first.seconds_left) == {0, 1, 2, 3} and first.running == 0 and first.sharing == {0, 1}
    assert first.seconds_at(1, first.received + 4) == 96.0 and first.seconds_at(2, first.received + 4) == 100.0


def test_an_untimed_game_sends_no_clock_updates() -> None:
    record, guests, updates = _play("rbc", TimeControl(None, 0.0), max_plies=6)
    assert record is not None and updates == [[], []]


def test_an_update_counts_the_running_clock_down_between_updates() -> None:
    update = ClockUpdate(1, {0: 30.0, 1: 12.5}, received=50.0)
    assert update.seconds_at(1, 50.0) == 12.5
    assert update.seconds_at(1, 52.0) == 10.5
    assert update.seconds_at(0, 52.0) == 30.0  # stands still
    assert update.seconds_at(1, 80.0) == 0.0  # never below zero
    assert update.seconds_at(1, 40.0) == 12.5  # a time before the update: as it arrived
    assert ClockUpdate(None, {0: None}, 1.0).seconds_at(0, 5.0) is None  # untimed


# -- lag ------------------------------------------------------------------------------------------------------------

THINK, LAG = 2.0, 0.5


def _lagged_game(lie: bool) -> tuple[Any, Any]:
    """RBC, White a guest whose program thinks THINK seconds over each request and whose answers take LAG seconds
    more to arrive (on the fake clock); with ``lie`` it says it did not think at all. Black: the referee's bot."""
    fake = FakeTime()
    with served(time_source=fake) as server:
        hosted = server.host_game("rbc", [None, "random"], control=TimeControl(60, 0), seed=4, max_plies=12)
        guest = bot_guest(hosted.invitations()[0], "random", seed=2, time_source=fake)
        make_agent = guest.make_agent

        def thinking(variant: str, seat: int) -> Any:
            agent = make_agent(variant, seat)
            act = agent.act

            def slow(request: Any) -> Any:
                fake.advance(THINK)
                return act(request)
            agent.act = slow  # type: ignore[method-assign]
            return agent
        guest.make_agent = thinking  # type: ignore[method-assign]
        send = guest._send

        def on_the_way(kind: str, fields: dict[str, Any]) -> None:
            if kind == "act":
                fake.advance(LAG)
                if lie:
                    fields = {**fields, "thought": 0.0}
            send(kind, fields)
        guest._send = on_the_way  # type: ignore[method-assign]
        GuestThread(guest).join(60)
        record = hosted.wait(30)
    return record, hosted.agents[0]


def test_the_measured_lag_is_given_back_and_the_record_charges_the_thinking() -> None:
    record, seat = _lagged_game(lie=False)
    assert record is not None and record.result is not None
    white = [entry.elapsed for entry in record.entries if entry.seat == 0 and not isinstance(entry.action, Adjudication)]
    assert len(white) >= 6
    assert white == [THINK] * len(white)  # a local game that thought as long would record the same
    assert seat.lag_credits == [LAG] * len(white)
    Timeline(record)  # the record replays: the clock it charges is the one the referee ran


def test_a_guest_that_lies_about_its_thinking_gains_no_more_than_the_bound() -> None:
    record, seat = _lagged_game(lie=True)
    assert record is not None
    white = [entry.elapsed for entry in record.entries if entry.seat == 0 and not isinstance(entry.action, Adjudication)]
    bound = LagAllowance()
    assert all(credit <= bound.per_answer for credit in seat.lag_credits)
    assert sum(seat.lag_credits) <= bound.quota + bound.gain * len(white)
    assert all(elapsed >= THINK + LAG - bound.per_answer for elapsed in white)
    assert sum(white) == THINK * len(white) + LAG * len(white) - sum(seat.lag_credits)
    assert sum(seat.lag_credits) < (THINK + LAG) * len(white) / 2  # far from the whole time it claimed


def test_a_guest_coming_back_is_sent_the_clocks_as_they_stand() -> None:
    from app.engine.clock import TimeControl as Control
    from tests.test_net_support import RawClient, wait_for

    fake = FakeTime()
    with served(time_source=fake) as server:
        hosted = server.host_game("rbc", [None, "random"], control=Control(60, 0), max_plies=20)
        first = RawClient(server)
        first.hello(code=hosted.codes[0])
        token = first.until("start")[0]["token"]
        first.send("ready", {})
        told = first.until("act")
        clocks = [message for message in told if message["type"] == "clock"]
        assert clocks[-1]["running"] == 0 and clocks[-1]["seconds_left"] == [[0, 60.0]]
        first.close()
        wait_for(lambda: not hosted.agents[0].connected, 30, "the drop")
        fake.advance(7.5)  # White's clock runs while it is away
        again = RawClient(server)
        again.hello(token=token)
        told = again.until("act")
        clock = [message for message in told if message["type"] == "clock"]
        assert len(clock) == 1 and clock[0]["running"] == 0 and clock[0]["seconds_left"] == [[0, 52.5]]
        again.close()
