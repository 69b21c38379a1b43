#!/usr/bin/env bash
# The Apple availability gate: the library targets and the generated clients in Generated/ (with --all, also the
# executables' files other than their entry points, and the test targets) type-checked for macOS and iOS (or
# tvOS, watchOS, visionOS when named) at the deployment targets Package.swift declares, with the real compiler against the stand-in SDK of
# ../shared/tools/apple-typecheck (see its README for what it cannot see). Prints each violation and a count;
# exits non-zero when there is one.
#
#   bash scripts/apple-availability.sh              # macOS and iOS
#   bash scripts/apple-availability.sh ios          # one platform
#   bash scripts/apple-availability.sh tvos watchos visionos   # the shared tool patched with those three
#                                                   # platforms (scripts/apple/apple-typecheck.sh)
#   bash scripts/apple-availability.sh --all        # executables and tests too (not yet clean: see README)
#
# The shared tool type-checks the folders under a root's Sources/ as one module, so this script lays out a
# throwaway root whose Sources/ holds, per target, symbolic links to the real files, and maps the paths it prints
# back to the repository's. It runs the tool through scripts/apple/apple-typecheck.sh, which checks two platforms
# at once, each in its own cache, WORK/<platform> (WORK default /tmp/appletc-standins): the caches the other
# scripts in scripts/apple use, so the standard library each platform needs is built once for all of them.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# The shared tool (APPLE_TYPECHECK overrides it), run by scripts/apple/apple-typecheck.sh: as it is for macOS
# and iOS, patched for the other platforms (same output).
SHARED_TOOL=${APPLE_TYPECHECK:-$ROOT/../shared/tools/apple-typecheck/apple-typecheck.sh}
export SHARED_TOOL
[ -f "$SHARED_TOOL" ] || { echo "apple-availability: no apple-typecheck tool at $SHARED_TOOL" >&2; exit 2; }
export WORK=${WORK:-/tmp/appletc-standins}
all=false
if [ "${1:-}" = --all ]; then
    all=true
    shift
fi
platforms=${*:-macos ios}

# The layout and the report are per source tree (as scripts/apple's run directories), the caches are not.
RUN="$WORK/run-$(printf %s "$ROOT" | cksum | cut -d" " -f1)"
LAYOUT="$RUN/availability-root"
rm -rf "$LAYOUT"
mkdir -p "$LAYOUT/Sources"
cp Package.swift "$LAYOUT/"

# link FILE TARGET RELATIVE: FILE appears as Sources/TARGET/RELATIVE in the layout. In the one-module view a
# sibling target is an empty stand-in module, which `@testable import` refuses (not compiled for testing), so
# such a file is copied with `@testable` dropped (line numbers unchanged).
link() {
    mkdir -p "$(dirname "$LAYOUT/Sources/$2/$3")"
    if grep -qE '^\s*(@_spi\([A-Za-z]+\) )?@testable import' "$ROOT/$1"; then
        sed -E 's/^(\s*(@_spi\([A-Za-z]+\) )?)@testable import/\1import/' "$ROOT/$1" > "$LAYOUT/Sources/$2/$3"
    else
        ln -s "$ROOT/$1" "$LAYOUT/Sources/$2/$3"
    fi
}

folders="Sources/*/"
$all && folders="Sources/*/ Tests/*/"
for dir in $folders; do
    target=$(basename "$dir")
    # An executable target (an entry point of its own) only with --all.
    if ! $all && { [ -n "$(find "$dir" -name main.swift | head -1)" ] || grep -rqE '^\s*@main\b' --include='*.swift' "$dir"; }; then
        continue
    fi
    case $target in
        # Declares types named like the runtime's on purpose (it checks `import Latchkey`'s namespace); one
        # module with the runtime could not hold both.
        LatchkeyNamespaceFixture | LatchkeyImportTests) continue ;;
    esac
    while IFS= read -r file; do
        relative=${file#"$dir"}
        # An executable's entry point is top-level code, which a library module cannot hold.
        [ "$(basename "$file")" = main.swift ] && continue
        grep -qE '^\s*@main\b' "$file" && continue
        link "$file" "$target" "$relative"
    done < <(find "$dir" -name '*.swift' | sort)
done
# Generated code names runtime types with their module (`LatchkeyRuntime.AuthClient`); in the one-module view
# those modules are empty stand-ins, so the qualifiers are dropped (line numbers unchanged).
for file in Generated/*.swift; do
    mkdir -p "$LAYOUT/Sources/Latchkey/Generated"
    sed -E 's/\b(LatchkeyRuntime|LatchkeyTokens|LatchkeyVocabulary|LatchkeyPlatform)\.//g' "$file" \
        > "$LAYOUT/Sources/Latchkey/Generated/$(basename "$file")"
done
# A vendor-SDK module (Generated/vendor/<Module>.swift) goes to its target's folder; its re-exports
# (`@_exported import struct LatchkeyRuntime.X`) cannot name the one module and become comments.
for file in Generated/vendor/*.swift; do
    [ -f "$file" ] || continue
    mkdir -p "$LAYOUT/Sources/$(basename "$file" .swift)/Generated"
    sed -E -e 's|^([[:space:]]*)@_exported import .*|\1// re-export|' \
        -e 's/\b(LatchkeyRuntime|LatchkeyTokens|LatchkeyVocabulary|LatchkeyPlatform)\.//g' "$file" \
        > "$LAYOUT/Sources/$(basename "$file" .swift)/Generated/vendor-$(basename "$file")"
done

tests=$(cd Tests && ls -d */ | tr -d / | tr '\n' '|')
# shellcheck disable=SC2086 # platforms are words
bash scripts/apple/apple-typecheck.sh "$LAYOUT" $platforms > "$RUN/availability-report.txt" 2>&1
status=$?
# 3: the stand-in SDK did not load; 2: a usage error, or scripts/apple/apple-typecheck.sh's patch no longer applies.
[ $status -eq 3 ] || [ $status -eq 2 ] && { cat "$RUN/availability-report.txt"; exit $status; }
# Paths back to the repository's (Sources/<test target>/ is Tests/<test target>/, Sources/Latchkey/Generated/ is
# Generated/), then one correction: the stand-in SDK's Foundation is FoundationEssentials, which lacks
# Foundation's `StringProtocol.contains(_:)` (every OS), so in a file that imports Foundation a string's
# `contains` resolves to the standard library's (iOS 16) here but to Foundation's on an Apple SDK. Those are
# dropped, and counted.
sed -E -e "s#Sources/(${tests%|})/#Tests/\\1/#" -e 's#Sources/Latchkey/Generated/#Generated/#' \
    -e 's#Sources/[A-Za-z0-9]+/Generated/vendor-#Generated/vendor/#' "$RUN/availability-report.txt" |
    python3 -c '
import re, sys
kept, overloads = [], 0
for line in sys.stdin:
    line = line.rstrip("\n")
    match = re.match(r"\[\w+\] ([^:]+):\d+:\d+: .contains. is only available in", line)
    if match:
        with open(match.group(1), encoding="utf-8") as source:
            if re.search(r"^\s*import Foundation\b", source.read(), re.M):
                overloads += 1
                continue
    if re.fullmatch(r"\d+ Apple availability violation\(s\)", line):
        continue
    kept.append(line)
violations = [line for line in kept if line.startswith("[")]
print("\n".join(kept)) if kept else None
print(f"{len(violations)} Apple availability violation(s)"
      + (f" ({overloads} string contains(_:) in files importing Foundation not counted)" if overloads else ""))
sys.exit(1 if violations else 0)
'
