#!/usr/bin/env python3
"""Keeps the compiler diagnostics that fall in Apple-only code.

Apple-only code is every line that the compiler sees when building for the Apple platform and never sees when
building for Linux: the active branch of an `#if` whose condition is true for the Apple platform and false for
Linux (`canImport(AuthenticationServices)`, `os(macOS)`, `canImport(Darwin)`, ...). Lines inside multi-line
string literals are not read as directives. Linux builds and tests cover the rest, so errors there are artefacts of the stand-in SDK (which lacks
URLSession, most of Darwin, FoundationInternationalization, ...).

Usage: apple_regions.py PLATFORM MAPFILE LOGFILE [DEFERRED_REGEX]
  MAPFILE: lines "<path the compiler saw>\t<path to report>"; LOGFILE: the compiler's llvm-style diagnostics.
Prints one "path:line:col: error|warning: message" per diagnostic in Apple-only code (deduplicated), then, on
stderr, "deferred: " lines for errors matching DEFERRED_REGEX and "artefact: " lines for the diagnostics in
ARTEFACTS (reported, not counted). Exit status: the count of
errors and warnings kept (capped at 100).
"""
import re
import sys

APPLE_SDK = {"Darwin", "Dispatch", "Foundation", "FoundationEssentials", "CoreFoundation", "ObjectiveC", "Security",
             "CryptoKit", "AuthenticationServices", "SwiftUI", "Combine", "os", "OSLog", "Network",
             "LocalAuthentication", "Observation", "Synchronization", "_Concurrency", "Testing", "XCTest"}
LINUX_SDK = {"Glibc", "Dispatch", "Foundation", "FoundationEssentials", "FoundationNetworking", "Synchronization",
             "Observation", "_Concurrency", "CLatchkeyCrypto", "Testing", "XCTest"}
# Diagnostics that are artefacts of how this check compiles, whatever the code: dropped everywhere.
ARTEFACTS = [
    # All library targets are compiled as one module, so their imports of each other name the module itself.
    re.compile(r"is part of module '\w+'; ignoring import"),
    # The standard library built from its textual interface lacks the intrinsics of `&value` to pointer
    # conversions: such an argument is not type-checked (the rest of the call is).
    re.compile(r"broken standard library: cannot find intrinsic operations"),
]
KNOWN = APPLE_SDK | LINUX_SDK | {"AppKit", "UIKit", "Musl", "WinSDK", "Android", "Bionic"}


def environment(platform):
    """(canImport set, os name) for 'macos', 'ios', 'tvos', 'watchos', 'visionos' or 'linux'."""
    if platform == "linux":
        return LINUX_SDK, "Linux"
    ui = {"macos": {"AppKit"}, "ios": {"UIKit"}, "tvos": {"UIKit"}, "watchos": set(), "visionos": {"UIKit"}}[platform]
    names = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}
    return APPLE_SDK | ui, names[platform]


def evaluate(condition, platform):
    modules, os_name = environment(platform)
    expr = condition.split("//")[0].strip()

    def can_import(match):
        name = match.group(1).split(".")[0].strip()
        if name not in KNOWN:
            return " True "  # a module this filter does not know: the same on both sides
        return " True " if name in modules else " False "

    expr = re.sub(r"canImport\(\s*([\w.]+)[^)]*\)", can_import, expr)
    expr = re.sub(r"\bos\(\s*(\w+)\s*\)", lambda m: " True " if m.group(1) == os_name else " False ", expr)
    # arch, compiler, swift, hasFeature, targetEnvironment, ...: taken as the same on both sides.
    expr = re.sub(r"\b\w+\([^()]*\)", " True ", expr)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    expr = re.sub(r"\b(?!True\b|False\b|and\b|or\b|not\b)[A-Za-z_]\w*\b", " False ", expr)  # undefined flags
    try:
        return bool(eval(expr, {"__builtins__": {}}))
    except Exception:
        return True


def apple_only_lines(path, platform):
    """The 1-based numbers of the lines active for `platform` and inactive for Linux."""
    result = set()
    stack = []  # per open #if: [apple taken, linux taken, apple active now, linux active now]
    in_string = False
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError:
        return result
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not in_string:
            directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        else:
            directive = None
        if stripped.count('"""') % 2 == 1:
            in_string = not in_string
        outer_apple = all(frame[2] for frame in stack)
        outer_linux = all(frame[3] for frame in stack)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind == "if":
                apple, linux = evaluate(condition, platform), evaluate(condition, "linux")
                stack.append([apple, linux, apple, linux])
            elif kind == "elseif" and stack:
                frame = stack[-1]
                apple = not frame[0] and evaluate(condition, platform)
                linux = not frame[1] and evaluate(condition, "linux")
                frame[0] |= apple
                frame[1] |= linux
                frame[2], frame[3] = apple, linux
            elif kind == "else" and stack:
                frame = stack[-1]
                frame[2], frame[3] = not frame[0], not frame[1]
                frame[0] = frame[1] = True
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if outer_apple and not outer_linux:
            result.add(number)
    return result


def main():
    platform, map_file, log_file = sys.argv[1:4]
    deferred = re.compile(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
    paths = dict(line.rstrip("\n").split("\t") for line in open(map_file) if "\t" in line)
    regions = {}
    kept, deferred_lines, artefact_lines = [], [], []
    pattern = re.compile(r"^(.+?):(\d+):(\d+): (error|warning): (.*)$")
    for line in open(log_file, encoding="utf-8", errors="replace"):
        match = pattern.match(line.rstrip("\n"))
        if not match or match.group(1) not in paths:
            continue
        path, row = match.group(1), int(match.group(2))
        if path not in regions:
            regions[path] = apple_only_lines(path, platform)
        if row not in regions[path]:
            continue
        text = "%s:%s:%s: %s: %s" % (paths[path], row, match.group(3), match.group(4), match.group(5))
        if any(artefact.search(match.group(5)) for artefact in ARTEFACTS):
            if text not in artefact_lines:
                artefact_lines.append(text)
        elif deferred and match.group(4) == "error" and deferred.search(match.group(5)):
            if text not in deferred_lines:
                deferred_lines.append(text)
        elif text not in kept:
            kept.append(text)
    for text in kept:
        print(text)
    for text in deferred_lines:
        print("deferred: " + text, file=sys.stderr)
    for text in artefact_lines:
        print("artefact: " + text, file=sys.stderr)
    sys.exit(min(len(kept), 100))


if __name__ == "__main__":
    main()
