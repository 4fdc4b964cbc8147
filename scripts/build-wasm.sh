#!/usr/bin/env bash
# Builds wasm-core for the browser into frontend/src/wasm-pkg (wasm-release profile, no wasm-opt).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet -p wasm-core --target wasm32-unknown-unknown --profile wasm-release
wasm-bindgen --target bundler --remove-name-section --remove-producers-section --out-dir frontend/src/wasm-pkg \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release/wasm_core.wasm"
