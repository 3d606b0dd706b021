"""Chance, private setup and several secret choices a turn, on the test game Secret Picks (``tests.games.picks``)
and Lights Out (``tests.games.lights``): a referee deals from its own seeded generator, so a replay deals the
same; the seed reaches the record only (``chance_seed``), never a seat's observations, the options or anything a
bot is given; a seat's secret choices are recorded as its actions and told to the others only as "made"; and
no seat, bot or per-seat replay learns a face-down card or another seat's pick before it is shown."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from app.hosting.agents import BotSpec
from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import Action, Game, Seat
from app.engine.record import GameRecord, GameSession, Timeline, allowed_perspectives, replay, resume
from app.games import EXTRA_GAMES_VARIABLE
from app.hosting.runner import run_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def test_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(ROOT))  # the test games are imported as tests.games.*
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "tests.games.lights,tests.games.picks")
    yield


def _picks() -> Any:
    from tests.games.picks import rules
    return rules


def _pickled_int(number: int) -> bytes:
    """How pickle writes a big whole number (LONG1's bytes): what a pickled observation holding it contains."""
    return pickle.encode_long(number)  # type: ignore[attr-defined]


def _pickled_card(card: str) -> bytes:
    """How pickle (protocol 4 and later) writes a card's short name."""
    return b"\x8c" + bytes([len(card)]) + card.encode()


def _holds(data: Any, needle: bytes) -> bool:
    return needle in pickle.dumps(data, protocol=5)


def _random_action(game: Game, rng: random.Random) -> Action:
    offered: list[Action] = next(iter(game.choices().values()))
    return rng.choice(offered)


# ---- chance --------------------------------------------------------------------------------------------------

def test_the_same_seed_deals_the_same() -> None:
    rules = _picks()
    from tests.games.lights.rules import LightsOut
    for seed in (0, 1, 2 ** 62 + 5):
        first, again = rules.SecretPicks.create({}, seed), rules.SecretPicks.create({}, seed)
        assert first.hands == again.hands and first.stock == again.stock and first.seed == seed
        assert LightsOut.create({}, seed).truth() == LightsOut.create({}, seed).truth()
    assert len({tuple(map(tuple, rules.SecretPicks.create({}, seed).hands)) for seed in range(20)}) == 20


def test_a_game_without_a_seed_draws_its_own_and_one_without_chance_has_none() -> None:
    from app.games.minit.rules import MinitChess
    rules = _picks()
    seeds = {rules.SecretPicks().seed for _ in range(5)}
    assert None not in seeds and len(seeds) == 5
    kept = random.getstate()
    try:
        random.seed(3)  # a host's global generator decides nothing of a fresh deal
        first = rules.SecretPicks().seed
        random.seed(3)
        assert rules.SecretPicks().seed != first
    finally:
        random.setstate(kept)
    assert MinitChess.create({}, 7).seed is None
    with pytest.raises(TypeError, match="does not use chance"):
        MinitChess().rng  # noqa: B018 - the property raises
    with pytest.raises(ValueError, match="chance seed"):
        rules.SecretPicks.create({}, -1)


def _record_of_a_whole_game(seed: int) -> tuple[Game, GameRecord]:
    rules = _picks()
    game = rules.SecretPicks.create({}, seed)
    session = GameSession(game, seed=11)
    rng = random.Random(seed)
    while not game.is_over:
        assert game.to_move is not None
        session.play(game.to_move, _random_action(game, rng))
    return game, session.record


def test_the_record_keeps_the_seed_apart_and_a_replay_deals_the_same(tmp_path: Path) -> None:
    game, record = _record_of_a_whole_game(77)
    data = json.loads(json.dumps(record.to_json()))
    assert data["chance_seed"] == 77 and data["seed"] == 11 and data["options"] == {}
    path = tmp_path / "picks.json"
    record.save(path)
    again = replay(GameRecord.from_json(json.loads(path.read_text(encoding="utf-8"))))
    assert again.game.truth() == game.truth() and again.game.outcome == game.outcome
    for seat in range(4):
        assert list(again.game.observations(seat)) == list(game.observations(seat))
    data["chance_seed"] = 78  # another deal: the recorded picks are no longer in those hands
    with pytest.raises(Exception, match="does not replay"):
        replay(GameRecord.from_json(data))
    del data["chance_seed"]  # a record of a game of chance without its seed is refused, not dealt afresh
    with pytest.raises(Exception, match="needs the seed it was dealt from"):
        replay(GameRecord.from_json(data))
    data["chance_seed"] = "77"
    with pytest.raises(Exception, match="chance_seed"):
        GameRecord.from_json(data)


def test_records_of_games_without_chance_have_no_chance_seed() -> None:
    from app.games.minit.rules import MinitChess
    assert "chance_seed" not in GameSession(MinitChess(), seed=4).record.to_json()


def test_a_lights_record_of_the_older_kind_with_its_seed_in_the_options_still_replays() -> None:
    from tests.games.lights.rules import LightsOut, Press, deal
    game = LightsOut.create({"seed": 5})
    assert game.seed == 5 and game.start == deal(random.Random(5)) and game.options() == {}
    session = GameSession(game)
    session.play(0, Press(3))
    data = session.record.to_json()
    data.pop("chance_seed")
    data["options"] = {"seed": 5}
    assert replay(GameRecord.from_json(json.loads(json.dumps(data)))).game.truth() == game.truth()


class _Spy:
    """An agent that plays as a bot does and keeps everything it was given."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.given: list[Any] = []

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self.given.append(("start", seat, dict(options), opponent_name))
        self.agent.start(seat, options, opponent_name)

    def observe(self, observation: Any) -> None:
        self.given.append(observation)
        self.agent.observe(observation)

    def act(self, request: ActionRequest) -> Action:
        self.given.append(request)
        action: Action = self.agent.act(request)
        return action

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


@pytest.mark.parametrize("seed", [2 ** 31 + 7, 2 ** 40 + 3, 2 ** 62 + 17])  # big enough to be found if there
def test_no_seat_and_no_bot_is_given_the_seed(seed: int) -> None:
    rules = _picks()
    assert _holds([("anything", seed)], _pickled_int(seed))  # the scan finds the seed wherever it is pickled
    game = rules.SecretPicks.create({}, seed)
    spies = [_Spy(BotSpec("random", "picks").create(seat)) for seat in range(4)]
    record = run_game(game, spies, seed=3)  # type: ignore[arg-type]
    assert record.chance_seed == seed and record.result is not None
    assert not _holds(game.options(), _pickled_int(seed)) and str(seed) not in json.dumps(record.to_json()["options"])
    for seat, spy in enumerate(spies):
        assert not _holds(list(game.observations(seat)), _pickled_int(seed))
        assert not _holds(spy.given, _pickled_int(seed)) and str(seed) not in repr(spy.given)
        assert any(isinstance(item, ActionRequest) for item in spy.given)


def test_no_seat_sees_a_face_down_card_before_it_is_shown() -> None:
    rules = _picks()
    assert _holds([rules.Dealt(0, ("7h", "Tc"))], _pickled_card("Tc"))  # the scan finds a card wherever it is
    for seed in range(6):
        game = rules.SecretPicks.create({}, seed)
        hands = [list(hand) for hand in game.hands]
        rng = random.Random(seed)
        while True:
            shown = {card for observation in game.observations(0) if isinstance(observation, rules.Shown)
                     for card in observation.cards}
            for seat in range(4):
                told = list(game.observations(seat))
                face_down = {card for other in range(4) if other != seat for card in hands[other]} - shown
                face_down |= set(game.stock)  # the stock is never shown to anyone
                assert not any(_holds(told, _pickled_card(card)) for card in face_down), (seed, seat)
                # and the choices it is offered name its own cards only
                if game.to_move == seat:
                    assert not any(_holds(game.choices(), _pickled_card(card)) for card in face_down)
            if game.is_over:
                break
            assert game.to_move is not None
            game.play(game.to_move, _random_action(game, rng))


# ---- private setup -------------------------------------------------------------------------------------------

def test_each_seats_setup_is_its_own_recorded_action_and_the_others_hear_only_that_it_was_made() -> None:
    rules = _picks()
    game = rules.SecretPicks.create({}, 9)
    session = GameSession(game)
    for seat, double in enumerate((1, 3, 2, 3)):
        assert (game.phase, game.to_move) == ("setup", seat)
        session.play(seat, rules.Arrange(double))
    assert [(entry.seat, entry.action) for entry in session.record.entries] == \
        [(seat, {"type": "arrange", "double": double}) for seat, double in enumerate((1, 3, 2, 3))]
    for seat in range(4):
        view = rules.PicksView.from_observations(game.observations(seat))
        assert view.double == (1, 3, 2, 3)[seat] and view.arranged == {0, 1, 2, 3} and view.doubles is None
        told = list(game.observations(seat))
        assert [o for o in told if type(o) is rules.YourArrangement] == [rules.YourArrangement((1, 3, 2, 3)[seat])]
        assert [o for o in told if type(o) is rules.Arranged] == [rules.Arranged(other) for other in range(4)]
    assert game.phase == "pick"


def test_a_per_seat_replay_of_a_game_that_goes_on_shows_only_that_seats_own_choices() -> None:
    rules = _picks()
    game = rules.SecretPicks.create({}, 4)
    session = GameSession(game)
    rng = random.Random(4)
    for _ in range(6):  # the four arrangements, then A1's and A2's picks of round 1
        assert game.to_move is not None
        session.play(game.to_move, _random_action(game, rng))
    saved = GameRecord.from_json(json.loads(json.dumps(session.snapshot().to_json())))
    assert allowed_perspectives(saved, 1) == [1] and allowed_perspectives(saved, None) == []
    timeline = Timeline(saved)
    for step in range(timeline.steps + 1):
        for seat in range(4):
            frame = timeline.frame(step, seat)
            assert frame.truth is None and frame.last_move is None
            assert frame.entry is None or frame.entry.seat == seat  # another seat's secret is not in its frame
            view: Any = frame.view
            assert view.doubles is None and not view.shown
            for other in range(4):
                if other != seat:
                    assert not any(_holds(frame.observations, _pickled_card(card)) for card in game.hands[other])
    assert timeline.frame(6, 1).view.my_picks == {1: game.table[0][1]}  # type: ignore[union-attr]
    # the game goes on from the saved record exactly where it was
    again = resume(saved, start_clock=False)
    assert again.game.truth() == game.truth() and again.game.to_move == 2


def test_a_finished_game_shows_every_arrangement_and_opens_every_perspective() -> None:
    rules = _picks()
    game, record = _record_of_a_whole_game(21)
    assert allowed_perspectives(record, 0) == [None, 0, 1, 2, 3]
    end = Timeline(record).frame(len(record.entries), 3)
    view: Any = end.view
    assert view.doubles == tuple(game.doubles) and end.truth == game.truth()
    assert len(view.shown) == rules.HAND and view.outcome == game.outcome


# ---- several secret choices a turn ---------------------------------------------------------------------------

def test_partners_pick_in_turn_and_neither_learns_the_others_card_before_the_reveal() -> None:
    rules = _picks()
    now = [0.0]
    game = rules.SecretPicks.create({}, 12)
    session = GameSession(game, TimeControl(60, 1), time_source=lambda: now[0])
    for seat in range(4):
        session.play(seat, rules.Arrange(1))
    for round_ in range(1, rules.HAND + 1):
        for seat in range(4):
            # the phase and the seat to move name who acts: the window's curtain and the clock follow them
            assert (game.phase, game.to_move, session.clock.running) == ("pick", seat, seat)
            card = game.hands[seat][0]
            now[0] += 1.0
            session.play(seat, rules.Pick(card))
            if seat == 0:  # A1 has picked: its partner A2, about to pick, knows only that it did
                partner = rules.PicksView.from_observations(game.observations(1))
                assert partner.picked[round_] == {0} and round_ not in partner.shown
                assert not _holds(list(game.observations(1)), _pickled_card(card))
        views = [rules.PicksView.from_observations(game.observations(seat)) for seat in range(4)]
        assert all(view.shown[round_] == tuple(game.table[round_ - 1]) for view in views)
    assert game.is_over and session.clock.running is None
    assert game.outcome is not None and game.outcome.scores == tuple(float(total) for total in game.totals())


def test_a_seat_may_not_pick_out_of_turn_nor_a_card_it_does_not_hold() -> None:
    from app.engine.core import IllegalAction
    rules = _picks()
    game = rules.SecretPicks.create({}, 2)
    for seat in range(4):
        game.play(seat, rules.Arrange(2))
    with pytest.raises(IllegalAction, match="not A2's turn"):
        game.play(1, rules.Pick(game.hands[1][0]))
    with pytest.raises(IllegalAction, match="not a card"):
        game.play(0, rules.Pick(game.hands[1][0]))
    with pytest.raises(IllegalAction, match="must pick"):
        game.play(0, rules.Arrange(1))


def test_bots_play_it_through_the_registry() -> None:
    from app import games
    from app.engine import variants
    assert variants.game_type("picks") is games.get("picks").referee()
    for seed in range(3):
        game = games.get("picks").referee().from_options({})
        record = run_game(game, [BotSpec("random", "picks").create(seed * 10 + seat) for seat in range(4)],
                          seed=seed)
        assert record.result is not None
        assert replay(GameRecord.from_json(json.loads(json.dumps(record.to_json())))).game.truth() == game.truth()


# ---- bots in their own processes, and a match --------------------------------------------------------------

_A_WORKER_PLAYS_ONE_SEAT = """
import random, time
from app.bots.base import ActionRequest
from app.hosting.worker import BotProcess
from app.engine.variants import game_type

def main():
    game = game_type("picks").create({}, 2 ** 61 + 9)
    bot = BotProcess("sightline:random:medium", "picks", 0, game.options(), "B1 and B2", 1)
    rng = random.Random(0)
    told = 0
    try:
        while not game.is_over:
            seat = game.to_move
            if seat != 0:
                game.play(seat, rng.choice(next(iter(game.choices().values()))))
                continue
            bot.observe(list(game.observations(0))[told:])
            told = len(game.observations(0))
            bot.request(ActionRequest(0, game.phase, game.choices(), 10.0))
            deadline = time.monotonic() + 60
            event = None
            while event is None and time.monotonic() < deadline:
                event = bot.poll()
                time.sleep(0.01)
            if event is None or event.kind != "action":
                print("no action", None if event is None else (event.kind, event.message))
                return
            game.play(0, event.action)
        print("over", game.outcome.reason.value)
    finally:
        bot.kill()

if __name__ == "__main__":
    main()
"""


def _environment() -> dict[str, str]:
    import os
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH", "")]))
    environment[EXTRA_GAMES_VARIABLE] = "tests.games.picks"
    return environment


def test_a_bot_in_its_own_process_arranges_and_picks_for_its_seat(tmp_path: Path) -> None:
    import subprocess
    import sys
    script = tmp_path / "worker_seat.py"
    script.write_text(_A_WORKER_PLAYS_ONE_SEAT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env=_environment())
    assert done.stdout.strip() == "over score", (done.stdout, done.stderr[-2000:])


def test_a_match_deals_each_game_afresh_and_records_the_seed_apart(tmp_path: Path) -> None:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "app", "match", "--variant", "picks", "--seat", "A1=random",
                           "--seat", "A2=random", "--seat", "B1=random", "--seat", "B2=random", "--games", "2",
                           "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env=_environment())
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    records = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(tmp_path.glob("*.json"))]
    assert len(records) == 2 and records[0]["chance_seed"] != records[1]["chance_seed"]
    for data in records:
        assert data["options"] == {} and data["result"]["reason"] == "score"
        assert replay(GameRecord.from_json(data)).game.outcome is not None
