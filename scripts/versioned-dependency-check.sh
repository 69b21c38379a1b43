#!/usr/bin/env bash
# Proves that an app can depend on this package by version although its manifest sets release-only compiler
# flags (`unsafeFlags`: `-internalize-at-link`, `-function-sections`, `-Osize`; see Package.swift and
# docs/Performance.md). SwiftPM refuses such flags in a versioned dependency unless the dependency's manifest
# declares swift-tools-version 6.2 or later (a branch dependency and the root package are let through either
# way), so no other build here would notice if the manifest lost that. A throwaway git copy
# of the committed tree is tagged 0.0.1; a throwaway app depends on it with `from: "0.0.1"`, uses the
# LatchkeyRuntime product in one target and builds another, empty target, which loads and checks the whole
# package graph without compiling the runtime. With the manifest at tools 6.1 it fails ("the target
# 'LatchkeyPlatform' in product 'LatchkeyRuntime' contains unsafe build flags"). Prints PASS or FAIL; exits 1
# on a failure. Takes about 20 s (a clone, the resolution, the manifests' evaluation).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-versioned-dependency.XXXXXX)"
trap 'rm -rf "$work"' EXIT

git clone -q --no-local "$root" "$work/latchkey"
git -C "$work/latchkey" -c user.email=check@latchkey.invalid -c user.name=check tag -a 0.0.1 -m check
app="$work/app"
mkdir -p "$app/Sources/Uses" "$app/Sources/Empty"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "VersionedApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(url: "file://$work/latchkey", from: "0.0.1")],
    targets: [
        .target(name: "Uses", dependencies: [.product(name: "LatchkeyRuntime", package: "latchkey")]),
        .target(name: "Empty"),
    ]
)
SWIFT
echo 'import LatchkeyRuntime' >"$app/Sources/Uses/Uses.swift"
echo 'public let empty = 0' >"$app/Sources/Empty/Empty.swift"
if (cd "$app" && swift build --target Empty) >"$work/build.log" 2>&1; then
    echo "PASS an app builds with Latchkey as a versioned dependency (from: \"0.0.1\")"
else
    tail -5 "$work/build.log"
    echo "FAIL an app cannot use Latchkey as a versioned dependency (from: \"0.0.1\")"
    exit 1
fi
