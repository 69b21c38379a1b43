#!/usr/bin/env bash
# Builds the Latchkey documentation (Sources/Latchkey/Latchkey.docc plus the symbols of the `Latchkey`
# library) into .build/docs, and fails on any DocC warning.
#
#   scripts/docs.sh                 build the archive into .build/docs
#   scripts/docs.sh --output DIR    build it somewhere else
#
# Environment: LATCHKEY_DOCS_SCRATCH (default .build-docs) is the SwiftPM scratch path, kept apart from
# .build so that this script never fights another build; DOCC overrides the docc executable.
#
# How: `swift build --target Latchkey` with `-emit-symbol-graph`, then `docc convert --warnings-as-errors`.
# `Latchkey` re-exports the runtime's façade type by type (`@_exported import struct LatchkeyRuntime.X`),
# and one graph documents the whole API under the module users import: ``Session`` and ``SupabaseClient``
# resolve from the same catalog. The members the compiler leaves out of the re-exported types are merged
# in from the `LatchkeyRuntime` graph (below); that graph is not passed whole, or DocC would list the
# runtime's internals (and every re-exported type twice). `@_spi(Generated)` symbols are never documented.
#
# Not `swift package dump-symbol-graph`: its Latchkey graph holds only the generated clients (the
# re-exported runtime is left out, so ``AuthClient`` would not resolve from this catalog), and it builds
# every target of the package, so one broken tool or test breaks the docs. The targeted build needs only
# Latchkey's dependencies.
#
# Exit status: 0 when the archive was built without a warning; 1 on any build error or DocC warning;
# 2 on a usage error.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

output=".build/docs"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output)
            [[ $# -ge 2 ]] || { echo "docs.sh: --output needs a directory" >&2; exit 2; }
            output="$2"
            shift 2
            ;;
        -h | --help)
            sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "docs.sh: unknown argument '$1' (try --help)" >&2
            exit 2
            ;;
    esac
done

# The output directory is replaced: never let that be the package or one of its key folders.
case "$(cd "$(dirname "$output")" 2>/dev/null && pwd)/$(basename "$output")" in
    / | /. | "$root" | "$root/." | "$root/Sources" | "$root/.build")
        echo "docs.sh: refusing to replace $output; choose a dedicated directory" >&2
        exit 2
        ;;
esac

scratch="${LATCHKEY_DOCS_SCRATCH:-.build-docs}"
mkdir -p "$scratch"
scratch="$(cd "$scratch" && pwd)"
graphs="$scratch/symbol-graphs"
input="$scratch/docc-symbol-graphs"
catalog="Sources/Latchkey/Latchkey.docc"

docc="${DOCC:-}"
if [[ -z "$docc" ]]; then
    if command -v docc >/dev/null 2>&1; then
        docc="docc"
    elif command -v xcrun >/dev/null 2>&1 && xcrun --find docc >/dev/null 2>&1; then
        docc="$(xcrun --find docc)"
    else
        echo "docs.sh: docc not found; install a Swift toolchain that includes it, or set DOCC" >&2
        exit 1
    fi
fi

# 0. Articles that mirror other files must stay in step with them.
#    a) Errors.md's table of built-in codes == the vocabulary's BuiltInErrorCode (code, kind, meaning;
#       declaration order), which AuthError.Code.builtIn is made from.
#    b) Every key in the tables of docs/DescriptorFormat.md appears in DescriptorReference.md.
echo "==> Checking that the articles match the sources"
stale=0
codes_source="Sources/LatchkeyVocabulary/BuiltInErrorCode.swift"
errors_article="$catalog/Reference/Errors.md"
# The enum's cases in order (`case loginCancelled = "login_cancelled"`), then its one-row-per-code `kind`
# (`case .loginCancelled: .cancelled`) and `meaning` (`case .loginCancelled: "..."`) switches.
expected_codes=$(awk '
    /^    case [A-Za-z]+( = "[a-z_]+")?$/ {
        name = $2; code = name
        if (match($0, /"[a-z_]+"/)) code = substr($0, RSTART + 1, RLENGTH - 2)
        order[++count] = name; raw[name] = code; next
    }
    /^        case \.[A-Za-z]+: \.[A-Za-z]+$/ { sub(/:$/, "", $2); kind[substr($2, 2)] = substr($3, 2); next }
    /^        case \.[A-Za-z]+: "/ {
        name = $2; sub(/:$/, "", name); text = $0
        sub(/^[^"]*"/, "", text); sub(/"$/, "", text); meaning[substr(name, 2)] = text
    }
    END { for (i = 1; i <= count; i++) print raw[order[i]] "|" kind[order[i]] "|" meaning[order[i]] }
    ' "$codes_source" |
    sed -E 's/\|invalidInput\|/|invalid_input|/; s/\|invalidResponse\|/|invalid_response|/')
documented_codes=$(awk '/^### .*Built-in codes/ { inside = 1 } inside' "$errors_article" |
    sed -nE 's/^\| `([a-z_]+)` \| `([a-z_]+)` \| ([^|]*[^ |]) \| [^|]* \|$/\1|\2|\3/p')
if [[ -z "$expected_codes" ]]; then
    echo "docs.sh: found no BuiltInErrorCode rows in $codes_source; update this script" >&2
    stale=1
elif [[ "$expected_codes" != "$documented_codes" ]]; then
    echo "docs.sh: $errors_article is out of step with BuiltInErrorCode ($codes_source)." >&2
    echo "  (< source, > article; columns: code|kind|meaning)" >&2
    diff <(printf '%s\n' "$expected_codes") <(printf '%s\n' "$documented_codes") >&2 || true
    stale=1
fi
format_doc="docs/DescriptorFormat.md"
reference_article="$catalog/Essentials/DescriptorReference.md"
while IFS= read -r key; do
    if ! grep -qF "\`$key\`" "$reference_article"; then
        echo "docs.sh: $reference_article does not mention \`$key\`, documented in $format_doc" >&2
        stale=1
    fi
done < <(sed -nE 's/^\| `([^`]+)` \|.*$/\1/p' "$format_doc" | sort -u)
if [[ $stale -ne 0 ]]; then
    echo "docs.sh: FAILED: update the articles above" >&2
    exit 1
fi

# 1. Symbol graphs. The compiler writes a module's graph only when it emits the module, and an up-to-date
#    build emits nothing. Removing Latchkey's built module (never its build directory, whose output file
#    map SwiftPM writes only when it plans) makes the build emit it again, with its graph, which then
#    reflects the runtime's current doc comments too.
echo "==> Building Latchkey with symbol graphs (scratch path: ${scratch#"$root"/})"
rm -rf "$graphs" "$input"
# The runtime's, the tokens', the vocabulary's and the platform module's graphs are needed too (see below), so their
# modules go as well.
for module in Latchkey LatchkeyPlatform LatchkeyRuntime LatchkeyTokens LatchkeyVocabulary; do
    rm -rf "$scratch/debug/Modules/$module.swiftmodule" "$scratch/debug/$module.swiftmodule"
done
mkdir -p "$graphs" "$input"
swift build --target Latchkey --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"

if [[ ! -f "$graphs/Latchkey.symbols.json" ]]; then
    echo "docs.sh: the build wrote no Latchkey.symbols.json into $graphs" >&2
    exit 1
fi
# Latchkey's graph, and the graphs of its extensions to other modules' types, if any.
# Latchkey re-exports the runtime's façade declaration by declaration (`@_exported import struct
# LatchkeyRuntime.Session`, see Sources/Latchkey/_Latchkey.swift). The compiler puts those types into
# Latchkey's graph, but without the members their extensions declare (protocol extensions, conditional
# conformances, members in other files). They are taken from the graph of the module that declares them
# (LatchkeyRuntime, LatchkeyTokens, LatchkeyVocabulary, LatchkeyPlatform): every public, non-SPI
# symbol under a re-exported name that Latchkey's graph lacks, with the relationships between them.
python3 - "$graphs" "$graphs/Latchkey.symbols.json" "$input/Latchkey.symbols.json" Sources/Latchkey/*.swift <<'PY'
import json, pathlib, re, sys
graphs, latchkey_path, output_path, sources = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
exported = {}
pattern = re.compile(r"^@_exported import (?:struct|enum|class|protocol|typealias|func|var|actor) (\w+)\.(\w+)")
for source in sources:
    for line in open(source, encoding="utf-8"):
        match = pattern.match(line.strip())
        if match:
            exported.setdefault(match.group(1), set()).add(match.group(2))
latchkey = json.load(open(latchkey_path, encoding="utf-8"))
# The compiler also puts into Latchkey's graph what the runtime re-exports (`JSON`, `IDTokenClaims`, ... in
# Sources/LatchkeyRuntime/Support/ReExports.swift), which `import Latchkey` does not make visible: those types
# and their members are left out unless Latchkey re-exports them too.
names_latchkey_exports = set().union(*exported.values()) if exported else set()
runtime_only = set()
for path in pathlib.Path("Sources/LatchkeyRuntime").rglob("*.swift"):
    for line in open(path, encoding="utf-8"):
        match = pattern.match(line.strip())
        if match and match.group(2) not in names_latchkey_exports:
            runtime_only.add(match.group(2))
dropped = {s["identifier"]["precise"] for s in latchkey["symbols"] if s["pathComponents"][0] in runtime_only}
latchkey["symbols"] = [s for s in latchkey["symbols"] if s["identifier"]["precise"] not in dropped]
latchkey["relationships"] = [
    r for r in latchkey["relationships"] if r["source"] not in dropped and r["target"] not in dropped
]
known = {symbol["identifier"]["precise"] for symbol in latchkey["symbols"]}
added = set()
for module, names in sorted(exported.items()):
  graph = json.load(open(f"{graphs}/{module}.symbols.json", encoding="utf-8"))
  for symbol in graph["symbols"]:
    identifier = symbol["identifier"]["precise"]
    if identifier in known or symbol["pathComponents"][0] not in names:
        continue
    if symbol.get("accessLevel") != "public" or symbol.get("spi"):
        continue
    latchkey["symbols"].append(symbol)
    known.add(identifier)
    added.add(identifier)
  existing = {(r["source"], r["target"], r["kind"]) for r in latchkey["relationships"]}
  for relationship in graph["relationships"]:
    key = (relationship["source"], relationship["target"], relationship["kind"])
    if key not in existing and relationship["source"] in added and relationship["target"] in known:
        latchkey["relationships"].append(relationship)
        existing.add(key)
json.dump(latchkey, open(output_path, "w", encoding="utf-8"))
print(f"==> Took {len(added)} symbols of re-exported types from the graphs of {', '.join(sorted(exported))}; "
      f"left out {len(dropped)} of types only the runtime re-exports")
PY
shopt -s nullglob
for extension in "$graphs"/Latchkey@*.symbols.json; do
    cp "$extension" "$input/"
done
shopt -u nullglob

# 2. The archive. Warnings are errors: a broken link, a missing or misspelt parameter in a doc comment,
#    or an article naming a symbol that no longer exists fails the script.
echo "==> Converting $catalog"
rm -rf "$output"
mkdir -p "$(dirname "$output")"
log="$scratch/docc.log"
status=0
"$docc" convert "$catalog" \
    --fallback-display-name Latchkey \
    --fallback-bundle-identifier dev.latchkey.Latchkey \
    --additional-symbol-graph-dir "$input" \
    --output-path "$output" \
    --warnings-as-errors 2>&1 | tee "$log" || status=$?

diagnostics=$(grep -cE '^(warning|error):' "$log" || true)
if [[ $status -ne 0 || $diagnostics -ne 0 ]]; then
    echo "docs.sh: FAILED with $diagnostics DocC diagnostic(s) (warnings count as errors); full log: $log" >&2
    grep -E '^(warning|error):' "$log" | sort | uniq -c | sort -rn >&2 || true
    exit 1
fi
articles=$(find "$catalog" -name '*.md' | wc -l | tr -d ' ')
symbols=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["symbols"]))' \
    "$input/Latchkey.symbols.json" 2>/dev/null || echo "?")
echo "==> Documentation built without warnings: $articles articles, $symbols symbols -> $output"
