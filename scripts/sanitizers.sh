#!/usr/bin/env bash
# Builds the package and its tests with a sanitizer and runs the test suite under it.
#
#   scripts/sanitizers.sh --address|--thread [--skip-build] [--filter REGEX] [--skip REGEX] [--repeat N]
#                         [--width N]
#
#   --address      AddressSanitizer: out-of-bounds and use-after-free accesses, double frees (leaks are not
#                  checked: libcurl and the tests' static fixtures hold memory until exit)
#   --thread       ThreadSanitizer: data races, with the suppressions of scripts/tsan.supp
#   --skip-build   use the binaries already built for that mode
#   --filter/--skip  passed to the test runner (Swift Testing regular expressions over test IDs, which
#                  start with the target's name: --filter LatchkeyRuntimeTests runs the runtime target)
#   --repeat N     run the tests N times in a row (default 1); stops at the first failing run
#   --width N      run at most N tests at once (default 16; 0: no limit). Sanitized code is 2-15x slower;
#                  with every test started at once on 2 cores, the tests that wait 5 s for a local
#                  server time out without any bug
#
# Each mode builds into its own scratch path (.build-sanitizers/address, .build-sanitizers/thread), so
# switching modes, or going back to a plain `swift build`, rebuilds nothing. The process-spawning tests
# use the latchkey-store-crasher built next to the sanitized tests, so the child processes run under the
# same sanitizer. The script exits non-zero when the build fails, a test fails or the sanitizer reports
# anything (the report is in the output, and the log is kept in .build-sanitizers/<mode>.log).
#
# Timings on the 2-core development machine (other builds running beside it): --address builds from
# scratch in about 6 minutes and runs the whole suite in 40-80 s; --thread builds in about
# 6 minutes and runs the whole suite in about 60 s. An incremental rebuild after a small change takes
# 20 s to 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=""
build=1
repeat=1
width=16
runner_arguments=()

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

while (($#)); do
    case "$1" in
    --address) mode=address; shift ;;
    --thread) mode=thread; shift ;;
    --skip-build) build=0; shift ;;
    --filter | --skip) runner_arguments+=("$1" "${2:?$1 needs a regular expression}"); shift 2 ;;
    --repeat) repeat=${2:?--repeat needs a number}; shift 2 ;;
    --width) width=${2:?--width needs a number}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "sanitizers.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
if [[ -z "$mode" ]]; then
    echo "sanitizers.sh: choose --address or --thread" >&2
    usage >&2
    exit 2
fi

scratch="$root/.build-sanitizers/$mode"
log="$root/.build-sanitizers/$mode.log"
mkdir -p "$root/.build-sanitizers"
started=$(date +%s)

if ((build)); then
    echo "== building with --sanitize=$mode into ${scratch#"$root"/}"
    swift build --build-tests --sanitize="$mode" --scratch-path "$scratch"
    echo "== built in $(($(date +%s) - started)) s"
fi

binary="$scratch/debug/LatchkeyPackageTests.xctest"
if [[ ! -x "$binary" ]]; then
    echo "sanitizers.sh: $binary is missing; run without --skip-build" >&2
    exit 1
fi

# The Swift runtime's backtracer and the sanitizers both handle crashes; the sanitizer's report is the one
# wanted here.
export SWIFT_BACKTRACE=enable=no
export LATCHKEY_STORE_CRASHER="$scratch/debug/latchkey-store-crasher"
case "$mode" in
address)
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
    report_pattern='ERROR: AddressSanitizer'
    ;;
thread)
    # halt_on_error=0: report every race of the run, then exit with status 66 if there was one.
    export TSAN_OPTIONS="suppressions=$root/scripts/tsan.supp:halt_on_error=0:exitcode=66:report_signal_unsafe=0:history_size=4"
    report_pattern='WARNING: ThreadSanitizer'
    ;;
esac

if ((width > 0)); then runner_arguments+=(--experimental-maximum-parallelization-width "$width"); fi

status=0
: >"$log"
for ((run = 1; run <= repeat; run++)); do
    run_started=$(date +%s)
    echo "== run $run of $repeat under ${mode} sanitizer: ${binary#"$root"/} ${runner_arguments[*]:-}"
    set +e
    "$binary" --testing-library swift-testing "${runner_arguments[@]}" 2>&1 | tee -a "$log"
    status=${PIPESTATUS[0]}
    set -e
    echo "== run $run: exit status $status after $(($(date +%s) - run_started)) s"
    if ((status != 0)); then break; fi
done

reports=$(grep -c "$report_pattern" "$log" || true)
echo "== $mode sanitizer reports: $reports (log: ${log#"$root"/}); total $(($(date +%s) - started)) s"
if ((reports > 0)); then
    grep -A3 "$report_pattern" "$log" | head -40
    ((status != 0)) || status=1
fi
exit "$status"
