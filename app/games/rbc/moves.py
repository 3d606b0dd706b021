"""Move actions and move revision for Reconnaissance Blind Chess (no Qt, no reconchess).

The *move actions* of a seat are the moves it may request: every pseudo-legal move
on the board with the opponent's pieces removed, plus every pawn diagonal step
onto a square not holding an own piece (with all promotion choices). This is
exactly reconchess 1.6.9's ``move_actions`` (ruling R1), in the same order, but
computed from bitboards without copying the board, and materialised lazily:
bots that pick by index never build the whole list.

>>> import chess
>>> actions = move_actions(chess.Board())
>>> len(actions)
34
>>> chess.Move.from_uci("e2e4") in actions, chess.Move.from_uci("e2d3") in actions
(True, True)
"""

from __future__ import annotations

from typing import Iterator, Sequence, overload

import chess
from chess import (BB_ALL, BB_BACKRANKS, BB_DIAG_ATTACKS, BB_DIAG_MASKS, BB_FILE_ATTACKS, BB_FILE_MASKS,
                   BB_KING_ATTACKS, BB_KNIGHT_ATTACKS, BB_PAWN_ATTACKS, BB_RANK_ATTACKS, BB_RANK_MASKS,
                   BB_SQUARES)

_PLAIN, _PUSHES, _DOUBLES, _CASTLE, _HITS = range(5)
_PUSH_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)  # python-chess's order
_HIT_PROMOTIONS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)  # reconchess's order
_BB_RANK_3_4 = chess.BB_RANK_3 | chess.BB_RANK_4
_BB_RANK_6_5 = chess.BB_RANK_6 | chess.BB_RANK_5
_MOVE = chess.Move


def _descending(bb: int) -> Iterator[int]:
    while bb:
        square = bb.bit_length() - 1
        yield square
        bb ^= 1 << square


def _ascending(bb: int) -> Iterator[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


class MoveActions(Sequence[chess.Move]):
    """The move actions of one seat, as an immutable sequence of :class:`chess.Move`.

    Groups of moves are stored as bitboards; ``len``, indexing and ``in`` work
    without building Move objects for every action. Iteration yields the moves
    in reconchess's order.
    """

    __slots__ = ("_groups", "_count", "_list")

    def __init__(self, groups: list[tuple[int, int, int, int, int]], count: int) -> None:
        # Each group: (kind, a, b, size, c):
        #   _PLAIN:   a = from square, b = destinations
        #   _CASTLE:  a = king square, b = the king's destination
        #   _PUSHES / _DOUBLES: a = offset from destination back to the pawn, b = destinations
        #   _HITS:    a = colour, b = pawns, c = squares without an own piece
        self._groups = groups
        self._count = count
        self._list: list[chess.Move] | None = None

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> chess.Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[chess.Move]: ...

    def __getitem__(self, index: int | slice) -> chess.Move | list[chess.Move]:
        if isinstance(index, slice) or self._list is not None:
            return self.as_list()[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("move action index out of range")
        for kind, a, b, size, c in self._groups:
            if index >= size:
                index -= size
                continue
            if kind == _PLAIN:
                return _MOVE(a, _nth_descending(b, index))
            if kind == _CASTLE:
                return _MOVE(a, b.bit_length() - 1)
            if kind == _DOUBLES:
                to_square = _nth_descending(b, index)
                return _MOVE(to_square + a, to_square)
            if kind == _PUSHES:
                for to_square in _descending(b):
                    if BB_SQUARES[to_square] & BB_BACKRANKS:
                        if index < 4:
                            return _MOVE(to_square + a, to_square, _PUSH_PROMOTIONS[index])
                        index -= 4
                    elif index == 0:
                        return _MOVE(to_square + a, to_square)
                    else:
                        index -= 1
            else:
                table = BB_PAWN_ATTACKS[a]
                for from_square in _ascending(b):
                    for to_square in _ascending(table[from_square] & c):
                        width = 5 if BB_SQUARES[to_square] & BB_BACKRANKS else 1
                        if index < width:
                            return _MOVE(from_square, to_square, _HIT_PROMOTIONS[index - 1] if index else None)
                        index -= width
        raise AssertionError("unreachable")  # pragma: no cover

    def __iter__(self) -> Iterator[chess.Move]:
        return iter(self.as_list())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, chess.Move) or move.drop:
            return False
        from_square, to_square, promotion = move.from_square, move.to_square, move.promotion
        to_bb = BB_SQUARES[to_square]
        for kind, a, b, _, c in self._groups:
            if kind == _PLAIN or kind == _CASTLE:
                if a == from_square and b & to_bb and promotion is None:
                    return True
            elif kind == _PUSHES:
                if b & to_bb and to_square + a == from_square:
                    return promotion in _PUSH_PROMOTIONS if to_bb & BB_BACKRANKS else promotion is None
            elif kind == _DOUBLES:
                if b & to_bb and to_square + a == from_square and promotion is None:
                    return True
            elif b & BB_SQUARES[from_square] and BB_PAWN_ATTACKS[a][from_square] & c & to_bb:
                return promotion is None or bool(to_bb & BB_BACKRANKS and promotion in _HIT_PROMOTIONS)
        return False

    def as_list(self) -> list[chess.Move]:
        """All move actions as a new list (reconchess's order); cached."""
        if self._list is None:
            moves: list[chess.Move] = []
            append = moves.append
            for kind, a, b, _, c in self._groups:
                if kind == _PLAIN:
                    for to_square in _descending(b):
                        append(_MOVE(a, to_square))
                elif kind == _CASTLE:
                    append(_MOVE(a, b.bit_length() - 1))
                elif kind == _PUSHES:
                    for to_square in _descending(b):
                        if BB_SQUARES[to_square] & BB_BACKRANKS:
                            for promotion in _PUSH_PROMOTIONS:
                                append(_MOVE(to_square + a, to_square, promotion))
                        else:
                            append(_MOVE(to_square + a, to_square))
                elif kind == _DOUBLES:
                    for to_square in _descending(b):
                        append(_MOVE(to_square + a, to_square))
                else:
                    table = BB_PAWN_ATTACKS[a]
                    for from_square in _ascending(b):
                        for to_square in _ascending(table[from_square] & c):
                            append(_MOVE(from_square, to_square))
                            if BB_SQUARES[to_square] & BB_BACKRANKS:
                                for promotion in _HIT_PROMOTIONS:
                                    append(_MOVE(from_square, to_square, promotion))
            self._list = moves
        return list(self._list)

    def __repr__(self) -> str:
        return f"<MoveActions: {len(self)} moves>"


def _nth_descending(bb: int, index: int) -> int:
    for _ in range(index):
        bb ^= 1 << (bb.bit_length() - 1)
    return bb.bit_length() - 1


def move_actions(board: chess.Board, color: chess.Color | None = None) -> MoveActions:
    """The move actions of ``color`` (default: the side to move), seeing only its own pieces.

    Only ``color``'s pieces and castling rights are read, so this gives the same
    answer on the true board and on a board holding just that seat's pieces.
    """
    turn = board.turn if color is None else color
    mine = board.occupied_co[turn]
    free = ~mine & BB_ALL
    pawns = board.pawns & mine
    groups: list[tuple[int, int, int, int, int]] = []
    append = groups.append
    count = 0

    # Pieces, highest square first (python-chess's order).
    knights, kings = board.knights, board.kings
    straight = board.rooks | board.queens
    diagonal = board.bishops | board.queens
    others = mine & ~pawns
    while others:
        square = others.bit_length() - 1
        bb = BB_SQUARES[square]
        others ^= bb
        if bb & knights:
            dests = BB_KNIGHT_ATTACKS[square] & free
        elif bb & kings:
            dests = BB_KING_ATTACKS[square] & free
        else:
            attacks = 0
            if bb & straight:
                attacks = (BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & mine]
                           | BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & mine])
            if bb & diagonal:
                attacks |= BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & mine]
            dests = attacks & free
        if dests:
            size = dests.bit_count()
            append((_PLAIN, square, dests, size, 0))
            count += size

    # Castling: the right must still exist, own king and rook at home, no own piece between.
    if mine & kings & ~board.promoted & (chess.BB_E1 if turn else chess.BB_E8):
        rights = board.castling_rights & board.rooks & mine
        if turn == chess.WHITE:
            if rights & chess.BB_H1 and not mine & (chess.BB_F1 | chess.BB_G1):
                append((_CASTLE, chess.E1, chess.BB_G1, 1, 0))
                count += 1
            if rights & chess.BB_A1 and not mine & (chess.BB_B1 | chess.BB_C1 | chess.BB_D1):
                append((_CASTLE, chess.E1, chess.BB_C1, 1, 0))
                count += 1
        else:
            if rights & chess.BB_H8 and not mine & (chess.BB_F8 | chess.BB_G8):
                append((_CASTLE, chess.E8, chess.BB_G8, 1, 0))
                count += 1
            if rights & chess.BB_A8 and not mine & (chess.BB_B8 | chess.BB_C8 | chess.BB_D8):
                append((_CASTLE, chess.E8, chess.BB_C8, 1, 0))
                count += 1

    if pawns:
        # Pushes with only own pieces blocking, then double pushes (python-chess's order).
        if turn == chess.WHITE:
            singles = (pawns << 8) & free
            doubles = (singles << 8) & free & _BB_RANK_3_4
            left = ((pawns & ~chess.BB_FILE_A) << 7) & free
            right = ((pawns & ~chess.BB_FILE_H) << 9) & free
            back = -8
        else:
            singles = (pawns >> 8) & free
            doubles = (singles >> 8) & free & _BB_RANK_6_5
            left = ((pawns & ~chess.BB_FILE_A) >> 9) & free
            right = ((pawns & ~chess.BB_FILE_H) >> 7) & free
            back = 8
        if singles:
            size = singles.bit_count() + 3 * (singles & BB_BACKRANKS).bit_count()
            append((_PUSHES, back, singles, size, 0))
            count += size
        if doubles:
            size = doubles.bit_count()
            append((_DOUBLES, 2 * back, doubles, size, 0))
            count += size
        if left or right:
            # Diagonal steps onto any square without an own piece; a square reached by two pawns counts twice.
            size = (left.bit_count() + right.bit_count()
                    + 4 * ((left & BB_BACKRANKS).bit_count() + (right & BB_BACKRANKS).bit_count()))
            append((_HITS, int(turn), pawns, size, free))
            count += size

    return MoveActions(groups, count)


def with_default_promotion(board: chess.Board, move: chess.Move) -> chess.Move:
    """A pawn move to the last rank without a promotion piece promotes to a queen."""
    if move.promotion is None and BB_SQUARES[move.to_square] & BB_BACKRANKS and board.pawns & BB_SQUARES[
            move.from_square]:
        return chess.Move(move.from_square, move.to_square, chess.QUEEN)
    return move


def revise_move(board: chess.Board, move: chess.Move) -> chess.Move | None:
    """The move that is actually taken on the true ``board`` for a requested move action.

    - a move legal on the board (check ignored) is taken as it is;
    - castling is taken unless a piece of either colour stands between king and rook;
    - a rook, bishop, queen or pawn that is blocked stops on (and captures) the first
      opponent piece in its path, or, for a pawn's double step, moves one square;
    - otherwise nothing is taken (``None``), as if the player had passed.

    >>> board = chess.Board("4k3/8/8/p7/8/8/8/R3K3 w Q - 0 1")
    >>> revise_move(board, chess.Move.from_uci("a1a8"))
    Move.from_uci('a1a5')
    """
    from_square, to_square = move.from_square, move.to_square
    from_bb = BB_SQUARES[from_square]
    occupied = board.occupied
    if board.pawns & from_bb:
        diff = to_square - from_square
        if diff in (8, -8):
            return None if occupied & BB_SQUARES[to_square] else move
        if diff in (16, -16):
            middle = from_square + diff // 2
            if occupied & BB_SQUARES[middle]:
                return None
            if occupied & BB_SQUARES[to_square]:
                return chess.Move(from_square, middle, move.promotion)
            return move
        # A diagonal step: a capture, en passant, or nothing.
        if board.occupied_co[not board.turn] & BB_SQUARES[to_square]:
            return move
        return move if board.is_en_passant(move) else None
    if board.kings & from_bb and board.is_castling(move):
        if board.is_kingside_castling(move):
            if not board.has_kingside_castling_rights(board.turn):
                return None
            rook_square = chess.square(7, chess.square_rank(from_square))
        else:
            if not board.has_queenside_castling_rights(board.turn):
                return None
            rook_square = chess.square(0, chess.square_rank(from_square))
        return None if chess.between(from_square, rook_square) & occupied else move
    if (board.knights | board.kings) & from_bb:
        return move  # only own pieces can stop these, and move actions already avoid them
    # Rook, bishop, queen: stop on the first piece in the way (always an opponent's).
    blockers = chess.between(from_square, to_square) & occupied
    if not blockers:
        return move
    if to_square > from_square:
        stop = (blockers & -blockers).bit_length() - 1
    else:
        stop = blockers.bit_length() - 1
    return chess.Move(from_square, stop)


def capture_square(board: chess.Board, move: chess.Move | None) -> int | None:
    """Where ``move`` captures on ``board`` (the passed pawn's square for en passant), or ``None``."""
    if move is None:
        return None
    if board.occupied_co[not board.turn] & BB_SQUARES[move.to_square]:
        return move.to_square
    if board.is_en_passant(move):
        return move.to_square + (-8 if board.turn == chess.WHITE else 8)
    return None
