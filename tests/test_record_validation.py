"""Records that read well but cannot be right are refused: endings only the moves can produce, clocks overrun."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.blind.rules import BlindChess
from app.engine.clock import TimeControl
from app.engine.core import Adjudication, Reason
from app.games.minit.rules import MinitChess, MinitMove
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from app.engine.record import (ADJUDICATION_REASONS, GameRecord, GameSession, RecordError, Timeline, parse_record,
                               replay, resume)


def _rbc_opening(control: TimeControl | None = None) -> GameSession:
    now = [0.0]
    session = GameSession(ReconChess(), control or TimeControl(60, 0), time_source=lambda: now[0])
    for seat, action in ((0, Sense.parse("e7")), (0, MoveAction.parse("e2e4")), (1, Sense.parse("e2")),
                         (1, MoveAction.parse("e7e5"))):
        now[0] += 1.0
        session.play(seat, action)
    return session


def _load(data: dict[str, Any]) -> GameRecord:
    record = parse_record(json.dumps(data))
    replay(record)
    return record


@pytest.mark.parametrize("reason", sorted(set(Reason) - ADJUDICATION_REASONS, key=lambda item: item.value))
def test_an_adjudication_with_an_ending_of_the_rules_is_refused(reason: Reason) -> None:
    session = _rbc_opening()
    session.adjudicate(Adjudication(0, Reason.FORFEIT))
    data = session.record.to_json()
    data["actions"][-1]["action"]["reason"] = reason.value
    outcome = ReconChess()._adjudicated_outcome(Adjudication(0, reason))  # what such an entry used to end in
    data["result"] = {"winner": outcome.winner, "reason": reason.value, "detail": ""}
    with pytest.raises(RecordError, match=rf"action 5: a game cannot be adjudicated as {reason.value}"):
        _load(data)


@pytest.mark.parametrize("reason", sorted(ADJUDICATION_REASONS, key=lambda item: item.value))
def test_the_adjudications_a_host_makes_still_load(reason: Reason) -> None:
    session = _rbc_opening()
    session.adjudicate(Adjudication(1, reason, "why"))
    assert replay(parse_record(json.dumps(session.record.to_json()))).game.outcome == session.game.outcome


def test_blind_chess_decides_a_flag_fall_on_material_and_records_the_timeout() -> None:
    now = [0.0]
    session = GameSession(BlindChess(), TimeControl(5, 0), time_source=lambda: now[0])
    now[0] = 6.0
    assert session.check_time()
    data = session.record.to_json()
    assert data["actions"][-1]["action"]["reason"] == "timeout" and data["result"]["reason"] == "material"
    _load(data)
    data["actions"][-1]["action"]["reason"] = "material"
    with pytest.raises(RecordError, match="cannot be adjudicated as material"):
        _load(data)


def test_an_action_that_overran_its_clock_while_the_game_went_on_is_refused() -> None:
    data = _rbc_opening(TimeControl(10, 0)).record.to_json()
    data["actions"][1]["elapsed"] = 30.0  # White's move took longer than White's whole clock
    with pytest.raises(RecordError, match="action 3: White's time ran out at action 2"):
        _load(data)
    with pytest.raises(RecordError, match="action 3: White's time ran out"):
        Timeline(parse_record(json.dumps(data)))


def test_an_overrun_that_ends_the_game_by_the_rules_is_refused() -> None:
    now = [0.0]
    session = GameSession(MinitChess(), TimeControl(10, 0), time_source=lambda: now[0])
    session.play(0, MinitMove.parse("b1-c3"))
    session.adjudicate(Adjudication(1, Reason.ABORTED))
    data = session.record.to_json()
    data["actions"][-1] = {"seat": 1, "action": {"type": "resign"}, "elapsed": 11.0}
    data["result"] = {"winner": 0, "reason": "resign", "detail": ""}
    with pytest.raises(RecordError, match=r"took 11 s of Black's clock, which had only 10 s left"):
        _load(data)


def test_an_unfinished_record_that_ends_on_a_fallen_flag_cannot_be_resumed() -> None:
    data = _rbc_opening(TimeControl(10, 0)).record.to_json()
    data["actions"][-1]["elapsed"] = 20.0
    record = parse_record(json.dumps(data))
    replay(record)  # the flag fell at the last step; reviewing it is fine
    with pytest.raises(RecordError, match="Black's time ran out at the last action"):
        resume(record)


def test_a_timeout_adjudicated_after_the_movers_result_loads() -> None:
    now = [0.0]
    session = GameSession(ReconChess(), TimeControl(10, 0), time_source=lambda: now[0])
    session.play(0, Sense.parse("e7"), defer=True)
    now[0] = 3.0
    session.play(0, MoveAction.parse("e2e4"), defer=True)
    now[0] = 12.0
    session.finish_step()
    data = session.record.to_json()
    assert data["actions"][1]["elapsed"] == 12.0 and data["actions"][2]["action"]["reason"] == "timeout"
    assert _load(data).result == session.game.outcome
