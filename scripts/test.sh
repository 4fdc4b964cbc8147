#!/usr/bin/env bash
# Runs every test suite, even after a failure, then prints one summary line per suite.
set -uo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${TEST_DATABASE_URL:-}" ]]; then
  echo "note: TEST_DATABASE_URL is not set; tests that need PostgreSQL will be skipped."
fi

names=()
results=()
run() {
  local name=$1
  shift
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  if "$@"; then results+=(passed); else results+=(FAILED); fi
  names+=("$name")
}

run "Rust unit and integration tests" cargo test --workspace
run "wasm-core in wasm (Node)" wasm-pack test --node wasm-core
# The particle island's two hosts (a dedicated worker, the main thread) in Debian's Chromium.
run "wasm-core island in headless Chromium" env CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" \
  wasm-pack test --chrome --headless wasm-core --test island_worker_host --test island_main_thread_host
run "front-end unit tests" bash -c 'cd frontend && npx vitest run'
run "front-end types and first-load budget (120 KB gzip)" bash -c 'cd frontend && npx tsc --noEmit && node scripts/first-load-size.mjs --max-kb 120'
run "end-to-end tests (Chromium)" bash -c 'cd frontend && npm run --silent e2e'
run "API fuzzing against the OpenAPI document" scripts/fuzz-api.sh

echo
echo "Summary"
failed=0
for i in "${!names[@]}"; do
  printf '  %-40s %s\n' "${names[$i]}" "${results[$i]}"
  [[ ${results[$i]} == passed ]] || failed=$((failed + 1))
done
echo "suites: $(( ${#names[@]} - failed )) passed, $failed failed"
exit $(( failed > 0 ))
