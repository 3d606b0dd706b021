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
  scene by :func:`scene_svg` for a board of any files x ranks, with its marker labels and the zones beside it
  (hands, piles, tracks ...: a seat's only as that seat sees them); PNG through cairosvg.

>>> from app.engine.record import GameSession
>>> from app.games.minit.rules import MinitChess, MinitMove
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
import math
import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape

import chess
import chess.svg

from app import games
from app.engine.core import Seat
from app.engine.record import (Frame, GameRecord, RecordError, Timeline, atomic_write_bytes, atomic_write_text,
                               write_target)
from app.games.definition import ExportFormat
from app.games.scene import (ZONE_PLACES, BoardScene, CardRowZone, Cell, Checker, GridZone, HandZone, PileZone,
                             ShownCard, StackZone, TrackZone, TrayZone, UNKNOWN_PIECES, Zone, read_checker,
                             zone_bands)

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
    scene = _seen_by(frame_scene(variant, frame), frame.perspective)
    return scene_svg(scene, white_below=not _flipped(variant, frame.perspective), size=size)


def _seen_by(scene: BoardScene, perspective: Seat | None) -> BoardScene:
    """``scene`` with what ``perspective`` may not see taken out, should a presenter have left it in.

    A seat's scene is made from its view, so its presenter already shows another seat's hand as backs; an image
    is a file that leaves the app, so it checks again: a zone private to other seats keeps its cards' backs (a
    hand), its face-down top (a pile), or is left out (anything else). The truth (None) is drawn whole.
    """
    if perspective is None:
        return scene
    zones: list[Zone] = []
    for zone in scene.zones:
        if not zone.private or perspective in zone.private_to:
            zones.append(zone)
        elif isinstance(zone, HandZone):
            zones.append(replace(zone, cards=(None,) * len(zone.cards), selected=()))
        elif isinstance(zone, PileZone):
            zones.append(replace(zone, top=None))
    return replace(scene, zones=zones)


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


def _labels(scene: BoardScene) -> dict[Cell, str]:
    """The text each marked cell carries (a placed card's name): the last marker to label a cell wins, as the
    last fill does."""
    labels: dict[Cell, str] = {}
    for marker in scene.markers:
        if marker.label:
            for cell in marker.squares:
                labels[cell] = marker.label
    return labels


def _chess_only(scene: BoardScene) -> bool:
    """Whether python-chess's board drawing suits ``scene``: an 8x8 board of chess pieces without zones (it has no
    glyph for another letter and no room for zones, so such a scene goes to :func:`_grid_svg`).

    Marker labels do not count: the chess games label their sense markers with the turn ("t1"), which their
    images have never shown, and their files must stay as they are."""
    return ((scene.files, scene.ranks) == _CHESS_BOARD and not scene.zones
            and all(letter in chess.svg.PIECES or letter in UNKNOWN_PIECES for letter in scene.pieces.values()))


def scene_svg(scene: BoardScene, white_below: bool = True, size: int = 480) -> str:
    """A scene's board as SVG, ``size`` pixels wide, whatever its files x ranks: its pieces, marked squares and
    last move (seen from White's side when ``white_below``), marker labels, and the zones beside the board.

    An 8x8 board of chess pieces without zones is drawn by python-chess's ``chess.svg``, as chess players know it
    (without marker labels); other boards by :func:`_grid_svg` in the same colours, squares and pieces.
    """
    if not _chess_only(scene):
        return _grid_svg(scene, white_below, size)
    board = chess.BaseBoard(None)
    for (file, rank), symbol in scene.pieces.items():
        if symbol not in UNKNOWN_PIECES:
            board.set_piece_at(chess.square(file, rank), chess.Piece.from_symbol(symbol))
    fill = {chess.square(file, rank): color for (file, rank), color in _fills(scene).items()}
    last_move = None
    if scene.last_move is not None:
        (f1, r1), (f2, r2) = scene.last_move
        last_move = chess.Move(chess.square(f1, r1), chess.square(f2, r2))  # a1-a1 (no move) lights nothing
    svg = chess.svg.board(board, orientation=white_below, lastmove=last_move, fill=fill, size=size)
    remembered = _remembered_svg(scene, white_below)
    return svg[:svg.rindex("</svg>")] + remembered + "</svg>" if remembered else svg


def _remembered_svg(scene: BoardScene, white_below: bool) -> str:
    """What ``chess.svg`` cannot draw on a seat's board: a piece of unknown type (a disc in its side's colour with
    a question mark) and an old sighting faded (a veil of the square's colour over it), as the window does."""
    old = {cell for marker in scene.markers if marker.kind == "seen_old" for cell in marker.squares}
    parts = []
    for (file, rank), code in sorted(scene.pieces.items()):
        if code not in UNKNOWN_PIECES and (file, rank) not in old:
            continue
        x = _MARGIN + (file if white_below else 7 - file) * _SQUARE
        y = _MARGIN + (7 - rank if white_below else rank) * _SQUARE
        if code in UNKNOWN_PIECES:
            light = code.isupper()
            fill, ink = ("#f8f8f8", "#1b1b1b") if light else ("#2a2a2a", "#f8f8f8")
            parts.append(f'<g class="unknown-piece"><circle cx="{_num(x + _SQUARE / 2)}" cy="{_num(y + _SQUARE / 2)}" '
                         f'r="{_num(_SQUARE * 0.37)}" fill="{fill}" stroke="#1b1b1b" stroke-width="1.5"/>'
                         + _text(x + _SQUARE / 2, y + _SQUARE / 2, "?", _SQUARE * 0.45, ink) + "</g>")
        if (file, rank) in old:
            shade = chess.svg.DEFAULT_COLORS["square light" if (file + rank) % 2 else "square dark"]
            parts.append(f'<rect class="old-sighting" x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" '
                         f'fill="{shade}" opacity="0.4"/>')
    return "".join(parts)


# Zone sizes in squares, as the window lays them out (app/ui/zones.py), so an image reads like the window.
_PAD, _LABEL, _CARD_W, _CARD_RATIO, _RAISE = 0.12, 0.34, 0.9, 126 / 90, 0.16
_TOKEN, _GRID_CELL, _ROW_HEAD, _GAP, _SIDE_LABEL = 0.62, 0.42, 0.9, 0.08, 1.15
_LABEL_CHAR = 7.0  # the width of a letter of an 11-unit bold label, in image units
_RED, _BLACK, _FACE, _EDGE = "#c62828", "#1b1b1b", "#fffdf7", "#6d6d6d"
_SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_CARD_BACK = ('<pattern id="card-back" width="8" height="8" patternUnits="userSpaceOnUse">'
              '<rect width="8" height="8" fill="#1f4e9c"/><path d="M4 1L7 4L4 7L1 4Z" fill="#6f9be0"/></pattern>')


def _num(value: float) -> str:
    """A coordinate as short text (whole numbers without a point, as the board's own squares are written)."""
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:.2f}".rstrip("0")


def _text(x: float, y: float, text: str, font_size: float, fill: str, weight: str = "bold",
          anchor: str = "middle") -> str:
    """Text centred on ``(x, y)``: escaped, since labels, marks and letters come from the game."""
    return (f'<text x="{_num(x)}" y="{_num(y + font_size * 0.35)}" fill="{fill}" font-family="sans-serif" '
            f'font-size="{_num(font_size)}" font-weight="{weight}" text-anchor="{anchor}">{escape(text)}</text>')


def _fitted(text: str, width: float, largest: float) -> float:
    """A font size at which ``text`` fits in ``width`` (sans-serif letters are about 0.6 of their size wide)."""
    return max(6.0, min(largest, width / (0.62 * max(1, len(text)))))


def _piece_svg(letter: str, x: float, y: float, side: float) -> str:
    """A piece in the ``side``-wide box at ``(x, y)``: python-chess's glyph for a chess letter (its definition
    is in the image's defs), a numbered disc for a checker token (:func:`_checker_svg`), else a generic token, a
    circle with the letter (upper case light, lower case dark, as White and Black are), so a game's own pieces
    stay readable."""
    if letter in chess.svg.PIECES:
        return _glyph_use(letter, x, y, side)
    checker = read_checker(letter)
    if checker is not None:
        return _checker_svg(checker, x, y, side)
    light = not letter.islower()
    fill, ink = ("#f8f8f8", "#1b1b1b") if light else ("#1b1b1b", "#f8f8f8")
    middle, radius = side / 2, side * 0.38
    return (f'<g class="token"><circle cx="{_num(x + middle)}" cy="{_num(y + middle)}" r="{_num(radius)}" '
            f'fill="{fill}" stroke="#555" stroke-width="1.5"/>'
            + _text(x + middle, y + middle, letter, _fitted(letter, 1.5 * radius, side * 0.45), ink) + "</g>")


def _glyph_use(letter: str, x: float, y: float, side: float, extra: str = "") -> str:
    """python-chess's glyph of the chess letter ``letter`` (defined in the image's defs) in a ``side``-wide box."""
    piece = chess.Piece.from_symbol(letter)
    glyph = f"{chess.COLOR_NAMES[piece.color]}-{chess.PIECE_NAMES[piece.piece_type]}"
    scale = "" if side == _SQUARE else f" scale({_num(side / _SQUARE)})"
    return f'<use href="#{glyph}" xlink:href="#{glyph}" transform="translate({_num(x)}, {_num(y)}){scale}"{extra}/>'


def _checker_glyph(checker: Checker) -> str | None:
    """The chess letter drawn faint inside a checker's disc: its piece in the colour that shows on the disc."""
    if checker.piece is None:
        return None
    return checker.piece.lower() if checker.white else checker.piece


def _checker_svg(checker: Checker, x: float, y: float, side: float) -> str:
    """A checker as the window draws it: a disc with a rim in its side's colours and its number, with the piece
    it stands for faint behind the number when the seat knew it."""
    fill, rim, ink = ("#fbfbf8", "#1b1b1b", "#1b1b1b") if checker.white else ("#303030", "#0c0c0c", "#fafafa")
    middle = side / 2
    cx, cy = _num(x + middle), _num(y + middle)
    parts = [f'<g class="checker" data-checker="{"w" if checker.white else "b"}{checker.number}">',
             f'<circle cx="{cx}" cy="{cy}" r="{_num(side * 0.42)}" fill="{fill}" stroke="{rim}" '
             f'stroke-width="1.6"/>',
             f'<circle cx="{cx}" cy="{cy}" r="{_num(side * 0.34)}" fill="none" stroke="{rim}" stroke-width="0.9" '
             f'stroke-dasharray="2.2 1.6"/>']
    glyph = _checker_glyph(checker)
    if glyph is not None:
        inset = side * 0.125
        parts.append(_glyph_use(glyph, x + inset, y + inset, side * 0.75, ' opacity="0.38"'))
    number = str(checker.number)
    font = side * 0.4
    outline = _text(x + middle, y + middle, number, font, fill)
    parts.append(outline.replace("<text ", f'<text stroke="{fill}" stroke-width="{_num(side * 0.07)}" '
                                 'stroke-linejoin="round" ', 1))
    parts.append(_text(x + middle, y + middle, number, font, ink))
    parts.append("</g>")
    return "".join(parts)


def _glyph_letters(letters: set[str]) -> set[str]:
    """The chess glyphs an image of these piece codes needs in its defs (checkers' faint pieces included)."""
    needed = {letter for letter in letters if letter in chess.svg.PIECES}
    for letter in letters:
        checker = read_checker(letter)
        glyph = _checker_glyph(checker) if checker is not None else None
        if glyph is not None:
            needed.add(glyph)
    return needed


def _card_svg(card: ShownCard, x: float, y: float, width: float, height: float) -> str:
    """A card: its face (rank over suit sign, red or black), or its back (a patterned field) when ``None``."""
    corner = f'x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="3"'
    if card is None:
        return (f'<g class="card-back"><rect {corner} fill="#fafafa" stroke="{_EDGE}"/>'
                f'<rect x="{_num(x + 3)}" y="{_num(y + 3)}" width="{_num(width - 6)}" height="{_num(height - 6)}" '
                f'rx="2" fill="url(#card-back)"/></g>')
    ink = _RED if card.red else _BLACK
    middle = x + width / 2
    return (f'<g class="card" data-card="{card.code}"><rect {corner} fill="{_FACE}" stroke="{_EDGE}"/>'
            + _text(middle, y + height * 0.3, card.rank, _fitted(card.rank, width * 0.8, width * 0.4), ink)
            + _text(middle, y + height * 0.68, _SUIT_SIGNS[card.suit], width * 0.5, ink, weight="normal")
            + "</g>")


def _zone_extent(zone: Zone) -> tuple[float, float]:
    """One item's width and height in squares (a grid's whole table)."""
    if isinstance(zone, (HandZone, CardRowZone, PileZone)):
        return _CARD_W, _CARD_W * _CARD_RATIO
    if isinstance(zone, GridZone):
        return _grid_head(zone) + _GRID_CELL * len(zone.columns), _GRID_CELL * (len(zone.rows) + 1)
    return _TOKEN, _TOKEN


def _grid_head(zone: GridZone) -> float:
    """The width of a grid's row headings in squares, as the window gives it (room for the longest heading)."""
    longest = max((len(heading) for heading in zone.rows), default=0)
    return min(_ROW_HEAD, 0.22 + 0.12 * longest)


def _band_depth(zone: Zone) -> int:
    """How deep the zone's band is across its side of the board, in image units (whole, so that the board's own
    coordinates stay whole numbers)."""
    width, height = _zone_extent(zone)
    label = _LABEL if zone.label else 0.0
    raise_room = _RAISE if isinstance(zone, HandZone) else 0.0
    if zone.place in ("above", "below"):
        depth = 2 * _PAD + label + height + raise_room
    else:
        depth = max(2 * _PAD + width + raise_room, _SIDE_LABEL if zone.label else 0.0)
        # Unlike the window's band, an image's cannot be resized: room for the whole label over the items.
        depth = max(depth, 2 * _PAD + _LABEL_CHAR * len(zone.label) / _SQUARE)
    return math.ceil(depth * _SQUARE)


def _length(zone: Zone) -> float:
    """How long a zone would like to be along its side of the board, in image units (for a shared band)."""
    width, height = (extent * _SQUARE for extent in _zone_extent(zone))
    across = zone.place in ("above", "below")
    label = _LABEL * _SQUARE if zone.label else 0.0
    if isinstance(zone, GridZone):
        return 2 * _PAD * _SQUARE + (max(width, _LABEL_CHAR * len(zone.label)) if across else height + label)
    count = max(1, zone.item_count())
    extent = (width if across else height) * count + _GAP * _SQUARE * (count - 1)
    return max(2 * _PAD * _SQUARE + extent + (0.0 if across else label), _SIDE_LABEL * _SQUARE)


def _shared(group: Sequence[Zone], band: tuple[float, float, float, float]) -> list[tuple[float, float, float,
                                                                                       float]]:
    """A band shared out along the board's edge among the zones standing side by side in it, as the window
    shares it (each as long as it would like, all shortened alike when too long; one zone gets it all)."""
    if len(group) == 1:
        return [band]
    x, y, width, height = band
    across = group[0].place in ("above", "below")
    lengths = [_length(zone) for zone in group]
    scale = min(1.0, (width if across else height) / sum(lengths))
    parts, start = [], x if across else y
    for length in lengths:
        length *= scale
        parts.append((start, y, length, height) if across else (x, start, width, length))
        start += length
    return parts


def _banded(scene: BoardScene) -> list[Zone]:
    """The zones that take a band beside the board (counters stacked on squares are drawn on the board)."""
    return [zone for zone in scene.zones if not isinstance(zone, StackZone)]


def _zone_svg(zone: Zone, band: tuple[float, float, float, float], white_below: bool = True) -> list[str]:
    """A zone drawn in its band ``(x, y, width, height)``: its label, then its items in a row along the band
    (overlapping, as in the window, when there are too many to fit). A grid whose columns go along the board's
    files runs right to left, as the window draws it, when the board is seen from Black's side."""
    bx, by, bw, bh = band
    pad, label = _PAD * _SQUARE, (_LABEL * _SQUARE if zone.label else 0.0)
    parts = [f'<g class="zone {type(zone).__name__}" data-zone="{escape(zone.id, {chr(34): "&quot;"})}">']
    if zone.label:
        parts.append(_text(bx + pad, by + pad + label / 2, zone.label, 11, chess.svg.DEFAULT_COLORS["coord"],
                           anchor="start"))
    x0, y0, inner_w, inner_h = bx + pad, by + pad + label, bw - 2 * pad, bh - 2 * pad - label
    width, height = (extent * _SQUARE for extent in _zone_extent(zone))
    if isinstance(zone, GridZone):
        parts.extend(_grid_zone_svg(zone, x0, y0, mirrored=zone.along_files and not white_below))
        parts.append("</g>")
        return parts
    count = zone.item_count()
    across = zone.place in ("above", "below")
    length, extent = (inner_w, width) if across else (inner_h, height)
    step = extent + _GAP * _SQUARE
    if count > 1 and step * (count - 1) + extent > length:
        step = max(1.0, (length - extent) / (count - 1))
    raise_room = _RAISE * _SQUARE if isinstance(zone, HandZone) else 0.0
    spots = []
    for index in range(count):
        x, y = (x0 + index * step, y0 + raise_room) if across else (x0 + raise_room, y0 + index * step)
        if isinstance(zone, HandZone) and index in zone.selected:  # a chosen card stands out towards the board
            dx, dy = {"above": (0.0, raise_room), "below": (0.0, -raise_room), "left": (raise_room, 0.0),
                      "right": (-raise_room, 0.0)}[zone.place]
            x, y = x + dx, y + dy
        spots.append((x, y))
    if isinstance(zone, (HandZone, CardRowZone)):
        parts.extend(_card_svg(card, x, y, width, height) for card, (x, y) in zip(zone.cards, spots))
    elif isinstance(zone, PileZone):
        parts.extend(_pile_svg(zone, *spots[0], width, height))
    elif isinstance(zone, TrackZone):
        for index, (position, (x, y)) in enumerate(zip(zone.positions, spots)):
            here = index == zone.marker
            fill, stroke = ("#ffe082", "#c49000") if here else (_FACE, _EDGE)
            parts.append(f'<circle class="{"track-marker" if here else "track-position"}" '
                         f'cx="{_num(x + width / 2)}" cy="{_num(y + height / 2)}" r="{_num(width / 2)}" '
                         f'fill="{fill}" stroke="{stroke}" stroke-width="{3 if here else 1}"/>')
            parts.append(_text(x + width / 2, y + height / 2, position, _fitted(position, width * 0.8, 11),
                               _BLACK))
    elif isinstance(zone, TrayZone):
        for letter, (x, y) in zip(zone.pieces, spots):
            # A light tile under each piece: a black glyph would vanish on the image's dark margin.
            parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="4" '
                         f'fill="#e8e8e8"/>')
            parts.append(_piece_svg(letter, x, y, width))
    parts.append("</g>")
    return parts


def _pile_svg(zone: PileZone, x: float, y: float, width: float, height: float) -> list[str]:
    """A pile: its top card (a back when face down), an outline when empty, and its count on a badge."""
    if zone.count == 0:
        parts = [f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="3" '
                 f'fill="none" stroke="{_EDGE}" stroke-dasharray="4 3"/>']
    else:
        parts = [_card_svg(zone.top, x, y, width, height)]
    radius = 9.0
    badge_x, badge_y = x + width - radius + 2, y + height - radius + 2  # on the corner, inside a side band
    parts.append(f'<circle cx="{_num(badge_x)}" cy="{_num(badge_y)}" r="{_num(radius)}" fill="#303030" '
                 f'stroke="#e5e5e5"/>')
    count = _text(badge_x, badge_y, str(zone.count), 10 if zone.count < 100 else 8, "#fff")
    parts.append(f'<g class="pile-count">{count}</g>')
    return parts


_HATCH = ('<pattern id="grid-impossible" width="4" height="4" patternUnits="userSpaceOnUse" '
          'patternTransform="rotate(45)"><rect width="4" height="4" fill="#c9c9c9"/>'
          '<line x1="0" y1="0" x2="0" y2="4" stroke="#8a8a8a" stroke-width="1"/></pattern>')


def _shade_fill(shade: float) -> tuple[str, float]:
    """The tint of a grid cell's chance and its opacity: amber to deep red, deeper and more opaque for a likelier
    cell (the window's heat scale).

    >>> _shade_fill(1.0)
    ('#c62828', 0.64)
    """
    t = math.sqrt(min(1.0, max(0.0, shade)))
    low, high = (0xff, 0xb3, 0x00), (0xc6, 0x28, 0x28)
    red, green, blue = (round(a + (b - a) * t) for a, b in zip(low, high))
    return f"#{red:02x}{green:02x}{blue:02x}", round(0.34 + 0.3 * t, 2)


def _grid_zone_svg(zone: GridZone, x: float, y: float, mirrored: bool = False) -> list[str]:
    """A deduction grid: column headings over a table whose rows start with their heading and hold the marks,
    each cell tinted by what is known of it (greyed and hatched when impossible), with its note under the mark
    and a red outline when its mark is flagged. ``mirrored``: the columns run right to left."""
    cell, head = _GRID_CELL * _SQUARE, _grid_head(zone) * _SQUARE
    coord = chess.svg.DEFAULT_COLORS["coord"]
    last = len(zone.columns) - 1

    def place(column: int) -> int:
        return last - column if mirrored else column
    parts = [_text(x + head + (place(column) + 0.5) * cell, y + cell / 2, name, _fitted(name, cell, 9), coord)
             for column, name in enumerate(zone.columns)]
    for row, name in enumerate(zone.rows):
        top = y + (row + 1) * cell
        parts.append(_text(x + head - 3, top + cell / 2, name, _fitted(name, head, 9), coord, anchor="end"))
        for column, mark in enumerate(zone.marks[row]):
            left = x + head + place(column) * cell
            box = f'x="{_num(left)}" y="{_num(top)}" width="{_num(cell)}" height="{_num(cell)}"'
            shade, note, flag = zone.shade(row, column), zone.note(row, column), zone.flag(row, column)
            fill = "url(#grid-impossible)" if shade == 0.0 else _FACE
            parts.append(f'<rect class="grid-cell{" impossible" if shade == 0.0 else ""}" {box} fill="{fill}" '
                         f'stroke="{_EDGE}"/>')
            if shade is not None and shade > 0:
                tint, opacity = _shade_fill(shade)
                parts.append(f'<rect {box} fill="{tint}" fill-opacity="{_num(opacity)}"/>')
            middle = top + (cell * 0.36 if note else cell / 2)
            if mark:
                parts.append(_text(left + cell / 2, middle, mark, _fitted(mark, cell, 11), _BLACK))
            if note:
                written = _text(left + cell / 2, top + cell * 0.78, note, _fitted(note, cell * 0.95, 6.5), _BLACK,
                                weight="normal")
                parts.append(f'<g class="grid-note">{written}</g>')
            if flag:
                parts.append(f'<rect class="grid-flag" x="{_num(left + 1)}" y="{_num(top + 1)}" '
                             f'width="{_num(cell - 2)}" height="{_num(cell - 2)}" fill="none" stroke="{_RED}" '
                             f'stroke-width="2"><title>{escape(flag)}</title></rect>')
    return parts


def _grid_svg(scene: BoardScene, white_below: bool, size: int) -> str:
    """A board of any files x ranks drawn as ``chess.svg`` draws 8x8 (its colours, square size and pieces), with
    marker labels and stacks on its cells, and the scene's zones in bands beside it."""
    files, ranks = scene.files, scene.ranks
    colors = chess.svg.DEFAULT_COLORS
    bands = _banded(scene)
    groups = zone_bands(scene.zones)
    depth = {side: sum(max(map(_band_depth, group)) for group in groups if group[0].place == side)
             for side in ZONE_PLACES}
    ox, oy = depth["left"], depth["above"]  # where the board (with its coordinate margin) starts
    board_w, board_h = 2 * _MARGIN + files * _SQUARE, 2 * _MARGIN + ranks * _SQUARE
    width, height = ox + board_w + depth["right"], oy + board_h + depth["below"]
    pixels_high = round(size * height / width)
    letters = set(scene.pieces.values()).union(*(zone.pieces for zone in bands if isinstance(zone, TrayZone)))
    defs = "".join(chess.svg.PIECES[letter] for letter in sorted(_glyph_letters(letters)))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             f'viewBox="0 0 {width} {height}" width="{size}" height="{pixels_high}">',
             f"<defs>{defs}{_CARD_BACK if bands else ''}{_HATCH if any(isinstance(z, GridZone) for z in bands) else ''}"
             "</defs>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="{colors["margin"]}"/>']
    lit = set(scene.last_move) if scene.last_move is not None and scene.last_move[0] != scene.last_move[1] \
        else set()
    fills, labels = _fills(scene), _labels(scene)
    stacks = [(stack.colour, cell, count) for stack in scene.zones if isinstance(stack, StackZone)
              for cell, count in stack.stacks]
    corners: dict[Cell, tuple[int, int]] = {}
    for rank in range(ranks):
        for file in range(files):
            column = file if white_below else files - 1 - file
            row = ranks - 1 - rank if white_below else rank
            x, y = ox + _MARGIN + column * _SQUARE, oy + _MARGIN + row * _SQUARE
            corners[file, rank] = x, y
            shade = "light" if (file + rank) % 2 else "dark"
            color = colors[f"square {shade} lastmove" if (file, rank) in lit else f"square {shade}"]
            parts.append(f'<rect x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" fill="{color}"/>')
            if (file, rank) in fills:
                parts.append(f'<rect x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" '
                             f'fill="{fills[file, rank]}"/>')
            letter = scene.pieces.get((file, rank))
            if letter is not None:
                parts.append(_piece_svg(letter, x, y, _SQUARE))
            label = labels.get((file, rank))
            if label is not None:
                # Alone in its cell a label is the cell's content (a placed card); under a piece it sits low.
                font = _fitted(label, _SQUARE * 0.9, 14 if letter is None else 9)
                middle = y + (_SQUARE / 2 if letter is None else _SQUARE - font * 0.6)
                parts.append(f'<g class="marker-label">{_text(x + _SQUARE / 2, middle, label, font, _BLACK)}</g>')
    for colour, cell, count in stacks:  # a stack's height in the top right corner of its cell
        if cell in corners:
            x, y = corners[cell]
            parts.append(f'<g class="stack"><circle cx="{x + _SQUARE - 9}" cy="{y + 9}" r="8" fill="{colour}" '
                         f'stroke="#303030"/>{_text(x + _SQUARE - 9, y + 9, str(count), 10, _BLACK)}</g>')
    text_style = f'fill="{colors["coord"]}" font-family="sans-serif" font-size="11" text-anchor="middle"'
    for index in range(files):
        letter = chr(ord("a") + (index if white_below else files - 1 - index))
        x = ox + _MARGIN + index * _SQUARE + _SQUARE // 2
        parts.append(f'<text x="{x}" y="{oy + _MARGIN - 4}" {text_style}>{letter}</text>')
        parts.append(f'<text x="{x}" y="{oy + board_h - 4}" {text_style}>{letter}</text>')
    for index in range(ranks):
        number = ranks - index if white_below else index + 1
        y = oy + _MARGIN + index * _SQUARE + _SQUARE // 2 + 4
        parts.append(f'<text x="{ox + _MARGIN // 2}" y="{y}" {text_style}>{number}</text>')
        parts.append(f'<text x="{ox + board_w - _MARGIN // 2}" y="{y}" {text_style}>{number}</text>')
    # Bands stand one after another outwards from the board's squares, the first zone of a side nearest.
    reached = {"above": float(oy + _MARGIN), "below": float(oy + _MARGIN + ranks * _SQUARE),
               "left": float(ox + _MARGIN), "right": float(ox + _MARGIN + files * _SQUARE)}
    squares_x, squares_y = ox + _MARGIN, oy + _MARGIN
    for group in groups:
        zone = group[0]
        band_depth = max(map(_band_depth, group))
        if zone.place in ("above", "below"):
            # Past the coordinate margin on that side: the margin's letters stay readable.
            if zone.place == "above":
                top = min(reached["above"], float(oy)) - band_depth
                reached["above"] = top
            else:
                top = max(reached["below"], float(oy + board_h))
                reached["below"] = top + band_depth
            band = (float(squares_x), top, float(files * _SQUARE), float(band_depth))
        else:
            if zone.place == "left":
                left = min(reached["left"], float(ox)) - band_depth
                reached["left"] = left
            else:
                left = max(reached["right"], float(ox + board_w))
                reached["right"] = left + band_depth
            band = (left, float(squares_y), float(band_depth), float(ranks * _SQUARE))
        for member, part in zip(group, _shared(group, band)):
            parts.extend(_zone_svg(member, part, white_below))
    parts.append("</svg>")
    return "".join(parts)


def frame_png(variant: str, frame: Frame, size: int = 480) -> bytes:
    """:func:`frame_svg` rendered to PNG (``size`` pixels wide) with cairosvg."""
    import cairosvg  # 0.4 s and the cairo library: only a PNG needs it, never a command's or window's start
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
