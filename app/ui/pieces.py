"""Piece images for the board: python-chess's SVG pieces rendered by QtSvg, cached as pixmaps.

Every image is rendered once per ``(letter, pixel size, device pixel ratio)`` and kept
in a small least-recently-used cache, so that repainting a board only blits
pixmaps and pieces stay crisp at every size and on high-DPI screens. Letters are
the usual FEN letters: uppercase for White (``"K"``, ``"Q"``, ``"R"``, ``"B"``,
``"N"``, ``"P"``), lowercase for Black; and the scene's checker tokens
(:func:`app.games.scene.checker_token`): a numbered checker standing for a hidden piece, drawn as a disc in its
side's colours (those of the piece set) with its number, and the piece it stands for faint inside when the seat
knows it. The tokens' code is read only when a board first shows one, so the window's start costs nothing more.
``"X"`` and ``"x"`` (:data:`UNKNOWN_LETTERS`) are a white and a black piece of unknown type: a disc in its side's
colours with a question mark.

Pixmaps need a :class:`~PySide6.QtGui.QGuiApplication`; the SVG text does not.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QRectF
from PySide6.QtGui import QImage, QPainter, QPixmap

if TYPE_CHECKING:
    from PySide6.QtSvg import QSvgRenderer

    from app.games.scene import Checker

__all__ = [
    "CHESS_LETTERS",
    "PIECE_LETTERS",
    "PIECE_SETS",
    "UNKNOWN_LETTERS",
    "piece_set",
    "set_piece_set",
    "cache_size",
    "clear_cache",
    "ghost_pixmap",
    "piece_name",
    "piece_pixmap",
    "piece_svg",
    "render_count",
]

CHESS_LETTERS = "KQRBNPkqrbnp"
"""The FEN letters of the chess pieces."""

UNKNOWN_LETTERS = "Xx"
"""A white and a black piece whose type the seat does not know (``app.games.scene.unknown_piece``)."""

# PIECE_LETTERS, every code piece_pixmap accepts (the chess letters, then every checker token), is made by
# __getattr__ below the first time it is asked for: it needs app.games.scene, which the window's first frame
# does without.

_CACHE_LIMIT = 512
"""Pixmaps kept; a board uses 12 letters at one size, so this covers many sizes and ratios."""

_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}

PIECE_SETS = ("cburnett", "ivory", "letters")
"""The piece sets: python-chess's (Colin M.L. Burnett's) pieces, the same recoloured ivory and walnut, and
plain letters in discs (for players who read letters more easily than shapes)."""

_set = "cburnett"

_pixmaps: OrderedDict[tuple[str, int, float, float], QPixmap] = OrderedDict()
_renderers: dict[str, QSvgRenderer] = {}
_renders = 0


def __getattr__(name: str) -> Any:
    if name == "PIECE_LETTERS":
        # The scene's code (40 ms of dataclasses) only once a checker is drawn: not at the window's start
        from app.games.scene import CHECKER_PIECES, MAX_CHECKER, checker_token
        tokens = "".join(checker_token(white, number, piece) for white in (True, False)
                         for number in range(MAX_CHECKER + 1) for piece in (None, *CHECKER_PIECES))
        letters = CHESS_LETTERS + UNKNOWN_LETTERS + tokens
        globals()["PIECE_LETTERS"] = letters  # made once: later look-ups find the module's own attribute
        return letters
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _checker(letter: str) -> Checker | None:
    """The checker a token names (None for a chess letter); imports the scene's code only for a token."""
    if letter in CHESS_LETTERS:
        return None
    from app.games.scene import read_checker  # not at the window's start: see __getattr__
    return read_checker(letter)


def _check(letter: str) -> str:
    if len(letter) != 1 or (letter not in CHESS_LETTERS and letter not in UNKNOWN_LETTERS
                            and _checker(letter) is None):
        raise ValueError(f"not a piece letter: {letter!r} (expected one of {CHESS_LETTERS} or a checker token)")
    return letter


def piece_set() -> str:
    """The piece set in use."""
    return _set


def set_piece_set(name: str) -> None:
    """Use the piece set ``name`` (one of :data:`PIECE_SETS`) everywhere; boards must repaint."""
    global _set
    if name not in PIECE_SETS:
        raise ValueError(f"unknown piece set {name!r} (choose from {', '.join(PIECE_SETS)})")
    if name != _set:
        _set = name
        _pixmaps.clear()
        _renderers.clear()


def piece_svg(letter: str, piece_set_name: str | None = None) -> str:
    """The SVG text of the piece ``letter`` in a piece set (default: the one in use).

    >>> piece_svg("N").startswith("<svg")
    True
    >>> "#f3e6c8" in piece_svg("N", "ivory")
    True
    >>> from app.games.scene import checker_token
    >>> ">3</text>" in piece_svg(checker_token(False, 3, "N"), "letters")
    True
    """
    if _check(letter) in UNKNOWN_LETTERS:
        return _unknown_svg(letter == UNKNOWN_LETTERS[0], piece_set_name or _set)
    return _piece_svg(letter, piece_set_name or _set)


@lru_cache(maxsize=None)
def _piece_svg(letter: str, name: str) -> str:
    checker = _checker(letter)
    if checker is not None:
        return _checker_svg(checker, name)
    import chess.svg  # here, not at the top: the window's first frame needs no pieces and starts faster without
    svg = chess.svg.piece(chess.Piece.from_symbol(letter))
    if name == "ivory":
        return _ivory(svg, letter.isupper())
    if name == "letters":
        white = letter.isupper()
        fill, ink = ("#fbfbf8", "#1b1b1b") if white else ("#2a2a2a", "#f5f5f0")
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">'
                f'<circle cx="22.5" cy="22.5" r="17" fill="{fill}" stroke="#1b1b1b" stroke-width="1.5"/>'
                f'<text x="22.5" y="23" font-family="sans-serif" font-size="21" font-weight="bold" fill="{ink}" '
                f'text-anchor="middle" dominant-baseline="central">{letter.upper()}</text></svg>')
    return svg


_IVORY, _WALNUT = "#f3e6c8", "#5a3a22"


def _ivory(svg: str, white: bool) -> str:
    """A python-chess piece in ivory (White) or walnut (Black). Only fills change, and the light lines drawn on
    Black's pieces: outlines stay black, so the shapes read as well as in the original set. python-chess writes
    colours both as attributes (``fill="#fff"``) and in style text (``fill:#ffffff``, the knights): both are
    recoloured, for every piece.

    >>> all(_ivory(piece_svg(letter, "cburnett"), letter.isupper()) != piece_svg(letter, "cburnett")
    ...     for letter in CHESS_LETTERS)
    True
    """
    if white:
        return svg.replace('fill="#fff"', f'fill="{_IVORY}"').replace("fill:#ffffff", f"fill:{_IVORY}")
    return (svg.replace('fill="#000"', f'fill="{_WALNUT}"').replace("fill:#000000", f"fill:{_WALNUT}")
            .replace('stroke="#fff"', f'stroke="{_IVORY}"').replace("#ececec", _IVORY))


# A checker's colours in each set: (disc, rim and outline, number) for White and for Black; the letters set's
# are its discs' own.
_CHECKER_COLOURS = {
    "cburnett": (("#fbfbf8", "#1b1b1b", "#1b1b1b"), ("#303030", "#0c0c0c", "#fafafa")),
    "letters": (("#fbfbf8", "#1b1b1b", "#1b1b1b"), ("#2a2a2a", "#0c0c0c", "#f5f5f0")),
    "ivory": (("#f3e6c8", "#3b2616", "#3b2616"), ("#5a3a22", "#1e120a", "#f3e6c8")),
}


def _checker_svg(checker: Checker, name: str) -> str:
    """A checker in the set ``name``: a disc with a rim in its side's colours, its number, and the piece it stands
    for (when given) faint behind the number, in the set's own drawing: the number must still be read first,
    the piece is a reminder for the one seat that knows it."""
    disc, rim, ink = _CHECKER_COLOURS.get(name, _CHECKER_COLOURS["cburnett"])[0 if checker.white else 1]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">',
             f'<circle cx="22.5" cy="22.5" r="19" fill="{disc}" stroke="{rim}" stroke-width="1.6"/>',
             f'<circle cx="22.5" cy="22.5" r="15.2" fill="none" stroke="{rim}" stroke-width="0.9" '
             'stroke-dasharray="2.2 1.6"/>']
    if checker.piece is not None:
        if name == "letters":
            # A letter behind a figure would read as a smudge: here it stands small, low and right of it.
            parts.append(f'<text x="31" y="35" font-family="sans-serif" font-size="12" font-weight="bold" '
                         f'fill="{ink}" fill-opacity="0.62" text-anchor="middle">{checker.piece}</text>')
        else:
            # The piece in the colour that stands out on the disc (a black knight on a black disc would vanish).
            contrast = checker.piece if not checker.white else checker.piece.lower()
            glyph = _piece_svg(contrast, name)
            inner = glyph[glyph.index(">") + 1:glyph.rindex("</svg>")]
            parts.append(f'<g opacity="0.5" transform="translate(5.6 5.6) scale(0.75)">{inner}</g>')
    number = str(checker.number)
    # With a letter beside it (the letters set), the number moves a little up and left to make room.
    x, y = ("19.5", "27") if name == "letters" and checker.piece is not None else ("22.5", "29")
    # Drawn twice: a thick outline in the disc's colour first keeps the number readable over the piece.
    for stroke in (f'stroke="{disc}" stroke-width="3.2" stroke-linejoin="round"', ""):
        # (QtSvg places text by its baseline only: 29 puts the figures' middle on the disc's.)
        parts.append(f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="18" font-weight="bold" '
                     f'fill="{ink}" {stroke} text-anchor="middle">{number}</text>')
    parts.append("</svg>")
    return "".join(parts)


def piece_name(letter: str) -> str:
    """A readable name: ``"white knight"``, ``"black pawn"``, ``"white checker 3 (knight)"``.

    >>> piece_name("q")
    'black queen'
    """
    if _check(letter) in UNKNOWN_LETTERS:
        return f"{'white' if letter.isupper() else 'black'} piece of unknown type"
    checker = _checker(letter)
    if checker is not None:
        from app.games.scene import piece_words  # not at the window's start: see __getattr__
        return piece_words(letter)
    return f"{'white' if letter.isupper() else 'black'} {_NAMES[letter.upper()]}"


def _unknown_svg(white: bool, name: str) -> str:
    """A piece of unknown type in the set ``name``: a plain disc in its side's colours (a checker's, without the
    checker's dashed inner ring) with a question mark where a checker has its number."""
    disc, rim, ink = _CHECKER_COLOURS.get(name, _CHECKER_COLOURS["cburnett"])[0 if white else 1]
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">'
            f'<circle cx="22.5" cy="22.5" r="16.5" fill="{disc}" stroke="{rim}" stroke-width="1.8"/>'
            f'<text x="22.5" y="30" font-family="sans-serif" font-size="22" font-weight="bold" fill="{ink}" '
            'text-anchor="middle">?</text></svg>')


def _renderer(letter: str) -> QSvgRenderer:
    renderer = _renderers.get(letter)
    if renderer is None:
        from PySide6.QtSvg import QSvgRenderer  # on first use: the first frame of the window has no pieces
        renderer = QSvgRenderer(QByteArray(piece_svg(letter).encode("utf-8")))  # in the set in use
        if not renderer.isValid():  # pragma: no cover - python-chess always gives valid SVG
            raise RuntimeError(f"QtSvg cannot render the SVG of {letter!r}")
        _renderers[letter] = renderer
    return renderer


def _key(letter: str, size: int, device_pixel_ratio: float, opacity: float) -> tuple[str, int, float, float]:
    return (_check(letter), max(1, int(size)), round(max(0.25, float(device_pixel_ratio)), 3), round(opacity, 3))


def _lookup(key: tuple[str, int, float, float]) -> QPixmap | None:
    pixmap = _pixmaps.get(key)
    if pixmap is not None:
        _pixmaps.move_to_end(key)
    return pixmap


def _store(key: tuple[str, int, float, float], pixmap: QPixmap) -> QPixmap:
    _pixmaps[key] = pixmap
    while len(_pixmaps) > _CACHE_LIMIT:
        _pixmaps.popitem(last=False)
    return pixmap


def _render_image(letter: str, size: int, device_pixel_ratio: float, opacity: float) -> QImage:
    """Renders the SVG into a transparent image of ``size * device_pixel_ratio`` device pixels."""
    global _renders
    _renders += 1
    pixels = max(1, round(size * device_pixel_ratio))
    image = QImage(pixels, pixels, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setOpacity(opacity)
    _renderer(letter).render(painter, QRectF(0, 0, pixels, pixels))
    painter.end()
    image.setDevicePixelRatio(device_pixel_ratio)
    return image


def piece_pixmap(letter: str, size: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """The piece ``letter`` as a square pixmap of ``size`` logical pixels (cached).

    The pixmap holds ``size * device_pixel_ratio`` device pixels and carries the ratio,
    so ``painter.drawPixmap(point, pixmap)`` covers exactly ``size`` logical pixels.
    """
    key = _key(letter, size, device_pixel_ratio, 1.0)
    pixmap = _lookup(key)
    if pixmap is None:
        pixmap = _store(key, QPixmap.fromImage(_render_image(key[0], key[1], key[2], 1.0)))
    return pixmap


def ghost_pixmap(letter: str, size: int, device_pixel_ratio: float = 1.0, opacity: float = 0.45) -> QPixmap:
    """A translucent ("ghost") version of :func:`piece_pixmap`, for hypothesised pieces (cached)."""
    opacity = min(1.0, max(0.0, opacity))
    key = _key(letter, size, device_pixel_ratio, opacity)
    pixmap = _lookup(key)
    if pixmap is None:
        pixmap = _store(key, QPixmap.fromImage(_render_image(key[0], key[1], key[2], opacity)))
    return pixmap


def clear_cache() -> None:
    """Forgets every cached pixmap (the SVG renderers are kept)."""
    _pixmaps.clear()


def cache_size() -> int:
    """How many pixmaps the cache holds."""
    return len(_pixmaps)


def render_count() -> int:
    """How many times an SVG has been rendered since start-up (tests use it to check the cache works)."""
    return _renders
