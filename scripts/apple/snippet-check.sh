#!/bin/bash
# Type-checks the complete Swift code blocks of the DocC catalog against the stand-in SDK and the Latchkey
# sources, as an app would compile them on macOS (or iOS).
#
# Convention: a ```swift block whose first line is an `import` is a complete file and must compile; any other
# block is a fragment (it names values defined in the surrounding prose) and is not compiled. A complete block
# with top-level statements is compiled as a main.swift.
# Usage: scripts/apple/snippet-check.sh [macos|ios|tvos|watchos|visionos]   (default macos; runs standin-check.sh first)
# Env: as standin-check.sh; STANDINS_BUILT=1 skips the standin-check.sh run when the caller just ran it for this
# platform (CI). The blocks are type-checked two at a time (APPLE_JOBS, scripts/apple/jobs.sh). Prints `Sources/Latchkey/Latchkey.docc/X.md:LINE:COL: error: message` per diagnostic
# and a summary line; exit 0 when every complete block compiles.
#
# Limits: the Latchkey module here re-exports the whole runtime (the one-module view cannot rebuild the real
# per-declaration re-exports), so a snippet that names a runtime type `import Latchkey` does not re-export still
# compiles; the runtime module is emitted with `-experimental-allow-module-with-compiler-errors`, because the
# shared code does not type-check against the stand-in SDK (a declaration whose signature names a missing SDK
# type is then missing too).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
P=${1:-macos}
TC=${TC:-/opt/swift/usr}; export WORK=${WORK:-/tmp/appletc-standins}; export PATH="$TC/bin:$PATH"
# Per source tree, so that runs for several worktrees can share the cache (stdlib, module cache).
RUN="$WORK/run-$(printf %s "$ROOT" | cksum | cut -d" " -f1)"; mkdir -p "$RUN"
pkgmin() { grep -oE "\.$1\(\.v[0-9_]+" "$ROOT/Package.swift" 2>/dev/null | head -1 | sed -E 's/.*\.v//; s/_/./g' | awk '{print ($0 ~ /\./) ? $0 : $0 ".0"}'; }
MACOS_MIN=${MACOS_MIN:-$(pkgmin macOS)}; IOS_MIN=${IOS_MIN:-$(pkgmin iOS)}
TVOS_MIN=${TVOS_MIN:-$(pkgmin tvOS)}; WATCHOS_MIN=${WATCHOS_MIN:-$(pkgmin watchOS)}; VISIONOS_MIN=${VISIONOS_MIN:-$(pkgmin visionOS)}
case $P in
  macos) tgt="x86_64-apple-macos${MACOS_MIN:-15.0}";;
  ios) tgt="x86_64-apple-ios${IOS_MIN:-18.0}-simulator";;
  tvos) tgt="x86_64-apple-tvos${TVOS_MIN:?no tvOS target}-simulator";;
  watchos) tgt="x86_64-apple-watchos${WATCHOS_MIN:?no watchOS target}-simulator";;
  visionos) tgt="x86_64-apple-xros${VISIONOS_MIN:?no visionOS target}-simulator";;
  *) echo "unknown platform $P" >&2; exit 2;;
esac
# The platform's cache (standard library, FoundationEssentials, module cache), as standin-check.sh's.
W="$WORK/$P"
sdk="$W/sdk"; [ "$P" = visionos ] && sdk="$W/sdk-xrsimulator"
# The stand-ins, stubs and source links of standin-check.sh, for this deployment target. STANDINS_BUILT=1:
# standin-check.sh just ran for this platform and tree (CI), so its run directory is current.
if [ -z "${STANDINS_BUILT:-}" ] || [ ! -d "$RUN/standins-$P" ]; then
  MACOS_MIN=$MACOS_MIN IOS_MIN=$IOS_MIN TVOS_MIN=$TVOS_MIN WATCHOS_MIN=$WATCHOS_MIN VISIONOS_MIN=$VISIONOS_MIN "$HERE/standin-check.sh" "$P" > "$RUN/snippet-standin-$P.txt" 2>&1
  [ $? -eq 3 ] && { cat "$RUN/snippet-standin-$P.txt" >&2; exit 3; }
fi
# shellcheck source=scripts/apple/jobs.sh
. "$HERE/jobs.sh"
S="$RUN/standins-$P"; STUBS="$RUN/check-stubs-$P"; M="$RUN/snippets-$P"; rm -rf "$M"; mkdir -p "$M/mods" "$M/blocks"
F=(-target "$tgt" -resource-dir "$W/res" -sdk "$sdk" -module-cache-path "$W/mcache"
   -I "$M/mods" -I "$S" -I "$STUBS" -plugin-path "$TC/lib/swift/host/plugins" -swift-version 6
   -enable-cross-import-overlays -diagnostic-style llvm)
swiftc -frontend -emit-module -experimental-allow-module-with-compiler-errors "${F[@]}" -parse-as-library \
  -package-name latchkey -module-name LatchkeyRuntime -enable-upcoming-feature ExistentialAny \
  -enable-upcoming-feature MemberImportVisibility -o "$M/mods/LatchkeyRuntime.swiftmodule" \
  "$RUN"/check-links/*.swift > "$M/runtime.log" 2>&1
for facade in Latchkey LatchkeyTesting; do
  echo '@_exported import LatchkeyRuntime' > "$M/$facade.swift"
  swiftc -frontend -emit-module "${F[@]}" -parse-as-library -module-name "$facade" \
    -o "$M/mods/$facade.swiftmodule" "$M/$facade.swift" > "$M/$facade.log" 2>&1 \
    || { cat "$M/$facade.log" >&2; echo "snippet-check: could not build the $facade module" >&2; exit 3; }
done
# Extract the complete blocks: blocks/<n>/main.swift or blocks/<n>/snippet.swift, and a map to the article.
python3 - "$ROOT" "$M/blocks" <<'PY'
import glob, os, re, sys
root, out = sys.argv[1], sys.argv[2]
n = 0
for path in sorted(glob.glob(os.path.join(root, "Sources/Latchkey/Latchkey.docc/**/*.md"), recursive=True)):
    text = open(path, encoding="utf-8").read()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
        block = match.group(1)
        if not block.lstrip().startswith("import "):
            continue
        n += 1
        first = text[: match.start(1)].count("\n") + 1
        # Top-level statements (not declarations, imports, attributes or comments) make it a main.swift.
        decl = re.compile(r"^(import|@|let|var|func|struct|enum|class|actor|protocol|extension|typealias|final|"
                          r"public|private|internal|fileprivate|package|//|#|\}|\)|$)")
        script = any(not decl.match(line) for line in block.split("\n") if line and not line[0].isspace())
        directory = os.path.join(out, str(n))
        os.makedirs(directory)
        name = "main.swift" if script else "snippet.swift"
        open(os.path.join(directory, name), "w").write(block)
        open(os.path.join(directory, "origin"), "w").write("%s\t%d\n" % (os.path.relpath(path, root), first))
PY
# Each block is type-checked on its own (two at a time), into its own log; the logs are read in the blocks' order.
typecheck_block() {
  local d=$1 f extra
  f=$(ls "$d"/*.swift)
  extra=(-parse-as-library); [ "$(basename "$f")" = main.swift ] && extra=()
  swiftc -frontend -typecheck "${F[@]}" "${extra[@]}" -module-name Snippet "$f" > "$d/log" 2>&1
}
for d in "$M"/blocks/*/; do [ -d "$d" ] && spawn typecheck_block "$d"; done
wait
total=0; blocks=0
for d in "$M"/blocks/*/; do
  [ -d "$d" ] || continue
  blocks=$((blocks + 1)); f=$(ls "$d"/*.swift); IFS=$'\t' read -r origin first < "$d/origin"
  hits=$(grep -E "^$f:[0-9]+:[0-9]+: (error|warning): " "$d/log" \
    | awk -F: -v o="$origin" -v b="$first" '{ line=$2+b-1; rest=substr($0, length($1)+length($2)+length($3)+4); print o ":" line ":" $3 ":" rest }' \
    | sort -u)
  [ -n "$hits" ] && echo "$hits"
  n=$( [ -n "$hits" ] && echo "$hits" | wc -l || echo 0 ); total=$((total + n))
done
echo "$total error(s)/warning(s) in $blocks complete DocC code block(s) ($P, $tgt)"
[ "$total" -eq 0 ]
