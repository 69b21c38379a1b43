#!/bin/bash
# Type-checks the SwiftUI app snippets the documentation shows (scripts/apple/snippets/*.swift) for macOS and iOS (or tvOS, watchOS, visionOS) on
# Linux, against the stand-in SDK modules (scripts/apple/standins) and the library's own sources.
#
# Usage: scripts/apple/swiftui-snippets-check.sh [macos] [ios] [tvos] [watchos] [visionos]   (default: macos ios)
# Env:   as scripts/apple/standin-check.sh (TC, WORK, APPLE_JOBS, MACOS_MIN, IOS_MIN, ...; default targets:
#        Package.swift's); STANDINS_BUILT=1 skips the standin-check.sh run when the caller just ran it for the same
#        platforms.
# How: standin-check.sh runs first, once for all the platforms (it builds the stand-ins, the sibling-module stubs and
# the list of library files in its run directory under $WORK; its own findings are not repeated here). Then each
# snippet is type-checked with every library file as one module (the snippet as its -primary-file), its `import
# Latchkey` left out (the module is the library), and only the diagnostics located in the snippet are printed, as `[platform] path:line:col: error: ...`.
# (scripts/apple/snippet-check.sh compiles the DocC blocks that start with an import; these files are whole apps.)
# Each snippet is checked on its own, so each may have its own `@main`; two such type-checks run at once
# (scripts/apple/jobs.sh), their diagnostics printed in the platforms' and snippets' order.
# Limit: inside the library's module a snippet also sees internal and `@_spi` declarations; that it uses only
# public API is not checked here (the Linux build of Tests/LatchkeyImportTests checks what `import Latchkey` offers).
# Exit 0 none, 1 some, 3 the stand-in SDK could not be built.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
PLATS=${*:-macos ios}
TC=${TC:-/opt/swift/usr}; export WORK=${WORK:-/tmp/appletc-standins}; export TC
export PATH="$TC/bin:$PATH"
# standin-check.sh's per-tree run directory (links, stubs and stand-ins of this source tree).
RUN="$WORK/run-$(printf %s "$ROOT" | cksum | cut -d" " -f1)"; mkdir -p "$RUN"

pkgmin() { grep -oE "\.$1\(\.v[0-9_]+" "$ROOT/Package.swift" 2>/dev/null | head -1 | sed -E 's/.*\.v//; s/_/./g' | awk '{print ($0 ~ /\./) ? $0 : $0 ".0"}'; }
MACOS_MIN=${MACOS_MIN:-$(pkgmin macOS)}; IOS_MIN=${IOS_MIN:-$(pkgmin iOS)}
export MACOS_MIN=${MACOS_MIN:-15.0} IOS_MIN=${IOS_MIN:-18.0}
TVOS_MIN=${TVOS_MIN:-$(pkgmin tvOS)}; WATCHOS_MIN=${WATCHOS_MIN:-$(pkgmin watchOS)}; VISIONOS_MIN=${VISIONOS_MIN:-$(pkgmin visionOS)}
export TVOS_MIN WATCHOS_MIN VISIONOS_MIN

# shellcheck source=scripts/apple/jobs.sh
. "$HERE/jobs.sh"
# platform -> target and name, as standin-check.sh.
platform() {
  case $1 in
    macos) tgt="x86_64-apple-macos$MACOS_MIN"; pname=macOS;;
    ios) tgt="x86_64-apple-ios$IOS_MIN-simulator"; pname=iOS;;
    tvos) tgt="x86_64-apple-tvos${TVOS_MIN:?no tvOS target}-simulator"; pname=tvOS;;
    watchos) tgt="x86_64-apple-watchos${WATCHOS_MIN:?no watchOS target}-simulator"; pname=watchOS;;
    visionos) tgt="x86_64-apple-xros${VISIONOS_MIN:?no visionOS target}-simulator"; pname=visionOS;;
    *) echo "unknown platform $1" >&2; exit 2;;
  esac
}
for p in $PLATS; do platform "$p"; done

# STANDINS_BUILT=1: standin-check.sh just ran for these platforms and this tree (CI), so its run directory is
# current. Otherwise it runs once for all of them (two platforms at a time; its findings are not repeated here).
missing=""
for p in $PLATS; do
  if [ -z "${STANDINS_BUILT:-}" ] || [ ! -d "$RUN/standins-$p" ]; then missing="$missing $p"; fi
done
if [ -n "$missing" ]; then
  # shellcheck disable=SC2086 # platforms are words
  "$HERE/standin-check.sh" $missing > /dev/null 2>"$RUN/snippets-standin.txt"
  [ $? -eq 3 ] && { cat "$RUN/snippets-standin.txt" >&2; exit 3; }
fi

# One snippet for one platform: type-checked with the library's links as one module, into its own log. The snippet
# is the -primary-file (the mode in which swiftc compiles a module file by file): the compiler type-checks all of
# it, and of the library only the declarations the snippet uses, which is all that the diagnostics kept below (those
# located in the snippet) depend on. Checking every library body as well took about 20 s per snippet and platform
# for the same diagnostics; see scripts/apple/README.md.
typecheck_snippet() { # platform links snippet-copy
  local p=$1 links=$2 copy=$3 tgt pname W sdk
  platform "$p"; W="$WORK/$p"
  sdk="$W/sdk"; [ "$p" = visionos ] && sdk="$W/sdk-xrsimulator"
  swiftc -frontend -typecheck -target "$tgt" -resource-dir "$W/res" -sdk "$sdk" \
    -module-cache-path "$W/mcache" -I "$RUN/standins-$p" -I "$RUN/check-stubs-$p" -plugin-path "$TC/lib/swift/host/plugins" \
    -swift-version 6 -parse-as-library -package-name latchkey -module-name LatchkeyRuntime \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -enable-cross-import-overlays -diagnostic-style llvm "$links"/*.swift -primary-file "$copy" > "$copy.log" 2>&1
}

# Every (platform, snippet) pair is independent: they run two at a time, and their logs are read in order below.
L="$RUN/check-links"
for p in $PLATS; do
  out="$RUN/snippets-$p"; rm -rf "$out"; mkdir -p "$out"
  for snippet in "$HERE"/snippets/*.swift; do
    name=$(basename "$snippet")
    # A snippet that imports a vendor-SDK module (`import BaseIdP`) is checked against standin-check.sh's links of
    # that module (the library targets and Generated/vendor/<Module>.swift, no client file) instead.
    links="$L"; vendor=""
    for vf in "$ROOT"/Generated/vendor/*.swift; do
      [ -f "$vf" ] || continue; v=$(basename "$vf" .swift)
      if grep -qE "^[[:space:]]*import $v$" "$snippet"; then links="$RUN/check-links-vendor-$v"; vendor=$v; fi
    done
    # Same line numbers: the import becomes a comment.
    sed -E 's|^([[:space:]]*)import Latchkey$|\1// import Latchkey|' "$snippet" \
      | sed -E "s|^([[:space:]]*)import ${vendor:-Latchkey}\$|\\1// import ${vendor:-Latchkey}|" > "$out/$name"
    spawn typecheck_snippet "$p" "$links" "$out/$name"
  done
done
wait

total=0
for p in $PLATS; do
  platform "$p"; out="$RUN/snippets-$p"
  for snippet in "$HERE"/snippets/*.swift; do
    name=$(basename "$snippet")
    hits=$(grep -E "^$out/$name:[0-9]+:[0-9]+: (error|warning):" "$out/$name.log" \
      | sed "s|^$out/|scripts/apple/snippets/|" | sort -u)
    if [ -n "$hits" ]; then
      echo "$hits" | sed "s/^/[$pname] /"
      total=$((total + $(echo "$hits" | wc -l)))
    fi
  done
  echo "# $pname ($tgt): snippets checked; compiler logs in $out" >&2
done
echo "$total error(s)/warning(s) in the SwiftUI snippets" >&2
[ "$total" -eq 0 ]
