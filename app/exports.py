"""Exports of a game record: each game's own formats, and board images (SVG, PNG) of any game.

What a format writes is the game's business: its definition lists its formats (``GameDefinition.formats``), and
each format's writer lives in the game's own package (PGN of RBC and Blind Chess, reconchess histories,
MinitChess move lists). This module does what is the same for every game:

- :func:`export_record`: one entry point for the window and ``sightline export``; it refuses what would spoil
  an unfinished game of hidden information (a format that shows the truth, the true board), never writes over
  the record it was made from (:func:`check_export_target`), and hands the record to the format's writer;
  :func:`export_text` does the same for a text format going to the clipboard or standard output.
- :func:`frame_svg` / :func:`frame_png`: the board of any replay step as the truth or as one seat saw it (only
  what it knew: its own pieces and what its observations showed, as in the window), drawn from the game's
  scene by :func:`scene_svg` for a board of any files x ranks; PNG through cairosvg.

>>> from app.engine.record import GameSession
>>> from app.engine.minit import MinitChess, MinitMove
>>> session = GameSession(MinitChess())
>>> session.play(0, MinitMove.parse("b1-c3"))
>>> scene = frame_scene(session.record.variant, Timeline(session.record).frame(1, None))
>>> (scene.files, scene.ranks), scene.pieces[(2, 2)], scene.last_move
((5, 6), 'N', ((1, 0), (2, 2)))
>>> scene_svg(scene, size=300).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Sequence

import chess
import chess.svg

from app import games
from app.engine.core import Seat
from app.engine.record import (Frame, GameRecord, RecordError, Timeline, atomic_write_bytes, atomic_write_text,
                               write_target)
from app.games.definition import ExportFormat
from app.games.scene import BoardScene

__all__ = ["FORMATS", "IMAGE_FORMATS", "check_export_target", "export_record", "export_text", "frame_png",
           "frame_scene", "frame_svg", "parse_perspective", "scene_svg"]

IMAGE_FORMATS = ("svg", "png")
"""The board images every game exports (a step as the truth or as one seat saw it)."""

FORMATS = (*games.format_names(), *IMAGE_FORMATS)
"""What :func:`export_record` (and ``sightline export --format``) writes: the games' formats, then images."""


def _hidden_information(variant: str) -> bool:
    try:
        return games.get(variant).hidden_information
    except KeyError:
        return False


def _export_format(variant: str, name: str) -> ExportFormat | None:
    """The format ``name`` as the game ``variant`` writes it; else as the first game that writes it (whose writer
    then refuses the record in its own words); None for an image or an unknown name."""
    try:
        own = games.get(variant).formats
    except KeyError:
        own = ()
    for fmt in (*own, *games.formats()):
        if fmt.name == name:
            return fmt
    return None


# ---- board images ---------------------------------------------------------------------------------------------

_MARKER_FILLS = {"sense": "#2f6fd080", "sense_old": "#2f6fd038", "reveal": "#e0b00070", "lost": "#c0202070",
                 "captured": "#e0600070"}
_SQUARE, _MARGIN = 45, 15  # chess.svg's units: a square and the coordinate margin
_CHESS_BOARD = (8, 8)


def frame_scene(variant: str, frame: Frame) -> BoardScene:
    """What the board of ``frame`` shows, made by the game's presenter: the true position (``frame.view`` None),
    or the scene of the frame's seat, made from its view only (so it holds nothing the seat was not told)."""
    presenter = games.get(variant).presenter
    if presenter is None:
        raise RecordError(f"a {variant} game has no board to draw")
    if frame.view is None:
        scene: BoardScene = presenter().truth_scene(frame.truth, frame.last_move)
    else:
        scene = presenter().scene(frame.view)
    return scene


def frame_svg(variant: str, frame: Frame, size: int = 480) -> str:
    """The board of ``frame`` as SVG: the true position, or only what the frame's seat knew.

    A seat sees the board from its own side: turned when its seat definition says ``flipped`` (Black in the
    chess games, the second team's seats in a team game); the truth is shown as the first seat sees it.
    """
    return scene_svg(frame_scene(variant, frame), white_below=not _flipped(variant, frame.perspective), size=size)


def _flipped(variant: str, perspective: Seat | None) -> bool:
    """Whether ``perspective``'s board is drawn turned round (never for the truth or a seat the game lacks)."""
    seats = games.get(variant).seats
    return perspective is not None and 0 <= perspective < len(seats) and seats[perspective].flipped


def _fills(scene: BoardScene) -> dict[tuple[int, int], str]:
    fill: dict[tuple[int, int], str] = {}
    for marker in scene.markers:
        color = _MARKER_FILLS.get(marker.kind)
        if color is not None:
            for cell in marker.squares:
                fill[cell] = color
    return fill


def scene_svg(scene: BoardScene, white_below: bool = True, size: int = 480) -> str:
    """A scene's board as SVG, ``size`` pixels wide, whatever its files x ranks: its pieces, marked squares and
    last move (seen from White's side when ``white_below``).

    An 8x8 board is drawn by python-chess's ``chess.svg``, as chess players know it; other boards by
    :func:`_grid_svg` in the same colours, squares and pieces.
    """
    if (scene.files, scene.ranks) != _CHESS_BOARD:
        return _grid_svg(scene, white_below, size)
    board = chess.BaseBoard(None)
    for (file, rank), symbol in scene.pieces.items():
        board.set_piece_at(chess.square(file, rank), chess.Piece.from_symbol(symbol))
    fill = {chess.square(file, rank): color for (file, rank), color in _fills(scene).items()}
    last_move = None
    if scene.last_move is not None:
        (f1, r1), (f2, r2) = scene.last_move
        last_move = chess.Move(chess.square(f1, r1), chess.square(f2, r2))  # a1-a1 (no move) lights nothing
    return chess.svg.board(board, orientation=white_below, lastmove=last_move, fill=fill, size=size)


def _grid_svg(scene: BoardScene, white_below: bool, size: int) -> str:
    """A board of any files x ranks drawn as ``chess.svg`` draws 8x8 (its colours, square size and pieces)."""
    files, ranks = scene.files, scene.ranks
    colors = chess.svg.DEFAULT_COLORS
    width, height = 2 * _MARGIN + files * _SQUARE, 2 * _MARGIN + ranks * _SQUARE
    pixels_high = round(size * height / width)
    defs = "".join(chess.svg.PIECES[letter] for letter in sorted(set(scene.pieces.values())))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             f'viewBox="0 0 {width} {height}" width="{size}" height="{pixels_high}">',
             f"<defs>{defs}</defs>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="{colors["margin"]}"/>']
    lit = set(scene.last_move) if scene.last_move is not None and scene.last_move[0] != scene.last_move[1] \
        else set()
    fills = _fills(scene)
    for rank in range(ranks):
        for file in range(files):
            column = file if white_below else files - 1 - file
            row = ranks - 1 - rank if white_below else rank
            x, y = _MARGIN + column * _SQUARE, _MARGIN + row * _SQUARE
            shade = "light" if (file + rank) % 2 else "dark"
            color = colors[f"square {shade} lastmove" if (file, rank) in lit else f"square {shade}"]
            parts.append(f'<rect x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" fill="{color}"/>')
            if (file, rank) in fills:
                parts.append(f'<rect x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" '
                             f'fill="{fills[file, rank]}"/>')
            letter = scene.pieces.get((file, rank))
            if letter is not None:
                piece = chess.Piece.from_symbol(letter)
                glyph = f"{chess.COLOR_NAMES[piece.color]}-{chess.PIECE_NAMES[piece.piece_type]}"
                parts.append(f'<use href="#{glyph}" xlink:href="#{glyph}" transform="translate({x}, {y})"/>')
    text_style = f'fill="{colors["coord"]}" font-family="sans-serif" font-size="11" text-anchor="middle"'
    for index in range(files):
        letter = chr(ord("a") + (index if white_below else files - 1 - index))
        x = _MARGIN + index * _SQUARE + _SQUARE // 2
        parts.append(f'<text x="{x}" y="{_MARGIN - 4}" {text_style}>{letter}</text>')
        parts.append(f'<text x="{x}" y="{height - 4}" {text_style}>{letter}</text>')
    for index in range(ranks):
        number = ranks - index if white_below else index + 1
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
    try:
        return games.get(record.variant).seat_names
    except KeyError:
        return ("White", "Black")


def _check_spoilers(record: GameRecord, fmt: str, perspective: Seat | None) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    export_format = _export_format(record.variant, fmt)
    shows_truth = export_format.shows_truth if export_format is not None else perspective is None
    if shows_truth and record.result is None and _hidden_information(record.variant):
        raise RecordError("this game is still in progress: its true moves stay hidden until it ends "
                          "(export a seat's own view with --perspective instead)")


def _written(record: GameRecord, fmt: str) -> str:
    """The text of ``record`` in the format ``fmt``, by the format's writer."""
    export_format = _export_format(record.variant, fmt)
    assert export_format is not None, fmt  # checked by _check_spoilers
    text: str = export_format.writer()(record)
    return text


def export_text(record: GameRecord, fmt: str) -> str:
    """A text format's export (for the clipboard or standard output); checked as :func:`export_record` checks
    it."""
    text_formats = [export_format.name for export_format in games.formats() if export_format.text]
    if fmt not in text_formats:
        raise ValueError(f"{fmt} is not a text format ({', '.join(text_formats)})")
    _check_spoilers(record, fmt, None)
    return _written(record, fmt)


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
    if fmt not in IMAGE_FORMATS:
        atomic_write_text(target, _written(record, fmt))
        return
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
