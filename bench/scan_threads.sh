#!/bin/sh
# Scan throughput against the thread count (issue 15): `paimon cat TABLE --format none`
# (every row decoded, only the count printed) with --threads 1 and --threads 2, alternating,
# in the same run, over a 4-bucket primary-key table of ROWS rows.
#   sh bench/scan_threads.sh [ROWS] [RUNS] [CPUS]     (defaults 10000000 5 0,1)
#
# The table: `k BIGINT, v1 BIGINT, v2 DOUBLE, v3 STRING`, primary key k, bucket = 4, written
# by the release build's `paimon write --format csv --commit-every ROWS/4` from rows made by
# awk (keys 0..ROWS-1 in a scrambled order, so every commit touches every bucket and each
# bucket holds several sorted runs that the scan merges).  The runs are pinned to CPUS with
# taskset (both cores of this machine by default: one thread against two is the point).
# Each figure is the median of RUNS runs: wall clock, CPU time (user + system) and peak RSS
# (GNU time); speedup = wall(threads 1) / wall(threads N).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-5}
cpus=${3:-0,1}
dir=${BENCH_DIR:-build/release/bench-scan-threads}
paimon=build/release/paimon
if [ ! -x "$paimon" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j2 --target paimon_cli >/dev/null
fi
. bench/lib.sh
if [ ! -f "$dir/rows-$rows" ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  awk -v n="$rows" 'BEGIN {
      print "k,v1,v2,v3"
      for (i = 0; i < n; i++) {
        k = (i * 7919) % n   # a permutation of 0..n-1 when n is not a multiple of 7919
        printf "%d,%d,%.3f,name-%d\n", k, k * 31 % 1000003, k / 7, k % 100000
      }
    }' > "$dir/rows.csv"
  "$paimon" create "$dir/t" --schema 'k BIGINT, v1 BIGINT, v2 DOUBLE, v3 STRING' \
    --primary-key k --option bucket=4 >/dev/null
  "$paimon" write "$dir/t" --format csv --input "$dir/rows.csv" \
    --commit-every $((rows / 4)) >/dev/null
  rm -f "$dir/rows.csv"
  touch "$dir/rows-$rows"
fi
echo "$rows rows, $(find "$dir/t" -name 'data-*' | wc -l) data files," \
  "$(find "$dir/t" -name 'data-*' -exec cat {} + | wc -c) bytes; $(nproc) processors online;" \
  "pinned to CPUs $cpus; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "count: $(taskset -c "$cpus" "$paimon" cat "$dir/t" --format none --threads 1)" \
  "(threads 2: $(taskset -c "$cpus" "$paimon" cat "$dir/t" --format none --threads 2))"
: > "$dir/t.1"; : > "$dir/t.2"
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  for n in 1 2; do
    taskset -c "$cpus" /usr/bin/time -f '%e %U %S %M' -o "$dir/t.one" \
      "$paimon" cat "$dir/t" --format none --threads "$n" > /dev/null
    awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$dir/t.one" >> "$dir/t.$n"
  done
  echo "run $i (wall s, CPU s, peak KB): threads 1 $(tail -1 "$dir/t.1"), threads 2 $(tail -1 "$dir/t.2")"
done
col() { awk -v c="$1" '{print $c}' "$2" | median; }
w1=$(col 1 "$dir/t.1")
echo
printf '%-28s %8s %8s %12s %10s %9s\n' "median of $runs runs" "wall s" "CPU s" "rows/s" "peak MB" "speedup"
for n in 1 2; do
  w=$(col 1 "$dir/t.$n"); c=$(col 2 "$dir/t.$n"); m=$(col 3 "$dir/t.$n")
  printf '%-28s %8s %8s %12.0f %10.0f %9.2f\n' "cat --format none --threads $n" "$w" "$c" \
    "$(echo "$rows $w" | awk '{print $1 / $2}')" "$(echo "$m" | awk '{print $1 / 1024}')" \
    "$(echo "$w1 $w" | awk '{print $1 / $2}')"
done
