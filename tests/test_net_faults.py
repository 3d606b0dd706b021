"""Faults: a guest killed mid-turn comes back with its seat token and the game goes on where it was; a guest that
stays away loses the game or has it aborted, as the host chose, and the record says which; closing the server
aborts what is still running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from app.engine.core import Reason
from app.engine.record import read_record
from app.engine.timeline import Timeline
from app.net.guest import GuestError
from tests.test_net_support import (ROOT, GuestThread, bot_guest, finish, read_invitations, served, sightline,
                                    stop_all, wait_for)

SLOW_GUEST = textwrap.dedent("""
    import sys, time
    from app import games
    from app.hosting.agents import BotSpec
    from app.net.guest import Guest, write_token
    from app.net.invitation import Invitation

    def slow(variant, seat):
        agent = BotSpec("random", variant).create(1)
        act, asked = agent.act, []
        def thinking(request):
            asked.append(request)
            if len(asked) == 10:  # the tenth request: say so, and think until killed
                open(sys.argv[3], "w").close()
                time.sleep(120)
            return act(request)
        agent.act = thinking
        return agent

    Guest(Invitation.parse(sys.argv[1]), slow, on_token=lambda token: write_token(sys.argv[2], token)).play()
""")


def test_a_guest_killed_mid_turn_comes_back_with_its_token_and_the_game_goes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    token_file = tmp_path / "seat-token"
    processes: list[subprocess.Popen[str]] = []
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], seed=5, max_plies=60, reconnect_limit=60,
                                  out_dir=tmp_path)
        seat = hosted.agents[0]
        invitation = hosted.invitations()[0].text()
        try:
            thinking = tmp_path / "thinking"
            first = subprocess.Popen([sys.executable, "-c", SLOW_GUEST, invitation, str(token_file), str(thinking)],
                                     cwd=ROOT,
                                     env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            processes.append(first)
            wait_for(thinking.exists, 60, "the guest to be in the middle of a turn")
            ply, requests = hosted.game.ply, seat._request
            first.send_signal(signal.SIGKILL)
            first.communicate(timeout=10)
            wait_for(lambda: not seat.connected, 10, "the host to see the guest gone")
            assert seat.waiting and hosted.game.ply == ply and seat._request == requests  # the turn waits
            assert token_file.read_text().strip()

            again = sightline("join", invitation, "--bot", "random", "--token-file", str(token_file))
            processes.append(again)
            code, out, err = finish(again)
            assert code == 0, err
            assert out.startswith("played White; result: ")
        finally:
            stop_all(processes)
        record = hosted.wait(30)
    assert record is not None and record.result is not None
    assert seat.drops >= 2  # the kill, and the end of the game
    assert record.result.reason is not Reason.FORFEIT and record.result.reason is not Reason.ABORTED
    assert not any(entry.action.get("type") == "adjudication" and entry.action.get("reason") != "turn_limit"
                   for entry in record.entries)
    assert hosted.game.ply > ply
    Timeline(read_record(hosted.record_path))  # an ordinary record that replays


@pytest.mark.parametrize("choice, reason, words", [
    ("claim", Reason.FORFEIT, "left the game and did not come back within 0.5 s"),
    ("abort", Reason.ABORTED, "the game was aborted"),
])
def test_a_guest_that_stays_away_loses_or_the_game_is_aborted(choice: str, reason: Reason, words: str) -> None:
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], seed=5, reconnect_limit=0.5, on_abandon=choice)
        guest = GuestThread(bot_guest(hosted.invitations()[0]))
        wait_for(lambda: hosted.game.ply >= 6, 30, "a few turns")
        guest.guest.close()
        with pytest.raises(GuestError):
            guest.join(30)
        record = hosted.wait(30)
    assert record is not None and record.result is not None
    assert record.result.reason is reason
    assert words in record.result.detail
    last = record.entries[-1].action
    assert last["type"] == "adjudication" and last["reason"] == reason.value and last["seat"] == 0


def test_closing_the_server_aborts_a_game_in_progress_and_says_so() -> None:
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], seed=5)
        guest = bot_guest(hosted.invitations()[0], reconnect_limit=2)
        guest.make_agent = lambda variant, seat: _Stuck()  # type: ignore[assignment,misc]
        thread = GuestThread(guest)
        wait_for(lambda: hosted.agents[0].waiting, 30, "the guest's first turn")
        server.close()
        record = hosted.wait(30)
        outcome = thread.join(30)  # the guest is told the game was aborted, as any ending
    assert record is not None and record.result is not None and record.result.reason is Reason.ABORTED
    assert outcome.reason is Reason.ABORTED


class _Stuck:
    """An agent that thinks until its guest is closed."""

    observes = False
    name = "stuck"

    def start(self, *args: object) -> None:
        pass

    def act(self, request: object) -> None:
        import time
        time.sleep(1.0)
        raise RuntimeError("no move")

    def end(self, *args: object) -> None:
        pass


def test_lag_and_cut_connections_lose_nothing() -> None:
    """Every connection is slowed and cut after a fraction of a second; the guest comes back each time, and the
    game is move for move the same game as between the same two bots in one process."""
    import dataclasses

    from app import games
    from app.engine.clock import TimeControl
    from app.hosting.agents import BotSpec
    from app.hosting.runner import run_game
    from tests.test_net_support import FlakyProxy

    with served() as server:
        proxy = FlakyProxy(server.port, seed=4)
        try:
            hosted = server.host_game("rbc", [None, "random"], seed=10, max_plies=200, reconnect_limit=30)
            through = dataclasses.replace(hosted.invitations()[0], port=proxy.port)
            guest = bot_guest(through, seed=7, reconnect_limit=30)
            GuestThread(guest).join(120)
            record = hosted.wait(30)
        finally:
            proxy.close()
    assert record is not None and record.result is not None
    assert proxy.cuts >= 3 and guest.connections >= 3
    local = run_game(games.referee("rbc").from_options({}), [BotSpec("random", "rbc").create(7),
                                                             BotSpec("random", "rbc").create(11)],
                     TimeControl(None, 0.0), seed=10, max_plies=200)
    assert [(entry.seat, entry.action) for entry in record.entries] == \
           [(entry.seat, entry.action) for entry in local.entries]
    assert record.result == local.result


STEADY_GUEST = textwrap.dedent("""
    import sys, time
    from app import games
    from app.hosting.agents import BotSpec
    from app.net.guest import Guest
    from app.net.invitation import Invitation

    def steady(variant, seat):
        agent = BotSpec("random", variant).create(1)
        act = agent.act
        def thinking(request):
            time.sleep(0.03)  # a game of some seconds: long enough to stop its host in the middle
            return act(request)
        agent.act = thinking
        return agent

    guest = Guest(Invitation.parse(sys.argv[1]), steady, reconnect_limit=60)
    outcome = guest.play()
    print("outcome:", outcome.detail, "connections:", guest.connections)
""")


def test_a_referee_killed_mid_game_carries_on_from_its_autosave(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import socket

    with socket.socket() as probe:  # a free port, for the server and for its second life
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    state, out = tmp_path / "state", tmp_path / "records"
    arguments = ("serve", "--port", port, "--variant", "rbc", "--white", "remote", "--black", "random", "--untimed",
                 "--max-plies", "120", "--state", str(state), "--out", str(out), "--reconnect-limit", "60")
    processes: list[subprocess.Popen[str]] = []
    try:
        host = sightline(*arguments)
        processes.append(host)
        invitation = read_invitations(host, 1)["White"]
        guest = subprocess.Popen([sys.executable, "-c", STEADY_GUEST, invitation], cwd=ROOT, text=True,
                                 env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        processes.append(guest)

        def saved() -> dict:  # type: ignore[type-arg]
            try:
                (path,) = state.glob("game-*.json")
                return json.loads(path.read_text())  # type: ignore[no-any-return]
            except (ValueError, OSError):
                return {}

        wait_for(lambda: len((saved().get("record") or {}).get("actions", [])) >= 20, 60, "twenty saved steps")
        host.send_signal(signal.SIGKILL)
        host.communicate(timeout=10)
        before = saved()["record"]["actions"]
        assert before and not list(out.glob("*.json"))

        again = sightline(*arguments)
        processes.append(again)
        code, printed, err = finish(again, 120)
        assert code == 0, err
        assert "carrying on the game saved in" in printed and "result: " in printed
        code, printed, err = finish(guest, 60)
        assert code == 0, err
        assert printed.startswith("outcome:") and int(printed.split()[-1]) >= 2
    finally:
        stop_all(processes)
    (path,) = out.glob("rbc-*.json")
    record = read_record(path)
    actions = [entry.to_json()["action"] for entry in record.entries]
    assert actions[:len(before)] == [entry["action"] for entry in before]  # nothing of the first life lost
    assert len(actions) > len(before)
    assert not [action for action in actions if action["type"] == "adjudication" and action["reason"] != "turn_limit"]
    Timeline(record)
    assert not list(state.glob("game-*.json"))  # the finished game's autosave is gone
    assert state.stat().st_mode & 0o077 == 0 and (state / "key.pem").stat().st_mode & 0o077 == 0


def test_data_the_host_cannot_send_aborts_the_game_instead_of_blaming_the_guest(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.net import values

    def unsendable(choices: object) -> object:
        return {"move": float("nan")}
    monkeypatch.setattr(values, "choices_to_json", unsendable)
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"], seed=5)
        guest = GuestThread(bot_guest(hosted.invitations()[0], reconnect_limit=1))
        record = hosted.wait(30)
        outcome = guest.join(30)  # the guest is told the game was aborted, like any ending
    assert record is not None and record.result is not None
    assert record.result.reason is Reason.ABORTED and "cannot be sent over the network" in record.result.detail
    assert outcome == record.result


def test_a_guest_that_joins_and_never_gets_ready_loses_without_holding_the_game_forever(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.net import server as server_module
    from tests.test_net_support import RawClient
    monkeypatch.setattr(server_module, "READY_LIMIT", 0.5)
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"])  # untimed, no move limit: only READY_LIMIT bounds it
        silent = RawClient(server)
        silent.hello(code=hosted.codes[0])
        silent.until("start")
        record = hosted.wait(30)
        silent.close()
    assert record is not None and record.result is not None
    assert record.result.reason is Reason.FORFEIT and "took too long to start" in record.result.detail


def test_run_game_carries_on_a_resumed_session_where_it_was() -> None:
    """The runner's door a restarted referee uses: a session resumed from a snapshot plays on from its step, and
    its agents are told everything their seats were told before."""
    from app import games
    from app.bots.contract import BotAgent
    from app.engine.clock import TimeControl
    from app.engine.record import GameSession
    from app.hosting.agents import BotSpec
    from app.hosting.runner import run_game

    class Counting(BotAgent):
        def __init__(self, agent: BotAgent) -> None:
            super().__init__(agent.bot, agent.name)
            self.observes, self.told = True, 0

        def observe(self, observation: object) -> None:
            self.told += 1
            super().observe(observation)

    first = games.referee("rbc").from_options({})
    saved: list[object] = []
    run_game(first, [BotSpec("random", "rbc").create(1), BotSpec("random", "rbc").create(2)],
             TimeControl(300, 2), max_plies=10, on_step=lambda session: saved.append(session.snapshot()))
    snapshot = saved[9]  # ten steps in
    session = GameSession.from_snapshot(snapshot, start_clock=False)  # type: ignore[arg-type]
    told_before = [len(session.game.observations(seat)) for seat in (0, 1)]
    agents = [Counting(BotSpec("random", "rbc").create(seat)) for seat in (0, 1)]  # type: ignore[arg-type]
    record = run_game(session.game, agents, TimeControl(300, 2), max_plies=30, session=session)
    assert [entry.action for entry in record.entries[:10]] == [entry.action for entry in snapshot.entries]  # type: ignore[attr-defined]
    assert len(record.entries) > 10 and record.result is not None
    assert all(agent.told >= before for agent, before in zip(agents, told_before))
