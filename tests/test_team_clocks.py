"""Team clocks (ruling G5): partners share one clock, which runs while either of them must act; a flag fall
loses for the team; replays, resumed games and the window show the same team time.

Secret Picks (``tests/games/picks``: A1 and A2 against B1 and B2, picking in the order A1, A2, B1, B2) has
partners acting one after the other, so the shared clock is seen running across a change of seat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from app.engine.clock import ChessClock, TimeControl, by_clock
from app.engine.core import Reason
from app.engine.record import GameSession, Timeline
from app.games import EXTRA_GAMES_VARIABLE

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def test_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(ROOT))  # the test games are imported as tests.games.*
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "tests.games.picks,tests.games.scouts")
    yield


def _picks() -> Any:
    from tests.games.picks import rules
    return rules


def _session(control: TimeControl, now: list[float]) -> tuple[Any, GameSession]:
    rules = _picks()
    game = rules.SecretPicks.create({}, 5)
    return game, GameSession(game, control, time_source=lambda: now[0])


def test_partners_spend_one_clock_and_the_other_team_keeps_its_own() -> None:
    rules, now = _picks(), [0.0]
    game, session = _session(TimeControl(60.0, 0.0), now)
    now[0] += 3.0
    session.play(0, rules.Arrange(1))  # A1 thinks 3 s
    assert session.clock.running == 1  # A2's turn: the team's clock goes on
    now[0] += 4.0
    assert session.seconds_left(0) == session.seconds_left(1) == 53.0
    assert session.seconds_left(2) == session.seconds_left(3) == 60.0
    session.play(1, rules.Arrange(2))
    now[0] += 10.0  # B1 thinks: only the black team's clock runs
    assert session.seconds_left(1) == 53.0 and session.seconds_left(3) == 50.0


def test_each_turn_of_a_partner_earns_the_team_clock_its_increment() -> None:
    rules, now = _picks(), [0.0]
    game, session = _session(TimeControl(60.0, 2.0), now)
    now[0] += 5.0
    session.play(0, rules.Arrange(1))
    now[0] += 5.0
    session.play(1, rules.Arrange(1))
    assert session.seconds_left(0) == 60.0 - 10.0 + 2 * 2.0  # the picks game counts each secret choice a turn


def test_a_flag_fall_of_the_shared_clock_loses_for_the_whole_team() -> None:
    rules, now = _picks(), [0.0]
    game, session = _session(TimeControl(5.0, 0.0), now)
    now[0] += 3.0
    session.play(0, rules.Arrange(1))
    now[0] += 2.5  # A2 has 2 s of the team's 5 left, and uses 2.5
    assert session.check_time()
    outcome = game.outcome
    assert outcome is not None and outcome.reason == Reason.TIMEOUT
    assert outcome.team == 1 and outcome.winner is None  # B1 and B2 win together


def test_replays_and_resumed_games_show_the_same_team_time() -> None:
    rules, now = _picks(), [0.0]
    game, session = _session(TimeControl(60.0, 1.0), now)
    for seat, seconds in enumerate((2.0, 3.0, 5.0, 7.0)):
        now[0] += seconds
        session.play(seat, rules.Arrange(1))
    now[0] += 1.5  # A1 is thinking about its first pick when the game is saved
    live = [session.seconds_left(seat) for seat in range(4)]
    assert live[0] == live[1] == 60.0 - 2.0 - 3.0 - 1.5 + 2.0 and live[2] == live[3] == 60.0 - 12.0 + 2.0
    resumed = GameSession.from_snapshot(session.snapshot(), time_source=lambda: now[0])
    assert [resumed.seconds_left(seat) for seat in range(4)] == live
    frame = Timeline(session.snapshot()).frame(4, 0)
    assert frame.remaining == [live[0] + 1.5, live[1] + 1.5, live[2], live[3]]


def test_a_clock_refuses_owners_that_do_not_fit_its_seats() -> None:
    with pytest.raises(ValueError, match="each of the 4 seats"):
        ChessClock(TimeControl(), 4, owners=(0, 1))
    with pytest.raises(ValueError, match="each of the 2 seats"):
        ChessClock(TimeControl(), 2, owners=(0, -1))
    assert by_clock([2, 0, 3], (0, 0, 1, 1)) == [[2, 3], [0]]


def test_the_window_shows_one_time_per_team(window: Any) -> None:
    from app import games
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController("scouts", [SeatConfig(name) for name in games.get("scouts").seat_names],
                                TimeControl(300.0, 0.0), {}, parent=window)
    window._install(controller)
    controller.screen_seat = 0
    assert [(label, time) for label, time, _ in controller.clock_text()] == [("W1 & W2", "5:00"),
                                                                            ("B1 & B2", "5:00")]


def test_a_solitaire_shows_the_time_taken_and_an_untimed_two_seat_game_none(window: Any) -> None:
    """G5: solitaires are untimed but show the time taken; other untimed games show no time."""
    from app import games
    from app.ui.game_controller import GameController, SeatConfig
    shown = {}
    for key in ("coop_solitaire", "coop"):
        controller = GameController(key, [SeatConfig(name) for name in games.get(key).seat_names],
                                    TimeControl(None, 0.0), {}, parent=window)
        window._install(controller)
        controller.screen_seat = 0
        controller.session.start_clock()
        started = controller.session.clock.now()
        controller.session.clock._now = lambda: started + 75.0  # as if the player had thought for 75 s
        shown[key] = [time for _, time, _ in controller.clock_text()]
    assert shown["coop_solitaire"][0].startswith("1:1") and shown["coop"] == ["--:--"]
