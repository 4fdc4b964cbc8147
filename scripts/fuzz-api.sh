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
source scripts/lib/server.sh
trap 'stop_server; rm -rf "$work"' EXIT

# The rate limit is off: a limited run would only test the 429 answer. The secrets and voice
# settings mount the admin list and the voice webhook and give client-config its full shape; the
# fuzzer sends both credentials on every request so it gets past the checks into the handlers.
admin_token=fuzz-admin-token
webhook_secret=fuzz-webhook-secret
start_server DATABASE_URL="sqlite://$work/quotes.db" RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
  ADMIN_TOKEN=$admin_token VAPI_WEBHOOK_SECRET=$webhook_secret \
  VAPI_PUBLIC_KEY=fuzz-public-key VAPI_ASSISTANT_ID=fuzz-assistant VOICE_CONSENT_TEXT="An AI answers this call." ||
  { cat "$work/log" >&2; echo "error: the server did not start" >&2; exit 1; }

timeout "$MAX_SECONDS" "$schemathesis" run "$url/api/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,allow_header_conformance,negative_data_rejection,ignored_auth \
  --header "Authorization: Bearer $admin_token" --header "X-Vapi-Secret: $webhook_secret" \
  --max-examples "$EXAMPLES" --generation-database none --no-color
