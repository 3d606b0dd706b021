"""Build Sightline's ``.deb`` from a PyInstaller bundle with ``dpkg-deb``.

    python packaging/linux/deb.py --bundle dist/sightline --icons build/icons --out dist

The package installs:

- the bundle under ``/opt/sightline`` and the command ``/usr/bin/sightline`` (a link to its executable);
- ``/usr/share/applications/<APP_ID>.desktop``, ``/usr/share/metainfo/<APP_ID>.metainfo.xml`` and the icon in
  every hicolor size under ``/usr/share/icons/hicolor`` (Debian's triggers refresh the menus and icon caches, so
  the package needs no maintainer scripts);
- ``/usr/share/doc/sightline/copyright``.

Its ``Depends`` are worked out from the bundle itself: every ELF file's ``DT_NEEDED`` libraries that the bundle
does not carry (read with ``readelf``) are looked up in :data:`SONAME_PACKAGES`. A library missing from that
table stops the build with a message naming it, rather than shipping a package that installs but cannot start.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from appinfo import APP_ID, NAME, PACKAGE, ROOT, SUMMARY, version  # noqa: E402

__all__ = ["ALWAYS_DEPENDS", "COMPRESSIONS", "DLOPENED", "DebError", "SONAME_PACKAGES", "build_deb", "depends_for", "glibc_version",
           "needed_libraries", "stage"]

HERE = Path(__file__).resolve().parent
INSTALL_DIR = f"/opt/{PACKAGE}"

_GLIBC = "libc6"
SONAME_PACKAGES: dict[str, str] = {
    # glibc
    "libc.so.6": _GLIBC, "libm.so.6": _GLIBC, "libdl.so.2": _GLIBC, "libpthread.so.0": _GLIBC, "librt.so.1": _GLIBC,
    "libutil.so.1": _GLIBC, "ld-linux-x86-64.so.2": _GLIBC, "ld-linux-aarch64.so.1": _GLIBC,
    "libmvec.so.1": _GLIBC,  # glibc's vector maths, which miniaudio's library (sound) links
    "libcrypt.so.1": "libcrypt1",
    # C++ runtime (Qt, PySide6)
    "libstdc++.so.6": "libstdc++6", "libgcc_s.so.1": "libgcc-s1",
    # What Qt needs from the system: graphics, fonts, D-Bus, GLib's event loop, X11/XCB and keyboard maps.
    # Debian 13 and Ubuntu 24.04 renamed some packages with a t64 suffix; the alternatives cover both.
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libOpenGL.so.0": "libopengl0", "libGLX.so.0": "libglx0",
    "libfontconfig.so.1": "libfontconfig1", "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0t64 | libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0t64 | libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0t64 | libglib2.0-0", "libgio-2.0.so.0": "libglib2.0-0t64 | libglib2.0-0",
    "libX11.so.6": "libx11-6", "libX11-xcb.so.1": "libx11-xcb1", "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-xkb.so.1": "libxcb-xkb1", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-glx.so.0": "libxcb-glx0", "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libz.so.1": "zlib1g", "libzstd.so.1": "libzstd1",
    # Python's extension modules, when the interpreter that built the bundle links them from the system.
    "libssl.so.3": "libssl3t64 | libssl3", "libcrypto.so.3": "libssl3t64 | libssl3", "libffi.so.8": "libffi8",
    "liblzma.so.5": "liblzma5", "libbz2.so.1.0": "libbz2-1.0", "libexpat.so.1": "libexpat1",
    "libuuid.so.1": "libuuid1", "libsqlite3.so.0": "libsqlite3-0", "libmpdec.so.3": "libmpdec3",
    "libreadline.so.8": "libreadline8t64 | libreadline8", "libncursesw.so.6": "libncursesw6",
    "libtinfo.so.6": "libtinfo6",
}
"""A system library (soname) -> the Debian package (or alternatives) that provides it."""

ALWAYS_DEPENDS = ("libegl1", "libgl1", "libfontconfig1", "libdbus-1-3", "libxkbcommon0")
"""Declared even where no ELF file names them: Qt may load them at run time (``dlopen``)."""

DLOPENED: dict[str, tuple[str, ...]] = {
    "_internal/cairocffi": ("libcairo2",),
}
"""A path in the bundle -> packages needed when it is there: libraries Python code loads by name at run time
(cairocffi opens the system's libcairo for cairosvg), which no ELF file names."""

RECOMMENDS = ("fonts-dejavu-core | fonts-freefont-ttf",)
"""Qt draws text with fontconfig's fonts; any system with a desktop has one."""


class DebError(Exception):
    """The package cannot be built (the message says why)."""


def needed_libraries(bundle: Path) -> set[str]:
    """The sonames the bundle's ELF files need that the bundle does not carry itself."""
    carried: set[str] = set()
    needed: set[str] = set()
    for path in _files(bundle):
        carried.add(path.name)
        if path.is_symlink() or not _is_elf(path):
            continue
        try:
            output = subprocess.run(["readelf", "-d", "-W", str(path)], check=True, capture_output=True,
                                    text=True).stdout
        except FileNotFoundError as error:
            raise DebError("readelf is missing: install binutils (apt-get install binutils)") from error
        except subprocess.CalledProcessError as error:
            raise DebError(f"readelf cannot read {path}: {error.stderr.strip()}") from error
        needed.update(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", output))
    return needed - carried


def depends_for(sonames: Iterable[str], glibc: str | None = None, extra: Iterable[str] = ()) -> list[str]:
    """The ``Depends`` entries for these sonames, :data:`ALWAYS_DEPENDS` and the ``extra`` packages, sorted;
    glibc gets a minimum version.

    >>> depends_for(["libc.so.6", "libxcb.so.1", "libssl.so.3"], glibc="2.36")
    ['libc6 (>= 2.36)', 'libdbus-1-3', 'libegl1', 'libfontconfig1', 'libgl1', 'libssl3t64 | libssl3', 'libxcb1', \
'libxkbcommon0']
    >>> try:
    ...     depends_for(["libfoo.so.9"])
    ... except DebError as error:
    ...     print(error)
    the bundle needs libfoo.so.9, which no known Debian package provides: add it to SONAME_PACKAGES in \
packaging/linux/deb.py
    """
    unknown = sorted(name for name in sonames if name not in SONAME_PACKAGES)
    if unknown:
        raise DebError(f"the bundle needs {', '.join(unknown)}, which no known Debian package provides: "
                       "add it to SONAME_PACKAGES in packaging/linux/deb.py")
    packages = {SONAME_PACKAGES[name] for name in sonames} | set(ALWAYS_DEPENDS) | set(extra)
    entries = []
    for package in sorted(packages):
        if package == _GLIBC and glibc:
            # A bundle runs on the glibc it was built against or a newer one, never an older one.
            entries.append(f"{_GLIBC} (>= {glibc})")
        else:
            entries.append(package)
    return entries


def _dlopened(bundle: Path) -> list[str]:
    return [package for marker, packages in DLOPENED.items() if (bundle / marker).exists() for package in packages]


def glibc_version() -> str | None:
    """The build machine's glibc version (``"2.36"``), or None where there is no glibc."""
    name, found = platform.libc_ver()
    return found if name == "glibc" and found else None


def stage(bundle: Path, icons: Path, root: Path, deb_version: str, architecture: str) -> dict[str, str]:
    """Lay out the package's files under ``root`` (emptied first) and write ``DEBIAN/control``.

    Returns the control fields.
    """
    executable = bundle / PACKAGE
    if not executable.is_file() or not os.access(executable, os.X_OK):
        raise DebError(f"{bundle} is not a Sightline bundle (no executable {executable.name}): "
                       "build it first with packaging/build-linux.sh")
    hicolor = icons / "hicolor"
    if not hicolor.is_dir():
        raise DebError(f"no icons under {icons}: run packaging/icons.py first")
    if root.exists():
        shutil.rmtree(root)
    opt = root / INSTALL_DIR.lstrip("/")
    shutil.copytree(bundle, opt, symlinks=True)
    (root / "usr" / "bin").mkdir(parents=True)
    os.symlink(f"{INSTALL_DIR}/{PACKAGE}", root / "usr" / "bin" / PACKAGE)
    share = root / "usr" / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copyfile(HERE / "sightline.desktop", share / "applications" / f"{APP_ID}.desktop")
    (share / "metainfo").mkdir(parents=True)
    shutil.copyfile(HERE / "sightline.metainfo.xml", share / "metainfo" / f"{APP_ID}.metainfo.xml")
    shutil.copytree(hicolor, share / "icons" / "hicolor")
    (share / "doc" / PACKAGE).mkdir(parents=True)
    shutil.copyfile(HERE / "copyright", share / "doc" / PACKAGE / "copyright")
    _normalise_modes(root)

    fields = {
        "Package": PACKAGE,
        "Version": deb_version,
        "Architecture": architecture,
        "Maintainer": "Sightline contributors <sightline@users.noreply.github.com>",
        "Installed-Size": str(_installed_kib(root)),
        "Depends": ", ".join(depends_for(needed_libraries(opt), glibc_version(), _dlopened(opt))),
        "Recommends": ", ".join(RECOMMENDS),
        "Section": "games",
        "Priority": "optional",
        "Description": f"{SUMMARY}\n" + _description(),
    }
    debian = root / "DEBIAN"
    debian.mkdir()
    (debian / "control").write_text("".join(f"{key}: {value}\n" for key, value in fields.items()), encoding="utf-8")
    (debian / "md5sums").write_text(_md5sums(root), encoding="utf-8")
    for path in (debian / "control", debian / "md5sums"):
        path.chmod(0o644)
    return fields


COMPRESSIONS = ("xz", "gzip", "zstd", "none")
"""What dpkg-deb can compress a package with. xz (the default) makes the smallest package that every dpkg reads;
gzip builds in a second instead of half a minute (the packaging test uses it)."""


def build_deb(bundle: Path, icons: Path, out_dir: Path, work: Path, architecture: str | None = None,
              compression: str = "xz") -> Path:
    """Stage the package under ``work`` and build ``out_dir/sightline_<version>_<arch>.deb``; returns its path."""
    if compression not in COMPRESSIONS:
        raise DebError(f"unknown compression {compression!r} (one of {', '.join(COMPRESSIONS)})")
    if shutil.which("dpkg-deb") is None:
        raise DebError("dpkg-deb is missing: build the .deb on Debian or Ubuntu (apt-get install dpkg)")
    arch = architecture or _dpkg_architecture()
    deb_version = version()
    root = work / "root"
    stage(bundle, icons, root, deb_version, arch)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{PACKAGE}_{deb_version}_{arch}.deb"
    # --root-owner-group: every file belongs to root in the package, whoever builds it (no fakeroot needed).
    command = ["dpkg-deb", "--root-owner-group", f"-Z{compression}", "--build", str(root), str(target)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise DebError(f"dpkg-deb failed: {result.stderr.strip() or result.stdout.strip()}")
    shutil.rmtree(root)  # a second copy of the bundle (100 MB): the package holds it now
    return target


def _dpkg_architecture() -> str:
    try:
        return subprocess.run(["dpkg", "--print-architecture"], check=True, capture_output=True,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        raise DebError(f"cannot ask dpkg for the architecture: {error}") from error


def _files(folder: Path) -> Iterable[Path]:
    for directory, _, names in os.walk(folder):
        for name in names:
            yield Path(directory) / name


def _is_elf(path: Path) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(4) == b"\x7fELF"
    except OSError:
        return False


def _normalise_modes(root: Path) -> None:
    """0755 for folders and executables, 0644 for everything else: whatever the build machine's umask was."""
    for directory, folders, names in os.walk(root):
        for folder in folders:
            os.chmod(Path(directory) / folder, 0o755)
        for name in names:
            path = Path(directory) / name
            if path.is_symlink():
                continue
            elf = _is_elf(path)
            # Shared libraries are not programs (Debian policy: 0644); an ELF program or a script is.
            executable = (elf and ".so" not in name) or (not elf and path.stat().st_mode & 0o111)
            path.chmod(0o755 if executable else 0o644)


def _installed_kib(root: Path) -> int:
    total = sum(path.lstat().st_size for path in _files(root))
    return (total + 1023) // 1024


def _md5sums(root: Path) -> str:
    lines = []
    for path in sorted(_files(root)):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("DEBIAN/") or path.is_symlink():
            continue
        lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {relative}\n")
    return "".join(lines)


def _description() -> str:
    text = ("Sightline is a desktop app for chess variants with hidden information: Reconnaissance Blind Chess, "
            "Blind Chess and MinitChess. Each player sees only their own pieces and what the rules reveal. "
            "Play against another person on one computer, with a privacy screen between turns, or against the "
            "built-in bots, with chess clocks. The sightline command also plays bot matches without a window "
            "and converts game records.")
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 78:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join(f" {line}" for line in lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=f"Build the {NAME} .deb from a PyInstaller bundle.")
    parser.add_argument("--bundle", default=str(ROOT / "dist" / PACKAGE))
    parser.add_argument("--icons", default=str(ROOT / "build" / "icons"))
    parser.add_argument("--out", default=str(ROOT / "dist"))
    parser.add_argument("--work", default=str(ROOT / "build" / "deb"))
    parser.add_argument("--architecture", help="default: dpkg --print-architecture")
    parser.add_argument("--compression", default="xz", choices=COMPRESSIONS, help="default xz")
    args = parser.parse_args(argv)
    try:
        target = build_deb(Path(args.bundle), Path(args.icons), Path(args.out), Path(args.work), args.architecture,
                           args.compression)
    except (DebError, OSError) as error:
        print(f"deb: {error}", file=sys.stderr)
        return 1
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
