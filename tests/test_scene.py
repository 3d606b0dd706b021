"""Board scenes show a seat its own pieces and only the enemy pieces its observations revealed."""

from __future__ import annotations

import random

import chess
import pytest

from app.games.blind.rules import AttemptResult, BlindChess, BlindChessView, PieceLost
from app.games.minit.rules import MinitChess, MinitChessView
from app.games.rbc.rules import MoveAction, ReconChess, ReconChessView, Sense, SenseResult, TurnStarted
from app.games.blind.presenter import blind_scene
from app.games.chess_kit import from_sq8, sq8
from app.games.minit.presenter import minit_scene
from app.games.rbc.presenter import rbc_scene, rbc_window


def _enemy(scene_pieces: dict[tuple[int, int], str], color: chess.Color) -> dict[int, str]:
    return {from_sq8(square): letter for square, letter in scene_pieces.items()
            if letter.isupper() != color}


@pytest.mark.parametrize("seed", range(6))
def test_rbc_scene_shows_only_what_the_seat_sensed(seed: int) -> None:
    rng = random.Random(seed)
    game = ReconChess()
    while game.outcome is None and game.ply < 160:
        seat = game.to_move
        assert seat is not None
        game.play(seat, Sense(rng.randrange(64)))
        for viewer in (0, 1):
            observations = game.observations(viewer)
            view = ReconChessView.from_observations(observations)
            scene = rbc_scene(view)
            color = viewer == 0
            own = {square: piece.symbol() for square, piece in game.board.piece_map().items()
                   if piece.color == color}
            assert {from_sq8(s): p for s, p in scene.pieces.items() if p.isupper() == color} == own
            # An enemy piece shown was sensed there, or is one of unknown type where the seat lost a piece
            # (what each square shows is checked against the truth in tests/test_sightings.py).
            seen = {(square, piece.symbol()) for o in observations if isinstance(o, SenseResult)
                    for square, piece in o.window if piece is not None}
            seen |= {(o.capture_square, "X" if viewer else "x") for o in observations
                     if isinstance(o, TurnStarted) and o.capture_square is not None}
            for square, letter in _enemy(scene.pieces, color).items():
                assert (square, letter) in seen
        actions = game.move_actions()
        index = rng.randrange(len(actions) + 1)
        game.play(seat, MoveAction(actions[index] if index < len(actions) else None))


def test_rbc_scene_phases() -> None:
    game = ReconChess()
    scene = rbc_scene(ReconChessView.from_observations(game.observations(0)))
    assert scene.sense_window is rbc_window and not scene.targets
    assert len(rbc_window((0, 0))) == 4 and len(rbc_window((4, 4))) == 9
    game.play(0, Sense(chess.E7))
    scene = rbc_scene(ReconChessView.from_observations(game.observations(0)))
    assert scene.targets[(4, 1)] == {(4, 2): [], (4, 3): [], (3, 2): [], (5, 2): []}
    assert [m.kind for m in scene.markers] == ["sense"] and scene.pieces[(4, 6)] == "p"
    black = rbc_scene(ReconChessView.from_observations(game.observations(1)))
    assert not black.targets and black.sense_window is None  # not Black's turn


@pytest.mark.parametrize("seed", range(4))
def test_blind_scene_shows_only_revealed_pieces(seed: int) -> None:
    rng = random.Random(seed)
    game = BlindChess()
    while game.outcome is None and game.ply < 200:
        seat = game.to_move
        assert seat is not None
        attempts = game.choices()["attempts"]
        if not attempts:
            break
        from app.games.blind.rules import Attempt
        game.play(seat, Attempt(rng.choice(attempts)))
        for viewer in (0, 1):
            observations = game.observations(viewer)
            scene = blind_scene(BlindChessView.from_observations(observations))
            revealed = {(square, piece.symbol()) for o in observations if isinstance(o, AttemptResult)
                        for square, piece in o.reveals}
            revealed |= {(o.square, "X" if viewer else "x") for o in observations if isinstance(o, PieceLost)}
            for square, letter in _enemy(scene.pieces, viewer == 0).items():
                assert (square, letter) in revealed


def test_minit_scene_is_the_whole_position() -> None:
    game = MinitChess()
    scene = minit_scene(MinitChessView.from_observations(game.observations(1)))
    assert (scene.files, scene.ranks) == (5, 6) and len(scene.pieces) == 20
    assert scene.pieces[(0, 5)] == "k" and scene.pieces[(4, 0)] == "K"
    assert not scene.targets  # White moves first
    assert sq8(chess.E4) == (4, 3)


def test_event_log_lines_say_what_the_seat_was_told() -> None:
    from app.games.blind.rules import PieceLost
    from app.games.minit.rules import MinitMove
    from app.games.rbc.rules import MoveResult, TurnStarted
    from app.games.describe import describe
    assert describe(TurnStarted(2, None), chess.WHITE) == "Turn 2: your move."
    assert describe(MoveResult(0, None, None, None), chess.WHITE) == "You passed."
    assert describe(MoveResult(0, chess.Move.from_uci("e2e5"), None, None), chess.WHITE).endswith(
        "could not be played (nothing moved).")
    assert describe(PieceLost(3, chess.KNIGHT, chess.C3), chess.WHITE) == "You lost a knight."  # never the square
    game = MinitChess()
    game.play(0, MinitMove(game.choices()["moves"][0]))
    lines = [describe(o, chess.BLACK) for o in game.observations(1)]
    assert lines[-1].startswith("White played ")
