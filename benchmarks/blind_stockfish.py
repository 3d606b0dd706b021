"""A Blind Chess opponent built on Stockfish, to measure Sightline's ``belief`` bot against (issue 32).

No program plays Blind Chess but Sightline, so there is no StrangeFish2 of this game to find. This is the
strongest simple opponent we could build in the spirit of reconchess's TroutBot: it keeps **one** guessed board
(the enemy army where it started, moved only by what the referee tells) and asks Stockfish what to play there.

- Guesses: the enemy's pieces start on their usual squares. A reveal puts the piece seen on its square (and,
  when the enemy cannot have one more of that kind, takes away the guessed one nearest to it: it moved there);
  a capture of ours removes the captured guess; a piece of ours taken makes the guessed enemy piece that
  attacks that square (the cheapest) move there, else the nearest guessed piece that is not a pawn.
- A move: a capture of the guessed king if an attempt reaches it; else Stockfish's best move on the guessed
  board among the attempts that are legal chess moves there (``root_moves``), leaving out attempts that failed
  on the last two turns; else a random attempt. Stockfish runs behind ``stockfish_guard.py`` (one thread, 64 MB
  hash), so a guessed board it cannot take never stops it; it thinks ``min(0.5 s, a 60th of the clock)``.
- It declines every draw offer and never offers one.

It is not part of the app (it needs Stockfish and lives beside the benchmarks); ``benchmarks/levels.py --against
benchmarks/blind_stockfish.py:BlindStockfishBot`` plays the ``belief`` bot against it.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any, ClassVar

import chess
import chess.engine

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action, Resign, Seat
from app.games.blind.rules import AnswerDraw, Attempt, AttemptResult, BlindChessView, GameStarted, PieceLost

HERE = Path(__file__).resolve().parent
STOCKFISH = os.environ.get("STOCKFISH_EXECUTABLE", "/usr/games/stockfish")
MOST = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1, chess.KING: 1}
"""How many of a kind the enemy can have without promotions (a sighting beyond that moved a guessed piece)."""
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


class BlindStockfishBot(Bot):
    """One guessed board and Stockfish on it (see the module)."""

    variant: ClassVar[str] = "blind"
    name: ClassVar[str] = "stockfish-guess"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = BlindChessView()
        self.guess: dict[chess.Square, chess.Piece] = {}
        self.failed: dict[chess.Move, int] = {}
        self.engine: chess.engine.SimpleEngine | None = None

    # -- what it is told -------------------------------------------------------------------------------------
    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = BlindChessView()
        self.guess, self.failed = {}, {}
        if self.engine is None:
            self.engine = chess.engine.SimpleEngine.popen_uci(
                [sys.executable, str(HERE / "stockfish_guard.py"), STOCKFISH])
            self.engine.configure({"Threads": 1, "Hash": 64})

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)
        if isinstance(observation, GameStarted):
            self.guess = {square: piece for square, piece in chess.Board().piece_map().items()
                          if piece.color != observation.color}
        elif isinstance(observation, AttemptResult):
            if not observation.success:
                self.failed[observation.move] = observation.ply
                return
            if observation.capture is not None:
                self.guess.pop(observation.capture[1], None)
            self.guess.pop(observation.move.to_square, None)
            for square, piece in observation.reveals:
                self._seen(square, piece)
        elif isinstance(observation, PieceLost):
            self._arrived(observation.square)

    def _seen(self, square: chess.Square, piece: chess.Piece) -> None:
        if self.guess.get(square) == piece:
            return
        others = [at for at, guessed in self.guess.items() if guessed == piece and at != square]
        if len(others) + 1 > MOST[piece.piece_type] and others:
            del self.guess[min(others, key=lambda at: chess.square_distance(at, square))]
        self.guess[square] = piece

    def _arrived(self, square: chess.Square) -> None:
        board = self._board()
        enemy = not self.view.color
        attackers = [at for at in board.attackers(enemy, square) if at in self.guess]
        if not attackers:
            attackers = [at for at, piece in self.guess.items() if piece.piece_type != chess.PAWN] or list(self.guess)
            if not attackers:
                return
            mover = min(attackers, key=lambda at: chess.square_distance(at, square))
        else:
            mover = min(attackers, key=lambda at: VALUE[self.guess[at].piece_type])
        self.guess[square] = self.guess.pop(mover)

    def _board(self) -> chess.Board:
        board = self.view.own_board.copy(stack=False)
        for square, piece in list(self.guess.items()):
            if board.piece_at(square) is None:
                board.set_piece_at(square, piece)
            elif piece.piece_type == chess.KING:  # a guess our own piece stands on: the king is nearby
                empty = [at for at in chess.SQUARES if board.piece_at(at) is None and at not in self.guess]
                if empty:
                    near = min(empty, key=lambda at: chess.square_distance(at, square))
                    self.guess[near] = self.guess.pop(square)
                    board.set_piece_at(near, piece)
        board.turn = self.view.color
        board.castling_rights = board.clean_castling_rights()
        board.ep_square = None
        return board

    # -- what it does ------------------------------------------------------------------------------------------
    def act(self, request: ActionRequest) -> Action:
        if request.phase == "answer_draw" or request.choices.get("answer_draw"):
            return AnswerDraw(False)
        attempts: list[chess.Move] = list(request.choices.get("attempts") or self.view.attempts())
        if not attempts:
            return Resign()
        board = self._board()
        king = next((at for at, piece in self.guess.items() if piece.piece_type == chess.KING), None)
        if king is not None:
            takes = [move for move in attempts if move.to_square == king and board.is_pseudo_legal(move)]
            if takes:
                return Attempt(min(takes, key=lambda move: VALUE[board.piece_type_at(move.from_square) or 1]))
        recent = {move for move, ply in self.failed.items() if ply >= self.view.ply - 4}
        candidates = [move for move in attempts if move not in recent and board.is_legal(move)]
        if candidates and self.engine is not None:
            seconds = request.seconds_left
            think = 0.5 if math.isinf(seconds) else max(0.02, min(0.5, seconds / 60))
            try:
                played = self.engine.play(board, chess.engine.Limit(time=think), root_moves=candidates).move
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                played = None
            if played in attempts:
                return Attempt(played)
        fresh = [move for move in attempts if move not in recent] or attempts
        return Attempt(self.rng.choice(fresh))

    def end(self, outcome: Any) -> None:
        if self.engine is not None:
            try:
                self.engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                pass
            self.engine = None
