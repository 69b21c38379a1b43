#!/bin/bash
# The shared apple-typecheck tool (../shared/tools/apple-typecheck, read-only here) with tvOS, watchOS and visionOS
# added next to its macOS and iOS: runs a patched temporary copy of it. Same arguments, output and exit codes.
#
# Usage: scripts/apple/apple-typecheck.sh PROJECT_ROOT [macos|ios|tvos|watchos|visionos ...]  (default: all five)
# Env:   as the shared tool (TC, WORK, SRC_TARGETS, MACOS_MIN, IOS_MIN, VERBOSE), plus TVOS_MIN, WATCHOS_MIN,
#        VISIONOS_MIN (default: read from Package.swift), SHARED_TOOL (the shared script to patch).
#
# The three extra platforms' triples: x86_64-apple-tvos<min>-simulator (appletvsimulator),
# x86_64-apple-watchos<min>-simulator (watchsimulator) and x86_64-apple-xros<min>-simulator (xrsimulator). Apple
# ships the visionOS simulator for arm64 only, but the stand-in standard library is the Linux x86_64 one
# re-targeted: its Float80 declarations call the C shims' `long double` functions, which clang declares only where
# `long double` is 80-bit, so for arm64 the standard library does not build. Type-checking does not depend on the
# architecture otherwise (no Latchkey code names Float80), so visionOS is checked as x86_64. visionOS also needs
# an SDKSettings.json (scripts/apple/sdk/xrsimulator-SDKSettings.json): its iOS-to-visionOS version map is how the
# compiler reads a declaration that gives an iOS version and no visionOS one. If the shared script changes so that the
# patch no longer applies, this fails with exit 2 and says which part, rather than silently checking less.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); REPO=$(cd "$HERE/../.." && pwd)
SHARED=${SHARED_TOOL:-$REPO/../shared/tools/apple-typecheck/apple-typecheck.sh}
[ -f "$SHARED" ] || SHARED=/work/shared/tools/apple-typecheck/apple-typecheck.sh
[ -f "$SHARED" ] || { echo "apple-typecheck (scripts/apple): no shared tool at $SHARED" >&2; exit 2; }
ROOT=${1:?usage: scripts/apple/apple-typecheck.sh PROJECT_ROOT [macos|ios|tvos|watchos|visionos ...]}
shift
PLATS=${*:-macos ios tvos watchos visionos}

# The patched copy lives next to a copy of the shared tool's helpers (it finds fixsynth.py beside itself).
COPY=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-apple-typecheck.XXXXXX")
trap 'rm -rf "$COPY"' EXIT
cp "$(dirname "$SHARED")"/* "$COPY/"
python3 - "$COPY/$(basename "$SHARED")" <<'PY' || exit 2
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
patches = [
    ("deployment targets",
     'MACOS_MIN=${MACOS_MIN:-$(pkgmin macOS)}; IOS_MIN=${IOS_MIN:-$(pkgmin iOS)}\n',
     'MACOS_MIN=${MACOS_MIN:-$(pkgmin macOS)}; IOS_MIN=${IOS_MIN:-$(pkgmin iOS)}\n'
     'TVOS_MIN=${TVOS_MIN:-$(pkgmin tvOS)}; WATCHOS_MIN=${WATCHOS_MIN:-$(pkgmin watchOS)}; '
     'VISIONOS_MIN=${VISIONOS_MIN:-$(pkgmin visionOS)}\n'),
    # visionOS takes the iOS availability of a declaration that names no visionOS version, mapped through the SDK's
    # SDKSettings.json (iOS_xrOS); without one the iOS version is compared as it is (iOS 8 > visionOS 1).
    ("visionOS SDK settings",
     '  mkdir -p "$WORK/sdk" "$WORK/mcache"\n',
     '  mkdir -p "$WORK/sdk" "$WORK/mcache"; sdk="$WORK/sdk"\n'
     '  if [ "$p" = visionos ]; then sdk="$WORK/sdk-xrsimulator"; mkdir -p "$sdk"; '
     'cp "$LATCHKEY_XR_SDKSETTINGS" "$sdk/SDKSettings.json"; fi\n'),
    ("visionOS SDK path",
     '-resource-dir "$WORK/res" -sdk "$WORK/sdk" \\\n',
     '-resource-dir "$WORK/res" -sdk "$sdk" \\\n'),
    ("platform cases",
     '    *) echo "unknown platform $p" >&2; exit 2;;\n',
     '    tvos) dir=appletvsimulator; tgt="x86_64-apple-tvos${TVOS_MIN:?no tvOS deployment target}-simulator"; '
     'stem=x86_64-apple-tvos-simulator; pname=tvOS;;\n'
     '    watchos) dir=watchsimulator; tgt="x86_64-apple-watchos${WATCHOS_MIN:?no watchOS deployment target}-simulator"; '
     'stem=x86_64-apple-watchos-simulator; pname=watchOS;;\n'
     '    visionos) dir=xrsimulator; tgt="x86_64-apple-xros${VISIONOS_MIN:?no visionOS deployment target}-simulator"; '
     'stem=x86_64-apple-xros-simulator; pname=visionOS;;\n'
     '    *) echo "unknown platform $p" >&2; exit 2;;\n'),
]
for name, old, new in patches:
    if text.count(old) != 1:
        sys.exit(f"scripts/apple/apple-typecheck.sh: the shared apple-typecheck.sh changed; the patch '{name}' "
                 f"no longer applies (expected exactly one `{old.strip()}`). Update the patch in this script.")
    text = text.replace(old, new)
open(path, "w", encoding="utf-8").write(text)
PY
# shellcheck disable=SC2086 # platforms are words
LATCHKEY_XR_SDKSETTINGS="$HERE/sdk/xrsimulator-SDKSettings.json" bash "$COPY/$(basename "$SHARED")" "$ROOT" $PLATS
