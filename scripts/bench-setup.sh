#!/usr/bin/env bash
# How long a newcomer waits: a clean clone of this repository's HEAD in a temporary folder, with
# empty build caches (its own CARGO_HOME, so the registry is downloaded and wasm-bindgen-cli is
# compiled again, its own target folder and npm cache), then `make run` timed to the
# first healthy /healthz and, unless --run-only, `make test` after it.
#
#   scripts/bench-setup.sh [--smoke] [--runs N] [--run-only]
#
# --smoke (make bench-smoke): one run of the same steps with neither command's work: the clone
# with its empty caches, `make --dry-run run test` in it (the targets and their commands), then the
# release server already built here serving from the clone until healthy, and stopped.
#
# Prints each run's seconds, then the median (min-max) of each; docs/figures.md, "Set-up", has the
# figures and what the machine had. What a package manager installs system-wide (Debian's
# Chromium, Caddy, PostgreSQL, slowhttptest) cannot be emptied and is listed before the runs.
# make test sees TEST_DATABASE_URL as .ci/run sets it.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1
run_only=false
smoke=false
while (($#)); do
  case $1 in
    --smoke) smoke=true; shift ;;
    --runs) runs=$2; shift 2 ;;
    --run-only) run_only=true; shift ;;
    *) echo "usage: $0 [--smoke] [--runs N] [--run-only]" >&2; exit 2 ;;
  esac
done
run_command=(make run)
test_command=(make test)
if $smoke; then
  runs=1
  built=$(realpath "${CARGO_TARGET_DIR:-target}/release/backend")
  [[ -x $built ]] || { echo "error: --smoke needs the release server built (scripts/build.sh)" >&2; exit 1; }
  run_command=(bash -c 'make --dry-run run test >/dev/null && exec env STATIC_DIR="$1" "$2" serve' _ "$PWD/frontend/dist" "$built")
  test_command=(make --dry-run test)
fi

# make run's budget and make test's (issue 43), reported beside the figures.
RUN_BUDGET_SECONDS=300
TEST_BUDGET_SECONDS=900
PORT=${BENCH_SETUP_PORT:-18080}
repo=$(pwd)
# rustup's proxies (cargo, rustc, clippy...), without what `cargo install` put beside them.
rustup_bin=$(dirname "$(command -v rustup)")

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(rustup which cargo | sed 's|.*/toolchains/||; s|/bin/cargo||'), node $(node --version)"
echo "already installed system-wide:"
for tool in chromium chromedriver caddy slowhttptest; do
  printf '  %-13s %s\n' "$tool" "$(command -v "$tool" || echo no)"
done
printf '  %-13s %s\n' postgresql "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | head -1 || echo no)"
printf '  %-13s %s\n' aiosmtpd "$(/usr/bin/python3 -c 'import aiosmtpd; print(aiosmtpd.__version__)' 2>/dev/null || echo no)"

wait_healthy() {
  local deadline=$((SECONDS + 1800))
  until curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; do
    kill -0 "$1" 2>/dev/null || return 1
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

run_seconds=()
test_seconds=()
for ((i = 1; i <= runs; i++)); do
  work=$(mktemp -d /tmp/bench-setup.XXXXXX)
  git clone -q "$repo" "$work/repo"
  # The toolchain stays (rustup's); everything cargo and npm would cache starts empty.
  export CARGO_HOME="$work/cargo" npm_config_cache="$work/npm-cache"
  mkdir -p "$CARGO_HOME/bin"
  for proxy in rustup cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver; do
    ln -s "$rustup_bin/$proxy" "$CARGO_HOME/bin/$proxy"
  done
  export PATH="$CARGO_HOME/bin:$(tr ':' '\n' <<< "$PATH" | grep -vx "$rustup_bin" | paste -sd:)"
  log="$work/make-run.log"
  started=$SECONDS
  (cd "$work/repo" && PORT=$PORT DATABASE_URL="sqlite://$work/quotes.db" exec "${run_command[@]}") > "$log" 2>&1 &
  pid=$!
  if ! wait_healthy "$pid"; then
    echo "run $i: make run did not become healthy; its log: $log" >&2
    exit 1
  fi
  run_seconds+=($((SECONDS - started)))
  pkill -TERM -P "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  echo "run $i: make run healthy after ${run_seconds[-1]} s"
  if ! $run_only; then
    started=$SECONDS
    if ! (cd "$work/repo" && "${test_command[@]}") > "$work/make-test.log" 2>&1; then
      echo "run $i: make test failed; its log: $work/make-test.log" >&2
      exit 1
    fi
    test_seconds+=($((SECONDS - started)))
    echo "run $i: make test passed in ${test_seconds[-1]} s"
    { grep -A40 '^Summary' "$work/make-test.log" || true; } | sed 's/^/    /'
  fi
  rm -rf "$work"
done

# median (min-max) of the arguments
summary() {
  sort -n <<< "$(printf '%s\n' "$@")" | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "median %s s (%s-%s s, %d runs)", m, v[1], v[NR], NR }'
}
echo "make run to a healthy /healthz: $(summary "${run_seconds[@]}"), budget $RUN_BUDGET_SECONDS s"
$run_only || echo "make test after it:            $(summary "${test_seconds[@]}"), budget $TEST_BUDGET_SECONDS s"
