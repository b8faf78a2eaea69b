#!/bin/sh
# Parquet scan and write figures of paimon-c beside DuckDB, one thread each, same run
# (docs/PERFORMANCE.md).  Usage: bench/parquet.sh [ROWS] [RUNS]   (default 10000000 5)
#
#  scan:  DuckDB writes ROWS rows with COPY (FORMAT parquet, COMPRESSION zstd), default row
#         groups; paimon-c decodes every column into batches; DuckDB (threads=1) computes
#         min and max of every column of the same file.  Then the same for the file
#         paimon-c writes from these rows.
#  write: paimon-c encodes the rows (held in memory as batches) with Java Paimon's
#         defaults; DuckDB (threads=1) runs COPY ... (FORMAT parquet, COMPRESSION zstd) from
#         an in-memory table.
# Runs alternate between the two (DuckDB, paimon-c, DuckDB, ...) so that a noisy machine
# slows both alike; each figure is the median of RUNS runs.  Ratios are DuckDB's median /
# paimon-c's median (above 1: paimon-c is faster).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-5}
dir=${BENCH_DIR:-build/release/bench-parquet}
mkdir -p "$dir"
if [ ! -x build/release/bench/bench_parquet ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j2 --target bench_parquet >/dev/null
fi
sh scripts/setup-node.sh build/release >/dev/null
bench=build/release/bench/bench_parquet
last() { tail -1 | awk '{print $2}'; }
. bench/lib.sh

node bench/parquet_bench.mjs make "$dir" "$rows" >/dev/null
: > "$dir/t.duck-scan"; : > "$dir/t.mine-scan"; : > "$dir/t.duck-write"; : > "$dir/t.mine-write"
: > "$dir/t.duck-scan2"; : > "$dir/t.mine-scan2"
i=0
while [ $i -lt "$runs" ]; do
  i=$((i + 1))
  node bench/parquet_bench.mjs scan "$dir/duck.parquet" 1 | last >> "$dir/t.duck-scan"
  $bench scan "$dir/duck.parquet" 1 | last >> "$dir/t.mine-scan"
  node bench/parquet_bench.mjs write "$dir" "$rows" 1 | last >> "$dir/t.duck-write"
  $bench write "$dir/duck.parquet" "$dir/paimon.parquet" 1 | last >> "$dir/t.mine-write"
  node bench/parquet_bench.mjs scan "$dir/paimon.parquet" 1 | last >> "$dir/t.duck-scan2"
  $bench scan "$dir/paimon.parquet" 1 | last >> "$dir/t.mine-scan2"
  echo "run $i: scan $(tail -1 "$dir/t.duck-scan")/$(tail -1 "$dir/t.mine-scan")" \
       "write $(tail -1 "$dir/t.duck-write")/$(tail -1 "$dir/t.mine-write")" \
       "scan2 $(tail -1 "$dir/t.duck-scan2")/$(tail -1 "$dir/t.mine-scan2") (DuckDB/paimon-c s)"
done
d1=$(median < "$dir/t.duck-scan"); p1=$(median < "$dir/t.mine-scan")
d2=$(median < "$dir/t.duck-write"); p2=$(median < "$dir/t.mine-write")
d3=$(median < "$dir/t.duck-scan2"); p3=$(median < "$dir/t.mine-scan2")
echo
echo "$rows rows; DuckDB's file $(wc -c < "$dir/duck.parquet") bytes, paimon-c's $(wc -c < "$dir/paimon.parquet") bytes; medians of $runs runs"
printf '%-24s %10s %10s %7s\n' "seconds" "DuckDB" "paimon-c" "ratio"
printf '%-24s %10s %10s %7.2f\n' "scan DuckDB's file" "$d1" "$p1" "$(echo "$d1 $p1" | awk '{print $1/$2}')"
printf '%-24s %10s %10s %7.2f\n' "scan paimon-c's file" "$d3" "$p3" "$(echo "$d3 $p3" | awk '{print $1/$2}')"
printf '%-24s %10s %10s %7.2f\n' "write" "$d2" "$p2" "$(echo "$d2 $p2" | awk '{print $1/$2}')"
