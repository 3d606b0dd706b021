"""Cooperative Chess 2: the referee, its actions and observations, and a seat's view (rulings CO1-CO5, G1-G5).

White (seat 0) and Black (seat 1) are one team. The 32 piece cards of the chess kit are shuffled from the
game's own generator (:attr:`Game.rng`); each seat is dealt two private cards and the rest is the draw pile,
whose order nobody is told. A king card dealt or drawn goes at once to the end of the face-up **line** and is
replaced. The line's first card is the one next to the draw pile; cards are added at the other end.

A turn of the seat whose colour is to move:

1. ``card``: play a card of the hand to the end of the line (:class:`PlayCard`; skipped with an empty hand);
2. ``move``: at most one non-capturing chess move (:class:`CoopMove`), or straight to the captures;
3. ``capture``: any number of captures (:class:`CoopMove`), each a legal chess move of the seat's colour whose
   capturing piece's card (colour and type) lies right beside a card of the captured piece in the line; that
   card goes to the discard pile;
4. :class:`EndTurn` (or, when no capture is left, the referee ends the turn itself): draw back to two cards.

A pawn may reach the last rank only with one of its colour's pawn cards in the line and only as a type of its
colour whose card is in the discard pile: the pawn card goes to the discard pile and the promoted piece's card
comes out of it into the line at the place the mover names. The game ends when a king is captured, or once both
hands and the pile are empty at the end of a turn. The score is a point a captured piece and ten for each piece
type (both colours together) no longer on the board; the team wins with a king captured and 32 points or more.

Partners may talk (CO2): during its turn a seat may ask the other one yes/no question (:class:`Ask`), which the
other answers (:class:`Answer`) first thing in its next turn. Both are in the record and in both logs.

The solitaire (:mod:`app.games.coop.solitaire`) is this referee with one seat and no hands: at the start of
each turn the top card of the pile is turned onto the line.

>>> game = CoopChess(deck=["2H", "3H", "2S", "3S", "KH"] + [c for c in piece_cards() if c not in
...                        ("2H", "3H", "2S", "3S", "KH")])
>>> game.hands, game.line, game.phase
([['2H', '3H'], ['2S', '3S']], [], 'card')
>>> game.play(0, PlayCard("2H"))
>>> game.play(0, CoopMove(chess.Move.from_uci("e2e4")))
>>> game.hands[0], game.line, game.seat_names[game.to_move]  # the king card was drawn to the line
(['3H', '4S'], ['2H', 'KH'], 'Black')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

import chess

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.coop import DEFINITION
from app.games.kit_cards import CARD, card_piece, card_words, piece_cards, read_card, shuffled

__all__ = ["Answer", "Answered", "Ask", "Asked", "CoopChess", "CoopMove", "CoopTruth", "CoopView", "Dealt", "Drew",
           "EndTurn", "Ended", "Moved", "PlayCard", "Played", "Turn", "Turned", "capture_cards", "move_options",
           "question_words", "score_of", "turn_moves"]

HAND = 2
WIN_SCORE = 32
GREAT_SCORE = 50
TYPE_BONUS = 10
COLOURS = ("White", "Black")
TOPICS = ("hold", "capture", "free")
"""What a question asks: whether the partner holds a card of a piece (``piece``: a FEN letter, upper case
White), whether it could capture on a square in its coming turn (``square``), or free text between people."""
MAX_QUESTION = 200


def _pieces_equal(card: str, piece: chess.Piece | None) -> bool:
    return piece is not None and card_piece(card) == piece


# ---- the card rule ----------------------------------------------------------------------------------------------

def capture_cards(line: Sequence[str], capturer: chess.Piece, captured: chess.Piece) -> list[str]:
    """The cards of the line that a capture of ``captured`` by ``capturer`` may send to the discard pile: each
    card of the captured piece with a card of the capturing piece right beside it (CO3). Empty: the capture is
    not allowed.

    >>> capture_cards(["2S", "3H", "9S", "4H"], chess.Piece(chess.BISHOP, chess.BLACK),
    ...               chess.Piece(chess.PAWN, chess.WHITE))
    ['3H', '4H']
    """
    found = []
    for index, card in enumerate(line):
        if not _pieces_equal(card, captured):
            continue
        neighbours = [line[i] for i in (index - 1, index + 1) if 0 <= i < len(line)]
        if any(_pieces_equal(other, capturer) for other in neighbours):
            found.append(card)
    return found


def promotion_cards(discard: Sequence[str], colour: chess.Color) -> dict[chess.PieceType, str]:
    """The types a pawn of ``colour`` may promote to now (CO4): each type of that colour, other than pawn and
    king, with a card in the discard pile, and the card that would come back (the first discarded)."""
    found: dict[chess.PieceType, str] = {}
    for card in discard:
        piece = card_piece(card)
        if piece is not None and piece.color == colour and piece.piece_type not in (chess.PAWN, chess.KING):
            found.setdefault(piece.piece_type, card)
    return found


def pawn_cards(line: Sequence[str], colour: chess.Color) -> list[str]:
    """The line's pawn cards of ``colour``."""
    return [card for card in line if _pieces_equal(card, chess.Piece(chess.PAWN, colour))]


def chess_moves(board: chess.Board) -> list[chess.Move]:
    """The chess moves of the side to move (G3), and any capture of the enemy king, which a side that made no
    move can leave open: capturing it ends the game."""
    moves = list(board.legal_moves)
    king = board.king(not board.turn)
    if king is not None:
        for move in board.generate_pseudo_legal_moves(to_mask=chess.BB_SQUARES[king]):
            if move not in moves:
                moves.append(move)
    return moves


def chess_moves_to_king(board: chess.Board) -> list[chess.Move]:
    """The captures of the enemy king that :func:`chess_moves` adds to the legal moves."""
    king = board.king(not board.turn)
    if king is None:
        return []
    legal = set(board.generate_legal_captures(to_mask=chess.BB_SQUARES[king]))
    return [move for move in board.generate_pseudo_legal_moves(to_mask=chess.BB_SQUARES[king]) if move not in legal]


def _capture_masks(board: chess.Board, line: Sequence[str], colour: chess.Color) -> tuple[int, int]:
    """The squares of ``colour``'s pieces whose card lies beside a card of a piece of the other colour in the
    line, and the squares of those other pieces (with the en passant square when a pawn's card is one): where
    a capture may start and land; 0 and 0 when the line allows none."""
    capturers = victims = 0
    for left, right in zip(line, line[1:]):
        for mine, theirs in ((card_piece(left), card_piece(right)), (card_piece(right), card_piece(left))):
            if mine is None or theirs is None or mine.color != colour or theirs.color == colour:
                continue
            capturers |= board.pieces_mask(mine.piece_type, colour)
            victims |= board.pieces_mask(theirs.piece_type, not colour)
            if theirs.piece_type == chess.PAWN and board.ep_square is not None:
                victims |= chess.BB_SQUARES[board.ep_square]
    return capturers, victims


def captured_piece(board: chess.Board, move: chess.Move) -> chess.Piece | None:
    """The piece ``move`` takes (en passant included), or None."""
    if board.is_en_passant(move):
        return chess.Piece(chess.PAWN, not board.turn)
    return board.piece_at(move.to_square)


def turn_moves(board: chess.Board, line: Sequence[str], discard: Sequence[str],
               captures_only: bool) -> list[chess.Move]:
    """The chess moves the side to move may make now, from what every seat sees (the board, the line, the
    discard pile): non-capturing moves unless ``captures_only``, and the captures the line allows; a move to the
    last rank only with a pawn card of the colour in the line, as a type the discard pile holds."""
    colour = board.turn
    if captures_only:
        capturers, victims = _capture_masks(board, line, colour)
        if not capturers or not victims:
            return []  # no card of the colour beside a card of the other on the board: no capture at all
        moves = list(board.generate_legal_captures(capturers, victims))
        if victims & board.kings:
            moves += [move for move in chess_moves_to_king(board) if chess.BB_SQUARES[move.from_square] & capturers]
    else:
        moves = chess_moves(board)
    promotions = promotion_cards(discard, colour)
    has_pawn_card = bool(pawn_cards(line, colour))
    found = []
    for move in moves:
        if move.promotion is not None and (not has_pawn_card or move.promotion not in promotions):
            continue
        captured = captured_piece(board, move)
        if captured is None:
            if not captures_only:
                found.append(move)
            continue
        capturer = board.piece_at(move.from_square)
        assert capturer is not None
        if capture_cards(line, capturer, captured):
            found.append(move)
    return found


def move_options(board: chess.Board, line: Sequence[str], discard: Sequence[str],
                 captures_only: bool) -> list[CoopMove]:
    """Every :class:`CoopMove` allowed now: each move of :func:`turn_moves`, a capture once per card it may
    discard, a promotion once per place in the line its new card may go (the pawn card chosen for the mover)."""
    options = []
    for move in turn_moves(board, line, discard, captures_only):
        captured = captured_piece(board, move)
        cards = [""]
        if captured is not None:
            capturer = board.piece_at(move.from_square)
            assert capturer is not None
            cards = capture_cards(line, capturer, captured)
        for card in cards:
            if move.promotion is None:
                options.append(CoopMove(move, card))
                continue
            size = len(line) - (1 if card else 0) - 1  # the captured card and the pawn card leave the line
            options.extend(CoopMove(move, card, place=place) for place in range(size + 1))
    return options


def score_of(board: chess.Board, captures: int) -> tuple[int, int]:
    """The team's score (CO5) and how many piece types are gone from the board (both colours together).

    >>> score_of(chess.Board(), 0)
    (0, 0)
    >>> score_of(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 30)
    (80, 5)
    """
    gone = sum(1 for piece_type in chess.PIECE_TYPES if not board.pieces_mask(piece_type, chess.WHITE)
               and not board.pieces_mask(piece_type, chess.BLACK))
    return captures + TYPE_BONUS * gone, gone


def question_words(topic: str, piece: str = "", square: str = "", text: str = "") -> str:
    """A question in words.

    >>> question_words("hold", piece="N"), question_words("capture", square="f7")
    ('Do you hold a white knight card?', 'Could you capture on f7 next turn?')
    """
    if topic == "hold":
        colour = "white" if piece.isupper() else "black"
        return f"Do you hold a {colour} {chess.piece_name(chess.Piece.from_symbol(piece).piece_type)} card?"
    if topic == "capture":
        return f"Could you capture on {square} next turn?"
    return text


# ---- actions -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayCard(Action):
    """Step 1: play ``card`` from the hand to the end of the line."""

    card: str = field(metadata=codec.spec(text=CARD))
    kind: ClassVar[str] = "play"


@dataclass(frozen=True)
class CoopMove(Action):
    """A chess move of the turn's colour. For a capture, ``card`` is the captured piece's card that goes to the
    discard pile (empty: the first the line allows). For a promotion, ``pawn_card`` is the pawn card that goes
    (empty: the line's last of the colour) and ``place`` where in the line the promoted piece's card is put
    (0 next to the draw pile; -1 the far end), counted once the discarded cards have left."""

    move: chess.Move
    card: str = field(default="", metadata=codec.spec(omit_default=True))
    pawn_card: str = field(default="", metadata=codec.spec(omit_default=True))
    place: int = field(default=-1, metadata=codec.spec(omit_default=True))
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn (no more moves or captures): the seat draws back to two cards."""

    kind: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class Ask(Action):
    """Ask the partner a yes/no question about its hand (see :data:`TOPICS`); it answers at its next turn."""

    topic: str
    piece: str = field(default="", metadata=codec.spec(omit_default=True))
    square: str = field(default="", metadata=codec.spec(omit_default=True))
    text: str = field(default="", metadata=codec.spec(omit_default=True))
    kind: ClassVar[str] = "ask"


@dataclass(frozen=True)
class Answer(Action):
    """Answer the partner's question: yes or no."""

    yes: bool
    kind: ClassVar[str] = "answer"


# ---- observations --------------------------------------------------------------------------------------------------

class Dealt(NamedTuple):
    """Told to each seat at the start: which seat it is, its own hand, the line (king cards dealt go there), the
    cards in each hand and in the draw pile. ``solitaire``: one seat plays both colours and holds no hand."""

    seat: Seat
    hand: tuple[str, ...]
    line: tuple[str, ...]
    hand_counts: tuple[int, ...]
    pile: int
    solitaire: bool = False
    fen: str = chess.STARTING_FEN
    discard: tuple[str, ...] = ()
    captures: int = 0


class Turn(NamedTuple):
    """Told to every seat when the acting seat or step changes: ``seat`` acts, for ``colour`` (True White), in
    ``phase`` (``answer``, ``card``, ``move``, ``capture``); ``number`` counts turns from 1."""

    seat: Seat
    colour: bool
    phase: str
    number: int
    ep: str = ""
    """The square a pawn may take en passant on (the other colour's pawn has just made a double step), or ""."""


class Turned(NamedTuple):
    """Solitaire: the cards turned from the pile onto the end of the line at the start of a turn (more than one
    when a king was turned), and the cards left in the pile."""

    cards: tuple[str, ...]
    pile: int


class Played(NamedTuple):
    """``seat`` played ``card`` to the end of the line."""

    seat: Seat
    card: str


class Moved(NamedTuple):
    """``seat`` moved ``uci`` (``san`` in chess notation) for ``colour``; ``captured`` the piece taken (a FEN letter,
    or "") whose card ``card`` went to the discard pile; a promotion discarded ``pawn_card`` and put
    ``promoted_card`` into the line at ``place``. ``captures`` and ``score`` are the team's totals after it."""

    seat: Seat
    colour: bool
    uci: str
    san: str
    captured: str
    card: str
    pawn_card: str
    promoted_card: str
    place: int
    captures: int
    score: int


class Drew(NamedTuple):
    """``seat`` ended its turn and drew: ``cards`` the cards it drew into its hand (told to that seat only: the
    other is told as many empty strings), ``kings`` king cards drawn, which went to the end of the line;
    ``pile`` the cards left in the pile, ``hand`` the cards now in the seat's hand."""

    seat: Seat
    cards: tuple[str, ...]
    kings: tuple[str, ...]
    pile: int
    hand: int


class Asked(NamedTuple):
    """``seat`` asked its partner a question (see :class:`Ask`); ``words`` the question as shown."""

    seat: Seat
    topic: str
    piece: str
    square: str
    text: str
    words: str


class Answered(NamedTuple):
    """``seat`` answered its partner's question ``words``: yes or no."""

    seat: Seat
    words: str
    yes: bool


class Ended(NamedTuple):
    """The game is over: the outcome (its ``score`` is the team's), the captures and the piece types gone."""

    outcome: Outcome
    captures: int = 0
    types_gone: int = 0


@dataclass(frozen=True)
class CoopTruth:
    """The whole state: board, line, hands, discard pile and the pile in order (first on top)."""

    board: chess.Board
    line: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    pile: tuple[str, ...]
    captures: int


# ---- the referee ----------------------------------------------------------------------------------------------------

class CoopChess(Game):
    """The referee: the only one who knows the pile's order and both hands."""

    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (PlayCard, CoopMove, EndTurn, Ask, Answer)
    uses_chance: ClassVar[bool] = True
    solitaire: ClassVar[bool] = False
    """One seat plays both colours, holds no hand, and turns the top card onto the line each turn."""

    def __init__(self, seed: int | None = None, *, deck: Sequence[str] | None = None, fen: str | None = None,
                 line: Sequence[str] = (), discard: Sequence[str] = (), captures: int = 0) -> None:
        """A new game dealt from the game's generator; tests may give the ``deck`` in order (the first cards are
        dealt, two to White then two to Black), a position (``fen``, whose side to move starts), a ``line`` and
        a ``discard`` pile to start from."""
        super().__init__(seed)
        if deck is None:
            deck = shuffled(piece_cards(), self.rng)
        self.board = chess.Board(fen) if fen else chess.Board()
        self.line: list[str] = [read_card(card) for card in line]
        self.discard: list[str] = [read_card(card) for card in discard]
        self.pile: list[str] = [read_card(card) for card in deck]
        cards = [*self.line, *self.discard, *self.pile]
        if len(set(cards)) != len(cards) or any(card_piece(card) is None for card in cards):
            raise ValueError("each piece card may be in the deck, the line or the discard pile once, no other card")
        self.captures = captures
        self.hands: list[list[str]] = [[] for _ in self.seat_names]
        self.turn_number = 1
        self._phase = "card"
        self._question: Asked | None = None  # asked and not yet answered
        self._asked_this_turn = False
        self._ep_next: int | None = None  # the en passant square this turn's last move opens for the other colour
        self._ply = 0
        if not self.solitaire:
            for seat in range(len(self.seat_names)):
                self._draw(seat)
        for seat in range(len(self.seat_names)):
            self._tell(seat, Dealt(seat, tuple(self.hands[seat]), tuple(self.line),
                                   tuple(len(hand) for hand in self.hands), len(self.pile), self.solitaire,
                                   self.board.fen(), tuple(self.discard), self.captures))
        self._start_turn()

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def colour(self) -> chess.Color:
        """The colour whose turn it is."""
        return self.board.turn

    @property
    def seat(self) -> Seat:
        """The seat playing the colour to move."""
        return 0 if self.solitaire or self.board.turn == chess.WHITE else 1

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self.seat

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self._phase

    @property
    def ply(self) -> int:
        return self._ply

    def truth(self) -> CoopTruth:
        return CoopTruth(self.board.copy(stack=False), tuple(self.line), tuple(tuple(hand) for hand in self.hands),
                         tuple(self.discard), tuple(self.pile), self.captures)

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        phase = self._phase
        if phase == "answer":
            return {"answers": [Answer(True), Answer(False)]}
        found: dict[str, Any] = {}
        if phase == "card":
            found["cards"] = [PlayCard(card) for card in self.hands[self.seat]]
        else:
            found["moves"] = move_options(self.board, self.line, self.discard, phase == "capture")
            found["end"] = [EndTurn()]
        if self._may_ask():
            found["questions"] = [Ask("hold", piece=piece) for piece in "PNBRQpnbrq"]
        return found

    def _may_ask(self) -> bool:
        return not self.solitaire and not self._asked_this_turn and self._phase in ("card", "move", "capture")

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = self.seat_names[seat]
        phase = self._phase
        if type(action) is Ask:
            self._ask(seat, action)
            return
        if phase == "answer":
            if type(action) is not Answer:
                raise IllegalAction(f"{name} must first answer the partner's question, yes or no")
            if not isinstance(action.yes, bool):
                raise IllegalAction("an answer is yes or no")
            question = self._question
            assert question is not None
            self._question = None
            self._tell_all(Answered(seat, question.words, action.yes))
            self._phase = "card" if self.hands[seat] else "move"
            self._announce()
            return
        if type(action) is Answer:
            raise IllegalAction("there is no question to answer")
        if phase == "card":
            if type(action) is not PlayCard:
                raise IllegalAction(f"{name} must first play a card from the hand to the line")
            card = str(action.card)
            if card not in self.hands[seat]:
                held = " ".join(self.hands[seat])
                raise IllegalAction(f"{card[:12]!r} is not a card in {name}'s hand ({held})")
            self.hands[seat].remove(card)
            self.line.append(card)
            self._tell_all(Played(seat, card))
            self._phase = "move"
            self._after_step()
            return
        if type(action) is EndTurn:
            self._end_turn()
            return
        if type(action) is not CoopMove:
            raise IllegalAction(f"{name} may move, capture or end the turn now, not {getattr(action, 'kind', '?')}")
        self._move(seat, action)

    def _ask(self, seat: Seat, action: Ask) -> None:
        if self.solitaire:
            raise IllegalAction("there is no partner to ask in the solitaire")
        if not self._may_ask():
            raise IllegalAction("a seat may ask one question in its turn, after answering any put to it")
        topic, piece, square, text = str(action.topic), str(action.piece), str(action.square), str(action.text)
        if topic == "hold":
            if len(piece) != 1 or piece not in "PNBRQKpnbrqk":
                raise IllegalAction(f"{piece[:8]!r} is not a piece letter (P N B R Q K, lower case for Black)")
        elif topic == "capture":
            if square not in chess.SQUARE_NAMES:
                raise IllegalAction(f"{square[:8]!r} is not a square")
        elif topic == "free":
            text = " ".join(text.split())
            if not text:
                raise IllegalAction("the question is empty")
            if len(text) > MAX_QUESTION:
                raise IllegalAction(f"a question is at most {MAX_QUESTION} characters")
        else:
            raise IllegalAction(f"{topic[:12]!r} is no kind of question (hold, capture or free)")
        asked = Asked(seat, topic, piece, square, text, question_words(topic, piece, square, text))
        self._asked_this_turn = True
        self._question = asked
        self._tell_all(asked)

    def _move(self, seat: Seat, action: CoopMove) -> None:
        move = action.move
        if not isinstance(move, chess.Move):
            raise IllegalAction("that is not a chess move")
        board = self.board
        colour = board.turn
        allowed = turn_moves(board, self.line, self.discard, self._phase == "capture")
        if move not in allowed:
            raise IllegalAction(self._refusal(move))
        captured = captured_piece(board, move)
        capturer = board.piece_at(move.from_square)
        assert capturer is not None
        card = ""
        if captured is not None:
            cards = capture_cards(self.line, capturer, captured)
            card = str(action.card) or cards[0]
            if card not in cards:
                raise IllegalAction(f"the card {card[:12]!r} does not lie beside a {card_words(cards[0]).split(' (')[0]} "
                                    "card's neighbour of the capturing piece")
        pawn_card = promoted = ""
        place = -1
        line_after = [c for c in self.line if c != card]
        if move.promotion is not None:
            pawns = pawn_cards(line_after, colour)
            pawn_card = str(action.pawn_card) or pawns[-1]
            if pawn_card not in pawns:
                raise IllegalAction(f"{pawn_card[:12]!r} is not a {COLOURS[not colour].lower()} pawn card in the line")
            promoted = promotion_cards(self.discard, colour)[move.promotion]
            size = len(line_after) - 1
            place = action.place
            if not isinstance(place, int) or isinstance(place, bool) or not -1 <= place <= size:
                raise IllegalAction(f"the new card goes at a place from 0 to {size} of the line (or -1, its end)")
            if place == -1:
                place = size
        elif action.card and captured is None or action.pawn_card or action.place != -1:
            raise IllegalAction("only a capture names a card, only a promotion a pawn card and a place")
        # The move is allowed: apply it.
        san = board.san(move) if board.is_legal(move) else \
            f"{'' if capturer.piece_type == chess.PAWN else capturer.symbol().upper()}x{chess.square_name(move.to_square)}"
        self._ep_next = self._ep_after(move, capturer)
        board.push(move)
        board.turn = colour  # the same colour may go on capturing
        board.ep_square = None
        if card:
            self.line.remove(card)
            self.discard.append(card)
            self.captures += 1
        if promoted:
            self.line.remove(pawn_card)
            self.discard.append(pawn_card)
            self.discard.remove(promoted)
            self.line.insert(place, promoted)
        score, _ = score_of(board, self.captures)
        self._tell_all(Moved(seat, colour, move.uci(), san, captured.symbol() if captured else "", card, pawn_card,
                             promoted, place, self.captures, score))
        if captured is not None and captured.piece_type == chess.KING:
            self._finish_scored(True)
            return
        self._phase = "capture"
        self._after_step()

    def _refusal(self, move: chess.Move) -> str:
        """Why ``move`` is not allowed now, in a sentence."""
        board = self.board
        words = move.uci()
        if move not in chess_moves(board):
            return f"{words} is not a legal chess move for {COLOURS[not board.turn]} here"
        captured = captured_piece(board, move)
        if captured is None:
            if self._phase == "capture":
                return "after a capture or a move, only captures are left this turn"
        else:
            capturer = board.piece_at(move.from_square)
            assert capturer is not None
            if not capture_cards(self.line, capturer, captured):
                return (f"{words} needs a {_piece_name(capturer)} card right beside a {_piece_name(captured)} "
                        "card in the line")
        if move.promotion is not None:
            if not pawn_cards(self.line, board.turn):
                return f"a pawn reaches the last rank only with a {COLOURS[not board.turn].lower()} pawn card in the line"
            return (f"a pawn may become only a type of its colour already in the discard pile, not a "
                    f"{chess.piece_name(move.promotion)}")
        return f"{words} is not allowed now"

    def _after_step(self) -> None:
        """After a card or a move: end the turn when nothing is left to do in it, else say the step."""
        if self.outcome is not None:
            return
        if not turn_moves(self.board, self.line, self.discard, self._phase == "capture"):
            self._end_turn()
        else:
            self._announce()

    def _announce(self) -> None:
        ep = chess.square_name(self.board.ep_square) if self.board.ep_square is not None else ""
        self._tell_all(Turn(self.seat, self.board.turn, self._phase, self.turn_number, ep))

    def _end_turn(self) -> None:
        seat, colour = self.seat, self.board.turn
        if not self.solitaire:
            drawn, kings = self._draw(seat)
            for other in range(len(self.seat_names)):
                shown = drawn if other == seat else ("",) * len(drawn)
                self._tell(other, Drew(seat, tuple(shown), tuple(kings), len(self.pile), len(self.hands[seat])))
        self._ply += 1
        self.turn_number += 1
        self._asked_this_turn = False
        # The other colour's turn. Its en passant right stands only if this turn's last move was a double step.
        self.board.turn = not colour
        self.board.ep_square, self._ep_next = self._ep_next, None
        if not self.solitaire and not self.pile and not any(self.hands):
            self._finish_scored(False)
            return
        self._start_turn()

    @staticmethod
    def _ep_after(move: chess.Move, mover: chess.Piece) -> int | None:
        """The en passant square the other colour may take on if ``move`` stays the turn's last: the square a
        pawn's double step passed."""
        if mover.piece_type != chess.PAWN or abs(move.to_square - move.from_square) != 16:
            return None
        return (move.to_square + move.from_square) // 2

    def _start_turn(self) -> None:
        seat = self.seat
        if self.solitaire:
            if not self.pile:
                self._finish_scored(False)
                return
            self._phase = "move"
            self._announce()  # the turn's number first: the cards turned belong to it
            turned = []
            while self.pile:
                card = self.pile.pop(0)
                self.line.append(card)
                turned.append(card)
                if card_piece(card) is None or card_piece(card).piece_type != chess.KING:  # type: ignore[union-attr]
                    break
            self._tell_all(Turned(tuple(turned), len(self.pile)))
            self._phase = "move"
        elif self._question is not None and self._question.seat != seat:
            self._phase = "answer"
            self._announce()
            return
        else:
            self._phase = "card" if self.hands[seat] else "move"
        if self._phase == "move":
            self._after_step()
        else:
            self._announce()

    def _draw(self, seat: Seat) -> tuple[list[str], list[str]]:
        """Draw ``seat`` back to :data:`HAND` cards; king cards go to the end of the line and are replaced."""
        drawn: list[str] = []
        kings: list[str] = []
        hand = self.hands[seat]
        while len(hand) < HAND and self.pile:
            card = self.pile.pop(0)
            piece = card_piece(card)
            if piece is not None and piece.piece_type == chess.KING:
                self.line.append(card)
                kings.append(card)
            else:
                hand.append(card)
                drawn.append(card)
        return drawn, kings

    def _finish_scored(self, king_taken: bool) -> None:
        score, gone = score_of(self.board, self.captures)
        parts = f"{self.captures} captured, {gone} piece type{'s' if gone != 1 else ''} gone: {score} points"
        if not king_taken:
            outcome = Outcome(None, Reason.SCORE, f"the cards ran out before a king was captured ({parts})",
                              score=float(score))
        elif score < WIN_SCORE:
            outcome = Outcome(None, Reason.KING_CAPTURE, f"a king was captured, but {parts} is under {WIN_SCORE}",
                              score=float(score))
        else:
            word = "a great win" if score > GREAT_SCORE else "a win"
            outcome = Outcome(None, Reason.KING_CAPTURE, f"a king was captured with {parts}: {word}", team=0,
                              score=float(score))
        self._phase = "over"
        self._finish(outcome)

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        _, gone = score_of(self.board, self.captures)
        return Ended(outcome, self.captures, gone)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {}  # the deal is chance, and its seed is never an option

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CoopChess:
        if options:
            raise ValueError(f"{DEFINITION.title} takes no options, not {', '.join(sorted(map(str, options)))[:80]}")
        return cls()


def _piece_name(piece: chess.Piece) -> str:
    return f"{'white' if piece.color else 'black'} {chess.piece_name(piece.piece_type)}"


# ---- a seat's view ------------------------------------------------------------------------------------------------

@dataclass
class CoopView(View):
    """What one seat knows, from its own observations: the board, the line, the discard pile, its own hand, how
    many cards its partner holds and the pile holds (never their order), the turn and step, the questions."""

    seat: Seat | None = None
    solitaire: bool = False
    board: chess.Board = field(default_factory=chess.Board)
    line: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    hand_counts: list[int] = field(default_factory=lambda: [0, 0])
    pile: int = 0
    turn: Turn | None = None
    captures: int = 0
    moves: list[Moved] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    question: Asked | None = None
    """A question put to this seat and not yet answered."""
    asked: Asked | None = None
    """This seat's own question, until it is answered."""
    talk: list[Asked | Answered] = field(default_factory=list)
    played_at: dict[int, int] = field(default_factory=dict)
    """For each answer in :attr:`talk` (by its place there), how many cards had been played when it came."""
    asked_this_turn: bool = False
    outcome: Outcome | None = None
    types_gone: int = 0
    last_move: Moved | None = None
    events: list[tuple[int, str]] = field(default_factory=list)
    """What each turn did, by turn number, for the score sheet: cards played or turned, moves."""

    @property
    def number(self) -> int:
        return self.turn.number if self.turn is not None else 1

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return self.turn.phase if self.turn is not None else "card"

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None or self.turn is None:
            return None
        return self.turn.seat

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    @property
    def colour(self) -> chess.Color:
        return self.board.turn

    def score(self) -> tuple[int, int]:
        """The score now and the piece types gone."""
        return score_of(self.board, self.captures)

    def may_ask(self) -> bool:
        return (self.my_turn and not self.solitaire and not self.asked_this_turn
                and self.phase in ("card", "move", "capture"))

    def options(self) -> list[CoopMove]:
        """The moves this seat may make now (its turn's step), from the board, the line and the discard pile."""
        if not self.my_turn or self.phase not in ("move", "capture"):
            return []
        return move_options(self.board, self.line, self.discard, self.phase == "capture")

    def apply(self, observation: Any) -> None:
        o = observation
        if isinstance(o, Dealt):
            self.seat, self.solitaire = o.seat, o.solitaire
            self.hand, self.line, self.pile = list(o.hand), list(o.line), o.pile
            self.hand_counts = list(o.hand_counts)
            self.board = chess.Board(o.fen)
            self.discard, self.captures = list(o.discard), o.captures
        elif isinstance(o, Turn):
            if self.turn is None or self.turn.number != o.number:
                self.asked_this_turn = False
            self.turn = o
            self.board.turn = o.colour
            self.board.ep_square = chess.parse_square(o.ep) if o.ep else None
        elif isinstance(o, Turned):
            self.line.extend(o.cards)
            self.pile = o.pile
        elif isinstance(o, Played):
            self.line.append(o.card)
            self.played.append(o)
            self.events.append((self.number, f"[{o.card}]"))
            self.hand_counts[o.seat] -= 1
            if o.seat == self.seat and o.card in self.hand:
                self.hand.remove(o.card)
        elif isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            self.board.turn = o.colour
            self.board.push(move)
            self.board.turn = o.colour
            self.board.ep_square = None
            if o.card:
                self.line.remove(o.card)
                self.discard.append(o.card)
            if o.promoted_card:
                self.line.remove(o.pawn_card)
                self.discard.append(o.pawn_card)
                self.discard.remove(o.promoted_card)
                self.line.insert(o.place, o.promoted_card)
            self.captures = o.captures
            self.moves.append(o)
            self.last_move = o
            self.events.append((self.number, o.san if o.colour or not self.solitaire else f"…{o.san}"))
        elif isinstance(o, Drew):
            if o.seat == self.seat:
                self.hand.extend(card for card in o.cards if card)
            self.line.extend(o.kings)
            self.pile = o.pile
            self.hand_counts[o.seat] = o.hand
        elif isinstance(o, Asked):
            self.talk.append(o)
            if o.seat == self.seat:
                self.asked, self.asked_this_turn = o, True
            else:
                self.question = o
        elif isinstance(o, Answered):
            self.talk.append(o)
            self.played_at[len(self.talk) - 1] = len(self.played)
            if o.seat == self.seat:
                self.question = None
            else:
                self.asked = None
        elif isinstance(o, Ended):
            self.outcome, self.types_gone = o.outcome, o.types_gone


CoopChess.view_type = CoopView

