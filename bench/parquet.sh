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
# Ratios are DuckDB's median time / paimon-c's median time (above 1: paimon-c is faster).
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
med() { tail -1 | awk '{print $2}'; }

node bench/parquet_bench.mjs make "$dir" "$rows" >/dev/null
echo "== scan of DuckDB's file ($rows rows, $(wc -c < "$dir/duck.parquet") bytes)"
d1=$(node bench/parquet_bench.mjs scan "$dir/duck.parquet" "$runs" | tee /dev/stderr | med)
p1=$($bench scan "$dir/duck.parquet" "$runs" | tee /dev/stderr | med)
echo "== write"
p2=$($bench write "$dir/duck.parquet" "$dir/paimon.parquet" "$runs" | tee /dev/stderr | med)
d2=$(node bench/parquet_bench.mjs write "$dir" "$rows" "$runs" | tee /dev/stderr | med)
echo "== scan of paimon-c's file ($(wc -c < "$dir/paimon.parquet") bytes)"
d3=$(node bench/parquet_bench.mjs scan "$dir/paimon.parquet" "$runs" | tee /dev/stderr | med)
p3=$($bench scan "$dir/paimon.parquet" "$runs" | tee /dev/stderr | med)
echo
printf '%-28s %10s %10s %7s\n' "median seconds" "DuckDB" "paimon-c" "ratio"
printf '%-28s %10s %10s %7.2f\n' "scan DuckDB's file" "$d1" "$p1" "$(echo "$d1 $p1" | awk '{print $1/$2}')"
printf '%-28s %10s %10s %7.2f\n' "scan paimon-c's file" "$d3" "$p3" "$(echo "$d3 $p3" | awk '{print $1/$2}')"
printf '%-28s %10s %10s %7.2f\n' "write" "$d2" "$p2" "$(echo "$d2 $p2" | awk '{print $1/$2}')"
