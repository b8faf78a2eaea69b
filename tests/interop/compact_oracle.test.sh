#!/bin/sh
# Tables compacted by paimon-c, read by the oracle with --strict (Java 1.4.2 shapes, sizes,
# statistics) at every snapshot: a primary-key table whose writers compact (universal
# compaction after flushes, upgrades and rewrites, deletes dropped at the max level), then a
# dedicated full compaction; partial-update and aggregation tables; a fixed-bucket append
# table compacted by its writer and by --full; an unaware-bucket append table compacted by
# the job; lookup-compacted tables (deletion vectors, 32- and 64-bit; deletion vectors with
# partial-update; the lookup changelog producer; first-row), whose writers take level 0 up
# at every commit.  The oracle's rows equal `paimon cat`, its --files equal `inspect files`.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
rows() { # N: upserts of keys 0..N-1 (every 5th a delete when $2 is set)
  awk -v n="$1" -v s="$3" -v del="$2" 'BEGIN { for (i = 0; i < n; i++) {
    k = (i * 7 + s) % 40
    if (del != "" && i % 5 == 4) printf "{\"k\":%d,\"_ROW_KIND\":\"-D\"}\n", k
    else printf "{\"k\":%d,\"a\":%d,\"b\":\"s%d\"}\n", k, i + s, (i + s) % 13 } }'
}
$P create "$tmp/dedup" --schema 'k INT NOT NULL, a BIGINT, b STRING' --primary-key k \
  --option bucket=2 --option num-sorted-run.compaction-trigger=3 > /dev/null || fail=1
$P create "$tmp/partial" --schema 'k INT NOT NULL, a BIGINT, b STRING' --primary-key k \
  --option bucket=1 --option merge-engine=partial-update --option num-sorted-run.compaction-trigger=2 > /dev/null || fail=1
$P create "$tmp/agg" --schema 'k INT NOT NULL, a BIGINT, b STRING' --primary-key k \
  --option bucket=1 --option merge-engine=aggregation --option fields.a.aggregate-function=sum \
  --option full-compaction.delta-commits=3 > /dev/null || fail=1
for c in 1 2 3 4 5 6 7; do
  rows 60 x $c | $P write "$tmp/dedup" > /dev/null || fail=1
  rows 30 "" $c | $P write "$tmp/partial" > /dev/null || fail=1
  rows 30 "" $c | $P write "$tmp/agg" > /dev/null || fail=1
done
for t in dv dv64 dvpartial lookup firstrow; do
  case $t in
    dv) o="--option deletion-vectors.enabled=true --option bucket=2" ;;
    dv64) o="--option deletion-vectors.enabled=true --option deletion-vectors.bitmap64=true --option bucket=1 --option target-file-size=2kb" ;;
    dvpartial) o="--option deletion-vectors.enabled=true --option merge-engine=partial-update --option bucket=1" ;;
    lookup) o="--option changelog-producer=lookup --option bucket=2 --option num-sorted-run.compaction-trigger=3" ;;
    firstrow) o="--option merge-engine=first-row --option changelog-producer=lookup --option bucket=1" ;;
  esac
  $P create "$tmp/$t" --schema 'k INT NOT NULL, a BIGINT, b STRING' --primary-key k $o > /dev/null || fail=1
  for c in 1 2 3 4 5 6 7; do
    case $t in dvpartial|firstrow) del="" ;; *) del=x ;; esac
    rows 45 "$del" $c | $P write "$tmp/$t" > /dev/null || { echo "FAIL: write $t"; fail=1; }
  done
done
$P compact "$tmp/dedup" --full > /dev/null || fail=1
$P compact "$tmp/dv" --full > /dev/null || fail=1
$P create "$tmp/app" --schema 'id INT, v STRING' --option bucket=2 --option bucket-key=id > /dev/null || fail=1
$P create "$tmp/unaware" --schema 'id INT, v STRING' > /dev/null || fail=1
for c in 1 2 3 4 5 6 7 8; do
  awk -v c=$c 'BEGIN { for (i = 0; i < 20; i++) printf "{\"id\":%d,\"v\":\"c%d\"}\n", i, c }' > "$tmp/in"
  $P write "$tmp/app" --input "$tmp/in" > /dev/null || fail=1
  $P write "$tmp/unaware" --input "$tmp/in" > /dev/null || fail=1
done
$P compact "$tmp/app" --full > /dev/null || fail=1
$P compact "$tmp/unaware" > /dev/null || fail=1
for t in dedup partial agg app unaware dv dv64 dvpartial lookup firstrow; do
  kinds=$($P inspect "$tmp/$t" snapshots --format jsonl | grep -c '"commitKind":"COMPACT"')
  [ "$kinds" -ge 1 ] || { echo "FAIL: $t: no COMPACT snapshot"; fail=1; }
  last=$($P inspect "$tmp/$t" snapshots --format jsonl | tail -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
  for s in $(seq 1 "$last"); do
    node "$ORACLE_DIR/oracle.mjs" "$tmp/$t" --snapshot "$s" --strict > "$tmp/orows" 2> "$tmp/report" ||
      { echo "FAIL: $t snapshot $s:"; grep PROBLEM "$tmp/report" | head; fail=1; }
    $P cat "$tmp/$t" --snapshot "$s" --format jsonl > "$tmp/ours" || fail=1
    node "$ORACLE_DIR/compare.mjs" "$tmp/orows" "$tmp/ours" > /dev/null ||
      { echo "FAIL: $t snapshot $s: rows differ"; fail=1; }
  done
  $P inspect "$tmp/$t" files --format jsonl > "$tmp/ofiles-ours" || fail=1
  node "$ORACLE_DIR/oracle.mjs" "$tmp/$t" --files > "$tmp/ofiles" || fail=1
  node "$ORACLE_DIR/compare.mjs" "$tmp/ofiles" "$tmp/ofiles-ours" > /dev/null ||
    { echo "FAIL: $t: files differ"; fail=1; }
  echo "$t: $last snapshots ($kinds COMPACT) read the same in the oracle, --strict clean"
done
exit $fail
