"""Neighbour Chess Solitaire, the referee and the player's view (rulings NE1-NE4b, G1, G2, G5).

The rules themselves are pure functions of a :class:`~app.games.neighbour.state.State` (:mod:`.state`); the
referee holds the state, checks each action through them, and tells the player what they see: the cards turned,
where each piece went, each move. The decks are dealt from the game's deal number (1 to 1,000,000, the shared
solitaires' generator: :mod:`app.games.patience.deals`; stream 0 the piece deck, stream 1 the position deck); a
game not given one draws its number from its chance seed. Nobody is told the order of a deck (G2): a card spent on
a move is spent unseen.

Undo and redo (:mod:`app.games.patience.undo`) go back action by action, but never past an add: an add turns two
cards face up, and a card once seen stays seen. Stopping and moving turn nothing, so they can be taken back.

>>> game = NeighbourChess.from_options({"deal": 1})
>>> game.state.stage, game.state.cards_left, sorted(game.choices())
('add', 36, ['adds'])
>>> game.play(0, NeighbourAdd())
>>> game.observations(0)[-1].piece_card, game.observations(0)[-1].square
('9C', 'a4')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.kit_cards import card_piece
from app.games.neighbour import DEFINITION
from app.games.neighbour.state import (BOARD_EMPTY, PIECE_CARDS, POSITION_CARDS, NeighbourAdd, NeighbourMove,
                                       NeighbourPlace, NeighbourStop, State, StateError, add_start, add_target,
                                       apply, deck_paying, legal_actions, move_targets, square_names)
from app.games.patience.deals import check_deal, deal_order, random_deal
from app.games.patience.undo import Redo, Undo, UndoHistory

__all__ = ["Added", "Dealt", "Ended", "Moved", "NeighbourAdd", "NeighbourChess", "NeighbourMove", "NeighbourPlace",
           "NeighbourStop", "NeighbourView", "Placed", "Redo", "Restored", "Stopped", "Undo", "deal_decks"]

SEAT = DEFINITION.seat_names[0]


def deal_decks(deal: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The piece deck and the position deck of deal number ``deal``, top card first.

    >>> pieces, positions = deal_decks(1)
    >>> pieces[:3], positions[:3]
    (('9C', 'QH', '9S'), ('3S', '5D', '2H'))
    """
    number = check_deal(deal)
    return tuple(deal_order(PIECE_CARDS, number, 0)), tuple(deal_order(POSITION_CARDS, number, 1))


def _square(square: int | None) -> str:
    return "" if square is None else chess.square_name(square)


# ---- observations (the one seat sees all of them) -------------------------------------------------------------

class Dealt(NamedTuple):
    """The game begins: its deal number, the cards in each deck; for a hand-made position (tests, examples), the
    board (64 characters, a1 first, ``.`` empty), the stage and the square of the last piece added."""

    deal: int
    pieces: int = len(PIECE_CARDS)
    positions: int = len(POSITION_CARDS)
    board: str = BOARD_EMPTY
    stage: str = "add"
    last: str = ""
    added: int = 0


class Added(NamedTuple):
    """An add: the piece card and the position card turned; the piece started above ``start`` and the card sent it
    to ``target``; it stands on ``square``, or (``square`` empty) the player must pick one of ``candidates``,
    the nearest empty squares, because ``target`` was taken."""

    piece_card: str
    position_card: str
    start: str
    target: str
    square: str
    candidates: tuple[str, ...] = ()


class Placed(NamedTuple):
    """The player put the piece just turned (``piece``, a FEN letter) on ``square``, ``target`` being taken."""

    square: str
    piece: str


class Stopped(NamedTuple):
    """Adding stopped for good: the player chose to, or (``by_itself``) the piece deck ran out."""

    by_itself: bool = False


class Moved(NamedTuple):
    """A card from ``deck`` paid for moving ``piece`` by ``uci``, as its neighbours of the kinds ``like`` (FEN
    letters) move; ``left`` is the cards left in the piece deck and the position deck."""

    uci: str
    piece: str
    like: tuple[str, ...]
    deck: str
    left: tuple[int, int]


class Restored(NamedTuple):
    """An undo (``undone``) or a redo: the position as it is now, whole."""

    undone: bool
    board: str
    pieces: int
    positions: int
    stage: str
    last: str
    pending: str
    candidates: tuple[str, ...]
    added: int
    moves: int


class Ended(NamedTuple):
    """The game is over: ``score`` is the cards left when the group formed (``None``: lost)."""

    outcome: Outcome
    score: int | None


# ---- the referee -------------------------------------------------------------------------------------------

class NeighbourChess(Game):
    """The referee: the :class:`State`, the deal number and the undo history."""

    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (NeighbourAdd, NeighbourPlace, NeighbourStop, NeighbourMove,
                                                   Undo, Redo)
    uses_chance: ClassVar[bool] = True

    def __init__(self, deal: int | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.deal = random_deal(self.rng) if deal is None else check_deal(deal)
        pieces, positions = deal_decks(self.deal)
        self.state = State.start(pieces, positions)
        self.history: UndoHistory[State] = UndoHistory()
        self._ply = 0
        self._tell(0, Dealt(self.deal))

    @classmethod
    def arranged(cls, board: str, pieces: Sequence[str], positions: Sequence[str], stage: str = "move",
                 last: str = "", deal: int = 1) -> NeighbourChess:
        """A game from a hand-made position (tests and examples): ``board`` as 64 characters (a1 first, ``.``
        empty, or ranks 8 to 1 as in a FEN), the decks as given (top first), the ``stage`` (``add`` or
        ``move``) and the square of the last piece added."""
        if "/" in board:
            placed = chess.Board(f"{board} w - - 0 1")
            found = [placed.piece_at(square) for square in range(64)]
            board = "".join(piece.symbol() if piece is not None else "." for piece in found)
        game = cls(deal=deal, seed=1)
        added = sum(letter != "." for letter in board)
        game.state = State(board, tuple(pieces), tuple(positions), stage=stage,
                           last=chess.parse_square(last) if last else None, added=added)
        game._logs = [[]]
        game._tell(0, Dealt(deal, len(pieces), len(positions), board, stage, last, added))
        return game

    # -- who acts ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.state.stage

    @property
    def ply(self) -> int:
        return self._ply

    def truth(self) -> State:
        return self.state  # frozen: later play never changes it

    def choices(self) -> dict[str, Any]:
        """What the player may do (the decks' order is in no choice: an add is one action whatever comes)."""
        if self.outcome is not None:
            return {}
        found: dict[str, Any] = {}
        for action in legal_actions(self.state):
            found.setdefault({"add": "adds", "stop": "stop", "place": "places", "move": "moves"}[action.kind],
                             []).append(action)
        if self.history.can_undo:
            found["undo"] = [Undo()]
        if self.history.can_redo:
            found["redo"] = [Redo()]
        return found

    # -- acting -----------------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        if isinstance(action, (Undo, Redo)):
            self._undo_or_redo(isinstance(action, Undo))
            return
        before = self.state
        try:
            after = apply(before, action)
        except StateError as error:
            raise IllegalAction(str(error)) from None
        self.state = after
        self._ply += 1
        self.history.done(before, after, reveals=isinstance(action, NeighbourAdd))
        self._tell_change(before, after, action)
        if after.over:
            self._end()

    def _undo_or_redo(self, undo: bool) -> None:
        if undo and not self.history.can_undo:
            raise IllegalAction("nothing to undo: a card once turned stays turned" if self.state.added
                                else "nothing to undo yet")
        if not undo and not self.history.can_redo:
            raise IllegalAction("nothing to redo")
        self.state = self.history.undo() if undo else self.history.redo()
        self._ply += 1
        s = self.state
        self._tell(0, Restored(undo, s.board, len(s.pieces), len(s.positions), s.stage, _square(s.last), s.pending,
                               tuple(square_names(s.candidates)), s.added, s.moves))
        if s.over:  # a redo of the winning (or losing) action
            self._end()

    def _tell_change(self, before: State, after: State, action: Action) -> None:
        if isinstance(action, NeighbourAdd):
            piece_card, position_card = before.pieces[0], before.positions[0]
            target = add_target(before.last, position_card)
            placed = after.stage != "place"
            self._tell(0, Added(piece_card, position_card, chess.square_name(add_start(before.last)),
                                chess.square_name(target), _square(after.last) if placed else "",
                                () if placed else tuple(square_names(after.candidates))))
        elif isinstance(action, NeighbourPlace):
            assert after.last is not None
            self._tell(0, Placed(chess.square_name(after.last), after.board[after.last]))
        elif isinstance(action, NeighbourStop):
            self._tell(0, Stopped(False))
        elif isinstance(action, NeighbourMove):
            move = chess.Move.from_uci(action.uci.strip().lower())
            like = move_targets(before.board, move.from_square)[move.to_square]
            letter = before.board[move.from_square]
            symbols = tuple(chess.Piece(kind, letter.isupper()).symbol() for kind in like)
            self._tell(0, Moved(move.uci(), letter, symbols, deck_paying(before, action.deck),
                                (len(after.pieces), len(after.positions))))
        if before.stage in ("add", "place") and after.stage in ("move", "lost", "won") \
                and not isinstance(action, NeighbourStop) and not after.stage == "won":
            self._tell(0, Stopped(True))

    def _end(self) -> None:
        s = self.state
        if s.stage == "won":
            score = s.cards_left
            moves = "with no move" if not s.moves else f"after {s.moves} move{'s' if s.moves != 1 else ''}"
            detail = (f"all {s.added} pieces form one group {moves}: {score} card{'s' if score != 1 else ''} "
                      f"left, {score} point{'s' if score != 1 else ''}")
            self._finish(Outcome(0, Reason.SCORE, detail, score=float(score)))
        else:
            reason = Reason.SCORE if not s.cards_left else Reason.NO_MOVES
            self._finish(Outcome(None, reason, s.ended))  # lost: no score (NE4's "score 0")

    def _game_over_observation(self, outcome: Outcome) -> Ended:
        return Ended(outcome, self.state.score if self.state.stage == "won" else None)

    # -- records ----------------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {"deal": self.deal}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> NeighbourChess:
        unknown = sorted(str(key) for key in options if key != "deal")
        if unknown:
            raise ValueError(f"Neighbour Chess has no option {', '.join(unknown)[:60]}")
        deal = options.get("deal")
        return cls(deal=None if deal is None else check_deal(deal))


# ---- the player's view ------------------------------------------------------------------------------------

@dataclass
class NeighbourView(View):
    """What the player knows, from their observations: the board, how many cards each deck holds, the cards
    turned so far (never the order of those not turned), the stage, the piece waiting for a square, and how far
    undo and redo reach."""

    seat: Seat | None = None
    deal: int = 0
    board: str = BOARD_EMPTY
    pieces_left: int = len(PIECE_CARDS)
    positions_left: int = len(POSITION_CARDS)
    stage: str = "add"
    last: int | None = None
    pending: str = ""
    candidates: tuple[int, ...] = ()
    added: int = 0
    moves: int = 0
    turned: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    undo_depth: int = 0
    redo_depth: int = 0
    history: list[Any] = dataclasses.field(default_factory=list)
    outcome: Outcome | None = None
    score: int | None = None

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else self.stage

    @property
    def to_move(self) -> Seat | None:
        return None if self.outcome is not None else 0

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    @property
    def cards_left(self) -> int:
        return self.pieces_left + self.positions_left

    def unseen(self) -> tuple[list[str], list[str]]:
        """The piece cards and the position cards not turned yet (in their fixed order: which is on top, nobody
        knows). Once adding has stopped, cards are spent unseen: these are then the cards that may be left."""
        piece_seen = {piece for piece, _ in self.turned}
        position_seen = {position for _, position in self.turned}
        return ([card for card in PIECE_CARDS if card not in piece_seen],
                [card for card in POSITION_CARDS if card not in position_seen])

    def apply(self, observation: Any) -> None:
        o = observation
        if isinstance(o, Dealt):
            self.seat, self.deal, self.board, self.stage = 0, o.deal, o.board, o.stage
            self.pieces_left, self.positions_left, self.added = o.pieces, o.positions, o.added
            self.last = chess.parse_square(o.last) if o.last else None
            return
        self.history.append(o)
        if isinstance(o, Added):
            self.turned.append((o.piece_card, o.position_card))
            self.pieces_left -= 1
            self.positions_left -= 1
            self.undo_depth = self.redo_depth = 0
            if o.square:
                self._put(chess.parse_square(o.square), o.piece_card)
            else:
                self.stage, self.pending = "place", o.piece_card
                self.candidates = tuple(chess.parse_square(name) for name in o.candidates)
        elif isinstance(o, Placed):
            self._put(chess.parse_square(o.square), self.pending)
            self._step()
        elif isinstance(o, Stopped):
            self.stage = "move"
            if not o.by_itself:
                self._step()
        elif isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            board = list(self.board)
            board[move.to_square], board[move.from_square] = board[move.from_square], "."
            self.board = "".join(board)
            self.pieces_left, self.positions_left = o.left
            self.moves += 1
            self._step()
        elif isinstance(o, Restored):
            self.board, self.pieces_left, self.positions_left, self.stage = o.board, o.pieces, o.positions, o.stage
            self.last = chess.parse_square(o.last) if o.last else None
            self.pending = o.pending
            self.candidates = tuple(chess.parse_square(name) for name in o.candidates)
            self.added, self.moves = o.added, o.moves
            if o.undone:
                self.undo_depth, self.redo_depth = self.undo_depth - 1, self.redo_depth + 1
            else:
                self.undo_depth, self.redo_depth = self.undo_depth + 1, self.redo_depth - 1
        elif isinstance(o, Ended):
            self.outcome, self.score = o.outcome, o.score

    def _put(self, square: int, card: str) -> None:
        piece = card_piece(card)
        assert piece is not None
        self.board = self.board[:square] + piece.symbol() + self.board[square + 1:]
        self.last, self.pending, self.candidates = square, "", ()
        self.added += 1
        self.stage = "add" if self.pieces_left else "move"

    def _step(self) -> None:
        """An action that turned no card: one more to undo, nothing left to redo."""
        self.undo_depth += 1
        self.redo_depth = 0

    @property
    def can_undo(self) -> bool:
        return self.undo_depth > 0 and self.outcome is None

    @property
    def can_redo(self) -> bool:
        return self.redo_depth > 0 and self.outcome is None

    def state(self) -> State:
        """The position as a :class:`State` whose decks hold the unseen cards in their fixed order (the true order
        is unknown: this is for what does not depend on it, such as the moves allowed and the search once adding
        has stopped)."""
        pieces, positions = self.unseen()
        if self.stage in ("move",) or self.outcome is not None:
            # once adding stops only the counts matter: pad or trim to the counts the player was told
            pieces = (pieces + list(PIECE_CARDS))[:self.pieces_left]
            positions = (positions + list(POSITION_CARDS))[:self.positions_left]
        stage = self.stage if self.outcome is None else ("won" if self.score is not None else "lost")
        return State(self.board, tuple(pieces), tuple(positions), stage=stage, last=self.last, pending=self.pending,
                     candidates=self.candidates, added=self.added, moves=self.moves, turned=tuple(self.turned))


NeighbourChess.view_type = NeighbourView
