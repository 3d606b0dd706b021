"""The shared core of opponent-position inference: hypotheses, the opponent's successors, sampling, queries.

The model is described in :mod:`app.engine.inference`, which is the module to import;
:mod:`app.games.rbc.inference` and :mod:`app.games.blind.inference` read each game's
observations on top of :class:`Inference`.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import logging
import math
import os
import random
import tempfile
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Iterator, Mapping, Sequence, TypeVar

import chess
from chess import (BB_ALL, BB_BACKRANKS, BB_DIAG_ATTACKS, BB_DIAG_MASKS, BB_FILE_A, BB_FILE_ATTACKS, BB_FILE_H,
                   BB_FILE_MASKS, BB_KING_ATTACKS, BB_KNIGHT_ATTACKS, BB_PAWN_ATTACKS, BB_RANK_ATTACKS,
                   BB_RANK_MASKS, BB_SQUARES)

import numpy as np

from . import inference_vec as vec
from .core import Seat
from .inference_reach import EVERYWHERE, Reach, after_turn, count_bound, exclude, intersect

K = TypeVar("K")
Hypothesis = tuple[int, int, int, int, int, int, int, int]
"""The opponent's pawns, knights, bishops, rooks, queens, kings, castling rights, en-passant square (0: none)."""

PAWNS, KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS, CASTLING, EP = range(8)
"""Indexes into a :data:`Hypothesis` (the piece ones are ``piece_type - 1``)."""

DEFAULT_CAP = 10_000

# Inside, a hypothesis is packed into one int: six 64-bit piece fields (pawns in the lowest bits), the
# castling bitboard above them and the en-passant square on top. Moving a piece is then one xor, and an
# int hashes about twice as fast as an 8-tuple, which is most of the cost of expanding a set.
_FIELD = (1 << 64) - 1
_CASTLING_SHIFT = 384
_EP_SHIFT = 448
_NO_EP = (1 << _EP_SHIFT) - 1
_BB_RANK_3 = chess.BB_RANK_3
_BB_RANK_6 = chess.BB_RANK_6


_RESERVE_FROM = 1 << 16  # successors of a turn from which memory for larger sets is made ready

_compiled: Any = None  # the inference_jit module once warmed up; False when it cannot be used; None: not yet
_compiling: threading.Thread | None = None
_compile_lock = threading.Lock()


def compiled() -> Any:
    """The compiled kernels (:mod:`.inference_jit`) if numba can run them here, else ``None`` (the numpy ones in
    :mod:`.inference_vec` are used). Imported and compiled (or loaded from numba's cache) on first use, so
    that nothing pays for numba before a belief is asked for. Waits for the compiler; :func:`kernels` does not."""
    global _compiled
    with _compile_lock:
        if _compiled is None:
            with _one_compiler_on_this_machine():  # (once ready, a process never touches the lock file)
                try:
                    # numba compiles or loads its cache only here, when a belief is first asked for
                    from . import inference_jit
                except Exception as error:  # noqa: BLE001 - e.g. numba finds no folder to keep its cache in
                    why = f"the compiled kernels could not be loaded ({type(error).__name__}: {error})"
                    loaded: Any = False
                else:
                    loaded = inference_jit if inference_jit.warm_up() else False
                    why = str(inference_jit.WHY_NOT)
            if not loaded:
                logging.getLogger(__name__).warning("belief inference without compiled kernels: %s", why)
            _compiled = loaded
    return _compiled or None


@contextlib.contextmanager
def _one_compiler_on_this_machine(lock_file: Path | None = None) -> Iterator[None]:
    """Holds a lock file while the kernels are compiled or loaded, so that processes starting together (bot
    workers, the window's inference, test workers) do not each compile them: the first compiles and fills
    numba's cache, the others wait and then load it. The operating system releases the lock of a process that
    dies. Without ``fcntl`` (Windows), or a folder to put the file in, each process goes its own way.
    ``lock_file``: another file than the one of this checkout's kernels (for tests)."""
    try:
        import fcntl
        if lock_file is None:
            path = Path(__file__).resolve().with_name("inference_jit.py")
            tag = hashlib.sha256(str(path).encode()).hexdigest()[:16]
            uid = os.getuid() if hasattr(os, "getuid") else 0
            lock_file = Path(tempfile.gettempdir()) / f"sightline-kernels-{uid}-{tag}.lock"
        handle = open(lock_file, "a+b")
    except (ImportError, OSError):
        yield
        return
    with handle:
        try:
            # A record lock: released when the file closes or the process ends, and not held by a process
            # forked meanwhile (flock's would be, as long as the child lives).
            fcntl.lockf(handle, fcntl.LOCK_EX)
        except OSError:
            pass
        yield


def _forget_warm_up_in_child() -> None:
    """A child forked during the warm-up has no warm-up thread: it may start its own."""
    global _compiling, _compile_lock
    if _compiled is None:
        _compiling = None
        _compile_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_warm_up_in_child)


def kernels() -> Any:
    """The module that does the heavy work on sets (``expand``, ``unique``, ``keep``, ``select``,
    ``sight_select``, ``forget``, ``systematic_sample``, ``piece_shares``): :mod:`.inference_jit` when it can
    run, else :mod:`.inference_vec`.

    Never waits: the first call starts the compiled kernels' warm-up on a thread of its own (numba compiles
    them in about 20 s the very first time, then loads them from its cache in a fraction of a second), and
    until that is done the numpy kernels do the work. Both give the same results in the same order, so nothing
    a seat sees depends on which one ran; a bot on the clock never waits for the compiler."""
    global _compiling
    if _compiled is None:
        if _compiling is None:
            # Not a daemon: a process that ends while numba compiles waits for it rather than tearing LLVM down
            # under it (the wait happens once: later runs load the cache in a fraction of a second).
            _compiling = threading.Thread(target=compiled, name="inference kernels warm-up", daemon=False)
            _compiling.start()
        return vec
    return _compiled or vec


def _spread(mask: int) -> int:
    """``mask`` copied into each of the six piece fields (to test "any opponent piece on these squares")."""
    return mask | mask << 64 | mask << 128 | mask << 192 | mask << 256 | mask << 320


def pack(h: Hypothesis) -> int:
    """The packed form of a hypothesis (what the set holds).

    >>> unpack(pack((1, 2, 4, 8, 16, 32, 128, 40))) == (1, 2, 4, 8, 16, 32, 128, 40)
    True
    """
    return (h[0] | h[1] << 64 | h[2] << 128 | h[3] << 192 | h[4] << 256 | h[5] << 320 | h[6] << _CASTLING_SHIFT
            | h[7] << _EP_SHIFT)


def unpack(x: int) -> Hypothesis:
    """The readable form of a packed hypothesis."""
    return (x & _FIELD, x >> 64 & _FIELD, x >> 128 & _FIELD, x >> 192 & _FIELD, x >> 256 & _FIELD,
            x >> 320 & _FIELD, x >> _CASTLING_SHIFT & _FIELD, x >> _EP_SHIFT)


class InferenceError(ValueError):
    """An observation that cannot belong to this seat's game (wrong type, wrong order, contradicts own pieces)."""


@dataclass(frozen=True)
class InferenceOptions:
    """How an inference runs.

    ``cap``: above this many hypotheses a weighted sample of at most ``cap`` is
    kept. ``seed``: seeds the sampling. ``retries``: how many times a sampled set
    that lost every hypothesis is rebuilt from the last exact set. ``start_fen``:
    Blind Chess only, the full starting position when it is not the standard one
    (the seat is told only its own half of it).
    """

    cap: int = DEFAULT_CAP
    seed: int = 0
    retries: int = 2
    start_fen: str | None = None
    expansion_limit: int = 3_000_000
    """Most successors one opponent turn may generate: beyond it, the parents are sampled first (so the
    set becomes an estimate) to keep time and memory bounded."""
    share_weight: bool = False
    """Share each position's weight equally among the positions one opponent turn makes of it (the opponent picks
    one of its moves, each as likely), instead of giving each the whole weight (every move order counted once).
    Counting move orders favours armies with many moves more with every turn: after a long quiet spell a Blind
    Chess bot's belief held nearly nothing but queens promoted unseen. A bot's belief only: the weights then no
    longer count move orders, so :attr:`Inference.count` is off."""
    spared_king_weight: float = 1.0
    """What a position is weighed by when the opponent could have taken the seat's king there and its turn went
    by without that (1: nothing). A bot's belief only (see :attr:`promotion_weight`)."""
    promotion_weight: float = 1.0
    """What an unseen promotion multiplies a position's weight by (1: nothing). Without it, a long quiet game
    fills a Blind Chess bot's belief with queens promoted unseen: every turn lets each free pawn step on, and
    positions with a queen outnumber those without (the queen may stand anywhere), though nothing was seen of it.
    A bot's belief only: the weights then no longer count move orders, so :attr:`Inference.count` is off."""

    def __post_init__(self) -> None:
        if not isinstance(self.cap, int) or self.cap < 1:
            raise ValueError(f"cap must be a positive integer, not {self.cap!r}")
        if not isinstance(self.expansion_limit, int) or self.expansion_limit < 1:
            raise ValueError(f"expansion_limit must be a positive integer, not {self.expansion_limit!r}")
        if not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"retries must be a non-negative integer, not {self.retries!r}")
        for name in ("promotion_weight", "spared_king_weight"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0.0 < value <= 1.0):
                raise ValueError(f"{name} must be in (0, 1], not {value!r}")


HEAT_SAMPLE = 50_000
"""Above this many positions, the heat map is estimated from a sample of this size (the count stays exact)."""

MIN_POSSIBLE_HEAT = 0.005
"""The heat an estimated summary gives a square that is possible but that its sample missed (so it shows)."""


@dataclass(frozen=True)
class InferenceSummary:
    """What a belief board draws: small, immutable, cheap to send between threads or processes.

    ``squares``: the heat of each square (all 64), the chance that an opponent piece
    stands there; ``by_type``: the same per piece type (``chess.PAWN`` ... ``chess.KING``).
    A heat is 0 only where no position consistent with the seat's observations has
    such a piece (sound, also when the figures are estimated). When :attr:`exact`,
    heats are the exact shares of the possible positions; otherwise they are
    estimated from a weighted sample, and a possible square the sample missed gets
    :data:`MIN_POSSIBLE_HEAT`.

    ``possible`` / ``possible_by_type``: bitboards of the squares where an opponent
    piece (of that type) may stand; everything else is certainly impossible.
    ``count``: the number of possible positions, exact when :attr:`exact`, else an
    estimate inside the honest range ``count_low`` .. ``count_high`` (both sure
    bounds). ``held``: positions the summary was computed from.

    >>> summary = InferenceSummary(0, 0, False, {}, {}, "the worker stopped")
    >>> summary.is_possible(chess.E4, chess.KNIGHT), summary.count_text()     # a failure rules nothing out
    (True, 'the worker stopped')
    """

    ply: int
    count: int
    sampled: bool
    squares: dict[int, float]
    by_type: dict[int, dict[int, float]]
    problem: str | None = None
    possible: int = BB_ALL
    possible_by_type: dict[int, int] = field(default_factory=lambda: {t: b for t, b in zip(chess.PIECE_TYPES,
                                                                                             EVERYWHERE)})
    count_low: int = 0
    count_high: int = 0
    held: int = 0
    heat_exact: bool = False
    """Whether the heats are exact shares (a large exact set's heat comes from a sample of it)."""

    @property
    def exact(self) -> bool:
        """Whether the figures are exact (every possible position enumerated), not estimated."""
        return not self.sampled and self.problem is None

    def is_possible(self, square: int, piece_type: int | None = None) -> bool:
        """Whether some position consistent with the observations has an opponent piece (of ``piece_type``)
        on ``square``. ``False`` is certain; ``True`` may be an over-estimate when not :attr:`exact`."""
        mask = self.possible if piece_type is None else self.possible_by_type.get(piece_type, BB_ALL)
        return bool(mask & BB_SQUARES[square])

    def count_text(self) -> str:
        """The position count in words, saying plainly when it is an estimate.

        >>> InferenceSummary(3, 12, False, {}, {}, count_low=12, count_high=12).count_text()
        '12 positions possible'
        >>> InferenceSummary(9, 250_000, True, {}, {}, count_low=41_000, count_high=3_200_000).count_text()
        'between 41,000 and 3.2 million positions possible (estimate: about 250,000)'
        """
        if self.problem:
            return self.problem
        if self.exact:
            return "no position fits what you know" if self.count <= 0 else \
                f"{self.count:,} position{'s' if self.count != 1 else ''} possible"
        return (f"between {_amount(self.count_low)} and {_amount(self.count_high)} positions possible "
                f"(estimate: about {_amount(self.count)})")


def _amount(number: int) -> str:
    """A count in words: exact below a million, then three figures ("3.2 million", "4.1e+15")."""
    if number < 1_000_000:
        return f"{number:,}" if number < 10_000 else f"{int(float(f'{number:.3g}')):,}"
    for size, word in ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million")):
        if number >= size and number < 1000 * size:
            return f"{number / size:.3g} {word}"
    return f"{number:.2g}"


# ---- bit helpers ---------------------------------------------------------------------------------------

def _rook_attacks(square: int, occupied: int) -> int:
    return (BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occupied]
            | BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & occupied])


def _bishop_attacks(square: int, occupied: int) -> int:
    return BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & occupied]


def _squares(bb: int) -> Iterator[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def opponent_key(board: chess.Board, color: chess.Color) -> Hypothesis:
    """The hypothesis describing the opponent of ``color`` on a full ``board`` (e.g. the referee's).

    The en-passant square belongs to the hypothesis only when it is ``color``'s
    turn (the opponent's last move opened it).

    >>> opponent_key(chess.Board(), chess.WHITE)[KINGS] == chess.BB_E8
    True
    """
    theirs = board.occupied_co[not color]
    ep = board.ep_square if board.turn == color and board.ep_square is not None else 0
    back = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
    return (board.pawns & theirs, board.knights & theirs, board.bishops & theirs, board.rooks & theirs,
            board.queens & theirs, board.kings & theirs, board.clean_castling_rights() & back & theirs, ep)


# ---- the opponent's successors (shared: RBC and Blind Chess resolve the same successful moves) ------------

PASS_NEVER, PASS_ALWAYS, PASS_IF_SOME_ATTEMPT_FAILS = range(3)


@dataclass(frozen=True)
class _Mover:
    """What the moves of the side to move need, worked out once per :func:`expand` call."""

    white: bool
    lose_rights: int
    """Mask clearing the castling rights this side loses when its king moves."""
    king_home_bb: int
    castlings: tuple[tuple[int, int, int], ...]
    """(rook square's bit, squares between king and rook, the castling as one xor of the king's and rook's fields)."""


def _mover(opponent: chess.Color) -> _Mover:
    white = opponent == chess.WHITE
    king_home = chess.E1 if white else chess.E8
    king_home_bb = BB_SQUARES[king_home]
    castlings = []
    for rook, king_to, rook_to in (((chess.H1, chess.G1, chess.F1), (chess.A1, chess.C1, chess.D1)) if white else
                                   ((chess.H8, chess.G8, chess.F8), (chess.A8, chess.C8, chess.D8))):
        rook_bb = BB_SQUARES[rook]
        castlings.append((rook_bb, chess.between(king_home, rook),
                          (rook_bb | BB_SQUARES[rook_to]) << 192 | (king_home_bb | BB_SQUARES[king_to]) << 320))
    lose_rights = ~((chess.BB_RANK_1 if white else chess.BB_RANK_8) << _CASTLING_SHIFT)
    return _Mover(white, lose_rights, king_home_bb, tuple(castlings))


def expand(parents: Sequence[tuple[int, float]], mine: int, opponent: chess.Color, capture: int | None,
           ep_target: int, unchanged: int, out: dict[int, float], share: bool = False) -> int:
    """Add to ``out`` every position one opponent turn leads to from each packed parent; return how many.

    One position at a time: the reference for :func:`app.engine.inference_vec.expand`, which
    the inference uses (tests check that both make the same successors in the same order).

    ``mine``: the seat's pieces; ``opponent``: the colour that moves. ``capture``:
    the square where the seat lost a piece this turn, or ``None`` if it lost none
    (only successors that agree are made). ``ep_target``: the square the seat's
    last move (a double step) lets the opponent take en passant, or 0.
    ``unchanged``: whether the unchanged board (en-passant square cleared) is a
    successor when nothing was captured: never, always (RBC's pass and the moves
    revised to nothing), or when one of the opponent's attempts would fail
    (Blind Chess; also when it had no attempt and its turn was skipped).

    A successful move of the opponent plays the same in both games: knights
    and kings go where they aim; rooks, bishops and queens reach every empty
    square up to the first piece and capture that piece if it is the seat's;
    pawns step onto empty squares, double-step over an empty one from their
    home rank, take diagonally (en passant too) and promote to any of Q, R, B,
    N; castling needs the right and no piece at all between king and rook.

    Parents are processed in order of increasing weight so that a position
    reached from several parents keeps the largest weight. With ``share``, each
    parent's weight is shared equally among its successors (the opponent picks
    one of them, each as likely) and a position's shares add up. The work is done in
    named steps: :func:`_captures_onto` when the seat lost a piece, else
    :func:`_piece_moves` and :func:`_pawn_moves` for each parent.
    """
    ordered = parents if _uniform(parents) else sorted(parents, key=lambda item: item[1])
    if share:
        made = 0
        for x, w in ordered:
            own: dict[int, float] = {}
            count = expand([(x, w)], mine, opponent, capture, ep_target, unchanged, own)
            made += count
            moves = count + (_capture_count(x, mine, opponent) if capture is None else 0)
            for child, weight in own.items():
                out[child] = out.get(child, 0.0) + weight / moves
        return made
    mover = _mover(opponent)
    if capture is not None:
        return _captures_onto(ordered, mine, opponent, capture, ep_target, mover, out)
    made = 0
    ep_bb = BB_SQUARES[ep_target] if ep_target else 0
    for x, w in ordered:
        before = made
        made += _piece_moves(x, w, mine, mover, out)
        made += _pawn_moves(x, w, mine, mover, out)
        if unchanged == PASS_ALWAYS or (unchanged == PASS_IF_SOME_ATTEMPT_FAILS and (
                made == before or _some_attempt_fails(x, _pieces_of(x), mine, mover.white, ep_bb))):
            out[x & _NO_EP] = w
            made += 1
    return made


def _capture_count(x: int, mine: int, opponent: chess.Color) -> int:
    """How many captures of the seat's pieces the opponent could attempt in packed position ``x`` (a move that
    lands on one of them; en passant aside)."""
    F = _FIELD
    P, N, B, R, Q, K = x & F, x >> 64 & F, x >> 128 & F, x >> 192 & F, x >> 256 & F, x >> 320 & F
    occupied = _pieces_of(x) | mine
    count = 0
    for square in _squares(N):
        count += (BB_KNIGHT_ATTACKS[square] & mine).bit_count()
    for square in _squares(K):
        count += (BB_KING_ATTACKS[square] & mine).bit_count()
    for square in _squares(B | Q):
        count += (_bishop_attacks(square, occupied) & mine).bit_count()
    for square in _squares(R | Q):
        count += (_rook_attacks(square, occupied) & mine).bit_count()
    for square in _squares(P):
        count += (chess.BB_PAWN_ATTACKS[opponent][square] & mine).bit_count()
    return count


def _pieces_of(x: int) -> int:
    """Every square a packed position's pieces stand on."""
    F = _FIELD
    return x & F | x >> 64 & F | x >> 128 & F | x >> 192 & F | x >> 256 & F | x >> 320 & F


def _captures_onto(ordered: Sequence[tuple[int, float]], mine: int, opponent: chess.Color, capture: int,
                   ep_target: int, mover: _Mover, out: dict[int, float]) -> int:
    """The successors in which the opponent's move took the seat's piece on ``capture``: every piece that can
    land there, found by looking back from the square (en passant and promotions too)."""
    white = opponent == chess.WHITE
    F = _FIELD
    rank_att, rank_mask, file_att, file_mask = BB_RANK_ATTACKS, BB_RANK_MASKS, BB_FILE_ATTACKS, BB_FILE_MASKS
    diag_att, diag_mask, bbs = BB_DIAG_ATTACKS, BB_DIAG_MASKS, BB_SQUARES
    lose_rights = mover.lose_rights
    made = 0
    sb = bbs[capture]
    if not sb & mine:
        return 0
    pawn_from = BB_PAWN_ATTACKS[not opponent][capture]
    knight_from = BB_KNIGHT_ATTACKS[capture]
    king_from = BB_KING_ATTACKS[capture]
    promote = bool(sb & BB_BACKRANKS)
    ep_from = 0
    ep_bb = bbs[ep_target] if ep_target else 0
    if ep_target and capture == (ep_target - 8 if white else ep_target + 8):
        # The seat's pawn that just double-stepped is taken en passant.
        ep_from = BB_PAWN_ATTACKS[not opponent][ep_target]
    for x, w in ordered:
        base = x & _NO_EP
        P, N, B, R, Q, K = x & F, x >> 64 & F, x >> 128 & F, x >> 192 & F, x >> 256 & F, x >> 320 & F
        occ = P | N | B | R | Q | K | mine
        bb = N & knight_from
        while bb:
            fb = bb & -bb
            bb ^= fb
            out[base ^ (fb | sb) << 64] = w
            made += 1
        bb = K & king_from
        while bb:
            fb = bb & -bb
            bb ^= fb
            out[(base ^ (fb | sb) << 320) & lose_rights] = w
            made += 1
        if R | Q:
            straight = (rank_att[capture][rank_mask[capture] & occ]
                        | file_att[capture][file_mask[capture] & occ])
            bb = straight & R
            while bb:
                fb = bb & -bb
                bb ^= fb
                out[(base ^ (fb | sb) << 192) & ~(fb << _CASTLING_SHIFT)] = w
                made += 1
            bb = straight & Q
            while bb:
                fb = bb & -bb
                bb ^= fb
                out[base ^ (fb | sb) << 256] = w
                made += 1
        if B | Q:
            diagonal = diag_att[capture][diag_mask[capture] & occ]
            bb = diagonal & B
            while bb:
                fb = bb & -bb
                bb ^= fb
                out[base ^ (fb | sb) << 128] = w
                made += 1
            bb = diagonal & Q
            while bb:
                fb = bb & -bb
                bb ^= fb
                out[base ^ (fb | sb) << 256] = w
                made += 1
        bb = P & pawn_from
        while bb:
            fb = bb & -bb
            bb ^= fb
            if promote:
                rest = base ^ fb
                out[rest | sb << 256] = w
                out[rest | sb << 192] = w
                out[rest | sb << 128] = w
                out[rest | sb << 64] = w
                made += 4
            else:
                out[base ^ (fb | sb)] = w
                made += 1
        bb = P & ep_from
        while bb:
            fb = bb & -bb
            bb ^= fb
            out[base ^ (fb | ep_bb)] = w
            made += 1
    return made


def _piece_moves(x: int, w: float, mine: int, mover: _Mover, out: dict[int, float]) -> int:
    """The quiet moves of the knights, bishops, rooks, queens and king of packed position ``x`` (castling
    too), each onto an empty square: a move onto the seat's piece would have been a capture."""
    F = _FIELD
    rank_att, rank_mask, file_att, file_mask = BB_RANK_ATTACKS, BB_RANK_MASKS, BB_FILE_ATTACKS, BB_FILE_MASKS
    diag_att, diag_mask = BB_DIAG_ATTACKS, BB_DIAG_MASKS
    base = x & _NO_EP
    N, B, R, Q, K = x >> 64 & F, x >> 128 & F, x >> 192 & F, x >> 256 & F, x >> 320 & F
    occ = _pieces_of(x) | mine
    empty = ~occ & BB_ALL
    made = 0
    bb = N
    while bb:
        fb = bb & -bb
        bb ^= fb
        moved = base ^ fb << 64
        dests = (BB_KNIGHT_ATTACKS[fb.bit_length() - 1] & empty) << 64
        while dests:
            tb = dests & -dests
            dests ^= tb
            out[moved | tb] = w
            made += 1
    bb = B
    while bb:
        fb = bb & -bb
        bb ^= fb
        square = fb.bit_length() - 1
        moved = base ^ fb << 128
        dests = (diag_att[square][diag_mask[square] & occ] & empty) << 128
        while dests:
            tb = dests & -dests
            dests ^= tb
            out[moved | tb] = w
            made += 1
    bb = R
    while bb:
        fb = bb & -bb
        bb ^= fb
        square = fb.bit_length() - 1
        moved = (base ^ fb << 192) & ~(fb << _CASTLING_SHIFT)
        dests = ((rank_att[square][rank_mask[square] & occ] | file_att[square][file_mask[square] & occ])
                 & empty) << 192
        while dests:
            tb = dests & -dests
            dests ^= tb
            out[moved | tb] = w
            made += 1
    bb = Q
    while bb:
        fb = bb & -bb
        bb ^= fb
        square = fb.bit_length() - 1
        moved = base ^ fb << 256
        dests = ((rank_att[square][rank_mask[square] & occ] | file_att[square][file_mask[square] & occ]
                  | diag_att[square][diag_mask[square] & occ]) & empty) << 256
        while dests:
            tb = dests & -dests
            dests ^= tb
            out[moved | tb] = w
            made += 1
    bb = K
    while bb:
        fb = bb & -bb
        bb ^= fb
        moved = (base ^ fb << 320) & mover.lose_rights
        dests = (BB_KING_ATTACKS[fb.bit_length() - 1] & empty) << 320
        while dests:
            tb = dests & -dests
            dests ^= tb
            out[moved | tb] = w
            made += 1
        if fb == mover.king_home_bb and x >> _CASTLING_SHIFT & F:
            C = x >> _CASTLING_SHIFT & F
            for rook_bb, between, xor in mover.castlings:
                if C & rook_bb & R and not between & occ:
                    out[(base ^ xor) & mover.lose_rights] = w
                    made += 1
    return made


def _pawn_moves(x: int, w: float, mine: int, mover: _Mover, out: dict[int, float]) -> int:
    """The pawn steps of packed position ``x``: one square (promoting on the last rank to Q, R, B or N) or two
    from the home rank over an empty square (leaving an en passant square)."""
    P = x & _FIELD
    if not P:
        return 0
    base = x & _NO_EP
    empty = ~(_pieces_of(x) | mine) & BB_ALL
    if mover.white:
        singles = (P << 8) & empty
        doubles = ((singles & _BB_RANK_3) << 8) & empty
        back = -8
    else:
        singles = (P >> 8) & empty
        doubles = ((singles & _BB_RANK_6) >> 8) & empty
        back = 8
    made = 0
    while singles:
        tb = singles & -singles
        singles ^= tb
        rest = base ^ BB_SQUARES[tb.bit_length() - 1 + back]
        if tb & BB_BACKRANKS:
            out[rest | tb << 256] = w
            out[rest | tb << 192] = w
            out[rest | tb << 128] = w
            out[rest | tb << 64] = w
            made += 4
        else:
            out[rest | tb] = w
            made += 1
    while doubles:
        tb = doubles & -doubles
        doubles ^= tb
        target = tb.bit_length() - 1
        out[base ^ (BB_SQUARES[target + 2 * back] | tb) | (target + back) << _EP_SHIFT] = w
        made += 1
    return made


def _uniform(parents: Sequence[tuple[int, float]]) -> bool:
    if not parents:
        return True
    first = parents[0][1]
    return all(w == first for _, w in parents)


def _some_attempt_fails(x: int, opp: int, mine: int, white: bool, ep_bb: int) -> bool:
    """Blind Chess: whether one of the opponent's possible attempts would fail on this board (ruling B2)."""
    P, B, R, Q, K, C = x & _FIELD, x >> 128 & _FIELD, x >> 192 & _FIELD, x >> 256 & _FIELD, x >> 320 & _FIELD, \
        x >> _CASTLING_SHIFT & _FIELD
    free = ~opp & BB_ALL  # attempts never land on the mover's own pieces
    if white:
        diagonal = (((P & ~BB_FILE_A) << 7) | ((P & ~BB_FILE_H) << 9)) & free
        pushes = (P << 8) & BB_ALL
        middles = ((P & chess.BB_RANK_2) << 8) & free
        doubles = (middles << 8) & free
        double_middles = doubles >> 8
    else:
        diagonal = (((P & ~BB_FILE_A) >> 9) | ((P & ~BB_FILE_H) >> 7)) & free
        pushes = P >> 8
        middles = ((P & chess.BB_RANK_7) >> 8) & free
        doubles = (middles >> 8) & free
        double_middles = doubles << 8
    # A diagonal step onto a square without a piece of the seat (and not en passant) fails.
    if diagonal & ~mine & ~ep_bb:
        return True
    # A step, or a double step, onto or across a piece of the seat fails.
    if pushes & mine or doubles & mine or double_middles & mine:
        return True
    occ = opp | mine
    # A slider aiming past the seat's first piece on a line fails.
    for square in _squares(R | Q):
        if _rook_attacks(square, opp) & free & ~_rook_attacks(square, occ):
            return True
    for square in _squares(B | Q):
        if _bishop_attacks(square, opp) & free & ~_bishop_attacks(square, occ):
            return True
    # Castling with the right and no own piece between, but a piece of the seat between.
    king_home = chess.E1 if white else chess.E8
    if C and K & BB_SQUARES[king_home]:
        for rook in (chess.H1, chess.A1) if white else (chess.H8, chess.A8):
            between = chess.between(king_home, rook)
            if C & R & BB_SQUARES[rook] and not between & opp and between & mine:
                return True
    return False


# ---- the inference object ----------------------------------------------------------------------------------

InferenceT = TypeVar("InferenceT", bound="Inference")


_WEIGHT_STEP = 600
_WEIGHT_CEILING = 2.0 ** _WEIGHT_STEP


@dataclass(eq=False)
class Inference(ABC):
    """The opponent positions one seat still considers possible (the model: :mod:`app.engine.inference`).

    Subclasses (:class:`RbcInference`, :class:`BlindInference`) read their game's
    observations; this base holds the set, sampling and the queries.
    """

    seat: Seat
    options: InferenceOptions = field(default_factory=InferenceOptions)
    color: chess.Color = chess.WHITE
    ply: int = 0
    """Half-moves played in the positions held (the next one is the seat's, or the opponent's)."""
    sampled: bool = False
    problem: str | None = None
    """Why the set is empty, when it is (contradictory observations, or a sample that lost track)."""
    finished: bool = False
    own: chess.Board = field(default_factory=lambda: chess.Board(None))
    """The seat's own pieces and castling rights."""
    my_ep: int = 0
    """The en-passant square the seat's last move opened for the opponent (0: none)."""
    opponent_to_move: bool = False
    """Whether the positions held have the opponent to move (its turn not yet heard of)."""
    started: bool = False
    _rows: Any = field(default_factory=vec.empty_rows, repr=False)
    """The hypotheses held, one per column (see :mod:`.inference_vec`); never changed in place."""
    _weights: Any = field(default_factory=lambda: np.zeros(0), repr=False)
    _weight_exponent: int = field(default=0, repr=False)
    """The held weights are the numbers of move orders reaching each position divided by 2 to this power: those
    numbers grow exponentially (a game of 250 turns passes the largest float), so :meth:`_expand` scales them down
    by a power of two, which keeps every ratio exact."""
    _rng: random.Random = field(default_factory=random.Random, repr=False)
    _log: list[Any] = field(default_factory=list, repr=False)
    _exact: "Inference | None" = field(default=None, repr=False)
    _exact_index: int = 0
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)
    # Set by an expansion: the set is sampled only after the seat's next observation (its sense, its own
    # move) has filtered it, so the sample is drawn from positions that fit that observation too.
    _hold: bool = field(default=False, repr=False)
    _hold_factor: ClassVar[int] = 10  # how far beyond the cap a held set may grow
    last_work: int = field(default=0, repr=False)
    """Positions generated by the last opponent-turn expansion (before merging), for benchmarks."""
    _branching: float = field(default=40.0, repr=False)
    """Successors per parent expected of the next expansion (from the last quiet one, with a margin)."""
    _reach: Reach = field(default=EVERYWHERE, repr=False)
    """Where each opponent piece type may stand, kept by sound rules beside the set (:mod:`.inference_reach`)."""
    pieces_left: int = 16
    """How many pieces the opponent has (the seat is told each of its captures)."""
    _max_pawns: int = field(default=8, repr=False)

    def __post_init__(self) -> None:
        if self.seat not in (0, 1):
            raise ValueError(f"seat must be 0 (White) or 1 (Black), not {self.seat!r}")
        if not isinstance(self.options, InferenceOptions):
            raise ValueError(f"options must be InferenceOptions, not {self.options!r}")
        self.color = self.seat == 0
        self._rng = random.Random(self.options.seed)

    # -- construction ----------------------------------------------------------------------------------
    @classmethod
    def from_observations(cls: type[InferenceT], seat: Seat, observations: Sequence[Any],
                          options: InferenceOptions | None = None) -> InferenceT:
        """A fresh inference for ``seat`` that has been told ``observations`` in order."""
        inference = cls(seat, options or InferenceOptions())
        for observation in observations:
            inference.update(observation)
        return inference

    def copy(self: InferenceT) -> InferenceT:
        """An independent copy, e.g. to hand to a worker (the set's dict is copied; its keys are ints)."""
        clone = copy.copy(self)
        clone._rng = random.Random()
        clone._rng.setstate(self._rng.getstate())
        clone._log = list(self._log)
        clone._cache = {}
        clone.own = self.own.copy(stack=False)
        return clone

    # -- updates ---------------------------------------------------------------------------------------
    def update(self, observation: Any, *, limit: bool = True) -> None:
        """Take the seat's next observation.

        With ``limit=False`` the set is not cut down to ``cap`` yet (see
        :meth:`limit`); tests use it to look at the whole set before sampling.
        Raises :class:`InferenceError` for an observation that does not fit this
        seat's game; an empty set is not an error (see :attr:`problem`).
        """
        if not self.sampled and self.size <= self.options.cap:
            # Updates always build new dicts, so a shallow snapshot of an exact state costs little; it is
            # what a sample that later loses every hypothesis is rebuilt from. Only small ones are kept
            # (an expanded set held for the sense can be much larger), so the object stays cheap to pickle.
            self._exact = self._snapshot()
            self._exact_index = len(self._log)
        had_positions = bool(self.size) or not self.started
        self._apply(observation)
        self._reach = exclude(self._reach, self.own.occupied)
        self._log.append(observation)
        self._cache = {}
        if limit and not (self._hold and self.size <= self._hold_factor * self.options.cap):
            self.limit()
        if had_positions and not self.size:
            self._recover()

    def limit(self) -> None:
        """Keep a weighted sample of at most ``cap`` hypotheses if the set has grown beyond it."""
        self._hold = False
        if self.size > self.options.cap:
            self._sample(self.options.cap)

    def _sample(self, count: int) -> None:
        """Keep a weighted sample of at most ``count`` hypotheses (systematic resampling)."""
        if not self.sampled:
            # The last exact set: its union is exact, and the sound reach carries on from it.
            self._reach = intersect(self._reach, vec.union(self._rows))
        self._rows, self._weights = kernels().systematic_sample(self._rows, self._weights, count, self._rng.random())
        self.sampled = True
        self._cache = {}

    def _snapshot(self: InferenceT) -> InferenceT:
        clone = copy.copy(self)
        clone.own = self.own.copy(stack=False)
        clone._log = []
        clone._exact = None
        clone._cache = {}
        return clone

    def _recover(self) -> None:
        """Every hypothesis was ruled out. Exact set: the observations contradict each other. Sampled
        set: the sample missed the truth; replay from the last exact set with new seeds and larger caps."""
        exact = self._exact
        if not self.sampled or exact is None:
            self.problem = "no opponent position fits the observations"
            return
        options = self.options
        for attempt in range(1, options.retries + 1):
            trial = exact._snapshot()
            trial.options = dataclasses.replace(options, cap=options.cap * 2 ** attempt,
                                                seed=options.seed + 7919 * attempt, retries=0)
            trial._rng = random.Random(trial.options.seed)
            for observation in self._log[self._exact_index:]:
                trial._apply(observation)
                if not (trial._hold and trial.size <= trial._hold_factor * trial.options.cap):
                    trial.limit()
                if not trial.size:
                    break
            if trial.size:
                self._rows, self._weights = trial._rows, trial._weights
                self._weight_exponent = trial._weight_exponent
                self.limit()
                self.problem = None
                self._cache = {}
                return
        self.problem = (f"the sampled positions no longer fit the observations (rebuilt {options.retries} "
                        f"times with up to {options.cap * 2 ** options.retries} positions)")

    @abstractmethod
    def _apply(self, observation: Any) -> None:
        """Apply one observation of this game (subclasses). Must replace ``_rows``, never change it in place."""

    def _start(self, color: chess.Color, board: chess.Board) -> None:
        """Begin from a full starting ``board`` (public in RBC; in Blind Chess the standard one or ``start_fen``)."""
        if color != self.color:
            raise InferenceError(f"the observations are {'White' if color else 'Black'}'s, "
                                 f"not seat {self.seat}'s")
        mine = board.occupied_co[color]
        own = chess.Board(None)
        for square in _squares(mine):
            piece = board.piece_at(square)
            assert piece is not None
            own.set_piece_at(square, piece)
        own.castling_rights = board.clean_castling_rights() & (chess.BB_RANK_1 if color else chess.BB_RANK_8) & mine
        own.turn = color
        self.own = own
        self.my_ep = board.ep_square if board.turn != color and board.ep_square is not None else 0
        start = opponent_key(board, color)
        self._rows = np.array([start], dtype=np.uint64).T.copy()
        self._weights = np.ones(1)
        self._weight_exponent = 0
        self._reach = (start[0], start[1], start[2], start[3], start[4], start[5])
        self.pieces_left = board.occupied_co[not color].bit_count()
        self._max_pawns = start[0].bit_count()
        self.opponent_to_move = board.turn != color
        self.ply = 0
        self.started = True

    def _expand(self, capture: int | None, unchanged: int) -> None:
        """Replace each hypothesis by its successors after one opponent turn (see :func:`expand`)."""
        parents = self.size
        if parents * self._branching > self.options.expansion_limit:
            # Too many successors to make: expand a weighted sample of the parents instead.
            self._sample(max(1, int(self.options.expansion_limit / self._branching)))
        fast = kernels()
        expected = self.size * self._branching
        if expected > _RESERVE_FROM and hasattr(fast, "reserve"):
            # The sets are growing: have memory for four times this turn's successors made ready meanwhile, in
            # steps of four (a few times a game), never beyond what this inference's options let a set reach.
            largest = min(self.options.expansion_limit, self._hold_factor * self.options.cap)
            step = _RESERVE_FROM
            while step < 4 * expected and step < largest:
                step *= 4
            fast.reserve(min(step, largest))
        promotion = float(self.options.promotion_weight)
        parent_weights = self._weights
        spared = float(self.options.spared_king_weight)
        king = self.own.king(self.color)
        if spared != 1.0 and king is not None and capture != king and len(parent_weights):
            attacked = vec.capture_counts(self._rows, chess.BB_SQUARES[king], not self.color) > 0
            if attacked.any():
                parent_weights = np.where(attacked, parent_weights * spared, parent_weights)
        if promotion != 1.0:
            # A child's pawns are its parent's, one fewer when the move promoted: weighing each parent by
            # promotion**pawns and each child by promotion**-pawns leaves exactly the promotions charged.
            parent_weights = parent_weights * promotion ** np.bitwise_count(self._rows[0]).astype(float)
        share = self.options.share_weight
        rows, weights, self.last_work = fast.expand(self._rows, parent_weights, self.own.occupied,
                                                         not self.color, capture, self.my_ep, unchanged,
                                                         self._branching, *((True,) if share else ()))
        if promotion != 1.0 and len(weights):
            weights = weights * promotion ** -np.bitwise_count(rows[0]).astype(float)
        if (share or promotion != 1.0 or spared != 1.0) and len(weights):
            weights = weights / weights.max()  # shares shrink every turn: kept near 1, their ratios unchanged
        if capture is None and parents:
            self._branching = max(4.0, 1.1 * self.last_work / max(1, self.size))
        self._reach = after_turn(self._reach, self.own.occupied, not self.color, capture, self.my_ep)
        self._rows, self._weights = rows, self._scaled_down(weights)
        self._hold = True
        self.my_ep = 0
        self.opponent_to_move = False
        self.ply += 1

    def _scaled_down(self, weights: Any) -> Any:
        """``weights`` divided by 2**600 when one of them passes 2**600 (see :attr:`_weight_exponent`): far from
        the largest float (2**1024) even summed over millions of positions and after another turn's growth."""
        if len(weights) and weights.max() > _WEIGHT_CEILING:
            self._weight_exponent += _WEIGHT_STEP
            return np.ldexp(weights, -_WEIGHT_STEP)
        return weights

    def _remove_captured(self, square: int | None, piece_type: chess.PieceType | None = None,
                         keep: tuple[int, tuple[int, int, int, int, int, int], int, int, int, int, int] | None = None
                         ) -> None:
        """After the seat's own move: the piece it captured leaves every hypothesis; en passant expires.

        ``piece_type``: the captured piece's type when the seat was told it (Blind Chess). ``keep``: keep only
        the hypotheses that fit these conditions first (the arguments of the kernels' ``select`` after the
        weights; done in the same pass over the set)."""
        if square is not None:
            self.pieces_left -= 1
            if piece_type == chess.PAWN:
                self._max_pawns -= 1
        rows = self._rows
        if square is None and not rows[EP].any():
            if keep is not None:
                self._rows, self._weights = kernels().select(rows, self._weights, *keep)
            return  # nothing else changes
        # Two hypotheses may become one: the larger weight is kept (exact sets weigh 1 everywhere).
        self._rows, self._weights = kernels().forget(rows, self._weights, square, keep)

    def _own_move_done(self, move: chess.Move | None) -> None:
        """The seat's move ``move`` (``None``: nothing moved) is played on its own board."""
        board = self.own
        self.my_ep = 0
        if move is not None:
            if board.pawns & BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 16:
                self.my_ep = (move.from_square + move.to_square) // 2
            board.turn = self.color
            board.push(move)
            board.turn = self.color
            board.ep_square = None
            board.clear_stack()
        self.opponent_to_move = True
        self.ply += 1

    def _lose_own_piece(self, square: int) -> None:
        if not self.own.occupied & BB_SQUARES[square]:
            raise InferenceError(f"told of a capture on {chess.square_name(square)}, where the seat has no piece")
        if self.own.remove_piece_at(square) == chess.Piece(chess.KING, self.color):
            self.own.castling_rights = 0
        self.own.castling_rights &= ~BB_SQUARES[square]

    # -- queries -----------------------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """Whether every possible position is held (the figures are exact), not a sample."""
        return not self.sampled

    @property
    def count(self) -> int:
        """How many opponent positions are possible: exact, or an estimate when :attr:`sampled`.

        The estimate is the total weight of the sample. Weights follow paths, so
        positions reached by moves in another order count again; the estimate is
        therefore high and is never allowed above the number of ways to place
        the opponent's material on the free squares (:meth:`placements`), nor
        outside :meth:`count_range`.
        """
        if not self.sampled:
            return self.size
        cached = self._cache.get("count")
        if cached is None:
            low, high = self.count_range()
            total = float(self._weights.sum())
            # Rounded as before while unscaled (a sum of ones may come out as 299.99999); scaled, in whole numbers.
            paths = round(total) if not self._weight_exponent else int(Fraction(total) * 2 ** self._weight_exponent)
            cached = max(low, min(paths, self.placements(), high))
            self._cache["count"] = cached
        return int(cached)

    def count_range(self) -> tuple[int, int]:
        """Sure bounds on the number of possible positions: ``(count, count)`` when exact.

        Sampled: at least the distinct positions held (each one fits every
        observation), at most what :func:`~app.engine.inference_reach.count_bound`
        allows inside the reach with the opponent's known number of pieces.
        """
        if not self.sampled:
            return self.size, self.size
        cached = self._cache.get("range")
        if cached is None:
            reach = self.reach()
            back = chess.BB_RANK_8 if self.color == chess.WHITE else chess.BB_RANK_1
            home = chess.E8 if self.color == chess.WHITE else chess.E1
            rights = 0
            if reach[5] & BB_SQUARES[home]:
                rights = (reach[3] & back & (chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8)).bit_count()
            double_steps = reach[0] & (chess.BB_RANK_5 if self.color == chess.WHITE else chess.BB_RANK_4)
            high = count_bound(reach, self.pieces_left, self._max_pawns, 2 ** rights, 1 + double_steps.bit_count())
            low = self.size
            cached = (low, max(low, high))
            self._cache["range"] = cached
        return cached[0], cached[1]

    def reach(self) -> Reach:
        """Where each opponent piece type may stand (pawns ... kings), from the sound rules alone."""
        return self._reach

    def possible_by_type(self) -> Reach:
        """Where each opponent piece type may stand (pawns ... kings), as bitboards; a square outside is
        certainly impossible for that type. Exact (the union of the positions held) while the set is."""
        cached: Reach | None = self._cache.get("possible")
        if cached is None:
            union = vec.union(self._rows)
            if self.sampled:
                # The held positions all fit the observations, so joining them keeps the reach sound.
                cached = (self._reach[0] | union[0], self._reach[1] | union[1], self._reach[2] | union[2],
                          self._reach[3] | union[3], self._reach[4] | union[4], self._reach[5] | union[5])
            else:
                cached = union
            self._cache["possible"] = cached
        return cached

    def is_possible(self, square: int, piece_type: chess.PieceType | None = None) -> bool:
        """Whether some position consistent with the observations has an opponent piece (of ``piece_type``) on
        ``square``. ``False`` is certain."""
        possible = self.possible_by_type()
        bb = BB_SQUARES[square]
        if piece_type is None:
            return any(mask & bb for mask in possible)
        return bool(possible[piece_type - 1] & bb)

    def placements(self) -> int:
        """An upper bound on the number of distinct positions with the opponent material of the held ones.

        For each material (pieces per type) held: pawns on the free squares of
        ranks 2 to 7, the other pieces on the remaining free squares; times 4
        castling states and 9 en-passant states.
        """
        fast = _compiled or None  # only if ready: a count never waits for the compiler
        codes = fast.materials(self._rows) if fast is not None else None
        if codes is None:
            counts = np.bitwise_count(self._rows[:6]).astype(np.int64)
            codes = np.unique(counts[0] | counts[1] << 4 | counts[2] << 8 | counts[3] << 12 | counts[4] << 16
                              | counts[5] << 20)
        materials = {tuple(int(code) >> shift & 15 for shift in (0, 4, 8, 12, 16, 20)) for code in codes.tolist()}
        mine = self.own.occupied
        free = 64 - mine.bit_count()
        pawn_free = 48 - (mine & ~BB_BACKRANKS).bit_count()
        total = 0
        for material in materials:
            pawns, others = material[0], material[1:]
            ways = math.comb(pawn_free, pawns)
            left = free - pawns
            for number in others:
                ways *= math.comb(left, number)
                left -= number
            total += ways
        return total * 36

    @property
    def size(self) -> int:
        """How many hypotheses are held (``count`` unless sampled)."""
        return int(self._rows.shape[1])

    def arrays(self) -> tuple[Any, Any]:
        """The set as arrays, for vectorised work on every position held (never change them: they are shared):
        the opponent's bitboards, shape (8, n) of uint64 in :data:`Hypothesis` order, and the n weights
        (relative: only their ratios mean anything)."""
        return self._rows, self._weights

    def hold(self, positions: Mapping[Hypothesis, float] | Mapping[tuple[int, ...], float]) -> None:
        """Hold exactly these weighted positions from now on (a guess made when the observations ruled out every
        position held, see :func:`app.bots.belief_common.widen_guess`); the sound bounds kept beside the set (where
        each piece type may stand, how many pawns) follow them. Raises ValueError for an empty mapping."""
        if not positions:
            raise ValueError("hold() needs at least one position")
        pairs = list(positions.items())
        self._rows = np.array([key for key, _ in pairs], dtype=np.uint64).T.copy()
        self._weights = np.array([weight for _, weight in pairs], dtype=float)
        self._weight_exponent = 0
        self._reach = tuple(int(np.bitwise_or.reduce(self._rows[field])) for field in range(6))  # type: ignore[assignment]
        self._max_pawns = max(int(np.bitwise_count(self._rows[0]).max()), self._max_pawns)
        self._cache = {}

    @property
    def cap(self) -> int:
        return self.options.cap

    def hypotheses(self) -> Iterator[tuple[Hypothesis, float]]:
        """Each held hypothesis with its weight (the number of positions it stands for; 1 when exact)."""
        rows, weights = self._rows, self._weights
        for index in range(rows.shape[1]):
            column = rows[:, index].tolist()
            yield (column[0], column[1], column[2], column[3], column[4], column[5], column[6], column[7]), \
                float(weights[index])

    def __contains__(self, item: object) -> bool:
        """``board in inference``: whether a full board's opponent army (see :func:`opponent_key`) is held.

        A :data:`Hypothesis` tuple works too.
        """
        if isinstance(item, chess.Board):
            item = opponent_key(item, self.color)
        if isinstance(item, tuple) and len(item) == 8:
            wanted = np.array(item, dtype=np.uint64)[:, None]
            return bool((self._rows == wanted).all(axis=0).any())
        return False

    def board_of(self, h: Hypothesis) -> chess.Board:
        """The full board for hypothesis ``h``: the seat's pieces plus the opponent's, side to move set."""
        own = self.own
        mine = own.occupied
        board = chess.Board(None)
        board.pawns = own.pawns | h[0]
        board.knights = own.knights | h[1]
        board.bishops = own.bishops | h[2]
        board.rooks = own.rooks | h[3]
        board.queens = own.queens | h[4]
        board.kings = own.kings | h[5]
        theirs = h[0] | h[1] | h[2] | h[3] | h[4] | h[5]
        board.occupied_co[self.color] = mine
        board.occupied_co[not self.color] = theirs
        board.occupied = mine | theirs
        board.castling_rights = own.castling_rights | h[6]
        board.turn = (not self.color) if self.opponent_to_move else self.color
        board.ep_square = (self.my_ep if self.opponent_to_move else h[7]) or None
        board.fullmove_number = self.ply // 2 + 1
        return board

    def positions(self, limit: int | None = None) -> Iterator[tuple[chess.Board, float]]:
        """Full python-chess boards (own + opponent pieces) with their weights, for bots.

        ``limit`` stops after that many (the first ones held; the order is deterministic).
        """
        for index, (h, w) in enumerate(self.hypotheses()):
            if limit is not None and index >= limit:
                return
            yield self.board_of(h), w

    def _probabilities(self) -> list[list[float]]:
        """Per square: the weighted share of positions with an opponent piece there, for each piece field
        (pawns ... kings) and for all pieces (index 6). Computed once per update."""
        cached: list[list[float]] | None = self._cache.get("probabilities")
        if cached is not None:
            return cached
        rows, weights = self._rows, self._weights
        if rows.shape[1] > HEAT_SAMPLE:
            # A large set's heat is estimated from a systematic sample of it (its own generator keeps the
            # inference's samples independent of whether anybody looked); the count and the possible
            # squares stay exact.
            offset = random.Random(self.options.seed * 1009 + self.ply).random()
            rows, weights = kernels().systematic_sample(rows, weights, HEAT_SAMPLE, offset)
        result: list[list[float]] = kernels().piece_shares(rows, weights)
        if not self.heat_exact:
            # Estimated: a square the sample missed but where a piece may stand must not read as impossible.
            possible = self.possible_by_type()
            masks = list(possible) + [possible[0] | possible[1] | possible[2] | possible[3] | possible[4]
                                      | possible[5]]
            for row, mask in zip(result, masks):
                for square in _squares(mask):
                    if row[square] < MIN_POSSIBLE_HEAT:
                        row[square] = MIN_POSSIBLE_HEAT
        self._cache["probabilities"] = result
        return result

    @property
    def heat_exact(self) -> bool:
        """Whether the heat (:meth:`square_probabilities`) is exact: every possible position held, and few
        enough of them (at most :data:`HEAT_SAMPLE`) to be counted one by one."""
        return not self.sampled and self.size <= HEAT_SAMPLE

    def square_probabilities(self) -> dict[int, float]:
        """For every square, the probability (weighted over the held positions) that an opponent piece is there."""
        return dict(enumerate(self._probabilities()[6]))

    def type_probabilities(self, piece_type: chess.PieceType) -> dict[int, float]:
        """For every square, the probability that an opponent piece of ``piece_type`` is there."""
        if piece_type not in chess.PIECE_TYPES:
            raise ValueError(f"not a piece type: {piece_type!r}")
        return dict(enumerate(self._probabilities()[piece_type - 1]))

    def summary(self) -> InferenceSummary:
        """The numbers a belief board shows, as one small immutable object (see :class:`InferenceSummary`)."""
        possible = self.possible_by_type()
        low, high = self.count_range()
        return InferenceSummary(self.ply, self.count, self.sampled, self.square_probabilities(),
                             {piece_type: self.type_probabilities(piece_type) for piece_type in chess.PIECE_TYPES},
                             self.problem, possible=possible[0] | possible[1] | possible[2] | possible[3]
                             | possible[4] | possible[5],
                             possible_by_type=dict(zip(chess.PIECE_TYPES, possible)), count_low=low,
                             count_high=high, held=self.size, heat_exact=self.heat_exact)


def systematic_resample(items: Sequence[tuple[K, float]], count: int,
                        rng: random.Random) -> list[tuple[K, float]]:
    """At most ``count`` of the weighted ``items``, drawn with probability proportional to weight; the total
    weight is kept.

    Systematic resampling: ``count`` evenly spaced points with one random offset
    over the cumulative weights. An item hit ``k`` times keeps weight ``k * step``.
    Neighbours (often children of one parent) are spread over the sample, which
    keeps it diverse. With no weight at all, the first ``count`` items are kept.

    >>> systematic_resample([("a", 1.0), ("b", 3.0)], 2, random.Random(0))
    [('b', 4.0)]
    """
    total = math.fsum(w for _, w in items)
    if total <= 0:
        return list(items[:count])
    step = total / count
    point = rng.random() * step
    chosen: list[tuple[K, float]] = []
    cumulative = 0.0
    for item, w in items:
        cumulative += w
        hits = 0
        while point < cumulative:
            hits += 1
            point += step
        if hits:
            chosen.append((item, hits * step))
    return chosen
