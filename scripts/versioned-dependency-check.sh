#!/usr/bin/env bash
# Proves that an app can depend on this package by version although its manifest sets release-only compiler
# flags (`unsafeFlags`: `-internalize-at-link`, `-function-sections`, `-Osize`; see Package.swift and
# docs/Performance.md). SwiftPM refuses such flags in a versioned or branch dependency unless the dependency's
# manifest declares swift-tools-version 6.2 or later, and never in the root package, so no other build here
# would notice if the manifest lost that. A throwaway git copy of the committed tree is tagged 0.0.1; a throwaway
# app depends on it with `from: "0.0.1"` and a branch, uses the LatchkeyRuntime product in one target and
# builds another, empty target, which loads and checks the whole package graph without compiling the runtime.
# Prints PASS or FAIL lines; exits 1 on a failure. Takes about a minute (a clone and the manifest's evaluation).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-versioned-dependency.XXXXXX)"
trap 'rm -rf "$work"' EXIT
failed=0

git clone -q --no-local "$root" "$work/latchkey"
git -C "$work/latchkey" -c user.email=check@latchkey.invalid -c user.name=check tag -a 0.0.1 -m check
branch="$(git -C "$work/latchkey" branch --show-current)"

for requirement in 'from: "0.0.1"' "branch: \"$branch\""; do
    app="$work/app"
    rm -rf "$app"
    mkdir -p "$app/Sources/Uses" "$app/Sources/Empty"
    cat >"$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "VersionedApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(url: "file://$work/latchkey", $requirement)],
    targets: [
        .target(name: "Uses", dependencies: [.product(name: "LatchkeyRuntime", package: "latchkey")]),
        .target(name: "Empty"),
    ]
)
SWIFT
    echo 'import LatchkeyRuntime' >"$app/Sources/Uses/Uses.swift"
    echo 'public let empty = 0' >"$app/Sources/Empty/Empty.swift"
    if (cd "$app" && swift build -c release --target Empty) >"$work/build.log" 2>&1; then
        echo "PASS a versioned app builds with Latchkey as a dependency ($requirement)"
    else
        tail -5 "$work/build.log"
        echo "FAIL a versioned app cannot use Latchkey as a dependency ($requirement)"
        failed=1
    fi
done
exit "$failed"
