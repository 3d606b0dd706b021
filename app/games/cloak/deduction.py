"""Cloak and Dagger: what public information says about one side's secret arrangement.

Each side's back rank is one of the 960 Chess960 arrangements, and checker ``n``
starts on the ``n``-th file, so an arrangement is simply the identity of each of
the eight checkers. Everything that narrows it down is public, and every piece of
evidence speaks about one checker at a time:

- an identity told to both players (a capture, a castling, a right guess, an uncloaking)
  fixes that checker;
- a wrong guess rules one piece type out for that checker;
- a move made by a cloaked checker rules out every piece type that could not have
  made it: a knight jumps, a king steps, rooks, bishops and queens slide along an
  empty path on the board as it stood before the move (a capture has the same
  geometry as a move). Pawn moves say nothing about checkers.

So the evidence is eight sets of possible piece types, one per checker, and the
arrangements consistent with it are the Chess960 arrangements that give every
checker a type from its set. Assuming every consistent arrangement equally likely
gives each checker's probabilities. What a seat knows about its opponent is
exactly this; what the opponent can know about the seat's own pieces is the same
computation on the other side.

>>> evidence = Evidence()
>>> evidence.moved(2, chess.B1, chess.C3, chess.BB_RANK_1 | chess.BB_RANK_2)   # checker 2 jumped
>>> deduction = evidence.deduce()
>>> deduction.count, deduction.possible(2, "N"), deduction.probability(2, "N")
(240, True, 1.0)
>>> round(deduction.probability(7, "N"), 3)     # the other knight is somewhere else
0.15
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import chess

PIECES = "KQRBN"
"""The piece types a checker may be, in the order of the identity grid."""
CHECKERS = tuple(range(1, 9))
"""Checker numbers: checker ``n`` starts on the ``n``-th file (a = 1)."""


@functools.lru_cache(maxsize=1)
def arrangements() -> tuple[str, ...]:
    """The 960 Chess960 arrangements as 8 letters (files a..h = checkers 1..8), in Chess960 numbering.

    >>> len(arrangements()), arrangements()[518]
    (960, 'RNBQKBNR')
    """
    result = []
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        result.append("".join((board.piece_at(square) or chess.Piece(chess.PAWN, chess.WHITE)).symbol().upper()
                              for square in range(8)))
    return tuple(result)


@functools.lru_cache(maxsize=1)
def _index_sets() -> dict[tuple[int, str], int]:
    """For each (checker, piece): the arrangements giving that checker that piece, as a bit set over 0..959.

    Filtering then costs a few integer operations instead of a loop over 960 strings.
    """
    sets = {(checker, piece): 0 for checker in CHECKERS for piece in PIECES}
    for index, arrangement in enumerate(arrangements()):
        for checker, piece in zip(CHECKERS, arrangement):
            sets[checker, piece] |= 1 << index
    return sets


ALL_ARRANGEMENTS = (1 << 960) - 1


def movers(from_square: chess.Square, to_square: chess.Square, occupied: int) -> frozenset[str]:
    """The piece types (of ``"KQRBN"``) that can go from ``from_square`` to ``to_square`` on a board whose
    occupied squares are ``occupied`` (the board before the move; the mover's square may or may not be in it).

    Castling is not a move of this kind (it is told as such and reveals king and rook).

    >>> sorted(movers(chess.C1, chess.F4, 0))
    ['B', 'Q']
    >>> sorted(movers(chess.C1, chess.D2, 0))
    ['B', 'K', 'Q']
    >>> sorted(movers(chess.C1, chess.F4, chess.BB_D2))   # the diagonal is blocked
    []
    >>> sorted(movers(chess.G1, chess.F3, chess.BB_RANK_2))
    ['N']
    """
    target = chess.BB_SQUARES[to_square]
    occupied &= ~chess.BB_SQUARES[from_square]
    found = []
    if chess.BB_KING_ATTACKS[from_square] & target:
        found.append("K")
    rook = (chess.BB_RANK_ATTACKS[from_square][chess.BB_RANK_MASKS[from_square] & occupied]
            | chess.BB_FILE_ATTACKS[from_square][chess.BB_FILE_MASKS[from_square] & occupied]) & target
    bishop = chess.BB_DIAG_ATTACKS[from_square][chess.BB_DIAG_MASKS[from_square] & occupied] & target
    if rook or bishop:
        found.append("Q")
    if rook:
        found.append("R")
    if bishop:
        found.append("B")
    if chess.BB_KNIGHT_ATTACKS[from_square] & target:
        found.append("N")
    return frozenset(found)


@dataclass(frozen=True)
class Deduction:
    """The arrangements of one side consistent with the evidence, and what they say per checker.

    ``allowed`` maps each checker to the piece types the evidence leaves it (before the
    Chess960 limits are applied: the limits can remove more, which ``possible`` shows).
    """

    allowed: Mapping[int, frozenset[str]]
    consistent: int = field(repr=False)
    """The consistent arrangements as a bit set over the Chess960 numbers 0..959."""
    _counts: dict[tuple[int, str], int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_allowed(cls, allowed: Mapping[int, Iterable[str]]) -> "Deduction":
        """The deduction from per-checker sets of possible piece types (a checker not named: any type).

        >>> Deduction.from_allowed({5: "K"}).count     # the king on the e-file
        204
        """
        sets = _index_sets()
        narrowed = {checker: frozenset(allowed.get(checker, PIECES)) & frozenset(PIECES) for checker in CHECKERS}
        consistent = ALL_ARRANGEMENTS
        for checker, pieces in narrowed.items():
            if len(pieces) == len(PIECES):
                continue
            mask = 0
            for piece in pieces:
                mask |= sets[checker, piece]
            consistent &= mask
        return cls(narrowed, consistent)

    @property
    def count(self) -> int:
        """How many arrangements are consistent with the evidence (0 means the evidence contradicts itself)."""
        return self.consistent.bit_count()

    @property
    def arrangements(self) -> tuple[str, ...]:
        """The consistent arrangements, each 8 letters for checkers 1..8."""
        table = arrangements()
        bits = self.consistent
        result = []
        while bits:
            low = bits & -bits
            result.append(table[low.bit_length() - 1])
            bits ^= low
        return tuple(result)

    def _count(self, checker: int, piece: str) -> int:
        key = (checker, piece)
        if key not in self._counts:
            self._counts[key] = (self.consistent & _index_sets()[key]).bit_count()
        return self._counts[key]

    def possible(self, checker: int, piece: str) -> bool:
        """Whether some consistent arrangement gives ``checker`` the piece type ``piece``."""
        return self._count(checker, piece) > 0

    def probability(self, checker: int, piece: str) -> float:
        """The share of consistent arrangements that give ``checker`` the type ``piece`` (0 when none is)."""
        total = self.count
        return self._count(checker, piece) / total if total else 0.0

    def known(self, checker: int) -> str | None:
        """The piece type of ``checker`` when every consistent arrangement agrees, else ``None``."""
        pieces = [piece for piece in PIECES if self.possible(checker, piece)]
        return pieces[0] if len(pieces) == 1 else None

    def distribution(self, checker: int) -> dict[str, float]:
        """Probability of each piece type for ``checker`` (sums to 1 unless nothing is consistent)."""
        return {piece: self.probability(checker, piece) for piece in PIECES}

    def identities(self, checkers: Sequence[int], king_among: Iterable[int] = ()) -> set[tuple[str, ...]]:
        """Every way the consistent arrangements fill ``checkers``: the distinct tuples of their piece types, in
        the order given. With ``king_among``, only arrangements whose king is one of those checkers count (a
        game still going on has its king on the board).

        >>> sorted(Deduction.from_allowed({2: "N", 5: "K"}).identities([2, 5]))
        [('N', 'K')]
        >>> sorted(Deduction.from_allowed({4: "QB"}).identities([4, 5], king_among=[4, 5]))
        [('B', 'K'), ('Q', 'K')]
        """
        sets = _index_sets()
        bits = self.consistent
        kings = tuple(king_among)
        if kings:
            mask = 0
            for checker in kings:
                mask |= sets.get((checker, "K"), 0)
            bits &= mask
        found: set[tuple[str, ...]] = set()

        def fill(index: int, bits: int, chosen: tuple[str, ...]) -> None:
            if index == len(checkers):
                found.add(chosen)
                return
            for piece in PIECES:  # depth first, dropping a branch as soon as no arrangement is left in it
                narrowed = bits & sets[checkers[index], piece]
                if narrowed:
                    fill(index + 1, narrowed, chosen + (piece,))

        if bits:
            fill(0, bits, ())
        return found

    def sample(self, rng: Any, k: int) -> list[str]:
        """``k`` consistent arrangements drawn uniformly with replacement (none when nothing is consistent)."""
        found = self.arrangements
        return [rng.choice(found) for _ in range(k)] if found else []

    @staticmethod
    def about(view: Any, side: int) -> "Deduction":
        """What the public part of a Cloak and Dagger view says about ``side``'s arrangement.

        A view object keeps the :class:`Tracker` of each side with it (outside its fields), so that asking again
        as the game goes on reads only the moves added since: the legal moves ask this at every step, and
        reading the whole game each time made a long game's steps slower and slower."""
        cache = _trackers_of(view)
        if cache is None:
            return Tracker(side).update(view)
        moves = _field(view, "moves", ()) or ()
        kept = cache.get(side)
        if kept is not None:
            tracker, moves_read, last = kept
            if moves is moves_read and len(moves) >= tracker.moves_seen and (
                    tracker.moves_seen == 0 or moves[tracker.moves_seen - 1] is last):
                deduction = tracker.update(view)
                cache[side] = (tracker, moves, moves[-1] if moves else None)
                return deduction
        tracker = Tracker(side)
        deduction = tracker.update(view)
        cache[side] = (tracker, moves, moves[-1] if moves else None)
        return deduction


_TRACKERS = "_public_trackers"


def _trackers_of(view: Any) -> dict[int, tuple["Tracker", Any, Any]] | None:
    """The trackers a view object keeps (made on first use), or None for a view that cannot keep them (a mapping,
    or an object without a ``__dict__``). Only the same list of moves, grown at its end, is read on from where
    a tracker stopped; anything else starts again (a copy of a view carries copies of its trackers with it)."""
    attributes = getattr(view, "__dict__", None)
    if not isinstance(attributes, dict) or isinstance(view, Mapping):
        return None
    cache = attributes.get(_TRACKERS)
    if cache is None:
        cache = attributes[_TRACKERS] = {}
    return cache


class Evidence:
    """Evidence about one side's checkers, gathered piece by piece (see the module docstring)."""

    def __init__(self) -> None:
        self.allowed: dict[int, frozenset[str]] = {checker: frozenset(PIECES) for checker in CHECKERS}

    def copy(self) -> "Evidence":
        other = Evidence()
        other.allowed = dict(self.allowed)
        return other

    def tell(self, checker: int, piece: str) -> None:
        """The identity of ``checker`` was told to both players."""
        self.allowed[checker] &= frozenset(piece.upper())

    def exclude(self, checker: int, piece: str) -> None:
        """``checker`` is known not to be ``piece`` (a wrong guess)."""
        self.allowed[checker] -= frozenset(piece.upper())

    def moved(self, checker: int, from_square: chess.Square, to_square: chess.Square, occupied: int) -> None:
        """``checker``, cloaked, moved (or captured) from ``from_square`` to ``to_square`` with the board's
        occupied squares ``occupied`` before the move."""
        self.allowed[checker] &= movers(from_square, to_square, occupied)

    def deduce(self) -> Deduction:
        return Deduction.from_allowed(self.allowed)


def _field(item: Any, name: str, default: Any = None) -> Any:
    """An attribute of an observation or view, or a key of a plain mapping (attributes first: a check for
    ``Mapping`` on every read would cost more than the rest of the deduction)."""
    value = getattr(item, name, _MISSING)
    if value is not _MISSING:
        return value
    return item.get(name, default) if isinstance(item, Mapping) else default


_MISSING = object()


def _checker_of(mover: Any) -> int | None:
    """The checker number of a ``Moved.mover``/``captured`` code (``"3"``), ``None`` for a pawn or a piece."""
    if isinstance(mover, int) and not isinstance(mover, bool):
        return mover if mover in CHECKERS else None
    if isinstance(mover, str) and mover.isdigit():
        number = int(mover)
        return number if number in CHECKERS else None
    return None


class Tracker:
    """Keeps the deduction about one side up to date with a growing view, reading each move only once.

    Identities told and guesses are re-read on each update (they are few); the move
    list is read from where the last update stopped.
    """

    def __init__(self, side: int) -> None:
        self.side = side
        self.moves_seen = 0
        self.from_moves = Evidence()

    def update(self, view: Any) -> Deduction:
        moves: Sequence[Any] = _field(view, "moves", ()) or ()
        if len(moves) < self.moves_seen:  # a different (shorter) view: start again
            self.moves_seen, self.from_moves = 0, Evidence()
        for entry in moves[self.moves_seen:]:
            self._read_move(entry)
        self.moves_seen = len(moves)
        evidence = self.from_moves.copy()
        told: Mapping[int, str] = (_field(view, "told", {}) or {}).get(self.side, {}) or {}
        for checker, piece in told.items():
            evidence.tell(int(checker), piece)
        for guess in _field(view, "guesses", ()) or ():
            if _field(guess, "seat") == self.side:
                continue  # a guess by this side is about the other side's checkers
            checker, piece = int(_field(guess, "checker")), str(_field(guess, "piece"))
            if _field(guess, "right"):
                evidence.tell(checker, piece)
            else:
                evidence.exclude(checker, piece)
        return evidence.deduce()

    def _read_move(self, entry: Any) -> None:
        moved, occupied = _split_move(entry)
        side = _field(moved, "seat")
        revealed: Mapping[int, str] = _field(moved, "revealed", {}) or {}
        if side == self.side:
            for number, piece in revealed.items():
                self.from_moves.tell(int(number), piece)
            mover = _checker_of(_field(moved, "mover"))
            if mover is not None and not _field(moved, "castling", False):
                self.from_moves.moved(mover, _field(moved, "from_square"), _field(moved, "to_square"), occupied)
        else:
            victim = _checker_of(_field(moved, "captured"))
            identity = _field(moved, "captured_identity")
            if victim is not None and identity:
                self.from_moves.tell(victim, identity)


def _split_move(entry: Any) -> tuple[Any, int]:
    """A view's move entry as (the Moved observation, the occupied squares before it)."""
    if isinstance(entry, tuple) and len(entry) == 2:
        first, second = entry
        if isinstance(second, int):
            return first, second
        if isinstance(first, int):
            return second, first
    occupied = _field(entry, "occupied", _field(entry, "occupancy", _field(entry, "before")))
    moved = _field(entry, "moved", _field(entry, "observation", entry))
    return moved, int(occupied or 0)
