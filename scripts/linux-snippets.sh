#!/usr/bin/env bash
# Type-checks the documentation's complete Swift code blocks against the modules `swift build` made, as an
# app on Linux compiles them: README.md, docs/*.md and the DocC catalog. Complements
# scripts/apple/snippet-check.sh, whose one-module view of Latchkey re-exports the whole runtime; here
# `import Latchkey` is the real module, with its declaration-by-declaration re-exports, so a snippet naming a
# type it does not re-export, or missing `import Foundation`, fails as it would in an app.
#
# Convention (as snippet-check.sh's): a ```swift block whose first line is an `import` is a complete file; other
# blocks are fragments and are not compiled. A block with `@main` is a library file, any other one a main.swift.
# Blocks importing an Apple-only framework (SwiftUI, UIKit, AppKit, AuthenticationServices, ...) are left to
# snippet-check.sh. Needs a debug build (`swift build`). Prints `FILE:LINE: error: ...` per failing block and
# exits 1 when one fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
modules="$root/.build/debug/Modules"
[[ -d "$modules" ]] || { echo "linux-snippets.sh: no $modules; run swift build first" >&2; exit 2; }
work="$(mktemp -d /tmp/latchkey-snippets.XXXXXX)"
trap 'rm -rf "$work"' EXIT
flags=(-typecheck -I "$modules")
for map in Sources/C*/module.modulemap; do flags+=(-Xcc "-fmodule-map-file=$root/$map"); done

python3 - "$work" README.md docs/*.md $(find Sources/Latchkey/Latchkey.docc -name '*.md' | sort) <<'PY'
import os, re, sys
work, files = sys.argv[1], sys.argv[2:]
apple = re.compile(r"^\s*import\s+(SwiftUI|UIKit|AppKit|AuthenticationServices|WatchKit|Combine|Observation"
                   r"|CryptoKit|Security|LocalAuthentication)\b", re.M)
count = 0
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            start, j = i + 1, i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            block = lines[start:j]
            if block and block[0].startswith("import ") and not apple.search("\n".join(block)):
                count += 1
                kind = "lib" if any("@main" in line for line in block) else "main"
                name = f"{count:03d}.{kind}.swift"
                open(os.path.join(work, name), "w", encoding="utf-8").write("\n".join(block) + "\n")
                open(os.path.join(work, name + ".where"), "w").write(f"{path}:{start + 1}")
            i = j
        i += 1

PY
failed=0
total=0
for file in "$work"/*.swift; do
    [[ -e "$file" ]] || continue
    total=$((total + 1))
    where="$(cat "$file.where")"
    mode=()
    [[ "$file" == *.lib.swift ]] && mode=(-parse-as-library)
    if ! output="$(swiftc "${flags[@]}" "${mode[@]}" "$file" 2>&1)"; then
        failed=$((failed + 1))
        # The compiler's `FILE:LINE:COLUMN: error: ...` lines, with the block's place in the document.
        grep -E '^[^ ]+\.swift:[0-9]+:[0-9]+: error:' <<<"$output" | head -5 |
            awk -v doc="${where%:*}" -v first="${where##*:}" -F: '{
                line = first + $2 - 1; sub(/^[^:]*:[0-9]+:[0-9]+:/, ""); print doc ":" line ":" $0 }' || true
    fi
done
echo "linux-snippets.sh: $total complete blocks type-checked, $failed failed"
[[ $failed -eq 0 ]]
