"""Our RBC referee against reconchess 1.6.9's LocalGame, move by move (ruling R1).

Seeded random games are played in both engines at once. At every turn they must
agree on the move actions (same moves, same order), the turn-start capture
notice, the sense result, the taken move, the capture square, the FEN, and at the
end on the winner and the reason. Requests outside the move actions must be
rejected by both, leaving the state untouched.
"""

from __future__ import annotations

import os
import random

import chess
import pytest
from reconchess import LocalGame, WinReason

from app.engine.core import IllegalAction, Reason
from app.games.rbc.rules import (BLACK_SEAT, WHITE_SEAT, MoveAction, MoveResult, ReconChess, Sense, SenseResult,
                            TurnStarted)

GAMES = int(os.environ.get("SIGHTLINE_DIFF_GAMES", "240"))
REASONS = {WinReason.KING_CAPTURE: Reason.KING_CAPTURE, WinReason.MOVE_LIMIT: Reason.MOVE_LIMIT}


def _pick_move(rng: random.Random, board: chess.Board, actions: list[chess.Move]) -> chess.Move | None:
    """A move chooser biased towards the interesting cases: captures, castling, blocked sliders, promotions."""
    roll = rng.random()
    if roll < 0.05 or not actions:
        return None
    if roll < 0.25:
        hits = [m for m in actions if board.piece_at(m.to_square) is not None]
        if hits:
            return rng.choice(hits)
    if roll < 0.35:
        special = [m for m in actions if board.is_castling(m) or m.promotion
                   or chess.square_distance(m.from_square, m.to_square) > 3]
        if special:
            move = rng.choice(special)
            if move.promotion and rng.random() < 0.5:
                return chess.Move(move.from_square, move.to_square)  # default queen promotion
            return move
    return rng.choice(actions)


def _play_one(seed: int) -> tuple[int, str]:
    rng = random.Random(seed)
    reference = LocalGame(seconds_per_player=None)
    reference.start()
    ours = ReconChess()
    plies = 0
    while not reference.is_over():
        color = reference.turn
        seat = WHITE_SEAT if color else BLACK_SEAT
        assert ours.to_move == seat and ours.phase == "sense"

        expected_actions = reference.move_actions()
        assert list(ours.move_actions()) == expected_actions
        assert len(ours.move_actions()) == len(expected_actions)
        for index in rng.sample(range(len(expected_actions)), min(3, len(expected_actions))):
            assert ours.move_actions()[index] == expected_actions[index]

        notice = ours.observations(seat)[-1]
        assert isinstance(notice, TurnStarted)
        assert notice.capture_square == reference.opponent_move_results()

        square = None if rng.random() < 0.03 else rng.randrange(64)
        expected_window = reference.sense(square)
        ours.play(seat, Sense(square))
        sensed = ours.observations(seat)[-1]
        assert isinstance(sensed, SenseResult)
        assert list(sensed.window) == expected_window

        if rng.random() < 0.05:
            bogus = chess.Move(rng.randrange(64), rng.randrange(64))
            if bogus not in expected_actions and chess.Move(bogus.from_square, bogus.to_square,
                                                            chess.QUEEN) not in expected_actions:
                fen = ours.board.fen()
                with pytest.raises(IllegalAction):
                    ours.play(seat, MoveAction(bogus))
                with pytest.raises(ValueError):
                    reference.move(bogus)
                assert ours.board.fen() == fen and ours.phase == "move"

        requested = _pick_move(rng, reference.board, expected_actions)
        expected = reference.move(requested)
        ours.play(seat, MoveAction(requested))
        result = ours.observations(seat)[-1 if ours.outcome is None else -2]
        assert isinstance(result, MoveResult)
        assert (result.requested, result.taken, result.capture_square) == expected
        reference.end_turn()
        assert ours.board.fen(en_passant="fen") == reference.board.fen(en_passant="fen")
        plies += 1

    reference.end()
    assert ours.outcome is not None
    winner = reference.get_winner_color()
    assert ours.outcome.winner == (None if winner is None else (WHITE_SEAT if winner else BLACK_SEAT))
    assert ours.outcome.reason == REASONS[reference.get_win_reason()]
    return plies, ours.outcome.reason.value


@pytest.mark.parametrize("chunk", range(8))
def test_random_games_agree_with_reconchess(chunk: int) -> None:
    reasons: dict[str, int] = {}
    for seed in range(chunk, GAMES, 8):
        _, reason = _play_one(seed)
        reasons[reason] = reasons.get(reason, 0) + 1
    assert sum(reasons.values()) >= GAMES // 8


def test_draw_rule_none_plays_past_fifty_moves() -> None:
    game = ReconChess(draw_rule="none")
    knight_moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 26
    for ply, uci in enumerate(knight_moves):
        seat = ply % 2
        game.play(seat, Sense(None))
        game.play(seat, MoveAction(chess.Move.from_uci(uci)))
    assert game.outcome is None and game.board.halfmove_clock == 104

    limited = ReconChess()
    for ply, uci in enumerate(knight_moves):
        seat = ply % 2
        limited.play(seat, Sense(None))
        limited.play(seat, MoveAction(chess.Move.from_uci(uci)))
        if limited.outcome is not None:
            break
    assert limited.outcome is not None and limited.outcome.reason is Reason.MOVE_LIMIT
    assert limited.outcome.winner is None and limited.board.halfmove_clock == 100
