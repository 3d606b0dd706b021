#!/usr/bin/env bash
# Set up (or reuse) the local virtual environment, then start Sightline or run the test suite.
#   scripts/dev.sh run [ARGS...]   start the app (ARGS go to the `sightline` command)
#   scripts/dev.sh test [ARGS...]  run the whole test suite (ARGS go to pytest)
#   scripts/dev.sh test --quick [ARGS...]  the quick tier: all but the tests marked slow (pytest -m "not slow")
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"; shift || true
venv=.venv

say() { printf 'sightline: %s\n' "$*" >&2; }
is_root() { [ "$(id -u)" = 0 ]; }
apt_install() {
    # Installs Debian packages when we are root; otherwise says exactly what to run.
    if is_root && command -v apt-get >/dev/null 2>&1; then
        say "installing Debian packages: $*"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null
    else
        say "missing system packages. Install them with:"
        say "    sudo apt-get install $*"
        exit 1
    fi
}

# 1. A Python 3.11 or newer.
python=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        python="$candidate"; break
    fi
done
[ -n "$python" ] || { say "Sightline needs Python 3.11 or newer (python3 --version)"; exit 1; }

# 2. The virtual environment (Debian ships venv separately).
if [ ! -x "$venv/bin/python" ]; then
    existed=no; [ -e "$venv" ] && existed=yes
    if ! "$python" -m venv "$venv" 2>/dev/null; then
        # Clear only a half-made environment of our own, never one that was there (perhaps another user's).
        [ "$existed" = yes ] || rm -rf "$venv"
        version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
        apt_install "python${version}-venv"
        "$python" -m venv "$venv"
    fi
fi

# 3. Python packages, reinstalled only when pyproject.toml changes.
stamp="$venv/.sightline-installed"
want=$(sha256sum pyproject.toml | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing Python packages into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
    # --no-compile: compiling every installed module's bytecode took 11 of the install's 21 s of processor time;
    # Python compiles (and keeps) those a run imports, about 2 s for everything the test suite uses.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile -e ".[test]"
    echo "$want" > "$stamp"
fi

# 4. The system libraries Qt needs, even offscreen (all that `test` needs: CI installs nothing more).
qt_libs() {
    local missing=()
    local pairs=(
        "libglib-2.0.so.0:libglib2.0-0" "libEGL.so.1:libegl1" "libGL.so.1:libgl1"
        "libxkbcommon.so.0:libxkbcommon0" "libfontconfig.so.1:libfontconfig1" "libfreetype.so.6:libfreetype6"
        "libdbus-1.so.3:libdbus-1-3" "libX11.so.6:libx11-6" "libxcb.so.1:libxcb1"
    )
    if command -v ldconfig >/dev/null 2>&1; then
        local cache; cache=$(ldconfig -p 2>/dev/null || /sbin/ldconfig -p)
        for pair in "${pairs[@]}"; do
            grep -q "${pair%%:*}" <<<"$cache" || missing+=("${pair##*:}")
        done
    fi
    if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

# 5. What a window needs on top: a display, and the libraries of Qt's X11 platform plugin (xcb). Without them
#    Qt aborts with a message that names xcb-cursor0 whatever is actually missing.
xcb_package() {
    # The Debian/Ubuntu package of a library the xcb plugin loads (found with ldd on the plugin).
    case "$1" in
        libxcb.so.1) echo libxcb1 ;;
        libX11-xcb.so.1) echo libx11-xcb1 ;;
        libxkbcommon.so.0) echo libxkbcommon0 ;;
        libxkbcommon-x11.so.0) echo libxkbcommon-x11-0 ;;
        libxcb-*.so.*)  # libxcb-render-util.so.0 -> libxcb-render-util0
            local base="${1%%.so.*}" version="${1##*.so.}"; echo "${base}${version}" ;;
        *) echo "" ;;
    esac
}
window_libs() {
    local plugin="" candidates=()
    # A glob, not ls: under pipefail a failing ls would end the script here, silently.
    shopt -s nullglob
    candidates=("$venv"/lib/python3*/site-packages/PySide6/Qt/plugins/platforms/libqxcb.so)
    shopt -u nullglob
    if [ ${#candidates[@]} -gt 0 ]; then plugin="${candidates[0]}"; fi
    if [ -z "$plugin" ] || ! command -v ldd >/dev/null 2>&1; then return 0; fi
    local missing=() unknown=() lib package
    # ldd lists every library the plugin needs, its dependencies' included, and says which are not found.
    while read -r lib; do
        package=$(xcb_package "$lib")
        if [ -n "$package" ]; then missing+=("$package"); else unknown+=("$lib"); fi
    done < <(ldd "$plugin" 2>/dev/null | awk '/not found/ {print $1}' | sort -u)
    if [ ${#unknown[@]} -gt 0 ]; then
        say "Qt's X11 plugin also needs ${unknown[*]}: install the packages that provide them"
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
        apt_install "${missing[@]}"
    fi
}
needs_window() {
    # The subcommands that work without a window, and an explicitly windowless Qt platform, need no display.
    case "${1:-}" in match|export|import|perft|-h|--help) return 1 ;; esac
    case "${QT_QPA_PLATFORM:-}" in offscreen*|minimal*|vnc*) return 1 ;; esac
    return 0
}

case "$mode" in
    run)
        qt_libs
        if needs_window "$@"; then
            if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
                say "there is no display (DISPLAY and WAYLAND_DISPLAY are not set), so no window can open."
                say "Run this from a desktop session; to check the installation without one:"
                say "    QT_QPA_PLATFORM=offscreen scripts/dev.sh run --check"
                exit 1
            fi
            window_libs
        fi
        exec "$venv/bin/sightline" "$@"
        ;;
    test)
        qt_libs
        # CI also plays reconchess's TroutBot, which needs Stockfish (the test skips without it).
        if [ "${CI:-}" = true ] && is_root && ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ]; then
            apt_install stockfish || say "could not install stockfish; the TroutBot test will be skipped"
        fi
        export QT_QPA_PLATFORM=offscreen
        # One test process per core (pytest-xdist; the slow packaging build then runs beside the rest). Pass -n 0
        # (or any -n) to choose otherwise. The slow tests start first, longest first (tests/conftest.py), and an
        # idle process takes work from a busy one (worksteal), so no long test starts last.
        parallel=(-n auto --dist worksteal)
        tier=()
        arguments=()
        for argument in "$@"; do
            # (--pdb and --trace need the one process; xdist refuses them.)
            case "$argument" in -n|-n*|--numprocesses*|no:xdist|-pno:xdist|--pdb|--trace) parallel=() ;; esac
            # --quick: the tier for iterating, without the tests marked slow (the README's command runs them all).
            if [ "$argument" = --quick ]; then tier=(-m "not slow"); else arguments+=("$argument"); fi
        done
        exec "$venv/bin/python" -m pytest ${parallel[@]+"${parallel[@]}"} ${tier[@]+"${tier[@]}"} \
            ${arguments[@]+"${arguments[@]}"}
        ;;
    *)
        say "usage: scripts/dev.sh run|test [ARGS...]"; exit 2
        ;;
esac
