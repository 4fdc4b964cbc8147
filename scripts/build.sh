#!/usr/bin/env bash
# wasm-core to wasm, then the front end, then the backend in release.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-wasm.sh
(cd frontend && npm run --silent build)
cargo build --release -p backend
