#!/bin/sh
# Java compatibility of compaction: a copy of every primary-key fixture is compacted with
# `paimon compact --full`.  Tables paimon-c may write must then read the same rows in
# paimon-c, keep the LSM shape (no overlapping key ranges within a level >= 1, every file
# at the max level), be compacted again to nothing, and, with Avro manifests, read the same
# rows in the oracle with --strict clean.  Deletion-vector, first-row and lookup tables are
# compacted with lookups (their level-0 rows, which batch reads skip, join the result), so
# the rows after compaction are the merge of every level: the oracle, which reads the
# compacted files, must agree.  Tables paimon-c may not write (data formats it does not
# write) must be refused with that reason and left untouched.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}" "${PAIMON_BUILD_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; compatibility checks did not run"; exit 0
fi
LSM_CHECK="$PAIMON_BUILD_DIR/tests/tools/lsm_check"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
compacted=0; refused=0; oracle=0; fail=0
for schema in "$FIXTURES"/*/schema; do
  src=$(dirname "$schema"); name=$(basename "$src")
  latest=$(ls "$schema" | sort -t- -k2 -n | tail -1)
  grep -q '"primaryKeys" *: *\[ *"' "$schema/$latest" || continue
  lookup=no
  grep -Eq '"deletion-vectors.enabled" *: *"true"|"merge-engine" *: *"first-row"|"changelog-producer" *: *"lookup"|"force-lookup" *: *"true"' "$schema/$latest" && lookup=yes
  t="$tmp/$name"; cp -r "$src" "$t"; chmod -R u+w "$t"
  "$PAIMON_CLI" cat "$t" --format jsonl > "$tmp/before" 2> "$tmp/err" ||
    { echo "FAIL: $name: cat before: $(cat "$tmp/err")"; fail=$((fail + 1)); continue; }
  ls -R "$t" > "$tmp/tree-before"
  # level-0 files that batch reads of lookup tables skip (their rows appear on compaction)
  level0=$("$PAIMON_CLI" inspect "$t" files --format jsonl | grep -c '"level":0[,}]')
  # the fixture's own files may break --strict (other writers' shapes): only new problems count
  node "$ORACLE_DIR/oracle.mjs" "$t" --strict > /dev/null 2> "$tmp/report-before"
  if ! "$PAIMON_CLI" compact "$t" --full > "$tmp/out" 2> "$tmp/err"; then
    if grep -Eq "cannot write it yet" "$tmp/err"; then
      ls -R "$t" > "$tmp/tree-after"
      if cmp -s "$tmp/tree-before" "$tmp/tree-after"; then
        refused=$((refused + 1)); echo "refused as expected: $name: $(cut -c1-100 "$tmp/err")"
      else
        echo "FAIL: $name: refused but the table changed"; fail=$((fail + 1))
      fi
    else
      echo "FAIL: $name: compact: $(cat "$tmp/err")"; fail=$((fail + 1))
    fi
    continue
  fi
  grep -q "COMPACT" "$tmp/out" || { echo "FAIL: $name: no COMPACT snapshot: $(cat "$tmp/out")"; fail=$((fail + 1)); continue; }
  "$PAIMON_CLI" cat "$t" --format jsonl > "$tmp/after" 2> "$tmp/err" ||
    { echo "FAIL: $name: cat after: $(cat "$tmp/err")"; fail=$((fail + 1)); continue; }
  # lookup tables with level-0 files: their rows become visible, so `before` is not the
  # reference; the oracle reading the compacted table is (below, Avro manifests), and the
  # rows must stay put under a second full compaction.  Without level-0 files the rows
  # must not change.
  [ "$lookup" = yes ] && [ "$level0" -gt 0 ] && cp "$tmp/after" "$tmp/before"
  node "$ORACLE_DIR/compare.mjs" "$tmp/before" "$tmp/after" > "$tmp/cmp" 2>&1 ||
    { echo "FAIL: $name: rows changed"; cat "$tmp/cmp"; fail=$((fail + 1)); continue; }
  "$LSM_CHECK" "$t" > "$tmp/lsm" 2>&1 || { echo "FAIL: $name: $(cat "$tmp/lsm")"; fail=$((fail + 1)); continue; }
  levels=$("$PAIMON_CLI" inspect "$t" files --format jsonl | sed 's/.*"level":\([0-9]*\).*/\1/' | sort -u | tr '\n' ' ')
  # the max level: num-levels - 1, num-levels defaulting to the compaction trigger + 1
  trigger=$(sed -n 's/.*"num-sorted-run.compaction-trigger" *: *"\([0-9]*\)".*/\1/p' "$schema/$latest")
  nlevels=$(sed -n 's/.*"num-levels" *: *"\([0-9]*\)".*/\1/p' "$schema/$latest")
  [ -n "$nlevels" ] || nlevels=$(( ${trigger:-5} + 1 ))
  [ "$levels" = "$((nlevels - 1)) " ] || { echo "FAIL: $name: levels after --full: $levels"; fail=$((fail + 1)); continue; }
  "$PAIMON_CLI" compact "$t" --full > "$tmp/out2" 2>&1
  if [ "$lookup" = yes ] && ! grep -q "nothing to compact" "$tmp/out2"; then
    # deletion vectors on max-level files that the first full compaction upgraded: the
    # second one rewrites those files (pickFullCompaction), a third has nothing left
    "$PAIMON_CLI" cat "$t" --format jsonl > "$tmp/again" 2>&1
    node "$ORACLE_DIR/compare.mjs" "$tmp/before" "$tmp/again" > "$tmp/cmp" 2>&1 ||
      { echo "FAIL: $name: rows changed by the second --full"; cat "$tmp/cmp"; fail=$((fail + 1)); continue; }
    "$PAIMON_CLI" compact "$t" --full > "$tmp/out2" 2>&1
  fi
  grep -q "nothing to compact" "$tmp/out2" || { echo "FAIL: $name: second --full: $(cat "$tmp/out2")"; fail=$((fail + 1)); continue; }
  snap=$(sed -n 's/^committed snapshot \([0-9]*\) (COMPACT)$/\1/p' "$tmp/out")
  if grep -q '"manifest.format" *: *"orc"' "$schema/$latest"; then
    echo "compacted (ORC manifests, oracle skipped): $name ($(cat "$tmp/lsm"))"
  else
    node "$ORACLE_DIR/oracle.mjs" "$t" --snapshot "$snap" --strict > "$tmp/orows" 2> "$tmp/report"
    # a manifest of the fixture's carried into paimon's manifest list keeps the statistics
    # its old list had (0.9 lists have no bucket/level ranges: null), as Java's commit
    # passes untouched ManifestFileMeta through; only problems of paimon's own files count
    grep PROBLEM "$tmp/report" | while IFS= read -r line; do
      m=$(printf '%s\n' "$line" | sed -n 's/^check: PROBLEM \(manifest-[^ ]*\) (manifest list entry): _M[AI][XN]_\(BUCKET\|LEVEL\) null.*/\1/p')
      [ -n "$m" ] && [ -e "$src/manifest/$m" ] && continue
      printf '%s\n' "$line"
    done | sort > "$tmp/p-after"
    grep PROBLEM "$tmp/report-before" | sort > "$tmp/p-before"
    if [ -s "$tmp/orows" ] && [ -z "$(comm -23 "$tmp/p-after" "$tmp/p-before")" ]; then
      node "$ORACLE_DIR/compare.mjs" "$tmp/before" "$tmp/orows" > "$tmp/cmp" 2>&1 ||
        { echo "FAIL: $name: oracle rows differ"; cat "$tmp/cmp"; fail=$((fail + 1)); continue; }
      oracle=$((oracle + 1))
      echo "compacted, oracle --strict without new problems: $name ($(cat "$tmp/lsm"))"
    else
      echo "FAIL: $name: oracle --strict, new problems:"; comm -23 "$tmp/p-after" "$tmp/p-before" | head -20; fail=$((fail + 1)); continue
    fi
  fi
  compacted=$((compacted + 1))
done
echo "compacted $compacted fixture(s) ($oracle checked by the oracle), refused $refused, failed $fail"
[ "$compacted" -ge 2 ] || { echo "FAIL: expected at least two compactable primary-key fixtures"; fail=$((fail + 1)); }
[ "$fail" = 0 ]
