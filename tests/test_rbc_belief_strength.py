"""The RBC ``belief`` bot at ``hard`` against strong opponents (issue 32): king danger over the whole belief, using
its clock, the engine's scores on the likeliest boards.

Fake clocks and fake engines throughout: what the bot does within its budget is the same on every machine.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import chess
import pytest

import app.games.rbc.belief_bot as rbc_belief
from app.bots.timing import Deadline
from app.games.rbc.belief_bot import LEVELS, RBCBeliefBot, _candidates, _resolve, king_danger
from app.games.rbc.bots import RBCRandomBot
from app.games.rbc.rules import MoveAction, ReconChess, Sense

from tests.clocks import FakeClock
from tests.test_bots_rbc import _request, play


@pytest.fixture(autouse=True)
def _no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIGHTLINE_UCI_ENGINE", "none")


def _brute_danger(bot: RBCBeliefBot, candidates: list[chess.Move | None], color: chess.Color) -> list[float]:
    """king_danger the slow way: every position of the belief as a python-chess board."""
    items = list(bot.tracker.inference.positions())
    total = sum(weight for _, weight in items)
    result = []
    for move in candidates:
        danger = 0.0
        for board, weight in items:
            board.turn = color
            taken = None if move is None else _resolve(board, move)
            if taken is not None and board.kings & board.occupied_co[not color] & chess.BB_SQUARES[taken.to_square]:
                continue
            board.push(taken if taken is not None else chess.Move.null())
            king = board.king(color)
            if king is None or board.attackers_mask(not color, king):
                danger += weight
            board.pop()
        result.append(danger / total)
    return result


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_king_danger_counts_every_position_of_the_belief(seed: int) -> None:
    # Random play leaves kings open and pieces everywhere: slides that stop short, blocked pawns, captures.
    game = ReconChess()
    play(game, {0: RBCRandomBot(seed=seed), 1: RBCRandomBot(seed=seed + 100)}, max_plies=10 + 4 * (seed % 6))
    assert game.outcome is None and game.phase == "sense"
    seat = game.to_move
    assert seat is not None
    bot = RBCBeliefBot(seed=1, level="easy")
    bot.now = FakeClock(0.002)
    bot.start(seat, game.options())
    seen = len(game.observations(seat))
    for observation in game.observations(seat):
        bot.observe(observation)
    game.play(seat, Sense(chess.E4))
    for observation in game.observations(seat)[seen:]:
        bot.observe(observation)
    bot.tracker.catch_up(Deadline(60.0))
    assert bot.tracker.inference.size > 10
    candidates = _candidates(game.choices()["move_actions"])
    fast = king_danger(bot.tracker.inference, candidates, seat == 0)
    slow = _brute_danger(bot, candidates, seat == 0)
    assert max(fast) > 0  # the test sees some danger
    assert fast == pytest.approx(slow, abs=1e-9)


def _bishop_check(monkeypatch: pytest.MonkeyPatch, danger: float) -> tuple[ReconChess, RBCBeliefBot]:
    # White has opened d2; Black's bishop f8 may have given check on b4 (it did). White's sense on g7 sees the
    # bishop gone from f8, which leaves a handful of positions, some with the check. The sample is one board: it
    # misses the check, and a free pawn on e5 tempts the knight.
    monkeypatch.setitem(LEVELS, "hard", replace(LEVELS["hard"], boards=1, engine=False, danger=danger))
    game = ReconChess(fen="rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R b KQkq - 0 2")
    bot = RBCBeliefBot(seed=1, level="hard")
    bot.now = FakeClock(0.002)
    bot.start(0, game.options())
    game.play(1, Sense(chess.E2))
    game.play(1, MoveAction(chess.Move.from_uci("f8b4")))
    for observation in game.observations(0):
        bot.observe(observation)
    bot.act(_request(game, 60.0))
    game.play(0, Sense(chess.G7))
    bot.observe(game.observations(0)[-1])
    return game, bot


def test_hard_moves_out_of_a_check_its_sample_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    game, bot = _bishop_check(monkeypatch, LEVELS["hard"].danger)
    move = bot.act(_request(game, 60.0)).move
    assert max(bot.last_danger) > 0.5
    assert king_danger(bot.tracker.inference, [move], True)[0] == 0.0, move
    after = game.board.copy(stack=False)
    after.push(_resolve(after, move) or chess.Move.null())
    assert not after.attackers_mask(chess.BLACK, after.king(chess.WHITE) or 0)


def test_without_the_whole_belief_the_thin_sample_walks_into_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same turn with the whole-belief danger off: what the bot did before issue 32.
    game, bot = _bishop_check(monkeypatch, 0.0)
    move = bot.act(_request(game, 60.0)).move
    assert king_danger(bot.tracker.inference, [move], True, LEVELS["hard"].threat_prior)[0] > 0.5


def test_the_levels_below_hard_are_unchanged() -> None:
    assert LEVELS["easy"].danger == LEVELS["medium"].danger == 0 < LEVELS["hard"].danger
    assert LEVELS["medium"] == rbc_belief.RbcLevel(cap=1500, boards=64, max_seconds=1.5, refine=16)
    assert not LEVELS["medium"].engine and LEVELS["easy"].engine_moves == LEVELS["medium"].engine_moves == 0


def _midgame(seed: int = 8) -> tuple[ReconChess, int]:
    game = ReconChess()
    play(game, {0: RBCRandomBot(seed=seed), 1: RBCRandomBot(seed=seed + 1)}, max_plies=14)
    seat = game.to_move
    assert seat is not None and game.outcome is None
    return game, seat


def test_hard_looks_at_more_boards_with_a_generous_clock() -> None:
    game, seat = _midgame()
    bot = RBCBeliefBot(seed=1, level="hard")
    bot.now = FakeClock(0.0005)
    bot.start(seat, game.options())
    for observation in game.observations(seat):
        bot.observe(observation)
    game.play(seat, bot.act(_request(game, 300.0)))
    bot.observe(game.observations(seat)[-1])
    bot.act(_request(game, 300.0))
    assert bot.last_table is not None
    assert bot.last_table.boards_scored > 128  # the old fixed amount of work


class _FakeEngine:
    """An engine that likes one move: positions where White's knight stands on ``square`` score ``value``."""

    available = True
    problem = None

    def __init__(self, clock: FakeClock, square: int, value: int = 400, cost: float = 0.05) -> None:
        self.clock, self.square, self.value, self.cost = clock, square, value, cost
        self.calls = 0
        self.searched: list[tuple[int | None, str]] = []

    def best_move(self, board: chess.Board, seconds: float) -> chess.Move | None:
        self.clock.t += seconds
        return None

    def score(self, board: chess.Board, seconds: float, color: chess.Color, depth: int | None = None) -> int | None:
        self.calls += 1
        self.searched.append((depth, board.fen()))
        # A depth-limited search also stops at its time bound, as Stockfish does with both limits.
        self.clock.t += min(self.cost, seconds) if depth else max(seconds, self.cost)
        piece = board.piece_at(self.square)
        return self.value if piece == chess.Piece(chess.KNIGHT, color) else 0

    def close(self) -> None:
        pass


@pytest.mark.parametrize("seconds_left", [20.0, 300.0])
def test_the_engine_scores_the_shortlist_within_the_budget(seconds_left: float) -> None:
    # From the start (the belief is exact after White's first move is known): an engine that loves a knight on
    # c3 makes the bot play b1c3; it is asked as often as the time allows and the turn fits the budget.
    game = ReconChess()
    bot = RBCBeliefBot(seed=1, level="hard")
    clock = FakeClock(0.001)
    bot.now = clock
    bot.start(0, game.options())
    engine = _FakeEngine(clock, chess.C3, cost=0.002)  # a six-ply search costs Stockfish about 1.3 ms here
    bot.engine = engine  # type: ignore[assignment]
    for observation in game.observations(0):
        bot.observe(observation)
    before = clock.t
    turn = copy.deepcopy(bot.clock)  # the budget the turn gets once it has started
    turn.turn_started(seconds_left)
    budget = turn.budget(seconds_left)
    game.play(0, bot.act(_request(game, seconds_left)))
    bot.observe(game.observations(0)[-1])
    action: Any = bot.act(_request(game, seconds_left))
    assert action.move == chess.Move.from_uci("b1c3")
    assert engine.calls >= 2 and bot.engine_calls == engine.calls
    assert clock.t - before <= budget + 0.1


def test_hard_keeps_time_in_hand_through_a_long_game() -> None:
    # A 150-turn game at 90+2 in which every turn takes the whole budget plus a slow second: the clock settles with
    # the level's reserve in hand instead of a few seconds (with no reserve it went down to about 8 s at 90+2).
    bot = RBCBeliefBot(seed=1, level="hard")
    bot.start(0, ReconChess().options())
    left, lowest, spent_first = 90.0, 90.0, 0.0
    for turn in range(150):
        bot.clock.turn_started(left)
        spent = bot.clock.budget(left) + (1.0 if turn % 10 == 9 else 0.0)
        spent_first += spent if turn < 30 else 0.0
        bot.clock.turn_ended(left, spent)
        left = left - spent
        assert left > 0
        lowest = min(lowest, left) if turn > 10 else lowest
        left += 2.0
    assert lowest >= 15.0
    assert spent_first / 30 > 3.0  # it still spends: about 3.5 s a turn at first, not the old 1 s


def test_the_engine_mix_does_not_water_down_the_king_danger(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bishop check of above, now with an engine that sees only the drawn board (no check there) and loves the
    # knight taking on e5: the engine's score is mixed with the built-in one, and the king danger must still count
    # in full, not at the built-in score's share of the mix (0.6 of 2000 beats 40% of the penalty, not all of it).
    game, bot = _bishop_check(monkeypatch, LEVELS["hard"].danger)
    monkeypatch.setitem(LEVELS, "hard", replace(LEVELS["hard"], engine=True))
    bot.settings = LEVELS["hard"]
    clock = bot.now
    assert isinstance(clock, FakeClock)
    bot.engine = _FakeEngine(clock, chess.E5, value=2000)  # type: ignore[assignment]
    move = bot.act(_request(game, 60.0)).move
    assert bot.engine_calls >= 2
    assert king_danger(bot.tracker.inference, [move], True)[0] == 0.0, move


class _TrapEngine(_FakeEngine):
    """The knight on c3 scores 500 except where Black's pawn stands on e5 (there -3000); a knight on f3, 250."""

    def score(self, board: chess.Board, seconds: float, color: chess.Color, depth: int | None = None) -> int | None:
        super().score(board, seconds, color, depth)
        if board.piece_at(chess.C3) == chess.Piece(chess.KNIGHT, color):
            return -3000 if board.piece_at(chess.E5) == chess.Piece(chess.PAWN, not color) else 500
        return 250 if board.piece_at(chess.F3) == chess.Piece(chess.KNIGHT, color) else 0


def _hard_with(monkeypatch: pytest.MonkeyPatch, engine_type: type[_FakeEngine], **level: Any
               ) -> tuple[ReconChess, RBCBeliefBot, FakeClock, _FakeEngine]:
    """A new game and White's bot at hard with ``level`` changed, on a fake clock, with a fake engine that likes a
    knight on c3 (2 ms a search)."""
    monkeypatch.setitem(LEVELS, "hard", replace(LEVELS["hard"], **level))
    game = ReconChess()
    bot = RBCBeliefBot(seed=1, level="hard")
    clock = FakeClock(0.001)
    bot.now = clock
    bot.start(0, game.options())
    engine = engine_type(clock, chess.C3, cost=0.002)
    bot.engine = engine  # type: ignore[assignment]
    return game, bot, clock, engine


def _second_turn_with(monkeypatch: pytest.MonkeyPatch, engine_type: type[_FakeEngine], **level: Any
                      ) -> tuple[RBCBeliefBot, _FakeEngine, Any, float]:
    """White's second move at hard with ``level`` changed and a fake engine, after 1. e4 a6. White senses b2 both
    times (it sees only its own pieces), so the belief holds Black's 20 first moves and the pass."""
    game, bot, clock, engine = _hard_with(monkeypatch, engine_type, **level)
    seen = 0

    def catch_up() -> None:
        nonlocal seen
        for observation in game.observations(0)[seen:]:
            bot.observe(observation)
        seen = len(game.observations(0))

    catch_up()
    game.play(0, Sense(chess.B2))
    game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
    catch_up()
    game.play(1, Sense(chess.B7))
    game.play(1, MoveAction(chess.Move.from_uci("a7a6")))
    game.play(0, Sense(chess.B2))
    catch_up()
    turn = copy.deepcopy(bot.clock)  # the move starts the turn (White sensed without the bot): its budget then
    turn.turn_started(300.0)
    before, budget = clock.t, turn.budget(300.0)
    action = bot.act(_request(game, 300.0))
    return bot, engine, action, clock.t - before - budget


def test_the_engine_table_scores_the_shortlist_at_a_depth_on_many_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    # StrangeFish2's way (engine_depth): the engine that loves a knight on c3 decides, every search is depth-limited
    # (six plies first, then deeper passes while the time lasts), every board the belief holds is reached, no
    # position is searched twice in a pass, and the turn fits its budget.
    bot, engine, action, over = _second_turn_with(monkeypatch, _FakeEngine, engine_depth=6, engine_moves=24)
    assert action.move == chess.Move.from_uci("b1c3")
    depths = [depth for depth, _ in engine.searched]
    assert depths[0] == 6 and depths == sorted(depths) and bot.engine_calls == engine.calls
    assert 6 < bot.engine_depth_reached <= depths[-1]  # the time allowed deeper passes; the last may be cut short
    assert bot.engine_boards == bot.tracker.inference.size == 21  # Black may also pass
    assert len(engine.searched) == len(set(engine.searched))
    assert over <= 0.1


@pytest.mark.parametrize(("worst_share", "expected"), [(0.3, "g1f3"), (0.0, "b1c3")])
def test_the_engine_table_weighs_a_moves_worst_board(monkeypatch: pytest.MonkeyPatch, worst_share: float,
                                                       expected: str) -> None:
    # Nc3 averages about 330 over Black's 21 first moves but loses 3000 after ...e5; Nf3 makes 250 everywhere. Counting
    # the worst board at 30% (as StrangeFish2 does) prefers the safe knight; the average alone prefers the other.
    bot, _, action, _ = _second_turn_with(monkeypatch, _TrapEngine, engine_depth=6, engine_moves=24,
                                          engine_min=worst_share, engine_weight=1.0)
    assert bot.engine_boards == 21
    assert action.move == chess.Move.from_uci(expected)


class _PawnWatcher(_FakeEngine):
    """An engine for which the knight on c3 is worth 500 where Black's pawn went to a6, and costs 100 elsewhere."""

    def score(self, board: chess.Board, seconds: float, color: chess.Color, depth: int | None = None) -> int | None:
        value = super().score(board, seconds, color, depth)
        if not value:
            return 0
        return 500 if board.piece_at(chess.A6) == chess.Piece(chess.PAWN, not color) else -100


@pytest.mark.parametrize("sense_engine", [True, False])
def test_the_sense_can_be_chosen_on_the_engines_table(monkeypatch: pytest.MonkeyPatch, sense_engine: bool) -> None:
    # After 1. e4 a6 White's belief holds Black's 20 first moves and the pass. Only the engine knows that b1-c3 is
    # good where the pawn stands on a6 and bad elsewhere: choosing the sense on the engine's table (sense_engine)
    # looks where a6 is seen; on the built-in table no window is worth more for that.
    game, bot, _, engine = _hard_with(monkeypatch, _PawnWatcher, engine_depth=6, engine_moves=40,
                                      sense_engine=sense_engine)
    game.play(0, Sense(chess.B2))
    game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
    game.play(1, Sense(chess.B7))
    game.play(1, MoveAction(chess.Move.from_uci("a7a6")))
    for observation in game.observations(0):
        bot.observe(observation)
    sense = bot.act(_request(game, 300.0))
    assert isinstance(sense, Sense)
    sees_a6 = bool(rbc_belief._WINDOW_MASKS[sense.square] & chess.BB_A6)
    assert sees_a6 == sense_engine, chess.square_name(sense.square)
    assert (engine.calls > 0) == sense_engine
