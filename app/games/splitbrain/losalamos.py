"""Los Alamos chess (6x6) move generation: positions, legal moves, check, mate, stalemate and perft.

The board has six files (a-f) and six ranks. There are no bishops, no castling, no pawn double step and
no en passant; a pawn reaching the last rank becomes a queen, rook or knight. Check, checkmate and
stalemate work as in chess. Moves are written like UCI: ``b2b3``, ``a5a6q``.

>>> start = LosAlamosPosition.start()
>>> start.fen()
'rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1'
>>> len(start.legal_moves())
10
>>> perft(start, 2)
100
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 6
START_FEN = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
FILES = "abcdef"
PIECE_LETTERS = "PNRQKpnrqk"
PROMOTIONS = ("q", "r", "n")

KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _neighbours(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For each square (index ``rank * 6 + file``), the squares one step away inside the board."""
    table = []
    for sq in range(SIZE * SIZE):
        r, f = divmod(sq, SIZE)
        table.append(tuple((r + dr) * SIZE + f + df for df, dr in steps
                           if 0 <= r + dr < SIZE and 0 <= f + df < SIZE))
    return tuple(table)


def _rays(dirs: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the lines of squares a slider walks along, nearest first."""
    table = []
    for sq in range(SIZE * SIZE):
        r, f = divmod(sq, SIZE)
        lines = []
        for df, dr in dirs:
            line = []
            rr, ff = r + dr, f + df
            while 0 <= rr < SIZE and 0 <= ff < SIZE:
                line.append(rr * SIZE + ff)
                rr, ff = rr + dr, ff + df
            if line:
                lines.append(tuple(line))
        table.append(tuple(lines))
    return tuple(table)


KNIGHT = _neighbours(KNIGHT_STEPS)
KING = _neighbours(KING_STEPS)
ROOK_RAYS = _rays(ROOK_DIRS)
DIAG_RAYS = _rays(DIAG_DIRS)


def square_name(sq: int) -> str:
    """``0`` is a1, ``35`` is f6.

    >>> square_name(0), square_name(35)
    ('a1', 'f6')
    """
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> int:
    """The inverse of :func:`square_name`.

    >>> parse_square("f6")
    35
    """
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456":
        raise ValueError(f"not a square of the 6x6 board: {text!r}")
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


@dataclass(frozen=True)
class Move:
    """A move from one square to another, with the piece letter a pawn becomes (lower case) if it promotes.

    >>> Move.parse("a5a6q").uci()
    'a5a6q'
    """

    from_sq: int
    to_sq: int
    promotion: str | None = None

    def uci(self) -> str:
        """The move as text, ``b2b3`` or ``a5a6q``."""
        return square_name(self.from_sq) + square_name(self.to_sq) + (self.promotion or "")

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``b2b3`` / ``a5a6q``; raises ValueError on anything else."""
        if len(text) not in (4, 5):
            raise ValueError(f"a move is four or five characters: {text!r}")
        promotion = text[4] if len(text) == 5 else None
        if promotion is not None and promotion not in PROMOTIONS:
            raise ValueError(f"a pawn promotes to q, r or n, not {promotion!r}")
        return Move(parse_square(text[:2]), parse_square(text[2:4]), promotion)

    def __str__(self) -> str:
        return self.uci()


def _is_white(piece: str) -> bool:
    return piece.isupper()


@dataclass(frozen=True)
class LosAlamosPosition:
    """A Los Alamos position: 36 squares (``"."`` for empty, a1 first), side to move and the move counters.

    >>> LosAlamosPosition.from_fen("k5/6/6/6/6/5K w - - 3 10").fen()
    'k5/6/6/6/6/5K w - - 3 10'
    """

    board: tuple[str, ...]
    white_to_move: bool = True
    halfmove_clock: int = 0
    fullmove_number: int = 1

    @staticmethod
    def start() -> LosAlamosPosition:
        """The starting position."""
        return LosAlamosPosition.from_fen(START_FEN)

    @staticmethod
    def from_fen(fen: str) -> LosAlamosPosition:
        """Read a FEN of six ranks of six squares; castling and en passant fields must be ``-``.

        >>> LosAlamosPosition.from_fen("rnqknr/pppppp/6/6/PPPPPP w - - 0 1")
        Traceback (most recent call last):
        ...
        ValueError: FEN has 5 ranks, a Los Alamos board has 6
        """
        fields = fen.split()
        if not fields:
            raise ValueError("empty FEN")
        if len(fields) > 6:
            raise ValueError(f"FEN has {len(fields)} fields, at most 6 expected")
        ranks = fields[0].split("/")
        if len(ranks) != SIZE:
            raise ValueError(f"FEN has {len(ranks)} ranks, a Los Alamos board has {SIZE}")
        board = ["."] * (SIZE * SIZE)
        for i, rank_text in enumerate(ranks):
            rank = SIZE - 1 - i
            file = 0
            for ch in rank_text:
                if ch.isdigit():
                    file += int(ch)
                elif ch in PIECE_LETTERS:
                    if file < SIZE:
                        board[rank * SIZE + file] = ch
                    file += 1
                else:
                    raise ValueError(f"unknown piece letter {ch!r} in rank {rank + 1} "
                                     f"(Los Alamos has only {PIECE_LETTERS})")
            if file != SIZE:
                raise ValueError(f"rank {rank + 1} ({rank_text!r}) is {file} squares wide, not {SIZE}")
        for king, colour in (("K", "white"), ("k", "black")):
            count = board.count(king)
            if count != 1:
                raise ValueError(f"the {colour} king appears {count} times, exactly one expected")
        side = fields[1] if len(fields) > 1 else "w"
        if side not in ("w", "b"):
            raise ValueError(f"side to move must be 'w' or 'b', not {side!r}")
        for name, value in (("castling", fields[2:3]), ("en passant", fields[3:4])):
            if value and value[0] != "-":
                raise ValueError(f"Los Alamos has no {name}; the field must be '-', not {value[0]!r}")
        try:
            halfmove = int(fields[4]) if len(fields) > 4 else 0
            fullmove = int(fields[5]) if len(fields) > 5 else 1
        except ValueError:
            raise ValueError(f"move counters must be whole numbers: {' '.join(fields[4:])!r}") from None
        if halfmove < 0 or fullmove < 1:
            raise ValueError("move counters out of range (halfmove >= 0, fullmove >= 1)")
        position = LosAlamosPosition(tuple(board), side == "w", halfmove, fullmove)
        # a king that could be taken right now would let move generation capture it
        waiting_king = position.board.index("k" if position.white_to_move else "K")
        if position.attacked(waiting_king, position.white_to_move):
            raise ValueError("the side not to move is in check, which cannot happen in a game")
        return position

    def fen(self) -> str:
        """The position as FEN."""
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row, empty = "", 0
            for file in range(SIZE):
                piece = self.board[rank * SIZE + file]
                if piece == ".":
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
            rows.append(row + (str(empty) if empty else ""))
        side = "w" if self.white_to_move else "b"
        return f"{'/'.join(rows)} {side} - - {self.halfmove_clock} {self.fullmove_number}"

    def attacked(self, sq: int, by_white: bool) -> bool:
        """Whether a piece of the given colour attacks ``sq``.

        >>> LosAlamosPosition.start().attacked(parse_square("c3"), by_white=True)
        True
        """
        board = self.board
        knight, king, rook, queen, pawn = ("N", "K", "R", "Q", "P") if by_white else ("n", "k", "r", "q", "p")
        for s in KNIGHT[sq]:
            if board[s] == knight:
                return True
        for s in KING[sq]:
            if board[s] == king:
                return True
        for line in ROOK_RAYS[sq]:
            for s in line:
                p = board[s]
                if p != ".":
                    if p == rook or p == queen:
                        return True
                    break
        for line in DIAG_RAYS[sq]:
            for s in line:
                p = board[s]
                if p != ".":
                    if p == queen:
                        return True
                    break
        r, f = divmod(sq, SIZE)
        pr = r - 1 if by_white else r + 1  # the rank an attacking pawn stands on
        if 0 <= pr < SIZE:
            for pf in (f - 1, f + 1):
                if 0 <= pf < SIZE and board[pr * SIZE + pf] == pawn:
                    return True
        return False

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        king = self.board.index("K" if self.white_to_move else "k")
        return self.attacked(king, not self.white_to_move)

    def pseudo_legal_moves(self) -> list[Move]:
        """Moves by the rules of movement, ignoring whether they leave the mover's own king attacked."""
        board, white = self.board, self.white_to_move
        moves: list[Move] = []

        def own(p: str) -> bool:
            return p != "." and _is_white(p) == white

        for sq, piece in enumerate(board):
            if piece == "." or _is_white(piece) != white:
                continue
            kind = piece.upper()
            if kind == "P":
                r, f = divmod(sq, SIZE)
                nr = r + 1 if white else r - 1
                if not 0 <= nr < SIZE:
                    continue
                last = nr == (SIZE - 1 if white else 0)
                targets = []
                if board[nr * SIZE + f] == ".":
                    targets.append(nr * SIZE + f)
                for nf in (f - 1, f + 1):
                    if 0 <= nf < SIZE:
                        t = board[nr * SIZE + nf]
                        if t != "." and not own(t):
                            targets.append(nr * SIZE + nf)
                for to in targets:
                    if last:
                        moves.extend(Move(sq, to, promo) for promo in PROMOTIONS)
                    else:
                        moves.append(Move(sq, to))
            elif kind == "N" or kind == "K":
                for to in (KNIGHT if kind == "N" else KING)[sq]:
                    if not own(board[to]):
                        moves.append(Move(sq, to))
            else:
                lines = ROOK_RAYS[sq] + DIAG_RAYS[sq] if kind == "Q" else ROOK_RAYS[sq]
                for line in lines:
                    for to in line:
                        t = board[to]
                        if t == ".":
                            moves.append(Move(sq, to))
                            continue
                        if not own(t):
                            moves.append(Move(sq, to))
                        break
        return moves

    def push(self, move: Move) -> LosAlamosPosition:
        """The position after ``move`` (not checked for legality; see :meth:`push_uci`)."""
        board = list(self.board)
        piece = board[move.from_sq]
        captured = board[move.to_sq]
        board[move.from_sq] = "."
        if move.promotion:
            piece = move.promotion.upper() if self.white_to_move else move.promotion
        board[move.to_sq] = piece
        reset = piece.upper() == "P" or move.promotion is not None or captured != "."
        return LosAlamosPosition(
            tuple(board), not self.white_to_move,
            0 if reset else self.halfmove_clock + 1,
            self.fullmove_number + (0 if self.white_to_move else 1))

    def push_uci(self, text: str) -> LosAlamosPosition:
        """Play a legal move given as text; raises ValueError if it is not legal here.

        >>> LosAlamosPosition.start().push_uci("b2b3").fen()
        'rnqknr/pppppp/6/1P4/P1PPPP/RNQKNR b - - 0 1'
        """
        move = Move.parse(text)
        if move not in self.legal_moves():
            raise ValueError(f"{text} is not a legal move in {self.fen()}")
        return self.push(move)

    def legal_moves(self) -> list[Move]:
        """Moves that do not leave the mover's own king attacked."""
        legal = []
        white = self.white_to_move
        king_letter = "K" if white else "k"
        for move in self.pseudo_legal_moves():
            after = self.push(move)
            if not after.attacked(after.board.index(king_letter), not white):
                legal.append(move)
        return legal

    def san(self, move: Move) -> str:
        """``move`` (legal here) in standard algebraic notation: the piece letter (none for a pawn), the file
        or rank needed to tell it from a like piece's move to the same square, ``x`` for a capture, ``=Q`` for a
        promotion, ``+`` for check and ``#`` for mate.

        >>> start = LosAlamosPosition.start()
        >>> start.san(Move.parse("b1c3")), start.san(Move.parse("b2b3"))
        ('Nc3', 'b3')
        >>> LosAlamosPosition.from_fen("k5/2K3/1Q4/6/6/6 w - - 0 1").san(Move.parse("b4b5"))
        'Qb5#'
        """
        piece = self.board[move.from_sq].upper()
        capture = self.board[move.to_sq] != "."
        if piece == "P":
            text = (square_name(move.from_sq)[0] + "x" if capture else "") + square_name(move.to_sq)
            if move.promotion:
                text += "=" + move.promotion.upper()
        else:
            rivals = [other.from_sq for other in self.legal_moves() if other.to_sq == move.to_sq
                      and other.from_sq != move.from_sq and self.board[other.from_sq].upper() == piece]
            origin = square_name(move.from_sq)
            if not rivals:
                which = ""
            elif all(rival % SIZE != move.from_sq % SIZE for rival in rivals):
                which = origin[0]
            elif all(rival // SIZE != move.from_sq // SIZE for rival in rivals):
                which = origin[1:]
            else:
                which = origin
            text = piece + which + ("x" if capture else "") + square_name(move.to_sq)
        after = self.push(move)
        if after.in_check():
            text += "#" if not after.legal_moves() else "+"
        return text

    def is_checkmate(self) -> bool:
        """In check with no legal move.

        >>> LosAlamosPosition.from_fen("k5/2K3/1Q4/6/6/6 w - - 0 1").push_uci("b4b5").is_checkmate()
        True
        """
        return self.in_check() and not self.legal_moves()

    def is_stalemate(self) -> bool:
        """Not in check and no legal move.

        >>> LosAlamosPosition.from_fen("k5/6/1QK3/6/6/6 b - - 0 1").is_stalemate()
        True
        """
        return not self.in_check() and not self.legal_moves()


def perft(position: LosAlamosPosition, depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies from ``position``.

    >>> [perft(LosAlamosPosition.start(), d) for d in range(3)]
    [1, 10, 100]
    """
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.push(m), depth - 1) for m in moves)


def perft_divide(position: LosAlamosPosition, depth: int) -> dict[str, int]:
    """Perft per first move (``depth >= 1``), keyed by the move's text, to find where two generators differ.

    >>> perft_divide(LosAlamosPosition.start(), 1)["b2b3"]
    1
    """
    return {m.uci(): perft(position.push(m), depth - 1) for m in position.legal_moves()}


def perft_counts(depth: int, position: str | None) -> list[int]:
    """Counts of move sequences of length 1..``depth`` from the FEN ``position`` (the start for None), as
    ``sightline perft --variant losalamos`` prints them; ``ValueError`` saying what is wrong with a FEN.

    >>> perft_counts(3, None)
    [10, 100, 1212]
    >>> perft_counts(1, "rnqknr/pppppp/6/6/PPPPPP w - - 0 1")
    Traceback (most recent call last):
    ...
    ValueError: bad position: FEN has 5 ranks, a Los Alamos board has 6
    """
    if len(position or "") > 200:
        raise ValueError("bad position: that is too long to be a FEN")
    try:
        start = LosAlamosPosition.from_fen(position) if position else LosAlamosPosition.start()
    except ValueError as error:
        raise ValueError(f"bad position: {error}") from None
    counts = [0] * depth

    def count(node: LosAlamosPosition, ply: int) -> None:
        moves = node.legal_moves()
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                count(node.push(move), ply + 1)

    count(start, 0)
    return counts
