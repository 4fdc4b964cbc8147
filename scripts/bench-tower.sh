#!/usr/bin/env bash
# tower-http against the server's own layers (issue 34; docs/architecture.md, "tower-http,
# evaluated"): CPU instructions a request, counted by callgrind, for the same warp filter served
# by our accept loop, request ids and request log (`ours`) and behind tower-http's request-id,
# trace, timeout and body-limit layers, with ServeDir for the asset (`tower`); the bench is
# backend/benches/tower_stack/.
#
#   scripts/bench-tower.sh             the table, then each stack's answers and the behaviours
#
# Each figure is one run's server instructions for BENCH_MANY (220) requests on one keep-alive
# connection less those for BENCH_FEW (20), over the difference: start-up, the first requests and
# shutdown cancel out. The client is the bench's main thread, counted apart (callgrind's
# --separate-threads). Instruction counts do not depend on what else runs on the machine; what
# varies from run to run (hash seeds, ids, times, thread hand-offs) is why each figure is the
# median (min-max) of BENCH_RUNS (5) runs.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${BENCH_RUNS:-5}
FEW=${BENCH_FEW:-20}
MANY=${BENCH_MANY:-220}

source scripts/lib/apt.sh
need_debian_package valgrind valgrind "the benchmark"

binary=$(cargo bench -p backend --bench tower_stack --no-run 2>&1 | sed -n 's/^ *Executable .*(\(.*\))$/\1/p' | tail -n 1)
[[ -x $binary ]] || { echo "error: the bench did not build" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# count STACK KIND N: "SERVER CLIENT", the instructions of the server's threads and of the
# client's (the main thread, callgrind's thread 01) for N requests.
count() {
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.%p" \
    "$binary" "$@" 2>/dev/null >/dev/null
  awk '/^totals:/ { if (FILENAME ~ /-01$/) client += $2; else server += $2 }
    END { printf "%d %d\n", server, client }' "$work"/cg.*-*
}

# median (min-max) of the numbers on standard input, one per line.
spread() {
  sort -g | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf "%d (%d-%d)", m, a[1], a[NR] }'
}

declare -A server client
echo "callgrind, $RUNS runs, each ($MANY - $FEW requests); load average $(cut -d' ' -f1-3 /proc/loadavg) (instruction counts do not depend on it)"
for run in $(seq 1 "$RUNS"); do
  for kind in quote asset; do
    for stack in ours tower; do
      read -r few_server few_client < <(count "$stack" "$kind" "$FEW")
      read -r many_server many_client < <(count "$stack" "$kind" "$MANY")
      server[$kind $stack]+="$(( (many_server - few_server) / (MANY - FEW) ))"$'\n'
      client[$kind $stack]+="$(( (many_client - few_client) / (MANY - FEW) ))"$'\n'
    done
  done
  echo "run $run of $RUNS done"
done

median() { printf '%s' "$1" | spread | cut -d' ' -f1; }
echo
echo "| request | stack | server instructions a request | client's | tower against ours |"
echo "|---|---|---|---|---|"
for kind in quote asset; do
  case $kind in
    quote) what='`POST /api/quote-requests`, JSON, form cookie' ;;
    asset) what='`GET` a hashed asset, `.br` sent' ;;
  esac
  for stack in ours tower; do
    change=""
    [[ $stack == tower ]] && change=$(awk -v t="$(median "${server[$kind tower]}")" -v o="$(median "${server[$kind ours]}")" \
      'BEGIN { printf "%+.1f %%", (t / o - 1) * 100 }')
    printf '| %s | %s | %s | %s | %s |\n' "$what" "$stack" \
      "$(printf '%s' "${server[$kind $stack]}" | spread)" "$(median "${client[$kind $stack]}")" "$change"
  done
done
echo
echo "Each stack's first answer to each request:"
"$binary" show 2>/dev/null
echo "What tower-http's parts keep and lose:"
"$binary" behaviours 2>/dev/null
