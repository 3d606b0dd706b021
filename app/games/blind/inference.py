"""Blind Chess inference: the opponent positions a seat still considers possible.

What each Blind Chess observation does to the set (see :mod:`app.engine.inference`
for the model; the rules are rulings B1-B6):

- ``GameStarted``: the seat is told only its own pieces. The opponent's start is
  the standard one, or :attr:`InferenceOptions.start_fen` for a custom game (the
  seat's half of it must match what the seat was told).
- ``PieceLost``: remembered until the opponent's turn is expanded: its move
  captured on that square.
- ``TurnStarted`` / ``TurnSkipped`` (and ``GameEnded`` after a lost king): the
  opponent's turn is over. Each hypothesis is replaced by the positions after
  each of its attempts that succeed, keeping those that captured where the seat
  lost a piece (or captured nothing). The seat is never told about a failed
  attempt, so the unchanged board is kept too when no piece was lost and some
  attempt of the opponent would fail there (a pawn aiming diagonally at an empty
  square, a slider aiming past one of the seat's pieces, ...), or when it had no
  attempt at all. After ``TurnSkipped`` the seat's own turn passes.
- ``AttemptResult`` (the seat's own attempt): the hypothesis must give the same
  success or failure (a failed slider or castling means an opponent piece on the
  way; a failed pawn step, one on the path; a failed diagonal, none there and no
  en passant), the same captured piece and exactly the same revealed pieces (for
  a rook, bishop or queen: the first piece on each line from its start square is
  revealed if it is the opponent's, so a line with nothing revealed ends on an
  empty edge or one of the seat's own pieces). The captured piece then leaves.
- ``DrawOffered`` / ``DrawDeclined`` change nothing.

>>> import chess
>>> from app.games.blind.rules import Attempt, BlindChess
>>> game = BlindChess()
>>> game.play(0, Attempt.parse("e2e4"))
>>> black = BlindInference.from_observations(1, game.observations(1))
>>> black.count                  # White's 20 moves, or a failed attempt (e.g. a pawn aiming at an empty d3)
21
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess
from chess import BB_KING_ATTACKS, BB_PAWN_ATTACKS, BB_SQUARES

from app.engine.inference_core import PASS_IF_SOME_ATTEMPT_FAILS, PASS_NEVER, Inference, InferenceError, kernels
from app.engine.inference_reach import exclude, line_of_sight, seen
# How the pieces revealed by the seat's attempt are found on a hypothesis.
from app.engine.inference_vec import BOTH as _BOTH, CASTLE as _CASTLE, DIAGONAL as _DIAGONAL, FIXED as _FIXED
from app.engine.inference_vec import NO_REVEALS as _NO_REVEALS, STRAIGHT as _STRAIGHT
from app.engine.notation import describe_bad_move, is_well_formed
from app.games.blind.rules import (AttemptResult, DrawDeclined, DrawOffered, GameEnded, GameStarted, PieceLost,
                                   TurnSkipped, TurnStarted, _ep_plausible)

_CASTLING_ROOKS = {(chess.E1, chess.G1): chess.H1, (chess.E1, chess.C1): chess.A1,
                   (chess.E8, chess.G8): chess.H8, (chess.E8, chess.C8): chess.A8}


@dataclass(eq=False)
class BlindInference(Inference):
    """The opponent positions still possible for one Blind Chess seat (see the module docstring).

    ``BlindInference(seat, options)``, then :meth:`update` with each observation
    of that seat, in order (or :meth:`from_observations`).
    """

    pending_capture: int | None = None

    def _apply(self, observation: Any) -> None:
        kind = type(observation)
        if kind is GameStarted:
            if self.started:
                raise InferenceError("the game was started twice")
            self._begin(observation)
            return
        if not self.started:
            raise InferenceError(f"{kind.__name__} before GameStarted")
        if kind is TurnStarted:
            self._opponent_done()
        elif kind is TurnSkipped:
            self._opponent_done()
            self._hold = False
            self._remove_captured(None)
            self._own_move_done(None)
        elif kind is AttemptResult:
            self._hold = False  # sampling waits for the seat's own attempt, which filters the most
            self._attempted(observation)
        elif kind is PieceLost:
            if not self.opponent_to_move or self.pending_capture is not None:
                raise InferenceError("told of a lost piece outside the opponent's turn")
            square = observation.square
            if not isinstance(square, int) or not 0 <= square < 64 or self.own.piece_type_at(
                    square) != observation.piece_type:
                raise InferenceError(f"told of a lost piece the seat does not have: {observation!r}")
            self.pending_capture = square
        elif kind is GameEnded:
            if self.opponent_to_move and self.pending_capture is not None:
                self._opponent_done()
            self._hold = False
            self.finished = True
        elif kind is DrawOffered or kind is DrawDeclined:
            pass
        else:
            raise InferenceError(f"not a Blind Chess observation: {observation!r}")

    def _begin(self, observation: GameStarted) -> None:
        try:
            told = chess.Board(observation.fen)
        except ValueError as error:
            raise InferenceError(f"bad starting position: {error}") from None
        fen = self.options.start_fen or chess.STARTING_FEN
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise InferenceError(f"bad start_fen: {error}") from None
        board.castling_rights = board.clean_castling_rights()
        if board.ep_square is not None and not _ep_plausible(board):
            board.ep_square = None
        color = observation.color
        mine = board.occupied_co[color]
        same = all(board.piece_at(square) == told.piece_at(square) for square in chess.SQUARES
                   if (mine | told.occupied) & BB_SQUARES[square])
        if not same or board.turn != told.turn:
            raise InferenceError("the seat's pieces differ from the starting position "
                                 f"{'given as start_fen' if self.options.start_fen else '(the standard one)'}; "
                                 "pass the game's starting FEN as start_fen")
        self._start(color, board)

    def _opponent_done(self) -> None:
        if not self.opponent_to_move:
            return
        capture = self.pending_capture
        self.pending_capture = None
        self._expand(capture, PASS_IF_SOME_ATTEMPT_FAILS if capture is None else PASS_NEVER)
        if capture is not None:
            self._lose_own_piece(capture)

    def _attempted(self, result: AttemptResult) -> None:
        if self.opponent_to_move or self.finished:
            raise InferenceError("an attempt result outside the seat's turn")
        move = result.move
        own = self.own
        if not is_well_formed(move) or not own.occupied_co[self.color] & BB_SQUARES[move.from_square]:
            raise InferenceError(f"the seat has no piece to attempt {describe_bad_move(move)}")
        empty, full, some, ep_is, ep_not, cap_index, cap_bb, reveal_kind, fixed = self._constraints(result)
        expected = [0] * 6
        revealed = 0
        for square, piece in result.reveals:
            if (not isinstance(piece, chess.Piece) or piece.color == self.color or not isinstance(square, int)
                    or not 0 <= square < 64):
                raise InferenceError(f"a reveal of the seat's own piece or a bad square: {square!r}")
            revealed |= BB_SQUARES[square]
            expected[piece.piece_type - 1] |= BB_SQUARES[square]
        if reveal_kind == _NO_REVEALS and revealed:
            raise InferenceError(f"{move.uci()} cannot reveal anything")
        mine = own.occupied
        origin = move.from_square
        rook = _CASTLING_ROOKS.get((origin, move.to_square), 0)
        # Keep the hypotheses for which the referee would have answered the attempt as it did.
        self._rows, self._weights = kernels().sight_select(
            self._rows, self._weights, empty, full, some, ep_is, ep_not, cap_index, cap_bb, reveal_kind, fixed,
            revealed, (expected[0], expected[1], expected[2], expected[3], expected[4], expected[5]),
            rook if reveal_kind == _CASTLE else origin, mine)
        self._reach = self._reach_after_attempt(empty, revealed, expected, reveal_kind, fixed, cap_bb, origin, rook)
        capture = result.capture[1] if result.success and result.capture is not None else None
        self._remove_captured(capture, result.capture[0] if capture is not None and result.capture else None)
        self._own_move_done(move if result.success else None)

    def _reach_after_attempt(self, empty: int, revealed: int, expected: list[int], reveal_kind: int, fixed: int,
                             cap_bb: int, origin: int, rook: int) -> tuple[int, int, int, int, int, int]:
        """What the answer to the seat's attempt rules out for certain (see :mod:`.inference_reach`): the
        squares it proved empty, the pieces it revealed, and the squares its reveals looked at and found
        without an opponent piece (the captured one aside)."""
        reach = seen(exclude(self._reach, empty), revealed,
                     (expected[0], expected[1], expected[2], expected[3], expected[4], expected[5]))
        mine = self.own.occupied
        stops = revealed | cap_bb
        if reveal_kind == _FIXED:
            reach = exclude(reach, fixed & ~stops)
        elif reveal_kind in (_STRAIGHT, _DIAGONAL, _BOTH):
            reach = exclude(reach, line_of_sight(origin, reveal_kind != _DIAGONAL, reveal_kind != _STRAIGHT, mine,
                                                 stops))
        elif reveal_kind == _CASTLE:
            reach = exclude(reach, (fixed & ~stops) | line_of_sight(rook, True, False, mine, stops))
        return reach

    def _constraints(self, result: AttemptResult) -> tuple[int, int, int, int, int, int, int, int, int]:
        """What the answer to the seat's attempt says about the opponent (rulings B2-B4 read backwards).

        Returns (``empty``, ``full``, ``some``, ``ep_is``, ``ep_not``) as in RBC's
        ``_constraints``, then the captured piece's index in a hypothesis and its
        square's bitboard (-1, 0: no capture), how to find the revealed pieces, and
        the fixed squares looked at (king and pawn attempts, castling's king).
        Raises :class:`InferenceError` for an answer the rules cannot give.
        """
        own = self.own
        move, success = result.move, result.success
        origin, target = move.from_square, move.to_square
        to_bb = BB_SQUARES[target]
        forward = 8 if self.color == chess.WHITE else -8
        bad = InferenceError(f"the referee cannot answer the attempt {move.uci()} with {result!r}")
        capture = result.capture if success else None
        if not success and (result.capture is not None or result.reveals):
            raise bad
        cap_index, cap_bb = -1, 0
        if capture is not None:
            lost_type, square = capture
            if lost_type not in chess.PIECE_TYPES or not isinstance(square, int) or not 0 <= square < 64:
                raise bad
            cap_index, cap_bb = lost_type - 1, BB_SQUARES[square]
        piece_type = own.piece_type_at(origin)
        rook = _CASTLING_ROOKS.get((origin, target))
        if piece_type == chess.KING and rook is not None:
            between = chess.between(origin, rook)
            if capture is not None:
                raise bad
            if not success:
                return 0, 0, between, 0, 0, -1, 0, _NO_REVEALS, 0
            return between, 0, 0, 0, 0, -1, 0, _CASTLE, BB_KING_ATTACKS[origin]
        if piece_type == chess.PAWN:
            ahead = target + forward
            beyond = BB_SQUARES[ahead] if 0 <= ahead < 64 else 0
            diagonals = BB_PAWN_ATTACKS[self.color][origin]
            if target - origin == forward:
                if capture is not None:
                    raise bad
                if not success:
                    return 0, to_bb, 0, 0, 0, -1, 0, _NO_REVEALS, 0
                return to_bb, 0, 0, 0, 0, -1, 0, _FIXED, diagonals | beyond
            if target - origin == 2 * forward:
                path = to_bb | BB_SQUARES[origin + forward]
                if capture is not None:
                    raise bad
                if not success:
                    return 0, 0, path, 0, 0, -1, 0, _NO_REVEALS, 0
                return path, 0, 0, 0, 0, -1, 0, _FIXED, diagonals | beyond
            if not to_bb & diagonals:
                raise bad
            if not success:
                return to_bb, 0, 0, 0, target, -1, 0, _NO_REVEALS, 0
            if capture is None:
                raise bad
            if capture[1] == target:
                return 0, to_bb, 0, 0, 0, cap_index, cap_bb, _FIXED, diagonals
            if capture == (chess.PAWN, target - forward):
                return 0, 0, 0, target, 0, cap_index, cap_bb, _FIXED, diagonals
            raise bad
        if capture is not None and capture[1] != target:
            raise bad
        landing = (0, to_bb) if capture is not None else (to_bb, 0)
        if piece_type in (chess.KNIGHT, chess.KING):
            if not success:
                raise bad
            if piece_type == chess.KNIGHT:
                return landing[0], landing[1], 0, 0, 0, cap_index, cap_bb, _NO_REVEALS, 0
            return landing[0], landing[1], 0, 0, 0, cap_index, cap_bb, _FIXED, BB_KING_ATTACKS[origin]
        path = chess.between(origin, target)
        if not success:
            return 0, 0, path, 0, 0, -1, 0, _NO_REVEALS, 0
        kind = {chess.ROOK: _STRAIGHT, chess.BISHOP: _DIAGONAL, chess.QUEEN: _BOTH}.get(piece_type or 0)
        if kind is None:
            raise bad
        return path | landing[0], landing[1], 0, 0, 0, cap_index, cap_bb, kind, 0


__all__ = ["BlindInference"]
