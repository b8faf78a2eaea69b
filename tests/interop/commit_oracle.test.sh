#!/bin/sh
# A table written through the commit layer (tests/interop/write_commit_table.c: six commits
# of Avro data files, the last an overwrite of one partition) is read by the oracle with
# `--strict` (Java 1.4.2 shapes, sizes, statistics, hints) and holds exactly the expected
# rows; `paimon inspect files` agrees with the oracle's --files.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}" "${PAIMON_BUILD_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$PAIMON_BUILD_DIR/tests/interop/interop_write_commit_table" "$tmp/t" > "$tmp/expected" || exit 1
fail=0
if ! node "$ORACLE_DIR/oracle.mjs" "$tmp/t" --strict > "$tmp/rows" 2> "$tmp/report"; then
  echo "FAIL: oracle --strict:"; grep -v '^check: ok' "$tmp/report" | head -40; fail=1
fi
node "$ORACLE_DIR/compare.mjs" "$tmp/expected" "$tmp/rows" || fail=1
for snap in 1 2 3 4 5 6; do
  node "$ORACLE_DIR/oracle.mjs" "$tmp/t" --snapshot $snap --strict > /dev/null 2> "$tmp/r$snap" ||
    { echo "FAIL: snapshot $snap:"; grep PROBLEM "$tmp/r$snap" | head; fail=1; }
done
"$PAIMON_CLI" inspect "$tmp/t" files --format jsonl > "$tmp/ours" || fail=1
node "$ORACLE_DIR/oracle.mjs" "$tmp/t" --files > "$tmp/ofiles" || fail=1
node "$ORACLE_DIR/compare.mjs" "$tmp/ofiles" "$tmp/ours" || fail=1
[ "$fail" = 0 ] && echo "commit table: oracle --strict clean on 6 snapshots, rows and files match"
exit $fail
