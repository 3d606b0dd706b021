"""The installers (packaging/): icon files, bundle rules, Linux desktop metadata, the .deb, and (slow) a real build.

The fast tests check each piece on its own in about a second. The slow ones (marked slow) share one real build:
``packaging/build-linux.sh`` run once per test run into ``build/test-package/<key>`` (reused by a later run whose
inputs hash to the same key), the ``.deb`` unpacked into a temporary root and the installed ``sightline`` started
there: ``--check`` offscreen, a bot match, a bot game through worker processes (fork server) inside the frozen
bundle and the compiled inference kernels (compiled, then loaded from numba's cache), then what the bundle holds
and needs. It needs dpkg-deb, binutils and the package registry (for the build venv, reused between runs in
build/venv); the build takes about 90 s with the venv in place, longer without (pip fetches PySide6, numba,
llvmlite).
"""

from __future__ import annotations

import configparser
import doctest
import hashlib
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import ModuleType
from typing import Callable, TypeVar

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def load(relative: str) -> ModuleType:
    """A packaging module by path. ``packaging`` is also PyPA's library, so these modules are never imported by
    package name (and packaging/ has no ``__init__.py`` that would shadow it)."""
    path = PACKAGING / relative
    name = "sightline_packaging_" + path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


icons = load("icons.py")
policy = load("bundle_policy.py")
deb = load("linux/deb.py")
appinfo = load("appinfo.py")


@pytest.mark.parametrize("module", [icons, policy, deb, appinfo], ids=lambda module: module.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# -- the icon ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def icon_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return dict(icons.build(ROOT / "app" / "assets" / "icon.svg", tmp_path_factory.mktemp("icons")))


def test_icon_pngs_cover_every_size_and_are_drawn(icon_files: dict[str, Path]) -> None:
    image_module = pytest.importorskip("PIL.Image")
    for size in icons.PNG_SIZES:
        path = icon_files["png"] / f"sightline-{size}.png"
        image = image_module.open(path).convert("RGBA")
        assert image.size == (size, size)
        # Drawn, not blank: an opaque middle (the eye), transparent corners (the rounded tile), several colours.
        assert image.getpixel((size // 2, size // 2))[3] == 255
        assert image.getpixel((0, 0))[3] < 128
        colours = image.getcolors(maxcolors=size * size)
        assert colours is not None and len(colours) >= (3 if size <= 24 else 20)


def test_ico_holds_every_windows_size(icon_files: dict[str, Path]) -> None:
    data = icon_files["ico"].read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, len(icons.ICO_SIZES))
    sizes = []
    for index in range(count):
        width, height, _, _, planes, bits, length, offset = struct.unpack("<BBBBHHII", data[6 + 16 * index:22 + 16 * index])
        image = data[offset:offset + length]
        assert icons.png_size(image) == (width or 256, height or 256) and planes == 1 and bits == 32
        sizes.append(width or 256)
    assert sizes == list(icons.ICO_SIZES)
    image_module = pytest.importorskip("PIL.Image")
    assert set(image_module.open(icon_files["ico"]).info["sizes"]) == {(n, n) for n in icons.ICO_SIZES}


def test_icns_holds_every_macos_size(icon_files: dict[str, Path]) -> None:
    data = icon_files["icns"].read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    entries, offset = {}, 8
    while offset < len(data):
        kind, length = data[offset:offset + 4].decode(), struct.unpack(">I", data[offset + 4:offset + 8])[0]
        entries[kind] = icons.png_size(data[offset + 8:offset + length])
        offset += length
    assert offset == len(data)
    assert entries == {kind: (size, size) for kind, size in icons.ICNS_TYPES}
    image_module = pytest.importorskip("PIL.Image")
    with image_module.open(icon_files["icns"]) as image:  # Pillow reads it as macOS would: sizes and scales
        assert {(16, 16, 1), (32, 32, 1), (128, 128, 1), (256, 256, 1), (512, 512, 1), (16, 16, 2), (32, 32, 2),
                (128, 128, 2), (256, 256, 2), (512, 512, 2)} <= set(image.info["sizes"])
        image.load()
        assert image.size == (1024, 1024)


def test_hicolor_theme_layout(icon_files: dict[str, Path]) -> None:
    hicolor = icon_files["hicolor"]
    for size in icons.HICOLOR_SIZES:
        assert icons.png_size((hicolor / f"{size}x{size}" / "apps" / f"{appinfo.APP_ID}.png").read_bytes()) == (size, size)
    assert (hicolor / "scalable" / "apps" / f"{appinfo.APP_ID}.svg").read_bytes() == \
        (ROOT / "app" / "assets" / "icon.svg").read_bytes()


def test_a_broken_svg_is_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg", encoding="utf-8")
    assert icons.main(["--svg", str(broken), "--out", str(tmp_path / "out")]) == 1
    assert "cannot make the icons from" in capsys.readouterr().err
    assert icons.main(["--svg", str(tmp_path / "missing.svg"), "--out", str(tmp_path / "out")]) == 1


# -- what the bundle keeps ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("dest", "source", "system", "kept"), [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "/v/PySide6/Qt/plugins/platforms/libqxcb.so", "linux", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", "/v/libqoffscreen.so", "linux", True),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", "/v/libqsvg.so", "linux", True),
    ("PySide6/Qt/plugins/iconengines/libqsvgicon.so", "/v/libqsvgicon.so", "linux", True),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", "/v/libqjpeg.so", "linux", False),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/v/libqgtk3.so", "linux", False),
    ("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so", "/v/libxdg-shell.so", "linux", False),
    ("PySide6/Qt/plugins/tls/libqopensslbackend.so", "/v/libqopensslbackend.so", "linux", False),
    ("PySide6/Qt/lib/libQt6Svg.so.6", "/v/PySide6/Qt/lib/libQt6Svg.so.6", "linux", True),
    ("PySide6/Qt/lib/libQt6WaylandClient.so.6", "/v/PySide6/Qt/lib/libQt6WaylandClient.so.6", "linux", False),
    ("PySide6/Qt/lib/libicudata.so.73", "/v/PySide6/Qt/lib/libicudata.so.73", "linux", True),
    ("libGL.so.1", "/usr/lib/x86_64-linux-gnu/libGL.so.1", "linux", False),
    ("libfontconfig.so.1", "/lib/x86_64-linux-gnu/libfontconfig.so.1", "linux", False),
    ("libpython3.11.so.1.0", "/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0", "linux", True),
    ("pillow.libs/libjpeg-6dc8d115.so.62.4.0", "/v/pillow.libs/libjpeg-6dc8d115.so.62.4.0", "linux", True),
    ("PySide6/Qt/translations/qtbase_fr.qm", "/v/qtbase_fr.qm", "linux", False),
    ("PySide6/plugins/platforms/qwindows.dll", "C:\\v\\PySide6\\plugins\\platforms\\qwindows.dll", "win32", True),
    ("PySide6/plugins/platforms/qdirect2d.dll", "C:\\v\\qdirect2d.dll", "win32", False),
    ("PySide6/plugins/styles/qmodernwindowsstyle.dll", "C:\\v\\qmodernwindowsstyle.dll", "win32", True),
    ("PySide6/Qt6Network.dll", "C:\\v\\PySide6\\Qt6Network.dll", "win32", False),
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", "/v/libqcocoa.dylib", "darwin", True),
    ("PySide6/Qt/lib/QtNetwork.framework/Versions/A/QtNetwork", "/v/PySide6/Qt/lib/QtNetwork", "darwin", False),
    ("PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui", "/v/PySide6/Qt/lib/QtGui", "darwin", True),
])
def test_bundle_policy(dest: str, source: str, system: str, kept: bool) -> None:
    assert policy.keep(dest, source, system) is kept


def test_the_spec_is_valid_python_and_uses_the_policy() -> None:
    text = (PACKAGING / "sightline.spec").read_text(encoding="utf-8")
    compile(text, "sightline.spec", "exec")
    assert "bundle_policy.select(a.binaries" in text and "excludes=bundle_policy.EXCLUDED_MODULES" in text


# -- numba's cache in the frozen app -----------------------------------------------------------------------------

def test_the_launcher_names_the_frozen_cache_locator() -> None:
    pytest.importorskip("numba")
    locators = load("sightline_numba_cache.py").LOCATORS
    launcher = (PACKAGING / "launcher.py").read_text(encoding="utf-8")
    assert '"NUMBA_CACHE_LOCATOR_CLASSES"' in launcher
    assert "".join(part for part in launcher.split('"')[1::2] if "Locator" in part) == locators
    spec = (PACKAGING / "sightline.spec").read_text(encoding="utf-8")
    assert '"sightline_numba_cache"' in spec  # numba imports it by name only: a hidden import


def test_frozen_kernels_are_cached_in_one_folder_whatever_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundle's module has a relative file name (``app/engine/inference_jit.py``); numba's own locators would
    make it absolute against the working directory, and so cache it anew from every folder the app starts in."""
    numba = pytest.importorskip("numba")
    from numba.core import config
    monkeypatch.syspath_prepend(str(PACKAGING))  # numba imports the locator by its name in the bundle
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", load("sightline_numba_cache.py").LOCATORS)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))  # as $NUMBA_CACHE_DIR would
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    paths = []
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        module = ModuleType("fake_kernels")  # as PyInstaller loads a module: its code's file name relative
        monkeypatch.setitem(sys.modules, module.__name__, module)
        exec(compile("def twice(x):\n    return 2 * x\n", "app/fake_kernels.py", "exec"), module.__dict__)
        kernel = numba.njit(cache=True)(module.twice)
        assert kernel(21) == 42
        paths.append(kernel._cache._cache_path)
    assert paths[0] == paths[1] and Path(paths[0]).parent == tmp_path / "cache"
    assert list(Path(paths[0]).glob("fake_kernels.twice-*.nbi"))
    assert kernel.stats.cache_hits  # the second "start" loaded what the first compiled

    frozen_locator = load("sightline_numba_cache.py").FrozenCacheLocator
    assert frozen_locator.from_function(module.twice, str(tmp_path / "elsewhere.py")) is None
    monkeypatch.setattr(sys, "frozen", False)
    assert frozen_locator.from_function(module.twice, "app/fake_kernels.py") is None


# -- Linux desktop metadata ---------------------------------------------------------------------------------------

def test_desktop_entry() -> None:
    entry = configparser.ConfigParser(interpolation=None, strict=True)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    entry.read(PACKAGING / "linux" / "sightline.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application" and section["Exec"] == appinfo.PACKAGE
    assert section["Icon"] == appinfo.APP_ID and section["Terminal"] == "false"
    assert section["Categories"].endswith(";") and "Game" in section["Categories"].split(";")
    validator = shutil.which("desktop-file-validate")
    if validator:
        result = subprocess.run([validator, str(PACKAGING / "linux" / "sightline.desktop")], capture_output=True,
                                text=True)
        assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_metainfo_matches_the_app_and_the_version() -> None:
    path = PACKAGING / "linux" / "sightline.metainfo.xml"
    component = ElementTree.parse(path).getroot()
    assert component.get("type") == "desktop-application"
    assert component.findtext("id") == appinfo.APP_ID
    assert component.findtext("launchable") == f"{appinfo.APP_ID}.desktop"
    assert component.findtext("provides/binary") == appinfo.PACKAGE
    releases = [release.get("version") for release in component.findall("releases/release")]
    assert releases and releases[0] == VERSION, "add a <release> for the version in pyproject.toml"
    validator = shutil.which("appstreamcli")
    if validator:
        result = subprocess.run([validator, "validate", "--no-net", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_other_platforms_carry_the_same_version() -> None:
    inno = (PACKAGING / "windows" / "sightline.iss").read_text(encoding="utf-8")
    assert f'#define AppVersion "{VERSION}"' in inno
    assert appinfo.version() == VERSION


# -- the .deb, from a stand-in bundle ----------------------------------------------------------------------------

def fake_bundle(folder: Path) -> Path:
    bundle = folder / "sightline"
    (bundle / "_internal" / "app").mkdir(parents=True)
    (bundle / "sightline").write_text("#!/bin/sh\necho OK\n", encoding="utf-8")
    (bundle / "sightline").chmod(0o700)
    (bundle / "_internal" / "app" / "data.txt").write_text("x", encoding="utf-8")
    (bundle / "_internal" / "app" / "data.txt").chmod(0o600)
    os.symlink("app/data.txt", bundle / "_internal" / "link.txt")
    return bundle


def test_stage_lays_out_the_package(tmp_path: Path, icon_files: dict[str, Path]) -> None:
    icons_dir = icon_files["png"].parent
    root = tmp_path / "root"
    fields = deb.stage(fake_bundle(tmp_path), icons_dir, root, VERSION, "amd64")
    assert os.readlink(root / "usr" / "bin" / "sightline") == "/opt/sightline/sightline"
    assert (root / "opt" / "sightline" / "sightline").stat().st_mode & 0o777 == 0o755
    assert (root / "opt" / "sightline" / "_internal" / "app" / "data.txt").stat().st_mode & 0o777 == 0o644
    assert (root / "opt" / "sightline" / "_internal" / "link.txt").is_symlink()
    share = root / "usr" / "share"
    for path in (share / "applications" / f"{appinfo.APP_ID}.desktop",
                 share / "metainfo" / f"{appinfo.APP_ID}.metainfo.xml",
                 share / "icons" / "hicolor" / "48x48" / "apps" / f"{appinfo.APP_ID}.png",
                 share / "icons" / "hicolor" / "scalable" / "apps" / f"{appinfo.APP_ID}.svg",
                 share / "doc" / "sightline" / "copyright"):
        assert path.is_file(), path
    control = (root / "DEBIAN" / "control").read_text(encoding="utf-8")
    assert control.startswith("Package: sightline\n") and f"Version: {VERSION}\n" in control
    for package in deb.ALWAYS_DEPENDS:
        assert package in fields["Depends"].split(", ")
    md5sums = (root / "DEBIAN" / "md5sums").read_text(encoding="utf-8")
    assert "  usr/share/doc/sightline/copyright\n" in md5sums and "link.txt" not in md5sums


def test_stage_refuses_a_folder_that_is_no_bundle(tmp_path: Path, icon_files: dict[str, Path]) -> None:
    with pytest.raises(deb.DebError, match="not a Sightline bundle"):
        deb.stage(tmp_path, icon_files["png"].parent, tmp_path / "root", VERSION, "amd64")
    with pytest.raises(deb.DebError, match="no icons"):
        deb.stage(fake_bundle(tmp_path), tmp_path / "nowhere", tmp_path / "root", VERSION, "amd64")


def test_depends_covers_the_t64_renames_and_refuses_unknown_libraries() -> None:
    depends = deb.depends_for(["libglib-2.0.so.0", "libssl.so.3", "libc.so.6"], glibc="2.36")
    assert "libglib2.0-0t64 | libglib2.0-0" in depends and "libc6 (>= 2.36)" in depends
    with pytest.raises(deb.DebError, match="libmystery.so.1"):
        deb.depends_for(["libmystery.so.1"])


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is missing (not Debian or Ubuntu)")
def test_build_deb_from_a_stand_in_bundle(tmp_path: Path, icon_files: dict[str, Path]) -> None:
    target = deb.build_deb(fake_bundle(tmp_path), icon_files["png"].parent, tmp_path / "out", tmp_path / "work",
                           architecture="amd64", compression="gzip")
    assert target.name == f"sightline_{VERSION}_amd64.deb"
    listing = subprocess.run(["dpkg-deb", "-c", str(target)], check=True, capture_output=True, text=True).stdout
    assert "root/root" in listing and "./usr/bin/sightline -> /opt/sightline/sightline" in listing
    assert subprocess.run(["dpkg-deb", "-f", str(target), "Package"], check=True, capture_output=True,
                          text=True).stdout.strip() == "sightline"


# -- the real thing (slow): one build per run, shared by the tests below ----------------------------------------

SLOW_BUILD = [
    pytest.mark.slow,
    pytest.mark.timeout(900),  # the first of these builds (a first run also creates build/venv), the others wait
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the .deb is built on Linux"),
    pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is missing (not Debian or Ubuntu)"),
    pytest.mark.skipif(shutil.which("readelf") is None or shutil.which("objdump") is None,
                       reason="binutils is missing (apt-get install binutils)"),
]
BUILDS = ROOT / "build" / "test-package"
"""Where the tests' build is kept: ``<key>/dist`` for the inputs whose hash is ``key`` (:func:`build_key`)."""
BUILD_INPUTS = ("app", "packaging", "docs/rules", "docs/window.md", "pyproject.toml")
"""What goes into the bundle or decides how it is built (packaging/ holds the spec, build-linux.sh, the pins)."""


def build_key() -> str:
    """A hash of every file the bundle is made from, of the interpreter build-linux.sh picks and of this test
    module's build command: equal keys make equal packages."""
    digest = hashlib.sha256()
    python = os.environ.get("PYTHON") or next(
        (found for name in ("python3.13", "python3.12", "python3.11", "python3") if (found := shutil.which(name))), "")
    digest.update(f"{os.path.realpath(python) if python else ''}\n{BUILD_COMMAND}\n".encode())
    for top in BUILD_INPUTS:
        path = ROOT / top
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts and file.suffix not in (".pyc", ".nbi", ".nbc"):
                digest.update(f"{file.relative_to(ROOT).as_posix()}\0{file.stat().st_mode & 0o111}\0".encode())
                digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()[:16]


# (Uncompressed: packing 300 MiB is the build's slowest step and tells nothing about the package.)
BUILD_COMMAND = "bash packaging/build-linux.sh --compression none --out OUT"


@pytest.fixture(scope="session")
def built_deb() -> Path:
    """The .deb that ``packaging/build-linux.sh`` makes of this checkout, built at most once per run: the pytest
    processes of a run (pytest-xdist) take turns with a lock, and the first builds into ``build/test-package/<key>``
    while the others wait and use it. A later run whose inputs have the same hash uses that build too (an earlier
    key's build is removed); ``SIGHTLINE_REBUILD_PACKAGE=1`` builds anew all the same."""
    import fcntl  # (POSIX only, as the build)

    BUILDS.mkdir(parents=True, exist_ok=True)
    key = build_key()
    out = BUILDS / key / "dist"
    built = BUILDS / key / "built.txt"
    failed = BUILDS / key / "failed.txt"
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid {os.getpid()}")
    with open(BUILDS / "lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if failed.is_file() and failed.read_text(encoding="utf-8").startswith(f"{run}\n"):
            pytest.fail("build-linux.sh failed earlier in this run:\n" + failed.read_text(encoding="utf-8"))
        rebuild = os.environ.get("SIGHTLINE_REBUILD_PACKAGE") and not (
            built.is_file() and built.read_text(encoding="utf-8").startswith(f"{run}\n"))
        if rebuild or not built.is_file():
            for old in BUILDS.iterdir():
                if old.is_dir():
                    shutil.rmtree(old)
            out.mkdir(parents=True)
            command = BUILD_COMMAND.replace("OUT", str(out)).split()
            build = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
            log = build.stdout[-3000:] + build.stderr[-3000:]
            if build.returncode != 0:
                failed.write_text(f"{run}\n{log}", encoding="utf-8")
                pytest.fail(log)
            built.write_text(f"{run}\n{build.stdout}", encoding="utf-8")
    print(built.read_text(encoding="utf-8"))  # the build's sizes and times, for -s
    target = out / f"sightline_{VERSION}_{deb._dpkg_architecture()}.deb"
    assert target.is_file(), sorted(path.name for path in out.iterdir())
    return target


@pytest.fixture(scope="session")
def installed(built_deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .deb unpacked into a scratch root (once per pytest process)."""
    root = tmp_path_factory.mktemp("root")
    subprocess.run(["dpkg-deb", "-x", str(built_deb), str(root)], check=True)
    return root


def installed_app(root: Path) -> Path:
    link = root / "usr" / "bin" / "sightline"
    return root / os.readlink(link).lstrip("/")  # the link is absolute (/opt/...): follow it inside root


OFFSCREEN = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


Test = TypeVar("Test", bound=Callable[..., None])


def slow_build(function: Test) -> Test:
    """The marks of every test of the built package."""
    for mark in reversed(SLOW_BUILD):
        function = mark(function)
    return function


@slow_build
def test_the_deb_installs_the_app_its_menu_entry_and_icons(installed: Path) -> None:
    assert installed_app(installed) == installed / "opt" / "sightline" / "sightline"
    share = installed / "usr" / "share"
    assert (share / "applications" / f"{appinfo.APP_ID}.desktop").is_file()
    assert (share / "metainfo" / f"{appinfo.APP_ID}.metainfo.xml").is_file()
    for size in icons.HICOLOR_SIZES:
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{appinfo.APP_ID}.png").is_file()


@slow_build
def test_the_installed_app_checks_itself_offscreen(installed: Path) -> None:
    check = subprocess.run([str(installed_app(installed)), "--check"], capture_output=True, text=True,
                           env=OFFSCREEN, timeout=120)
    assert check.returncode == 0 and check.stdout.strip().splitlines()[-1] == "OK", check.stdout + check.stderr


@slow_build
def test_the_installed_app_plays_a_bot_match_with_workers(installed: Path, tmp_path: Path) -> None:
    # Bot matches: one worker process per game, started from the bundle's fork server.
    match = subprocess.run([str(installed_app(installed)), "match", "--white", "random", "--black", "attacker",
                            "--games", "2", "--jobs", "2", "--untimed", "--quiet", "--out", str(tmp_path / "records")],
                           capture_output=True, text=True, env=OFFSCREEN, cwd=tmp_path, timeout=300)
    assert match.returncode == 0 and "random vs attacker: 2 games" in match.stdout, match.stdout + match.stderr
    assert len(list((tmp_path / "records").glob("*.json"))) == 2


@slow_build
@pytest.mark.timeout(1500)  # compiling the kernels takes about 30 s on a quiet machine, minutes on a loaded one
def test_the_frozen_bundle_runs_bot_workers_and_compiles_then_loads_the_kernels(installed: Path,
                                                                                 tmp_path: Path) -> None:
    # The window's way: a bot per seat in a BotProcess worker, inside the frozen bundle. Its own cache folder:
    # the first run must compile the inference kernels whatever ran before it.
    env = {**OFFSCREEN, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = (PACKAGING / "frozen_check.py").read_text(encoding="utf-8")
    frozen = subprocess.run([str(installed_app(installed)), "-I", "-B", "-S", "-c", code],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert frozen.returncode == 0 and frozen.stdout.startswith("OK bots: forkserver"), frozen.stdout + frozen.stderr
    # The compiled inference kernels: compiled by that first run, loaded from the cache by the next, started from
    # another folder (the cache must not depend on it).
    assert "kernels: compiled in" in frozen.stdout, frozen.stdout
    (tmp_path / "elsewhere").mkdir()
    again = subprocess.run([str(installed_app(installed)), "-I", "-B", "-S", "-c", code],
                           capture_output=True, text=True, env=env, cwd=tmp_path / "elsewhere", timeout=300)
    assert again.returncode == 0 and "kernels: loaded in" in again.stdout, again.stdout + again.stderr
    print(frozen.stdout, again.stdout)


@slow_build
def test_the_bundle_keeps_our_plugins_and_no_system_library(installed: Path) -> None:
    bundle = installed / "opt" / "sightline" / "_internal"
    plugins = bundle / "PySide6" / "Qt" / "plugins"
    for kept in ("platforms/libqxcb.so", "platforms/libqoffscreen.so", "imageformats/libqsvg.so",
                 "iconengines/libqsvgicon.so"):
        assert (plugins / kept).is_file(), kept
    for dropped in ("platforms/libqwayland.so", "platformthemes/libqgtk3.so", "imageformats/libqjpeg.so", "tls"):
        assert not (plugins / dropped).exists(), dropped
    names = {path.name for path in bundle.rglob("*")}
    for system_library in ("libGL.so.1", "libEGL.so.1", "libxcb.so.1", "libX11.so.6", "libfontconfig.so.1",
                           "libfreetype.so.6", "libglib-2.0.so.0", "libdbus-1.so.3", "libstdc++.so.6"):
        assert system_library not in names, system_library
    assert not list(bundle.rglob("*.qm")), "Qt translations are not used"


@slow_build
def test_every_library_the_bundle_needs_is_a_declared_dependency(installed: Path, built_deb: Path) -> None:
    # Every library the bundle needs and does not carry is a declared dependency, and (where this machine has
    # it installed) the package that really provides it here is the one declared.
    needed = deb.needed_libraries(installed / "opt" / "sightline")
    assert not {name for name in needed if name.startswith(("libQt6", "libicu", "libpyside", "libshiboken"))}
    depends = subprocess.run(["dpkg-deb", "-f", str(built_deb), "Depends"], check=True, capture_output=True,
                             text=True).stdout
    declared = {alternative.split(" (")[0].strip() for entry in depends.split(",") for alternative in entry.split("|")}
    # Which installed package holds each library: one dpkg -S for them all (its lines end with the path found), not
    # one each (a dpkg -S reads the whole package database first: 44 calls took about 5 s).
    owners: dict[str, list[str]] = {}
    if needed:
        found = subprocess.run(["dpkg", "-S", *(f"*/{soname}" for soname in sorted(needed))], capture_output=True,
                               text=True)
        for line in found.stdout.splitlines():
            owners.setdefault(line.rpartition("/")[2], []).append(line)
    for soname in needed:
        alternatives = {name.strip() for name in deb.SONAME_PACKAGES[soname].split("|")}
        assert alternatives <= declared, soname
        if owners.get(soname):
            packages = {line.split(":")[0] for line in owners[soname]}
            assert packages & alternatives, f"{soname} comes from {packages} here, the .deb declares {alternatives}"
