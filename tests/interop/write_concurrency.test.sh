#!/bin/sh
# Four processes write real rows (tests/interop/write_gen.c) and commit 50 times each, at the
# same time, to one append table and to one primary-key table (each process its own
# partition, as Java requires for primary-key buckets): all 400 commits land, and the final
# snapshot holds every row exactly once (the processes' models together), read the same by
# the oracle with --strict and by `paimon cat`.  The primary-key writers' own compactions add
# COMPACT snapshots, conflict-checked against the other writers' commits.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}" "${PAIMON_BUILD_DIR:?}"
GEN="$PAIMON_BUILD_DIR/tests/interop/interop_write_gen"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
COLS='id BIGINT, p INT, v STRING, n INT, d DOUBLE'
"$PAIMON_CLI" create "$tmp/append" --schema "$COLS" --option commit.max-retries=100 > /dev/null || exit 1
"$PAIMON_CLI" create "$tmp/pk" --schema "$COLS" --primary-key id,p --partition-by p \
  --option commit.max-retries=100 > /dev/null || exit 1
for t in append pk; do
  for w in 0 1 2 3; do
    if [ $t = append ]; then args="--id-base $((w * 100000))"; else args="--part-value $w --keys 300 --deletes"; fi
    # shellcheck disable=SC2086
    "$GEN" "$tmp/$t" --seed $((w + 7)) --rows 1000 --batch 20 --commit-every 20 --user "writer-$w" \
      $args > "$tmp/$t.expected.$w" 2> "$tmp/$t.err.$w" &
  done
done
wait
for t in append pk; do
  for w in 0 1 2 3; do
    [ -s "$tmp/$t.err.$w" ] && { echo "FAIL $t writer $w:"; head -5 "$tmp/$t.err.$w"; fail=1; }
  done
  cat "$tmp/$t.expected".? > "$tmp/$t.expected"
  latest=$(cat "$tmp/$t/snapshot/LATEST")
  snaps=$(ls "$tmp/$t/snapshot" | grep -c '^snapshot-')
  # the writers' own compactions (primary-key buckets) add COMPACT snapshots
  writes=$(cat "$tmp/$t"/snapshot/snapshot-* | grep -c '"commitKind" *: *"\(APPEND\|OVERWRITE\)"')
  [ "$writes" = 200 ] && [ "$latest" = "$snaps" ] ||
    { echo "FAIL $t: $snaps snapshots ($writes of writes), LATEST $latest (expected 200 writes)"; fail=1; }
  node "$ORACLE_DIR/oracle.mjs" "$tmp/$t" --strict > "$tmp/$t.oracle" 2> "$tmp/$t.report" ||
    { echo "FAIL $t: oracle --strict"; grep PROBLEM "$tmp/$t.report" | head; fail=1; }
  node "$ORACLE_DIR/compare.mjs" "$tmp/$t.expected" "$tmp/$t.oracle" > "$tmp/$t.cmp" ||
    { echo "FAIL $t: rows"; head -5 "$tmp/$t.cmp"; fail=1; }
  "$PAIMON_CLI" cat "$tmp/$t" --format jsonl > "$tmp/$t.cat" &&
    node "$ORACLE_DIR/compare.mjs" "$tmp/$t.cat" "$tmp/$t.oracle" > "$tmp/$t.cmp" ||
    { echo "FAIL $t: paimon cat"; head -5 "$tmp/$t.cmp"; fail=1; }
  echo "$t: $snaps snapshots, $(wc -l < "$tmp/$t.oracle") rows"
done
[ "$fail" = 0 ] && echo "concurrent writes: 400 commits landed, every row exactly once"
exit $fail
