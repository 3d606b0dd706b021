"""PGN of the true moves of a chess game played on a python-chess board, read back by ``chess.pgn``.

RBC and Blind Chess allow what chess forbids (a king may move into attack and be captured), so each names its
variant in the ``Variant`` tag and gives python-chess a board class that plays chess without check
(:class:`ChessWithoutCheck`): a :class:`ChessPgn` made with that board registers it with python-chess. A game
says which :class:`ChessPgn` writes it through its definition: the writer of its export format named
:data:`PGN_FORMAT`. :func:`read_pgn` first imports every game's PGN writer, so that whichever variant a PGN
names, python-chess knows it.

Moves that are not chess moves (a pass, a move nothing came of, a failed attempt) are null moves (``--``); what
else happened is said in comments the game writes (:class:`ChessPgn`'s ``comments``).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Callable, Iterator

import chess
import chess.pgn
import chess.variant

from app import games
from app.engine.record import RecordError, Timeline
from app.games.chess_kit import ending_comment, escape_tag, pgn_headers, unescape_tag

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["PGN_FORMAT", "ChessPgn", "ChessWithoutCheck", "chess_pgn_of", "pgn_game", "pgn_text", "read_pgn"]

PGN_FORMAT = "pgn"
"""The name of the export format a game lists to be written as PGN (its writer is a :class:`ChessPgn`)."""

Comments = Callable[[Timeline], dict[int, list[str]]]
"""Ply -> the comments on the move of that ply (the ply after the last move: comments on the game's end)."""


class ChessWithoutCheck(chess.Board):
    """Chess in which check does not exist: a king may move into or through attack and be captured.

    That is the movement of RBC and Blind Chess; which moves are *tried* and how
    they are revised or fail is decided by Sightline's referees, so this board
    only has to accept the moves they actually made.
    """

    def _attacked_for_king(self, path: chess.Bitboard, occupied: chess.Bitboard) -> bool:
        return False  # castling into, out of or through attack is allowed

    def checkers_mask(self) -> chess.Bitboard:
        return chess.BB_EMPTY

    def gives_check(self, move: chess.Move) -> bool:
        return False

    def is_into_check(self, move: chess.Move) -> bool:
        return False

    def was_into_check(self) -> bool:
        return False

    def generate_legal_moves(self, from_mask: chess.Bitboard = chess.BB_ALL,
                             to_mask: chess.Bitboard = chess.BB_ALL) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return iter(())
        return self.generate_pseudo_legal_moves(from_mask, to_mask)

    def is_legal(self, move: chess.Move) -> bool:
        return not self.is_variant_end() and self.is_pseudo_legal(move)

    def is_variant_end(self) -> bool:
        return not (self.kings & self.occupied_co[chess.WHITE] and self.kings & self.occupied_co[chess.BLACK])

    def is_variant_win(self) -> bool:
        return bool(self.kings & self.occupied_co[self.turn]) and self.is_variant_end()

    def is_variant_loss(self) -> bool:
        return not self.kings & self.occupied_co[self.turn]


class _EscapingExporter(chess.pgn.StringExporter):
    """python-chess writes tag values as they are; PGN wants ``"`` and ``\\`` in them escaped with a backslash."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, escape_tag(tagvalue))


class ChessPgn:
    """How one game's records become PGN: the game's key, its python-chess board class (registered with
    python-chess here, so a PGN naming its variant reads back) and the comments it writes on the moves.

    Called with a record, it gives the PGN text: it is the writer of the game's ``pgn`` export format.
    """

    def __init__(self, key: str, board: type[chess.Board], comments: Comments) -> None:
        self.key = key
        self.board = board
        self.comments = comments
        if board not in chess.variant.VARIANTS:
            chess.variant.VARIANTS.append(board)  # python-chess finds a PGN's Variant tag in this list

    def game(self, record: GameRecord) -> chess.pgn.Game:
        """The true moves of ``record`` as a ``chess.pgn.Game`` (replayed: RecordError if it fails)."""
        if record.variant != self.key:
            chess_pgn_of(record.variant)  # says which format fits that game, if PGN does not
            raise RecordError(f"the {self.key} PGN writer cannot write a {record.variant} game")
        timeline = Timeline(record)
        game = chess.pgn.Game()
        for key, value in pgn_headers(record, games.get(record.variant).title).items():
            game.headers[key] = value
        referee: Any = timeline.game  # a chess game's referee keeps a chess.Board
        moves: list[chess.Move] = referee.board.move_stack
        start = self.board(referee.starting_fen)
        if start.fen() != chess.STARTING_FEN:
            game.setup(start)
        comments = self.comments(timeline)
        node: chess.pgn.GameNode = game
        for ply, move in enumerate(moves):
            node = node.add_variation(move)
            node.comment = "; ".join(comments.get(ply, []))
        ending = ending_comment(record.result)
        trailing = comments.get(len(moves), [])
        node.comment = "; ".join(filter(None, [node.comment, *trailing, ending]))
        return game

    def __call__(self, record: GameRecord) -> str:
        """:meth:`game` as PGN text (tag values escaped as the PGN standard says)."""
        text: str = self.game(record).accept(_EscapingExporter(columns=None))
        return text + "\n"

    def __repr__(self) -> str:
        return f"ChessPgn({self.key!r}, {self.board.__name__})"


def _titles(definitions: list[games.GameDefinition]) -> str:
    titles = [definition.title for definition in definitions]
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


def chess_pgn_of(variant: str) -> ChessPgn:
    """The PGN writer of the game ``variant``; RecordError (naming the formats that fit) if it has none."""
    definition = games.get(variant)
    for fmt in definition.formats:
        if fmt.name == PGN_FORMAT:
            writer = fmt.writer()
            if isinstance(writer, ChessPgn):
                return writer
    writing = [other for other in games.all() if PGN_FORMAT in (fmt.name for fmt in other.formats)]
    fitting = " or ".join(fmt.name for fmt in definition.formats) or "image"
    raise RecordError(f"PGN is for {_titles(writing)}; export a {variant} game with the {fitting} format")


def pgn_game(record: GameRecord) -> chess.pgn.Game:
    """The true moves of a record of any game written as PGN, as a ``chess.pgn.Game``."""
    return chess_pgn_of(record.variant).game(record)


def pgn_text(record: GameRecord) -> str:
    """:func:`pgn_game` as PGN text."""
    return chess_pgn_of(record.variant)(record)


def _register_pgn_variants() -> None:
    """Import every game's PGN writer: each registers its board class with python-chess as it is made."""
    for definition in games.all():
        for fmt in definition.formats:
            if fmt.name == PGN_FORMAT:
                fmt.writer()


def read_pgn(text: str) -> chess.pgn.Game:
    """Read the first game of a PGN text (with every game's variant known); ``ValueError`` if it is broken.

    Escaped tag values (``\\"``, ``\\\\``) are read back to what they stand for.
    """
    _register_pgn_variants()
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise ValueError("no game found in the PGN text")
    if game.errors:
        raise ValueError(f"the PGN does not read back: {game.errors[0]}")
    for key, value in list(game.headers.items()):
        if "\\" in value:
            game.headers[key] = unescape_tag(value)
    return game
