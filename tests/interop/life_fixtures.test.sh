#!/bin/sh
# Tags, rollback and orphan removal on copies of every fixture table with more than one
# snapshot (the fixtures are never touched): tag the latest and the earliest snapshot, roll
# back one snapshot (the tag of the latest goes with it), remove orphans, delete the other
# tag, sweep again.  The oldest and the newest retained snapshot and every tag then read
# exactly as before in `paimon cat` (the unit tests check every snapshot of their tables);
# the oracle reads the latest retained snapshot the same as before, and --check-metadata
# reports no problem it did not report before (tables with ORC manifests, which the oracle
# does not read, are checked by `paimon cat` alone).
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
FIX=${PAIMON_FIXTURES:-}
if [ ! -d "$FIX" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI"; exit 1; fi
  echo "NOTE: fixtures not found; not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
problems() { # TABLE SNAPSHOT -> sorted PROBLEM lines, table path removed
  node "$ORACLE_DIR/oracle.mjs" "$1" --snapshot "$2" --check-metadata 2>&1 > "$tmp/orows" |
    grep 'PROBLEM' | sed "s|$1/||g" | sort -u
}
for src in $(find "$FIX" -name schema -type d | sed 's|/schema$||' | sort); do
  name=$(basename "$src")
  T="$tmp/$name"
  cp -a "$src" "$T"
  ids=$(ls "$T/snapshot" | sed -n 's/^snapshot-\([0-9]*\)$/\1/p' | sort -n)
  [ -n "$ids" ] || continue
  first=$(echo "$ids" | head -1); last=$(echo "$ids" | tail -1)
  keep=$((last - 1))
  [ "$first" -lt "$last" ] || continue # one snapshot: nothing to roll back (the unit tests cover it)
  list=$(ls "$T/manifest" | grep '^manifest-list-' | head -1)
  orc=no; [ "$(head -c 3 "$T/manifest/$list")" = ORC ] && orc=yes # the oracle reads Avro only
  [ $orc = yes ] || { problems "$T" "$keep" > "$tmp/problems-before"; cp "$tmp/orows" "$tmp/orows-before"; }
  check=$(printf '%s\n%s\n' "$first" "$keep" | sort -un) # the oldest and the newest retained
  for s in $check; do $P cat "$T" --snapshot "$s" > "$tmp/before-$s" 2>/dev/null || rm -f "$tmp/before-$s"; done
  tags=$(ls "$T/tag" 2>/dev/null | sed -n 's/^tag-//p')
  for g in $tags; do $P cat "$T" --tag "$g" > "$tmp/tag-$g" 2>/dev/null || rm -f "$tmp/tag-$g"; done

  $P tag "$T" create life-latest > /dev/null || { echo "FAIL: $name: tag create"; fail=1; }
  $P tag "$T" create life-first --snapshot "$first" > /dev/null || { echo "FAIL: $name: tag --snapshot"; fail=1; }
  $P rollback "$T" --to "$keep" > /dev/null || { echo "FAIL: $name: rollback"; fail=1; }
  [ ! -e "$T/snapshot/snapshot-$last" ] && [ ! -e "$T/tag/tag-life-latest" ] ||
    { echo "FAIL: $name: rollback left snapshot $last or its tag"; fail=1; }
  $P remove-orphans "$T" --older-than 0s > "$tmp/swept" 2>&1 || { echo "FAIL: $name: remove-orphans"; cat "$tmp/swept"; fail=1; }
  $P tag "$T" delete life-first > /dev/null || { echo "FAIL: $name: tag delete"; fail=1; }
  $P remove-orphans "$T" --older-than 0s | grep -q '^deleted 0 orphan files' ||
    { echo "FAIL: $name: a second sweep found more"; fail=1; }

  for s in $check; do
    [ -f "$tmp/before-$s" ] || continue
    $P cat "$T" --snapshot "$s" > "$tmp/after" 2>&1 && cmp -s "$tmp/after" "$tmp/before-$s" ||
      { echo "FAIL: $name: snapshot $s reads differently"; head -3 "$tmp/after"; fail=1; }
  done
  for g in $tags; do
    [ -f "$tmp/tag-$g" ] || continue
    $P cat "$T" --tag "$g" > "$tmp/after" 2>&1 && cmp -s "$tmp/after" "$tmp/tag-$g" ||
      { echo "FAIL: $name: tag $g reads differently"; fail=1; }
  done
  if [ $orc = yes ]; then
    oracle="(ORC manifests: not for the oracle)"
  else
    problems "$T" "$keep" > "$tmp/problems-after"
    new=$(comm -13 "$tmp/problems-before" "$tmp/problems-after")
    [ -z "$new" ] || { echo "FAIL: $name: new oracle problems:"; echo "$new" | head -5; fail=1; }
    cmp -s "$tmp/orows" "$tmp/orows-before" || { echo "FAIL: $name: the oracle reads snapshot $keep differently"; fail=1; }
    oracle="the oracle agrees"
  fi
  echo "$name: snapshots $first and $keep and $(echo $tags | wc -w) tag(s) read as before, $oracle; $(tail -1 "$tmp/swept")"
  rm -f "$tmp"/before-* "$tmp"/tag-*
done
exit $fail
