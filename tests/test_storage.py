"""Saved games: the record's notes and live clock, resuming a saved game, replay perspectives, and the autosave."""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app import storage
from app.games.blind.rules import BlindChess
from app.engine.clock import TimeControl
from app.engine.core import Game, Outcome, Reason, Resign
from app.games.minit.rules import MinitChess
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from app.engine.record import (KEEP, VERSION, GameRecord, GameSession, LiveClock, NoteSnapshot, Notes, RecordError,
                               Timeline, allowed_perspectives, load_record, notes_at, parse_record, perspective_at,
                               replay, resume, view_type)
from test_record_fuzz import random_action  # tests/ is on the path (pytest prepend import mode)

GAMES = [ReconChess, BlindChess, MinitChess]


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def play(session: GameSession, rng: random.Random, steps: int, clock: FakeTime | None = None) -> None:
    for _ in range(steps):
        if session.game.is_over:
            return
        if clock is not None:
            clock.now += rng.random() * 4
        session.play(session.game.to_move, random_action(session.game, rng))  # type: ignore[arg-type]


def round_trip(record: GameRecord) -> GameRecord:
    return parse_record(json.dumps(record.to_json()).encode())


# ---- the format: version 1 still reads, notes, live clock -----------------------------------------------------

V1_RECORD = {
    "format": "sightline-record", "version": 1, "variant": "rbc", "options": {"draw_rule": "50-move"},
    "players": [{"name": "Ann", "kind": "human"}, {"name": "random", "kind": "bot", "spec": "random"}],
    "seed": 42, "clock": {"initial": 900, "increment": 5}, "started": "2026-11-21T23:40:00+00:00",
    "actions": [
        {"seat": 0, "action": {"type": "sense", "square": "e7"}, "elapsed": 4.25},
        {"seat": 0, "action": {"type": "move", "move": "e2e4"}, "elapsed": 5.25},
        {"seat": 1, "action": {"type": "sense", "square": "d2"}, "elapsed": 1.25},
        {"seat": 1, "action": {"type": "move", "move": None}, "elapsed": 0.25},
    ],
    "result": None,
}


def test_version_1_records_still_load_and_are_written_as_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(V1_RECORD))
    replayed = load_record(path)
    assert replayed.remaining == [900 - 9.5 + 5, 900 - 1.5 + 5]
    assert replayed.record.notes == [] and replayed.record.live is None
    replayed.record.save(tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_text())
    assert data["version"] == VERSION == 2
    assert data["actions"] == V1_RECORD["actions"]
    assert "notes" not in data and "live_clock" not in data


def test_notes_are_snapshotted_only_when_they_change() -> None:
    session = GameSession(ReconChess())
    assert session.set_notes(0, annotations=[{"arrow": ["e2", "e4"]}])
    assert not session.set_notes(0, annotations=[{"arrow": ["e2", "e4"]}])  # unchanged: nothing recorded
    assert session.set_notes(0, hypotheses={"e7": "p"})  # same step: merged into the same snapshot
    assert session.record.notes == [NoteSnapshot(0, 0, {"annotations": [{"arrow": ["e2", "e4"]}],
                                                        "hypotheses": {"e7": "p"}})]
    session.play(0, Sense.parse("e7"))
    assert session.set_notes(1, annotations=[])  is False  # black's empty annotations did not change
    assert session.set_notes(0, hypotheses=None)
    session.play(0, MoveAction.parse("e2e4"))
    assert session.set_notes(1, annotations=[{"circle": "d4"}], hypotheses=KEEP)
    notes = session.record.notes
    assert [(n.seat, n.step, sorted(n.changes)) for n in notes] == [
        (0, 0, ["annotations", "hypotheses"]), (0, 1, ["hypotheses"]), (1, 2, ["annotations"])]
    record = round_trip(session.snapshot())
    assert record.notes == notes
    assert notes_at(record, 0, 0) == Notes([{"arrow": ["e2", "e4"]}], {"e7": "p"})
    assert notes_at(record, 0, 1) == Notes([{"arrow": ["e2", "e4"]}], None)
    assert notes_at(record, 1, 1) == Notes() and notes_at(record, 1, 2) == Notes([{"circle": "d4"}], None)
    assert session.notes(0) == notes_at(record, 0)


def test_notes_are_copied_and_must_be_json() -> None:
    session = GameSession(MinitChess())
    arrows: list[Any] = [{"from": "a2"}]
    session.set_notes(0, annotations=arrows)
    arrows.append("changed later")  # the window's own list: the record keeps what was given
    assert session.notes(0).annotations == [{"from": "a2"}]
    with pytest.raises(ValueError, match="JSON"):
        session.set_notes(0, annotations=[object()])
    with pytest.raises(ValueError, match="finite|JSON"):
        session.set_notes(0, hypotheses={"p": float("nan")})
    with pytest.raises(ValueError, match="must be a list"):
        session.set_notes(0, annotations={"a": 1})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no seat"):
        session.set_notes(2, annotations=[])


@pytest.mark.parametrize("notes, message", [
    ("x", "'notes' must be a list"),
    ([{"seat": 0, "step": 9}], "bad step 9"),
    ([{"seat": 2, "step": 0}], "bad seat 2"),
    ([{"seat": 0, "step": 3}, {"seat": 0, "step": 1}], "in the order"),
    ([{"seat": 0, "step": 0, "annotations": {}}], "'annotations' must be a list"),
    ([{"seat": 0, "step": 0, "hypotheses": [1]}], "'hypotheses' must be an object or null"),
    ([{"seat": 0, "step": 0, "hypotheses": {"a": json.loads("[" * 40 + "]" * 40)}}], "nested more than"),
])
def test_bad_notes_are_named(notes: Any, message: str) -> None:
    data = dict(V1_RECORD, version=2, notes=notes)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data)


@pytest.mark.parametrize("live, message", [
    ("x", "'live_clock' must be an object"), ({"spent": -1}, "bad spent time"),
    ({"spent": "3"}, "bad spent time"), ({"spent": 10**400}, "bad spent time"),
    ({"spent": 1, "paused": "yes"}, "'paused'"),
])
def test_bad_live_clocks_are_named(live: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(dict(V1_RECORD, version=2, live_clock=live))


# ---- resuming a saved game --------------------------------------------------------------------------------

def same(one: GameSession, other: GameSession) -> bool:
    # Clocks: sums of the same seconds in another order, equal up to rounding.
    return state(one) == state(other) and [one.seconds_left(seat) for seat in (0, 1)] == pytest.approx(
        [other.seconds_left(seat) for seat in (0, 1)], abs=1e-9)


def state(session: GameSession) -> tuple[Any, ...]:
    game = session.game
    return (game.to_move, game.phase, game.ply, game.outcome,
            [list(game.observations(seat)) for seat in range(len(game.seat_names))],
            [session.notes(seat) for seat in range(len(game.seat_names))])


@pytest.mark.parametrize("game_type", GAMES)
@pytest.mark.parametrize("steps", [0, 1, 7, 24])
def test_a_resumed_game_is_the_same_game_and_goes_on_the_same(game_type: type[Game], steps: int) -> None:
    rng = random.Random(steps)
    time_a = FakeTime()
    original = GameSession(game_type(), TimeControl(120, 3), time_source=time_a)
    play(original, rng, steps, time_a)
    original.set_notes(0, annotations=[{"arrow": [1, 2]}], hypotheses={"guess": steps})
    time_a.now += 2.5  # the seat to move has been thinking when the game is saved (mid-turn in RBC)
    assert not original.game.is_over
    saved = round_trip(original.snapshot())
    assert saved.live == LiveClock(2.5, False)

    time_b = FakeTime()
    time_b.now = 5.0  # a new process: another monotonic clock
    again = resume(saved, time_source=time_b)
    assert same(again, original)
    assert not again.paused and again.clock.running == again.game.to_move

    # Both go on with the same actions at the same pace: same records, same clocks.
    moves = random.Random(99)
    for _ in range(10):
        if original.game.is_over:
            break
        pause = moves.random() * 3
        time_a.now += pause
        time_b.now += pause
        action = random_action(original.game, moves)
        seat = original.game.to_move
        original.play(seat, action)  # type: ignore[arg-type]
        again.play(seat, action)  # type: ignore[arg-type]
        assert same(again, original)
    mine, theirs = again.record.to_json()["actions"], original.record.to_json()["actions"]
    assert [(a["seat"], a["action"]) for a in mine] == [(a["seat"], a["action"]) for a in theirs]
    assert [a["elapsed"] for a in mine] == pytest.approx([a["elapsed"] for a in theirs], abs=1e-9)
    assert again.record.notes == original.record.notes


def test_a_game_saved_paused_resumes_paused_with_the_same_times() -> None:
    clock = FakeTime()
    session = GameSession(ReconChess(), TimeControl(60, 2), time_source=clock)
    session.play(0, Sense.parse("e7"))
    clock.now += 10
    session.pause()
    clock.now += 500  # the curtain was up: no time runs
    saved = round_trip(session.snapshot())
    assert saved.live == LiveClock(10.0, True)
    later = FakeTime()
    again = resume(saved, time_source=later)
    assert again.paused and again.clock.running is None
    assert again.seconds_left(0) == session.seconds_left(0) == 50.0
    later.now += 100
    assert again.seconds_left(0) == 50.0
    again.start_clock()
    again.resume()
    later.now += 4
    assert again.seconds_left(0) == 46.0
    again.play(0, MoveAction.parse("e2e4"))
    assert again.record.entries[-1].elapsed == 14.0  # the saved 10 s belong to this move
    assert replay(again.record).remaining[0] == 46.0 + 2


def test_an_untimed_game_resumes_with_its_time_used() -> None:
    clock = FakeTime()
    session = GameSession(MinitChess(), None, time_source=clock)
    clock.now += 3
    saved = session.snapshot()
    assert saved.live == LiveClock(3.0, False)
    later = FakeTime()
    again = resume(saved, time_source=later)
    later.now += 2
    again.play(0, random_action(again.game, random.Random(1)))
    assert again.record.entries[-1].elapsed == 5.0


def test_a_flag_that_fell_before_the_save_falls_on_resume() -> None:
    clock = FakeTime()
    session = GameSession(MinitChess(), TimeControl(30, 0), time_source=clock)
    clock.now += 45  # nobody asked the clock in time (a crash)
    again = resume(round_trip(session.snapshot()), time_source=FakeTime())
    assert again.check_time()
    assert again.game.outcome is not None and again.game.outcome.reason is Reason.TIMEOUT


def test_finished_or_inconsistent_games_are_not_resumed() -> None:
    session = GameSession(MinitChess())
    session.play(0, Resign())
    with pytest.raises(RecordError, match="over"):
        resume(session.snapshot())
    record = session.snapshot()
    record.result = None  # hand-edited: the actions end the game, the result says otherwise
    with pytest.raises(RecordError, match="no result"):
        resume(record)


# ---- replay perspectives --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_type", GAMES)
def test_every_step_from_every_perspective_matches_a_fresh_replay(game_type: type[Game]) -> None:
    session = GameSession(game_type())
    rng = random.Random(5)
    play(session, rng, 30)
    for step in (3, 11):
        session.record.notes.append(NoteSnapshot(1, step, {"annotations": [step]}))
    timeline = Timeline(round_trip(session.snapshot()))
    assert timeline.steps == len(session.record.entries)
    for step in range(timeline.steps + 1):
        fresh = replay(session.record, upto=step).game
        truth = timeline.frame(step, None)
        assert truth.view is None and truth.ply == fresh.ply and truth.phase == fresh.phase
        assert str(getattr(truth.truth, "fen", lambda: truth.truth)()) == \
            str(getattr(getattr(fresh, "board", None), "fen", lambda: getattr(fresh, "position"))())
        for seat in (0, 1):
            frame = timeline.frame(step, seat)
            assert list(frame.observations) == list(fresh.observations(seat))
            assert isinstance(frame.view, view_type(session.record.variant))
            assert frame.notes == {seat: notes_at(session.record, seat, step)}
        assert truth.notes[1].annotations == ([] if step < 3 else [3] if step < 11 else [11])
    with pytest.raises(ValueError, match="no step"):
        timeline.frame(timeline.steps + 1, None)
    assert perspective_at(session.record, None, 0).step == timeline.steps


def test_step_of_ply_finds_turn_boundaries() -> None:
    session = GameSession(ReconChess())
    play(session, random.Random(2), 9)  # RBC: two steps a turn
    timeline = Timeline(session.record)
    assert [timeline.step_of_ply(ply) for ply in range(5)] == [0, 2, 4, 6, 8]
    assert timeline.ply_at(9) == 4 and timeline.step_of_ply(99) == 9


def test_who_may_open_which_perspective() -> None:
    running = GameRecord("rbc")
    assert allowed_perspectives(running, 0) == [0]
    assert allowed_perspectives(running, 1) == [1]
    assert allowed_perspectives(running, None) == []
    assert allowed_perspectives(GameRecord("blind"), 0) == [0]
    assert allowed_perspectives(GameRecord("minit"), 0) == [None, 0, 1]  # nothing is hidden in MinitChess
    finished = GameRecord("blind", result=Outcome(None, Reason.DRAW_AGREED))
    assert allowed_perspectives(finished, 0) == allowed_perspectives(finished, None) == [None, 0, 1]


# ---- the autosave ------------------------------------------------------------------------------------------------

@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.DATA_DIR_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def unfinished(steps: int = 6, seed: int = 1) -> GameSession:
    session = GameSession(BlindChess(), TimeControl(300, 5), time_source=FakeTime())
    play(session, random.Random(seed), steps)
    return session


def test_the_data_directory(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    assert storage.data_dir() == data_dir and storage.autosave_path() == data_dir / "autosave.json"
    monkeypatch.delenv(storage.DATA_DIR_ENV)
    assert storage.data_dir().name == "Sightline"


def test_autosave_round_trip_and_discard(data_dir: Path) -> None:
    assert storage.load_autosave() is None
    session = unfinished()
    session.set_notes(0, hypotheses={"b8": "n"})
    storage.autosave(session)
    play(session, random.Random(7), 2)
    storage.autosave(session)
    record = storage.load_autosave()
    assert record is not None and len(record.entries) == len(session.record.entries) == 8
    assert notes_at(record, 0).hypotheses == {"b8": "n"}
    assert resume(record).game.observations(0) == session.game.observations(0)
    assert (data_dir / "autosave.prev.json").exists()
    assert not [p for p in data_dir.iterdir() if p.name.endswith(".tmp")]
    storage.discard_autosave()
    assert storage.load_autosave() is None and not list(data_dir.iterdir())


def test_a_finished_game_is_never_offered(data_dir: Path) -> None:
    session = unfinished()
    storage.autosave(session)
    session.play(session.game.to_move or 0, Resign())
    storage.autosave(session)
    assert storage.load_autosave() is None
    assert not (data_dir / "autosave.prev.json").exists()  # the unfinished copy before it is gone too


@pytest.mark.parametrize("content, problem", [
    (b'{"format": "sightline-record", "version": 2, "variant": "rbc", "acti', "not valid JSON"),
    (b"\xff\xfe\x00garbage", "not a text file"),
    (b'{"format": "sightline-record", "version": 0}', "bad record version"),
    (b'{"hello": "world"}', "not a Sightline record"),
])
def test_a_corrupt_autosave_is_moved_aside_and_the_previous_copy_offered(
        data_dir: Path, caplog: pytest.LogCaptureFixture, content: bytes, problem: str) -> None:
    session = unfinished()
    storage.autosave(session)
    storage.autosave(session)  # the previous copy: the same game
    (data_dir / "autosave.json").write_bytes(content)
    reported: list[str] = []
    with caplog.at_level(logging.WARNING, logger="sightline.storage"):
        record = storage.load_autosave(reported.append)
    assert record is not None and len(record.entries) == len(session.record.entries)
    aside = [p for p in data_dir.iterdir() if p.name.startswith("autosave.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content  # kept, not deleted
    assert problem in reported[0] and str(aside[0]) in reported[0]
    assert problem in caplog.text
    assert not (data_dir / "autosave.json").exists()


def test_an_autosave_of_a_newer_sightline_is_kept_in_place_not_set_aside(
        data_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    # Set aside, the newer version would not offer it either; its older previous copy is not offered instead,
    # since continuing that would write over the newer game.
    session = unfinished()
    storage.autosave(session)
    storage.autosave(session)
    newer = b'{"format": "sightline-record", "version": 7}'
    (data_dir / "autosave.json").write_bytes(newer)
    reported: list[str] = []
    with caplog.at_level(logging.WARNING, logger="sightline.storage"):
        assert storage.load_autosave(reported.append) is None
    assert (data_dir / "autosave.json").read_bytes() == newer
    assert (data_dir / "autosave.prev.json").exists()
    assert not [p for p in data_dir.iterdir() if p.name.startswith("autosave.corrupt-")]
    assert len(reported) == 1 and "newer Sightline" in reported[0] and "left as it is" in reported[0]
    assert "newer Sightline" in caplog.text


def test_a_crash_between_the_two_renames_loses_nothing(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = unfinished(4)
    storage.autosave(session)
    before = len(session.record.entries)
    play(session, random.Random(3), 1)
    real_replace = os.replace
    calls: list[str] = []

    def crash_on_second(src: Any, dst: Any) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash_on_second)
    with pytest.raises(OSError):
        storage.autosave(session)
    monkeypatch.setattr(os, "replace", real_replace)
    assert not (data_dir / "autosave.json").exists()  # the moment between the renames
    record = storage.load_autosave()
    assert record is not None and len(record.entries) == before
    assert not [p for p in data_dir.iterdir() if p.name.endswith(".tmp")]


def test_a_failed_write_keeps_the_last_autosave(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = unfinished(4)
    storage.autosave(session)
    play(session, random.Random(3), 1)

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", no_space)
        with pytest.raises(OSError):
            storage.autosave(session)
    record = storage.load_autosave()
    assert record is not None and len(record.entries) == 4
    assert sorted(p.name for p in data_dir.iterdir()) == ["autosave.json"]
