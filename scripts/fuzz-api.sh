#!/usr/bin/env bash
# Property-based fuzzing of the live release server against its own OpenAPI document
# (schemathesis, installed by `scripts/setup.sh --test`): no 5xx, and every status, header,
# content type and body matches the document. Bounded: FUZZ_EXAMPLES cases per operation and
# phase, killed after FUZZ_SECONDS (schemathesis' own --max-time would fuzz until it is spent).
set -euo pipefail
cd "$(dirname "$0")/.."

EXAMPLES=${FUZZ_EXAMPLES:-600}
MAX_SECONDS=${FUZZ_SECONDS:-120}
schemathesis=.venv-tools/bin/schemathesis
[[ -x $schemathesis ]] || { echo "error: schemathesis is missing; run scripts/setup.sh --test" >&2; exit 1; }

work=$(mktemp -d)
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# The rate limit is off: a limited run would only test the 429 answer. The secrets and voice
# settings mount the admin list and the voice webhook and give client-config its full shape; the
# fuzzer sends both credentials on every request so it gets past the checks into the handlers.
admin_token=fuzz-admin-token
webhook_secret=fuzz-webhook-secret
DATABASE_URL="sqlite://$work/quotes.db" PORT=0 BIND=127.0.0.1 RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
  ADMIN_TOKEN=$admin_token VAPI_WEBHOOK_SECRET=$webhook_secret \
  VAPI_PUBLIC_KEY=fuzz-public-key VAPI_ASSISTANT_ID=fuzz-assistant VOICE_CONSENT_TEXT="An AI answers this call." \
  STATIC_DIR=frontend/dist target/release/backend > "$work/out" 2> "$work/log" &
server_pid=$!
url=
for _ in $(seq 1 300); do
  url=$(sed -n 's/^Listening on //p' "$work/out")
  [[ -n $url ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/log" >&2; exit 1; }
  sleep 0.05
done
[[ -n $url ]] || { echo "error: the server did not start" >&2; exit 1; }

timeout "$MAX_SECONDS" "$schemathesis" run "$url/api/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,allow_header_conformance,negative_data_rejection,ignored_auth \
  --header "Authorization: Bearer $admin_token" --header "X-Vapi-Secret: $webhook_secret" \
  --max-examples "$EXAMPLES" --generation-database none --no-color
