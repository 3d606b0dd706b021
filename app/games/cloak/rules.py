"""Cloak and Dagger: the referee, its actions and observations, and a seat's view.

Each side secretly arranges K, Q, R, R, B, B, N, N on its back rank under the Chess960 limits; the piece on
file n (a = 1 ... h = 8) is *checker n*, so an arrangement is an assignment of identities to checkers 1-8.
Pawns are ordinary and always visible. Every move is seen by both sides; only the identities of cloaked
checkers are hidden, and a cloaked checker moves as its true piece. Check is judged from visible pieces only
(uncloaked pieces and pawns give check; cloaked checkers still block lines); a cloaked king ignores check;
capturing any king wins at once; a draw may be offered once a turn (phase "answer_draw": the other seat
accepts or declines, then the offerer goes on). A turn is: [guess] -> regular move -> [own bonus after a right guess] ->
[uncloak] and, after a wrong guess, the opponent's bonus move comes right after that turn.

The true position is a python-chess ``Board(chess960=True)``; the rules of check are a layer of our own on
top of python-chess's pseudo-legal moves (:func:`legal_moves_on`). A seat's :class:`CloakView` keeps a
python-chess board of its own, in which enemy checkers it cannot see stand as placeholder pieces: it works
out the same moves as the referee from what the seat knows, which the tests check on many random games.

>>> game = CloakChess()
>>> game.phase, game.to_move
('arrange', 0)
>>> game.play(WHITE, Arrange("RNBQKBNR"))
>>> game.play(BLACK, Arrange("NRKBBQRN"))
>>> game.phase, game.to_move, len(game.choices()["moves"])
('move', 0, 20)
>>> view = CloakView.from_observations(game.observations(BLACK))
>>> view.own_arrangement, view.board[chess.E1]
('NRKBBQRN', Token(colour=0, kind='?', checker=5))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View

WHITE, BLACK = 0, 1
PIECE_LETTERS = "KQRBN"
CHECKERS = tuple(range(1, 9))
SEAT_NAMES = ("White", "Black")
PIECE_TYPES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
               "P": chess.PAWN}
LETTERS = {piece_type: letter for letter, piece_type in PIECE_TYPES.items()}
PLACEHOLDER = chess.KNIGHT
"""The type a view gives an enemy checker whose identity it cannot see. Only its square matters: our move
generation never looks at an enemy piece's type, and attacks are counted from visible enemy pieces only."""


def chess_colour(seat: int) -> chess.Color:
    """python-chess's colour of a seat (White is seat 0).

    >>> chess_colour(WHITE), chess_colour(BLACK)
    (True, False)
    """
    return seat == WHITE


def back_rank(seat: int) -> int:
    return 0 if seat == WHITE else 7


def checker_square(seat: int, checker: int) -> chess.Square:
    """Where checker ``checker`` of ``seat`` starts: the checker's file on the seat's back rank.

    >>> chess.square_name(checker_square(BLACK, 3))
    'c8'
    """
    return chess.square(checker - 1, back_rank(seat))


# ---- arrangements --------------------------------------------------------------------------------------------

def arrangement_problem(pieces: Any) -> str | None:
    """Why ``pieces`` is not a Chess960 arrangement, as a sentence; ``None`` when it is one.

    >>> arrangement_problem("RNBQKBNR") is None
    True
    >>> arrangement_problem("RNBKQBNR") is None
    True
    >>> arrangement_problem("KRNBQBNR")
    'the king must stand between the rooks'
    >>> arrangement_problem("BRBQKNNR")
    'the bishops must stand on squares of different colours'
    >>> arrangement_problem("RNBQKQNR")
    'an arrangement has one king, one queen, two rooks, two bishops and two knights'
    """
    if not isinstance(pieces, str) or len(pieces) != 8 or any(letter not in PIECE_LETTERS for letter in pieces):
        return "an arrangement is eight letters from K, Q, R, B and N, one for each file from a to h"
    if sorted(pieces) != sorted("KQRRBBNN"):
        return "an arrangement has one king, one queen, two rooks, two bishops and two knights"
    rooks = [index for index, letter in enumerate(pieces) if letter == "R"]
    if not rooks[0] < pieces.index("K") < rooks[1]:
        return "the king must stand between the rooks"
    bishops = [index for index, letter in enumerate(pieces) if letter == "B"]
    if bishops[0] % 2 == bishops[1] % 2:
        return "the bishops must stand on squares of different colours"
    return None


def all_arrangements() -> tuple[str, ...]:
    """Every Chess960 arrangement, sorted.

    >>> arrangements = all_arrangements()
    >>> len(arrangements), "RNBQKBNR" in arrangements
    (960, True)
    """
    return _ARRANGEMENTS


_ARRANGEMENTS = tuple(sorted({"".join(order) for order in itertools.permutations("KQRRBBNN")
                              if arrangement_problem("".join(order)) is None}))


# ---- actions -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Arrange(Action):
    """The secret setup: eight letters for files a to h (checkers 1 to 8), e.g. ``"RNBQKBNR"``."""

    pieces: str
    kind: ClassVar[str] = "arrange"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "pieces": self.pieces}


@dataclass(frozen=True)
class Guess(Action):
    """At the start of a turn: enemy checker ``checker`` (still cloaked, identity not yet told) is ``piece``."""

    checker: int
    piece: str
    kind: ClassVar[str] = "guess"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "checker": self.checker, "piece": self.piece}


@dataclass(frozen=True)
class Move(Action):
    """The regular move, in python-chess's Chess960 UCI (castling: the king onto its own rook's square).

    >>> Move("e1h1").to_json()
    {'type': 'move', 'uci': 'e1h1'}
    """

    uci: str
    kind: ClassVar[str] = "move"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "uci": self.uci}


@dataclass(frozen=True)
class Bonus(Action):
    """A bonus move: a pawn move (``"e2e4"``, ``"d7c8q"``), a drop of a captured pawn (``"P@c2"``), or
    ``None`` to decline it."""

    uci: str | None
    kind: ClassVar[str] = "bonus"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "uci": self.uci}


@dataclass(frozen=True)
class Uncloak(Action):
    """Ends the turn: uncloak these own checkers (maybe none)."""

    checkers: tuple[int, ...] = ()
    kind: ClassVar[str] = "uncloak"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "checkers": list(self.checkers)}


@dataclass(frozen=True)
class OfferDraw(Action):
    """Offer a draw: the seat to move, once a turn, in its "move" phase (as in Blind Chess)."""

    kind: ClassVar[str] = "offer_draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class AnswerDraw(Action):
    """Accept or decline the opponent's draw offer (phase "answer_draw")."""

    accept: bool
    kind: ClassVar[str] = "answer_draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "accept": self.accept}


# ---- observations --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seated:
    """Told to each seat when the game is set up: which seat it plays, and the game's public ``deduction``
    option (whether the app shades the deduction grids; the rules never read it)."""

    seat: Seat
    deduction: bool = True


@dataclass(frozen=True)
class Arranged:
    """``seat`` arranged its pieces; ``pieces`` only in that seat's own copy (``None`` in everyone else's)."""

    seat: Seat
    pieces: str | None


@dataclass(frozen=True)
class Guessed:
    """Told to both: ``seat`` guessed that the enemy's ``checker`` is ``piece``, and whether that was right."""

    seat: Seat
    checker: int
    piece: str
    right: bool


@dataclass(frozen=True)
class Moved:
    """Told to both: a move by ``seat`` (its regular move, or a bonus pawn move when ``bonus``).

    ``mover`` and ``captured`` are coded alike: ``"P"`` for a pawn, a piece letter for an uncloaked checker
    or a promoted pawn, the checker's number as text (``"3"``) for a cloaked checker. ``captured_identity``
    is the true piece of a captured checker; ``revealed`` the identities castling told (king and rook);
    ``capture_square`` where the captured piece stood (another square than ``to_square`` for en passant).
    """

    seat: Seat
    uci: str
    from_square: chess.Square
    to_square: chess.Square
    mover: str
    captured: str | None = None
    captured_identity: str | None = None
    promotion: str | None = None
    castling: bool = False
    bonus: bool = False
    revealed: dict[int, str] = field(default_factory=dict)
    capture_square: chess.Square | None = None


@dataclass(frozen=True)
class Dropped:
    """Told to both: ``seat``'s bonus move dropped one of its captured pawns on ``square``."""

    seat: Seat
    square: chess.Square


@dataclass(frozen=True)
class BonusLost:
    """Told to both: ``seat`` had a bonus move and made none (``declined``) or had none to make."""

    seat: Seat
    declined: bool


@dataclass(frozen=True)
class Uncloaked:
    """Told to both at the end of ``seat``'s turn: the checkers it uncloaked and what they are (maybe none)."""

    seat: Seat
    identities: dict[int, str]


@dataclass(frozen=True)
class Checked:
    """Told to both after ``seat``'s opponent ended its turn: ``seat``'s king, uncloaked, stands attacked by a
    visible enemy piece (check as the rules judge it; a cloaked king is never in check, so this tells nothing
    the public board does not)."""

    seat: Seat


@dataclass(frozen=True)
class DrawOffered:
    """Told to both: ``seat`` offered a draw; the other seat must answer before play goes on."""

    seat: Seat


@dataclass(frozen=True)
class DrawDeclined:
    """Told to both: ``seat`` declined the draw offer; the offerer goes on with its turn."""

    seat: Seat


@dataclass(frozen=True)
class Ended:
    """Told to both when the game ends: the outcome, and both arrangements (``None`` where none was made)."""

    outcome: Outcome
    arrangements: tuple[str | None, str | None]


Observation = (Seated | Arranged | Guessed | Moved | Dropped | BonusLost | Uncloaked | DrawOffered | DrawDeclined
               | Ended)


class Token(NamedTuple):
    """What stands on a square as a seat sees it: ``kind`` is ``"P"``, a piece letter (an uncloaked checker
    or a promoted pawn) or ``"?"`` for a cloaked checker; ``checker`` is the checker's number (``None`` for
    pawns and promoted pawns)."""

    colour: int
    kind: str
    checker: int | None


class SeenMove(NamedTuple):
    """One entry of :attr:`CloakView.moves`: a move or drop seen, and the occupied squares (a python-chess
    ``SquareSet`` as an int) just before it."""

    moved: Moved | Dropped
    occupied: int


# ---- the rules of moving ---------------------------------------------------------------------------------------

def _with_turn(board: chess.Board, seat: int) -> chess.Board:
    board.turn = chess_colour(seat)
    return board


def attacked_by_visible(board: chess.Board, seat: int, square: chess.Square, visible: int,
                        occupied: int | None = None) -> bool:
    """Whether a visible piece of ``seat``'s enemy attacks ``square`` (cloaked checkers block but never
    attack). ``visible`` is a mask of the squares of visible pieces."""
    return bool(board.attackers_mask(not chess_colour(seat), square, occupied) & visible)


@dataclass(frozen=True)
class Knowledge:
    """What the rules of check need besides the board, all of it known to the seat to move:

    ``visible_enemy``: squares of the enemy's visible pieces (pawns, uncloaked and promoted pieces);
    ``king_square``: the mover's king; ``king_cloaked``: whether it is cloaked (then it ignores check);
    ``maybe_kings``: enemy squares whose capture may be a king capture as far as the mover knows (the
    enemy's visible or told king, and every cloaked checker not publicly known to be something else):
    such a capture is always allowed, since a king capture is.
    """

    visible_enemy: int
    king_square: chess.Square | None
    king_cloaked: bool
    maybe_kings: int


def _leaves_king_safe(board: chess.Board, seat: int, move: chess.Move, known: Knowledge) -> bool:
    if known.king_cloaked or known.king_square is None:
        return True
    if chess.BB_SQUARES[move.to_square] & known.maybe_kings:
        return True
    # The board after the move, as occupancy only: enemy attacks need nothing else (pushing a copy is slow).
    from_bb, to_bb = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    if board.is_castling(move):
        king, rook_to = castling_destinations(seat, move.from_square, move.to_square)
        occupied = (board.occupied & ~from_bb & ~to_bb) | chess.BB_SQUARES[king] | chess.BB_SQUARES[rook_to]
        return not attacked_by_visible(board, seat, king, known.visible_enemy, occupied)
    king = move.to_square if move.from_square == known.king_square else known.king_square
    taken = to_bb
    if board.is_en_passant(move):
        taken = chess.BB_SQUARES[move.to_square + (-8 if seat == WHITE else 8)]
    occupied = (board.occupied & ~from_bb & ~taken) | to_bb
    return not attacked_by_visible(board, seat, king, known.visible_enemy & ~taken, occupied)


def castling_moves_on(board: chess.Board, seat: int, known: Knowledge) -> list[chess.Move]:
    """Chess960 castling for ``seat`` (king onto own rook form). Every square between each piece's start and
    end must be empty apart from those two; an uncloaked king may not start on, pass or land on a square
    attacked by a visible enemy piece."""
    colour = chess_colour(seat)
    king = board.king(colour)
    rank = back_rank(seat)
    if king is None or chess.square_rank(king) != rank:
        return []
    found = []
    rooks = board.clean_castling_rights() & board.rooks & board.occupied_co[colour] & chess.BB_RANKS[rank]
    for rook in chess.scan_forward(rooks):
        king_side = rook > king
        king_to = chess.square(6 if king_side else 2, rank)
        rook_to = chess.square(5 if king_side else 3, rank)
        path = (chess.between(king, king_to) | chess.BB_SQUARES[king_to]
                | chess.between(rook, rook_to) | chess.BB_SQUARES[rook_to])
        if path & board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]:
            continue
        if not known.king_cloaked:
            walk = chess.between(king, king_to) | chess.BB_SQUARES[king] | chess.BB_SQUARES[king_to]
            without_king = board.occupied & ~chess.BB_SQUARES[king]
            if any(attacked_by_visible(board, seat, square, known.visible_enemy, without_king)
                   for square in chess.scan_forward(walk)):
                continue
        found.append(chess.Move(king, rook))
    return found


def legal_moves_on(board: chess.Board, seat: int, known: Knowledge, pawns_only: bool = False) -> list[chess.Move]:
    """``seat``'s moves under the Cloak and Dagger rules: python-chess's pseudo-legal moves (castling our
    own way) that do not leave the mover's uncloaked king attacked by a visible enemy piece, plus every
    capture that may take a king. ``pawns_only``: the pawn moves a bonus allows (no castling).

    The enemy's piece types are never read except on visible squares, so a view whose enemy checkers are
    placeholders gets the same moves as the referee.
    """
    board = _with_turn(board.copy(stack=False), seat)
    colour = chess_colour(seat)
    from_mask = board.pawns & board.occupied_co[colour] if pawns_only else chess.BB_ALL
    candidates = [move for move in board.generate_pseudo_legal_moves(from_mask)
                  if not board.is_castling(move)]
    if not pawns_only:
        candidates += castling_moves_on(board, seat, known)
    return [move for move in candidates if _leaves_king_safe(board, seat, move, known)]


def drops_on(board: chess.Board, seat: int, known: Knowledge, pawns_in_hand: int) -> list[chess.Move]:
    """The pawn drops a bonus allows: any empty square of ``seat``'s second rank, when it has a captured pawn,
    if the drop leaves its uncloaked king out of visible check."""
    if pawns_in_hand <= 0:
        return []
    rank = 1 if seat == WHITE else 6
    drops = []
    for square in chess.scan_forward(chess.BB_RANKS[rank] & ~board.occupied):
        if known.king_cloaked or known.king_square is None or not attacked_by_visible(
                board, seat, known.king_square, known.visible_enemy, board.occupied | chess.BB_SQUARES[square]):
            drops.append(chess.Move(square, square, drop=chess.PAWN))
    return drops


def castling_destinations(seat: int, king: chess.Square, rook: chess.Square) -> tuple[chess.Square, chess.Square]:
    """Where king and rook end when ``seat`` castles with the rook on ``rook``.

    >>> [chess.square_name(square) for square in castling_destinations(WHITE, chess.B1, chess.A1)]
    ['c1', 'd1']
    """
    rank = back_rank(seat)
    if rook > king:
        return chess.square(6, rank), chess.square(5, rank)
    return chess.square(2, rank), chess.square(3, rank)


# ---- the view ------------------------------------------------------------------------------------------------

@dataclass
class CloakView(View):
    """What one seat knows, built only from its observations (``seat`` is ``None`` for the public view the
    referee keeps: what both sides know).

    ``board`` maps squares to :class:`Token`; ``cloaked`` holds each side's checkers on the board that are
    still cloaked; ``told`` the identities told to both (captures, castling, right guesses, uncloaking);
    ``moves`` every move and drop seen, in order, with the occupancy before it.
    """

    seat: Seat | None = None
    deduction: bool = True
    phase: str = "arrange"
    to_move: Seat | None = WHITE
    own_arrangement: str | None = None
    arranged: list[bool] = field(default_factory=lambda: [False, False])
    cloaked: dict[int, set[int]] = field(default_factory=lambda: {WHITE: set(), BLACK: set()})
    told: dict[int, dict[int, str]] = field(default_factory=lambda: {WHITE: {}, BLACK: {}})
    guesses: list[Guessed] = field(default_factory=list)
    pawns_to_drop: dict[int, int] = field(default_factory=lambda: {WHITE: 0, BLACK: 0})
    moves: list[SeenMove] = field(default_factory=list)
    pending_bonus: Seat | None = None
    """The seat whose bonus move is due now or after the regular move (``None``: no bonus in sight)."""
    guessed_this_turn: bool = False
    guess_right: bool | None = None
    draw_offered_this_turn: bool = False
    turn_seat: Seat = WHITE
    """Whose turn it is (during the opponent's bonus after a wrong guess: the bonus-taker's, which follows)."""
    ply: int = 0
    outcome: Outcome | None = None
    arrangements: tuple[str | None, str | None] | None = None
    """Both arrangements, once the game is over."""
    checkers: dict[chess.Square, tuple[int, int]] = field(default_factory=dict)
    """Square -> (colour, checker number) for every checker on the board, cloaked or not."""
    position: chess.Board = field(default_factory=lambda: chess.Board(None, chess960=True))
    """The board as this seat sees it: enemy checkers it cannot identify stand as :data:`PLACEHOLDER` pieces."""

    # -- what is shown -------------------------------------------------------------------------------------
    @property
    def board(self) -> dict[chess.Square, Token]:
        tokens = {}
        for square, piece in self.position.piece_map().items():
            colour = WHITE if piece.color else BLACK
            if square in self.checkers:
                _, number = self.checkers[square]
                kind = "?" if number in self.cloaked[colour] else LETTERS[piece.piece_type]
                tokens[square] = Token(colour, kind, number)
            else:
                tokens[square] = Token(colour, LETTERS[piece.piece_type], None)
        return tokens

    @property
    def ep_square(self) -> chess.Square | None:
        return self.position.ep_square

    @property
    def castling(self) -> int:
        """Own rook squares still able to castle (a mask); 0 for the public view."""
        if self.seat is None:
            return 0
        return int(self.position.clean_castling_rights() & chess.BB_RANKS[back_rank(self.seat)])

    # -- what the seat may do --------------------------------------------------------------------------------
    def knowledge(self, seat: Seat) -> Knowledge:
        """The :class:`Knowledge` ``seat`` moves with; for the own seat or the public view's referee."""
        return public_knowledge(self, seat, self._own_king(seat))

    def _own_king(self, seat: Seat) -> tuple[chess.Square | None, bool]:
        king = self.position.king(chess_colour(seat)) if seat == self.seat else None
        if king is None:
            return None, True
        number = self.checkers.get(king, (seat, 0))[1]
        return king, number in self.cloaked[seat]

    def legal_moves(self) -> list[str]:
        """The regular moves open to this seat now (empty unless it must make one)."""
        if self.seat is None or self.outcome is not None or self.to_move != self.seat or self.phase != "move":
            return []
        return [move.uci() for move in legal_moves_on(self.position, self.seat, self.knowledge(self.seat))]

    def legal_bonus(self) -> list[str]:
        """The bonus moves open to this seat now: pawn moves and drops (``"P@c2"``)."""
        if self.seat is None or self.outcome is not None or self.to_move != self.seat or self.phase != "bonus":
            return []
        return bonus_moves(self.position, self.seat, self.knowledge(self.seat), self.pawns_to_drop[self.seat])

    def guessable(self) -> list[tuple[int, str]]:
        """The guesses open to this seat now: (enemy checker, piece) for every cloaked checker not yet told."""
        if self.seat is None or self.outcome is not None or self.to_move != self.seat or self.phase != "move" \
                or self.guessed_this_turn:
            return []
        return guesses_against(self, 1 - self.seat)

    def can_offer_draw(self) -> bool:
        """Whether this seat may offer a draw now (once a turn, in its "move" phase)."""
        return self.seat is not None and self.outcome is None and self.to_move == self.seat \
            and self.phase == "move" and not self.draw_offered_this_turn

    def uncloakable(self) -> list[int]:
        if self.seat is None or self.to_move != self.seat or self.phase != "uncloak":
            return []
        return sorted(self.cloaked[self.seat])

    # -- learning --------------------------------------------------------------------------------------------
    def apply(self, observation: Any) -> None:
        if isinstance(observation, Seated):
            self.seat, self.deduction = observation.seat, observation.deduction
        elif isinstance(observation, Arranged):
            self._arranged(observation)
        elif isinstance(observation, Guessed):
            self.guesses.append(observation)
            self.guessed_this_turn, self.guess_right = True, observation.right
            if observation.right:
                self.told[1 - observation.seat][observation.checker] = observation.piece
                self.pending_bonus = observation.seat
            else:
                self.pending_bonus = 1 - observation.seat
        elif isinstance(observation, Moved):
            self.moves.append(SeenMove(observation, int(self.position.occupied)))
            self._moved(observation)
            if observation.bonus:
                self._bonus_done(observation.seat)
            else:
                self._regular_done(observation.seat)
        elif isinstance(observation, Dropped):
            self.moves.append(SeenMove(observation, int(self.position.occupied)))
            self.position.set_piece_at(observation.square, chess.Piece(chess.PAWN, chess_colour(observation.seat)))
            self.position.ep_square = None  # a drop is a move: an en passant chance has passed
            self.pawns_to_drop[observation.seat] -= 1
            self._bonus_done(observation.seat)
        elif isinstance(observation, BonusLost):
            self._bonus_done(observation.seat)
        elif isinstance(observation, Uncloaked):
            for number, piece in observation.identities.items():
                self.cloaked[observation.seat].discard(number)
                self.told[observation.seat][number] = piece
                square = self._square_of(observation.seat, number)
                if square is not None:
                    self.position.set_piece_at(square, chess.Piece(PIECE_TYPES[piece], chess_colour(observation.seat)))
            self._turn_done(observation.seat)
        elif isinstance(observation, DrawOffered):
            self.draw_offered_this_turn = True
            self.phase, self.to_move = "answer_draw", 1 - observation.seat
        elif isinstance(observation, DrawDeclined):
            self.phase, self.to_move = "move", 1 - observation.seat
        elif isinstance(observation, Ended):
            self.outcome = observation.outcome
            self.arrangements = observation.arrangements
            self.phase, self.to_move = "over", None

    def _square_of(self, colour: int, number: int) -> chess.Square | None:
        return next((square for square, (side, checker) in self.checkers.items()
                     if side == colour and checker == number), None)

    def _arranged(self, observation: Arranged) -> None:
        self.arranged[observation.seat] = True
        if observation.pieces is not None and observation.seat == self.seat:
            self.own_arrangement = observation.pieces
        self.ply += 1
        if not all(self.arranged):
            self.to_move = self.arranged.index(False)
            return
        self.position = chess.Board(None, chess960=True)
        rights = 0
        for colour in (WHITE, BLACK):
            known = self.own_arrangement if colour == self.seat else None
            for number in CHECKERS:
                square = checker_square(colour, number)
                piece_type = PIECE_TYPES[known[number - 1]] if known else PLACEHOLDER
                self.position.set_piece_at(square, chess.Piece(piece_type, chess_colour(colour)))
                self.checkers[square] = (colour, number)
                if known and known[number - 1] == "R":
                    rights |= chess.BB_SQUARES[square]
                self.cloaked[colour].add(number)
            pawn_rank = 1 if colour == WHITE else 6
            for file in range(8):
                self.position.set_piece_at(chess.square(file, pawn_rank), chess.Piece(chess.PAWN, chess_colour(colour)))
        self.position.castling_rights = rights
        self.phase, self.to_move, self.turn_seat = "move", WHITE, WHITE

    def _moved(self, moved: Moved) -> None:
        colour = moved.seat
        board = self.position
        move = chess.Move.from_uci(moved.uci)
        if moved.castling:
            king_to, rook_to = castling_destinations(colour, moved.from_square, moved.to_square)
            king_piece, rook_piece = board.remove_piece_at(moved.from_square), board.remove_piece_at(moved.to_square)
            king_checker = self.checkers.pop(moved.from_square)
            rook_checker = self.checkers.pop(moved.to_square)
            board.set_piece_at(king_to, chess.Piece(chess.KING, chess_colour(colour)) if king_piece else None)
            board.set_piece_at(rook_to, chess.Piece(chess.ROOK, chess_colour(colour)) if rook_piece else None)
            self.checkers[king_to], self.checkers[rook_to] = king_checker, rook_checker
            board.castling_rights &= ~chess.BB_RANKS[back_rank(colour)]
            board.ep_square = None
            for number, piece in moved.revealed.items():
                self.told[colour][number] = piece
            return
        if moved.captured is not None:
            victim_square = moved.capture_square if moved.capture_square is not None else moved.to_square
            victim = self.checkers.pop(victim_square, None)
            if victim is not None:
                self.cloaked[victim[0]].discard(victim[1])
                if moved.captured_identity:
                    self.told[victim[0]][victim[1]] = moved.captured_identity
            elif moved.captured == "P":
                self.pawns_to_drop[1 - colour] += 1
        mover = self.checkers.pop(moved.from_square, None)
        board.turn = chess_colour(colour)
        board.push(move)
        if mover is not None:
            self.checkers[moved.to_square] = mover

    # -- the order of a turn, driven by what both sides are told -----------------------------------------------------
    def _regular_done(self, seat: Seat) -> None:
        if self.guess_right:
            self.phase, self.to_move = "bonus", seat
        else:
            self._to_uncloak(seat)

    def _to_uncloak(self, seat: Seat) -> None:
        if self.cloaked[seat]:
            self.phase, self.to_move = "uncloak", seat
        else:
            self._turn_done(seat)

    def _bonus_done(self, seat: Seat) -> None:
        self.pending_bonus = None
        if self.guess_right:  # the guesser's own bonus, after its regular move: its turn goes on
            self._to_uncloak(seat)
        else:  # the bonus after the opponent's wrong guess: the bonus-taker's regular turn follows
            self.phase, self.to_move = "move", seat

    def _turn_done(self, seat: Seat) -> None:
        self.ply += 1
        wrong = self.guess_right is False
        self.turn_seat = 1 - seat
        self.guessed_this_turn, self.guess_right, self.draw_offered_this_turn = False, None, False
        if wrong:
            self.pending_bonus = 1 - seat
            self.phase, self.to_move = "bonus", 1 - seat
        else:
            self.pending_bonus = None
            self.phase, self.to_move = "move", 1 - seat


def public_knowledge(view: CloakView, seat: Seat, own_king: tuple[chess.Square | None, bool]) -> Knowledge:
    """:class:`Knowledge` for ``seat`` from what both sides know (``view``) and its own king (square, cloaked)."""
    from app.games.cloak.deduction import Deduction
    enemy = 1 - seat
    board = view.position
    enemy_pieces = board.occupied_co[chess_colour(enemy)]
    hidden = 0
    maybe_kings = 0
    # Whether a cloaked checker may be the king, by everything both players have seen (identities told, guesses
    # answered, the moves each checker made, the Chess960 limits): once that rules the king out (another checker
    # is known to be it, or this one jumped like a knight), capturing it is an ordinary move again.
    public = Deduction.about(view, enemy)
    for square, (colour, number) in view.checkers.items():
        if colour != enemy:
            continue
        identity = view.told[enemy].get(number)
        if number in view.cloaked[enemy]:
            hidden |= chess.BB_SQUARES[square]
            if identity == "K" or (identity is None and (public.count == 0 or public.possible(number, "K"))):
                maybe_kings |= chess.BB_SQUARES[square]
        elif identity == "K":
            maybe_kings |= chess.BB_SQUARES[square]
    return Knowledge(visible_enemy=enemy_pieces & ~hidden, king_square=own_king[0], king_cloaked=own_king[1],
                     maybe_kings=maybe_kings)


def publicly_insufficient(board: chess.Board, public: CloakView, trackers: Any = None) -> bool:
    """Whether neither side has mating material in *every* arrangement of the cloaked checkers that fits what
    both players have been told (``public``), with each side's king still on the board (ruling CD6b). Judging
    the true ``board`` alone would tell a player something about the enemy's untold identities by whether the
    game goes on. Pawns waiting to be dropped do not count (they are not on the board).

    Cheap when the game goes on for material: the true arrangements are among those that fit, so a true board
    with mating material settles it at once. Only a true board without any is tried with the other identities.
    ``trackers``: a deduction :class:`~app.games.cloak.deduction.Tracker` per side kept over the game (each reads
    only the moves new since its last use), else the public record is read afresh.
    """
    if not board.is_insufficient_material():
        return False
    from app.games.cloak.deduction import Deduction
    probe = board.copy(stack=False)
    ways: list[list[list[tuple[chess.Square, chess.Piece]]]] = []
    for side in (WHITE, BLACK):
        on_board = {number: square for square, (colour, number) in public.checkers.items() if colour == side}
        cloaked = sorted(number for number in on_board if number in public.cloaked[side])
        if not cloaked:
            ways.append([[]])
            continue
        deduction = trackers[side].update(public) if trackers is not None else Deduction.about(public, side)
        fits = deduction.identities(cloaked, king_among=on_board)
        if not fits:  # evidence that contradicts itself (never in a game played by the rules): the true board
            ways.append([[]])
            continue
        ways.append([[(on_board[number], chess.Piece(PIECE_TYPES[piece], chess_colour(side)))
                      for number, piece in zip(cloaked, identities)] for identities in sorted(fits)])
    for white in ways[WHITE]:
        for black in ways[BLACK]:
            for square, piece in white + black:
                probe.set_piece_at(square, piece)
            if not probe.is_insufficient_material():
                return False
    return True


def bonus_moves(board: chess.Board, seat: Seat, known: Knowledge, pawns_in_hand: int) -> list[str]:
    moves = legal_moves_on(board, seat, known, pawns_only=True) + drops_on(board, seat, known, pawns_in_hand)
    return [move.uci() for move in moves]


def guesses_against(view: CloakView, enemy: int) -> list[tuple[int, str]]:
    return [(number, piece) for number in sorted(view.cloaked[enemy]) if number not in view.told[enemy]
            for piece in PIECE_LETTERS]


# ---- the referee -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CloakTruth:
    """The true state for replays: the board, both arrangements, the cloaked checkers and where checkers stand."""

    board: chess.Board
    arrangements: tuple[str | None, str | None]
    cloaked: dict[int, frozenset[int]]
    checkers: dict[chess.Square, tuple[int, int]]


class CloakChess(Game):
    """The referee of one game of Cloak and Dagger; it alone knows both arrangements."""

    variant: ClassVar[str] = "cloak"
    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES
    hidden_information: ClassVar[bool] = True

    def __init__(self, deduction: bool = True) -> None:
        super().__init__()
        self.deduction = deduction
        """The option for the deduction grids; the rules never read it."""
        self.arrangements: list[str | None] = [None, None]
        self.board = chess.Board(None, chess960=True)
        self.public = CloakView()
        """What both sides know, fed with every observation told to both: it runs the order of the turns."""
        self._check_judged_at = 0  # the public ply whose turn's check was judged (see _judge_check)
        self._trackers: tuple[Any, Any] | None = None  # the public deduction per side, for CD6b (made when needed)
        for seat in (WHITE, BLACK):
            self._tell(seat, Seated(seat, deduction))

    # -- state --------------------------------------------------------------------------------------------------
    def truth(self) -> CloakTruth:
        return CloakTruth(self.board.copy(), (self.arrangements[0], self.arrangements[1]),
                          {colour: frozenset(numbers) for colour, numbers in self.public.cloaked.items()},
                          dict(self.public.checkers))

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self.public.to_move

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.public.phase

    @property
    def ply(self) -> int:
        return self.public.ply

    def knowledge(self, seat: Seat) -> Knowledge:
        """The seat's :class:`Knowledge` on the true board (its own king is known to it)."""
        king = self.board.king(chess_colour(seat))
        cloaked = king is None or self.public.checkers.get(king, (seat, 0))[1] in self.public.cloaked[seat]
        return public_knowledge(self.public, seat, (king, cloaked))

    def legal_moves(self, seat: Seat) -> list[chess.Move]:
        return legal_moves_on(self.board, seat, self.knowledge(seat))

    def legal_bonus(self, seat: Seat) -> list[str]:
        return bonus_moves(self.board, seat, self.knowledge(seat), self.public.pawns_to_drop[seat])

    def choices(self) -> dict[str, Any]:
        seat = self.to_move
        if seat is None:
            return {}
        phase = self.phase
        if phase == "arrange":
            return {"phase": phase, "arrangements": True}
        if phase == "move":
            guesses = [] if self.public.guessed_this_turn else guesses_against(self.public, 1 - seat)
            return {"phase": phase, "guesses": guesses, "moves": [move.uci() for move in self.legal_moves(seat)],
                    "offer_draw": not self.public.draw_offered_this_turn}
        if phase == "answer_draw":
            return {"phase": phase, "answer_draw": True}
        if phase == "bonus":
            return {"phase": phase, "bonus": self.legal_bonus(seat)}
        return {"phase": phase, "uncloak": sorted(self.public.cloaked[seat])}

    # -- telling ----------------------------------------------------------------------------------------------------
    def _tell_both(self, observation: Any) -> None:
        self._tell_all(observation)
        self.public.apply(observation)

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome, (self.arrangements[0], self.arrangements[1]))

    def _finish(self, outcome: Outcome) -> None:
        super()._finish(outcome)
        self.public.apply(self._logs[0][-1])

    # -- acting -------------------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        phase = self.phase
        if phase == "arrange":
            if type(action) is not Arrange:
                raise IllegalAction(f"{SEAT_NAMES[seat]} must first arrange its pieces")
            self._arrange(seat, action)
        elif phase == "answer_draw":
            if type(action) is not AnswerDraw or not isinstance(action.accept, bool):
                raise IllegalAction(f"{SEAT_NAMES[seat]} must accept or decline the draw offer first")
            if action.accept:
                self._finish(Outcome(None, Reason.DRAW_AGREED, "drawn by agreement"))
            else:
                self._tell_both(DrawDeclined(seat))
        elif phase == "move":
            if type(action) is OfferDraw:
                if self.public.draw_offered_this_turn:
                    raise IllegalAction("a draw may be offered once a turn")
                self._tell_both(DrawOffered(seat))
            elif type(action) is Guess:
                self._guess(seat, action)
            elif type(action) is Move:
                self._move(seat, action)
            else:
                raise IllegalAction(f"{SEAT_NAMES[seat]} must guess or move now")
        elif phase == "bonus":
            if type(action) is not Bonus:
                raise IllegalAction(f"{SEAT_NAMES[seat]} must make or decline its bonus move now")
            self._bonus(seat, action)
        else:
            if type(action) is not Uncloak:
                raise IllegalAction(f"{SEAT_NAMES[seat]} must uncloak checkers or end its turn now")
            self._uncloak(seat, action)
        if self.outcome is None:
            self._settle()

    def _arrange(self, seat: Seat, action: Arrange) -> None:
        problem = arrangement_problem(action.pieces)
        if problem is not None:
            raise IllegalAction(f"not a valid arrangement: {problem}")
        self.arrangements[seat] = action.pieces
        if all(self.arrangements):
            self._set_up()
        self._tell(seat, Arranged(seat, action.pieces))
        self._tell(1 - seat, Arranged(seat, None))
        self.public.apply(Arranged(seat, None))

    def _set_up(self) -> None:
        board = chess.Board(None, chess960=True)
        rights = 0
        for seat in (WHITE, BLACK):
            pieces = self.arrangements[seat]
            assert pieces is not None
            for number in CHECKERS:
                square = checker_square(seat, number)
                board.set_piece_at(square, chess.Piece(PIECE_TYPES[pieces[number - 1]], chess_colour(seat)))
                if pieces[number - 1] == "R":
                    rights |= chess.BB_SQUARES[square]
            for file in range(8):
                board.set_piece_at(chess.square(file, 1 if seat == WHITE else 6), chess.Piece(chess.PAWN, chess_colour(seat)))
        board.castling_rights = rights
        board.turn = chess.WHITE
        self.board = board

    def _guess(self, seat: Seat, action: Guess) -> None:
        if self.public.guessed_this_turn:
            raise IllegalAction("only one guess is allowed a turn, before the move")
        if (action.checker, action.piece) not in guesses_against(self.public, 1 - seat):
            raise IllegalAction(f"checker {str(action.checker)[:10]} cannot be guessed as {str(action.piece)[:10]}: "
                                "name an enemy checker still cloaked whose identity was not told, and one of K, Q, R, B, N")
        pieces = self.arrangements[1 - seat]
        assert pieces is not None
        self._tell_both(Guessed(seat, action.checker, action.piece, pieces[action.checker - 1] == action.piece))

    def _parse(self, text: Any) -> chess.Move:
        try:
            return chess.Move.from_uci(str(text))
        except ValueError:
            raise IllegalAction(f"{str(text)[:20]!r} is not a move in UCI form") from None

    def _move(self, seat: Seat, action: Move) -> None:
        move = self._parse(action.uci)
        if move not in self.legal_moves(seat):
            raise IllegalAction(f"{str(action.uci)[:20]} is not a legal move now")
        self._play_move(seat, move, bonus=False)

    def _bonus(self, seat: Seat, action: Bonus) -> None:
        if action.uci is None:
            self._tell_both(BonusLost(seat, declined=True))
            return
        if str(action.uci) not in self.legal_bonus(seat):
            raise IllegalAction(f"{str(action.uci)[:20]} is not a bonus move open now (a pawn move or a pawn drop)")
        move = self._parse(action.uci)
        if move.drop:
            self.board.set_piece_at(move.to_square, chess.Piece(chess.PAWN, chess_colour(seat)))
            self.board.ep_square = None
            self._tell_both(Dropped(seat, move.to_square))
            return
        self._play_move(seat, move, bonus=True)

    def _code(self, square: chess.Square) -> str:
        piece = self.board.piece_at(square)
        assert piece is not None
        checker = self.public.checkers.get(square)
        if checker is not None and checker[1] in self.public.cloaked[checker[0]]:
            return str(checker[1])
        return LETTERS[piece.piece_type]

    def _play_move(self, seat: Seat, move: chess.Move, bonus: bool) -> None:
        board = _with_turn(self.board, seat)
        castling = board.is_castling(move)
        mover = self._code(move.from_square)
        captured = identity = None
        capture_square: chess.Square | None = None
        revealed: dict[int, str] = {}
        king_taken = False
        if castling:
            revealed = {self.public.checkers[move.from_square][1]: "K", self.public.checkers[move.to_square][1]: "R"}
        else:
            if board.is_en_passant(move):
                capture_square = move.to_square + (-8 if seat == WHITE else 8)
            elif board.piece_at(move.to_square) is not None:
                capture_square = move.to_square
            if capture_square is not None:
                victim = board.piece_at(capture_square)
                assert victim is not None
                captured = self._code(capture_square)
                king_taken = victim.piece_type == chess.KING
                if capture_square in self.public.checkers:
                    identity = LETTERS[victim.piece_type]
        promotion = LETTERS[move.promotion] if move.promotion else None
        board.push(move)
        self._tell_both(Moved(seat, move.uci(), move.from_square, move.to_square, mover, captured, identity,
                              promotion, castling, bonus, revealed, capture_square))
        if king_taken:
            self._finish(Outcome(seat, Reason.KING_CAPTURE, f"{SEAT_NAMES[seat]} captured the king"))

    def _uncloak(self, seat: Seat, action: Uncloak) -> None:
        chosen = tuple(action.checkers) if isinstance(action.checkers, (tuple, list)) else None
        if chosen is None or any(type(number) is not int or number not in self.public.cloaked[seat]
                                 for number in chosen) or len(set(chosen)) != len(chosen):
            raise IllegalAction("uncloak only your own checkers that are still cloaked, each once")
        pieces = self.arrangements[seat]
        assert pieces is not None
        self._tell_both(Uncloaked(seat, {number: pieces[number - 1] for number in sorted(chosen)}))

    def _judge_check(self) -> None:
        """Once a turn has ended (by uncloaking, or by its last move when nothing is left to uncloak): tell both
        when the side whose turn begins has its uncloaked king attacked by a visible piece."""
        if self.public.ply == self._check_judged_at or self.phase == "arrange":
            return
        self._check_judged_at = self.public.ply
        seat = self.public.turn_seat
        known = self.knowledge(seat)
        if not known.king_cloaked and known.king_square is not None and attacked_by_visible(
                self.board, seat, known.king_square, known.visible_enemy):
            self._tell_both(Checked(seat))

    def _public_trackers(self) -> tuple[Any, Any]:
        if self._trackers is None:
            from app.games.cloak.deduction import Tracker
            self._trackers = (Tracker(WHITE), Tracker(BLACK))
        return self._trackers

    def _settle(self) -> None:
        """After an action: draws by material (judged from what both were told, CD6b), lost bonuses, a side left
        without moves."""
        while self.outcome is None:
            self._judge_check()
            if self.phase != "arrange" and publicly_insufficient(self.board, self.public, self._public_trackers()):
                self._finish(Outcome(None, Reason.INSUFFICIENT_MATERIAL, "neither side can win: too few pieces left"))
                return
            seat = self.to_move
            assert seat is not None
            if self.phase == "bonus" and not self.legal_bonus(seat):
                self._tell_both(BonusLost(seat, declined=False))
                continue
            if self.phase == "move" and not self.legal_moves(seat):
                known = self.knowledge(seat)
                if not known.king_cloaked and known.king_square is not None and attacked_by_visible(
                        self.board, seat, known.king_square, known.visible_enemy):
                    self._finish(Outcome(1 - seat, Reason.NO_MOVES, f"{SEAT_NAMES[seat]} is checkmated"))
                else:
                    self._finish(Outcome(None, Reason.NO_MOVES, f"{SEAT_NAMES[seat]} has no legal move: a draw"))
            return

    # -- options and records ------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        # Written as the game's definition offers it ("on"/"off"), so a record's options read back as typed.
        return {"deduction": "on" if self.deduction else "off"}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "CloakChess":
        unknown = set(options) - {"deduction"}
        if unknown:
            raise ValueError(f"Cloak and Dagger has no option {', '.join(sorted(map(str, unknown)))[:80]}")
        deduction = options.get("deduction", True)
        if deduction in ("on", "off"):
            deduction = deduction == "on"
        if not isinstance(deduction, bool):
            raise ValueError(f"the deduction option is on or off, not {str(deduction)[:20]}")
        return cls(deduction=deduction)

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        kind = data.get("type")
        if kind == Arrange.kind and isinstance(data.get("pieces"), str):
            return Arrange(data["pieces"])
        if kind == Guess.kind and type(data.get("checker")) is int and isinstance(data.get("piece"), str):
            return Guess(data["checker"], data["piece"])
        if kind == Move.kind and isinstance(data.get("uci"), str):
            return Move(data["uci"])
        if kind == Bonus.kind and "uci" in data and (data["uci"] is None or isinstance(data["uci"], str)):
            return Bonus(data["uci"])  # a declined bonus says so ("uci": null); a missing field is a damaged record
        if kind == Uncloak.kind and isinstance(data.get("checkers"), list) \
                and all(type(number) is int for number in data["checkers"]):
            return Uncloak(tuple(data["checkers"]))
        if kind == OfferDraw.kind:
            return OfferDraw()
        if kind == AnswerDraw.kind and isinstance(data.get("accept"), bool):
            return AnswerDraw(data["accept"])
        raise ValueError(f"not a Cloak and Dagger action: {str(dict(data))[:60]}")


CloakChess.view_type = CloakView
