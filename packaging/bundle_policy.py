"""What goes into Sightline's PyInstaller bundle, and what is left to the user's system.

``sightline.spec`` hands every file PyInstaller's analysis found to :func:`keep`; this module is plain Python
(no PyInstaller import) so that the rules can be tested without building anything.

The rules, and why:

- **Qt plugins**: only those the app uses. The board and pieces are SVG (``imageformats/qsvg``,
  ``iconengines/qsvgicon``); a window needs its platform plugin (``xcb`` on Linux, ``windows``, ``cocoa``) and
  ``--check`` needs ``offscreen``. Keyboard input methods (compose, IBus) and the XDG portal theme are kept
  because text entry and native file dialogs go through them. Everything else (Wayland, EGLFS, VNC, networking,
  TLS, GTK3 theme, image formats we never load) is dropped: each would drag in more Qt libraries and, for the
  GTK3 theme, the whole GTK stack of the build machine. Under Wayland the app runs through XWayland.
- **Qt libraries**: the modules only the dropped plugins needed (Network, Wayland, EGLFS, OpenGL, Quick, Qml,
  PDF, virtual keyboard) are dropped. The slow packaging test checks that every library left in the bundle
  still finds all its dependencies, so a rule that drops too much fails there, not on a user's machine.
- **Qt translations**: dropped; the app installs no Qt translator.
- **System libraries** (Linux): every library PyInstaller copied from the build machine's system directories
  (``/lib``, ``/usr/lib``, ...) is dropped. A user's system provides them, built for its own graphics drivers and
  its own glibc; the ``.deb`` declares them as dependencies (``linux/deb.py``). Python's own ``libpython`` is the
  exception: it belongs to the interpreter that built the bundle.
- **numba** (the compiled inference kernels) and **llvmlite** with its ``libllvmlite`` (LLVM, linked in; the
  largest file of the bundle) are kept whole, except numba's OpenMP and TBB threading layers: they serve only
  ``parallel=True`` kernels and would need the system's ``libgomp`` and a ``libtbb``; and except numba's
  ahead-of-time compiler and its tests, with setuptools, which only they (and cffi's compiler) import.

>>> keep("PySide6/Qt/plugins/platforms/libqxcb.so", "/venv/PySide6/Qt/plugins/platforms/libqxcb.so", "linux")
True
>>> keep("PySide6/Qt/plugins/platforms/libqwayland.so", "/x/libqwayland.so", "linux")
False
>>> keep("libxcb-xkb.so.1", "/lib/x86_64-linux-gnu/libxcb-xkb.so.1", "linux")
False
>>> keep("PySide6/Qt/lib/libQt6Network.so.6", "/venv/PySide6/Qt/lib/libQt6Network.so.6", "linux")
False
>>> keep("libQt6Network.so.6", "/venv/PySide6/Qt/lib/libQt6Network.so.6", "linux")
False
"""

from __future__ import annotations

import posixpath
import re
from typing import Collection, Sequence

__all__ = ["EXCLUDED_MODULES", "KEPT_QT_PLUGINS", "SYSTEM_LIBRARY_DIRS", "keep", "named_modules", "plugin_name",
           "select"]

KEPT_QT_PLUGINS: dict[str, frozenset[str]] = {
    "platforms": frozenset({"qxcb", "qoffscreen", "qwindows", "qcocoa"}),
    "imageformats": frozenset({"qsvg"}),
    "iconengines": frozenset({"qsvgicon"}),
    "platforminputcontexts": frozenset({"composeplatforminputcontextplugin", "ibusplatforminputcontextplugin"}),
    "xcbglintegrations": frozenset({"qxcb-egl-integration", "qxcb-glx-integration"}),
    "platformthemes": frozenset({"qxdgdesktopportal"}),
    "styles": frozenset({"qmodernwindowsstyle", "qwindowsvistastyle", "qmacstyle"}),
}
"""Plugin folder -> plugin names kept (without ``lib`` prefix and file extension). A folder not listed is dropped."""

_DROPPED_QT_LIBRARIES = re.compile(
    r"Qt6?(Network|WaylandClient|WaylandEglClientHwIntegration|WlShellIntegration|EglFSDeviceIntegration|"
    r"EglFsKms\w*|OpenGL\w*|Quick\w*|Qml\w*|Pdf\w*|VirtualKeyboard\w*)\b")
"""Qt libraries that only dropped plugins or unused Python modules need."""

_DROPPED_FILES = frozenset({"opengl32sw.dll"})
"""Windows: Mesa's software OpenGL (20 MB), only for OpenGL widgets on machines without a driver; we have none."""

SYSTEM_LIBRARY_DIRS = ("/lib/", "/lib64/", "/lib32/", "/usr/lib/", "/usr/lib64/", "/usr/lib32/")
"""Where a Linux system keeps the libraries its packages install."""

EXCLUDED_MODULES = [
    # Qt modules the app never imports (the hooks would otherwise pull their libraries and plugins in).
    "PySide6.QtNetwork", "PySide6.QtDBus", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtQml",
    "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtPrintSupport", "PySide6.QtSql", "PySide6.QtTest",
    "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtDesigner",
    # Standard-library parts nothing in the app uses.
    "tkinter", "_tkinter", "test", "lib2to3", "pydoc_data", "idlelib", "ensurepip", "venv",
    # reconchess's replay viewer is a separate script; the library itself never imports pygame.
    "pygame",
    # Pillow comes with cairosvg (PNG export), which needs only its core; these formats carry 6 MB of libraries.
    "PIL._avif", "PIL.AvifImagePlugin", "PIL._webp", "PIL.WebPImagePlugin", "PIL._imagingtk", "PIL.ImageTk",
    # numba's OpenMP and TBB threading layers, only for parallel=True kernels (ours are not): they would need the
    # system's libgomp and a libtbb no Debian package of ours provides. numba falls back to its own workqueue.
    "numba.np.ufunc.omppool", "numba.np.ufunc.tbbpool",
    # numba's ahead-of-time compiler and its own tests (the kernels are compiled at run time), and setuptools with
    # pkg_resources and distutils, which only those and cffi's compiler for out-of-line modules import (cairocffi
    # loads libcairo without one): about 230 modules PyInstaller no longer reads, an eighth of the build's time.
    # (numba.cuda stays: numba's core needs the extension module it brings, numba._devicearray.)
    "numba.pycc", "numba.tests", "setuptools", "pkg_resources", "distutils",
]
"""Python modules PyInstaller must not follow."""


def plugin_name(filename: str) -> str:
    """A Qt plugin's name from its file name, the same on every platform.

    >>> plugin_name("libqxcb.so"), plugin_name("qwindows.dll"), plugin_name("libqcocoa.dylib")
    ('qxcb', 'qwindows', 'qcocoa')
    """
    stem = re.sub(r"\.(so|dll|dylib)$", "", filename)
    return stem[3:] if stem.startswith("lib") else stem


def keep(dest: str, source: str, system: str) -> bool:
    """Whether the file PyInstaller would put at ``dest`` (path inside the bundle, from ``source`` on the build
    machine) belongs in the bundle. ``system`` is ``sys.platform``-like: ``"linux"``, ``"win32"``,
    ``"darwin"``.

    >>> keep("PySide6/Qt/translations/qtbase_de.qm", "/venv/.../qtbase_de.qm", "linux")
    False
    >>> keep("libpython3.11.so.1.0", "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0", "linux")
    True
    """
    path = dest.replace("\\", "/")
    parts = path.split("/")
    if "translations" in parts and parts[:2] == ["PySide6", "Qt"]:
        return False
    if "plugins" in parts:
        index = parts.index("plugins")
        # PySide6/Qt/plugins/... on Linux and macOS, PySide6/plugins/... on Windows.
        if index >= 1 and parts[index - 1] in ("Qt", "PySide6") and len(parts) > index + 2:
            folder, filename = parts[index + 1], parts[-1]
            return plugin_name(filename) in KEPT_QT_PLUGINS.get(folder, frozenset())
    from_pyside = path.startswith("PySide6/") or "/PySide6/" in source.replace("\\", "/")
    if from_pyside and (_DROPPED_QT_LIBRARIES.search(parts[-1]) or parts[-1].lower() in _DROPPED_FILES):
        return False  # also PyInstaller's top-level links to them (``_internal/libQt6Network.so.6``)
    if system.startswith("linux"):
        name = parts[-1]
        if name.startswith("libpython"):
            return True
        if source.replace("\\", "/").startswith(SYSTEM_LIBRARY_DIRS) and ".so" in name:
            return False
    return True


Entry = tuple[str, str, str]
"""A PyInstaller TOC entry: (path in the bundle, source on the build machine, kind)."""


def select(entries: Sequence[Entry], system: str) -> tuple[list[Entry], list[Entry]]:
    """Split a TOC into the entries kept and those dropped, by :func:`keep`.

    A ``SYMLINK`` entry (PyInstaller links ``_internal/libQt6Core.so.6`` to the copy under ``PySide6/``; its
    source is the link's relative target) is kept only when its target is kept, so that no link is left
    dangling.

    >>> kept, dropped = select([
    ...     ("PySide6/Qt/lib/libQt6Core.so.6", "/venv/PySide6/Qt/lib/libQt6Core.so.6", "BINARY"),
    ...     ("PySide6/Qt/lib/libQt6Network.so.6", "/venv/PySide6/Qt/lib/libQt6Network.so.6", "BINARY"),
    ...     ("libQt6Core.so.6", "PySide6/Qt/lib/libQt6Core.so.6", "SYMLINK"),
    ...     ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK")], "linux")
    >>> [dest for dest, _, _ in kept]
    ['PySide6/Qt/lib/libQt6Core.so.6', 'libQt6Core.so.6']
    """
    kept: list[Entry] = []
    dropped: list[Entry] = []
    for entry in entries:
        dest, source, kind = entry
        if kind != "SYMLINK":
            (kept if keep(dest, source, system) else dropped).append(entry)
    kept_paths = {dest.replace("\\", "/") for dest, _, _ in kept}
    for entry in entries:
        dest, source, kind = entry
        if kind == "SYMLINK":
            folder = posixpath.dirname(dest.replace("\\", "/"))
            target = posixpath.normpath(posixpath.join(folder, source.replace("\\", "/")))
            (kept if target in kept_paths else dropped).append(entry)
    return kept, dropped


def strippable(dest: str, kind: str, system: str, vendoring: Collection[str] = ()) -> bool:
    """Whether a binary may have its symbol tables stripped in the bundle (Linux only).

    Not the libraries a wheel vendors in a ``<package>.libs`` folder (``numpy.libs/libscipy_openblas64_...so``),
    nor that package's own extension modules (``vendoring`` names those packages, see :func:`vendoring_packages`):
    auditwheel rewrote their headers with patchelf, and ``strip`` can then leave them unloadable ("ELF load command
    address/offset not page-aligned").

    >>> strippable("libpython3.11.so.1.0", "BINARY", "linux"), strippable("PySide6/QtCore.abi3.so", "EXTENSION", "linux")
    (True, True)
    >>> strippable("numpy.libs/libscipy_openblas64_-32a4b2a6.so", "BINARY", "linux")
    False
    >>> strippable("numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so", "EXTENSION", "linux", {"numpy"})
    False
    >>> strippable("libpython3.11.dylib", "BINARY", "darwin"), strippable("libQt6Core.so.6", "SYMLINK", "linux")
    (False, False)
    """
    if not system.startswith("linux") or kind not in ("BINARY", "EXTENSION"):
        return False
    folders = dest.replace("\\", "/").split("/")[:-1]
    if any(folder.endswith(".libs") for folder in folders):
        return False
    return not (folders and folders[0] in vendoring)


def vendoring_packages(entries: Sequence[Entry]) -> frozenset[str]:
    """The top-level packages whose wheels vendor libraries in a ``<package>.libs`` folder of the bundle.

    >>> sorted(vendoring_packages([("numpy.libs/libgfortran.so.5", "/v/x", "BINARY"), ("chess/__init__.py", "/v/y", "DATA")]))
    ['numpy']
    """
    found = set()
    for dest, _, _ in entries:
        top = dest.replace("\\", "/").split("/")[0]
        if top.endswith(".libs") and "/" in dest.replace("\\", "/"):
            found.add(top[:-len(".libs")])
    return frozenset(found)


def named_modules() -> list[str]:
    """The modules the games registry names by string (every game package, and each definition's lazy
    references and preloads: referees, bots, presenters, formats ...), which no import statement reaches: the
    spec hands them to PyInstaller as hidden imports, so that the list is made from the references themselves
    rather than written out again. Reads the registry's plain data; imports no referee.

    >>> modules = named_modules()
    >>> "app.games.rbc.rules" in modules and "app.games.cloak.bots" in modules
    True
    """
    from app import games  # the app's folder is on the path when the spec or a test calls this
    found = set(games.ENTRIES)
    for definition in games.all():
        found.update(lazy.module for lazy in definition.lazies())
        found.update(definition.preload)
    return sorted(found)
