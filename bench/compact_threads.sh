#!/bin/sh
# Compaction throughput against the thread count (issue 15): `paimon compact TABLE --full`
# with --threads 1 and --threads 2, alternating, in the same run, each on a fresh copy of a
# BUCKETS-bucket primary-key table of ROWS rows.
#   sh bench/compact_threads.sh [ROWS] [RUNS] [CPUS] [BUCKETS]  (defaults 4000000 5 0,1 4)
#
# BUCKETS 4 times the job's buckets on two threads at once; BUCKETS 1 one compaction spread
# over both (its runs decoded ahead and its pages compressed on the pool).
#
# The table: `k BIGINT, v1 BIGINT, v2 DOUBLE, v3 STRING`, primary key k, bucket = BUCKETS,
# write-only (nothing compacts while writing), written by the release build's
# `paimon write --format csv --commit-every ROWS/4` from rows made by awk (keys 0..ROWS-1 in
# a scrambled order): four level-0 runs per bucket that the full compaction merges into
# one.  Every run compacts a copy made before it (cp -r, not timed).  The runs are pinned
# to CPUS with taskset (both cores of this machine by default: one thread against two is
# the point).  Each figure is the median of RUNS runs: wall clock, CPU time (user +
# system), peak RSS (GNU time); MB/s is the bytes of the data files compacted (the input)
# per wall second, MB/s per core the same per CPU second; speedup = wall(threads 1) /
# wall(threads N).
# PEER=path/to/another/paimon adds that build's two runs to every round (a before/after
# comparison in the same minutes, on the same table).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-4000000}
runs=${2:-5}
cpus=${3:-0,1}
buckets=${4:-4}
dir=${BENCH_DIR:-build/release/bench-compact-threads}
[ "$buckets" = 4 ] || dir="$dir-b$buckets"
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
    --primary-key k --option bucket="$buckets" --option write-only=true >/dev/null
  "$paimon" write "$dir/t" --format csv --input "$dir/rows.csv" \
    --commit-every $((rows / 4)) >/dev/null
  rm -f "$dir/rows.csv"
  touch "$dir/rows-$rows"
fi
bytes=$(find "$dir/t" -name 'data-*' -exec cat {} + | wc -c)
echo "$rows rows, $(find "$dir/t" -name 'data-*' | wc -l) data files, $bytes bytes to" \
  "compact; $(nproc) processors online; pinned to CPUs $cpus;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$dir/t.1"; : > "$dir/t.2"; : > "$dir/p.1"; : > "$dir/p.2"
# one timed compaction of a fresh copy: binary, threads, file of figures
timed() {
  rm -rf "$dir/c"
  cp -r "$dir/t" "$dir/c"
  sync # the copy's write-back must not run on a CPU the timed job needs
  taskset -c "$cpus" /usr/bin/time -f '%e %U %S %M' -o "$dir/t.one" \
    "$1" compact "$dir/c" --full --threads "$2" > /dev/null
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
echo "after: $("$paimon" inspect "$dir/c" files --format jsonl | wc -l) live data files;" \
  "rows $("$paimon" cat "$dir/c" --format none) (before: $("$paimon" cat "$dir/t" --format none))"
rm -rf "$dir/c"
col() { awk -v c="$1" '{print $c}' "$2" | median; }
echo
printf '%-35s %8s %8s %9s %14s %10s %9s\n' "median of $runs runs" "wall s" "CPU s" "MB/s" \
  "MB/s per core" "peak MB" "speedup"
for who in t p; do
  [ "$who" = p ] && [ -z "${PEER:-}" ] && continue
  w1=$(col 1 "$dir/$who.1")
  for n in 1 2; do
    w=$(col 1 "$dir/$who.$n"); c=$(col 2 "$dir/$who.$n"); m=$(col 3 "$dir/$who.$n")
    printf '%-35s %8s %8s %9.1f %14.1f %10.0f %9.2f\n' \
      "$([ "$who" = p ] && echo "peer ")compact --full --threads $n" "$w" "$c" \
      "$(echo "$bytes $w" | awk '{print $1 / 1e6 / $2}')" \
      "$(echo "$bytes $c" | awk '{print $1 / 1e6 / $2}')" \
      "$(echo "$m" | awk '{print $1 / 1024}')" "$(echo "$w1 $w" | awk '{print $1 / $2}')"
  done
done
