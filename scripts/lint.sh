#!/usr/bin/env bash
# The formatters and linters, in check mode: rustfmt and clippy over the workspace (native, and
# wasm-core for the wasm target too), the backend's import direction, every path the docs name,
# Prettier and ESLint over the front end and tests/ (with the front end's packages), and the
# inbox's API types against the OpenAPI document. `--fix` (make fmt) lets each tool fix what it
# can instead. `--without-native-clippy` leaves out clippy over the workspace's native targets,
# for scripts/test.sh, which lints them while compiling the tests. Every check runs even after a
# failure.
set -uo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--fix" ]]; then
  set -e
  cargo fmt --all
  (cd tests && ../frontend/node_modules/.bin/eslint --fix .)
  cd frontend
  npx prettier --log-level warn --write . ../tests
  npx eslint --fix .
  exit 0
fi

failed=0
check() {
  printf '\033[1m--> %s\033[0m\n' "$*"
  "$@" || failed=1
}
native_clippy=true
[[ "${1:-}" == "--without-native-clippy" ]] && native_clippy=false
check cargo fmt --all --check
$native_clippy && check cargo clippy --workspace --all-targets -- -D warnings
# The native benchmark (criterion) does not build for wasm32; the wasm one does.
check cargo clippy -p wasm-core --target wasm32-unknown-unknown --lib --tests --bench particles_wasm \
  -- -D warnings
check node scripts/check-imports.mjs
check node scripts/check-doc-paths.mjs
cd frontend
check npx prettier --log-level warn --check . ../tests
check npx eslint --max-warnings 0 .
check node scripts/api-types.mjs --check
cd ../tests
check ../frontend/node_modules/.bin/eslint --max-warnings 0 .
exit $failed
