#!/usr/bin/env bash
# CPU instructions a quote post costs the server (its user-space code, all threads), counted by
# valgrind's callgrind: unlike posts a second, the count does not depend on what else the machine
# is doing, so a change to the request path can be weighed while builds run. The posts are
# scripts/bench.sh's (a person's: each post with a form token of its own, the one its page or the
# answer to the post before set), POSTS of them at 4 connections after WARMUP that are not counted. Prints instructions a post for each BINARY (default
# target/release/backend), median and spread over RUNS runs (default 5).
#
#   scripts/bench-instructions.sh [--smoke] [--top N] [--runs RUNS] [BINARY ...]
#
# --smoke (make bench-smoke): one run of 100 posts after 20, which fails when any was held as spam.
#
# --top N also prints, for the last run of each binary, the N functions with the most
# instructions including what they call (callgrind_annotate --inclusive=yes). KEEP_DIR=DIR keeps
# each binary's last callgrind file there, named after the binary's file, for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

top=0
runs=5
smoke=false
binaries=()
while (($#)); do
  case $1 in
    --smoke) smoke=true; runs=1; : "${WARMUP:=20}" "${POSTS:=100}"; shift ;;
    --top) top=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) binaries+=("$1"); shift ;;
  esac
done
((${#binaries[@]})) || binaries=("${CARGO_TARGET_DIR:-target}/release/backend")
WARMUP=${WARMUP:-300}
POSTS=${POSTS:-3000}
source scripts/lib/apt.sh
need_debian_package valgrind valgrind "the instruction count"
need_debian_package callgrind_control valgrind "the instruction count"

work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

# post COUNT: COUNT quote posts at 4 connections.
post() {
  node scripts/bench/post-quotes.mjs "$url" "$1"
}

# measure BINARY: instructions a post, one run.
measure() {
  local out="$work/callgrind.out"
  rm -f "$out"*
  server_binary=$1
  # The server starts under `env`, which execs it: valgrind follows.
  server_priority=(valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out")
  # Under valgrind, and builds beside it, the start takes many times its usual second.
  SERVER_START_SECONDS=120 start_server DATABASE_URL="sqlite://$work/bench.db" RATE_LIMIT_PER_MINUTE=0 || {
    echo "error: the server did not start under valgrind: $(tail -n 3 "$work/log")" >&2
    exit 1
  }
  post "$WARMUP" > /dev/null
  callgrind_control --zero "$server_pid" > /dev/null
  post "$POSTS"
  callgrind_control --dump=posts "$server_pid" > /dev/null
  stop_server
  if $smoke; then
    local spam
    spam=$(held_as_spam "sqlite://$work/bench.db")
    ((spam == 0)) || { echo "error: $spam posts held as spam (stale form token?)" >&2; exit 1; }
  fi
  rm -f "$work"/bench.db*
  # The dump after --zero: its totals are the counted posts' alone.
  local dump
  dump=$(grep -l '^desc: Trigger: .*posts' "$out"* | head -n 1)
  local total
  total=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$dump")
  echo $((total / POSTS))
  if [[ -n ${KEEP_DIR:-} ]]; then cp "$dump" "$KEEP_DIR/$(basename "$1").callgrind"; fi
  if ((top > 0)); then
    callgrind_annotate --inclusive=yes "$dump" > "$work/annotated"
    head -n $((top + 25)) "$work/annotated" | cut -c1-220 > "$work/top"
  fi
}

echo "quote posts (scripts/bench/post-quotes.mjs): $WARMUP not counted, then $POSTS counted, at 4 connections; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for binary in "${binaries[@]}"; do
  counts=()
  for _ in $(seq 1 "$runs"); do
    count=$(measure "$binary") || exit 1
    counts+=("$count")
  done
  python3 - "$binary" "${counts[@]}" <<'PY'
import statistics, sys
binary, counts = sys.argv[1], [int(c) for c in sys.argv[2:]]
print(f"{binary}: {statistics.median(counts)/1000:.1f}k instructions a post, median of {len(counts)} "
      f"({min(counts)/1000:.1f}k-{max(counts)/1000:.1f}k)")
PY
  if ((top > 0)); then cat "$work/top"; fi
done
