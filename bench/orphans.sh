#!/bin/sh
# The orphan sweep on a table with many files: an append table (bucket = 4, bucket-key id)
# gets COMMITS commits of 64 rows (4 data files, a manifest and two manifest lists each, plus
# the snapshot), then is rolled back to half of them, so that the other half's files are
# orphans.  Then RUNS times, interleaved: the floor any sweep pays, `find` listing every file
# with its modification time and size; and `paimon remove-orphans --dry-run --older-than 0s`
# (reads every snapshot's manifest lists and manifests, lists and stats every file).
# Prints the seconds of each run; run it under `taskset -c 1`.
#   sh bench/orphans.sh [COMMITS] [RUNS]     (defaults 1000 5)
set -eu
COMMITS=${1:-1000}
RUNS=${2:-5}
P=$(cd "$(dirname "$0")/.." && pwd)/build/release/paimon
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
T="$DIR/t"
"$P" create "$T" --schema 'id BIGINT, v STRING' --option bucket=4 --option bucket-key=id \
  > /dev/null
awk -v n="$COMMITS" 'BEGIN { for (c = 0; c < n; c++) for (i = 0; i < 64; i++)
  printf "{\"id\":%d,\"v\":\"c%d\"}\n", c * 64 + i, c }' > "$DIR/rows.jsonl"
"$P" write "$T" --input "$DIR/rows.jsonl" --commit-every 64 > /dev/null
"$P" rollback "$T" --to $((COMMITS / 2)) > /dev/null
echo "table: $(find "$T" -type f | wc -l) files, $((COMMITS / 2)) snapshots left"
now() { date +%s.%N; }
r=1
while [ "$r" -le "$RUNS" ]; do
  a=$(now); find "$T" -type f -printf '%T@ %s %p\n' > /dev/null; b=$(now)
  "$P" remove-orphans "$T" --dry-run --older-than 0s > "$DIR/out"; c=$(now)
  echo "run $r: find $(echo "$b - $a" | bc) s, remove-orphans $(echo "$c - $b" | bc) s, $(tail -1 "$DIR/out")"
  r=$((r + 1))
done
