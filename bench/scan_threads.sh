#!/bin/sh
# Scan throughput against the thread count (issue 15): `paimon cat TABLE --format none`
# (every row decoded, only the count printed) with --threads 1 and --threads 2, alternating,
# in the same run, over a 4-bucket primary-key table of ROWS rows.
#   sh bench/scan_threads.sh [ROWS] [RUNS] [CPUS] [SHAPE]     (defaults 10000000 5 0,1 runs)
#
# The table: `k BIGINT, v1 BIGINT, v2 DOUBLE, v3 STRING`, primary key k, bucket = 4, written
# by the release build's `paimon write --format csv --commit-every ROWS/4` from rows made by
# awk (keys 0..ROWS-1 in a scrambled order, so every commit touches every bucket and each
# bucket holds several sorted runs that the scan merges).  The runs are pinned to CPUS with
# taskset (both cores of this machine by default: one thread against two is the point).
# SHAPE "compacted" times a copy of the table after `paimon compact --full` instead: one file
# a bucket, read as raw splits with no merge (the shape of a table a batch job reads).
# FORMAT=orc (or avro) writes the table in that file format instead of Parquet (its own
# directory).
# PEER=path/to/another/paimon adds that build's two runs to every round (a before/after
# comparison in the same minutes; the table is the one this build wrote).
# Each figure is the median of RUNS runs: wall clock, CPU time (user + system) and peak RSS
# (GNU time); speedup = wall(threads 1) / wall(threads N).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-5}
cpus=${3:-0,1}
shape=${4:-runs}
format=${FORMAT:-parquet}
dir=${BENCH_DIR:-build/release/bench-scan-threads}
[ "$format" = parquet ] || dir="$dir-$format"
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
    --primary-key k --option bucket=4 --option file.format="$format" >/dev/null
  "$paimon" write "$dir/t" --format csv --input "$dir/rows.csv" \
    --commit-every $((rows / 4)) >/dev/null
  rm -f "$dir/rows.csv"
  touch "$dir/rows-$rows"
fi
table=$dir/t
if [ "$shape" = compacted ]; then
  if [ ! -f "$dir/compacted-$rows" ]; then
    rm -rf "$dir/c"
    cp -r "$dir/t" "$dir/c"
    "$paimon" compact "$dir/c" --full > /dev/null
    touch "$dir/compacted-$rows"
  fi
  table=$dir/c
fi
echo "$rows rows ($shape, $format), $("$paimon" inspect "$table" files --format jsonl | wc -l) live data files" \
  "of $("$paimon" inspect "$table" files --format jsonl | awk -F'"file_size":' '{split($2, a, ","); s += a[1]} END {print s}') bytes;" \
  "$(nproc) processors online;" \
  "pinned to CPUs $cpus; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "count: $(taskset -c "$cpus" "$paimon" cat "$table" --format none --threads 1)" \
  "(threads 2: $(taskset -c "$cpus" "$paimon" cat "$table" --format none --threads 2))"
: > "$dir/t.1"; : > "$dir/t.2"; : > "$dir/p.1"; : > "$dir/p.2"
# one timed `cat`: binary, threads, file of figures
timed() {
  taskset -c "$cpus" /usr/bin/time -f '%e %U %S %M' -o "$dir/t.one" \
    "$1" cat "$table" --format none --threads "$2" > /dev/null
  awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$dir/t.one" >> "$3"
}
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  for n in 1 2; do
    timed "$paimon" "$n" "$dir/t.$n"
    if [ -n "${PEER:-}" ]; then timed "$PEER" "$n" "$dir/p.$n"; fi
  done
  echo "run $i (wall s, CPU s, peak KB): threads 1 $(tail -1 "$dir/t.1"), threads 2 $(tail -1 "$dir/t.2")"
done
col() { awk -v c="$1" '{print $c}' "$2" | median; }
echo
printf '%-34s %8s %8s %12s %10s %9s\n' "median of $runs runs" "wall s" "CPU s" "rows/s" "peak MB" "speedup"
for who in t p; do
  [ "$who" = p ] && [ -z "${PEER:-}" ] && continue
  w1=$(col 1 "$dir/$who.1")
  for n in 1 2; do
    w=$(col 1 "$dir/$who.$n"); c=$(col 2 "$dir/$who.$n"); m=$(col 3 "$dir/$who.$n")
    printf '%-34s %8s %8s %12.0f %10.0f %9.2f\n' \
      "$([ "$who" = p ] && echo "peer ")cat --format none --threads $n" "$w" "$c" \
      "$(echo "$rows $w" | awk '{print $1 / $2}')" "$(echo "$m" | awk '{print $1 / 1024}')" \
      "$(echo "$w1 $w" | awk '{print $1 / $2}')"
  done
done
