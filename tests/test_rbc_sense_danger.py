"""RBC's king danger position by position, and the danger a sense would take off (the ``sense_danger`` option).

A king on d1 and one unseen rook: on a2 (the second rank is attacked) or on a1 (the first rank is, the king is in
check now). No king move is safe on both, so only a sense that sees a1 or a2 lets the bot pick a safe move. Two
unseen pawns far away (g6 or g7, h6 or h7) make the plain "least certain squares" sense look there instead."""

from __future__ import annotations

from dataclasses import replace

import chess
import pytest

from app.bots.belief_common import danger_after_sensing, king_danger, king_danger_rows
from app.bots.timing import Deadline
from app.games.rbc.belief_bot import _WINDOW_MASKS, LEVELS, RBCBeliefBot, _candidates, _resolve
from app.games.rbc.rules import ReconChess
from tests.clocks import FakeClock
from tests.test_bots_rbc import _request

POSITIONS = {(g | h, 0, 0, rook, 0, chess.BB_H8, 0, 0): 1.0 for rook in (chess.BB_A2, chess.BB_A1)
             for g in (chess.BB_G6, chess.BB_G7) for h in (chess.BB_H6, chess.BB_H7)}
ROOK_WINDOWS = {square for square in _WINDOW_MASKS if _WINDOW_MASKS[square] & (chess.BB_A1 | chess.BB_A2)}


@pytest.fixture(autouse=True)
def _no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIGHTLINE_UCI_ENGINE", "none")


def _bot_with_two_rooks(monkeypatch: pytest.MonkeyPatch, sense_danger: bool) -> tuple[ReconChess, RBCBeliefBot]:
    # One sampled board, as a thin sample would be: the sense's usual value cannot tell the rooks apart.
    monkeypatch.setitem(LEVELS, "hard", replace(LEVELS["hard"], engine=False, boards=1, sense_danger=sense_danger))
    game = ReconChess(fen="7k/8/8/8/8/8/8/3K4 w - - 0 1")
    bot = RBCBeliefBot(seed=1, level="hard")
    bot.now = FakeClock(0.002)
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    bot.tracker.catch_up(Deadline(60.0))  # the observations so far (the bot's own pieces), then the guess
    bot.tracker.inference.hold(POSITIONS)
    return game, bot


def test_the_rows_say_which_move_is_dangerous_where(monkeypatch: pytest.MonkeyPatch) -> None:
    game, bot = _bot_with_two_rooks(monkeypatch, False)
    inference = bot.tracker.inference
    candidates = _candidates(game.choices()["move_actions"])
    dangers, weights = king_danger_rows(inference, candidates, chess.WHITE, _resolve, threat_factor=3.0)
    held, _ = inference.arrays()
    on_a1 = [int(held[3, p]) == chess.BB_A1 for p in range(held.shape[1])]
    assert list(weights) == [3.0 if rook_a1 else 1.0 for rook_a1 in on_a1]  # the checking rook counts 3 times
    for i, move in enumerate(candidates):
        to = chess.D1 if move is None else move.to_square  # (no move: the king stays on d1)
        for p, rook_a1 in enumerate(on_a1):
            assert dangers[i, p] == (chess.square_rank(to) == (0 if rook_a1 else 1)), (move, rook_a1)
    shares = king_danger(inference, candidates, chess.WHITE, _resolve, threat_factor=3.0)
    assert shares == pytest.approx([float(weights[row].sum()) / weights.sum() for row in dangers])


def test_only_a_window_on_the_rook_takes_the_danger_off(monkeypatch: pytest.MonkeyPatch) -> None:
    game, bot = _bot_with_two_rooks(monkeypatch, False)
    inference = bot.tracker.inference
    moves = [chess.Move.from_uci(uci) for uci in ("d1d2", "d1c1")]  # safe only with the rook on a1, on a2
    dangers, weights = king_danger_rows(inference, moves, chess.WHITE, _resolve)
    after = danger_after_sensing(inference, dangers, weights, _WINDOW_MASKS)
    for square, left in after.items():
        assert left == (0.0 if square in ROOK_WINDOWS else 0.5), chess.square_name(square)
    # A window that sees a2 but not a1 tells the two apart as well as one that sees both.
    assert after[chess.B3] == after[chess.B2] == 0.0


def test_the_option_senses_where_the_danger_is_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    game, bot = _bot_with_two_rooks(monkeypatch, sense_danger=False)
    assert bot.act(_request(game, 60.0)).square not in ROOK_WINDOWS  # the pawns' squares are the least certain
    game, bot = _bot_with_two_rooks(monkeypatch, sense_danger=True)
    assert bot.act(_request(game, 60.0)).square in ROOK_WINDOWS
    # The rook's windows gain what they take off: the safest move's danger now, in the level's centipawns.
    values = bot.last_sense_values
    gained = min(values[square][0] for square in ROOK_WINDOWS if square in values)
    assert gained - max(value for square, (value, _) in values.items() if square not in ROOK_WINDOWS) > 100
