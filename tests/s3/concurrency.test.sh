#!/bin/sh
# Concurrent writers on S3, where commits rely on conditional PUTs (If-None-Match: *) and no
# lock: 4 processes x 25 `paimon write` commits to one append table lose nothing and
# duplicate nothing (every id of every successful write exactly once, one APPEND snapshot per
# successful write, the oracle --strict agreeing on the downloaded table). Then the same
# with the proxy losing 5% of its answers after the request landed (land-drop, seeded): a
# write either succeeds and its rows are there once, or fails and none of them are -- a
# commit whose answer was lost is recognised as the writer's own, not retried into a
# duplicate nor mistaken for a conflict.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
s3_start || exit 1
tmp=$(mktemp -d); trap 's3_stop; rm -rf "$tmp"' EXIT
fail=0
P=$PAIMON_CLI

# round NAME: 4 writers x 25 commits of 8 rows to s3://.../NAME, then the checks.
round() {
  name=$1; t="s3://$S3_BUCKET/conc/$name"
  "$P" create "$t" --schema 'id BIGINT NOT NULL, w INT, c INT' --option commit.max-retries=200 > /dev/null ||
    { echo "FAIL $name: create"; fail=1; return; }
  pids=
  for w in 0 1 2 3; do
    (
      c=0
      while [ $c -lt 25 ]; do
        awk -v w=$w -v c=$c 'BEGIN { for (r = 0; r < 8; r++) printf "{\"id\":%d,\"w\":%d,\"c\":%d}\n", w * 10000 + c * 100 + r, w, c }' > "$tmp/$name.$w.$c"
        if "$P" write "$t" < "$tmp/$name.$w.$c" > /dev/null 2> "$tmp/$name.$w.$c.err"; then
          cat "$tmp/$name.$w.$c" >> "$tmp/$name.ok.$w"
        else
          cat "$tmp/$name.$w.$c" >> "$tmp/$name.failed.$w"
        fi
        c=$((c + 1))
      done
    ) &
    pids="$pids $!"
  done
  # shellcheck disable=SC2086
  wait $pids
  cat "$tmp/$name".ok.? 2>/dev/null | sed 's/.*"id":\([0-9]*\).*/\1/' | sort -n > "$tmp/$name.expected"
  cat "$tmp/$name".failed.? 2>/dev/null | sed 's/.*"id":\([0-9]*\).*/\1/' | sort -n > "$tmp/$name.lost"
  ok=$(($(wc -l < "$tmp/$name.expected") / 8)); failed=$(($(wc -l < "$tmp/$name.lost") / 8))
  "$P" cat "$t" --format jsonl > "$tmp/$name.cat" 2> "$tmp/err" || { echo "FAIL $name: cat: $(cat "$tmp/err")"; fail=1; }
  sed 's/.*"id":\([0-9]*\).*/\1/' "$tmp/$name.cat" | sort -n > "$tmp/$name.ids"
  dups=$(uniq -d "$tmp/$name.ids" | wc -l)
  [ "$dups" = 0 ] || { echo "FAIL $name: $dups ids twice: $(uniq -d "$tmp/$name.ids" | head -5 | tr '\n' ' ')"; fail=1; }
  cmp -s "$tmp/$name.expected" "$tmp/$name.ids" ||
    { echo "FAIL $name: rows differ from the successful writes:"; diff "$tmp/$name.expected" "$tmp/$name.ids" | head -5; fail=1; }
  rules=$(s3_admin /faults)
  s3_clear > /dev/null   # the independent client (download.mjs) does not retry
  node "$here/download.mjs" "$t" "$tmp/$name" > /dev/null || { echo "FAIL $name: download"; fail=1; }
  node "$ORACLE_DIR/oracle.mjs" "$tmp/$name" --strict > "$tmp/$name.oracle" 2> "$tmp/$name.report" ||
    { echo "FAIL $name: oracle --strict"; grep -i problem "$tmp/$name.report" | head -5; fail=1; }
  node "$ORACLE_DIR/compare.mjs" "$tmp/$name.cat" "$tmp/$name.oracle" > "$tmp/cmp" 2>&1 ||
    { echo "FAIL $name: oracle and paimon cat differ"; head -5 "$tmp/cmp"; fail=1; }
  appends=$(cat "$tmp/$name"/snapshot/snapshot-* | grep -c '"commitKind" *: *"APPEND"')
  [ "$appends" = "$ok" ] || { echo "FAIL $name: $appends APPEND snapshots for $ok successful writes"; fail=1; }
  echo "$name: $ok writes succeeded, $failed failed; $(wc -l < "$tmp/$name.ids") rows, $appends APPEND snapshots"
  if [ "$failed" -gt 0 ]; then
    echo "  a failed write said: $(cat "$tmp/$name".*.err | grep -v '^$' | head -1)"
  fi
}

round clean
[ "$(cat "$tmp/clean.lost" | wc -l)" = 0 ] || { echo "FAIL clean: writes failed without faults"; fail=1; }
s3_reset > /dev/null
# 5% of the snapshot PUTs (the commits) and 5% of every other request.
s3_fault fault=land-drop p=0.05 seed=11 kind=PUT match='/snapshot/snapshot-[0-9]+$' > /dev/null
s3_fault fault=land-drop p=0.05 seed=12 > /dev/null
round lossy
counts=$(s3_counts)
echo "lossy: proxy $(printf '%s' "$counts" | sed 's/.*"faults":\([0-9]*\).*/\1/') answers dropped of $(printf '%s' "$counts" | sed 's/{"total":\([0-9]*\).*/\1/') requests"
snap_drops=$(printf '%s' "$rules" | sed -n 's/^\[{[^}]*"fired":\([0-9]*\).*/\1/p')
echo "lossy: $snap_drops answers to snapshot PUTs lost"
[ "${snap_drops:-0}" -ge 1 ] || { echo "FAIL lossy: no commit lost its answer ($rules)"; fail=1; }
[ "$(($(wc -l < "$tmp/lossy.expected") / 8))" -ge 75 ] || { echo "FAIL lossy: fewer than 75 of 100 writes succeeded"; fail=1; }
[ "$fail" = 0 ] && echo "concurrent writers on S3: nothing lost, nothing duplicated"
exit $fail
