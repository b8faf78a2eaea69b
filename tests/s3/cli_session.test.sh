#!/bin/sh
# "Everything that works locally works on S3" (issue 14): one `paimon` session -- create,
# writes (a primary-key table with partitions and two buckets, changelog-producer input, and
# an append table), cat, tail, tail --follow --idle-exit, compact, every inspect view, system
# tables, file cat/meta of a data file, tags, expire, rollback, remove-orphans --dry-run,
# consumers -- run once on a local table and once on s3://warehouse/...; the two
# transcripts (stdout, stderr and exit codes) must be the same once the table root, random
# file names and clock times are replaced by placeholders.  The S3 table is then downloaded
# and read by the oracle (--strict), as the local one is.
set -u
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
P=${PAIMON_CLI:?PAIMON_CLI names the paimon binary}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/s3session.XXXXXX")
trap 's3_stop; rm -rf "$WORK"' EXIT
s3_start || exit 1

# session ROOT: the commands, each followed by its exit code.
session() {
  R=$1
  T=$R/db.db/orders
  A=$R/db.db/events
  run() { "$@"; echo "[exit $?]"; }
  # for outputs whose order follows random file names (the same on both, run to run not)
  # (sorted by sort_blocks after normalize, so that the placeholders decide the order)
  sorted() { echo "@@sort"; "$@"; _rc=$?; echo "@@end"; echo "[exit $_rc]"; }
  run "$P" create "$T" --schema 'id BIGINT, dt STRING, amount DECIMAL(10, 2), note STRING' \
    --primary-key dt,id --partition-by dt --option bucket=2 --option changelog-producer=input \
    --option snapshot.num-retained.min=10
  printf '%s\n' '{"id":1,"dt":"2026-12-01","amount":"1.50","note":"a"}' \
    '{"id":2,"dt":"2026-12-01","amount":"2.50","note":"b"}' \
    '{"id":3,"dt":"2026-12-02","amount":"3.00","note":null}' | run "$P" write "$T"
  printf '%s\n' '{"id":1,"dt":"2026-12-01","amount":"9.99","note":"a2"}' \
    '{"_ROW_KIND":"-D","id":3,"dt":"2026-12-02","amount":"3.00","note":null}' \
    '{"id":4,"dt":"2026-12-02","amount":"4.00","note":"d"}' | run "$P" write "$T"
  printf 'id,dt,amount,note\n5,2026-12-03,5.00,e\n' | run "$P" write "$T" --format csv
  run "$P" cat "$T"
  run "$P" cat "$T" --where "dt = '2026-12-01'" --select id,amount --format table
  run "$P" cat "$T" --snapshot 1 --format csv
  run "$P" tail "$T" --from earliest
  run "$P" tail "$T" --follow --from snapshot:2 --idle-exit 1s --consumer app --format csv
  run "$P" consumer "$T" list
  run "$P" compact "$T" --full
  run "$P" cat "$T" --format table
  for view in summary snapshots schemas files options tags consumers; do
    run "$P" inspect "$T" $view
  done
  for view in snapshots schemas manifests files; do
    run "$P" inspect "$T" $view --format jsonl
  done
  for sys in snapshots schemas options files manifests partitions buckets ro audit_log; do
    run "$P" cat "$T\$$sys"
  done
  # one data file, by the path its table names
  f=$("$P" inspect "$T" files --format jsonl | sed -n '1s/.*"file_name":"\([^"]*\)".*/\1/p')
  run "$P" file meta "$T/dt=2026-12-01/bucket-0/$f"
  run "$P" file cat "$T/dt=2026-12-01/bucket-0/$f" --format table
  run "$P" tag "$T" create t2 --snapshot 2
  run "$P" tag "$T" list
  run "$P" cat "$T" --tag t2
  run "$P" rollback "$T" --to-tag t2
  run "$P" cat "$T"
  run "$P" consumer "$T" delete app
  run "$P" expire "$T" --retain-min 1 --retain-max 1 --dry-run
  run "$P" expire "$T" --retain-min 1 --retain-max 1
  run "$P" inspect "$T" snapshots
  sleep 2 # S3 keeps modification times to the second
  sorted "$P" remove-orphans "$T" --older-than 1s --dry-run
  sorted "$P" remove-orphans "$T" --older-than 1s
  sorted "$P" remove-orphans "$T" --older-than 1s --dry-run
  run "$P" cat "$T" --format csv
  # an append table, unaware buckets
  run "$P" create "$A" --schema 'ts BIGINT, msg STRING' --option bucket=-1
  printf '{"ts":%d,"msg":"m%d"}\n' 1 1 2 2 3 3 | run "$P" write "$A"
  printf '{"ts":%d,"msg":"m%d"}\n' 4 4 | run "$P" write "$A"
  run "$P" compact "$A"
  sorted "$P" cat "$A" --format csv
  sorted "$P" tail "$A" --from earliest
  sorted "$P" cat "$A\$files" --select partition,bucket,record_count,level
  # errors name the table on both
  run "$P" cat "$R/db.db/missing"
  run "$P" cat "$T" --snapshot 99
}

# The transcript with what must differ replaced: the root, random file names (UUIDs),
# clock times, and the sizes of the Avro manifests and manifest lists, which hold those
# random names compressed (data files are compared to the byte).
normalize() {
  sed -e "s#$1#ROOT#g" \
    -e 's/\(ManifestListSize"\{0,1\}\) *: *[0-9]*/\1:SIZE/g' \
    -e '/manifest-/s/\("file_size\(_in_bytes\)\{0,1\}"\):[0-9]*/\1:SIZE/g' \
    -e '/manifest-/s/([0-9]* bytes)/(SIZE bytes)/' \
    -e 's/^\(found [0-9]* orphan files\) ([0-9]* bytes)/\1 (SIZE bytes)/' \
    -e 's/^\(deleted [0-9]* orphan files\) ([0-9]* bytes)/\1 (SIZE bytes)/' \
    -e 's/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/UUID/g' \
    -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][ T][0-9][0-9]:[0-9][0-9]:[0-9][0-9]\(\.[0-9]*\)\{0,1\}/TIME/g' \
    -e 's/1[0-9]\{12\}/MILLIS/g'
}

# Sorts the lines between "@@sort" and "@@end" (markers dropped).
sort_blocks() {
  awk '/^@@sort$/ { fflush(); on = 1; next }
       /^@@end$/ { close("sort"); on = 0; next }
       on { print | "sort"; next }
       { print; fflush() }'
}

mkdir -p "$WORK/local"
session "$WORK/local" >"$WORK/local.out" 2>&1
session "s3://$S3_BUCKET/wh" >"$WORK/s3.out" 2>&1
normalize "$WORK/local" <"$WORK/local.out" | sort_blocks >"$WORK/local.norm"
normalize "s3://$S3_BUCKET/wh" <"$WORK/s3.out" | sort_blocks >"$WORK/s3.norm"

fail=0
if ! diff -u "$WORK/local.norm" "$WORK/s3.norm" >"$WORK/diff"; then
  echo "the S3 session differs from the local one:"
  head -80 "$WORK/diff"
  fail=1
fi
# The session must have done something: every command exits as expected.
n_ok=$(grep -c '^\[exit 0\]$' "$WORK/local.norm")
n_fail=$(grep -c '^\[exit 1\]$' "$WORK/local.norm")
if [ "$n_fail" -ne 2 ] || [ "$n_ok" -lt 50 ]; then
  echo "unexpected exit codes locally: $n_ok successes, $n_fail failures (expected 2)"
  grep -n -B3 '^\[exit [^0]' "$WORK/local.norm" | head -40
  fail=1
fi
grep -q '{"id":5,"dt":"2026-12-03","amount":"5.00","note":"e"}' "$WORK/s3.out" ||
  { echo "the S3 session never read its rows"; fail=1; }

# Expiration and orphan removal delete through S3's batch delete: the data files and
# manifests of three expired snapshots in a few requests, one DELETE per snapshot file only;
# a sweep's orphans one batch per directory.
kind_count() { s3_counts | sed -n "s/.*\"byKind\":{[^}]*\"$1\":\([0-9]*\).*/\1/p"; }
B=s3://$S3_BUCKET/wh/db.db/batch
"$P" create "$B" --schema 'id BIGINT, v STRING' --primary-key id --option bucket=2 >/dev/null
for v in a b c; do
  printf '{"id":%d,"v":"%s"}\n' 1 $v 2 $v 3 $v 4 $v | "$P" write "$B" >/dev/null || fail=1
done
"$P" compact "$B" --full >/dev/null || fail=1
s3_reset >/dev/null
"$P" expire "$B" --retain-min 1 --retain-max 1 >"$WORK/expire.out" || fail=1
batches=$(kind_count BATCH_DELETE)
deletes=$(kind_count DELETE)
files=$(sed -n 's/.* \([0-9]*\) files.*/\1/p' "$WORK/expire.out")
if [ "${batches:-0}" -lt 1 ] || [ "${deletes:-0}" -ne 3 ] || [ "${files:-0}" -lt 6 ]; then
  echo "expire on S3: $(cat "$WORK/expire.out"); BATCH_DELETE=${batches:-0} DELETE=${deletes:-0}"
  echo "  (expected batch deletes of the files and one DELETE per expired snapshot, 3)"
  fail=1
fi
printf '{"id":1,"v":"z"}\n' | "$P" write "$B" >/dev/null || fail=1
"$P" rollback "$B" --to 4 >/dev/null || fail=1
sleep 2
s3_reset >/dev/null
"$P" remove-orphans "$B" --older-than 1s >"$WORK/orphans.out" || fail=1
if [ "$(kind_count BATCH_DELETE)" -lt 1 ] || [ -n "$(kind_count DELETE)" ] ||
  ! grep -q '^deleted [1-9][0-9]* orphan files' "$WORK/orphans.out"; then
  echo "remove-orphans on S3: $(tail -1 "$WORK/orphans.out"); $(s3_counts)"
  echo "  (expected batch deletes, one per directory with orphans, and no single DELETE)"
  fail=1
fi
[ "$("$P" cat "$B" --format csv | wc -l)" = 5 ] || { echo "the batch table lost rows"; fail=1; }

# Credentials given on the command line never show, even when the store refuses them.
"$P" cat "$B" --option s3.access-key=AKIA-WIRE-TEST-KEY --option s3.secret-key=WIRE-TEST-SECRET \
  >/dev/null 2>"$WORK/denied"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "^paimon: s3://$S3_BUCKET/wh/db.db/batch.*: 403 " "$WORK/denied" ||
  grep -q 'AKIA-WIRE-TEST-KEY\|WIRE-TEST-SECRET' "$WORK/denied"; then
  echo "a refused credential: exit $rc, $(cat "$WORK/denied")"
  echo "  (expected exit 1, one line naming the object and the 403, no credential)"
  fail=1
fi

# The S3 table downloaded reads the same in the oracle as the local one.
if [ -n "${ORACLE_DIR:-}" ] && [ -f "$ORACLE_DIR/oracle.mjs" ]; then
  node "$here/download.mjs" "s3://$S3_BUCKET/wh/db.db/orders" "$WORK/down/orders" >/dev/null ||
    { echo "download failed"; fail=1; }
  node "$ORACLE_DIR/oracle.mjs" --strict "$WORK/local/db.db/orders" >"$WORK/oracle.local" 2>&1
  node "$ORACLE_DIR/oracle.mjs" --strict "$WORK/down/orders" >"$WORK/oracle.s3" 2>&1
  if ! cmp -s "$WORK/oracle.local" "$WORK/oracle.s3" || [ ! -s "$WORK/oracle.s3" ]; then
    echo "the oracle reads the downloaded S3 table differently:"
    diff "$WORK/oracle.local" "$WORK/oracle.s3" | head -20
    fail=1
  fi
else
  echo "NOTE: ORACLE_DIR not set; the oracle check did not run"
fi
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$WORK/s3.norm") lines, the same on S3 as locally"
exit $fail
