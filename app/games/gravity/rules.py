"""Gravity Chess, the referee and a seat's view (rulings GR1-GR5).

Each colour has a king, a queen, two rooks, two bishops, two knights and four pawns, all off the board at first.
White's deck is Black's twelve cards and Black's deck White's twelve, shuffled from the game's own generator
(G2): nobody knows their order until a card is turned, so no observation, ``choices()`` or view holds it.

A turn: the referee turns the top card of the mover's deck (the piece is the opponent's); the mover then picks
its active pieces one at a time in any order, each one moving (a :class:`GravityMove`) if it has a move when
picked, or being passed (a :class:`GravityPass`) if it has none; last the mover places the turned piece on an
empty square of rank 8 (a :class:`GravityPlace`), or it is lost when rank 8 is full. "Active" means the mover's
pieces not stacked when the turn starts; one that becomes stacked or has nothing left to do is dropped.

Moves go down for both colours: a move must end on a lower rank, a capture on the same rank or a lower one.
Pawns step one square down, two down on their first move when both squares are empty, and capture one square
diagonally down; a pawn's "first move" is its first move since it was placed on rank 8 (every piece enters
there). No promotion, no en passant, no check; a king is taken like any piece.

A piece is stacked when it stands on rank 1, or when it would have no downward move if every unstacked piece
were taken off the board (:func:`stacked_squares`). Stacked pieces never move and cannot be captured.

The score of a colour (:func:`scores`): one point per enemy piece it captured, plus the rank of each of its
stacked pieces. A tie goes to the colour with more stacked pieces on the highest rank where the counts differ.

>>> game = GravityChess(seed=3)
>>> game.seat_names[game.to_move], game.phase, game.turn
('White', 'place', 1)
>>> len(game.choices()["squares"])
8
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.gravity import DEFINITION
from app.games.kit_cards import card_piece, cards_of, shuffled

__all__ = ["DECK_SIZE", "GravityChess", "GravityView", "GravityMove", "GravityPass", "GravityPlace",
           "deck_cards", "moves_from", "piece_moves", "stacked_squares", "scores", "tie_break", "winner_of"]

SEATS = DEFINITION.seat_names
COLOURS = (chess.WHITE, chess.BLACK)
ARMY = (chess.KING, chess.QUEEN, chess.ROOK, chess.ROOK, chess.BISHOP, chess.BISHOP, chess.KNIGHT, chess.KNIGHT,
        chess.PAWN, chess.PAWN, chess.PAWN, chess.PAWN)
DECK_SIZE = len(ARMY)
TOP = 7
"""The index of rank 8, where every piece enters."""


def colour_of(seat: Seat) -> chess.Color:
    return chess.WHITE if seat == 0 else chess.BLACK


def seat_of(colour: chess.Color) -> Seat:
    return 0 if colour == chess.WHITE else 1


def deck_cards(colour: chess.Color) -> tuple[str, ...]:
    """The twelve cards of ``colour``'s pieces (its four pawns are the 2 to 5 of its first suit).

    >>> deck_cards(chess.BLACK)
    ('KS', 'QS', '10S', '10C', '9S', '9C', '8S', '8C', '2S', '3S', '4S', '5S')
    """
    cards: list[str] = []
    for piece_type in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
        cards.extend(cards_of(chess.Piece(piece_type, colour)))
    cards.extend(cards_of(chess.Piece(chess.PAWN, colour))[:4])
    return tuple(cards)


# ---- moves and stacking (pure functions of a position) ---------------------------------------------------------

def _pawn_moves(board: chess.Board, square: chess.Square, fresh: bool,
                stacked: frozenset[chess.Square]) -> list[chess.Square]:
    piece = board.piece_at(square)
    assert piece is not None
    file, rank = chess.square_file(square), chess.square_rank(square)
    found: list[chess.Square] = []
    if rank == 0:
        return found
    below = chess.square(file, rank - 1)
    if board.piece_at(below) is None:
        found.append(below)
        if fresh and rank >= 2 and board.piece_at(chess.square(file, rank - 2)) is None:
            found.append(chess.square(file, rank - 2))
    for side in (file - 1, file + 1):
        if 0 <= side < 8:
            target = chess.square(side, rank - 1)
            victim = board.piece_at(target)
            if victim is not None and victim.color != piece.color and target not in stacked:
                found.append(target)
    return found


def piece_moves(board: chess.Board, square: chess.Square, fresh: bool = False,
                stacked: frozenset[chess.Square] | None = None) -> list[chess.Square]:
    """The squares the piece on ``square`` may go to (GR3): down to an empty square, or a capture of an
    unstacked enemy piece on the same rank or lower. ``fresh``: the piece has not moved since it was placed
    (a pawn may then step two). A stacked piece has none.

    >>> board = chess.Board("8/8/8/8/8/8/8/8 w - - 0 1")
    >>> board.set_piece_at(chess.D4, chess.Piece.from_symbol("R"))
    >>> board.set_piece_at(chess.G4, chess.Piece.from_symbol("n"))
    >>> [chess.square_name(s) for s in piece_moves(board, chess.D4)]
    ['d1', 'd2', 'd3', 'g4']
    """
    stacked = stacked_squares(board) if stacked is None else stacked
    if square in stacked:
        return []
    piece = board.piece_at(square)
    if piece is None:
        return []
    if piece.piece_type == chess.PAWN:
        return _pawn_moves(board, square, fresh, stacked)
    rank = chess.square_rank(square)
    found = []
    for target in board.attacks(square):
        victim = board.piece_at(target)
        target_rank = chess.square_rank(target)
        if victim is None:
            if target_rank < rank:
                found.append(target)
        elif victim.color != piece.color and target_rank <= rank and target not in stacked:
            found.append(target)
    return sorted(found)


def stacked_squares(board: chess.Board) -> frozenset[chess.Square]:
    """The squares of the stacked pieces (GR4): rank 1, and rank by rank upward, any piece with no downward move
    on a board that holds only the stacked pieces below it (a downward move never looks at its own rank or
    higher, so one pass from the bottom settles it). A pawn's two-square step needs the square below empty, so
    only that square counts for a pawn.

    >>> board = chess.Board("8/8/8/8/8/8/5r2/3K1N2 w - - 0 1")
    >>> sorted(chess.square_name(s) for s in stacked_squares(board))
    ['d1', 'f1', 'f2']
    """
    stacked = board.occupied & chess.BB_RANK_1
    for rank in range(1, 8):
        below = (1 << (8 * rank)) - 1
        found = 0
        for square in chess.scan_forward(board.occupied & chess.BB_RANKS[rank]):
            if not _falls(board.piece_type_at(square), square, stacked, below):
                found |= chess.BB_SQUARES[square]
        stacked |= found
    return frozenset(chess.scan_forward(stacked))


def _falls(piece_type: chess.PieceType | None, square: chess.Square, stacked: int, below: int) -> bool:
    """Whether a piece of ``piece_type`` on ``square`` has a downward move to an empty square when only the
    pieces of ``stacked`` (a mask) stand on the board (no capture counts: stacked pieces cannot be taken)."""
    if piece_type == chess.PAWN:
        return not stacked & chess.BB_SQUARES[square - 8]
    if piece_type == chess.KNIGHT:
        reach = chess.BB_KNIGHT_ATTACKS[square]
    elif piece_type == chess.KING:
        reach = chess.BB_KING_ATTACKS[square]
    else:
        reach = 0
        if piece_type in (chess.BISHOP, chess.QUEEN):
            reach |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & stacked]
        if piece_type in (chess.ROOK, chess.QUEEN):
            reach |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & stacked]
    return bool(reach & below & ~stacked)


def moves_from(board: chess.Board, squares: Iterable[chess.Square], fresh: Iterable[chess.Square] = (),
               stacked: frozenset[chess.Square] | None = None) -> dict[chess.Square, list[chess.Square]]:
    """Every move of the pieces on ``squares``: ``{from: [to, ...]}`` (pieces without a move included, with an
    empty list)."""
    stacked = stacked_squares(board) if stacked is None else stacked
    fresh_set = set(fresh)
    return {square: piece_moves(board, square, square in fresh_set, stacked) for square in squares}


def scores(board: chess.Board, captures: tuple[int, int]) -> tuple[int, int]:
    """White's and Black's points (GR5): captures, plus the rank number of each stacked piece.

    >>> board = chess.Board("8/8/8/8/8/8/1P6/Kq6 w - - 0 1")
    >>> scores(board, (0, 2))
    (3, 3)
    """
    points = [captures[0], captures[1]]
    for square in stacked_squares(board):
        piece = board.piece_at(square)
        assert piece is not None
        points[seat_of(piece.color)] += chess.square_rank(square) + 1
    return points[0], points[1]


def stacked_by_rank(board: chess.Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How many stacked pieces each colour has on each rank, rank 1 first."""
    counts = [[0] * 8, [0] * 8]
    for square in stacked_squares(board):
        piece = board.piece_at(square)
        assert piece is not None
        counts[seat_of(piece.color)][chess.square_rank(square)] += 1
    return tuple(counts[0]), tuple(counts[1])


def tie_break(board: chess.Board) -> tuple[Seat | None, int | None]:
    """Who wins a tie (GR5), and on which rank (0 for rank 1): the colour with more stacked pieces on the
    highest rank where the counts differ; ``(None, None)`` when every rank is equal."""
    white, black = stacked_by_rank(board)
    for rank in range(7, -1, -1):
        if white[rank] != black[rank]:
            return (0 if white[rank] > black[rank] else 1), rank
    return None, None


def winner_of(board: chess.Board, captures: tuple[int, int]) -> tuple[Seat | None, str]:
    """The winner (``None``: a draw) and the words that say why (the outcome's detail: the window puts the
    winner before them)."""
    white, black = scores(board, captures)
    if white != black:
        winner: Seat = 0 if white > black else 1
        return winner, f"{max(white, black)} points to {min(white, black)}"
    seat, rank = tie_break(board)
    if seat is None or rank is None:
        return None, f"{white} points each and the same stacks on every rank"
    return seat, f"{white} points each, more stacked pieces on rank {rank + 1}"


def _parse_square(text: Any) -> chess.Square:
    try:
        return chess.parse_square(str(text).strip().lower())
    except ValueError:
        raise IllegalAction(f"{str(text)[:8]!r} is not a square") from None


# ---- actions ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GravityMove(Action):
    """Move one active piece: from and to, in UCI (``d5d4``)."""

    uci: str
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class GravityPass(Action):
    """Pick an active piece that has no move: it is passed for this turn (its square, ``d5``)."""

    square: str
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class GravityPlace(Action):
    """Put the turned enemy piece on an empty square of rank 8 (``c8``)."""

    square: str
    kind: ClassVar[str] = "place"


# ---- observations (told to both seats: nothing in this game is private to one) ---------------------------------

class Seated(NamedTuple):
    """Told at the start: which seat this is, and the position the game starts from (an empty board, full decks;
    a hand-made position for tests and examples: its pieces as a FEN's placement, the squares of the pieces not
    yet moved, the captures so far and the cards left in each deck)."""

    seat: Seat
    placement: str = "8/8/8/8/8/8/8/8"
    fresh: tuple[str, ...] = ()
    captures: tuple[int, int] = (0, 0)
    left: tuple[int, int] = (DECK_SIZE, DECK_SIZE)


class TurnStarted(NamedTuple):
    """A turn of ``seat`` begins: its ``number`` (White's and Black's first turns are 1), the ``card`` turned
    for the opponent's piece ("" on White's last turn, which turns none), the cards left in that deck, and the
    squares of the mover's active pieces (those it must pick this turn)."""

    seat: Seat
    number: int
    card: str
    left: int
    active: tuple[str, ...]


class Moved(NamedTuple):
    """``seat`` moved its ``piece`` (a letter) by ``uci``, capturing ``captured`` (a letter, or "")."""

    seat: Seat
    uci: str
    piece: str
    captured: str


class Passed(NamedTuple):
    """``seat`` picked its ``piece`` on ``square``, which had no move: passed for this turn. ``by_itself``: the
    referee passed it because no active piece of the turn had a move left."""

    seat: Seat
    square: str
    piece: str
    by_itself: bool = False


class Placed(NamedTuple):
    """``seat`` put the opponent's ``piece`` (turned as ``card``) on ``square`` of rank 8."""

    seat: Seat
    square: str
    piece: str
    card: str


class Lost(NamedTuple):
    """Rank 8 was full: the opponent's ``piece`` turned as ``card`` by ``seat`` is out of the game."""

    seat: Seat
    piece: str
    card: str


class Ended(NamedTuple):
    """The game is over: the outcome, each side's points and captures."""

    outcome: Outcome
    points: tuple[int, int]
    captures: tuple[int, int]


@dataclass(frozen=True)
class GravityTruth:
    """The whole state: the board, the pieces that have not moved since placed, captures, whose turn, and the
    decks (never shown to a seat: see the presenter's ``truth_scene``)."""

    board: chess.Board
    fresh: frozenset[chess.Square]
    captures: tuple[int, int]
    pending: tuple[chess.Square, ...]
    flipped: str
    decks: tuple[tuple[str, ...], tuple[str, ...]]
    over: bool = False


# ---- the referee -----------------------------------------------------------------------------------------------

class GravityChess(Game):
    """The referee: the board, both decks, the turn and which of the mover's pieces must still be picked."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (GravityMove, GravityPass, GravityPlace)
    uses_chance: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        rng: random.Random = self.rng
        # White's deck holds Black's cards and Black's deck White's (GR1); the top is the first card.
        self.decks: list[list[str]] = [shuffled(deck_cards(chess.BLACK), rng), shuffled(deck_cards(chess.WHITE), rng)]
        self.board = chess.Board(None)
        self.fresh: set[chess.Square] = set()
        self.captures = [0, 0]
        self.mover: Seat = 0
        self.turn = 0
        self.final = False
        self.flipped = ""
        self.pending: list[chess.Square] = []
        self._phase = "move"
        self._ply = 0
        for seat in (0, 1):
            self._tell(seat, Seated(seat))
        self._start_turn(0)

    @classmethod
    def arranged(cls, placement: str, mover: Seat = 0, decks: tuple[Iterable[str], Iterable[str]] = ((), ()),
                 fresh: Iterable[str] = (), captures: tuple[int, int] = (0, 0), turn: int = 5,
                 final: bool = False, seed: int = 1) -> GravityChess:
        """A game from a hand-made position (tests and examples): ``placement`` as in a FEN, ``mover``'s turn
        starting now with the top of its deck turned (none if its deck is empty and ``final``), the rest of the
        decks as given (top first), ``fresh`` the squares of pieces not yet moved since placed."""
        game = cls(seed)
        game.board = chess.Board(f"{placement} w - - 0 1")
        game.decks = [list(decks[0]), list(decks[1])]
        game.fresh = {chess.parse_square(name) for name in fresh}
        game.captures = list(captures)
        game.turn = turn - 1 if mover == 0 else turn
        game.final = final
        game._logs = [[] for _ in game.seat_names]
        for seat in (0, 1):
            game._tell(seat, Seated(seat, game.board.board_fen(), tuple(sorted(fresh)), captures,
                                    (len(game.decks[0]), len(game.decks[1]))))
        game._start_turn(mover)
        return game

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self.mover

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self._phase

    @property
    def ply(self) -> int:
        return self._ply

    def stacked(self) -> frozenset[chess.Square]:
        return stacked_squares(self.board)

    def truth(self) -> GravityTruth:
        return GravityTruth(self.board.copy(stack=False), frozenset(self.fresh), (self.captures[0], self.captures[1]),
                            tuple(self.pending), self.flipped, (tuple(self.decks[0]), tuple(self.decks[1])),
                            self.outcome is not None)

    def current_moves(self) -> dict[chess.Square, list[chess.Square]]:
        """The moves of each piece still to be picked this turn."""
        return moves_from(self.board, self.pending, self.fresh)

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        if self._phase == "place":
            return {"squares": [GravityPlace(chess.square_name(s)) for s in _empty_top(self.board)]}
        moves: list[Action] = []
        passes: list[Action] = []
        for square, targets in self.current_moves().items():
            if targets:
                moves.extend(GravityMove(chess.square_name(square) + chess.square_name(t)) for t in targets)
            else:
                passes.append(GravityPass(chess.square_name(square)))
        found: dict[str, Any] = {"moves": moves}
        if passes:
            found["passes"] = passes
        return found

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = SEATS[seat]
        if self._phase == "place":
            if type(action) is not GravityPlace:
                raise IllegalAction(f"{name} has moved every piece: now place the turned piece on rank 8")
            square = _parse_square(action.square)
            if chess.square_rank(square) != TOP:
                raise IllegalAction(f"the turned piece goes on rank 8, not on {chess.square_name(square)}")
            if self.board.piece_at(square) is not None:
                raise IllegalAction(f"{chess.square_name(square)} is taken: pick an empty square of rank 8")
            piece = card_piece(self.flipped)
            assert piece is not None
            self.board.set_piece_at(square, piece)
            self.fresh.add(square)
            self._ply += 1
            self._tell_all(Placed(seat, chess.square_name(square), piece.symbol(), self.flipped))
            self._end_turn()
            return
        if type(action) is GravityPlace:
            raise IllegalAction(f"{name} must first move every active piece (still to pick: "
                                f"{', '.join(chess.square_name(s) for s in self.pending)})")
        if type(action) is GravityPass:
            square = _parse_square(action.square)
            self._check_pending(name, square)
            targets = self.current_moves()[square]
            if targets:
                raise IllegalAction(f"the piece on {chess.square_name(square)} can move (to "
                                    f"{', '.join(chess.square_name(t) for t in targets)}): it must")
            piece = self.board.piece_at(square)
            assert piece is not None
            self.pending.remove(square)
            self._ply += 1
            self._tell_all(Passed(seat, chess.square_name(square), piece.symbol()))
            self._after_pick()
            return
        if type(action) is not GravityMove:
            raise IllegalAction(f"{name} must move or pass an active piece")
        try:
            move = chess.Move.from_uci(str(action.uci).strip().lower())
        except (ValueError, IndexError):
            raise IllegalAction(f"{str(action.uci)[:10]!r} is not a move") from None
        if move.promotion is not None:
            raise IllegalAction("pawns do not promote in Gravity Chess")
        self._check_pending(name, move.from_square)
        targets = self.current_moves()[move.from_square]
        if move.to_square not in targets:
            raise IllegalAction(self._why_not(move, targets))
        piece = self.board.piece_at(move.from_square)
        victim = self.board.piece_at(move.to_square)
        assert piece is not None
        self.board.remove_piece_at(move.from_square)
        self.board.set_piece_at(move.to_square, piece)
        self.fresh.discard(move.from_square)
        self.fresh.discard(move.to_square)
        self.pending.remove(move.from_square)
        if victim is not None:
            self.captures[seat] += 1
        self._ply += 1
        self._tell_all(Moved(seat, move.uci(), piece.symbol(), victim.symbol() if victim else ""))
        self._after_pick()

    def _check_pending(self, name: str, square: chess.Square) -> None:
        piece = self.board.piece_at(square)
        where = chess.square_name(square)
        if piece is None or piece.color != colour_of(self.mover):
            raise IllegalAction(f"there is no piece of {name}'s on {where}")
        if square not in self.pending:
            if square in self.stacked():
                raise IllegalAction(f"the piece on {where} is stacked: it stays where it is")
            raise IllegalAction(f"the piece on {where} has already moved or been passed this turn")

    def _why_not(self, move: chess.Move, targets: list[chess.Square]) -> str:
        to, frm = move.to_square, move.from_square
        victim = self.board.piece_at(to)
        where = f"{chess.square_name(frm)} to {chess.square_name(to)}"
        if victim is not None and to in self.stacked():
            return f"the piece on {chess.square_name(to)} is stacked: it cannot be captured"
        if victim is None and chess.square_rank(to) >= chess.square_rank(frm):
            return f"{where} does not go down: a move must end on a lower rank"
        if victim is not None and chess.square_rank(to) > chess.square_rank(frm):
            return f"{where} goes up: a capture must end on the same rank or lower"
        if not targets:
            return f"the piece on {chess.square_name(frm)} has no move: pass it"
        return f"{where} is not a move of that piece (it may go to {', '.join(chess.square_name(t) for t in targets)})"

    def _after_pick(self) -> None:
        """Drop the pending pieces that became stacked; when none left can move, pass the rest and go on."""
        stacked = self.stacked()
        self.pending = [s for s in self.pending if s not in stacked]
        moves = self.current_moves()
        if self.pending and not any(moves.values()):
            for square in list(self.pending):
                piece = self.board.piece_at(square)
                assert piece is not None
                self._tell_all(Passed(self.mover, chess.square_name(square), piece.symbol(), by_itself=True))
            self.pending = []
        if not self.pending:
            self._moves_done()

    def _moves_done(self) -> None:
        if self.final:
            self._end_game()
            return
        if not _empty_top(self.board):
            piece = card_piece(self.flipped)
            assert piece is not None
            self._tell_all(Lost(self.mover, piece.symbol(), self.flipped))
            self._end_turn()
            return
        self._phase = "place"

    def _end_turn(self) -> None:
        self._start_turn(1 - self.mover)

    def _start_turn(self, mover: Seat) -> None:
        self.mover = mover
        if mover == 0:
            self.turn += 1
        deck = self.decks[mover]
        if not deck:
            if mover == 0 and not self.final:
                self.final = True  # Black placed White's last piece: White's last turn, without a card
            elif not self.final:
                self._end_game()
                return
        self.flipped = deck.pop(0) if deck and not self.final else ""
        stacked = self.stacked()
        colour = colour_of(mover)
        self.pending = sorted(s for s in chess.SquareSet(self.board.occupied_co[colour]) if s not in stacked)
        self._phase = "move"
        self._tell_all(TurnStarted(mover, self.turn, self.flipped, len(deck),
                                   tuple(chess.square_name(s) for s in self.pending)))
        self._after_pick()

    def _end_game(self) -> None:
        captures = (self.captures[0], self.captures[1])
        points = scores(self.board, captures)
        winner, detail = winner_of(self.board, captures)
        self._finish(Outcome(winner, Reason.SCORE, detail, scores=(float(points[0]), float(points[1]))))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        captures = (self.captures[0], self.captures[1])
        return Ended(outcome, scores(self.board, captures), captures)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GravityChess:
        unknown = sorted(map(str, options))
        if unknown:
            raise ValueError(f"Gravity Chess has no option {', '.join(unknown)[:60]}")
        return cls()


def _empty_top(board: chess.Board) -> list[chess.Square]:
    return [s for s in chess.SquareSet(chess.BB_RANK_8) if board.piece_at(s) is None]


# ---- a seat's view ----------------------------------------------------------------------------------------------

@dataclass
class GravityView(View):
    """What a seat knows, from its observations: everything on the board, the card turned this turn, which of the
    mover's pieces must still be picked, the captures and the log of the game (never a deck's order)."""

    seat: Seat | None = None
    board: chess.Board | None = None
    fresh: set[chess.Square] | None = None
    captures: list[int] | None = None
    mover: Seat = 0
    turn: int = 0
    flipped: str = ""
    left: tuple[int, int] = (DECK_SIZE, DECK_SIZE)
    pending: list[chess.Square] | None = None
    placing: bool = False
    history: list[Any] | None = None
    outcome: Outcome | None = None
    points: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.board is None:
            self.board = chess.Board(None)
        self.fresh = set() if self.fresh is None else self.fresh
        self.captures = [0, 0] if self.captures is None else self.captures
        self.pending = [] if self.pending is None else self.pending
        self.history = [] if self.history is None else self.history

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return "place" if self.placing else "move"

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else self.mover

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    def stacked(self) -> frozenset[chess.Square]:
        assert self.board is not None
        return stacked_squares(self.board)

    def moves(self) -> dict[chess.Square, list[chess.Square]]:
        """The moves of the pieces still to be picked (empty while placing or once over)."""
        assert self.board is not None and self.pending is not None and self.fresh is not None
        if self.phase != "move":
            return {}
        return moves_from(self.board, self.pending, self.fresh)

    def empty_top(self) -> list[chess.Square]:
        assert self.board is not None
        return _empty_top(self.board) if self.phase == "place" else []

    def score(self) -> tuple[int, int]:
        assert self.board is not None and self.captures is not None
        return scores(self.board, (self.captures[0], self.captures[1]))

    def apply(self, observation: Any) -> None:
        o = observation
        board, pending, fresh, captures, history = self.board, self.pending, self.fresh, self.captures, self.history
        assert board is not None and pending is not None and fresh is not None and captures is not None
        assert history is not None
        if isinstance(o, Seated):
            self.seat = o.seat
            self.board = chess.Board(f"{o.placement} w - - 0 1")
            self.fresh = {chess.parse_square(name) for name in o.fresh}
            self.captures = list(o.captures)
            self.left = o.left
            return
        history.append(o)
        if isinstance(o, TurnStarted):
            self.mover, self.turn, self.flipped, self.placing = o.seat, o.number, o.card, False
            left = list(self.left)
            left[o.seat] = o.left
            self.left = (left[0], left[1])
            self.pending = [chess.parse_square(name) for name in o.active]
            self.placing = not self.pending and bool(self.flipped) and bool(_empty_top(board))
        elif isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            board.remove_piece_at(move.from_square)
            board.set_piece_at(move.to_square, chess.Piece.from_symbol(o.piece))
            fresh.discard(move.from_square)
            fresh.discard(move.to_square)
            if o.captured:
                captures[o.seat] += 1
            self._picked(move.from_square)
        elif isinstance(o, Passed):
            self._picked(chess.parse_square(o.square))
        elif isinstance(o, Placed):
            square = chess.parse_square(o.square)
            board.set_piece_at(square, chess.Piece.from_symbol(o.piece))
            fresh.add(square)
            self.placing = False
            self.flipped = ""
        elif isinstance(o, Lost):
            self.flipped = ""
        elif isinstance(o, Ended):
            self.outcome, self.points = o.outcome, o.points
            self.pending = []

    def _picked(self, square: chess.Square) -> None:
        assert self.pending is not None and self.board is not None
        stacked = stacked_squares(self.board)
        self.pending = [s for s in self.pending if s != square and s not in stacked]
        if not self.pending and self.flipped and _empty_top(self.board):
            self.placing = True


GravityChess.view_type = GravityView
