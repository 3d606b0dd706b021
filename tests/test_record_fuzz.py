"""Mutated, truncated, corrupt and foreign record files: loading raises RecordError with a message, nothing else.

Hypothesis mutates real records of all three games (finished and unfinished, with notes and a live clock):
truncation, byte flips, changed / removed / retyped JSON fields, wrong versions, foreign JSON, huge numbers,
deep nesting and bytes that are not UTF-8. Every mutant must either load (and then also resume or replay step
by step) or raise :class:`RecordError` with a non-empty message; pytest-timeout catches a hang.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.blind.rules import AnswerDraw, Attempt, BlindChess, OfferDraw
from app.engine.clock import TimeControl
from app.engine.core import Game
from app.games.minit.rules import MinitChess, MinitMove
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from app.engine.record import (MAX_RECORD_BYTES, GameRecord, GameSession, RecordError, Timeline, load_record,
                               notes_at, parse_record, resume)

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)


def random_action(game: Game, rng: random.Random) -> Any:
    choices = game.choices()
    if isinstance(game, ReconChess):
        if game.phase == "sense":
            return Sense(rng.choice([None, *range(64)]) if rng.random() < 0.05 else rng.randrange(64))
        moves = list(choices["move_actions"])
        return MoveAction(rng.choice(moves) if moves and rng.random() < 0.95 else None)
    if isinstance(game, BlindChess):
        if game.phase == "answer_draw":
            return AnswerDraw(False)
        if choices["offer_draw"] and rng.random() < 0.05:
            return OfferDraw()
        return Attempt(rng.choice(choices["attempts"]))
    if isinstance(game, MinitChess):
        return MinitMove(rng.choice(game.choices()["moves"]))
    return _registered_random_bot_action(game, rng)


def _registered_random_bot_action(game: Game, rng: random.Random) -> Any:
    """Any other game: what its registered "random" bot answers, told the seat's observations so far."""
    from app import games
    from app.bots.base import ActionRequest
    seat = game.to_move
    assert seat is not None
    bot = dict(games.get(game.variant).bots)["random"]()(seed=rng.randrange(2**31))
    bot.start(seat, game.options())
    for observation in game.observations(seat):
        bot.observe(observation)
    return bot.act(ActionRequest(seat, game.phase, game.choices(), 300.0))


def make_record(game: Game, seed: int, steps: int, finish: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    now = [0.0]
    session = GameSession(game, TimeControl(300, 2), seed=seed, time_source=lambda: now[0])
    for step in range(steps):
        if game.is_over:
            break
        now[0] += rng.random() * 3
        session.play(game.to_move, random_action(game, rng))  # type: ignore[arg-type]
        if step % 5 == 0:
            session.set_notes(step % 2, annotations=[{"kind": "arrow", "from": "a1", "to": "a3", "n": step}],
                              hypotheses={"pieces": {"e7": "p"}, "turn": step, "weights": [0.5, 1.25]},
                              marks={"grid": {"3N": "o"}, "undo": [["3N", "", "o"]], "step": step})
    now[0] += 1.5
    if finish and not game.is_over:
        from app.engine.core import Resign
        session.play(game.to_move or 0, Resign())
    return session.snapshot().to_json()


BASES: list[dict[str, Any]] = [
    make_record(ReconChess(), 1, 40, finish=False),
    make_record(ReconChess(), 2, 30, finish=True),
    make_record(BlindChess(), 3, 40, finish=False),
    make_record(BlindChess(), 4, 30, finish=True),
    make_record(MinitChess(), 5, 30, finish=False),
    make_record(MinitChess(), 6, 20, finish=True),
]
BASE_TEXTS = [json.dumps(base, indent=1).encode() for base in BASES]


def test_the_bases_load_resume_and_replay() -> None:
    for base in BASES:
        record = GameRecord.from_json(json.loads(json.dumps(base)))
        check_loaded(record)
        assert record.notes and (record.live is not None) == (record.result is None)


def check_loaded(record: GameRecord) -> None:
    """What the window does with a record that loaded: replay it step by step, resume it if unfinished."""
    try:
        timeline = Timeline(record)
        for step in range(0, timeline.steps + 1, max(1, timeline.steps // 5)):
            for perspective in (None, *range(len(timeline.seat_names))):
                timeline.frame(step, perspective)
            notes_at(record, 0, step)
        if record.result is None and not timeline.game.is_over:
            session = resume(record, time_source=lambda: 0.0)
            session.snapshot().to_json()
    except RecordError as error:
        assert str(error)


def load_bytes(data: bytes) -> None:
    """load_record on a file holding ``data``: RecordError (with a message) or a record that then works."""
    fd, name = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        try:
            replayed = load_record(name)
        except RecordError as error:
            assert str(error).strip()
            return
        check_loaded(replayed.record)
    finally:
        os.unlink(name)


# ---- mutations of the file's bytes -------------------------------------------------------------------------

@pytest.mark.timeout(120)
@FUZZ
@given(st.sampled_from(BASE_TEXTS), st.floats(0, 1))
def test_truncated_records(base: bytes, fraction: float) -> None:
    load_bytes(base[:int(len(base) * fraction)])


@pytest.mark.timeout(120)
@FUZZ
@given(st.sampled_from(BASE_TEXTS), st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)),
                                             min_size=1, max_size=8))
def test_byte_flips(base: bytes, flips: list[tuple[float, int]]) -> None:
    data = bytearray(base)
    for where, mask in flips:
        data[int(where * len(data))] ^= mask
    load_bytes(bytes(data))


@pytest.mark.timeout(60)
@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    load_bytes(data)


@pytest.mark.timeout(60)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from(BASE_TEXTS), st.binary(min_size=1, max_size=50))
def test_not_utf8(base: bytes, junk: bytes) -> None:
    load_bytes(base[:100] + b"\xff\xfe" + junk + base[100:])
    load_bytes(base.decode().encode("utf-16"))


# ---- mutations of the JSON structure --------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**20, max_value=10**400),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0]),
    st.text(max_size=20), st.sampled_from(["rbc", "blind", "minit", "sense", "move", "attempt", "resign",
                                           "adjudication", "timeout", "e2e4", "a2-a3", "e7", "0000", "a1a1",
                                           "P@e4", "e7e8k", "a7a8q", "offer_draw", "answer_draw", "king_capture",
                                           "sightline-record", "white", "human", "bot"]))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=8), inner,
                                                                             max_size=4)), max_leaves=12)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(paths(child, prefix + (key,)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(paths(child, prefix + (index,)))
    return found


def retype(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        all_paths = paths(data)[1:]
        path = draw(st.sampled_from(all_paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["replace", "remove", "retype", "swap"]))
        if how == "replace":
            parent[key] = draw(JSON_VALUES)
        elif how == "remove":
            del parent[key]
        elif how == "retype":
            parent[key] = retype(parent[key])
        else:  # a value from elsewhere in the record: plausible types in the wrong place
            other = draw(st.sampled_from(all_paths))
            value: Any = data
            try:
                for step in other:
                    value = value[step]
            except (KeyError, IndexError, TypeError):
                continue
            parent[key] = json.loads(json.dumps(value))
    return data  # type: ignore[no-any-return]


@pytest.mark.timeout(240)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mutated())
def test_changed_removed_and_retyped_fields(data: dict[str, Any]) -> None:
    load_bytes(json.dumps(data).encode())


UCI = st.from_regex(r"\A[a-i][0-9][a-i][0-9][qrbnkp]?\Z")
MINIT = st.from_regex(r"\A[a-f][0-7]-[a-f][0-7](=[QqRN])?\Z")
SQUARE = st.from_regex(r"\A[a-i][0-9]\Z")
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", "1 W kqbnr ppppp ..... ..... PPPPP RNBQK",
        "20 B k.K.. rpP.. pP... P.... ..... ....."]


@st.composite
def garbled(draw: st.DrawFn, text: str) -> str:
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, max(0, len(chars) - 1)))
        how = draw(st.sampled_from(["set", "delete", "insert"]))
        letter = draw(st.sampled_from("pnbrqkPNBRQK.12345678 /wbWB-KQkq0"))
        if how == "set" and chars:
            chars[index] = letter
        elif how == "delete" and chars:
            del chars[index]
        else:
            chars.insert(index, letter)
    return "".join(chars)


@st.composite
def plausible(draw: st.DrawFn) -> dict[str, Any]:
    """Mutants that pass the structural checks and reach the referee: moves, squares and starting positions."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    actions = data["actions"]
    for _ in range(draw(st.integers(1, 3))):
        if actions and draw(st.booleans()):
            action = actions[draw(st.integers(0, len(actions) - 1))]["action"]
            key = draw(st.sampled_from(["move", "square", "type", "accept", "seat", "reason"]))
            action[key] = draw(st.one_of(UCI, MINIT, SQUARE, SCALARS))
        else:
            key = {"rbc": "fen", "blind": "fen", "minit": "position"}[data["variant"]]
            data["options"][key] = draw(st.one_of(garbled(draw(st.sampled_from(FENS))), st.sampled_from(FENS)))
            if data["variant"] == "rbc" and draw(st.booleans()):
                data["options"]["draw_rule"] = draw(st.sampled_from(["none", "50-move", "", 50]))
    if draw(st.booleans()):
        data["result"] = None  # a replay that now ends differently is then not refused for its result
    return data  # type: ignore[no-any-return]


@pytest.mark.timeout(240)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(plausible())
def test_plausible_moves_and_positions(data: dict[str, Any]) -> None:
    load_bytes(json.dumps(data).encode())


@pytest.mark.timeout(60)
@FUZZ
@given(st.sampled_from(BASES), st.one_of(JSON_VALUES, st.integers(-5, 5), st.sampled_from([1.0, 2.0, "2", True])))
def test_wrong_versions(base: dict[str, Any], version: Any) -> None:
    data = dict(base, version=version)
    load_bytes(json.dumps(data).encode())


@pytest.mark.timeout(60)
@FUZZ
@given(JSON_VALUES)
def test_foreign_json(value: Any) -> None:
    load_bytes(json.dumps(value).encode())
    if isinstance(value, dict):
        load_bytes(json.dumps(dict(value, format="sightline-record", version=2)).encode())


HUGE = ["1" * 5000, "9" * 400, "-" + "9" * 400, "-" + "9" * 5000, "1e999", "-1e999", "1" * 400 + ".5", "NaN",
        "Infinity", "-Infinity",
        "1e-999", "123456789012345678901234567890"]


@pytest.mark.timeout(120)
@FUZZ
@given(st.sampled_from(BASE_TEXTS), st.sampled_from(HUGE), st.integers(0, 10**6))
def test_huge_numbers(base: bytes, number: str, position: int) -> None:
    text = base.decode()
    # Put the number where a number already is (a time, a seat, a step, the version...).
    import re
    spots = [m.span() for m in re.finditer(r"(?<=: )-?\d+(\.\d+)?(e-?\d+)?", text)]
    start, end = spots[position % len(spots)]
    load_bytes((text[:start] + number + text[end:]).encode())


@pytest.mark.timeout(60)
@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.sampled_from(BASES), st.sampled_from(["annotations", "hypotheses", "options", "extra", "action",
                                                "whole", "result"]),
       st.integers(10, 200_000))
def test_deep_nesting(base: dict[str, Any], where: str, depth: int) -> None:
    deep = "[" * depth + "]" * depth
    text = json.dumps(base)
    if where == "whole":
        load_bytes(deep.encode())
        return
    marker = '"__deep__"'
    data = json.loads(text)
    if where in ("annotations", "hypotheses"):
        data.setdefault("notes", []).insert(0, {"seat": 0, "step": 0, where: "__deep__"})
    elif where == "action":
        data["actions"].insert(0, {"seat": 0, "action": "__deep__", "elapsed": 1})
    else:
        data[where] = "__deep__"
    load_bytes(json.dumps(data).replace(marker, deep).encode())


def test_a_file_larger_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with open(path, "wb") as handle:
        handle.write(BASE_TEXTS[0][:-2])
        handle.write(b" " * (MAX_RECORD_BYTES + 10))
        handle.write(b"}")
    with pytest.raises(RecordError, match="too large"):
        load_record(path)


@pytest.mark.parametrize("make", [
    lambda: b"",
    lambda: b"null",
    lambda: b'{"format": "sightline-record", "version": 2, "variant": "rbc", "actions": [',
    lambda: json.dumps({**BASES[0], "actions": [BASES[0]["actions"][0]] * 60_000}).encode(),
    lambda: json.dumps({**BASES[0], "notes": [{"seat": 0, "step": 10**6}]}).encode(),
    lambda: json.dumps({**BASES[0], "live_clock": {"spent": -1}}).encode(),
    lambda: json.dumps({**BASES[1], "result": {"winner": 7, "reason": "resign"}}).encode(),
])
def test_named_problems(make: Callable[[], bytes]) -> None:
    with pytest.raises(RecordError) as error:
        parse_record(make())
        raise AssertionError("parsed")
    assert str(error.value)
