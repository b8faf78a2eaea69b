#!/bin/sh
# For every fixture table whose manifests are Avro, and every snapshot of it:
#   paimon inspect TABLE files --snapshot N --format jsonl
# equals the oracle's `node oracle.mjs TABLE --snapshot N --files`, compared as multisets
# (shared/tools/oracle/compare.mjs).  Tables with ORC manifests must fail with the plain
# "not yet supported" message instead.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; compatibility checks did not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tables=0; snapshots=0; orc=0; fail=0
for table in "$FIXTURES"/*/; do
  table=${table%/}
  [ -d "$table/schema" ] && [ -d "$table/snapshot" ] || continue
  tables=$((tables + 1))
  first=$(ls "$table/manifest" | grep '^manifest-list-' | head -1)
  magic=$(head -c 3 "$table/manifest/$first")
  for snap in $(ls "$table/snapshot" | sed -n 's/^snapshot-\([0-9][0-9]*\)$/\1/p' | sort -n); do
    if [ "$magic" = "ORC" ]; then
      if "$PAIMON_CLI" inspect "$table" files --snapshot "$snap" --format jsonl > /dev/null 2> "$tmp/err"; then
        echo "FAIL: $table snapshot $snap: ORC manifests read without an error?"; fail=1
      elif ! grep -q "ORC manifests (manifest.format=orc) are not yet supported" "$tmp/err"; then
        echo "FAIL: $table: unexpected error: $(cat "$tmp/err")"; fail=1
      fi
      orc=$((orc + 1))
      continue
    fi
    snapshots=$((snapshots + 1))
    if ! "$PAIMON_CLI" inspect "$table" files --snapshot "$snap" --format jsonl > "$tmp/ours" 2> "$tmp/err"; then
      echo "FAIL: $table snapshot $snap: $(cat "$tmp/err")"; fail=1; continue
    fi
    if ! node "$ORACLE_DIR/oracle.mjs" "$table" --snapshot "$snap" --files > "$tmp/oracle" 2> "$tmp/oerr"; then
      echo "FAIL: oracle on $table snapshot $snap: $(cat "$tmp/oerr")"; fail=1; continue
    fi
    if ! node "$ORACLE_DIR/compare.mjs" "$tmp/oracle" "$tmp/ours" > "$tmp/cmp"; then
      echo "FAIL: $table snapshot $snap differs from the oracle:"; cat "$tmp/cmp"; fail=1
    fi
  done
done
echo "$tables tables: $snapshots Avro-manifest snapshots compared with the oracle, $orc ORC-manifest snapshots refused"
[ "$snapshots" -gt 20 ] || { echo "FAIL: too few snapshots compared"; fail=1; }
exit $fail
