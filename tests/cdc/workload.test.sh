# The workload test (issue 17): random inserts, updates, primary-key changes, deletes and
# multi-statement transactions run against PostgreSQL while `paimon cdc postgres` runs; at
# the end the Paimon table equals SELECT * FROM the source (paimon cat and the oracle), and
# `paimon tail` of the table (changelog-producer=input) holds exactly one change record per
# row change PostgreSQL made (counted by a trigger into a table outside the publication):
# none lost, none applied twice.  The slot's confirmed flush LSN is not behind the table's.
set -u
. "${CDC_LIB_DIR:-$(dirname "$0")}/lib.sh"
pg_start || cdc_fail "pg_start"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT

pg_sql "CREATE SEQUENCE ids; CREATE TABLE t (id bigint PRIMARY KEY DEFAULT nextval('ids'), k int, v text, cnt bigint NOT NULL DEFAULT 0);
CREATE TABLE ops (n bigint);
CREATE FUNCTION count_ops() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
  IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN INSERT INTO ops VALUES (2); ELSE INSERT INTO ops VALUES (1); END IF;
  RETURN NULL; END \$\$;
CREATE TRIGGER t_ops AFTER INSERT OR UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION count_ops();
INSERT INTO t (id, k, v) SELECT nextval('ids'), g % 100, md5(g::text) FROM generate_series(1, 2000) g;" ||
  cdc_fail "setup"

"$PAIMON" cdc postgres --dsn "$PG_DSN" --table public.t --into "$W/t" --create \
  --option changelog-producer=input --option bucket=2 --idle-exit 3s 2>"$W/cdc.err" &
CDC=$!
# the copy first (its snapshot point decides which changes it holds; the crash test covers
# changes during the copy), then two clients at once while the command streams
for _ in $(seq 100); do
  [ -n "$("$PAIMON" inspect "$W/t" snapshots --format jsonl 2>/dev/null)" ] && break
  sleep 0.2
done
python3 "$CDC_LIB_DIR/workload.py" 1 400 | psql -X -q >/dev/null 2>"$W/w1.err" &
W1=$!
python3 "$CDC_LIB_DIR/workload.py" 2 400 | psql -X -q >/dev/null 2>"$W/w2.err" &
W2=$!
wait $W1 || cdc_fail "workload 1: $(head -3 "$W/w1.err")"
wait $W2 || cdc_fail "workload 2: $(head -3 "$W/w2.err")"
wait $CDC || cdc_fail "paimon cdc postgres: $(cat "$W/cdc.err")"

cdc_same "$W/t" t || exit 1
expected=$(pg_sql "SELECT coalesce(sum(n), 0) FROM ops")
# the copy's rows (+I each) and one record per change after it: ops counts both, as the
# trigger also saw the initial inserts
changes=$("$PAIMON" tail "$W/t" --from earliest --format jsonl | wc -l)
[ "$changes" = "$expected" ] ||
  cdc_fail "the changelog has $changes records, PostgreSQL made $expected row changes"
# replaying the changelog gives the final state
"$PAIMON" tail "$W/t" --from earliest --format jsonl | python3 -c '
import json, sys
state = {}
for line in sys.stdin:
    r = json.loads(line); kind = r.pop("_ROW_KIND")
    if kind in ("+I", "+U"): state[r["id"]] = r
    elif kind == "-D": state.pop(r["id"], None)
for r in state.values(): print(json.dumps(r))' | cdc__normalize >"$W/replay"
cdc_rows_pg t "$W/pg"
cmp -s "$W/replay" "$W/pg" || cdc_fail "replaying paimon tail does not give the source's rows"

lsn=$(cdc_table_lsn "$W/t")
[ -n "$lsn" ] || cdc_fail "the latest snapshot has no cdc.postgres.lsn property"
[ "$(pg_sql "SELECT confirmed_flush_lsn >= '$lsn'::pg_lsn FROM pg_replication_slots WHERE slot_name = 'paimon_public_t'")" = t ] ||
  cdc_fail "the slot's confirmed flush LSN is behind the table's $lsn"
echo "PASS workload: $(pg_sql 'SELECT count(*) FROM t') rows, $changes change records, table LSN $lsn"
