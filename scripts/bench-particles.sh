#!/usr/bin/env bash
# Particle background benchmarks (figures in docs/figures.md).
#   native        criterion, step + links at N = 100, 1,000, 10,000
#   wasm-node     the same in wasm with #[wasm_bindgen_bench], in Node
#   wasm-browser  the same in headless Chromium (through chromedriver)
#   browser       the page in headless Chromium against @tsparticles/slim, N = 100, 500, 2,000
#                 (frontend/bench/particles.mjs; extra arguments are passed on, e.g. --seconds 5)
# With no argument, all four run in turn. --smoke (make bench-smoke) runs each part once,
# briefly, measuring nothing: criterion's test mode, one case of each wasm run, one short case of
# the page.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} == --smoke ]]; then
  cargo bench --quiet -p wasm-core --bench particles -- --test
  "$0" wasm-node step_and_links_100 --skip step_and_links_1000
  "$0" wasm-browser step_and_links_100 --skip step_and_links_1000
  exec "$0" browser --seconds 1 --runs 1 --counts 100 --engines wasm
fi

# $1 names the baseline file, so Node and Chromium runs are each compared with their own past.
# Further arguments name the benches to run (all by default).
wasm_bench() {
  local baseline=$1
  shift
  WASM_BINDGEN_BENCH_RESULT="$(realpath "${CARGO_TARGET_DIR:-target}")/wbg_benchmark-$baseline.json" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo bench -p wasm-core --target wasm32-unknown-unknown --bench particles_wasm -- "$@"
}

what=${1:-all}
[[ $# -gt 0 ]] && shift
case $what in
  native) cargo bench -p wasm-core --bench particles ;;
  wasm-node) wasm_bench node "$@" ;;
  # Each bench keeps the page busy for seconds; the runner would give up after its default 20 s.
  wasm-browser) WASM_BINDGEN_USE_BROWSER=1 WASM_BINDGEN_TEST_TIMEOUT=600 CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} wasm_bench chromium "$@" ;;
  browser) scripts/build-wasm.sh && node frontend/bench/particles.mjs "$@" ;;
  all) for part in native wasm-node wasm-browser browser; do "$0" "$part"; done ;;
  *) echo "usage: $0 [--smoke | native | wasm-node [BENCH] | wasm-browser [BENCH] | browser [--seconds N]]" >&2; exit 2 ;;
esac
