"""Cooperative Chess 2 as a person meets it: the chess board, the draw pile with the face-up line of cards beside
it and the discard pile after it, each hand (the seat's own faces, the partner's backs), and the running score.

Cards are the chess kit's playing cards (red for White's pieces, black for Black's: 2-5 pawns, 8 knights, 9
bishops, 10 rooks, Q queens, K kings). In the line, the cards that stand beside a card a capture may take now
are raised, and the squares such captures land on are marked on the board. A card is played by a click on it; a
move is made on the board. A promotion asks the type on the board, then the place of the new card in the line:
a click on one of the numbered gaps shown under the line (gap 1 is next to the draw pile).

Partners talk by questions put together from phrases: *Ask about a card* offers one card of each kind a hand can
hold (a click asks "Do you hold a ... card?"), *Ask about a capture* turns a click on a square into "Could you
capture on ... next turn?" (the question being built is a private mark of the seat). Typed, the same are
``ask N`` (lower case for Black) and ``ask capture f7``, and ``ask`` and any words asks anything else; the partner
answers with the Yes and No buttons at the start of its turn.

>>> from app.games.coop.rules import CoopChess, CoopView
>>> game = CoopChess(seed=2)
>>> view = CoopView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Play a card from your hand to the line (click it)'
>>> [zone.id for zone in PRESENTER.scene(view).zones]
['partner', 'pile', 'line', 'discard', 'hand', 'captured', 'score']
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.chess_kit import chess_targets, from_sq8, sq8
from app.games.coop import DEFINITION
from app.games.coop.rules import (GREAT_SCORE, WIN_SCORE, Answer, Answered, Ask, Asked, CoopMove, CoopView,
                                  Dealt, Drew, Ended, EndTurn, Moved, PlayCard, Played, Turn, Turned,
                                  capture_cards, captured_piece, chess_moves, pawn_cards, promotion_cards,
                                  question_words)
from app.games.kit_cards import card_face, card_piece, card_words
from app.games.presenter import Command, InputError, MarksChange, PresenterBase
from app.games.scene import BoardScene, Card, CardRowZone, Cell, HandZone, MarkerSpec, PileZone, TrackZone, TrayZone, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "CoopPresenter", "describe"]

COLOURS = ("White", "Black")
SCORE_MARKS = ("0", "8", "16", "24", "32", "40", "50", "51+")
"""The score track's positions: the marker stands on the highest one reached (32 wins, over 50 is great)."""
PENDING = "promote"
ASKING = "ask"
ASKING_TURN = "ask-turn"
ASK_TOPICS = ("hold", "capture")
ASK_CARDS = ("2H", "8H", "9H", "10H", "QH", "2S", "8S", "9S", "10S", "QS")
"""One card of each kind a hand can hold (king cards go to the line), offered when a question about a card is
put together: White's pawn, knight, bishop, rook, queen, then Black's."""
"""The seat's private mark holding a promotion whose place in the line is still to be chosen (its UCI)."""


def _card(code: str) -> str:
    return card_words(code)


# ---- the log ------------------------------------------------------------------------------------------------------

@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of ``seat``'s log (None: not worth a line); one registered function per observation class."""
    return None


@describe.register(Dealt)
def _dealt(o: Dealt, seat: Seat) -> str | None:
    kings = f" The line holds {', '.join(map(_card, o.line))}." if o.line else ""
    if o.solitaire:
        return f"You play both colours. {o.pile} cards in the draw pile.{kings}"
    return (f"You play {COLOURS[o.seat]}, with {COLOURS[1 - o.seat]} as your partner. Your hand: "
            f"{', '.join(map(_card, o.hand)) or 'empty'}.{kings}")


@describe.register(Turn)
def _turn(o: Turn, seat: Seat) -> str | None:
    return None


@describe.register(Turned)
def _turned(o: Turned, seat: Seat) -> str | None:
    return f"Turned onto the line: {', '.join(map(_card, o.cards))} ({o.pile} left in the pile)."


@describe.register(Played)
def _played(o: Played, seat: Seat) -> str | None:
    who = "You" if o.seat == seat else COLOURS[o.seat]
    return f"{who} played the {_card(o.card)} to the line."


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    side = COLOURS[0 if o.colour else 1]
    text = f"{side}: {o.san}"
    if o.captured:
        text += f", taking the {piece_words(o.captured)} (its card {_card(o.card)} to the discard pile)"
    if o.promoted_card:
        text += (f"; the {_card(o.pawn_card)} went to the discard pile and the {_card(o.promoted_card)} into the "
                 f"line at place {o.place + 1}")
    return text + f". Score {o.score}."


@describe.register(Drew)
def _drew(o: Drew, seat: Seat) -> str | None:
    who = "You" if o.seat == seat else COLOURS[o.seat]
    cards = [card for card in o.cards if card]
    if o.seat == seat:
        what = f"drew {', '.join(map(_card, cards))}" if cards else "drew nothing"
    else:
        what = f"drew {len(o.cards)} card{'s' if len(o.cards) != 1 else ''}"
    kings = f"; king cards to the line: {', '.join(map(_card, o.kings))}" if o.kings else ""
    return f"{who} ended the turn and {what}{kings} ({o.pile} left in the pile)."


@describe.register(Asked)
def _asked(o: Asked, seat: Seat) -> str | None:
    return f"{'You' if o.seat == seat else COLOURS[o.seat]} asked: {o.words}"


@describe.register(Answered)
def _answered(o: Answered, seat: Seat) -> str | None:
    return f"{'You' if o.seat == seat else COLOURS[o.seat]} answered {'Yes' if o.yes else 'No'} to: {o.words}"


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    outcome = o.outcome
    result = "won" if outcome.team is not None else "lost"
    who = "the team" if seat < 0 else "you" if outcome.winner is not None else "your team"
    return f"Game over: {who} {result} ({outcome.detail})."


# ---- the presenter -------------------------------------------------------------------------------------------------

class CoopPresenter(PresenterBase):
    """Play a card by a click, move on the board, answer with a button; a promotion's place by a click."""

    key = DEFINITION.key
    entry_text = "Type a card (9S), a move (Nf3), 'ask N', 'ask capture f7' or 'ask' and a question"

    def __init__(self, key: str = DEFINITION.key, pending: str = "", asking: str = "", asking_turn: int = 0) -> None:
        self.key = key
        self.pending = pending
        self.asking = asking if asking in ASK_TOPICS else ""
        """The question being put together (a private mark): "hold" (pick a card kind) or "capture" (a square),
        in turn ``asking_turn`` (a mark left from an earlier turn means nothing)."""
        self.asking_turn = asking_turn

    def bound(self, marks: dict[str, Any] | None) -> CoopPresenter:
        pending = marks.get(PENDING, "") if isinstance(marks, dict) else ""
        asking = marks.get(ASKING, "") if isinstance(marks, dict) else ""
        turn = marks.get(ASKING_TURN, 0) if isinstance(marks, dict) else 0
        return CoopPresenter(self.key, pending if isinstance(pending, str) else "",
                             asking if isinstance(asking, str) else "", turn if isinstance(turn, int) else 0)

    # -- drawing ----------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in view.board.piece_map().items()})
        if view.last_move is not None:
            move = chess.Move.from_uci(view.last_move.uci)
            scene.last_move = (sq8(move.from_square), sq8(move.to_square))
        options = view.options()
        pending = self._pending(view)
        asking = self._asking(view)
        if asking == "capture":  # a square to ask about: a pick, not a move
            scene.sense_window = lambda cell: [cell]
            scene.pick_word = "question"
        elif options and pending is None:
            scene.targets = chess_targets([option.move for option in options])
            landing = sorted({sq8(option.move.to_square) for option in options
                              if captured_piece(view.board, option.move) is not None})
            if landing:
                scene.markers.append(MarkerSpec("reveal", tuple(landing), label="x", opacity=0.7))
        if pending is not None:
            scene.markers.append(MarkerSpec("premove", (sq8(pending.move.from_square), sq8(pending.move.to_square))))
        seat = view.seat if view.seat is not None else 0
        scene.zones.extend(self._zones(view, seat, view.line, view.hand, view.hand_counts, view.pile, view.discard,
                                       raised=_capture_cards_now(view), pending=pending))
        if view.my_turn and view.phase == "card" and view.hand:
            scene.queue_zones = frozenset({"hand"})  # a card queued ahead is played now
        if asking == "hold":
            scene.zones.append(CardRowZone(id="ask", place="below", label="Ask your partner: do you hold a card of "
                                           "this kind? Click one", cards=tuple(map(Card.parse, ASK_CARDS))))
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While the partner (a bot) plays its turn: the seat's board as its own turn will begin, with a card of
        its hand to queue (played first at the turn's start) and every chess move of its colour to queue after it
        (a capture needs the line's cards then, so whether it stands is known only once the card is played)."""
        if view.seat is None or view.solitaire or view.outcome is not None or view.my_turn:
            return None
        colour = chess.WHITE if view.seat == 0 else chess.BLACK
        board = view.board.copy(stack=False)
        board.turn, board.ep_square = colour, None
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})
        if view.last_move is not None:
            move = chess.Move.from_uci(view.last_move.uci)
            scene.last_move = (sq8(move.from_square), sq8(move.to_square))
        scene.targets = chess_targets(chess_moves(board))
        scene.zones.extend(self._zones(view, view.seat, view.line, view.hand, view.hand_counts, view.pile,
                                       view.discard, raised=set(), pending=None))
        if view.hand:
            scene.queue_zones = frozenset({"hand"})
        return scene

    def _zones(self, view: Any, seat: Seat, line: list[str], hand: list[str], counts: list[int], pile: int,
               discard: list[str], raised: set[str], pending: CoopMove | None, truth: bool = False) -> list[Any]:
        zones: list[Any] = []
        solitaire = view is not None and view.solitaire
        if not solitaire:
            partner = 1 - seat
            zones.append(HandZone(id="partner", place="above", label=f"{COLOURS[partner]}'s hand (your partner)",
                                  cards=(None,) * counts[partner], private_to=frozenset({partner})))
        zones.append(PileZone(id="pile", place="below", label="Draw", count=pile))
        label = "Line (raised: a capture)" if raised else "Line"
        if pending is not None:  # the line as it will be once the pawn's card (and a captured card) have left
            leaving = {pending.card, _pawn_card(line, pending, view.board.turn)}
            label = f"Line − {' '.join(card_face(code) for code in line if code in leaving)}"
            line = [code for code in line if code not in leaving]
        cards = tuple(Card.parse(code) for code in line)
        zones.append(HandZone(id="line", place="below", beside=True, label=label,
                              cards=cards, selected=tuple(i for i, code in enumerate(line) if code in raised)))
        zones.append(PileZone(id="discard", place="below", beside=True, label="Discard",
                              count=len(discard), top=Card.parse(discard[-1]) if discard else None))
        if pending is not None:
            if len(line) <= 3:
                where = ", ".join(f"{n + 1} {'before ' + card_face(line[0]) if n == 0 else 'after ' + card_face(line[n - 1])}"
                                  for n in range(len(line) + 1))
            else:
                where = "1 next to the draw pile, n after the line's card n-1"
            zones.append(TrackZone(id="place", place="below", positions=tuple(str(n + 1) for n in range(len(line) + 1)),
                                   label=f"New card's gap: {where}"))
        if not solitaire:
            zones.append(HandZone.seen_by("hand", [Card.parse(code) for code in hand], owners={seat}, seat=seat,
                                          place="below", label="Your hand"))
        return zones + [self._captured_zone(view), self._score_zone(view)]

    def _score_zone(self, view: Any) -> TrackZone:
        score, _ = view.score()
        marker = max(index for index, mark in enumerate(SCORE_MARKS) if score >= int(mark.rstrip("+")))
        return TrackZone(id="score", place="right", positions=SCORE_MARKS, marker=marker, label="Score")

    def _captured_zone(self, view: Any) -> TrayZone:
        """The pieces captured so far, labelled with the score and how it is made."""
        score, gone = view.score()
        taken = tuple(moved.captured for moved in view.moves if moved.captured)
        return TrayZone(id="captured", place="below", pieces=taken,
                        label=f"Score {score} = {view.captures} captured + {gone} types gone x 10")

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in truth.board.piece_map().items()})
        if isinstance(last_move, chess.Move):
            scene.last_move = (sq8(last_move.from_square), sq8(last_move.to_square))
        view = CoopView(board=truth.board, captures=truth.captures, solitaire=len(truth.hands) == 1)
        for seat, hand in enumerate(truth.hands):
            if len(truth.hands) > 1:
                scene.zones.append(HandZone(id=f"hand-{seat}", place="above" if seat else "below",
                                            label=f"{COLOURS[seat]}'s hand", cards=tuple(map(Card.parse, hand))))
        scene.zones.append(PileZone(id="pile", place="below", label="Draw", count=len(truth.pile)))
        scene.zones.append(HandZone(id="line", place="below", beside=True, label="Line",
                                    cards=tuple(map(Card.parse, truth.line))))
        scene.zones.append(PileZone(id="discard", place="below", beside=True, label="Discard",
                                    count=len(truth.discard),
                                    top=Card.parse(truth.discard[-1]) if truth.discard else None))
        scene.zones.append(self._score_zone(view))
        return scene

    # -- words ------------------------------------------------------------------------------------------------
    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, (Played, Turned)) or (isinstance(o, Drew) and (o.cards or o.kings)):
            return ("card",)
        if isinstance(o, Moved):
            return ("capture",) if o.captured else ("move",)
        return super().sounds(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        lines: list[str] = []
        for number, text in view.events:
            if lines and lines[-1].startswith(f"{number}."):
                lines[-1] += f" {text}"
            else:
                lines.append(f"{number}. {text}")
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None or not view.my_turn:
            return "Your move"
        if self._pending(view) is not None:
            return "Click the gap of the line where the promoted piece's card goes"
        phase = view.phase
        if phase == "answer":
            asked = view.question.words if view.question is not None else "?"
            return f"Your partner asks: {asked} Answer Yes or No"
        side = f" ({COLOURS[0 if view.colour else 1]})" if view.solitaire else ""
        if phase == "card":
            return "Play a card from your hand to the line (click it)"
        captures = sum(1 for option in view.options() if captured_piece(view.board, option.move) is not None)
        can = f"{captures} capture{'s' if captures != 1 else ''} possible" if captures else "no capture possible yet"
        if phase == "move":
            return f"Your move{side}: one non-capturing move, then captures; or End turn ({can})"
        return f"Captures{side}: {can}; or End turn"

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Cooperative Chess 2's actions in words.

        >>> PRESENTER.describe_action({"type": "play", "card": "9S"})
        'play the black bishop (9♠) to the line'
        """
        kind = action.get("type")
        try:
            if kind == "play":
                return f"play the {_card(str(action['card']))} to the line"
            if kind == "end_turn":
                return "end the turn and draw"
            if kind == "answer":
                return f"answer {'yes' if action.get('yes') else 'no'}"
            if kind == "ask":
                return "ask: " + question_words(str(action.get("topic")), str(action.get("piece", "")),
                                                str(action.get("square", "")), str(action.get("text", "")))
        except (KeyError, ValueError, IndexError):
            pass
        return super().describe_action(action)

    # -- input ------------------------------------------------------------------------------------------------
    def _pending(self, view: Any) -> CoopMove | None:
        if not self.pending or not view.my_turn:
            return None
        options: list[CoopMove] = view.options()
        return next((option for option in options if option.move.uci() == self.pending), None)

    def _asking(self, view: Any) -> str:
        return self.asking if self.asking and self.asking_turn == view.number and view.may_ask() else ""

    def commands(self, view: Any) -> list[Command]:
        if not view.my_turn or view.outcome is not None:
            return []
        if view.phase == "answer":
            return [Command("yes", "Yes", True), Command("no", "No", True)]
        found = []
        if self._pending(view) is not None:
            found.append(Command("cancel", "Cancel promotion", True))
        if view.phase in ("move", "capture"):
            found.append(Command("end", "End turn", True))
        if self._asking(view):
            found.append(Command("ask-cancel", "Don't ask", True))
        elif view.may_ask():
            found += [Command("ask-hold", "Ask about a card", True),
                      Command("ask-capture", "Ask about a capture", True)]
        return found

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        if not view.my_turn:
            raise InputError("it is not your turn")
        if command_id in ("yes", "no") and view.phase == "answer":
            return Answer(command_id == "yes")
        if command_id == "cancel" or command_id == "ask-cancel":
            return MarksChange(None)
        if command_id in ("ask-hold", "ask-capture") and view.may_ask():
            return MarksChange({ASKING: command_id.removeprefix("ask-"), ASKING_TURN: view.number})
        if command_id == "end" and view.phase in ("move", "capture"):
            return EndTurn()
        raise InputError(f"this game has no command {command_id[:20]!r} now")

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action | MarksChange:
        if not view.my_turn:
            raise InputError("it is not your turn")
        pending = self._pending(view)
        if zone_id == "ask" and self._asking(view) == "hold" and 0 <= index < len(ASK_CARDS):
            piece = card_piece(ASK_CARDS[index])
            assert piece is not None
            return Ask("hold", piece=piece.symbol())
        if zone_id == "place" and pending is not None:
            return CoopMove(pending.move, pending.card, place=index)
        if zone_id == "hand":
            if view.phase != "card":
                raise InputError("you have played your card this turn" if view.phase != "answer"
                                 else "answer your partner's question first")
            if not 0 <= index < len(view.hand):
                raise InputError("there is no such card")
            return PlayCard(view.hand[index])
        raise InputError("click a card of your hand to play it, or move on the board")

    def on_square(self, view: Any, square: Cell) -> Action | MarksChange:
        if self._asking(view) != "capture":
            return super().on_square(view, square)
        return Ask("capture", square=chess.square_name(from_sq8(square)))

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action | MarksChange:
        if not view.my_turn:
            raise InputError("it is not your turn")
        if view.phase not in ("move", "capture"):
            raise InputError("first play a card" if view.phase == "card" else "first answer your partner's question")
        move = chess.Move(from_sq8(from_square), from_sq8(to_square),
                          chess.PIECE_SYMBOLS.index(promotion) if promotion else None)
        options: list[CoopMove] = [option for option in view.options() if option.move == move]
        if not options:
            raise InputError(_why_not(view, move))
        if move.promotion is not None and len({option.place for option in options}) > 1:
            return MarksChange({PENDING: move.uci()})
        return options[0]

    def parse_text(self, view: Any, text: str) -> Action:
        cleaned = " ".join(text.split())
        lower = cleaned.lower()
        if lower in ("yes", "no") and view.my_turn and view.phase == "answer":
            return Answer(lower == "yes")
        if lower in ("end", "end turn", "pass") and view.my_turn and view.phase in ("move", "capture"):
            return EndTurn()
        if lower == "ask" or lower.startswith("ask "):
            return self._question(view, cleaned[3:].strip())
        if view.my_turn and view.phase == "card":
            code = cleaned.upper()
            if code in view.hand:
                return PlayCard(code)
            raise InputError(f"{cleaned[:10]!r} is not a card of your hand ({' '.join(view.hand)})")
        return super().parse_text(view, text)

    def _question(self, view: Any, rest: str) -> Action:
        if not view.may_ask():
            raise InputError("you may ask your partner one question in your turn")
        if len(rest) == 1 and rest in "PNBRQKpnbrqk":
            return Ask("hold", piece=rest)
        words = rest.split()
        if len(words) == 2 and words[0].lower() == "capture" and words[1].lower() in chess.SQUARE_NAMES:
            return Ask("capture", square=words[1].lower())
        if not rest:
            raise InputError("type the question after 'ask'")
        return Ask("free", text=rest)


def _pawn_card(line: list[str], pending: CoopMove, colour: chess.Color) -> str:
    """The pawn card a promotion sends to the discard pile: the one named, else the referee's choice (the last of
    the colour left in the line once a captured card has gone)."""
    if pending.pawn_card:
        return pending.pawn_card
    pawns = [code for code in pawn_cards(line, colour) if code != pending.card]
    return pawns[-1] if pawns else ""


def _capture_cards_now(view: CoopView) -> set[str]:
    """The line's cards that stand in a pair a capture may use now (the captured card and its capturer's)."""
    raised: set[str] = set()
    for option in view.options():
        captured = captured_piece(view.board, option.move)
        capturer = view.board.piece_at(option.move.from_square)
        if captured is None or capturer is None:
            continue
        line = view.line
        for card in capture_cards(line, capturer, captured):
            raised.add(card)
            index = line.index(card)
            raised.update(line[i] for i in (index - 1, index + 1)
                          if 0 <= i < len(line) and card_piece(line[i]) == capturer)
    return raised


def _why_not(view: CoopView, move: chess.Move) -> str:
    board = view.board
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != board.turn:
        return f"move a {COLOURS[0 if board.turn else 1].lower()} piece"
    if move not in board.legal_moves:
        return "that is not a legal chess move"
    captured = captured_piece(board, move)
    if captured is not None:
        return (f"a {piece_words(piece.symbol())} may take a {piece_words(captured.symbol())} only with their cards "
                "side by side in the line")
    if view.phase == "capture":
        return "only captures are left this turn"
    if move.promotion is not None:
        if move.promotion not in promotion_cards(view.discard, board.turn):
            return "a pawn may become only a type of its colour in the discard pile"
        return "a pawn may reach the last rank only with one of its colour's pawn cards in the line"
    return "that move is not allowed now"


PRESENTER = CoopPresenter()
