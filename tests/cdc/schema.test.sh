# Schema changes while `paimon cdc postgres` streams (issue 17): ALTER TABLE ADD COLUMN shows
# up as a new nullable Paimon column, NULL in the rows before it (also when the column is
# added in the middle of a transaction, or while the command is down between two changes); a dropped column and a retyped column stop the run
# with a clear error (exit 1) before the transaction that carries them is committed.
set -u
. "${CDC_LIB_DIR:-$(dirname "$0")}/lib.sh"
pg_start || cdc_fail "pg_start"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT

wait_snapshots() { # TABLE N: until the table has N snapshots
  for _ in $(seq 100); do
    [ "$("$PAIMON" inspect "$1" snapshots --format jsonl 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    sleep 0.1
  done
  cdc_fail "$1 never reached $2 snapshots"
}

pg_sql "CREATE TABLE t (id int PRIMARY KEY, a text); INSERT INTO t VALUES (1, 'one'), (2, 'two')" || cdc_fail setup
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table t --into "$W/t" --create --idle-exit 5s 2>"$W/err" &
CDC=$!
wait_snapshots "$W/t" 1
pg_sql "INSERT INTO t VALUES (3, 'three')"
pg_sql "ALTER TABLE t ADD COLUMN b int"
pg_sql "INSERT INTO t VALUES (4, 'four', 44); UPDATE t SET b = 11 WHERE id = 1"
pg_sql "BEGIN; INSERT INTO t VALUES (5, 'five', 55); ALTER TABLE t ADD COLUMN c text; INSERT INTO t VALUES (6, 'six', 66, 'c6'); COMMIT"
wait $CDC || cdc_fail "paimon cdc postgres: $(cat "$W/err")"
cdc_same "$W/t" t || exit 1
"$PAIMON" inspect "$W/t" schemas --format jsonl | tail -1 | grep -q '"name":"c","type":"STRING"' ||
  cdc_fail "no column c in the latest schema"
[ "$("$PAIMON" cat "$W/t" --where 'id = 2' --format jsonl)" = '{"id":2,"a":"two","b":null,"c":null}' ] ||
  cdc_fail "row 2 should have nulls in the new columns: $("$PAIMON" cat "$W/t" --where 'id = 2' --format jsonl)"

# a column added while the command is down, between two changes: the restart adds it from
# the catalog, and the change before it (whose Relation lacks it) still applies
pg_sql "INSERT INTO t VALUES (20, 'twenty', 20, 'c20')"
pg_sql "ALTER TABLE t ADD COLUMN d bigint"
pg_sql "INSERT INTO t VALUES (21, 'twenty-one', 21, 'c21', 2121)"
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table t --into "$W/t" --idle-exit 3s 2>"$W/err" ||
  cdc_fail "a column added while down: $(cat "$W/err")"
cdc_same "$W/t" t || exit 1

# a dropped column: the run stops with exit 1; the transaction is not in the table
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table t --into "$W/t" --idle-exit 10s 2>"$W/err" &
CDC=$!
sleep 1
before=$("$PAIMON" inspect "$W/t" snapshots --format jsonl | wc -l)
pg_sql "ALTER TABLE t DROP COLUMN a; INSERT INTO t VALUES (7, 77, 'c7', 7)"
wait $CDC && cdc_fail "a dropped column: exit 0"
grep -q "column a of public.t\|column a of t" "$W/err" && grep -q "gone from the source" "$W/err" ||
  cdc_fail "a dropped column: the message: $(cat "$W/err")"
[ "$(wc -l <"$W/err")" = 1 ] || cdc_fail "a dropped column: not one line: $(cat "$W/err")"
[ "$("$PAIMON" inspect "$W/t" snapshots --format jsonl | wc -l)" = "$before" ] ||
  cdc_fail "a dropped column: something was committed"
[ -z "$("$PAIMON" cat "$W/t" --where 'id = 7' --format jsonl)" ] || cdc_fail "row 7 was committed"

# a retyped column
pg_sql "CREATE TABLE u (id int PRIMARY KEY, n int); INSERT INTO u VALUES (1, 1)"
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table public.u --into "$W/u" --create --idle-exit 10s 2>"$W/err" &
CDC=$!
wait_snapshots "$W/u" 1
pg_sql "ALTER TABLE u ALTER COLUMN n TYPE bigint; INSERT INTO u VALUES (2, 2)"
wait $CDC && cdc_fail "a retyped column: exit 0"
grep -q "public.u column n changed type to BIGINT (Paimon column: INT)" "$W/err" ||
  cdc_fail "a retyped column: the message: $(cat "$W/err")"
[ "$("$PAIMON" inspect "$W/u" snapshots --format jsonl | wc -l)" = 1 ] ||
  cdc_fail "a retyped column: something was committed"
echo "PASS schema: added columns followed, a dropped and a retyped column refused"
