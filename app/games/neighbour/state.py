"""Neighbour Chess Solitaire as pure data: a :class:`State` (everything, the decks' order too), the actions, what
is allowed in a state (:func:`legal_actions`), what an action leads to (:func:`apply`) and the score. No referee,
no observation, no Qt: the referee (:mod:`.rules`), the solver and the bots all stand on this module.

The rules (rulings NE1-NE4b):

- two face-down decks: the 16 non-pawn piece cards and 20 position cards (the 2 to 6 of each suit);
- **add**: turn the top piece card and the top position card; the piece starts on the square of the last piece
  added (a1 for the first) and goes right along its rank (a red position card) or up its file (a black one) by the
  card's value, coming back in on the other side past an edge; if that square is taken, the player picks any
  empty square at the nearest king distance from it (no coming back in past an edge this time);
- after any add the player may **stop** adding, for good (when the piece deck is empty, adding has stopped);
- **move**: spend the top card of either deck unseen, then move one piece to an empty square the way one of its
  same-colour neighbours (the eight squares around it) moves; sliders are blocked by any piece; no captures;
- the game is **won** as soon as the pieces, two or more, form one orthogonally connected group: the score is the
  cards left in both decks. It is **lost** when no card is left and they do not, or when no move is left.

A board is 64 characters, square ``a1`` first (python-chess numbering), ``.`` for an empty square and a FEN letter
for a piece (upper case White).

>>> state = State.start(("8S", "QH", "KS"), ("3H", "2S", "5D"))
>>> state = apply(state, NeighbourAdd())
>>> square_names(piece_squares(state.board)), state.stage
(['d1'], 'add')
>>> state = apply(state, NeighbourAdd())
>>> square_names(piece_squares(state.board)), state.stage, state.cards_left, legal_actions(state)
(['d1', 'd3'], 'add', 2, [NeighbourAdd(), NeighbourStop()])
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator, Sequence

import chess

from app.engine import codec
from app.engine.core import Action
from app.games.kit_cards import card_piece, piece_cards

__all__ = ["BOARD_EMPTY", "DECKS", "PIECE_CARDS", "POSITION_CARDS", "NeighbourAdd", "NeighbourMove",
           "NeighbourPlace", "NeighbourStop", "State", "StateError", "add_start", "add_target", "apply",
           "connected", "is_red", "legal_actions", "move_targets", "nearest_empty", "neighbour_types",
           "piece_squares", "position_value", "square_names"]

PIECE_CARDS: tuple[str, ...] = piece_cards((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING))
"""The 16 piece cards in their fixed order (White's first): the piece deck before it is shuffled."""
POSITION_CARDS: tuple[str, ...] = tuple(f"{value}{suit}" for suit in ("H", "D", "S", "C") for value in range(2, 7))
"""The 20 position cards in their fixed order (hearts, diamonds, spades, clubs; 2 to 6 each)."""
DECKS = ("pieces", "positions")
"""The decks' names, as a move's ``deck`` says which one it spends from."""
BOARD_EMPTY = "." * 64


class StateError(ValueError):
    """An action the rules do not allow in this state (the sentence says why); the state is left as it was."""


# ---- actions ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NeighbourAdd(Action):
    """Turn the top card of each deck and add the piece (the first action, and any while adding goes on)."""

    kind: ClassVar[str] = "add"


@dataclass(frozen=True)
class NeighbourPlace(Action):
    """Put the piece just turned on ``square`` (its target was taken: one of the nearest empty squares)."""

    square: str
    kind: ClassVar[str] = "place"


@dataclass(frozen=True)
class NeighbourStop(Action):
    """Stop adding pieces, for good; from now on every card pays for a move."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True)
class NeighbourMove(Action):
    """Spend a card and move a piece (``uci``: from and to, ``c3e4``) as one of its same-colour neighbours
    moves. ``deck`` names the deck the card comes from (``pieces`` or ``positions``); left out, the position
    deck pays while it has cards (which deck pays changes nothing once adding has stopped)."""

    uci: str
    deck: str = dataclasses.field(default="", metadata=codec.spec(omit_default=True))
    kind: ClassVar[str] = "move"


# ---- squares, cards, moves ---------------------------------------------------------------------------------

def square_names(squares: Iterable[int]) -> list[str]:
    return [chess.square_name(square) for square in squares]


def piece_squares(board: str) -> list[int]:
    """The squares holding a piece, a1 first."""
    return [square for square, letter in enumerate(board) if letter != "."]


def is_red(card: str) -> bool:
    """Hearts and diamonds are red: a red position card moves a piece right, a black one up."""
    return card[-1] in ("H", "D")


def position_value(card: str) -> int:
    """How many squares a position card moves a piece (its rank, 2 to 6)."""
    return int(card[:-1])


def add_start(last: int | None) -> int:
    """The square a new piece starts above: the last piece added, a1 for the first."""
    return chess.A1 if last is None else last


def add_target(last: int | None, position_card: str) -> int:
    """Where the position card sends a new piece from :func:`add_start`: right (red) or up (black) by its value,
    coming back in on the other side past the edge.

    >>> chess.square_name(add_target(None, "3H")), chess.square_name(add_target(chess.G5, "4D"))
    ('d1', 'c5')
    >>> chess.square_name(add_target(chess.C7, "2S")), chess.square_name(add_target(chess.C7, "6C"))
    ('c1', 'c5')
    """
    start = add_start(last)
    file, rank = chess.square_file(start), chess.square_rank(start)
    value = position_value(position_card)
    if is_red(position_card):
        file = (file + value) % 8
    else:
        rank = (rank + value) % 8
    return chess.square(file, rank)


def nearest_empty(board: str, target: int) -> tuple[int, ...]:
    """The empty squares at the smallest king distance from ``target`` (itself when it is empty); the board's
    edges are edges here (nothing comes back in on the other side).

    >>> board = "".join("N" if s in (chess.A1, chess.B1, chess.A2) else "." for s in range(64))
    >>> square_names(nearest_empty(board, chess.A1))
    ['b2']
    """
    if board[target] == ".":
        return (target,)
    for distance in range(1, 8):
        ring = tuple(square for square in range(64) if board[square] == "."
                     and chess.square_distance(square, target) == distance)
        if ring:
            return ring
    return ()


def neighbour_types(board: str, square: int) -> tuple[chess.PieceType, ...]:
    """The kinds of the same-colour pieces on the eight squares around ``square``, each once, in a fixed order
    (knight, bishop, rook, queen, king)."""
    letter = board[square]
    if letter == ".":
        return ()
    white = letter.isupper()
    found = set()
    for other in chess.SquareSet(chess.BB_KING_ATTACKS[square]):
        near = board[other]
        if near != "." and near.isupper() == white:
            found.add(chess.Piece.from_symbol(near).piece_type)
    return tuple(sorted(found))


def occupied_mask(board: str) -> int:
    mask = 0
    for square, letter in enumerate(board):
        if letter != ".":
            mask |= 1 << square
    return mask


def reach(piece_type: chess.PieceType, square: int, occupied: int) -> int:
    """The empty squares a piece of ``piece_type`` standing on ``square`` may move to (a mask), sliders stopped
    by any piece, no capture."""
    if piece_type == chess.KNIGHT:
        found = chess.BB_KNIGHT_ATTACKS[square]
    elif piece_type == chess.KING:
        found = chess.BB_KING_ATTACKS[square]
    else:
        found = 0
        if piece_type in (chess.BISHOP, chess.QUEEN):
            found |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        if piece_type in (chess.ROOK, chess.QUEEN):
            found |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            found |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return found & ~occupied


def move_targets(board: str, square: int, occupied: int | None = None) -> dict[int, tuple[chess.PieceType, ...]]:
    """Where the piece on ``square`` may move: target -> the kinds of neighbour whose move takes it there.

    >>> board = list(BOARD_EMPTY); board[chess.D4] = "K"; board[chess.E5] = "N"; board[chess.C3] = "n"
    >>> sorted(square_names(move_targets("".join(board), chess.D4)))
    ['b3', 'b5', 'c2', 'c6', 'e2', 'e6', 'f3', 'f5']
    """
    types = neighbour_types(board, square)
    if not types:
        return {}
    occupied = occupied_mask(board) if occupied is None else occupied
    found: dict[int, list[chess.PieceType]] = {}
    for piece_type in types:
        for target in chess.scan_forward(reach(piece_type, square, occupied)):
            found.setdefault(target, []).append(piece_type)
    return {target: tuple(kinds) for target, kinds in sorted(found.items())}


def all_moves(board: str) -> Iterator[tuple[int, int]]:
    """Every move on ``board``: (from, to), from a1 up."""
    occupied = occupied_mask(board)
    for square in piece_squares(board):
        for target in move_targets(board, square, occupied):
            yield square, target


def connected(board: str) -> bool:
    """Whether the pieces, two or more, form one group joined through their sides (not corners)."""
    squares = piece_squares(board)
    if len(squares) < 2:
        return False
    return len(_group_of(board, squares[0])) == len(squares)


def _group_of(board: str, start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        square = todo.pop()
        file, rank = chess.square_file(square), chess.square_rank(square)
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            f, r = file + df, rank + dr
            if 0 <= f < 8 and 0 <= r < 8:
                other = chess.square(f, r)
                if other not in seen and board[other] != ".":
                    seen.add(other)
                    todo.append(other)
    return seen


def groups(board: str) -> list[set[int]]:
    """The orthogonally connected groups of pieces."""
    left = set(piece_squares(board))
    found = []
    while left:
        group = _group_of(board, min(left))
        found.append(group)
        left -= group
    return found


# ---- the state ----------------------------------------------------------------------------------------------

STAGES = ("add", "place", "move", "won", "lost")


@dataclass(frozen=True)
class State:
    """Everything about a game at one moment. ``pieces`` and ``positions`` are the decks, top card first.
    ``stage``: ``add`` (add a piece, or stop once one is on the board), ``place`` (the piece of ``pending`` waits
    for one of ``candidates``), ``move``, ``won`` or ``lost``. ``last`` is the square of the last piece added.
    ``added`` and ``moves`` count adds and moves; ``ended`` says why a ``lost`` game ended. :meth:`key` leaves
    ``turned`` out: what was seen does not change what can still be done."""

    board: str
    pieces: tuple[str, ...]
    positions: tuple[str, ...]
    stage: str = "add"
    last: int | None = None
    pending: str = ""
    candidates: tuple[int, ...] = ()
    added: int = 0
    moves: int = 0
    ended: str = ""
    turned: tuple[tuple[str, str], ...] = ()
    """The cards turned by the adds so far (piece card, position card), oldest first: seen by the player."""

    @classmethod
    def start(cls, pieces: Sequence[str], positions: Sequence[str]) -> State:
        """A new game with the decks as given (top card first)."""
        return cls(BOARD_EMPTY, tuple(pieces), tuple(positions))

    @property
    def cards_left(self) -> int:
        return len(self.pieces) + len(self.positions)

    @property
    def over(self) -> bool:
        return self.stage in ("won", "lost")

    @property
    def score(self) -> int | None:
        """The score of a won game (the cards left in both decks), else ``None``."""
        return self.cards_left if self.stage == "won" else None

    def key(self) -> tuple[object, ...]:
        """Equal for states with the same future: once adding has stopped, only the board and the number of cards
        left matter."""
        if self.stage == "move":
            return (self.board, self.cards_left)
        return (self.board, self.pieces, self.positions, self.stage, self.last, self.pending, self.candidates)


def _parse_square(text: object) -> int:
    try:
        return chess.parse_square(str(text).strip().lower())
    except ValueError:
        raise StateError(f"{str(text)[:8]!r} is not a square") from None


def legal_actions(state: State) -> list[Action]:
    """Every action allowed in ``state`` (a move's ``deck`` left to the default)."""
    if state.stage == "add":
        found: list[Action] = [NeighbourAdd()]
        if state.added:
            found.append(NeighbourStop())
        return found
    if state.stage == "place":
        return [NeighbourPlace(chess.square_name(square)) for square in state.candidates]
    if state.stage == "move":
        return [NeighbourMove(chess.square_name(frm) + chess.square_name(to)) for frm, to in all_moves(state.board)]
    return []


def apply(state: State, action: Action) -> State:
    """The state ``action`` leads to; :class:`StateError` with a sentence when the rules do not allow it."""
    if state.over:
        raise StateError("the game is over")
    if isinstance(action, NeighbourAdd):
        return _add(state)
    if isinstance(action, NeighbourPlace):
        if state.stage != "place":
            raise StateError("no piece is waiting for a square" if state.stage != "add"
                             else "no piece is waiting for a square: add one first")
        square = _parse_square(action.square)
        if square not in state.candidates:
            if state.board[square] != ".":
                raise StateError(f"{chess.square_name(square)} is taken: pick one of "
                                 f"{', '.join(square_names(state.candidates))}")
            raise StateError(f"{chess.square_name(square)} is not among the nearest empty squares: pick one of "
                             f"{', '.join(square_names(state.candidates))}")
        return _placed(state, square)
    if isinstance(action, NeighbourStop):
        if state.stage == "place":
            raise StateError("first put the piece just turned on one of the nearest empty squares")
        if state.stage != "add":
            raise StateError("adding has already stopped")
        if not state.added:
            raise StateError("add at least one piece before stopping")
        return _after_change(dataclasses.replace(state, stage="move"))
    if isinstance(action, NeighbourMove):
        return _move(state, action)
    raise StateError(f"Neighbour Chess has no action {getattr(action, 'kind', type(action).__name__)!r}")


def _add(state: State) -> State:
    if state.stage == "place":
        raise StateError("first put the piece just turned on one of the nearest empty squares")
    if state.stage != "add":
        raise StateError("adding has stopped for good: only moves now")
    if not state.pieces or not state.positions:  # never: adding stops when the piece deck runs out
        raise StateError("no card is left to add a piece with")
    piece_card, position_card = state.pieces[0], state.positions[0]
    target = add_target(state.last, position_card)
    candidates = nearest_empty(state.board, target)
    turned = dataclasses.replace(state, pieces=state.pieces[1:], positions=state.positions[1:], pending=piece_card,
                                 candidates=candidates, stage="place",
                                 turned=state.turned + ((piece_card, position_card),))
    if len(candidates) == 1:
        return _placed(turned, candidates[0])
    return turned


def _placed(state: State, square: int) -> State:
    piece = card_piece(state.pending)
    assert piece is not None
    board = state.board[:square] + piece.symbol() + state.board[square + 1:]
    stage = "add" if state.pieces else "move"
    return _after_change(dataclasses.replace(state, board=board, last=square, pending="", candidates=(),
                                             added=state.added + 1, stage=stage))


def deck_paying(state: State, deck: str = "") -> str:
    """The deck a move's card comes from: ``deck`` if given (and not empty), else the position deck while it has
    cards."""
    if deck:
        if deck not in DECKS:
            raise StateError(f"there is no deck {deck[:12]!r} (the decks: pieces, positions)")
        if not (state.pieces if deck == "pieces" else state.positions):
            raise StateError(f"the {deck} deck is empty")
        return deck
    return "positions" if state.positions else "pieces"


def _move(state: State, action: NeighbourMove) -> State:
    if state.stage in ("add", "place"):
        raise StateError("pieces move only once adding has stopped (stop adding first)")
    text = str(action.uci).strip().lower()
    try:
        move = chess.Move.from_uci(text)
    except (ValueError, IndexError):
        raise StateError(f"{text[:10]!r} is not a move (from and to, such as c3e4)") from None
    if move.promotion is not None or move.drop is not None or move.from_square == move.to_square:
        raise StateError(f"{text[:10]!r} is not a move (from and to, such as c3e4)")
    frm, to = move.from_square, move.to_square
    if state.board[frm] == ".":
        raise StateError(f"there is no piece on {chess.square_name(frm)}")
    if state.board[to] != ".":
        raise StateError(f"{chess.square_name(to)} is taken: a piece moves only to an empty square")
    if not neighbour_types(state.board, frm):
        raise StateError(f"the piece on {chess.square_name(frm)} has no neighbour of its colour, so it cannot move")
    targets = move_targets(state.board, frm)
    if to not in targets:
        kinds = ", ".join(chess.piece_name(kind) for kind in neighbour_types(state.board, frm))
        raise StateError(f"the piece on {chess.square_name(frm)} may move only as its neighbours do ({kinds}): "
                         f"not to {chess.square_name(to)}")
    deck = deck_paying(state, action.deck)
    board = list(state.board)
    board[to], board[frm] = board[frm], "."
    pieces, positions = state.pieces, state.positions
    if deck == "pieces":
        pieces = pieces[1:]
    else:
        positions = positions[1:]
    return _after_change(dataclasses.replace(state, board="".join(board), pieces=pieces, positions=positions,
                                             moves=state.moves + 1))


def _after_change(state: State) -> State:
    """The end of the game, if it came: a group is a win; in the move stage no card, or no move, is a loss."""
    if connected(state.board):
        return dataclasses.replace(state, stage="won")
    if state.stage != "move":
        return state
    if not state.cards_left:
        return dataclasses.replace(state, stage="lost", ended="no card is left and the pieces are not one group")
    if next(all_moves(state.board), None) is None:
        return dataclasses.replace(state, stage="lost", ended="no piece can move (none has a neighbour of its colour "
                                                              "with a move to an empty square)")
    return state
