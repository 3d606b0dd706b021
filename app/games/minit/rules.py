"""MinitChess: a 5x6 chess game won by capturing the king (rulings M1-M4).

The module has three layers:

- a compact move generator working on a plain list of 30 integers (square
  ``rank * 5 + file``, a1 = 0, e1 = 4, a6 = 25, e6 = 29; pieces are ``1..6`` for
  White's pawn, knight, bishop, rook, queen, king and the negatives for Black;
  ``0`` is an empty square). Moves are small integers (see :func:`encode_move`).
  Bots and :func:`perft` use this layer directly;
- :class:`MinitPosition` and :class:`Move`: an immutable position with the rule
  text's notation (ruling M4) and moves written ``a2-a3``;
- the referee :class:`MinitChess`, its action :class:`MinitMove`, its
  observations and :class:`MinitChessView`, a seat's view built from them.

>>> position = MinitPosition.start()
>>> str(position)
'1 W kqbnr ppppp ..... ..... PPPPP RNBQK'
>>> [str(move) for move in position.legal_moves()]
['b1-a3', 'b1-c3', 'a2-a3', 'b2-b3', 'c2-c3', 'd2-d3', 'e2-e3']
>>> perft(position, 3)
[7, 49, 473]
>>> game = MinitChess()
>>> game.play(0, MinitMove.parse("b1-c3"))
>>> game.to_move, str(game.position)
(1, '1 B kqbnr ppppp ..... ..N.. PPPPP R.BQK')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

from app.engine import codec
from app.engine.core import Action, Game, IllegalAction, Outcome, Reason, Seat, View
from app.games.minit import DEFINITION

# ---- board geometry and pieces -----------------------------------------------------------------

FILES = "abcde"
RANKS = "123456"
WIDTH = 5
HEIGHT = 6
SQUARES = WIDTH * HEIGHT
MOVE_LIMIT = 40
"""After this many moves by each side without a result, the game is drawn (ruling M3)."""

EMPTY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5, 6
WHITE = True
BLACK = False
WHITE_SEAT: Seat = 0
BLACK_SEAT: Seat = 1

SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
"""``SQUARE_NAMES[square]``: ``"a1"`` for 0, ``"e6"`` for 29."""

_LETTERS = ".PNBRQK"
_CODES: dict[str, int] = {letter: code for code, letter in enumerate(_LETTERS) if code}
_CODES.update({letter.lower(): -code for letter, code in list(_CODES.items())})
_CODES["."] = EMPTY

STARTING_POSITION = "1 W kqbnr ppppp ..... ..... PPPPP RNBQK"
"""The start (ruling M1) in the rule text's notation (ruling M4)."""


def square_name(square: int) -> str:
    """The algebraic name of ``square``.

    >>> square_name(0), square_name(29)
    ('a1', 'e6')
    """
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    """The square named ``text``; ``ValueError`` if there is no such square.

    >>> parse_square("c3")
    12
    """
    try:
        return SQUARE_NAMES.index(text)
    except ValueError:
        raise ValueError(f"not a square of the 5x6 board: {text!r} (files a-e, ranks 1-6)") from None


def piece_letter(code: int) -> str:
    """The letter of a piece code: upper case for White, lower case for Black, ``.`` for empty.

    >>> piece_letter(QUEEN), piece_letter(-KNIGHT), piece_letter(EMPTY)
    ('Q', 'n', '.')
    """
    return _LETTERS[code] if code >= 0 else _LETTERS[-code].lower()


def piece_code(letter: str) -> int:
    """The code of a piece letter (``KQBNRP`` White, ``kqbnrp`` Black, ``.`` empty).

    >>> piece_code("k"), piece_code("P")
    (-6, 1)
    """
    try:
        return _CODES[letter]
    except KeyError:
        raise ValueError(f"not a piece: {letter!r} (use KQBNRP, kqbnrp or '.')") from None


# ---- precomputed move tables --------------------------------------------------------------------
# Every target is stored with its ready move code (see encode_move) so that the generator only tests
# the target square and appends.

PROMOTION = 1 << 10
"""Flag bit of a move code: a pawn move onto the last rank (it becomes a queen)."""

_Steps = tuple[tuple[int, int], ...]
_Rays = tuple[_Steps, ...]


def encode_move(from_square: int, to_square: int, promotion: bool = False) -> int:
    """A move as one integer: ``from << 5 | to``, plus :data:`PROMOTION` for a promoting pawn move.

    >>> encode_move(5, 10), decode_move(encode_move(5, 10))
    (170, Move.parse('a2-a3'))
    """
    return from_square << 5 | to_square | (PROMOTION if promotion else 0)


def decode_move(code: int) -> "Move":
    """The :class:`Move` of a move code."""
    return Move(code >> 5 & 31, code & 31)


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < WIDTH and 0 <= rank < HEIGHT


def _leaps(square: int, deltas: Sequence[tuple[int, int]]) -> _Steps:
    file, rank = square % WIDTH, square // WIDTH
    return tuple((t, encode_move(square, t)) for t in
                 (f + r * WIDTH for f, r in ((file + df, rank + dr) for df, dr in deltas) if _on_board(f, r)))


def _rays(square: int, directions: Sequence[tuple[int, int]]) -> _Rays:
    file, rank = square % WIDTH, square // WIDTH
    rays = []
    for df, dr in directions:
        ray = []
        f, r = file + df, rank + dr
        while _on_board(f, r):
            ray.append((f + r * WIDTH, encode_move(square, f + r * WIDTH)))
            f, r = f + df, r + dr
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
_KNIGHT_DELTAS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

KNIGHT_STEPS: tuple[_Steps, ...] = tuple(_leaps(s, _KNIGHT_DELTAS) for s in range(SQUARES))
KING_STEPS: tuple[_Steps, ...] = tuple(_leaps(s, _ORTHOGONAL + _DIAGONAL) for s in range(SQUARES))
BISHOP_STEPS: tuple[_Steps, ...] = tuple(_leaps(s, _ORTHOGONAL) for s in range(SQUARES))
"""The bishop's extra orthogonal one-square steps (ruling M2: onto empty squares only)."""
BISHOP_RAYS: tuple[_Rays, ...] = tuple(_rays(s, _DIAGONAL) for s in range(SQUARES))
ROOK_RAYS: tuple[_Rays, ...] = tuple(_rays(s, _ORTHOGONAL) for s in range(SQUARES))
QUEEN_RAYS: tuple[_Rays, ...] = tuple(_rays(s, _ORTHOGONAL + _DIAGONAL) for s in range(SQUARES))


def _pawn_tables(forward: int) -> tuple[tuple[tuple[int, int] | None, ...], tuple[_Steps, ...]]:
    last = HEIGHT - 1 if forward > 0 else 0
    pushes: list[tuple[int, int] | None] = []
    captures: list[_Steps] = []
    for square in range(SQUARES):
        file, rank = square % WIDTH, square // WIDTH
        target_rank = rank + forward
        if not 0 <= target_rank < HEIGHT:
            pushes.append(None)
            captures.append(())
            continue
        promotes = target_rank == last
        t = file + target_rank * WIDTH
        pushes.append((t, encode_move(square, t, promotes)))
        captures.append(tuple((file + df + target_rank * WIDTH, encode_move(square, file + df + target_rank * WIDTH,
                                                                              promotes))
                              for df in (-1, 1) if 0 <= file + df < WIDTH))
    return tuple(pushes), tuple(captures)


_WHITE_PUSH, _WHITE_PAWN_CAPTURES = _pawn_tables(1)
_BLACK_PUSH, _BLACK_PAWN_CAPTURES = _pawn_tables(-1)


# ---- the generator -------------------------------------------------------------------------------

def gen_moves(board: Sequence[int], side: int) -> list[int]:
    """Every legal move (as move codes) of ``side`` (``1`` White, ``-1`` Black) on ``board``.

    There is no check rule in MinitChess, so every move the pieces can make is
    legal (ruling M3). The generator does not ask whether the game is over.

    >>> board = MinitPosition.parse("1 W k.... ..... ..... ..... ..p.. ...B.").board
    >>> sorted(str(decode_move(m)) for m in gen_moves(board, 1))
    ['d1-c1', 'd1-c2', 'd1-d2', 'd1-e1', 'd1-e2']
    """
    moves: list[int] = []
    add = moves.append
    if side > 0:
        pushes, pawn_captures = _WHITE_PUSH, _WHITE_PAWN_CAPTURES
    else:
        pushes, pawn_captures = _BLACK_PUSH, _BLACK_PAWN_CAPTURES
    for square in range(SQUARES):
        piece = board[square] * side
        if piece <= 0:
            continue
        if piece == PAWN:
            push = pushes[square]
            if push is not None and not board[push[0]]:
                add(push[1])
            for target, code in pawn_captures[square]:
                if board[target] * side < 0:
                    add(code)
        elif piece == KNIGHT:
            for target, code in KNIGHT_STEPS[square]:
                if board[target] * side <= 0:
                    add(code)
        elif piece == BISHOP:
            for ray in BISHOP_RAYS[square]:
                for target, code in ray:
                    other = board[target] * side
                    if other == 0:
                        add(code)
                    else:
                        if other < 0:
                            add(code)
                        break
            for target, code in BISHOP_STEPS[square]:
                if not board[target]:
                    add(code)
        elif piece == KING:
            for target, code in KING_STEPS[square]:
                if board[target] * side <= 0:
                    add(code)
        else:
            for ray in (ROOK_RAYS if piece == ROOK else QUEEN_RAYS)[square]:
                for target, code in ray:
                    other = board[target] * side
                    if other == 0:
                        add(code)
                    else:
                        if other < 0:
                            add(code)
                        break
    return moves


def gen_captures(board: Sequence[int], side: int) -> list[int]:
    """The capturing moves of ``side`` (a subset of :func:`gen_moves`, same order).

    >>> board = MinitPosition.start().board
    >>> gen_captures(board, 1)
    []
    """
    moves: list[int] = []
    add = moves.append
    pawn_captures = _WHITE_PAWN_CAPTURES if side > 0 else _BLACK_PAWN_CAPTURES
    for square in range(SQUARES):
        piece = board[square] * side
        if piece <= 0:
            continue
        if piece == PAWN:
            for target, code in pawn_captures[square]:
                if board[target] * side < 0:
                    add(code)
        elif piece == KNIGHT or piece == KING:
            for target, code in (KNIGHT_STEPS if piece == KNIGHT else KING_STEPS)[square]:
                if board[target] * side < 0:
                    add(code)
        else:
            rays = BISHOP_RAYS if piece == BISHOP else ROOK_RAYS if piece == ROOK else QUEEN_RAYS
            for ray in rays[square]:
                for target, code in ray:
                    other = board[target]
                    if other:
                        if other * side < 0:
                            add(code)
                        break
    return moves


# ---- moves and positions ------------------------------------------------------------------------

class Move(NamedTuple):
    """A move from one square to another, written ``a2-a3``.

    A pawn reaching the last rank always becomes a queen, so a move needs no
    promotion piece; :meth:`parse` accepts an optional ``=Q`` all the same.

    >>> Move.parse("a5-a6=Q")
    Move.parse('a5-a6')
    >>> str(Move(5, 10))
    'a2-a3'
    """

    from_square: int
    to_square: int

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``a2-a3`` (optionally ``a5-a6=Q``); ``ValueError`` names what is wrong."""
        if not isinstance(text, str):
            raise ValueError(f"not a move: {text!r}")
        body = text.strip()
        if body[-2:] in ("=Q", "=q"):
            body = body[:-2]
        elif "=" in body:
            raise ValueError(f"bad move {text!r}: pawns are always promoted to a queen (=Q)")
        parts = body.split("-")
        if len(parts) != 2:
            raise ValueError(f"bad move {text!r}: write moves as from-to, e.g. a2-a3")
        try:
            from_square, to_square = parse_square(parts[0]), parse_square(parts[1])
        except ValueError as error:
            raise ValueError(f"bad move {text!r}: {error}") from None
        if from_square == to_square:
            raise ValueError(f"bad move {text!r}: a move must change squares")
        return cls(from_square, to_square)

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.from_square]}-{SQUARE_NAMES[self.to_square]}"

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"


@dataclass(frozen=True)
class MinitPosition:
    """A MinitChess position: the board, the side to move and the number of the move to be played.

    ``board[square]`` holds a piece code (see the module docstring). Positions are
    immutable: :meth:`play` returns a new one. Text form (ruling M4): the move
    number, ``W`` or ``B``, then the ranks from 6 down to 1.

    >>> position = MinitPosition.parse("20 B k.K.. rpP.. pP... P.... ..... .....")
    >>> position.turn, position.move_number, position.piece_at(parse_square("c6"))
    (False, 20, 'K')
    >>> [str(move) for move in position.legal_moves()]
    ['a6-b6']
    """

    board: tuple[int, ...]
    turn: bool = WHITE
    move_number: int = 1

    def __post_init__(self) -> None:
        if len(self.board) != SQUARES or any(type(code) is not int or not -KING <= code <= KING
                                             for code in self.board):
            raise ValueError(f"a board is {SQUARES} piece codes between {-KING} and {KING}")
        if type(self.move_number) is not int or self.move_number < 1:
            raise ValueError(f"bad move number {self.move_number!r}: it must be a whole number from 1")
        for code, rank, name in ((PAWN, HEIGHT - 1, "a white"), (-PAWN, 0, "a black")):
            if code in self.board[rank * WIDTH:(rank + 1) * WIDTH]:
                raise ValueError(f"{name} pawn cannot stand on rank {rank + 1} (it would have become a queen)")
        kings = (self.board.count(KING), self.board.count(-KING))
        if kings[0] > 1 or kings[1] > 1:
            raise ValueError("each side may have at most one king")
        if kings == (0, 0):
            raise ValueError("there is no king on the board")

    # -- notation ---------------------------------------------------------------------------------
    @classmethod
    def start(cls) -> "MinitPosition":
        """The starting position (ruling M1)."""
        return cls.parse(STARTING_POSITION)

    @classmethod
    def parse(cls, text: str) -> "MinitPosition":
        """Read a position in the rule text's notation; ``ValueError`` names the problem.

        >>> MinitPosition.parse("1 W kqbnr ppppp ..... ..... PPPPP RNBQ")
        Traceback (most recent call last):
        ...
        ValueError: bad position: rank 1 'RNBQ' has 4 squares, not 5
        """
        if not isinstance(text, str):
            raise ValueError(f"bad position: expected text, got {type(text).__name__}")
        if len(text) > 200:
            raise ValueError("bad position: that is too long to be a MinitChess position")
        fields = text.split()
        if len(fields) != 2 + HEIGHT:
            raise ValueError(f"bad position: expected 8 fields (move number, side W or B, ranks 6 to 1), "
                             f"got {len(fields)} in {text!r}")
        number_text, side_text, *ranks = fields
        # ASCII digits only: str.isdigit() also accepts characters such as '²' that int() refuses.
        if not (number_text.isascii() and number_text.isdigit() and len(number_text) <= 6) \
                or int(number_text) < 1:
            raise ValueError(f"bad position: the move number must be a whole number from 1, not "
                             f"{number_text[:20]!r}")
        if side_text not in ("W", "B"):
            raise ValueError(f"bad position: the side to move must be W or B, not {side_text[:20]!r}")
        board = [EMPTY] * SQUARES
        for index, rank_text in enumerate(ranks):
            rank = HEIGHT - 1 - index
            if len(rank_text) != WIDTH:
                raise ValueError(f"bad position: rank {rank + 1} {rank_text[:20]!r} has {len(rank_text)} squares, "
                                 f"not {WIDTH}")
            for file, letter in enumerate(rank_text):
                if letter not in _CODES:
                    raise ValueError(f"bad position: {letter!r} on {FILES[file]}{rank + 1} is not a piece "
                                     f"(use KQBNRP, kqbnrp or '.')")
                board[rank * WIDTH + file] = _CODES[letter]
        try:
            return cls(tuple(board), side_text == "W", int(number_text))
        except ValueError as error:
            raise ValueError(f"bad position: {error}") from None

    def text(self) -> str:
        """The position in the rule text's notation (what :meth:`parse` reads)."""
        ranks = ("".join(piece_letter(code) for code in self.board[rank * WIDTH:(rank + 1) * WIDTH])
                 for rank in range(HEIGHT - 1, -1, -1))
        return f"{self.move_number} {'W' if self.turn else 'B'} {' '.join(ranks)}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"MinitPosition.parse({self.text()!r})"

    # -- queries -----------------------------------------------------------------------------------
    @property
    def side(self) -> int:
        """``1`` when White is to move, ``-1`` for Black (the generator's sign)."""
        return 1 if self.turn else -1

    def piece_at(self, square: int) -> str | None:
        """The letter of the piece on ``square``, or ``None`` when it is empty."""
        code = self.board[square]
        return piece_letter(code) if code else None

    def king_square(self, color: bool) -> int | None:
        """Where ``color``'s king stands, or ``None`` once it has been captured."""
        code = KING if color else -KING
        return self.board.index(code) if code in self.board else None

    def legal_moves(self) -> list[Move]:
        """The side to move's legal moves (every move its pieces can make; ruling M3), sorted by squares."""
        return sorted(Move(code >> 5 & 31, code & 31) for code in gen_moves(self.board, self.side))

    def parse_move(self, text: str) -> Move:
        """Read ``text`` as a legal move here; ``ValueError`` if it is malformed or illegal.

        ``=Q`` is only accepted on a promoting pawn move.

        >>> MinitPosition.start().parse_move("b2-b4")
        Traceback (most recent call last):
        ...
        ValueError: b2-b4 is not a legal move for White in 1 W kqbnr ppppp ..... ..... PPPPP RNBQK
        """
        move = Move.parse(text)
        if move not in self.legal_moves():
            raise ValueError(f"{move} is not a legal move for {'White' if self.turn else 'Black'} in {self}")
        if "=" in text and not self.is_promotion(move):
            raise ValueError(f"{text!r}: only a pawn reaching the last rank is promoted")
        return move

    def is_promotion(self, move: Move) -> bool:
        """Whether ``move`` takes a pawn to its last rank (where it becomes a queen)."""
        piece = self.board[move.from_square]
        rank = move.to_square // WIDTH
        return (piece == PAWN and rank == HEIGHT - 1) or (piece == -PAWN and rank == 0)

    def play(self, move: Move) -> "MinitPosition":
        """The position after ``move``; ``ValueError`` if the move is not legal here.

        >>> MinitPosition.parse("5 B k.... ..... ..... ..... ..p.. K....").play(Move.parse("c2-c1"))
        MinitPosition.parse('6 W k.... ..... ..... ..... ..... K.q..')
        """
        if move not in self.legal_moves():
            raise ValueError(f"{move} is not a legal move for {'White' if self.turn else 'Black'} in {self}")
        board = list(self.board)
        piece = board[move.from_square]
        board[move.from_square] = EMPTY
        board[move.to_square] = QUEEN * self.side if self.is_promotion(move) else piece
        return MinitPosition(tuple(board), not self.turn, self.move_number + (0 if self.turn else 1))

    def outcome(self) -> Outcome | None:
        """The result if the game is over in this position, else ``None`` (ruling M3).

        A missing king means the other side captured it; past move 40 the game is
        drawn; a side to move without a legal move loses.

        >>> MinitPosition.parse("20 W KBk.. PRP.. .P... ..... ..... .....").outcome()
        Outcome(winner=1, reason=<Reason.NO_MOVES: 'no_moves'>, detail='White has no legal move', scores=None)
        """
        if KING not in self.board:
            return Outcome(BLACK_SEAT, Reason.KING_CAPTURE, "Black captured the white king")
        if -KING not in self.board:
            return Outcome(WHITE_SEAT, Reason.KING_CAPTURE, "White captured the black king")
        if self.move_number > MOVE_LIMIT:
            return Outcome(None, Reason.MOVE_LIMIT, f"{MOVE_LIMIT} moves by each side without a result")
        if not gen_moves(self.board, self.side):
            name, seat = ("White", BLACK_SEAT) if self.turn else ("Black", WHITE_SEAT)
            return Outcome(seat, Reason.NO_MOVES, f"{name} has no legal move")
        return None


def require_both_kings(position: MinitPosition) -> None:
    """``ValueError`` unless each side has its king: a game cannot start (nor perft count) without both."""
    if position.king_square(WHITE) is None or position.king_square(BLACK) is None:
        raise ValueError("bad starting position: each side needs a king")


# ---- perft -----------------------------------------------------------------------------------------

MAX_PERFT_DEPTH = 20
"""Deeper counts would run for ages anyway; the cap keeps a typo from exhausting memory or the call stack."""


def perft(position: MinitPosition | str, depth: int) -> list[int]:
    """The number of move sequences of each length 1..``depth`` from ``position``.

    A position where the game is over (a king was just captured, the side to
    move has no move, the 40-move limit was reached) is not expanded further.

    >>> perft(MinitPosition.start(), 4)
    [7, 49, 473, 4627]
    >>> perft("1 W k.... ..... ..... ..... ..... Q...K", 2)  # 15 moves, one takes the king: 14 x 3 replies
    [15, 42]
    """
    if isinstance(position, str):
        position = MinitPosition.parse(position)
    require_both_kings(position)
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    if depth > MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})")
    counts = [0] * depth
    if depth and position.outcome() is None:
        _perft(list(position.board), position.side, position.move_number, 0, depth, counts)
    return counts


def _perft(board: list[int], side: int, number: int, ply: int, depth: int, counts: list[int]) -> None:
    moves = gen_moves(board, side)
    counts[ply] += len(moves)
    if ply + 1 == depth:
        return
    enemy_king = -KING * side
    next_number = number if side > 0 else number + 1
    if next_number > MOVE_LIMIT:
        return
    for code in moves:
        from_square, to_square = code >> 5 & 31, code & 31
        captured = board[to_square]
        if captured == enemy_king:
            continue
        piece = board[from_square]
        board[to_square] = QUEEN * side if code & PROMOTION else piece
        board[from_square] = EMPTY
        _perft(board, -side, next_number, ply + 1, depth, counts)
        board[from_square] = piece
        board[to_square] = captured


# ---- the action --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MinitMove(Action):
    """Play ``move``.

    >>> MinitMove.parse("a2-a3").to_json()
    {'type': 'move', 'move': 'a2-a3'}
    """

    move: Move = field(metadata=codec.spec(text=codec.Text(str, Move.parse, "a move such as 'a2-a3'")))
    kind: ClassVar[str] = "move"

    @classmethod
    def parse(cls, text: str) -> "MinitMove":
        return cls(Move.parse(text))


# ---- observations ---------------------------------------------------------------------------------------

class GameStarted(NamedTuple):
    """Told to each seat at the start: its colour (``True`` White) and the starting position's text."""

    color: bool
    position: str


class MovePlayed(NamedTuple):
    """Told to both seats after each move: the ply (from 0), the move, the captured piece's letter or ``None``."""

    ply: int
    move: Move
    captured: str | None


class GameEnded(NamedTuple):
    """Told to both seats when the game ends."""

    outcome: Outcome


Observation = GameStarted | MovePlayed | GameEnded


# ---- the referee --------------------------------------------------------------------------------------------

class MinitChess(Game):
    """The referee of one game of MinitChess. Both seats see everything.

    ``position`` (text, ruling M4) sets another starting position; each side
    needs a king. A start in which the game is already decided (the side to
    move has no move, or the move limit is passed) ends the game at once.

    >>> game = MinitChess("20 W KBk.. PRP.. .P... ..... ..... .....")
    >>> game.outcome.winner, game.outcome.reason.value
    (1, 'no_moves')
    """

    # The game's key, seats, teams and whether it hides information are said once, in its definition.
    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    actions: ClassVar[tuple[type[Action], ...]] = (MinitMove,)

    def __init__(self, position: str | None = None) -> None:
        super().__init__()
        start = MinitPosition.start() if position is None else MinitPosition.parse(position)
        require_both_kings(start)
        self.starting_position: MinitPosition = start
        self.position: MinitPosition = start
        self.moves: list[Move] = []
        self._moves_cache: list[Move] | None = None
        for seat in (WHITE_SEAT, BLACK_SEAT):
            self._logs[seat].append(GameStarted(seat == WHITE_SEAT, start.text()))
        outcome = start.outcome()
        if outcome is not None:
            self._finish(outcome)

    # -- state --------------------------------------------------------------------------------
    def truth(self) -> MinitPosition:
        """The true position (immutable, so it is its own copy)."""
        return self.position

    @property
    def to_move(self) -> Seat | None:
        if self.outcome is not None:
            return None
        return WHITE_SEAT if self.position.turn else BLACK_SEAT

    @property
    def phase(self) -> str:
        return "over" if self.outcome is not None else "move"

    @property
    def ply(self) -> int:
        """Moves played in this game so far."""
        return len(self.moves)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move (empty once the game is over)."""
        if self.outcome is not None:
            return []
        if self._moves_cache is None:
            self._moves_cache = self.position.legal_moves()
        return list(self._moves_cache)

    def choices(self) -> dict[str, Any]:
        if self.outcome is not None:
            return {}
        return {"moves": self.legal_moves()}

    # -- acting ---------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> None:
        if type(action) is not MinitMove:
            raise IllegalAction(f"{self.seat_names[seat]} must move, not {action.kind}")
        move = action.move
        if not isinstance(move, Move):
            raise IllegalAction(f"not a move: {move!r}")
        if move not in self.legal_moves():
            raise IllegalAction(f"{move} is not a legal move for {self.seat_names[seat]}")
        captured = self.position.piece_at(move.to_square)
        self.position = self.position.play(move)
        self._moves_cache = None
        self._tell_all(MovePlayed(len(self.moves), move, captured))
        self.moves.append(move)
        outcome = self.position.outcome()
        if outcome is not None:
            self._finish(outcome)

    def _game_over_observation(self, outcome: Outcome) -> GameEnded:
        return GameEnded(outcome)

    # -- records --------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        text = self.starting_position.text()
        return {} if text == STARTING_POSITION else {"position": text}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "MinitChess":
        unknown = set(options) - {"position"}
        if unknown:
            raise ValueError(f"unknown MinitChess option(s): {', '.join(sorted(unknown))}")
        position = options.get("position")
        if position is not None and not isinstance(position, str):
            raise ValueError("the MinitChess option 'position' must be a string")
        return cls(position)


# ---- a seat's view ------------------------------------------------------------------------------------------

@dataclass
class MinitChessView(View):
    """What one seat knows, built only from its observations: everything, as MinitChess hides nothing.

    >>> game = MinitChess()
    >>> game.play(0, MinitMove.parse("e2-e3"))
    >>> view = MinitChessView.from_observations(game.observations(1))
    >>> view.color, view.my_turn, view.position == game.position
    (False, True, True)
    """

    color: bool = WHITE
    starting_position: MinitPosition = field(default_factory=MinitPosition.start)
    position: MinitPosition = field(default_factory=MinitPosition.start)
    moves: list[MovePlayed] = field(default_factory=list)
    outcome: Outcome | None = None

    def apply(self, observation: Any) -> None:
        """Update the view with one observation of this seat."""
        if isinstance(observation, GameStarted):
            self.color = observation.color
            self.starting_position = self.position = MinitPosition.parse(observation.position)
            self.moves = []
            self.outcome = None
        elif isinstance(observation, MovePlayed):
            self.position = self.position.play(observation.move)
            self.moves.append(observation)
        elif isinstance(observation, GameEnded):
            self.outcome = observation.outcome

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def my_turn(self) -> bool:
        return self.outcome is None and self.position.turn == self.color

    def legal_moves(self) -> list[Move]:
        """The moves of the side to move (the referee's list), or none once the game is over."""
        return [] if self.outcome is not None else self.position.legal_moves()


MinitChess.view_type = MinitChessView
