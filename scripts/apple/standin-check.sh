#!/bin/bash
# Type-checks Latchkey's Apple-only code for macOS, iOS, tvOS, watchOS and visionOS on Linux, against the stand-in SDK modules in
# scripts/apple/standins (written from Apple's documented declarations). See scripts/apple/README.md.
#
# Usage: scripts/apple/standin-check.sh [macos] [ios] [tvos] [watchos] [visionos]    (default: macos ios)
# Env:   TC (toolchain usr dir, default /opt/swift/usr), WORK (caches, default /tmp/appletc-standins: one per
#        platform, WORK/<platform>, shared with scripts/apple-availability.sh, and one per source tree, WORK/run-*),
#        APPLE_JOBS (platforms checked at once, default 2: scripts/apple/jobs.sh),
#        MACOS_MIN / IOS_MIN / TVOS_MIN / WATCHOS_MIN / VISIONOS_MIN (default: read from Package.swift), VERBOSE=1 (print deferred errors too),
#        DEFERRED (regex of error messages reported but not counted; default none: every error counts).
# Prints every error or warning located in Apple-only code as `[platform] path:line:col: error: message`, then a
# summary line. Exit 0 none, 1 some, 3 the stand-in SDK could not be built.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
PLATS=${*:-macos ios}
TC=${TC:-/opt/swift/usr}; export WORK=${WORK:-/tmp/appletc-standins}; export TC
export PATH="$TC/bin:$PATH"
# Per source tree, so that runs for several worktrees can share the cache (stdlib, module cache).
RUN="$WORK/run-$(printf %s "$ROOT" | cksum | cut -d" " -f1)"; mkdir -p "$RUN"
SHARED=${SHARED_TOOL:-$ROOT/../../shared/tools/apple-typecheck/apple-typecheck.sh}
[ -x "$SHARED" ] || SHARED=/work/shared/tools/apple-typecheck/apple-typecheck.sh
DEFERRED=${DEFERRED-}
# shellcheck source=scripts/apple/jobs.sh
. "$HERE/jobs.sh"
for p in $PLATS; do
  case $p in macos|ios|tvos|watchos|visionos) ;; *) echo "unknown platform $p" >&2; exit 2;; esac
done

pkgmin() { grep -oE "\.$1\(\.v[0-9_]+" "$ROOT/Package.swift" 2>/dev/null | head -1 | sed -E 's/.*\.v//; s/_/./g' | awk '{print ($0 ~ /\./) ? $0 : $0 ".0"}'; }
MACOS_MIN=${MACOS_MIN:-$(pkgmin macOS)}; IOS_MIN=${IOS_MIN:-$(pkgmin iOS)}
MACOS_MIN=${MACOS_MIN:-15.0}; IOS_MIN=${IOS_MIN:-18.0}
TVOS_MIN=${TVOS_MIN:-$(pkgmin tvOS)}; WATCHOS_MIN=${WATCHOS_MIN:-$(pkgmin watchOS)}; VISIONOS_MIN=${VISIONOS_MIN:-$(pkgmin visionOS)}

# Library targets (no main.swift/@main), type-checked together as one module named LatchkeyRuntime, so that the
# generated clients' `LatchkeyRuntime.X` names resolve; Generated/*.swift is the Latchkey target's plugin output.
TGTS=$(for d in "$ROOT"/Sources/*/; do n=$(basename "$d")
  [ -n "$(find "$d" -name '*.swift' | head -1)" ] || continue
  [ -n "$(find "$d" -name main.swift | head -1)" ] && continue
  grep -rqE '^\s*@main\b' --include='*.swift' "$d" && continue
  echo "$n"; done)
L="$RUN/check-links"; rm -rf "$L"; mkdir -p "$L"; MAP="$RUN/check-map.txt"; : > "$MAP"
add() { local n; n="$1--$(echo "$2" | tr '/' '_')"; ln -s "$ROOT/$2" "$L/$n"; printf '%s\t%s\n' "$L/$n" "$2" >> "$MAP"; }
# The Latchkey target's re-exports (`@_exported import struct LatchkeyRuntime.X`) cannot name the module being
# compiled: each becomes `typealias _Reexported_X = X` on the same line, which checks that X exists under the
# same conditions (not its kind). The typealias is marked available only in a far future OS, because an
# `@_exported import` needs no availability of its own while a typealias would need the type's.
reexports() {
  local n; n="$1--$(echo "$2" | tr '/' '_')"
  sed -E 's/^([[:space:]]*)@_exported import (struct|class|enum|protocol|func|var|let|typealias) Latchkey[A-Za-z]*\.([A-Za-z_]+)/\1@available(macOS 999, iOS 999, tvOS 999, watchOS 999, visionOS 999, *) private typealias _Reexported_\3 = \3/' \
    "$ROOT/$2" > "$L/$n"
  printf '%s\t%s\n' "$L/$n" "$2" >> "$MAP"
}
for t in $TGTS; do
  while IFS= read -r f; do
    if grep -qE '^[[:space:]]*@_exported import [a-z]+ Latchkey' "$f"; then reexports "$t" "${f#$ROOT/}"
    else add "$t" "${f#$ROOT/}"; fi
  done < <(find "$ROOT/Sources/$t" -name '*.swift' | sort)
done
for f in "$ROOT"/Generated/*.swift; do [ -f "$f" ] && add Generated "${f#$ROOT/}"; done

# Each vendor-SDK module (Generated/vendor/<Module>.swift, a descriptor's "vendorSDK") is a module of its own:
# type-checked with the library targets but without the clients (its sign-in button has the name of a client file's
# typealias). Its links are the same for every platform, so they are made once, here.
for vf in "$ROOT"/Generated/vendor/*.swift; do
  [ -f "$vf" ] || continue
  vname=$(basename "$vf" .swift); VL="$RUN/check-links-vendor-$vname"; rm -rf "$VL"; mkdir -p "$VL"
  for f in "$L"/*.swift; do case $(basename "$f") in Generated--*) ;; *) cp -P "$f" "$VL/";; esac; done
  vlink="$VL/Vendor--$vname.swift"
  sed -E 's/^([[:space:]]*)@_exported import (struct|class|enum|protocol|func|var|let|typealias) Latchkey[A-Za-z]*\.([A-Za-z_]+)/\1@available(macOS 999, iOS 999, tvOS 999, watchOS 999, visionOS 999, *) private typealias _Reexported_\3 = \3/' \
    "$vf" > "$vlink"
  printf '%s\t%s\n' "$vlink" "Generated/vendor/$vname.swift" > "$RUN/check-map-vendor-$vname.txt"
done

# One platform, run as a job (scripts/apple/jobs.sh: two platforms at once, each a single-threaded compiler at a
# time). Its output goes to the tagged log $RUN/job-<platform>.log, replayed below in the platforms' order; its
# counts to $RUN/job-<platform>.counts; its exit code (3: the stand-in SDK could not be built) to .rc. Everything it
# writes is per platform: its cache WORK/<platform> (standard library, FoundationEssentials, module cache) and its
# files in $RUN.
check() {
  local p=$1 dir tgt stem pname W sdk S STUBS hits n d a vf vname vhits vn log="$RUN/job-$1.log" total=0
  : > "$log"
  case $p in
    macos) dir=macosx; tgt="x86_64-apple-macos$MACOS_MIN"; stem=x86_64-apple-macos; pname=macOS;;
    ios) dir=iphonesimulator; tgt="x86_64-apple-ios$IOS_MIN-simulator"; stem=x86_64-apple-ios-simulator; pname=iOS;;
    tvos) dir=appletvsimulator; tgt="x86_64-apple-tvos${TVOS_MIN:?no tvOS target}-simulator"
      stem=x86_64-apple-tvos-simulator; pname=tvOS;;
    watchos) dir=watchsimulator; tgt="x86_64-apple-watchos${WATCHOS_MIN:?no watchOS target}-simulator"
      stem=x86_64-apple-watchos-simulator; pname=watchOS;;
    # x86_64, though the visionOS simulator is arm64-only: see scripts/apple/apple-typecheck.sh.
    visionos) dir=xrsimulator; tgt="x86_64-apple-xros${VISIONOS_MIN:?no visionOS target}-simulator"
      stem=x86_64-apple-xros-simulator; pname=visionOS;;
  esac
  W="$WORK/$p"
  # 1. The standard library and FoundationEssentials for the Apple triple, from the shared tool (first run only;
  #    scripts/apple/apple-typecheck.sh runs it, with tvOS, watchOS and visionOS added, in WORK/<platform>).
  if [ ! -f "$W/mods/$dir/FoundationEssentials.swiftmodule/$stem.swiftinterface" ]; then
    SHARED_TOOL="$SHARED" APPLE_JOBS=1 "$HERE/apple-typecheck.sh" "$ROOT" "$p" > "$RUN/shared-$p.txt" 2>&1
    rc=$?
    [ $rc -eq 2 ] && { tag e "$log" < "$RUN/shared-$p.txt"; echo 3 > "$RUN/job-$p.rc"; return; }
    [ $rc -eq 3 ] && { echo "standin-check: the shared tool could not build the SDK for $pname ($RUN/shared-$p.txt)" | tag e "$log"
      echo 3 > "$RUN/job-$p.rc"; return; }
  fi
  # visionOS reads a declaration's iOS availability through the SDK's iOS-to-visionOS version map.
  sdk="$W/sdk"; [ "$p" = visionos ] && sdk="$W/sdk-xrsimulator"
  mkdir -p "$sdk"; [ "$p" = visionos ] && cp "$HERE/sdk/xrsimulator-SDKSettings.json" "$sdk/SDKSettings.json"
  # 2. The stand-in modules for this platform and deployment target.
  S="$RUN/standins-$p"
  WORK="$W" SDK="$sdk" "$HERE/build-standins.sh" "$p" "$tgt" "$S" > "$RUN/standins-$p.log" 2>&1 || {
    tag e "$log" < "$RUN/standins-$p.log"
    echo "standin-check: stand-in modules failed to build for $pname" | tag e "$log"; echo 3 > "$RUN/job-$p.rc"; return; }
  # 3. Empty modules for the sibling targets (their code is in the one module).
  STUBS="$RUN/check-stubs-$p"; rm -rf "$STUBS"; mkdir -p "$STUBS"
  for t in $TGTS; do
    [ "$t" = LatchkeyRuntime ] && continue
    echo "" > "$STUBS/$t.swift"
    swiftc -frontend -emit-module -target "$tgt" -resource-dir "$W/res" -sdk "$sdk" \
      -module-cache-path "$W/mcache" -swift-version 6 -parse-as-library -module-name "$t" \
      -o "$STUBS/$t.swiftmodule" "$STUBS/$t.swift" 2>/dev/null
  done
  # 4. Type-check, then keep what lies in Apple-only code.
  swiftc -frontend -typecheck -target "$tgt" -resource-dir "$W/res" -sdk "$sdk" \
    -module-cache-path "$W/mcache" -I "$S" -I "$STUBS" -plugin-path "$TC/lib/swift/host/plugins" \
    -swift-version 6 -parse-as-library -package-name latchkey -module-name LatchkeyRuntime \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -enable-cross-import-overlays -diagnostic-style llvm "$L"/*.swift > "$RUN/check-$p.txt" 2>&1
  if grep -qE "unable to load standard library|failed to build module '(Swift|_Concurrency|FoundationEssentials)'" "$RUN/check-$p.txt"; then
    echo "standin-check: the stand-in SDK did not load for $pname, see $RUN/check-$p.txt" | tag e "$log"
    echo 3 > "$RUN/job-$p.rc"; return
  fi
  hits=$(python3 "$HERE/apple_regions.py" "$p" "$MAP" "$RUN/check-$p.txt" "$DEFERRED" 2>"$RUN/deferred-$p.txt")
  [ -n "$hits" ] && echo "$hits" | sed "s/^/[$pname] /" | tag o "$log"
  [ -n "${VERBOSE:-}" ] && sed "s/^/[$pname] /" "$RUN/deferred-$p.txt" | tag o "$log"
  n=$( [ -n "$hits" ] && echo "$hits" | wc -l || echo 0 ); total=$((total + n))
  d=$(grep -c '^deferred: ' "$RUN/deferred-$p.txt")
  a=$(grep -c '^artefact: ' "$RUN/deferred-$p.txt")
  echo "# $pname ($tgt): $n in Apple-only code, $d deferred, $a artefacts; all diagnostics in $RUN/check-$p.txt" | tag e "$log"
  # 5. Each vendor-SDK module (links made above), its Apple-only code kept as above.
  for vf in "$ROOT"/Generated/vendor/*.swift; do
    [ -f "$vf" ] || continue
    vname=$(basename "$vf" .swift)
    swiftc -frontend -typecheck -target "$tgt" -resource-dir "$W/res" -sdk "$sdk" \
      -module-cache-path "$W/mcache" -I "$S" -I "$STUBS" -plugin-path "$TC/lib/swift/host/plugins" \
      -swift-version 6 -parse-as-library -package-name latchkey -module-name LatchkeyRuntime \
      -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
      -enable-cross-import-overlays -diagnostic-style llvm "$RUN/check-links-vendor-$vname"/*.swift \
      > "$RUN/check-vendor-$vname-$p.txt" 2>&1
    vhits=$(python3 "$HERE/apple_regions.py" "$p" "$RUN/check-map-vendor-$vname.txt" "$RUN/check-vendor-$vname-$p.txt" "$DEFERRED" 2>/dev/null)
    [ -n "$vhits" ] && echo "$vhits" | sed "s/^/[$pname] /" | tag o "$log"
    vn=$( [ -n "$vhits" ] && echo "$vhits" | wc -l || echo 0 ); total=$((total + vn))
    echo "# $pname ($tgt): $vn in the Apple-only code of the $vname vendor SDK; diagnostics in $RUN/check-vendor-$vname-$p.txt" | tag e "$log"
  done
  echo "$total $d" > "$RUN/job-$p.counts"
  echo 0 > "$RUN/job-$p.rc"
}
for p in $PLATS; do rm -f "$RUN/job-$p.rc" "$RUN/job-$p.counts"; spawn check "$p"; done
wait
# The platforms' output in order; a platform whose SDK could not be built ends the run there (exit 3), as when the
# platforms ran one after another.
total=0; deferred=0
for p in $PLATS; do
  replay "$RUN/job-$p.log"
  rc=$(cat "$RUN/job-$p.rc" 2>/dev/null || echo 3)
  [ "$rc" -eq 0 ] || exit "$rc"
  read -r n d < "$RUN/job-$p.counts"
  total=$((total + n)); deferred=$((deferred + d))
done
echo "$total error(s)/warning(s) in Apple-only code ($deferred deferred availability error(s); VERBOSE=1 lists them)"
[ "$total" -eq 0 ]
