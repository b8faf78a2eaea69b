#!/bin/sh
# Tables written on S3 by paimon-c, downloaded by an independent client (download.mjs, the
# AWS SDK's signer), read the same in the oracle with --strict as through `paimon cat
# s3://...`, and both equal the model of what was written:
#   append          partitioned append table, 5 commits;
#   pk_fixed        primary key, bucket=2, 5 commits with updates and deletes;
#   pk_dynamic      primary key, dynamic bucket (bucket=-1), 5 commits with updates;
#   pk_compacted    primary key, bucket=1, 5 commits, then `compact --full` on S3;
#   streamed        append, one commit of 20,000 rows into one Parquet file of several row
#                   groups (parquet.block.size 64 KiB) in parts of 16 KiB: its column chunks
#                   went up as segments while they were encoded (io/s3/s3_output.c).
# A URI whose scheme paimon-c does not support is refused, and nothing local appears.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
s3_session || exit 1
fail=0
P=$PAIMON_CLI
COLS='id BIGINT NOT NULL, p INT NOT NULL, v STRING, d DOUBLE'
W="s3://$S3_BUCKET/db"

# gen TABLE KIND: writes 5 commits of 300 generated rows to TABLE and the model's final rows
# to $tmp/KIND.expected. Append: unique ids over 3 partitions. Primary key: 200 ids, each
# updated across commits and (pk_fixed) some deleted from the third commit on.
gen() {
  t=$1; kind=$2
  for c in 1 2 3 4 5; do
    awk -v c="$c" -v kind="$kind" 'BEGIN {
      srand(c * 7 + length(kind));
      for (i = 0; i < 300; i++) {
        if (kind == "append") id = c * 1000 + i; else id = int(rand() * 200);
        p = (kind == "append") ? i % 3 : 0;
        if (kind == "pk_fixed" && c >= 3 && rand() < 0.1) { printf "{\"id\":%d,\"p\":%d,\"_ROW_KIND\":\"-D\"}\n", id, p; continue }
        v = (rand() < 0.05) ? "null" : sprintf("\"c%d-%d\"", c, i);
        printf "{\"id\":%d,\"p\":%d,\"v\":%s,\"d\":%.3f}\n", id, p, v, rand() * 1000;
      } }' > "$tmp/$kind.c$c"
    "$P" write "$t" < "$tmp/$kind.c$c" > /dev/null 2> "$tmp/err" ||
      { echo "FAIL $kind: write $c: $(cat "$tmp/err")"; fail=1; return; }
  done
  # The model: every row (append), or the last row of each id unless it was deleted last.
  cat "$tmp/$kind".c? | awk -v kind="$kind" '
    kind == "append" { print; next }
    { match($0, /"id":[0-9]+/); id = substr($0, RSTART + 5, RLENGTH - 5);
      if (index($0, "\"-D\"")) delete row[id]; else row[id] = $0 }
    END { if (kind != "append") for (k in row) print row[k] }' > "$tmp/$kind.expected"
}

"$P" create "$W/append" --schema "$COLS" --partition-by p > /dev/null || fail=1
"$P" create "$W/pk_fixed" --schema "$COLS" --primary-key id,p --option bucket=2 > /dev/null || fail=1
"$P" create "$W/pk_dynamic" --schema "$COLS" --primary-key id,p > /dev/null || fail=1
"$P" create "$W/pk_compacted" --schema "$COLS" --primary-key id,p --option bucket=1 \
  --option num-sorted-run.compaction-trigger=10 > /dev/null || fail=1
for kind in append pk_fixed pk_dynamic pk_compacted; do gen "$W/$kind" "$kind"; done
"$P" create "$W/streamed" --schema "$COLS" --option parquet.block.size=65536 > /dev/null || fail=1
awk 'BEGIN { srand(11); for (i = 0; i < 20000; i++)
  printf "{\"id\":%d,\"p\":%d,\"v\":\"v%d-%d\",\"d\":%.3f}\n", i, i % 7, i, int(rand() * 1e6), rand() * 1000 }' \
  > "$tmp/streamed.expected"
s3_reset > /dev/null
s3_admin /config min_part=16384 > /dev/null # every part but the last >= 16 KiB, as AWS's 5 MiB
"$P" write "$W/streamed" --option s3.multipart.min-size-check=false --option s3.multipart.size=16kb \
  < "$tmp/streamed.expected" > /dev/null 2> "$tmp/err" || { echo "FAIL streamed: write: $(cat "$tmp/err")"; fail=1; }
s3_clear > /dev/null
parts=$(s3_count UPLOAD_PART)
[ "$parts" -ge 10 ] || { echo "FAIL streamed: $parts part uploads, the file was not sent in parts"; fail=1; }
"$P" compact "$W/pk_compacted" --full > "$tmp/compact.out" 2>&1 ||
  { echo "FAIL pk_compacted: compact: $(cat "$tmp/compact.out")"; fail=1; }
grep -q 'COMPACT' "$tmp/compact.out" || { echo "FAIL pk_compacted: no COMPACT snapshot: $(cat "$tmp/compact.out")"; fail=1; }

for kind in append pk_fixed pk_dynamic pk_compacted streamed; do
  s3_oracle_same "$W/$kind" "$tmp/$kind" || fail=1
  for other in oracle cat; do
    node "$ORACLE_DIR/compare.mjs" "$tmp/$kind.expected" "$tmp/$kind.$other" > "$tmp/cmp" 2>&1 ||
      { echo "FAIL $kind: $other differs from the model"; head -5 "$tmp/cmp"; fail=1; }
  done
  snaps=$(ls "$tmp/$kind/snapshot" | grep -c '^snapshot-')
  echo "$kind: $snaps snapshots, $(wc -l < "$tmp/$kind.oracle") rows (model $(wc -l < "$tmp/$kind.expected"))"
done
# the compacted table has its rows at the top level only
node "$ORACLE_DIR/oracle.mjs" "$tmp/pk_compacted" --files > "$tmp/files" 2>/dev/null
[ -s "$tmp/files" ] && ! grep -q '"level":0' "$tmp/files" ||
  { echo "FAIL pk_compacted: level-0 files remain after compact --full (or no files)"; fail=1; }

# Unsupported schemes: refused with one line, exit 1, nothing created locally.
mkdir "$tmp/cwd"
for uri in "gs://$S3_BUCKET/t" "oss://$S3_BUCKET/t" "hdfs://nn/t" "s4://b/t"; do
  (cd "$tmp/cwd" && "$P" create "$uri" --schema 'id INT' > "$tmp/out" 2> "$tmp/err"); rc=$?
  [ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "$uri" "$tmp/err" ||
    { echo "FAIL create $uri: exit $rc: $(cat "$tmp/err")"; fail=1; }
done
[ -z "$(ls -A "$tmp/cwd")" ] || { echo "FAIL: unsupported schemes left $(ls -A "$tmp/cwd")"; fail=1; }
[ "$fail" = 0 ] && echo "tables written on S3 read the same in the oracle (--strict) and paimon"
exit $fail
