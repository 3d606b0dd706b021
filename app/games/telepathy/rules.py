"""Telepathy Chess: chess for two teams of two, where on each turn one partner predicts, face down, which kind of
piece the other will move.

Seats W1 and W2 play White, B1 and B2 Black (rulings TP1-TP6). In each team one partner is the **predictor** and
the other the **mover**, swapping after every move of the team. A team has seven cards: pawn, knight, bishop,
rook, queen, king (``P N B R Q K``) and a copy card (``C``, the text's "checker"), which stands for whatever card
lies face up. One card of the team lies face up (the pawn at first); the predictor holds the other six.

A team's turn: the predictor plays a card face down (nobody else sees it, the partner included); the mover makes
a chess move; the card is flipped. If the moved piece's kind matches the face-down card, the coin steps toward
the opponents; else if it matches the face-up card nothing happens; else the coin steps toward the movers. The
coin has three places (White's side, the middle, Black's side): a step past a side makes the team on that side
remove one of its pieces other than the king (the partner of that team who moves next picks it), and the coin
goes back to the middle. The mover then takes back the copy card if it is on the table, else the face-up card,
and the other card stays face up. Capturing the king wins.

Castling counts as a king move and a promotion as a pawn move. Squares are named as in chess.

>>> game = TelepathyChess()
>>> game.seat_names[game.to_move], game.phase, game.hand()
('W1', 'predict', ('N', 'B', 'R', 'Q', 'K', 'C'))
>>> game.play(0, Predict("N"))
>>> game.seat_names[game.to_move], game.phase
('W2', 'move')
>>> game.play(1, TelepathyMove("g1f3"))  # a knight: the face-down card matched
>>> game.coin, game.face_up, game.seat_names[game.to_move], game.phase
(1, ('N', 'P'), 'B1', 'predict')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.team_draw import DRAW_ACTIONS, AnswerDraw, DrawKnowledge, OfferDraw, TeamDraw
from app.games.telepathy import DEFINITION

__all__ = ["CARDS", "SEATS", "TelepathyChess", "TelepathyView", "Predict", "TelepathyMove", "Remove", "OfferDraw",
           "AnswerDraw", "card_of_move", "legal_moves", "resolution", "take_off"]

SEATS = DEFINITION.seat_names
TEAMS = DEFINITION.seat_teams
TEAM_NAMES = ("White", "Black")
CARDS = ("P", "N", "B", "R", "Q", "K", "C")
"""The team's cards: a piece kind each, and ``C``, the copy card, which counts as the face-up card."""
CARD_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king", "C": "copy"}
FIFTY_MOVES = 100
OFFER_PHASES = ("predict", "move")
"""The phases in which the seat to act may propose a draw (its partner must agree; see ``app.games.team_draw``)."""
"""Moves of either team without a capture, a pawn move or a removal after which the game is drawn."""


def card_of_move(board: chess.Board, move: chess.Move) -> str:
    """The card a move matches: the moving piece's kind (castling is a king move, a promotion a pawn move).

    >>> card_of_move(chess.Board(), chess.Move.from_uci("g1f3"))
    'N'
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise ValueError(f"no piece on {chess.square_name(move.from_square)}")
    return piece.symbol().upper()


def legal_moves(board: chess.Board) -> list[chess.Move]:
    """The moves the side to move may make: python-chess's legal moves, and any capture of the enemy king, which
    a removal can make possible and which is always allowed (TP5).

    >>> board = chess.Board("4k3/8/8/8/8/8/4r3/R3K3 b - - 0 1")  # a removal left White's king open to the rook
    >>> chess.Move.from_uci("e2e1") in legal_moves(board)
    True
    """
    moves = list(board.legal_moves)
    king = board.king(not board.turn)
    if king is not None:
        for move in board.generate_pseudo_legal_moves(to_mask=chess.BB_SQUARES[king]):
            if move not in moves:
                moves.append(move)
    return moves


def take_off(board: chess.Board, square: chess.Square) -> chess.Piece | None:
    """Removes the piece on ``square`` as a removal does (TP4), with what only that piece made possible: the en
    passant capture of a pawn that has just moved two squares (TP5c) and castling with a rook from its corner.
    The 50-move count starts again (TP5b). The referee, every seat's view and the export all remove this way.

    >>> board = chess.Board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")  # White's pawn has just come to e4
    >>> take_off(board, chess.E4).symbol(), board.ep_square, chess.Move.from_uci("d4e3") in legal_moves(board)
    ('P', None, False)
    """
    piece = board.remove_piece_at(square)
    board.halfmove_clock = 0
    board.castling_rights = board.clean_castling_rights()
    if board.ep_square is not None:
        pawn = board.ep_square + (-8 if board.turn == chess.WHITE else 8)  # where the pawn that moved two stands
        if board.piece_at(pawn) != chess.Piece(chess.PAWN, not board.turn):
            board.ep_square = None
    return piece


def resolution(moved: str, face_down: str, face_up: str) -> str:
    """How a flip resolves (TP3): ``"down"`` (the face-down card matched, the copy card counting as the face-up
    card), ``"up"`` (the face-up card matched) or ``"none"``.

    >>> resolution("N", "N", "P"), resolution("P", "C", "P"), resolution("P", "N", "P"), resolution("Q", "N", "P")
    ('down', 'down', 'up', 'none')
    """
    predicted = face_up if face_down == "C" else face_down
    if moved == predicted:
        return "down"
    return "up" if moved == face_up else "none"


def _team(seat: Seat) -> int:
    return TEAMS[seat]


def _partner(seat: Seat) -> Seat:
    return seat ^ 1


# ---- actions ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Predict(Action):
    """The predictor's card, played face down: one of ``CARDS`` that is not face up."""

    card: str
    kind: ClassVar[str] = "predict"


@dataclass(frozen=True)
class TelepathyMove(Action):
    """The mover's chess move, in UCI (``e2e4``, ``e7e8q``)."""

    uci: str
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Remove(Action):
    """The piece (not the king) a team removes after the coin went past its side: its square (``b1``)."""

    square: str
    kind: ClassVar[str] = "remove"


# ---- observations ----------------------------------------------------------------------------------------------

class Seated(NamedTuple):
    """Told to each seat at the start, privately: which seat it is, each team's first predictor and the starting
    position (a FEN)."""

    seat: Seat
    predictors: tuple[Seat, Seat]
    fen: str = chess.STARTING_FEN


class YourPrediction(NamedTuple):
    """Told to the predictor only: the card it played face down."""

    card: str


class Predicted(NamedTuple):
    """Told to every seat: ``seat`` played a card face down (never which)."""

    seat: Seat


class Moved(NamedTuple):
    """Told to every seat: ``seat`` moved ``uci`` (``san`` as chess writes it), a ``card``-kind piece, taking
    ``captured`` (a piece letter, or "")."""

    seat: Seat
    uci: str
    san: str
    card: str
    captured: str


class Flipped(NamedTuple):
    """Told to every seat after a move: the predictor ``seat``'s face-down ``card``, the ``face_up`` card beside it,
    the ``result`` (``"down"``, ``"up"``, ``"none"``; ``""`` after a king capture, when nothing is resolved), the
    coin's ``coin`` place after the step (-1 White's side, 0 middle, 1 Black's side; 2 or -2: past a side), and
    the card that now lies face up for the team."""

    seat: Seat
    card: str
    face_up: str
    result: str
    coin: int
    next_face_up: str


class RemovalDue(NamedTuple):
    """Told to every seat: the coin went past ``team``'s side; ``seat`` (that team's next mover) picks the piece
    to remove, or, with ``nothing`` True, the team has only its king and removes nothing."""

    team: int
    seat: Seat
    nothing: bool


class Removed(NamedTuple):
    """Told to every seat: ``seat`` removed its team's ``piece`` (a letter) from ``square``."""

    seat: Seat
    square: str
    piece: str


class Ended(NamedTuple):
    """Told to every seat at the end."""

    outcome: Outcome


@dataclass(frozen=True)
class TelepathyTruth:
    """The whole state of a game: the board, the coin, each team's face-up card, and a face-down card not yet
    flipped."""

    board: chess.Board
    coin: int
    face_up: tuple[str, str]
    face_down: str | None


# ---- the referee -----------------------------------------------------------------------------------------------

class TelepathyChess(Game):
    """The referee: the board, the coin, the cards on the table and whose role is what."""

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Predict, TelepathyMove, Remove) + DRAW_ACTIONS

    def __init__(self, white_first: Seat = 0, black_first: Seat = 2, fen: str | None = None) -> None:
        super().__init__()
        if white_first not in (0, 1) or black_first not in (2, 3):
            raise ValueError("White's first predictor is W1 or W2, Black's B1 or B2")
        self.first_predictors = (white_first, black_first)
        self.start_fen = fen
        self.board = chess.Board(fen) if fen else chess.Board()
        if self.board.king(chess.WHITE) is None or self.board.king(chess.BLACK) is None:
            raise ValueError("each side needs a king")
        self.coin = 0
        self.face_up: tuple[str, str] = ("P", "P")
        self.predictors: list[Seat] = [white_first, black_first]
        self.face_down: str | None = None
        self._phase = "predict"
        self._remover: Seat | None = None
        self._ply = 0
        self.draws = TeamDraw(self)
        """A draw offer in progress: while it asks a seat, that seat acts (``agree_draw``, ``answer_draw``)."""
        for seat in range(len(SEATS)):
            self._tell(seat, Seated(seat, (white_first, black_first), self.board.fen()))
        self._judge()  # a starting position may already be over (mated, stalemated, bare kings)

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def team(self) -> int:
        """The team whose turn it is: 0 White, 1 Black."""
        return 0 if self.board.turn == chess.WHITE else 1

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        if self.draws.asked is not None:
            return self.draws.asked
        if self._phase == "remove":
            return self._remover
        predictor = self.predictors[self.team]
        return predictor if self._phase == "predict" else _partner(predictor)

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.draws.phase or self._phase

    @property
    def ply(self) -> int:
        # One per team move: partners share a clock (G5), so a team earns one increment a move.
        return self._ply

    def hand(self, team: int | None = None) -> tuple[str, ...]:
        """The cards the predictor of ``team`` (default: the team to move) holds: all but the face-up card."""
        up = self.face_up[self.team if team is None else team]
        return tuple(card for card in CARDS if card != up)

    def truth(self) -> TelepathyTruth:
        return TelepathyTruth(self.board.copy(stack=False), self.coin, self.face_up, self.face_down)

    def choices(self) -> dict[str, Any]:
        if self.to_move is None:
            return {}
        if self.draws.phase is not None:
            return self.draws.choices()
        offer = {"offer_draw": [OfferDraw()]} if self.draws.may_offer(self._ply) else {}
        if self._phase == "predict":
            return {"cards": [Predict(card) for card in self.hand()], **offer}
        if self._phase == "move":
            return {"moves": [TelepathyMove(move.uci()) for move in legal_moves(self.board)], **offer}
        return {"squares": [Remove(chess.square_name(square)) for square in self._removable(self.team_of_remover)]}

    @property
    def team_of_remover(self) -> int:
        return _team(self._remover) if self._remover is not None else self.team

    def _removable(self, team: int) -> list[int]:
        colour = chess.WHITE if team == 0 else chess.BLACK
        return sorted(square for square, piece in self.board.piece_map().items()
                      if piece.color == colour and piece.piece_type != chess.KING)

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = SEATS[seat]
        if self.draws.phase is not None:
            # The opponents' predictor answers first: it starts their next turn.
            self.draws.answer(seat, action, first_opponent=lambda team: self.predictors[1 - team])
        elif type(action) is OfferDraw and self._phase in OFFER_PHASES:
            self.draws.offer(seat, self._ply)
        elif self._phase == "predict":
            if type(action) is not Predict:
                raise IllegalAction(f"{name} must first play a card face down")
            if action.card not in self.hand():
                raise IllegalAction(f"{str(action.card)[:8]!r} is not a card in {name}'s hand "
                                    f"({' '.join(self.hand())})")
            self.face_down, self._phase = action.card, "move"
            self._tell(seat, YourPrediction(action.card))
            self._tell_all(Predicted(seat))
        elif self._phase == "move":
            if type(action) is not TelepathyMove:
                raise IllegalAction(f"{name} must make a chess move")
            try:
                move = chess.Move.from_uci(str(action.uci))
            except (ValueError, IndexError):
                raise IllegalAction(f"{str(action.uci)[:10]!r} is not a move") from None
            if move not in legal_moves(self.board):
                raise IllegalAction(f"{move.uci()} is not a legal move here")
            self._move(seat, move)
        else:
            if type(action) is not Remove:
                raise IllegalAction(f"{name} must remove one of its team's pieces")
            try:
                square = chess.parse_square(str(action.square))
            except ValueError:
                raise IllegalAction(f"{str(action.square)[:8]!r} is not a square") from None
            if square not in self._removable(_team(seat)):
                raise IllegalAction(f"{chess.square_name(square)} holds no piece of {name}'s team that may be "
                                    "removed (the king never is)")
            piece = take_off(self.board, square)
            assert piece is not None
            self._tell_all(Removed(seat, chess.square_name(square), piece.symbol()))
            self._remover, self._phase = None, "predict"
            self._judge()

    def _move(self, seat: Seat, move: chess.Move) -> None:
        board, team = self.board, self.team
        card = card_of_move(board, move)
        captured = board.piece_at(move.to_square)
        if captured is None and board.is_en_passant(move):
            captured = chess.Piece(chess.PAWN, not board.turn)
        # A king capture may leave the mover's own king attacked: python-chess writes SAN of legal moves only.
        taken = chess.square_name(move.to_square)
        san = board.san(move) if board.is_legal(move) else f"{'' if card == 'P' else card}x{taken}"
        board.push(move)
        self._ply += 1
        self._tell_all(Moved(seat, move.uci(), san, card, captured.symbol() if captured else ""))
        predictor = self.predictors[team]
        face_down, face_up = self.face_down or "C", self.face_up[team]
        self.face_down = None
        if captured is not None and captured.piece_type == chess.KING:
            # The king is taken: the game ends at once; the card is shown for the record, nothing is resolved.
            self._tell_all(Flipped(predictor, face_down, face_up, "", self.coin, face_up))
            self._finish(Outcome(None, Reason.KING_CAPTURE, f"{TEAM_NAMES[team]} captured the king", team=team))
            return
        result = resolution(card, face_down, face_up)
        toward_opponents = 1 if team == 0 else -1
        step = {"down": toward_opponents, "up": 0, "none": -toward_opponents}[result]
        coin = self.coin + step
        next_up = face_down if face_down != "C" else face_up  # TP6: the copy card goes back to hand first
        ups = list(self.face_up)
        ups[team] = next_up
        self.face_up = (ups[0], ups[1])
        self.predictors[team] = _partner(predictor)  # roles swap once the move is resolved
        self._tell_all(Flipped(predictor, face_down, face_up, result, coin, next_up))
        if abs(coin) > 1:
            losing = 1 if coin > 1 else 0  # past Black's side: Black removes; past White's: White
            self.coin = 0
            remover = _partner(self.predictors[losing])  # that team's next mover
            nothing = not self._removable(losing)
            self._tell_all(RemovalDue(losing, remover, nothing))
            if not nothing:
                self._remover, self._phase = remover, "remove"
                return
        else:
            self.coin = coin
        self._phase = "predict"
        self._judge()

    def _judge(self) -> None:
        board = self.board
        if not legal_moves(board):
            team = self.team
            if board.is_check():
                self._finish(Outcome(None, Reason.NO_MOVES, f"{TEAM_NAMES[team]} is checkmated",
                                     team=1 - team))
            else:
                self._finish(Outcome(None, Reason.NO_MOVES, f"stalemate: {TEAM_NAMES[team]} cannot move"))
        elif board.is_insufficient_material():
            self._finish(Outcome(None, Reason.INSUFFICIENT_MATERIAL, "drawn: neither team can mate"))
        elif board.halfmove_clock >= FIFTY_MOVES:
            self._finish(Outcome(None, Reason.MOVE_LIMIT, "drawn: 50 moves by each team without a capture, a "
                                                          "pawn move or a removal"))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        white, black = self.first_predictors
        options: dict[str, Any] = {"white_first_predictor": SEATS[white], "black_first_predictor": SEATS[black]}
        if self.start_fen:
            options["fen"] = self.start_fen
        return options

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> TelepathyChess:
        unknown = sorted(set(map(str, options)) - {"white_first_predictor", "black_first_predictor", "fen"})
        if unknown:
            raise ValueError(f"Telepathy Chess has no option {', '.join(unknown)[:60]}")
        white = options.get("white_first_predictor") or "W1"
        black = options.get("black_first_predictor") or "B1"
        if white not in ("W1", "W2"):
            raise ValueError(f"White's first predictor is W1 or W2, not {str(white)[:10]!r}")
        if black not in ("B1", "B2"):
            raise ValueError(f"Black's first predictor is B1 or B2, not {str(black)[:10]!r}")
        fen = options.get("fen") or None
        if fen is not None and (not isinstance(fen, str) or len(fen) > 200):
            raise ValueError("the starting position must be a FEN")
        try:
            return cls(SEATS.index(white), SEATS.index(black), fen)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None


# ---- a seat's view ----------------------------------------------------------------------------------------------

@dataclass
class TelepathyView(View):
    """What one seat knows, from its own observations: the board (every move is public), the coin, each team's
    face-up card and roles, its own face-down card until the flip, and any removal asked for.

    >>> game = TelepathyChess()
    >>> game.play(0, Predict("N"))
    >>> partner = TelepathyView.from_observations(game.observations(1))
    >>> partner.my_prediction, partner.predicted, partner.to_move
    (None, True, 1)
    >>> TelepathyView.from_observations(game.observations(0)).my_prediction
    'N'
    """

    seat: Seat | None = None
    board: chess.Board = field(default_factory=chess.Board)
    coin: int = 0
    face_up: list[str] = field(default_factory=lambda: ["P", "P"])
    predictors: list[Seat] = field(default_factory=lambda: [0, 2])
    my_prediction: str | None = None
    predicted: bool = False
    removal: RemovalDue | None = None
    history: list[tuple[Moved, Flipped]] = field(default_factory=list)
    last_moved: Moved | None = None
    removed: list[Removed] = field(default_factory=list)
    outcome: Outcome | None = None
    draw: DrawKnowledge = field(default_factory=DrawKnowledge)
    """What this seat knows of a draw offer (its own team's before the partner agrees, then everyone's)."""

    @property
    def team(self) -> int:
        return 0 if self.board.turn == chess.WHITE else 1

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        if self.draw.phase is not None:
            return self.draw.phase
        if self.removal is not None and not self.removal.nothing:
            return "remove"
        return "move" if self.predicted else "predict"

    @property
    def to_move(self) -> Seat | None:
        phase = self.phase
        if phase == "over":
            return None
        if self.draw.phase is not None:
            return self.draw.asked
        if phase == "remove":
            assert self.removal is not None
            return self.removal.seat
        predictor = self.predictors[self.team]
        return predictor if phase == "predict" else _partner(predictor)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    def hand(self) -> tuple[str, ...] | None:
        """The cards this seat holds: the six not face up when it is its team's predictor, else none."""
        if self.seat is None or self.predictors[_team(self.seat)] != self.seat:
            return None
        up = self.face_up[_team(self.seat)]
        held = tuple(card for card in CARDS if card != up)
        if self.my_prediction is not None:
            held = tuple(card for card in held if card != self.my_prediction)
        return held

    def legal_moves(self) -> list[chess.Move]:
        return legal_moves(self.board)

    def can_offer_draw(self) -> bool:
        """Whether this seat may propose a draw now: its turn to predict or move, once in its team's turn."""
        return self.my_turn and self.phase in OFFER_PHASES and self.draw.may_offer(len(self.history))

    def apply(self, observation: Any) -> None:
        o = observation
        if isinstance(o, Seated):
            self.seat, self.predictors = o.seat, list(o.predictors)
            self.board = chess.Board(o.fen)
        elif isinstance(o, YourPrediction):
            self.my_prediction = o.card
        elif isinstance(o, Predicted):
            self.predicted = True
        elif isinstance(o, Moved):
            self.board.push(chess.Move.from_uci(o.uci))
            self.last_moved = o
        elif isinstance(o, Flipped):
            team = _team(o.seat)
            self.face_up[team] = o.next_face_up
            self.coin = o.coin if abs(o.coin) <= 1 else 0
            self.predictors[team] = _partner(o.seat)
            self.my_prediction, self.predicted = None, False
            if self.last_moved is not None:
                self.history.append((self.last_moved, o))
        elif isinstance(o, RemovalDue):
            self.removal = None if o.nothing else o
        elif isinstance(o, Removed):
            take_off(self.board, chess.parse_square(o.square))
            self.removed.append(o)
            self.removal = None
        elif isinstance(o, Ended):
            self.outcome = o.outcome
        else:
            self.draw.apply(o, len(self.history), TEAMS)


TelepathyChess.view_type = TelepathyView
