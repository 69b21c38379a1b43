#!/usr/bin/env bash
# Counts the public declarations of each Latchkey library module, as the toolchain sees them, and lists them.
#
#   scripts/public-api.sh                  count the modules of the last `swift build` (.build/debug)
#   scripts/public-api.sh --output DIR     write the lists somewhere else (default .build/public-api)
#   scripts/public-api.sh --no-build       do not run `swift build` first
#
# How: `swift build`, then `swift-symbolgraph-extract -minimum-access-level public` on each module.
# A symbol counts when its access level is public and the compiler did not synthesize it (inherited
# protocol defaults such as `!=` are left out). `@_spi` symbols are what only generated code and tests
# may use: they are counted apart (column "spi"), and never in "public". The rows "import Latchkey" and
# "import LatchkeyRuntime" count what that import puts into an app's namespace: the module's own symbols
# plus those of each declaration (or whole module) it re-exports (`@_exported import`); their lists say
# which module each symbol comes from.
#
# Writes DIR/<Module>.txt (one public symbol a line: kind, path, origin module), DIR/<Module>.spi.txt,
# DIR/import-Latchkey.txt and DIR/import-LatchkeyRuntime.txt (everything `import Latchkey` and `import
# LatchkeyRuntime` make visible) and DIR/summary.txt.
# Exit status: 0 success, 1 a build or extraction failure, 2 usage.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

output=".build/public-api"
build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output)
            [[ $# -ge 2 ]] || { echo "public-api.sh: --output needs a directory" >&2; exit 2; }
            output="$2"
            shift 2
            ;;
        --no-build) build=0; shift ;;
        -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "public-api.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done

modules=(LatchkeyVocabulary LatchkeyRuntime LatchkeyTokens LatchkeyTesting LatchkeyDescriptor Latchkey)

if [[ $build -eq 1 ]]; then
    swift build --target Latchkey >/dev/null
    swift build --target LatchkeyTesting >/dev/null
fi
bin="$(swift build --show-bin-path)"
target="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"

mkdir -p "$output"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT

includes=(-I "$bin/Modules" -I "$bin" -I "$root/Sources/CLatchkeyCrypto" -I "$root/Sources/CLatchkeyCurl")
while IFS= read -r flag; do
    [[ "$flag" == -I* ]] && includes+=(-Xcc "$flag")
done < <(pkg-config --cflags-only-I openssl 2>/dev/null | tr ' ' '\n')

printf '%-20s %8s %8s\n' module public spi >"$output/summary.txt"
for module in "${modules[@]}"; do
    if [[ ! -d "$bin/Modules/$module.swiftmodule" && ! -f "$bin/Modules/$module.swiftmodule" ]]; then
        continue
    fi
    for kind in public spi; do
        dir="$graphs/$module-$kind"
        mkdir -p "$dir"
        extra=()
        [[ $kind == spi ]] && extra=(-include-spi-symbols)
        swift-symbolgraph-extract -module-name "$module" -target "$target" "${includes[@]}" \
            -minimum-access-level public -output-dir "$dir" "${extra[@]}" >/dev/null 2>"$dir.log" || {
            echo "public-api.sh: swift-symbolgraph-extract failed for $module; see below" >&2
            cat "$dir.log" >&2
            exit 1
        }
    done
    python3 - "$module" "$graphs" "$output" <<'PY'
import json, sys, pathlib

module, graphs, output = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])

def symbols(kind):
    found = {}
    for path in sorted((graphs / f"{module}-{kind}").glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        for symbol in graph["symbols"]:
            identifier = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in identifier or symbol.get("accessLevel") != "public":
                continue
            # The module a symbol is declared in: its USR names it for Swift symbols.
            origin = symbol.get("location", {}).get("uri", "")
            origin = origin.split("/Sources/")[-1].split("/")[0] if "/Sources/" in origin else module
            entry = (symbol["kind"]["displayName"], ".".join(symbol["pathComponents"]), origin)
            found[identifier] = entry
    return found

public = symbols("public")
everything = symbols("spi")
spi = {key: value for key, value in everything.items() if key not in public}
lines = sorted(f"{kind}\t{path}\t{origin}" for kind, path, origin in public.values())
(output / f"{module}.txt").write_text("\n".join(lines) + "\n")
spi_lines = sorted(f"{kind}\t{path}\t{origin}" for kind, path, origin in spi.values())
(output / f"{module}.spi.txt").write_text("\n".join(spi_lines) + "\n")
with open(output / "summary.txt", "a") as summary:
    summary.write(f"{module:<20} {len(public):>8} {len(spi):>8}\n")
PY
done
# What `import Latchkey` and `import LatchkeyRuntime` put into an app's namespace: the module's own symbols
# plus what it re-exports, a whole module (`@_exported import M`) or one declaration and its members
# (`@_exported import struct M.X`).
visible() {
    local module="$1"
    shift
    python3 - "$output" "$module" "$@" <<'PY'
import re, sys, pathlib
output, module, sources = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
own = (output / f"{module}.txt").read_text().split("\n") if (output / f"{module}.txt").exists() else []
visible = [line for line in own if line]
pattern = re.compile(r"^@_exported import (?:(?:struct|enum|class|protocol|typealias|func|var|actor) )?([A-Za-z_]+)(?:\.([A-Za-z_]+))?")
for source in sources:
    for line in open(source, encoding="utf-8"):
        match = pattern.match(line.strip())
        if not match:
            continue
        origin, name = match.groups()
        listing = output / f"{origin}.txt"
        if not listing.exists():
            continue
        for entry in listing.read_text().split("\n"):
            if not entry:
                continue
            path = entry.split("\t")[1]
            if name is None or path == name or path.startswith(name + "."):
                visible.append(entry)
with open(output / "summary.txt", "a") as summary:
    summary.write(f"{'import ' + module:<24} {len(visible):>8}\n")
(output / f"import-{module}.txt").write_text("\n".join(sorted(visible)) + "\n")
PY
}
visible Latchkey Sources/Latchkey/*.swift
runtime_sources=()
while IFS= read -r source; do runtime_sources+=("$source"); done < <(find Sources/LatchkeyRuntime -name '*.swift' | sort)
visible LatchkeyRuntime "${runtime_sources[@]}"
cat "$output/summary.txt"
echo "==> lists in $output/<Module>.txt (public) and <Module>.spi.txt (@_spi only)"
