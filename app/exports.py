"""Exports of a game record: PGN, MinitChess notation, board images (SVG, PNG) and reconchess histories.

- :func:`pgn_text` (RBC, Blind Chess): the *true* moves as PGN, read back by
  python-chess's ``chess.pgn`` (:func:`read_pgn`). Both games allow what chess
  forbids (a king may move into attack and be captured), so the PGN names its
  variant in the ``Variant`` tag and this module registers those variants with
  python-chess: a board class that plays chess without check. A pass, a move
  that nothing came of (RBC) and a failed attempt or a skipped turn (Blind
  Chess) are null moves (``--``); senses, requested and revised moves, failed
  attempts, captures and draw offers are comments.
- MinitChess (ruling M4): :func:`position_text` / :func:`parse_position_text`
  copy and paste a position in the rule text's notation; :func:`minit_move_list`
  writes a game as PGN-like tags and numbered ``a2-a3`` moves, which
  :func:`parse_minit_move_list` reads back.
- :func:`frame_svg` / :func:`frame_png`: the board of any replay step as the truth
  or as one seat saw it (only what it knew: its own pieces and what its
  observations showed, as in the window), with python-chess's ``chess.svg`` for
  8x8 boards and a drawing of our own for the 5x6 board; PNG through cairosvg.
- :func:`export_record`: one entry point for the window and ``sightline export``.

>>> from app.engine.record import GameSession
>>> from app.engine.rbc import ReconChess, Sense, MoveAction
>>> session = GameSession(ReconChess())
>>> for seat, action in ((0, Sense.parse("e7")), (0, MoveAction.parse("e2e4")), (1, Sense.parse("e2")),
...                      (1, MoveAction.parse("e7e5"))):
...     session.play(seat, action)
>>> game = read_pgn(pgn_text(session.record))
>>> [move.uci() for move in game.mainline_moves()], game.headers["Variant"]
(['e2e4', 'e7e5'], 'Reconnaissance Blind Chess')
"""

from __future__ import annotations

import errno
import io
import os
import re
from pathlib import Path
from typing import Any, ClassVar, Iterator, Sequence

import chess
import chess.pgn
import chess.svg
import chess.variant

from app import games
from app.engine.core import Outcome, Reason, Seat
from app.engine.minit import HEIGHT, WIDTH, MinitPosition, Move
from app.engine.record import (Frame, GameRecord, RecordError, Timeline, atomic_write_bytes, atomic_write_text,
                               write_target)

__all__ = ["FORMATS", "BlindChessBoard", "ReconBoard", "check_export_target", "export_record", "export_text",
           "frame_png", "frame_svg", "minit_move_list", "parse_minit_move_list", "parse_perspective",
           "parse_position_text", "pgn_game", "pgn_text", "position_text", "read_pgn"]

FORMATS = (*games.format_names(), "svg", "png")
"""What :func:`export_record` (and ``sightline export --format``) writes: the games' formats, then images."""

TITLES = {definition.key: definition.title for definition in games.all()}


def _hidden_information(variant: str) -> bool:
    try:
        return games.get(variant).hidden_information
    except KeyError:
        return False


# ---- python-chess boards for the PGN of RBC and Blind Chess ----------------------------------------------

class _ChessWithoutCheck(chess.Board):
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


class ReconBoard(_ChessWithoutCheck):
    """Reconnaissance Blind Chess's true board for ``chess.pgn`` (``[Variant "Reconnaissance Blind Chess"]``)."""

    aliases: ClassVar[list[str]] = ["Reconnaissance Blind Chess", "RBC", "Recon Blind Chess"]
    uci_variant: ClassVar[str | None] = "rbc"
    xboard_variant: ClassVar[str | None] = "rbc"


class BlindChessBoard(_ChessWithoutCheck):
    """Blind Chess's true board for ``chess.pgn`` (``[Variant "Blind Chess"]``)."""

    aliases: ClassVar[list[str]] = ["Blind Chess"]
    uci_variant: ClassVar[str | None] = "blindchess"
    xboard_variant: ClassVar[str | None] = "blindchess"


_BOARDS: dict[str, type[chess.Board]] = {"rbc": ReconBoard, "blind": BlindChessBoard}
for _board in _BOARDS.values():
    if _board not in chess.variant.VARIANTS:
        chess.variant.VARIANTS.append(_board)  # python-chess finds a PGN's Variant tag in this list


# ---- shared pieces of PGN -----------------------------------------------------------------------------------

def _result_token(outcome: Outcome | None) -> str:
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == 0 else "0-1"


_TERMINATIONS = {Reason.TIMEOUT: "time forfeit", Reason.FORFEIT: "rules infraction", Reason.ABORTED: "abandoned",
                 Reason.TURN_LIMIT: "adjudication", Reason.MATERIAL: "time forfeit"}


def _pgn_date(started: str) -> str:
    match = re.match(r"(\d{4})-(\d{2})-(\d{2})", started)
    return ".".join(match.groups()) if match else "????.??.??"


def _headers(record: GameRecord) -> dict[str, str]:
    names = [player.name or "?" for player in record.players] + ["?", "?"]
    event = record.extra.get("event")
    headers = {
        "Event": event if isinstance(event, str) and event else "Sightline game",
        "Site": "Sightline",
        "Date": _pgn_date(record.started),
        "Round": "-",
        "White": names[0],
        "Black": names[1],
        "Result": _result_token(record.result),
        "Variant": TITLES.get(record.variant, record.variant),
        "TimeControl": "-" if record.clock.untimed else str(record.clock),
    }
    if record.result is None:
        headers["Termination"] = "unterminated"
    else:
        headers["Termination"] = _TERMINATIONS.get(record.result.reason, "normal")
        headers["SightlineReason"] = record.result.reason.value
    return {key: " ".join(value.split()) for key, value in headers.items()}  # no line breaks in a tag


def _ending_comment(outcome: Outcome | None) -> str:
    if outcome is None:
        return "the game is still in progress"
    return outcome.detail or outcome.reason.value.replace("_", " ")


# ---- PGN of RBC and Blind Chess -------------------------------------------------------------------------------

def _piece_name(piece_type: int) -> str:
    return chess.piece_name(piece_type)


def _rbc_comments(timeline: Timeline) -> dict[int, list[str]]:
    from app.engine.rbc import MoveResult, SenseResult
    comments: dict[int, list[str]] = {}
    game: Any = timeline.game  # a ReconChess
    board = chess.Board(game.starting_fen)
    results: dict[int, MoveResult] = {}
    for seat in range(len(timeline.seat_names)):
        for observation in timeline.game.observations(seat):
            if isinstance(observation, SenseResult):
                where = "skipped sensing" if observation.square is None else \
                    f"sense {chess.square_name(observation.square)}"
                comments.setdefault(observation.ply, []).append(where)
            elif isinstance(observation, MoveResult):
                results[observation.ply] = observation
    for ply, move in enumerate(game.board.move_stack):
        result = results.get(ply)
        notes = comments.setdefault(ply, [])
        if result is not None:
            if result.requested is None:
                notes.append("pass")
            elif result.taken is None:
                notes.append(f"{result.requested.uci()} was requested; nothing moved")
            elif result.taken != result.requested:
                notes.append(f"{result.requested.uci()} was revised to {result.taken.uci()}")
            if result.capture_square is not None:
                victim = board.piece_at(result.capture_square)
                what = _piece_name(victim.piece_type) if victim is not None else "piece"
                notes.append(f"captures a {what} on {chess.square_name(result.capture_square)}")
        board.push(move)
    return comments


def _blind_comments(timeline: Timeline) -> dict[int, list[str]]:
    from app.engine.blind import AttemptResult, DrawDeclined, DrawOffered, TurnSkipped
    comments: dict[int, list[str]] = {}
    draws: dict[int, list[str]] = {}  # offers and answers come before the attempt of their turn
    names = timeline.seat_names
    seen_draws: set[tuple[str, int, int]] = set()
    for seat in range(len(names)):
        for observation in timeline.game.observations(seat):
            if isinstance(observation, AttemptResult):
                notes = comments.setdefault(observation.ply, [])
                if not observation.success:
                    notes.append(f"attempt {observation.move.uci()} failed")
                if observation.capture is not None:
                    notes.append(f"captures a {_piece_name(observation.capture[0])} on "
                                 f"{chess.square_name(observation.capture[1])}")
                if observation.reveals:
                    shown = ", ".join(f"{piece.symbol()} {chess.square_name(square)}"
                                      for square, piece in observation.reveals)
                    notes.append(f"reveals {shown}")
            elif isinstance(observation, TurnSkipped):
                comments.setdefault(observation.ply, []).append(f"{names[seat]} has no possible attempt")
            elif isinstance(observation, (DrawOffered, DrawDeclined)):
                key = (type(observation).__name__, observation.ply, observation.seat)
                if key in seen_draws:  # told to both seats
                    continue
                seen_draws.add(key)
                verb = "offers a draw" if isinstance(observation, DrawOffered) else "declines the draw"
                draws.setdefault(observation.ply, []).append(f"{names[observation.seat]} {verb}")
    for ply, said in draws.items():
        comments[ply] = said + comments.get(ply, [])
    return comments


def pgn_game(record: GameRecord) -> chess.pgn.Game:
    """The true moves of an RBC or Blind Chess record as a ``chess.pgn.Game`` (replayed: RecordError if it fails)."""
    if record.variant not in _BOARDS:
        raise RecordError(f"PGN is for Reconnaissance Blind Chess and Blind Chess; export a {record.variant} game "
                          "with the minit format")
    timeline = Timeline(record)
    game = chess.pgn.Game()
    for key, value in _headers(record).items():
        game.headers[key] = value
    board_type = _BOARDS[record.variant]
    referee: Any = timeline.game  # ReconChess or BlindChess: both keep a chess.Board
    moves: list[chess.Move] = referee.board.move_stack
    start = board_type(referee.starting_fen)
    if start.fen() != chess.STARTING_FEN:
        game.setup(start)
    comments = (_rbc_comments if record.variant == "rbc" else _blind_comments)(timeline)
    node: chess.pgn.GameNode = game
    for ply, move in enumerate(moves):
        node = node.add_variation(move)
        node.comment = "; ".join(comments.get(ply, []))
    ending = _ending_comment(record.result)
    trailing = comments.get(len(moves), [])
    node.comment = "; ".join(filter(None, [node.comment, *trailing, ending]))
    return game


class _EscapingExporter(chess.pgn.StringExporter):
    """python-chess writes tag values as they are; PGN wants ``"`` and ``\\`` in them escaped with a backslash."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, _escape(tagvalue))


def pgn_text(record: GameRecord) -> str:
    """:func:`pgn_game` as PGN text (tag values escaped as the PGN standard says)."""
    text: str = pgn_game(record).accept(_EscapingExporter(columns=None))
    return text + "\n"


def read_pgn(text: str) -> chess.pgn.Game:
    """Read the first game of a PGN text (with Sightline's variants known); ``ValueError`` if it is broken.

    Escaped tag values (``\\"``, ``\\\\``) are read back to what they stand for.
    """
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise ValueError("no game found in the PGN text")
    if game.errors:
        raise ValueError(f"the PGN does not read back: {game.errors[0]}")
    for key, value in list(game.headers.items()):
        if "\\" in value:
            game.headers[key] = _unescape(value)
    return game


# ---- MinitChess notation --------------------------------------------------------------------------------------

def position_text(position: MinitPosition) -> str:
    """A position in the rule text's notation, for copying (ruling M4).

    >>> position_text(MinitPosition.start())
    '1 W kqbnr ppppp ..... ..... PPPPP RNBQK'
    """
    return position.text()


def parse_position_text(text: str) -> MinitPosition:
    """Read a pasted MinitChess position; ``ValueError`` says what is wrong.

    Accepts the rule text's notation, with the ranks on one line or on several
    (as copied from a grid), separated by spaces or ``/``; without a move number
    and side the position is taken as move 1, White to move.

    >>> str(parse_position_text('''kqbnr
    ... ppppp
    ... .....
    ... .....
    ... PPPPP
    ... RNBQK'''))
    '1 W kqbnr ppppp ..... ..... PPPPP RNBQK'
    >>> parse_position_text("12 B k.... ..... ..... ..... ..... ....K").turn
    False
    """
    if not isinstance(text, str):
        raise ValueError("a position must be text")
    if len(text) > 1000:
        raise ValueError("that is too long to be a MinitChess position")
    fields = text.replace("/", " ").split()
    if len(fields) == HEIGHT:
        fields = ["1", "W", *fields]
    elif len(fields) == HEIGHT + 1 and fields[0] in ("W", "B", "w", "b"):
        fields = ["1", *fields]
    if len(fields) >= 2:
        fields[1] = fields[1].upper()
    return MinitPosition.parse(" ".join(fields))


def minit_move_list(record: GameRecord) -> str:
    """A MinitChess game as PGN-like tags, then numbered moves in the rule text's notation and the result.

    The ``Position`` tag holds the start and ``FinalPosition`` the end, both as in
    the rule text (ruling M4).
    """
    if record.variant != "minit":
        raise RecordError(f"the minit format is for MinitChess games, not {record.variant}")
    timeline = Timeline(record)
    game: Any = timeline.game
    start: MinitPosition = game.starting_position
    headers = _headers(record)
    headers["Position"] = start.text()
    headers["FinalPosition"] = game.position.text()
    lines = [f'[{key} "{_escape(value)}"]' for key, value in headers.items()]
    tokens: list[str] = []
    position = start
    for index, move in enumerate(game.moves):
        if position.turn:
            tokens.append(f"{position.move_number}. {move}")  # a number stays on the line of its move
        elif index == 0:
            tokens.append(f"{position.move_number}... {move}")
        else:
            tokens.append(str(move))
        position = position.play(move)
    tokens.append(_result_token(record.result))
    body, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    body.append(line)
    comment = _ending_comment(record.result).replace("}", ")")
    return "\n".join(lines) + "\n\n" + "\n".join(body) + f"\n{{{comment}}}\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def parse_minit_move_list(text: str) -> tuple[dict[str, str], MinitPosition, list[Move]]:
    """Read what :func:`minit_move_list` writes: (tags, starting position, moves); ``ValueError`` if it is wrong.

    Every move is checked against the position it is played in.

    >>> tags, start, moves = parse_minit_move_list('[Position "1 W kqbnr ppppp ..... ..... PPPPP RNBQK"]\\n\\n'
    ...                                            '1. b1-c3 e5-e4 *')
    >>> [str(move) for move in moves]
    ['b1-c3', 'e5-e4']
    """
    tags: dict[str, str] = {}
    moves_text = []
    for line in text.splitlines():
        match = _TAG.match(line.strip())
        if match:
            tags[match.group(1)] = _unescape(match.group(2))
        else:
            moves_text.append(line)
    start = parse_position_text(tags.get("Position", MinitPosition.start().text()))
    body = re.sub(r"\{[^}]*\}", " ", " ".join(moves_text))
    position = start
    moves: list[Move] = []
    for token in body.split():
        if re.fullmatch(r"\d+\.(\.\.)?", token) or token in ("*", "1-0", "0-1", "1/2-1/2"):
            continue
        token = re.sub(r"^\d+\.(\.\.)?", "", token)
        try:
            move = position.parse_move(token)
        except ValueError as error:
            raise ValueError(f"move {len(moves) + 1}: {error}") from None
        moves.append(move)
        position = position.play(move)
    return tags, start, moves


# ---- board images ---------------------------------------------------------------------------------------------

_MARKER_FILLS = {"sense": "#2f6fd080", "sense_old": "#2f6fd038", "reveal": "#e0b00070", "lost": "#c0202070",
                 "captured": "#e0600070"}
_SQUARE, _MARGIN = 45, 15  # chess.svg's units: a square and the coordinate margin


def _seat_scene(variant: str, frame: Frame) -> Any:
    from app.games.scene import SCENES  # no Qt: what the window draws for the seat, made from its view only
    return SCENES[variant](frame.view)


def frame_svg(variant: str, frame: Frame, size: int = 480) -> str:
    """The board of ``frame`` as SVG: the true position, or only what the frame's seat knew.

    Seat 1 (Black) sees its board from its own side.
    """
    orientation = frame.perspective != 1
    if variant == "minit":
        position = frame.truth if frame.view is None else getattr(frame.view, "position")
        minit_last = frame.last_move if isinstance(frame.last_move, Move) else None
        return _minit_svg(position, minit_last, orientation, size)
    if frame.view is None:
        last = frame.last_move if isinstance(frame.last_move, chess.Move) and frame.last_move else None
        return chess.svg.board(frame.truth, orientation=orientation, lastmove=last, size=size)
    scene = _seat_scene(variant, frame)
    board = chess.BaseBoard(None)
    for (file, rank), symbol in scene.pieces.items():
        board.set_piece_at(chess.square(file, rank), chess.Piece.from_symbol(symbol))
    fill: dict[int, str] = {}
    for marker in scene.markers:
        color = _MARKER_FILLS.get(marker.kind)
        if color is not None:
            for file, rank in marker.squares:
                fill[chess.square(file, rank)] = color
    last_move = None
    if scene.last_move is not None:
        (f1, r1), (f2, r2) = scene.last_move
        last_move = chess.Move(chess.square(f1, r1), chess.square(f2, r2))
    return chess.svg.board(board, orientation=orientation, lastmove=last_move, fill=fill, size=size)


def _minit_svg(position: MinitPosition, last: Move | None, white_below: bool, size: int) -> str:
    colors = chess.svg.DEFAULT_COLORS
    width, height = 2 * _MARGIN + WIDTH * _SQUARE, 2 * _MARGIN + HEIGHT * _SQUARE
    pixels_high = round(size * height / width)
    used = sorted({letter for letter in map(position.piece_at, range(WIDTH * HEIGHT)) if letter is not None})
    defs = "".join(chess.svg.PIECES[letter] for letter in used)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             f'viewBox="0 0 {width} {height}" width="{size}" height="{pixels_high}">',
             f"<defs>{defs}</defs>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="{colors["margin"]}"/>']
    lit = {last.from_square, last.to_square} if last is not None else set()
    for square in range(WIDTH * HEIGHT):
        file, rank = square % WIDTH, square // WIDTH
        column = file if white_below else WIDTH - 1 - file
        row = HEIGHT - 1 - rank if white_below else rank
        x, y = _MARGIN + column * _SQUARE, _MARGIN + row * _SQUARE
        shade = "light" if (file + rank) % 2 else "dark"
        color = colors[f"square {shade} lastmove" if square in lit else f"square {shade}"]
        parts.append(f'<rect x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" fill="{color}"/>')
        letter = position.piece_at(square)
        if letter is not None:
            piece = chess.Piece.from_symbol(letter)
            parts.append(f'<use href="#{chess.COLOR_NAMES[piece.color]}-{chess.PIECE_NAMES[piece.piece_type]}" '
                         f'xlink:href="#{chess.COLOR_NAMES[piece.color]}-{chess.PIECE_NAMES[piece.piece_type]}" '
                         f'transform="translate({x}, {y})"/>')
    text_style = f'fill="{colors["coord"]}" font-family="sans-serif" font-size="11" text-anchor="middle"'
    for index in range(WIDTH):
        letter = "abcde"[index if white_below else WIDTH - 1 - index]
        x = _MARGIN + index * _SQUARE + _SQUARE // 2
        parts.append(f'<text x="{x}" y="{_MARGIN - 4}" {text_style}>{letter}</text>')
        parts.append(f'<text x="{x}" y="{height - 4}" {text_style}>{letter}</text>')
    for index in range(HEIGHT):
        number = HEIGHT - index if white_below else index + 1
        y = _MARGIN + index * _SQUARE + _SQUARE // 2 + 4
        parts.append(f'<text x="{_MARGIN // 2}" y="{y}" {text_style}>{number}</text>')
        parts.append(f'<text x="{width - _MARGIN // 2}" y="{y}" {text_style}>{number}</text>')
    parts.append("</svg>")
    return "".join(parts)


def frame_png(variant: str, frame: Frame, size: int = 480) -> bytes:
    """:func:`frame_svg` rendered to PNG (``size`` pixels wide) with cairosvg."""
    import cairosvg
    png: bytes = cairosvg.svg2png(bytestring=frame_svg(variant, frame, size).encode("utf-8"), output_width=size)
    return png


# ---- one entry point ---------------------------------------------------------------------------------------------

def parse_perspective(record: GameRecord, name: str | None) -> Seat | None:
    """``"truth"`` (or None) is the truth; a seat's name (``"white"``, ``"black"``) or number is that seat."""
    if name is None or name.lower() == "truth":
        return None
    names = [seat.lower() for seat in _seat_names(record)]
    if name.lower() in names:
        return names.index(name.lower())
    if name in (str(seat) for seat in range(len(names))):
        return int(name)
    shown = name if len(name) <= 30 else name[:27] + "..."
    raise ValueError(f"unknown perspective {shown!r} (choose truth, {', '.join(names)})")


def _seat_names(record: GameRecord) -> Sequence[str]:
    from app.engine.variants import VARIANTS
    return VARIANTS[record.variant].seat_names if record.variant in VARIANTS else ("White", "Black")


def _check_spoilers(record: GameRecord, fmt: str, perspective: Seat | None) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    shows_truth = fmt in ("pgn", "reconchess") or (fmt in ("svg", "png") and perspective is None)
    if shows_truth and record.result is None and _hidden_information(record.variant):
        raise RecordError("this game is still in progress: its true moves stay hidden until it ends "
                          "(export a seat's own view with --perspective instead)")


def export_text(record: GameRecord, fmt: str) -> str:
    """The ``pgn`` or ``minit`` export as text (for the clipboard or standard output); checked as
    :func:`export_record` checks it."""
    if fmt not in ("pgn", "minit"):
        raise ValueError(f"{fmt} is not a text format (pgn, minit)")
    _check_spoilers(record, fmt, None)
    return pgn_text(record) if fmt == "pgn" else minit_move_list(record)


def check_export_target(path: str | os.PathLike[str], source: str | os.PathLike[str] | None = None) -> Path:
    """The file an export to ``path`` would replace; ``OSError`` with a readable ``strerror`` if it must not.

    Refused as by every write of a file (:func:`~app.engine.record.write_target`): a FIFO, a device or a
    folder, and a folder that does not exist; a symbolic link is written through to its target. An export
    also never replaces ``source``, the record file it was made from, whatever name (or link) reaches it:
    ``sightline export game.json game.json`` would otherwise destroy the game.
    """
    target = write_target(path)
    if source is not None:
        try:
            same = os.path.samefile(target, source)
        except OSError:  # either does not exist (yet): they cannot be the same file
            same = False
        if same:
            raise OSError(errno.EEXIST, "that is the file being converted, and writing there would destroy it",
                          str(path))
    return target


def export_record(record: GameRecord, fmt: str, path: str | os.PathLike[str], *, step: int | None = None,
                  ply: int | None = None, perspective: Seat | None = None, size: int = 480,
                  source: str | os.PathLike[str] | None = None) -> None:
    """Write ``record`` to ``path`` as ``fmt`` (one of :data:`FORMATS`); files are written atomically.

    ``path`` is checked with :func:`check_export_target` (``source``: the record's own file, never
    overwritten) before anything is computed.

    Images show ``step`` (or the first step at which ``ply`` turns are done;
    default: the end) from ``perspective`` (None: the truth). While a game of
    hidden information is unfinished, what shows the truth (PGN, reconchess,
    the true board) is refused: it would spoil the game; a seat's own view is
    allowed. Raises :class:`RecordError` (a record that does not replay, a
    format that does not fit the game) or ``ValueError`` (a bad step or
    perspective); ``OSError`` when the file cannot be written.
    """
    _check_spoilers(record, fmt, perspective)
    target = check_export_target(path, source)
    if fmt == "reconchess":
        from app.interop.reconchess_history import export_reconchess
        if record.variant != "rbc":
            raise RecordError(f"only RBC games export to reconchess (this is {record.variant})")
        export_reconchess(record, target)
    elif fmt in ("pgn", "minit"):
        atomic_write_text(target, export_text(record, fmt))
    else:
        if size < 16 or size > 8192:
            raise ValueError(f"image size {size} is out of range (16 to 8192 pixels)")
        timeline = Timeline(record)
        if ply is not None:
            final = timeline.ply_at(timeline.steps)
            if not 0 <= ply <= final:
                raise ValueError(f"no ply {ply}: this game has plies 0 to {final}")
            step = timeline.step_of_ply(ply)
        frame = timeline.frame(timeline.steps if step is None else step, perspective)
        if fmt == "svg":
            atomic_write_text(target, frame_svg(record.variant, frame, size))
        else:
            atomic_write_bytes(target, frame_png(record.variant, frame, size))
