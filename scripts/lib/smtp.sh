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
  # At the lowest priority: in production the relay runs on another machine, not on the cores the
  # measured server has.
  nice -n 19 /usr/bin/python3 backend/tests/api/common/smtp_server.py --ids-only --port "$smtp_port" --dir "$1" > "$1/out" 2> "$1/log" &
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
  [[ -n $smtp_pid ]] && { kill "$smtp_pid" 2>/dev/null; wait "$smtp_pid" 2>/dev/null; }
  smtp_pid=
  return 0
}

# The settings that send every lead through the server start_smtp started.
smtp_env() {
  echo "SMTP_URL=smtp://127.0.0.1:$smtp_port" LEAD_EMAIL_TO=broker@example.com "LEAD_EMAIL_FROM=quotes@broker.example"
}
