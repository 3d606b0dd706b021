"""Secret Picks as a person meets it: the seat's own hand below a strip of four cells, one per seat (A1, A2, B1,
B2), and above it a row of face-up cards for each round already shown. The strip tells what every seat may know
of the round under way: who has picked (never what), and once the four cards are shown, each seat's card.

The secret setup (the round in which the seat's card counts double) is not a card: it is made with one of three
buttons, "Round 1" to "Round 3" (short, to fit the panel's row of buttons). A pick is a click on a card of the hand. Typing works too:
a round's number during the setup, a card's name (``7h``, ``Tc``, ``As``) afterwards.

Every line and every drawn thing comes from the seat's own view, so a seat is shown its partner's pick only
once the round's four cards are shown to everyone.

>>> from .rules import Dealt, PicksView
>>> view = PicksView.from_observations([Dealt(0, ("7h", "Tc", "As"))])
>>> [zone.id for zone in PRESENTER.scene(view).zones]
['hand']
>>> [command.label for command in PRESENTER.commands(view) if command.enabled]
['Round 1', 'Round 2', 'Round 3']
>>> PRESENTER.command(view, "double-2")
Arrange(double=2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.presenter import Command, InputError, PresenterBase
from app.games.scene import BoardScene, Card, CardRowZone, HandZone, MarkerSpec, Zone

from .rules import (HAND, RANKS, SEATS, Arrange, Arranged, Dealt, Ended, Pick, Picked, PicksView, Shown,
                    YourArrangement, YourPick)
from tests.games.picks import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

BOARD = (len(SEATS), 1)
"""The strip: one cell per seat, in seat order (files), one rank."""


def scene_card(card: str) -> Card:
    """The scene's card of a Secret Picks card name (``"Tc"`` is the ten of clubs).

    >>> scene_card("Tc").code, scene_card("As").code, scene_card("7h").code
    ('10C', 'AS', '7H')
    """
    rank = "10" if card[0] == "T" else card[0]
    return Card(rank, card[1].upper())


def card_name(text: str) -> str:
    """The Secret Picks name of a typed card (``"10c"``, ``"tc"``, ``"Tc"`` -> ``"Tc"``); ``ValueError`` if the
    text names no card.

    >>> card_name("10H"), card_name("as")
    ('Th', 'As')
    """
    text = text.strip()
    rank, suit = text[:-1].upper(), text[-1:].lower()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANKS or suit not in "cdhs" or not suit:
        raise ValueError(text)
    return rank + suit


def round_under_way(view: PicksView) -> int:
    """The round whose picks are being made (1 to :data:`~.rules.HAND`), from what every seat is told."""
    return len(view.shown) + 1


def seat_to_act(view: PicksView) -> Seat | None:
    """The seat that must choose now, worked out from public facts only (who arranged, who picked); None once
    the game is over."""
    if view.outcome is not None:
        return None
    if len(view.arranged) < len(SEATS):
        return next(seat for seat in range(len(SEATS)) if seat not in view.arranged)
    if len(view.shown) == HAND:
        return None
    return len(view.picked.get(round_under_way(view), set()))


def _strip(view: PicksView) -> list[MarkerSpec]:
    """One marker a seat on the strip: its card once the round is shown, else whether it has picked."""
    number = round_under_way(view)
    picked = view.picked.get(number, set())
    if not picked and view.shown:  # a new round not begun: the last round's cards stay in sight
        cards = view.shown[max(view.shown)]
        return [MarkerSpec("reveal", ((seat, 0),), label=f"{name} {cards[seat]}") for seat, name in enumerate(SEATS)]
    return [MarkerSpec("sense" if seat in picked else "sense_old", ((seat, 0),),
                       label=f"{name} {'in' if seat in picked else '..'}") for seat, name in enumerate(SEATS)]


def _rows(shown: dict[int, tuple[str, ...]]) -> list[Zone]:
    """A row of face-up cards per round shown, the latest nearest the strip."""
    return [CardRowZone(id=f"round-{number}", place="above", label=f"Round {number}: A1 A2 B1 B2",
                        cards=tuple(scene_card(card) for card in shown[number])) for number in sorted(shown)]


class PicksPresenter(PresenterBase):
    """Secret Picks: a button for the secret setup, a click on a card of the hand for each pick."""

    key = DEFINITION.key
    entry_text = "Type a round (1-3) to count double, or a card of your hand (7h, Tc)"

    def scene(self, view: Any) -> BoardScene:
        zones: list[Zone] = _rows(view.shown)
        if view.seat is not None:
            zones.append(HandZone.seen_by("hand", [scene_card(card) for card in view.hand], owners={view.seat},
                                          seat=view.seat, place="below", label=f"{SEATS[view.seat]}'s hand"))
        return BoardScene(files=BOARD[0], ranks=BOARD[1], markers=_strip(view), zones=zones)

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        hands, _doubles, table = truth
        shown = {number: tuple(cards) for number, cards in enumerate(table, 1) if len(cards) == len(SEATS)}
        zones = _rows(shown)
        zones += [CardRowZone(id=f"hand-{seat}", place="below", label=f"{SEATS[seat]}'s hand",
                              cards=tuple(scene_card(card) for card in hand))
                  for seat, hand in enumerate(hands) if hand]
        markers = []
        if shown:
            last = shown[max(shown)]
            markers = [MarkerSpec("reveal", ((seat, 0),), label=f"{name} {last[seat]}")
                       for seat, name in enumerate(SEATS)]
        return BoardScene(files=BOARD[0], ranks=BOARD[1], markers=markers, zones=zones)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        if isinstance(observation, Dealt):
            return f"You are {SEATS[observation.seat]}; dealt {', '.join(observation.hand)}."
        if isinstance(observation, YourArrangement):
            return f"Your card counts double in round {observation.double}."
        if isinstance(observation, Arranged):
            return None if observation.seat == seat else f"{SEATS[observation.seat]} arranged its game."
        if isinstance(observation, YourPick):
            return f"Round {observation.round}: you picked {observation.card}."
        if isinstance(observation, Picked):
            return None if observation.seat == seat else \
                f"Round {observation.round}: {SEATS[observation.seat]} picked a card."
        if isinstance(observation, Shown):
            cards = ", ".join(f"{name} {card}" for name, card in zip(SEATS, observation.cards))
            return f"Round {observation.round} shown: {cards}."
        if isinstance(observation, Ended):
            doubles = ", ".join(f"{name} round {double}" for name, double in zip(SEATS, observation.doubles)
                                if double is not None)
            detail = observation.outcome.detail
            return f"Doubles: {doubles}. {detail[:1].upper() + detail[1:]}."
        return None

    def move_list(self, view: Any) -> list[str]:
        lines = [] if view.double is None else [f"Double in round {view.double}"]
        return lines + [f"{number}. {card}" for number, card in sorted(view.my_picks.items())]

    def _my_turn(self, view: PicksView) -> bool:
        return view.seat is not None and seat_to_act(view) == view.seat

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        if not self._my_turn(view):
            raise InputError("it is not your turn")
        if zone_id != "hand":
            raise InputError("shown cards are played: click a card of your hand")
        if view.double is None:
            raise InputError("first choose the round your card counts double (the buttons)")
        if not 0 <= index < len(view.hand):
            raise InputError("there is no such card in your hand")
        return Pick(view.hand[index])

    def on_square(self, view: Any, square: Any) -> Action:
        raise InputError("the strip only shows who has picked: click a card of your hand")

    def on_move(self, view: Any, from_square: Any, to_square: Any, promotion: str | None) -> Action:
        raise InputError("nothing moves here: click a card of your hand")

    def commands(self, view: Any) -> list[Command]:
        setting_up = self._my_turn(view) and view.double is None
        return [Command(f"double-{number}", f"Round {number}", setting_up)
                for number in range(1, HAND + 1)]

    def command(self, view: Any, command_id: str) -> Action:
        number = command_id.removeprefix("double-")
        if not number.isdigit() or not 1 <= int(number) <= HAND:
            raise InputError(f"this game has no command {command_id[:20]!r}")
        if not self._my_turn(view):
            raise InputError("it is not your turn")
        if view.double is not None:
            raise InputError("the round that counts double is chosen once, at the start")
        return Arrange(int(number))

    def parse_text(self, view: Any, text: str) -> Action:
        if text.strip().isdigit():
            return self.command(view, f"double-{text.strip()}")
        try:
            card = card_name(text)
        except ValueError:
            raise InputError(f"{text.strip()[:10]!r} is neither a round (1-{HAND}) nor a card") from None
        if card not in view.hand:
            raise InputError(f"{card} is not in your hand")
        return self.on_zone(view, "hand", view.hand.index(card))

    def prompt(self, view: Any) -> str:
        name = SEATS[view.seat] if view.seat is not None else "?"
        if view.double is None:
            return f"{name}: press the button of the round your card counts double (kept secret)"
        return f"{name}: click a card of your hand to pick it for round {round_under_way(view)}"


PRESENTER = PicksPresenter()
__all__ = ["PRESENTER", "PicksPresenter"]
