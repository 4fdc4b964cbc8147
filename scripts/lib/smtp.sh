# A real SMTP server on loopback for the scripts that measure e-mail: Debian's python3-aiosmtpd
# running the API tests' smtp_server.py, keeping each accepted message's Message-ID and acceptance
# time (DIR/accepted.tsv, --ids-only). Sourced, not run; the caller calls stop_smtp from its EXIT
# trap.

smtp_pid=
smtp_port=

# start_smtp DIR: starts the server on a free port, noting messages in DIR/accepted.tsv; returns once
# it accepts connections. Sets $smtp_port and $smtp_pid.
start_smtp() {
  /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || {
    echo "error: this needs Debian's python3-aiosmtpd (scripts/setup.sh --test installs it)" >&2
    exit 1
  }
  smtp_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$1"
  # At the idle CPU priority (SCHED_IDLE, where nice 19 still took cores from a busy server): in
  # production the relay runs on another machine, not on the cores the measured server has.
  chrt --idle 0 /usr/bin/python3 backend/tests/api/common/smtp_server.py --ids-only --port "$smtp_port" --dir "$1" > "$1/out" 2> "$1/log" &
  smtp_pid=$!
  local deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    grep -q ready "$1/out" 2>/dev/null && return 0
    kill -0 "$smtp_pid" 2>/dev/null || break
    sleep 0.01
  done
  echo "error: the SMTP server did not start: $(cat "$1/log")" >&2
  exit 1
}

stop_smtp() {
  [[ -n $smtp_pid ]] && { kill "$smtp_pid" 2>/dev/null; wait "$smtp_pid" 2>/dev/null || true; }
  smtp_pid=
  return 0
}

# start_silent_relay: a relay that accepts connections and never answers (its port in
# $silent_port, its output in the caller's $work): with it, a lead's e-mail is queued in the
# outbox and never sent, so a benchmark sees what the outbox row alone costs the request.
silent_pid=
silent_port=
start_silent_relay() {
  silent_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  /usr/bin/python3 -c '
import signal, socket, sys
listener = socket.socket()
listener.bind(("127.0.0.1", int(sys.argv[1])))
listener.listen(1024)
print("ready", flush=True)
signal.pause()' "$silent_port" > "$work/silent-relay" &
  silent_pid=$!
  local deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    grep -q ready "$work/silent-relay" 2>/dev/null && return 0
    sleep 0.01
  done
  echo "error: the silent relay did not start" >&2
  exit 1
}

stop_silent_relay() {
  [[ -n $silent_pid ]] && { kill "$silent_pid" 2>/dev/null; wait "$silent_pid" 2>/dev/null || true; }
  silent_pid=
  return 0
}

# The settings that send every lead through the server start_smtp started (or through the relay
# on port $1), each in an e-mail of its own: the site's hourly e-mail budget is set out of reach,
# as the measurements are of a lead's e-mail, not of the hourly digest.
smtp_env() {
  echo "SMTP_URL=smtp://127.0.0.1:${1:-$smtp_port}" LEAD_EMAIL_TO=broker@example.com "LEAD_EMAIL_FROM=quotes@broker.example" LEAD_EMAIL_MAX_PER_HOUR=1000000000
}
