#!/usr/bin/env bash
# Proves the build plugin's contract with plain `swift build` runs on a copy of the package (issue 16):
# the manifest names no descriptor, so adding or removing one (a catalog descriptor or a new one) never
# breaks the build nor needs a cache reset, even with SwiftPM's manifest cache warm from the builds
# before; no build warns about unhandled files; after every build the compiled clients and the provider
# index are exactly the descriptors present. Also: an edit regenerates only its file, a no-op build
# regenerates nothing, and an invalid descriptor fails the build with its FILE:LINE:COL diagnostic.
# All builds share one scratch directory, so only the first one compiles the library. Run by `.ci/run`.
# Copies the files git tracks (with their working-tree contents; `git add` a new file to include it),
# or the whole folder but its build directories outside a git checkout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/latchkey-plugin-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$root" ls-files -z | (cd "$root" && xargs -0 tar cf - 2>/dev/null) | (cd "$work" && tar xf -)
else
    (cd "$root" && tar cf - --exclude=./.build --exclude='./.build-*' .) | (cd "$work" && tar xf -)
fi
cd "$work"
scratch="$work/.build"
log="$work/.build.log"
stamp="$work/.stamp"
started=$(date +%s)
passed=0
step() { echo "== $* ($(($(date +%s) - started)) s)"; }
fail() {
    echo "FAIL: $*"
    exit 1
}
pass() { passed=$((passed + 1)); }
outputs() { find "$scratch" -path '*LatchkeyBuildPlugin/Generated/*.swift' -newer "$1" 2>/dev/null | sort; }

# Builds the library; fails on a failed build and on any warning about unhandled files or missing inputs.
build() {
    if ! swift build --scratch-path "$scratch" --target Latchkey >"$log" 2>&1; then
        tail -30 "$log"
        fail "swift build failed"
    fi
    if grep -Ei "unhandled|missing inputs" "$log"; then fail "the build warned (above)"; fi
    tail -1 "$log"
}

# The descriptor names in Descriptors/ (not the schema), sorted, one a line.
descriptors() { find Descriptors -maxdepth 1 -name '*.json' ! -name '*.schema.json' -printf '%f\n' | sed 's/\.json$//' | sort; }

# Checks that the Latchkey module compiled one generated client per descriptor present, and nothing else,
# and that the provider index lists as many clients.
expect_clients() {
    local sources compiled expected listed
    sources="$(find "$scratch" -path '*/Latchkey.build/sources' | head -1)"
    [ -n "$sources" ] || fail "no Latchkey.build/sources in the scratch directory"
    compiled="$(grep '/LatchkeyBuildPlugin/Generated/' "$sources" | xargs -n1 basename | sed 's/\.swift$//' | grep -v '^_index$' | sort)"
    expected="$(descriptors)"
    [ "$compiled" = "$expected" ] || fail "compiled clients differ from Descriptors/: $(diff <(echo "$expected") <(echo "$compiled") | tr '\n' ' ')"
    listed="$(grep -c 'Client.provider,' "$(dirname "$(grep '/_index.swift$' "$sources")")/_index.swift")"
    [ "$listed" = "$(echo "$expected" | wc -l)" ] || fail "the index lists $listed clients for $(echo "$expected" | wc -l) descriptors"
}

step "the manifest declares no descriptor (swift package dump-package)"
swift package --scratch-path "$scratch" dump-package >"$work/dump-before.json"
python3 - "$work/dump-before.json" <<'PY' || fail "the manifest declares descriptor files"
import json, sys
targets = json.load(open(sys.argv[1]))["targets"]
declared = [r["path"] for t in targets for r in t.get("resources", []) if r["path"].endswith(".json")]
assert not declared, declared
PY
pass

step "first build"
build
expect_clients
pass

step "no-op build regenerates nothing"
touch "$stamp"
sleep 1
build
test -z "$(outputs "$stamp")" || fail "a no-op build rewrote: $(outputs "$stamp")"
pass

step "a removed catalog descriptor disappears and the build still passes"
rm Descriptors/twitch.json
build
expect_clients
if grep -q TwitchClient "$(find "$scratch" -path '*LatchkeyBuildPlugin/Generated/_index.swift' | head -1)"; then
    fail "the index still lists TwitchClient"
fi
pass

step "a new descriptor becomes a client"
# The latchkey-gen the plugins ran (SwiftPM names a plugin's tool build `latchkey-gen-tool`), so that
# `latchkey-gen new` costs no build of its own; `swift run` when that name changes.
generator="$(find "$scratch" -path '*/debug/latchkey-gen-tool' -type f | head -1)"
if [ -x "$generator" ]; then
    "$generator" new smoke-test >/dev/null
else
    swift run --scratch-path "$scratch" latchkey-gen new smoke-test >/dev/null 2>&1
fi
build
expect_clients
grep -q "public struct SmokeTestClient" "$(find "$scratch" -path '*LatchkeyBuildPlugin/Generated/smoke-test.swift' | head -1)" \
    || fail "SmokeTestClient was not generated"
pass

step "the manifest's result did not change with the descriptors"
swift package --scratch-path "$scratch" dump-package >"$work/dump-after.json"
cmp -s "$work/dump-before.json" "$work/dump-after.json" || fail "dump-package changed after adding and removing descriptors"
pass

step "an edit regenerates only its file (and the index)"
sed -i 's/"displayName": "smoke-test"/"displayName": "Smoke Test"/' Descriptors/smoke-test.json
touch "$stamp"
sleep 1
build
changed="$(outputs "$stamp" | xargs -n1 basename | tr '\n' ' ')"
[ "$changed" = "smoke-test.swift " ] || [ "$changed" = "_index.swift smoke-test.swift " ] \
    || fail "an edit rewrote: $changed"
pass

step "an invalid descriptor fails the build at its line"
cp Descriptors/smoke-test.json "$work/saved.json"
sed -i 's/"formatVersion": \([0-9]*\)/"formatVersion": \1, "bogus": true/' Descriptors/smoke-test.json
if swift build --scratch-path "$scratch" --target Latchkey >"$log" 2>&1; then fail "the build passed with an invalid descriptor"; fi
grep -E 'Descriptors/smoke-test.json:[0-9]+:[0-9]+: error: unknown key "bogus"' "$log" \
    || { tail -20 "$log"; fail "no located diagnostic"; }
cp "$work/saved.json" Descriptors/smoke-test.json
pass

step "a removed new descriptor disappears and the build still passes"
rm Descriptors/smoke-test.json
build
expect_clients
if grep -q SmokeTestClient "$(find "$scratch" -path '*LatchkeyBuildPlugin/Generated/_index.swift' | head -1)"; then
    fail "the index still lists SmokeTestClient"
fi
pass

step "the removed catalog descriptor comes back"
cp "$root/Descriptors/twitch.json" Descriptors/twitch.json
build
expect_clients
pass

step "done"
echo "plugin smoke: $passed passed, 0 failed, in $(($(date +%s) - started)) s"
