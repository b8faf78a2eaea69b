#!/bin/bash
# paimon cdc postgres, initial copy: ROWS rows of a PostgreSQL table copied into a new
# primary-key table (bucket = 4) by the release build's `paimon cdc postgres --create
# --idle-exit 0` (slot, exported snapshot, COPY, one commit), against `paimon write` of the
# same rows from JSONL (the peer), RUNS times each, interleaved, the paimon processes pinned
# with taskset -c 1; prints wall time, CPU time and peak RSS (GNU time) of each run.  The
# PostgreSQL server is a private one (tests/cdc/pg.sh), unpinned.
#   bash bench/cdc_copy.sh [ROWS] [RUNS]     (defaults 5000000 3)
set -eu
ROWS=${1:-5000000}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=$ROOT/build/release/paimon
. "$ROOT/tests/cdc/pg.sh"
pg_start
DIR=$(mktemp -d)
trap 'pg_stop; rm -rf "$DIR"' EXIT
pg_sql "CREATE TABLE src (k bigint PRIMARY KEY, v1 bigint, v2 double precision, v3 int, v4 text, v5 timestamp(3));
INSERT INTO src SELECT g, (g * 7919) % 1000000000, ((g * 31) % 100000) / 100.0, g % 100000,
  'name-' || (g * 13) % 100000000, timestamp '2024-01-01' + (g % 86400000) * interval '1 ms'
FROM generate_series(1::bigint, $ROWS) g"
pg_sql "VACUUM ANALYZE src"
# the same rows as canonical JSONL for paimon write
psql -X -q -At -c "COPY (SELECT json_build_object('k', k, 'v1', v1, 'v2', v2, 'v3', v3, 'v4', v4,
  'v5', to_char(v5, 'YYYY-MM-DD HH24:MI:SS.MS')) FROM src) TO STDOUT" >"$DIR/rows.jsonl"
echo "input: $ROWS rows, $(wc -c <"$DIR/rows.jsonl") bytes of JSONL"
COLS='k BIGINT NOT NULL, v1 BIGINT, v2 DOUBLE, v3 INT, v4 STRING, v5 TIMESTAMP(3)'
r=1
while [ "$r" -le "$RUNS" ]; do
  rm -rf "$DIR/w" "$DIR/c"
  "$P" create "$DIR/w" --schema "$COLS" --primary-key k --option bucket=4 >/dev/null
  /usr/bin/time -f "paimon write run $r: %e s wall, %U s user + %S s system, %M KB peak RSS" \
    taskset -c 1 "$P" write "$DIR/w" --input "$DIR/rows.jsonl" >/dev/null
  /usr/bin/time -f "paimon cdc postgres run $r: %e s wall, %U s user + %S s system, %M KB peak RSS" \
    taskset -c 1 "$P" cdc postgres --dsn "$PG_DSN" --table public.src --into "$DIR/c" --create \
    --option bucket=4 --idle-exit 0
  [ "$("$P" cat "$DIR/c" --format none)" = "$("$P" cat "$DIR/w" --format none)" ] ||
    { echo "the two tables differ in row count"; exit 1; }
  r=$((r + 1))
done
