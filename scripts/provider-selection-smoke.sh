#!/usr/bin/env bash
# Proves that an app pays only for the providers it uses (issue 19), with plain SwiftPM builds: a throwaway
# app package depends on this package by path, applies LatchkeyBuildPlugin to its own target and selects
# catalog providers in its `latchkey-providers.json`. After every release build the app's binary holds the
# client of each selected provider (and of the app's own descriptors) and no other catalog client, and no
# symbol of the 22-provider `Latchkey` library. Also: adding and removing a provider in the selection, and
# an own descriptor beside it, each builds cleanly (no cache reset, no warning about unhandled files); a
# no-op build regenerates nothing; an unknown provider and a bad selection file fail the build at their
# line and column. All builds share one scratch directory, so only the first compiles the runtime.
# Took 365 s on this 2-core machine at load average 12 (the first release build is most of it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-selection-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT
app="$work/app"
scratch="$work/.build"
log="$work/build.log"
stamp="$work/.stamp"
started=$(date +%s)
passed=0
step() { echo "== $* ($(($(date +%s) - started)) s)"; }
fail() {
    echo "FAIL: $*"
    exit 1
}
pass() { passed=$((passed + 1)); }

# The identity SwiftPM gives a path dependency: its folder's name, lower-cased.
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"
mkdir -p "$app/Sources/TinyApp"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TinyApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "TinyApp",
            dependencies: [.product(name: "LatchkeyRuntime", package: "$identity")],
            plugins: [.plugin(name: "LatchkeyBuildPlugin", package: "$identity")]
        )
    ]
)
SWIFT
cat >"$app/Sources/TinyApp/main.swift" <<'SWIFT'
import Foundation
import LatchkeyRuntime

// A tiny app that uses one provider: Supabase.
let supabase = try SupabaseClient(
    projectURL: URL(string: "https://abcd.supabase.co")!, publishableKey: "sb_publishable_tiny")
print("Supabase", supabase)
SWIFT
choose() { echo "{ \"providers\": [$1] }" >"$app/Sources/TinyApp/latchkey-providers.json"; }

build() {
    if ! (cd "$app" && swift build -c release --scratch-path "$scratch" --product TinyApp) >"$log" 2>&1; then
        tail -30 "$log"
        fail "swift build failed"
    fi
    if grep -Ei "unhandled|missing inputs|warning:" "$log"; then fail "the build warned (above)"; fi
    tail -1 "$log"
}

# Every catalog client's type name, from the committed mirror.
catalog_types="$(grep -ho '^public struct [A-Za-z0-9]*Client:' "$root"/Generated/*.swift | awk '{print $3}' | tr -d ':' | sort)"
[ "$(echo "$catalog_types" | wc -l)" -ge 2 ] || fail "cannot read the catalog's client names from Generated/"

# Checks that the binary has a struct symbol for exactly the given client types (sorted, space-separated)
# among the catalog's and the app's own, and nothing of the Latchkey catalog library.
expect_clients() {
    local binary symbols found type
    binary="$(find "$scratch" -path '*/release/TinyApp' -type f | head -1)"
    [ -x "$binary" ] || fail "no release TinyApp binary"
    symbols="$work/symbols.txt"
    nm "$binary" >"$symbols"
    found=""
    for type in $catalog_types AcmeClient; do
        # A Swift struct's mangled name holds <length><name>V.
        if grep -q "${#type}${type}V" "$symbols"; then found="$found $type"; fi
    done
    found="$(echo "$found" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')"
    [ "${found% }" = "$1" ] || fail "the binary has clients [${found% }], expected [$1]"
    if grep -q '\$s8Latchkey' "$symbols"; then fail "the binary links the Latchkey catalog library"; fi
    strip -o "$work/stripped" "$binary"
    echo "   clients: $1; stripped binary: $(stat -c %s "$work/stripped") bytes"
}

step "a tiny app selecting supabase builds (release) with that client and no other"
choose '"supabase"'
build
expect_clients "SupabaseClient"
pass

step "a no-op build regenerates nothing"
touch "$stamp"
sleep 1
build
rewritten="$(find "$scratch" -path '*LatchkeyBuildPlugin/Generated/*.swift' -newer "$stamp")"
[ -z "$rewritten" ] || fail "a no-op build rewrote: $rewritten"
pass

step "a provider added to the selection is compiled in"
choose '"supabase", "oidc"'
build
expect_clients "OidcClient SupabaseClient"
pass

step "a provider removed from the selection is gone"
choose '"supabase"'
build
expect_clients "SupabaseClient"
pass

step "an unknown provider fails the build at its line and column"
choose '"supabase", "supabse"'
if (cd "$app" && swift build -c release --scratch-path "$scratch" --product TinyApp) >"$log" 2>&1; then
    fail "the build passed with an unknown provider"
fi
grep -E 'latchkey-providers.json:1:[0-9]+: error: the Latchkey catalog has no provider "supabse" .*did you mean "supabase"' "$log" \
    || { tail -20 "$log"; fail "no located diagnostic"; }
pass

step "a bad selection file fails the build at its line and column"
echo '{ "provider": ["supabase"] }' >"$app/Sources/TinyApp/latchkey-providers.json"
if (cd "$app" && swift build -c release --scratch-path "$scratch" --product TinyApp) >"$log" 2>&1; then
    fail "the build passed with a bad selection file"
fi
grep -E 'latchkey-providers.json:1:3: error: unknown key "provider"' "$log" || { tail -20 "$log"; fail "no located diagnostic"; }
choose '"supabase"'
pass

step "an own descriptor of the app becomes a client beside the selection"
# The latchkey-gen the plugin ran (SwiftPM names a plugin's tool build `latchkey-gen-tool`).
generator="$(find "$scratch" -name 'latchkey-gen-tool' -type f -perm -u+x | head -1)"
[ -x "$generator" ] || fail "no latchkey-gen-tool in the scratch directory"
(cd "$app" && "$generator" new acme --output Sources/TinyApp >/dev/null)
build
expect_clients "AcmeClient SupabaseClient"
pass

step "the app's descriptor removed: the build still passes"
rm "$app/Sources/TinyApp/acme.json"
build
expect_clients "SupabaseClient"
pass

step "done"
echo "provider selection smoke: $passed passed, 0 failed, in $(($(date +%s) - started)) s"
