#!/usr/bin/env bash
# Runs every test suite, even after a failure, then prints one summary line per suite.
set -uo pipefail
cd "$(dirname "$0")/.."

# PostgreSQL: TEST_DATABASE_URL when set, else a throwaway cluster of our own; without either the
# PostgreSQL suites are listed as SKIPPED, never as passed.
source scripts/lib/postgres.sh
trap stop_throwaway_postgres EXIT
postgres=true
use_postgres || postgres=false

names=()
results=()
seconds=()
# A command exiting 77 skipped (it printed why): SKIPPED, never passed. Each suite's time is kept
# for the summary, where the slow ones show (docs/figures.md, "Set-up").
run() {
  local name=$1 status=0 started=$SECONDS
  shift
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  "$@" || status=$?
  seconds+=($((SECONDS - started)))
  case $status in
    0) results+=(passed) ;;
    77) results+=(SKIPPED) ;;
    *) results+=(FAILED) ;;
  esac
  names+=("$name")
}
# run_playwright NAME PROJECT [ARGS...]: one project of the browser and system tests
# (frontend/playwright.config.mjs), with the tests skipped (a tool or database missing) named in
# the summary from the runner's JSON report, so a pass with skips never reads as a full pass.
run_playwright() {
  local name=$1 project=$2 report=test-output/playwright-report.json skipped
  shift 2
  rm -f "$report"
  run "$name" bash -c 'cd frontend && npx playwright test --project "$@"' _ "$project" "$@"
  [[ -f $report ]] || return 0
  # A skipped test's reason is its `skip` annotation.
  skipped=$(node -e '
    const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
    const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const test of report.suites.flatMap(specs).flatMap((spec) => spec.tests))
      if (test.status === "skipped")
        console.log(test.annotations.find((a) => a.type === "skip")?.description ?? "no reason given");
  ' "$report")
  if [[ -n $skipped ]]; then
    results[-1]+=", $(wc -l <<< "$skipped") SKIPPED ($(sort -u <<< "$skipped" | paste -sd ';' - | sed 's/;/; /g'))"
  fi
  # A test that failed and then passed on its retry (playwright.config.mjs) is named, never hidden.
  flaky=$(node -e '
    const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
    const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const spec of report.suites.flatMap(specs))
      for (const test of spec.tests) if (test.status === "flaky") console.log(`${spec.file}: ${spec.title}`);
  ' "$report")
  if [[ -n $flaky ]]; then
    results[-1]+=", $(wc -l <<< "$flaky") FLAKY ($(paste -sd ';' - <<< "$flaky" | sed 's/;/; /g'))"
  fi
}
# run_on_postgres NAME COMMAND...: run, or SKIPPED with the reason and the command that enables it.
run_on_postgres() {
  if $postgres; then run "$@"; return; fi
  printf '\n\033[1m==> %s\033[0m\nSKIPPED: %s.\nTo run it: %s\n' "$1" "$postgres_unavailable" "$POSTGRES_ENABLE_HINT"
  names+=("$1")
  results+=(SKIPPED)
  seconds+=(0)
}

# Clippy lints the workspace while its tests compile, as `cargo clippy` does on a check build
# (CLIPPY_ARGS is how cargo clippy hands clippy-driver what follows its `--`): the dependencies
# are compiled once, for the tests, not once more for a check (docs/figures.md, "Set-up"). Every
# `cargo test` of the workspace runs under it, so none compiles the workspace again.
with_clippy() {
  RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)" \
    CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}

run "formatters and linters (make lint; native clippy with the Rust tests)" \
  scripts/lint.sh --without-native-clippy
run "the repository's own checks (scripts/*.test.mjs)" node --test scripts/
# Every target built (and linted) first, benches among them; then the tests run.
run "Rust unit and integration tests, and clippy" \
  with_clippy bash -c 'cargo test --workspace --all-targets --no-run && cargo test --workspace'
# The PostgreSQL tests are #[ignore]d (cargo lists them as ignored, with the reason), run here.
# The TLS ones need a cluster of their own, the next suite's.
run_on_postgres "Rust tests against PostgreSQL" \
  with_clippy cargo test --workspace -- --ignored --skip store::postgres::tls::cluster_tests
run "PostgreSQL over TLS (sslmode, sslrootcert)" with_clippy scripts/test-postgres-tls.sh
run "wasm-core in wasm (Node)" scripts/test-wasm.sh --node
# The particle animation's two hosts (a dedicated worker, the main thread) in Debian's Chromium.
run "wasm-core particle animation in headless Chromium" \
  scripts/test-wasm.sh --chrome --test animation_worker_host --test animation_main_thread_host
run "front-end unit tests" bash -c 'cd frontend && npx vitest run'
run "front-end types and first-load budgets (80 KB gzip, 100 KB with voice)" bash -c 'cd frontend && npx tsc --noEmit && node --test scripts/ && node scripts/first-load-size.mjs --max-kb 80 --voice-max-kb 100'
# A phone's screen: every step of a visit at a device pixel ratio of 2 against a plain <select>
# tapped in the same runs (1.6x at most, the median of 5 runs: fewer let the floor's spread decide).
run "interactions at a pixel ratio of 2 (1.6x a plain select)" bash -c 'cd frontend && node scripts/interaction-latency.mjs --dpr 2 --runs 5'
run "SDK contracts (tests/contract)" node --test tests/contract/
run_playwright "end-to-end tests (Chromium)" e2e
# The server's own tests (tests/system): as a process, behind Caddy, under hostile clients, two
# instances, e-mail to a real SMTP server, the deploy/ units. One at a time: several of them load
# both cores on purpose.
run_playwright "system tests (the release server)" system --workers 1
run "API fuzzing against the OpenAPI document" scripts/fuzz-api.sh
run_on_postgres "API fuzzing against PostgreSQL" scripts/fuzz-api.sh --postgres

echo
echo "Summary"
failed=0
skipped=0
for i in "${!names[@]}"; do
  printf '  %-56s %5ss  %s\n' "${names[$i]}" "${seconds[$i]}" "${results[$i]}"
  case ${results[$i]} in
    FAILED) failed=$((failed + 1)) ;;
    SKIPPED) skipped=$((skipped + 1)) ;;
  esac
done
echo "suites: $(( ${#names[@]} - failed - skipped )) passed, $failed failed, $skipped SKIPPED, in ${SECONDS}s"
[[ -n $postgres_unavailable ]] && echo "SKIPPED because $postgres_unavailable. To run them: $POSTGRES_ENABLE_HINT"
exit $(( failed > 0 ))
