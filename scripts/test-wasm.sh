#!/usr/bin/env bash
# wasm-core's tests compiled to wasm32 and run by wasm-bindgen's test runner (installed beside
# wasm-bindgen by scripts/setup.sh): in Node, or in Debian's headless Chromium through its
# ChromeDriver. What `wasm-pack test` did, without compiling wasm-pack (docs/figures.md, "Set-up").
#
#   scripts/test-wasm.sh --node [CARGO TEST ARGUMENTS...]
#   scripts/test-wasm.sh --chrome [CARGO TEST ARGUMENTS...]
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
case ${1:-} in
  --node) export WASM_BINDGEN_TEST_ONLY_NODE=1 ;;
  --chrome) export WASM_BINDGEN_TEST_ONLY_WEB=1 CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} ;;
  *) echo "usage: $0 --node|--chrome [cargo test arguments...]" >&2; exit 2 ;;
esac
shift
exec cargo test -p wasm-core --target wasm32-unknown-unknown "$@"
