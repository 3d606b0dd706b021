"""Sixteen: a one-seat deal-and-place card solitaire on a 4x4 board.

The referee shuffles a 52-card deck with the game's own generator (:attr:`Game.rng`, so a replay given the
record's chance seed deals the same cards) and deals the player a hand of :data:`HAND` cards, face up to the
player; the rest is the draw pile, face down, whose count the player sees. A turn has two steps: the player
takes a card of the hand (:class:`Take`), then places it on an empty cell (:class:`Place`); the hand is then
refilled from the pile. When the sixteen cells are full the game ends and scores: each row and each column
scores the size of its largest group of one suit when that group has two cards or more (so 0 to 32 points).

Cards are named as the scene names them (``"10H"``, ``"QS"``); cells as ``a1`` .. ``d4`` (number ``file + 4 *
rank``).

>>> game = Sixteen(seed=1)
>>> game.phase, len(game.hand), len(game.pile)
('take', 3, 49)
>>> card = game.hand[0]
>>> game.play(0, Take(card)); game.phase
'place'
>>> game.play(0, Place(card, 0)); game.board[0] == card, len(game.hand), game.ply
(True, 3, 1)
>>> score(["2S", "3S", "4S", "5H"] + [None] * 12)  # a row of three spades
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from tests.games.sixteen import DEFINITION

SIZE = 4
CELLS = SIZE * SIZE
HAND = 3
"""Cards in the player's hand while the pile lasts."""
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 52 cards in a fixed order, before the shuffle."""


def cell_name(number: int) -> str:
    """``0`` -> ``"a1"``, ``15`` -> ``"d4"``.

    >>> cell_name(0), cell_name(5), cell_name(15)
    ('a1', 'b2', 'd4')
    """
    return "abcd"[number % SIZE] + str(number // SIZE + 1)


def cell_number(name: Any) -> int:
    """A cell's number from its name; ``ValueError`` with a sentence if it names none."""
    text = str(name).strip().lower()
    if len(text) != 2 or text[0] not in "abcd" or text[1] not in "1234":
        raise ValueError(f"{text[:10]!r} is not a cell of the 4x4 board (a1 to d4)")
    return "abcd".index(text[0]) + SIZE * (int(text[1]) - 1)


CELL = codec.Text(cell_name, cell_number, "a cell such as 'b2'")
"""A cell written by its name in records."""


def suit(card: str) -> str:
    """A card's suit letter."""
    return card[-1]


def lines() -> list[list[int]]:
    """The cells of each row, then of each column."""
    rows = [[rank * SIZE + file for file in range(SIZE)] for rank in range(SIZE)]
    return rows + [[rank * SIZE + file for rank in range(SIZE)] for file in range(SIZE)]


def score(board: Sequence[str | None]) -> int:
    """The points of a board (cells ``None`` are empty): each row and column scores its largest group of one
    suit when that has two cards or more."""
    total = 0
    for line in lines():
        suits = [suit(card) for card in (board[cell] for cell in line) if card is not None]
        best = max((suits.count(letter) for letter in set(suits)), default=0)
        total += best if best >= 2 else 0
    return total


@dataclass(frozen=True)
class Take(Action):
    """First step of a turn: take ``card`` from the hand."""

    card: str
    kind: ClassVar[str] = "take"


@dataclass(frozen=True)
class Place(Action):
    """Second step: place the taken ``card`` on the empty ``cell``."""

    card: str
    cell: int = field(metadata=codec.spec(text=CELL))
    kind: ClassVar[str] = "place"


class Dealt(NamedTuple):
    """Told to the player at the start: its hand and how many cards the pile holds."""

    hand: tuple[str, ...]
    pile: int


class Taken(NamedTuple):
    """The player took ``card`` from the hand."""

    card: str


class Placed(NamedTuple):
    """``card`` went to ``cell``; ``drawn`` is the card drawn into the hand (``None`` once the pile is empty),
    ``pile`` the cards left in it, ``score`` the board's points now."""

    card: str
    cell: int
    drawn: str | None
    pile: int
    score: int


class Ended(NamedTuple):
    """The game is over."""

    outcome: Outcome


class Sixteen(Game):
    """The referee of one game of Sixteen: it alone knows the pile's order."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Take, Place)
    uses_chance: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hand: list[str] = deck[:HAND]
        self.pile: list[str] = deck[HAND:]
        self.board: list[str | None] = [None] * CELLS
        self.taken: str | None = None
        self.placed = 0
        self._tell(0, Dealt(tuple(self.hand), len(self.pile)))

    def truth(self) -> tuple[Any, ...]:
        return (tuple(self.board), tuple(self.hand), tuple(self.pile), self.taken)

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return "take" if self.taken is None else "place"

    @property
    def ply(self) -> int:
        return self.placed

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        if self.taken is None:
            return {"take": [Take(card) for card in self.hand]}
        return {"place": [Place(self.taken, cell) for cell in range(CELLS) if self.board[cell] is None]}

    def _apply(self, seat: Seat, action: Action) -> None:
        if self.taken is None:
            if type(action) is not Take:
                raise IllegalAction(f"first take a card from the hand, not {action.kind}")
            if action.card not in self.hand:
                raise IllegalAction(f"{str(action.card)[:10]!r} is not in the hand")
            self.taken = action.card
            self._tell(0, Taken(action.card))
            return
        if type(action) is not Place:
            raise IllegalAction(f"place the card taken ({self.taken}) on an empty cell, not {action.kind}")
        if action.card != self.taken:
            raise IllegalAction(f"the card taken is {self.taken}, not {str(action.card)[:10]}")
        if not isinstance(action.cell, int) or isinstance(action.cell, bool) or not 0 <= action.cell < CELLS \
                or self.board[action.cell] is not None:
            raise IllegalAction(f"{str(action.cell)[:10]} is not an empty cell")
        self.board[action.cell] = action.card
        self.hand.remove(action.card)
        self.taken = None
        self.placed += 1
        drawn = self.pile.pop(0) if self.pile and self.placed + len(self.hand) < CELLS else None
        if drawn is not None:
            self.hand.append(drawn)
        points = score(self.board)
        self._tell(0, Placed(action.card, action.cell, drawn, len(self.pile), points))
        if self.placed == CELLS:
            self._finish(Outcome(0, Reason.SCORE, f"the board is full: {points} points", score=float(points)))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    def options(self) -> dict[str, Any]:
        return {}  # the deal is chance, and its seed is never an option

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Sixteen":
        if options:
            raise ValueError(f"Sixteen takes no options, not {', '.join(sorted(map(str, options)))[:80]}")
        return cls()


@dataclass
class SixteenView(View):
    """What the player knows, from its observations only: the board, its hand, the card taken, the pile's
    count (never its order)."""

    board: list[str | None] = field(default_factory=lambda: [None] * CELLS)
    hand: list[str] = field(default_factory=list)
    taken: str | None = None
    pile: int = 0
    points: int = 0
    placed: list[Placed] = field(default_factory=list)
    outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Dealt):
            self.hand, self.pile = list(observation.hand), observation.pile
        elif isinstance(observation, Taken):
            self.taken = observation.card
        elif isinstance(observation, Placed):
            self.board[observation.cell] = observation.card
            self.hand.remove(observation.card)
            if observation.drawn is not None:
                self.hand.append(observation.drawn)
            self.taken, self.pile, self.points = None, observation.pile, observation.score
            self.placed.append(observation)
        elif isinstance(observation, Ended):
            self.outcome = observation.outcome

    @property
    def my_turn(self) -> bool:
        return self.outcome is None


Sixteen.view_type = SixteenView
