"""Resigning and draws from a guest at any moment (Guest.resign, offer_draw, answer_draw): played through the same
path as a local game (the session, the game's own draw actions), in turn or out of it as the rules allow;
refused with a sentence otherwise; malformed ones close the connection."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.core import Reason, Resign
from app.engine.timeline import Timeline
from app.net.guest import Guest
from tests.test_net_support import GuestThread, Puppet, RawClient, bot_guest, served, wait_for


def _puppets(server: Any, variant: str, seats: int) -> tuple[Any, list[Guest], list[Puppet], list[GuestThread]]:
    hosted = server.host_game(variant, [None] * seats, max_plies=200)
    puppets = [Puppet() for _ in range(seats)]
    guests = [Guest(invitation, lambda variant, seat: puppets[seat], name=f"seat {seat}")
              for seat, invitation in sorted(hosted.invitations().items())]
    threads = [GuestThread(guest) for guest in guests]
    return hosted, guests, puppets, threads


def _finish(threads: list[GuestThread], puppets: list[Puppet]) -> None:
    for puppet in puppets:  # a request the end made moot still has its program thinking: let it go
        puppet.answers.put(Resign())
    for thread in threads:
        thread.join(30)


def test_a_seat_resigns_out_of_turn_and_the_record_says_so() -> None:
    with served() as server:
        hosted = server.host_game("rbc", [None, None], max_plies=50)
        black_agent = Puppet()
        white = bot_guest(hosted.invitations()[0], "random", seed=1)
        black = Guest(hosted.invitations()[1], lambda variant, seat: black_agent)
        threads = [GuestThread(white), GuestThread(black)]
        white_seat = hosted.agents[0]
        wait_for(lambda: white.observations and hosted.agents[1].waiting, 30, "Black's first request")
        black_agent.next_request()
        assert not white_seat.waiting  # White is not to act: it resigns out of turn
        white.resign()
        record = hosted.wait(30)
        outcome = threads[1].join(30)  # Black's program still thinks over its request: its guest hears the end
        assert outcome == record.result and black_agent.ended == [outcome]  # and so does the program, at once
        assert black_agent.asked.empty()
        _finish(threads, [black_agent])
    assert record.result.reason == Reason.RESIGN and record.result.winner == 1
    last = record.entries[-1]
    assert last.seat == 0 and last.action == Resign().to_json()
    Timeline(record)


def test_a_seat_resigns_on_its_own_turn_instead_of_answering() -> None:
    with served() as server:
        hosted, guests, puppets, threads = _puppets(server, "rbc", 2)
        puppets[0].next_request()
        guests[0].resign()
        record = hosted.wait(30)
        _finish(threads, puppets)
    assert record.result.reason == Reason.RESIGN and record.result.winner == 1
    assert [(entry.seat, entry.action) for entry in record.entries] == [(0, Resign().to_json())]
    assert guests[0].refusals == []


def _blind_offer(accept: bool) -> tuple[Any, list[Guest], list[Puppet]]:
    from app.games.blind.rules import AnswerDraw, OfferDraw
    with served() as server:
        hosted, guests, puppets, threads = _puppets(server, "blind", 2)
        white, black = puppets
        assert white.next_request().phase == "move"
        guests[1].offer_draw()  # Black is not to act: refused, with the reason
        wait_for(lambda: guests[1].refusals, 30, "the refusal")
        guests[0].offer_draw()  # White offers instead of moving
        asked = black.next_request()
        assert asked.phase == "answer_draw"
        assert any(type(observation).__name__ == "DrawOffered" for observation in black.observed)
        guests[1].answer_draw(accept)
        if accept:
            record = hosted.wait(30)
        else:
            again = white.next_request()  # White's program still thinks over the request the offer answered
            assert again.phase == "move" and not again.choices["offer_draw"]
            guests[0].offer_draw()  # once a turn
            wait_for(lambda: guests[0].refusals, 30, "the refusal")
            guests[0].resign()
            record = hosted.wait(30)
        _finish(threads, puppets)
    kinds = [(entry.seat, entry.action) for entry in record.entries]
    assert kinds[:2] == [(0, OfferDraw().to_json()), (1, AnswerDraw(accept).to_json())]
    return record, guests, puppets


def test_a_draw_offered_over_the_network_and_accepted() -> None:
    record, guests, puppets = _blind_offer(True)
    assert record.result.reason == Reason.DRAW_AGREED and len(record.entries) == 2
    assert "not your seat's turn" in guests[1].refusals[0]
    Timeline(record)


def test_a_draw_offered_over_the_network_and_declined() -> None:
    record, guests, puppets = _blind_offer(False)
    assert record.result.reason == Reason.RESIGN and record.result.winner == 1
    assert "offered now" in guests[0].refusals[0]
    Timeline(record)


@pytest.mark.parametrize("answers, reason", [((True, True, True), Reason.DRAW_AGREED),
                                             ((True, False), Reason.RESIGN)])
def test_a_team_draw_over_the_network(answers: tuple[bool, ...], reason: Reason) -> None:
    """Telepathy: W1 offers, its partner W2 agrees, then B1 and B2 decide; a "no" lets the game go on."""
    from app.games.team_draw import AnswerDraw, OfferDraw
    with served() as server:
        hosted, guests, puppets, threads = _puppets(server, "telepathy", 4)
        puppets[0].next_request()
        guests[0].offer_draw()  # W1's program still thinks over the request the offer answered: no matter
        for seat, accept in zip((1, 2, 3), answers):
            request = puppets[seat].next_request()
            assert request.phase == ("agree_draw" if seat == 1 else "answer_draw")
            guests[seat].answer_draw(accept)
        if reason == Reason.RESIGN:
            assert puppets[0].next_request().phase == "predict"  # W1 goes on with its turn
            guests[3].resign()  # out of turn: Black's team loses
        record = hosted.wait(30)
        _finish(threads, puppets)
    assert record.result.reason == reason
    entries = [(entry.seat, entry.action) for entry in record.entries]
    assert entries[0] == (0, OfferDraw().to_json())
    assert entries[1:1 + len(answers)] == [(seat, AnswerDraw(accept).to_json())
                                           for seat, accept in zip((1, 2, 3), answers)]
    if reason == Reason.RESIGN:
        assert record.result.team == 0 and entries[-1] == (3, Resign().to_json())  # White's team wins
    Timeline(record)


@pytest.mark.parametrize("kind, fields, words", [
    ("resign", {"seat": 1}, "unknown field 'seat'"),
    ("offer_draw", {"request": None, "to": 1}, "unknown field 'to'"),
    ("offer_draw", {}, "without its field 'request'"),
    ("answer_draw", {"request": 1}, "without its field 'accept'"),
    ("answer_draw", {"accept": "yes", "request": 1}, "whose accept is 'yes'"),
    ("answer_draw", {"accept": True, "request": -1}, "whose request is -1"),
])
def test_a_malformed_resign_or_draw_message_closes_the_connection(kind: str, fields: dict[str, Any],
                                                                  words: str) -> None:
    with served() as server:
        hosted = server.host_game("blind", [None, "random"], max_plies=20)
        client = RawClient(server)
        client.hello(code=hosted.codes[0])
        client.until("start")
        client.send("ready", {})
        client.until("act")
        client.send(kind, fields)
        closing = client.messages()
        assert closing[-1]["type"] == "error" and words in closing[-1]["message"]
        assert hosted.game.ply == 0 and hosted.game.outcome is None  # the game untouched
        client.close()


@pytest.mark.parametrize("first", ["offer", "answer"])
def test_a_draw_offer_and_the_programs_answer_crossing_on_the_way(first: str) -> None:
    """Whichever the referee reads first answers the request; the other is dropped (a late answer) or refused (a
    late offer), and the connection stays."""
    with served() as server:
        hosted = server.host_game("blind", [None, "random"], max_plies=20)
        client = RawClient(server)
        client.hello(code=hosted.codes[0])
        client.until("start")
        client.send("ready", {})
        asked = client.until("act")[-1]
        move = {"type": "attempt", "move": "e2e4"}
        if first == "offer":
            client.send("offer_draw", {"request": asked["request"]})
            client.until("closed")
            client.send("act", {"request": asked["request"], "action": move, "thought": 0.0})
            again = client.until("act")[-1]  # Black (the referee's bot) declined: White is asked again
            assert again["request"] == asked["request"] + 1 and hosted.game.ply == 0
            entries = hosted.session.record.entries
            assert [entry.action["type"] for entry in entries[:2]] == ["offer_draw", "answer_draw"]
        else:
            client.send("act", {"request": asked["request"], "action": move, "thought": 0.0})
            client.send("offer_draw", {"request": asked["request"]})  # crossed: the answer was read first
            refused = client.until("refused")[-1]
            assert refused["message"].startswith("a draw may be offered or answered only in place of")
            assert hosted.game.ply >= 1  # the move was played
        assert not server.violations
        client.close()
