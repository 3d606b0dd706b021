"""The solitaires' shared layer (app/games/patience): deal numbers, undo, statistics, the solver, hints."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

import pytest

from app.games.patience import deals, solver, statistics
from app.games.patience.hints import best_by_expectation
from app.games.patience.undo import UndoHistory


def test_deal_numbers_give_the_same_order_forever() -> None:
    # Pinned: these orders must never change (a deal number names the same deal on every machine and version).
    cards = [f"c{index}" for index in range(16)]
    assert deals.deal_order(cards, 1) == ['c3', 'c14', 'c2', 'c13', 'c1', 'c7', 'c4', 'c11', 'c6', 'c0', 'c10',
                                          'c12', 'c5', 'c9', 'c8', 'c15']
    assert deals.deal_order(cards, 2)[:4] == ['c11', 'c12', 'c8', 'c4']
    assert deals.deal_order(cards, 1_000_000)[:4] == ['c12', 'c15', 'c10', 'c4']
    assert deals.deal_order(cards, 7, stream=1)[:4] == ['c5', 'c1', 'c13', 'c11']
    # SplitMix64's published first outputs for the seed 1234567
    assert deals.splitmix64_outputs(1234567, 3) == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_every_order_is_a_shuffle_and_orders_spread() -> None:
    cards = list(range(16))
    firsts = [deals.deal_order(cards, number)[0] for number in range(1, 1601)]
    assert all(sorted(deals.deal_order(cards, number)) == cards for number in range(1, 50))
    assert set(firsts) == set(cards) and max(firsts.count(card) for card in cards) < 160  # about 100 each


@pytest.mark.parametrize("bad", [0, -3, 1_000_001, "12a", "", None, 2.5, True, "9" * 40])
def test_a_deal_number_out_of_range_is_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(ValueError, match="a deal number is a whole number from 1 to 1000000"):
        deals.check_deal(bad)


def test_undo_stops_at_the_last_card_turned_up() -> None:
    history: UndoHistory[str] = UndoHistory()
    history.done("a", "b", reveals=True)
    assert not history.can_undo
    history.done("b", "c", reveals=False)
    history.done("c", "d", reveals=False)
    assert history.undo() == "c" and history.undo() == "b" and not history.can_undo
    assert history.redo() == "c"
    history.done("c", "e", reveals=False)  # a new action drops what was undone
    assert not history.can_redo and history.depth == 2


def test_statistics_count_each_game_once_and_survive_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    statistics.record_game("demo", won=True, score=4, game_id="g1", path=path)
    statistics.record_game("demo", won=False, score=None, game_id="g2", path=path)
    statistics.record_game("demo", won=False, score=None, game_id="g2", path=path)
    stats = statistics.load(path)["demo"]
    assert (stats.played, stats.won, stats.best, stats.average, stats.streak) == (2, 1, 4, 4.0, -1)
    assert json.loads(path.read_text())["format"] == "sightline-solitaire-statistics"
    path.write_text("{ not json")
    said: list[str] = []
    assert statistics.load(path, said.append) == {}
    assert "unreadable" in said[0] and (tmp_path / "stats.json.unreadable").exists()
    assert statistics.record_game("demo", won=True, score=2, game_id="g3", path=path).played == 1


def test_statistics_go_to_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIGHTLINE_DATA_DIR", str(tmp_path / "data"))
    statistics.record_game("demo", won=True, score=1, game_id="x")
    assert (tmp_path / "data" / statistics.FILE_NAME).exists()


class Walk:
    """Reach 7 from 0 by steps of 1, 2 or 3, but never land on 4; the score is 5 less the steps; a step of 3
    after the hidden ``trap`` value costs a turn in the samples (to give the hints something to weigh)."""

    def __init__(self, trap: int = -1) -> None:
        self.trap = trap

    def actions(self, state: tuple[int, ...]) -> list[int]:
        return [] if sum(state) >= 7 else [3, 2, 1]

    def apply(self, state: tuple[int, ...], step: int) -> tuple[int, ...]:
        extra = (0,) if sum(state) == self.trap and step == 3 else ()
        return state + extra + (step,)

    def value(self, state: tuple[int, ...]) -> int | None:
        return 5 - len(state) if sum(state) == 7 else None

    def bound(self, state: tuple[int, ...]) -> int | None:
        total = sum(state)
        if total > 7 or 4 in {sum(state[:index]) for index in range(len(state) + 1)}:
            return None
        return 5 - len(state) - (7 - total + 2) // 3

    def key(self, state: tuple[int, ...]) -> tuple[int, int]:
        return sum(state), len(state)


def test_the_solver_proves_the_best_line() -> None:
    seen: list[solver.Progress] = []
    solution = solver.solve(Walk(), (), progress=seen.append, every=1)
    assert (solution.score, solution.line, solution.proven) == (2, (3, 3, 1), True)
    assert seen and seen[-1].best == 2
    assert solution.words() == "best score 2, proven best"


def test_the_solver_says_when_it_ran_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "CHECK_EVERY", 1)  # the walk is too small to reach the usual first look at the clock
    solution = solver.solve(Walk(), (), time_limit=0.0, every=1)
    assert not solution.proven and solution.stopped == "time"
    assert "not proven" in solution.words()


def test_the_hint_weighs_the_orders_the_player_cannot_tell_apart() -> None:
    # In half the samples a 3 from 0 costs a turn: 2 first is as good where it does not, and better on average.
    def sample(rng: random.Random) -> tuple[Walk, tuple[int, ...]]:
        return Walk(trap=0 if rng.random() < 0.5 else -1), ()
    hint = best_by_expectation(sample, samples=8, time_limit=1.0, rng=random.Random(3))
    assert hint.action in (2, 1) and hint.expected is not None and hint.wins == 8


def test_a_line_known_beforehand_is_kept_unless_the_search_beats_it() -> None:
    worse = solver.solve(Walk(), (), known=(1, (1, 2, 2, 2)))
    assert (worse.score, worse.line, worse.proven) == (2, (3, 3, 1), True)
    best = solver.solve(Walk(), (), known=(2, (3, 3, 1)))
    assert best.score == 2 and best.proven


def test_two_windows_finishing_games_together_lose_no_count(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"

    def finish(window: str) -> None:
        for game in range(40):
            statistics.record_game("parade", won=True, score=1, game_id=f"{window}-{game}", path=path)

    threads = [threading.Thread(target=finish, args=(name,)) for name in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statistics.load(path)["parade"].played == 80
