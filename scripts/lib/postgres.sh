# A throwaway PostgreSQL cluster for the test suites when TEST_DATABASE_URL is not set. Sourced,
# not run; the caller calls stop_throwaway_postgres from its EXIT trap.
#
# use_postgres: keeps a TEST_DATABASE_URL that is set; otherwise starts a cluster of its own with
# Debian's server binaries (initdb + pg_ctl in a temp directory, on a free loopback port, as an
# unprivileged user since PostgreSQL refuses to run as root) and exports TEST_DATABASE_URL for it.
# Returns 1 when neither is possible, with the reason in $postgres_unavailable.

postgres_dir=
postgres_bin=
postgres_unavailable=
# The command that makes the PostgreSQL suites run on a machine where they are skipped.
POSTGRES_ENABLE_HINT='as root: apt-get install -y postgresql (or scripts/setup.sh --test); or set TEST_DATABASE_URL=postgres://user@host:port/db'

# as_postgres_user COMMAND...: runs it as the cluster's owner.
as_postgres_user() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi
}

# find_postgres_bin: sets postgres_bin to the newest of Debian's PostgreSQL server binaries, or
# returns 1 when there are none.
find_postgres_bin() {
  postgres_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [[ -n $postgres_bin && -x $postgres_bin/initdb ]]
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# init_cluster DIR: a new cluster in DIR/data (DIR made by mktemp), trust auth, owned by the
# cluster's user; its log in DIR/initdb.log.
init_cluster() {
  [[ $(id -u) -eq 0 ]] && chown nobody "$1"
  as_postgres_user "$postgres_bin/initdb" -D "$1/data" -U postgres --auth=trust --no-sync > "$1/initdb.log" 2>&1
}

# start_cluster DIR PORT [-c NAME=VALUE...]: starts DIR's cluster on 127.0.0.1:PORT, its log in
# DIR/server.log. fsync off: the cluster is thrown away, durability across a power cut is not
# under test.
start_cluster() {
  local dir=$1 port=$2
  shift 2
  as_postgres_user "$postgres_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off $*" start > /dev/null
}

# stop_cluster DIR: stops DIR's cluster and removes DIR.
stop_cluster() {
  as_postgres_user "$postgres_bin/pg_ctl" -D "$1/data" -m immediate stop > /dev/null 2>&1
  rm -rf "$1"
}

use_postgres() {
  [[ -n ${TEST_DATABASE_URL:-} ]] && return 0
  if ! find_postgres_bin; then
    postgres_unavailable="TEST_DATABASE_URL is not set and PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb) are not installed"
    return 1
  fi
  postgres_dir=$(mktemp -d /tmp/test-postgres.XXXXXX)
  local port
  port=$(free_port)
  if init_cluster "$postgres_dir" && start_cluster "$postgres_dir" "$port"; then
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
    echo "PostgreSQL: a throwaway cluster ($("$postgres_bin/postgres" --version)) at $TEST_DATABASE_URL"
    return 0
  fi
  postgres_unavailable="the throwaway PostgreSQL cluster did not start: $(tail -n 3 "$postgres_dir"/*.log 2>/dev/null | tr '\n' ' ')"
  stop_throwaway_postgres
  return 1
}

stop_throwaway_postgres() {
  [[ -z $postgres_dir ]] && return 0
  stop_cluster "$postgres_dir"
  postgres_dir=
  return 0
}
