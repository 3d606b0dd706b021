"""The RBC ``belief`` bot: king captures, legality over seeded games, time budgets, resets, levels, engines.

Every game here runs the bot on a fake clock (each read of it moves time on by a
fixed step), so how much the bot does within its budget, and therefore every
move, is the same on every machine and every run.
"""

from __future__ import annotations

import doctest
import os
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any

import chess
import pytest

import app.bots.belief_common as belief_common
import app.bots.chess_eval as chess_eval
import app.games.rbc.belief_bot as rbc_belief
import app.bots.timing as timing
import app.bots.uci as uci
from app.hosting.agents import BotSpec
from app.bots.contract import BotAgent
from app.bots.base import ActionRequest, Bot
from app.games.rbc.belief_bot import LEVELS, RBCBeliefBot
from app.games.rbc.bots import RBCAttackerBot, RBCRandomBot
from app.hosting.bot_registry import builtin_bots
from app.engine.core import Reason
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from tests.clocks import FakeClock


@pytest.fixture(autouse=True)
def _no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bots' play must not depend on whether Stockfish is installed; engine tests set their own.
    monkeypatch.setenv("SIGHTLINE_UCI_ENGINE", "none")


def _request(game: ReconChess, seconds_left: float) -> ActionRequest:
    seat = game.to_move
    assert seat is not None
    return ActionRequest(seat, game.phase, game.choices(), seconds_left)


def play(game: ReconChess, bots: dict[int, Bot], seconds_left: float = 60.0, max_plies: int = 300) -> ReconChess:
    """Play ``game`` between ``bots`` (seat -> bot), handing each its observations; every action must be legal."""
    delivered = {0: 0, 1: 0}
    for seat, bot in bots.items():
        bot.start(seat, game.options())

    def deliver(seat: int) -> None:
        log = game.observations(seat)
        while delivered[seat] < len(log):
            bots[seat].observe(log[delivered[seat]])
            delivered[seat] += 1
    while not game.is_over and game.ply < max_plies:
        seat = game.to_move
        assert seat is not None
        deliver(seat)
        action = bots[seat].act(_request(game, seconds_left))
        game.play(seat, action)  # raises IllegalAction for anything the rules refuse
        deliver(seat)
    return game


def fake_bot(level: str = "medium", seed: int = 1, step: float = 0.002) -> RBCBeliefBot:
    bot = RBCBeliefBot(seed=seed, level=level)
    bot.now = FakeClock(step)
    return bot


# ---- king captures ---------------------------------------------------------------------------------------

def test_takes_a_king_that_is_certainly_capturable() -> None:
    # The start is public, so the belief is exact: the queen on h4 takes the king on e1 through f2 and g3.
    game = ReconChess(fen="rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 3")
    bot = fake_bot("easy")
    bot.start(1, game.options())
    for observation in game.observations(1):
        bot.observe(observation)
    game.play(1, bot.act(_request(game, 60.0)))
    bot.observe(game.observations(1)[-1])
    assert bot.act(_request(game, 60.0)) == MoveAction(chess.Move.from_uci("h4e1"))


def test_prefers_the_cheapest_capturer_of_the_king() -> None:
    game = ReconChess(fen="4k3/3P4/8/8/8/8/8/K3R3 w - - 0 1")  # the pawn on d7 and the rook on e1 both can
    bot = fake_bot("medium")
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    game.play(0, bot.act(_request(game, 60.0)))
    bot.observe(game.observations(0)[-1])
    assert bot.act(_request(game, 60.0)).move == chess.Move.from_uci("d7e8q")


def test_defends_against_a_revealed_threat() -> None:
    # White's knight on d6 attacks e8 and White's moves are known from the start up to here, so the belief knows it:
    # Black must take the knight (c7 or e7 pawn) or move the king.
    game = ReconChess(fen="r1bqkb1r/pppppppp/2nN1n2/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 5 3")
    bot = fake_bot("medium", seed=3)
    bot.start(1, game.options())
    for observation in game.observations(1):
        bot.observe(observation)
    game.play(1, bot.act(_request(game, 60.0)))
    bot.observe(game.observations(1)[-1])
    move = bot.act(_request(game, 60.0)).move
    assert move is not None
    after = game.board.copy()
    after.push(move)
    assert not after.attackers_mask(chess.WHITE, after.king(chess.BLACK) or 0), move.uci()


# ---- legality, budgets, resets ---------------------------------------------------------------------------

def test_plays_only_legal_actions_and_beats_the_random_bot() -> None:
    wins = 0
    for level, seed in (("easy", 5), ("medium", 6)):
        for bot_seat in (0, 1):
            game = play(ReconChess(), {bot_seat: fake_bot(level, seed, step=0.005),
                                       1 - bot_seat: RBCRandomBot(seed=seed)}, seconds_left=4.0)
            assert game.outcome is not None
            wins += game.outcome.winner == bot_seat
    assert wins >= 3


def test_beats_the_scripted_attacker() -> None:
    for bot_seat, seed in ((1, 11), (0, 12)):
        game = play(ReconChess(), {bot_seat: fake_bot("medium", seed), 1 - bot_seat: RBCAttackerBot(seed=seed)},
                    seconds_left=4.0)
        assert game.outcome is not None and game.outcome.winner == bot_seat, game.outcome


def test_budget_follows_the_clock_and_the_level() -> None:
    plenty = fake_bot("medium")
    assert plenty.clock.budget(float("inf")) == LEVELS["medium"].max_seconds
    assert plenty.clock.budget(2.0) < 0.1
    assert LEVELS["easy"].max_seconds < LEVELS["medium"].max_seconds < LEVELS["hard"].max_seconds


@pytest.mark.parametrize("seconds_left", [0.5, 3.0, 60.0])
def test_answers_within_its_budget_on_a_fake_clock(seconds_left: float) -> None:
    game = ReconChess()
    play(game, {0: RBCRandomBot(seed=2), 1: RBCRandomBot(seed=3)}, max_plies=12)  # a few random plies first
    bot = fake_bot("hard", step=0.01)
    seat = game.to_move
    assert seat is not None
    bot.start(seat, game.options())
    for observation in game.observations(seat):
        bot.observe(observation)
    clock = bot.now
    assert isinstance(clock, FakeClock)
    before = clock.t
    game.play(seat, bot.act(_request(game, seconds_left)))
    bot.observe(game.observations(seat)[-1])
    game.play(seat, bot.act(_request(game, seconds_left)))
    # The whole turn (sense and move) fits in the budget the clock allows (each deadline check reads the clock
    # once, hence a few steps of slack); the budget is a small share of the time left.
    settings = LEVELS["hard"]
    allowed = min(settings.max_seconds, 0.2 * seconds_left, seconds_left / 12)
    assert clock.t - before <= allowed + 10 * clock.step
    assert bot.clock.turns == 1


def test_more_time_means_more_boards_looked_at() -> None:
    boards = {}
    for seconds_left in (1.0, 600.0):
        game = ReconChess()
        play(game, {0: RBCRandomBot(seed=8), 1: RBCRandomBot(seed=9)}, max_plies=14)
        bot = fake_bot("medium", step=0.002)
        seat = game.to_move
        assert seat is not None
        bot.start(seat, game.options())
        for observation in game.observations(seat):
            bot.observe(observation)
        game.play(seat, bot.act(_request(game, seconds_left)))
        bot.observe(game.observations(seat)[-1])
        bot.act(_request(game, seconds_left))
        assert bot.last_table is not None
        boards[seconds_left] = bot.last_table.boards_scored
    assert boards[1.0] < boards[600.0]


def test_a_tiny_belief_loses_track_and_the_bot_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # A cap of 3 positions loses the true one almost at once: recoveries and resets must keep it playing.
    monkeypatch.setitem(LEVELS, "easy", rbc_belief.RbcLevel(cap=3, boards=4, max_seconds=0.2))
    bot = fake_bot("easy", seed=4)
    act = bot.act
    in_step: list[bool] = []

    def checked(request: ActionRequest) -> Any:
        action = act(request)
        # Whatever the resets did, the belief's own pieces are the seat's real pieces.
        in_step.append(bot.tracker.inference.own.occupied == bot.view.own_board.occupied)
        return action
    bot.act = checked  # type: ignore[method-assign]
    game = play(ReconChess(), {0: bot, 1: RBCRandomBot(seed=4)}, seconds_left=30.0)
    assert in_step and all(in_step)
    assert game.outcome is not None
    assert bot.tracker.resets + bot.tracker.recoveries > 0
    assert not bot.failures
    assert bot.tracker.inference.size > 0


def test_reset_makes_the_guess_agree_with_what_was_seen() -> None:
    board = chess.Board("4k3/8/8/3n4/8/8/8/4K3 w - - 0 1")
    belief_common.force_pieces(board, chess.BLACK, [(chess.D4, chess.Piece.from_symbol("n")), (chess.D5, None)])
    assert board.piece_at(chess.D4) == chess.Piece.from_symbol("n") and board.piece_at(chess.D5) is None
    assert len(board.pieces(chess.KNIGHT, chess.BLACK)) == 1  # the knight moved, it was not duplicated


def test_threat_prior_weighs_positions_that_attack_the_king() -> None:
    from app.engine.inference import opponent_key
    from app.games.rbc.inference import RbcInference
    game = ReconChess()
    game.play(0, Sense(chess.E7))
    game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
    game.play(1, Sense(chess.E2))
    game.play(1, MoveAction(chess.Move.from_uci("d7d6")))
    game.play(0, Sense(chess.B7))
    game.play(0, MoveAction(chess.Move.from_uci("f1b5")))  # the bishop checks the king: e8 is attacked
    inference = RbcInference.from_observations(1, game.observations(1))
    prior = belief_common.king_threat_prior(inference.own, chess.BLACK, 10.0)
    assert game.board in inference
    assert prior(opponent_key(game.board, chess.BLACK)) == 10.0
    weights = [prior(h) for h, _ in inference.hypotheses()]
    assert weights.count(1.0) > weights.count(10.0) > 0


# ---- levels and names -----------------------------------------------------------------------------------

def test_levels_differ_in_time_samples_and_cap() -> None:
    easy, medium, hard = LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]
    assert easy.cap < medium.cap < hard.cap
    assert easy.boards < medium.boards < hard.boards
    assert easy.noise > 0 == hard.noise
    for level in ("easy", "medium", "hard"):
        agent = BotSpec(f"sightline:belief:{level}", "rbc").create(3)
        assert isinstance(agent, BotAgent) and isinstance(agent.bot, RBCBeliefBot)
        agent.bot.start(0, {})
        assert agent.bot.tracker.inference.cap == LEVELS[level].cap
    with pytest.raises(ValueError, match="unknown level"):
        RBCBeliefBot(level="expert")


def test_the_strongest_bot_comes_first_and_old_names_remain() -> None:
    names = list(builtin_bots("rbc"))
    assert names[0] == "belief" and {"random", "attacker"} <= set(names)


# ---- engines ------------------------------------------------------------------------------------------------

def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


_FAKE_UCI = """
import sys
import time
for line in sys.stdin:
    command = line.split()
    if not command:
        continue
    if command[0] == "uci":
        print("id name Fake", flush=True)
        print("uciok", flush=True)
    elif command[0] == "isready":
        print("readyok", flush=True)
    elif command[0] == "go":
        print("{answer}", flush=True)
    elif command[0] == "quit":
        break
"""


@pytest.mark.parametrize("kind", ["exits", "garbage", "illegal", "missing"])
def test_engine_failures_fall_back_to_the_built_in_evaluator(kind: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = {
        "exits": lambda: _script(tmp_path, "exits.py", "import sys\nsys.exit(3)\n"),
        "garbage": lambda: _script(tmp_path, "garbage.py", _FAKE_UCI.replace("{answer}", "bestmove banana")),
        "illegal": lambda: _script(tmp_path, "illegal.py", _FAKE_UCI.replace("{answer}", "bestmove a1a8")),
        "missing": lambda: str(tmp_path / "no-such-engine"),
    }[kind]()
    monkeypatch.setenv("SIGHTLINE_UCI_ENGINE", path)
    bot = RBCBeliefBot(seed=2, level="hard")
    bot.now = FakeClock(0.01)
    game = play(ReconChess(), {0: bot, 1: RBCRandomBot(seed=2)}, seconds_left=20.0, max_plies=16)
    assert game.ply >= 16 or game.outcome is not None
    assert bot.engine is not None and not bot.engine.available and bot.engine.problem
    assert not bot.failures


@pytest.mark.timeout(60)
def test_a_depth_limited_score_from_a_hung_engine_gives_up(tmp_path: Path) -> None:
    # An engine that never answers "go": a search bounded by depth alone would wait for ever (python-chess gives
    # such a search no timeout); the seconds bound it too, the engine is switched off and its process and thread
    # end (python-chess 1.11 loses the exit code of an engine killed after a timeout: uci._settle_exit_code).
    path = _script(tmp_path, "hangs.py", _FAKE_UCI.replace('print("{answer}", flush=True)', "pass"))
    engine = uci.UciEngine(path, timeout=1.0)
    start = time.monotonic()
    assert engine.score(chess.Board(), 0.2, chess.WHITE, depth=6) is None
    assert time.monotonic() - start < 10 and not engine.available and engine.problem
    # python-chess's own thread for the engine (not a daemon) must end too, or the process could never exit.
    while any(thread.name.startswith("SimpleEngine") for thread in threading.enumerate()):
        assert time.monotonic() - start < 20, [thread.name for thread in threading.enumerate()]
        time.sleep(0.05)


def test_engine_lookup_order() -> None:
    assert uci.find_engine({"SIGHTLINE_UCI_ENGINE": "/a", "STOCKFISH_EXECUTABLE": "/b"}) == "/a"
    assert uci.find_engine({"STOCKFISH_EXECUTABLE": "/b", "PATH": ""}) == "/b"
    assert uci.find_engine({"SIGHTLINE_UCI_ENGINE": "off", "STOCKFISH_EXECUTABLE": "/b"}) is None
    # RBC allows the side not to move to stand in check; no engine is ever given such a position.
    assert uci.engine_ready(chess.Board("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1")) is None


@pytest.mark.skipif(not uci.find_engine({k: v for k, v in os.environ.items() if k != "SIGHTLINE_UCI_ENGINE"}),
                    reason="no UCI engine installed")
def test_a_real_engine_is_used_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIGHTLINE_UCI_ENGINE")
    engine = uci.UciEngine()
    try:
        move = engine.best_move(chess.Board(), 0.05)
        assert move is not None and move in chess.Board().legal_moves
    finally:
        engine.close()


def test_doctests() -> None:
    for module in (rbc_belief, belief_common, chess_eval, timing, uci):
        failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failures == 0, module.__name__


def test_plays_through_the_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.hosting.runner import run_game
    monkeypatch.setitem(LEVELS, "easy", rbc_belief.RbcLevel(cap=300, boards=8, max_seconds=0.05, noise=150))
    agents: list[Any] = [BotSpec("sightline:belief:easy", "rbc").create(1), BotSpec("random", "rbc").create(2)]
    record = run_game(ReconChess(), agents, None, seed=1, max_plies=16)
    assert record.result is not None
    assert record.result.reason in (Reason.KING_CAPTURE, Reason.TURN_LIMIT), record.result.detail


def _watch(moves_of_black: list[str]) -> RBCBeliefBot:
    """White senses e7 and passes every turn; Black plays ``moves_of_black`` in turn (None: pass)."""
    game = ReconChess()
    bot = fake_bot("medium")
    bot.start(0, game.options())
    for black in moves_of_black:
        game.play(0, Sense(chess.E7))
        game.play(0, MoveAction(None))
        game.play(1, Sense(chess.E2))
        game.play(1, MoveAction(chess.Move.from_uci(black) if black else None))
    for observation in game.observations(0):
        bot.observe(observation)
    return bot


def test_an_opponent_that_never_moves_is_met_boldly() -> None:
    still = _watch([""] * 9)
    moving = _watch(["g8f6", "f6g8"] * 4 + ["g8f6"])
    assert still.passivity() == 1.0 and moving.passivity() == 0.0
    assert still.weights().hanging_share < moving.weights().hanging_share == LEVELS["medium"].weights.hanging_share
    assert still.weights().check_bonus > moving.weights().check_bonus


def test_pawn_moves_gain_as_the_fifty_move_rule_nears() -> None:
    bot = _watch([""] * 9)
    candidates: list[chess.Move | None] = [chess.Move.from_uci("e2e4"), chess.Move.from_uci("g1f3"), None]
    assert bot._progress_bonus(candidates) == [0.0, 0.0, 0.0]
    bot.view.ply = bot._reset_ply + 80
    bonus = bot._progress_bonus(candidates)
    assert bonus[0] > 0 and bonus[1] == bonus[2] == 0.0
    bot._draw_rule = "none"
    assert bot._progress_bonus(candidates) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_looks_for_a_raiding_knight_and_stops_it(level: str) -> None:
    # Black's knight runs g8-h6-f5-h4-f3 (reconchess's AttackerBot) while White, seeing nothing of it, develops.
    # With the knight on f3 attacking e1, the bot must sense where it can be and deal with it (g2xf3, or move).
    game = ReconChess()
    for white, black in (("e2e4", "g8h6"), ("b1c3", "h6f5"), ("e4e5", "f5h4"), ("d2d4", "h4f3")):
        game.play(0, Sense(chess.C7))
        game.play(0, MoveAction(chess.Move.from_uci(white)))
        game.play(1, Sense(chess.E2))
        game.play(1, MoveAction(chess.Move.from_uci(black)))
    bot = fake_bot(level, seed=16, step=0.002)
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    game.play(0, bot.act(_request(game, 120.0)))
    bot.observe(game.observations(0)[-1])
    move = bot.act(_request(game, 120.0)).move
    after = game.board.copy()
    after.push(move if move is not None else chess.Move.null())
    assert not after.attackers_mask(chess.BLACK, after.king(chess.WHITE) or 0), move


def test_sensing_values_a_defence_that_only_matters_where_the_threat_is() -> None:
    # Ten ordinary moves good on average and fatal where a knight stands on f3, and one capture (g2xf3) that
    # only helps there: the window that would show f3 is worth the most, though the capture's average is poor.
    empty: tuple[int, int, int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0, 0, 0)
    raid = (0, chess.BB_F3, 0, 0, 0, 0, 0, 0)
    keys = [empty, empty, empty, raid]
    weights = [0.33, 0.33, 0.32, 0.02]
    scores = [[100.0 + i, 100.0 + i, 100.0 + i, -2500.0] for i in range(10)] + [[0.0, 0.0, 0.0, 300.0]]
    candidates: list[chess.Move | None] = [chess.Move(chess.A2, chess.A3 + 8 * (i % 2)) for i in range(10)]
    candidates.append(chess.Move.from_uci("g2f3"))
    table = belief_common.ScoreTable(candidates, scores, weights, [0.0] * 11, [False] * 11)
    values = belief_common.information_value(table, keys, rbc_belief._WINDOW_MASKS)
    best = max(values, key=lambda square: values[square][0])
    assert chess.BB_SQUARES[chess.F3] & rbc_belief._WINDOW_MASKS[best]
    assert values[best][0] > values[chess.B7][0]


def test_sensing_groups_each_scored_board_by_its_own_position() -> None:
    # The move table holds the boards heaviest first; the sample keeps them in the belief's order. A sense
    # must judge each board by what its own window would show: the raid board (a knight on f3 checking e1)
    # is the heaviest but drawn last, and the window over f3 must still be the one that tells it apart.
    from app.engine.inference import opponent_key
    quiet = chess.Board("4k3/8/8/8/8/1n6/P5P1/4K3 w - - 0 1")  # a2xb3 wins a knight
    raid = chess.Board("4k3/8/8/8/8/1n3n2/P5P1/4K3 w - - 0 1")  # only g2xf3 keeps the king
    boards = [quiet.copy(), quiet.copy(), raid]
    boards[1].set_piece_at(chess.B8, chess.Piece(chess.KNIGHT, chess.BLACK))
    weights = [0.25, 0.35, 0.4]
    keys = [opponent_key(board, chess.WHITE) for board in boards]
    candidates: list[chess.Move | None] = [chess.Move.from_uci(uci) for uci in ("a2a3", "a2b3", "g2f3")]
    candidates.append(None)

    def values_of(order: list[int]) -> dict[int, tuple[float, float]]:
        sample = belief_common.BoardSample([boards[j].copy() for j in order], [weights[j] for j in order],
                                           [keys[j] for j in order])
        table = belief_common.score_moves(sample, candidates, chess.WHITE, rbc_belief._resolve, timing.Deadline(10.0),
                                          rbc_belief.KING_CAPTURE, rbc_belief.CLIP,
                                          lambda board: chess_eval.evaluate(board, chess.WHITE))
        return belief_common.information_value(table, sample.keys, rbc_belief._WINDOW_MASKS)

    as_drawn = values_of([0, 1, 2])
    assert as_drawn == values_of([2, 1, 0])  # the order the sample holds its boards in changes nothing
    best = max(as_drawn, key=lambda square: as_drawn[square][0])
    assert chess.BB_SQUARES[chess.F3] & rbc_belief._WINDOW_MASKS[best]


def test_the_standing_option_weighs_positions_by_the_opponents_standing_and_never_a_raid_less() -> None:
    from dataclasses import replace

    from app.engine.inference import opponent_key
    bot = RBCBeliefBot(seed=1, level="hard")
    game = ReconChess()
    game.play(0, Sense(chess.E7))
    game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
    game.play(1, Sense(chess.E2))
    game.play(1, MoveAction(chess.Move.from_uci("g8f6")))
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    bot.tracker.catch_up(timing.Deadline(10.0))
    assert bot._standing(bot.tracker.inference) is None  # off at every level
    bot.settings = replace(bot.settings, standing=100.0)
    quiet = opponent_key(chess.Board("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"), chess.WHITE)
    hanging = opponent_key(chess.Board("rnb1kb1r/pppppppp/5n2/8/4P3/q7/PPPP1PPP/RNBQKBNR w KQkq - 1 2"), chess.WHITE)
    raid = opponent_key(chess.Board("rnb1kb1r/pppppppp/5n2/8/4P3/8/PPPPqPPP/RNBQKBNR w KQkq - 1 2"), chess.WHITE)
    inference = bot.tracker.inference
    inference.hold({quiet: 1.0, hanging: 1.0, raid: 1.0})
    plausibility = bot._standing(inference)
    assert plausibility is not None
    assert plausibility(hanging) < 0.1 * plausibility(quiet)  # a queen left to a pawn: an opponent rarely does that
    assert plausibility(raid) >= 1.0  # the queen on e2 hangs too, but it attacks the king: never less likely
    sample = bot._sample(inference)
    weight = dict(zip(sample.keys, sample.weights))
    assert weight[raid] > weight[quiet] > weight[hanging]
    danger = rbc_belief.king_danger(inference, [chess.Move.from_uci("a2a3")], chess.WHITE, 1.0, prior=plausibility)
    assert danger[0] == pytest.approx(plausibility(raid) / sum(map(plausibility, (quiet, hanging, raid))))
