#!/bin/sh
# INSERT through the `paimon` module (issue 16, docs/SQL.md): `INSERT INTO t SELECT k, x FROM
# n.t` of ROWS rows from a native SQLite table into a new Paimon append table (one
# transaction, one commit), against `paimon write --format csv` of the same rows into a new
# table, RUNS times each, interleaved; prints each run's wall seconds and the medians as
# rows/s.  Release build.
#   taskset -c 1 sh bench/sql_insert.sh [ROWS] [RUNS]     (defaults 1000000 3)
set -eu
ROWS=${1:-1000000}
RUNS=${2:-3}
P=$(cd "$(dirname "$0")/.." && pwd)/build/release/paimon
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 - "$DIR/rows.csv" "$ROWS" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("k,x\n")
    for i in range(int(sys.argv[2])):
        f.write("%d,%d\n" % (i, (i * 7919) % 1000003))
PY
sqlite3 "$DIR/native.db" "CREATE TABLE t(k INTEGER, x INTEGER)" ".mode csv" \
  ".import --skip 1 $DIR/rows.csv t"
secs() { # secs NAME CMD...: runs CMD, appends its wall seconds to $DIR/NAME and its CPU
  name=$1; shift  # seconds (user + system, every thread) to $DIR/NAME.cpu
  /usr/bin/time -f '%e %U %S' -o "$DIR/t" "$@" > /dev/null
  awk '{print $1}' "$DIR/t" >> "$DIR/$name"
  awk '{print $2 + $3}' "$DIR/t" >> "$DIR/$name.cpu"
}
r=1
while [ "$r" -le "$RUNS" ]; do
  rm -rf "$DIR/a" "$DIR/b"
  "$P" create "$DIR/a" --schema 'k BIGINT, x BIGINT' > /dev/null
  "$P" create "$DIR/b" --schema 'k BIGINT, x BIGINT' > /dev/null
  secs sql "$P" sql "ATTACH '$DIR/native.db' AS n; CREATE VIRTUAL TABLE d USING paimon('$DIR/a');
                     INSERT INTO d SELECT k, x FROM n.t"
  secs write "$P" write "$DIR/b" --format csv --input "$DIR/rows.csv"
  echo "run $r: sql insert $(tail -1 "$DIR/sql") s, paimon write $(tail -1 "$DIR/write") s"
  r=$((r + 1))
done
[ "$("$P" cat "$DIR/a" --format none)" = "$("$P" cat "$DIR/b" --format none)" ] ||
  { echo "row counts differ"; exit 1; }
. "$(dirname "$0")/lib.sh"
# The machine may be shared: CPU seconds show the work, wall seconds what a user waits.
for name in sql write; do
  m=$(median < "$DIR/$name"); c=$(median < "$DIR/$name.cpu")
  echo "$name: median $m s wall ($(awk -v r="$ROWS" -v s="$m" 'BEGIN {printf "%.0f", r / s}') rows/s), $c s CPU ($(awk -v r="$ROWS" -v s="$c" 'BEGIN {printf "%.0f", r / s}') rows/s)"
done
for t in "" .cpu; do
  awk -v w="$(median < "$DIR/write$t")" -v s="$(median < "$DIR/sql$t")" -v t="${t:-.wall}" \
    'BEGIN {printf "%s: sql insert / paimon write %.2fx (rows/s ratio)\n", substr(t, 2), w / s}'
done
