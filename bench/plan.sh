#!/bin/sh
# Planning figure (issue 5): a table of FILES live files over PARTS partitions, planned in
# full and for one partition by paimon-c (bench_plan); the oracle (avsc, an independent
# reader) lists the same table's live files as the peer, in the same run.
# usage: bench/plan.sh [FILES] [PARTS] [RUNS]   (after make release; scripts/setup-node.sh)
set -eu
cd "$(dirname "$0")/.."
files=${1:-100000}; parts=${2:-1000}; runs=${3:-5}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
./build/release/bench/bench_plan "$files" "$parts" "$runs" "$dir/bench" | tee "$dir/out"
oracle=build/release/oracle/oracle.mjs
[ -f "$oracle" ] || oracle=build/debug/oracle/oracle.mjs
if [ -f "$oracle" ]; then
  i=0; : > "$dir/times"
  while [ "$i" -lt "$runs" ]; do
    s=$(date +%s.%N); node "$oracle" "$dir/bench/t" --files > /dev/null; e=$(date +%s.%N)
    awk -v e="$e" -v s="$s" 'BEGIN {print e - s}' >> "$dir/times"; i=$((i + 1))
  done
  m=$(sort -n "$dir/times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "oracle --files (avsc): median $m s"
  awk -v o="$m" '/plan, full:/ {printf("ratio (oracle time / paimon-c full plan time) %.1fx\n", o / $4)}' "$dir/out"
fi
