"""Booster Chess as a person meets it: the chess board with the checkers stacked under the pieces (light discs
White's, dark discs Black's, each stack with its count), the seat's own hand below the board (private to it, so
it is hidden behind the curtain), the opponent's hand above as card backs, and the draw and discard piles to the
right.

A turn, by clicks: move a piece as in chess; when the moved piece may take booster steps, the squares it may
step to are marked: click one (or drag the piece), as often as its checkers allow, or press **Done stepping**;
then click a card of the hand (it rises and the pieces it may go under are marked) and click one of those pieces,
or press **Play no card**. Typing works too: a move (``e2e4``), a step (``f3f4``), a card and a square
(``9D f8``), ``done``.

The card the seat has chosen but not yet played is a private mark of the seat (:meth:`BoosterPresenter.bound`):
kept with the seat's notes, never told to the referee or a bot.

>>> from app.games.booster.rules import BoosterChess, BoosterView
>>> game = BoosterChess(seed=4)
>>> view = BoosterView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Your move'
>>> [zone.id for zone in PRESENTER.scene(view).zones]
['hand-1', 'hand-0', 'draw', 'discard', 'white-checkers', 'black-checkers']
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.booster import DEFINITION
from app.games.booster.moves import legal_moves
from app.games.booster.rules import (SEATS, BoosterMove, CardPlayed, Dealt, Done, Ended, Moved, Passed, PlayCard,
                                     Step, Stepped, TurnOver)
from app.games.chess_kit import ChessPresenter, chess_targets, from_sq8, outcome_sentence, sq8
from app.games.kit_cards import card_words, read_card
from app.games.presenter import Command, InputError, MarksChange
from app.games.scene import BoardScene, Card, Cell, HandZone, MarkerSpec, PileZone, StackZone, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "BoosterPresenter", "describe"]

WHITE_DISCS, BLACK_DISCS = "#efe3c2", "#4b3a2c"
DONE, NO_CARD = "done", "no-card"


def _hand_id(seat: Seat) -> str:
    return f"hand-{seat}"


def _card(code: str) -> Card:
    return Card.parse(code)


def _stack_zones(stacks: Mapping[int, int]) -> list[StackZone]:
    return [StackZone(id="white-checkers", label="White's checkers", colour=WHITE_DISCS,
                      stacks=tuple((sq8(square), count) for square, count in sorted(stacks.items()) if count > 0)),
            StackZone(id="black-checkers", label="Black's checkers", colour=BLACK_DISCS,
                      stacks=tuple((sq8(square), -count) for square, count in sorted(stacks.items()) if count < 0))]


# ---- the log ----------------------------------------------------------------------------------------------------

@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of ``seat``'s log (None: not worth a line); one registered function per observation class."""
    return None


@describe.register(Dealt)
def _dealt(o: Dealt, seat: Seat) -> str | None:
    cards = ", ".join(card_words(card) for card in o.hand)
    return f"You play {SEATS[o.seat]}. Your hand: {cards}. {o.draw_pile} cards in the draw pile."


def _result(captured: str, home: int) -> str:
    words = f", taking the {piece_words(captured)}" if captured else ""
    if home:
        words += f"; {home} hobble checker{'s' if home > 1 else ''} went home from the far rank"
    return words


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    return f"{SEATS[o.seat]}: {o.text}{_result(o.captured, o.home)}."


@describe.register(Stepped)
def _stepped(o: Stepped, seat: Seat) -> str | None:
    return f"{SEATS[o.seat]} spends a checker: booster step {o.text}{_result(o.captured, o.home)}."


@describe.register(Passed)
def _passed(o: Passed, seat: Seat) -> str | None:
    who = "You" if o.seat == seat else SEATS[o.seat]
    return f"{who} took no more booster steps." if o.part == "boost" else f"{who} played no card."


@describe.register(CardPlayed)
def _card_played(o: CardPlayed, seat: Seat) -> str | None:
    return f"{SEATS[o.seat]} played the {card_words(o.card)}: a {SEATS[o.seat].lower()} checker onto {o.square}."


@describe.register(TurnOver)
def _turn_over(o: TurnOver, seat: Seat) -> str | None:
    words = ["The discards were shuffled into a new draw pile."] if o.reshuffled else []
    if o.drawn and o.seat == seat:
        words.append(f"You drew {', '.join(card_words(card) for card in o.cards)}.")
    elif o.drawn:
        words.append(f"{SEATS[o.seat]} drew {o.drawn} card{'s' if o.drawn > 1 else ''}.")
    if o.check:
        words.append("You are in check." if o.seat != seat else f"{SEATS[1 - o.seat]} is in check.")
    return " ".join(words) or None


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat)


# ---- the presenter ---------------------------------------------------------------------------------------------

class BoosterPresenter(ChessPresenter):
    """Booster Chess for one seat; ``card`` is the card the seat has chosen and not yet played (its mark)."""

    key = DEFINITION.key
    entry_text = "Type a move (e2e4), a step (f3f4), a card and a piece (9D f8), or done"

    def __init__(self, card: str | None = None) -> None:
        self.card = card

    def bound(self, marks: dict[str, Any] | None) -> BoosterPresenter:
        card = (marks or {}).get("card")
        return BoosterPresenter(card if isinstance(card, str) else None)

    def _chosen(self, view: Any) -> str | None:
        """The chosen card while it can still be played now."""
        if self.card in view.hand and view.my_turn and view.phase == "card":
            return self.card
        return None

    def move_action(self, move: chess.Move) -> Action:
        return BoosterMove(move.uci())

    # -- drawing ------------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        board: chess.Board = view.board
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})
        if view.last_move is not None:
            scene.last_move = (sq8(view.last_move[0]), sq8(view.last_move[1]))
        seat = view.seat if view.seat is not None else 0
        chosen = self._chosen(view)
        if view.my_turn and view.phase == "move":
            scene.targets = chess_targets(view.legal_moves())
        elif view.my_turn and view.phase == "boost":
            steps = view.legal_steps()
            scene.targets = chess_targets(steps)
            squares = tuple(dict.fromkeys(sq8(step.to_square) for step in steps))
            scene.markers.append(MarkerSpec("sense", squares, label="step", opacity=0.5))
            scene.sense_window = lambda square: [square] if square in squares else []
            scene.pick_word = "step"
        elif chosen is not None:
            squares = tuple(sq8(square) for square in view.card_squares(chosen))
            scene.markers.append(MarkerSpec("sense", squares, label="checker", opacity=0.5))
            scene.sense_window = lambda square: [square] if square in squares else []
            scene.pick_word = "put a checker on"
        other = 1 - seat
        scene.zones.append(HandZone(id=_hand_id(other), place="above",
                                    label=f"{SEATS[other]}'s hand: {view.hand_sizes[other]} cards, "
                                          f"{view.supply(other)} checkers in front",
                                    cards=(None,) * view.hand_sizes[other]))
        selected = (view.hand.index(chosen),) if chosen is not None else ()
        scene.zones.append(HandZone(id=_hand_id(seat), place="below",
                                    label=f"Your hand ({SEATS[seat]}): {view.supply(seat)} checkers in front",
                                    cards=tuple(_card(card) for card in view.hand), selected=selected,
                                    private_to=frozenset({seat})))
        scene.zones.append(PileZone(id="draw", place="right", label="Draw", count=view.draw_pile))
        scene.zones.append(PileZone(id="discard", place="right", label="Used", count=len(view.discard),
                                    top=_card(view.discard[-1]) if view.discard else None))
        scene.zones.extend(_stack_zones(view.stacks))
        return scene

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        scene = super().truth_scene(truth.board, last_move)
        for seat, place in ((1, "above"), (0, "below")):
            scene.zones.append(HandZone(id=_hand_id(seat), place=place, label=f"{SEATS[seat]}'s hand",
                                        cards=tuple(_card(card) for card in truth.hands[seat])))
        scene.zones.append(PileZone(id="draw", place="right", label="Draw", count=len(truth.draw_pile)))
        scene.zones.append(PileZone(id="discard", place="right", label="Used", count=len(truth.discard),
                                    top=_card(truth.discard[-1]) if truth.discard else None))
        scene.zones.extend(_stack_zones(truth.stacks))
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While the opponent acts: the seat's board with the normal moves it would have if its turn began now."""
        if view.seat is None or view.outcome is not None or view.my_turn:
            return None
        board = view.board.copy(stack=False)
        board.turn, board.ep_square = view.colour, None
        scene = self.scene(view)
        scene.targets = chess_targets(legal_moves(board, view.stacks))
        return scene

    # -- words --------------------------------------------------------------------------------------------------
    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, (Moved, Stepped)):
            if o.captured:
                return ("capture",) if o.seat == seat else ("captured",)
            return ("move",)
        if isinstance(o, TurnOver) and (o.drawn or o.check):
            return ("card",) * bool(o.drawn) + ("check",) * o.check
        if isinstance(o, CardPlayed):
            return ("card",)
        return super().sounds(observation, seat)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Booster's actions in words.

        >>> PRESENTER.describe_action({"type": "card", "card": "9D", "square": "c1"})
        'play the white bishop (9♦): a checker onto c1'
        >>> PRESENTER.describe_action({"type": "done"})
        'done (no more steps, or no card)'
        """
        kind = action.get("type")
        if kind == "card":
            try:
                return f"play the {card_words(read_card(str(action.get('card'))))}: a checker onto {action.get('square')}"
            except ValueError:
                pass
        if kind == "done":
            return "done (no more steps, or no card)"
        if kind == "step" and isinstance(action.get("uci"), str):
            return "booster step " + super().describe_action({"type": "move", "move": action["uci"]})[5:]
        if kind == "move" and isinstance(action.get("uci"), str):
            return super().describe_action({"type": "move", "move": action["uci"]})
        return super().describe_action(action)

    def move_list(self, view: Any) -> list[str]:
        lines: list[str] = []
        for seat, words in view.history:
            text = " ".join(words)
            if seat == 0 or not lines:
                lines.append(f"{len(lines) + 1}. {text}" if seat == 0 else f"1. …  {text}")
            else:
                lines[-1] += f"  {text}"
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None or not view.my_turn or view.phase == "move":
            return "Your move"
        if view.phase == "boost":
            return "Booster steps: click a marked square, or Done stepping"
        if self._chosen(view) is not None:
            return f"Click a marked piece for the {card_words(self.card or '')}, or another card"
        return "Play a card: click it, then a marked piece (or Play no card)"

    # -- input --------------------------------------------------------------------------------------------------
    def commands(self, view: Any) -> list[Command]:
        if view.outcome is not None:
            return []
        mine = view.my_turn
        if view.phase == "boost":
            return [Command(DONE, "Done stepping", mine)]
        if view.phase == "card":
            return [Command(NO_CARD, "Play no card", mine)]
        return []

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        if command_id in (DONE, NO_CARD) and view.my_turn and view.phase in ("boost", "card"):
            return Done()
        raise InputError(f"this game has no command {command_id[:20]!r} now")

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        move = chess.Move(from_sq8(from_square), from_sq8(to_square),
                          chess.PIECE_SYMBOLS.index(promotion) if promotion else None)
        if view.phase == "boost" and view.my_turn:
            if view.moved != move.from_square:
                raise InputError("only the piece just moved may take booster steps")
            return Step(move.uci())
        if view.phase == "card" and view.my_turn:
            raise InputError("the move is made: play a card or Play no card")
        return BoosterMove(move.uci())

    def on_square(self, view: Any, square: Cell) -> Action | MarksChange:
        if not view.my_turn:
            raise InputError("it is not your turn")
        if view.phase == "boost":
            steps = [step for step in view.legal_steps() if sq8(step.to_square) == square]
            if not steps:
                raise InputError("the moved piece cannot step there")
            queen = [step for step in steps if step.promotion in (None, chess.QUEEN)]
            return Step((queen or steps)[0].uci())
        chosen = self._chosen(view)
        if view.phase == "card" and chosen is not None:
            if from_sq8(square) not in view.card_squares(chosen):
                raise InputError(f"the {card_words(chosen)} cannot put a checker there")
            return PlayCard(chosen, chess.square_name(from_sq8(square)))
        raise InputError("first click a card of your hand")

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action | MarksChange:
        if zone_id != _hand_id(view.seat if view.seat is not None else 0):
            raise InputError("click a card of your own hand")
        if not view.my_turn or view.phase != "card":
            raise InputError("a card is played after the move (and its booster steps)")
        if not 0 <= index < len(view.hand):
            raise InputError("there is no such card")
        card = view.hand[index]
        if not view.card_squares(card):
            raise InputError(f"the {card_words(card)} has no piece it may go under now")
        return MarksChange({"card": None if card == self.card else card})

    def parse_text(self, view: Any, text: str) -> Action:
        words = text.replace("@", " ").split()
        if [word.lower() for word in words] in (["done"], ["pass"], ["no", "card"]):
            return self.command(view, DONE)  # type: ignore[return-value]  # Done is an action
        if len(words) == 2 and view.phase == "card":
            try:
                card = read_card(words[0])
                square = chess.parse_square(words[1].lower())
            except ValueError:
                raise InputError("type a card and a square, such as 9D f8") from None
            if card not in view.hand:
                raise InputError(f"the {card_words(card)} is not in your hand")
            return PlayCard(card, chess.square_name(square))
        return super().parse_text(view, text)


PRESENTER = BoosterPresenter()
