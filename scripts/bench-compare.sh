#!/usr/bin/env bash
# Two builds of the server under the same load, back to back: scripts/bench.sh (SQLite) with
# BEFORE_BINARY, then with target/release/backend (under CARGO_TARGET_DIR when set), alternating for ROUNDS rounds (default 5), so
# whatever else the machine does weighs on both alike. Prints every run, then the median and
# spread of quote posts/s and idle RSS for each, the change of the median, and the median and
# spread of each round's change.
#
#   scripts/bench-compare.sh [--smoke] BEFORE_BINARY [ROUNDS]
#
# --smoke (make bench-smoke): one round of scripts/bench.sh --smoke runs; BEFORE_BINARY may be
# left out, and is then the same build.
set -euo pipefail
cd "$(dirname "$0")/.."

after=${CARGO_TARGET_DIR:-target}/release/backend
smoke=()
if [[ ${1:-} == --smoke ]]; then
  smoke=(--smoke)
  shift
  set -- "${1:-$after}" "${2:-1}"
fi
before=${1:?usage: scripts/bench-compare.sh [--smoke] BEFORE_BINARY [ROUNDS]}
rounds=${2:-5}
[[ -x $before && -x $after ]] || { echo "error: need $before and $after (scripts/build.sh)" >&2; exit 1; }

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for build in before after; do
    binary=$before
    [[ $build == after ]] && binary=$after
    # One run each, so the rounds alternate run by run; its line is the first SQLite line.
    output=$(SERVER_BINARY=$binary BENCH_RUNS=1 scripts/bench.sh "${smoke[@]}")
    line=$(grep -m 1 '^SQLite: .*quote posts/s' <<< "$output")
    echo "round $round, $build: ${line#SQLite: }"
    rps=$(sed -E 's/^SQLite: ([0-9]+) quote posts.*/\1/' <<< "$line")
    idle=$(sed -E 's/.*idle RSS ([0-9.]+) MB.*/\1/' <<< "$line")
    echo "$build $rps $idle" >> "$results"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
medians = {}
for build in ("before", "after"):
    rps = [float(r[1]) for r in rows if r[0] == build]
    idle = [float(r[2]) for r in rows if r[0] == build]
    medians[build] = statistics.median(rps)
    print(f"{build}: median {medians[build]:.0f} quote posts/s (spread {min(rps):.0f}-{max(rps):.0f}), idle RSS median {statistics.median(idle):.1f} MB ({min(idle):.1f}-{max(idle):.1f})")
change = (medians["after"] / medians["before"] - 1) * 100
print(f"after vs before: {change:+.1f} % quote posts/s (medians)")
# Each round's after against the before run just ahead of it: the machine's drift from one
# minute to the next weighs on both sides of a pair alike.
before = [float(r[1]) for r in rows if r[0] == "before"]
after = [float(r[1]) for r in rows if r[0] == "after"]
pairs = [(a / b - 1) * 100 for b, a in zip(before, after)]
print(f"round by round: median {statistics.median(pairs):+.1f} % (spread {min(pairs):+.1f} to {max(pairs):+.1f} %)")
PY
