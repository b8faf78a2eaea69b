#!/bin/sh
# A process-level crash sweep (issue 19, "Keep it held"): `paimon write` and `paimon compact`
# are killed with SIGKILL at random points, some dozens of times, on a primary-key table
# (upserts over two buckets) and on an append table (bucket=2, a bucket key).  Every write
# carries --commit-user/--commit-identifier (batch i is identifier i).  After each kill:
#   - the table reads exactly the rows of its committed snapshots: `paimon cat` equals the
#     batches whose snapshot exists (identifier i of user "crash"), applied in order;
#   - the oracle (../shared/tools/oracle) reads the same rows (after each kill);
#   - a following write works: the killed batch is written again with the same identifier,
#     exits 0, and is then in the table exactly once whether or not the killed write landed;
#   - after a killed compaction the rows are unchanged and a following compaction works.
# The kill points are drawn from a seed, printed first: CRASH_SEED=N reruns the same draws
# (the kills themselves race the process, so a rerun hits nearby points, not the same ones).
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp" LC_ALL=C
SEED=${CRASH_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "crash sweep: seed $SEED (rerun with CRASH_SEED=$SEED)"
WRITE_KILLS=${CRASH_WRITE_KILLS:-11} COMPACT_KILLS=${CRASH_COMPACT_KILLS:-8} ROWS=300
fail=0 kills=0 landed=0 draw=0

# rand N: a number in [0, N) from the seed and a counter (reproducible draws)
rand() {
  draw=$((draw + 1))
  awk -v s="$SEED" -v d="$draw" -v n="$1" 'BEGIN { srand(s + d * 7919); print int(rand() * n) }'
}

now_ms() { date +%s%3N; }

# batch i of table t: ROWS rows; on the primary-key table a third update earlier ids
batch() {
  awk -v i="$2" -v n=$ROWS -v pk="$1" -v s="$SEED" 'BEGIN { srand(s + i);
    for (r = 0; r < n; r++) {
      id = (pk == "pk" && i > 0 && r % 3 == 0) ? int(rand() * i * n) : i * n + r;
      printf "{\"id\":%d,\"b\":%d,\"v\":\"v%d-%d\"}\n", id, i, i, r } }'
}

# the rows batches 0..last hold (a primary key keeps each id's last row), sorted
expected() { # table last
  k=0
  while [ $k -le "$2" ]; do cat "$tmp/$1.in.$k"; k=$((k + 1)); done > "$tmp/$1.all"
  if [ "$1" = pk ]; then
    awk -F'[:,]' '{ row[$2] = $0 } END { for (k in row) print row[k] }' "$tmp/$1.all" | sort
  else
    sort "$tmp/$1.all"
  fi
}

committed() { # table identifier: is a snapshot of user crash with this identifier there?
  "$P" inspect "$tmp/$1" snapshots --format jsonl |
    grep -q "\"commitUser\":\"crash\",\"commitIdentifier\":$2,"
}

check() { # table what [oracle]: the table reads exactly `expected` (and so does the oracle)
  if ! "$P" cat "$tmp/$1" --format jsonl > "$tmp/$1.cat" 2> "$tmp/$1.caterr"; then
    echo "FAIL $1 after $2: cat: $(head -1 "$tmp/$1.caterr")"; fail=1; return
  fi
  # the rows are generated in the canonical form `cat` prints: compare them as sorted text
  sort "$tmp/$1.cat" | cmp -s - "$tmp/$1.want" ||
    { echo "FAIL $1 after $2: rows differ from the committed batches:"
      sort "$tmp/$1.cat" | diff - "$tmp/$1.want" | head -4; fail=1; }
  [ "${3:-}" = oracle ] || return 0
  # the rows only: a kill between a snapshot and its LATEST hint leaves the hint one behind,
  # which Java reads past (HintFileUtils.findLatest) and the metadata checks report; the
  # shapes of what paimon-c writes are checked by the other interop tests
  node "$ORACLE_DIR/oracle.mjs" "$tmp/$1" > "$tmp/$1.oracle" 2> "$tmp/$1.report" ||
    { echo "FAIL $1 after $2: oracle: $(head -2 "$tmp/$1.report")"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$tmp/$1.oracle" "$tmp/$1.cat" > "$tmp/$1.cmp" ||
    { echo "FAIL $1 after $2: the oracle disagrees"; tail -4 "$tmp/$1.cmp"; fail=1; }
}

# runs a command in the background and SIGKILLs it after $1 ms; sets `killed`
run_killed() {
  delay=$1; shift
  "$@" > "$tmp/out" 2> "$tmp/err" &
  pid=$!
  sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
  kill -9 $pid 2> /dev/null
  wait $pid
  st=$?
  killed=0
  if [ $st = 137 ]; then killed=1; kills=$((kills + 1)); fi
  if [ $st != 137 ] && [ $st != 0 ]; then
    echo "FAIL: $* exited $st before its kill: $(head -1 "$tmp/err")"; fail=1
  fi
}

"$P" create "$tmp/pk" --schema 'id BIGINT, b INT, v STRING' --primary-key id \
  --option bucket=2 --option num-sorted-run.compaction-trigger=3 > /dev/null || exit 1
"$P" create "$tmp/append" --schema 'id BIGINT, b INT, v STRING' --option bucket=2 \
  --option bucket-key=id --option compaction.min.file-num=3 > /dev/null || exit 1

for t in pk append; do
  # how long an unkilled write takes: kills land in [0.2, 1.2] of it
  batch $t 0 > "$tmp/$t.in.0"
  start=$(now_ms)
  "$P" write "$tmp/$t" --input "$tmp/$t.in.0" --commit-user crash --commit-identifier 0 > /dev/null ||
    { echo "FAIL $t: first write"; exit 1; }
  span=$(($(now_ms) - start))
  expected $t 0 > "$tmp/$t.want"
  check $t "the first write" oracle
  i=1
  while [ $i -le "$WRITE_KILLS" ]; do
    batch $t $i > "$tmp/$t.in.$i"
    run_killed $((span / 5 + $(rand "$span"))) "$P" write "$tmp/$t" --input "$tmp/$t.in.$i" \
      --commit-user crash --commit-identifier $i 2> /dev/null
    if committed $t $i; then landed=$((landed + 1)); expected $t $i; else expected $t $((i - 1)); fi \
      > "$tmp/$t.want"
    check $t "write $i killed" oracle
    # the retry: exactly once, whether or not the killed write landed
    "$P" write "$tmp/$t" --input "$tmp/$t.in.$i" --commit-user crash --commit-identifier $i \
      > "$tmp/out" 2> "$tmp/err" || { echo "FAIL $t: retry of write $i: $(head -1 "$tmp/err")"; fail=1; }
    expected $t $i > "$tmp/$t.want"
    check $t "the retry of write $i"
    i=$((i + 1))
  done
  check $t "the last retry" oracle
  [ $t = pk ] || continue
  # compactions (primary-key tables): killed ones change nothing; a following one works.
  # The writes between them leave their files to the compaction job.
  "$P" alter "$tmp/$t" set-option write-only=true > /dev/null || { echo "FAIL $t: alter"; exit 1; }
  start=$(now_ms)
  "$P" compact "$tmp/$t" --full > /dev/null || { echo "FAIL $t: compact"; fail=1; }
  span=$(($(now_ms) - start))
  c=1
  while [ $c -le "$COMPACT_KILLS" ]; do
    # new level-0 files to compact: one more batch (not killed)
    batch $t $i > "$tmp/$t.in.$i"
    "$P" write "$tmp/$t" --input "$tmp/$t.in.$i" --commit-user crash --commit-identifier $i \
      > /dev/null 2> "$tmp/err" ||
      { echo "FAIL $t: write $i: $(head -1 "$tmp/err")"; fail=1; }
    expected $t $i > "$tmp/$t.want"
    full=""; [ $((c % 2)) = 0 ] && full=--full
    run_killed $((span / 5 + $(rand "$span"))) "$P" compact "$tmp/$t" $full 2> /dev/null
    check $t "compaction $c killed" oracle
    "$P" compact "$tmp/$t" $full > /dev/null 2> "$tmp/err" ||
      { echo "FAIL $t: compaction after kill $c: $(head -1 "$tmp/err")"; fail=1; }
    check $t "the compaction after kill $c"
    i=$((i + 1)); c=$((c + 1))
  done
  check $t "the last compaction" oracle
done
echo "crash sweep: $kills SIGKILLs ($landed killed writes had committed), every table as committed"
[ "$fail" = 0 ] && echo "crash sweep: passed (seed $SEED)"
exit $fail
