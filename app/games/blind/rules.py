"""Blind Chess: the referee, its actions, observations and a seat's view.

Each player sees only their own pieces. On their turn a player *attempts* a
move (ruling B1); the referee, who alone holds the true board, either plays it
or declares it failed (B2). A successful move may capture (B3) and reveals some
opponent pieces around its starting square (B4). Capturing the king wins; the
game may also end by resignation, agreed draw, insufficient material or, when
a clock runs out, on material (B5). Promotion is by choice, queen by default (B6).
The rules are written out in ``docs/rules/blind.md``.

A draw offer is part of a turn: the seat to move may offer once per turn
(phase ``"move"``); the opponent must then answer (phase ``"answer_draw"``);
after a refusal the offerer goes on with its turn.

>>> game = BlindChess()
>>> game.to_move, game.phase
(0, 'move')
>>> game.play(0, Attempt.parse("e2e4"))
>>> game.observations(0)[-1]
AttemptResult(ply=0, move=Move.from_uci('e2e4'), success=True, capture=None, reveals=())
>>> game.to_move
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator, Mapping, NamedTuple, Sequence

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.engine.notation import describe_bad_move, is_well_formed, own_san
from app.games.blind import DEFINITION

WHITE_SEAT: Seat = 0
BLACK_SEAT: Seat = 1

PIECE_VALUES: dict[chess.PieceType, int] = {
    chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0,
}
"""Material score of each piece type (B5); the king counts nothing (its capture ends the game)."""

PROMOTION_PIECES: tuple[chess.PieceType, ...] = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

Square = int
PieceType = int


def seat_of(color: chess.Color) -> Seat:
    """White sits in seat 0, Black in seat 1."""
    return WHITE_SEAT if color else BLACK_SEAT


def color_of(seat: Seat) -> chess.Color:
    """The colour of ``seat`` (seat 0 is White)."""
    return seat == WHITE_SEAT


# ---- geometry ------------------------------------------------------------------------------------

_ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (file step, rank step)
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_DIRECTIONS: dict[PieceType, tuple[tuple[int, int], ...]] = {
    chess.ROOK: _ORTHOGONAL, chess.BISHOP: _DIAGONAL, chess.QUEEN: _ORTHOGONAL + _DIAGONAL,
}


def _ray(square: Square, step: tuple[int, int]) -> tuple[Square, ...]:
    file, rank = chess.square_file(square) + step[0], chess.square_rank(square) + step[1]
    squares = []
    while 0 <= file < 8 and 0 <= rank < 8:
        squares.append(chess.square(file, rank))
        file, rank = file + step[0], rank + step[1]
    return tuple(squares)


_RAYS: dict[tuple[int, int], tuple[tuple[Square, ...], ...]] = {
    step: tuple(_ray(square, step) for square in chess.SQUARES) for step in _ORTHOGONAL + _DIAGONAL
}
"""For each direction and square, the squares walked from it outwards, nearest first."""

_CASTLINGS: dict[chess.Color, tuple[tuple[Square, Square, Square], ...]] = {
    # (king's square, rook's square, king's destination)
    chess.WHITE: ((chess.E1, chess.H1, chess.G1), (chess.E1, chess.A1, chess.C1)),
    chess.BLACK: ((chess.E8, chess.H8, chess.G8), (chess.E8, chess.A8, chess.C8)),
}


def _forward(color: chess.Color) -> int:
    return 8 if color == chess.WHITE else -8


def _move_key(move: chess.Move) -> tuple[int, int, int]:
    return move.from_square, move.to_square, move.promotion or 0


def _with_promotions(from_square: Square, to_square: Square) -> list[chess.Move]:
    if chess.BB_SQUARES[to_square] & chess.BB_BACKRANKS:
        return [chess.Move(from_square, to_square, piece) for piece in PROMOTION_PIECES]
    return [chess.Move(from_square, to_square)]


def _castling_rook(board: chess.Board, move: chess.Move) -> Square | None:
    """The rook's square if ``move`` (by the side to move) is a castling attempt, else ``None``."""
    if not board.kings & board.occupied_co[board.turn] & chess.BB_SQUARES[move.from_square]:
        return None
    for king, rook, destination in _CASTLINGS[board.turn]:
        if move.from_square == king and move.to_square == destination:
            return rook
    return None


# ---- attempts (B1) --------------------------------------------------------------------------------------

def possible_attempts(board: chess.Board, color: chess.Color) -> list[chess.Move]:
    """Every attempt ``color`` may make (ruling B1), sorted by from, to and promotion square/piece.

    Only ``color``'s own pieces and castling rights are read, so the answer is
    the same on the true board and on a board holding that seat's pieces alone.
    Pawn moves to the last rank are listed once per promotion piece.

    >>> moves = possible_attempts(chess.Board(), chess.WHITE)
    >>> len(moves)
    34
    >>> chess.Move.from_uci("e2d3") in moves, chess.Move.from_uci("e2e5") in moves
    (True, False)
    """
    mine = board.occupied_co[color]
    moves: list[chess.Move] = []
    for square in chess.scan_forward(mine):
        piece_type = board.piece_type_at(square)
        if piece_type == chess.PAWN:
            step = _forward(color)
            ahead = square + step
            if not 0 <= ahead < 64:
                continue
            if not mine & chess.BB_SQUARES[ahead]:
                moves.extend(_with_promotions(square, ahead))
                start_rank = 1 if color == chess.WHITE else 6
                if chess.square_rank(square) == start_rank and not mine & chess.BB_SQUARES[ahead + step]:
                    moves.append(chess.Move(square, ahead + step))
            for target in chess.scan_forward(chess.BB_PAWN_ATTACKS[color][square] & ~mine):
                moves.extend(_with_promotions(square, target))
            continue
        if piece_type == chess.KNIGHT:
            targets = chess.BB_KNIGHT_ATTACKS[square] & ~mine
        elif piece_type == chess.KING:
            targets = chess.BB_KING_ATTACKS[square] & ~mine
        else:
            assert piece_type is not None
            targets = 0
            for step2 in _DIRECTIONS[piece_type]:
                for target in _RAYS[step2][square]:
                    if mine & chess.BB_SQUARES[target]:
                        break
                    targets |= chess.BB_SQUARES[target]
        moves.extend(chess.Move(square, target) for target in chess.scan_forward(targets))
    own_kings = board.kings & mine
    own_rooks = board.rooks & mine
    for king, rook, destination in _CASTLINGS[color]:
        if (own_kings & chess.BB_SQUARES[king] and own_rooks & chess.BB_SQUARES[rook]
                and board.castling_rights & chess.BB_SQUARES[rook]
                and not chess.between(king, rook) & mine):
            moves.append(chess.Move(king, destination))
    moves.sort(key=_move_key)
    return moves


def with_default_promotion(board: chess.Board, move: chess.Move) -> chess.Move:
    """A pawn move to the last rank with no promotion piece promotes to a queen (B6).

    >>> board = chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    >>> with_default_promotion(board, chess.Move.from_uci("a7a8")).uci()
    'a7a8q'
    """
    if (move.promotion is None and chess.BB_SQUARES[move.to_square] & chess.BB_BACKRANKS
            and board.pawns & chess.BB_SQUARES[move.from_square]):
        return chess.Move(move.from_square, move.to_square, chess.QUEEN)
    return move


# ---- failure, capture and reveals (B2-B4) ------------------------------------------------------------------

def attempt_succeeds(board: chess.Board, move: chess.Move) -> bool:
    """Whether an attempt (one of the side to move's :func:`possible_attempts`) succeeds (B2).

    >>> board = chess.Board("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1")
    >>> attempt_succeeds(board, chess.Move.from_uci("a1a4")), attempt_succeeds(board, chess.Move.from_uci("a1a6"))
    (True, False)
    """
    theirs = board.occupied_co[not board.turn]
    rook = _castling_rook(board, move)
    if rook is not None:
        return not chess.between(move.from_square, rook) & theirs
    piece_type = board.piece_type_at(move.from_square)
    passed = chess.between(move.from_square, move.to_square)
    to_bb = chess.BB_SQUARES[move.to_square]
    if piece_type in (chess.ROOK, chess.BISHOP, chess.QUEEN):
        return not passed & theirs
    if piece_type == chess.PAWN:
        if chess.square_file(move.from_square) == chess.square_file(move.to_square):
            return not (passed | to_bb) & board.occupied
        return bool(to_bb & theirs) or _is_en_passant(board, move)
    return True  # knight and king: the square does not hold an own piece (B1)


def _is_en_passant(board: chess.Board, move: chess.Move) -> bool:
    if not board.is_en_passant(move):
        return False
    victim = move.to_square - _forward(board.turn)
    return bool(board.pawns & board.occupied_co[not board.turn] & chess.BB_SQUARES[victim])


def capture_of(board: chess.Board, move: chess.Move) -> tuple[PieceType, Square] | None:
    """The type and square of the piece a successful ``move`` captures (en passant: the passed pawn)."""
    theirs = board.occupied_co[not board.turn]
    if _castling_rook(board, move) is None and theirs & chess.BB_SQUARES[move.to_square]:
        piece_type = board.piece_type_at(move.to_square)
        assert piece_type is not None
        return piece_type, move.to_square
    if _is_en_passant(board, move):
        return chess.PAWN, move.to_square - _forward(board.turn)
    return None


def _slider_reveals(board: chess.Board, square: Square, piece_type: PieceType) -> int:
    found = 0
    theirs = board.occupied_co[not board.turn]
    for step in _DIRECTIONS[piece_type]:
        for target in _RAYS[step][square]:
            bb = chess.BB_SQUARES[target]
            if board.occupied & bb:
                found |= bb & theirs
                break
    return found


def reveals_of(board: chess.Board, move: chess.Move) -> tuple[tuple[Square, chess.Piece], ...]:
    """The opponent pieces a successful ``move`` reveals (B4), besides the captured piece, by square.

    Computed on ``board`` as it is before the move.

    >>> board = chess.Board("4k3/b7/8/p7/8/8/8/R3K3 w - - 0 1")
    >>> reveals_of(board, chess.Move.from_uci("a1a4"))
    ((32, Piece.from_symbol('p')),)
    """
    color = board.turn
    theirs = board.occupied_co[not color]
    found = 0
    rook = _castling_rook(board, move)
    piece_type = board.piece_type_at(move.from_square)
    if rook is not None:
        found = (chess.BB_KING_ATTACKS[move.from_square] & theirs) | _slider_reveals(board, rook, chess.ROOK)
    elif piece_type == chess.KING:
        found = chess.BB_KING_ATTACKS[move.from_square] & theirs
    elif piece_type in _DIRECTIONS:
        assert piece_type is not None
        found = _slider_reveals(board, move.from_square, piece_type)
    elif piece_type == chess.PAWN:
        found = chess.BB_PAWN_ATTACKS[color][move.from_square] & theirs
        if chess.square_file(move.from_square) == chess.square_file(move.to_square):
            ahead = move.to_square + _forward(color)
            if 0 <= ahead < 64:
                found |= chess.BB_SQUARES[ahead] & theirs
    captured = capture_of(board, move)
    if captured is not None:
        found &= ~chess.BB_SQUARES[captured[1]]
    result = []
    for square in chess.scan_forward(found):
        piece = board.piece_at(square)
        assert piece is not None
        result.append((square, piece))
    return tuple(result)


def material(board: chess.Board, color: chess.Color) -> int:
    """The material score of ``color``'s pieces on ``board`` (Q 9, R 5, B 3, N 3, P 1; B5).

    >>> material(chess.Board(), chess.WHITE)
    39
    """
    own, popcount, value = board.occupied_co[color], chess.popcount, PIECE_VALUES  # spelled out: a match asks
    return (value[chess.QUEEN] * popcount(board.queens & own) + value[chess.ROOK] * popcount(board.rooks & own)
            + value[chess.BISHOP] * popcount(board.bishops & own) + value[chess.KNIGHT] * popcount(board.knights & own)
            + value[chess.PAWN] * popcount(board.pawns & own) + value[chess.KING] * popcount(board.kings & own))


def own_fen(board: chess.Board, color: chess.Color) -> str:
    """A FEN of ``color``'s pieces and castling rights only (what the seat may see at the start)."""
    mine = board.occupied_co[color]
    own = board.copy(stack=False)
    own.clear_board()
    for square in chess.scan_forward(mine):
        piece = board.piece_at(square)
        assert piece is not None
        own.set_piece_at(square, piece)
    rank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    own.castling_rights = board.castling_rights & rank & own.rooks
    own.ep_square = None
    return own.fen()


# ---- actions -----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Attempt(Action):
    """Attempt a move (B1). A pawn move to the last rank without a piece promotes to a queen (B6).

    >>> Attempt.parse("e7e8n").to_json()
    {'type': 'attempt', 'move': 'e7e8n'}
    """

    move: chess.Move
    kind: ClassVar[str] = "attempt"

    @classmethod
    def parse(cls, uci: str) -> "Attempt":
        return cls(chess.Move.from_uci(uci))


@dataclass(frozen=True, slots=True)
class OfferDraw(Action):
    """Offer a draw (seat to move, once a turn, before attempting its move)."""

    kind: ClassVar[str] = "offer_draw"


@dataclass(frozen=True, slots=True)
class AnswerDraw(Action):
    """Accept or decline the opponent's draw offer."""

    accept: bool
    kind: ClassVar[str] = "answer_draw"


# ---- observations --------------------------------------------------------------------------------------

class GameStarted(NamedTuple):
    """Told to each seat at the start: its colour and a FEN of its own pieces only (turn: who starts)."""

    color: chess.Color
    fen: str


class TurnStarted(NamedTuple):
    """The seat's turn begins at half-move ``ply``."""

    ply: int


class TurnSkipped(NamedTuple):
    """The seat had no possible attempt at half-move ``ply``; its turn passed (B5)."""

    ply: int


class AttemptResult(NamedTuple):
    """The mover's own attempt: the move (queen filled in for a bare promotion), whether it succeeded,
    what it captured (type, square) and the opponent pieces it revealed (square, piece) (B2-B4).
    A failed attempt carries nothing else."""

    ply: int
    move: chess.Move
    success: bool
    capture: tuple[PieceType, Square] | None
    reveals: tuple[tuple[Square, chess.Piece], ...]


class PieceLost(NamedTuple):
    """The opponent captured one of the seat's pieces: its type, and where that own piece stood.

    The square is that of the seat's *own* piece, which it always sees (rule 6.1);
    nothing is said about the capturing piece (B3). En passant: the pawn's square.
    """

    ply: int
    piece_type: PieceType
    square: Square


class DrawOffered(NamedTuple):
    """Told to both seats: ``seat`` offered a draw."""

    ply: int
    seat: Seat


class DrawDeclined(NamedTuple):
    """Told to both seats: ``seat`` declined the draw offer."""

    ply: int
    seat: Seat


class GameEnded(NamedTuple):
    """Told to both seats when the game ends."""

    outcome: Outcome


Observation = (GameStarted | TurnStarted | TurnSkipped | AttemptResult | PieceLost | DrawOffered | DrawDeclined
               | GameEnded)


# ---- the referee -------------------------------------------------------------------------------------------

class BlindChess(Game):
    """The referee of one game of Blind Chess.

    ``fen`` sets another starting position (each seat is shown only its own
    pieces of it); it needs one king a side and no pawn on a back rank.

    >>> game = BlindChess("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    >>> [move.uci() for move in game.choices()["attempts"]]
    ['e1d1', 'e1f1', 'e1d2', 'e1f2', 'e2d3', 'e2e3', 'e2f3', 'e2e4']
    >>> BlindChess.action_from_json({"type": "answer_draw", "accept": False})
    AnswerDraw(accept=False)
    """

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Attempt, OfferDraw, AnswerDraw)

    def __init__(self, fen: str = chess.STARTING_FEN) -> None:
        super().__init__()
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None
        for color in chess.COLORS:
            if chess.popcount(board.kings & board.occupied_co[color]) != 1:
                raise ValueError("bad starting position: each side needs exactly one king")
        if board.pawns & chess.BB_BACKRANKS:
            raise ValueError("bad starting position: a pawn stands on a back rank")
        board.castling_rights = board.clean_castling_rights()
        if board.ep_square is not None and not _ep_plausible(board):
            board.ep_square = None
        self.starting_fen = fen
        self.board = board
        self._phase = "move"
        self._offered = False  # the seat to move has offered a draw this turn
        self._attempts: list[chess.Move] | None = None
        for seat in (WHITE_SEAT, BLACK_SEAT):
            self._tell(seat, GameStarted(color_of(seat), own_fen(board, color_of(seat))))
        if board.is_insufficient_material():
            self._finish(Outcome(None, Reason.INSUFFICIENT_MATERIAL, "insufficient material"))
        else:
            self._begin_turn()

    # -- state ------------------------------------------------------------------------------
    def truth(self) -> chess.Board:
        """The true position without its move history (a copy: a replay keeps one per step and they stay small)."""
        return self.board.copy(stack=False)

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        mover = seat_of(self.board.turn)
        return 1 - mover if self._phase == "answer_draw" else mover

    @property
    def phase(self) -> str:
        """``"move"``, ``"answer_draw"`` (the opponent of the side to move answers an offer) or ``"over"``."""
        return "over" if self.outcome is not None else self._phase

    @property
    def ply(self) -> int:
        """Half-moves so far (failed attempts and skipped turns count)."""
        return len(self.board.move_stack)

    def attempts(self) -> list[chess.Move]:
        """The possible attempts of the side on move (B1), from its own pieces only."""
        if self._attempts is None:
            self._attempts = possible_attempts(self.board, self.board.turn)
        return list(self._attempts)

    def choices(self) -> dict[str, Any]:
        """What the seat to move may do: ``{"attempts": [...], "offer_draw": bool, "answer_draw": bool}``.

        In the move phase ``attempts`` lists the possible attempts (B1) and
        ``offer_draw`` says whether a draw may still be offered this turn; when
        an offer waits for an answer, ``attempts`` is empty and ``answer_draw``
        is true. ``{}`` once the game is over.
        """
        if self.outcome is not None:
            return {}
        if self._phase == "answer_draw":
            return {"attempts": [], "offer_draw": False, "answer_draw": True}
        return {"attempts": self.attempts(), "offer_draw": not self._offered, "answer_draw": False}

    def material_scores(self) -> tuple[int, int]:
        """Material scores (White, Black) on the true board (B5)."""
        return material(self.board, chess.WHITE), material(self.board, chess.BLACK)

    # -- acting -------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = self.seat_names[seat]
        if self._phase == "answer_draw":
            if type(action) is not AnswerDraw:
                raise IllegalAction(f"{name} must answer the draw offer, not {action.kind}")
            if type(action.accept) is not bool:
                raise IllegalAction(f"a draw answer must be true or false, not {action.accept!r}")
            if action.accept:
                self._finish(Outcome(None, Reason.DRAW_AGREED, f"{name} accepted a draw"))
            else:
                self._phase = "move"
                self._tell_all(DrawDeclined(self.ply, seat))
            return
        if type(action) is OfferDraw:
            if self._offered:
                raise IllegalAction(f"{name} has already offered a draw this turn")
            self._offered = True
            self._phase = "answer_draw"
            self._tell_all(DrawOffered(self.ply, seat))
            return
        if type(action) is not Attempt:
            raise IllegalAction(f"{name} must attempt a move or offer a draw, not {action.kind}")
        requested = action.move
        if not requested or not is_well_formed(requested):
            raise IllegalAction(f"not a move on this board: {describe_bad_move(requested)}")
        board = self.board
        move = with_default_promotion(board, requested)
        if move not in self.attempts():
            raise IllegalAction(f"{requested.uci()} is not a possible attempt for {name}")
        self._resolve(seat, move)

    def _resolve(self, seat: Seat, move: chess.Move) -> None:
        board = self.board
        ply = self.ply
        if not attempt_succeeds(board, move):
            self._tell(seat, AttemptResult(ply, move, False, None, ()))
            board.push(chess.Move.null())
        else:
            capture = capture_of(board, move)
            reveals = reveals_of(board, move)
            board.push(move)
            self._tell(seat, AttemptResult(ply, move, True, capture, reveals))
            if capture is not None:
                self._tell(1 - seat, PieceLost(ply, capture[0], capture[1]))
                if capture[0] == chess.KING:
                    self._finish(Outcome(seat, Reason.KING_CAPTURE,
                                         f"{self.seat_names[seat]} captured the {self.seat_names[1 - seat].lower()} king"))
                    return
            if board.is_insufficient_material():
                self._finish(Outcome(None, Reason.INSUFFICIENT_MATERIAL, "insufficient material"))
                return
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Start the turn of the side to move, skipping a side that has no possible attempt (B5)."""
        self._offered = False
        self._phase = "move"
        for _ in range(2):
            self._attempts = None
            seat = seat_of(self.board.turn)
            if self.attempts():
                self._tell(seat, TurnStarted(self.ply))
                return
            self._tell(seat, TurnSkipped(self.ply))
            self.board.push(chess.Move.null())
        self._attempts = None
        self._finish(Outcome(None, Reason.NO_MOVES, "neither side has a possible attempt"))

    def flag_fall_outcome(self, seat: Seat) -> Outcome:
        """A flag fall is decided on material (B5).

        >>> BlindChess("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").flag_fall_outcome(BLACK_SEAT).detail
        'Black ran out of time; White has more material (9-0)'
        """
        white, black = self.material_scores()
        name = self.seat_names[seat]
        if white == black:
            return Outcome(None, Reason.MATERIAL, f"{name} ran out of time; material is equal ({white}-{black})",
                           (white, black))
        winner = WHITE_SEAT if white > black else BLACK_SEAT
        return Outcome(winner, Reason.MATERIAL,
                       f"{name} ran out of time; {self.seat_names[winner]} has more material ({white}-{black})",
                       (white, black))

    def _game_over_observation(self, outcome: Outcome) -> GameEnded:
        return GameEnded(outcome)

    # -- records ------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {} if self.starting_fen == chess.STARTING_FEN else {"fen": self.starting_fen}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "BlindChess":
        unknown = set(options) - {"fen"}
        if unknown:
            raise ValueError(f"unknown Blind Chess option(s): {', '.join(sorted(unknown))}")
        fen = options.get("fen", chess.STARTING_FEN)
        if not isinstance(fen, str):
            raise ValueError("the Blind Chess option fen must be a string")
        return cls(fen=fen)


def _ep_plausible(board: chess.Board) -> bool:
    """A FEN's en passant square is kept only behind an opponent pawn that could just have advanced two."""
    ep = board.ep_square
    assert ep is not None
    forward = _forward(board.turn)
    victim, origin = ep - forward, ep + forward
    expected_rank = 5 if board.turn == chess.WHITE else 2
    return (chess.square_rank(ep) == expected_rank
            and bool(board.pawns & board.occupied_co[not board.turn] & chess.BB_SQUARES[victim])
            and not board.occupied & (chess.BB_SQUARES[ep] | chess.BB_SQUARES[origin]))


# ---- a seat's view ------------------------------------------------------------------------------------------

class Reveal(NamedTuple):
    """An opponent piece seen on ``square`` at half-move ``ply`` (B4)."""

    ply: int
    square: Square
    piece: chess.Piece


class CaptureMade(NamedTuple):
    """This seat captured a ``piece_type`` on ``square`` at half-move ``ply`` (B3)."""

    ply: int
    piece_type: PieceType
    square: Square


@dataclass
class BlindChessView(View):
    """What one seat knows, built only from that seat's observations.

    It holds exactly what rulings B1-B6 let the seat learn: its own pieces
    (and castling rights), every reveal stamped with its half-move, the captures
    it made (type and square), the pieces it lost (type; the square is where its
    own piece stood), and its failed attempts. :meth:`attempts` equals the
    referee's ``choices()["attempts"]`` on this seat's turn.

    >>> game = BlindChess()
    >>> view = BlindChessView.from_observations(game.observations(1))
    >>> view.color, len(view.own_board.piece_map()), view.my_turn
    (False, 16, False)
    """

    color: chess.Color = chess.WHITE
    seat: Seat = WHITE_SEAT
    own_board: chess.Board = field(default_factory=lambda: chess.Board(None))
    reveals: list[Reveal] = field(default_factory=list)
    captures: list[CaptureMade] = field(default_factory=list)
    lost: list[PieceLost] = field(default_factory=list)
    failed: list[AttemptResult] = field(default_factory=list)
    results: list[AttemptResult] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    """Each of :attr:`results` as the seat writes its move (SAN from its own pieces,
    :func:`~app.engine.notation.own_san`)."""
    sightings: dict[Square, Reveal] = field(default_factory=dict)
    outcome: Outcome | None = None
    my_turn: bool = False
    ply: int = 0
    phase: str = "wait"
    offered_this_turn: bool = False

    def apply(self, observation: Any) -> None:
        """Update the view with one observation of this seat."""
        if isinstance(observation, GameStarted):
            self.color = observation.color
            self.seat = seat_of(observation.color)
            board = chess.Board(observation.fen)
            board.turn = self.color
            board.clear_stack()
            self.own_board = board
        elif isinstance(observation, TurnStarted):
            self.my_turn, self.ply, self.phase, self.offered_this_turn = True, observation.ply, "move", False
        elif isinstance(observation, TurnSkipped):
            self.my_turn, self.ply, self.phase = False, observation.ply, "wait"
        elif isinstance(observation, AttemptResult):
            self._apply_result(observation)
        elif isinstance(observation, PieceLost):
            self.lost.append(observation)
            self.own_board.remove_piece_at(observation.square)
            self.own_board.castling_rights &= ~chess.BB_SQUARES[observation.square]
        elif isinstance(observation, DrawOffered):
            if observation.seat == self.seat:
                self.offered_this_turn, self.phase = True, "wait"
            else:
                self.phase = "answer_draw"
        elif isinstance(observation, DrawDeclined):
            self.phase = "wait" if observation.seat == self.seat else "move"
        elif isinstance(observation, GameEnded):
            self.outcome = observation.outcome
            self.my_turn, self.phase = False, "over"

    def _apply_result(self, result: AttemptResult) -> None:
        self.results.append(result)
        self.written.append(own_san(self.own_board, result.move, capture=result.capture is not None))
        self.my_turn, self.phase = False, "wait"
        if not result.success:
            self.failed.append(result)
            return
        move, board = result.move, self.own_board
        # Squares the move crossed or landed on no longer hold what was seen there.
        cleared = chess.between(move.from_square, move.to_square) | chess.BB_SQUARES[move.to_square]
        if board.kings & chess.BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 2:
            rook = chess.square(7 if move.to_square > move.from_square else 0, chess.square_rank(move.from_square))
            cleared |= chess.between(move.from_square, rook)
        if result.capture is not None:
            self.captures.append(CaptureMade(result.ply, result.capture[0], result.capture[1]))
            cleared |= chess.BB_SQUARES[result.capture[1]]
        for square in chess.scan_forward(cleared):
            self.sightings.pop(square, None)
        board.turn = self.color
        board.push(move)
        board.turn = self.color
        board.ep_square = None
        board.clear_stack()
        for square, piece in result.reveals:
            reveal = Reveal(result.ply, square, piece)
            self.reveals.append(reveal)
            self.sightings[square] = reveal

    def attempts(self) -> list[chess.Move]:
        """This seat's possible attempts from its own pieces (equal to the referee's on its turn)."""
        return possible_attempts(self.own_board, self.color)

    def believed(self) -> dict[Square, Reveal]:
        """The latest sighting on each square not since contradicted by this seat's own moves.

        (A sighting is dropped when this seat's piece later lands on or passes
        over that square, or captures there.)
        """
        return dict(self.sightings)

    def material(self) -> int:
        """This seat's own material score (B5)."""
        return material(self.own_board, self.color)

    def pieces(self) -> Iterator[tuple[Square, chess.Piece]]:
        """This seat's own pieces by square."""
        return iter(sorted(self.own_board.piece_map().items()))


BlindChess.view_type = BlindChessView
