# Sourced by the scripts in scripts/apple and scripts/apple-availability.sh: runs independent pieces of work (one
# platform, one snippet) side by side and prints what each printed in a fixed order, as if run one after another.
#
# Why: every step here is one single-threaded swift-frontend process (building the standard library from its
# interfaces, then type-checking), so on a 2-core machine two of them at once take about the time of one.
# APPLE_JOBS (default 2) is how many run at once; APPLE_JOBS=1 runs them one at a time.
#
# A job records its output in a log of its own, each line tagged with the stream it belongs to ("o " stdout,
# "e " stderr), so that `replay` can print it later on the same streams, in the order it was written.
APPLE_JOBS=${APPLE_JOBS:-2}

# spawn CMD...: starts CMD in the background as soon as fewer than APPLE_JOBS of this shell's jobs are running.
spawn() {
    while [ "$(jobs -pr | wc -l)" -ge "$APPLE_JOBS" ]; do wait -n; done
    "$@" &
}

# tag o|e LOG: appends standard input to LOG, each line tagged for stdout (o) or stderr (e).
tag() { sed "s/^/$1 /" >> "$2"; }

# replay LOG: prints a tagged log's lines on their streams, in order.
replay() {
    local line
    while IFS= read -r line; do
        case $line in
            "o "*) printf '%s\n' "${line#o }" ;;
            *) printf '%s\n' "${line#e }" >&2 ;;
        esac
    done < "$1"
}
