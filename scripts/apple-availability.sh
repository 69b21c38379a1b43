#!/usr/bin/env bash
# The Apple availability gate: the package's Swift files (library targets, the generated clients in Generated/
# and the executables' files other than their entry points; with --tests, the test targets too) type-checked
# for macOS and iOS at the deployment targets Package.swift declares, with the real compiler against the
# stand-in SDK of ../shared/tools/apple-typecheck (see its README for what it cannot see). Prints each violation
# and a count; exits non-zero when there is one.
#
#   bash scripts/apple-availability.sh              # macOS and iOS
#   bash scripts/apple-availability.sh ios          # one platform
#   bash scripts/apple-availability.sh --tests      # test targets included (not yet clean: see README)
#
# The shared tool type-checks the folders under a root's Sources/ as one module, so this script lays out a
# throwaway root whose Sources/ holds, per target, symbolic links to the real files, and maps the paths it prints
# back to the repository's.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TOOL=${APPLE_TYPECHECK:-$ROOT/../shared/tools/apple-typecheck/apple-typecheck.sh}
WORK=${WORK:-/tmp/latchkey-apple-availability}
[ -x "$TOOL" ] || [ -f "$TOOL" ] || { echo "apple-availability: no apple-typecheck tool at $TOOL" >&2; exit 2; }
folders="Sources/*/"
if [ "${1:-}" = --tests ]; then
    folders="Sources/*/ Tests/*/"
    shift
fi

LAYOUT="$WORK/root"
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

for dir in $folders; do
    target=$(basename "$dir")
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
for file in Generated/*.swift; do
    link "$file" Latchkey "Generated/$(basename "$file")"
done

tests=$(cd Tests && ls -d */ | tr -d / | tr '\n' '|')
WORK="$WORK/typecheck" bash "$TOOL" "$LAYOUT" "$@" > "$WORK/report.txt" 2>&1
status=$?
# Paths back to the repository's: Sources/<test target>/ is Tests/<test target>/, Sources/Latchkey/Generated/ is
# Generated/.
sed -E -e "s#Sources/(${tests%|})/#Tests/\\1/#" -e 's#Sources/Latchkey/Generated/#Generated/#' "$WORK/report.txt"
exit $status
