#!/usr/bin/env bash
# Build Sightline's Linux bundle and .deb from a clean clone, in one command:
#
#   packaging/build-linux.sh [--no-deb] [--compression xz|gzip|zstd|none] [--out DIR]
#
# 1. a build venv in build/venv (the app's own .venv is never touched): the app's dependencies from pyproject.toml
#    and PyInstaller (packaging/requirements-build.txt); reused while those two files are unchanged;
# 2. the icons (packaging/icons.py) and the one-directory bundle dist/sightline/ (packaging/sightline.spec);
# 3. a smoke test: the bundle's `sightline --check` offscreen;
# 4. the package dist/sightline_<version>_<arch>.deb (packaging/linux/deb.py), unless --no-deb;
# then prints the sizes and times. --out DIR puts the bundle and the .deb in DIR instead of dist/.
# Needs Python 3.11+, binutils, dpkg-deb and the system libraries Qt needs (as scripts/dev.sh checks).
# PYTHON=/path/to/python picks the interpreter the bundle carries (default: the newest python3.1x found).
# Everything else it writes goes under build/ (git-ignored, like dist/).
set -euo pipefail
invoked_from=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)

make_deb=1
compression=xz
out=dist
while [ $# -gt 0 ]; do
    case "$1" in
        --no-deb) make_deb=0 ;;
        --compression) compression="${2:?--compression needs a value}"; shift ;;
        --out) out="${2:?--out needs a folder}"; shift
               case "$out" in /*) ;; *) out="$invoked_from/$out" ;; esac ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "build-linux: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf 'build-linux: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Tools PyInstaller (ldd, objdump, strip) and the .deb (readelf, dpkg-deb) need.
missing=()
for tool in ldd objdump strip readelf; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
[ ${#missing[@]} -eq 0 ] || fail "missing ${missing[*]}: sudo apt-get install binutils libc-bin"
if [ "$make_deb" = 1 ] && ! command -v dpkg-deb >/dev/null 2>&1; then
    fail "dpkg-deb is missing (not a Debian or Ubuntu machine?): use --no-deb to build only the bundle"
fi

python="${PYTHON:-}"  # PYTHON=/path/to/python3.x picks the interpreter the bundle carries
[ -z "$python" ] || "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || fail "$python is not Python 3.11+"
[ -n "$python" ] || for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        python="$candidate"; break
    fi
done
[ -n "$python" ] || fail "needs Python 3.11 or newer"

start=$(now)
venv=build/venv
stamp="$venv/.sightline-build"
want=$(cat pyproject.toml packaging/requirements-build.txt | sha256sum | cut -c1-16)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "creating the build venv $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv" || fail "cannot create a venv (Debian: sudo apt-get install python3-venv)"
    # The app's dependencies exactly as pyproject.toml states them (markers included); the app itself is not
    # installed: PyInstaller takes it from this checkout, so the bundle is what the checkout holds.
    "$venv/bin/python" -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' \
        > build/requirements-app.txt
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
    # --no-compile: PyInstaller compiles what it bundles from the sources itself; the installed bytecode was
    # about half of this step's time.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile -r build/requirements-app.txt \
        -r packaging/requirements-build.txt
    echo "$want" > "$stamp"
fi
venv_done=$(now)

say "building the bundle (PyInstaller)"
rm -rf "$out/sightline"
PYGAME_HIDE_SUPPORT_PROMPT=1 "$venv/bin/pyinstaller" --noconfirm --log-level WARN --distpath "$out" --workpath build/pyinstaller \
    packaging/sightline.spec
bundle_done=$(now)

say "smoke test: sightline --check"
check_out=$(QT_QPA_PLATFORM=offscreen "$out/sightline/sightline" --check 2>&1) || fail "the bundle does not start: $check_out"
[ "$(printf '%s' "$check_out" | tail -n 1)" = OK ] || fail "the bundle's --check said: $check_out"

deb=""
if [ "$make_deb" = 1 ]; then
    say "building the .deb ($compression)"
    deb=$("$venv/bin/python" packaging/linux/deb.py --bundle "$out/sightline" --icons build/icons --out "$out" \
          --work build/deb --compression "$compression" | sed -n 's/^wrote //p')
    [ -n "$deb" ] || fail "no .deb was written"
fi
end=$(now)

size_mib() { du -sk "$1" | awk '{ printf "%.1f MiB", $1 / 1024 }'; }
echo
echo "bundle  ${out#"$root"/}/sightline  $(size_mib "$out/sightline") ($(find "$out/sightline" -type f | wc -l) files)"
if [ -n "$deb" ]; then
    echo "deb     ${deb#"$root"/}  $(size_mib "$deb")"
fi
echo "time    venv $(seconds "$start" "$venv_done") s, bundle $(seconds "$venv_done" "$bundle_done") s," \
     "check and deb $(seconds "$bundle_done" "$end") s, total $(seconds "$start" "$end") s"
