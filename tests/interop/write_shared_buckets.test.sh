#!/bin/sh
# Writers sharing buckets (issue 19, item 1; DESIGN.md invariant 9): four `paimon write`
# processes at once, each writing 12 batches of 20 rows with distinct ids, into an append
# table with bucket=2 and a bucket key, and into a primary-key table whose writers all write
# one partition (bucket=2).  The writers' own compactions race each other's; a compaction that
# loses after its data landed must not make the write fail.  Checked:
#   - every batch is in the table if and only if its write exited 0, and never twice;
#   - every batch written with --commit-user/--commit-identifier is then written again, all
#     four writers at once: the retries exit 0, the batches that had landed are not written
#     again ("already committed"), those that had failed land now: each batch exactly once;
#   - the oracle (--strict) reads the same rows as `paimon cat`.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"
WRITERS=4 BATCHES=12 ROWS=20
fail=0
COLS='id BIGINT, w INT, b INT, d INT, v STRING'
"$P" create "$tmp/append" --schema "$COLS" --option bucket=2 --option bucket-key=id > /dev/null || exit 1
"$P" create "$tmp/pk" --schema "$COLS" --primary-key d,id --partition-by d --option bucket=2 \
  > /dev/null || exit 1

batch() { # writer batch: the rows of one batch (ids distinct over all batches)
  awk -v w="$1" -v b="$2" -v n=$ROWS 'BEGIN { for (i = 0; i < n; i++)
    printf "{\"id\":%d,\"w\":%d,\"b\":%d,\"d\":1,\"v\":\"r%d\"}\n", w * 100000 + b * 100 + i, w, b, i }'
}

# phase: writes every batch of every writer, four writers at once; status lines "w b exit"
phase() { # table phase-name
  for w in $(seq 0 $((WRITERS - 1))); do
    (for b in $(seq 0 $((BATCHES - 1))); do
       batch "$w" "$b" > "$tmp/in.$w.$b"
       "$P" write "$tmp/$1" --input "$tmp/in.$w.$b" --commit-user "writer-$w" --commit-identifier "$b" \
         > "$tmp/$1.$2.out.$w.$b" 2> "$tmp/$1.$2.err.$w.$b"
       echo "$w $b $?" >> "$tmp/$1.$2.status.$w"
     done) &
  done
  wait
  cat "$tmp/$1.$2.status".* > "$tmp/$1.$2.status"
}

# counts: "w b rows" for every batch, and the number of ids seen more than once
counts() { # table
  "$P" cat "$tmp/$1" --format csv --select w,b,id > "$tmp/$1.csv" || { echo "FAIL $1: cat"; fail=1; }
  awk -F, 'NR > 1 { n[$1 " " $2]++; seen[$3]++ }
    END { for (k in n) print k, n[k] > "/dev/stderr"; d = 0; for (i in seen) if (seen[i] > 1) d++; print d }' \
    "$tmp/$1.csv" 2> "$tmp/$1.batches"
}

for t in append pk; do
  phase $t first
  dups=$(counts $t)
  [ "$dups" = 0 ] || { echo "FAIL $t: $dups ids are in the table more than once"; fail=1; }
  ok=0 failed=0 lied=0 lost=0
  while read -r w b rc; do
    n=$(awk -v k="$w $b" '$1 " " $2 == k { print $3 }' "$tmp/$t.batches")
    n=${n:-0}
    if [ "$rc" = 0 ]; then
      ok=$((ok + 1))
      [ "$n" = $ROWS ] || { echo "FAIL $t: batch $w/$b exited 0 but $n of $ROWS rows are in the table"; lost=$((lost + 1)); }
    else
      failed=$((failed + 1))
      [ "$n" = 0 ] || { echo "FAIL $t: batch $w/$b exited $rc but $n rows are in the table:"; head -2 "$tmp/$t.first.err.$w.$b"; lied=$((lied + 1)); }
    fi
  done < "$tmp/$t.first.status"
  [ $lied = 0 ] && [ $lost = 0 ] || fail=1
  warned=$(cat "$tmp/$t.first.err".* | grep -c "only the writers' compaction was not")
  echo "$t: $ok writes exited 0, $failed failed (none of their rows committed); $warned lost only their compaction"

  # the retries: every batch again, at once; each must exit 0 and nothing may be doubled
  # (more commit retries than the default 10, so that contention alone cannot fail them)
  "$P" alter "$tmp/$t" set-option commit.max-retries=100 > /dev/null || exit 1
  phase $t retry
  bad=$(awk '$3 != 0' "$tmp/$t.retry.status" | wc -l)
  [ "$bad" = 0 ] || { echo "FAIL $t: $bad retries exited non-zero:"; cat "$tmp/$t.retry.err".* | sort -u | head -3; fail=1; }
  skipped=$(cat "$tmp/$t.retry.out".* | grep -c '^already committed')
  [ "$skipped" = "$ok" ] ||
    { echo "FAIL $t: $skipped retries found their commit, $ok writes had landed"; fail=1; }
  dups=$(counts $t)
  full=$(awk -v n=$ROWS '$3 == n' "$tmp/$t.batches" | wc -l)
  [ "$dups" = 0 ] && [ "$full" = $((WRITERS * BATCHES)) ] &&
    [ "$(wc -l < "$tmp/$t.batches")" = $((WRITERS * BATCHES)) ] ||
    { echo "FAIL $t after retries: $full complete batches of $((WRITERS * BATCHES)), $dups ids twice"; fail=1; }

  node "$ORACLE_DIR/oracle.mjs" "$tmp/$t" --strict > "$tmp/$t.oracle" 2> "$tmp/$t.report" ||
    { echo "FAIL $t: oracle --strict"; grep PROBLEM "$tmp/$t.report" | head; fail=1; }
  "$P" cat "$tmp/$t" --format jsonl > "$tmp/$t.cat" &&
    node "$ORACLE_DIR/compare.mjs" "$tmp/$t.cat" "$tmp/$t.oracle" > "$tmp/$t.cmp" ||
    { echo "FAIL $t: paimon cat and the oracle differ"; tail -5 "$tmp/$t.cmp"; fail=1; }
  echo "$t: after the retries $full batches of $ROWS rows, each once; $skipped retries committed nothing again"
done
[ "$fail" = 0 ] && echo "shared buckets: exit status and table agree for every write and retry"
exit $fail
