#!/bin/sh
# Consumers and partition expiration on copies of the fixture tables (never the fixtures
# themselves): consumer files written in Java's shape are listed, reset and deleted by
# `paimon consumer`; `expire-partitions` drops one partition (update-time, max-num 1) as an
# OVERWRITE snapshot.  Afterwards every snapshot that was there reads exactly as before, the
# new snapshot holds only rows the table had, and the oracle reads it as `paimon cat` does
# with no more --strict problems than the snapshot before it.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
F=${PAIMON_FIXTURES:-}
if [ ! -d "$F" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI"; exit 1; fi
  echo "NOTE: fixtures not found; test not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0
oracled=0
expired_any=0
for src in $(find "$F" -maxdepth 3 -type d -name schema | sed 's|/schema$||' | sort); do
  name=$(echo "$src" | sed "s|^$F/||; s|/|_|g")
  t="$tmp/$name"
  # partitioned tables, and the first four others (for the consumer checks)
  grep -q '"partitionKeys" *: *\[ *\]' "$src"/schema/schema-* && [ "$checked" -ge 4 ] && continue
  cp -R "$src" "$t"
  last=$($P inspect "$t" snapshots --format jsonl 2>/dev/null | tail -1 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  [ -n "$last" ] || continue
  $P cat "$t" > "$tmp/before" 2>/dev/null || continue # a table paimon-c refuses to read
  # the snapshots kept: the earliest and the last two are read again at the end
  first=$($P inspect "$t" snapshots --format jsonl | head -1 | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  kept=$(printf '%s\n%s\n%s\n' "$first" $((last - 1)) "$last" | sort -un)
  for s in $kept; do
    $P cat "$t" --snapshot "$s" > "$tmp/snap-$s" 2>/dev/null || rm -f "$tmp/snap-$s"
  done
  # consumers, in Java's file shape
  mkdir -p "$t/consumer"
  printf '{\n  "nextSnapshot" : %s\n}' "$last" > "$t/consumer/consumer-reader"
  got=$($P consumer "$t" list --format jsonl)
  [ "$got" = "{\"consumer_id\":\"reader\",\"next_snapshot_id\":$last}" ] ||
    { echo "FAIL $name: consumer list: $got"; fail=1; }
  $P consumer "$t" reset reader --to "$last" || { echo "FAIL $name: reset"; fail=1; }
  [ "$(cat "$t/consumer/consumer-reader")" = "$(printf '{\n  "nextSnapshot" : %s\n}' "$last")" ] ||
    { echo "FAIL $name: consumer file shape"; fail=1; }
  $P consumer "$t" delete reader || { echo "FAIL $name: delete"; fail=1; }
  [ ! -e "$t/consumer/consumer-reader" ] || { echo "FAIL $name: consumer left"; fail=1; }
  # partition expiration: the partition whose newest file is oldest
  parts=$($P inspect "$t" schemas --format jsonl | tail -1 | grep -c '"partitionKeys":\["')
  if [ "$parts" -gt 0 ]; then
    # the oracle reads Avro manifests only: tables with ORC manifests are checked by our reads
    oracle=1
    grep -qi '"manifest.format" *: *"orc"' "$t"/schema/schema-* && oracle=0
    [ $oracle -eq 0 ] || node "$ORACLE_DIR/oracle.mjs" "$t" --strict > /dev/null 2> "$tmp/report0"
    dropped=$($P expire-partitions "$t" --older-than 0s --option partition.expiration-strategy=update-time \
      --option partition.expiration-max-num=1 2> "$tmp/err") ||
      { echo "FAIL $name: expire-partitions: $(cat "$tmp/err")"; fail=1; continue; }
    if [ -n "$dropped" ]; then
      expired_any=1
      new=$($P inspect "$t" snapshots --format jsonl | tail -1)
      echo "$new" | grep -q '"commitKind":"OVERWRITE"' || { echo "FAIL $name: not an OVERWRITE"; fail=1; }
      $P cat "$t" > "$tmp/after" || { echo "FAIL $name: unreadable after"; fail=1; }
      while IFS= read -r row; do
        grep -qxF -- "$row" "$tmp/before" || { echo "FAIL $name: row $row was not there"; fail=1; break; }
      done < "$tmp/after"
      [ "$(wc -l < "$tmp/after")" -lt "$(wc -l < "$tmp/before")" ] ||
        { echo "FAIL $name: $dropped dropped no row"; fail=1; }
      if [ $oracle -eq 1 ]; then
        oracled=$((oracled + 1))
        node "$ORACLE_DIR/oracle.mjs" "$t" --strict > "$tmp/orows" 2> "$tmp/report1"
        [ -s "$tmp/orows" ] || [ ! -s "$tmp/after" ] ||
          { echo "FAIL $name: the oracle cannot read the new snapshot"; fail=1; }
        node "$ORACLE_DIR/compare.mjs" "$tmp/orows" "$tmp/after" > /dev/null ||
          { echo "FAIL $name: the oracle reads other rows"; fail=1; }
        # Manifests of a pre-1.4 table carried into the new base list keep their null
        # bucket and level statistics: every commit to such a table does that (so does
        # Java's), not the expiration.
        grep PROBLEM "$tmp/report0" | sort -u > "$tmp/p0"
        grep PROBLEM "$tmp/report1" | grep -v '(manifest list entry): _M[AI][XN]_[A-Z]* null' |
          grep -v 'Avro schema is Java Paimon 0' | sort -u > "$tmp/p1"
        [ "$(wc -l < "$tmp/p1")" -le "$(wc -l < "$tmp/p0")" ] ||
          { echo "FAIL $name: new --strict problems:"; head -3 "$tmp/p1"; fail=1; }
      fi
    fi
  fi
  for s in $kept; do
    [ -f "$tmp/snap-$s" ] || continue
    $P cat "$t" --snapshot "$s" > "$tmp/now" 2>&1
    cmp -s "$tmp/now" "$tmp/snap-$s" || { echo "FAIL $name: snapshot $s reads differently"; fail=1; }
  done
  checked=$((checked + 1))
done
[ "$checked" -ge 8 ] || { echo "FAIL: only $checked fixture tables checked"; fail=1; }
[ "$expired_any" -eq 1 ] || { echo "FAIL: no fixture partition expired"; fail=1; }
[ "$oracled" -ge 1 ] || { echo "FAIL: the oracle checked no expiration"; fail=1; }
echo "$checked fixture tables checked, $oracled expirations read by the oracle"
exit $fail
