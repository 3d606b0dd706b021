"""Reconnaissance Blind Chess: the referee, its actions, observations and a seat's view.

Each turn of a seat has a turn-start notice (where the opponent captured, if it
did), a sense phase and a move phase. The rules are those of reconchess 1.6.9's
``LocalGame`` (ruling R1), with automatic draws as an option (R2).

>>> import chess
>>> game = ReconChess()
>>> game.play(0, Sense(chess.E7))
>>> game.observations(0)[-1].window[4]
(52, Piece.from_symbol('p'))
>>> game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
>>> game.to_move, game.phase
(1, 'sense')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

import chess

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.engine.notation import describe_bad_move, is_well_formed, own_san
from app.games.rbc import DEFINITION
from app.games.rbc.moves import MoveActions, capture_square, move_actions, revise_move, with_default_promotion

_ALL_SQUARES: tuple[int, ...] = tuple(chess.SQUARES)
WHITE_SEAT: Seat = 0
BLACK_SEAT: Seat = 1
DRAW_RULES: tuple[str, ...] = ("none", "50-move")


def seat_of(color: chess.Color) -> Seat:
    """White sits in seat 0, Black in seat 1."""
    return WHITE_SEAT if color else BLACK_SEAT


def color_of(seat: Seat) -> chess.Color:
    return seat == WHITE_SEAT


def _window(center: int) -> tuple[int, ...]:
    # reconchess's order: rank above first, files left to right; clipped at the edges.
    rank, file = chess.square_rank(center), chess.square_file(center)
    return tuple(chess.square(file + df, rank + dr) for dr in (1, 0, -1) for df in (-1, 0, 1)
                 if 0 <= rank + dr <= 7 and 0 <= file + df <= 7)


SENSE_WINDOWS: tuple[tuple[int, ...], ...] = tuple(_window(square) for square in chess.SQUARES)
"""For each square, the squares of the 3x3 sense window centred on it (clipped at the edges)."""


_PIECES = {(piece_type, color): chess.Piece(piece_type, color)
           for piece_type in chess.PIECE_TYPES for color in chess.COLORS}


def _piece_at(board: chess.Board, square: int) -> chess.Piece | None:
    """``board.piece_at`` without allocating: pieces are shared and must not be mutated."""
    bb = chess.BB_SQUARES[square]
    if not board.occupied & bb:
        return None
    color = bool(board.occupied_co[chess.WHITE] & bb)
    if board.pawns & bb:
        return _PIECES[chess.PAWN, color]
    if board.knights & bb:
        return _PIECES[chess.KNIGHT, color]
    if board.bishops & bb:
        return _PIECES[chess.BISHOP, color]
    if board.rooks & bb:
        return _PIECES[chess.ROOK, color]
    if board.queens & bb:
        return _PIECES[chess.QUEEN, color]
    return _PIECES[chess.KING, color]


# ---- actions -----------------------------------------------------------------------------------

def _parse_square(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value in chess.SQUARE_NAMES:
        return chess.SQUARE_NAMES.index(value)
    raise ValueError(f"not a square: {value!r}")


SQUARE_NAME = codec.Text(chess.square_name, _parse_square, "a square such as 'e4'")
"""A square written by its name in records (``"e4"``)."""


@dataclass(frozen=True, slots=True)
class Sense(Action):
    """Sense the 3x3 window centred on ``square``. ``None`` skips sensing (ruling R3: bots only)."""

    square: int | None = field(metadata=codec.spec(text=SQUARE_NAME))
    kind: ClassVar[str] = "sense"

    @classmethod
    def parse(cls, text: str | None) -> "Sense":
        return cls(_parse_square(text))


@dataclass(frozen=True, slots=True)
class MoveAction(Action):
    """Request a move (one of the seat's move actions), or pass with ``None``."""

    move: chess.Move | None
    kind: ClassVar[str] = "move"

    @classmethod
    def parse(cls, uci: str | None) -> "MoveAction":
        return cls(None if uci is None else chess.Move.from_uci(uci))


PASS = MoveAction(None)


# ---- observations ---------------------------------------------------------------------------------

class GameStarted(NamedTuple):
    """Told to each seat at the start: its colour and the (public) starting position."""

    color: chess.Color
    fen: str


class TurnStarted(NamedTuple):
    """The seat's turn begins; ``capture_square`` is where the opponent just captured one of its pieces."""

    ply: int
    capture_square: int | None


class SenseResult(NamedTuple):
    """What the sensor showed: each window square with its piece or ``None`` (empty).

    The ``chess.Piece`` objects are shared between observations: treat them as read-only.
    """

    ply: int
    square: int | None
    window: tuple[tuple[int, chess.Piece | None], ...]


class MoveResult(NamedTuple):
    """The seat's move: what it asked for, what was taken (``None``: nothing moved), where it captured."""

    ply: int
    requested: chess.Move | None
    taken: chess.Move | None
    capture_square: int | None


class GameEnded(NamedTuple):
    """Told to both seats when the game ends."""

    outcome: Outcome


Observation = GameStarted | TurnStarted | SenseResult | MoveResult | GameEnded


# ---- the referee -------------------------------------------------------------------------------------

class ReconChess(Game):
    """The referee of one game of Reconnaissance Blind Chess.

    ``draw_rule`` is ``"50-move"`` (default, as reconchess: a draw when the
    half-move clock reaches 100) or ``"none"``. ``fen`` sets another starting
    position (public to both seats).
    """

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Sense, MoveAction)

    def __init__(self, draw_rule: str = "50-move", fen: str = chess.STARTING_FEN) -> None:
        super().__init__()
        if draw_rule not in DRAW_RULES:
            raise ValueError(f"unknown draw rule {draw_rule!r} (choose from {', '.join(DRAW_RULES)})")
        self.draw_rule = draw_rule
        self.starting_fen = fen
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None
        if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
            raise ValueError("bad starting position: each side needs a king")
        self.board = board
        self._phase = "sense"
        self._last_capture: int | None = None
        self._actions_cache: MoveActions | None = None
        for seat in (WHITE_SEAT, BLACK_SEAT):
            self._logs[seat].append(GameStarted(color_of(seat), fen))
        self._logs[seat_of(board.turn)].append(TurnStarted(0, None))

    # -- state --------------------------------------------------------------------------
    def truth(self) -> chess.Board:
        """The true position without its move history (a copy: a replay keeps one per step and they stay small)."""
        return self.board.copy(stack=False)

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        return WHITE_SEAT if self.board.turn else BLACK_SEAT

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self._phase

    @property
    def ply(self) -> int:
        """Half-moves played so far (passes count)."""
        return len(self.board.move_stack)

    def sense_actions(self) -> Sequence[int]:
        """Every square may be sensed."""
        return _ALL_SQUARES

    def move_actions(self) -> MoveActions:
        """The move actions of the seat to move (computed from its own pieces only)."""
        if self._actions_cache is None:
            self._actions_cache = move_actions(self.board)
        return self._actions_cache

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        if self._phase == "sense":
            return {"sense_actions": self.sense_actions(), "move_actions": self.move_actions()}
        return {"move_actions": self.move_actions()}

    # -- acting -------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        board = self.board
        if self._phase == "sense":
            if type(action) is not Sense:
                raise IllegalAction(f"{self.seat_names[seat]} must sense first, not {action.kind}")
            square = action.square
            if square is None:
                window: tuple[tuple[int, chess.Piece | None], ...] = ()
            elif type(square) is int and 0 <= square < 64:
                window = tuple([(s, _piece_at(board, s)) for s in SENSE_WINDOWS[square]])
            else:
                raise IllegalAction(f"cannot sense {square!r}: not a square")
            self._logs[seat].append(SenseResult(len(board.move_stack), square, window))
            self._phase = "move"
            return

        if type(action) is not MoveAction:
            raise IllegalAction(f"{self.seat_names[seat]} must move or pass now, not {action.kind}")
        requested = action.move
        ply = len(board.move_stack)
        if requested is None:
            taken = None
            captured = None
        else:
            if not is_well_formed(requested):
                raise IllegalAction(f"not a move on this board: {describe_bad_move(requested)}")
            move = with_default_promotion(board, requested)
            if move not in self.move_actions():
                raise IllegalAction(f"{requested.uci()} is not among {self.seat_names[seat]}'s move actions")
            taken = revise_move(board, move)
            captured = capture_square(board, taken)
        board.push(taken if taken is not None else chess.Move.null())
        self._actions_cache = None
        self._last_capture = captured
        self._logs[seat].append(MoveResult(ply, requested, taken, captured))

        kings = board.kings
        if captured is not None and not kings & board.occupied_co[chess.WHITE]:
            self._finish(Outcome(BLACK_SEAT, Reason.KING_CAPTURE, "Black captured the white king"))
        elif captured is not None and not kings & board.occupied_co[chess.BLACK]:
            self._finish(Outcome(WHITE_SEAT, Reason.KING_CAPTURE, "White captured the black king"))
        elif self.draw_rule == "50-move" and board.halfmove_clock >= 100:
            self._finish(Outcome(None, Reason.MOVE_LIMIT, "50 moves by each side without a capture or pawn move"))
        else:
            self._phase = "sense"
            self._logs[1 - seat].append(TurnStarted(ply + 1, captured))

    def _game_over_observation(self, outcome: Outcome) -> GameEnded:
        return GameEnded(outcome)

    # -- records ------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        data: dict[str, Any] = {"draw_rule": self.draw_rule}
        if self.starting_fen != chess.STARTING_FEN:
            data["fen"] = self.starting_fen
        return data

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "ReconChess":
        unknown = set(options) - {"draw_rule", "fen"}
        if unknown:
            raise ValueError(f"unknown RBC option(s): {', '.join(sorted(unknown))}")
        draw_rule = options.get("draw_rule", "50-move")
        fen = options.get("fen", chess.STARTING_FEN)
        if not isinstance(draw_rule, str) or not isinstance(fen, str):
            raise ValueError("RBC options draw_rule and fen must be strings")
        return cls(draw_rule=draw_rule, fen=fen)


# ---- a seat's view --------------------------------------------------------------------------------------

@dataclass
class SquareInfo:
    """The latest thing a seat learned about a square it does not occupy."""

    piece: chess.Piece | None
    ply: int
    source: str  # "sense" or "capture"


@dataclass
class ReconChessView(View):
    """What one seat knows, built only from that seat's observations.

    The UI draws this; bots reason from it. It never touches the referee.

    >>> game = ReconChess()
    >>> view = ReconChessView.from_observations(game.observations(1))
    >>> view.color, len(view.own_board.piece_map())
    (False, 16)
    """

    color: chess.Color = chess.WHITE
    own_board: chess.Board = field(default_factory=lambda: chess.Board(None))
    senses: list[SenseResult] = field(default_factory=list)
    moves: list[MoveResult] = field(default_factory=list)
    lost: list[tuple[int, int]] = field(default_factory=list)  # (ply, square) where own pieces were captured
    captures: list[tuple[int, int]] = field(default_factory=list)  # (ply, square) where this seat captured
    written: list[tuple[str | None, str | None]] = field(default_factory=list)
    """Each of :attr:`moves` as the seat writes it (SAN from its own pieces, :func:`~app.engine.notation.own_san`):
    the move asked for and the move taken, None for a pass or for nothing moved."""
    known: dict[int, SquareInfo] = field(default_factory=dict)
    outcome: Outcome | None = None
    my_turn: bool = False
    ply: int = 0
    phase: str = "wait"

    def apply(self, observation: Any) -> None:
        """Update the view with one observation of this seat."""
        if isinstance(observation, GameStarted):
            self.color = observation.color
            board = chess.Board(observation.fen)
            mine = board.occupied_co[self.color]
            self.own_board = board.transform(lambda bb: bb & mine)
            self.own_board.turn = self.color
            self.own_board.ep_square = None
        elif isinstance(observation, TurnStarted):
            self.my_turn, self.ply, self.phase = True, observation.ply, "sense"
            if observation.capture_square is not None:
                square = observation.capture_square
                self.own_board.remove_piece_at(square)
                # A rook captured at home takes its castling right with it.
                self.own_board.castling_rights &= ~chess.BB_SQUARES[square]
                self.lost.append((observation.ply - 1, square))
                self.known[square] = SquareInfo(None, observation.ply - 1, "capture")
        elif isinstance(observation, SenseResult):
            self.senses.append(observation)
            self.phase = "move"
            for square, piece in observation.window:
                if piece is None or piece.color != self.color:
                    self.known[square] = SquareInfo(piece, observation.ply, "sense")
        elif isinstance(observation, MoveResult):
            self.moves.append(observation)
            self.my_turn, self.phase = False, "wait"
            taken = observation.taken
            self.written.append(_written(self.own_board, observation))
            if taken is not None:
                board = self.own_board
                board.turn = self.color
                board.push(taken)
                board.turn = self.color
                board.ep_square = None
                board.clear_stack()
                self.known.pop(taken.to_square, None)
            if observation.capture_square is not None:
                self.captures.append((observation.ply, observation.capture_square))
                self.known.pop(observation.capture_square, None)
        elif isinstance(observation, GameEnded):
            self.outcome = observation.outcome
            self.my_turn, self.phase = False, "over"

    def move_actions(self) -> MoveActions:
        """This seat's move actions, from its own pieces (equal to the referee's)."""
        return move_actions(self.own_board, self.color)


def _written(own_board: chess.Board, result: MoveResult) -> tuple[str | None, str | None]:
    requested = None if result.requested is None else own_san(own_board, result.requested, capture=False)
    taken = None if result.taken is None else own_san(own_board, result.taken,
                                                      capture=result.capture_square is not None)
    return requested, taken


ReconChess.view_type = ReconChessView
