#!/usr/bin/env bash
# The precise timing figures behind the clock and latency tests, on this machine: runs those
# tests one at a time and prints what each measured (the tests themselves allow five times
# a quiet machine's figure and a second more, so that a loaded CI cannot fail them).
# Usage: scripts/timing.sh   (quiet machine: pause other work for a meaningful figure)
set -euo pipefail
cd "$(dirname "$0")/.."
run() {
    cargo test --release --quiet --test "$1" -- --test-threads=1 --nocapture "${@:2}" 2>&1 |
        grep -E "after|took|latency|returned|answered" | grep -v "^test " | sed "s/^\.*//" || true
}
run search stop_is_honoured single_reply pondering clock_search every_mate
run protocol movetime_is_kept every_go_parameter infinite_and_ponder stop_isready_quit end_of_input ucci_dialect
run cecp clocks_bound
