"""Booster Chess's moves (rulings BO2, BO4, BO4b): who attacks what, the normal moves, the booster steps and where
a card may put a checker. Plain functions on a python-chess board and the checker stacks, shared by the referee,
every seat's view and the bots, so all of them agree.

**Stacks.** The checkers under the pieces are a dict from square to a signed count: positive for White's
checkers, negative for Black's. Two colours under one piece cancel at once, so a signed sum is all there is to
keep. For a piece, :func:`net` is positive when it stands on its own checkers (boosted), negative on the
opponent's (hobbled).

**Normal moves.** An unmodified or boosted piece moves as in chess. A hobbled pawn does not move; any other
hobbled piece moves and captures like a pawn of its colour, one square forward, never two, with no en passant
and no promotion (it is no pawn). Castling needs the king and that rook free of checkers (boosted ones may not
castle by the rules; hobbled ones move only like pawns).

**Booster steps.** After its normal move a boosted piece may take one king step per own checker it spends: onto
an empty square or onto an enemy piece other than the king (a capture, whose checkers it keeps). A pawn that
steps onto its last rank promotes. Each step must leave the mover's own king safe (BO4b).

**Landing.** A piece that arrives on a square (a normal move or a step) takes along its checkers less any spent,
adds the captured piece's, and the colours cancel; if it is then hobbled and stands on its far rank, the hobble
checkers go home (:func:`land`).

**Attacked** (:func:`attacked`): a square is attacked by a side if one of its pieces could capture there with a
normal move (a hobbled piece as a pawn), or, for a boosted piece, with a normal move (castling aside, and not
onto the square itself) followed by booster steps, as many as its checkers allow on the way (captures on the way
change the count as landing says; steps never go onto a king or the side's own pieces). The attacking side's own
king safety plays no part, as in chess a pinned piece still gives check.

>>> board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
>>> stacks = {chess.A1: 1}  # White's rook stands on one White checker: boosted
>>> attacked(board, stacks, chess.E8, chess.WHITE), attacked(board, stacks, chess.B8, chess.WHITE)
(False, True)
>>> chess.Move.from_uci("e1c1") in legal_moves(board, stacks)  # no castling with a boosted rook
False
"""

from __future__ import annotations

from typing import Iterator, Mapping, MutableMapping

import chess

from app.games.kit_cards import card_colour, card_piece

__all__ = ["CHECKERS", "PROMOTIONS", "Stacks", "apply_normal", "apply_step", "attacked", "card_squares",
           "far_rank", "in_danger", "land", "legal_moves", "legal_steps", "net", "on_board", "piece_moves",
           "pseudo_moves", "put_checker", "sign", "supply"]

Stacks = MutableMapping[int, int]
CHECKERS = 6
"""Checkers each side owns."""
PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(chess.scan_forward(chess.BB_KING_ATTACKS[square]))
                                                for square in chess.SQUARES)


def sign(colour: chess.Color) -> int:
    """+1 for White's checkers, -1 for Black's."""
    return 1 if colour == chess.WHITE else -1


def net(stacks: Mapping[int, int], square: int, colour: chess.Color) -> int:
    """The checkers under ``square`` as ``colour`` counts them: positive its own, negative the opponent's."""
    return stacks.get(square, 0) * sign(colour)


def on_board(stacks: Mapping[int, int], colour: chess.Color) -> int:
    """How many of ``colour``'s checkers stand on the board."""
    return sum(count for count in (net(stacks, square, colour) for square in stacks) if count > 0)


def supply(stacks: Mapping[int, int], colour: chess.Color) -> int:
    """How many of ``colour``'s checkers are off the board, in front of their owner."""
    return CHECKERS - on_board(stacks, colour)


def far_rank(colour: chess.Color) -> int:
    """The rank index (0-7) a piece of ``colour`` moves towards: 7 for White."""
    return 7 if colour == chess.WHITE else 0


def land(stacks: Stacks, square: int, count: int, colour: chess.Color) -> int:
    """Puts ``count`` (signed) checkers under the piece of ``colour`` now on ``square``; a hobbled piece on its
    far rank sends its hobble checkers home. Returns how many went home."""
    if count * sign(colour) < 0 and chess.square_rank(square) == far_rank(colour):
        stacks.pop(square, None)
        return abs(count)
    if count:
        stacks[square] = count
    else:
        stacks.pop(square, None)
    return 0


# ---- normal moves ------------------------------------------------------------------------------------------

def _pawn_like(board: chess.Board, square: int, colour: chess.Color, pawn: bool) -> Iterator[chess.Move]:
    """A pawn's moves from ``square`` (``pawn`` False: a hobbled piece's, one square, no promotion or en
    passant)."""
    forward = square + (8 if colour == chess.WHITE else -8)
    last = far_rank(colour)
    if 0 <= forward < 64 and not board.occupied & chess.BB_SQUARES[forward]:
        if pawn and chess.square_rank(forward) == last:
            yield from (chess.Move(square, forward, promotion) for promotion in PROMOTIONS)
        else:
            yield chess.Move(square, forward)
        second = 1 if colour == chess.WHITE else 6
        double = forward + (8 if colour == chess.WHITE else -8)
        if pawn and chess.square_rank(square) == second and not board.occupied & chess.BB_SQUARES[double]:
            yield chess.Move(square, double)
    for target in chess.scan_forward(chess.BB_PAWN_ATTACKS[colour][square] & board.occupied_co[not colour]):
        if pawn and chess.square_rank(target) == last:
            yield from (chess.Move(square, target, promotion) for promotion in PROMOTIONS)
        else:
            yield chess.Move(square, target)
    ep = board.ep_square
    if pawn and ep is not None and chess.BB_PAWN_ATTACKS[colour][square] & chess.BB_SQUARES[ep] \
            and not board.occupied & chess.BB_SQUARES[ep] \
            and board.piece_at(ep - 8 * sign(colour)) == chess.Piece(chess.PAWN, not colour):
        yield chess.Move(square, ep)


def piece_moves(board: chess.Board, stacks: Mapping[int, int], square: int) -> Iterator[chess.Move]:
    """The normal moves of the piece on ``square`` (castling apart), whoever's turn it is, its own king's safety
    unchecked."""
    piece = board.piece_at(square)
    if piece is None:
        return
    colour = piece.color
    if net(stacks, square, colour) < 0:
        if piece.piece_type != chess.PAWN:
            yield from _pawn_like(board, square, colour, pawn=False)
        return
    if piece.piece_type == chess.PAWN:
        yield from _pawn_like(board, square, colour, pawn=True)
        return
    for target in chess.scan_forward(board.attacks_mask(square) & ~board.occupied_co[colour]):
        yield chess.Move(square, target)


def pseudo_moves(board: chess.Board, stacks: Mapping[int, int], colour: chess.Color) -> Iterator[chess.Move]:
    """Every normal move of ``colour``'s pieces but castling, its own king's safety unchecked."""
    for square in chess.scan_forward(board.occupied_co[colour]):
        yield from piece_moves(board, stacks, square)


def _captured_square(board: chess.Board, move: chess.Move) -> int:
    """Where the piece a normal move takes stands (the en passant pawn beside the target)."""
    piece = board.piece_at(move.from_square)
    if piece is not None and piece.piece_type == chess.PAWN and move.to_square == board.ep_square \
            and board.piece_at(move.to_square) is None \
            and chess.square_file(move.from_square) != chess.square_file(move.to_square):
        return move.to_square - 8 * sign(piece.color)
    return move.to_square


def _touch_castling(board: chess.Board, piece: chess.Piece, *squares: int) -> None:
    for square in squares:
        board.castling_rights &= ~chess.BB_SQUARES[square]
    if piece.piece_type == chess.KING:
        board.castling_rights &= ~(chess.BB_RANK_1 if piece.color == chess.WHITE else chess.BB_RANK_8)


def apply_normal(board: chess.Board, stacks: Stacks, move: chess.Move) -> tuple[chess.Piece | None, int]:
    """Makes the normal ``move`` on ``board`` and ``stacks`` (the turn stays with the mover: booster steps and a
    card may follow). Returns the captured piece (or None) and how many hobble checkers went home."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    colour = piece.color
    taken_at = _captured_square(board, move)
    captured = board.piece_at(taken_at)
    count = stacks.pop(move.from_square, 0) + stacks.pop(taken_at, 0)
    board.remove_piece_at(move.from_square)
    board.remove_piece_at(taken_at)
    if piece.piece_type == chess.KING \
            and abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) == 2:
        rank = chess.square_rank(move.from_square)
        short = chess.square_file(move.to_square) == 6
        rook_from = chess.square(7 if short else 0, rank)
        rook_to = chess.square(5 if short else 3, rank)
        rook = board.remove_piece_at(rook_from)
        if rook is not None:
            board.set_piece_at(rook_to, rook)
        stacks.pop(rook_to, None)
    placed = chess.Piece(move.promotion, colour) if move.promotion else piece
    board.set_piece_at(move.to_square, placed)
    home = land(stacks, move.to_square, count, colour)
    double = piece.piece_type == chess.PAWN and abs(move.to_square - move.from_square) == 16
    board.ep_square = (move.from_square + move.to_square) // 2 if double else None
    _touch_castling(board, piece, move.from_square, move.to_square)
    return captured, home


def apply_step(board: chess.Board, stacks: Stacks, move: chess.Move) -> tuple[chess.Piece | None, int]:
    """Makes a booster step: the piece spends one own checker, moves one square (capturing what stands there),
    lands. Returns the captured piece and how many hobble checkers went home."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    colour = piece.color
    captured = board.piece_at(move.to_square)
    count = stacks.pop(move.from_square, 0) - sign(colour) + stacks.pop(move.to_square, 0)
    board.remove_piece_at(move.from_square)
    promote = piece.piece_type == chess.PAWN and chess.square_rank(move.to_square) == far_rank(colour)
    placed = chess.Piece(move.promotion or chess.QUEEN, colour) if promote else piece
    board.set_piece_at(move.to_square, placed)
    home = land(stacks, move.to_square, count, colour)
    board.ep_square = None
    _touch_castling(board, piece, move.from_square, move.to_square)
    return captured, home


# ---- attacks -----------------------------------------------------------------------------------------------

def _steps_reach(board: chess.Board, stacks: Mapping[int, int], start: int, steps: int, gone: frozenset[int],
                 target: int, by: chess.Color, bound: int) -> bool:
    """Whether a boosted piece of ``by`` on ``start`` with ``steps`` checkers to spend reaches ``target`` by
    king steps (``gone``: squares emptied on the way; ``bound``: the most its captures could still add)."""
    seen: set[tuple[int, int, frozenset[int]]] = set()
    todo = [(start, steps, gone)]
    tf, tr = chess.square_file(target), chess.square_rank(target)
    while todo:
        here, left, emptied = todo.pop()
        for square in NEIGHBOURS[here]:
            if square == target:
                return True
            after, captured = left - 1, False
            if square not in emptied:
                piece = board.piece_at(square)
                if piece is not None:
                    if piece.color == by or piece.piece_type == chess.KING:
                        continue
                    after += net(stacks, square, by)
                    captured = True
            if after < 1:
                continue
            if max(abs(chess.square_file(square) - tf), abs(chess.square_rank(square) - tr)) > after + bound:
                continue
            state = (square, after, emptied | {square} if captured else emptied)
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return False


def attacked(board: chess.Board, stacks: Mapping[int, int], target: int, by: chess.Color) -> bool:
    """Whether ``by`` attacks ``target`` (see the module's words): a piece of ``by`` could capture there with a
    normal move, or a boosted one with a normal move and its booster steps."""
    for square in chess.scan_forward(board.attackers_mask(by, target)):
        if net(stacks, square, by) >= 0:
            return True
    boosted = []
    bound = 0
    for square, count in stacks.items():
        piece = board.piece_at(square)
        if piece is None:
            continue
        mine = count * sign(by)
        if piece.color == by:
            if mine < 0 and piece.piece_type != chess.PAWN \
                    and chess.BB_PAWN_ATTACKS[by][square] & chess.BB_SQUARES[target]:
                return True
            if mine > 0:
                boosted.append((square, mine))
        elif mine > 0 and piece.piece_type != chess.KING:
            bound += mine
    for square, count in boosted:
        for move in piece_moves(board, stacks, square):
            if move.to_square == target or board.piece_type_at(move.to_square) == chess.KING:
                continue
            taken_at = _captured_square(board, move)
            steps = count + net(stacks, taken_at, by)
            if steps < 1:
                continue
            gone = frozenset({square, move.to_square, taken_at})
            if _steps_reach(board, stacks, move.to_square, steps, gone, target, by, bound):
                return True
    return False


def in_danger(board: chess.Board, stacks: Mapping[int, int], colour: chess.Color) -> bool:
    """Whether ``colour``'s king is attacked."""
    king = board.king(colour)
    return king is not None and attacked(board, stacks, king, not colour)


# ---- what the mover may do ---------------------------------------------------------------------------------

def _castlings(board: chess.Board, stacks: Mapping[int, int], colour: chess.Color) -> Iterator[chess.Move]:
    rank = 0 if colour == chess.WHITE else 7
    king = chess.square(4, rank)
    if board.piece_at(king) != chess.Piece(chess.KING, colour) or stacks.get(king, 0):
        return
    for rook_file, between, passed in ((7, (5, 6), (4, 5, 6)), (0, (1, 2, 3), (4, 3, 2))):
        rook = chess.square(rook_file, rank)
        if not board.castling_rights & chess.BB_SQUARES[rook] or stacks.get(rook, 0) \
                or board.piece_at(rook) != chess.Piece(chess.ROOK, colour):
            continue
        if any(board.piece_at(chess.square(file, rank)) for file in between):
            continue
        if any(attacked(board, stacks, chess.square(file, rank), not colour) for file in passed):
            continue
        yield chess.Move(king, chess.square(6 if rook_file == 7 else 2, rank))


def legal_moves(board: chess.Board, stacks: Mapping[int, int]) -> list[chess.Move]:
    """The normal moves the side to move may make: those after which its king is not attacked, and castling."""
    colour = board.turn
    moves = []
    for move in pseudo_moves(board, stacks, colour):
        if board.piece_type_at(move.to_square) == chess.KING:
            continue
        after, after_stacks = board.copy(stack=False), dict(stacks)
        apply_normal(after, after_stacks, move)
        if not in_danger(after, after_stacks, colour):
            moves.append(move)
    moves.extend(_castlings(board, stacks, colour))
    return moves


def legal_steps(board: chess.Board, stacks: Mapping[int, int], square: int) -> list[chess.Move]:
    """The booster steps the piece on ``square`` may take now (none unless it is boosted): each after which its
    own king is not attacked (BO4b). A pawn stepping onto its last rank names its promotion."""
    piece = board.piece_at(square)
    if piece is None or net(stacks, square, piece.color) < 1:
        return []
    steps = []
    for target in NEIGHBOURS[square]:
        other = board.piece_at(target)
        if other is not None and (other.color == piece.color or other.piece_type == chess.KING):
            continue
        promote = piece.piece_type == chess.PAWN and chess.square_rank(target) == far_rank(piece.color)
        for promotion in (PROMOTIONS if promote else (None,)):
            move = chess.Move(square, target, promotion)
            after, after_stacks = board.copy(stack=False), dict(stacks)
            apply_step(after, after_stacks, move)
            if not in_danger(after, after_stacks, piece.color):
                steps.append(move)
    return steps


def card_squares(board: chess.Board, stacks: Mapping[int, int], colour: chess.Color, card: str) -> list[int]:
    """The squares where ``colour`` may put one of its checkers with ``card`` (BO3): the pieces the card matches
    (a checker card, or a card whose piece is not on the board, matches every piece of the card's colour), less
    those where the checker would leave ``colour``'s own king attacked (BO4b). None when its supply is empty."""
    if supply(stacks, colour) < 1:
        return []
    owner = card_colour(card)
    piece = card_piece(card)
    mask = board.pieces_mask(piece.piece_type, owner) if piece is not None else 0
    if not mask:
        mask = board.occupied_co[owner]
    squares = []
    for square in chess.scan_forward(mask):
        after = dict(stacks)
        put_checker(after, square, colour)
        if not in_danger(board, after, colour):
            squares.append(square)
    return squares


def put_checker(stacks: Stacks, square: int, colour: chess.Color) -> None:
    """One of ``colour``'s checkers onto the piece on ``square`` (opposite colours cancel)."""
    count = stacks.get(square, 0) + sign(colour)
    if count:
        stacks[square] = count
    else:
        stacks.pop(square, None)
