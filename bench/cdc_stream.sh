#!/bin/bash
# paimon cdc postgres, streaming: single-row INSERT transactions from 4 concurrent
# PostgreSQL clients (pgbench -c 4), applied by the release build's `paimon cdc postgres`
# (pinned with taskset -c 1, default commit interval 1 s) into a primary-key table.
#   1. sustained: pgbench as fast as it goes for SECS seconds; changes/s = rows / (time from
#      the start until the Paimon table holds them all);
#   2. lag at RATE changes/s (pgbench -R) for SECS seconds: each row carries its insert time
#      (clock_timestamp(), microseconds); its lag is the commit time of the Paimon snapshot
#      that holds it (the snapshot's timeMillis) minus that time; p50 and p99 over all rows.
#   bash bench/cdc_stream.sh [SECS] [RATE]     (defaults 20 10000)
set -eu
SECS=${1:-20}
RATE=${2:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=$ROOT/build/release/paimon
PGBENCH=${PG_BIN:-/usr/lib/postgresql/15/bin}/pgbench
. "$ROOT/tests/cdc/pg.sh"
pg_start -c max_connections=50
DIR=$(mktemp -d)
CDC=
trap '[ -n "$CDC" ] && kill $CDC 2>/dev/null; pg_stop; rm -rf "$DIR"' EXIT

rows() { "$P" cat "$1" --format none 2>/dev/null || echo 0; }

# run NAME PGBENCH_ARGS...: a table NAME, the command following it, pgbench, then the wait
# until the table has every row; prints the figures of the run
run() {
  local name=$1 t0 t1 t2 n
  shift
  pg_sql "CREATE TABLE $name (id bigserial PRIMARY KEY, ts_us bigint, v text)"
  printf "INSERT INTO %s (ts_us, v) VALUES ((extract(epoch from clock_timestamp()) * 1000000)::bigint, 'payload-0123456789');\n" "$name" >"$DIR/$name.sql"
  taskset -c 1 "$P" cdc postgres --dsn "$PG_DSN" --table "public.$name" --into "$DIR/$name" --create \
    --option bucket=2 2>"$DIR/$name.err" &
  CDC=$!
  until [ -n "$("$P" inspect "$DIR/$name" snapshots --format jsonl 2>/dev/null)" ] ||
    [ -n "$(pg_sql "SELECT 1 FROM pg_replication_slots WHERE active")" ]; do sleep 0.1; done
  sleep 1
  t0=$(date +%s.%N)
  "$PGBENCH" -n -c 4 -j 2 -T "$SECS" "$@" -f "$DIR/$name.sql" >"$DIR/$name.pgbench" 2>&1
  t1=$(date +%s.%N)
  n=$(pg_sql "SELECT count(*) FROM $name")
  until [ "$(rows "$DIR/$name")" -ge "$n" ]; do sleep 0.2; done
  t2=$(date +%s.%N)
  kill -TERM $CDC; wait $CDC; CDC=
  python3 - "$name" "$n" "$t0" "$t1" "$t2" <<'PY'
import sys
name, n, t0, t1, t2 = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
print("%s: %d single-row transactions in %.1f s by pgbench (%.0f/s); in Paimon %.1f s after the start (%.0f changes/s sustained), %.2f s after pgbench ended"
      % (name, n, t1 - t0, n / (t1 - t0), t2 - t0, n / (t2 - t0), t2 - t1))
PY
}

run sustained
run paced -R "$RATE"

# the lag of every row of the paced run
"$P" inspect "$DIR/paced" snapshots --format jsonl >"$DIR/snaps"
python3 - "$DIR/snaps" "$P" "$DIR/paced" <<'PY'
import json, subprocess, sys
snaps = [json.loads(l) for l in open(sys.argv[1])]
lags = []
for s in snaps:
    if s["commitKind"] != "APPEND":   # the copy of the empty table made no snapshot
        continue
    out = subprocess.run([sys.argv[2], "tail", sys.argv[3], "--from", "snapshot:%d" % s["id"],
                          "--to", "snapshot:%d" % s["id"], "--select", "ts_us", "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    for line in out[1:]:
        kind, ts = line.split(",")
        lags.append(s["timeMillis"] - int(ts) / 1000.0)
lags.sort()
def pct(p): return lags[min(len(lags) - 1, int(p / 100.0 * len(lags)))]
print("paced: lag from the INSERT to the Paimon commit over %d rows in %d commits: p50 %.0f ms, p99 %.0f ms, max %.0f ms"
      % (len(lags), sum(1 for s in snaps if s["commitKind"] == "APPEND"), pct(50), pct(99), lags[-1]))
PY
