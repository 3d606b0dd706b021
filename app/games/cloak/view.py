"""What a seat of Cloak and Dagger is told and what it makes of it: the observations the referee tells, the
tokens a seat sees on a square, and a seat's view built from its observations only (the referee keeps one more,
the public view, fed with what both sides are told: it runs the order of a turn's phases).

A view keeps a python-chess board of its own in which enemy checkers it cannot identify stand as
:data:`~app.games.cloak.checkers.PLACEHOLDER` pieces: it works out the same moves as the referee from what the
seat knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import chess

from app.engine.core import Outcome, Seat, View
from app.games.cloak.checkers import (BLACK, CHECKERS, LETTERS, PIECE_LETTERS, PIECE_TYPES, PLACEHOLDER, WHITE,
                                      back_rank, checker_square, chess_colour)
from app.games.cloak.deduction import Deduction
from app.games.cloak.moves import Knowledge, bonus_moves, castling_destinations, legal_moves_on

# ---- the observations ------------------------------------------------------------------------------------------
# Here, in the view's module: the app finds a game's actions, observations and views in the modules its definition
# names (its referee's and its view's), and the view reads these classes.

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


def guesses_against(view: CloakView, enemy: int) -> list[tuple[int, str]]:
    return [(number, piece) for number in sorted(view.cloaked[enemy]) if number not in view.told[enemy]
            for piece in PIECE_LETTERS]
