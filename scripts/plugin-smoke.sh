#!/usr/bin/env bash
# Proves the build plugin's contract with plain `swift build` runs on a copy of the package:
# a new descriptor becomes a client, an edit regenerates only its file, a no-op build regenerates
# nothing, a removed descriptor disappears without breaking the build, and an invalid descriptor
# fails the build with its FILE:LINE:COL diagnostic. Slow (several builds): run by hand or in CI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-plugin-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT
git -C "$root" ls-files -z | (cd "$root" && xargs -0 tar cf - 2>/dev/null) | (cd "$work" && tar xf -)
cd "$work"
scratch="$work/.build"
outputs() { find "$scratch" -path '*LatchkeyBuildPlugin/Generated/*.swift' -newer "$1" 2>/dev/null | sort; }
build() { swift build --scratch-path "$scratch" --target Latchkey 2>&1; }
step() { echo "== $*"; }

step "first build"
build | tail -1
stamp="$work/.stamp"

step "no-op build regenerates nothing"
touch "$stamp"; sleep 1
build | tail -1
test -z "$(outputs "$stamp")" || { echo "FAIL: a no-op build rewrote: $(outputs "$stamp")"; exit 1; }

step "a new descriptor becomes a client"
swift run --scratch-path "$scratch" latchkey-gen new smoke-test >/dev/null
touch "$stamp"; sleep 1
build | tail -1
grep -q "public struct SmokeTestClient" "$(find "$scratch" -path '*LatchkeyBuildPlugin/Generated/smoke-test.swift' | head -1)" \
    || { echo "FAIL: SmokeTestClient was not generated"; exit 1; }

step "an edit regenerates only its file (and the index)"
sed -i 's/"displayName": "smoke-test"/"displayName": "Smoke Test"/' Descriptors/smoke-test.json
touch "$stamp"; sleep 1
build | tail -1
changed="$(outputs "$stamp" | xargs -n1 basename | tr '\n' ' ')"
[ "$changed" = "smoke-test.swift " ] || [ "$changed" = "_index.swift smoke-test.swift " ] \
    || { echo "FAIL: an edit rewrote: $changed"; exit 1; }

step "an invalid descriptor fails the build at its line"
cp Descriptors/smoke-test.json "$work/saved.json"
sed -i 's/"formatVersion": 1/"formatVersion": 1, "bogus": true/' Descriptors/smoke-test.json
if out="$(build)"; then echo "FAIL: the build passed with an invalid descriptor"; exit 1; fi
echo "$out" | grep -E 'Descriptors/smoke-test.json:[0-9]+:[0-9]+: error: unknown key "bogus"' \
    || { echo "FAIL: no located diagnostic"; echo "$out" | tail -20; exit 1; }
cp "$work/saved.json" Descriptors/smoke-test.json

step "a removed descriptor disappears and the build still passes"
rm Descriptors/smoke-test.json
build | tail -1
if find "$scratch" -path '*LatchkeyBuildPlugin/Generated/_index.swift' -exec grep -q SmokeTestClient {} \; -print | grep -q .; then
    echo "FAIL: the index still lists the removed client"; exit 1
fi
echo "plugin smoke: 5 passed, 0 failed"
