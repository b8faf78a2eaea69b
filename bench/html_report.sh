#!/bin/sh
# Render time of `paimon inspect TABLE --html` (issue 18): a primary-key table of FILES live
# file entries over 100 buckets (tests/html/many_files.c commits them as one snapshot; the
# report reads metadata only), rendered RUNS times; the peer, in the same run, is
# `paimon inspect TABLE files --format jsonl`, which reads the same manifests and prints
# every file once.  Medians, one core (taskset -c 1), release build.
# usage: bench/html_report.sh [FILES] [RUNS]   (after make release)
set -eu
cd "$(dirname "$0")/.."
files=${1:-100000}; runs=${2:-5}
paimon=build/release/paimon
many=build/release/tests/html/html_many_files
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
$paimon create "$dir/one" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id \
  --option bucket=100 > /dev/null
echo '{"id":1,"v":"a"}' | $paimon write "$dir/one" > /dev/null
$paimon create "$dir/t" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id \
  --option bucket=100 --option write-only=true > /dev/null
$many "$dir/one" "$dir/t" "$files" > /dev/null

. bench/lib.sh
time_of() { # command... -> seconds
  s=$(date +%s.%N); taskset -c 1 "$@" > /dev/null; e=$(date +%s.%N)
  awk -v e="$e" -v s="$s" 'BEGIN {printf("%.3f\n", e - s)}'
}
: > "$dir/html"; : > "$dir/files"; i=0
while [ "$i" -lt "$runs" ]; do   # alternating, so both see the same load
  time_of $paimon inspect "$dir/t" --html "$dir/report.html" >> "$dir/html"
  time_of $paimon inspect "$dir/t" files --format jsonl >> "$dir/files"
  i=$((i + 1))
done
h=$(median < "$dir/html"); f=$(median < "$dir/files")
size=$(stat -c %s "$dir/report.html")
echo "inspect --html, $files files: median $h s, $(awk -v s="$size" 'BEGIN {printf("%.2f", s / 1048576)}') MB"
echo "inspect files --format jsonl (peer): median $f s"
awk -v h="$h" -v f="$f" 'BEGIN {printf("ratio (html / files) %.2f\n", h / f)}'
