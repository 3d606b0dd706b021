"""Cloak and Dagger's hard ``deduce`` level: scores averaged as chances of winning over the drawn arrangements.

In centipawns, a capture that takes the king on one drawn board in sixteen is worth a sixteenth of a win (6,250),
more than any material, so a queen is thrown at a checker that is most likely a defended bishop. As chances of
winning it is worth what it is: a small chance of the king, against a queen lost on the other boards.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import chess

from app.bots.base import ActionRequest
from app.bots.timing import Deadline
from app.games.cloak.bots import LEVELS, WIN, CloakDeduceBot, mean_score, reply_value, win_chance
from app.games.cloak.rules import Arrange, Move
from test_cloak_bots import _bot_after, _play_turns, new_game, play_script
from tests.clocks import FakeClock

KING_ON_C8 = "RNKQBBNR"
"""A sound arrangement with the king on checker 3 (c8 for Black) and the queen on d8."""


def _queen_before_c8() -> tuple[object, CloakDeduceBot]:
    # 1. e3 a6 2. Qg4 d5: White's queen (checker 4) may take Black's cloaked checker 3 on c8.
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(game, [(0, "e2e3", ()), (1, "a7a6", ()), (0, "d1g4", ()), (1, "d7d5", ())])
    assert "g4c8" in game.choices()["moves"]
    bot = _bot_after(game, 0, CloakDeduceBot(seed=5, level="hard"))
    bot.now = FakeClock(0.0001)   # every drawn board looked at, however busy the machine (the first has the king)
    return game, bot


def _choose(game: object, bot: CloakDeduceBot, boards: list[str]) -> str:
    bot._samples = lambda: list(boards)  # type: ignore[method-assign]
    action = bot.act(ActionRequest(0, game.phase, game.choices(), float("inf")))  # type: ignore[attr-defined]
    assert isinstance(action, Move)
    return action.uci


def test_the_hard_level_does_not_throw_its_queen_at_an_unlikely_king() -> None:
    # Sixteen drawn boards: on one the checker on c8 is the king; on fifteen it is a bishop that the queen on d8
    # guards, so Qxc8 loses the queen for a bishop there.
    boards = [KING_ON_C8] + ["RNBQKBNR"] * 15
    game, bot = _queen_before_c8()
    assert _choose(game, bot, boards) != "g4c8"
    # The same bot averaging centipawns (the lower levels' way) takes it: the sixteenth of a win outweighs a queen.
    game, plain = _queen_before_c8()
    plain.settings = dataclasses.replace(plain.settings, chance_scale=0.0)
    assert _choose(game, plain, boards) == "g4c8"


def test_the_hard_level_still_takes_a_king_that_is_likely() -> None:
    game, bot = _queen_before_c8()
    assert _choose(game, bot, [KING_ON_C8] * 10 + ["RNBQKBNR"] * 6) == "g4c8"


def test_scores_averaged_as_chances() -> None:
    assert LEVELS["hard"].chance_scale > 0
    assert win_chance(WIN, 200) == 1.0 and win_chance(-WIN, 200) == 0.0 and win_chance(0, 200) == 0.5
    assert win_chance(300, 200) > win_chance(100, 200) > 0.5
    # The king on one board in eight: worth taking for nothing, not for a queen.
    assert mean_score([WIN] + [0.0] * 7, 200) > 0 > mean_score([WIN] + [-900.0] * 7, 200)
    # Equal scores keep their value; sure wins and sure losses keep the plain average (the surest win first).
    assert abs(mean_score([150.0] * 4, 200) - 150.0) < 1e-6
    assert mean_score([WIN, WIN - 1], 200) == (2 * WIN - 1) / 2
    assert mean_score([-WIN, -WIN // 2], 200) == -3 * WIN / 4
    # A chance strictly between never reads as a sure result.
    assert abs(mean_score([WIN] * 15 + [-WIN], 200)) < WIN // 4


def test_the_hard_level_keeps_its_king_hard_to_tell() -> None:
    # 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6: White (king on checker 5, e1) may castle, step with the king, move others.
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(game, [(0, "e2e4", ()), (1, "e7e5", ()), (0, "g1f3", ()), (1, "b8c6", ()), (0, "f1c4", ()),
                       (1, "g8f6", ())])
    bot = _bot_after(game, 0, CloakDeduceBot(seed=1, level="hard"))
    moves = list(game.choices()["moves"])
    costs = dict(zip(moves, bot.secrecy_costs(moves)))
    castle, king_step, pawn = costs["e1h1"], costs["e1e2"], costs["d2d3"]
    assert pawn == 0.0                           # a pawn move tells nothing about the checkers
    assert castle > king_step > 0                 # castling tells the king outright; a step narrows it down
    assert costs["d1e2"] < 0                      # the queen stepping like a king blurs which one is the king
    # The lower levels do not count it.
    assert not any(_bot_after(game, 0, CloakDeduceBot(seed=1, level="medium")).secrecy_costs(moves))


def test_the_hard_level_sees_a_check_that_cannot_be_met() -> None:
    # White's king on e1 is boxed in (d1, f1, d2, e2, f2 its own); Black's knight checks from d3, and the only
    # answer, exd3, opens the e-file to Black's rook on e5. A hard game was lost this way (Nf4-d3+ after a
    # quiet move of White's): the second look must count the check as the king lost.
    boxed = chess.Board("4k3/8/8/4r3/5n2/8/3PPP2/3BKR2 b - - 0 1", chess960=True)
    assert reply_value(boxed, chess.WHITE, checks_out=True) <= -WIN + 1
    assert reply_value(boxed, chess.WHITE) > -WIN // 4     # the lower levels' look misses it
    # With a square for the king (f1 empty), the check is met: not a lost king.
    free = chess.Board("4k3/8/8/4r3/5n2/8/3PPP2/3BK3 b - - 0 1", chess960=True)
    assert reply_value(free, chess.WHITE, checks_out=True) > -WIN // 4
    assert LEVELS["hard"].checks_out and not LEVELS["medium"].checks_out


def test_the_hard_level_looks_further_when_every_move_it_looked_at_loses_the_king(monkeypatch: Any) -> None:
    # The boxed king again, White to move: f2f3 still loses it to ...Nd3+ (f2 is the knight's), Rg1 frees f1.
    # The first look ranked f2f3 first (twice over, to fill the level's two second looks); the second look finds
    # it lost and goes on to Rg1, which must end up ahead.
    import app.games.cloak.bots as bots

    board = chess.Board("4k3/8/8/4r3/5n2/8/3PPP2/3BKR2 w - - 0 1", chess960=True)
    monkeypatch.setattr(bots, "board_for", lambda view, arrangement, turn: board.copy(stack=False))
    bot = CloakDeduceBot(seed=1, level="hard")
    bot.seat = 0
    bot.settings = dataclasses.replace(bot.settings, deep_moves=2, deep_boards=1)
    bot._samples = lambda: ["RNBQKBNR"]  # type: ignore[method-assign]
    options = ["f2f3", "f2f3", "f1g1"]
    averages = [10.0, 9.0, -50.0]
    bot._look_deeper(options, averages, Deadline(60.0), chess.WHITE)
    assert averages[0] <= -WIN // 2 and averages[1] <= -WIN // 2
    assert averages[2] > -WIN // 4
