"""The inference's sets as numpy arrays: one opponent army per column, and the moves of all of them at once.

A set of hypotheses is a ``(8, n)`` array of ``uint64`` (:data:`Rows`): row ``i`` holds
field ``i`` of every hypothesis (pawns, knights, bishops, rooks, queens, kings,
castling rights, en-passant square; the order of
:data:`~app.engine.inference_core.Hypothesis`), and a ``float64`` array of ``n``
weights goes with it. Everything here works on whole rows at once: attacks of many
pieces (rank lookups and the hyperbola-quintessence trick for files and diagonals),
every successor of every hypothesis (:func:`expand`), removing duplicates
(:func:`unique`), weighted sampling. Arrays are never changed in place once made, so
a shallow copy of a set is a snapshot.

>>> import chess
>>> occupied = np.array([chess.BB_D4 | chess.BB_A1], dtype=np.uint64)
>>> int(rook_attacks(np.array([chess.A4]), occupied)[0]) == chess.BB_A1 | chess.BB_A5 | chess.BB_A6 | chess.BB_A7 \\
...     | chess.BB_A8 | chess.BB_A2 | chess.BB_A3 | chess.BB_B4 | chess.BB_C4 | chess.BB_D4
True
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np
from chess import BB_RANK_ATTACKS, BB_RANK_MASKS

Rows = Any  # numpy.ndarray of shape (8, n), dtype uint64 (numpy's typing is kept out of the public signatures)
Weights = Any  # numpy.ndarray of shape (n,), dtype float64

U64 = np.uint64
ZERO = U64(0)
FULL = U64((1 << 64) - 1)
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, CASTLING, EP = range(8)


def _table(values: list[int]) -> Any:
    return np.array(values, dtype=np.uint64)


KNIGHT_TABLE = _table(chess.BB_KNIGHT_ATTACKS)
KING_TABLE = _table(chess.BB_KING_ATTACKS)
SQUARE_BITS = _table(chess.BB_SQUARES)
_RANK_TABLE = _table([BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & (byte << (8 * (square >> 3)))]
                      for square in range(64) for byte in range(256)])
_FILE_MASKS = _table([chess.BB_FILES[square & 7] & ~chess.BB_SQUARES[square] for square in range(64)])
_DIAGONALS = _table([sum(chess.BB_SQUARES[s] for s in range(64)
                         if (s & 7) - (s >> 3) == (square & 7) - (square >> 3) and s != square) for square in range(64)])
_ANTI_DIAGONALS = _table([sum(chess.BB_SQUARES[s] for s in range(64)
                              if (s & 7) + (s >> 3) == (square & 7) + (square >> 3) and s != square)
                          for square in range(64)])
_DE_BRUIJN = U64(0x03F79D71B4CB0A89)
_DE_BRUIJN_INDEX = np.zeros(64, dtype=np.intp)
for _bit in range(64):
    _DE_BRUIJN_INDEX[((1 << _bit) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _bit


def empty_rows() -> Rows:
    return np.zeros((8, 0), dtype=np.uint64)


def lowest(bb: Any) -> Any:
    """The lowest set bit of each value (0 for 0)."""
    return bb & (ZERO - bb)


def square_of(single: Any) -> Any:
    """The square index of each one-bit value."""
    return _DE_BRUIJN_INDEX[(single * _DE_BRUIJN) >> U64(58)]


def _line(occupied: Any, mask: Any, single: Any) -> Any:
    """Attacks along one line (file or diagonal) through the square ``single``: hyperbola quintessence."""
    forward = occupied & mask
    reverse = forward.byteswap()
    forward = forward - single
    reverse = reverse - single.byteswap()
    return (forward ^ reverse.byteswap()) & mask


def rook_attacks(squares: Any, occupied: Any) -> Any:
    """For each square (an int array) and occupancy: the squares a rook there attacks."""
    single = SQUARE_BITS[squares]
    rank_shift = (squares & ~7).astype(np.uint64)
    rank = _RANK_TABLE[(squares << 8) + ((occupied >> rank_shift) & U64(255)).astype(np.intp)]
    return rank | _line(occupied, _FILE_MASKS[squares], single)


def bishop_attacks(squares: Any, occupied: Any) -> Any:
    """For each square (an int array) and occupancy: the squares a bishop there attacks."""
    single = SQUARE_BITS[squares]
    return _line(occupied, _DIAGONALS[squares], single) | _line(occupied, _ANTI_DIAGONALS[squares], single)


def occupancy(rows: Rows) -> Any:
    return rows[0] | rows[1] | rows[2] | rows[3] | rows[4] | rows[5]


def bits_of(rows_index: Any, bbs: Any) -> tuple[Any, Any]:
    """Each set bit of ``bbs`` as (its entry's ``rows_index``, the bit); entries with more bits repeat."""
    owners: list[Any] = []
    singles: list[Any] = []
    bbs = bbs.copy()
    index = np.arange(len(bbs))
    while len(index):
        values = bbs[index]
        keep = values != 0
        index, values = index[keep], values[keep]
        if not len(index):
            break
        low = lowest(values)
        owners.append(rows_index[index])
        singles.append(low)
        bbs[index] = values ^ low
    if not owners:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.uint64)
    return np.concatenate(owners), np.concatenate(singles)


def _pieces(bb: Any) -> tuple[Any, Any]:
    """Each piece of a bitboard column: (row, square)."""
    rows, singles = bits_of(np.arange(len(bb)), bb)
    return rows, square_of(singles)


class _Children:
    """Successors collected group by group: parents' columns copied, then changed."""

    def __init__(self, rows: Rows, weights: Weights) -> None:
        self.rows, self.weights = rows, weights
        self.parts: list[Any] = []
        self.part_weights: list[Any] = []
        self.part_parents: list[Any] = []
        self.part_keys: list[Any] = []

    def add(self, parents: Any, changes: dict[int, Any], key: Any, ep: Any = ZERO, clear_castling: Any = None) -> Any:
        """Children of ``parents``: field ``f`` xor ``changes[f]``; the en-passant field set to ``ep``;
        castling bits in ``clear_castling`` cleared. ``key`` orders the children of one parent (see
        :func:`_move_key`). Returns the new columns (to change further)."""
        if not len(parents):
            return None
        self.part_parents.append(parents)
        self.part_keys.append(np.broadcast_to(np.asarray(key, dtype=np.int64), (len(parents),)))
        child = self.rows[:, parents]
        for column, xor in changes.items():
            child[column] ^= xor
        child[EP] = ep
        if clear_castling is not None:
            child[CASTLING] &= ~clear_castling
        self.parts.append(child)
        self.part_weights.append(self.weights[parents])
        return child

    def result(self, share: bool = False, also: Any = 0) -> tuple[Rows, Weights]:
        """The children in order; with ``share``, each parent's weight divided among its children and the
        ``also`` moves (per parent) that made none of them."""
        if not self.parts:
            return empty_rows(), np.zeros(0)
        rows, weights = np.concatenate(self.parts, axis=1), np.concatenate(self.part_weights)
        if share:
            parents = np.concatenate(self.part_parents)
            made = np.bincount(parents, minlength=len(self.weights)) + also
            weights = weights / made[parents]
        # Parent by parent (lightest first, as the one-at-a-time implementation made them), each parent's
        # children in move order: systematic sampling then spreads over parents, and the order (hence
        # every sample) is the same as that implementation's and the compiled kernel's (inference_jit).
        parent_weights = self.weights
        if parent_weights.min() == parent_weights.max():
            rank = np.arange(len(parent_weights), dtype=np.int64)
        else:
            rank = np.empty(len(parent_weights), dtype=np.int64)
            rank[np.argsort(parent_weights, kind="stable")] = np.arange(len(parent_weights))
        keys = rank[np.concatenate(self.part_parents)] << 24 | np.concatenate(self.part_keys)
        order = np.argsort(keys, kind="stable")
        rows, weights = rows[:, order], weights[order]
        return rows, weights


def piece_targets(column: int, squares: Any, occupied: Any) -> Any:
    """The squares a knight, bishop, rook, queen or king (``column``) on each of ``squares`` reaches, with
    ``occupied`` (one per square) stopping the sliders on the first piece in their way."""
    if column == KNIGHT:
        return KNIGHT_TABLE[squares]
    if column == KING:
        return KING_TABLE[squares]
    if column == BISHOP:
        return bishop_attacks(squares, occupied)
    if column == ROOK:
        return rook_attacks(squares, occupied)
    return rook_attacks(squares, occupied) | bishop_attacks(squares, occupied)


def capture_counts(rows: Rows, mine: int, white: bool) -> Any:
    """For each position: how many captures of the seat's pieces (``mine``) the opponent (White if ``white``)
    could attempt there, a move that lands on one of them (en passant aside)."""
    mine64 = U64(mine)
    occupied = occupancy(rows) | mine64
    counts = np.zeros(rows.shape[1], dtype=np.int64)
    for column in (KNIGHT, BISHOP, ROOK, QUEEN, KING):
        parents, squares = _pieces(rows[column])
        if not len(parents):
            continue
        targets = piece_targets(column, squares, occupied[parents])
        np.add.at(counts, parents, np.bitwise_count(targets & mine64).astype(np.int64))
    pawns = rows[PAWN]
    left, right = pawns & U64(~chess.BB_FILE_A & chess.BB_ALL), pawns & U64(~chess.BB_FILE_H & chess.BB_ALL)
    if white:
        hits = np.bitwise_count((left << U64(7)) & mine64), np.bitwise_count((right << U64(9)) & mine64)
    else:
        hits = np.bitwise_count((left >> U64(9)) & mine64), np.bitwise_count((right >> U64(7)) & mine64)
    return counts + hits[0] + hits[1]


def _move_key(group: int, origin: Any = 0, target: Any = 0, sub: int = 0) -> Any:
    """Where a move comes among one parent's successors: by group (piece type, castling, pawn step ...), then
    origin square, then target square, then promotion piece or castling side."""
    return (group << 18) + (np.asarray(origin, dtype=np.int64) << 10) + (np.asarray(target, dtype=np.int64) << 4) \
        + sub


def _sq(bits: Any) -> Any:
    return square_of(bits).astype(np.int64)


PASS_NEVER, PASS_ALWAYS, PASS_IF_SOME_ATTEMPT_FAILS = range(3)


def expand(rows: Rows, weights: Weights, mine: int, opponent: chess.Color, capture: int | None, ep_target: int,
           unchanged: int, branching: float = 40.0, share: bool = False) -> tuple[Rows, Weights, int]:
    """Every position one opponent turn leads to from each hypothesis (the rules: the docstring of
    :func:`app.engine.inference_core.expand`, which this computes for whole arrays). Returns the successors with
    duplicates removed (a position reached from several parents keeps the largest weight) and how many were
    generated. ``branching`` is unused (the compiled kernel's allocation hint). ``share``: each parent's weight
    is shared equally among its moves (the opponent picks one, each as likely), and a position reached from
    several parents gets the sum of its shares. After a quiet turn the moves include the captures it could have
    tried (:func:`capture_counts`): they made no successor, so a position that offered many and took none
    loses weight."""
    white = opponent == chess.WHITE
    n = rows.shape[1]
    if n == 0:
        return empty_rows(), np.zeros(0), 0
    mine64 = U64(mine)
    back = U64(chess.BB_RANK_1 if white else chess.BB_RANK_8)
    children = _Children(rows, weights)
    if capture is not None:
        _captures(children, rows, mine, white, opponent, capture, ep_target)
    else:
        _quiet(children, rows, mine64, white, back, unchanged, ep_target)
    # A quiet turn: the captures the opponent could have tried were not made (the seat lost nothing).
    also = capture_counts(rows, mine, white) if share and capture is None else 0
    out, out_weights = children.result(share, also)
    made = out.shape[1]
    if made:
        out, out_weights = unique(out, out_weights, total=share)
    return out, out_weights, made


def _captures(children: _Children, rows: Rows, mine: int, white: bool, opponent: chess.Color, capture: int,
              ep_target: int) -> None:
    sb = chess.BB_SQUARES[capture]
    if not sb & mine:
        return
    target = U64(sb)
    every = np.arange(rows.shape[1])
    occupied = occupancy(rows) | U64(mine)
    lose_all = U64(chess.BB_RANK_1 if white else chess.BB_RANK_8)
    for group, column, table in ((1, KNIGHT, chess.BB_KNIGHT_ATTACKS[capture]),
                                 (2, KING, chess.BB_KING_ATTACKS[capture])):
        parents, singles = bits_of(every, rows[column] & U64(table))
        children.add(parents, {column: singles | target}, _move_key(group, _sq(singles)),
                     clear_castling=lose_all if column == KING else None)
    squares = np.full(rows.shape[1], capture, dtype=np.intp)
    straight = rook_attacks(squares, occupied)
    diagonal = bishop_attacks(squares, occupied)
    parents, singles = bits_of(every, straight & rows[ROOK])
    children.add(parents, {ROOK: singles | target}, _move_key(3, _sq(singles)), clear_castling=singles)
    parents, singles = bits_of(every, straight & rows[QUEEN])
    children.add(parents, {QUEEN: singles | target}, _move_key(4, _sq(singles)))
    parents, singles = bits_of(every, diagonal & rows[BISHOP])
    children.add(parents, {BISHOP: singles | target}, _move_key(5, _sq(singles)))
    parents, singles = bits_of(every, diagonal & rows[QUEEN])
    children.add(parents, {QUEEN: singles | target}, _move_key(6, _sq(singles)))
    parents, singles = bits_of(every, rows[PAWN] & U64(chess.BB_PAWN_ATTACKS[not opponent][capture]))
    if sb & chess.BB_BACKRANKS:
        for sub, column in enumerate((QUEEN, ROOK, BISHOP, KNIGHT)):
            children.add(parents, {PAWN: singles, column: target}, _move_key(7, _sq(singles), 0, sub))
    else:
        children.add(parents, {PAWN: singles | target}, _move_key(7, _sq(singles)))
    if ep_target and capture == (ep_target - 8 if white else ep_target + 8):
        # The seat's pawn that just double-stepped is taken en passant.
        parents, singles = bits_of(every, rows[PAWN] & U64(chess.BB_PAWN_ATTACKS[not opponent][ep_target]))
        children.add(parents, {PAWN: singles | U64(chess.BB_SQUARES[ep_target])}, _move_key(8, _sq(singles)))


def _quiet(children: _Children, rows: Rows, mine: Any, white: bool, back: Any, unchanged: int,
           ep_target: int) -> None:
    n = rows.shape[1]
    every = np.arange(n)
    theirs = occupancy(rows)
    occupied = theirs | mine
    empty = ~occupied
    generated = np.zeros(n, dtype=bool) if unchanged == PASS_IF_SOME_ATTEMPT_FAILS else None
    for group, column in enumerate((KNIGHT, BISHOP, ROOK, QUEEN, KING), start=1):
        parents, squares = _pieces(rows[column])
        if not len(parents):
            continue
        targets = piece_targets(column, squares, occupied[parents])
        targets = targets & empty[parents]
        origin = SQUARE_BITS[squares]
        moves, destinations = bits_of(np.arange(len(parents)), targets)
        if not len(moves):
            continue
        from_bits = origin[moves]
        movers = parents[moves]
        key = _move_key(group, squares[moves], _sq(destinations))
        if column == KING:
            children.add(movers, {KING: from_bits | destinations}, key, clear_castling=back)
        elif column == ROOK:
            children.add(movers, {ROOK: from_bits | destinations}, key, clear_castling=from_bits)
        else:
            children.add(movers, {column: from_bits | destinations}, key)
        if generated is not None:
            generated[movers] = True
    _castlings(children, rows, occupied, white, back, generated)
    pawns = rows[PAWN]
    if white:
        singles_bb = (pawns << U64(8)) & empty
        doubles_bb = ((singles_bb & U64(chess.BB_RANK_3)) << U64(8)) & empty
    else:
        singles_bb = (pawns >> U64(8)) & empty
        doubles_bb = ((singles_bb & U64(chess.BB_RANK_6)) >> U64(8)) & empty
    parents, targets = bits_of(every, singles_bb)
    if len(parents):
        origins = (targets >> U64(8)) if white else (targets << U64(8))
        promote = (targets & U64(chess.BB_BACKRANKS)) != 0
        plain = ~promote
        children.add(parents[plain], {PAWN: origins[plain] | targets[plain]}, _move_key(7, 0, _sq(targets[plain])))
        for sub, column in enumerate((QUEEN, ROOK, BISHOP, KNIGHT)):
            children.add(parents[promote], {PAWN: origins[promote], column: targets[promote]},
                         _move_key(7, 0, _sq(targets[promote]), sub))
        if generated is not None:
            generated[parents] = True
    parents, targets = bits_of(every, doubles_bb)
    if len(parents):
        origins = (targets >> U64(16)) if white else (targets << U64(16))
        passed = (targets >> U64(8)) if white else (targets << U64(8))
        children.add(parents, {PAWN: origins | targets}, _move_key(8, 0, _sq(targets)),
                     ep=square_of(passed).astype(np.uint64))
        if generated is not None:
            generated[parents] = True
    if unchanged == PASS_ALWAYS:
        children.add(every, {}, _move_key(9))
    elif generated is not None:
        stays = ~generated | some_attempt_fails(rows, int(mine), white, ep_target)
        children.add(every[stays], {}, _move_key(9))


def _castlings(children: _Children, rows: Rows, occupied: Any, white: bool, back: Any, generated: Any) -> None:
    king_home = chess.E1 if white else chess.E8
    home_bit = U64(chess.BB_SQUARES[king_home])
    for side, (rook, king_to, rook_to) in enumerate(
            ((chess.H1, chess.G1, chess.F1), (chess.A1, chess.C1, chess.D1)) if white else
            ((chess.H8, chess.G8, chess.F8), (chess.A8, chess.C8, chess.D8))):
        rook_bit = U64(chess.BB_SQUARES[rook])
        between = U64(chess.between(king_home, rook))
        able = ((rows[KING] & home_bit) != 0) & ((rows[CASTLING] & rows[ROOK] & rook_bit) != 0) \
            & ((occupied & between) == 0)
        parents = np.flatnonzero(able)
        if len(parents):
            children.add(parents, {KING: home_bit | U64(chess.BB_SQUARES[king_to]),
                                   ROOK: rook_bit | U64(chess.BB_SQUARES[rook_to])}, _move_key(6, 0, 0, side),
                         clear_castling=back)
            if generated is not None:
                generated[parents] = True


def some_attempt_fails(rows: Rows, mine: int, white: bool, ep_target: int) -> Any:
    """Blind Chess: for each hypothesis, whether one of the opponent's possible attempts would fail (ruling B2);
    :func:`app.engine.inference_core._some_attempt_fails` for whole arrays."""
    pawns, bishops, rooks, queens, kings, castling = rows[PAWN], rows[BISHOP], rows[ROOK], rows[QUEEN], \
        rows[KING], rows[CASTLING]
    theirs = occupancy(rows)
    mine64 = U64(mine)
    free = ~theirs
    file_a, file_h = U64(chess.BB_FILE_A), U64(chess.BB_FILE_H)
    if white:
        diagonal = (((pawns & ~file_a) << U64(7)) | ((pawns & ~file_h) << U64(9))) & free
        pushes = pawns << U64(8)
        middles = ((pawns & U64(chess.BB_RANK_2)) << U64(8)) & free
        doubles = (middles << U64(8)) & free
        double_middles = doubles >> U64(8)
    else:
        diagonal = (((pawns & ~file_a) >> U64(9)) | ((pawns & ~file_h) >> U64(7))) & free
        pushes = pawns >> U64(8)
        middles = ((pawns & U64(chess.BB_RANK_7)) >> U64(8)) & free
        doubles = (middles >> U64(8)) & free
        double_middles = doubles << U64(8)
    ep_bb = U64(chess.BB_SQUARES[ep_target]) if ep_target else ZERO
    fails = (diagonal & ~mine64 & ~ep_bb) != 0
    fails |= ((pushes | doubles | double_middles) & mine64) != 0
    occupied = theirs | mine64
    for column, straight, diagonal_lines in ((ROOK, True, False), (BISHOP, False, True), (QUEEN, True, True)):
        parents, squares = _pieces(rows[column])
        if not len(parents):
            continue
        own_only = theirs[parents]
        both = occupied[parents]
        missed = np.zeros(len(parents), dtype=np.uint64)
        if straight:
            missed |= rook_attacks(squares, own_only) & ~rook_attacks(squares, both)
        if diagonal_lines:
            missed |= bishop_attacks(squares, own_only) & ~bishop_attacks(squares, both)
        hit = (missed & free[parents]) != 0
        fails[parents[hit]] = True
    king_home = chess.E1 if white else chess.E8
    home_bit = U64(chess.BB_SQUARES[king_home])
    for rook in (chess.H1, chess.A1) if white else (chess.H8, chess.A8):
        between = U64(chess.between(king_home, rook))
        rook_bit = U64(chess.BB_SQUARES[rook])
        fails |= (((kings & home_bit) != 0) & ((castling & rooks & rook_bit) != 0) & ((theirs & between) == 0)
                  & ((mine64 & between) != 0))
    return fails


# ---- duplicates, weights, sampling -------------------------------------------------------------------------

_CHUNK = 1 << 15
_MULTIPLIERS = [U64(m) for m in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                                 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x27D4EB2F165667C5, 0x85EBCA77C2B2AE63)]
_SECOND = [U64(m) for m in (0xA0761D6478BD642F, 0xE7037ED1A0B428DB, 0x8EBC6AF09C88C6E3, 0x589965CC75374CC3,
                            0x1D8E4E27C47D124F, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F, 0xCBF29CE484222325)]


_CHUNK = 1 << 15


def _hash(rows: Rows, multipliers: list[Any], shift: Any) -> Any:
    """A cheap 64-bit hash of each column: each field is xored into the state, whose high bits are folded down
    before a multiply carries every bit up again. Structured differences (a piece moved in one field, another
    in the next) can cancel, so it only tells apart columns the strong hash (:func:`_strong_hash`) confused.
    Computed in slices that stay in the processor's cache (over whole arrays every step would go to memory)."""
    n = rows.shape[1]
    out = np.empty(n, dtype=np.uint64)
    scratch = np.empty(min(n, _CHUNK), dtype=np.uint64)
    for start in range(0, n, _CHUNK):
        end = min(n, start + _CHUNK)
        h, tmp = out[start:end], scratch[:end - start]
        np.multiply(rows[0, start:end], multipliers[0], out=h)
        for column in range(1, 7):
            np.bitwise_xor(h, rows[column, start:end], out=h)
            np.right_shift(h, shift, out=tmp)
            np.bitwise_xor(h, tmp, out=h)
            np.multiply(h, multipliers[column], out=h)
        # Castling rights (back-rank squares) and the en-passant square (0..63, moved to bits 8-13, clear of any
        # back-rank square) share a field.
        np.left_shift(rows[EP, start:end], U64(8), out=tmp)
        np.bitwise_or(tmp, rows[CASTLING, start:end], out=tmp)
        np.bitwise_xor(h, tmp, out=h)
        np.right_shift(h, U64(33), out=tmp)
        np.bitwise_xor(h, tmp, out=h)
        np.multiply(h, multipliers[7], out=h)
        np.right_shift(h, U64(29), out=tmp)
        np.bitwise_xor(h, tmp, out=h)
    return out


def _strong_hash(rows: Rows) -> Any:
    """A 64-bit hash of each column: the sum of every field passed through its own full-avalanche mixer
    (MurmurHash3's finaliser), so that no pattern of differences between two positions cancels out."""
    n = rows.shape[1]
    out = np.zeros(n, dtype=np.uint64)
    z = np.empty(min(n, _CHUNK), dtype=np.uint64)
    tmp = np.empty(min(n, _CHUNK), dtype=np.uint64)
    c1, c2, s33 = U64(0xFF51AFD7ED558CCD), U64(0xC4CEB9FE1A85EC53), U64(33)
    for start in range(0, n, _CHUNK):
        end = min(n, start + _CHUNK)
        h, zz, tt = out[start:end], z[:end - start], tmp[:end - start]
        for column in range(7):
            if column < 6:
                np.bitwise_xor(rows[column, start:end], _SECOND[column], out=zz)
            else:
                np.left_shift(rows[EP, start:end], U64(8), out=zz)  # clear of the castling rights
                np.bitwise_or(zz, rows[CASTLING, start:end], out=zz)
                np.bitwise_xor(zz, _SECOND[6], out=zz)
            np.right_shift(zz, s33, out=tt)
            np.bitwise_xor(zz, tt, out=zz)
            np.multiply(zz, c1, out=zz)
            np.right_shift(zz, s33, out=tt)
            np.bitwise_xor(zz, tt, out=zz)
            np.multiply(zz, c2, out=zz)
            np.right_shift(zz, s33, out=tt)
            np.bitwise_xor(zz, tt, out=zz)
            np.multiply(zz, _MULTIPLIERS[column], out=zz)
            np.add(h, zz, out=h)
    return out


_INDEX_BITS = 22


def unique(rows: Rows, weights: Weights, total: bool = False) -> tuple[Rows, Weights]:
    """The distinct columns of ``rows``, each with the largest weight it had (``total``: the sum of its
    weights), in their first order.

    Columns are told apart by two 64-bit hashes (the top 42 bits of a strong
    one, all of a cheap one): two different columns merge only if both collide,
    with a probability of about ``n**2 / 2**107``. Equal columns always merge.
    """
    n = rows.shape[1]
    if n <= 1:
        return rows, weights
    first, second = _strong_hash(rows), _hash(rows, _MULTIPLIERS, U64(29))
    if n > 1 << _INDEX_BITS:
        order = np.lexsort((second, first))
        high = first[order]
    else:
        # Sorting the hash with the index packed into its low bits is much faster than an argsort.
        low = U64((1 << _INDEX_BITS) - 1)
        np.bitwise_and(first, ~low, out=first)
        np.bitwise_or(first, np.arange(n, dtype=np.uint64), out=first)
        first.sort()
        order = (first & low).astype(np.intp)
        high = first >> U64(_INDEX_BITS)
    second_sorted = second[order]
    same_high = high[1:] == high[:-1]
    same = same_high & (second_sorted[1:] == second_sorted[:-1])
    if n <= 1 << _INDEX_BITS and (same_high & ~same).any():
        # Rare: a run of equal high bits holds different columns, ordered by index, so equal ones may not be
        # neighbours. Order those runs by the second hash.
        run = np.cumsum(np.concatenate(([True], ~same_high)))
        mixed = np.unique(run[1:][same_high & ~same])
        positions = np.flatnonzero(np.isin(run, mixed))
        regroup = np.lexsort((second_sorted[positions], run[positions]))
        order[positions] = order[positions][regroup]
        second_sorted = second[order]
        same = same_high & (second_sorted[1:] == second_sorted[:-1])
    if not same.any():
        return rows, weights
    new = np.concatenate(([True], ~same))
    starts = np.flatnonzero(new)
    firsts = order[starts]
    kept = np.zeros(n, dtype=bool)
    kept[firsts] = True
    chosen = np.flatnonzero(kept)
    if weights.min() == weights.max() and not total:
        return rows[:, chosen], weights[chosen]
    # Keep the largest weight of each group (or their sum), placed where the group's first member stood.
    merged = (np.add if total else np.maximum).reduceat(weights[order], starts)
    placed = np.zeros(n)
    placed[firsts] = merged
    return rows[:, chosen], placed[chosen]


def keep(rows: Rows, weights: Weights, mask: Any) -> tuple[Rows, Weights]:
    """The columns where the boolean array ``mask`` is true."""
    return rows[:, mask], weights[mask]


def select(rows: Rows, weights: Weights, window: int, shown: tuple[int, int, int, int, int, int], empty: int,
           full: int, some: int, ep_is: int, ep_not: int) -> tuple[Rows, Weights]:
    """The columns that fit what the seat saw, in order (``rows, weights`` themselves when all do):

    - seen through ``window``, the six piece fields are ``shown`` (a sense; 0: no window);
    - no piece on ``empty``; a piece on ``full`` (at most one square) and on at least one square of ``some``
      (0: no condition);
    - the en-passant square is ``ep_is`` and is not ``ep_not`` (0: no condition).
    """
    mask = np.ones(rows.shape[1], dtype=bool)
    if window:
        window_bits = np.uint64(window)
        for field in range(6):
            mask &= (rows[field] & window_bits) == np.uint64(shown[field])
    if empty or full or some:
        theirs = occupancy(rows)
        if empty:
            mask &= (theirs & np.uint64(empty)) == 0
        if full:
            mask &= (theirs & np.uint64(full)) != 0
        if some:
            mask &= (theirs & np.uint64(some)) != 0
    if ep_is:
        mask &= rows[7] == np.uint64(ep_is)
    if ep_not:
        mask &= rows[7] != np.uint64(ep_not)
    if mask.all():
        return rows, weights
    return keep(rows, weights, mask)


NO_REVEALS, FIXED, STRAIGHT, DIAGONAL, BOTH, CASTLE = range(6)
"""How a Blind Chess attempt's reveals are found (:func:`sight_select`): none; the pieces on fixed squares; the
first piece along the moved piece's lines (rook-like, bishop-like, both); castling (the king's squares and the
rook's lines)."""


def sight_select(rows: Rows, weights: Weights, empty: int, full: int, some: int, ep_is: int, ep_not: int,
                 cap_index: int, cap_bb: int, kind: int, fixed: int, revealed: int,
                 shown: tuple[int, int, int, int, int, int], origin: int, mine: int) -> tuple[Rows, Weights]:
    """The columns the referee's answer to a Blind Chess attempt fits, in order (``rows, weights`` themselves
    when all do): the conditions of :func:`select`; a piece of field ``cap_index`` on ``cap_bb`` (the one
    captured; -1: no capture); and the pieces revealed, found as ``kind`` says from ``origin`` (with the seat's
    pieces ``mine`` blocking) or on ``fixed``, are on ``revealed`` exactly, each of its field in ``shown``."""
    u64 = np.uint64
    theirs = occupancy(rows)
    mask = (theirs & u64(empty)) == 0
    if full:
        mask &= (theirs & u64(full)) != 0
    if some:
        mask &= (theirs & u64(some)) != 0
    if ep_is:
        mask &= rows[7] == u64(ep_is)
    if ep_not:
        mask &= rows[7] != u64(ep_not)
    if cap_index >= 0:
        mask &= (rows[cap_index] & u64(cap_bb)) != 0
    if kind != NO_REVEALS:
        occupied = theirs | u64(mine)
        if kind == FIXED:
            seen = theirs & u64(fixed)
        else:
            at = np.full(rows.shape[1], origin, dtype=np.intp)
            if kind == STRAIGHT or kind == CASTLE:
                lines = rook_attacks(at, occupied)
            elif kind == DIAGONAL:
                lines = bishop_attacks(at, occupied)
            else:
                lines = rook_attacks(at, occupied) | bishop_attacks(at, occupied)
            seen = ((u64(fixed) if kind == CASTLE else u64(0)) | lines) & theirs
        mask &= (seen & ~u64(cap_bb)) == u64(revealed)
        for field in range(6):
            mask &= (rows[field] & u64(revealed)) == u64(shown[field])
    if mask.all():
        return rows, weights
    return keep(rows, weights, mask)


def forget(rows: Rows, weights: Weights, square: int | None,
           keep: tuple[int, tuple[int, int, int, int, int, int], int, int, int, int, int] | None = None
           ) -> tuple[Rows, Weights]:
    """After the seat's own move: every column with its en-passant square cleared and the piece on ``square``
    (``None``: none) taken, duplicates merged (largest weight kept). ``keep``: the arguments of :func:`select`
    after ``weights``, to keep only the columns that fit them first."""
    if keep is not None:
        rows, weights = select(rows, weights, *keep)
    rows = rows.copy()
    rows[EP] = 0
    if square is not None:
        bit = U64(chess.BB_SQUARES[square])
        # Where the captured piece was the king, its side's castling rights go too (as python-chess does).
        king_taken = (rows[KING] & bit) != 0
        rows[:6] &= ~bit
        rows[CASTLING] &= ~bit
        rows[CASTLING][king_taken] = 0
    return unique(rows, weights)


def systematic_sample(rows: Rows, weights: Weights, count: int, offset: float) -> tuple[Rows, Weights]:
    """At most ``count`` columns drawn with probability proportional to weight, total weight kept
    (:func:`app.engine.inference_core.systematic_resample` for arrays; ``offset`` in [0, 1) is its random draw)."""
    total = float(weights.sum())
    if total <= 0:
        return rows[:, :count], weights[:count]
    step = total / count
    cumulative = np.cumsum(weights)
    points = (np.arange(count) + offset) * step
    hit = np.searchsorted(cumulative, points, side="right")
    hit = hit[hit < len(weights)]
    if not len(hit):
        return rows[:, :0], weights[:0]
    first = np.ones(len(hit), dtype=bool)
    first[1:] = hit[1:] != hit[:-1]
    starts = np.flatnonzero(first)
    hits = np.diff(np.append(starts, len(hit)))
    return rows[:, hit[starts]], hits.astype(np.float64) * step


def union(rows: Rows) -> tuple[int, int, int, int, int, int]:
    """For each piece field, the squares where some column has a piece."""
    if rows.shape[1] == 0:
        return (0, 0, 0, 0, 0, 0)
    ors = np.bitwise_or.reduce(rows[:6], axis=1)
    return (int(ors[0]), int(ors[1]), int(ors[2]), int(ors[3]), int(ors[4]), int(ors[5]))


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float64)


def piece_shares(rows: Rows, weights: Weights) -> list[list[float]]:
    """For each piece field (pawns ... kings) and for all pieces (index 6): the weighted share of positions with
    a piece on each square."""
    return square_shares(np.concatenate([rows[:6], occupancy(rows)[None, :]]), weights)


def square_shares(columns: Any, weights: Weights) -> list[list[float]]:
    """For each bitboard array in ``columns`` (shape (k, n)): the weighted share of entries with each square set."""
    total = float(weights.sum()) or 1.0
    out = []
    for column in columns:
        octets = np.ascontiguousarray(column, dtype="<u8").view(np.uint8).reshape(-1, 8)
        sums = np.empty(64)
        for byte in range(8):
            counts = np.bincount(octets[:, byte], weights=weights, minlength=256)
            sums[8 * byte:8 * byte + 8] = counts @ _BYTE_BITS
        out.append((sums / total).tolist())
    return out
