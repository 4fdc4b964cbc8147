#!/usr/bin/env bash
# The development loop (`make dev`): the debug backend on 127.0.0.1:8080 and Vite's dev server
# with hot reload in front of it (frontend/vite.config.ts proxies /api there), in one terminal;
# Ctrl-C stops both. Changes to the front end reload in the browser; the backend is built at
# start, so a change to the Rust code needs `make dev` again. Settings come from the
# environment as for `make run`, except BIND and PORT, which the proxy fixes.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build-wasm.sh
cargo build -p backend
BIND=127.0.0.1 PORT=8080 target/debug/backend serve &
backend=$!
trap 'kill "$backend" 2>/dev/null; wait "$backend" 2>/dev/null' EXIT
# Vite starts once the backend listens; a backend that cannot start (the port taken, a bad
# setting) ends this with its own message instead of leaving Vite to answer every /api with 502.
until (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; do
  if ! kill -0 "$backend" 2>/dev/null; then
    echo "error: the backend did not start (see above)" >&2
    exit 1
  fi
  sleep 0.2
done
cd frontend
npx vite
