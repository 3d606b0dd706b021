"""Telepathy Chess as a person meets it: the chess board, each team's cards on the table, the predictor's hand,
the coin track, and the removal of a piece by a click.

Cards are drawn as the chess kit's playing cards (White's red, Black's black): the 2 is the pawn card, 8 the
knight, 9 the bishop, 10 the rook, Q and K the queen and the king, 6 the copy card. A card played face down is
a back for everyone but the predictor who played it, until it is flipped.

>>> from app.games.telepathy.rules import TelepathyChess, TelepathyView
>>> game = TelepathyChess()
>>> view = TelepathyView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Predict: play a card face down for the piece your partner will move'
>>> PRESENTER.parse_text(view, "knight")
Predict(card='N')
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.chess_kit import ChessPresenter, chess_targets, from_sq8, outcome_sentence, sq8
from app.games.presenter import Command, InputError
from app.games.scene import BoardScene, Card, Cell, HandZone, MarkerSpec, TrackZone, piece_words
from app.games.team_draw import (describe_draw, describe_draw_action, draw_command, draw_commands, draw_prompt,
                                 draw_text)
from app.games.telepathy.rules import (CARD_NAMES, CARDS, SEATS, TEAM_NAMES, TEAMS, Ended, Flipped, Moved,
                                       Predict, Predicted, Remove, RemovalDue, Removed, Seated, TelepathyMove,
                                       YourPrediction, legal_moves)
from app.games.telepathy import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "TelepathyPresenter", "card_face", "describe"]

_RANKS = {"P": "2", "N": "8", "B": "9", "R": "10", "Q": "Q", "K": "K", "C": "6"}
HAND_ZONE = "hand"


def card_face(card: str, team: int) -> Card:
    """The playing card standing for a Telepathy card of ``team`` (White hearts, Black spades).

    >>> card_face("N", 0).code, card_face("C", 1).code
    ('8H', '6S')
    """
    return Card(_RANKS[card], "H" if team == 0 else "S")


def _card_words(card: str) -> str:
    return "the copy card" if card == "C" else f"the {CARD_NAMES[card]} card"


def _coin_words(coin: int) -> str:
    return {-1: "on White's side", 0: "in the middle", 1: "on Black's side"}.get(coin, "past a side")


@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of ``seat``'s log, in plain words (None: not worth a line). Each kind of observation has its own
    function, registered below; what none of them words (the team draw offers) is the team kit's to word."""
    return describe_draw(observation, seat, SEATS, TEAM_NAMES, TEAMS)


@describe.register(Seated)
def _seated(o: Seated, seat: Seat) -> str | None:
    white, black = o.predictors
    return (f"You are {SEATS[o.seat]}, playing {TEAM_NAMES[o.seat // 2]}. {SEATS[white]} predicts first for "
            f"White, {SEATS[black]} for Black.")


@describe.register(YourPrediction)
def _your_prediction(o: YourPrediction, seat: Seat) -> str | None:
    return f"You played {_card_words(o.card)} face down."


@describe.register(Predicted)
def _predicted(o: Predicted, seat: Seat) -> str | None:
    return None if o.seat == seat else f"{SEATS[o.seat]} played a card face down."


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    what = f"{CARD_NAMES[o.card]}" + (f", taking the {piece_words(o.captured)}" if o.captured else "")
    return f"{SEATS[o.seat]} moved a {what}: {o.san}."


@describe.register(Flipped)
def _flipped(o: Flipped, seat: Seat) -> str | None:
    team = o.seat // 2
    if not o.result:
        return f"{SEATS[o.seat]} had predicted {_card_words(o.card)}."
    predicted = CARD_NAMES[o.face_up if o.card == "C" else o.card]
    head = f"{SEATS[o.seat]} predicted {predicted}" + (" (the copy card)" if o.card == "C" else "")
    if o.result == "down":
        tail = f"matched: coin toward {TEAM_NAMES[1 - team]}"
    elif o.result == "up":
        tail = f"matched the face-up {CARD_NAMES[o.face_up]}: coin stays"
    else:
        tail = f"no match: coin toward {TEAM_NAMES[team]}"
    return f"{head}; {tail} (now {_coin_words(o.coin)})."


@describe.register(RemovalDue)
def _removal_due(o: RemovalDue, seat: Seat) -> str | None:
    if o.nothing:
        return f"The coin went past {TEAM_NAMES[o.team]}'s side, but {TEAM_NAMES[o.team]} has only its king."
    who = "you" if o.seat == seat else SEATS[o.seat]
    side = TEAM_NAMES[o.team]
    return f"The coin went past {side}'s side: {who} must remove a {side.lower()} piece."


@describe.register(Removed)
def _removed(o: Removed, seat: Seat) -> str | None:
    return f"{SEATS[o.seat]} removed the {piece_words(o.piece)} on {o.square}; the coin is back in the middle."


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat, TEAMS)


class TelepathyPresenter(ChessPresenter):
    """Predict by a click on a card of the hand, move on the board, remove by a click on one's own piece."""

    key = DEFINITION.key
    entry_text = "Type a card (N, copy), a move (Nf3) or a square to remove (b1)"

    def move_action(self, move: chess.Move) -> Action:
        return TelepathyMove(move.uci())

    # -- drawing ------------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        board: chess.Board = view.board
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})
        if view.last_moved is not None:
            move = chess.Move.from_uci(view.last_moved.uci)
            scene.last_move = (sq8(move.from_square), sq8(move.to_square))
        if view.my_turn and view.phase == "move":
            scene.targets = chess_targets(view.legal_moves())
        if view.my_turn and view.phase == "remove":
            removable = self._removable(view)
            scene.markers.append(MarkerSpec("lost", tuple(removable), opacity=0.6))
            scene.sense_window = lambda square: [square] if square in removable else []
        seat = view.seat if view.seat is not None else 0
        own = seat // 2
        for team in (1 - own, own):
            predictor = view.predictors[team]
            cards: tuple[Card | None, ...] = (card_face(view.face_up[team], team),)
            private: frozenset[int] = frozenset()
            if view.predicted and view.team == team and view.outcome is None:
                mine = view.my_prediction if predictor == seat else None
                cards += (card_face(mine, team) if mine else None,)  # a back for everyone but its predictor
                private = frozenset({seat}) if mine else frozenset()
            words = "face up, face down" if len(cards) == 2 else "face up"
            scene.zones.append(HandZone(id=f"table-{team}", place="below" if team == own else "above",
                                        label=f"{TEAM_NAMES[team]} ({words}): {SEATS[predictor]} predicts, "
                                              f"{SEATS[predictor ^ 1]} moves",
                                        cards=cards, private_to=private))
        # The hand's band is always there, empty while the seat holds no cards (it moves, or the game is over):
        # the board keeps its size and place from one phase to the next, so no click lands where it did not aim.
        hand = view.hand() if view.outcome is None else None
        if hand is not None:
            label = "Your cards: 2 pawn, 8 knight, 9 bishop, 10 rook, Q, K, 6 copy"
        elif view.outcome is None:
            label = f"Your cards: none, {SEATS[view.predictors[own]]} holds them this turn"
        else:
            label = "Your cards: none, the game is over"
        scene.zones.append(HandZone(id=HAND_ZONE, place="below", label=label,
                                    cards=tuple(card_face(card, own) for card in hand or ()),
                                    private_to=frozenset({seat})))
        # The track stands beside the board, top to bottom as the seat sees the sides: the opponents' at the top.
        positions = ("B", "0", "W") if own == 0 else ("W", "0", "B")
        marker = 1 - view.coin if own == 0 else view.coin + 1
        scene.zones.append(TrackZone(id="coin", place="right", label="Coin", positions=positions, marker=marker))
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While others act: the seat's board with the moves its side would have now, when the seat's own next
        action is its team's next chess move (its partner predicting it, or the opponents' turn before the seat
        moves). A predictor or remover queues nothing: a card or a removal is no move."""
        if view.seat is None or view.outcome is not None or view.my_turn:
            return None
        if self._next_mover(view) != view.seat:
            return None
        own = chess.WHITE if view.seat < 2 else chess.BLACK
        board = view.board.copy(stack=False)
        if board.turn != own:
            board.turn, board.ep_square = own, None  # as if the opponents' move were made: its en passant is gone
        scene = self.scene(view)
        scene.targets = chess_targets(legal_moves(board))
        return scene

    @staticmethod
    def _next_mover(view: Any) -> Seat | None:
        """The seat that makes its team's next chess move (roles swap after each flip, so after the opponents'
        turn the mover is the partner of the predictor named now)."""
        own = view.seat // 2
        if view.team == own and view.phase == "move":
            return None  # the partner is moving now; the seat's next move is two turns away
        return int(view.predictors[own]) ^ 1

    def _removable(self, view: Any) -> set[Cell]:
        colour = chess.WHITE if view.seat < 2 else chess.BLACK
        return {sq8(square) for square, piece in view.board.piece_map().items()
                if piece.color == colour and piece.piece_type != chess.KING}

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        return super().truth_scene(getattr(truth, "board", truth), last_move)

    # -- words --------------------------------------------------------------------------------------------------
    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, Moved):
            ours = o.seat // 2 == seat // 2
            cue = ("capture" if ours else "captured") if o.captured else "move"
            return (cue, "check") if o.san.endswith(("+", "#")) else (cue,)
        if isinstance(o, (YourPrediction, Flipped)) or (isinstance(o, Predicted) and o.seat != seat):
            return ("card",)
        if isinstance(o, Removed):
            return ("captured",) if o.seat // 2 == seat // 2 else ("capture",)
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Telepathy's actions in words (cards by name).

        >>> PRESENTER.describe_action({"type": "predict", "card": "C"})
        'predict the copy card, face down'
        """
        if action.get("type") == "predict" and action.get("card") in CARD_NAMES:
            return f"predict {_card_words(str(action['card']))}, face down"
        if action.get("type") == "remove" and isinstance(action.get("square"), str):
            return f"remove the piece on {action['square']}"
        return describe_draw_action(action) or super().describe_action(action)

    def move_list(self, view: Any) -> list[str]:
        lines: list[str] = []
        for index, (moved, flipped) in enumerate(view.history):
            sign = {"down": "+", "up": "=", "none": "-", "": ""}[flipped.result]
            text = f"{moved.san} [{flipped.card}{sign}]"
            if moved.seat < 2:
                lines.append(f"{len(lines) + 1}. {text}")
            elif lines:
                lines[-1] += f"  {text}"
            else:
                lines.append(f"1. …  {text}")
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None or not view.my_turn:
            return "Your move"
        asked = draw_prompt(view, SEATS, TEAM_NAMES)
        if asked is not None:
            return asked
        if view.phase == "predict":
            return "Predict: play a card face down for the piece your partner will move"
        if view.phase == "remove":
            return "Remove one of your team's pieces (not the king): click it"
        return f"Your move: your partner has predicted it, face down (face up: {CARD_NAMES[view.face_up[view.team]]})"

    def entry_hint(self, view: Any) -> str:
        if view.my_turn and view.phase in ("agree_draw", "answer_draw"):
            return "Type accept or decline"
        return self.entry_text

    # -- input --------------------------------------------------------------------------------------------------
    def commands(self, view: Any) -> list[Command]:
        """Offer draw (the partner must agree, then both opponents accept), or the answers when asked."""
        return draw_commands(view, view.can_offer_draw())

    def command(self, view: Any, command_id: str) -> Action:
        action = draw_command(view, command_id, view.can_offer_draw())
        if action is None:
            raise InputError(f"this game has no command {command_id[:20]!r} now")
        return action

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        hand = view.hand()
        if zone_id != HAND_ZONE or hand is None or view.phase != "predict" or not view.my_turn:
            raise InputError("no card can be played now")
        if not 0 <= index < len(hand):
            raise InputError("there is no such card")
        return Predict(hand[index])

    def on_square(self, view: Any, square: Cell) -> Action:
        if view.phase != "remove" or not view.my_turn:
            raise InputError("there is nothing to pick now")
        if square not in self._removable(view):
            raise InputError("pick one of your team's pieces other than the king")
        return Remove(chess.square_name(from_sq8(square)))

    def parse_text(self, view: Any, text: str) -> Action:
        cleaned = text.strip()
        draw = draw_text(view, cleaned, view.can_offer_draw())
        if draw is not None:
            return draw
        if view.phase == "predict" and view.my_turn:
            word = cleaned.lower()
            names = {name: card for card, name in CARD_NAMES.items()}
            card = names.get(word) or (word.upper() if word.upper() in CARDS else None)
            hand = view.hand() or ()
            if card is None:
                raise InputError("type a card: P, N, B, R, Q, K or C (copy)")
            if card not in hand:
                raise InputError(f"{_card_words(card)} is face up, not in your hand")
            return Predict(card)
        if view.phase == "remove" and view.my_turn:
            try:
                square = chess.parse_square(cleaned.lower())
            except ValueError:
                raise InputError("type the square of the piece to remove, such as b1") from None
            return self.on_square(view, sq8(square))
        return super().parse_text(view, text)


PRESENTER = TelepathyPresenter()
