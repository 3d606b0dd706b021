#!/usr/bin/env bash
# Build Sightline for macOS: the app bundle dist/Sightline.app and the disk image dist/Sightline-<version>-macos-<arch>.dmg.
#
#   packaging/macos/build-macos.sh [--no-dmg]
#
# Needs Python 3.11+ (python.org or Homebrew), Xcode's command-line tools (hdiutil, codesign) and, for the PNG
# export, Homebrew's cairo (brew install cairo; PyInstaller copies libcairo into the bundle).
# Signing and notarisation (docs/packaging.md): set SIGHTLINE_CODESIGN_IDENTITY to a "Developer ID Application"
# identity in the keychain (the spec signs every binary with the hardened runtime and
# packaging/macos/entitlements.plist), and SIGHTLINE_NOTARY_PROFILE to a `xcrun notarytool store-credentials` profile.
set -euo pipefail
cd "$(dirname "$0")/../.."

make_dmg=1
[ "${1:-}" = "--no-dmg" ] && make_dmg=0
say() { printf 'build-macos: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }
[ "$(uname)" = Darwin ] || fail "run this on macOS"

python="${PYTHON:-}"
[ -n "$python" ] || for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        python="$candidate"; break
    fi
done
[ -n "$python" ] || fail "needs Python 3.11 or newer"

start=$(date +%s)
venv=build/venv
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' \
    > build/requirements-app.txt
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r build/requirements-app.txt \
    -r packaging/requirements-build.txt

rm -rf dist/sightline dist/Sightline.app
PYGAME_HIDE_SUPPORT_PROMPT=1 "$venv/bin/pyinstaller" --noconfirm --log-level WARN --distpath dist \
    --workpath build/pyinstaller packaging/sightline.spec

say "smoke test: Sightline.app's sightline --check"
check_out=$(QT_QPA_PLATFORM=offscreen dist/Sightline.app/Contents/MacOS/sightline --check 2>&1) ||
    fail "the app does not start: $check_out"
[ "$(printf '%s' "$check_out" | tail -n 1)" = OK ] || fail "the app's --check said: $check_out"
if [ -n "${SIGHTLINE_CODESIGN_IDENTITY:-}" ]; then
    codesign --verify --deep --strict --verbose=2 dist/Sightline.app || fail "the app's signature does not verify"
fi

version=$("$venv/bin/python" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
dmg="dist/Sightline-$version-macos-$(uname -m).dmg"
if [ "$make_dmg" = 1 ]; then
    # The usual drag-to-install window: the app beside a link to /Applications.
    staging=build/dmg
    rm -rf "$staging" "$dmg"
    mkdir -p "$staging"
    cp -R dist/Sightline.app "$staging/"
    ln -s /Applications "$staging/Applications"
    hdiutil create -volname "Sightline $version" -srcfolder "$staging" -fs HFS+ -format UDZO -ov "$dmg" >/dev/null
    if [ -n "${SIGHTLINE_CODESIGN_IDENTITY:-}" ]; then
        codesign --sign "$SIGHTLINE_CODESIGN_IDENTITY" --timestamp "$dmg"
    fi
    if [ -n "${SIGHTLINE_NOTARY_PROFILE:-}" ]; then
        say "notarising $dmg (takes minutes)"
        xcrun notarytool submit "$dmg" --keychain-profile "$SIGHTLINE_NOTARY_PROFILE" --wait
        xcrun stapler staple "$dmg"
    fi
fi

echo "app     dist/Sightline.app  $(du -sh dist/Sightline.app | cut -f1)"
[ "$make_dmg" = 1 ] && echo "dmg     $dmg  $(du -h "$dmg" | cut -f1)"
echo "time    $(( $(date +%s) - start )) s"
