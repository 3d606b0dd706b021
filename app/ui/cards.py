"""Card images: Sightline's own card faces and back, written as SVG here and rendered by QtSvg, cached as pixmaps.

A face shows its rank and suit in two corners and a large suit sign (a framed rank letter for J, Q and K) in the
middle; red suits are hearts and diamonds. The suit signs are paths, not text, so they look the same whatever
fonts a machine has. Like :mod:`app.ui.pieces`, a card is rendered once per size and kept.

>>> 'viewBox="0 0 90 126"' in face_svg("10", "H") and "<path" in back_svg()
True
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPixmap

if TYPE_CHECKING:
    from PySide6.QtSvg import QSvgRenderer

__all__ = ["CARD_RATIO", "back_svg", "card_pixmap", "face_svg", "render_count"]

CARD_RATIO = 126 / 90
"""Height over width of a card (a poker card's 3.5 by 2.5 inches)."""

_WIDTH, _HEIGHT = 90, 126
_RED, _BLACK = "#c62828", "#1b1b1b"

# Each suit sign drawn in a 100 x 100 box.
_SUIT_PATHS = {
    "H": "M50 92 C22 68 4 50 4 30 C4 14 16 4 29 4 C39 4 46 10 50 19 C54 10 61 4 71 4 C84 4 96 14 96 30"
         " C96 50 78 68 50 92 Z",
    "D": "M50 3 L86 50 L50 97 L14 50 Z",
    "S": "M50 4 C78 30 96 46 96 62 C96 76 85 84 73 84 C63 84 56 79 53 73 L60 96 L40 96 L47 73"
         " C44 79 37 84 27 84 C15 84 4 76 4 62 C4 46 22 30 50 4 Z",
    "C": "M50 8 A21 21 0 1 1 49.9 8 Z M26 40 A21 21 0 1 1 25.9 40 Z M74 40 A21 21 0 1 1 73.9 40 Z"
         " M45 55 L38 96 L62 96 L55 55 Z",
}


def _suit(suit: str, x: float, y: float, size: float, colour: str) -> str:
    """A suit sign ``size`` wide with its top-left corner at (x, y)."""
    scale = size / 100
    return (f'<path transform="translate({x:.2f} {y:.2f}) scale({scale:.4f})" fill="{colour}" '
            f'd="{_SUIT_PATHS[suit]}"/>')


@lru_cache(maxsize=None)
def face_svg(rank: str, suit: str) -> str:
    """The SVG of the face of the card ``rank`` of ``suit`` (see :class:`app.games.scene.Card`)."""
    if suit not in _SUIT_PATHS:
        raise ValueError(f"unknown suit {suit!r}")
    colour = _RED if suit in ("H", "D") else _BLACK
    # Two-character ranks (10) get a narrower corner font so they stay inside the corner.
    corner = 17 if len(rank) > 1 else 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" '
        f'height="{_HEIGHT}">',
        f'<rect x="1.5" y="1.5" width="{_WIDTH - 3}" height="{_HEIGHT - 3}" rx="8" fill="#fffdf7" '
        'stroke="#6d6d6d" stroke-width="2"/>',
        f'<text x="15" y="24" font-family="sans-serif" font-weight="bold" font-size="{corner}" fill="{colour}" '
        f'text-anchor="middle">{rank}</text>',
        _suit(suit, 7, 29, 16, colour),
        # The opposite corner, turned round, as on a real card: readable from either side of the table.
        f'<g transform="rotate(180 {_WIDTH / 2} {_HEIGHT / 2})">',
        f'<text x="15" y="24" font-family="sans-serif" font-weight="bold" font-size="{corner}" fill="{colour}" '
        f'text-anchor="middle">{rank}</text>',
        _suit(suit, 7, 29, 16, colour),
        "</g>",
    ]
    if rank in ("J", "Q", "K"):
        parts += [
            f'<rect x="24" y="28" width="42" height="70" rx="4" fill="none" stroke="{colour}" stroke-width="2"/>',
            f'<text x="45" y="70" font-family="serif" font-weight="bold" font-size="34" fill="{colour}" '
            f'text-anchor="middle">{rank}</text>',
            _suit(suit, 36, 76, 18, colour),
        ]
    else:
        parts.append(_suit(suit, 21, 39, 48, colour))
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=None)
def back_svg() -> str:
    """The SVG of a card's back: a blue field of crossed lines in a white border, the same turned either way."""
    # A lattice of small diamonds, each wholly inside the field (QtSvg draws no clip paths in every version).
    diamonds = []
    for row in range(12):
        for column in range(8):
            x, y = 13 + column * 9 + (4.5 if row % 2 else 0), 13 + row * 9.2
            if x + 3.5 <= _WIDTH - 10:
                diamonds.append(f"M{x:.1f} {y - 3.5:.1f} L{x + 3.5:.1f} {y:.1f} L{x:.1f} {y + 3.5:.1f} "
                                f"L{x - 3.5:.1f} {y:.1f} Z")
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" '
        f'height="{_HEIGHT}">',
        f'<rect x="1.5" y="1.5" width="{_WIDTH - 3}" height="{_HEIGHT - 3}" rx="8" fill="#fafafa" '
        'stroke="#6d6d6d" stroke-width="2"/>',
        f'<rect x="8" y="8" width="{_WIDTH - 16}" height="{_HEIGHT - 16}" rx="4" fill="#1f4e9c" stroke="#0d2d63" '
        'stroke-width="2"/>',
        f'<path fill="#6f9be0" d="{" ".join(diamonds)}"/>',
        "</svg>",
    ])


_renderers: dict[str, QSvgRenderer] = {}
_cache: OrderedDict[tuple[str, int, float], QPixmap] = OrderedDict()
_CACHE_SIZE = 256  # a few hands' worth at two sizes
_renders = 0


def _renderer(code: str) -> QSvgRenderer:
    renderer = _renderers.get(code)
    if renderer is None:
        from PySide6.QtSvg import QSvgRenderer  # on first use: a chess game never needs it
        svg = back_svg() if code == "back" else face_svg(code[:-1], code[-1])
        renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
        if not renderer.isValid():
            raise RuntimeError(f"QtSvg cannot render the card {code!r}")
        _renderers[code] = renderer
    return renderer


def card_pixmap(code: str | None, width: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """The card ``code`` (``"10H"``; ``None`` for the back) ``width`` logical pixels wide (cached)."""
    global _renders
    name = code or "back"
    key = (name, width, round(device_pixel_ratio, 3))
    pixmap = _cache.get(key)
    if pixmap is not None:
        _cache.move_to_end(key)
        return pixmap
    height = round(width * CARD_RATIO)
    image = QImage(max(1, round(width * device_pixel_ratio)), max(1, round(height * device_pixel_ratio)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    _renderer(name).render(painter, QRectF(0, 0, image.width(), image.height()))
    painter.end()
    _renders += 1
    image.setDevicePixelRatio(device_pixel_ratio)
    pixmap = QPixmap.fromImage(image)
    _cache[key] = pixmap
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return pixmap


def render_count() -> int:
    """How many card images have been rendered since start-up (tests check the cache with it)."""
    return _renders
