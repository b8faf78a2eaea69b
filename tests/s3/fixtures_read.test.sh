#!/bin/sh
# Every fixture table ($PAIMON_FIXTURES: the folders with a schema/), uploaded to the test S3
# server by an independent client (upload.mjs, the AWS SDK's signer), reads through
# `paimon cat s3://...` exactly as from disk: for the latest snapshot and for every snapshot
# the table keeps, the same exit status, byte-identical output, and the same error (its path
# aside) where the local read fails. Also `inspect snapshots` and `inspect files` of the
# latest snapshot agree (they name no paths).
set -u
: "${PAIMON_CLI:?}"
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
FIXTURES=${PAIMON_FIXTURES:-$here/../../../shared/fixtures}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; S3 fixture reads did not run"; exit 0
fi
s3_start || exit 1
tmp=$(mktemp -d); trap 's3_stop; rm -rf "$tmp"' EXIT
tables=0; reads=0; rows=0; fail=0

# same NAME ARGS...: runs `paimon ARGS` on the local table and on its S3 copy and compares.
same() {
  what=$1; shift
  "$PAIMON_CLI" "$@" > "$tmp/local.out" 2> "$tmp/local.err"; lrc=$?
  # shellcheck disable=SC2046
  set -- $(printf '%s\n' "$@" | sed "s#^$src\$#$uri#")
  "$PAIMON_CLI" "$@" > "$tmp/s3.out" 2> "$tmp/s3.err"; src3=$?
  sed "s#$uri#$src#g" "$tmp/s3.err" > "$tmp/s3.err.local"
  reads=$((reads + 1))
  [ "$lrc" = 0 ] && [ -s "$tmp/local.out" ] && rows=$((rows + 1))
  if [ "$lrc" != "$src3" ] || ! cmp -s "$tmp/local.out" "$tmp/s3.out" || ! cmp -s "$tmp/local.err" "$tmp/s3.err.local"; then
    echo "FAIL $name $what: local exit $lrc, s3 exit $src3"
    diff "$tmp/local.out" "$tmp/s3.out" | head -5
    diff "$tmp/local.err" "$tmp/s3.err.local" | head -5
    fail=$((fail + 1))
  fi
}

for schema in "$FIXTURES"/*/schema; do
  src=$(dirname "$schema"); name=$(basename "$src")
  uri="s3://$S3_BUCKET/fixtures/$name"
  node "$here/upload.mjs" "$src" "$uri" > /dev/null || { echo "FAIL $name: upload"; fail=$((fail + 1)); continue; }
  tables=$((tables + 1))
  same "cat" cat "$src" --format jsonl
  for snap in $(ls "$src/snapshot" 2>/dev/null | sed -n 's/^snapshot-\([0-9]*\)$/\1/p' | sort -n); do
    same "cat --snapshot $snap" cat "$src" --snapshot "$snap" --format jsonl
  done
  same "inspect snapshots" inspect "$src" snapshots --format jsonl
  same "inspect files" inspect "$src" files --format jsonl
done
# The comparison sees what is on the server: without one data file of the last table, its
# S3 read must now differ from the local one.
victim=$(node "$here/client.mjs" GET "/$S3_BUCKET?list-type=2&prefix=fixtures%2F$name%2F" |
  sed 's#<Key>#\n#g' | sed -n 's#^\(fixtures/[^<]*/bucket-[0-9]*/data-[^<]*\)</Key>.*#\1#p' | head -1)
if [ -n "$victim" ] && [ "$(node "$here/client.mjs" DELETE "/$S3_BUCKET/$victim" | head -1)" = 204 ]; then
  before=$fail
  same "cat without $victim" cat "$src" --format jsonl > /dev/null
  [ "$fail" = $((before + 1)) ] && fail=$before ||
    { echo "FAIL: the read of $name without $victim did not change"; fail=$((fail + 1)); }
else
  echo "FAIL: no data file of $name to remove ($victim)"; fail=$((fail + 1))
fi
echo "$tables fixture tables, $reads reads compared ($rows with rows), $fail differ"
[ "$tables" -ge 20 ] && [ "$rows" -ge 60 ] || { echo "FAIL: only $tables fixture tables, $rows reads with rows"; exit 1; }
[ "$fail" = 0 ]
