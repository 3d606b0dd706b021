"""A seat's belief board: the enemy pieces it supposes are hidden, checked against what it was told.

A :class:`BeliefBoard` holds one seat's *hypotheses*: a piece type on each square
where the player thinks an enemy piece stands. It is a notebook, not knowledge: the
referee never reads it and the seat's view never depends on it. Every change (place,
move, remove, clear, the opponent's starting position, fixing flagged pieces) is one
step of an undo/redo history, which the JSON form keeps with the pieces.

Each hypothesis carries the half-move (``ply``) at which it was placed or last moved.
:meth:`BeliefBoard.contradictions` compares the hypotheses with the seat's view and
flags those that clash with something the seat learned *at or after* that ply (see
:func:`knowledge` for the exact rule). :func:`palette_counts` says how many pieces of
each type the opponent can still have, and :func:`review` scores the hypotheses kept
in a game record against the truth once the game is over.

Squares are python-chess square numbers (a1 = 0, h8 = 63); piece types are
python-chess piece types (``chess.PAWN`` = 1 ... ``chess.KING`` = 6).

>>> import chess
>>> belief = BeliefBoard(enemy=chess.BLACK)
>>> belief.place(chess.E7, chess.PAWN)
True
>>> belief.move(chess.E7, chess.E5)
True
>>> belief.to_json()["pieces"], belief.to_json()["since"]
({'e5': 'p'}, {'e5': 0})
>>> belief.undo(), belief.to_json()["pieces"]
(True, {'e7': 'p'})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterator, Mapping, NamedTuple

import chess

from . import variants
from .core import Adjudication, Seat, View
from .record import HYPOTHESES, RecordError, parse_action

Square = int
PieceType = int

STANDARD_ARMY: Mapping[PieceType, int] = {
    chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1, chess.KING: 1,
}
"""The 16 pieces each side starts with in a normal game."""

PALETTE_ORDER: tuple[PieceType, ...] = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT,
                                        chess.PAWN)
"""The order in which a palette shows the piece types."""

HISTORY_LIMIT = 500
"""Undo steps kept; older ones are forgotten."""

_TYPE_LETTERS = {piece_type: chess.piece_symbol(piece_type) for piece_type in chess.PIECE_TYPES}
_LETTER_TYPES = {letter: piece_type for piece_type, letter in _TYPE_LETTERS.items()}


def turn_number(ply: int) -> int:
    """The turn a half-move belongs to, counted from 1 for each side (as the board's ``t12`` labels).

    >>> turn_number(0), turn_number(1), turn_number(2)
    (1, 1, 2)
    """
    return ply // 2 + 1


def _check_square(square: object) -> Square:
    if type(square) is not int or not 0 <= square < 64:
        raise ValueError(f"not a square: {square!r}")
    return square


def _check_type(piece_type: object) -> PieceType:
    if type(piece_type) is not int or piece_type not in _TYPE_LETTERS:
        raise ValueError(f"not a piece type: {piece_type!r} (expected 1 for a pawn up to 6 for a king)")
    return piece_type


def parse_pieces(data: object) -> dict[Square, PieceType]:
    """Hypotheses from their JSON form ``{"pieces": {"e7": "p", ...}, "since": {...}}`` (or the bare
    ``{"e7": "p", ...}``); raises ``ValueError`` saying what is wrong.

    >>> parse_pieces({"e7": "p", "g8": "n"}) == {chess.E7: chess.PAWN, chess.G8: chess.KNIGHT}
    True
    >>> parse_pieces({"pieces": {"e7": "p"}, "since": {"e7": 3}}) == {chess.E7: chess.PAWN}
    True
    >>> parse_pieces({"e9": "p"})
    Traceback (most recent call last):
    ...
    ValueError: belief board: 'e9' is not a square (expected a1 to h8)
    """
    if isinstance(data, dict) and "pieces" in data:
        data = data["pieces"]
    if not isinstance(data, dict):
        raise ValueError(f"belief board: expected an object of squares and piece letters, not {type(data).__name__}")
    pieces: dict[Square, PieceType] = {}
    for name, letter in data.items():
        if not isinstance(name, str) or name not in chess.SQUARE_NAMES:
            raise ValueError(f"belief board: {name!r} is not a square (expected a1 to h8)")
        if not isinstance(letter, str) or letter not in _LETTER_TYPES:
            raise ValueError(f"belief board: the piece on {name} is {letter!r}, not one of "
                             f"{', '.join(repr(key) for key in _LETTER_TYPES)}")
        pieces[chess.SQUARE_NAMES.index(name)] = _LETTER_TYPES[letter]
    return pieces


def parse_stamps(data: object) -> dict[Square, int]:
    """The half-move at which each supposed piece was placed or last moved, from the ``"since"`` part of the
    JSON form (empty for the bare form); raises ``ValueError`` for anything malformed."""
    if not isinstance(data, dict) or "since" not in data:
        return {}
    since = data["since"]
    if not isinstance(since, dict):
        raise ValueError("belief board: 'since' must be an object of squares and half-moves")
    stamps: dict[Square, int] = {}
    for name, ply in since.items():
        if not isinstance(name, str) or name not in chess.SQUARE_NAMES:
            raise ValueError(f"belief board: {name!r} is not a square (expected a1 to h8)")
        if type(ply) is not int or not 0 <= ply < 100_000:
            raise ValueError(f"belief board: the half-move of {name} is {ply!r}, not a whole number")
        stamps[chess.SQUARE_NAMES.index(name)] = ply
    return stamps


def pieces_json(pieces: Mapping[Square, PieceType]) -> dict[str, str]:
    """The compact JSON form of hypotheses, squares in board order.

    >>> pieces_json({chess.G8: chess.KNIGHT, chess.E7: chess.PAWN})
    {'e7': 'p', 'g8': 'n'}
    """
    return {chess.SQUARE_NAMES[square]: _TYPE_LETTERS[piece_type] for square, piece_type in sorted(pieces.items())}


@dataclass(frozen=True, slots=True)
class SupposedPiece:
    """One supposed enemy piece: its type and the ply at which it was placed or last moved."""

    piece_type: PieceType
    since: int


def history_text(pieces: Mapping[Square, "SupposedPiece"]) -> str:
    """One step of the undo history as compact text: each piece as square, letter and half-move, oldest first.

    >>> history_text({chess.E7: SupposedPiece(chess.PAWN, 0), chess.G8: SupposedPiece(chess.KNIGHT, 12)})
    'e7p0 g8n12'
    """
    return " ".join(f"{chess.SQUARE_NAMES[square]}{_TYPE_LETTERS[piece.piece_type]}{piece.since}"
                    for square, piece in pieces.items())


def parse_history_text(text: str) -> dict[Square, "SupposedPiece"]:
    """The pieces of :func:`history_text`, in their order; raises ``ValueError`` for anything else.

    >>> parse_history_text("e7p0 g8n12") == {chess.E7: SupposedPiece(chess.PAWN, 0),
    ...                                      chess.G8: SupposedPiece(chess.KNIGHT, 12)}
    True
    """
    pieces: dict[Square, SupposedPiece] = {}
    for token in text.split():
        name, letter, ply = token[:2], token[2:3], token[3:]
        if (name not in chess.SQUARE_NAMES or letter not in _LETTER_TYPES or not ply.isascii()
                or not ply.isdigit() or len(ply) > 5):
            raise ValueError(f"belief board: {token[:20]!r} is not a square, a piece letter and a half-move")
        pieces[chess.SQUARE_NAMES.index(name)] = SupposedPiece(_LETTER_TYPES[letter], int(ply))
    return pieces


def _text_list(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("belief board: a history must be a list of texts")
    return value


# ---- what a seat knows about each square ------------------------------------------------------------

class BeliefKit(NamedTuple):
    """What a game with the belief board kit gives it (its definition's ``belief``, e.g.
    ``app.games.rbc.belief_kit:KIT``): ``facts(view)``, what the seat knows square by square, and
    ``captured_types(view)``, the type of each piece the seat captured in order (``None`` when it was not told)."""

    facts: Callable[[Any], "dict[Square, Fact]"]
    captured_types: Callable[[Any], "list[PieceType | None]"]


class Fact(NamedTuple):
    """The latest thing a seat learned about one square (see :func:`knowledge`).

    ``kind`` is ``"empty"`` (no enemy piece stood there), ``"piece"`` (an enemy
    ``piece_type`` stood there), ``"captured"`` (this seat captured the enemy piece
    there; ``piece_type`` is ``None`` when it does not know what it took) or
    ``"occupied"`` (an enemy piece of unknown type stands there: it just captured one
    of this seat's pieces). ``what`` says it in words, with the turn.
    """

    ply: int
    kind: str
    piece_type: PieceType | None
    what: str


def kept_facts(view: Any, key: tuple[int, ...], work_out: Callable[[Any], dict[Square, Fact]]) -> dict[Square, Fact]:
    """A belief kit's facts of ``view``, worked out by ``work_out`` once per state of the view and kept on it.
    ``key`` names the state (the lengths of the view's lists, which only grow); the caller gets its own copy.
    The board, the belief panel and its checks all ask for the facts after every observation."""
    kept = view.__dict__.get("_facts_kept")
    if kept is None or kept[0] != key:
        kept = (key, work_out(view))
        view.__dict__["_facts_kept"] = kept
    return dict(kept[1])


def _passed_and_landed(move: chess.Move, capture: Square | None, ply: int, facts: dict[Square, Fact]) -> None:
    """A move that was played crossed empty squares and landed on an empty one (or captured there)."""
    turn = turn_number(ply)
    for square in chess.scan_forward(chess.between(move.from_square, move.to_square)):
        facts[square] = Fact(ply, "empty", None, f"your move {move.uci()} passed over it on turn {turn}")
    if capture != move.to_square:
        facts[move.to_square] = Fact(ply, "empty", None, f"your move {move.uci()} landed here on turn {turn}")


def _is_pawn_move(move: chess.Move, written: str | None, before: chess.Board | None = None) -> bool:
    """Whether the seat's ``move`` is a pawn's: from its own pieces before the move (``before``) when the kit has
    them, else from the move as the seat wrote it (:func:`~app.engine.notation.own_san`), which starts with the
    file a pawn leaves or the square it reaches (other pieces start with their letter, castling with ``O``).

    >>> move = chess.Move.from_uci("e2e4")
    >>> _is_pawn_move(move, "e4"), _is_pawn_move(move, "Qe4"), _is_pawn_move(move, None, chess.Board())
    (True, False, True)
    """
    if before is not None:
        return before.piece_type_at(move.from_square) == chess.PAWN
    return bool(written) and written[0] in chess.FILE_NAMES  # type: ignore[index]


def _castled_across(move: chess.Move, written: str | None, ply: int, facts: dict[Square, Fact]) -> None:
    """A castling that was played (as the seat wrote it, ``O-O`` or ``O-O-O``) crossed only empty squares: all
    those between the king and the rook."""
    if not written or not written.startswith("O-O"):
        return
    turn = turn_number(ply)
    rook = chess.square(7 if move.to_square > move.from_square else 0, chess.square_rank(move.from_square))
    for square in chess.scan_forward(chess.between(move.from_square, rook)):
        facts[square] = Fact(ply, "empty", None, f"you castled across it on turn {turn}")


def knowledge(view: View) -> dict[Square, Fact]:
    """The latest fact a seat learned about each square, from its view only.

    RBC: each sense result (the square was empty or held a given enemy piece), the
    squares the seat's own moves crossed or landed on (they were empty), its captures
    (the type is known only when a sense of the same turn showed the piece), and the
    squares where the opponent captured its pieces (an enemy piece stands there).
    Blind Chess: reveals, its moves and captures (with the type, rule B3), the squares
    of its lost pieces, and the squares where a move *would* have revealed an enemy
    piece but revealed none (rule B4: around a king, along a slider's lines up to the
    first piece, a pawn's forward diagonals and the square in front of its
    destination); those were empty. Facts are applied in the order they were learned;
    a later one replaces an earlier one on the same square.

    >>> from app.games.rbc.rules import ReconChess, ReconChessView, Sense
    >>> game = ReconChess()
    >>> game.play(0, Sense(chess.E7))
    >>> facts = knowledge(ReconChessView.from_observations(game.observations(0)))
    >>> facts[chess.E7].kind, facts[chess.E7].piece_type == chess.PAWN, facts[chess.E6].what
    ('piece', True, 'sensed empty on turn 1')
    """
    return _kit(view).facts(view)


# ---- how many pieces the opponent can still have -----------------------------------------------------

@dataclass(frozen=True)
class ArmyCounts:
    """How many enemy pieces of each type can still be on the board (see :func:`palette_counts`)."""

    counts: dict[PieceType, int]
    total: int
    captured: dict[PieceType, int]
    unknown_captures: int
    promotions_possible: bool

    def __getitem__(self, piece_type: PieceType) -> int:
        return self.counts[piece_type]


def palette_counts(view: View,
                   army: Mapping[PieceType, int] = STANDARD_ARMY) -> ArmyCounts:
    """How many pieces of each type the opponent can still have, from what this seat captured.

    The rule: start from ``army`` (the normal 16 pieces) and take away each capture
    whose piece type the seat knows (Blind Chess: always; RBC: when a sense of the
    same turn showed the piece). A type captured more often than the army had it was
    a promoted pawn, so each such excess capture also takes away a pawn. ``total``
    (never more than the army minus *every* capture, known type or not) is exact as
    an upper bound. The per-type counts assume the opponent did not promote: each
    promotion turns a pawn into another piece, so while ``promotions_possible`` (a
    pawn may still be around), a queen, rook, bishop or knight count can be exceeded
    (pawn counts and the total cannot). The king is always 1.

    >>> from app.games.blind.rules import BlindChess, BlindChessView
    >>> counts = palette_counts(BlindChessView.from_observations(BlindChess().observations(0)))
    >>> counts[chess.PAWN], counts[chess.QUEEN], counts.total
    (8, 1, 16)
    """
    captured: dict[PieceType, int] = {piece_type: 0 for piece_type in chess.PIECE_TYPES}
    unknown = 0
    for piece_type in _kit(view).captured_types(view):  # None: a capture whose piece the seat was not told
        if piece_type is None:
            unknown += 1
        else:
            captured[piece_type] += 1
    total = max(0, sum(army.values()) - sum(captured.values()) - unknown)
    promoted = sum(max(0, captured[t] - army.get(t, 0)) for t in (chess.KNIGHT, chess.BISHOP, chess.ROOK,
                                                                     chess.QUEEN))
    counts: dict[PieceType, int] = {}
    for piece_type in chess.PIECE_TYPES:
        if piece_type == chess.KING:
            count = min(1, total)
        elif piece_type == chess.PAWN:
            count = army.get(chess.PAWN, 0) - captured[chess.PAWN] - promoted
        else:
            count = army.get(piece_type, 0) - captured[piece_type]
        counts[piece_type] = max(0, min(count, total - 1 if piece_type != chess.KING else total))
    return ArmyCounts(counts, total, captured, unknown, counts[chess.PAWN] > 0)


def positions_text(count: int, exact: bool = True) -> str:
    """The number of possible positions in words; an estimate is rounded to three figures.

    >>> positions_text(12437, exact=False)
    'about 12,400 positions possible'
    >>> positions_text(1), positions_text(0)
    ('1 position possible', 'no position fits what you know')
    """
    if count <= 0:
        return "no position fits what you know"
    if exact:
        return f"{count:,} position{'s' if count != 1 else ''} possible"
    rounded = int(float(f"{count:.3g}"))
    return f"about {rounded:,} position{'s' if rounded != 1 else ''} possible"


# ---- the belief board ------------------------------------------------------------------------------------

@dataclass
class BeliefBoard:
    """One seat's hypothesised enemy pieces on an 8x8 board, with undo and redo.

    ``enemy`` is the colour of the hypothesised pieces. ``ply`` is the seat's current
    half-move (``view.ply``): every placed or moved piece is stamped with it, and
    :meth:`contradictions` uses the stamps. The pieces are kept in the order they were
    last placed or moved (newest last).

    Every method that changes the pieces returns ``True`` when something changed (and
    only then adds an undo step); bad squares or piece types raise ``ValueError``.
    """

    enemy: chess.Color = chess.BLACK
    ply: int = 0
    _pieces: dict[Square, SupposedPiece] = field(default_factory=dict, repr=False)
    _undo: list[dict[Square, SupposedPiece]] = field(default_factory=list, repr=False)
    _redo: list[dict[Square, SupposedPiece]] = field(default_factory=list, repr=False)

    # -- reading ----------------------------------------------------------------------------
    def pieces(self) -> dict[Square, PieceType]:
        """The hypothesised piece type on each square (a copy, oldest first)."""
        return {square: hypothesis.piece_type for square, hypothesis in self._pieces.items()}

    def hypotheses(self) -> dict[Square, SupposedPiece]:
        """Each square's hypothesis with its stamp (a copy, oldest first)."""
        return dict(self._pieces)

    def piece_at(self, square: Square) -> PieceType | None:
        hypothesis = self._pieces.get(square)
        return None if hypothesis is None else hypothesis.piece_type

    def letters(self) -> dict[Square, str]:
        """FEN letters (in the enemy's colour) by square, for drawing.

        >>> belief = BeliefBoard(chess.WHITE)
        >>> _ = belief.place(chess.D1, chess.QUEEN)
        >>> belief.letters()
        {3: 'Q'}
        """
        return {square: chess.Piece(hypothesis.piece_type, self.enemy).symbol()
                for square, hypothesis in self._pieces.items()}

    def count(self, piece_type: PieceType) -> int:
        """How many pieces of ``piece_type`` are hypothesised."""
        return sum(1 for hypothesis in self._pieces.values() if hypothesis.piece_type == piece_type)

    def __len__(self) -> int:
        return len(self._pieces)

    def __iter__(self) -> Iterator[Square]:
        return iter(self._pieces)

    def __contains__(self, square: object) -> bool:
        return square in self._pieces

    # -- history ----------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> bool:
        """Go back one change; ``False`` when there is none."""
        if not self._undo:
            return False
        self._redo.append(self._pieces)
        self._pieces = self._undo.pop()
        return True

    def redo(self) -> bool:
        """Re-apply the change last undone; ``False`` when there is none."""
        if not self._redo:
            return False
        self._undo.append(self._pieces)
        self._pieces = self._redo.pop()
        return True

    def _commit(self, pieces: dict[Square, SupposedPiece]) -> bool:
        if pieces == self._pieces and list(pieces) == list(self._pieces):
            return False
        self._undo.append(self._pieces)
        del self._undo[:-HISTORY_LIMIT]
        self._redo.clear()
        self._pieces = pieces
        return True

    # -- changing ---------------------------------------------------------------------------
    def place(self, square: Square, piece_type: PieceType) -> bool:
        """Suppose an enemy ``piece_type`` on ``square`` (replacing what was supposed there)."""
        _check_square(square)
        _check_type(piece_type)
        current = self._pieces.get(square)
        if current is not None and current.piece_type == piece_type:
            return False
        pieces = dict(self._pieces)
        pieces.pop(square, None)
        pieces[square] = SupposedPiece(piece_type, self.ply)
        return self._commit(pieces)

    def move(self, origin: Square, target: Square) -> bool:
        """Move the supposed piece on ``origin`` to ``target`` (replacing what was supposed there).

        Raises ``ValueError`` when nothing is supposed on ``origin``.
        """
        _check_square(origin)
        _check_square(target)
        if origin not in self._pieces:
            raise ValueError(f"no supposed piece on {chess.SQUARE_NAMES[origin]} to move")
        if origin == target:
            return False
        pieces = dict(self._pieces)
        moved = pieces.pop(origin)
        pieces.pop(target, None)
        pieces[target] = SupposedPiece(moved.piece_type, self.ply)
        return self._commit(pieces)

    def remove(self, square: Square) -> bool:
        """Forget the supposed piece on ``square``; ``False`` when there is none."""
        _check_square(square)
        if square not in self._pieces:
            return False
        pieces = dict(self._pieces)
        del pieces[square]
        return self._commit(pieces)

    def clear(self) -> bool:
        """Forget every supposed piece."""
        return self._commit({})

    def set_pieces(self, pieces: Mapping[Square, PieceType]) -> bool:
        """Replace every supposed piece at once (one undo step), stamped with the current ply."""
        new = {_check_square(square): SupposedPiece(_check_type(piece_type), self.ply)
               for square, piece_type in pieces.items()}
        kept = {square: self._pieces[square] for square in new
                if square in self._pieces and self._pieces[square].piece_type == new[square].piece_type}
        new.update(kept)  # unchanged pieces keep their stamps
        return self._commit(new)

    def place_starting_position(self, variant: str, seat_color: chess.Color, fen: str | None = None,
                                skip: Collection[Square] = ()) -> bool:
        """Suppose the opponent's pieces stand where they started (one undo step; replaces every hypothesis).

        ``fen`` is the starting position when the game did not start from the normal
        one; squares in ``skip`` (say, where the seat's own pieces now stand) are left
        empty.

        >>> belief = BeliefBoard(chess.BLACK)
        >>> belief.place_starting_position("rbc", chess.WHITE)
        True
        >>> len(belief), belief.piece_at(chess.E8) == chess.KING
        (16, True)
        """
        kit = [definition.key for definition in _belief_games()]
        if variant not in kit:
            raise ValueError(f"a belief board is for hidden-information chess ({', '.join(kit)}), not {variant!r}")
        if seat_color == self.enemy:
            raise ValueError("the seat's colour is the colour of the supposed pieces: it should be the other one")
        try:
            board = chess.Board(fen or chess.STARTING_FEN)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None
        pieces = {square: piece.piece_type for square, piece in board.piece_map(mask=board.occupied_co[self.enemy])
                  .items() if square not in skip}
        return self._commit({square: SupposedPiece(piece_type, self.ply) for square, piece_type in pieces.items()})

    # -- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """``{"pieces": {"e7": "p", ...}, "since": {"e7": 3, ...}}``: the pieces and the half-move each was
        placed or last moved (so a reloaded board flags what it flagged before), and, when there is one, the undo
        history: ``"history": {"undo": [...], "redo": [...]}``, each step a board in a compact text (see
        :func:`history_text`), so that a game continued after a crash can still undo and redo.

        >>> belief = BeliefBoard(chess.BLACK, ply=2)
        >>> _ = belief.place(chess.D8, chess.QUEEN)
        >>> belief.to_json()
        {'pieces': {'d8': 'q'}, 'since': {'d8': 2}, 'history': {'undo': [''], 'redo': []}}
        """
        data: dict[str, Any] = {"pieces": pieces_json(self.pieces()),
                                "since": {chess.SQUARE_NAMES[square]: supposed.since
                                          for square, supposed in sorted(self._pieces.items())}}
        if self._undo or self._redo:
            data["history"] = {"undo": [history_text(step) for step in self._undo],
                               "redo": [history_text(step) for step in self._redo]}
        return data

    @classmethod
    def from_json(cls, data: object, enemy: chess.Color, ply: int = 0) -> "BeliefBoard":
        """A board holding the pieces of :meth:`to_json` data (stamped ``ply`` where the data gives no
        half-move) and its undo history if the data has one; raises ``ValueError`` for bad pieces. A damaged
        history (or none: data from before it was kept) leaves the board without one.

        >>> BeliefBoard.from_json({"d8": "x"}, chess.BLACK)
        Traceback (most recent call last):
        ...
        ValueError: belief board: the piece on d8 is 'x', not one of 'p', 'n', 'b', 'r', 'q', 'k'
        >>> board = BeliefBoard.from_json({"pieces": {"d8": "q"}, "history": {"undo": [""], "redo": []}},
        ...                               chess.BLACK)
        >>> board.undo(), len(board), board.redo(), len(board)
        (True, 0, True, 1)
        """
        board = cls(enemy=enemy, ply=ply)
        stamps = parse_stamps(data)
        board._pieces = {square: SupposedPiece(piece_type, stamps.get(square, ply))
                         for square, piece_type in parse_pieces(data).items()}
        history = data.get("history") if isinstance(data, dict) else None
        if isinstance(history, dict):
            try:
                undo = [parse_history_text(step) for step in _text_list(history.get("undo", []))]
                redo = [parse_history_text(step) for step in _text_list(history.get("redo", []))]
            except ValueError:
                pass  # the pieces are what matters: a history that cannot be read is left out
            else:
                board._undo, board._redo = undo[-HISTORY_LIMIT:], redo[-HISTORY_LIMIT:]
        return board

    # -- checking against what the seat knows -------------------------------------------------
    def contradictions(self, view: Any,
                       army: Mapping[PieceType, int] = STANDARD_ARMY,
                       possible: Mapping[PieceType, int] | None = None) -> dict[Square, str]:
        """The supposed pieces that clash with what the seat knows, each with the reason.

        The rule: a supposed piece is flagged when

        - one of the seat's own pieces stands on its square now; or
        - the latest fact about its square (:func:`knowledge`) was learned at or after the
          ply the piece was placed or last moved, and says the square was empty, held a
          piece of another type, or that the seat captured the piece there. A fact older
          than the hypothesis does not count: the opponent may have moved since, and
          placing the piece later is the player saying so. A fact of the current turn
          always counts, since the opponent has not moved after it; or
        - it is a pawn on the first or last rank; or
        - there are more supposed kings, pawns or pieces in all than the opponent can
          have (:func:`palette_counts`): the newest of those are flagged; or
        - ``possible`` is given (a bitboard per piece type: where the seat's inference says
          a piece of that type may stand now, e.g. ``InferenceSummary.possible_by_type``) and
          the piece's square is not in it: no position consistent with everything the
          seat was told puts such a piece there. Pass it only from a summary of the
          seat's current observations (a stale one may miss the opponent's last move).

        >>> from app.games.rbc.rules import ReconChess, ReconChessView, Sense
        >>> game = ReconChess()
        >>> view = ReconChessView.from_observations(game.observations(0))
        >>> belief = BeliefBoard(chess.BLACK, ply=view.ply)
        >>> _ = belief.place(chess.E5, chess.KNIGHT)
        >>> game.play(0, Sense(chess.E6))
        >>> belief.contradictions(ReconChessView.from_observations(game.observations(0)))
        {36: 'sensed empty on turn 1'}
        >>> _ = belief.place(chess.E4, chess.BISHOP)       # no black bishop can reach e4 on move one
        >>> from app.games.rbc.inference import RbcInference
        >>> summary = RbcInference.from_observations(0, game.observations(0)).summary()
        >>> belief.contradictions(ReconChessView.from_observations(game.observations(0)),
        ...                       possible=summary.possible_by_type)[chess.E4]
        'no position that fits what you know has a bishop here'
        """
        facts = knowledge(view)  # first: it refuses views of games without hidden pieces
        own = view.own_board
        flags: dict[Square, str] = {}
        for square, hypothesis in self._pieces.items():
            piece = own.piece_at(square)
            if piece is not None and piece.color != self.enemy:
                flags[square] = f"your {chess.piece_name(piece.piece_type)} stands here"
                continue
            if hypothesis.piece_type == chess.PAWN and chess.BB_SQUARES[square] & chess.BB_BACKRANKS:
                flags[square] = "a pawn cannot stand on the first or last rank"
                continue
            fact = facts.get(square)
            if fact is not None and fact.ply >= hypothesis.since:
                if fact.kind == "empty" or fact.kind == "captured":
                    flags[square] = fact.what
                    continue
                if fact.kind == "piece" and fact.piece_type != hypothesis.piece_type:
                    flags[square] = fact.what
                    continue
            allowed = chess.BB_ALL if possible is None else possible.get(hypothesis.piece_type, chess.BB_ALL)
            if not allowed & chess.BB_SQUARES[square]:
                flags[square] = (f"no position that fits what you know has a "
                                 f"{chess.piece_name(hypothesis.piece_type)} here")
        self._flag_surplus(flags, palette_counts(view, army))
        return flags

    def _flag_surplus(self, flags: dict[Square, str], counts: ArmyCounts) -> None:
        """Flag the newest pieces beyond what the opponent can have (kings, pawns, all pieces)."""
        limits = ((chess.KING, counts[chess.KING], "the opponent has only one king"),
                  (chess.PAWN, counts[chess.PAWN], f"the opponent has at most {counts[chess.PAWN]} pawns left"))
        for piece_type, limit, reason in limits:
            squares = [square for square, h in self._pieces.items() if h.piece_type == piece_type
                       and square not in flags]
            for square in squares[limit:] if limit < len(squares) else []:
                flags[square] = reason
        standing = [square for square in self._pieces if square not in flags]
        for square in standing[counts.total:] if counts.total < len(standing) else []:
            flags[square] = f"the opponent has at most {counts.total} pieces left"

    def fix_flagged(self, view: Any,
                    army: Mapping[PieceType, int] = STANDARD_ARMY,
                    possible: Mapping[PieceType, int] | None = None) -> dict[Square, Square | None]:
        """Remove or move every flagged piece in one undo step; returns ``{old square: new square or None}``.

        The flags are those of :meth:`contradictions` with the same ``possible``: pass what was passed there (the
        panel passes its inference summary's ``possible_by_type``), so that every piece shown flagged is fixed,
        those no possible position allows included.

        A flagged piece is *moved* when the answer is obvious: the seat learned (at or
        after the piece's stamp) of exactly one enemy piece of that type on a square
        with no supposed piece, and exactly one flagged piece has that type. Every other
        flagged piece is removed.
        """
        flags = self.contradictions(view, army, possible)
        if not flags:
            return {}
        facts = knowledge(view)
        own = view.own_board.occupied
        changes: dict[Square, Square | None] = {square: None for square in flags}
        flagged_types: dict[PieceType, list[Square]] = {}
        for square in flags:
            flagged_types.setdefault(self._pieces[square].piece_type, []).append(square)
        for piece_type, squares in flagged_types.items():
            if len(squares) != 1:
                continue
            since = self._pieces[squares[0]].since
            seen = [square for square, fact in facts.items()
                    if fact.kind == "piece" and fact.piece_type == piece_type and fact.ply >= since
                    and not own & chess.BB_SQUARES[square]
                    and (square not in self._pieces or square in flags)]
            if len(seen) == 1 and seen[0] not in changes.values():
                changes[squares[0]] = seen[0]
        pieces = {square: h for square, h in self._pieces.items() if square not in flags}
        for origin, target in changes.items():
            if target is not None:
                pieces[target] = SupposedPiece(self._pieces[origin].piece_type, self.ply)
        # A moved piece may still be one too many (a second king, a ninth pawn): then it goes too.
        trial = BeliefBoard(self.enemy, self.ply, _pieces=pieces)
        for square in trial.contradictions(view, army, possible):
            del pieces[square]
            for origin, target in changes.items():
                if target == square:
                    changes[origin] = None
        self._commit(pieces)
        return changes

    # -- scoring ------------------------------------------------------------------------------
    def score(self, truth: chess.Board) -> tuple[int, int]:
        """``(right, placed)``: supposed pieces on the right square with the right type, and all of them."""
        return _score(self.pieces(), self.enemy, truth)

    def accuracy(self, truth: chess.Board) -> float | None:
        """The share of supposed pieces that are right on ``truth`` (``None`` when none is supposed).

        >>> belief = BeliefBoard(chess.BLACK)
        >>> _ = belief.place_starting_position("rbc", chess.WHITE)
        >>> _ = belief.move(chess.E7, chess.E6)
        >>> belief.accuracy(chess.Board())
        0.9375
        """
        right, placed = self.score(truth)
        return right / placed if placed else None


def _belief_games() -> list[Any]:
    """The definitions of the games whose definition gives a person the belief board kit
    (``GameDefinition.belief``: the games of hidden chess pieces), in the registry's order."""
    return [definition for definition in variants.catalog().all() if definition.belief]


def _kit(view: View) -> BeliefKit:
    """The belief board kit of ``view``'s game (its definition's ``belief``: what the seat knows square by square,
    ``facts(view)``, and the types of the pieces it captured, ``captured_types(view)``)."""
    kept = _belief_games()
    for definition in kept:
        if isinstance(view, definition.view()):
            kit: BeliefKit = definition.belief()
            return kit
    titles = [definition.title for definition in kept]
    named = " or ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
    raise TypeError(f"a belief board needs a view of {named}, not {type(view).__name__}")


def _score(pieces: Mapping[Square, PieceType], enemy: chess.Color, truth: chess.Board) -> tuple[int, int]:
    right = 0
    for square, piece_type in pieces.items():
        piece = truth.piece_at(square)
        if piece is not None and piece.color == enemy and piece.piece_type == piece_type:
            right += 1
    return right, len(pieces)


# ---- belief against truth, after the game ------------------------------------------------------------

@dataclass(frozen=True)
class TurnReview:
    """Belief against truth at one half-move.

    ``pieces`` are the seat's supposed pieces as they stood when that half-move
    ended (record step ``step``); ``right`` of the ``placed`` pieces stood on their
    square with their type in the true position.
    """

    ply: int
    step: int
    pieces: dict[Square, PieceType]
    right: int
    placed: int

    @property
    def accuracy(self) -> float | None:
        """The share of right pieces (``None`` when none was supposed)."""
        return self.right / self.placed if self.placed else None


def review(record: Any, seat: Seat) -> list[TurnReview]:
    """Score ``seat``'s recorded hypotheses against the true position, half-move by half-move.

    ``record`` is a :class:`~app.engine.record.GameRecord` of RBC or Blind Chess whose
    notes hold the seat's hypotheses as :meth:`BeliefBoard.to_json` objects (the window
    stores them with ``GameSession.set_notes(seat, hypotheses=belief.to_json())``).
    For each half-move, the hypotheses are those the seat had when it ended (its last
    step), the truth the position during it; half-moves before the first hypotheses
    are left out. Raises ``ValueError`` (a ``RecordError`` for a record that does not
    replay) naming the problem.
    """
    kit = _belief_games()
    if record.variant not in [definition.key for definition in kit]:
        titles = [definition.title for definition in kit]
        named = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
        raise ValueError(f"belief review is for {named}, not {record.variant!r}")
    snapshots: dict[int, dict[Square, PieceType]] = {}
    for index, note in enumerate(getattr(record, "notes", [])):
        if note.seat == seat and HYPOTHESES in note.changes:
            value = note.changes[HYPOTHESES]
            try:
                snapshots[note.step] = {} if value is None else parse_pieces(value)
            except ValueError as error:
                raise ValueError(f"note {index + 1}: {error}") from None
    game_type = variants.game_type(record.variant)
    try:
        game = game_type.from_options(record.options)
    except (ValueError, TypeError) as error:
        raise RecordError(f"bad options for {record.variant}: {error}") from None
    # (ply, last step of that ply, the true board during it)
    plies: list[tuple[int, int, chess.Board]] = []

    def note_step(step: int) -> None:
        board: chess.Board = getattr(game, "board")
        ply = len(board.move_stack)
        if plies and plies[-1][0] == ply:
            plies[-1] = (ply, step, plies[-1][2])  # sensing or a draw offer does not change the board
        else:
            plies.append((ply, step, board.copy(stack=False)))

    note_step(0)
    for index, entry in enumerate(record.entries):
        if game.is_over:
            break
        try:
            action = parse_action(game_type, entry.action)
            if isinstance(action, Adjudication):
                break  # the game ends here and the position does not change
            game.play(entry.seat, action)
        except ValueError as error:  # IllegalAction is a ValueError
            raise RecordError(f"action {index + 1} does not replay: {error}") from None
        note_step(index + 1)
    enemy = chess.BLACK if seat == 0 else chess.WHITE  # seat 0 plays White
    result: list[TurnReview] = []
    for ply, step, truth in plies:
        earlier = [s for s in snapshots if s <= step]
        if not earlier:
            continue
        pieces = snapshots[max(earlier)]
        result.append(TurnReview(ply, step, dict(pieces), *_score(pieces, enemy, truth)))
    return result
