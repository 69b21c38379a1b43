#!/usr/bin/env bash
# Writes Sources/LatchkeyGenerator/Output/BuiltInTemplates/ from Templates/*.template, so that latchkey-gen
# works without a Templates/ folder (in packages that depend on Latchkey): one Swift file per template, each a
# static property of `BuiltInTemplates`, and `BuiltInTemplates.swift` listing them by file name. A test fails
# when the two drift.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/LatchkeyGenerator/Output/BuiltInTemplates
python3 - "$out" Templates/*.template <<'PY'
import sys, os, re
out, files = sys.argv[1], sorted(sys.argv[2:])
os.makedirs(out, exist_ok=True)
for stale in os.listdir(out):
    if stale.endswith(".swift"):
        os.remove(os.path.join(out, stale))
header = ["// swift-format-ignore-file", "// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.", ""]

def property_name(file_name):
    base = file_name.split(".")[0]
    partial = base.startswith("_")
    words = [w for w in re.split(r"[^A-Za-z0-9]+", base) if w]
    name = "".join(w[:1].upper() + w[1:] for w in words)
    return ("partial" + name) if partial else (name[:1].lower() + name[1:])

entries = []
for f in files:
    name = os.path.basename(f)
    prop = property_name(name)
    text = open(f, encoding="utf-8").read()
    hashes = "#"
    while ('"' + hashes) in text or ('"""' + hashes) in text:
        hashes += "#"
    lines = header + ["extension BuiltInTemplates {", f"    /// `Templates/{name}`.", f"    static let {prop} = {hashes}\"\"\""]
    lines.extend(text.split("\n"))
    lines += [f'"""{hashes}', "}", ""]
    swift_name = "BuiltInTemplates+" + name.split(".")[0].lstrip("_") + ("Partial" if name.startswith("_") else "") + ".swift"
    open(os.path.join(out, swift_name), "w", encoding="utf-8").write("\n".join(lines))
    entries.append((name, prop))
index = header + ["/// The templates compiled into latchkey-gen, used when no Templates/ folder is given.",
                  "public enum BuiltInTemplates {", "    /// Template text by file name.",
                  "    public static let all: [String: String] = ["]
index += [f'        "{name}": {prop},' for name, prop in entries]
index += ["    ]", "}", ""]
open(os.path.join(out, "BuiltInTemplates.swift"), "w", encoding="utf-8").write("\n".join(index))
PY
echo "wrote $out/"
