#!/bin/sh
# Random INSERT/UPDATE/DELETE transactions, some rolled back and some failing half-way,
# against a native SQLite table; after each one the Paimon table (paimon cat and the oracle)
# equals the native table (random_writes.py says how).  Twice: a table of scalar columns
# (the columnar buffer) and one whose s is an ARRAY<STRING> (the JSONL commit).
set -u
. "$(dirname "$0")/lib.sh"
: "${ORACLE_DIR:?}"
host_run /usr/bin/python3 "$(dirname "$0")/random_writes.py" "$EXT" "$PAIMON_CLI" "$ORACLE_DIR" "$tmp" 16 10 ||
  exit 1
rm -rf "$tmp/wh"
host_run /usr/bin/python3 "$(dirname "$0")/random_writes.py" "$EXT" "$PAIMON_CLI" "$ORACLE_DIR" "$tmp" 17 10 nested
