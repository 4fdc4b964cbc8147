#!/usr/bin/env bash
# The backend in release and, beside it, the installs (scripts/setup.sh), wasm-core to wasm and
# the front end. The backend's compile is most of the time and ends on its own crate, which leaves
# a core free for the rest (docs/figures.md, "Set-up").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --toolchain
cargo build --release -p backend &
backend=$!
trap 'kill "$backend" 2>/dev/null || true' EXIT
scripts/setup.sh
scripts/build-wasm.sh
(cd frontend && npm run --silent build)
wait "$backend"
trap - EXIT
