#!/bin/sh
# Installs what paimon-c needs to build and test on Debian 12 (bookworm).
#
# Run as root: apt-get installs whatever is missing. Run as anyone else: prints the
# exact command to run and fails if something is missing. Idempotent and quick when
# everything is already present (dpkg-query only, no network).
set -eu

# Build: compiler, cmake, pkg-config, clang (fuzz preset) and its sanitizer runtimes.
# Libraries: the codecs, jansson, CRoaring, cmocka; libcurl and libcrypto for S3; libpq for
# paimon cdc postgres, and the PostgreSQL 15 server its tests start (tests/cdc).
# Interop: Debian's python3-avro (+ codecs) for reading what paimon-c writes; nodejs/npm
# for the oracle and DuckDB when the machine has no node of its own.
# SQL: libsqlite3-dev (the virtual-table module) and the sqlite3 shell (its tests).
# HTML report tests: Debian's chromium (headless screenshots and DOM dumps).
PACKAGES="build-essential cmake pkg-config clang libclang-rt-14-dev
  libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libjansson-dev libroaring-dev libcmocka-dev
  libcurl4-openssl-dev libssl-dev libpq-dev postgresql-15
  python3-avro python3-zstandard python3-snappy clang-format
  libsqlite3-dev sqlite3 chromium"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing="$missing $p"
  fi
done
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing="$missing nodejs npm"
fi

if [ -z "$missing" ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ]; then
  echo "install-deps: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
else
  echo "install-deps: missing packages:$missing" >&2
  echo "install-deps: run: sudo apt-get install -y --no-install-recommends$missing" >&2
  exit 1
fi
