#!/bin/sh
# For every fixture table and every snapshot of it, `paimon inspect TABLE files --snapshot N
# --format jsonl`:
#   - Avro manifests: equals the oracle's `node oracle.mjs TABLE --snapshot N --files`,
#     compared as multisets (shared/tools/oracle/compare.mjs);
#   - ORC manifests (the oracle does not read ORC): every listed file exists with the
#     recorded size, and the row counts add up to the snapshot's totalRecordCount
#     (orc_manifest_files.mjs).
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
      orc=$((orc + 1))
      if ! "$PAIMON_CLI" inspect "$table" files --snapshot "$snap" --format jsonl > "$tmp/ours" 2> "$tmp/err"; then
        echo "FAIL: $table snapshot $snap: $(cat "$tmp/err")"; fail=1; continue
      fi
      if ! node "$INTEROP_DIR/../compat/orc_manifest_files.mjs" "$table" "$table/snapshot/snapshot-$snap" < "$tmp/ours" > "$tmp/cmp"; then
        echo "FAIL: $table snapshot $snap:"; cat "$tmp/cmp"; fail=1
      fi
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
echo "$tables tables: $snapshots Avro-manifest snapshots compared with the oracle, $orc ORC-manifest snapshots checked against the files"
[ "$snapshots" -gt 20 ] || { echo "FAIL: too few snapshots compared"; fail=1; }
[ "$orc" -gt 20 ] || { echo "FAIL: too few ORC-manifest snapshots checked"; fail=1; }
exit $fail
