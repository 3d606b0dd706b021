"""The shared JSON codec (``app.engine.codec``): every game's actions written and read by their field types.

It must write exactly what the hand-written ``to_json`` methods wrote before it (a record saved earlier re-saves
to the same bytes), read back all it writes, refuse anything else with a ``ValueError`` that says what is wrong
(never another exception), and read every observation of every game too. The games are reached through the
registry only (``app.games``), as the record corpus test does.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import importlib
import inspect
import json
import random
import re
import sys
from pathlib import Path
from typing import Any, ClassVar, Literal, NamedTuple

import pytest

from app import games
from app.engine import codec
from app.engine.core import Action, Adjudication, Game, Reason, Resign
from app.engine.record import Entry, load_record, parse_action, read_record

CORPUS = Path(__file__).resolve().parent / "data" / "records"

PENDING: set[str] = set()
"""Games whose referees still read their actions by hand (``action_from_json`` of their own): none now."""


def corpus_records() -> list[Path]:
    return sorted(path for path in CORPUS.glob("*/*.json") if not path.name.endswith(".expected.json"))


TEST_GAMES = ("lights", "picks", "scouts", "sixteen")
"""The test games of ``tests/games`` (the templates of a new game), not registered unless asked for."""


def referees() -> list[type[Game]]:
    test_games = [importlib.import_module(f"tests.games.{name}").DEFINITION for name in TEST_GAMES]
    return [definition.referee() for definition in (*games.all(), *test_games)]


# ---- the very JSON written before ---------------------------------------------------------------------------

# What each game's hand-written to_json wrote, key order included (the record file keeps it). The actions are
# made by reading this JSON, so that the test names no game module.
WRITTEN_BEFORE = {
    "rbc": ['{"type": "sense", "square": "e7"}', '{"type": "sense", "square": null}', '{"type": "sense", "square": "a1"}',
            '{"type": "sense", "square": "h8"}', '{"type": "move", "move": "e2e4"}', '{"type": "move", "move": null}',
            '{"type": "move", "move": "a7a8n"}', '{"type": "move", "move": "e1g1"}'],
    "blind": ['{"type": "attempt", "move": "e7e8n"}', '{"type": "attempt", "move": "g1f3"}', '{"type": "offer_draw"}',
              '{"type": "answer_draw", "accept": false}', '{"type": "answer_draw", "accept": true}'],
    "minit": ['{"type": "move", "move": "a2-a3"}', '{"type": "move", "move": "b1-c3"}'],
    "cloak": ['{"type": "arrange", "pieces": "RNBQKBNR"}', '{"type": "guess", "checker": 3, "piece": "Q"}',
              '{"type": "move", "uci": "e1h1"}', '{"type": "bonus", "uci": "P@c2"}', '{"type": "bonus", "uci": null}',
              '{"type": "uncloak", "checkers": []}', '{"type": "uncloak", "checkers": [1, 8]}',
              '{"type": "offer_draw"}', '{"type": "answer_draw", "accept": true}'],
    "telepathy": ['{"type": "predict", "card": "N"}', '{"type": "move", "uci": "e2e4"}',
                  '{"type": "remove", "square": "b1"}', '{"type": "offer_draw"}',
                  '{"type": "answer_draw", "accept": true}'],
    "splitbrain": ['{"type": "pick_piece", "square": "b1"}', '{"type": "pick_square", "square": "c3"}',
                   '{"type": "decide", "choice": "piece"}', '{"type": "settle", "move": "b1c3"}',
                   '{"type": "promote", "piece": "q"}', '{"type": "offer_draw"}',
                   '{"type": "answer_draw", "accept": false}'],
    "booster": ['{"type": "move", "uci": "e2e4"}', '{"type": "step", "uci": "b7b8q"}',
                '{"type": "card", "card": "10H", "square": "a1"}', '{"type": "done"}'],
}


@pytest.mark.parametrize("variant", sorted(WRITTEN_BEFORE))
def test_each_action_is_written_as_before(variant: str) -> None:
    referee = games.referee(variant)
    for text in WRITTEN_BEFORE[variant]:
        action = referee.action_from_json(json.loads(text))
        assert json.dumps(action.to_json()) == text
        assert referee.action_from_json(action.to_json()) == action


WRITTEN_BEFORE_BY_TEST_GAMES = {
    "lights": ['{"type": "press", "cell": "b2"}'],
    "picks": ['{"type": "arrange", "double": 2}', '{"type": "pick", "card": "QH"}'],
    "scouts": ['{"type": "step", "from": "a1", "to": "b2"}'],
    "sixteen": ['{"type": "take", "card": "AS"}', '{"type": "place", "card": "AS", "cell": "d4"}'],
}


@pytest.mark.parametrize("name", sorted(WRITTEN_BEFORE_BY_TEST_GAMES))
def test_each_action_of_the_test_games_is_written_as_before(name: str) -> None:
    referee = importlib.import_module(f"tests.games.{name}").DEFINITION.referee()
    for text in WRITTEN_BEFORE_BY_TEST_GAMES[name]:
        action = referee.action_from_json(json.loads(text))
        assert json.dumps(action.to_json()) == text


def test_resign_and_adjudication_are_written_as_before() -> None:
    assert json.dumps(Resign().to_json()) == '{"type": "resign"}'
    assert json.dumps(Adjudication(1, Reason.TIMEOUT).to_json()) == \
        '{"type": "adjudication", "seat": 1, "reason": "timeout"}'
    assert json.dumps(Adjudication(0, Reason.FORFEIT, "crashed").to_json()) == \
        '{"type": "adjudication", "seat": 0, "reason": "forfeit", "detail": "crashed"}'
    referee = games.referee("rbc")
    assert parse_action(referee, {"type": "adjudication", "seat": 1, "reason": "timeout"}) == \
        Adjudication(1, Reason.TIMEOUT)
    for seat in (2, -1, True, 1.0, None):
        with pytest.raises(ValueError, match="bad adjudication seat"):
            parse_action(referee, {"type": "adjudication", "seat": seat, "reason": "timeout"})
    with pytest.raises(ValueError, match="cannot be adjudicated as king_capture"):
        parse_action(referee, {"type": "adjudication", "seat": 1, "reason": "king_capture"})
    with pytest.raises(ValueError, match="reason must be one of"):
        parse_action(referee, {"type": "adjudication", "seat": 1, "reason": "bored"})


@pytest.mark.parametrize("path", corpus_records(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_action_of_the_corpus_reads_and_writes_back_the_same(path: Path) -> None:
    record = read_record(path)
    referee = games.referee(record.variant)
    for entry in record.entries:
        step = parse_action(referee, entry.action)
        # A live game keeps the action object and writes it when the record is saved: the same JSON, same order.
        assert json.dumps(Entry(entry.seat, step, entry.elapsed).to_json()) == json.dumps(entry.to_json())


# ---- observations -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_records(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_observation_of_the_corpus_goes_to_json_and_back(path: Path) -> None:
    """Observations travel to bot workers pickled, not as JSON; the codec still reads and writes every one of
    every game (Cloak and Dagger's included), so that nothing stands in the way of a JSON channel."""
    game = load_record(path).game
    for seat in range(len(game.seat_names)):
        for observation in game.observations(seat):
            data = codec.to_json(observation)
            json.dumps(data)  # plain JSON data
            assert codec.from_json(type(observation), data) == observation


# ---- one place per game: the referee lists its actions --------------------------------------------------------

@pytest.mark.parametrize("referee", referees(), ids=lambda referee: referee.variant)
def test_each_referee_lists_every_action_class_its_rules_use(referee: type[Game]) -> None:
    if referee.variant in PENDING:
        assert "action_from_json" in vars(referee), f"{referee.variant} converted: remove it from PENDING"
        return
    assert "action_from_json" not in vars(referee), "the shared codec reads every game's actions"
    module = sys.modules[referee.__module__]
    used = {value for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, Action) and value not in (Action, Resign)}
    assert used <= set(referee.actions)
    assert len({cls.kind for cls in referee.actions}) == len(referee.actions)
    for cls in referee.actions:
        assert "to_json" not in vars(cls), f"{cls.__name__} writes itself by hand"


# ---- bad data is refused, never a crash -------------------------------------------------------------------------

JUNK: list[Any] = [None, True, False, 0, 1, -1, 7, 2 ** 70, 1.5, -0.0, 1e308, "", "e4", "z9", "a2-a3", "e2e4", "0000",
                   "P@e4", "e7e8k", "b1c3", "N", "q", "piece", "x" * 300, "\u00e9", [], [1], {}, {"type": "move"},
                   "move", "sense", "attempt", "predict", "pick_piece", "resign", "adjudication", "timeout"]


def mutate(data: dict[str, Any], rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    how = rng.randrange(8)
    keys = list(data)
    if how == 0 and keys:
        data[rng.choice(keys)] = rng.choice(JUNK)
    elif how == 1 and keys:
        del data[rng.choice(keys)]
    elif how == 2:
        data[rng.choice(["extra", "Type", "square", "move", "uci", "accept", "card"])] = rng.choice(JUNK)
    elif how == 3 and keys:
        key = rng.choice(keys)
        data[key] = [data[key]] if rng.random() < 0.5 else {"value": data[key]}
    elif how == 4:
        return rng.choice([[data], list(data.items()), json.dumps(data), None, 3])
    elif how == 5 and keys:
        key = rng.choice(keys)
        value = data.pop(key)
        data[key.upper()] = value
    elif how == 6:
        data["type"] = rng.choice(JUNK)
    else:
        for key in keys:
            if isinstance(data[key], str) and data[key]:
                data[key] = data[key][:-1] if rng.random() < 0.5 else data[key] + rng.choice("19xq@-")
    return data


@pytest.mark.parametrize("variant", sorted(WRITTEN_BEFORE))
def test_mutated_actions_are_refused_with_a_value_error_or_read_faithfully(variant: str) -> None:
    referee = games.referee(variant)
    bases = [json.loads(text) for text in WRITTEN_BEFORE[variant]]
    rng = random.Random(f"codec-{variant}")
    refused = 0
    for _ in range(400):
        data = mutate(rng.choice(bases), rng)
        for _ in range(rng.randrange(3)):
            data = mutate(data, rng) if isinstance(data, dict) else data
        try:
            step = parse_action(referee, data) if isinstance(data, dict) else referee.action_from_json(data)
        except ValueError as error:
            assert str(error) and "Traceback" not in str(error)
            refused += 1
            continue
        # Whatever is read writes back to the very data read (nothing dropped, nothing made up).
        assert step.to_json() == data
    assert refused > 200


# ---- the codec itself -------------------------------------------------------------------------------------

class Shade(enum.Enum):
    LIGHT = "light"
    DARK = "dark"


class Spot(NamedTuple):
    row: int
    column: int


def read_code(text: str) -> int:
    if not text.startswith("#"):
        raise ValueError("a code starts with #")
    return int(text[1:])


@dataclasses.dataclass(frozen=True)
class Paint(Action):
    spots: tuple[Spot, ...]
    shade: Shade
    size: Literal["small", "large"]
    scores: dict[int, float]
    label: str = dataclasses.field(default="", metadata=codec.spec(key="text", omit_default=True))
    code: int | None = dataclasses.field(default=None, metadata=codec.spec(text=codec.Text(
        lambda number: f"#{number}", read_code, "a code such as '#3'")))
    kind: ClassVar[str] = "paint"


@dataclasses.dataclass(frozen=True)
class Wipe(Action):
    pair: tuple[int, str]
    kind: ClassVar[str] = "wipe"


PAINT = Paint((Spot(1, 2),), Shade.DARK, "small", {3: 0.5}, code=4)
PAINT_JSON = {"type": "paint", "spots": [{"row": 1, "column": 2}], "shade": "dark", "size": "small",
              "scores": {"3": 0.5}, "code": "#4"}


def test_fields_are_written_by_their_types_and_metadata() -> None:
    assert PAINT.to_json() == PAINT_JSON
    assert list(PAINT.to_json()) == list(PAINT_JSON)
    assert codec.from_json(Paint, PAINT_JSON) == PAINT
    labelled = dataclasses.replace(PAINT, label="hi", code=None)
    assert labelled.to_json()["text"] == "hi" and labelled.to_json()["code"] is None
    assert codec.from_json(Paint, labelled.to_json()) == labelled
    assert codec.Kinds((Paint, Wipe)).from_json({"type": "wipe", "pair": [1, "a"]}) == Wipe((1, "a"))


@pytest.mark.parametrize("change, message", [
    ({"spots": [{"row": 1}]}, "spots[0].column is missing"),
    ({"spots": [{"row": 1, "column": True}]}, "spots[0].column must be a whole number, not True"),
    ({"shade": "grey"}, "shade must be one of 'light', 'dark', not 'grey'"),
    ({"size": "huge"}, "size must be one of 'small', 'large', not 'huge'"),
    ({"scores": {"x": 1}}, "scores key must be a whole number, not 'x'"),
    ({"scores": {"3": "1"}}, "scores['3'] must be a number, not '1'"),
    ({"code": "3"}, "code must be a code such as '#3', not '3'"),
    ({"label": "x"}, "unknown key 'label'"),
    ({"type": "wipe"}, "type must be 'paint', not 'wipe'"),
    ({"spots": "a1"}, "spots must be an array, not 'a1'"),
])
def test_bad_fields_are_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises(codec.CodecError, match="^'paint': " + re.escape(message) + "$"):
        codec.from_json(Paint, {**PAINT_JSON, **change})


def test_kinds_refuse_what_they_do_not_know() -> None:
    kinds = codec.Kinds((Paint, Wipe), "demo action")
    with pytest.raises(codec.CodecError, match=r"unknown demo action type 'fly' \(known: paint, wipe\)"):
        kinds.from_json({"type": "fly"})
    with pytest.raises(codec.CodecError, match="demo action 'wipe': pair must be an array of 2, not"):
        kinds.from_json({"type": "wipe", "pair": [1]})
    with pytest.raises(codec.CodecError, match="the demo action must be a JSON object, not"):
        kinds.from_json([1])
    with pytest.raises(TypeError, match="share the kind 'paint'"):
        codec.Kinds((Paint, Paint))


def test_a_type_the_codec_cannot_write_is_a_programming_error() -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd(Action):
        when: complex
        kind: ClassVar[str] = "odd"

    with pytest.raises(TypeError, match="cannot write a value of type"):
        Odd(1j).to_json()


def test_numbers_out_of_range_and_odd_values_are_refused_not_crashed_on() -> None:
    @dataclasses.dataclass(frozen=True)
    class Weigh(Action):
        grams: float
        maybe: int | str | None
        kind: ClassVar[str] = "weigh"

    assert codec.from_json(Weigh, {"type": "weigh", "grams": 3, "maybe": "x"}) == Weigh(3.0, "x")
    with pytest.raises(codec.CodecError, match="grams must be a number, not 1000"):
        codec.from_json(Weigh, {"type": "weigh", "grams": 10 ** 400, "maybe": None})
    with pytest.raises(codec.CodecError, match="maybe must be int or str, not 1.5"):
        codec.from_json(Weigh, {"type": "weigh", "grams": 1, "maybe": 1.5})
