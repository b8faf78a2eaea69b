#!/bin/sh
# ORC data files the table writer makes, against Java's: for each fixture table whose ORC
# data files ORC Java 1.9 wrote and that paimon-c can write (append and partial-update
# primary-key tables), a new table with the fixture's schema (schema/ copied to a temporary
# directory, manifest.format removed) gets the fixture's rows through `paimon write`; then one of its data files and
# one of the fixture's must have the same structure as `paimon file meta` prints it: the
# Paimon row type of the file (system columns included), the ORC type tree with every
# `paimon.id` attribute, file version and writer version, compression kind and block size,
# row index stride.  Only the writer id and software version may differ (paimon-c says who
# it is).  The rows read back equal the fixture's (CHAR padding aside: none here).
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; compatibility checks did not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0

# the structure lines of `paimon file meta` (writer id and software version masked)
layout() {
  "$PAIMON_CLI" file meta "$1" | grep -E '^(type: |type [0-9]|file |compression |rows [0-9]+ stripes)' |
    sed 's/ writer [0-9]* software .* calendar / writer W software S calendar /; s/^rows [0-9]* stripes [0-9]* /rows stripes /'
}

for name in cpp-orc-append-10 cpp-orc-pk-partial-update cpp-orc-empty-partition; do
  src="$FIXTURES/$name"
  [ -d "$src/schema" ] || { echo "FAIL $name: fixture missing"; fail=1; continue; }
  t="$tmp/$name"
  mkdir -p "$t" && cp -r "$src/schema" "$t/" && chmod -R u+w "$t" ||
    { echo "FAIL $name: copy schema"; fail=1; continue; }
  # the fixtures keep ORC manifests, which paimon-c does not write yet: Avro ones instead
  "$PAIMON_CLI" alter "$t" remove-option manifest.format > /dev/null ||
    { echo "FAIL $name: alter"; fail=1; continue; }
  "$PAIMON_CLI" cat "$src" --format jsonl > "$t.in" || { echo "FAIL $name: cat fixture"; fail=1; continue; }
  "$PAIMON_CLI" write "$t" --input "$t.in" > "$t.log" 2>&1 || { echo "FAIL $name: write:"; cat "$t.log"; fail=1; continue; }
  "$PAIMON_CLI" cat "$t" --format jsonl > "$t.out" || { echo "FAIL $name: cat"; fail=1; continue; }
  node "$ORACLE_DIR/compare.mjs" "$t.in" "$t.out" > "$t.cmp" || { echo "FAIL $name: rows"; head -5 "$t.cmp"; fail=1; continue; }
  # the newest schema's file of each side (the fixture's last written data file)
  java=$(find "$src" -name 'data-*.orc' -newer "$src/schema/schema-0" 2>/dev/null | sort | tail -1)
  [ -n "$java" ] || java=$(find "$src" -name 'data-*.orc' | sort | tail -1)
  ours=$(find "$t" -name 'data-*.orc' | sort | head -1)
  [ -n "$java" ] && [ -n "$ours" ] || { echo "FAIL $name: no ORC data file"; fail=1; continue; }
  layout "$java" > "$t.java"; layout "$ours" > "$t.ours"
  [ -s "$t.java" ] || { echo "FAIL $name: no layout for $java"; fail=1; continue; }
  note=""
  if ! grep -q 'paimon.id=' "$t.java"; then
    # Paimon 1.0 wrote no paimon.id attributes (OrcTypeUtil gained them later); 1.4.2 does
    sed -i 's/ paimon.id=[-0-9]*$//' "$t.ours"; note=" (paimon.id aside: Paimon 1.0 wrote none)"
  fi
  if ! cmp -s "$t.java" "$t.ours"; then
    echo "FAIL $name: layout differs from $(basename "$java")"; diff "$t.java" "$t.ours" | head -20; fail=1; continue
  fi
  checked=$((checked + 1))
  echo "ok $name: $(wc -l < "$t.out") rows, $(grep -c '^type [0-9]' "$t.ours") ORC types as Java's$note"
done
[ "$fail" = 0 ] && echo "ORC table layout: $checked tables written with Java's file structure"
exit $fail
