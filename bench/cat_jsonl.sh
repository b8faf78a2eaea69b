#!/bin/sh
# Printing rows: `paimon cat --format jsonl` beside DuckDB's JSON export of the same rows, one
# thread each, same run (issue 19 item 14; docs/PERFORMANCE.md "Printing rows").
#   taskset -c 1 sh bench/cat_jsonl.sh [ROWS] [RUNS] [KIND]     (defaults 10000000 3 double)
#
# KIND double: an append table (k BIGINT, x DOUBLE), every x a full-precision double (16-17
# significant digits: the costly case for printing); KIND wide: the six columns of
# bench/parquet.sh (BIGINT, INT, DOUBLE with 20% nulls, STRING, DECIMAL(18, 2), TIMESTAMP(6)).
# DuckDB makes the rows as CSV (bench/cat_jsonl.mjs make), the release build's `paimon write`
# commits them once into a new table (Parquet + zstd, Java's defaults).  Then RUNS times,
# alternating:
#   DuckDB (threads=1):  COPY (SELECT * FROM read_parquet('TABLE/bucket-0/*.parquet'))
#                        TO '/dev/null' (FORMAT json): the same data files, decoded and
#                        printed as one JSON object a row; timed inside node, query only;
#   paimon-c:            paimon cat TABLE --format jsonl > /dev/null, the whole process;
#   PAIMON_BEFORE=BIN:   the same with another `paimon` binary (an older build), if given.
# Each figure is the median of RUNS runs, wall clock and CPU time (user + system: the fairer
# one on a loaded machine); ratio = DuckDB / paimon-c (the target of issue 19 is >= 0.5).
set -eu
cd "$(dirname "$0")/.."
rows=${1:-10000000}
runs=${2:-3}
kind=${3:-double}
dir=${BENCH_DIR:-build/release/bench-cat-$kind}
paimon=build/release/paimon
before=${PAIMON_BEFORE:-}
if [ ! -x "$paimon" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j2 --target paimon_cli >/dev/null
fi
sh scripts/setup-node.sh build/release >/dev/null
. bench/lib.sh
seconds() { # seconds BIN...: "WALL CPU" of one run (CPU = user + system), output discarded
  /usr/bin/time -f '%e %U %S' -o "$dir/t.one" "$@" > /dev/null
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$dir/t.one"
}
if [ ! -f "$dir/rows-$rows" ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  node bench/cat_jsonl.mjs make "$dir" "$rows" "$kind"
  case $kind in
    double) schema='k BIGINT, x DOUBLE' ;;
    wide) schema='id BIGINT, n INT, x DOUBLE, s STRING, dec DECIMAL(18, 2), ts TIMESTAMP(6)' ;;
    *) echo "cat_jsonl.sh: KIND is double or wide" >&2; exit 2 ;;
  esac
  "$paimon" create "$dir/t" --schema "$schema" >/dev/null
  "$paimon" write "$dir/t" --format csv --input "$dir/rows.csv" >/dev/null
  rm -f "$dir/rows.csv"
  touch "$dir/rows-$rows"
fi
files="$dir/t/bucket-0/*.parquet"
echo "$rows rows ($kind), $(ls $files | wc -l) data files, $(cat $files | wc -c) bytes"
echo "paimon-c: $("$paimon" cat "$dir/t" --limit 1)"
: > "$dir/t.duck"; : > "$dir/t.mine"; : > "$dir/t.before"
i=0
while [ $i -lt "$runs" ]; do
  i=$((i + 1))
  node bench/cat_jsonl.mjs export "$files" >> "$dir/t.duck"
  seconds "$paimon" cat "$dir/t" --format jsonl >> "$dir/t.mine"
  line="run $i (wall s, CPU s): DuckDB $(tail -1 "$dir/t.duck"), paimon-c $(tail -1 "$dir/t.mine")"
  if [ -n "$before" ]; then
    seconds "$before" cat "$dir/t" --format jsonl >> "$dir/t.before"
    line="$line, before $(tail -1 "$dir/t.before")"
  fi
  echo "$line"
done
col() { awk -v c="$1" '{print $c}' "$2" | median; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }
dw=$(col 1 "$dir/t.duck"); dc=$(col 2 "$dir/t.duck")
echo
printf '%-36s %8s %8s %13s %13s\n' "median of $runs runs (seconds)" "wall" "CPU" "DuckDB/this" "(CPU)"
printf '%-36s %8s %8s\n' "DuckDB JSON export" "$dw" "$dc"
for who in mine before; do
  [ -s "$dir/t.$who" ] || continue
  w=$(col 1 "$dir/t.$who"); c=$(col 2 "$dir/t.$who")
  name="paimon cat --format jsonl"
  [ "$who" = before ] && name="before: $before"
  printf '%-36s %8s %8s %13s %13s\n' "$name" "$w" "$c" "$(ratio "$dw" "$w")" "$(ratio "$dc" "$c")"
done
