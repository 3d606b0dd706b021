"""Cloak and Dagger's referee: the true position and both secret arrangements, the order of a turn, and what
each seat is told.

Each side secretly arranges K, Q, R, R, B, B, N, N on its back rank under the Chess960 limits; the piece on
file n (a = 1 ... h = 8) is *checker n*, so an arrangement is an assignment of identities to checkers 1-8.
Pawns are ordinary and always visible. Every move is seen by both sides; only the identities of cloaked
checkers are hidden, and a cloaked checker moves as its true piece. Check is judged from visible pieces only
(uncloaked pieces and pawns give check; cloaked checkers still block lines); a cloaked king ignores check;
capturing any king wins at once; a draw may be offered once a turn (phase "answer_draw": the other seat
accepts or declines, then the offerer goes on). A turn is: [guess] -> regular move -> [own bonus after a right guess] ->
[uncloak] and, after a wrong guess, the opponent's bonus move comes right after that turn.

The game's code, by job: :mod:`~app.games.cloak.checkers` (seats, checkers, arrangements),
:mod:`~app.games.cloak.moves` (move generation, with check our own way), :mod:`~app.games.cloak.view` (what a
seat is told, and its view), :mod:`~app.games.cloak.endings` (check, no moves, too little material), and here
the actions and the referee. Actions and observations stay in the two modules the game's definition names (the
referee's and the view's): the app reads a bot's answer, and finds an observation's game, only there.

The true position is a python-chess ``Board(chess960=True)``; the rules of check are a layer of our own on
top of python-chess's pseudo-legal moves (:func:`~app.games.cloak.moves.legal_moves_on`). A seat's
:class:`~app.games.cloak.view.CloakView` keeps a python-chess board of its own, in which enemy checkers it
cannot see stand as placeholder pieces: it works out the same moves as the referee from what the seat knows,
which the tests check on many random games.

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

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

import chess

from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.cloak.checkers import (BLACK, CHECKERS, LETTERS, PIECE_TYPES, SEAT_NAMES, WHITE, arrangement_problem,
                                      checker_square, chess_colour)
from app.games.cloak.deduction import Tracker
from app.games.cloak.endings import in_visible_check, no_moves_outcome, publicly_insufficient
from app.games.cloak.moves import Knowledge, bonus_moves, legal_moves_on, with_turn
from app.games.cloak.view import (Arranged, BonusLost, Checked, CloakView, DrawDeclined, DrawOffered, Dropped, Ended,
                                  Guessed, Moved, Seated, Uncloaked, guesses_against, public_knowledge)
from app.games.cloak import DEFINITION


# ---- the actions ---------------------------------------------------------------------------------------------
# Here, in the referee's module: the app reads a bot process's answer only as a class of the modules the game's
# definition names (its referee's and its view's), so an action class anywhere else would be refused.

@dataclass(frozen=True)
class Arrange(Action):
    """The secret setup: eight letters for files a to h (checkers 1 to 8), e.g. ``"RNBQKBNR"``."""

    pieces: str
    kind: ClassVar[str] = "arrange"


@dataclass(frozen=True)
class Guess(Action):
    """At the start of a turn: enemy checker ``checker`` (still cloaked, identity not yet told) is ``piece``."""

    checker: int
    piece: str
    kind: ClassVar[str] = "guess"


@dataclass(frozen=True)
class Move(Action):
    """The regular move, in python-chess's Chess960 UCI (castling: the king onto its own rook's square).

    >>> Move("e1h1").to_json()
    {'type': 'move', 'uci': 'e1h1'}
    """

    uci: str
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Bonus(Action):
    """A bonus move: a pawn move (``"e2e4"``, ``"d7c8q"``), a drop of a captured pawn (``"P@c2"``), or
    ``None`` to decline it."""

    uci: str | None
    kind: ClassVar[str] = "bonus"


@dataclass(frozen=True)
class Uncloak(Action):
    """Ends the turn: uncloak these own checkers (maybe none)."""

    checkers: tuple[int, ...] = ()
    kind: ClassVar[str] = "uncloak"


@dataclass(frozen=True)
class OfferDraw(Action):
    """Offer a draw: the seat to move, once a turn, in its "move" phase (as in Blind Chess)."""

    kind: ClassVar[str] = "offer_draw"


@dataclass(frozen=True)
class AnswerDraw(Action):
    """Accept or decline the opponent's draw offer (phase "answer_draw")."""

    accept: bool
    kind: ClassVar[str] = "answer_draw"


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

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (Arrange, Guess, Move, Bonus, Uncloak, OfferDraw,
                                                   AnswerDraw)
    view_type: ClassVar[type[View]] = CloakView

    def __init__(self, deduction: bool = True) -> None:
        super().__init__()
        self.deduction = deduction
        """The option for the deduction grids; the rules never read it."""
        self.arrangements: list[str | None] = [None, None]
        self.board = chess.Board(None, chess960=True)
        self.public = CloakView()
        """What both sides know, fed with every observation told to both: it runs the order of the turns."""
        self._check_judged_at = 0  # the public ply whose turn's check was judged (see _judge_check)
        self._trackers: tuple[Tracker, Tracker] | None = None  # the public deduction per side, for CD6b (made when needed)
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
        board = with_turn(self.board, seat)
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
        if in_visible_check(self.board, seat, self.knowledge(seat)):
            self._tell_both(Checked(seat))

    def _public_trackers(self) -> tuple[Tracker, Tracker]:
        if self._trackers is None:
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
                self._finish(no_moves_outcome(self.board, seat, self.knowledge(seat)))
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
