"""Rasterise the app icon (``app/assets/icon.svg``) for every platform.

    python packaging/icons.py [--svg app/assets/icon.svg] [--out build/icons]

writes, under ``--out``:

- ``png/sightline-N.png`` for N in :data:`PNG_SIZES` (16 to 1024 pixels), rendered by cairosvg;
- ``hicolor/NxN/apps/<APP_ID>.png`` and ``hicolor/scalable/apps/<APP_ID>.svg`` (the freedesktop icon theme
  layout the ``.deb`` installs under ``/usr/share/icons``);
- ``sightline.ico`` (Windows: 16 to 256 pixels) and ``sightline.icns`` (macOS: 16 to 1024 pixels, Retina
  variants included).

Both containers hold PNG images, which every Windows since Vista and every macOS since 10.7 reads, so they are
written here directly (a few lines each) instead of needing Pillow or Apple's ``iconutil``.
"""

from __future__ import annotations

import argparse
import shutil
import struct
import sys
from pathlib import Path
from typing import Mapping, Sequence

try:
    from appinfo import APP_ID, ROOT
except ImportError:  # imported by path from a test, not as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from appinfo import APP_ID, ROOT

__all__ = ["APP_ID", "HICOLOR_SIZES", "ICNS_TYPES", "ICO_SIZES", "PNG_SIZES", "build", "icns_bytes", "ico_bytes",
           "png_size", "render_pngs"]

PNG_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512, 1024)
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512),
              ("ic10", 1024), ("ic11", 32), ("ic12", 64), ("ic13", 256), ("ic14", 512))
"""ICNS entry types and their pixel sizes (ic11 to ic14 and ic10 are the @2x Retina variants)."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG image, read from its header.

    >>> png_size(_PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 48, 32) + bytes(5))
    (48, 32)
    >>> png_size(b"GIF89a")
    Traceback (most recent call last):
    ...
    ValueError: not a PNG image
    """
    if len(data) < 24 or not data.startswith(_PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def render_pngs(svg: Path, sizes: Sequence[int] = PNG_SIZES) -> dict[int, bytes]:
    """The SVG rendered as square PNGs, one per size."""
    import cairosvg  # only the build needs it

    source = svg.read_bytes()
    images: dict[int, bytes] = {}
    for size in sizes:
        data = cairosvg.svg2png(bytestring=source, output_width=size, output_height=size)
        if not isinstance(data, bytes) or png_size(data) != (size, size):
            raise ValueError(f"cairosvg did not render {svg} at {size}x{size}")
        images[size] = data
    return images


def ico_bytes(pngs: Mapping[int, bytes], sizes: Sequence[int] = ICO_SIZES) -> bytes:
    """A Windows .ico holding the PNG images of ``sizes`` (each at most 256 pixels).

    The layout: a 6-byte header (reserved 0, type 1 = icon, image count), one 16-byte directory entry per image
    (width and height, 0 meaning 256; no palette; 1 plane; 32 bits per pixel; data size; data offset), then the
    PNG files themselves.

    >>> fake = {n: _PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", n, n) + bytes(5) for n in (16, 256)}
    >>> data = ico_bytes(fake, (16, 256))
    >>> struct.unpack("<HHH", data[:6])
    (0, 1, 2)
    >>> data[6], data[22]  # widths of the two entries: 16, and 0 for 256
    (16, 0)
    """
    count = len(sizes)
    header = struct.pack("<HHH", 0, 1, count)
    directory = b""
    body = b""
    offset = 6 + 16 * count
    for size in sizes:
        image = pngs[size]
        if png_size(image) != (size, size) or size > 256:
            raise ValueError(f"an ICO entry must be a square PNG of at most 256 pixels, not {png_size(image)}")
        side = 0 if size == 256 else size
        directory += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(image), offset + len(body))
        body += image
    return header + directory + body


def icns_bytes(pngs: Mapping[int, bytes], types: Sequence[tuple[str, int]] = ICNS_TYPES) -> bytes:
    """A macOS .icns holding PNG images: the magic ``icns`` and the file's length, then for each image its
    four-letter type, its length (8 + data) and the PNG data; every integer big-endian.

    >>> fake = {n: _PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", n, n) + bytes(5) for n in (16, 32)}
    >>> data = icns_bytes(fake, (("icp4", 16), ("icp5", 32)))
    >>> data[:4], struct.unpack(">I", data[4:8])[0] == len(data), data[8:12]
    (b'icns', True, b'icp4')
    """
    body = b""
    for kind, size in types:
        image = pngs[size]
        if png_size(image) != (size, size):
            raise ValueError(f"the {kind} entry must be {size}x{size}, not {png_size(image)}")
        body += kind.encode("ascii") + struct.pack(">I", 8 + len(image)) + image
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def build(svg: Path | str, out: Path | str) -> dict[str, Path]:
    """Write every icon file under ``out`` (see the module's documentation); returns the main paths."""
    svg, out = Path(svg), Path(out)
    pngs = render_pngs(svg)
    (out / "png").mkdir(parents=True, exist_ok=True)
    for size, data in pngs.items():
        (out / "png" / f"sightline-{size}.png").write_bytes(data)
    for size in HICOLOR_SIZES:
        folder = out / "hicolor" / f"{size}x{size}" / "apps"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{APP_ID}.png").write_bytes(pngs[size])
    scalable = out / "hicolor" / "scalable" / "apps"
    scalable.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable / f"{APP_ID}.svg")
    (out / "sightline.ico").write_bytes(ico_bytes(pngs))
    (out / "sightline.icns").write_bytes(icns_bytes(pngs))
    return {"png": out / "png", "hicolor": out / "hicolor", "ico": out / "sightline.ico",
            "icns": out / "sightline.icns"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rasterise Sightline's icon for every platform.")
    parser.add_argument("--svg", default=str(ROOT / "app" / "assets" / "icon.svg"))
    parser.add_argument("--out", default=str(ROOT / "build" / "icons"))
    args = parser.parse_args(argv)
    try:
        paths = build(args.svg, args.out)
    except Exception as error:  # noqa: BLE001 - cairosvg raises many kinds on a broken SVG: report, not crash
        print(f"icons: cannot make the icons from {args.svg}: {error}", file=sys.stderr)
        return 1
    print(f"icons written to {args.out} ({paths['ico'].name}, {paths['icns'].name}, "
          f"{len(PNG_SIZES)} PNG sizes, hicolor theme)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
