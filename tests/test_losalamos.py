"""The Los Alamos (6x6) move generator against Fairy-Stockfish's ``losalamos`` variant (through pyffish)."""

from __future__ import annotations

import random

import pytest

from app.games.splitbrain.losalamos import LosAlamosPosition, Move, perft, perft_divide

pyffish = pytest.importorskip("pyffish")
VARIANT = "losalamos"


def reference_perft(fen: str, depth: int, played: tuple[str, ...] = ()) -> int:
    """Perft counted by Fairy-Stockfish. The moves so far go along as a list rather than as a new FEN: every
    pyffish call costs milliseconds, and asking for the FEN would double the calls."""
    if depth == 0:
        return 1
    moves = pyffish.legal_moves(VARIANT, fen, list(played))
    if depth == 1:
        return len(moves)
    return sum(reference_perft(fen, depth - 1, played + (m,)) for m in moves)


def reference_moves(fen: str) -> set[str]:
    return set(pyffish.legal_moves(VARIANT, fen, []))


def test_start_position_is_fairy_stockfish_start() -> None:
    assert LosAlamosPosition.start().fen() == pyffish.start_fen(VARIANT)


def test_start_perft_to_depth_4_matches_fairy_stockfish() -> None:
    start = LosAlamosPosition.start()
    fen = start.fen()
    for depth in range(1, 5):
        assert perft(start, depth) == reference_perft(fen, depth), depth
    assert perft(start, 4) == 14332  # the number Fairy-Stockfish gave when this was written


# Hand-made positions: promotions (quiet and capturing, both colours), a pinned knight and a pinned pawn,
# a king in double check, a queen check with a block, and positions one move from mate or stalemate.
POSITIONS = [
    "r3k1/1P4/6/6/5p/3K2 w - - 0 1",         # b5 promotes straight or by capturing a6; f2 promotes too
    "3k2/6/6/6/1p4/R3K1 b - - 0 1",           # black b2 promotes by capturing a1 or straight
    "3k2/3r2/6/3N2/6/3K2 w - - 0 1",          # the d4 knight is pinned on the d-file
    "k5/6/q5/6/2P3/3K2 w - - 0 1",            # a queen pins the c2 pawn on the diagonal
    "3k2/6/3r2/4n1/6/3K2 w - - 0 1",          # double check: only king moves
    "2k3/6/6/1q4/6/3K1R w - - 0 1",           # check from b4 with blocks and captures
    "k5/2K3/1Q4/6/6/6 w - - 0 1",             # mate in one is among the moves
    "k5/6/2K3/1Q4/6/6 w - - 0 1",             # stalemating moves are among the moves
    "rnqknr/pPpppp/6/6/P1PPPP/RNQKNR w - - 0 1",  # promotion into a full back rank
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_hand_made_positions_perft_matches_fairy_stockfish(fen: str) -> None:
    position = LosAlamosPosition.from_fen(fen)
    assert {m.uci() for m in position.legal_moves()} == reference_moves(fen)
    for depth in range(1, 4):
        assert perft(position, depth) == reference_perft(fen, depth), (fen, depth)


def test_divide_sums_to_perft_and_matches_per_move() -> None:
    position = LosAlamosPosition.from_fen(POSITIONS[0])
    divide = perft_divide(position, 3)
    assert sum(divide.values()) == perft(position, 3)
    for move, count in divide.items():
        assert count == reference_perft(pyffish.get_fen(VARIANT, POSITIONS[0], [move]), 2), move


def _random_game(rng: random.Random, max_plies: int = 50) -> list[LosAlamosPosition]:
    position = LosAlamosPosition.start()
    seen = [position]
    for _ in range(max_plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.push(rng.choice(moves))
        seen.append(position)
    return seen


def test_legal_moves_match_fairy_stockfish_along_80_random_games() -> None:
    rng = random.Random(8)
    counted = {"check": 0, "promotion": 0, "mate": 0, "stalemate": 0}
    for _ in range(80):  # each pyffish call costs milliseconds: 80 games keep the whole file near 30 s
        for ply, position in enumerate(_random_game(rng)):
            fen = position.fen()
            ours = {m.uci() for m in position.legal_moves()}
            assert ours == reference_moves(fen), fen
            if ply % 10 == 0:  # our FEN, including the counters, reads back the same in Fairy-Stockfish
                assert pyffish.get_fen(VARIANT, fen, []) == fen
            check = position.in_check()
            assert check == pyffish.gives_check(VARIANT, fen, [])
            counted["check"] += check
            counted["promotion"] += any(len(m) == 5 for m in ours)
            if not ours:
                counted["mate" if check else "stalemate"] += 1
                assert position.is_checkmate() == check
                assert position.is_stalemate() == (not check)
    # the games must have reached the interesting cases, or this test would prove little about them
    assert counted["check"] > 100 and counted["promotion"] > 50, counted
    assert counted["mate"] > 0, counted


def test_random_playout_positions_perft_depth_3() -> None:
    rng = random.Random(3)
    picked = 0
    for _ in range(40):
        game = _random_game(rng, max_plies=40)
        position = game[-1]
        if not position.legal_moves():
            continue
        fen = position.fen()
        assert perft(position, 3) == reference_perft(fen, 3), fen
        picked += 1
        if picked == 6:
            break
    assert picked == 6


def test_checkmate_and_stalemate_detection() -> None:
    mated = LosAlamosPosition.from_fen("k5/2K3/1Q4/6/6/6 w - - 0 1").push_uci("b4b5")
    assert mated.is_checkmate() and not mated.is_stalemate() and mated.legal_moves() == []
    stalemated = LosAlamosPosition.from_fen("k5/6/2K3/1Q4/6/6 w - - 0 1").push_uci("b3b4")
    assert stalemated.is_stalemate() and not stalemated.is_checkmate()
    assert not LosAlamosPosition.start().is_checkmate() and not LosAlamosPosition.start().is_stalemate()
    # fool's-mate style: back-rank mate with a rook
    back_rank = LosAlamosPosition.from_fen("3k2/R5/3K2/6/6/6 w - - 0 1").push_uci("a5a6")
    assert back_rank.is_checkmate()
    assert pyffish.legal_moves(VARIANT, back_rank.fen(), []) == []


def test_promotion_moves_and_result() -> None:
    position = LosAlamosPosition.from_fen(POSITIONS[0])
    moves = {m.uci() for m in position.legal_moves()}
    assert {"b5b6q", "b5b6r", "b5b6n", "b5a6q", "b5a6r", "b5a6n"} <= moves
    assert "b5b6b" not in moves and "b5b6" not in moves
    after = position.push_uci("b5a6n")
    assert after.board[5 * 6 + 0] == "N"
    assert after.fen() == pyffish.get_fen(VARIANT, POSITIONS[0], ["b5a6n"])


def test_illegal_and_malformed_moves_are_refused() -> None:
    start = LosAlamosPosition.start()
    for text in ("b2b4", "a1a2", "zz11", "b2", "a5a6b"):
        with pytest.raises(ValueError):
            start.push_uci(text)
    assert Move.parse("a5a6q").promotion == "q"


@pytest.mark.parametrize("fen, message", [
    ("rnqknr/pppppp/6/6/PPPPPP w - - 0 1", "5 ranks"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR/6 w - - 0 1", "7 ranks"),
    ("rnqknrr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "7 squares wide"),
    ("rnqkn/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "5 squares wide"),
    ("rnqknr/pppppp/7/6/PPPPPP/RNQKNR w - - 0 1", "7 squares wide"),
    ("rbqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "unknown piece letter 'b'"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQxNR w - - 0 1", "unknown piece letter 'x'"),
    ("rnqqnr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "black king appears 0 times"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQQNR w - - 0 1", "white king appears 0 times"),
    ("rnqknr/pppppp/6/6/PPPKPP/RNQKNR w - - 0 1", "white king appears 2 times"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR x - - 0 1", "side to move"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w KQ - 0 1", "no castling"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - a3 0 1", "no en passant"),
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - x 1", "whole numbers"),
    ("", "empty"),
    ("3k2/6/6/6/1p4/R1K3 b - - 0 1", "side not to move is in check"),
])
def test_malformed_fen_is_refused_with_a_reason(fen: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LosAlamosPosition.from_fen(fen)
