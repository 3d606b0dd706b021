"""Seats and teams in the core: who wins when a seat resigns, runs out of time or its bot fails, in games of
one seat (a solitaire), two seats, and four seats in two teams of partners.

The small games here exist only for these tests: each seat in turn takes a step, and the game never ends by
itself, so every ending comes from a resignation or an adjudication.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Mapping

import pytest

from app import games
from app.bots.contract import Agent
from app.bots.base import ActionRequest
from app.cli import build_parser, main, seat_bots
from app.engine.clock import TimeControl
from app.engine.core import (Action, Adjudication, Game, IllegalAction, Outcome, Reason, Resign, Seat, View,
                             outcome_against)
from app.games.minit.rules import MinitChess
from app.engine.record import GameRecord, GameSession, RecordError
from app.engine.variants import game_type
from app.hosting.match import GameJob, GameSummary, MatchResult, _crashed, _overran, format_table, run_match, seated
from app.hosting.runner import run_game


@dataclass(frozen=True)
class Step(Action):
    """The only move of the test games: pass the turn to the next seat."""

    kind: ClassVar[str] = "step"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class Ended:
    """The observation every seat gets when a test game ends."""

    outcome: Outcome


class StepView(View):
    def __init__(self) -> None:
        self.outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Ended):
            self.outcome = observation.outcome


class StepGame(Game):
    """A game of taking turns and nothing else; subclasses choose the seats and teams."""

    variant: ClassVar[str] = "steps"
    seat_names: ClassVar[tuple[str, ...]] = ("Solo",)
    view_type = StepView

    def __init__(self) -> None:
        super().__init__()
        self._turns = 0

    @property
    def to_move(self) -> Seat | None:
        return None if self.is_over else self._turns % len(self.seat_names)

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "step"

    @property
    def ply(self) -> int:
        return self._turns

    def choices(self) -> dict[str, Any]:
        return {} if self.is_over else {"step": [Step()]}

    def _apply(self, seat: Seat, action: Action) -> None:
        if not isinstance(action, Step):
            raise IllegalAction(f"{action!r} is not a step")
        self._turns += 1

    def _game_over_observation(self, outcome: Outcome) -> Any:
        return Ended(outcome)

    def options(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "StepGame":
        return cls()

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        if data.get("type") != Step.kind:
            raise ValueError("not a step")
        return Step()


class Solitaire(StepGame):
    """One seat, alone."""

    seat_names = ("Solo",)


class Partners(StepGame):
    """Four seats in two teams, partners sitting opposite: North and South against East and West."""

    seat_names = ("North", "East", "South", "West")
    seat_teams = (0, 1, 0, 1)


class ThreeWays(StepGame):
    """Three seats, each playing for itself (the default: no ``seat_teams``)."""

    seat_names = ("Red", "Green", "Blue")


class Together(StepGame):
    """Two seats on one team: a cooperative game."""

    seat_names = ("Left", "Right")
    seat_teams = (0, 0)


def clock_at(seconds: list[float]) -> Any:
    return lambda: seconds[0]


# -- teams ------------------------------------------------------------------------------------------------

def test_every_seat_is_its_own_team_unless_the_game_says_otherwise() -> None:
    assert Solitaire.teams() == (0,)
    assert ThreeWays.teams() == (0, 1, 2)
    assert Partners.teams() == (0, 1, 0, 1)
    assert MinitChess.teams() == (0, 1)


@pytest.mark.parametrize("key", games.names())
def test_the_referees_teams_are_the_registered_seats_teams(key: str) -> None:
    definition = games.get(key)
    assert game_type(key).teams() == tuple(seat.team for seat in definition.seats)


# -- the solitaire ----------------------------------------------------------------------------------------

def test_a_solitaire_that_resigns_is_lost() -> None:
    game = Solitaire()
    game.play(0, Step())
    game.play(0, Resign())
    assert game.outcome == Outcome(None, Reason.RESIGN, "Solo resigned")
    assert game.outcome.to_json() == {"winner": None, "reason": "resign", "detail": "Solo resigned"}
    assert game.observations(0)[-1] == Ended(game.outcome)


def test_a_solitaire_whose_flag_falls_is_lost() -> None:
    now = [0.0]
    session = GameSession(Solitaire(), TimeControl(10, 0), time_source=clock_at(now))
    session.play(0, Step())
    now[0] = 10.0
    assert session.check_time() is True
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.team, outcome.reason) == (None, None, Reason.TIMEOUT)
    assert session.record.result == outcome


# -- four seats, two teams --------------------------------------------------------------------------------

@pytest.mark.parametrize("loser, winning_team", [(0, 1), (1, 0), (2, 1), (3, 0)])
def test_a_partner_who_resigns_loses_for_the_team(loser: int, winning_team: int) -> None:
    game = Partners()
    game.play(0, Step())
    game.play(loser, Resign())  # any seat may resign, in turn or not
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.team, outcome.reason) == (None, winning_team, Reason.RESIGN)
    assert outcome.detail == f"{Partners.seat_names[loser]} resigned"
    for seat in range(4):
        assert StepView.from_observations(game.observations(seat)).outcome == outcome


def test_a_team_result_is_recorded_with_its_team_and_reads_back() -> None:
    game = Partners()
    game.play(3, Resign())
    assert game.outcome is not None
    data = game.outcome.to_json()
    assert data == {"winner": None, "reason": "resign", "detail": "West resigned", "team": 0}
    assert Outcome.from_json(json.loads(json.dumps(data)), Partners.teams()) == game.outcome


def test_a_partner_whose_flag_falls_loses_for_the_team() -> None:
    now = [0.0]
    session = GameSession(Partners(), TimeControl(10, 0), time_source=clock_at(now))
    for seat in range(3):
        session.play(seat, Step())
    now[0] = 10.0  # West, to move, has used all of its 10 s
    assert session.check_time() is True
    outcome = session.game.outcome
    assert outcome is not None and (outcome.winner, outcome.team, outcome.reason) == (None, 0, Reason.TIMEOUT)
    assert outcome.detail == "West ran out of time"
    assert session.record.entries[-1].action == {"type": "adjudication", "seat": 3, "reason": "timeout"}


def test_an_abort_or_a_draw_adjudicated_in_a_team_game_has_no_winner() -> None:
    game = Partners()
    game.adjudicate(Adjudication(1, Reason.ABORTED))
    assert game.outcome == Outcome(None, Reason.ABORTED, "the game was aborted")


# -- other numbers of teams -------------------------------------------------------------------------------

def test_with_two_teams_left_nobody_wins_and_the_scores_say_who_lost() -> None:
    game = ThreeWays()
    game.play(1, Resign())
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.team, game.outcome.scores) == (None, None, (1.0, 0.0, 1.0))
    assert game.outcome.to_json() == {"winner": None, "reason": "resign", "detail": "Green resigned",
                                      "scores": [1.0, 0.0, 1.0]}


def test_a_cooperative_game_is_lost_for_everyone_when_one_seat_gives_up() -> None:
    game = Together()
    game.adjudicate(Adjudication(1, Reason.FORFEIT))
    assert game.outcome == Outcome(None, Reason.FORFEIT, "Right forfeited")


# -- two seats: as before -----------------------------------------------------------------------------------

def test_two_seat_results_are_recorded_exactly_as_before() -> None:
    game = MinitChess()
    game.play(0, Resign())
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.team) == (1, 1)
    assert json.dumps(game.outcome.to_json()) == '{"winner": 1, "reason": "resign", "detail": "White resigned"}'
    assert repr(Outcome(1, Reason.NO_MOVES)) == "Outcome(winner=1, reason=<Reason.NO_MOVES: 'no_moves'>, " \
                                                "detail='', scores=None)"


def test_a_shared_score_is_recorded() -> None:
    outcome = Outcome(None, Reason.SCORE, "12 cards placed", score=12)
    assert outcome.to_json() == {"winner": None, "reason": "score", "detail": "12 cards placed", "score": 12}
    assert Outcome.from_json(outcome.to_json(), (0,)) == outcome


def test_a_winning_seat_outside_the_winning_team_is_refused() -> None:
    with pytest.raises(ValueError, match="winning team"):
        Outcome(2, Reason.RESIGN, team=1).settled(Partners.teams())
    with pytest.raises(ValueError, match="no team"):
        Outcome(None, Reason.RESIGN, team=5).settled(Partners.teams())
    assert outcome_against(0, Partners.teams(), Reason.FORFEIT) == Outcome(None, Reason.FORFEIT, team=1)


def record_with_result(result: dict[str, Any]) -> dict[str, Any]:
    session = GameSession(MinitChess())
    session.play(0, Resign())
    data = session.record.to_json()
    data["result"] = result
    return data


@pytest.mark.parametrize("result, words", [
    ({"winner": 1, "reason": "resign", "team": 0}, "winning team"),
    ({"winner": None, "reason": "resign", "team": 7}, "not a team of this game"),
    ({"winner": None, "reason": "resign", "team": "White"}, "not a team of this game"),
    ({"winner": None, "reason": "score", "score": "lots"}, "not a number"),
])
def test_records_with_a_bad_team_or_score_are_refused(result: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError, match=words):
        GameRecord.from_json(record_with_result(result))


def test_a_two_seat_record_reads_its_team_from_its_winner() -> None:
    record = GameRecord.from_json(record_with_result({"winner": 1, "reason": "resign"}))
    assert record.result is not None and record.result.team == 1


# -- bots that fail, through the runner -----------------------------------------------------------------------

class Stepper(Agent):
    """Takes a step each turn; with ``fail_at``, raises on that turn of its own."""

    def __init__(self, name: str, fail_at: int | None = None) -> None:
        self.name = name
        self.fail_at = fail_at
        self.turns = 0
        self.opponents = ""

    def start(self, seat: Seat, options: dict[str, Any], opponent_name: str) -> None:
        self.opponents = opponent_name

    def observe(self, observation: Any) -> None:
        pass

    def act(self, request: ActionRequest) -> Action:
        self.turns += 1
        if self.turns == self.fail_at:
            raise RuntimeError("the bot broke")
        return Step()

    def end(self, outcome: Outcome, record: GameRecord) -> None:
        pass


def test_a_solitaire_whose_bot_fails_is_lost() -> None:
    record = run_game(Solitaire(), [Stepper("alone", fail_at=3)])
    assert record.result is not None
    assert (record.result.winner, record.result.team, record.result.reason) == (None, None, Reason.FORFEIT)
    assert len(record.entries) == 3  # two steps, then the adjudication


def test_a_partner_whose_bot_fails_loses_for_the_team() -> None:
    agents = [Stepper(name, fail_at=2 if name == "south" else None) for name in ("north", "east", "south", "west")]
    record = run_game(Partners(), list(agents))
    assert record.result is not None
    assert (record.result.winner, record.result.team, record.result.reason) == (None, 1, Reason.FORFEIT)
    assert "south raised" in record.result.detail
    assert [agent.opponents for agent in agents] == ["east and west", "north and south"] * 2


def test_a_partner_that_runs_out_of_time_loses_for_the_team() -> None:
    class Sleeper(Stepper):
        def act(self, request: ActionRequest) -> Action:
            import time
            time.sleep(0.6)
            return Step()

    agents: list[Agent] = [Stepper("north"), Sleeper("east"), Stepper("south"), Stepper("west")]
    record = run_game(Partners(), agents, TimeControl(0.5, 0))
    assert record.result is not None
    assert (record.result.winner, record.result.team, record.result.reason) == (None, 0, Reason.TIMEOUT)


def test_a_two_seat_bot_failure_still_gives_the_other_seat_the_game() -> None:
    record = run_game(MinitChess(), [Stepper("broken", fail_at=1), Stepper("idle")])
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == (1, Reason.FORFEIT)


# -- matches: results of any number of seats ----------------------------------------------------------------

def four_seat_job() -> GameJob:
    return GameJob(0, "rbc", {}, ("random", "attacker", "random", "attacker"), TimeControl(None, 0), 0, None)


def test_a_referee_that_dies_in_a_team_game_gives_the_game_to_the_other_team() -> None:
    crashed = _crashed(four_seat_job(), -9, 2, {"random": "South bot"}, Partners.teams())
    assert (crashed.winner, crashed.team, crashed.reason) == (None, 1, "forfeit")
    assert crashed.detail == "South bot crashed its worker process (exit code -9)"
    overran = _overran(four_seat_job(), 1, {}, Partners.teams())
    assert (overran.winner, overran.team, overran.reason) == (None, 0, "timeout")
    assert _crashed(four_seat_job(), -9, -1, {}, Partners.teams()).reason == "error"


def test_a_referee_that_dies_in_a_solitaire_loses_it() -> None:
    job = GameJob(0, "rbc", {}, ("random",), TimeControl(None, 0), 0, None)
    crashed = _crashed(job, -9, 0, {}, Solitaire.teams())
    assert (crashed.winner, crashed.team, crashed.reason) == (None, None, "forfeit")


def test_team_results_are_scored_for_every_bot_and_tabled() -> None:
    teams = Partners.teams()
    games = [GameSummary(0, ("a", "b", "a", "b"), None, "resign", "", 10, None, team=0),
             GameSummary(1, ("b", "a", "b", "a"), None, "timeout", "", 12, None, team=0),
             GameSummary(2, ("a", "b", "a", "b"), None, "move_limit", "", 30, None)]
    result = MatchResult(("a", "b", "a", "b"), Partners.seat_names, games, teams)
    assert result.score("a") == (1, 1, 1) and result.score("b") == (1, 1, 1)
    table = format_table(result)
    assert table.splitlines()[:3] == ["a vs b: 3 games", "a: 1 wins, 1 draws, 1 losses",
                                      "b: 1 wins, 1 draws, 1 losses"]
    assert "a win" in table and "b win" in table and "draw" in table


def test_the_same_bot_in_every_seat_is_tabled_by_seats() -> None:
    games = [GameSummary(0, ("r",) * 4, None, "resign", "", 10, None, team=1)]
    table = format_table(MatchResult(("r",) * 4, Partners.seat_names, games, Partners.teams()))
    assert "East and West win" in table and "wins," not in table


def test_a_solitaire_match_counts_wins_and_losses() -> None:
    games = [GameSummary(0, ("s",), 0, "score", "", 5, None),
             GameSummary(1, ("s",), None, "resign", "", 5, None)]
    result = MatchResult(("s",), ("Solo",), games)
    assert result.score("s") == (1, 0, 1)
    assert "lost" in format_table(result) and "s: 1 wins, 0 draws, 1 losses" in format_table(result)


def test_three_ways_a_bot_that_scored_below_the_best_lost() -> None:
    games = [GameSummary(0, ("x", "y", "z"), None, "resign", "", 5, None, scores=(1.0, 0.0, 1.0))]
    result = MatchResult(("x", "y", "z"), ThreeWays.seat_names, games)
    assert [result.score(bot) for bot in "xyz"] == [(0, 1, 0), (0, 0, 1), (0, 1, 0)]
    assert "no winner" in format_table(result)


def test_changing_seats_rotates_every_bot_one_seat_on() -> None:
    assert [seated(("n", "e", "s", "w"), index) for index in range(4)] == [
        ("n", "e", "s", "w"), ("w", "n", "e", "s"), ("s", "w", "n", "e"), ("e", "s", "w", "n")]
    assert seated(("alone",), 3) == ("alone",)


def test_a_match_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="one bot for each"):
        run_match("minit", seats=("random",))
    with pytest.raises(ValueError, match="not both"):
        run_match("minit", "random", "random", seats=("random", "random"))
    with pytest.raises(ValueError, match="white and black, or seats"):
        run_match("minit", "random")


# -- the command line ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, bots", [
    ((), ("attacker", "random")),
    (("--seat", "White=attacker", "--seat", "Black=random"), ("attacker", "random")),
    (("--seat", "black=random", "--seat", "WHITE=attacker"), ("attacker", "random")),
    (("--white", "attacker", "--seat", "Black=random"), ("attacker", "random")),
    (("--seat", " White = path/to/bot.py:My=Bot ", "--black", "random"), ("path/to/bot.py:My=Bot", "random")),
])
def test_seats_are_read_from_seat_options_and_the_shorthands(argv: tuple[str, ...], bots: tuple[str, ...]) -> None:
    args = build_parser().parse_args(["match", *argv] if argv else ["match", "--white", "attacker", "--black",
                                                                     "random"])
    assert seat_bots(args.variant, args.white, args.black, args.seat or []) == bots


@pytest.mark.parametrize("argv, words", [
    (("--seat", "Red=random", "--seat", "Black=random"), "Reconnaissance Blind Chess has no seat 'Red' "
                                                         "(its seats: White, Black)"),
    (("--seat", "White=random"), "no bot for Black: give --seat NAME=BOT for every seat"),
    ((), "no bot for White and Black"),
    (("--white", "random", "--seat", "white=attacker", "--black", "random"), "White is given twice (--white and "
                                                                             "--seat white=attacker)"),
    (("--seat", "Black=random", "--seat", "Black=attacker", "--white", "random"), "Black is given twice"),
    (("--seat", "White", "--black", "random"), "--seat takes NAME=BOT (e.g. --seat White=random), not 'White'"),
    (("--seat", "White=", "--black", "random"), "--seat takes NAME=BOT"),
    (("--seat", "=random", "--black", "random"), "--seat takes NAME=BOT"),
])
def test_bad_seats_get_a_clear_message(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                       words: str) -> None:
    assert main(["match", "--quiet", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sightline match: ") and words in err and "Traceback" not in err


def test_a_minit_match_with_seat_options_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games"
    assert main(["match", "--variant", "minit", "--seat", "White=random", "--seat", "Black=random", "--games", "2",
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "random (first) vs random (second): 2 games" in printed
    for name in ("game-0001.json", "game-0002.json"):
        record = json.loads((out / name).read_text())
        assert record["variant"] == "minit" and [player["spec"] for player in record["players"]] == ["random"] * 2
        assert "team" not in record["result"]


def test_a_referee_that_dies_while_partners_play_an_outside_bot_blames_nobody() -> None:
    job = GameJob(0, "rbc", {}, ("random", "path/to/bot.py", "random", "attacker"), TimeControl(None, 0), 0, None)
    crashed = _crashed(job, -9, 2, {"path/to/bot.py": "Outsider"}, Partners.teams())
    assert (crashed.winner, crashed.team, crashed.reason) == (None, None, "aborted")
    assert "the other bot, Outsider, runs outside Sightline" in crashed.detail
