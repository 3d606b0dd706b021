"""The guard that stands between reconchess's TroutBot and Stockfish in benchmarks/strangefish.py (issue 32).

A stand-in engine dies, as Stockfish does, on a position without a king or with castling rights nothing backs;
the guard must never let it see one, must start it again if it dies anyway, and must answer with a move that
python-chess accepts on the board TroutBot sent (or no move at all).
"""

from __future__ import annotations

import importlib.util
import io
import sys
import textwrap
from pathlib import Path

import chess
import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("stockfish_guard", ROOT / "benchmarks" / "stockfish_guard.py")
assert _spec is not None and _spec.loader is not None
guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(guard)

# A UCI engine that plays the last legal move in UCI order and, like Stockfish, dies on boards it cannot hold; "crash" in a
# go command makes it die whatever the board.
FRAGILE_ENGINE = textwrap.dedent("""
    import sys, chess
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["uci"]:
            print("id name fragile"); print("uciok", flush=True)
        elif words[:1] == ["isready"]:
            print("readyok", flush=True)
        elif words[:2] == ["position", "fen"]:
            board = chess.Board(" ".join(words[2:8]))
            if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                sys.exit(11)
            if board.clean_castling_rights() != board.castling_rights or board.was_into_check():
                sys.exit(11)   # the last: the player to move could take the enemy king
        elif words[:1] == ["go"]:
            if "crash" in words:
                sys.exit(11)
            print("info depth 1"); print("bestmove " + max(m.uci() for m in board.legal_moves), flush=True)
        elif words[:1] == ["quit"]:
            break
""")


def talk(tmp_path: Path, commands: list[str]) -> tuple[list[str], dict[str, int]]:
    engine = tmp_path / "fragile.py"
    engine.write_text(FRAGILE_ENGINE)
    answers = io.StringIO()
    keeper = guard.Guard([sys.executable, str(engine)], io.StringIO("\n".join(commands) + "\n"), answers)
    keeper.run()
    return answers.getvalue().splitlines(), dict(keeper.counts)


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def test_mending_drops_what_cannot_be_true() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/4K2k w KQkq - 0 1")
    board.set_piece_at(chess.A8, None)
    mended = guard.mend(board)
    assert mended.king(chess.BLACK) == chess.E8          # the king among its own pieces stays
    assert len(mended.pieces(chess.KING, chess.BLACK)) == 1
    assert mended.castling_rights == chess.BB_H8          # no rook, no castling (white's king has none either)
    pawns = chess.Board("4k2P/8/8/8/8/8/8/4K3 w - - 0 1")
    assert guard.mend(pawns).piece_at(chess.H8) is None
    assert guard.mend(pawns).is_valid()


def test_the_engine_never_sees_a_board_it_dies_on(tmp_path: Path) -> None:
    lines, counts = talk(tmp_path, [
        "uci", "isready",
        "position fen 8/8/8/8/8/8/8/4K1R1 w - - 0 1", "go movetime 10",          # no black king ever: the guard
        "position fen 4k2P/8/8/8/8/8/8/4K3 w KQkq - 0 1", "go movetime 10",     # a pawn on h8: mended
        "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "go movetime 10",        # the king can be taken: taken
        "position startpos moves e2e4", "go movetime 10",
        "quit"])
    moves = bestmoves(lines)
    assert len(moves) == 4
    assert moves[2] == "e1e8"
    for fen, move in zip(("8/8/8/8/8/8/8/4K1R1 w - - 0 1", "4k2P/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                          "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"), moves):
        chess.Board(fen).parse_uci(move)                  # python-chess accepts each on the board that was sent
    assert counts == {"answered by the guard (no king of a side)": 1, "position mended": 1,
                      "king taken by the guard": 1, "answered by Stockfish": 2}   # and the engine never died
    assert "uciok" in lines and "readyok" in lines


def test_a_king_taken_off_by_a_missed_capture_is_put_back_where_it_was_last(tmp_path: Path) -> None:
    lines, counts = talk(tmp_path, [
        "uci",
        "position fen 4k3/8/8/8/8/8/8/4K1R1 w - - 0 1", "go movetime 10",
        "position fen 8/8/8/8/8/8/8/4K1R1 w - - 0 1", "go movetime 10",          # the king is gone: e8 again
        "position fen 4k3/8/8/8/8/8/8/R3K2k w - - 0 1", "go movetime 10",        # a newer sighting on h1
        "quit"])
    assert len(bestmoves(lines)) == 3
    assert counts == {"answered by Stockfish": 3, "position mended": 2}      # the engine never died
    assert guard.mend(chess.Board("8/8/8/8/8/8/8/4K1R1 w - - 0 1"), {chess.BLACK: chess.E8}).king(chess.BLACK) \
        == chess.E8
    kept = guard.mend(chess.Board("4k3/8/8/8/8/8/8/R3K2k w - - 0 1"), {chess.BLACK: chess.E8})
    assert list(kept.pieces(chess.KING, chess.BLACK)) == [chess.H1]


def test_a_king_put_back_within_reach_is_sought_there_without_asking_the_engine(tmp_path: Path) -> None:
    lines, counts = talk(tmp_path, [
        "uci",
        "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "go movetime 10",          # black's king seen on e8
        "position fen 8/8/8/8/8/8/8/4RK2 w - - 0 1", "go movetime 10",           # gone, and a rook on its file
        "quit"])
    moves = bestmoves(lines)
    assert moves[1] == "e1e8"                            # where the king was last seen (a move to an empty square)
    assert counts == {"answered by Stockfish": 1, "position mended": 1, "king sought where it was last seen": 1}


def test_an_engine_that_dies_is_started_again_and_the_move_still_comes(tmp_path: Path) -> None:
    lines, counts = talk(tmp_path, [
        "uci", "setoption name Hash value 16", "isready",
        "position startpos", "go crash",
        "position startpos moves e2e4", "go movetime 10",
        "quit"])
    moves = bestmoves(lines)
    assert len(moves) == 2
    chess.Board().parse_uci(moves[0])
    assert counts["engine restarted"] == 1
    assert counts["answered by the guard (Stockfish died)"] == 1
    assert counts["answered by Stockfish"] == 1


def test_a_move_only_the_mended_board_allows_is_replaced(tmp_path: Path) -> None:
    # Two black kings: the one on h1 (far from black's pawn) is dropped, so the engine steps White's king to g2,
    # next to it, which python-chess refuses on TroutBot's board.
    fen = "4k3/4p3/8/8/8/8/8/5K1k w - - 0 1"
    board = chess.Board(fen)
    assert guard.legal_on(board, "f1g2") is None and guard.legal_on(guard.mend(board), "f1g2") is not None
    lines, counts = talk(tmp_path, ["uci", f"position fen {fen}", "go movetime 10", "quit"])
    (move,) = bestmoves(lines)
    board.parse_uci(move)
    assert counts == {"position mended": 1,
                      "answered by the guard (Stockfish's move refused on TroutBot's board)": 1}


def test_no_legal_move_is_no_move() -> None:
    mate = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert guard.own_move(mate, __import__("random").Random(0)) is None
    assert guard.parse_position("position fen not a fen") is None


@pytest.mark.parametrize("line, fen", [("position startpos moves e2e4 e7e5", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/"
                                        "RNBQKBNR w KQkq - 0 2")])
def test_positions_are_read_as_uci_sends_them(line: str, fen: str) -> None:
    board = guard.parse_position(line)
    assert board is not None and board.fen() == fen
