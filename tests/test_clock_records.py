"""A record's clocks add up: a replay gives both seats exactly the times the live session showed.

The case that used to break: the runner plays a move with ``defer=True`` (the mover hears its result on its own
time, as in reconchess) and the mover's time runs out, or the mover fails, while it is being told. The seconds
it spent listening belong to the mover's move, and the ending is adjudicated only after they are charged.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from app.bots.contract import BotAgent
from app.bots.base import ActionRequest, Bot
from app.engine.clock import TimeControl
from app.engine.core import Action, Adjudication, Reason
from app.games.rbc.rules import MoveAction, MoveResult, ReconChess, Sense
from app.engine.record import GameRecord, GameSession, replay
from app.hosting.runner import run_game


def _session(initial: float, increment: float) -> tuple[GameSession, list[float]]:
    now = [0.0]  # binary fractions only below, so that sums are exact
    return GameSession(ReconChess(), TimeControl(initial, increment), time_source=lambda: now[0]), now


def _replayed_clocks(record: GameRecord) -> list[float]:
    return replay(GameRecord.from_json(record.to_json())).remaining


def _white_moves_deferred(session: GameSession, now: list[float]) -> None:
    now[0] = 1.0
    session.play(0, Sense.parse("e7"), defer=True)
    now[0] = 2.5
    session.play(0, MoveAction.parse("e2e4"), defer=True)


def test_a_flag_fall_while_the_mover_hears_its_result_is_charged_to_the_mover() -> None:
    session, now = _session(10.0, 2.0)
    _white_moves_deferred(session, now)
    now[0] = 10.25  # still listening to its move result when its 10 s are gone
    session.adjudicate(Adjudication(0, Reason.TIMEOUT, "White ran out of time"))
    record = session.record
    assert record.result is not None and (record.result.winner, record.result.reason) == (1, Reason.TIMEOUT)
    live = [session.seconds_left(0), session.seconds_left(1)]
    assert live == [-0.25, 10.0]
    assert _replayed_clocks(record) == live
    assert sum(entry.elapsed for entry in record.entries if entry.seat == 0) == 10.25


def test_a_failure_while_the_mover_hears_its_result_keeps_its_seconds() -> None:
    session, now = _session(60.0, 2.0)
    _white_moves_deferred(session, now)
    now[0] = 4.0
    session.adjudicate(Adjudication(0, Reason.FORFEIT, "White raised"))
    live = [session.seconds_left(0), session.seconds_left(1)]
    assert live == [58.0, 60.0]  # the move had ended the turn in time: it earned its increment
    assert _replayed_clocks(session.record) == live
    assert session.record.result is not None and session.record.result.reason is Reason.FORFEIT


def test_finish_step_after_the_adjudication_changes_nothing() -> None:
    session, now = _session(10.0, 2.0)
    _white_moves_deferred(session, now)
    now[0] = 11.0
    session.adjudicate(Adjudication(0, Reason.TIMEOUT))
    entries = len(session.record.entries)
    session.finish_step()  # the runner calls it once more after its loop
    assert len(session.record.entries) == entries
    assert _replayed_clocks(session.record) == [session.seconds_left(0), session.seconds_left(1)] == [-1.0, 10.0]


def test_a_deferred_step_that_ends_in_time_still_earns_its_increment() -> None:
    session, now = _session(10.0, 2.0)
    _white_moves_deferred(session, now)
    now[0] = 3.0
    session.finish_step()
    now[0] = 4.0
    session.play(1, Sense.parse("e2"))
    assert [session.seconds_left(0), session.seconds_left(1)] == [9.0, 9.0]
    session.adjudicate(Adjudication(1, Reason.FORFEIT))
    assert _replayed_clocks(session.record) == [9.0, 9.0]


def test_clocks_agree_to_the_last_bit_whatever_the_times() -> None:
    rng = random.Random(5)  # times that are not binary fractions: two laps and their sum round differently
    for _ in range(200):
        session, now = _session(3.0, 0.1)
        now[0] = rng.random()
        session.play(0, Sense.parse("e7"), defer=True)
        now[0] += rng.random()
        session.play(0, MoveAction.parse("e2e4"), defer=True)
        now[0] += 2 * rng.random()
        if rng.random() < 0.5:
            session.adjudicate(Adjudication(0, Reason.TIMEOUT))
        else:
            session.finish_step()
        if not session.game.is_over:
            now[0] += rng.random()
            session.play(1, Sense.parse("e2"))
            session.adjudicate(Adjudication(1, Reason.FORFEIT))
        assert _replayed_clocks(session.record) == [session.seconds_left(0), session.seconds_left(1)]


class _SlowListener(Bot):
    """Senses and moves at once, then does not come back from hearing its own move's result until released."""

    variant = "rbc"
    name = "slow listener"

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def observe(self, observation: Any) -> None:
        if isinstance(observation, MoveResult):  # told only to the seat that moved
            self.release.wait(60)

    def act(self, request: ActionRequest) -> Action:
        if request.phase == "sense":
            return Sense.parse("e7")
        return MoveAction.parse("e2e4")


class _Quick(Bot):
    variant = "rbc"
    name = "quick"

    def act(self, request: ActionRequest) -> Action:
        return Sense(None) if request.phase == "sense" else MoveAction(None)


def test_run_game_records_a_flag_fall_during_the_movers_own_result() -> None:
    release = threading.Event()
    agents = [BotAgent(_SlowListener(release), "slow"), BotAgent(_Quick(), "quick")]
    record = run_game(ReconChess(), list(agents), TimeControl(0.5, 0.0), on_finished=lambda _: release.set())
    release.set()
    assert record.result is not None and (record.result.winner, record.result.reason) == (1, Reason.TIMEOUT)
    white, black = _replayed_clocks(record)
    assert white <= 0, "the record's clocks must show the flag that fell"
    assert black == 0.5  # Black's clock never started
    assert record.entries[-1].seat == 0 and record.entries[-1].action["type"] == "adjudication"
