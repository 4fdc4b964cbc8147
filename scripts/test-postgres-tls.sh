#!/usr/bin/env bash
# TLS to PostgreSQL (libpq's sslmode and sslrootcert in DATABASE_URL) against a real server: a
# throwaway cluster with ssl=on, a certificate for "localhost" signed by a test CA made here, and
# no connection without TLS (pg_hba.conf). Runs the #[ignore]d tests in
# backend/src/store/postgres/tls.rs. Exits 77 (SKIPPED, with the reason) without PostgreSQL's
# server binaries or openssl: scripts/setup.sh --test installs them (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

if ! find_postgres_bin; then
  # TEST_DATABASE_URL is no help here: the test needs a server whose TLS it sets up.
  echo "SKIPPED: PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb) are not installed. To run it, as root: apt-get install -y postgresql (or scripts/setup.sh --test)"
  exit 77
fi
if ! command -v openssl > /dev/null; then
  echo "SKIPPED: openssl is not installed. To run it, as root: apt-get install -y openssl (or scripts/setup.sh --test)"
  exit 77
fi

dir=$(mktemp -d /tmp/test-postgres-tls.XXXXXX)
trap 'stop_cluster "$dir"' EXIT
init_cluster "$dir" || { cat "$dir/initdb.log"; exit 1; }

# A test CA, the server's certificate for localhost only (so 127.0.0.1 fails verify-full and
# passes verify-ca), and a second CA that signed nothing here.
tls=$dir/tls
mkdir "$tls"
subject() { openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$1" -keyout "$tls/$2.key" -out "$tls/$2.pem" 2> /dev/null; }
subject "test CA" ca
subject "wrong CA" wrong-ca
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr" 2> /dev/null
openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
  -extfile <(printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n') -out "$tls/server.pem" 2> /dev/null
chmod 0600 "$tls/server.key"
[[ $(id -u) -eq 0 ]] && chown -R nobody "$tls"

# TLS or nothing over TCP; trust auth, as the other test clusters.
cat > "$dir/pg_hba.conf" << HBA
local     all all              trust
hostssl   all all 127.0.0.1/32 trust
hostnossl all all 0.0.0.0/0    reject
HBA
[[ $(id -u) -eq 0 ]] && chown nobody "$dir/pg_hba.conf"

port=$(free_port)
if ! start_cluster "$dir" "$port" -c ssl=on -c "ssl_cert_file=$tls/server.pem" \
  -c "ssl_key_file=$tls/server.key" -c "hba_file=$dir/pg_hba.conf"; then
  cat "$dir/server.log"
  exit 1
fi
echo "PostgreSQL with TLS: $("$postgres_bin/postgres" --version) on 127.0.0.1:$port"

TEST_TLS_POSTGRES_PORT=$port TEST_TLS_CA=$tls/ca.pem TEST_TLS_WRONG_CA=$tls/wrong-ca.pem \
  cargo test --workspace --lib -- --ignored store::postgres::tls::cluster_tests
