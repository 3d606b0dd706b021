"""Piece images for the board: python-chess's SVG pieces rendered by QtSvg, cached as pixmaps.

Every image is rendered once per ``(letter, pixel size, device pixel ratio)`` and kept
in a small least-recently-used cache, so that repainting a board only blits
pixmaps and pieces stay crisp at every size and on high-DPI screens. Letters are
the usual FEN letters: uppercase for White (``"K"``, ``"Q"``, ``"R"``, ``"B"``,
``"N"``, ``"P"``), lowercase for Black.

Pixmaps need a :class:`~PySide6.QtGui.QGuiApplication`; the SVG text does not.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRectF
from PySide6.QtGui import QImage, QPainter, QPixmap

if TYPE_CHECKING:
    from PySide6.QtSvg import QSvgRenderer

__all__ = [
    "PIECE_LETTERS",
    "PIECE_SETS",
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

PIECE_LETTERS = "KQRBNPkqrbnp"
"""Every letter :func:`piece_pixmap` accepts."""

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


def _check(letter: str) -> str:
    if len(letter) != 1 or letter not in PIECE_LETTERS:
        raise ValueError(f"not a piece letter: {letter!r} (expected one of {PIECE_LETTERS})")
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
    """
    return _piece_svg(_check(letter), piece_set_name or _set)


@lru_cache(maxsize=None)
def _piece_svg(letter: str, name: str) -> str:
    import chess.svg  # here, not at the top: the window's first frame needs no pieces and starts faster without
    svg = chess.svg.piece(chess.Piece.from_symbol(letter))
    if name == "ivory":
        # Recolour fills only: outlines stay black so the shapes read as well as the original set.
        return (svg.replace("fill:#ffffff", "fill:#f3e6c8").replace("fill:#000000; stroke:#000000",
                                                                    "fill:#5a3a22; stroke:#000000")
                .replace("#ececec", "#f3e6c8"))
    if name == "letters":
        white = letter.isupper()
        fill, ink = ("#fbfbf8", "#1b1b1b") if white else ("#2a2a2a", "#f5f5f0")
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">'
                f'<circle cx="22.5" cy="22.5" r="17" fill="{fill}" stroke="#1b1b1b" stroke-width="1.5"/>'
                f'<text x="22.5" y="23" font-family="sans-serif" font-size="21" font-weight="bold" fill="{ink}" '
                f'text-anchor="middle" dominant-baseline="central">{letter.upper()}</text></svg>')
    return svg


def piece_name(letter: str) -> str:
    """A readable name: ``"white knight"``, ``"black pawn"``.

    >>> piece_name("q")
    'black queen'
    """
    _check(letter)
    return f"{'white' if letter.isupper() else 'black'} {_NAMES[letter.upper()]}"


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
