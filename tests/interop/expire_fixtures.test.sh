#!/bin/sh
# `paimon expire` on copies of the fixture tables with 3 snapshots or more (never the
# fixtures themselves): every
# snapshot but the latest expires (--retain-min 1 --older-than 0s), the latest snapshot and
# the tags read exactly as before, through paimon-c and through the oracle, and the oracle's
# --strict metadata check reports no problem it did not report before.  A table paimon-c
# cannot read before is skipped (its refusal is another test's business); one it reads but
# cannot expire fails.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
FIX=${PAIMON_FIXTURES:-}
if [ ! -d "$FIX" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI"; exit 1; fi
  echo "NOTE: fixtures not found; not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; expired=0; tables=0
# The oracle's problem lines with their counts made alike (fewer files after expiration).
problems() { grep '^check: PROBLEM' "$1" | sed 's/[0-9][0-9]*/N/g' | sort -u; }
for schema in $(find "$FIX" -name schema -type d | sort); do
  src=$(dirname "$schema")
  [ -d "$src/snapshot" ] || continue
  # tables with at least 3 snapshots: the oracle's runs are the cost of this test
  [ "$(ls "$src/snapshot" | grep -c '^snapshot-')" -ge 3 ] || continue
  name=$(echo "${src#$FIX/}" | tr '/' '_')
  t="$tmp/$name"; cp -a "$src" "$t"
  latest=$($P inspect "$t" snapshots --format jsonl 2>/dev/null | sed -n 's/.*"id":\([0-9]*\).*/\1/p' | sort -n | tail -1)
  [ -n "$latest" ] || continue
  $P cat "$t" > "$tmp/before" 2>/dev/null || continue
  sort -o "$tmp/before" "$tmp/before"
  tags=$(ls "$t/tag" 2>/dev/null | sed -n 's/^tag-//p')
  for g in $tags; do $P cat "$t" --tag "$g" | sort > "$tmp/tag-$g" || fail=1; done
  node "$ORACLE_DIR/oracle.mjs" "$t" --strict > "$tmp/obefore" 2> "$tmp/rbefore"
  problems "$tmp/rbefore" > "$tmp/pbefore"
  tables=$((tables + 1))
  if ! $P expire "$t" --retain-min 1 --older-than 0s --max-deletes 100000 > "$tmp/out" 2>&1; then
    echo "FAIL $name: expire: $(cat "$tmp/out")"; fail=1; continue
  fi
  grep -q '^expired' "$tmp/out" && expired=$((expired + 1))
  left=$(ls "$t/snapshot" | grep -c '^snapshot-')
  [ "$left" = 1 ] || { echo "FAIL $name: $left snapshots left"; fail=1; }
  $P cat "$t" | sort > "$tmp/after" || fail=1
  cmp -s "$tmp/before" "$tmp/after" || { echo "FAIL $name: the latest snapshot reads differently"; fail=1; }
  for g in $tags; do
    $P cat "$t" --tag "$g" | sort > "$tmp/tag-after" || fail=1
    cmp -s "$tmp/tag-$g" "$tmp/tag-after" || { echo "FAIL $name: tag $g reads differently"; fail=1; }
  done
  node "$ORACLE_DIR/oracle.mjs" "$t" --strict > "$tmp/oafter" 2> "$tmp/rafter"
  cmp -s "$tmp/obefore" "$tmp/oafter" || { echo "FAIL $name: the oracle reads differently"; fail=1; }
  problems "$tmp/rafter" > "$tmp/pafter"
  new=$(comm -13 "$tmp/pbefore" "$tmp/pafter")
  [ -z "$new" ] || { echo "FAIL $name: new oracle problems:"; echo "$new"; fail=1; }
  echo "$name: $(cat "$tmp/out")"
done
echo "$tables tables, $expired with snapshots expired"
[ "$expired" -ge 8 ] || { echo "FAIL: expected at least 5 tables with something to expire"; fail=1; }
exit $fail
