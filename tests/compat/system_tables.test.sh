#!/bin/sh
# System tables against independent readers, on every fixture table and every snapshot:
#   $snapshots   equals the snapshot JSON files (commit_time as UTC, TZ=UTC);
#   $manifests   equals the manifest lists the oracle's Avro reader decodes;
#   $files       equals the oracle's --files (minus postpone buckets, limited to the latest
#                snapshot's partitions as Java's FilesTable is).
# Tables with ORC manifests, which the oracle cannot read, have the $files and $manifests of
# their latest snapshot checked against the table itself (orc_manifest_files.mjs: every
# listed file exists with the recorded size; $files' record counts add up to the snapshot's
# totalRecordCount); their $snapshots is compared like the others.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; compatibility checks did not run"; exit 0
fi
export TZ=UTC
here=$(dirname "$0")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tables=0; snapshots=0; orc=""; fail=0
for table in "$FIXTURES"/*/; do
  table=${table%/}
  [ -d "$table/schema" ] && [ -d "$table/snapshot" ] || continue
  name=$(basename "$table")
  tables=$((tables + 1))
  if ! "$PAIMON_CLI" cat "$table\$snapshots" > "$tmp/snaps" 2> "$tmp/err"; then
    echo "FAIL: $name \$snapshots: $(cat "$tmp/err")"; fail=1
  elif ! node "$here/system_tables.mjs" snapshots "$table" "$tmp/snaps"; then
    fail=1
  fi
  first=$(ls "$table/manifest" | grep '^manifest-list-' | head -1)
  if [ "$(head -c 3 "$table/manifest/$first")" = "ORC" ]; then
    latest=$(ls "$table/snapshot" | sed -n 's/^snapshot-\([0-9][0-9]*\)$/\1/p' | sort -n | tail -1)
    for sys in files manifests; do
      if ! "$PAIMON_CLI" cat "$table\$$sys" > "$tmp/$sys" 2> "$tmp/err"; then
        echo "FAIL: $name \$$sys: $(cat "$tmp/err")"; fail=1
      elif ! node "$here/orc_manifest_files.mjs" "$table" "$table/snapshot/snapshot-$latest" \
          < "$tmp/$sys" > "$tmp/check"; then
        echo "FAIL: $name \$$sys:"; cat "$tmp/check"; fail=1
      fi
    done
    orc="$orc $name"
    continue
  fi
  latest=$(ls "$table/snapshot" | sed -n 's/^snapshot-\([0-9][0-9]*\)$/\1/p' | sort -n | tail -1)
  node "$ORACLE_DIR/oracle.mjs" "$table" --snapshot "$latest" --files > "$tmp/latest" 2> "$tmp/oerr" ||
    { echo "FAIL: oracle on $name: $(cat "$tmp/oerr")"; fail=1; continue; }
  for snap in $(ls "$table/snapshot" | sed -n 's/^snapshot-\([0-9][0-9]*\)$/\1/p' | sort -n); do
    snapshots=$((snapshots + 1))
    if ! "$PAIMON_CLI" cat "$table\$manifests" --snapshot "$snap" > "$tmp/manifests" 2> "$tmp/err"; then
      echo "FAIL: $name \$manifests S$snap: $(cat "$tmp/err")"; fail=1
    elif ! node "$here/system_tables.mjs" manifests "$table" "$snap" "$tmp/manifests"; then
      fail=1
    fi
    if ! "$PAIMON_CLI" cat "$table\$files" --snapshot "$snap" > "$tmp/$name-S$snap" 2> "$tmp/err"; then
      echo "FAIL: $name \$files S$snap: $(cat "$tmp/err")"; fail=1; continue
    fi
    node "$ORACLE_DIR/oracle.mjs" "$table" --snapshot "$snap" --files > "$tmp/oracle" 2> "$tmp/oerr" ||
      { echo "FAIL: oracle on $name S$snap: $(cat "$tmp/oerr")"; fail=1; continue; }
    node "$here/system_tables.mjs" files "$tmp/oracle" "$tmp/latest" "$tmp/$name-S$snap" || fail=1
  done
done
echo "$tables tables: \$snapshots of all compared; \$files and \$manifests of $snapshots Avro-manifest snapshots compared"
echo "\$files and \$manifests of the latest snapshot checked against the table (ORC manifests):$orc"
[ "$snapshots" -gt 20 ] || { echo "FAIL: too few snapshots compared"; fail=1; }
exit $fail
