#!/bin/sh
# The metadata-layer figure: 1,000,000-entry zstandard manifest of a primary-key table
# (two partition columns, BIGINT key, five value columns, full statistics) written by
# paimon-c and decoded on one core; avsc decodes the same file as the peer, in the same run.
# usage: bench/manifest.sh [ENTRIES] [RUNS]   (after make release; scripts/setup-node.sh for avsc)
set -eu
cd "$(dirname "$0")/.."
n=${1:-1000000}; runs=${2:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
taskset -c 0 ./build/release/bench/bench_manifest "$n" "$runs" "$tmp/manifest.avro" | tee "$tmp/out"
if [ -d tests/interop/node_modules/avsc ]; then
  taskset -c 0 node bench/avsc_decode.mjs "$tmp/manifest.avro" 3 | tee -a "$tmp/out"
  awk '/decode, streaming  / {c=$3} /avsc decode/ {a=$3} END { if (a && c) printf("ratio (avsc time / paimon-c streaming time) %.1fx\n", a / c) }' "$tmp/out"
fi
