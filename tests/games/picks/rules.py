"""Secret Picks: four seats in two teams; cards dealt by chance, a secret setup choice per seat, and partners
who each pick a card secretly before anything is shown.

The referee shuffles a 52-card deck with the game's own generator (:attr:`Game.rng`) and deals three cards to
each seat, face down: each seat is told its own hand only; the other forty stay in the stock and are never
shown. First every seat, in seat order, secretly arranges its game: it names the round (1 to 3) in which its
card counts double (:class:`Arrange`); the others are told only that it did. Then come three rounds: A1, A2,
B1 and B2 each pick a card from their hand in turn (:class:`Pick`), each told the others have picked but not
what, and when the fourth has picked the round's four cards are shown to everyone. After the third round each
seat's arrangement is shown and the team with the higher total wins (a card counts its rank, 2 to 14 for an
ace, twice in the round its seat named); equal totals are a draw.

Cards are named by rank and suit, ``"7h"``, ``"Tc"`` (ten of clubs), ``"As"``.

>>> game = SecretPicks(seed=1)
>>> game.to_move, game.phase, len(game.hands[0])
(0, 'setup', 3)
>>> game.play(0, Arrange(2))
>>> [type(o).__name__ for o in game.observations(1)]  # A2 heard that A1 arranged its game, not how
['Dealt', 'Arranged']
>>> list(game.observations(0))[-2:]
[YourArrangement(double=2), Arranged(seat=0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from tests.games.picks import DEFINITION

SEATS = DEFINITION.seat_names
TEAMS = DEFINITION.seat_teams
"""A1 and A2 play together against B1 and B2."""
HAND = 3
"""Cards dealt to each seat, one played a round: also the number of rounds."""
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 52 cards in a fixed order, before the shuffle."""


def value(card: str) -> int:
    """A card's points: its rank, 2 to 14.

    >>> value("2c"), value("Th"), value("As")
    (2, 10, 14)
    """
    return RANKS.index(card[0]) + 2


@dataclass(frozen=True)
class Arrange(Action):
    """The secret setup choice: the round (1 to :data:`HAND`) in which this seat's card counts double."""

    double: int
    kind: ClassVar[str] = "arrange"


@dataclass(frozen=True)
class Pick(Action):
    """Play ``card`` from this seat's hand, face down until the round's four cards are in."""

    card: str
    kind: ClassVar[str] = "pick"


class Dealt(NamedTuple):
    """Told to each seat at the start, privately: which seat it is and its own hand."""

    seat: Seat
    hand: tuple[str, ...]


class Arranged(NamedTuple):
    """Told to every seat: ``seat`` has made its secret setup choice (never which)."""

    seat: Seat


class YourArrangement(NamedTuple):
    """Told to the arranging seat only: its own choice."""

    double: int


class Picked(NamedTuple):
    """Told to every seat: ``seat`` has picked its card for ``round`` (never which)."""

    round: int
    seat: Seat


class YourPick(NamedTuple):
    """Told to the picking seat only: the card it picked."""

    round: int
    card: str


class Shown(NamedTuple):
    """Told to every seat once all four have picked: each seat's card of ``round``, in seat order."""

    round: int
    cards: tuple[str, ...]


class Ended(NamedTuple):
    """Told to every seat at the end: each seat's arrangement (``None`` for a seat that never made one, in a
    game cut short) and the outcome."""

    doubles: tuple[int | None, ...]
    outcome: Outcome


class SecretPicks(Game):
    """The referee of one game of Secret Picks; it alone knows every hand, arrangement and pick in play."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Arrange, Pick)
    uses_chance: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands: list[list[str]] = [deck[HAND * seat:HAND * (seat + 1)] for seat in range(len(SEATS))]
        self.stock: tuple[str, ...] = tuple(deck[HAND * len(SEATS):])
        self.doubles: list[int | None] = [None] * len(SEATS)
        self.table: list[list[str]] = []
        """The cards picked, a list per round begun, in seat order."""
        self.actions = 0
        for seat, hand in enumerate(self.hands):
            self._tell(seat, Dealt(seat, tuple(hand)))

    def truth(self) -> tuple[Any, ...]:
        return (tuple(map(tuple, self.hands)), tuple(self.doubles), tuple(map(tuple, self.table)))

    # -- who acts: one seat at a time, so the curtain and the clock follow it -------------------------------
    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        if None in self.doubles:
            return self.doubles.index(None)
        return len(self.table[-1]) if self.table and len(self.table[-1]) < len(SEATS) else 0

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return "setup" if None in self.doubles else "pick"

    @property
    def ply(self) -> int:
        # Each secret choice is a turn of its own: its seat's clock earns the increment when it is made.
        return self.actions

    def choices(self) -> dict[str, Any]:
        seat = self.to_move
        if seat is None:
            return {}
        if self.phase == "setup":
            return {"doubles": [Arrange(round_) for round_ in range(1, HAND + 1)]}
        return {"cards": [Pick(card) for card in self.hands[seat]]}

    def _apply(self, seat: Seat, action: Action) -> None:
        if self.phase == "setup":
            if type(action) is not Arrange:
                raise IllegalAction(f"{SEATS[seat]} must first arrange its game, not {action.kind}")
            if not isinstance(action.double, int) or isinstance(action.double, bool) \
                    or not 1 <= action.double <= HAND:
                raise IllegalAction(f"there is no round {str(action.double)[:20]} to count double")
            self.doubles[seat] = action.double
            self.actions += 1
            self._tell(seat, YourArrangement(action.double))
            self._tell_all(Arranged(seat))
            return
        if type(action) is not Pick:
            raise IllegalAction(f"{SEATS[seat]} must pick a card, not {action.kind}")
        if action.card not in self.hands[seat]:
            raise IllegalAction(f"{str(action.card)[:10]!r} is not a card in {SEATS[seat]}'s hand")
        if not self.table or len(self.table[-1]) == len(SEATS):
            self.table.append([])
        round_ = len(self.table)
        self.hands[seat].remove(action.card)
        self.table[-1].append(action.card)
        self.actions += 1
        self._tell(seat, YourPick(round_, action.card))
        self._tell_all(Picked(round_, seat))
        if len(self.table[-1]) == len(SEATS):
            self._tell_all(Shown(round_, tuple(self.table[-1])))
            if round_ == HAND:
                self._finish(self._scored())

    def totals(self) -> tuple[int, ...]:
        """Each seat's points so far (a round's cards count once shown)."""
        return tuple(sum(value(cards[seat]) * (2 if self.doubles[seat] == number else 1)
                         for number, cards in enumerate(self.table, 1) if len(cards) == len(SEATS))
                     for seat in range(len(SEATS)))

    def _scored(self) -> Outcome:
        totals = self.totals()
        teams = [sum(total for total, team in zip(totals, TEAMS) if team == side) for side in (0, 1)]
        scores = tuple(float(total) for total in totals)
        if teams[0] == teams[1]:
            return Outcome(None, Reason.SCORE, f"the teams tied on {teams[0]} points", scores=scores)
        won = 0 if teams[0] > teams[1] else 1
        return Outcome(None, Reason.SCORE, f"{teams[won]} points to {teams[1 - won]}", scores=scores, team=won)

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        # The arrangements are shown only now, with the result that depends on them.
        return Ended(tuple(self.doubles), outcome)

    def options(self) -> dict[str, Any]:
        return {}  # nothing to set: the deal is chance, and its seed is never an option

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "SecretPicks":
        if options:
            raise ValueError(f"Secret Picks takes no options, not {', '.join(sorted(map(str, options)))[:80]}")
        return cls()


@dataclass
class PicksView(View):
    """What one seat knows, from its own observations only: its hand and choices, who has chosen, what was
    shown."""

    seat: Seat | None = None
    hand: list[str] = field(default_factory=list)
    double: int | None = None
    arranged: set[Seat] = field(default_factory=set)
    picked: dict[int, set[Seat]] = field(default_factory=dict)
    my_picks: dict[int, str] = field(default_factory=dict)
    shown: dict[int, tuple[str, ...]] = field(default_factory=dict)
    doubles: tuple[int | None, ...] | None = None
    outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Dealt):
            self.seat, self.hand = observation.seat, list(observation.hand)
        elif isinstance(observation, YourArrangement):
            self.double = observation.double
        elif isinstance(observation, Arranged):
            self.arranged.add(observation.seat)
        elif isinstance(observation, YourPick):
            self.my_picks[observation.round] = observation.card
            self.hand.remove(observation.card)
        elif isinstance(observation, Picked):
            self.picked.setdefault(observation.round, set()).add(observation.seat)
        elif isinstance(observation, Shown):
            self.shown[observation.round] = observation.cards
        elif isinstance(observation, Ended):
            self.doubles, self.outcome = observation.doubles, observation.outcome


SecretPicks.view_type = PicksView
