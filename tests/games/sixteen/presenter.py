"""Sixteen as a person meets it: the hand of face-up cards below the board, the draw pile with its count to the
right, and the placed cards on the board as marked cells labelled with the card (the board draws chess pieces
only, so a card on a cell is a marker with its name). A turn is two clicks: a card of the hand (it is raised),
then an empty cell. Typing a card's name or a cell's does the same.

>>> view = SixteenView(hand=["2S", "KH", "10D"], pile=49)
>>> [zone.id for zone in PRESENTER.scene(view).zones]
['hand', 'pile']
>>> PRESENTER.on_zone(view, "hand", 1)
Take(card='KH')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.presenter import InputError, PresenterBase
from app.games.scene import BoardScene, Card, Cell, HandZone, MarkerSpec, PileZone

from .rules import CELLS, SIZE, Dealt, Ended, Place, Placed, SixteenView, Take, Taken, cell_name, cell_number
from tests.games.sixteen import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat


def cell(number: int) -> Cell:
    """The scene's (file, rank) of a cell number."""
    return number % SIZE, number // SIZE


def _markers(board: list[str | None] | tuple[str | None, ...]) -> list[MarkerSpec]:
    """One labelled marker per placed card: red suits as "reveal", black suits as "sense"."""
    return [MarkerSpec("reveal" if card[-1] in "HD" else "sense", (cell(number),), label=card)
            for number, card in enumerate(board) if card is not None]


def _scene(board: Any, hand: list[str], pile: int, seat: int | None, selected: tuple[int, ...] = ()) -> BoardScene:
    return BoardScene(files=SIZE, ranks=SIZE, markers=_markers(board), zones=[
        HandZone.seen_by("hand", [Card.parse(card) for card in hand], owners={0}, seat=seat, place="below",
                         label="Hand", selected=selected),
        PileZone(id="pile", place="right", label="Draw", count=pile),
    ])


class SixteenPresenter(PresenterBase):
    """Sixteen: take a card from the hand (a zone click), then place it (a cell pick)."""

    key = DEFINITION.key
    entry_text = "Type a card of your hand (QS), then a cell (b2)"

    def scene(self, view: Any) -> BoardScene:
        selected = (view.hand.index(view.taken),) if view.taken in view.hand else ()
        scene = _scene(view.board, view.hand, view.pile, 0, selected)
        if view.placed:
            last = cell(view.placed[-1].cell)
            scene.last_move = (last, last)
        if view.my_turn and view.taken is not None:
            scene.sense_window = lambda square: [square]
        return scene

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        board, hand, pile, _taken = truth
        return _scene(list(board), list(hand), len(pile), 0)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        if isinstance(observation, Dealt):
            return f"Dealt {', '.join(observation.hand)}; {observation.pile} cards in the pile."
        if isinstance(observation, Taken):
            return f"Took {observation.card}."
        if isinstance(observation, Placed):
            drawn = f", drew {observation.drawn}" if observation.drawn else ""
            return f"{observation.card} to {cell_name(observation.cell)}{drawn} ({observation.score} points)."
        if isinstance(observation, Ended):
            return observation.outcome.detail[:1].upper() + observation.outcome.detail[1:] + "."
        return None

    def move_list(self, view: Any) -> list[str]:
        return [f"{number}. {placed.card} {cell_name(placed.cell)}" for number, placed in enumerate(view.placed, 1)]

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        if not view.my_turn:
            raise InputError("the game is over")
        if zone_id != "hand":
            raise InputError("the pile deals by itself: click a card of your hand")
        if view.taken is not None:
            raise InputError(f"place the {view.taken} you took on an empty cell first")
        if not 0 <= index < len(view.hand):
            raise InputError("there is no such card in your hand")
        return Take(view.hand[index])

    def on_square(self, view: Any, square: Cell) -> Action:
        if not view.my_turn:
            raise InputError("the game is over")
        if view.taken is None:
            raise InputError("first click a card of your hand")
        file, rank = square
        if not (0 <= file < SIZE and 0 <= rank < SIZE):
            raise InputError("that is not a cell of the board")
        number = file + SIZE * rank
        if view.board[number] is not None:
            raise InputError(f"{cell_name(number)} already holds {view.board[number]}")
        return Place(view.taken, number)

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        raise InputError("placed cards stay put: click a card of your hand, then an empty cell")

    def parse_text(self, view: Any, text: str) -> Action:
        try:
            number = cell_number(text)
        except ValueError:
            pass
        else:
            return self.on_square(view, cell(number))
        try:
            code = Card.parse(text).code
        except ValueError:
            raise InputError(f"{text.strip()[:10]!r} is neither a card of your hand nor a cell") from None
        if code not in view.hand:
            raise InputError(f"{code} is not in your hand")
        return self.on_zone(view, "hand", view.hand.index(code))

    def prompt(self, view: Any) -> str:
        left = CELLS - len(view.placed)
        step = "Click a card of your hand" if view.taken is None else f"Click an empty cell for the {view.taken}"
        return f"{step} ({left} cells left, {view.points} points)"


PRESENTER = SixteenPresenter()
__all__ = ["PRESENTER", "SixteenPresenter", "SixteenView"]
