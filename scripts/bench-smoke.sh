#!/usr/bin/env bash
# Every benchmark script once, briefly (each one's --smoke), so a script that no longer fits the
# server, the page or the tools fails here rather than on the day it is needed. It measures
# nothing. Needs what `make test` needs, and the release build (scripts/build.sh); with
# TEST_DATABASE_URL set, scripts/bench.sh posts to PostgreSQL too. Prints one line per script
# and exits 1 if any failed.
#
#   scripts/bench-smoke.sh
set -uo pipefail
cd "$(dirname "$0")/.."

names=()
results=()
seconds=()
smoke() {
  local started=$SECONDS status=0
  printf '\n\033[1m==> %s\033[0m\n' "$*"
  "$@" || status=$?
  names+=("$*")
  seconds+=($((SECONDS - started)))
  if ((status == 0)); then results+=(passed); else results+=(FAILED); fi
}

smoke scripts/bench.sh --smoke ${TEST_DATABASE_URL:-}
smoke scripts/bench.sh --smoke --email
smoke scripts/bench.sh --smoke --distinct-clients
smoke scripts/bench-email.sh --smoke
smoke scripts/bench-instructions.sh --smoke
smoke scripts/bench-compare.sh --smoke
smoke scripts/bench-particles.sh --smoke
smoke scripts/bench-check.sh --smoke
smoke scripts/bench-setup.sh --smoke

echo
failed=0
for i in "${!names[@]}"; do
  printf '  %-52s %4ss  %s\n' "${names[$i]}" "${seconds[$i]}" "${results[$i]}"
  [[ ${results[$i]} == passed ]] || failed=$((failed + 1))
done
echo "bench scripts: $(( ${#names[@]} - failed )) passed, $failed failed, in ${SECONDS}s"
exit $(( failed > 0 ))
