#!/bin/sh
# Throughput on S3 against local disk (issue 14, docs/PERFORMANCE.md "Throughput on S3"):
# a ROWS-row write (`paimon write`, CSV input, one commit) into a new append table, and a
# full scan of it (`paimon cat --format csv > /dev/null`), on local disk and on the test S3
# server (tests/s3: s3rver behind the proxy, on 127.0.0.1, pinned to CPU 0), then on S3 with
# the proxy adding 20 ms to every request. paimon runs pinned to CPU 1 (taskset), the
# release build. RUNS runs of each, interleaved; medians of wall time.
#   sh bench/s3_throughput.sh [ROWS] [RUNS]          (defaults 10000000 3)
#   PEER=/other/build/release/paimon sh bench/s3_throughput.sh ...
#     also times the S3 runs with another build (a baseline, e.g. main) in the same runs,
#     interleaved, and prints its medians and ratios next to this build's.
# ratio = local time / S3 time (1.0 = as fast as local disk; the targets are >= 0.7, and
# >= 0.5 with 20 ms of latency).
set -u
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-3}
P=$PWD/build/release/paimon
[ -x "$P" ] || { echo "no $P (cmake --build --preset release)"; exit 1; }
sh scripts/setup-node.sh build/release > /dev/null || exit 1
S3_LIB_DIR=$PWD/tests/s3
S3_NODE="taskset -c 0 node"
. tests/s3/lib.sh
s3_start || exit 1
dir=$(mktemp -d "${TMPDIR:-/tmp}/s3bench.XXXXXX"); trap 's3_stop; rm -rf "$dir"' EXIT
. bench/lib.sh
COLS=$S3_BENCH_COLS
s3_bench_rows "$rows" "$dir/rows.csv"
echo "input: $rows rows, $(wc -c < "$dir/rows.csv") bytes of CSV"
timed() { # timed LABEL CMD...: appends "WALL" to $dir/LABEL, prints the run
  /usr/bin/time -f '%e %U %S' -o "$dir/t.one" taskset -c 1 "$@" > /dev/null 2> "$dir/err" ||
    { echo "FAILED $1: $(cat "$dir/err")"; return 1; }
  read -r wall user sys < "$dir/t.one"
  echo "$wall" >> "$dir/$label"
  printf '  %-14s %7.2f s wall  %6.2f s cpu\n' "$label" "$wall" "$(echo "$user + $sys" | bc)"
}
r=1
while [ "$r" -le "$runs" ]; do
  echo "run $r"
  rm -rf "$dir/local"
  "$P" create "$dir/local" --schema "$COLS" > /dev/null
  "$P" create "s3://$S3_BUCKET/r$r" --schema "$COLS" > /dev/null
  "$P" create "s3://$S3_BUCKET/l$r" --schema "$COLS" > /dev/null
  label=write-local timed "$P" write "$dir/local" --input "$dir/rows.csv" --format csv
  label=write-s3 timed "$P" write "s3://$S3_BUCKET/r$r" --input "$dir/rows.csv" --format csv
  label=scan-local timed "$P" cat "$dir/local" --format csv
  label=scan-s3 timed "$P" cat "s3://$S3_BUCKET/r$r" --format csv
  if [ -n "${PEER:-}" ]; then
    "$PEER" create "s3://$S3_BUCKET/pr$r" --schema "$COLS" > /dev/null
    "$PEER" create "s3://$S3_BUCKET/pl$r" --schema "$COLS" > /dev/null
    label=write-peer-s3 timed "$PEER" write "s3://$S3_BUCKET/pr$r" --input "$dir/rows.csv" --format csv
    label=scan-peer-s3 timed "$PEER" cat "s3://$S3_BUCKET/pr$r" --format csv
  fi
  s3_latency 20 > /dev/null
  label=write-s3-20ms timed "$P" write "s3://$S3_BUCKET/l$r" --input "$dir/rows.csv" --format csv
  label=scan-s3-20ms timed "$P" cat "s3://$S3_BUCKET/l$r" --format csv
  if [ -n "${PEER:-}" ]; then
    label=write-peer-s3-20ms timed "$PEER" write "s3://$S3_BUCKET/pl$r" --input "$dir/rows.csv" --format csv
    label=scan-peer-s3-20ms timed "$PEER" cat "s3://$S3_BUCKET/pl$r" --format csv
  fi
  s3_clear > /dev/null
  r=$((r + 1))
done
# the tables are the same size on both sides
echo "local table: $(du -sb "$dir/local" | cut -f1) bytes; data files: $(ls "$dir/local"/bucket-0 | wc -l)"
echo "medians (wall, s) and ratio local/S3:"
for op in write scan; do
  l=$(median < "$dir/$op-local")
  for v in s3 s3-20ms ${PEER:+peer-s3 peer-s3-20ms}; do
    s=$(median < "$dir/$op-$v")
    printf '  %-5s local %7.2f  %-12s %7.2f  ratio %.2f\n' "$op" "$l" "$v" "$s" "$(echo "$l / $s" | bc -l)"
  done
done
