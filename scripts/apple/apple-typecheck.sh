#!/bin/bash
# The shared apple-typecheck tool (../shared/tools/apple-typecheck, read-only here) for macOS and iOS as it is, and
# with tvOS, watchOS and visionOS added next to them: those three run a patched temporary copy of it. Same
# arguments, output and exit codes as the shared tool.
#
# Usage: scripts/apple/apple-typecheck.sh PROJECT_ROOT [macos|ios|tvos|watchos|visionos ...]  (default: all five)
# Env:   as the shared tool (TC, SRC_TARGETS, MACOS_MIN, IOS_MIN, VERBOSE), plus TVOS_MIN, WATCHOS_MIN,
#        VISIONOS_MIN (default: read from Package.swift), SHARED_TOOL (the shared script), APPLE_JOBS (platforms
#        run at once, default 2: scripts/apple/jobs.sh). WORK (default /tmp/appletc-standins) holds one cache per
#        platform, WORK/<platform> (the shared tool's WORK for that platform: its standard library, Foundation and
#        module cache), the same one the other scripts in scripts/apple use.
#
# Each platform is a run of the shared tool of its own, in its own cache directory, so two platforms can run at
# once (the tool rewrites files in its WORK as it goes, so two runs must not share one). Their reports are printed
# in the order the platforms were given, followed by one total line, as one run of the tool over all of them would.
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
WORK=${WORK:-/tmp/appletc-standins}
# shellcheck source=scripts/apple/jobs.sh
. "$HERE/jobs.sh"
for p in $PLATS; do
  case $p in macos|ios|tvos|watchos|visionos) ;; *) echo "unknown platform $p" >&2; exit 2;; esac
done

# The reports are kept in a temporary directory, and so is the patched copy, next to a copy of the shared tool's
# helpers (it finds fixsynth.py beside itself). macOS and iOS alone need no patch, so a shared script the patch no
# longer fits does not stop them.
COPY=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-apple-typecheck.XXXXXX")
trap 'rm -rf "$COPY"' EXIT
case " $PLATS " in *" tvos "*|*" watchos "*|*" visionos "*)
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
;;
esac

# One platform: the shared tool itself for macOS and iOS, the patched copy for the others; its stdout and stderr
# kept apart in $COPY/<platform>.out and .err, its exit code in .rc.
run() {
  local p=$1 tool=$SHARED
  case $p in tvos|watchos|visionos) tool="$COPY/$(basename "$SHARED")";; esac
  mkdir -p "$WORK/$p"
  WORK="$WORK/$p" LATCHKEY_XR_SDKSETTINGS="$HERE/sdk/xrsimulator-SDKSettings.json" bash "$tool" "$ROOT" "$p" \
    > "$COPY/$p.out" 2> "$COPY/$p.err"
  echo $? > "$COPY/$p.rc"
}
for p in $PLATS; do spawn run "$p"; done
wait
# The reports in order. A platform whose stand-in SDK did not load (3) ends the report there, as the shared tool
# stops at that platform; its own "N Apple availability violation(s)" lines become one total.
total=0
for p in $PLATS; do
  rc=$(cat "$COPY/$p.rc")
  grep -vE '^[0-9]+ Apple availability violation\(s\)$' "$COPY/$p.out"
  cat "$COPY/$p.err" >&2
  case $rc in 0|1) ;; *) exit "$rc";; esac
  n=$(sed -nE 's/^([0-9]+) Apple availability violation\(s\)$/\1/p' "$COPY/$p.out" | tail -1)
  total=$((total + ${n:-0}))
done
echo "$total Apple availability violation(s)"
[ "$total" -eq 0 ]
