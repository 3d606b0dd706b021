"""Typed moves: every SAN form a player may write reaches the move it names, and nothing else."""

from __future__ import annotations

import random

import chess
import pytest

from app.games.blind.rules import Attempt, BlindChess, BlindChessView
from app.games.minit.rules import MinitChess, MinitChessView
from app.games.move_input import MoveTextError, parse_move_text
from app.games.blind.presenter import blind_scene
from app.games.chess_kit import chess_targets as _targets
from app.games.chess_kit import sq8
from app.games.minit.presenter import minit_scene

Cell = tuple[int, int]


def _board_input(board: chess.Board) -> tuple[dict[Cell, str], dict[Cell, dict[Cell, list[str]]]]:
    pieces = {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}
    return pieces, _targets(board.legal_moves)


def _parse(text: str, board: chess.Board) -> chess.Move:
    pieces, targets = _board_input(board)
    from_sq, to_sq, promotion = parse_move_text(text, pieces, targets, 8, 8)
    return chess.Move(chess.square(*from_sq), chess.square(*to_sq),
                      chess.Piece.from_symbol(promotion).piece_type if promotion else None)


@pytest.mark.parametrize("text, fen, expected", [
    ("Bxf7", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "c4f7"),
    ("Bxf7+", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "c4f7"),
    ("Nxd5", "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
    ("Nxd5!?", "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
    ("Nbxd5", "4k3/8/8/3p4/1N6/4N3/8/4K3 w - - 0 1", "b4d5"),
    ("Nexd5", "4k3/8/8/3p4/1N6/4N3/8/4K3 w - - 0 1", "e3d5"),
    ("R1xa3", "4k3/R7/8/8/8/p7/8/R3K3 w - - 0 1", "a1a3"),
    ("R7xa3", "4k3/R7/8/8/8/p7/8/R3K3 w - - 0 1", "a7a3"),
    ("Qh4xe1", "4k3/8/8/8/4Q2Q/8/8/Q3rK2 w - - 0 1", "h4e1"),
    ("Qh4xe1#", "4k3/8/8/8/4Q2Q/8/8/Q3rK2 w - - 0 1", "h4e1"),
    ("exd5", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
    ("exd6 e.p.", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
    ("exd6", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
    ("exd8=Q", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"),
    ("exd8=N+", "3r4/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"),
    ("exd8Q", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"),
    ("e8=R", "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r"),
    ("dxe1=Q+", "4k3/8/8/8/8/8/3p4/4RK2 b - - 0 1", "d2e1q"),
    ("Bxb4", "4kb2/8/8/8/1P6/8/8/4K3 b - - 0 1", "f8b4"),
    ("Kxe2", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", "e1e2"),
    ("O-O", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
    ("0-0", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
    ("O-O-O+", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"),
    ("0-0-0", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8"),
])
def test_san_forms(text: str, fen: str, expected: str) -> None:
    assert _parse(text, chess.Board(fen)) == chess.Move.from_uci(expected)


@pytest.mark.parametrize("seed", range(4))
def test_the_san_of_every_legal_move_names_that_move(seed: int) -> None:
    """Over random games, python-chess's SAN of each legal move, with annotations added, parses back to it."""
    rng = random.Random(seed)
    board = chess.Board()
    seen = 0
    while not board.is_game_over() and board.ply() < 200:
        for move in board.legal_moves:
            san = board.san(move)
            for text in (san, san + "!?", san.replace("O", "0"), san.replace("x", "")
                         if board.piece_type_at(move.from_square) != chess.PAWN else san):
                assert _parse(text, board) == move, text
            seen += "x" in san
        board.push(rng.choice(list(board.legal_moves)))
    assert seen > 50  # the games did go through captures


def test_typed_captures_in_blind_chess_name_the_attempt() -> None:
    """In Blind Chess the seat types a capture onto a square it cannot see: the attempt is what it names."""
    game = BlindChess()
    for uci in ("e2e4", "d7d5"):
        seat = game.to_move
        assert seat is not None
        game.play(seat, Attempt.parse(uci))
    scene = blind_scene(BlindChessView.from_observations(game.observations(0)))
    assert parse_move_text("exd5", scene.pieces, scene.targets, 8, 8) == ((4, 3), (3, 4), None)
    assert parse_move_text("Bb5+", scene.pieces, scene.targets, 8, 8) == ((5, 0), (1, 4), None)
    assert parse_move_text("Qxh5", scene.pieces, scene.targets, 8, 8) == ((3, 0), (7, 4), None)


def _minit_scene(position: str) -> tuple[dict[Cell, str], dict[Cell, dict[Cell, list[str]]]]:
    scene = minit_scene(MinitChessView.from_observations(MinitChess(position).observations(0)))
    return scene.pieces, scene.targets


def test_minitchess_san() -> None:
    # White: king a1, queen c2, knights a3 and e3, pawn b5; Black: king e6, rooks a6 and c4 (5 files, 6 ranks).
    pieces, targets = _minit_scene("1 W r...k .P... ..r.. N...N ..Q.. K....")
    assert parse_move_text("Qxc4", pieces, targets, 5, 6) == ((2, 1), (2, 3), None)
    assert parse_move_text("Naxc4", pieces, targets, 5, 6) == ((0, 2), (2, 3), None)
    assert parse_move_text("Nexc4+", pieces, targets, 5, 6) == ((4, 2), (2, 3), None)
    assert parse_move_text("bxa6=Q", pieces, targets, 5, 6) == ((1, 4), (0, 5), None)
    assert parse_move_text("b6=Q!", pieces, targets, 5, 6) == ((1, 4), (1, 5), None)
    assert parse_move_text("b6", pieces, targets, 5, 6) == ((1, 4), (1, 5), None)
    with pytest.raises(MoveTextError, match="always become queens"):
        parse_move_text("b6=N", pieces, targets, 5, 6)
    with pytest.raises(MoveTextError, match="not a promotion"):
        parse_move_text("Qc3=Q", pieces, targets, 5, 6)
    with pytest.raises(MoveTextError, match="not on the board"):
        parse_move_text("Qf3", pieces, targets, 5, 6)


@pytest.mark.parametrize("text, message", [
    ("xe5", "which pawn captures"),
    ("Bxe5", "no bishop"),
    ("Nd2", "which one"),
    ("Nc3=Q", "not a promotion"),
    ("exd8=K", "not a move"),
])
def test_wrong_text_is_refused_with_a_reason(text: str, message: str) -> None:
    board = chess.Board("3rk3/4P3/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(MoveTextError, match=message):
        _parse(text, board)
