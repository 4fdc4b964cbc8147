#!/usr/bin/env bash
# Installs what building (and, with --test, testing) needs. Idempotent: each step is skipped
# when its tool is already there at the pinned version. Only package registries are used.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
want_test_tools=false
toolchain_only=false
case ${1:-} in
  --test) want_test_tools=true ;;
  # Only what compiling the backend needs (scripts/build.sh starts it, then runs the rest).
  --toolchain) toolchain_only=true ;;
esac

# The test tools are used where CHROMIUM_PATH, CHROMEDRIVER, CADDY_PATH and SLOWHTTPTEST_PATH say
# (the tests read the same variables), Debian's /usr/bin ones otherwise; a missing one is
# installed from Debian's packages.
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
need() {
  command -v "$1" >/dev/null 2>&1 && return
  echo "error: '$1' is missing. $2" >&2
  exit 1
}

need cargo "Install Rust with rustup: https://rustup.rs (then open a new shell)."
need rustup "Install Rust with rustup: https://rustup.rs (then open a new shell)."
need node "Install Node.js 20 or newer (Debian: apt-get install nodejs npm, or nodesource)."
need npm "Install npm (it ships with Node.js)."
node_major=$(node -p 'process.versions.node.split(".")[0]')
(( node_major >= 20 )) || { echo "error: Node.js 20 or newer is needed, found $(node --version)" >&2; exit 1; }

# rustfmt and clippy for `make lint` (rustup's default profile has them; a minimal one does not).
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding the $component Rust component"
    rustup component add "$component"
  fi
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi
$toolchain_only && exit 0

# wasm-bindgen-cli is compiled, not downloaded (only registries are reachable), and only runs at
# build and test time on small inputs, where a debug build runs as well as a release one (the same
# output, byte for byte) and compiles in much less time. Its wasm-bindgen-test-runner runs
# wasm-core's tests in wasm (scripts/test-wasm.sh). It must match the wasm-bindgen crate in
# Cargo.lock exactly.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [[ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]]; then
  say "installing wasm-bindgen-cli $bindgen_version"
  # Without --locked: the locked install fails against the registry's current index. Without
  # the default rustls feature: the test runner only speaks plain HTTP to a local ChromeDriver,
  # and ring and rustls were a sixth of the compile (docs/figures.md, "Set-up").
  CARGO_PROFILE_DEV_DEBUG=0 cargo install --debug --quiet wasm-bindgen-cli --version "$bindgen_version" \
    --no-default-features
fi

lock_hash=$(sha256sum frontend/package-lock.json | cut -d' ' -f1)
stamp=frontend/node_modules/.installed-lock-hash
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$lock_hash" ]]; then
  say "installing front-end packages (npm ci)"
  (cd frontend && npm ci --no-audit --no-fund)
  echo "$lock_hash" > "$stamp"
fi

if $want_test_tools && [[ ! -x ${CHROMIUM_PATH:-/usr/bin/chromium} || ! -x ${CHROMEDRIVER:-/usr/bin/chromedriver} ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Debian's chromium and chromium-driver for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
  else
    echo "error: the browser tests need Debian's Chromium. Run as root:" >&2
    echo "  apt-get update && apt-get install -y chromium chromium-driver" >&2
    exit 1
  fi
fi

# PostgreSQL's server binaries, from which scripts/test.sh starts a throwaway cluster when
# TEST_DATABASE_URL is not set, and always the TLS one of scripts/test-postgres-tls.sh (openssl,
# which makes its certificates, comes with the e-mail tests' packages below). Without them (and
# not root) those suites are reported SKIPPED.
if $want_test_tools && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Debian's postgresql for the PostgreSQL tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  else
    echo "note: the PostgreSQL tests will be SKIPPED. To run them, as root: apt-get install -y postgresql" >&2
  fi
fi

# The reverse proxy the deployment uses (deploy/Caddyfile), for tests/system/behind-proxy.test.mjs.
if $want_test_tools && [[ ! -x ${CADDY_PATH:-/usr/bin/caddy} ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Debian's caddy for the behind-the-proxy test"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy
    # The package starts a Caddy on port 80 where systemd runs; the test runs its own.
    if command -v systemctl >/dev/null && systemctl is-active --quiet caddy 2>/dev/null; then
      systemctl disable --now caddy
    fi
  else
    echo "error: the behind-the-proxy test needs Debian's caddy. Run as root:" >&2
    echo "  apt-get update && apt-get install -y caddy" >&2
    exit 1
  fi
fi

# The slow-reader crowd of tests/system/hostile-clients.test.mjs.
if $want_test_tools && [[ ! -x ${SLOWHTTPTEST_PATH:-/usr/bin/slowhttptest} ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Debian's slowhttptest for the hostile-clients test"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slowhttptest
  else
    echo "error: the hostile-clients test needs Debian's slowhttptest. Run as root:" >&2
    echo "  apt-get update && apt-get install -y slowhttptest" >&2
    exit 1
  fi
fi

# The real SMTP server the e-mail tests run (backend/tests/api/common/smtp_server.py), with
# Debian's Python, and openssl for its self-signed certificate.
if $want_test_tools && ! { /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null && command -v openssl >/dev/null; }; then
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Debian's python3-aiosmtpd and openssl for the e-mail tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-aiosmtpd openssl
  else
    echo "error: the e-mail tests need Debian's python3-aiosmtpd and openssl. Run as root:" >&2
    echo "  apt-get update && apt-get install -y python3-aiosmtpd openssl" >&2
    exit 1
  fi
fi

# The API fuzzer (scripts/fuzz-api.sh), in its own virtualenv so no system Python is touched.
if $want_test_tools && [[ "$(.venv-tools/bin/schemathesis --version 2>/dev/null | awk '{print $NF}')" != "$SCHEMATHESIS_VERSION" ]]; then
  need python3 "Install Python 3.9 or newer (Debian: apt-get install python3 python3-venv)."
  say "installing schemathesis $SCHEMATHESIS_VERSION (PyPI) into .venv-tools"
  python3 -m venv .venv-tools
  .venv-tools/bin/pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
