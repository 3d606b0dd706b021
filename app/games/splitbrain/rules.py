"""Split-Brain Chess: Los Alamos chess (6x6) played by two teams of two, each move made of two secret halves.

Seats W1 and W2 play White, B1 and B2 Black (rulings SB1-SB4). In each team one partner sits on the king side
(W1, B1) and one on the queen side (W2, B2). A coin stands on one side (the king side at first; it changes side
after every Black move); the partner on the coin's side is the team's **chooser**, who secretly picks one of the
team's pieces that can move, and the other is the **mover**, who secretly picks a square some piece of the team
can move to. The app asks the chooser first, then the mover; neither is told the other's pick before both are in.

If the picked piece can move to the picked square, that move is made. Otherwise the opponents' chooser decides
whether the *piece* or the *square* stands: the piece's move ending closest to the square (Manhattan distance;
a tie is the mover's choice), or the move to the square by the piece closest to the picked one (a tie is the
chooser's choice). A pawn reaching the last rank becomes what the mover says (queen, rook or knight), after any
tie choice. Checkmate wins; stalemate, bare material and 50 moves by each team without a capture or pawn move
draw.

Squares are named as in chess, ``a1`` to ``f6``.

>>> game = SplitBrainChess()
>>> game.seat_names[game.to_move], game.phase
('W1', 'pick')
>>> game.play(0, PickPiece("b1"))  # W1 chooses the knight on b1
>>> game.play(1, PickSquare("c3"))  # W2, unaware, names c3: the knight can go there
>>> game.position.fen()
'rnqknr/pppppp/6/2N3/PPPPPP/R1QKNR b - - 1 1'
>>> game.seat_names[game.to_move], game.phase
('B1', 'pick')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.team_draw import DRAW_ACTIONS, AnswerDraw, DrawKnowledge, OfferDraw, TeamDraw
from app.games.splitbrain.losalamos import (FILES, PROMOTIONS, SIZE, LosAlamosPosition, Move, parse_square,
                                            square_name)
from app.games.splitbrain import DEFINITION

__all__ = ["SEATS", "SplitBrainChess", "SplitBrainView", "PickPiece", "PickSquare", "Decide", "Settle", "Promote",
           "OfferDraw", "AnswerDraw", "manhattan", "roles", "resolve", "insufficient_material"]

SEATS = DEFINITION.seat_names
TEAMS = DEFINITION.seat_teams
TEAM_NAMES = ("White", "Black")
SIDES = ("king", "queen")
"""The coin's two places: the king side (files d-f, seats W1 and B1) and the queen side (a-c, W2 and B2)."""
FIFTY_MOVES = 100
"""Moves (of either team) without a capture or a pawn move after which the game is drawn: 50 by each team."""
PROMOTION_NAMES = {"q": "queen", "r": "rook", "n": "knight"}
Pair = tuple[int, int]
"""A move as (from, to) squares, its promotion left open."""


def roles(team: int, coin: str) -> tuple[Seat, Seat]:
    """(chooser, mover) of ``team`` with the coin on ``coin``'s side.

    >>> [SEATS[seat] for seat in roles(0, "king")], [SEATS[seat] for seat in roles(1, "queen")]
    (['W1', 'W2'], ['B2', 'B1'])
    """
    king_side, queen_side = 2 * team, 2 * team + 1
    return (king_side, queen_side) if coin == "king" else (queen_side, king_side)


def manhattan(a: int, b: int) -> int:
    """Steps between two squares without diagonal steps.

    >>> manhattan(parse_square("a1"), parse_square("c2"))
    3
    """
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def legal_pairs(position: LosAlamosPosition) -> set[Pair]:
    """The side to move's legal moves as (from, to) pairs (a promotion counted once)."""
    return {(move.from_sq, move.to_sq) for move in position.legal_moves()}


def resolve(pairs: Iterable[Pair], piece: int, square: int, by: str) -> list[Pair]:
    """The moves an invalid pair turns into when the opponents choose ``by`` ("piece" or "square"): every move
    at the least Manhattan distance (more than one is a tie for the mover or the chooser to settle).

    >>> pairs = {(1, 12), (1, 14), (2, 13)}  # b1-a3, b1-c3, c1-b3
    >>> [(square_name(a), square_name(b)) for a, b in resolve(pairs, 1, 16, "piece")]  # to e3: c3 is closer
    [('b1', 'c3')]
    >>> sorted(square_name(b) for _, b in resolve(pairs, 1, 13, "piece"))  # to b3: a3 and c3 tie
    ['a3', 'c3']
    """
    if by == "piece":
        found = [pair for pair in pairs if pair[0] == piece]
        distance = {pair: manhattan(pair[1], square) for pair in found}
    else:
        found = [pair for pair in pairs if pair[1] == square]
        distance = {pair: manhattan(pair[0], piece) for pair in found}
    if not found:
        return []
    best = min(distance.values())
    return sorted(pair for pair in found if distance[pair] == best)


def insufficient_material(position: LosAlamosPosition) -> bool:
    """Whether no sequence of moves can mate: the kings alone, or with one knight between both sides (a rook, a
    queen, a pawn or a second knight can still mate, if only with help).

    >>> insufficient_material(LosAlamosPosition.from_fen("k5/6/6/6/6/4NK w - - 0 1"))
    True
    >>> insufficient_material(LosAlamosPosition.from_fen("k5/6/6/6/6/3NNK w - - 0 1"))
    False
    """
    others = [piece for piece in position.board if piece not in ".Kk"]
    return not others or others in (["N"], ["n"])


def _pair_text(pair: Pair) -> str:
    return square_name(pair[0]) + square_name(pair[1])


def _pair(text: Any) -> Pair:
    if not isinstance(text, str) or len(text) != 4:
        raise ValueError(f"not a move of two squares: {str(text)[:12]!r}")
    return parse_square(text[:2]), parse_square(text[2:])


def _square(text: Any) -> int:
    if not isinstance(text, str):
        raise ValueError(f"not a square: {str(text)[:12]!r}")
    return parse_square(text.strip().lower())


# ---- actions ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PickPiece(Action):
    """The chooser's secret pick: the square of one of the team's pieces that has a legal move."""

    square: str
    kind: ClassVar[str] = "pick_piece"


@dataclass(frozen=True)
class PickSquare(Action):
    """The mover's secret pick: a square that some piece of the team can legally move to."""

    square: str
    kind: ClassVar[str] = "pick_square"


@dataclass(frozen=True)
class Decide(Action):
    """The opponents' chooser: which half of an invalid pair stands, ``"piece"`` or ``"square"``."""

    choice: str
    kind: ClassVar[str] = "decide"


@dataclass(frozen=True)
class Settle(Action):
    """A tie choice: one of the equally close moves (``"b1c3"``), by the mover (piece) or the chooser (square)."""

    move: str
    kind: ClassVar[str] = "settle"


@dataclass(frozen=True)
class Promote(Action):
    """The mover's choice of what a pawn reaching the last rank becomes: ``"q"``, ``"r"`` or ``"n"``."""

    piece: str
    kind: ClassVar[str] = "promote"


# ---- observations ----------------------------------------------------------------------------------------------

class Seated(NamedTuple):
    """Told to each seat at the start, privately: which seat it is, and the starting position and coin."""

    seat: Seat
    fen: str
    coin: str


class YourPick(NamedTuple):
    """Told to the picking seat only: its own pick (``kind`` "piece" or "square")."""

    kind: str
    square: int


class Picked(NamedTuple):
    """Told to every seat: ``seat`` has made its pick (never which)."""

    seat: Seat
    kind: str


class Revealed(NamedTuple):
    """Told to every seat once both partners have picked: the pair, and whether it is a legal move."""

    team: int
    piece: int
    square: int
    legal: bool
    letter: str
    """The letter of the picked piece (``"N"``)."""
    chooser: Seat
    mover: Seat


class Asked(NamedTuple):
    """Told to every seat: ``seat`` must now ``decide`` (piece or square), settle a ``tie`` among ``moves``, or
    ``promote`` the pawn of ``moves[0]``."""

    seat: Seat
    phase: str
    moves: tuple[Pair, ...] = ()


class Decided(NamedTuple):
    """Told to every seat: the opponents' chooser ``seat`` chose ``choice`` ("piece" or "square")."""

    seat: Seat
    choice: str


class Moved(NamedTuple):
    """Told to every seat: ``team`` made ``move`` (UCI, promotion included) with the piece ``letter``; ``how`` is
    "as picked", "by piece" or "by square"; ``captured`` the letter of a piece taken, or ""."""

    team: int
    move: str
    how: str
    captured: str
    letter: str
    check: bool = False
    """Whether the move gives check."""


class CoinSwitched(NamedTuple):
    """Told to every seat after each Black move: the coin now stands on ``side``'s side."""

    side: str


class Ended(NamedTuple):
    """Told to every seat at the end."""

    outcome: Outcome


@dataclass(frozen=True)
class SplitBrainTruth:
    """The whole state of a game: the position, the coin and the picks not yet revealed."""

    position: LosAlamosPosition
    coin: str
    piece: int | None
    square: int | None

    @property
    def board(self) -> LosAlamosPosition:
        return self.position


# ---- the referee -----------------------------------------------------------------------------------------------

class SplitBrainChess(Game):
    """The referee: the true position, the coin, and the picks of the team to move.

    >>> game = SplitBrainChess()
    >>> game.play(0, PickPiece("a2"))  # W1 chooses the a-pawn
    >>> game.play(1, PickSquare("f3"))  # W2 names f3: no pair, so Black's chooser decides
    >>> game.phase, game.seat_names[game.to_move]
    ('decide', 'B1')
    >>> game.play(2, Decide("square"))  # the pawn on f2 and the knight on e1 reach f3, both 5 steps from a2
    >>> game.phase, game.seat_names[game.to_move], [a.move for a in game.choices()["moves"]]
    ('tie', 'W1', ['e1f3', 'f2f3'])
    >>> game.play(0, Settle("f2f3"))  # the chooser settles the tie
    >>> [o.move for o in game.observations(1) if isinstance(o, Moved)]
    ['f2f3']
    """

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (PickPiece, PickSquare, Decide, Settle, Promote) + DRAW_ACTIONS

    def __init__(self, fen: str | None = None, coin: str = "king") -> None:
        super().__init__()
        self.start_fen = fen
        self.position = LosAlamosPosition.from_fen(fen) if fen else LosAlamosPosition.start()
        if coin not in SIDES:
            raise ValueError(f"the coin stands on the king or the queen side, not {coin!r}")
        self.start_coin = coin
        self.coin = coin
        self.piece: int | None = None
        self.square: int | None = None
        self._phase = "pick"
        self._asked: Seat | None = None
        self._candidates: list[Pair] = []
        self._how = "as picked"
        self._ply = 0
        self.draws = TeamDraw(self)
        """A draw offer in progress: while it asks a seat, that seat acts (``agree_draw``, ``answer_draw``)."""
        self.moves: list[Move] = []
        """The moves made, in order (the replay marks the last one)."""
        for seat in range(len(SEATS)):
            self._tell(seat, Seated(seat, self.position.fen(), coin))
        self._judge()

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def team(self) -> int:
        """The team to move: 0 White, 1 Black."""
        return 0 if self.position.white_to_move else 1

    @property
    def roles(self) -> tuple[Seat, Seat]:
        """(chooser, mover) of the team to move."""
        return roles(self.team, self.coin)

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        if self.draws.asked is not None:
            return self.draws.asked
        if self._phase == "pick":
            chooser, mover = self.roles
            return chooser if self.piece is None else mover
        return self._asked

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.draws.phase or self._phase

    @property
    def ply(self) -> int:
        # One per team move: partners share a clock (G5), so the team earns one increment a move.
        return self._ply

    def truth(self) -> SplitBrainTruth:
        return SplitBrainTruth(self.position, self.coin, self.piece, self.square)

    def choices(self) -> dict[str, Any]:
        seat = self.to_move
        if seat is None:
            return {}
        if self.draws.phase is not None:
            return self.draws.choices()
        if self._phase == "pick":
            pairs = legal_pairs(self.position)
            offer = {"offer_draw": [OfferDraw()]} if self.draws.may_offer(self._ply) else {}
            if seat == self.roles[0]:
                return {"pieces": [PickPiece(square_name(square)) for square in sorted({a for a, _ in pairs})],
                        **offer}
            return {"squares": [PickSquare(square_name(square)) for square in sorted({b for _, b in pairs})],
                    **offer}
        if self._phase == "decide":
            return {"decisions": [Decide("piece"), Decide("square")]}
        if self._phase == "tie":
            return {"moves": [Settle(_pair_text(pair)) for pair in self._candidates]}
        return {"promotions": [Promote(piece) for piece in PROMOTIONS]}

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        name = SEATS[seat]
        if self.draws.phase is not None:
            # The opponents' chooser answers first, as it is the one asked when a pair is no move.
            self.draws.answer(seat, action, first_opponent=lambda team: roles(1 - team, self.coin)[0])
        elif type(action) is OfferDraw and self._phase == "pick":
            self.draws.offer(seat, self._ply)
        elif self._phase == "pick":
            self._pick(seat, action)
        elif self._phase == "decide":
            if type(action) is not Decide or action.choice not in ("piece", "square"):
                raise IllegalAction(f"{name} must choose whether the piece or the square stands")
            self._tell_all(Decided(seat, action.choice))
            assert self.piece is not None and self.square is not None
            self._how = f"by {action.choice}"
            candidates = resolve(legal_pairs(self.position), self.piece, self.square, action.choice)
            chooser, mover = self.roles
            self._settle_or_ask(candidates, mover if action.choice == "piece" else chooser)
        elif self._phase == "tie":
            if type(action) is not Settle:
                raise IllegalAction(f"{name} must choose one of the equally close moves")
            try:
                pair = _pair(action.move)
            except ValueError as error:
                raise IllegalAction(str(error)) from None
            if pair not in self._candidates:
                raise IllegalAction(f"{str(action.move)[:8]} is not one of the equally close moves")
            self._candidates = [pair]
            self._settle_or_ask([pair], seat)
        else:
            if type(action) is not Promote or action.piece not in PROMOTIONS:
                raise IllegalAction(f"{name} must say what the pawn becomes: q, r or n")
            pair = self._candidates[0]
            self._make(Move(pair[0], pair[1], action.piece))

    def _pick(self, seat: Seat, action: Action) -> None:
        chooser, _mover = self.roles
        pairs = legal_pairs(self.position)
        wanted = PickPiece if seat == chooser else PickSquare
        if type(action) is not wanted:
            raise IllegalAction(f"{SEATS[seat]} must pick a {'piece' if wanted is PickPiece else 'square'}")
        try:
            square = _square(action.square)
        except ValueError as error:
            raise IllegalAction(str(error)) from None
        if wanted is PickPiece:
            if square not in {a for a, _ in pairs}:
                raise IllegalAction(f"{square_name(square)} holds no piece of {TEAM_NAMES[self.team]}'s that can move")
            self.piece, kind = square, "piece"
        else:
            if square not in {b for _, b in pairs}:
                raise IllegalAction(f"no piece of {TEAM_NAMES[self.team]}'s can move to {square_name(square)}")
            self.square, kind = square, "square"
        self._tell(seat, YourPick(kind, square))
        self._tell_all(Picked(seat, kind))
        if self.piece is None or self.square is None:
            return
        legal = (self.piece, self.square) in pairs
        self._tell_all(Revealed(self.team, self.piece, self.square, legal, self.position.board[self.piece],
                                *self.roles))
        if legal:
            self._how = "as picked"
            self._settle_or_ask([(self.piece, self.square)], seat)
        else:
            self._phase, self._asked = "decide", roles(1 - self.team, self.coin)[0]
            self._tell_all(Asked(self._asked, "decide"))

    def _settle_or_ask(self, candidates: list[Pair], tie_seat: Seat) -> None:
        self._candidates = candidates
        if len(candidates) > 1:
            self._phase, self._asked = "tie", tie_seat
            self._tell_all(Asked(tie_seat, "tie", tuple(candidates)))
            return
        pair = candidates[0]
        promotions = [move for move in self.position.legal_moves()
                      if (move.from_sq, move.to_sq) == pair and move.promotion]
        if promotions:
            self._phase, self._asked = "promote", self.roles[1]
            self._tell_all(Asked(self._asked, "promote", (pair,)))
            return
        self._make(Move(pair[0], pair[1]))

    def _make(self, move: Move) -> None:
        team = self.team
        captured, letter = self.position.board[move.to_sq], self.position.board[move.from_sq]
        self.position = self.position.push(move)
        self.moves.append(move)
        self._ply += 1
        self.piece = self.square = None
        self._phase, self._asked, self._candidates = "pick", None, []
        self._tell_all(Moved(team, move.uci(), self._how, "" if captured == "." else captured, letter,
                             self.position.in_check()))
        if team == 1:
            self.coin = "queen" if self.coin == "king" else "king"
            self._tell_all(CoinSwitched(self.coin))
        self._judge()

    def _judge(self) -> None:
        position = self.position
        if not position.legal_moves():
            if position.in_check():
                winner = 1 - self.team
                self._finish(Outcome(None, Reason.NO_MOVES, f"{TEAM_NAMES[winner]} checkmated "
                                     f"{TEAM_NAMES[1 - winner]}", team=winner))
            else:
                self._finish(Outcome(None, Reason.NO_MOVES, f"stalemate: {TEAM_NAMES[self.team]} cannot move"))
        elif insufficient_material(position):
            self._finish(Outcome(None, Reason.INSUFFICIENT_MATERIAL, "drawn: neither team can mate"))
        elif position.halfmove_clock >= FIFTY_MOVES:
            self._finish(Outcome(None, Reason.MOVE_LIMIT, "drawn: 50 moves by each team without a capture or "
                                                          "a pawn move"))

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if self.start_fen:
            options["fen"] = self.start_fen
        if self.start_coin != "king":
            options["coin"] = self.start_coin
        return options

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> SplitBrainChess:
        unknown = sorted(set(map(str, options)) - {"fen", "coin"})
        if unknown:
            raise ValueError(f"Split-Brain Chess has no option {', '.join(unknown)[:60]}")
        fen, coin = options.get("fen") or None, options.get("coin") or "king"
        if fen is not None and not isinstance(fen, str):
            raise ValueError("the starting position must be a FEN of six ranks")
        if coin not in SIDES:
            raise ValueError(f"the coin starts on the king or the queen side, not {str(coin)[:20]!r}")
        if fen is not None and len(fen) > 200:
            raise ValueError("the starting position is too long to be a FEN")
        try:
            return cls(fen, coin)
        except ValueError as error:
            raise ValueError(f"bad starting position: {error}") from None


# ---- a seat's view ----------------------------------------------------------------------------------------------

@dataclass
class SplitBrainView(View):
    """What one seat knows, from its own observations: the board (every move is public), the coin, its own pick
    until the reveal, who has picked, the revealed pair and any question pending.

    >>> game = SplitBrainChess()
    >>> game.play(0, PickPiece("b1"))
    >>> partner = SplitBrainView.from_observations(game.observations(1))
    >>> partner.my_pick, partner.picked, partner.to_move
    (None, {0}, 1)
    """

    seat: Seat | None = None
    position: LosAlamosPosition = field(default_factory=LosAlamosPosition.start)
    coin: str = "king"
    my_pick: tuple[str, int] | None = None
    picked: set[Seat] = field(default_factory=set)
    revealed: Revealed | None = None
    asked: Asked | None = None
    decided: str | None = None
    history: list[Moved] = field(default_factory=list)
    outcome: Outcome | None = None
    started: bool = False
    sans: list[str] = field(default_factory=list)
    """Each move of ``history`` in standard algebraic notation (``Nc3``, ``exd5+``), written as it was made."""
    draw: DrawKnowledge = field(default_factory=DrawKnowledge)
    """What this seat knows of a draw offer (its own team's before the partner agrees, then everyone's)."""

    @property
    def team(self) -> int:
        """The team to move."""
        return 0 if self.position.white_to_move else 1

    @property
    def roles(self) -> tuple[Seat, Seat]:
        """(chooser, mover) of the team to move."""
        return roles(self.team, self.coin)

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        if self.draw.phase is not None:
            return self.draw.phase
        return self.asked.phase if self.asked is not None else "pick"

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        if self.draw.phase is not None:
            return self.draw.asked
        if self.asked is not None:
            return self.asked.seat
        chooser, mover = self.roles
        return mover if chooser in self.picked else chooser

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    def legal_pairs(self) -> set[Pair]:
        return legal_pairs(self.position)

    def can_offer_draw(self) -> bool:
        """Whether this seat may propose a draw now: its turn to pick, once in its team's turn."""
        return self.my_turn and self.phase == "pick" and self.draw.may_offer(len(self.history))

    def apply(self, observation: Any) -> None:
        if isinstance(observation, Seated):
            self.seat, self.started = observation.seat, True
            self.position, self.coin = LosAlamosPosition.from_fen(observation.fen), observation.coin
        elif isinstance(observation, YourPick):
            self.my_pick = (observation.kind, observation.square)
        elif isinstance(observation, Picked):
            self.picked.add(observation.seat)
        elif isinstance(observation, Revealed):
            self.revealed, self.decided = observation, None
        elif isinstance(observation, Asked):
            self.asked = observation
        elif isinstance(observation, Decided):
            self.decided, self.asked = observation.choice, None
        elif isinstance(observation, Moved):
            move = Move.parse(observation.move)
            self.sans.append(self.position.san(move))
            self.position = self.position.push(move)
            self.history.append(observation)
            self.my_pick, self.picked, self.asked = None, set(), None
        elif isinstance(observation, CoinSwitched):
            self.coin = observation.side
        elif isinstance(observation, Ended):
            self.outcome = observation.outcome
        else:
            self.draw.apply(observation, len(self.history), TEAMS)


SplitBrainChess.view_type = SplitBrainView
