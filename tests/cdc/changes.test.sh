# Row kinds and truncates (issue 17), read back with `paimon tail` (changelog-producer=input):
# with REPLICA IDENTITY FULL an update is -U of the old row and +U of the new one; a changed
# primary key is -D of the old row and +I of the new; a delete is -D; with the default
# replica identity an update is +U alone (PostgreSQL sends no old row).  TRUNCATE replaces the
# table (an OVERWRITE snapshot), also with rows inserted after it in the same transaction.
# Several transactions with --commit-rows 1 make one commit each (never splitting one).
set -u
. "${CDC_LIB_DIR:-$(dirname "$0")}/lib.sh"
pg_start || cdc_fail "pg_start"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT

wait_snapshots() {
  for _ in $(seq 100); do
    [ "$("$PAIMON" inspect "$1" snapshots --format jsonl 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    sleep 0.1
  done
  cdc_fail "$1 never reached $2 snapshots"
}

pg_sql "CREATE TABLE f (id int PRIMARY KEY, v text); ALTER TABLE f REPLICA IDENTITY FULL;
CREATE TABLE d (id int PRIMARY KEY, v text); INSERT INTO f VALUES (1, 'a'), (2, 'b'); INSERT INTO d VALUES (1, 'a')"
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table f --into "$W/f" --create --option changelog-producer=input \
  --commit-rows 1 --commit-interval 60s --idle-exit 5s 2>"$W/err" &
CDC=$!
wait_snapshots "$W/f" 1
pg_sql "UPDATE f SET v = 'a2' WHERE id = 1"
pg_sql "UPDATE f SET id = 3 WHERE id = 2"
pg_sql "DELETE FROM f WHERE id = 1"
pg_sql "BEGIN; INSERT INTO f VALUES (10, 'x'); INSERT INTO f VALUES (11, 'y'); COMMIT"
wait $CDC || cdc_fail "f: $(cat "$W/err")"
got=$("$PAIMON" tail "$W/f" --from snapshot:2 --format jsonl | tr '\n' ' ')
want='{"_ROW_KIND":"-U","id":1,"v":"a"} {"_ROW_KIND":"+U","id":1,"v":"a2"} {"_ROW_KIND":"-D","id":2,"v":"b"} {"_ROW_KIND":"+I","id":3,"v":"b"} {"_ROW_KIND":"-D","id":1,"v":"a2"} {"_ROW_KIND":"+I","id":10,"v":"x"} {"_ROW_KIND":"+I","id":11,"v":"y"} '
[ "$got" = "$want" ] || cdc_fail "REPLICA IDENTITY FULL: got $got"
# --commit-rows 1 with a commit interval of 60 s: one commit per transaction (4), the
# two-row transaction whole
[ "$("$PAIMON" inspect "$W/f" snapshots --format jsonl | grep -c '"commitKind":"APPEND"')" = 5 ] ||
  cdc_fail "--commit-rows 1: $("$PAIMON" inspect "$W/f" snapshots --format jsonl | grep -c APPEND) APPEND snapshots, not 5"
cdc_same "$W/f" f || exit 1

"$PAIMON" cdc postgres --dsn "$PG_DSN" --table d --into "$W/d" --create --option changelog-producer=input \
  --idle-exit 5s 2>"$W/err" &
CDC=$!
wait_snapshots "$W/d" 1
pg_sql "UPDATE d SET v = 'a2' WHERE id = 1; INSERT INTO d VALUES (2, 'b'), (3, 'c')"
sleep 1.5
pg_sql "BEGIN; INSERT INTO d VALUES (4, 'd'); TRUNCATE d; INSERT INTO d VALUES (5, 'e'); COMMIT"
sleep 1.5
pg_sql "INSERT INTO d VALUES (6, 'f')"
wait $CDC || cdc_fail "d: $(cat "$W/err")"
got=$("$PAIMON" tail "$W/d" --from snapshot:2 --to snapshot:2 --format jsonl | head -1)
[ "$got" = '{"_ROW_KIND":"+U","id":1,"v":"a2"}' ] || cdc_fail "default identity: got $got"
"$PAIMON" inspect "$W/d" snapshots --format jsonl | grep -q '"commitKind":"OVERWRITE"' ||
  cdc_fail "TRUNCATE made no OVERWRITE snapshot"
cdc_same "$W/d" d || exit 1
[ "$("$PAIMON" cat "$W/d" --format jsonl | wc -l)" = 2 ] || cdc_fail "after TRUNCATE: not rows 5 and 6"
echo "PASS changes"
