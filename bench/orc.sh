#!/bin/sh
# ORC scan and write figures of paimon-c beside its own Parquet, one thread, same process,
# runs interleaved (docs/PERFORMANCE.md, "ORC").  Usage: bench/orc.sh [ROWS] [RUNS]
# (default 10000000 5).
#
# The rows are the Parquet benchmark's (bench/parquet.sh): DuckDB makes ROWS rows of
# id BIGINT, n INT, x DOUBLE (20% nulls), s STRING (16 bytes), dec DECIMAL(18, 2),
# ts TIMESTAMP(6) and writes them to duck.parquet; bench_orc reads them into memory and
# times paimon-c's Parquet and ORC writers and readers on them (see bench/bench_orc.c).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-5}
dir=${BENCH_DIR:-build/release/bench-orc}
mkdir -p "$dir"
if [ ! -x build/release/bench/bench_orc ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j2 --target bench_orc >/dev/null
fi
if [ ! -f "$dir/duck.parquet" ] || [ "$(cat "$dir/rows" 2>/dev/null)" != "$rows" ]; then
  sh scripts/setup-node.sh build/release >/dev/null
  node bench/parquet_bench.mjs make "$dir" "$rows" >/dev/null
  echo "$rows" > "$dir/rows"
fi
build/release/bench/bench_orc "$dir/duck.parquet" "$dir" "$runs"
