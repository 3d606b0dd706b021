"""The tuned MinitChess searcher and its time management (the search bot's basics are in test_minit.py).

Searches here run on a fake clock (the search reads its clock every 256 nodes), so
depths and moves are the same on every machine.
"""

from __future__ import annotations

import pytest

from app.bots.base import ActionRequest
from app.games.minit.bots import LEVELS, MinitSearch, MinitSearchBot, budget
from app.bots.timing import TurnClock
from app.engine.core import Action
from app.games.minit.rules import MinitChess, MinitMove, MinitPosition
from tests.clocks import FakeClock


class FixedTwoPly(MinitSearchBot):
    """The strength benchmark's baseline: the plain search, exactly two plies."""

    def act(self, request: ActionRequest) -> Action:
        moves = self._choices(request)
        result = self.searcher.search(self.view.position, 2, 60.0, tuned=False)
        return MinitMove(result.move if result.move in moves else moves[0])


def test_tuning_searches_deeper_in_the_same_work() -> None:
    position = MinitPosition.start()
    depths = {}
    for tuned in (False, True):
        result = MinitSearch().search(position, 64, 1.0, clock=FakeClock(0.01, start=0.0), tuned=tuned)
        depths[tuned] = result.depth
        assert result.move in position.legal_moves()
    assert depths[True] >= depths[False]


@pytest.mark.parametrize("text", ["5 W k.... ....R ..... ..... ..... ...RK", "7 W k.q.. .Q... ..... ..... ..... ....K"])
def test_tuned_and_plain_search_agree_on_forced_wins(text: str) -> None:
    position = MinitPosition.parse(text)
    plain = MinitSearch().search(position, 6, 5.0, tuned=False)
    tuned = MinitSearch().search(position, 6, 5.0, tuned=True)
    assert plain.move == tuned.move and tuned.score > 90_000


def test_hard_beats_a_fixed_two_ply_searcher() -> None:
    for hard_seat in (0, 1):
        game = MinitChess()
        hard = MinitSearchBot(seed=hard_seat, level="hard")
        hard.now = FakeClock(0.02, start=0.0)
        bots = {hard_seat: hard, 1 - hard_seat: FixedTwoPly(seed=9, level="hard")}
        for seat, bot in bots.items():
            bot.start(seat, {})
        delivered = {0: 0, 1: 0}
        while game.to_move is not None:
            mover = game.to_move
            log = game.observations(mover)
            while delivered[mover] < len(log):
                bots[mover].observe(log[delivered[mover]])
                delivered[mover] += 1
            game.play(mover, bots[mover].act(ActionRequest(mover, "move", game.choices(), 30.0)))
        assert game.outcome is not None and game.outcome.winner == hard_seat, game.outcome


def test_the_increment_is_learned_from_the_clock() -> None:
    clock = TurnClock(max_seconds=10.0)
    clock.turn_started(60.0)
    clock.turn_ended(60.0, 1.0)      # one second spent, then the clock showed 61: two seconds came back
    clock.turn_started(61.0)
    assert clock.increment == pytest.approx(2.0)
    assert budget(LEVELS["hard"], 20.0, 10, clock.increment) > budget(LEVELS["hard"], 20.0, 10)
    assert clock.budget(61.0) > TurnClock(max_seconds=10.0).budget(61.0)


def test_a_single_legal_move_is_played_at_once() -> None:
    game = MinitChess()
    bot = MinitSearchBot(seed=1, level="hard")
    bot.start(0, {})
    for observation in game.observations(0):
        bot.observe(observation)
    only = game.legal_moves()[0]
    action = bot.act(ActionRequest(0, "move", {"moves": [only]}, 10.0))
    assert action == MinitMove(only) and bot.last is None  # no search was needed
    bot.act(ActionRequest(0, "move", game.choices(), 10.0))
    assert bot.last is not None


def test_doctests() -> None:
    import doctest

    import app.games.minit.bots as minit_bots
    failures, _ = doctest.testmod(minit_bots)
    assert failures == 0
