#!/bin/sh
# Prepares the Node.js side of the tests (idempotent; quick when done already):
#  - tests/interop/node_modules: DuckDB, hyparquet, avsc at the versions of its lock file;
#  - tests/s3/node_modules: s3rver and the AWS SDK's SigV4 signer for the test S3 server;
#  - BUILD_DIR/oracle: a writable copy of ../shared/tools/oracle with its node_modules
#    (../shared is read-only in CI).
# Usage: scripts/setup-node.sh BUILD_DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: setup-node.sh BUILD_DIR}
shared=${PAIMON_SHARED:-$root/../shared}

command -v npm >/dev/null || { echo "setup-node: npm not found (scripts/install-deps.sh installs it)" >&2; exit 1; }

stamp_ok() { [ -f "$1/node_modules/.paimon-stamp" ] && cmp -s "$1/package-lock.json" "$1/node_modules/.paimon-stamp"; }

for dir in "$root/tests/interop" "$root/tests/s3"; do
  if ! stamp_ok "$dir"; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$dir/node_modules/.paimon-stamp"
  fi
done

if [ -d "$shared/tools/oracle" ]; then
  mkdir -p "$build/oracle"
  # Copy the oracle's sources (not its node_modules) when they changed.
  (cd "$shared/tools/oracle" && tar cf - --exclude=node_modules .) | (cd "$build/oracle" && tar xf -)
  if ! stamp_ok "$build/oracle"; then
    (cd "$build/oracle" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$build/oracle/package-lock.json" "$build/oracle/node_modules/.paimon-stamp"
  fi
else
  echo "setup-node: no oracle at $shared/tools/oracle" >&2
  [ -z "${CI:-}" ] || exit 1
fi
