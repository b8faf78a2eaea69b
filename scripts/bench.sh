#!/bin/sh
# Runs every benchmark of the release build (make bench).  Each prints its figures and the
# command line to record in docs/PERFORMANCE.md.
set -eu
cd "$(dirname "$0")/.."
for b in build/release/bench/bench_*; do
  [ -x "$b" ] || continue
  echo "== $b"
  "$b"
done
