"""Reconnaissance Blind Chess inference: the opponent positions a seat still considers possible.

What each RBC observation does to the set (see :mod:`app.engine.inference` for the model):

- ``GameStarted``: the starting position is public, so the set is that one position.
- ``TurnStarted``: the opponent has moved (when it was its turn). Every hypothesis
  is expanded by every move action, revised as the referee revises it, and the
  pass; only successors that captured on ``capture_square`` (or captured nothing,
  when it is ``None``) are kept. Then the seat's lost piece leaves its own board.
- ``SenseResult``: the opponent's pieces inside the window must be exactly those shown.
- ``MoveResult``: the referee's answer to the seat's requested move (the move taken
  and the capture square) must be what the hypothesis predicts: a sliding piece
  stopped short means an opponent piece there and none before it; a pawn step that
  moved nothing means a piece in the way; a pawn diagonal that moved means a piece
  or an en-passant square there; castling not played means a piece between king and
  rook. The captured piece then leaves every hypothesis.
- ``GameEnded``: when the opponent's move captured the seat's king, that move is
  expanded like a turn start, so the final set still holds the final position.

>>> import chess
>>> from app.games.rbc.rules import ReconChess, Sense, MoveAction
>>> game = ReconChess()
>>> game.play(0, Sense(chess.E7)); game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
>>> game.play(1, Sense(chess.E2)); game.play(1, MoveAction(chess.Move.from_uci("a7a6")))
>>> white = RbcInference.from_observations(0, game.observations(0))
>>> white.count                          # Black's 20 moves and the pass
21
>>> game.play(0, Sense(chess.E7))        # d7, e7, f7 are still there, nothing landed on f6 or d6/e6
>>> white.update(game.observations(0)[-1])
>>> white.count
14
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import chess
from chess import BB_SQUARES

from app.engine.core import Outcome, Reason
from app.engine.inference_core import PASS_ALWAYS, PASS_NEVER, Inference, InferenceError, kernels
from app.engine.inference_reach import exclude, seen
from app.engine.notation import describe_bad_move, is_well_formed
from app.games.rbc.moves import with_default_promotion
from app.games.rbc.rules import GameEnded, GameStarted, MoveResult, SenseResult, TurnStarted


@dataclass(eq=False)
class RbcInference(Inference):
    """The opponent positions still possible for one RBC seat (see the module docstring).

    ``RbcInference(seat, options)``, then :meth:`update` with each observation of
    that seat, in order (or :meth:`from_observations`).
    """

    # The sense that follows an expansion is the strongest filter there is: sample only after it, from
    # an expanded set of up to 40 times the cap (an expansion from ``cap`` positions makes about 20-35 times).
    _hold_factor: ClassVar[int] = 40

    def _apply(self, observation: Any) -> None:
        kind = type(observation)
        if kind is GameStarted:
            if self.started:
                raise InferenceError("the game was started twice")
            try:
                board = chess.Board(observation.fen)
            except ValueError as error:
                raise InferenceError(f"bad starting position: {error}") from None
            self._start(observation.color, board)
            return
        if not self.started:
            raise InferenceError(f"{kind.__name__} before GameStarted")
        if kind is TurnStarted:
            self._turn_started(observation.capture_square)
            return
        self._hold = False  # sampling waits for this: the seat's sense (or move, or the end)
        if kind is SenseResult:
            self._sensed(observation)
        elif kind is MoveResult:
            self._moved(observation)
        elif kind is GameEnded:
            self._ended(observation.outcome)
        else:
            raise InferenceError(f"not an RBC observation: {observation!r}")

    def _turn_started(self, capture: int | None) -> None:
        if self.opponent_to_move:
            if capture is not None and not self.own.occupied & BB_SQUARES[capture]:
                raise InferenceError(f"told of a capture on {chess.square_name(capture)}, "
                                     "where the seat has no piece")
            self._expand(capture, PASS_ALWAYS if capture is None else PASS_NEVER)
        elif capture is not None:
            raise InferenceError("told of a capture although the opponent did not move")
        if capture is not None:
            self._lose_own_piece(capture)

    def _ended(self, outcome: Outcome) -> None:
        self.finished = True
        if (self.opponent_to_move and outcome.reason == Reason.KING_CAPTURE and outcome.winner == 1 - self.seat
                and self.own.kings):
            king = self.own.king(self.color)
            if king is not None:
                self._expand(king, PASS_NEVER)
                self._lose_own_piece(king)

    def _sensed(self, result: SenseResult) -> None:
        if self.opponent_to_move or self.finished:
            raise InferenceError("a sense result outside the seat's turn")
        if result.square is None:
            return
        window = 0
        expected = [0] * 6
        own = self.own
        for square, piece in result.window:
            if not isinstance(square, int) or not 0 <= square < 64 or not (piece is None
                                                                           or isinstance(piece, chess.Piece)):
                raise InferenceError(f"a sense result with a bad entry: {(square, piece)!r}")
            bb = BB_SQUARES[square]
            window |= bb
            mine = own.piece_at(square)
            if piece is not None and piece.color == self.color:
                if mine != piece:
                    raise InferenceError(f"the sense result shows {piece.symbol()} on {chess.square_name(square)}, "
                                         "which is not the seat's own piece there")
            else:
                if mine is not None:
                    raise InferenceError(f"the sense result does not show the seat's own piece on "
                                         f"{chess.square_name(square)}")
                if piece is not None:
                    expected[piece.piece_type - 1] |= bb
        # The six piece fields of each hypothesis, seen through the window, must be what was shown.
        shown = (expected[0], expected[1], expected[2], expected[3], expected[4], expected[5])
        self._rows, self._weights = kernels().select(self._rows, self._weights, window, shown, 0, 0, 0, 0, 0)
        self._reach = seen(self._reach, window, shown)

    def _moved(self, result: MoveResult) -> None:
        if self.opponent_to_move or self.finished:
            raise InferenceError("a move result outside the seat's turn")
        requested, taken, capture = result.requested, result.taken, result.capture_square
        keep = None
        if requested is None:
            if taken is not None or capture is not None:
                raise InferenceError("a pass that moved or captured")
        else:
            if not is_well_formed(requested) or not self.own.occupied_co[self.color] & BB_SQUARES[
                    requested.from_square] or (taken is not None and not is_well_formed(taken)):
                raise InferenceError(f"the seat has no piece to make the move {describe_bad_move(requested)}")
            empty, full, some, ep_is, ep_not = self._constraints(with_default_promotion(self.own, requested),
                                                                 taken, capture)
            self._reach = exclude(self._reach, empty)
            # Kept in the same pass over the set as the capture and en passant are forgotten.
            keep = (0, (0, 0, 0, 0, 0, 0), empty, full, some, ep_is, ep_not)
        self._remove_captured(capture, keep=keep)
        self._own_move_done(taken)

    def _constraints(self, move: chess.Move, taken: chess.Move | None,
                     capture: int | None) -> tuple[int, int, int, int, int]:
        """What the referee's answer (``taken``, ``capture``) to the seat's ``move`` says about the opponent.

        Returns masks (``empty``: no opponent piece there; ``full``: an opponent piece on each;
        ``some``: an opponent piece on at least one) and the en-passant square a hypothesis must
        have (``ep_is``) or must not have (``ep_not``), 0 for no condition. These are the rules of
        :func:`app.games.rbc.moves.revise_move` and ``capture_square`` read backwards; an answer
        those rules cannot give raises :class:`InferenceError`.
        """
        own = self.own
        origin, target = move.from_square, move.to_square
        from_bb, to_bb = BB_SQUARES[origin], BB_SQUARES[target]
        bad = InferenceError(f"the referee cannot answer {move.uci()} with "
                             f"{taken.uci() if taken else 'no move'} and capture square {capture!r}")
        if own.pawns & from_bb:
            diff = target - origin
            if diff in (8, -8):
                if capture is not None:
                    raise bad
                if taken is None:
                    return 0, to_bb, 0, 0, 0
                if taken != move:
                    raise bad
                return to_bb, 0, 0, 0, 0
            if diff in (16, -16):
                middle = origin + diff // 2
                mid_bb = BB_SQUARES[middle]
                if capture is not None:
                    raise bad
                if taken is None:
                    return 0, mid_bb, 0, 0, 0
                if taken == move:
                    return mid_bb | to_bb, 0, 0, 0, 0
                if taken.from_square == origin and taken.to_square == middle:
                    return mid_bb, to_bb, 0, 0, 0
                raise bad
            if taken is None:
                if capture is not None:
                    raise bad
                return to_bb, 0, 0, 0, target
            if taken != move:
                raise bad
            if capture == target:
                return 0, to_bb, 0, 0, 0
            if capture == (target - 8 if self.color == chess.WHITE else target + 8):
                return 0, 0, 0, target, 0
            raise bad
        if own.kings & from_bb and abs(target - origin) == 2 and origin in (chess.E1, chess.E8):
            rook = chess.square(7 if target > origin else 0, chess.square_rank(origin))
            between = chess.between(origin, rook)
            if capture is not None:
                raise bad
            if taken is None:
                return 0, 0, between, 0, 0
            if taken != move:
                raise bad
            return between, 0, 0, 0, 0
        if own.knights & from_bb or own.kings & from_bb:
            if taken != move or capture not in (None, target):
                raise bad
            return (0, to_bb, 0, 0, 0) if capture is not None else (to_bb, 0, 0, 0, 0)
        # Rook, bishop, queen: stopped on the first opponent piece, or went all the way.
        if taken is None or taken.from_square != origin or taken.promotion:
            raise bad
        stop = taken.to_square
        stop_bb = BB_SQUARES[stop]
        if stop != target and not (chess.between(origin, target) & stop_bb and capture == stop):
            raise bad
        if capture is not None and capture != stop:
            raise bad
        path = chess.between(origin, stop)
        return (path, stop_bb, 0, 0, 0) if capture is not None else (path | stop_bb, 0, 0, 0, 0)


__all__ = ["RbcInference"]
