"""Cloak and Dagger's rules of moving: python-chess's pseudo-legal moves with check judged our own way (from
visible pieces only; a cloaked king ignores check), Chess960 castling, and the bonus move's pawn moves and drops.

Every function reads the enemy's piece types only on squares it may see, so a seat's view, whose unknown enemy
checkers are placeholders, finds the same moves as the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from app.engine.core import Seat
from app.games.cloak.checkers import WHITE, back_rank, chess_colour


def with_turn(board: chess.Board, seat: int) -> chess.Board:
    board.turn = chess_colour(seat)
    return board


def attacked_by_visible(board: chess.Board, seat: int, square: chess.Square, visible: int,
                        occupied: int | None = None) -> bool:
    """Whether a visible piece of ``seat``'s enemy attacks ``square`` (cloaked checkers block but never
    attack). ``visible`` is a mask of the squares of visible pieces."""
    return bool(board.attackers_mask(not chess_colour(seat), square, occupied) & visible)


@dataclass(frozen=True)
class Knowledge:
    """What the rules of check need besides the board, all of it known to the seat to move:

    ``visible_enemy``: squares of the enemy's visible pieces (pawns, uncloaked and promoted pieces);
    ``king_square``: the mover's king; ``king_cloaked``: whether it is cloaked (then it ignores check);
    ``maybe_kings``: enemy squares whose capture may be a king capture as far as the mover knows (the
    enemy's visible or told king, and every cloaked checker not publicly known to be something else):
    such a capture is always allowed, since a king capture is.
    """

    visible_enemy: int
    king_square: chess.Square | None
    king_cloaked: bool
    maybe_kings: int


def _leaves_king_safe(board: chess.Board, seat: int, move: chess.Move, known: Knowledge) -> bool:
    if known.king_cloaked or known.king_square is None:
        return True
    if chess.BB_SQUARES[move.to_square] & known.maybe_kings:
        return True
    # The board after the move, as occupancy only: enemy attacks need nothing else (pushing a copy is slow).
    from_bb, to_bb = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    if board.is_castling(move):
        king, rook_to = castling_destinations(seat, move.from_square, move.to_square)
        occupied = (board.occupied & ~from_bb & ~to_bb) | chess.BB_SQUARES[king] | chess.BB_SQUARES[rook_to]
        return not attacked_by_visible(board, seat, king, known.visible_enemy, occupied)
    king = move.to_square if move.from_square == known.king_square else known.king_square
    taken = to_bb
    if board.is_en_passant(move):
        taken = chess.BB_SQUARES[move.to_square + (-8 if seat == WHITE else 8)]
    occupied = (board.occupied & ~from_bb & ~taken) | to_bb
    return not attacked_by_visible(board, seat, king, known.visible_enemy & ~taken, occupied)


def castling_moves_on(board: chess.Board, seat: int, known: Knowledge) -> list[chess.Move]:
    """Chess960 castling for ``seat`` (king onto own rook form). Every square between each piece's start and
    end must be empty apart from those two; an uncloaked king may not start on, pass or land on a square
    attacked by a visible enemy piece."""
    colour = chess_colour(seat)
    king = board.king(colour)
    rank = back_rank(seat)
    if king is None or chess.square_rank(king) != rank:
        return []
    found = []
    rooks = board.clean_castling_rights() & board.rooks & board.occupied_co[colour] & chess.BB_RANKS[rank]
    for rook in chess.scan_forward(rooks):
        king_side = rook > king
        king_to = chess.square(6 if king_side else 2, rank)
        rook_to = chess.square(5 if king_side else 3, rank)
        path = (chess.between(king, king_to) | chess.BB_SQUARES[king_to]
                | chess.between(rook, rook_to) | chess.BB_SQUARES[rook_to])
        if path & board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]:
            continue
        if not known.king_cloaked:
            walk = chess.between(king, king_to) | chess.BB_SQUARES[king] | chess.BB_SQUARES[king_to]
            without_king = board.occupied & ~chess.BB_SQUARES[king]
            if any(attacked_by_visible(board, seat, square, known.visible_enemy, without_king)
                   for square in chess.scan_forward(walk)):
                continue
        found.append(chess.Move(king, rook))
    return found


def legal_moves_on(board: chess.Board, seat: int, known: Knowledge, pawns_only: bool = False) -> list[chess.Move]:
    """``seat``'s moves under the Cloak and Dagger rules: python-chess's pseudo-legal moves (castling our
    own way) that do not leave the mover's uncloaked king attacked by a visible enemy piece, plus every
    capture that may take a king. ``pawns_only``: the pawn moves a bonus allows (no castling).

    The enemy's piece types are never read except on visible squares, so a view whose enemy checkers are
    placeholders gets the same moves as the referee.
    """
    board = with_turn(board.copy(stack=False), seat)
    colour = chess_colour(seat)
    from_mask = board.pawns & board.occupied_co[colour] if pawns_only else chess.BB_ALL
    castlings = [] if pawns_only else castling_moves_on(board, seat, known)
    # python-chess's castling moves are not ours: without rights (on this copy) it makes none, which is cheaper
    # than making them and leaving them out (nothing else it generates reads the rights).
    board.castling_rights = chess.BB_EMPTY
    candidates = [*board.generate_pseudo_legal_moves(from_mask), *castlings]
    king = known.king_square
    if known.king_cloaked or king is None:
        return candidates  # a cloaked king ignores check (as _leaves_king_safe says of every move)
    # A move of another piece than the king, not en passant and not of the one piece between the king and a
    # visible enemy slider on that line, can neither open a line to the king nor make another attack on it: a king
    # no visible piece attacks now stays so. The full test (which gives the same answer for these) is left for the
    # other moves.
    unattacked = not attacked_by_visible(board, seat, king, known.visible_enemy)
    pinnable = _lone_blockers(board, seat, king, known.visible_enemy) if unattacked else 0  # else: every move asks
    return [move for move in candidates
            if (unattacked and move.from_square != king and not chess.BB_SQUARES[move.from_square] & pinnable
                and not board.is_en_passant(move))
            or _leaves_king_safe(board, seat, move, known)]


def _lone_blockers(board: chess.Board, seat: int, king: chess.Square, visible: int) -> int:
    """The squares of pieces each of which alone stands between ``king`` and a visible enemy rook, bishop or
    queen that moves along that line: the only pieces whose move may open a line to the king."""
    enemy = board.occupied_co[not chess_colour(seat)] & visible
    straight = (board.rooks | board.queens) & enemy & (chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
    diagonal = (board.bishops | board.queens) & enemy & chess.BB_DIAG_ATTACKS[king][0]
    found = 0
    for sniper in chess.scan_forward(straight | diagonal):
        between = chess.between(king, sniper) & board.occupied
        if between and not between & (between - 1):  # exactly one piece
            found |= between
    return found


def drops_on(board: chess.Board, seat: int, known: Knowledge, pawns_in_hand: int) -> list[chess.Move]:
    """The pawn drops a bonus allows: any empty square of ``seat``'s second rank, when it has a captured pawn,
    if the drop leaves its uncloaked king out of visible check."""
    if pawns_in_hand <= 0:
        return []
    rank = 1 if seat == WHITE else 6
    drops = []
    for square in chess.scan_forward(chess.BB_RANKS[rank] & ~board.occupied):
        if known.king_cloaked or known.king_square is None or not attacked_by_visible(
                board, seat, known.king_square, known.visible_enemy, board.occupied | chess.BB_SQUARES[square]):
            drops.append(chess.Move(square, square, drop=chess.PAWN))
    return drops


def castling_destinations(seat: int, king: chess.Square, rook: chess.Square) -> tuple[chess.Square, chess.Square]:
    """Where king and rook end when ``seat`` castles with the rook on ``rook``.

    >>> [chess.square_name(square) for square in castling_destinations(WHITE, chess.B1, chess.A1)]
    ['c1', 'd1']
    """
    rank = back_rank(seat)
    if rook > king:
        return chess.square(6, rank), chess.square(5, rank)
    return chess.square(2, rank), chess.square(3, rank)



def bonus_moves(board: chess.Board, seat: Seat, known: Knowledge, pawns_in_hand: int) -> list[str]:
    moves = legal_moves_on(board, seat, known, pawns_only=True) + drops_on(board, seat, known, pawns_in_hand)
    return [move.uci() for move in moves]
