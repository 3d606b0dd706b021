"""Parade Chess Solitaire, the referee and the player's view (rulings PA1-PA3, PA2b; G1, G2, G5).

The sixteen non-pawn cards of the kit (:data:`CARDS`, in a fixed order) are shuffled by the deal number
(:func:`app.games.patience.deals.deal_order`: the same number is the same deal everywhere). The first eight are dealt
onto the board from a1 along rank 1, then rank 2 and so on, each after its gap of empty squares (knight 1, bishop 2,
rook 3, queen 5, king 6: :data:`app.games.kit_cards.GAP`); the other eight are the hand pile, face down.

Each card of the pile is spent on one action:

- a **move** (:class:`ParadeMove`): the top card is spent unseen; a piece is lifted from its square and put on an
  empty square, both squares attacked by one piece of the other colour, the attacks worked out with the lifted piece
  off the board (kings attack the squares around them; there are no pawns);
- an **add** (:class:`ParadeAdd`): the top card is turned face up and its piece placed after the last piece on the
  board (highest rank, then rightmost file) with its gap. As the pile is face down, the add is offered only while
  every piece not seen yet would fit before h8 (PA2b).

The game is won when all the pieces form one orthogonally connected group; the score is the cards left in the pile.
Once the pile is empty only moves are allowed, and each costs a point (the score goes below zero) until the group
forms. The player may give up (the engine's resign): an unfinished game has no score. A position with no move and
no add left ends the game, lost.

Moves can be taken back with :class:`~app.games.patience.undo.Undo` and played again with
:class:`~app.games.patience.undo.Redo`, back to the last card turned face up: both are actions of the record, so a
replay is exact and nothing is lost.

Squares are python-chess's numbers (``a1`` = 0, ``h8`` = 63); a piece on the board is its card (``"9H"``).

>>> game = ParadeChess.dealt(["9H", "10H", "KS", "10C", "8S", "8H", "10D", "9S"] + ["8D", "QS", "KH", "QH", "9C",
...                          "9D", "8C", "10S"])
>>> board_text(game.placed)
'c1:B g1:R f2:k b3:r d3:n f3:N b4:R e4:b'
>>> game.play(0, ParadeMove("f3", "g2")); game.cards_left, game.placed[chess.G2]
(7, '8H')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple, Sequence

import chess

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.kit_cards import GAP, card_piece, card_words, piece_cards
from app.games.parade import DEFINITION
from app.games.patience.deals import check_deal, deal_order, random_deal
from app.games.patience.undo import Redo, Undo, UndoHistory

__all__ = ["CARDS", "DEALT", "HAND", "Added", "Dealt", "Ended", "Moved", "ParadeAdd", "ParadeChess", "ParadeMove",
           "ParadeView", "Rewound", "add_allowed", "add_square", "board_text", "components", "connected", "groups_of",
           "legal_moves", "movers_of"]

CARDS: tuple[str, ...] = piece_cards((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING))
"""The sixteen cards, in the fixed order a deal number shuffles: Black's knights, bishops, rooks, queen and king
(spades before clubs), then White's (hearts before diamonds).

>>> " ".join(CARDS)
'8S 8C 9S 9C 10S 10C QS KS 8H 8D 9H 9D 10H 10D QH KH'
"""
DEALT = 8
"""Cards dealt onto the board."""
HAND = len(CARDS) - DEALT
"""Cards in the hand pile."""
LAST = chess.H8


def _piece(card: str) -> chess.Piece:
    piece = card_piece(card)
    assert piece is not None
    return piece


# ---- the geometry: attacks, moves, groups, placement (pure functions of a board) -------------------------------

def attacks(piece_type: chess.PieceType, square: int, occupied: int) -> int:
    """The squares (a mask) a piece of ``piece_type`` on ``square`` attacks, ``occupied`` blocking slides."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    found = 0
    if piece_type in (chess.BISHOP, chess.QUEEN):
        found |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if piece_type in (chess.ROOK, chess.QUEEN):
        found |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                  | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])
    return found


def _mask(squares: Iterable[int]) -> int:
    mask = 0
    for square in squares:
        mask |= 1 << square
    return mask


def movers_of(placed: Mapping[int, str], frm: int, to: int) -> list[int]:
    """The squares of the pieces that may move the piece on ``frm`` to ``to`` (PA2): of the other colour,
    attacking both squares with the lifted piece off the board; empty if ``to`` is not empty or no such piece."""
    if frm not in placed or to in placed or to == frm:
        return []
    colour = _piece(placed[frm]).color
    occupied = _mask(placed) & ~(1 << frm)
    both = (1 << frm) | (1 << to)
    return [square for square, card in sorted(placed.items())
            if square != frm and _piece(card).color != colour
            and attacks(_piece(card).piece_type, square, occupied) & both == both]


def legal_moves(placed: Mapping[int, str]) -> dict[int, dict[int, int]]:
    """Every move: ``{from: {to: a mover's square}}`` (only pieces that can move are keys; the mover given is the
    lowest square of those that could)."""
    occupied_all = _mask(placed)
    pieces = [(square, _piece(card)) for square, card in sorted(placed.items())]
    found: dict[int, dict[int, int]] = {}
    for frm, lifted in pieces:
        occupied = occupied_all & ~(1 << frm)
        targets: dict[int, int] = {}
        for square, piece in pieces:
            if square == frm or piece.color == lifted.color:
                continue
            reach = attacks(piece.piece_type, square, occupied)
            if reach >> frm & 1:
                free = reach & ~occupied_all
                for to in chess.scan_forward(free):
                    targets.setdefault(to, square)
        if targets:
            found[frm] = dict(sorted(targets.items()))
    return found


_FULL = (1 << 64) - 1
_NOT_FILE_A = ~0x0101010101010101 & _FULL
_NOT_FILE_H = ~0x8080808080808080 & _FULL


def groups_of(mask: int) -> int:
    """How many orthogonally connected groups the squares of ``mask`` form (a flood fill on the bits)."""
    count = 0
    while mask:
        group = mask & -mask
        while True:
            grown = (group | (group << 8) | (group >> 8) | ((group << 1) & _NOT_FILE_A)
                     | ((group >> 1) & _NOT_FILE_H)) & mask
            if grown == group:
                break
            group = grown
        mask &= ~group
        count += 1
    return count


def components(squares: Iterable[int]) -> int:
    """How many orthogonally connected groups the pieces on ``squares`` form (0 for none).

    >>> components([chess.A1, chess.B1, chess.B2, chess.D4]), components([chess.H1, chess.A2])
    (2, 2)
    """
    return groups_of(_mask(squares))


def connected(squares: Iterable[int]) -> bool:
    """Whether the pieces on ``squares`` form one orthogonally connected group (two pieces at least)."""
    squares = list(squares)
    return len(squares) >= 2 and components(squares) == 1


def add_square(squares: Iterable[int], card: str) -> int | None:
    """Where ``card``'s piece goes when added after the last of the pieces on ``squares`` (the highest rank, then
    the rightmost file), its gap left empty; ``None`` when that is past h8."""
    last = max(squares, default=-1)
    square = last + GAP[_piece(card).piece_type] + 1
    return square if square <= LAST else None


def add_allowed(squares: Iterable[int], unseen: Iterable[str], cards_left: int) -> bool:
    """Whether an add may be offered (PA2b): a card is left, and every card not yet seen would fit before h8."""
    squares = list(squares)
    unseen = list(unseen)
    return cards_left > 0 and bool(unseen) and all(add_square(squares, card) is not None for card in unseen)


def board_text(placed: Mapping[int, str]) -> str:
    """The pieces as ``c1:B g1:R f2:k`` (square order; white pieces in capitals)."""
    return " ".join(f"{chess.square_name(square)}:{_piece(card).symbol()}" for square, card in sorted(placed.items()))


def _square(text: Any) -> int:
    try:
        return chess.parse_square(str(text).strip().lower())
    except ValueError:
        raise IllegalAction(f"{str(text)[:8]!r} is not a square of the board (a1 to h8)") from None


# ---- actions ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ParadeMove(Action):
    """Spend the top card unseen: the piece on ``frm`` is moved to ``to`` by a piece of the other colour."""

    frm: str
    to: str
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class ParadeAdd(Action):
    """Turn the top card and add its piece after the last piece."""

    kind: ClassVar[str] = "add"


# ---- observations (the game has one seat: the player is told everything a player at the table sees) -----------

class Dealt(NamedTuple):
    """The deal: its number, the pieces dealt onto the board (square, card) in the order dealt, the pile's size."""

    deal: int
    placed: tuple[tuple[int, str], ...]
    pile: int


class Moved(NamedTuple):
    """The piece on ``frm`` (its ``card``) went to ``to``, moved by the piece on ``mover``; ``left`` cards are left
    in the pile, ``overtime`` moves were made with none left; ``undo`` / ``redo``: whether they may be used now."""

    frm: int
    to: int
    card: str
    mover: int
    left: int
    overtime: int
    undo: bool
    redo: bool
    mover_card: str = ""


class Added(NamedTuple):
    """``card`` was turned and its piece put on ``square``; ``left`` cards are left."""

    card: str
    square: int
    left: int


class Rewound(NamedTuple):
    """An undo (``undone``) or a redo: the position now (pieces, cards left, moves made with none left) and
    whether undo and redo may be used now."""

    undone: bool
    placed: tuple[tuple[int, str], ...]
    left: int
    overtime: int
    undo: bool
    redo: bool


class Ended(NamedTuple):
    """The game is over (``score``: None when it has none)."""

    outcome: Outcome
    score: int | None


@dataclass(frozen=True)
class ParadeTruth:
    """The whole state: the pieces, the pile in order (top first) and how many of it were spent, the moves made with
    no card left, the cards seen (never shown to the player while the game goes on: see the presenter)."""

    placed: tuple[tuple[int, str], ...]
    pile: tuple[str, ...]
    used: int
    overtime: int
    deal: int
    seen: tuple[str, ...] = ()
    over: bool = False
    last: tuple[int, int] | None = None
    """The squares of the last move (from, to) or of the last piece added (twice); ``None`` after an undo."""


Snapshot = tuple[tuple[tuple[int, str], ...], int, int]
"""What undo restores: the pieces, the cards used, the moves made with none left."""


# ---- the referee --------------------------------------------------------------------------------------------------

class ParadeChess(Game):
    """The referee: the board, the pile in its order (it alone knows it), the undo history."""

    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (ParadeMove, ParadeAdd, Undo, Redo)
    uses_chance: ClassVar[bool] = True  # only to draw a deal number when none is given

    def __init__(self, deal: int | None = None, seed: int | None = None, order: Sequence[str] | None = None) -> None:
        super().__init__(seed)
        self.deal = random_deal(self.rng) if deal is None else check_deal(deal)
        cards = list(order) if order is not None else deal_order(CARDS, self.deal)
        if sorted(cards) != sorted(CARDS):
            raise ValueError("a Parade deal is the sixteen non-pawn cards, each once")
        self.placed: dict[int, str] = {}
        for card in cards[:DEALT]:
            square = add_square(self.placed, card)
            assert square is not None  # eight pieces need at most 42 squares
            self.placed[square] = card
        self.pile: list[str] = cards[DEALT:]
        self.used = 0
        self.overtime = 0
        self.seen: list[str] = cards[:DEALT]
        self._ply = 0
        self._last: tuple[int, int] | None = None
        self.history: UndoHistory[Snapshot] = UndoHistory()
        self._tell(0, Dealt(self.deal, tuple(self.placed.items()), len(self.pile)))
        self._check_end()

    @classmethod
    def dealt(cls, order: Sequence[str], deal: int = 1) -> ParadeChess:
        """A game of a hand-made card order (tests, and the rule text's example); ``deal`` is only its label."""
        return cls(deal, seed=0, order=order)

    # -- state --------------------------------------------------------------------------------------------------
    @property
    def cards_left(self) -> int:
        return len(self.pile) - self.used

    @property
    def score(self) -> int:
        """The score if the group formed now: the cards left, or minus the moves made with none left."""
        return -self.overtime if self.overtime else self.cards_left

    def unseen(self) -> list[str]:
        """The cards not yet turned face up (in the pile, or spent face down on moves), in :data:`CARDS` order."""
        return [card for card in CARDS if card not in self.seen]

    def can_add(self) -> bool:
        return add_allowed(self.placed, self.unseen(), self.cards_left)

    def truth(self) -> ParadeTruth:
        return ParadeTruth(tuple(sorted(self.placed.items())), tuple(self.pile), self.used, self.overtime, self.deal,
                           tuple(self.seen), self.outcome is not None, self._last)

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else "play"

    @property
    def ply(self) -> int:
        return self._ply

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        found: dict[str, Any] = {"moves": [ParadeMove(chess.square_name(frm), chess.square_name(to))
                                           for frm, targets in legal_moves(self.placed).items() for to in targets]}
        if self.can_add():
            found["add"] = [ParadeAdd()]
        if self.history.can_undo:
            found["undo"] = [Undo()]
        if self.history.can_redo:
            found["redo"] = [Redo()]
        return found

    # -- acting -------------------------------------------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return tuple(sorted(self.placed.items())), self.used, self.overtime

    def _restore(self, snapshot: Snapshot) -> None:
        placed, self.used, self.overtime = snapshot
        self.placed = dict(placed)

    def _apply(self, seat: Seat, action: Action) -> None:
        if type(action) is Undo or type(action) is Redo:
            undoing = type(action) is Undo
            if undoing and not self.history.can_undo:
                raise IllegalAction("there is nothing to undo: the last card turned face up stays seen")
            if not undoing and not self.history.can_redo:
                raise IllegalAction("there is nothing to redo")
            self._restore(self.history.undo() if undoing else self.history.redo())
            self._last = None
            self._ply += 1
            self._tell(0, Rewound(undoing, tuple(sorted(self.placed.items())), self.cards_left, self.overtime,
                                  self.history.can_undo, self.history.can_redo))
            self._check_end()
            return
        before = self._snapshot()
        if type(action) is ParadeAdd:
            if self.cards_left == 0:
                raise IllegalAction("no card is left to add a piece: only moves now")
            if not self.can_add():
                raise IllegalAction("a piece not seen yet might not fit before h8, so no more pieces may be added")
            card = self.pile[self.used]
            square = add_square(self.placed, card)
            assert square is not None  # can_add said every unseen card fits
            self.used += 1
            self.placed[square] = card
            self.seen.append(card)
            self._last = (square, square)
            self._ply += 1
            self.history.done(before, self._snapshot(), reveals=True)
            self._tell(0, Added(card, square, self.cards_left))
            self._check_end()
            return
        if type(action) is not ParadeMove:
            raise IllegalAction("move a piece or add one")
        frm, to = _square(action.frm), _square(action.to)
        if frm not in self.placed:
            raise IllegalAction(f"there is no piece on {chess.square_name(frm)}")
        if to in self.placed:
            raise IllegalAction(f"{chess.square_name(to)} is taken: a piece is put on an empty square")
        if to == frm:
            raise IllegalAction("the piece must go to another square")
        movers = movers_of(self.placed, frm, to)
        if not movers:
            raise IllegalAction(self._why_not(frm, to))
        card = self.placed.pop(frm)
        self.placed[to] = card
        self._last = (frm, to)
        if self.cards_left:
            self.used += 1
        else:
            self.overtime += 1
        self._ply += 1
        self.history.done(before, self._snapshot(), reveals=False)
        self._tell(0, Moved(frm, to, card, movers[0], self.cards_left, self.overtime, self.history.can_undo,
                            self.history.can_redo, self.placed[movers[0]]))
        self._check_end()

    def _why_not(self, frm: int, to: int) -> str:
        lifted = _piece(self.placed[frm])
        where = chess.square_name(frm)
        colour = "black" if lifted.color == chess.WHITE else "white"
        targets = legal_moves(self.placed).get(frm)
        if not targets:
            return f"no {colour} piece attacks {where}, so the piece there cannot be moved"
        return (f"no {colour} piece attacks both {where} and {chess.square_name(to)} (from {where} it may go to "
                f"{', '.join(chess.square_name(t) for t in targets)})")

    def _check_end(self) -> None:
        if connected(self.placed):
            score = self.score
            detail = (f"one group with {self.cards_left} card{'s' if self.cards_left != 1 else ''} left"
                      if not self.overtime else
                      f"one group after {self.overtime} move{'s' if self.overtime != 1 else ''} with no card left")
            self._finish(Outcome(0, Reason.SCORE, f"{detail}: {score} points", score=float(score)))
        elif not legal_moves(self.placed) and not self.can_add() and not self.history.can_undo:
            self._finish(Outcome(None, Reason.NO_MOVES, "no piece can be moved and none added"))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome, None if outcome.score is None else int(outcome.score))

    # -- records ------------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {"deal": self.deal}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> ParadeChess:
        unknown = sorted(str(key) for key in options if key != "deal")
        if unknown:
            raise ValueError(f"Parade Chess Solitaire has no option {', '.join(unknown)[:60]} (its option: deal)")
        deal = options.get("deal")
        return cls(None if deal is None else check_deal(deal))


# ---- the player's view -------------------------------------------------------------------------------------------

@dataclass
class ParadeView(View):
    """What the player knows, from the observations only: the deal number, the pieces, the cards turned face up
    (the dealt ones, then each added), the cards left, the moves made with none left, whether undo and redo may be
    used, the current line of actions (for the score sheet) and what was undone; never the pile's order."""

    deal: int = 0
    placed: dict[int, str] = field(default_factory=dict)
    seen: list[str] = field(default_factory=list)
    left: int = HAND
    overtime: int = 0
    can_undo: bool = False
    can_redo: bool = False
    line: list[Any] = field(default_factory=list)
    undone: list[Any] = field(default_factory=list)
    history: list[Any] = field(default_factory=list)
    outcome: Outcome | None = None
    final_score: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.outcome is None and bool(self.placed)

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else "play"

    @property
    def score(self) -> int:
        return -self.overtime if self.overtime else self.left

    def unseen(self) -> list[str]:
        return [card for card in CARDS if card not in self.seen]

    def moves(self) -> dict[int, dict[int, int]]:
        return legal_moves(self.placed) if self.my_turn else {}

    def can_add(self) -> bool:
        return self.my_turn and add_allowed(self.placed, self.unseen(), self.left)

    def apply(self, observation: Any) -> None:
        o = observation
        self.history.append(o)
        if isinstance(o, Dealt):
            self.deal, self.placed, self.left = o.deal, dict(o.placed), o.pile
            self.seen = [card for _, card in o.placed]
        elif isinstance(o, Moved):
            self.placed[o.to] = self.placed.pop(o.frm)
            self.left, self.overtime, self.can_undo, self.can_redo = o.left, o.overtime, o.undo, o.redo
            self.line.append(o)
            self.undone.clear()
        elif isinstance(o, Added):
            self.placed[o.square] = o.card
            self.seen.append(o.card)
            self.left, self.can_undo, self.can_redo = o.left, False, False
            self.line.append(o)
            self.undone.clear()
        elif isinstance(o, Rewound):
            self.placed, self.left, self.overtime = dict(o.placed), o.left, o.overtime
            self.can_undo, self.can_redo = o.undo, o.redo
            if o.undone and self.line:
                self.undone.append(self.line.pop())
            elif not o.undone and self.undone:
                self.line.append(self.undone.pop())
        elif isinstance(o, Ended):
            self.outcome, self.final_score = o.outcome, o.score
            self.can_undo = self.can_redo = False


ParadeChess.view_type = ParadeView


def card_names(cards: Iterable[str]) -> str:
    """Cards in words, for sentences."""
    return ", ".join(card_words(card) for card in cards)
