"""A move written as its mover knows it: standard algebraic notation from the mover's own pieces only.

In the games of hidden pieces a seat's board holds its own pieces, so python-chess's ``Board.san`` (which needs
a legal move on the whole board, and adds ``+`` or ``#`` from the enemy king) cannot write a seat's moves: a
pawn's capture onto a square that looks empty is no move of that board, and whether a move gave check is what
the seat does not know. :func:`own_san` writes the move the way a player would on their score sheet: the piece,
the capture the seat was told of, the destination, the promotion, and the file or rank that tells apart two of
the seat's own pieces able to reach the same square. Never a check sign.

>>> import chess
>>> board = chess.Board()
>>> own_san(board, chess.Move.from_uci("g1f3"), capture=False)
'Nf3'
>>> own_san(board, chess.Move.from_uci("e2d3"), capture=True)
'exd3'
"""

from __future__ import annotations

import chess

__all__ = ["describe_bad_move", "is_well_formed", "own_san"]


def own_san(board: chess.Board, move: chess.Move, capture: bool) -> str:
    """``move`` in SAN as the owner of ``board``'s moving piece writes it, before it is played on ``board``.

    ``capture`` says whether the move took something (as the seat was told; a pawn moving diagonally is written
    as a capture either way). Only ``board``'s pieces of the mover's colour are read: enemy pieces, if any, do
    not change how the move is written. A square without a piece (a stale move) is written in coordinates.

    >>> import chess
    >>> board = chess.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    >>> own_san(board, chess.Move.from_uci("e1g1"), capture=False), own_san(board, chess.Move.from_uci("a1d1"),
    ...                                                                     capture=False)
    ('O-O', 'Rd1')
    >>> own_san(chess.Board("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"), chess.Move.from_uci("a1d1"), capture=True)
    'Raxd1'
    >>> own_san(chess.Board("8/P7/8/8/8/8/8/4K3 w - - 0 1"), chess.Move.from_uci("a7a8q"), capture=False)
    'a8=Q'
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        return move.uci()
    to_name = chess.square_name(move.to_square)
    promotion = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
    from_file = chess.square_file(move.from_square)
    if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - from_file) == 2:
        return "O-O" if chess.square_file(move.to_square) > from_file else "O-O-O"
    if piece.piece_type == chess.PAWN:
        if capture or chess.square_file(move.to_square) != from_file:
            return f"{chess.FILE_NAMES[from_file]}x{to_name}{promotion}"
        return f"{to_name}{promotion}"
    # The seat's other pieces of this kind that reach the same square through its own pieces alone.
    mine = _only(board, board.occupied_co[piece.color])
    mask = chess.BB_SQUARES[move.to_square]
    others = [square for square in chess.scan_forward(mine.pieces_mask(piece.piece_type, piece.color) & ~mask)
              if square != move.from_square and mine.attacks_mask(square) & mask]
    which = ""
    if others:
        if all(chess.square_file(square) != from_file for square in others):
            which = chess.FILE_NAMES[from_file]
        elif all(chess.square_rank(square) != chess.square_rank(move.from_square) for square in others):
            which = chess.RANK_NAMES[chess.square_rank(move.from_square)]
        else:
            which = chess.square_name(move.from_square)
    return f"{piece.symbol().upper()}{which}{'x' if capture else ''}{to_name}{promotion}"


def _only(board: chess.Board, mask: chess.Bitboard) -> chess.Board:
    """``board`` with only the pieces on ``mask`` (a sliding piece's reach then stops at the seat's own pieces
    only)."""
    if board.occupied == mask:
        return board
    return board.transform(lambda bitboard: bitboard & mask)


def is_well_formed(move: object) -> bool:
    """A :class:`chess.Move` between two real squares, with no drop and a promotion that is a piece type."""
    return (isinstance(move, chess.Move) and type(move.from_square) is int and type(move.to_square) is int
            and 0 <= move.from_square < 64 and 0 <= move.to_square < 64 and move.drop is None
            and move.promotion in (None, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING,
                                   chess.PAWN))


def describe_bad_move(move: object) -> str:
    """Words for something that should have been a move, safe for any object."""
    if isinstance(move, chess.Move):
        return (f"Move(from_square={move.from_square!r}, to_square={move.to_square!r}, "
                f"promotion={move.promotion!r})")
    text = repr(move)
    return text if len(text) <= 80 else text[:77] + "..."
