#!/bin/sh
# paimon write end to end: ROWS rows of JSONL (python3, seeded) parsed, written and committed
# by the release build's `paimon write`, a commit every 1,000,000 rows, into a primary-key
# table (bucket = 4) and an append table, RUNS times each, interleaved; prints wall time,
# CPU time and peak RSS (GNU time) of each run.
#   sh bench/write_cli.sh [ROWS] [RUNS]     (defaults 2000000 3)
set -eu
ROWS=${1:-2000000}
RUNS=${2:-3}
P=$(cd "$(dirname "$0")/.." && pwd)/build/release/paimon
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 - "$DIR/rows.jsonl" "$ROWS" <<'PY'
import random, sys
random.seed(7)
keys = max(1, int(sys.argv[2]) // 5)
with open(sys.argv[1], 'w') as f:
    for i in range(int(sys.argv[2])):
        f.write('{"k":%d,"v1":%d,"v2":%s,"v3":%d,"v4":"name-%d","v5":"2024-%02d-%02d %02d:%02d:%02d.%03d"}\n' % (
            random.randrange(keys), random.randrange(10**9), repr(random.randrange(10**6) / 100),
            random.randrange(100000), random.randrange(10**8), random.randint(1, 12),
            random.randint(1, 28), random.randrange(24), random.randrange(60),
            random.randrange(60), random.randrange(1000)))
PY
echo "input: $ROWS rows, $(wc -c < "$DIR/rows.jsonl") bytes of JSONL"
COLS='k BIGINT, v1 BIGINT, v2 DOUBLE, v3 INT, v4 STRING, v5 TIMESTAMP(3)'
r=1
while [ "$r" -le "$RUNS" ]; do
  rm -rf "$DIR/pk" "$DIR/ap"
  "$P" create "$DIR/pk" --schema "$COLS" --primary-key k --option bucket=4 > /dev/null
  "$P" create "$DIR/ap" --schema "$COLS" > /dev/null
  /usr/bin/time -f "primary-key run $r: %e s wall, %U s user + %S s system, %M KB peak RSS" \
    "$P" write "$DIR/pk" --input "$DIR/rows.jsonl" --commit-every 1000000 > /dev/null
  /usr/bin/time -f "append run $r: %e s wall, %U s user + %S s system, %M KB peak RSS" \
    "$P" write "$DIR/ap" --input "$DIR/rows.jsonl" --commit-every 1000000 > /dev/null
  r=$((r + 1))
done
