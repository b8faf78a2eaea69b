#!/bin/sh
# changelog-producer=full-compaction, checked as a model: random upserts and deletes over
# several commits, with full compactions by `paimon compact --full` (some writes left to pile
# up in between) and by writers (full-compaction.delta-commits=1, set or by default), for the deduplicate
# engine (with and without changelog-producer.row-deduplicate), partial-update and
# aggregation.  tail_apply.mjs applies the changes of every COMPACT snapshot to the rows of
# the previous full compaction and requires the rows of the new one exactly; here also:
#   - APPEND snapshots carry no changelog, and a COMPACT snapshot that leaves no file at the
#     max level (a compaction into a lower level) carries none either;
#   - with row-deduplicate, rewriting a key with its current value yields no change, and
#     without it a -U/+U pair of equal rows (as Java);
#   - the latest snapshot, and the first with a changelog, read the same in the oracle
#     (--strict clean) when ORACLE_DIR is set (every snapshot would take minutes).
set -u
: "${PAIMON_CLI:?}"
P=$PAIMON_CLI
here=$(dirname "$0")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

gen() { # gen SEED ROWS KINDS: JSONL rows over keys 0..39 in partitions p=0,1
  awk -v seed="$1" -v n="$2" -v kinds="$3" 'BEGIN {
    srand(seed); split(kinds, k, ",");
    for (i = 0; i < n; i++) {
      id = int(rand() * 40); kind = k[1 + int(rand() * length(k))];
      printf "{\"_ROW_KIND\":\"%s\",\"id\":%d,\"p\":%d,\"v\":\"v%d\",\"n\":%d}\n", kind, id, id % 2, i % 7, i % 5
    }
  }'
}
mk() { # mk NAME OPTIONS...
  name=$1; shift
  set -- --option bucket=2 --option changelog-producer=full-compaction "$@"
  $P create "$tmp/$name" --schema 'id BIGINT, p INT, v STRING, n BIGINT' --primary-key id,p \
    --partition-by p "$@" > /dev/null || { echo "FAIL: create $name"; fail=1; }
}
# write-only: only the job compacts (writers compact fully at every commit by default)
mk dedup --option write-only=true
mk dedup_rowdedup --option write-only=true --option changelog-producer.row-deduplicate=true
mk partial --option write-only=true --option merge-engine=partial-update \
  --option partial-update.remove-record-on-delete=true
mk agg --option write-only=true --option merge-engine=aggregation \
  --option fields.n.aggregate-function=sum --option aggregation.remove-record-on-delete=true
mk dedup_writer --option full-compaction.delta-commits=1
# no delta-commits: the producer makes it 1 (Flink's StoreSinkWrite)
mk agg_writer --option merge-engine=aggregation --option fields.n.aggregate-function=sum \
  --option aggregation.remove-record-on-delete=true
# writers compact by the strategy, fully only every 1000th commit: lower levels too
mk lower --option num-sorted-run.compaction-trigger=2 --option full-compaction.delta-commits=1000

for seed in 1 2 3 4 5 6; do
  for t in dedup dedup_rowdedup partial agg dedup_writer agg_writer lower; do
    gen $((seed * 10 + ${#t})) 50 '+I,+U,+U,-D' | $P write "$tmp/$t" --commit-every 20 > /dev/null ||
      { echo "FAIL: write $t seed $seed"; fail=1; }
  done
  # the dedicated job every other round: two writes pile up in between
  if [ $((seed % 2)) = 0 ]; then
    for t in dedup dedup_rowdedup partial agg; do
      $P compact "$tmp/$t" --full > /dev/null || { echo "FAIL: compact $t"; fail=1; }
    done
  fi
done

for t in dedup dedup_rowdedup partial agg dedup_writer agg_writer lower; do
  T="$tmp/$t"
  node "$here/tail_apply.mjs" "$P" "$T" > "$tmp/out" 2>&1 || fail=1
  cat "$tmp/out"
  grep -q "checked [1-9][0-9]* exact" "$tmp/out" || [ $t = lower ] ||
    { echo "FAIL: $t: no full compaction checked"; fail=1; }
  $P inspect "$T" snapshots --format jsonl > "$tmp/snaps" || fail=1
  max=$(($(grep -o '"num-sorted-run.compaction-trigger":"[0-9]*"' "$T/schema/schema-0" | grep -o '[0-9]*' || echo 5) + 0))
  while read -r line; do
    id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
    case $line in
      *'"commitKind":"APPEND"'*'"changelogManifestList":"'*)
        echo "FAIL: $t: APPEND snapshot $id has a changelog"; fail=1 ;;
      *'"commitKind":"COMPACT"'*'"changelogManifestList":"'*)
        $P inspect "$T" files --snapshot "$id" --format jsonl | grep -q "\"level\":$max," ||
          { echo "FAIL: $t: COMPACT snapshot $id has a changelog but no file at level $max"; fail=1; } ;;
    esac
  done < "$tmp/snaps"
  if [ -n "${ORACLE_DIR:-}" ]; then
    last=$(tail -1 "$tmp/snaps" | sed 's/.*"id":\([0-9]*\).*/\1/')
    first=$(grep '"changelogManifestList":"' "$tmp/snaps" | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
    for s in $first $last; do
      node "$ORACLE_DIR/oracle.mjs" "$T" --snapshot "$s" --strict > "$tmp/orows" 2> "$tmp/report" ||
        { echo "FAIL: $t snapshot $s (oracle):"; grep PROBLEM "$tmp/report" | head; fail=1; }
      $P cat "$T" --snapshot "$s" --format jsonl > "$tmp/ours" || fail=1
      node "$ORACLE_DIR/compare.mjs" "$tmp/orows" "$tmp/ours" > /dev/null ||
        { echo "FAIL: $t snapshot $s: the oracle's rows differ"; fail=1; }
    done
    echo "$t: snapshots $first and $last read the same in the oracle, --strict clean"
  fi
done

# The same value written again: nothing under row-deduplicate, an equal -U/+U pair without.
for t in dedup dedup_rowdedup; do
  $P compact "$tmp/$t" --full > /dev/null 2>&1
  $P cat "$tmp/$t" --limit 3 > "$tmp/same" || fail=1
  $P write "$tmp/$t" --input "$tmp/same" > /dev/null || fail=1
  $P compact "$tmp/$t" --full > "$tmp/c" || fail=1
  id=$(sed -n 's/committed snapshot \([0-9]*\) (COMPACT)/\1/p' "$tmp/c")
  n=$($P tail "$tmp/$t" --from "snapshot:$id" --to "snapshot:$id" | wc -l)
  if [ $t = dedup ]; then want=6; else want=0; fi
  [ "$n" = "$want" ] || { echo "FAIL: $t: rewriting 3 unchanged rows gave $n changes, not $want"; fail=1; }
  echo "$t: 3 unchanged rows rewritten give $n changes"
done
exit $fail
