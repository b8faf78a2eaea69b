#!/bin/sh
# The ceiling of two CPUs for the scan of bench/scan_threads.sh, with nothing handed between
# threads (issue 15): the compacted table's data files (one a bucket) read by
# `paimon file cat FILE --format none --threads 1`, all in one process one after the other,
# against two processes at once, each reading every other file.  No memory changes CPU in
# the second case, so wall(one) / wall(two) is what two CPUs give this work on this machine
# at best; `paimon cat --threads 2` can only come near it.
#   sh bench/scan_procs.sh [ROWS] [RUNS] [CPUS]     (defaults 4000000 9 0,1)
# Needs the compacted table of `sh bench/scan_threads.sh ROWS 1 CPUS compacted` (FORMAT= as
# there).  Each figure is the median of RUNS rounds, the two ways alternating in a round.
set -eu
cd "$(dirname "$0")/.."
rows=${1:-4000000}
runs=${2:-9}
cpus=${3:-0,1}
format=${FORMAT:-parquet}
dir=${BENCH_DIR:-build/release/bench-scan-threads}
[ "$format" = parquet ] || dir="$dir-$format"
paimon=build/release/paimon
. bench/lib.sh
[ -f "$dir/compacted-$rows" ] ||
  { echo "no compacted table of $rows rows: sh bench/scan_threads.sh $rows 1 $cpus compacted" >&2; exit 1; }
# the live files (the table's directories also hold the files compaction replaced)
files=$("$paimon" inspect "$dir/c" files --format jsonl | python3 -c '
import json, sys
for l in sys.stdin:
    f = json.loads(l)
    print("%s/bucket-%d/%s" % (sys.argv[1], f["bucket"], f["file_name"]))' "$dir/c")
set -- $files
[ $# -ge 2 ] || { echo "fewer than two data files in $dir/c" >&2; exit 1; }
odd=""; even=""; k=0
for f in "$@"; do
  if [ $((k % 2)) -eq 0 ]; then even="$even $f"; else odd="$odd $f"; fi
  k=$((k + 1))
done
now() { date +%s.%N; }
echo "$# files of $rows rows ($format), $(nproc) processors online; pinned to CPUs $cpus;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$dir/procs.1"; : > "$dir/procs.2"
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  t0=$(now)
  for f in "$@"; do taskset -c "$cpus" "$paimon" file cat "$f" --format none --threads 1 > /dev/null; done
  t1=$(now)
  # shellcheck disable=SC2086
  (for f in $even; do taskset -c "$cpus" "$paimon" file cat "$f" --format none --threads 1 > /dev/null; done) &
  a=$!
  # shellcheck disable=SC2086
  (for f in $odd; do taskset -c "$cpus" "$paimon" file cat "$f" --format none --threads 1 > /dev/null; done) &
  b=$!
  wait $a $b
  t2=$(now)
  echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}' >> "$dir/procs.1"
  echo "$t1 $t2" | awk '{printf "%.3f\n", $2 - $1}' >> "$dir/procs.2"
  echo "round $i (wall s): one process $(tail -1 "$dir/procs.1"), two processes $(tail -1 "$dir/procs.2")"
done
w1=$(median < "$dir/procs.1")
w2=$(median < "$dir/procs.2")
echo
echo "median of $runs rounds: one process $w1 s, two processes $w2 s, ratio $(echo "$w1 $w2" | awk '{printf "%.2f", $1 / $2}')"
