"""A UCI engine in front of Stockfish that never lets it see a board it cannot handle (issue 32, TroutBot).

reconchess's TroutBot keeps one board of its own guesses: sensed pieces are written over it and never taken
off, and a capture of a king that was not there takes the king off its board, so the board it asks Stockfish
about can hold two enemy kings or none, seventeen pieces of a side, a pawn on its last rank, or an enemy king
already in check while TroutBot is to move. Stockfish assumes a legal chess position and dies on some of these (``Stockfish Engine died`` in TroutBot's output); TroutBot then passes every
move for the rest of the game, which flatters whoever plays it. This guard is what TroutBot is given as its
``STOCKFISH_EXECUTABLE``:

- each position is first mended the way a player would read it: pawns on the first or last rank are dropped;
  of two kings of one colour the one standing where the guard last saw it goes (the other is a newer sighting),
  else the one nearest the other pieces of its colour stays; a king missing (taken off by a capture that did
  not find it there) is put back where the guard last saw it; castling rights and an en passant square nothing
  backs are cleared (python-chess's FEN drops such rights itself);
- if the player to move can take the enemy king, that capture is the answer (in RBC it wins; Stockfish would
  refuse the position);
- if a king put back is within reach, the move to where it was last seen is the answer;
- a mended position with one king a side goes to Stockfish, even when python-chess calls it invalid for other
  reasons (seventeen pieces of a side, a check no move could give: Stockfish 15.1 answers those); anything
  else is answered by the guard itself with the best capture by value, or a quiet move, from python-chess's
  move generator;
- the answer is always a move python-chess accepts on the board TroutBot sent (TroutBot's python-chess refuses
  any other and TroutBot then passes): a Stockfish move that only the mended board allows is replaced;
- should Stockfish die anyway, it is started again (with the options it was given) and the guard answers the
  move itself.

How often each happened is written to standard error when the guard quits, and as a JSON line to the file
``STOCKFISH_GUARD_LOG`` names, if set. Run as
``python benchmarks/stockfish_guard.py /usr/games/stockfish`` (``strangefish.py --opponent trout`` writes a
two-line launcher for it and hands that to TroutBot only).

>>> board = chess.Board("4k3/4p3/8/8/8/8/8/4K2k w - - 0 1")   # two black kings
>>> mend(board).fen()                                             # the one far from its pawn is dropped
'4k3/4p3/8/8/8/8/8/4K3 w - - 0 1'
>>> king_capture(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")) is None
True
>>> king_capture(chess.Board("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"))
Move.from_uci('e1e8')
"""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess
import sys
from typing import IO

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


def mend(board: chess.Board, last_kings: dict[chess.Color, chess.Square] | None = None) -> chess.Board:
    """A copy of ``board`` with what cannot be true taken away and a lost king put back (see the module
    docstring); ``last_kings`` holds where each king stood in the last position the guard was asked about."""
    mended = board.copy(stack=False)
    last_kings = last_kings or {}
    for square in chess.SquareSet(mended.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)):
        mended.remove_piece_at(square)
    for color in chess.COLORS:
        kings = list(mended.pieces(chess.KING, color))
        last = last_kings.get(color)
        if len(kings) > 1 and last in kings:  # the king left where it was, beside a newer sighting
            mended.remove_piece_at(last)
            kings.remove(last)
        if len(kings) > 1:
            own = [square for square in chess.SquareSet(mended.occupied_co[color]) if square not in kings]

            def company(king: int) -> int:  # a king among its own pieces is the likelier true one
                return -sum(chess.square_distance(king, square) for square in own) if own else 0
            keep = max(kings, key=company)
            for square in kings:
                if square != keep:
                    mended.remove_piece_at(square)
        if not kings and last is not None:  # taken off by a capture that missed it: where it was last
            empty = [square for square in chess.SQUARES if mended.piece_at(square) is None]
            if empty:
                mended.set_piece_at(min(empty, key=lambda square: chess.square_distance(square, last)),
                                    chess.Piece(chess.KING, color))
    mended.castling_rights = mended.clean_castling_rights()
    if mended.ep_square is not None and not any(mended.generate_pseudo_legal_ep()):
        mended.ep_square = None
    return mended


def engine_can_take(board: chess.Board) -> bool:
    """Whether Stockfish may be asked about ``board``: one king a side, no pawn on its first or last rank, and
    the enemy king out of reach (Stockfish 15.1 dies on such boards, as it did here). Other boards python-chess
    calls invalid (seventeen pieces a side, a check no move could give) it answers without harm."""
    return (len(board.pieces(chess.KING, chess.WHITE)) == 1 and len(board.pieces(chess.KING, chess.BLACK)) == 1
            and not board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8) and king_capture(board) is None)


def king_capture(board: chess.Board) -> chess.Move | None:
    """A move of the player to move that takes the enemy king, if there is one (the cheapest attacker)."""
    king = board.king(not board.turn)
    if king is None:
        return None
    attackers = board.attackers(board.turn, king)
    if not attackers:
        return None
    piece_type = board.piece_type_at
    return chess.Move(min(attackers, key=lambda square: VALUES[piece_type(square) or chess.PAWN]), king)


def own_move(board: chess.Board, rng: random.Random) -> chess.Move | None:
    """The guard's own answer: the capture winning the most (by value, cheapest attacker first), else a quiet move
    at random. Moves python-chess calls legal on ``board`` come first, since TroutBot's python-chess refuses any
    other answer (and TroutBot then passes); None when there is no legal move (TroutBot passes too)."""
    try:
        moves = list(board.legal_moves)
    except Exception:  # noqa: BLE001 - a board too broken even for the generator: pass
        return None
    if not moves:
        return None
    captures = [move for move in moves if board.piece_at(move.to_square) is not None]
    if captures:
        def gain(move: chess.Move) -> tuple[int, int]:
            taken, mover = board.piece_type_at(move.to_square), board.piece_type_at(move.from_square)
            return VALUES[taken or chess.PAWN], -VALUES[mover or chess.PAWN]
        return max(captures, key=gain)
    return rng.choice(moves)


def legal_on(board: chess.Board, text: str) -> chess.Move | None:
    """The move ``text`` (UCI) if python-chess accepts it on ``board``, else None."""
    try:
        return board.parse_uci(text)
    except ValueError:
        return None


def parse_position(line: str) -> chess.Board | None:
    """The board of a UCI ``position`` command (None if it cannot be read)."""
    words = line.split()
    try:
        if "moves" in words:
            cut = words.index("moves")
            head, moves = words[1:cut], words[cut + 1:]
        else:
            head, moves = words[1:], []
        board = chess.Board() if head[:1] == ["startpos"] else chess.Board(" ".join(head[1:]))
        for move in moves:
            board.push(chess.Move.from_uci(move))
        return board
    except (ValueError, IndexError, AssertionError):
        return None


class Guard:
    """The engine seen by TroutBot: reads UCI commands from ``commands``, answers on ``answers``."""

    def __init__(self, engine_command: list[str], commands: IO[str], answers: IO[str], seed: int = 0) -> None:
        self.engine_command = engine_command
        self.commands = commands
        self.answers = answers
        self.rng = random.Random(seed)
        self.options: list[str] = []
        self.board: chess.Board | None = chess.Board()
        self.last_kings: dict[chess.Color, chess.Square] = {}
        self.counts: collections.Counter[str] = collections.Counter()
        self.engine = self._start()

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen(self.engine_command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                bufsize=1)

    def _send(self, line: str) -> bool:
        try:
            assert self.engine.stdin is not None
            self.engine.stdin.write(line + "\n")
            self.engine.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def _relay_until(self, word: str, *, relay: bool = True, hold: bool = False) -> str | None:
        """Pass the engine's lines on until one starts with ``word`` and return that line (not passed on if
        ``hold``); None if the engine ended first."""
        assert self.engine.stdout is not None
        for line in self.engine.stdout:
            found = line.split()[:1] == [word]
            if relay and not (found and hold):
                self._answer(line.rstrip("\n"))
            if found:
                return line.strip()
        return None

    def _answer(self, line: str) -> None:
        self.answers.write(line + "\n")
        self.answers.flush()

    def _restart(self) -> None:
        self.counts["engine restarted"] += 1
        try:
            self.engine.kill()
            self.engine.wait(5)
        except OSError:
            pass
        self.engine = self._start()
        if self._send("uci") and self._relay_until("uciok", relay=False) is not None:
            for option in self.options:
                self._send(option)
            if self._send("isready"):
                self._relay_until("readyok", relay=False)

    def _go(self, line: str) -> None:
        board = self.board
        if board is None:
            self.counts["position unreadable"] += 1
            self._bestmove(None)
            return
        capture = king_capture(board)
        if capture is not None:
            self.counts["king taken by the guard"] += 1
            self._bestmove(capture)
            return
        mended = mend(board, self.last_kings)
        if mended.fen() != board.fen():
            self.counts["position mended"] += 1
        for color in chess.COLORS:
            kings = mended.pieces(chess.KING, color)
            if len(kings) == 1:
                self.last_kings[color] = next(iter(kings))
        capture = king_capture(mended)  # a king put back where it was last seen, within reach (Stockfish dies
        if capture is not None:         # on a board whose player to move can take the enemy king)
            self.counts["king sought where it was last seen"] += 1
            self._bestmove(legal_on(board, capture.uci()) or own_move(board, self.rng))
            return
        if not engine_can_take(mended):
            self.counts["answered by the guard (no king of a side)"] += 1
            self._bestmove(own_move(board, self.rng))
            return
        if not mended.is_valid():
            self.counts["given to Stockfish though python-chess calls it invalid"] += 1
        answer = None
        if self._send(f"position fen {mended.fen()}") and self._send(line):
            answer = self._relay_until("bestmove", hold=True)
        if answer is None:
            self.counts["answered by the guard (Stockfish died)"] += 1
            if os.environ.get("STOCKFISH_GUARD_DEBUG"):
                print(f"stockfish_guard: died on {mended.fen()} (status {int(mended.status())})", file=sys.stderr)
            self._restart()
            self._bestmove(own_move(board, self.rng))
            return
        words = answer.split()
        move = legal_on(board, words[1]) if len(words) > 1 else None
        if move is None:  # legal on the mended board only (a king that was dropped, say)
            self.counts["answered by the guard (Stockfish's move refused on TroutBot's board)"] += 1
            self._bestmove(own_move(board, self.rng))
            return
        self.counts["answered by Stockfish"] += 1
        self._bestmove(move)

    def _bestmove(self, move: chess.Move | None) -> None:
        self._answer(f"bestmove {move.uci() if move else '(none)'}")

    def run(self) -> int:
        for raw in self.commands:
            line = raw.strip()
            word = line.split()[:1]
            if not word:
                continue
            if word == ["quit"]:
                break
            if word == ["position"]:
                self.board = parse_position(line)
            elif word == ["go"]:
                self._go(line)
            elif word == ["uci"]:
                if not (self._send(line) and self._relay_until("uciok") is not None):
                    self._restart()
                    self._answer("uciok")
            elif word == ["isready"]:
                if not (self._send(line) and self._relay_until("readyok") is not None):
                    self._restart()
                    self._answer("readyok")
            elif word == ["setoption"]:
                self.options.append(line)
                self._send(line)
            elif word == ["stop"]:
                continue  # searches here are answered before the next command is read
            elif not self._send(line):
                self._restart()
        self._send("quit")
        try:
            self.engine.wait(5)
        except subprocess.TimeoutExpired:
            self.engine.kill()
        if self.counts:
            print("stockfish_guard: " + ", ".join(f"{what} {n}" for what, n in sorted(self.counts.items())),
                  file=sys.stderr)
        log = os.environ.get("STOCKFISH_GUARD_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as file:
                file.write(json.dumps(dict(self.counts)) + "\n")
        return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: stockfish_guard.py STOCKFISH [ARGS...]", file=sys.stderr)
        return 2
    return Guard(args, sys.stdin, sys.stdout).run()


if __name__ == "__main__":
    sys.exit(main())
