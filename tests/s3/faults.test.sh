#!/bin/sh
# Failures at every request of a write-and-commit and of a compaction on S3. For N = 1, 2,
# ... the proxy fails the Nth request of the command and every one after it (500, so the
# client's retries fail too: the command is cut off at request N), until the command needs
# fewer than N requests. After each cut-off command the table reads exactly at the old or at
# the new snapshot (never anything else, and a command that exited 0 is at the new one), and
# a rerun succeeds: the write's rerun (same --commit-user and --commit-identifier) leaves its
# rows exactly once, the compaction's rerun leaves one sorted run per bucket.
# Then the same sweep with a single lost answer (land-drop: the request lands, its answer is
# lost) at request N of a write, which the client must absorb: the write succeeds and its
# rows are there once.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
s3_session || exit 1
fail=0
P=$PAIMON_CLI
# Few, quick retries: a cut-off command gives up fast.
FAST="--option s3.attempts.maximum=2 --option s3.retry.interval=1ms --option s3.retry.max-interval=2ms"

rows() { "$P" cat "$1" --format jsonl 2> "$tmp/cat.err" | sort; }
fired() { s3_admin /faults | sed -n 's/^\[{[^}]*"fired":\([0-9]*\).*/\1/p'; }
batch() { awk -v n="$1" 'BEGIN { for (r = 0; r < 5; r++) printf "{\"id\":%d,\"v\":\"b%d\"}\n", n * 100 + r, n }'; }

# --- writes -------------------------------------------------------------------------------
T="s3://$S3_BUCKET/faults/append"
"$P" create "$T" --schema 'id BIGINT NOT NULL, v STRING' > /dev/null || exit 1
batch 0 | "$P" write "$T" > /dev/null || exit 1
n=1; writes=0; wfailed=0
rows "$T" > "$tmp/after"
while :; do
  mv "$tmp/after" "$tmp/old"   # the rows after the last rerun
  batch "$n" > "$tmp/batch"
  sort "$tmp/old" "$tmp/batch" > "$tmp/new"
  s3_fault fault=500 nth="$n" times=1000000 > /dev/null
  # shellcheck disable=SC2086
  "$P" write "$T" --commit-user faulty --commit-identifier "$n" $FAST < "$tmp/batch" > /dev/null 2> "$tmp/err"; rc=$?
  hit=$(fired)
  s3_clear > /dev/null
  [ "$rc" = 0 ] || wfailed=$((wfailed + 1))
  rows "$T" > "$tmp/mid" || { echo "FAIL write, request $n cut: the table does not read: $(cat "$tmp/cat.err")"; fail=1; }
  if cmp -s "$tmp/mid" "$tmp/new"; then :
  elif [ "$rc" != 0 ] && cmp -s "$tmp/mid" "$tmp/old"; then :
  else
    echo "FAIL write, request $n cut (exit $rc): the table is at neither the old nor the new rows"
    diff "$tmp/old" "$tmp/mid" | head -5; fail=1
  fi
  [ "$rc" = 0 ] || [ "$hit" = 0 ] || grep -q . "$tmp/err" || { echo "FAIL write, request $n cut: exit $rc with no message"; fail=1; }
  "$P" write "$T" --commit-user faulty --commit-identifier "$n" < "$tmp/batch" > /dev/null 2> "$tmp/err" ||
    { echo "FAIL write, request $n cut: the rerun failed: $(cat "$tmp/err")"; fail=1; }
  rows "$T" > "$tmp/after"
  cmp -s "$tmp/after" "$tmp/new" || { echo "FAIL write, request $n cut: after the rerun:"; diff "$tmp/new" "$tmp/after" | head -5; fail=1; }
  [ "$hit" = 0 ] && break      # the write needed fewer than n requests: every one was cut once
  writes=$((writes + 1)); n=$((n + 1))
  [ "$n" -le 400 ] || { echo "FAIL: a write takes more than 400 requests"; fail=1; break; }
done
echo "write-and-commit: cut at each of its $writes requests ($wfailed cut-off writes failed, the others had committed)"

# --- a single lost answer at request N of a write: absorbed ------------------------------
n=1; lost=0
rows "$T" > "$tmp/after"
while :; do
  mv "$tmp/after" "$tmp/old"
  batch $((1000 + n)) > "$tmp/batch"
  sort "$tmp/old" "$tmp/batch" > "$tmp/new"
  s3_fault fault=land-drop nth="$n" > /dev/null
  "$P" write "$T" < "$tmp/batch" > /dev/null 2> "$tmp/err"; rc=$?
  hit=$(fired)
  s3_clear > /dev/null
  [ "$rc" = 0 ] || { echo "FAIL write, answer $n lost: exit $rc: $(cat "$tmp/err")"; fail=1; }
  rows "$T" > "$tmp/after"
  cmp -s "$tmp/after" "$tmp/new" || { echo "FAIL write, answer $n lost:"; diff "$tmp/new" "$tmp/after" | head -5; fail=1; }
  [ "$hit" = 0 ] && break
  lost=$((lost + 1)); n=$((n + 1))
  [ "$n" -le 400 ] || break
done
echo "write-and-commit: lost the answer of each of its $lost requests"

# --- compactions ---------------------------------------------------------------------------
K="s3://$S3_BUCKET/faults/pk"
"$P" create "$K" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id --option bucket=1 \
  --option write-only=true > /dev/null || exit 1
n=1; compactions=0; cfailed=0
snaps=$("$P" inspect "$K" snapshots --format jsonl | wc -l)
while :; do
  # one more level-0 file (it updates 4 keys of the last one) to compact with the rest
  batch "$n" | sed 's/"b/"u/' | "$P" write "$K" > /dev/null || { echo "FAIL compaction $n: the write before it failed"; fail=1; break; }
  before=$((snaps + 1))
  rows "$K" > "$tmp/old"
  s3_fault fault=500 nth="$n" times=1000000 > /dev/null
  # shellcheck disable=SC2086
  "$P" compact "$K" --full $FAST > /dev/null 2> "$tmp/err"; rc=$?
  hit=$(fired)
  s3_clear > /dev/null
  [ "$rc" = 0 ] || cfailed=$((cfailed + 1))
  rows "$K" > "$tmp/mid"
  after=$("$P" inspect "$K" snapshots --format jsonl | wc -l)
  cmp -s "$tmp/mid" "$tmp/old" || { echo "FAIL compaction, request $n cut: rows changed"; diff "$tmp/old" "$tmp/mid" | head -5; fail=1; }
  { [ "$after" = "$before" ] && [ "$rc" != 0 ]; } || [ "$after" = $((before + 1)) ] ||
    { echo "FAIL compaction, request $n cut (exit $rc): $before snapshots before, $after after"; fail=1; }
  "$P" compact "$K" --full > /dev/null 2> "$tmp/err" || { echo "FAIL compaction, request $n cut: the rerun failed: $(cat "$tmp/err")"; fail=1; }
  snaps=$after; [ "$after" = "$before" ] && snaps=$((after + 1))   # the rerun's COMPACT
  "$P" inspect "$K" files --format jsonl > "$tmp/files"
  [ "$(grep -c . "$tmp/files")" = 1 ] && ! grep -q '"level":0' "$tmp/files" ||
    { echo "FAIL compaction, request $n cut: after the rerun the files are:"; head -5 "$tmp/files"; fail=1; }
  rows "$K" > "$tmp/after"
  cmp -s "$tmp/after" "$tmp/old" || { echo "FAIL compaction, request $n cut: rows changed by the rerun"; fail=1; }
  [ "$hit" = 0 ] && break
  compactions=$((compactions + 1)); n=$((n + 1))
  [ "$n" -le 400 ] || { echo "FAIL: a compaction takes more than 400 requests"; fail=1; break; }
done
echo "compaction: cut at each of its $compactions requests ($cfailed cut-off compactions failed)"

# The tables, downloaded, satisfy the oracle's strict checks and read the same there.
for t in append pk; do s3_oracle_same "s3://$S3_BUCKET/faults/$t" "$tmp/$t" || fail=1; done
[ "$writes" -ge 5 ] && [ "$lost" -ge 5 ] && [ "$compactions" -ge 5 ] && [ "$wfailed" -ge 1 ] && [ "$cfailed" -ge 1 ] || { echo "FAIL: too few requests swept"; fail=1; }
[ "$fail" = 0 ] && echo "faults at every request: old or new snapshot exactly, reruns succeed"
exit $fail
