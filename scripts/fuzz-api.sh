#!/usr/bin/env bash
# Property-based fuzzing of the live release server against its own OpenAPI document
# (schemathesis, installed by `scripts/setup.sh --test`): no 5xx, and every status, header,
# content type and body matches the document. Bounded: FUZZ_EXAMPLES cases per operation and
# phase, each run killed after FUZZ_SECONDS (schemathesis' own --max-time would fuzz until it is
# spent).
#
#   scripts/fuzz-api.sh             over SQLite: every check with the rate limit off, then a run
#                                   with the rate limit on, whose 429 answers must match the document
#   scripts/fuzz-api.sh --postgres  every check over a fresh database on $TEST_DATABASE_URL
set -euo pipefail
cd "$(dirname "$0")/.."

# 100 cases: every bug of the past that a planted copy brought back (a 500 on a bad `since`, a
# null status accepted, an Idempotency-Key unchecked, a NUL in a call id on PostgreSQL) was found
# within 50, twice each (docs/figures.md, "Set-up"); 600 took three times as long.
EXAMPLES=${FUZZ_EXAMPLES:-100}
MAX_SECONDS=${FUZZ_SECONDS:-300}
# The runs that end in 429s need far fewer cases: after the burst (or five wrong credentials)
# nearly every request is a 429.
LIMITED_EXAMPLES=${FUZZ_LIMITED_EXAMPLES:-100}
schemathesis=.venv-tools/bin/schemathesis
[[ -x $schemathesis ]] || { echo "error: schemathesis is missing; run scripts/setup.sh --test" >&2; exit 1; }

work=$(mktemp -d)
source scripts/lib/server.sh
database=
drop_database() {
  [[ -n $database ]] && psql "$TEST_DATABASE_URL" -qc "DROP DATABASE $database WITH (FORCE)" || true
}
trap 'stop_server; drop_database; rm -rf "$work"' EXIT

database_url="sqlite://$work/quotes.db"
if [[ ${1:-} == --postgres ]]; then
  [[ -n ${TEST_DATABASE_URL:-} ]] || { echo "error: --postgres needs TEST_DATABASE_URL (scripts/test.sh sets it)" >&2; exit 1; }
  command -v psql > /dev/null || { echo "error: psql is missing (Debian: apt-get install postgresql-client)" >&2; exit 1; }
  database="fuzz_$(date +%s)_$$"
  psql "$TEST_DATABASE_URL" -qc "CREATE DATABASE $database"
  base=${TEST_DATABASE_URL%%\?*}
  database_url="${base%/*}/$database${TEST_DATABASE_URL#"$base"}"
fi

# The secrets and voice settings mount the admin API (the password its session endpoints too)
# and the voice webhook and give client-config its full shape; the fuzzer sends both credentials
# on every request so it gets past the checks into the handlers.
# ADMIN_TOKEN needs at least 32 characters.
admin_token=fuzz-admin-token-0123456789abcdef
# `backend hash-password` of "inbox-test-password-1" (the fuzzer is not meant to guess it).
admin_password_hash='$argon2id$v=19$m=19456,t=2,p=1$/BOc58QKv6BSgngjj2kfaQ$vf23gmdJyzg4h0K/ftw/Ob5zyCQnF3ZK37k2NeSSJ28'
webhook_secret=fuzz-webhook-secret-0123456789abcdef
# start [NAME=value ...]: the server over $database_url with the fuzzing settings and those given.
start() {
  start_server DATABASE_URL="$database_url" RUST_LOG=warn,request=info \
    ADMIN_TOKEN=$admin_token ADMIN_PASSWORD_HASH="$admin_password_hash" VAPI_WEBHOOK_SECRET=$webhook_secret \
    VAPI_PUBLIC_KEY=fuzz-public-key VAPI_ASSISTANT_ID=fuzz-assistant "$@" ||
    { cat "$work/log" >&2; echo "error: the server did not start" >&2; exit 1; }
}
# fuzz CHECKS EXAMPLES [ARGS...]: one bounded schemathesis run against the started server (ARGS
# for schemathesis), its quote posts carrying the form token a page gives a person's browser; its
# output also in $work/fuzz.out.
fuzz() {
  timeout "$MAX_SECONDS" "$schemathesis" run "$url/api/openapi.json" --checks "$1" \
    --header "Authorization: Bearer $admin_token" --header "X-Vapi-Secret: $webhook_secret" \
    --header "Cookie: $(form_cookie)" \
    --max-examples "$2" --generation-database none --no-color "${@:3}" | tee "$work/fuzz.out"
  return "${PIPESTATUS[0]}"
}
# untested OUTPUT: fails when schemathesis found operations it could not get past a 429.
untested() {
  if grep -q 'Rate limited:' "$1"; then
    echo "error: operations answered mostly 429, so their logic went untested" >&2
    exit 1
  fi
}

conformance=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance

# A wrong credential or password counts against the client (http/failure_limit.rs): after five,
# every secured operation answers 429 for 15 minutes. So the checks that send them (ignored_auth,
# and the password sign-in, POST /api/admin/session) get a server of their own after the rest;
# run together, they left 12 of the 16 operations answering mostly 429, untested.
echo "== every check but wrong credentials, rate limit off, over ${database_url%%://*}"
start RATE_LIMIT_PER_MINUTE=0
fuzz "$conformance,positive_data_acceptance,negative_data_rejection,missing_required_header,unsupported_method,allow_header_conformance" \
  "$EXAMPLES" --exclude-name "POST /api/admin/session"
stop_server
untested "$work/fuzz.out"

echo "== every check with wrong credentials too, the password sign-in among the operations"
start RATE_LIMIT_PER_MINUTE=0
fuzz "$conformance,positive_data_acceptance,negative_data_rejection,missing_required_header,unsupported_method,allow_header_conformance,ignored_auth" \
  "$LIMITED_EXAMPLES"
stop_server
[[ -n $database ]] && exit 0

# Valid data rightly gets 429 here, so positive_data_acceptance is left out of this run.
echo "== rate limit on (burst 1, 1 a minute): the 429 answers must match the document"
start RATE_LIMIT_PER_MINUTE=1 RATE_LIMIT_BURST=1
fuzz "$conformance" "$LIMITED_EXAMPLES"
stop_server
limited=$(grep -c '"status":429' "$work/log" || true)
echo "429 answers checked against the document: $limited"
(( limited > 0 )) || { echo "error: the rate-limited run never hit the limit, so its 429 went unchecked" >&2; exit 1; }
