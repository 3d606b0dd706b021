"""Where each opponent piece type can possibly stand: a sound over-approximation kept beside the positions.

The set of positions (:mod:`app.engine.inference`) is exact only while it is small
enough to hold; past that it is a weighted sample, and a sample can miss the true
position. A :data:`Reach` never misses it: it is six bitboards (pawns, knights,
bishops, rooks, queens, kings), and a square is in the one for a piece type
whenever *some* position consistent with the seat's observations has an opponent
piece of that type there. It is kept up to date by rules that only ever add what a
move could bring and only remove what an observation rules out for certain:

- **an opponent turn** (:func:`after_turn`): every piece may stay, and every square a
  piece of that type could reach in one move is added, with the opponent's own
  pieces assumed absent (so a slider's rays stop only at the seat's pieces). A turn
  that captured a piece of the seat's adds only the capture square (or, en passant,
  the square the pawn lands on); a turn that captured nothing adds no square of the
  seat's pieces. Pawns reaching the last rank add that square to the four piece
  types they can promote to; a king on its home square adds its castling squares,
  and the rooks theirs.
- **a square seen** (:func:`seen`): inside a sense window (or any square whose
  contents the seat was shown) each type keeps exactly the squares shown for it.
- **a square known to be free of the opponent** (:func:`exclude`): every type loses it
  (the seat's own pieces, an empty path its move crossed, a square its king saw empty).

Each rule is a superset of what the game's move rules allow, so the true position is
always inside (tests replay thousands of decisions against the referee to check it).
When the positions are held exactly, their union is exact and tighter, and it is
what :class:`~app.engine.inference.Inference` reports; the reach takes over, joined
with that union, once the set is sampled.

>>> import chess
>>> start = from_bitboards(chess.BB_RANK_7, chess.BB_B8 | chess.BB_G8, chess.BB_C8 | chess.BB_F8,
...                        chess.BB_A8 | chess.BB_H8, chess.BB_D8, chess.BB_E8)
>>> mine = chess.BB_RANK_1 | chess.BB_RANK_2
>>> after = after_turn(start, mine, chess.BLACK, None, 0)
>>> chess.SquareSet(after[0] & ~start[0]) == chess.SquareSet(chess.BB_RANK_6 | chess.BB_RANK_5)
True
>>> [chess.square_name(square) for square in chess.SquareSet(after[1] & ~start[1])]
['a6', 'c6', 'f6', 'h6', 'd7', 'e7']

(d7 and e7 hold the opponent's own pawns, which the reach does not track: a superset.)
"""

from __future__ import annotations

import math

import chess
from chess import (BB_BACKRANKS, BB_DIAG_ATTACKS, BB_DIAG_MASKS, BB_FILE_ATTACKS, BB_FILE_MASKS, BB_KING_ATTACKS,
                   BB_KNIGHT_ATTACKS, BB_PAWN_ATTACKS, BB_RANK_ATTACKS, BB_RANK_MASKS, BB_SQUARES)

Reach = tuple[int, int, int, int, int, int]
"""For pawns, knights, bishops, rooks, queens and kings: the squares where that piece type may stand."""

EVERYWHERE: Reach = (chess.BB_ALL & ~BB_BACKRANKS, chess.BB_ALL, chess.BB_ALL, chess.BB_ALL, chess.BB_ALL,
                     chess.BB_ALL)
"""The reach that rules nothing out (what a figure with no inference behind it must assume)."""


def from_bitboards(pawns: int, knights: int, bishops: int, rooks: int, queens: int, kings: int) -> Reach:
    """A reach from six bitboards (e.g. one known position, or the union of a set of positions)."""
    return (pawns, knights, bishops, rooks, queens, kings)


def union(reach: Reach, other: Reach) -> Reach:
    """Squares possible in either."""
    return (reach[0] | other[0], reach[1] | other[1], reach[2] | other[2], reach[3] | other[3],
            reach[4] | other[4], reach[5] | other[5])


def intersect(reach: Reach, other: Reach) -> Reach:
    """Squares possible in both (both sound: so is the intersection)."""
    return (reach[0] & other[0], reach[1] & other[1], reach[2] & other[2], reach[3] & other[3],
            reach[4] & other[4], reach[5] & other[5])


def any_piece(reach: Reach) -> int:
    """The squares where some opponent piece may stand."""
    return reach[0] | reach[1] | reach[2] | reach[3] | reach[4] | reach[5]


def exclude(reach: Reach, squares: int) -> Reach:
    """No opponent piece can stand on ``squares``."""
    keep = ~squares
    return (reach[0] & keep, reach[1] & keep, reach[2] & keep, reach[3] & keep, reach[4] & keep, reach[5] & keep)


def seen(reach: Reach, window: int, shown: Reach) -> Reach:
    """The seat saw the opponent's pieces on ``window`` exactly: ``shown`` per type (subsets of ``window``)."""
    keep = ~window
    return ((reach[0] & keep) | shown[0], (reach[1] & keep) | shown[1], (reach[2] & keep) | shown[2],
            (reach[3] & keep) | shown[3], (reach[4] & keep) | shown[4], (reach[5] & keep) | shown[5])


def _rook_reach(square: int, blockers: int) -> int:
    return (BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & blockers]
            | BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & blockers])


def _bishop_reach(square: int, blockers: int) -> int:
    return BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & blockers]


def _each(bb: int, table: list[int]) -> int:
    out = 0
    while bb:
        low = bb & -bb
        out |= table[low.bit_length() - 1]
        bb ^= low
    return out


def _slides(bb: int, blockers: int, straight: bool, diagonal: bool) -> int:
    out = 0
    while bb:
        low = bb & -bb
        square = low.bit_length() - 1
        if straight:
            out |= _rook_reach(square, blockers)
        if diagonal:
            out |= _bishop_reach(square, blockers)
        bb ^= low
    return out


def after_turn(reach: Reach, mine: int, opponent: chess.Color, capture: int | None, ep_target: int) -> Reach:
    """The reach after one opponent turn (see the module docstring); every piece may also have stayed.

    ``mine``: the seat's pieces before the turn (the captured one included);
    ``capture``: where the seat lost a piece this turn, or ``None``; ``ep_target``: the
    square the seat's last move (a double step) lets the opponent take en passant, or 0.
    """
    pawns, knights, bishops, rooks, queens, kings = reach
    white = opponent == chess.WHITE
    if white:
        pushes = (pawns << 8) & chess.BB_ALL
        doubles = ((pawns & chess.BB_RANK_2) << 16) & chess.BB_ALL
    else:
        pushes = pawns >> 8
        doubles = (pawns & chess.BB_RANK_7) >> 16
    takes = _each(pawns, BB_PAWN_ATTACKS[opponent])
    knight_to = _each(knights, BB_KNIGHT_ATTACKS)
    king_to = _each(kings, BB_KING_ATTACKS)
    bishop_to = _slides(bishops, mine, False, True)
    rook_to = _slides(rooks, mine, True, False)
    queen_to = _slides(queens, mine, True, True)
    if capture is None:
        free = ~mine
        steps = (pushes | doubles) & free
        promoted = steps & BB_BACKRANKS
        king_home = chess.E1 if white else chess.E8
        castle_king = castle_rook = 0
        if kings & BB_SQUARES[king_home]:
            if white:
                castle_king, castle_rook = chess.BB_G1 | chess.BB_C1, chess.BB_F1 | chess.BB_D1
            else:
                castle_king, castle_rook = chess.BB_G8 | chess.BB_C8, chess.BB_F8 | chess.BB_D8
        return (pawns | (steps & ~BB_BACKRANKS),
                knights | (knight_to & free) | promoted,
                bishops | (bishop_to & free) | promoted,
                rooks | ((rook_to | castle_rook) & free) | promoted,
                queens | (queen_to & free) | promoted,
                kings | ((king_to | castle_king) & free))
    target = BB_SQUARES[capture]
    pawn_lands = takes & target
    if ep_target and capture == (ep_target - 8 if white else ep_target + 8) and takes & BB_SQUARES[ep_target]:
        pawn_lands |= BB_SQUARES[ep_target]
    promoted = pawn_lands & BB_BACKRANKS
    return (pawns | (pawn_lands & ~BB_BACKRANKS),
            knights | (knight_to & target) | promoted,
            bishops | (bishop_to & target) | promoted,
            rooks | (rook_to & target) | promoted,
            queens | (queen_to & target) | promoted,
            kings | (king_to & target))


def line_of_sight(origin: int, straight: bool, diagonal: bool, mine: int, stops: int) -> int:
    """The squares a look along lines from ``origin`` crossed before meeting a piece (``mine`` or ``stops``).

    What a Blind Chess slider's successful attempt tells: the first opponent piece on
    each line is revealed (``stops``), so the squares before it hold none.
    """
    blockers = mine | stops
    out = 0
    if straight:
        out |= _rook_reach(origin, blockers)
    if diagonal:
        out |= _bishop_reach(origin, blockers)
    return out & ~blockers


def count_bound(reach: Reach, pieces: int, max_pawns: int, castling_states: int, ep_states: int) -> int:
    """An upper bound on the number of positions that fit ``reach``: ``pieces`` opponent pieces in all (one
    king), at most ``max_pawns`` pawns, times the castling and en-passant states that may differ.

    Counts the ways to choose, for each piece type, a set of squares inside its reach
    (ignoring that two types cannot share a square), with the right total.

    >>> count_bound((0, 0, 0, 0, 0, chess.BB_E8 | chess.BB_D8), 1, 0, 1, 1)
    2
    >>> count_bound((chess.BB_A7 | chess.BB_B7, 0, 0, 0, chess.BB_D8, chess.BB_E8), 3, 2, 1, 1)  # king + 2 of 3
    3
    """
    king_squares = reach[5].bit_count()
    if pieces < 1 or not king_squares:
        return 0
    # The polynomial product over the other types of sum_k C(m_t, k) x^k; the coefficient of x^(pieces - 1).
    wanted = pieces - 1
    ways = [1] + [0] * wanted
    for index, squares in enumerate(reach[:5]):
        size = squares.bit_count()
        most = min(size, wanted, max_pawns if index == 0 else wanted)
        nxt = [0] * (wanted + 1)
        for have, number in enumerate(ways):
            if number:
                for k in range(0, min(most, wanted - have) + 1):
                    nxt[have + k] += number * math.comb(size, k)
        ways = nxt
    return ways[wanted] * king_squares * castling_states * ep_states


__all__ = ["Reach", "EVERYWHERE", "from_bitboards", "union", "intersect", "any_piece", "exclude", "seen",
           "after_turn", "line_of_sight", "count_bound"]
