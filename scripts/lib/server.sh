# Starting and stopping the release server for the scripts that measure or fuzz it. Sourced, not
# run; the caller sets `work` (a scratch directory, where the server's output and log go) and
# calls stop_server from its EXIT trap.

# SERVER_BINARY measures another build (scripts/bench-compare.sh runs two back to back).
server_binary=${SERVER_BINARY:-${CARGO_TARGET_DIR:-target}/release/backend}
# SERVER_PRIORITY: a command prefix the server runs under (scripts/bench.sh raises priority).
server_priority=(${SERVER_PRIORITY:-})
server_pid=
url=

# start_server [NAME=value ...]: runs $server_binary with that environment, on a free
# loopback port and serving frontend/dist, until it says where it listens (it is ready then).
# The form's fill time is 0: the scripts post as soon as they have the page's token
# (`form_cookie`), faster than a person would.
# Sets $url and $server_pid. Returns 1, the log in "$work/log", if the server exits first or
# says nothing for SERVER_START_SECONDS (10).
start_server() {
  : > "$work/out"
  # Output to files, as in production; the port is read from the "Listening on" line.
  "${server_priority[@]}" env PORT=0 BIND=127.0.0.1 STATIC_DIR=frontend/dist FORM_MIN_FILL_SECONDS=0 "$@" "$server_binary" > "$work/out" 2> "$work/log" &
  server_pid=$!
  url=
  local deadline=$((SECONDS + ${SERVER_START_SECONDS:-10}))
  while ((SECONDS < deadline)); do
    kill -0 "$server_pid" 2>/dev/null || { server_pid=; return 1; }
    url=$(sed -n 's/^Listening on //p' "$work/out")
    [[ -n $url ]] && return 0
    sleep 0.005
  done
  return 1
}

# form_cookie: the form token's cookie (`form_token=...`) the started server's home page gives a
# browser, so the scripts' posts are a person's, delivered, rather than held as spam.
form_cookie() {
  curl -fsS -D - -o /dev/null "$url/" | sed -n 's/^[Ss]et-[Cc]ookie: \(form_token=[^;]*\).*/\1/p' | tr -d '\r'
}

# held_as_spam DATABASE_URL: how many of the leads stored there were held as spam (a post whose
# form token another lead spent, or none), read through the server's own export command.
held_as_spam() {
  DATABASE_URL="$1" "$server_binary" export --format jsonl | grep -c '"spam_reason":"' || true
}

stop_server() {
  [[ -n $server_pid ]] && { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; }
  server_pid=
  return 0
}
