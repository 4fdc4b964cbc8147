#!/usr/bin/env bash
# sqlx evaluated as the store's database layer (not adopted): the store's stack (rusqlite bundled,
# tokio-postgres + deadpool-postgres over tokio-postgres-rustls/rustls ring: "ours") against sqlx
# 0.8 (runtime-tokio, tls-rustls-ring-webpki, sqlite, postgres, migrate: "sqlx"), each a small
# binary doing the same job, in scripts/sqlx-eval/{ours,sqlx} (crates of their own, outside the
# workspace: rusqlite 0.37 and sqlx 0.8 need different libsqlite3-sys, which one graph cannot hold).
#
# It measures: 1. build cost: crates pulled (cargo tree, deterministic) and the release build's
# CPU (user+sys) and wall seconds from an empty target dir (downloads excluded: cargo fetch first);
# 2. instructions (callgrind, all threads, this process only: not the PostgreSQL server's) per
# insert (its own transaction, cached statement, $1..$5) + select by id, on SQLite (WAL,
# synchronous=NORMAL) and PostgreSQL: (count(BENCH_MANY=220) - count(BENCH_FEW=20)) / 200;
# 3. behaviours: sqlx binding `$n` on SQLite, its TLS from sslmode/sslrootcert against a
# throwaway TLS cluster, its migrator on a database migrated our way.
# Each figure: median (min-max) of BENCH_RUNS (5) runs; builds BENCH_BUILD_RUNS (5), cut to 3
# when a first build takes over 4 minutes wall. Everything runs under `nice -n 19`, in a temp dir
# removed at exit (never /work/main/target).
#
# Takes about 35-60 minutes on 2 busy cores (builds: 3-6 min each, 6-10 of them); callgrind ~2 min.
#
#   scripts/bench-sqlx.sh     needs cargo, valgrind, GNU time, PostgreSQL at BENCH_PG_URL
#                             (postgres://postgres@127.0.0.1:5432/test; table sqlx_eval_quotes,
#                             dropped after), and for 3b initdb/pg_ctl + openssl (else skipped)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${BENCH_RUNS:-5}
BUILD_RUNS=${BENCH_BUILD_RUNS:-5}
FEW=${BENCH_FEW:-20}
MANY=${BENCH_MANY:-220}
PG_URL=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/test}
EVAL=$PWD/scripts/sqlx-eval
NICE=(nice -n 19)

for tool in cargo valgrind /usr/bin/time; do
  command -v "$tool" > /dev/null || { echo "error: $tool is not installed" >&2; exit 1; }
done

work=$(mktemp -d /tmp/bench-sqlx.XXXXXX)
tls_dir=
cleanup() {
  [[ -n $tls_dir ]] && stop_cluster "$tls_dir"
  command -v psql > /dev/null && psql -q "$PG_URL" -c 'DROP TABLE IF EXISTS sqlx_eval_quotes' > /dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# stats: "median (min-max)" of the numbers on stdin, one a line.
stats() {
  sort -g | awk '{ v[NR] = $1 } END { printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
# version CRATE LOCKFILE
version() { awk -v n="$1" '$0 == "name = \"" n "\"" { getline; gsub(/[^0-9.]/, ""); print; exit }' "$2"; }

echo "bench-sqlx: $(date -u '+%Y-%m-%d %H:%M:%S') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "versions: sqlx $(version sqlx "$EVAL/sqlx/Cargo.lock"), rusqlite $(version rusqlite "$EVAL/ours/Cargo.lock")," \
  "tokio-postgres $(version tokio-postgres "$EVAL/ours/Cargo.lock"), deadpool-postgres $(version deadpool-postgres "$EVAL/ours/Cargo.lock")," \
  "libsqlite3-sys $(version libsqlite3-sys "$EVAL/ours/Cargo.lock") (ours) / $(version libsqlite3-sys "$EVAL/sqlx/Cargo.lock") (sqlx), $(rustc --version)"

# 1. Build cost.
declare -A crates crates_build wall cpu
for c in ours sqlx; do
  (cd "$EVAL/$c" && "${NICE[@]}" cargo fetch --locked -q)
  tree() { (cd "$EVAL/$c" && cargo tree --locked --offline --prefix none "$@" | sed 's/ (\*)$//' | sort -u | grep -vc '^sqlx-eval-'); }
  crates[$c]=$(tree -e normal)
  crates_build[$c]=$(tree -e normal,build)
done
sqlx_macros=$(cd "$EVAL/sqlx" && cargo tree --locked --offline --prefix none -e normal --features macros | sed 's/ (\*)$//' | sort -u | grep -vc '^sqlx-eval-')

mkdir "$work/bin"
run=1
while ((run <= BUILD_RUNS)); do
  for c in ours sqlx; do
    target=$work/target-$c-$run
    echo "build $run/$BUILD_RUNS: $c" >&2
    (cd "$EVAL/$c" && CARGO_TARGET_DIR=$target /usr/bin/time -f '%e %U %S' -o "$work/time" \
      "${NICE[@]}" cargo build --release --locked --offline -q)
    read -r w u s < "$work/time"
    echo "$w" >> "$work/wall-$c"
    awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f\n", u + s }' >> "$work/cpu-$c"
    cp "$target/release/sqlx-eval-$c" "$work/bin/$c"
    rm -rf "$target"
    if ((run == 1)) && [[ -z ${BENCH_BUILD_RUNS:-} ]] && awk -v w="$w" 'BEGIN { exit !(w > 240) }'; then
      BUILD_RUNS=3
    fi
  done
  run=$((run + 1))
done
for c in ours sqlx; do
  wall[$c]=$(stats < "$work/wall-$c")
  cpu[$c]=$(stats < "$work/cpu-$c")
done

# 2. Instructions per insert + select. count BIN DB N: the process's instructions, all threads.
count() {
  local target=$3
  if [[ $2 == sqlite ]]; then
    rm -rf "$work/db" && mkdir "$work/db"
    target=$work/db/quotes.db
  else
    target="$PG_URL?sslmode=disable"
  fi
  rm -f "$work/cg.out"
  if ! "${NICE[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
    "$work/bin/$1" "$2" "$target" "$3" > "$work/job.log" 2> "$work/valgrind.log"; then
    echo "error: $1 $2 $3 failed:" >&2
    tail -n 20 "$work/valgrind.log" >&2
    exit 1
  fi
  awk '/^(summary|totals):/ { print $2; exit }' "$work/cg.out"
}
declare -A per
for ((run = 1; run <= RUNS; run++)); do
  for db in sqlite postgres; do
    for c in ours sqlx; do
      echo "callgrind $run/$RUNS: $c $db" >&2
      many=$(count "$c" "$db" "$MANY")
      few=$(count "$c" "$db" "$FEW")
      echo $(((many - few) / (MANY - FEW))) >> "$work/per-$c-$db"
    done
  done
done
for db in sqlite postgres; do
  for c in ours sqlx; do per[$c-$db]=$(stats < "$work/per-$c-$db"); done
done

# 3. Behaviours.
binds=$("$work/bin/sqlx" check-binds)
migrate=$("$work/bin/sqlx" check-migrate "$work/migrate.db")

source scripts/lib/postgres.sh
tls=()
if find_postgres_bin && command -v openssl > /dev/null; then
  tls_dir=$(mktemp -d /tmp/bench-sqlx-tls.XXXXXX)
  init_cluster "$tls_dir" || { cat "$tls_dir/initdb.log"; exit 1; }
  t=$tls_dir/tls
  mkdir "$t"
  subject() { openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$1" -keyout "$t/$2.key" -out "$t/$2.pem" 2> /dev/null; }
  subject "test CA" ca
  subject "wrong CA" wrong-ca
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$t/server.key" -out "$t/server.csr" 2> /dev/null
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n') -out "$t/server.pem" 2> /dev/null
  chmod 0600 "$t/server.key"
  [[ $(id -u) -eq 0 ]] && chown -R nobody "$t"
  port=$(free_port)
  start_cluster "$tls_dir" "$port" -c ssl=on -c "ssl_cert_file=$t/server.pem" -c "ssl_key_file=$t/server.key" \
    || { cat "$tls_dir/server.log"; exit 1; }
  # HOST QUERY, then what libpq (and our tls.rs) does with it.
  while read -r host query libpq; do
    tls+=("$(printf '%-9s %-42s libpq: %-8s sqlx: %s' "$host" "${query//$t\//}" "$libpq" \
      "$("$work/bin/sqlx" check-tls "postgres://postgres@$host:$port/postgres?$query")")")
  done << CASES
localhost sslmode=verify-full&sslrootcert=$t/ca.pem connects
127.0.0.1 sslmode=verify-full&sslrootcert=$t/ca.pem refuses
localhost sslmode=verify-full&sslrootcert=$t/wrong-ca.pem refuses
127.0.0.1 sslmode=verify-ca&sslrootcert=$t/ca.pem connects
localhost sslmode=require&sslrootcert=$t/wrong-ca.pem refuses
localhost sslmode=verify-full&sslrootcert=system refuses
localhost sslmode=require connects
CASES
else
  tls=("skipped: no /usr/lib/postgresql/*/bin/initdb or no openssl")
fi

row() { printf '%-44s %-30s %s\n' "$@"; }
echo
echo "== Summary (median (min-max) of runs; build runs: $BUILD_RUNS, callgrind runs: $RUNS)"
row "" ours sqlx
row "crates, normal deps (cargo tree -e normal)" "${crates[ours]}" "${crates[sqlx]} (+macros: $sqlx_macros)"
row "crates with build deps (-e normal,build)" "${crates_build[ours]}" "${crates_build[sqlx]}"
row "release build, CPU s (user+sys)" "${cpu[ours]}" "${cpu[sqlx]}"
row "release build, wall s" "${wall[ours]}" "${wall[sqlx]}"
row "SQLite: instructions per insert+select" "${per[ours-sqlite]}" "${per[sqlx-sqlite]}"
row "PostgreSQL: instructions per insert+select" "${per[ours-postgres]}" "${per[sqlx-postgres]}"
echo "(instructions: client process, all threads; (N=$MANY - N=$FEW) / $((MANY - FEW)))"
echo
echo "== 3a. sqlx on SQLite, \$n parameters"
echo "$binds"
echo "== 3b. sqlx's TLS from the URL alone (throwaway cluster, certificate for localhost by a test CA)"
printf '%s\n' "${tls[@]}"
echo "== 3c. sqlx's migrator on a database migrated as migrations.rs does (user_version = 1)"
echo "$migrate"
grep -q '"bab"' <<< "$binds" && grep -q 'Ok(())' <<< "$migrate"
