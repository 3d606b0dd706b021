"""Booster Chess's referee, actions, observations and a seat's view (rulings BO1-BO4b; the moves themselves are in
:mod:`app.games.booster.moves`).

The deck is the chess kit's 32 piece cards and the four sixes (checker cards: the red sixes White's, the black
sixes Black's), shuffled from the game's own generator. Each side has six checkers and is dealt six cards, seen
by nobody else. A turn has up to four parts, each its own action:

1. ``move``: a normal move (:class:`BoosterMove`);
2. ``boost``: when the moved piece is boosted, king steps one at a time (:class:`Step`), each spending a checker,
   until the player is :class:`Done` or none is left or allowed;
3. ``card``: when the player holds a card and has a checker in front of it, one card played to put a checker on
   a matching piece (:class:`PlayCard`), or :class:`Done` to play none;
4. the draw, made by the referee: cards until the hand holds as many cards as the player has checkers in front
   of it; when the draw pile is empty the discards are shuffled (from the game's generator) into a new one.

The game ends by checkmate (a win) or stalemate (a draw), and, as a chess player expects, in a draw when the same
position (pieces, checkers, side to move, castling and en passant) comes a third time at the start of a turn, or
after 50 turns of each side with no capture and no pawn move. Two bare kings are no draw: a boosted king can mate.

>>> game = BoosterChess(seed=7)
>>> len(game.hands[0]), len(game.hands[1]), len(game.draw_pile), game.phase
(6, 6, 24, 'move')
>>> game.play(0, BoosterMove("e2e4"))
>>> game.phase, game.seat_names[game.to_move]
('card', 'White')
>>> game.play(0, Done())
>>> game.phase, game.seat_names[game.to_move]
('move', 'Black')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.booster import DEFINITION
from app.games.booster.moves import (apply_normal, apply_step, card_squares, in_danger, legal_moves, legal_steps,
                                     put_checker, supply)
from app.games.kit_cards import card_colour, card_words, checker_cards, is_card, piece_cards, shuffled

__all__ = ["BoosterChess", "BoosterView", "BoosterMove", "Step", "PlayCard", "Done", "Dealt", "Moved", "Stepped",
           "Passed", "CardPlayed", "TurnOver", "Ended", "BoosterTruth", "DECK", "HAND", "move_text",
           "read_stacks", "stacks_text"]

SEATS = DEFINITION.seat_names
DECK: tuple[str, ...] = piece_cards() + checker_cards()
"""The 36 cards before the shuffle."""
HAND = 6
FIFTY_MOVES = 100
"""Turns of either side without a capture or a pawn move after which the game is drawn."""


def _colour(seat: Seat) -> chess.Color:
    return chess.WHITE if seat == 0 else chess.BLACK


def move_text(board: chess.Board, move: chess.Move, step: bool = False) -> str:
    """A move in long algebraic words, written before it is made (``Ng1-f3``, ``e5xd6``, ``O-O``, ``e7-e8=Q``);
    a booster step is written the same way.

    >>> move_text(chess.Board(), chess.Move.from_uci("g1f3"))
    'Ng1-f3'
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        return move.uci()
    if not step and piece.piece_type == chess.KING and \
            abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) == 2:
        return "O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"
    letter = "" if piece.piece_type == chess.PAWN else piece.symbol().upper()
    capture = board.piece_at(move.to_square) is not None or (
        not step and piece.piece_type == chess.PAWN and move.to_square == board.ep_square
        and chess.square_file(move.from_square) != chess.square_file(move.to_square))
    text = f"{letter}{chess.square_name(move.from_square)}{'x' if capture else '-'}{chess.square_name(move.to_square)}"
    if move.promotion:
        text += "=" + chess.piece_symbol(move.promotion).upper()
    return text


def stacks_text(stacks: Mapping[int, int]) -> str:
    """Stacks as words for options and tests: ``"e4:+2 d7:-1"`` (plus White's checkers, minus Black's).

    >>> stacks_text({chess.E4: 2, chess.D7: -1})
    'd7:-1 e4:+2'
    """
    return " ".join(f"{chess.square_name(square)}:{count:+d}" for square, count in
                    sorted(stacks.items(), key=lambda item: chess.square_name(item[0])) if count)


def read_stacks(text: str) -> dict[int, int]:
    """The stacks :func:`stacks_text` writes; ``ValueError`` with a sentence for anything else."""
    stacks: dict[int, int] = {}
    for word in str(text).split():
        name, _, count = word.partition(":")
        try:
            square, number = chess.parse_square(name.lower()), int(count)
        except ValueError:
            raise ValueError(f"{word[:12]!r} is not a stack such as 'e4:+2'") from None
        if not -6 <= number <= 6:
            raise ValueError(f"{word[:12]!r}: a stack holds at most six checkers")
        if number:
            stacks[square] = number
    return stacks


# ---- actions ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BoosterMove(Action):
    """The turn's normal move, in UCI (``e2e4``, ``e7e8q``, castling ``e1g1``)."""

    uci: str
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Step(Action):
    """One booster king step of the piece just moved, in UCI (``f3f4``; a pawn onto its last rank names its
    promotion, ``g7g8q``)."""

    uci: str
    kind: ClassVar[str] = "step"


@dataclass(frozen=True)
class PlayCard(Action):
    """Play ``card`` (its code, ``9D``) from the hand to put one of the player's checkers on the piece on
    ``square`` (``c1``)."""

    card: str
    square: str
    kind: ClassVar[str] = "card"


@dataclass(frozen=True)
class Done(Action):
    """No more booster steps (in the ``boost`` part), or no card (in the ``card`` part)."""

    kind: ClassVar[str] = "done"


# ---- observations ----------------------------------------------------------------------------------------------

class Dealt(NamedTuple):
    """Told to each seat at the start, privately: which seat it is, its own hand, the draw pile's size, the
    starting position and checkers (``stacks_text``) and each hand's size."""

    seat: Seat
    hand: tuple[str, ...]
    draw_pile: int
    fen: str
    stacks: str
    hand_sizes: tuple[int, int]


class Moved(NamedTuple):
    """Told to every seat: ``seat`` made the normal move ``uci`` (``text`` in words), capturing ``captured`` (a
    piece letter or ""), sending ``home`` hobble checkers home; ``phase`` is the part of the turn that follows
    (``boost``, ``card``, or ``move`` when the turn is over)."""

    seat: Seat
    uci: str
    text: str
    captured: str
    home: int
    phase: str


class Stepped(NamedTuple):
    """Told to every seat: a booster step of the moved piece, as :class:`Moved` words one."""

    seat: Seat
    uci: str
    text: str
    captured: str
    home: int
    phase: str


class Passed(NamedTuple):
    """Told to every seat: ``seat`` was done with the part ``part`` (``boost``: no more steps; ``card``: no card);
    ``phase`` follows."""

    seat: Seat
    part: str
    phase: str


class CardPlayed(NamedTuple):
    """Told to every seat: ``seat`` played ``card`` face up onto the discard pile and put one of its checkers on
    the piece on ``square``."""

    seat: Seat
    card: str
    square: str


class TurnOver(NamedTuple):
    """Told to every seat at the end of ``seat``'s turn: it drew ``drawn`` cards (their faces in ``cards`` for the
    drawer only, empty for the other seat); ``reshuffled`` when the discards became the new draw pile on the way;
    ``draw_pile`` cards are left in it."""

    seat: Seat
    drawn: int
    cards: tuple[str, ...]
    reshuffled: bool
    draw_pile: int
    check: bool = False
    """Whether the player to move next stands in check (its king attacked, booster steps counted)."""


class Ended(NamedTuple):
    """Told to every seat at the end."""

    outcome: Outcome


@dataclass(frozen=True)
class BoosterTruth:
    """The whole state: the board, the checkers, both hands, the piles (the draw pile top first)."""

    board: chess.Board
    stacks: dict[int, int]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    draw_pile: tuple[str, ...]
    discard: tuple[str, ...]


# ---- the referee -----------------------------------------------------------------------------------------------

class BoosterChess(Game):
    """The referee: the board, the checkers, the hands and the piles."""

    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (BoosterMove, Step, PlayCard, Done)
    uses_chance: ClassVar[bool] = True

    def __init__(self, seed: int | None = None, fen: str | None = None, stacks: Mapping[int, int] | None = None,
                 hands: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> None:
        """A new game dealt from ``seed``; ``fen`` and ``stacks`` set another starting position (options), and
        ``hands`` (tests only) deals those hands, the rest of the deck shuffled into the draw pile."""
        super().__init__(seed)
        self.start_fen, self.start_stacks = fen, dict(stacks or {})
        self.board = chess.Board(fen) if fen else chess.Board()
        if self.board.king(chess.WHITE) is None or self.board.king(chess.BLACK) is None:
            raise ValueError("each side needs a king")
        self.stacks: dict[int, int] = {}
        for square, count in self.start_stacks.items():
            if self.board.piece_at(square) is None:
                raise ValueError(f"checkers on {chess.square_name(square)} stand under no piece")
            if count:
                self.stacks[square] = count
        if supply(self.stacks, chess.WHITE) < 0 or supply(self.stacks, chess.BLACK) < 0:
            raise ValueError("each side has only six checkers")
        if hands is None:
            deck = shuffled(DECK, self.rng)
            self.hands: list[list[str]] = [deck[:HAND], deck[HAND:2 * HAND]]
            self.draw_pile = deck[2 * HAND:]
        else:
            self.hands = [list(hands[0]), list(hands[1])]
            dealt = set(hands[0]) | set(hands[1])
            if len(dealt) != len(hands[0]) + len(hands[1]) or not dealt <= set(DECK):
                raise ValueError("hands must hold different cards of the deck")
            self.draw_pile = shuffled([card for card in DECK if card not in dealt], self.rng)
        self.discard: list[str] = []
        self._phase = "move"
        self.moved: int | None = None
        """The square of the piece moved this turn (its booster steps start there)."""
        self._ply = 0
        self._reset_clock = False
        self.seen: dict[tuple[Any, ...], int] = {}
        sizes = (len(self.hands[0]), len(self.hands[1]))
        for seat in (0, 1):
            self._tell(seat, Dealt(seat, tuple(self.hands[seat]), len(self.draw_pile), self.board.fen(),
                                   stacks_text(self.stacks), sizes))
        self._judge()

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def seat(self) -> Seat:
        """The seat whose turn it is."""
        return 0 if self.board.turn == chess.WHITE else 1

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self.seat

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self._phase

    @property
    def ply(self) -> int:
        return self._ply

    def truth(self) -> BoosterTruth:
        return BoosterTruth(self.board.copy(stack=False), dict(self.stacks),
                            (tuple(self.hands[0]), tuple(self.hands[1])), tuple(self.draw_pile),
                            tuple(self.discard))

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        if self._phase == "move":
            return {"moves": [BoosterMove(move.uci()) for move in legal_moves(self.board, self.stacks)]}
        if self._phase == "boost":
            assert self.moved is not None
            return {"steps": [Step(move.uci()) for move in legal_steps(self.board, self.stacks, self.moved)],
                    "done": [Done()]}
        return {"cards": card_plays(self.board, self.stacks, self.board.turn, self.hands[self.seat]),
                "done": [Done()]}

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = SEATS[seat]
        if self._phase == "move":
            if type(action) is not BoosterMove:
                raise IllegalAction(f"{name} must first make a move")
            move = self._read_move(action.uci)
            if move not in legal_moves(self.board, self.stacks):
                raise IllegalAction(f"{move.uci()} is not a legal move here")
            text = move_text(self.board, move)
            pawn = self.board.piece_type_at(move.from_square) == chess.PAWN
            captured, home = apply_normal(self.board, self.stacks, move)
            self._reset_clock = pawn or captured is not None
            self.moved = move.to_square
            self._phase = self._after_move()
            self._tell_all(Moved(seat, move.uci(), text, captured.symbol() if captured else "", home, self._phase))
        elif self._phase == "boost":
            if type(action) is Done:
                self._phase = self._card_part()
                self._tell_all(Passed(seat, "boost", self._phase))
            elif type(action) is Step:
                move = self._read_move(action.uci)
                assert self.moved is not None
                if move not in legal_steps(self.board, self.stacks, self.moved):
                    raise IllegalAction(f"{move.uci()} is not a booster step the moved piece may take now")
                text = move_text(self.board, move, step=True)
                pawn = self.board.piece_type_at(move.from_square) == chess.PAWN
                captured, home = apply_step(self.board, self.stacks, move)
                self._reset_clock = self._reset_clock or pawn or captured is not None
                self.moved = move.to_square
                self._phase = self._after_move()
                self._tell_all(Stepped(seat, move.uci(), text, captured.symbol() if captured else "", home,
                                       self._phase))
            else:
                raise IllegalAction(f"{name} may take a booster step or be done with them")
        else:
            if type(action) is Done:
                self._tell_all(Passed(seat, "card", "move"))
            elif type(action) is PlayCard:
                card, square = self._read_card(seat, action)
                put_checker(self.stacks, square, self.board.turn)
                self.hands[seat].remove(card)
                self.discard.append(card)
                self._tell_all(CardPlayed(seat, card, chess.square_name(square)))
            else:
                raise IllegalAction(f"{name} may play a card or play none")
            self._phase = "move"
        if self._phase == "move":
            self._end_turn(seat)

    def _read_move(self, uci: Any) -> chess.Move:
        try:
            return chess.Move.from_uci(str(uci))
        except (ValueError, IndexError):
            raise IllegalAction(f"{str(uci)[:10]!r} is not a move") from None

    def _read_card(self, seat: Seat, action: PlayCard) -> tuple[str, int]:
        card = str(action.card).strip().upper()
        if not is_card(card):
            raise IllegalAction(f"{str(action.card)[:12]!r} is not a card of the deck")
        if card not in self.hands[seat]:
            raise IllegalAction(f"{SEATS[seat]} does not hold the {card_words(card)}")
        try:
            square = chess.parse_square(str(action.square).strip().lower())
        except ValueError:
            raise IllegalAction(f"{str(action.square)[:8]!r} is not a square") from None
        if supply(self.stacks, self.board.turn) < 1:
            raise IllegalAction(f"{SEATS[seat]} has no checker left to put on a piece")
        if square not in card_squares(self.board, self.stacks, self.board.turn, card):
            piece = self.board.piece_at(square)
            if piece is None:
                raise IllegalAction(f"there is no piece on {chess.square_name(square)}")
            if piece.color != card_colour(card):
                raise IllegalAction(f"the {card_words(card)} does not match the piece on "
                                    f"{chess.square_name(square)}")
            raise IllegalAction(f"the {card_words(card)} may not put a checker on {chess.square_name(square)}: "
                                "it does not match the piece, or it would leave your king attacked")
        return card, square

    def _after_move(self) -> str:
        """The part of the turn after a move or a step: more steps if any is allowed, else the card part."""
        assert self.moved is not None
        if legal_steps(self.board, self.stacks, self.moved):
            return "boost"
        return self._card_part()

    def _card_part(self) -> str:
        """``card`` when the mover holds a card and a checker (public facts both), else ``move``: the turn ends."""
        if self.hands[self.seat] and supply(self.stacks, self.board.turn) > 0:
            return "card"
        return "move"

    def _end_turn(self, seat: Seat) -> None:
        hand = self.hands[seat]
        wanted = supply(self.stacks, _colour(seat))
        drawn: list[str] = []
        reshuffled = False
        while len(hand) < wanted:
            if not self.draw_pile:
                if not self.discard:
                    break
                self.draw_pile = shuffled(self.discard, self.rng)
                self.discard = []
                reshuffled = True
            card = self.draw_pile.pop(0)
            hand.append(card)
            drawn.append(card)
        check = in_danger(self.board, self.stacks, not self.board.turn)
        self._tell(seat, TurnOver(seat, len(drawn), tuple(drawn), reshuffled, len(self.draw_pile), check))
        self._tell(1 - seat, TurnOver(seat, len(drawn), (), reshuffled, len(self.draw_pile), check))
        board = self.board
        if board.turn == chess.BLACK:
            board.fullmove_number += 1
        board.halfmove_clock = 0 if self._reset_clock else board.halfmove_clock + 1
        board.turn = not board.turn
        if board.ep_square is not None and not any(
                move.to_square == board.ep_square and board.piece_type_at(move.from_square) == chess.PAWN
                for move in legal_moves(board, self.stacks)):
            board.ep_square = None  # an en passant nobody can take does not make a position new
        self.moved, self._phase, self._reset_clock = None, "move", False
        self._ply += 1
        self._judge()

    def _judge(self) -> None:
        board = self.board
        colour = board.turn
        side = "White" if colour == chess.WHITE else "Black"
        if not legal_moves(board, self.stacks):
            if in_danger(board, self.stacks, colour):
                self._finish(Outcome(1 - self.seat, Reason.NO_MOVES, f"{side} is checkmated"))
            else:
                self._finish(Outcome(None, Reason.NO_MOVES, f"stalemate: {side} cannot move"))
            return
        key = position_key(board, self.stacks)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] >= 3:
            self._finish(Outcome(None, Reason.MOVE_LIMIT, "drawn: the same position came a third time"))
        elif board.halfmove_clock >= FIFTY_MOVES:
            self._finish(Outcome(None, Reason.MOVE_LIMIT, "drawn: 50 moves by each side without a capture or a "
                                                          "pawn move"))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if self.start_fen:
            options["fen"] = self.start_fen
        if self.start_stacks:
            options["checkers"] = stacks_text(self.start_stacks)
        return options

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> BoosterChess:
        unknown = sorted(set(map(str, options)) - {"fen", "checkers"})
        if unknown:
            raise ValueError(f"Booster Chess has no option {', '.join(unknown)[:60]}")
        fen = options.get("fen") or None
        if fen is not None and (not isinstance(fen, str) or len(fen) > 200):
            raise ValueError("the starting position must be a FEN")
        try:
            stacks = read_stacks(options.get("checkers") or "")
            return cls(fen=fen, stacks=stacks)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None


def position_key(board: chess.Board, stacks: Mapping[int, int]) -> tuple[Any, ...]:
    """What makes two positions the same for repetition: pieces, checkers, side to move, castling, en passant."""
    return (board.board_fen(), board.turn, board.castling_rights, board.ep_square, tuple(sorted(stacks.items())))


def card_plays(board: chess.Board, stacks: Mapping[int, int], colour: chess.Color,
               hand: list[str] | tuple[str, ...]) -> list[PlayCard]:
    """Every card play allowed to ``colour`` with ``hand`` (one per card and square)."""
    plays = []
    for card in dict.fromkeys(hand):
        for square in card_squares(board, stacks, colour, card):
            plays.append(PlayCard(card, chess.square_name(square)))
    return plays


# ---- a seat's view ----------------------------------------------------------------------------------------------

@dataclass
class BoosterView(View):
    """What one seat knows, from its own observations: the board and checkers (all public), its own hand, the
    other hand's size, the draw pile's size and the discards (face up), the part of the turn and the piece
    moved this turn.

    >>> game = BoosterChess(seed=3)
    >>> view = BoosterView.from_observations(game.observations(1))
    >>> len(view.hand), view.hand_sizes, view.draw_pile
    (6, [6, 6], 24)
    """

    seat: Seat | None = None
    board: chess.Board = field(default_factory=chess.Board)
    stacks: dict[int, int] = field(default_factory=dict)
    hand: list[str] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=lambda: [HAND, HAND])
    draw_pile: int = 0
    discard: list[str] = field(default_factory=list)
    turn_phase: str = "move"
    moved: int | None = None
    last_move: tuple[int, int] | None = None
    turn_from: int | None = None
    history: list[tuple[Seat, list[str]]] = field(default_factory=list)
    """Each turn's mover and words: the move, its steps, the card (for the move list)."""
    outcome: Outcome | None = None

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.turn_phase

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        return 0 if self.board.turn == chess.WHITE else 1

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    @property
    def colour(self) -> chess.Color:
        return _colour(self.seat or 0)

    def legal_moves(self) -> list[chess.Move]:
        return legal_moves(self.board, self.stacks)

    def legal_steps(self) -> list[chess.Move]:
        return legal_steps(self.board, self.stacks, self.moved) if self.moved is not None else []

    def card_squares(self, card: str) -> list[int]:
        return card_squares(self.board, self.stacks, self.board.turn, card)

    def supply(self, seat: Seat) -> int:
        return supply(self.stacks, _colour(seat))

    def apply(self, observation: Any) -> None:
        o = observation
        if isinstance(o, Dealt):
            self.seat, self.hand = o.seat, list(o.hand)
            self.board, self.stacks = chess.Board(o.fen), read_stacks(o.stacks)
            self.draw_pile, self.hand_sizes = o.draw_pile, list(o.hand_sizes)
        elif isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            apply_normal(self.board, self.stacks, move)
            self.moved, self.turn_phase = move.to_square, o.phase
            self.last_move, self.turn_from = (move.from_square, move.to_square), move.from_square
            self.history.append((o.seat, [o.text]))
        elif isinstance(o, Stepped):
            move = chess.Move.from_uci(o.uci)
            apply_step(self.board, self.stacks, move)
            self.moved, self.turn_phase = move.to_square, o.phase
            self.last_move = (self.turn_from if self.turn_from is not None else move.from_square, move.to_square)
            if self.history:
                self.history[-1][1].append("+" + chess.square_name(move.to_square))
        elif isinstance(o, Passed):
            self.turn_phase = o.phase
        elif isinstance(o, CardPlayed):
            put_checker(self.stacks, chess.parse_square(o.square), _colour(o.seat))
            self.discard.append(o.card)
            self.hand_sizes[o.seat] -= 1
            if o.seat == self.seat and o.card in self.hand:
                self.hand.remove(o.card)
            if self.history:
                self.history[-1][1].append(f"[{o.card}@{o.square}]")
            self.turn_phase = "move"
        elif isinstance(o, TurnOver):
            if o.reshuffled:
                self.discard = []
            self.hand_sizes[o.seat] += o.drawn
            if o.seat == self.seat:
                self.hand.extend(o.cards)
            self.draw_pile = o.draw_pile
            board = self.board
            if board.turn == chess.BLACK:
                board.fullmove_number += 1
            board.turn = not board.turn
            self.moved, self.turn_phase = None, "move"
        elif isinstance(o, Ended):
            self.outcome = o.outcome


BoosterChess.view_type = BoosterView
