#!/usr/bin/env bash
# The quick loop (`make check`): the formatters and linters (scripts/lint.sh), the Rust unit
# tests, the front end's unit tests and types, and the SDK contracts (tests/contract). No integration-test binary, no end-to-end
# test, no PostgreSQL and no release build: `make test` runs those, and is the gate. Every step
# runs even after a failure; the exit status says whether all passed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=0
step() {
  local name=$1 start=$SECONDS
  shift
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  "$@" || failed=1
  printf '(%s: %d s)\n' "$name" $((SECONDS - start))
}
# The front end's tests import wasm-core's bindings: rebuilt when wasm-core changed, a no-op
# otherwise.
step "wasm-core for the front end" scripts/build-wasm.sh
step "formatters and linters (make lint)" scripts/lint.sh
step "Rust unit tests" cargo test --workspace --lib
step "the repository's own checks" node --test scripts/
step "front-end unit tests" bash -c 'cd frontend && npx vitest run'
step "SDK contracts" node --test tests/contract/
step "front-end types" bash -c 'cd frontend && npx tsc --noEmit'
echo
if ((failed)); then echo "make check: FAILED (see above)"; else echo "make check: passed"; fi
exit $failed
