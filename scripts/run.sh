#!/usr/bin/env bash
# Starts the built site (prints its URL). PORT, BIND, DATABASE_URL and STATIC_DIR override.
set -euo pipefail
cd "$(dirname "$0")/.."
exec target/release/backend serve
