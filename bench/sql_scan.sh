#!/bin/sh
# SQL over a Paimon table (issue 16, docs/SQL.md): `SELECT count(*), sum(x) FROM t WHERE
# k > -1` over ROWS rows (every row passes, so all are read) through the `paimon` module
# (`paimon sql`), against `paimon cat --where 'k > -1' --format none` of the same table
# (the same scan and filter, decoded and counted; no SQL engine) and
# against the same query on a native SQLite table holding the same rows, RUNS times each,
# interleaved; prints each run's wall seconds and the medians as rows/s.  Release build.
#   taskset -c 1 sh bench/sql_scan.sh [ROWS] [RUNS]     (defaults 10000000 3)
set -eu
ROWS=${1:-10000000}
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
"$P" create "$DIR/wh/b.db/t" --schema 'k BIGINT, x BIGINT' > /dev/null
"$P" write "$DIR/wh/b.db/t" --format csv --input "$DIR/rows.csv" > /dev/null
sqlite3 "$DIR/native.db" "CREATE TABLE t(k INTEGER, x INTEGER)" ".mode csv" \
  ".import --skip 1 $DIR/rows.csv t"
Q='SELECT count(*), sum(x) FROM %s WHERE k > -1'
module=$(printf "$Q" b.t)
native=$(printf "ATTACH '%s' AS n; $Q" "$DIR/native.db" n.t)
secs() { # secs NAME CMD...: runs CMD, appends its wall seconds to $DIR/NAME and its CPU
  name=$1; shift  # seconds (user + system, every thread) to $DIR/NAME.cpu
  /usr/bin/time -f '%e %U %S' -o "$DIR/t" "$@" > "$DIR/out.$name"
  awk '{print $1}' "$DIR/t" >> "$DIR/$name"
  awk '{print $2 + $3}' "$DIR/t" >> "$DIR/$name.cpu"
}
r=1
while [ "$r" -le "$RUNS" ]; do
  secs cat "$P" cat "$DIR/wh/b.db/t" --where 'k > -1' --format none
  secs module "$P" sql --warehouse "$DIR/wh" --format csv "$module"
  secs native "$P" sql --format csv "$native"
  echo "run $r: cat $(tail -1 "$DIR/cat") s, module $(tail -1 "$DIR/module") s, native $(tail -1 "$DIR/native") s"
  r=$((r + 1))
done
cmp -s "$DIR/out.module" "$DIR/out.native" || { echo "answers differ"; cat "$DIR/out.module" "$DIR/out.native"; exit 1; }
. "$(dirname "$0")/lib.sh"
# The machine may be shared: CPU seconds show the work, wall seconds what a user waits.
for name in cat module native; do
  m=$(median < "$DIR/$name"); c=$(median < "$DIR/$name.cpu")
  echo "$name: median $m s wall ($(awk -v r="$ROWS" -v s="$m" 'BEGIN {printf "%.0f", r / s}') rows/s), $c s CPU ($(awk -v r="$ROWS" -v s="$c" 'BEGIN {printf "%.0f", r / s}') rows/s)"
done
for t in "" .cpu; do
  awk -v c="$(median < "$DIR/cat$t")" -v m="$(median < "$DIR/module$t")" -v n="$(median < "$DIR/native$t")" -v t="${t:-.wall}" \
    'BEGIN {printf "%s: module / cat %.2fx, module / native %.2fx (rows/s ratios)\n", substr(t, 2), c / m, n / m}'
done
