#!/usr/bin/env bash
# Measures what an unused provider costs an app (issue 19; `latchkey-bench` runs it for its "size" section).
# A throwaway app package depends on a copy of this package by path and has three tiny executables that all
# use SupabaseClient and nothing else: `One` selects supabase (latchkey-providers.json), `Two` selects supabase
# and oidc, and `Catalog` imports the opt-in `Latchkey` library (every catalog client). They are built in
# release mode with a catalog of supabase alone, then of supabase and oidc; `One` is built a third time, with
# the catalog of one, by a copy of the app that turns the package's default trait off (`traits: []`: no
# link-time optimisation of the runtime on Linux, see Package.swift). Each binary is stripped.
# Prints one `SIZE <round>.<app> <bytes>` line per binary (round `one`: catalog of 1; `two`: catalog of 2;
# `plain`: `One` again with a catalog of 1 and the trait off), or `SKIP <reason>` when a toolchain step is
# missing, and exits 1 when a build fails.
# Takes about 7 minutes on an idle 2-core machine (396 s on 2026-12-06), 15-20 on a busy one (three release
# builds of the runtime).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-provider-size.XXXXXX)"
# LATCHKEY_SIZE_KEEP=1 keeps the throwaway packages and their build for a look afterwards.
[ "${LATCHKEY_SIZE_KEEP:-0}" = 1 ] && echo "keeping $work" >&2 || trap 'rm -rf "$work"' EXIT
for tool in swift strip nm git; do
    command -v "$tool" >/dev/null || {
        echo "SKIP $tool is not installed"
        exit 0
    }
done
latchkey="$work/latchkey"
app="$work/app"
scratch="$work/.build"
mkdir -p "$latchkey"
git -C "$root" ls-files -z | (cd "$root" && xargs -0 tar cf - 2>/dev/null) | (cd "$latchkey" && tar xf -)

mkdir -p "$app/Sources/One" "$app/Sources/Two" "$app/Sources/Catalog"
cat >"$app/Package.swift" <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let runtime: Target.Dependency = .product(name: "LatchkeyRuntime", package: "latchkey")
let plugin: Target.PluginUsage = .plugin(name: "LatchkeyBuildPlugin", package: "latchkey")
let package = Package(
    name: "TinyApps",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "../latchkey")],
    targets: [
        .executableTarget(name: "One", dependencies: [runtime], plugins: [plugin]),
        .executableTarget(name: "Two", dependencies: [runtime], plugins: [plugin]),
        .executableTarget(name: "Catalog", dependencies: [.product(name: "Latchkey", package: "latchkey")]),
    ]
)
SWIFT
for target in One Two Catalog; do
    module="LatchkeyRuntime"
    [ "$target" = Catalog ] && module="Latchkey"
    cat >"$app/Sources/$target/main.swift" <<SWIFT
import Foundation
import $module

// A tiny app that uses one provider: Supabase.
let supabase = try SupabaseClient(
    projectURL: URL(string: "https://abcd.supabase.co")!, publishableKey: "sb_publishable_tiny")
print(supabase.state, supabase)
SWIFT
done
echo '{ "providers": ["supabase"] }' >"$app/Sources/One/latchkey-providers.json"
echo '{ "providers": ["supabase", "oidc"] }' >"$app/Sources/Two/latchkey-providers.json"

# Builds the products in release mode, checks which clients each binary holds (so that a stale build can
# never pass for a measurement) and prints the size of each stripped binary. Arguments: the round, then
# PRODUCT=CLIENTS pairs (CLIENTS: the client types expected in the binary, comma-separated and sorted).
measure() {
    local round="$1" pair product expected binary found type
    shift
    for pair in "$@"; do
        product="${pair%%=*}"
        expected="${pair#*=}"
        if ! (cd "$app" && swift build -c release --scratch-path "$scratch" --product "$product") \
            >"$work/build.log" 2>&1; then
            tail -20 "$work/build.log" >&2
            echo "FAIL swift build -c release --product $product (round $round)"
            exit 1
        fi
        binary="$(find "$scratch" -path "*/release/$product" -type f | head -1)"
        nm "$binary" >"$work/symbols.txt"
        found=""
        for type in OidcClient SupabaseClient; do
            # A Swift struct's mangled name holds <length><name>V.
            if grep -q "${#type}${type}V" "$work/symbols.txt"; then found="$found,$type"; fi
        done
        if [ "${found#,}" != "$expected" ]; then
            echo "FAIL $product holds [${found#,}] in round $round, expected [$expected]"
            exit 1
        fi
        strip -o "$work/stripped" "$binary"
        echo "SIZE $round.$product $(wc -c <"$work/stripped")"
    done
}

# Round one: a catalog of supabase alone (Two selects oidc, so it is built in round two only).
find "$latchkey/Descriptors" -maxdepth 1 -name '*.json' ! -name '*.schema.json' ! -name 'supabase.json' -delete
measure one One=SupabaseClient Catalog=SupabaseClient
# Round plain: the same `One` from a copy of the app whose dependency turns the package's default trait off
# (`traits: []`), as an app built with `--build-system swiftbuild` or another linker than lld must: the runtime's
# objects are then native, and a source file's data is one section (docs/Performance.md).
cp -R "$app" "$work/app-plain"
sed -i 's|.package(path: "../latchkey")|.package(path: "../latchkey", traits: [])|' "$work/app-plain/Package.swift"
grep -q 'traits: \[\]' "$work/app-plain/Package.swift" || {
    echo "FAIL the plain round's app does not turn the trait off"
    exit 1
}
(app="$work/app-plain" scratch="$work/.build-plain" measure plain One=SupabaseClient)
# Round two: the catalog gains oidc, built in a scratch directory of its own. SwiftPM does not re-plan a
# path dependency's targets when its folder (or even its manifest) changes, so in the first round's scratch
# directory the `Latchkey` library would keep its one client (the nm check above catches that).
cp "$root/Descriptors/oidc.json" "$latchkey/Descriptors/oidc.json"
scratch="$work/.build-two"
measure two One=SupabaseClient Two=OidcClient,SupabaseClient Catalog=OidcClient,SupabaseClient
