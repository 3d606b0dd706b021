"""The Blind Chess ``belief`` bot: king captures, legal attempts over seeded games, draws and material (B5), resets.

The bot runs on a fake clock (each read moves time on by a fixed step), so its games are the same on every run.
"""

from __future__ import annotations

import doctest

import chess
import pytest

import app.games.blind.belief_bot as blind_belief
from app.hosting.agents import BotSpec
from app.bots.contract import BotAgent
from app.bots.base import ActionRequest, Bot
from app.games.blind.belief_bot import LEVELS, LOW_TIME, BlindBeliefBot
from app.games.blind.bots import BlindGreedyBot, BlindRandomBot
from app.hosting.bot_registry import builtin_bots
from app.games.blind.rules import AnswerDraw, Attempt, BlindChess, OfferDraw
from tests.clocks import FakeClock


def fake_bot(level: str = "medium", seed: int = 1, step: float = 0.005) -> BlindBeliefBot:
    bot = BlindBeliefBot(seed=seed, level=level)
    bot.now = FakeClock(step)
    return bot


def play(game: BlindChess, bots: dict[int, Bot], seconds_left: float = 60.0, max_plies: int = 400) -> BlindChess:
    """Play ``game`` between ``bots``; every action must be one the referee accepts."""
    delivered = {0: 0, 1: 0}
    for seat, bot in bots.items():
        bot.start(seat, game.options())
    while not game.is_over and game.ply < max_plies:
        seat = game.to_move
        assert seat is not None
        for other in (seat, 1 - seat):
            log = game.observations(other)
            while delivered[other] < len(log):
                bots[other].observe(log[delivered[other]])
                delivered[other] += 1
        action = bots[seat].act(ActionRequest(seat, game.phase, game.choices(), seconds_left))
        game.play(seat, action)
    return game


def _ready(game: BlindChess, seat: int, bot: BlindBeliefBot) -> None:
    bot.start(seat, game.options())
    for observation in game.observations(seat):
        bot.observe(observation)


def first_attempt(game: BlindChess, level: str = "hard", seed: int = 1, step: float = 0.005,
                  seconds_left: float = 40.0) -> chess.Move:
    """The attempt a fresh bot of ``level`` makes as White in ``game`` as it stands (its clock read as
    :class:`FakeClock` with ``step``)."""
    bot = fake_bot(level, seed, step)
    _ready(game, 0, bot)
    action = bot.act(ActionRequest(0, game.phase, game.choices(), seconds_left))
    assert isinstance(action, Attempt)
    return action.move


def test_takes_a_king_that_is_certainly_capturable() -> None:
    game = BlindChess("k7/8/8/8/8/8/8/R3K3 w - - 0 1")
    bot = fake_bot()
    _ready(game, 0, bot)
    assert bot.act(ActionRequest(0, game.phase, game.choices(), 60.0)) == Attempt(chess.Move.from_uci("a1a8"))


def test_plays_legal_attempts_and_beats_random_and_greedy() -> None:
    for opponent, bot_seat, seed in ((BlindRandomBot, 0, 21), (BlindGreedyBot, 1, 31)):
        game = play(BlindChess(), {bot_seat: fake_bot("medium", seed, step=0.01), 1 - bot_seat: opponent(seed=seed)},
                    seconds_left=3.0)
        assert game.outcome is not None and game.outcome.winner == bot_seat, game.outcome


def test_declines_draws_when_ahead_and_accepts_when_far_behind() -> None:
    for fen, accepts in (("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", False),   # the bot (White) has a queen more
                         ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", True)):   # the bot (White) has a queen less
        game = BlindChess(fen)
        game.play(1, OfferDraw())
        bot = fake_bot()
        _ready(game, 0, bot)
        assert bot.act(ActionRequest(0, game.phase, game.choices(), 60.0)) == AnswerDraw(accepts)


def test_short_of_time_and_behind_it_offers_a_draw_once() -> None:
    game = BlindChess("3qk3/pppppppp/8/8/8/8/8/4K2R w - - 0 1")
    bot = fake_bot()
    _ready(game, 0, bot)
    assert bot.act(ActionRequest(0, game.phase, game.choices(), LOW_TIME / 2)) == OfferDraw()
    game.play(0, OfferDraw())
    game.play(1, AnswerDraw(False))
    for observation in game.observations(0)[-2:]:
        bot.observe(observation)
    action = bot.act(ActionRequest(0, game.phase, game.choices(), LOW_TIME / 2))
    assert isinstance(action, Attempt)  # once a turn; then it plays on
    game.play(0, action)


def test_short_of_time_material_counts_more() -> None:
    # Plenty of time: the bot's king-hunting terms count; short of time (B5) material counts twice as much.
    bot = fake_bot()
    board = chess.Board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    weights = LEVELS["medium"].weights
    low = blind_belief.replace(weights, **blind_belief._LOW_TIME_WEIGHTS)  # type: ignore[arg-type]
    normal = blind_belief.evaluate(board, chess.WHITE, weights)
    scarce = blind_belief.evaluate(board, chess.WHITE, low)
    assert scarce > normal > 0
    assert bot.clock.budget(LOW_TIME / 2) < bot.clock.budget(float("inf"))


def test_expected_material_counts_the_opponent_army() -> None:
    from app.games.blind.inference import BlindInference
    game = BlindChess()
    inference = BlindInference.from_observations(0, game.observations(0))
    assert blind_belief.expected_material(inference) == 39


def test_expected_material_counts_an_unseen_promotion_as_the_pawn_it_was() -> None:
    """Lines with promoted pieces have more moves and so fill a long game's belief, and a belief rebuilt after
    losing track may hold pieces the seat has taken: a piece beyond what the army has left counts as a pawn, so
    that a bot a rook ahead does not think itself behind. The whole army still counts 39 (the test above)."""
    from app.games.blind.inference import BlindInference
    from app.engine.inference import InferenceOptions
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    inference = BlindInference(0, InferenceOptions(start_fen=fen))
    for observation in BlindChess(fen).observations(0):
        inference.update(observation)
    lone_king = list(inference.hypotheses())[0][0]
    queens = chess.BB_SQUARES[chess.A8] | chess.BB_SQUARES[chess.B8] | chess.BB_SQUARES[chess.C8]
    pawns = chess.BB_SQUARES[chess.A7] | chess.BB_SQUARES[chess.B7]
    three_queens = (pawns, 0, 0, 0, queens) + tuple(lone_king[5:])
    inference.hold({three_queens: 1.0})
    assert blind_belief.expected_material(inference) == 2 + 9 + 2   # two pawns, a queen, two promoted pawns
    # The seat took the queen already: all three are promoted pawns, however many lines hold them.
    assert blind_belief.expected_material(inference, taken=[chess.QUEEN, chess.PAWN]) == 2 + 3


def test_a_tiny_belief_loses_track_and_the_bot_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "easy", blind_belief.BlindLevel(cap=3, boards=4, max_seconds=0.2))
    bot = fake_bot("easy", seed=7)
    act = bot.act
    in_step: list[bool] = []

    def checked(request: ActionRequest) -> object:
        action = act(request)
        # Whatever the resets did, the belief's own pieces are the seat's real pieces.
        in_step.append(bot.tracker.inference.own.occupied == bot.view.own_board.occupied)
        return action
    bot.act = checked  # type: ignore[method-assign, assignment]
    game = play(BlindChess(), {0: bot, 1: BlindGreedyBot(seed=7)}, seconds_left=30.0, max_plies=200)
    assert in_step and all(in_step)
    assert game.outcome is not None or game.ply >= 200
    assert bot.tracker.resets + bot.tracker.recoveries > 0
    assert not bot.failures and bot.tracker.inference.size > 0


def test_a_custom_start_is_known_to_the_bot() -> None:
    game = BlindChess("r3k3/8/8/8/8/8/8/4K2R w - - 0 1")
    bot = fake_bot()
    _ready(game, 0, bot)
    bot.act(ActionRequest(0, game.phase, game.choices(), 60.0))
    assert bot.tracker.inference.count == 1  # nothing has happened yet: the one known start


def test_levels_and_names() -> None:
    assert list(builtin_bots("blind"))[0] == "belief"
    assert {"random", "greedy"} <= set(builtin_bots("blind"))
    easy, medium, hard = LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]
    assert easy.cap < medium.cap < hard.cap and easy.boards < medium.boards < hard.boards
    assert easy.max_seconds < medium.max_seconds < hard.max_seconds
    agent = BotSpec("sightline:belief:hard", "blind").create(1)
    assert isinstance(agent, BotAgent) and isinstance(agent.bot, BlindBeliefBot) and agent.bot.level == "hard"


def test_doctests() -> None:
    failures, _ = doctest.testmod(blind_belief)
    assert failures == 0


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_with_an_increment_a_long_game_never_drives_the_bot_short_of_time(level: str) -> None:
    # At 60+1 a hard bot (4 s a turn) that used every second it allowed itself settled at about 2.4 s and would
    # have played the rest of a long game in the short-of-time style (B5: material only). With an increment the
    # bot lives on it instead, keeping more than LOW_TIME in hand.
    bot = BlindBeliefBot(seed=1, level=level)
    bot.start(0, {})
    left, lowest = 60.0, 60.0
    for _ in range(400):
        bot.clock.turn_started(left)
        spent = bot.clock.budget(left)  # a bot that uses every second it allows itself
        bot.clock.turn_ended(left, spent)
        left = left - spent + 1.0
        lowest = min(lowest, left)
    assert lowest > LOW_TIME
    assert bot.clock.budget(left) >= 0.8  # and still thinks: most of the increment, at least


def test_a_reset_guess_gives_the_opponent_no_piece_the_seat_has_taken() -> None:
    """After losing track, the bot guesses from a board it held, patched with what it just learnt. A held board
    with two rooks, when the seat has taken one: the guess keeps one rook (the one the seat saw last)."""
    from app.bots.belief_common import OpponentTracker
    from app.engine.inference import InferenceOptions
    from app.games.blind.inference import BlindInference
    from app.games.blind.rules import AttemptResult, TurnStarted
    fen = "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1"
    before = BlindInference(0, InferenceOptions(start_fen=fen))
    for observation in BlindChess(fen).observations(0):
        before.update(observation)
    tracker = OpponentTracker(0, InferenceOptions(start_fen=fen), BlindInference, blind_belief._guess_blind)
    took = AttemptResult(3, chess.Move.from_uci("e1e2"), True, (chess.ROOK, chess.E2), ())
    tracker.observations = [took, TurnStarted(5)]
    tracker.applied = 2
    tracker.hint = lambda: (lambda board: float(board.piece_at(chess.H8) == chess.Piece(chess.ROOK, chess.BLACK)))
    guessed = blind_belief._guess_blind(before, TurnStarted(5), tracker)
    assert guessed is not None
    rooks = {board.board_fen() for board, _ in guessed.positions()}
    assert rooks == {"4k2r/8/8/8/8/8/8/4K3"}


def test_king_danger_over_a_thinned_belief_tells_the_same_shares() -> None:
    """Hard's king-danger term looks at a weighted draw of at most DANGER_POSITIONS positions (a whole belief
    after an opponent's turn took it up to 5 s): the shares stay those of the whole belief, within a few points."""
    from app.engine.inference import InferenceOptions
    from app.games.blind.inference import BlindInference
    game = BlindChess()
    for seat, uci in [(0, "e2e4"), (1, "g8f6"), (0, "d2d4"), (1, "b8c6"), (0, "e1e2"), (1, "f6g4")]:
        game.play(seat, Attempt(chess.Move.from_uci(uci)))
    inference = BlindInference(0, InferenceOptions(cap=10**6))
    for observation in game.observations(0):
        inference.update(observation)
    assert inference.size > 2_000
    candidates = [chess.Move.from_uci(uci) for uci in ("e2e1", "e2d3", "e2f3", "d4d5", "g1f3")]
    whole = blind_belief.king_danger(inference, candidates, chess.WHITE, 20.0)
    thinned = blind_belief.king_danger(inference, candidates, chess.WHITE, 20.0, most=500)
    assert max(whole) > 0.05
    assert all(abs(a - b) < 0.05 for a, b in zip(whole, thinned)), (whole, thinned)
    from app.bots.belief_common import king_danger_rows
    dangers, weights = king_danger_rows(inference, candidates, chess.WHITE, blind_belief._resolve, 20.0, most=500)
    assert dangers.shape == (len(candidates), len(weights)) and len(weights) <= 500


def test_a_reset_guess_keeps_the_piece_it_puts_where_the_seat_lost_one() -> None:
    """A guess after losing a piece puts an opponent piece on that square (the capturer); trimming the army keeps
    it there, or the guess would contradict what the seat was just told."""
    from app.bots.belief_common import trim_army
    board = chess.Board("r3k3/8/8/8/8/8/8/r3K3 w - - 0 1")   # the rook on a1 has just taken a piece there
    assert trim_army(board, chess.BLACK, [chess.ROOK], keep=[chess.A1]) == 1
    assert board.board_fen() == "4k3/8/8/8/8/8/8/r3K3"
