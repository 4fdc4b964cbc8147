#!/usr/bin/env bash
# The quick loop's time on a warm build (issue 34's budget: under 2 minutes on 2 cores): one
# `make check` to warm what it builds, then RUNS timed ones (default 5) with nothing changed in
# between. Prints each run, the median and the spread, and the load average around them.
#
#   scripts/bench-check.sh [--smoke] [RUNS]
#
# --smoke (make bench-smoke): one run of `make --dry-run check` (the target and its commands,
# none of them run) through the same timing and figures, without the warming run.
set -euo pipefail
cd "$(dirname "$0")/.."

check=(make check)
if [[ ${1:-} == --smoke ]]; then
  check=(make --dry-run check)
  shift
  set -- "${1:-1}"
fi
runs=${1:-5}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [[ ${check[1]} != --dry-run ]]; then
  echo "warming: make check"
  "${check[@]}" >"$log" 2>&1 || { cat "$log"; echo "error: make check failed" >&2; exit 1; }
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
times=()
for run in $(seq 1 "$runs"); do
  start=$EPOCHREALTIME
  "${check[@]}" >"$log" 2>&1 || { cat "$log"; echo "error: make check failed" >&2; exit 1; }
  end=$EPOCHREALTIME
  times+=("$start:$end")
  echo "run $run: done"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "${times[@]}" <<'PY'
import statistics, sys
times = [float(end) - float(start) for start, end in (t.split(":") for t in sys.argv[1:])]
for run, seconds in enumerate(times, 1):
    print(f"run {run}: {seconds:.1f} s")
times.sort()
print(f"make check: median {statistics.median(times):.1f} s ({times[0]:.1f}-{times[-1]:.1f}), {len(times)} runs")
PY
