"""The built-in evaluator of the belief bots (RBC and Blind Chess): needs nothing installed.

It scores one full board (one of the positions a bot thinks possible) in
centipawns from one side's point of view. In both games the king is captured,
not mated, so the evaluator does not look for checkmate; it looks at what the
side to move can take at once:

- material and piece placement (small piece-square tables);
- the king: a king the side to move attacks can be captured (the game is lost
  unless the opponent fails to see it), which costs ``king_exposed``;
- the most valuable piece the side to move can win at once (undefended, or
  defended but attacked by something cheaper), counted at ``hanging_share`` of its
  value because an opponent that cannot see the board often does not know;
- a small bonus for attacking the other king when it is not the attacker's turn
  (a player who cannot see the board may not notice).

>>> import chess
>>> board = chess.Board()
>>> material(board)
0
>>> board = chess.Board("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")   # White a rook up, Black to move
>>> evaluate(board, chess.WHITE) > 400
True
>>> exposed = chess.Board("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1")  # Black to move can take the white king
>>> evaluate(exposed, chess.WHITE) < -1000
True
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

WIN = 100_000
"""The score of capturing the king."""

VALUES: tuple[int, ...] = (0, 100, 320, 330, 500, 900, 0)
"""Centipawns by piece type (index 1 = pawn ... 6 = king, which is priceless and scored apart)."""

# Piece-square tables from White's side, rank 1 first (a1, b1, ..., h1, a2, ...), in centipawns.
_PAWN = (
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 8, 8, -10, -10, 8, 8, 5,
    4, -2, -5, 2, 2, -5, -2, 4,
    0, 0, 5, 18, 18, 5, 0, 0,
    6, 6, 10, 22, 22, 10, 6, 6,
    12, 14, 20, 28, 28, 20, 14, 12,
    40, 45, 50, 55, 55, 50, 45, 40,
    0, 0, 0, 0, 0, 0, 0, 0,
)
_KNIGHT = (
    -45, -30, -25, -25, -25, -25, -30, -45,
    -30, -15, 0, 5, 5, 0, -15, -30,
    -25, 5, 10, 14, 14, 10, 5, -25,
    -25, 0, 14, 18, 18, 14, 0, -25,
    -25, 5, 14, 18, 18, 14, 5, -25,
    -25, 0, 10, 14, 14, 10, 0, -25,
    -30, -15, 0, 0, 0, 0, -15, -30,
    -45, -30, -25, -25, -25, -25, -30, -45,
)
_BISHOP = (
    -15, -8, -10, -8, -8, -10, -8, -15,
    -8, 6, 0, 4, 4, 0, 6, -8,
    -8, 8, 8, 8, 8, 8, 8, -8,
    -8, 0, 10, 10, 10, 10, 0, -8,
    -8, 4, 6, 10, 10, 6, 4, -8,
    -8, 0, 6, 8, 8, 6, 0, -8,
    -8, 0, 0, 0, 0, 0, 0, -8,
    -15, -8, -8, -8, -8, -8, -8, -15,
)
_ROOK = (
    0, 0, 3, 6, 6, 3, 0, 0,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    8, 12, 12, 12, 12, 12, 12, 8,
    0, 0, 0, 0, 0, 0, 0, 0,
)
_QUEEN = (
    -15, -8, -8, -3, -3, -8, -8, -15,
    -8, 0, 3, 0, 0, 0, 0, -8,
    -8, 3, 4, 4, 4, 4, 0, -8,
    -3, 0, 4, 4, 4, 4, 0, -3,
    -3, 0, 4, 4, 4, 4, 0, -3,
    -8, 0, 4, 4, 4, 4, 0, -8,
    -8, 0, 0, 0, 0, 0, 0, -8,
    -15, -8, -8, -3, -3, -8, -8, -15,
)
_KING = (
    10, 20, 15, 0, 5, 0, 25, 15,
    0, 0, -8, -10, -10, -8, 0, 0,
    -15, -20, -25, -30, -30, -25, -20, -15,
    -25, -30, -35, -40, -40, -35, -30, -25,
    -30, -35, -40, -45, -45, -40, -35, -30,
    -30, -35, -40, -45, -45, -40, -35, -30,
    -30, -35, -40, -45, -45, -40, -35, -30,
    -30, -35, -40, -45, -45, -40, -35, -30,
)


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Value + placement per piece type and square, for White and (mirrored) for Black."""
    white: list[tuple[int, ...]] = [(0,) * 64]
    black: list[tuple[int, ...]] = [(0,) * 64]
    for piece_type, table in zip(chess.PIECE_TYPES, (_PAWN, _KNIGHT, _BISHOP, _ROOK, _QUEEN, _KING)):
        white.append(tuple(VALUES[piece_type] + table[square] for square in chess.SQUARES))
        black.append(tuple(VALUES[piece_type] + table[chess.square_mirror(square)] for square in chess.SQUARES))
    return tuple(white), tuple(black)


PSQ_WHITE, PSQ_BLACK = _tables()


def _sum(table: tuple[int, ...], bb: int) -> int:
    total = 0
    while bb:
        low = bb & -bb
        total += table[low.bit_length() - 1]
        bb ^= low
    return total


def material(board: chess.Board) -> int:
    """Material and placement from White's side (centipawns)."""
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    total = 0
    for piece_type, bb in ((1, board.pawns), (2, board.knights), (3, board.bishops), (4, board.rooks),
                           (5, board.queens), (6, board.kings)):
        if bb:
            total += _sum(PSQ_WHITE[piece_type], bb & white) - _sum(PSQ_BLACK[piece_type], bb & black)
    return total


def material_count(board: chess.Board, color: chess.Color) -> int:
    """Plain material of ``color`` in centipawns (no placement, king excluded)."""
    mine = board.occupied_co[color]
    return sum(VALUES[piece_type] * (board.pieces_mask(piece_type, color) & mine).bit_count()
               for piece_type in range(1, 6))


@dataclass(frozen=True)
class Weights:
    """How much the parts of :func:`evaluate` count (levels and game phases change them)."""

    king_exposed: int = 2500
    """Cost of leaving one's own king where the side to move can capture it."""
    hanging_share: float = 0.6
    """Share of the value of the best piece the side to move can win at once."""
    check_bonus: int = 150
    """Bonus for attacking the other king when it is that side's turn (it may not know)."""
    king_zone: int = 8
    """Bonus per attack on a square next to the other king (steers pieces towards it)."""
    material_scale: float = 1.0
    """Blind Chess near a flag fall (ruling B5): material decides, so it counts more."""
    king_checked: int = 700
    """Cost of having one's king attacked on one's own turn (it must be seen to be saved)."""
    reply_share: float = 0.5
    """How much the opponent's best forcing reply counts in :func:`evaluate_replies` (it may not find it)."""


DEFAULT_WEIGHTS = Weights()


def _least_attacker_value(board: chess.Board, attackers: int) -> int:
    best = 10_000
    while attackers:
        low = attackers & -attackers
        attackers ^= low
        piece_type = board.piece_type_at(low.bit_length() - 1) or 0
        value = VALUES[piece_type] if piece_type != chess.KING else 1_000
        if value < best:
            best = value
    return best


def best_capture_gain(board: chess.Board, attacker: chess.Color, targets: int = chess.BB_ALL) -> int:
    """The most ``attacker`` wins at once on ``board`` by one capture (of a piece on ``targets``), counting one
    recapture (centipawns).

    >>> best_capture_gain(chess.Board("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"), chess.WHITE)
    900
    >>> best_capture_gain(chess.Board("4k3/2p5/3n4/8/8/8/3R4/4K3 w - - 0 1"), chess.WHITE)   # the pawn defends
    0
    """
    victims = board.occupied_co[not attacker] & ~board.kings & targets
    best = 0
    while victims:
        low = victims & -victims
        victims ^= low
        square = low.bit_length() - 1
        attackers = board.attackers_mask(attacker, square)
        if not attackers:
            continue
        value = VALUES[board.piece_type_at(square) or 0]
        if value <= best:
            continue
        if board.attackers_mask(not attacker, square):
            gain = value - _least_attacker_value(board, attackers)
        else:
            gain = value
        if gain > best:
            best = gain
    return best


def evaluate(board: chess.Board, me: chess.Color, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """Score ``board`` for ``me`` (centipawns), whoever is to move. A missing king is a win or a loss."""
    kings = board.kings
    my_king = kings & board.occupied_co[me]
    their_king = kings & board.occupied_co[not me]
    if not their_king:
        return WIN
    if not my_king:
        return -WIN
    score = material(board)
    if me == chess.BLACK:
        score = -score
    if weights.material_scale != 1.0:
        score = int(score * weights.material_scale)
    mover = board.turn
    if mover != me:
        if board.attackers_mask(mover, my_king.bit_length() - 1):
            score -= weights.king_exposed
        score -= int(weights.hanging_share * best_capture_gain(board, mover))
        their_square = their_king.bit_length() - 1
        if board.attackers_mask(me, their_square):
            score += weights.check_bonus
        if weights.king_zone:
            pressure = 0
            for square in chess.scan_forward(chess.BB_KING_ATTACKS[their_square]):
                pressure += board.attackers_mask(me, square).bit_count()
            score += weights.king_zone * min(pressure, 10)
    else:
        if board.attackers_mask(me, their_king.bit_length() - 1):
            return WIN // 2  # ours to take (a caller that moves next should have found it)
        checkers = board.attackers_mask(not me, my_king.bit_length() - 1)
        if checkers:
            # The king must be saved first: only taking the attacker can still win material.
            score -= weights.king_checked
            score += int(weights.hanging_share * best_capture_gain(board, me, checkers))
        else:
            score += int(weights.hanging_share * best_capture_gain(board, me))
    return score


def evaluate_replies(board: chess.Board, me: chess.Color, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """:func:`evaluate` with the opponent (to move on ``board``) trying its forcing replies.

    Forcing replies are captures and moves that attack ``me``'s king. The worst of
    them for ``me`` is mixed in at ``weights.reply_share``: this sees a bishop that
    takes on f7 with the king, guarded by a queen, which one static look misses.

    >>> scholar = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 4 4")
    >>> evaluate_replies(scholar, chess.BLACK) < evaluate(scholar, chess.BLACK)
    False
    >>> after = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    >>> evaluate_replies(after, chess.BLACK) < evaluate(after, chess.BLACK) - 300
    True
    """
    base = evaluate(board, me, weights)
    if board.turn == me or abs(base) >= WIN // 2:
        return base
    my_king = (board.kings & board.occupied_co[me]).bit_length() - 1
    mine = board.occupied_co[me]
    occupied = board.occupied
    # Squares from which some piece could attack the king (a superset; the check is tested after the move).
    near = (chess.BB_KNIGHT_ATTACKS[my_king] | chess.BB_KING_ATTACKS[my_king]
            | chess.BB_RANK_ATTACKS[my_king][chess.BB_RANK_MASKS[my_king] & occupied]
            | chess.BB_FILE_ATTACKS[my_king][chess.BB_FILE_MASKS[my_king] & occupied]
            | chess.BB_DIAG_ATTACKS[my_king][chess.BB_DIAG_MASKS[my_king] & occupied])
    worst = base
    for move in board.generate_pseudo_legal_moves(chess.BB_ALL, mine | near):
        captures = bool(chess.BB_SQUARES[move.to_square] & mine)
        board.push(move)
        try:
            if captures or board.attackers_mask(not me, my_king):
                value = evaluate(board, me, weights)
                if value < worst:
                    worst = value
        finally:
            board.pop()
    return int(base + weights.reply_share * (worst - base))


def king_capture(board: chess.Board) -> chess.Move | None:
    """A move of the side to move that captures the other king on ``board``, the cheapest capturer first.

    >>> str(king_capture(chess.Board("4k3/8/8/8/8/8/4R3/Q3K3 w - - 0 1")))
    'e2e8'
    """
    their_king = board.kings & board.occupied_co[not board.turn]
    if not their_king:
        return None
    square = their_king.bit_length() - 1
    attackers = board.attackers_mask(board.turn, square)
    if not attackers:
        return None
    best: chess.Move | None = None
    best_value = 10**9
    while attackers:
        low = attackers & -attackers
        attackers ^= low
        origin = low.bit_length() - 1
        piece_type = board.piece_type_at(origin) or 0
        value = VALUES[piece_type] if piece_type != chess.KING else 2_000
        if value < best_value:
            promotion = chess.QUEEN if piece_type == chess.PAWN and chess.BB_SQUARES[square] & chess.BB_BACKRANKS \
                else None
            best, best_value = chess.Move(origin, square, promotion), value
    return best
