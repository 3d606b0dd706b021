#!/usr/bin/env bash
# Set up (or reuse) the local virtual environment, then start Sightline or run the test suite.
#   scripts/dev.sh run [ARGS...]   start the app (ARGS go to the `sightline` command)
#   scripts/dev.sh test [ARGS...]  run the whole test suite (ARGS go to pytest)
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
    if ! "$python" -m venv "$venv" 2>/dev/null; then
        rm -rf "$venv"
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
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test]"
    echo "$want" > "$stamp"
fi

# 4. The system libraries Qt needs, even offscreen.
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

case "$mode" in
    run)
        qt_libs
        exec "$venv/bin/sightline" "$@"
        ;;
    test)
        qt_libs
        # CI also plays reconchess's TroutBot, which needs Stockfish (the test skips without it).
        if [ "${CI:-}" = true ] && is_root && ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ]; then
            apt_install stockfish || say "could not install stockfish; the TroutBot test will be skipped"
        fi
        export QT_QPA_PLATFORM=offscreen
        exec "$venv/bin/python" -m pytest "$@"
        ;;
    *)
        say "usage: scripts/dev.sh run|test [ARGS...]"; exit 2
        ;;
esac
