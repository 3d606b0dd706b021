"""The inference's hot loops compiled with numba: an opponent turn, removing duplicates, what a sense, a move
result or an attempt keeps, forgetting en passant and a captured piece, sampling, and the heat.

:mod:`.inference_vec` computes the same things with whole-array numpy operations;
this module does them position by position in machine code, which is several
times faster on large sets because every successor is made, hashed and merged
while it is still in the processor's cache, instead of passing over arrays of
millions of positions a dozen times. The results are the same, in the same
order (parent by parent, lightest first; each parent's successors in move
order), so samples drawn from them are too; the tests compare the two.

Duplicates are found with an open-addressing hash table keyed by two 64-bit
hashes of the whole position (a 127-bit fingerprint; see :func:`_hashes`): two
different positions merge only if both hashes collide, with a probability of
about ``n**2 / 2**127`` for ``n`` positions.

numba compiles these functions the first time they run (about 20 s) and keeps
the machine code in its cache, so later runs load it in a fraction of a second;
:func:`warm_up` does that early, off the window's thread. Where numba is missing
or fails, :data:`AVAILABLE` is false and the inference uses :mod:`.inference_vec`.

>>> import chess
>>> _ = warm_up()  # compile (or load) every kernel first: see warm_up
>>> from app.engine.inference_core import opponent_key, PASS_ALWAYS
>>> start = np.array([opponent_key(chess.Board(), chess.BLACK)], dtype=np.uint64).T.copy()  # White's army
>>> mine = chess.BB_RANK_7 | chess.BB_RANK_8
>>> rows, weights, made = expand(start, np.ones(1), mine, chess.WHITE, None, 0, PASS_ALWAYS)
>>> rows.shape[1], made          # White's 20 first moves, and the pass that RBC allows
(21, 21)
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from typing import Any, Callable, TypeVar

import chess
import numpy as np
from chess import BB_RANK_ATTACKS, BB_RANK_MASKS

from .inference_vec import CASTLE as _SEEN_CASTLE, DIAGONAL as _SEEN_DIAGONAL
from .inference_vec import FIXED as _SEEN_FIXED, NO_REVEALS as _SEEN_NONE, STRAIGHT as _SEEN_STRAIGHT


AVAILABLE = False
"""Whether the compiled kernels can be used (numba imported and they compiled)."""
WHY_NOT: str | None = None
"""Why :data:`AVAILABLE` is false, for the log."""

try:
    if os.environ.get("SIGHTLINE_NO_JIT"):
        raise ImportError("switched off by SIGHTLINE_NO_JIT")
    from numba import njit
    AVAILABLE = True
except Exception as error:  # noqa: BLE001 - any failure to load numba means the numpy path
    WHY_NOT = f"numba is not available ({error})"

    def njit(*args: Any, **kwargs: Any) -> Any:  # type: ignore[no-redef]
        """Stand-in: the functions stay plain Python (never called while :data:`AVAILABLE` is false)."""
        if args and callable(args[0]):
            return args[0]
        return lambda function: function

Rows = Any
Weights = Any

_U = np.uint64
_KNIGHT = np.array(chess.BB_KNIGHT_ATTACKS, dtype=np.uint64)
_KING = np.array(chess.BB_KING_ATTACKS, dtype=np.uint64)
_BIT = np.array(chess.BB_SQUARES, dtype=np.uint64)
_RANK = np.array([BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & (byte << (8 * (square >> 3)))]
                  for square in range(64) for byte in range(256)], dtype=np.uint64)
_FILE = np.array([chess.BB_FILES[square & 7] & ~chess.BB_SQUARES[square] for square in range(64)], dtype=np.uint64)
_DIAGONAL = np.array([sum(chess.BB_SQUARES[s] for s in range(64) if (s & 7) - (s >> 3) == (q & 7) - (q >> 3)
                          and s != q) for q in range(64)], dtype=np.uint64)
_ANTI = np.array([sum(chess.BB_SQUARES[s] for s in range(64) if (s & 7) + (s >> 3) == (q & 7) + (q >> 3)
                      and s != q) for q in range(64)], dtype=np.uint64)
# Squares from which a pawn of each colour attacks a square: [colour][square] (python-chess's table for the
# other colour, as in the numpy kernel).
_PAWN_FROM = np.array([chess.BB_PAWN_ATTACKS[chess.WHITE], chess.BB_PAWN_ATTACKS[chess.BLACK]], dtype=np.uint64)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_INDEX[((1 << _bit) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _bit
_BETWEEN = np.array([[chess.between(a, b) for b in range(64)] for a in range(64)], dtype=np.uint64)
_BACKRANKS = _U(chess.BB_BACKRANKS)

_warm = False
_BUFFER = 512
"""Room for one parent's successors: no arrangement of 16 pieces has more than about 330 quiet moves (nine
queens, two rooks, bishops and knights, a king), and a capture has at most 16 ways."""
_BLOCK = 256
"""Kernels hash a block of positions first and then look them up in the table: the lookups of a block then wait
for memory at the same time, not one after the other (three times faster at a million positions)."""


@njit(cache=True, inline="always")
def _square(single: Any) -> Any:
    """The index of a one-bit value (de Bruijn multiplication)."""
    return _DEBRUIJN_INDEX[(single * _U(0x03F79D71B4CB0A89)) >> _U(58)]


@njit(cache=True, inline="always")
def _swap(x: Any) -> Any:
    """The value with its bytes reversed: the board flipped rank for rank."""
    x = ((x >> _U(8)) & _U(0x00FF00FF00FF00FF)) | ((x & _U(0x00FF00FF00FF00FF)) << _U(8))
    x = ((x >> _U(16)) & _U(0x0000FFFF0000FFFF)) | ((x & _U(0x0000FFFF0000FFFF)) << _U(16))
    return (x >> _U(32)) | (x << _U(32))


@njit(cache=True, inline="always")
def _line(occupied: Any, mask: Any, single: Any) -> Any:
    """Attacks along one file or diagonal through ``single`` (hyperbola quintessence)."""
    forward = occupied & mask
    reverse = _swap(forward)
    forward = forward - single
    reverse = reverse - _swap(single)
    return (forward ^ _swap(reverse)) & mask


@njit(cache=True, inline="always")
def _rook(square: int, occupied: Any) -> Any:
    single = _BIT[square]
    shift = _U(square & 56)
    rank = _RANK[(square << 8) + np.int64((occupied >> shift) & _U(255))]
    return rank | _line(occupied, _FILE[square], single)


@njit(cache=True, inline="always")
def _bishop(square: int, occupied: Any) -> Any:
    single = _BIT[square]
    return _line(occupied, _DIAGONAL[square], single) | _line(occupied, _ANTI[square], single)


@njit(cache=True, inline="always")
def _put(buffer: Any, count: int, key: int, p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any,
         e: Any) -> int:
    # ``key`` is the numpy kernel's sort key of the move (:func:`_key`); successors are made in increasing key
    # order, which is what keeps the two kernels' outputs in the same order. It is not stored.
    buffer[0, count] = p
    buffer[1, count] = n
    buffer[2, count] = b
    buffer[3, count] = r
    buffer[4, count] = q
    buffer[5, count] = k
    buffer[6, count] = c
    buffer[7, count] = e
    return count + 1


@njit(cache=True, inline="always")
def _key(group: int, origin: int, target: int, sub: int) -> int:
    return (group << 18) + (origin << 10) + (target << 4) + sub


@njit(cache=True)
def _quiet_children(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any, mine: Any, white: bool,
                    unchanged: int, ep_target: int, buffer: Any, start: int) -> int:
    """Every successor of one position after a turn with no capture, in move order, into ``buffer`` from column
    ``start`` on; returns the column after the last."""
    zero = _U(0)
    theirs = p | n | b | r | q | k
    occupied = theirs | mine
    empty = ~occupied
    count = start
    # Knights, bishops, rooks, queens, king (groups 1 to 5), each piece by origin, then target.
    for group in range(1, 6):
        if group == 1:
            pieces = n
        elif group == 2:
            pieces = b
        elif group == 3:
            pieces = r
        elif group == 4:
            pieces = q
        else:
            pieces = k
        while pieces:
            single = pieces & (zero - pieces)
            pieces ^= single
            origin = _square(single)
            if group == 1:
                targets = _KNIGHT[origin]
            elif group == 2:
                targets = _bishop(origin, occupied)
            elif group == 3:
                targets = _rook(origin, occupied)
            elif group == 4:
                targets = _rook(origin, occupied) | _bishop(origin, occupied)
            else:
                targets = _KING[origin]
            targets &= empty
            while targets:
                to = targets & (zero - targets)
                targets ^= to
                moved = single | to
                key = _key(group, origin, _square(to), 0)
                if group == 1:
                    count = _put(buffer, count, key, p, n ^ moved, b, r, q, k, c, zero)
                elif group == 2:
                    count = _put(buffer, count, key, p, n, b ^ moved, r, q, k, c, zero)
                elif group == 3:
                    count = _put(buffer, count, key, p, n, b, r ^ moved, q, k, c & ~single, zero)
                elif group == 4:
                    count = _put(buffer, count, key, p, n, b, r, q ^ moved, k, c, zero)
                else:
                    back = _U(chess.BB_RANK_1) if white else _U(chess.BB_RANK_8)
                    count = _put(buffer, count, key, p, n, b, r, q, k ^ moved, c & ~back, zero)
    # Castling (group 6): king side, then queen side.
    if white:
        home, back = 4, _U(chess.BB_RANK_1)
    else:
        home, back = 60, _U(chess.BB_RANK_8)
    home_bit = _BIT[home]
    if k & home_bit:
        for side in range(2):
            if side == 0:
                rook, king_to, rook_to = home + 3, home + 2, home + 1
            else:
                rook, king_to, rook_to = home - 4, home - 2, home - 1
            rook_bit = _BIT[rook]
            if (c & r & rook_bit) and not (occupied & _BETWEEN[home, rook]):
                count = _put(buffer, count, _key(6, 0, 0, side), p, n, b, r ^ (rook_bit | _BIT[rook_to]), q,
                             k ^ (home_bit | _BIT[king_to]), c & ~back, zero)
    # Pawn steps (group 7, by target; promotions to queen, rook, bishop, knight), double steps (group 8).
    if white:
        singles = (p << _U(8)) & empty
        doubles = ((singles & _U(chess.BB_RANK_3)) << _U(8)) & empty
    else:
        singles = (p >> _U(8)) & empty
        doubles = ((singles & _U(chess.BB_RANK_6)) >> _U(8)) & empty
    while singles:
        to = singles & (zero - singles)
        singles ^= to
        origin_bit = (to >> _U(8)) if white else (to << _U(8))
        target = _square(to)
        if to & _BACKRANKS:
            count = _put(buffer, count, _key(7, 0, target, 0), p ^ origin_bit, n, b, r, q | to, k, c, zero)
            count = _put(buffer, count, _key(7, 0, target, 1), p ^ origin_bit, n, b, r | to, q, k, c, zero)
            count = _put(buffer, count, _key(7, 0, target, 2), p ^ origin_bit, n, b | to, r, q, k, c, zero)
            count = _put(buffer, count, _key(7, 0, target, 3), p ^ origin_bit, n | to, b, r, q, k, c, zero)
        else:
            count = _put(buffer, count, _key(7, 0, target, 0), p ^ (origin_bit | to), n, b, r, q, k, c, zero)
    while doubles:
        to = doubles & (zero - doubles)
        doubles ^= to
        if white:
            origin_bit, passed = to >> _U(16), to >> _U(8)
        else:
            origin_bit, passed = to << _U(16), to << _U(8)
        count = _put(buffer, count, _key(8, 0, _square(to), 0), p ^ (origin_bit | to), n, b, r, q, k, c,
                     _U(_square(passed)))
    # The turn that changes nothing (group 9): RBC's pass; in Blind Chess a failed attempt (ruling B2).
    if unchanged == 1 or (unchanged == 2 and (count == start or _some_attempt_fails(p, n, b, r, q, k, c, mine, white,
                                                                                 ep_target))):
        count = _put(buffer, count, _key(9, 0, 0, 0), p, n, b, r, q, k, c, zero)
    return count


@njit(cache=True)
def _capture_count(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, mine: Any, white: bool) -> int:
    """:func:`app.engine.inference_vec.capture_counts` for one position."""
    zero = _U(0)
    occupied = p | n | b | r | q | k | mine
    count = 0
    for group in range(1, 6):
        if group == 1:
            pieces = n
        elif group == 2:
            pieces = b
        elif group == 3:
            pieces = r
        elif group == 4:
            pieces = q
        else:
            pieces = k
        while pieces:
            single = pieces & (zero - pieces)
            pieces ^= single
            origin = _square(single)
            if group == 1:
                targets = _KNIGHT[origin]
            elif group == 2:
                targets = _bishop(origin, occupied)
            elif group == 3:
                targets = _rook(origin, occupied)
            elif group == 4:
                targets = _rook(origin, occupied) | _bishop(origin, occupied)
            else:
                targets = _KING[origin]
            targets &= mine
            while targets:
                targets &= targets - _U(1)
                count += 1
    left, right = p & ~_U(chess.BB_FILE_A), p & ~_U(chess.BB_FILE_H)
    if white:
        hits = ((left << _U(7)) & mine, (right << _U(9)) & mine)
    else:
        hits = ((left >> _U(9)) & mine, (right >> _U(7)) & mine)
    for bits in hits:
        while bits:
            bits &= bits - _U(1)
            count += 1
    return count


@njit(cache=True)
def _some_attempt_fails(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any, mine: Any, white: bool,
                        ep_target: int) -> bool:
    """Blind Chess: whether one of the opponent's possible attempts would fail here (ruling B2); the
    position-by-position form of :func:`app.engine.inference_vec.some_attempt_fails`."""
    zero = _U(0)
    theirs = p | n | b | r | q | k
    free = ~theirs
    file_a, file_h = _U(chess.BB_FILE_A), _U(chess.BB_FILE_H)
    if white:
        diagonal = (((p & ~file_a) << _U(7)) | ((p & ~file_h) << _U(9))) & free
        pushes = p << _U(8)
        middles = ((p & _U(chess.BB_RANK_2)) << _U(8)) & free
        doubles = (middles << _U(8)) & free
        double_middles = doubles >> _U(8)
    else:
        diagonal = (((p & ~file_a) >> _U(9)) | ((p & ~file_h) >> _U(7))) & free
        pushes = p >> _U(8)
        middles = ((p & _U(chess.BB_RANK_7)) >> _U(8)) & free
        doubles = (middles >> _U(8)) & free
        double_middles = doubles << _U(8)
    ep_bb = _BIT[ep_target] if ep_target else zero
    if diagonal & ~mine & ~ep_bb:
        return True
    if (pushes | doubles | double_middles) & mine:
        return True
    occupied = theirs | mine
    for group in range(3):
        pieces = r if group == 0 else (b if group == 1 else q)
        while pieces:
            single = pieces & (zero - pieces)
            pieces ^= single
            square = _square(single)
            missed = zero
            if group != 1:
                missed |= _rook(square, theirs) & ~_rook(square, occupied)
            if group != 0:
                missed |= _bishop(square, theirs) & ~_bishop(square, occupied)
            if missed & free:
                return True
    home = 4 if white else 60
    if k & _BIT[home]:
        for rook in (home + 3, home - 4):
            between = _BETWEEN[home, rook]
            if (c & r & _BIT[rook]) and not (theirs & between) and (mine & between):
                return True
    return False


@njit(cache=True)
def _capture_children(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any, mine: Any, white: bool,
                      capture: int, ep_target: int, buffer: Any, start: int) -> int:
    """Every successor of one position after a turn that captured the seat's piece on ``capture`` (into
    ``buffer`` as :func:`_quiet_children`)."""
    zero = _U(0)
    target = _BIT[capture]
    occupied = p | n | b | r | q | k | mine
    count = start
    lose_all = _U(chess.BB_RANK_1) if white else _U(chess.BB_RANK_8)
    attackers = n & _KNIGHT[capture]
    while attackers:
        single = attackers & (zero - attackers)
        attackers ^= single
        count = _put(buffer, count, _key(1, _square(single), 0, 0), p, n ^ (single | target), b, r, q, k, c,
                     zero)
    attackers = k & _KING[capture]
    while attackers:
        single = attackers & (zero - attackers)
        attackers ^= single
        count = _put(buffer, count, _key(2, _square(single), 0, 0), p, n, b, r, q, k ^ (single | target),
                     c & ~lose_all, zero)
    straight = _rook(capture, occupied)
    diagonal = _bishop(capture, occupied)
    for group in range(3, 7):
        if group == 3:
            attackers = straight & r
        elif group == 4:
            attackers = straight & q
        elif group == 5:
            attackers = diagonal & b
        else:
            attackers = diagonal & q
        while attackers:
            single = attackers & (zero - attackers)
            attackers ^= single
            key = _key(group, _square(single), 0, 0)
            moved = single | target
            if group == 3:
                count = _put(buffer, count, key, p, n, b, r ^ moved, q, k, c & ~single, zero)
            elif group == 5:
                count = _put(buffer, count, key, p, n, b ^ moved, r, q, k, c, zero)
            else:
                count = _put(buffer, count, key, p, n, b, r, q ^ moved, k, c, zero)
    colour = 1 if white else 0  # the seat's colour: its pawn attack table gives the opponent pawns' origins
    attackers = p & _PAWN_FROM[colour, capture]
    while attackers:
        single = attackers & (zero - attackers)
        attackers ^= single
        origin = _square(single)
        if target & _BACKRANKS:
            count = _put(buffer, count, _key(7, origin, 0, 0), p ^ single, n, b, r, q | target, k, c, zero)
            count = _put(buffer, count, _key(7, origin, 0, 1), p ^ single, n, b, r | target, q, k, c, zero)
            count = _put(buffer, count, _key(7, origin, 0, 2), p ^ single, n, b | target, r, q, k, c, zero)
            count = _put(buffer, count, _key(7, origin, 0, 3), p ^ single, n | target, b, r, q, k, c, zero)
        else:
            count = _put(buffer, count, _key(7, origin, 0, 0), p ^ (single | target), n, b, r, q, k, c, zero)
    if ep_target and capture == (ep_target - 8 if white else ep_target + 8):
        # The seat's pawn that just double-stepped is taken en passant.
        attackers = p & _PAWN_FROM[colour, ep_target]
        while attackers:
            single = attackers & (zero - attackers)
            attackers ^= single
            count = _put(buffer, count, _key(8, _square(single), 0, 0), p ^ (single | _BIT[ep_target]), n,
                         b, r, q, k, c, zero)
    return count


# ---- the table of positions already made --------------------------------------------------------------------

@njit(cache=True, inline="always")
def _rotate(x: Any, bits: int) -> Any:
    return (x << _U(bits)) | (x >> _U(64 - bits))


@njit(cache=True, inline="always")
def _mix(x: Any) -> Any:
    """MurmurHash3's 64-bit finaliser: every input bit changes about half the output bits."""
    x ^= x >> _U(33)
    x *= _U(0xFF51AFD7ED558CCD)
    x ^= x >> _U(33)
    x *= _U(0xC4CEB9FE1A85EC53)
    x ^= x >> _U(33)
    return x


@njit(cache=True, inline="always")
def _hashes(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any, e: Any) -> tuple[Any, Any]:
    """Two 64-bit hashes of a position: each field through the mixer once, and the seven mixed words summed
    twice, with two sets of odd multipliers (the second set after rotating each word).

    Each sum is a bijection of any one mixed word, so positions that differ in one field (one piece moved)
    never share the first hash; for others, the two sums of pseudo-random words coincide together about once
    in 2**128. The mixing is the cost: once a field (seven mixers), not twice (fourteen)."""
    # Castling rights (squares of the back ranks, bits 0-7 and 56-63) and the en-passant square (0..63, moved to
    # bits 8-13) share a word without overlapping, whatever rook squares the rights are on.
    extra = (e << _U(8)) | c
    mp = _mix(p ^ _U(0xA0761D6478BD642F))
    mn = _mix(n ^ _U(0xE7037ED1A0B428DB))
    mb = _mix(b ^ _U(0x8EBC6AF09C88C6E3))
    mr = _mix(r ^ _U(0x589965CC75374CC3))
    mq = _mix(q ^ _U(0x1D8E4E27C47D124F))
    mk = _mix(k ^ _U(0xB492B66FBE98F273))
    mx = _mix(extra ^ _U(0x9AE16A3B2F90404F))
    first = (mp + mn * _U(3) + mb * _U(5) + mr * _U(7) + mq * _U(9) + mk * _U(11) + mx * _U(13))
    second = (_rotate(mp, 7) * _U(0x9E3779B97F4A7C15) + _rotate(mn, 13) * _U(0xC2B2AE3D27D4EB4F)
              + _rotate(mb, 19) * _U(0x165667B19E3779F9) + _rotate(mr, 29) * _U(0xD6E8FEB86659FD93)
              + _rotate(mq, 37) * _U(0xFF51AFD7ED558CCD) + _rotate(mk, 43) * _U(0xC4CEB9FE1A85EC53)
              + _rotate(mx, 53) * _U(0x27D4EB2F165667C5))
    return first, second | _U(1)  # never 0: 0 marks a free slot of the table


@njit(cache=True)
def _table_size(expected: int) -> int:
    size = 1024
    while size * 5 < expected * 8:  # at most 5/8 full
        size *= 2
    return size


@njit(cache=True)
def _rehash(table: Any, where: Any, size: int) -> tuple[Any, Any]:
    """The table's entries in a table of ``size`` slots."""
    grown = np.zeros((size, 2), dtype=np.uint64)
    grown_where = np.zeros(size, dtype=np.int64)
    mask = size - 1
    for old in range(len(table)):
        if table[old, 1]:
            at = np.int64(table[old, 0] >> _U(24)) & mask
            while grown[at, 1]:
                at = (at + 1) & mask
            grown[at, 0] = table[old, 0]
            grown[at, 1] = table[old, 1]
            grown_where[at] = where[old]
    return grown, grown_where


@njit(cache=True, inline="always")
def _find(table: Any, first: Any, second: Any) -> tuple[Any, bool]:
    """The slot of the table holding the position with these hashes (and ``True``), or the free slot where it
    goes (and ``False``). A slot holds the two hashes (the second never 0, so that 0 marks a free slot): one
    cache line per probe. Where the position is kept is in a separate array, read only when weights differ."""
    mask = len(table) - 1
    at = np.int64(first >> _U(24)) & mask
    while True:
        held = table[at, 1]
        if held == 0:
            return at, False
        if held == second and table[at, 0] == first:
            return at, True
        at = (at + 1) & mask


@njit(cache=True, nogil=True)  # other threads (a bot's clock, the window's worker) run meanwhile
def _expand(rows: Any, weights: Any, order: Any, uniform: bool, mine: Any, white: bool, capture: int,
            ep_target: int, unchanged: int, out: Any, out_weights: Any, table: Any,
            where: Any, share: bool) -> tuple[Any, Any, int, int, Any, Any]:
    """The kernel of :func:`expand`: ``order`` is the order in which parents are taken; ``uniform`` says that
    all weights are equal; ``capture`` is -1 for none; ``out`` is where successors go (replaced by a larger
    array when full), ``table`` and ``where`` an empty table (grown when too full). Returns (successor rows,
    their weights, how many distinct, how many made, the table, its ``where``)."""
    capacity = min(out.shape[1], len(out_weights))
    limit = len(table) * 5 // 8
    # The successors of several parents are gathered (at least _BLOCK of them), hashed, then looked up: see
    # _BLOCK. The buffer keeps room for one more parent's successors (_BUFFER) beyond a block.
    buffer = np.empty((8, _BLOCK + _BUFFER), dtype=np.uint64)
    parent_weights = np.empty(_BLOCK + _BUFFER, dtype=np.float64)
    firsts = np.empty(_BLOCK + _BUFFER, dtype=np.uint64)
    seconds = np.empty(_BLOCK + _BUFFER, dtype=np.uint64)
    distinct = 0
    made = 0
    held = 0
    last = len(order) - 1
    for position in range(len(order)):
        parent = order[position]
        p, n, b, r, q, k, c = rows[0, parent], rows[1, parent], rows[2, parent], rows[3, parent], \
            rows[4, parent], rows[5, parent], rows[6, parent]
        if capture < 0:
            end = _quiet_children(p, n, b, r, q, k, c, mine, white, unchanged, ep_target, buffer, held)
        else:
            end = _capture_children(p, n, b, r, q, k, c, mine, white, capture, ep_target, buffer, held)
        if share and end > held:
            moves = end - held
            if capture < 0:  # the captures it could have tried, not made: the seat lost nothing
                moves += _capture_count(p, n, b, r, q, k, mine, white)
            parent_weights[held:end] = weights[parent] / moves
        else:
            parent_weights[held:end] = weights[parent]
        held = end
        if held < _BLOCK and position < last:
            continue
        if held == 0:
            continue
        made += held
        if distinct + held > capacity:
            capacity = max(2 * capacity, distinct + held)
            grown, grown_weights = np.empty((8, capacity), dtype=np.uint64), np.empty(capacity, dtype=np.float64)
            _copy_first(out, out_weights, distinct, grown, grown_weights)
            out, out_weights = grown, grown_weights
        if distinct + held > limit:
            table, where = _rehash(table, where, 2 * len(table))
            limit = len(table) * 5 // 8
        for i in range(held):
            firsts[i], seconds[i] = _hashes(buffer[0, i], buffer[1, i], buffer[2, i], buffer[3, i], buffer[4, i],
                                            buffer[5, i], buffer[6, i], buffer[7, i])
        # The look-up-or-insert below is written out again in _unique and _forget_all on purpose: as a shared
        # helper (inlined or not) numba made this loop twice as slow.
        for i in range(held):
            at, found = _find(table, firsts[i], seconds[i])
            weight = parent_weights[i]
            if found:
                if share:
                    out_weights[where[at]] += weight
                elif not uniform:
                    index = where[at]
                    if weight > out_weights[index]:
                        out_weights[index] = weight
                continue
            table[at, 0] = firsts[i]
            table[at, 1] = seconds[i]
            if not uniform:  # read only when weights differ: one random write less per position
                where[at] = distinct
            for field in range(8):
                out[field, distinct] = buffer[field, i]
            out_weights[distinct] = weight
            distinct += 1
        held = 0
    return out, out_weights, distinct, made, table, where


@njit(cache=True)
def _unique(rows: Any, weights: Any, uniform: bool) -> tuple[Any, Any, int]:
    """The kernel of :func:`unique`: (the index of each distinct column's first occurrence, in order; the
    largest weight of each; how many)."""
    n = rows.shape[1]
    table = np.zeros((_table_size(n), 2), dtype=np.uint64)
    where = np.zeros(len(table), dtype=np.int64)
    firsts = np.empty(n, dtype=np.int64)
    best = np.empty(n, dtype=np.float64)
    block_firsts = np.empty(_BLOCK, dtype=np.uint64)
    block_seconds = np.empty(_BLOCK, dtype=np.uint64)
    distinct = 0
    for start in range(0, n, _BLOCK):
        end = min(n, start + _BLOCK)
        # Hash a block first, then look it up: see _BLOCK.
        for column in range(start, end):
            block_firsts[column - start], block_seconds[column - start] = _hashes(
                rows[0, column], rows[1, column], rows[2, column], rows[3, column], rows[4, column], rows[5, column],
                rows[6, column], rows[7, column])
        for column in range(start, end):
            first, second = block_firsts[column - start], block_seconds[column - start]
            at, found = _find(table, first, second)
            if found:
                if not uniform:
                    index = where[at]
                    if weights[column] > best[index]:
                        best[index] = weights[column]
                continue
            table[at, 0] = first
            table[at, 1] = second
            where[at] = distinct
            firsts[distinct] = column
            best[distinct] = weights[column]
            distinct += 1
    return firsts, best, distinct


@njit(cache=True)
def _compact(rows: Any, weights: Any, keep: Any, out: Any, out_weights: Any) -> int:
    """The columns where ``keep`` is true, in order, into ``out`` (their weights into ``out_weights``); returns
    how many."""
    kept = 0
    for column in range(rows.shape[1]):
        if keep[column]:
            for field in range(8):
                out[field, kept] = rows[field, column]
            out_weights[kept] = weights[column]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def _key22(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, c: Any) -> Any:
    """A cheap 22-bit key of a position's pieces and castling rights (each field times its own odd constant)."""
    x = (p * _U(0x9E3779B97F4A7C15)) ^ (n * _U(0xC2B2AE3D27D4EB4F)) ^ (b * _U(0x165667B19E3779F9)) \
        ^ (r * _U(0xD6E8FEB86659FD93)) ^ (q * _U(0xFF51AFD7ED558CCD)) ^ (k * _U(0xC4CEB9FE1A85EC53)) \
        ^ (c * _U(0x27D4EB2F165667C5))
    return (x ^ (x >> _U(29))) * _U(0x94D049BB133111EB) >> _U(42)


@njit(cache=True, inline="always")
def _held_by(p: Any, n: Any, b: Any, r: Any, q: Any, k: Any, bit: Any) -> int:
    """Which field has a piece on ``bit``: 0 (pawns) to 5 (king), or 6 for none."""
    if p & bit:
        return 0
    if n & bit:
        return 1
    if b & bit:
        return 2
    if r & bit:
        return 3
    if q & bit:
        return 4
    if k & bit:
        return 5
    return 6


@njit(cache=True)
def _copy_first(rows: Any, weights: Any, count: int, out: Any, out_weights: Any) -> None:
    """The first ``count`` columns and weights into ``out`` and ``out_weights``. Written as loops: a slice
    assignment (``out[:, :count] = rows[:, :count]``) makes numba compile its shape-mismatch message, strings and
    all, about 5 s of the first start."""
    for field in range(8):
        for column in range(count):
            out[field, column] = rows[field, column]
    for column in range(count):
        out_weights[column] = weights[column]


@njit(cache=True, inline="always")
def _copy_column(rows: Any, weights: Any, column: int, out: Any, out_weights: Any, to: int) -> None:
    """Column ``column`` and its weight to place ``to`` of ``out`` and ``out_weights``."""
    for field in range(8):
        out[field, to] = rows[field, column]
    out_weights[to] = weights[column]


@njit(cache=True, inline="always")
def _fits(rows: Any, column: int, wanted: Any) -> bool:
    """Whether a column fits the conditions of :func:`select`, packed in ``wanted``: (window, the six fields
    shown through it, empty, full, some, en passant is, en passant is not); an empty ``wanted``: no conditions."""
    if len(wanted) == 0:
        return True
    zero = _U(0)
    p, n, b, r = rows[0, column], rows[1, column], rows[2, column], rows[3, column]
    q, k, e = rows[4, column], rows[5, column], rows[7, column]
    window = wanted[0]
    if window and ((p & window) != wanted[1] or (n & window) != wanted[2] or (b & window) != wanted[3]
                   or (r & window) != wanted[4] or (q & window) != wanted[5] or (k & window) != wanted[6]):
        return False
    theirs = p | n | b | r | q | k
    empty, full, some, ep_is, ep_not = wanted[7], wanted[8], wanted[9], wanted[10], wanted[11]
    if theirs & empty or (full and (theirs & full) == zero) or (some and (theirs & some) == zero):
        return False
    return not ((ep_is and e != ep_is) or (ep_not and e == ep_not))


@njit(cache=True)
def _kinds(rows: Any, bit: Any, wanted: Any) -> Any:
    """For the columns with no en-passant square and no castling right on ``bit``: how many have each kind of
    piece on ``bit`` (see :func:`_held_by`); index 7 counts the other columns. Only the columns that fit
    ``wanted`` (see :func:`_fits`) count."""
    counts = np.zeros(8, dtype=np.int64)
    for column in range(rows.shape[1]):
        if not _fits(rows, column, wanted):
            continue
        if rows[7, column] or rows[6, column] & bit:
            counts[7] += 1
        else:
            counts[_held_by(rows[0, column], rows[1, column], rows[2, column], rows[3, column], rows[4, column],
                            rows[5, column], bit)] += 1
    return counts


@njit(cache=True)
def _forget(rows: Any, weights: Any, bit: Any, major: int, out: Any, out_weights: Any, table: Any, slot_of: Any,
            first_of: Any, best: Any, wanted: Any) -> int:
    """Each column with its en-passant square cleared and its piece on ``bit`` (0: none) taken (and its castling
    rights with it, all of them if it was the king), duplicates merged (largest weight kept, the first
    occurrence's place), into ``out`` and ``out_weights``; returns how many. ``slot_of`` (one per column),
    ``first_of`` and ``best`` (one per slot of ``table``) are scratch space.

    The columns of the most common kind ``major`` (no en-passant square, no castling right on ``bit``, the same
    kind of piece there, not a king: see :func:`_kinds`) all change the same way, so they stay distinct from
    each other; only the others go into the table (usually few: it stays in the cache), and these are only
    looked up in it. Without a capture (``bit`` 0) they are the columns that do not change at all."""
    n = rows.shape[1]
    zero = _U(0)
    slot_of[:n] = -1
    # A cheap 22-bit key of each changed column (after the change), as bits of a 512 KB set that stays in the
    # cache: an unchanged column whose key is not there cannot equal a changed one, and is neither hashed nor
    # looked up in the table (most are not: a changed column rarely has an unchanged twin).
    keys = np.zeros(1 << 16, dtype=np.uint64)
    changed = 0
    # Each block's positions are hashed first and looked up after: see _BLOCK.
    columns = np.empty(_BLOCK, dtype=np.int64)
    firsts = np.empty(_BLOCK, dtype=np.uint64)
    seconds = np.empty(_BLOCK, dtype=np.uint64)
    for start in range(0, n, _BLOCK):
        held = 0
        for column in range(start, min(n, start + _BLOCK)):
            if not _fits(rows, column, wanted):
                slot_of[column] = -2  # left out
                continue
            p, n_, b, r = rows[0, column], rows[1, column], rows[2, column], rows[3, column]
            q, k, c, e = rows[4, column], rows[5, column], rows[6, column], rows[7, column]
            if not (e or c & bit) and _held_by(p, n_, b, r, q, k, bit) == major:
                continue
            if bit:
                if k & bit:
                    c = zero
                p, n_, b, r, q, k, c = p & ~bit, n_ & ~bit, b & ~bit, r & ~bit, q & ~bit, k & ~bit, c & ~bit
            key = _key22(p, n_, b, r, q, k, c)
            keys[np.int64(key >> _U(6))] |= _U(1) << (key & _U(63))
            columns[held] = column
            firsts[held], seconds[held] = _hashes(p, n_, b, r, q, k, c, zero)
            held += 1
        for i in range(held):
            column = columns[i]
            at, found = _find(table, firsts[i], seconds[i])
            if not found:
                table[at, 0] = firsts[i]
                table[at, 1] = seconds[i]
                first_of[at] = column
                best[at] = weights[column]
            elif weights[column] > best[at]:
                best[at] = weights[column]
            slot_of[column] = at
        changed += held
    if changed and changed < n:
        for start in range(0, n, _BLOCK):
            held = 0
            for column in range(start, min(n, start + _BLOCK)):
                if slot_of[column] != -1:
                    continue
                p, n_, b = rows[0, column] & ~bit, rows[1, column] & ~bit, rows[2, column] & ~bit
                r, q, k, c = rows[3, column] & ~bit, rows[4, column] & ~bit, rows[5, column] & ~bit, rows[6, column]
                key = _key22(p, n_, b, r, q, k, c)
                if not keys[np.int64(key >> _U(6))] & (_U(1) << (key & _U(63))):
                    continue
                columns[held] = column
                firsts[held], seconds[held] = _hashes(p, n_, b, r, q, k, c, zero)
                held += 1
            for i in range(held):
                column = columns[i]
                at, found = _find(table, firsts[i], seconds[i])
                if found:
                    slot_of[column] = at
                    if column < first_of[at]:
                        first_of[at] = column
                    if weights[column] > best[at]:
                        best[at] = weights[column]
    kept = 0
    for column in range(n):
        at = slot_of[column]
        if at == -2 or (at >= 0 and first_of[at] != column):
            continue
        p, n_, b, r = rows[0, column], rows[1, column], rows[2, column], rows[3, column]
        q, k, c = rows[4, column], rows[5, column], rows[6, column]
        if bit and (p | n_ | b | r | q | k) & bit:
            if k & bit:
                c = zero
            p, n_, b, r, q, k, c = p & ~bit, n_ & ~bit, b & ~bit, r & ~bit, q & ~bit, k & ~bit, c & ~bit
        out[0, kept], out[1, kept], out[2, kept], out[3, kept] = p, n_, b, r
        out[4, kept], out[5, kept], out[6, kept], out[7, kept] = q, k, c, zero
        out_weights[kept] = best[at] if at >= 0 else weights[column]
        kept += 1
    return kept


@njit(cache=True)
def _forget_all(rows: Any, weights: Any, uniform: bool, bit: Any, out: Any, out_weights: Any, table: Any,
                where: Any, wanted: Any) -> int:
    """:func:`_forget` when most columns change (a capture: every position held had a piece there): each
    column changed and put in the table in one pass, kept where it first appears."""
    zero = _U(0)
    distinct = 0
    n = rows.shape[1]
    changed = np.empty((7, _BLOCK), dtype=np.uint64)
    firsts = np.empty(_BLOCK, dtype=np.uint64)
    seconds = np.empty(_BLOCK, dtype=np.uint64)
    columns = np.empty(_BLOCK, dtype=np.int64)
    for start in range(0, n, _BLOCK):
        # Change and hash a block's fitting columns first, then look them up: see _BLOCK.
        held = 0
        for column in range(start, min(n, start + _BLOCK)):
            if not _fits(rows, column, wanted):
                continue
            p, n_, b, r = rows[0, column], rows[1, column], rows[2, column], rows[3, column]
            q, k, c = rows[4, column], rows[5, column], rows[6, column]
            if (p | n_ | b | r | q | k) & bit:
                if k & bit:
                    c = zero
                p, n_, b, r, q, k, c = p & ~bit, n_ & ~bit, b & ~bit, r & ~bit, q & ~bit, k & ~bit, c & ~bit
            i = held
            changed[0, i], changed[1, i], changed[2, i], changed[3, i] = p, n_, b, r
            changed[4, i], changed[5, i], changed[6, i] = q, k, c
            firsts[i], seconds[i] = _hashes(p, n_, b, r, q, k, c, zero)
            columns[i] = column
            held += 1
        for i in range(held):
            column = columns[i]
            at, found = _find(table, firsts[i], seconds[i])
            weight = weights[column]
            if found:
                if not uniform:
                    index = where[at]
                    if weight > out_weights[index]:
                        out_weights[index] = weight
                continue
            table[at, 0] = firsts[i]
            table[at, 1] = seconds[i]
            if not uniform:  # read only when weights differ: one random write less per position
                where[at] = distinct
            for field in range(7):
                out[field, distinct] = changed[field, i]
            out[7, distinct] = zero
            out_weights[distinct] = weight
            distinct += 1
    return distinct


@njit(cache=True)
def _systematic(rows: Any, weights: Any, total: float, count: int, offset: float, out: Any, out_weights: Any) -> int:
    """Systematic resampling (see :func:`systematic_sample`) in one pass: column ``i`` is drawn once for each
    point ``(j + offset) * step`` that falls in its stretch of the cumulative weight."""
    step = total / count
    drawn = 0
    point = offset * step
    cumulative = 0.0
    taken = 0
    for column in range(len(weights)):
        cumulative += weights[column]
        hits = 0
        while taken < count and point < cumulative:
            hits += 1
            taken += 1
            point = (taken + offset) * step
        if hits:
            for field in range(8):
                out[field, drawn] = rows[field, column]
            out_weights[drawn] = hits * step
            drawn += 1
    return drawn


@njit(cache=True)
def _materials(rows: Any) -> Any:
    """The distinct materials of the columns, each as a code: the number of pawns, knights, ... kings, four bits
    each (see :meth:`app.engine.inference_core.Inference.placements`)."""
    seen = np.zeros(1 << 12, dtype=np.int64)  # a small open-addressing set of codes + 1 (0: free)
    found = np.empty(1 << 11, dtype=np.int64)
    count = 0
    for column in range(rows.shape[1]):
        code = 0
        for field in range(6):
            x = rows[field, column]
            bits = 0
            while x:
                x &= x - _U(1)
                bits += 1
            code |= bits << (4 * field)
        at = (code * 0x9E3779B1) & ((1 << 12) - 1)
        while seen[at] and seen[at] != code + 1:
            at = (at + 1) & ((1 << 12) - 1)
        if not seen[at]:
            if count == len(found):
                break  # more materials than this set holds: the caller counts them another way
            seen[at] = code + 1
            found[count] = code
            count += 1
    return found[:count]


# ---- the public functions (same signatures as inference_vec's) ---------------------------------------------

_lock = threading.RLock()
_F = TypeVar("_F", bound=Callable[..., Any])


def _new_lock_in_child() -> None:
    global _lock, _reserve_lock, _reserving, _reserved
    _lock = threading.RLock()  # a thread that held it at the fork does not exist in the child
    _reserve_lock = threading.Lock()
    _reserving = []  # nor does a thread making memory ready: what it finished is the child's too, not the rest
    _reserved = _adopted


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock_in_child)


def _exclusive(function: _F) -> _F:
    """One call at a time in a process: the pooled buffers, the table and the working arrays are shared (two
    bots in one referee, or a bot's call abandoned at its deadline while the next game starts, would otherwise
    fill the same table at once)."""
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with _lock:
            return function(*args, **kwargs)
    return call  # type: ignore[return-value]


def parent_order(weights: Weights) -> Any:
    """The order parents are expanded in: lightest first (stable), as the numpy kernel orders its successors."""
    if len(weights) == 0 or weights.min() == weights.max():
        return np.arange(len(weights), dtype=np.int64)
    return np.argsort(weights, kind="stable").astype(np.int64)


@_exclusive
def expand(rows: Rows, weights: Weights, mine: int, opponent: chess.Color, capture: int | None, ep_target: int,
           unchanged: int, branching: float = 40.0, share: bool = False) -> tuple[Rows, Weights, int]:
    """:func:`app.engine.inference_vec.expand`, compiled: every position one opponent turn leads to, duplicates
    merged (largest weight kept), and how many were made. ``branching`` (successors per parent expected) sizes
    the first allocation only; ``share``: each parent's weight is shared equally among its successors, and
    duplicates add up their shares."""
    n = rows.shape[1]
    if n == 0 or (capture is not None and not chess.BB_SQUARES[capture] & mine):
        return np.zeros((8, 0), dtype=np.uint64), np.zeros(0), 0
    expected = int(n * (branching if capture is None else 4.0)) + 64
    weights = np.asarray(weights, dtype=np.float64)
    order = parent_order(weights)
    uniform = bool(weights.min() == weights.max()) and not share
    # An exact set's successors are about half duplicates; a sample's parents are spread out and share few. A
    # table that must grow mid-way costs a fresh one, so it is sized for what is likely.
    table, where = _table(expected * 3 // 5 if uniform else expected)
    out, out_weights, distinct, made, table, where = _expand(
        rows, weights, order, uniform, _U(mine), opponent == chess.WHITE, -1 if capture is None else capture,
        ep_target, unchanged, _rows_buffer(expected), _weights_buffer(expected), table, where, share)
    _keep_table(table, where)
    # Splitting the parents over two threads was tried: each half took half the time, but joining the second
    # half's successors to the first's (a lookup each, in a table far larger than the cache) took the rest back.
    rows, weights = _trimmed(out, out_weights, distinct)
    return rows, weights, made


# ---- memory used again ---------------------------------------------------------------------------------------
# A new array of a hundred megabytes costs more to touch for the first time (the system hands it over page by
# page) than the whole expansion that fills it. So the table is kept from one call to the next, and results are
# views into a few large buffers that are used again once nothing refers to them any more.

_POOL_SIZE = 4
_POOL_COLUMNS = 1 << 20  # pooled buffers hold at least this many positions (64 MB)
_pool: list[Any] = []
_weight_pool: list[Any] = []
_MEDIUM_COLUMNS = _POOL_COLUMNS // 4  # the middle pools' buffers hold at least this many positions (16 MB)
_medium_pool: list[Any] = []  # where mid-sized results are copied out of large buffers (see _trimmed)
_medium_weight_pool: list[Any] = []
_scratches: dict[str, Any] = {}
_tables: list[tuple[Any, Any]] = []  # the one large table (and its "where"), once made


def _unused(pool: list[Any]) -> list[bool]:
    """For each buffer of ``pool``: whether nothing but the pool refers to it (it is free)."""
    # How many references "none" means depends on the interpreter (3.14 borrows some), so it is measured on a
    # probe held by the pool and one local name (hence the - 1).
    probe = np.empty(0, dtype=np.uint64)
    pool.append(probe)
    counts = [sys.getrefcount(buffer) for buffer in pool]
    pool.pop()
    free_level = counts.pop() - 1
    return [count == free_level for count in counts]


def _pooled(pool: list[Any], words: int, minimum: int) -> Any:
    """A 1-d uint64 buffer of at least ``words`` words from ``pool``: a free one (nothing else refers to it) if
    one is large enough, else a new one (of at least ``minimum`` words) that replaces a free one, or the oldest."""
    free = [buffer for buffer, unused in zip(pool, _unused(pool)) if unused]
    fitting = [buffer for buffer in free if buffer.size >= words]
    if fitting:
        return min(fitting, key=len)
    if len(pool) >= _POOL_SIZE:
        victim = min(free, key=len) if free else pool[0]
        del pool[next(index for index, buffer in enumerate(pool) if buffer is victim)]
    buffer = np.empty(max(words + words // 4, minimum), dtype=np.uint64)
    pool.append(buffer)
    return buffer


def _trimmed(out: Any, out_weights: Any, count: int) -> tuple[Any, Any]:
    """The first ``count`` columns; copied out when they fill only a small part of a pooled buffer, so that a
    small set held for long (a bot's checkpoints) does not keep a large buffer from the pool. A mid-sized set
    is copied into a buffer of the middle pools, not into fresh memory (a fresh 30 MB costs 60 ms to touch)."""
    held = out.base.size // 8 if isinstance(out.base, np.ndarray) else out.shape[1]  # the pooled buffer's columns
    if count * 4 < held and held >= _POOL_COLUMNS // 16:
        if count < _POOL_COLUMNS // 16:
            return out[:, :count].copy(), out_weights[:count].copy()
        rows = _pooled(_medium_pool, 8 * count, 8 * _MEDIUM_COLUMNS)[:8 * count].reshape(8, -1)
        weights = _pooled(_medium_weight_pool, count, _MEDIUM_COLUMNS)[:count].view(np.float64)
        rows[:] = out[:, :count]
        weights[:] = out_weights[:count]
        return rows, weights
    return out[:, :count], out_weights[:count]


def _rows_buffer(columns: int) -> Any:
    """An uninitialised ``(8, columns)`` uint64 array, a view of a pooled buffer when ``columns`` is large."""
    if columns < _POOL_COLUMNS // 16:
        return np.empty((8, max(columns, 1)), dtype=np.uint64)  # small: fresh memory costs little
    return _pooled(_pool, 8 * columns, 8 * _POOL_COLUMNS)[:8 * columns].reshape(8, -1)


def _weights_buffer(columns: int) -> Any:
    """An uninitialised float64 array of ``columns`` entries, a view of a pooled buffer when it is large."""
    if columns < _POOL_COLUMNS // 16:
        return np.empty(max(columns, 1), dtype=np.float64)
    return _pooled(_weight_pool, columns, _POOL_COLUMNS)[:columns].view(np.float64)


def _scratch(name: str, size: int, fill: int | None = None) -> Any:
    """A kernel's int64 working array of at least ``size`` entries, kept from call to call (never returned)."""
    array = _scratches.get(name)
    if array is None or len(array) < size:
        array = np.empty(max(size, 1024), dtype=np.int64)
        _scratches[name] = array
    if fill is not None:
        array[:size] = fill
    return array


def _keep_table(table: Any, where: Any) -> None:
    """Keep the table if a kernel had to grow it beyond the kept one."""
    if _tables and len(table) > len(_tables[0][0]):
        _tables[0] = (table, where)


_SMALL_TABLE = 1 << 16


def _table(expected: int) -> tuple[Any, Any]:
    """An empty table for about ``expected`` positions. A large one is the front part of one table kept for the
    whole process (as large as the largest asked for), cleared: fresh memory would cost more than the lookups."""
    size = _table_size(expected)
    if size < _SMALL_TABLE:
        return np.zeros((size, 2), dtype=np.uint64), np.empty(size, dtype=np.int64)
    if not _tables or len(_tables[0][0]) < size:
        _tables[:] = [(np.empty((size, 2), dtype=np.uint64), np.empty(size, dtype=np.int64))]
    table, where = _tables[0][0][:size], _tables[0][1][:size]
    table.fill(0)
    return table, where


@njit(cache=True, nogil=True)
def _touch(words: Any) -> None:
    """Write one word in every 4 KB of ``words``: the system hands the memory over now, with the GIL released."""
    for index in range(0, len(words), 512):
        words[index] = 0


_reserved = 0  # the largest size asked for so far (see reserve)
_adopted = 0  # the largest size whose memory is in the pools
_reserve_lock = threading.Lock()
_reserving: list[threading.Thread] = []


def reserve(columns: int) -> bool:
    """Make memory ready, on a background thread, for sets of up to ``columns`` positions (an opponent turn's
    successors): two pooled result buffers, two of the middle pools' (see :func:`_trimmed`) and the table,
    touched once so that the kernels that use them later do not pay for fresh memory (about 2 ms a megabyte
    here, more than the work). Called as a game's sets grow, in a few steps; returns whether a thread was
    started (only for a size larger than any asked for before)."""
    global _reserved
    with _reserve_lock:
        if columns <= _reserved:
            return False
        _reserved = columns
        thread = threading.Thread(target=_reserve, args=(columns,), name="inference memory", daemon=True)
        _reserving[:] = [other for other in _reserving if other.is_alive()] + [thread]
        thread.start()
    return True


def wait_ready(timeout: float | None = None) -> None:
    """Wait until the memory :func:`reserve` is making ready is ready (benchmarks and tests stand in for a
    player's thinking time with it; the app never waits)."""
    for thread in list(_reserving):
        thread.join(timeout)


def _reserve(columns: int) -> None:
    room = columns + columns // 4  # as _pooled sizes a new buffer for that many (or more)
    middle = room // 4 + 1  # _trimmed copies results of less than a quarter of a buffer into the middle pools
    rows = [np.empty(8 * room, dtype=np.uint64) for _ in range(2)]
    weights = [np.empty(room, dtype=np.uint64) for _ in range(2)]
    middle_rows = [np.empty(8 * middle, dtype=np.uint64) for _ in range(2)]
    middle_weights = [np.empty(middle, dtype=np.uint64) for _ in range(2)]
    size = _table_size(columns)
    table, where = np.empty((size, 2), dtype=np.uint64), np.empty(size, dtype=np.int64)
    for array in rows + weights + middle_rows + middle_weights + [table.reshape(-1), where.view(np.uint64)]:
        _touch(array)
    with _lock:
        for pool, buffers in ((_pool, rows), (_weight_pool, weights), (_medium_pool, middle_rows),
                              (_medium_weight_pool, middle_weights)):
            for buffer in buffers:
                _adopt(pool, buffer)
        if not _tables or len(_tables[0][0]) < size:
            _tables[:] = [(table, where)]
        global _adopted
        _adopted = max(_adopted, columns)


def _adopt(pool: list[Any], buffer: Any) -> None:
    """Put a ready ``buffer`` into ``pool``: into a free place, or instead of a smaller buffer nothing refers to."""
    if len(pool) < _POOL_SIZE:
        pool.append(buffer)
        return
    smaller = [index for index, (held, unused) in enumerate(zip(pool, _unused(pool)))
               if unused and held.size < buffer.size]
    if smaller:
        pool[min(smaller, key=lambda index: pool[index].size)] = buffer


@_exclusive
def unique(rows: Rows, weights: Weights) -> tuple[Rows, Weights]:
    """:func:`app.engine.inference_vec.unique`, compiled, and exact up to the 128-bit fingerprint."""
    n = rows.shape[1]
    if n <= 1:
        return rows, weights
    weights = np.asarray(weights, dtype=np.float64)
    firsts, best, distinct = _unique(rows, weights, bool(weights.min() == weights.max()))
    if distinct == n:
        return rows, weights
    return rows[:, firsts[:distinct]], best[:distinct]


@_exclusive
def keep(rows: Rows, weights: Weights, mask: Any) -> tuple[Rows, Weights]:
    """``rows[:, mask], weights[mask]``, into memory used again."""
    kept = int(np.count_nonzero(mask))
    if kept == rows.shape[1]:
        return rows, weights
    out, out_weights = _rows_buffer(kept), _weights_buffer(kept)
    kept = _compact(rows, np.asarray(weights, dtype=np.float64), mask, out, out_weights)
    return _trimmed(out, out_weights, kept)


@njit(cache=True)
def _select(rows: Any, weights: Any, wanted: Any, out: Any, out_weights: Any) -> int:
    """The kernel of :func:`select`: the columns that fit ``wanted`` (see :func:`_fits`), in order, into
    ``out``; returns how many. When every column fits, nothing is copied (returns the number of columns)."""
    kept = 0
    copying = False  # (until a column does not fit, the kept ones are the first ones: nothing to copy yet)
    for column in range(rows.shape[1]):
        if _fits(rows, column, wanted):
            if copying:
                _copy_column(rows, weights, column, out, out_weights, kept)
            kept += 1
        elif not copying:
            copying = True
            _copy_first(rows, weights, kept, out, out_weights)
    return kept


def _wanted(window: int, shown: tuple[int, int, int, int, int, int], empty: int, full: int, some: int,
            ep_is: int, ep_not: int) -> Any:
    """The conditions of :func:`select` packed for :func:`_fits`."""
    return np.array((window, *shown, empty, full, some, ep_is, ep_not), dtype=np.uint64)


_NOTHING_WANTED = np.zeros(0, dtype=np.uint64)


@_exclusive
def select(rows: Rows, weights: Weights, window: int, shown: tuple[int, int, int, int, int, int], empty: int,
           full: int, some: int, ep_is: int, ep_not: int) -> tuple[Rows, Weights]:
    """:func:`app.engine.inference_vec.select`, compiled: one pass, no temporary arrays."""
    n = rows.shape[1]
    weights = np.asarray(weights, dtype=np.float64)
    out, out_weights = _rows_buffer(n), _weights_buffer(n)
    kept = _select(rows, weights, _wanted(window, shown, empty, full, some, ep_is, ep_not), out, out_weights)
    if kept == n:
        return rows, weights
    return _trimmed(out, out_weights, kept)


@njit(cache=True, inline="always")
def _sees(rows: Any, column: int, wanted: Any, cap_index: int, cap_bb: Any, kind: int, fixed: Any,
          revealed: Any, shown: Any, origin: int, mine: Any) -> bool:
    """Whether a column fits a Blind Chess attempt's answer (see :func:`sight_select`)."""
    if not _fits(rows, column, wanted):
        return False
    zero = _U(0)
    if cap_index >= 0 and (rows[cap_index, column] & cap_bb) == zero:
        return False
    if kind == _SEEN_NONE:
        return True
    p, n, b, r = rows[0, column], rows[1, column], rows[2, column], rows[3, column]
    q, k = rows[4, column], rows[5, column]
    theirs = p | n | b | r | q | k
    if kind == _SEEN_FIXED:
        seen = theirs & fixed
    else:
        occupied = theirs | mine
        if kind == _SEEN_STRAIGHT or kind == _SEEN_CASTLE:
            lines = _rook(origin, occupied)
        elif kind == _SEEN_DIAGONAL:
            lines = _bishop(origin, occupied)
        else:
            lines = _rook(origin, occupied) | _bishop(origin, occupied)
        seen = ((fixed if kind == _SEEN_CASTLE else zero) | lines) & theirs
    if (seen & ~cap_bb) != revealed:
        return False
    return not ((p & revealed) != shown[0] or (n & revealed) != shown[1] or (b & revealed) != shown[2]
                or (r & revealed) != shown[3] or (q & revealed) != shown[4] or (k & revealed) != shown[5])


@njit(cache=True)
def _sight_select(rows: Any, weights: Any, wanted: Any, cap_index: int, cap_bb: Any, kind: int, fixed: Any,
                  revealed: Any, shown: Any, origin: int, mine: Any, out: Any, out_weights: Any) -> int:
    """The kernel of :func:`sight_select`: the columns that fit, in order, into ``out``; returns how many.
    When every column fits, nothing is copied (returns the number of columns)."""
    kept = 0
    copying = False  # as in _select; one call of the inlined _sees, not two: compiling each copy took seconds
    for column in range(rows.shape[1]):
        if _sees(rows, column, wanted, cap_index, cap_bb, kind, fixed, revealed, shown, origin, mine):
            if copying:
                _copy_column(rows, weights, column, out, out_weights, kept)
            kept += 1
        elif not copying:
            copying = True
            _copy_first(rows, weights, kept, out, out_weights)
    return kept


@_exclusive
def sight_select(rows: Rows, weights: Weights, empty: int, full: int, some: int, ep_is: int, ep_not: int,
                 cap_index: int, cap_bb: int, kind: int, fixed: int, revealed: int,
                 shown: tuple[int, int, int, int, int, int], origin: int, mine: int) -> tuple[Rows, Weights]:
    """:func:`app.engine.inference_vec.sight_select`, compiled: one pass, no temporary arrays."""
    n = rows.shape[1]
    weights = np.asarray(weights, dtype=np.float64)
    out, out_weights = _rows_buffer(n), _weights_buffer(n)
    kept = _sight_select(rows, weights, _wanted(0, (0, 0, 0, 0, 0, 0), empty, full, some, ep_is, ep_not),
                         cap_index, _U(cap_bb), kind, _U(fixed), _U(revealed), np.array(shown, dtype=np.uint64),
                         origin, _U(mine), out, out_weights)
    if kept == n:
        return rows, weights
    return _trimmed(out, out_weights, kept)


@_exclusive
def forget(rows: Rows, weights: Weights, square: int | None,
           keep: tuple[int, tuple[int, int, int, int, int, int], int, int, int, int, int] | None = None
           ) -> tuple[Rows, Weights]:
    """After the seat's own move: every column with its en-passant square cleared and the piece on ``square``
    (``None``: none) taken with its castling rights, duplicates merged (largest weight kept). The columns of
    ``rows`` are distinct (as every set is). ``keep``: the arguments of :func:`select` after ``weights``, to
    keep only the columns that fit them first, in the same pass (a move result, then its capture)."""
    n = rows.shape[1]
    weights = np.asarray(weights, dtype=np.float64)
    wanted = _NOTHING_WANTED if keep is None else _wanted(*keep)
    bit = 0 if square is None else chess.BB_SQUARES[square]
    kinds = _kinds(rows, _U(bit), wanted)
    fitting = int(kinds.sum())
    major = int(np.argmax(kinds[:5])) if bit else 6  # never the king: taking it clears every castling right
    if not bit or kinds[6] > kinds[major]:
        major = 6
    changing = fitting - int(kinds[major])
    out, out_weights = _rows_buffer(fitting), _weights_buffer(fitting)
    if 4 * changing > fitting:
        table, where = _table(fitting)
        distinct = _forget_all(rows, weights, bool(n == 0 or weights.min() == weights.max()), _U(bit), out,
                               out_weights, table, where, wanted)
    else:
        table, where = _table(changing)
        best = _scratch("best", len(table)).view(np.float64)
        distinct = _forget(rows, weights, _U(bit), major, out, out_weights, table, _scratch("slot of", n),
                           _scratch("first of", len(table)), best, wanted)
    _keep_table(table, where)
    return _trimmed(out, out_weights, distinct)


@_exclusive
def systematic_sample(rows: Rows, weights: Weights, count: int, offset: float) -> tuple[Rows, Weights]:
    """:func:`app.engine.inference_vec.systematic_sample`, compiled: the same columns and weights."""
    weights = np.asarray(weights, dtype=np.float64)
    total = float(weights.sum())  # numpy's pairwise sum, as the numpy version takes it
    if total <= 0:
        return rows[:, :count], weights[:count]
    out, out_weights = _rows_buffer(min(count, rows.shape[1])), _weights_buffer(min(count, rows.shape[1]))
    drawn = _systematic(rows, weights, total, count, offset, out, out_weights)
    return _trimmed(out, out_weights, drawn)


@njit(cache=True)
def _piece_sums(rows: Any, weights: Any) -> Any:
    """The kernel of :func:`piece_shares`: weight sums per field (and for all pieces, row 6) and square."""
    sums = np.zeros((7, 64), dtype=np.float64)
    for column in range(rows.shape[1]):
        weight = weights[column]
        for field in range(6):
            pieces = rows[field, column]
            while pieces:
                square = _square(pieces & (_U(0) - pieces))
                pieces &= pieces - _U(1)
                sums[field, square] += weight
                sums[6, square] += weight
    return sums


def piece_shares(rows: Rows, weights: Weights) -> list[list[float]]:
    """:func:`app.engine.inference_vec.piece_shares`, compiled (the same figures, up to rounding when the weights
    differ: the sums are added in another order)."""
    weights = np.asarray(weights, dtype=np.float64)
    total = float(weights.sum()) or 1.0
    return (_piece_sums(rows, weights) / total).tolist()  # type: ignore[no-any-return]


@_exclusive
def materials(rows: Rows) -> Any | None:
    """The distinct material codes of ``rows`` (see :func:`_materials`), or ``None`` when there are more than
    2048 of them."""
    codes = _materials(rows)
    return None if len(codes) >= 1 << 11 else codes


def warm_up() -> bool:
    """Compile (or load from numba's cache) every kernel now, on tiny inputs; returns :data:`AVAILABLE`.
    A failure switches the compiled kernels off for this process (the numpy ones take over)."""
    global AVAILABLE, WHY_NOT, _warm
    if not AVAILABLE or _warm:
        return AVAILABLE
    try:
        # One compiled version of each kernel, for sets of any memory layout: sets are often views into a larger
        # array (an expansion's result), for which numba compiles apart from contiguous arrays, and compiling
        # both doubled the time of the first start (about 60 s instead of 30). Every call below passes a view;
        # then no more versions are compiled and a contiguous set is passed to the view's version.
        wide = np.zeros((8, 4), dtype=np.uint64)
        wide[:, :1] = np.array([[chess.BB_RANK_2], [chess.BB_B1 | chess.BB_G1], [chess.BB_C1 | chess.BB_F1],
                                [chess.BB_A1 | chess.BB_H1], [chess.BB_D1], [chess.BB_E1],
                                [chess.BB_A1 | chess.BB_H1], [0]], dtype=np.uint64)
        start = wide[:, :1]
        for unchanged in (0, 1, 2):
            expand(start, np.ones(1), chess.BB_RANK_7 | chess.BB_RANK_8, chess.WHITE, None, 0, unchanged)
        expand(start, np.ones(1), chess.BB_D3, chess.WHITE, chess.D3, 0, 0)
        wide[:, 1:2] = start
        rows = wide[:, :2]
        unique(rows, np.ones(2))
        for weights in (np.ones(rows.shape[1]), np.arange(1.0, rows.shape[1] + 1)):
            keep(rows, weights, np.arange(rows.shape[1]) == 0)
            select(rows, weights, chess.BB_RANK_2, (chess.BB_A2, 0, 0, 0, 0, 0), chess.BB_E4, chess.BB_D1,
                   chess.BB_E1, 0, chess.E3)
            for kind in range(6):
                sight_select(rows, weights, chess.BB_E4, chess.BB_D1, chess.BB_E1, 0, chess.E3, 0,
                             chess.BB_A2, kind, chess.BB_B1, chess.BB_A2, (chess.BB_A2, 0, 0, 0, 0, 0), chess.A1,
                             chess.BB_RANK_7)
            forget(rows, weights, chess.E1)
            forget(rows, weights, None)
            forget(rows, weights, chess.E1, (0, (0,) * 6, chess.BB_E4, chess.BB_D1, 0, 0, chess.E3))
            systematic_sample(rows, weights, 1, 0.5)
        materials(rows)
        piece_shares(rows, np.ones(rows.shape[1]))
        _touch(np.zeros(1, dtype=np.uint64))
        for kernel in list(globals().values()):
            if getattr(kernel, "signatures", None):  # (the inlined helpers are never compiled on their own)
                kernel.disable_compile()  # from now on a call converts its arguments to a compiled version
        _warm = True
    except Exception as error:  # noqa: BLE001 - a compiler failure must not stop the game
        AVAILABLE = False
        WHY_NOT = f"numba could not compile the inference kernels ({type(error).__name__}: {error})"
    return AVAILABLE
