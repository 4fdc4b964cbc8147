#!/usr/bin/env bash
# From the 201 to the message accepted by the SMTP server: posts BENCH_LEADS (1,000) valid quotes
# at BENCH_CONNECTIONS (64) to the release server over a fresh SQLite database, with e-mail on to
# a real SMTP server on loopback (Debian's python3-aiosmtpd running the tests' smtp_server.py),
# and prints p50, p99 and max of each run, then the median and spread (min-max) over BENCH_RUNS
# (5) runs. Goal: p99 under 2 s.
#
#   scripts/bench-email.sh [--smoke] [POSTGRES_URL]   (a postgres:// URL measures PostgreSQL instead)
#
# Each lead is a person's: its post carries the form token its own page view set
# (scripts/bench/email-latency.mjs). --smoke (make bench-smoke): one run of 50 leads, which fails
# when any lead is held as spam or a message does not arrive within 20 s.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=false
if [[ ${1:-} == --smoke ]]; then
  smoke=true
  shift
  : "${BENCH_LEADS:=50}" "${BENCH_CONNECTIONS:=8}" "${BENCH_RUNS:=1}"
  export BENCH_EMAIL_WAIT_SECONDS=${BENCH_EMAIL_WAIT_SECONDS:-20}
fi
LEADS=${BENCH_LEADS:-1000}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
RUNS=${BENCH_RUNS:-5}
source scripts/lib/server.sh
source scripts/lib/smtp.sh
[[ -x $server_binary ]] || cargo build --release -p backend

work=$(mktemp -d)
trap 'stop_server; stop_smtp; rm -rf "$work"' EXIT

median_spread() { # numbers on stdin: "median (min-max)"
  sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s (%s-%s)", m, v[1], v[NR] }'
}

postgres_url=${1:-}
store=SQLite
[[ -n $postgres_url ]] && store=PostgreSQL
echo "$LEADS leads at $CONNECTIONS connections, $RUNS runs, $store, $(nproc) cores shared with the server, the SMTP server and the client; load average $(cut -d' ' -f1-3 /proc/loadavg)"
p50s=() p99s=()
for run in $(seq 1 "$RUNS"); do
  start_smtp "$work/smtp$run"
  database="sqlite://$work/run$run.db"
  if [[ -n $postgres_url ]]; then
    # A fresh schema each run, so earlier runs' leads are not mailed again.
    schema="bench_email_$$_$run"
    psql "$postgres_url" -qc "CREATE SCHEMA $schema" >/dev/null
    separator='?'; [[ $postgres_url == *\?* ]] && separator='&'
    database="${postgres_url}${separator}options=-c%20search_path%3D$schema"
  fi
  # shellcheck disable=SC2046
  start_server DATABASE_URL="$database" RATE_LIMIT_PER_MINUTE=0 $(smtp_env) || {
    echo "error: the server did not start: $(tail -n 3 "$work/log")" >&2
    exit 1
  }
  line=$(node scripts/bench/email-latency.mjs "$url" "$work/smtp$run/accepted.tsv" "$LEADS" "$CONNECTIONS" | grep '^BENCH')
  stop_server
  stop_smtp
  if $smoke; then
    spam=$(held_as_spam "$database")
    ((spam == 0)) || { echo "error: $spam of $LEADS leads held as spam (stale form token?)" >&2; exit 1; }
  fi
  declare -A result=()
  for pair in ${line#BENCH }; do result[${pair%%=*}]=${pair#*=}; done
  echo "run $run: posted in ${result[posted_s]} s; 201 to SMTP acceptance p50 ${result[p50_ms]} ms, p99 ${result[p99_ms]} ms, max ${result[max_ms]} ms"
  p50s+=("${result[p50_ms]}") p99s+=("${result[p99_ms]}")
  if [[ -n $postgres_url ]]; then psql "$postgres_url" -qc "DROP SCHEMA $schema CASCADE" >/dev/null; fi
done
echo "201 to SMTP acceptance over $RUNS runs, median (min-max): p50 $(printf '%s\n' "${p50s[@]}" | median_spread) ms, p99 $(printf '%s\n' "${p99s[@]}" | median_spread) ms"
