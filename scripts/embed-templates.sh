#!/usr/bin/env bash
# Writes Sources/LatchkeyGenerator/Output/BuiltInTemplates.swift from Templates/*.template, so that
# latchkey-gen works without a Templates/ folder (in packages that depend on Latchkey). A test fails
# when the two drift.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/LatchkeyGenerator/Output/BuiltInTemplates.swift
python3 - "$out" Templates/*.template <<'PY'
import sys, os
out, files = sys.argv[1], sorted(sys.argv[2:])
lines = ["// swift-format-ignore-file", "// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.", "",
         "/// The templates compiled into latchkey-gen, used when no Templates/ folder is given.",
         "public enum BuiltInTemplates {", "    /// Template text by file name.",
         "    public static let all: [String: String] = ["]
for f in files:
    text = open(f, encoding="utf-8").read()
    hashes = "#"
    while ('"' + hashes) in text or ('"""' + hashes) in text:
        hashes += "#"
    lines.append(f'        "{os.path.basename(f)}": {hashes}"""')
    lines.extend(text.split("\n"))
    lines.append(f'"""{hashes},')
lines += ["    ]", "}", ""]
open(out, "w", encoding="utf-8").write("\n".join(lines))
PY
echo "wrote $out"
