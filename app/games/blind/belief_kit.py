"""Blind Chess's part of the belief board kit (:mod:`app.engine.belief`): what a seat knows
square by square, and the types of the pieces it captured. The definition's ``belief`` points at :data:`KIT`."""

from __future__ import annotations

from typing import Any

import chess

from app.engine.belief import (BeliefKit, Fact, PieceType, _castled_across, _is_pawn_move, _passed_and_landed,
                               kept_facts, turn_number)
from app.games.blind.rules import BlindChessView, PieceLost


def facts(view: BlindChessView) -> dict[int, Fact]:
    """What a Blind Chess seat knows square by square (see :func:`app.engine.belief.knowledge`): its
    successful moves and captures, the pieces they revealed, the squares where they would have revealed one
    and did not (rule B4), its pawns' captures that failed (no enemy piece stood there) and where it lost pieces
    (except a pawn that had just stepped two squares: it may have been taken en passant)."""
    return kept_facts(view, (len(view.results), len(view.lost)), _facts)


def _facts(view: BlindChessView) -> dict[int, Fact]:
    facts: dict[int, Fact] = {}
    events: list[tuple[int, int, Any]] = [(result.ply, 1, (result, written))
                                          for result, written in zip(view.results, view.written)]
    events += [(lost.ply, 0, lost) for lost in view.lost]
    boards = _blind_boards_before(view)
    last: Any = None  # the seat's latest attempt so far
    for ply, _, event in sorted(events, key=lambda item: (item[0], item[1])):
        turn = turn_number(ply)
        if isinstance(event, PieceLost):
            square = event.square
            if (event.piece_type == chess.PAWN and last is not None and last[0].success
                    and last[0].move.to_square == square
                    and _is_pawn_move(last[0].move, last[1], None if boards is None else boards.get(last[0].ply))
                    and abs(last[0].move.to_square - last[0].move.from_square) == 16):
                # Maybe taken en passant: the taker stands on this square or on the one the pawn passed over.
                facts.pop(square, None)
                facts.pop((last[0].move.to_square + last[0].move.from_square) // 2, None)
            else:
                facts[square] = Fact(ply, "occupied", None, f"an enemy piece captured yours here on turn {turn}")
            continue
        last = event
        result, written = event
        if not result.success:
            if _is_pawn_move(result.move, written) and chess.square_file(result.move.from_square) != chess.square_file(
                    result.move.to_square):
                # A pawn's capture fails only when no enemy piece stands on its square (rule B2).
                facts[result.move.to_square] = Fact(ply, "empty", None,
                                                    f"your pawn's capture {result.move.uci()} failed on turn {turn}")
            continue
        capture = result.capture
        if boards is not None and ply in boards:
            quiet = _unrevealed(boards[ply], result.move, {square for square, _ in result.reveals},
                                None if capture is None else capture[1])
            for square in quiet:
                facts[square] = Fact(ply, "empty", None,
                                     f"your move {result.move.uci()} on turn {turn} revealed no piece here")
        _castled_across(result.move, written, ply, facts)  # king and rook crossed every square between them
        _passed_and_landed(result.move, None if capture is None else capture[1], ply, facts)
        if capture is not None:
            captured_type, square = capture
            facts[square] = Fact(ply, "captured", captured_type,
                                 f"you captured a {chess.piece_name(captured_type)} here on turn {turn}")
        for square, piece in result.reveals:
            facts[square] = Fact(ply, "piece", piece.piece_type,
                                 f"a {chess.piece_name(piece.piece_type)} was revealed here on turn {turn}")
    return facts


def _blind_boards_before(view: BlindChessView) -> dict[int, chess.Board] | None:
    """The seat's own pieces before each of its successful moves, by ply, or ``None`` if they do not add up.

    The view keeps only the current own board, so the earlier ones are rebuilt by
    taking back, newest first, the seat's moves (promotions and castling included) and
    its losses (whose piece types Blind Chess tells).
    """
    board = view.own_board.copy(stack=False)
    color = view.color
    events: list[tuple[int, Any]] = [(result.ply, result) for result in view.results if result.success]
    events += [(lost.ply, lost) for lost in view.lost]
    before: dict[int, chess.Board] = {}
    for ply, event in sorted(events, key=lambda item: item[0], reverse=True):
        if not hasattr(event, "move"):  # a lost piece comes back
            if board.piece_at(event.square) is not None:
                return None
            board.set_piece_at(event.square, chess.Piece(event.piece_type, color))
            continue
        move: chess.Move = event.move
        piece = board.piece_at(move.to_square)
        if piece is None or piece.color != color or board.piece_at(move.from_square) is not None:
            return None
        board.remove_piece_at(move.to_square)
        if move.promotion:
            piece = chess.Piece(chess.PAWN, color)
        from_file, to_file = chess.square_file(move.from_square), chess.square_file(move.to_square)
        if piece.piece_type == chess.KING and abs(to_file - from_file) == 2:  # castling: the rook goes home
            rank = chess.square_rank(move.from_square)
            rook_from, rook_to = (chess.square(7, rank), chess.square(5, rank)) if to_file > from_file else (
                chess.square(0, rank), chess.square(3, rank))
            rook = board.remove_piece_at(rook_to)
            if rook is None or rook.piece_type != chess.ROOK or board.piece_at(rook_from) is not None:
                return None
            board.set_piece_at(rook_from, rook)
        board.set_piece_at(move.from_square, piece)
        before[ply] = board.copy(stack=False)
    return before


_STEPS: dict[PieceType, tuple[tuple[int, int], ...]] = {
    chess.ROOK: ((0, 1), (0, -1), (1, 0), (-1, 0)),
    chess.BISHOP: ((1, 1), (1, -1), (-1, 1), (-1, -1)),
}
_STEPS[chess.QUEEN] = _STEPS[chess.ROOK] + _STEPS[chess.BISHOP]


def _unrevealed(own: chess.Board, move: chess.Move, revealed: set[int], captured: int | None) -> set[int]:
    """The squares where ``move`` would have revealed an enemy piece (rule B4) and revealed none.

    ``own`` holds the seat's pieces before the move. A square with an own piece tells
    nothing new and is left out, as are the revealed and the captured squares.
    """
    color = own.color_at(move.from_square)
    piece_type = own.piece_type_at(move.from_square)
    if color is None or piece_type is None:
        return set()
    singles: int = 0
    rays: list[tuple[int, tuple[int, int]]] = []
    from_file, to_file = chess.square_file(move.from_square), chess.square_file(move.to_square)
    if piece_type == chess.KING:
        singles = chess.BB_KING_ATTACKS[move.from_square]
        if abs(to_file - from_file) == 2:  # castling: the rook's rule from the rook's square too
            rook = chess.square(7 if to_file > from_file else 0, chess.square_rank(move.from_square))
            rays = [(rook, step) for step in _STEPS[chess.ROOK]]
    elif piece_type in _STEPS:
        rays = [(move.from_square, step) for step in _STEPS[piece_type]]
    elif piece_type == chess.PAWN:
        singles = chess.BB_PAWN_ATTACKS[color][move.from_square]
        if from_file == to_file:
            ahead = move.to_square + (8 if color == chess.WHITE else -8)
            if 0 <= ahead < 64:
                singles |= chess.BB_SQUARES[ahead]
    stop = own.occupied | chess.SquareSet(revealed).mask
    if captured is not None:
        stop |= chess.BB_SQUARES[captured]
    quiet = set(chess.scan_forward(singles & ~stop))
    for origin, (df, dr) in rays:
        file, rank = chess.square_file(origin) + df, chess.square_rank(origin) + dr
        while 0 <= file < 8 and 0 <= rank < 8:
            square = chess.square(file, rank)
            if stop & chess.BB_SQUARES[square]:
                break  # the walk ends on the first piece: an own one, the revealed or the captured one
            quiet.add(square)
            file, rank = file + df, rank + dr
    return quiet


def captured_types(view: BlindChessView) -> list[PieceType | None]:
    """The type of each piece the seat captured, in order (Blind Chess always tells it)."""
    return [capture.piece_type for capture in view.captures]


KIT = BeliefKit(facts, captured_types)
"""What the definition's ``belief`` points at."""
