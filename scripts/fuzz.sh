#!/usr/bin/env bash
# Builds Latchkey's libFuzzer targets (the separate package in Fuzz/) and runs each one for a while on a
# copy of its committed seed corpus (Fuzz/Corpus/<Target>/), then prints one line per target:
# executions, executions per second, corpus size, new inputs, crashes.
#
#   scripts/fuzz.sh [--seconds N] [--merge] [--skip-build] [TARGET...]
#
#   --seconds N    how long to fuzz each target (default 10, what CI runs)
#   --merge        afterwards, add the inputs that found new coverage to Fuzz/Corpus/<Target>/
#                  (minimized by libFuzzer's -merge=1; review and commit them)
#   --skip-build   use the binaries already in Fuzz/.build
#   TARGET         FuzzDescriptor, FuzzCallbackURL, FuzzTokenResponse, FuzzJWT, FuzzPaseto, FuzzDPoPChallenge
#                  (default: all)
#
# Runs work in a temporary directory, so the repository stays clean unless --merge is given. The script
# exits with status 1 when any target crashed, hung or ran out of memory; the input that did it is kept
# (its path, a hex dump and the end of libFuzzer's log with the stack are printed) and copied to
# Fuzz/.artifacts/<Target>/. Reproduce with:
#   SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 Fuzz/.build/release/<Target> <artifact>
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

all_targets=(FuzzDescriptor FuzzCallbackURL FuzzTokenResponse FuzzJWT FuzzPaseto FuzzDPoPChallenge)
seconds=10
merge=0
build=1
targets=()

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

while (($#)); do
    case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    --merge) merge=1; shift ;;
    --skip-build) build=0; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
        if [[ " ${all_targets[*]} " != *" $1 "* ]]; then
            echo "fuzz.sh: unknown target $1 (known: ${all_targets[*]})" >&2
            exit 2
        fi
        targets+=("$1")
        shift
        ;;
    esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] && ((seconds > 0)) || { echo "fuzz.sh: --seconds must be a positive integer" >&2; exit 2; }
((${#targets[@]})) || targets=("${all_targets[@]}")

bin_dir=Fuzz/.build/release

# FuzzTokenResponse fuzzes Supabase's real provider spec. The Latchkey product that holds the generated
# clients cannot be built with --sanitize=fuzzer (its build plugin's tool has a main of its own, which
# clashes with libFuzzer's), so the spec is extracted from Generated/supabase.swift before each build into
# Fuzz/Sources/FuzzTokenResponse/SupabaseSpec.swift (ignored by git: the generated mirror is the one copy).
refresh_supabase_spec() {
    local source=Generated/supabase.swift target=Fuzz/Sources/FuzzTokenResponse/SupabaseSpec.swift fresh
    [[ -f "$source" ]] || return 0
    fresh=$(mktemp)
    {
        echo "// SupabaseClient.provider, extracted from Generated/supabase.swift by scripts/fuzz.sh (not committed)."
        echo "// (The Latchkey product, which holds the generated clients, cannot be built with --sanitize=fuzzer.)"
        echo "// swift-format-ignore-file"
        echo
        echo "import Foundation"
        echo "@_spi(Generated) import LatchkeyRuntime"
        echo
        awk '/^    (@_spi\(Generated\) )?public static let provider: LatchkeyRuntime.ProviderSpec = /{on=1; sub(/(@_spi\(Generated\) )?public static let provider/, "let supabaseProvider")}
             on{sub(/^    /, ""); print}
             on && /^\)$/{exit}' "$source"
    } >"$fresh"
    if ! grep -q '^let supabaseProvider' "$fresh"; then
        echo "fuzz.sh: could not find SupabaseClient.provider in $source; keeping the old copy" >&2
    elif ! cmp -s "$fresh" "$target"; then
        echo "== refreshed $target from $source"
        cp "$fresh" "$target"
    fi
    rm -f "$fresh"
}

if ((build)); then
    refresh_supabase_spec
    # SwiftPM passes each --sanitize as its own -sanitize= flag, and swiftc keeps only the last one: with
    # --sanitize=fuzzer --sanitize=address alone the code gets ASan but no coverage instrumentation, and
    # libFuzzer runs blind ("no interesting inputs were found"). -Xswiftc -sanitize=fuzzer,address comes
    # last and carries both. The --sanitize flags stay for SwiftPM's own link step.
    build_flags=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
        --package-path Fuzz --scratch-path Fuzz/.build)
    build_log=$(mktemp "${TMPDIR:-/tmp}/latchkey-fuzz-build.XXXXXX")
    if ((${#targets[@]} == ${#all_targets[@]})); then
        products=("")  # one invocation builds every target of the Fuzz package
    else
        products=("${targets[@]}")
    fi
    echo "== build (release, ASan + libFuzzer; the first build takes several minutes)"
    start=$(date +%s)
    for product in "${products[@]}"; do
        # SwiftPM also tries to link the main package's plugin tool (latchkey-gen) with libFuzzer and reports
        # "multiple definition of 'main'"; that tool is not used here and the failure does not fail the build.
        # One retry: a second, incremental invocation gets past a flaky SwiftPM/llbuild crash.
        if ! swift build "${build_flags[@]}" ${product:+--product "$product"} >>"$build_log" 2>&1 &&
            ! swift build "${build_flags[@]}" ${product:+--product "$product"} >>"$build_log" 2>&1; then
            grep -v "latchkey_gen\|latchkey-gen\|FuzzerMain.cpp\|__asan_extra_spill_area\|format_file_lineno\|linker command failed\|link command failed" \
                "$build_log" | tail -60 >&2
            echo "fuzz.sh: the build failed; full log: $build_log" >&2
            exit 2
        fi
    done
    echo "   done in $(($(date +%s) - start)) s (log: $build_log)"
fi

for target in "${targets[@]}"; do
    binary=$bin_dir/$target
    if [[ ! -x "$binary" ]]; then
        echo "fuzz.sh: $binary is missing; build without --skip-build" >&2
        exit 2
    fi
    # Guard against a binary built without coverage instrumentation: it would "fuzz" without learning.
    if command -v objdump >/dev/null && [[ $(objdump -h "$binary" | grep -c __sancov_cntrs) == 0 ]]; then
        echo "fuzz.sh: $binary has no coverage instrumentation (see the build flags above)" >&2
        exit 2
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-fuzz.XXXXXX")
failed=0
rows=()
for target in "${targets[@]}"; do
    dir=$work/$target
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp -R "Fuzz/Corpus/$target/." "$dir/corpus/"
    if [[ $target == FuzzDescriptor ]]; then
        # The descriptors as they are now, in case they moved on since the corpus was committed.
        for file in Descriptors/*.json; do cp "$file" "$dir/corpus/current-$(basename "$file")"; done
    fi
    seeds=$(find "$dir/corpus" -type f | wc -l)
    echo "== $target: ${seconds} s on $seeds seed inputs"
    status=0
    # SWIFT_BACKTRACE=enable=no: with the Swift backtracer on, a trap inside the fuzzer hangs instead of
    # letting libFuzzer report it. -timeout flags an input that hangs (the async harnesses must finish).
    # Leak detection is off: LeakSanitizer cannot follow Swift's tagged references (an enum payload such as
    # Data's keeps its tag in the pointer's spare bits), so it reports objects that are still reachable.
    (cd "$dir" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 timeout -k 10 $((seconds + 600)) \
        "$root/$bin_dir/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=60 -detect_leaks=0 \
        -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/fuzz.log" 2>&1) || status=$?

    final_stat() { sed -n "s/^stat::$1: *//p" "$dir/fuzz.log" | tail -1; }
    executions=$(final_stat number_of_executed_units)
    per_second=$(final_stat average_exec_per_sec)
    new_units=$(final_stat new_units_added)
    # The corpus size from libFuzzer's last status line ("#N DONE cov: ... corp: UNITS/SIZE ...").
    corpus=$({ grep -o 'corp: [0-9]*' "$dir/fuzz.log" || true; } | tail -1 | sed 's/corp: //')
    if [[ -z "$executions" ]]; then
        # libFuzzer died before its final stats (a crash prints them too, so this is rare): use the last status line.
        executions=$({ grep -o '^#[0-9]*' "$dir/fuzz.log" || true; } | tail -1 | tr -d '#')
    fi
    crashes=$(find "$dir/artifacts" -type f | wc -l)
    if ((status != 0 && crashes == 0)); then crashes=1; fi  # died without an artifact (timeout -k, ...)
    rows+=("$(printf '%-18s %12s %8s %8s %6s %8s' "$target" "${executions:-?}" "${per_second:-?}" \
        "${corpus:-?}" "${new_units:-?}" "$crashes")")

    if ((crashes > 0)); then
        failed=1
        echo "!! $target FAILED (exit status $status). libFuzzer's log ends with:" >&2
        tail -60 "$dir/fuzz.log" >&2
        mkdir -p "Fuzz/.artifacts/$target"
        for artifact in "$dir"/artifacts/*; do
            [[ -f "$artifact" ]] || continue
            cp "$artifact" "Fuzz/.artifacts/$target/"
            echo "!! input: $artifact (copied to Fuzz/.artifacts/$target/$(basename "$artifact")):" >&2
            od -A d -c "$artifact" | head -32 >&2
        done
    elif ((merge)); then
        before=$(find "Fuzz/Corpus/$target" -type f | wc -l)
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$root/$bin_dir/$target" -merge=1 -rss_limit_mb=2048 \
            -detect_leaks=0 \
            "Fuzz/Corpus/$target" "$dir/corpus" >"$dir/merge.log" 2>&1
        after=$(find "Fuzz/Corpus/$target" -type f | wc -l)
        echo "   merged $((after - before)) new inputs into Fuzz/Corpus/$target"
    fi
done

echo
echo "== fuzzing summary ($seconds s per target; $(date -u +%Y-%m-%dT%H:%MZ); $(uname -m), $(nproc) cores)"
printf '%-18s %12s %8s %8s %6s %8s\n' target executions exec/s corpus new crashes
printf '%s\n' "${rows[@]}"
if ((failed)); then
    echo "fuzz.sh: a target crashed; logs and inputs are in $work" >&2
    exit 1
fi
rm -rf "$work"
