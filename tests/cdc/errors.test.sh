# Bad input to `paimon cdc postgres` (issue 17): an unreachable server, a wrong password, a
# missing table, a missing Paimon table without --create, a type with no mapping, a slot in
# use, an update of a table without a primary key, wal_level not logical.  Each is one line
# on stderr naming the cause and the remedy, exit 1, and nothing committed; usage errors
# exit 2.
set -u
. "${CDC_LIB_DIR:-$(dirname "$0")}/lib.sh"
pg_start || cdc_fail "pg_start"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT

# expect_fail NAME PATTERN ARGS...: exit 1, one line matching PATTERN
expect_fail() {
  local name=$1 pattern=$2 code
  shift 2
  "$PAIMON" cdc postgres "$@" >"$W/out" 2>"$W/err"
  code=$?
  [ $code = 1 ] || cdc_fail "$name: exit $code, not 1: $(cat "$W/err")"
  [ "$(wc -l <"$W/err")" = 1 ] || cdc_fail "$name: not one line: $(cat "$W/err")"
  grep -q "^paimon: .*$pattern" "$W/err" || cdc_fail "$name: the message does not say '$pattern': $(cat "$W/err")"
  echo "ok $name: $(cat "$W/err")"
}

no_snapshots() {
  [ -z "$("$PAIMON" inspect "$1" snapshots --format jsonl 2>/dev/null)" ] || cdc_fail "$2: something was committed"
}

pg_sql "CREATE TABLE t (id int PRIMARY KEY, v text); INSERT INTO t VALUES (1, 'a');
CREATE TABLE geo (id int PRIMARY KEY, p point);
CREATE TABLE nokey (a int, b text); INSERT INTO nokey VALUES (1, 'x');
ALTER TABLE nokey REPLICA IDENTITY FULL" || cdc_fail setup

expect_fail unreachable "cannot connect.*is the server running" \
  --dsn "host=127.0.0.1 port=1 dbname=postgres user=paimon" --table t --into "$W/a" --create
[ ! -e "$W/a" ] || cdc_fail "unreachable: the table was created"
expect_fail password "password authentication failed.*check the user and password" \
  --dsn "host=127.0.0.1 port=$PGPORT dbname=postgres user=paimon password=wrong" --table t --into "$W/a" --create
expect_fail "missing table" "table public.nope does not exist" \
  --dsn "$PG_DSN" --table public.nope --into "$W/a" --create
expect_fail "missing Paimon table" "no Paimon table there; add --create" \
  --dsn "$PG_DSN" --table t --into "$W/a"
expect_fail "unmapped type" "public.geo column p: PostgreSQL type point (oid 600) has no Paimon mapping" \
  --dsn "$PG_DSN" --table public.geo --into "$W/geo" --create
[ ! -e "$W/geo/schema" ] || cdc_fail "unmapped type: the table was created"

# a slot in use: a second run on the same slot while the first streams
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table t --into "$W/t" --create --idle-exit 20s 2>"$W/first.err" &
FIRST=$!
for _ in $(seq 100); do
  [ "$(pg_sql "SELECT count(*) FROM pg_replication_slots WHERE active")" = 1 ] && break
  sleep 0.1
done
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table t --into "$W/t2" --create --slot paimon_public_t 2>"$W/err"
code=$?
[ $code = 1 ] && grep -q "replication slot paimon_public_t is in use by another process" "$W/err" ||
  cdc_fail "slot in use: exit $code: $(cat "$W/err")"
echo "ok slot in use: $(cat "$W/err")"
no_snapshots "$W/t2" "slot in use"
kill -TERM $FIRST
wait $FIRST || cdc_fail "SIGTERM: the first run did not exit 0: $(cat "$W/first.err")"
cdc_same "$W/t" t || exit 1

# no primary key: an append table; an update cannot be applied
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table nokey --into "$W/nokey" --create --idle-exit 10s 2>"$W/err" &
NK=$!
for _ in $(seq 100); do
  [ -n "$("$PAIMON" inspect "$W/nokey" snapshots --format jsonl 2>/dev/null)" ] && break
  sleep 0.1
done
pg_sql "UPDATE nokey SET b = 'y'"
wait $NK && cdc_fail "no primary key: exit 0"
grep -q "public.nokey has no primary key.*an UPDATE cannot be applied" "$W/err" ||
  grep -q "nokey has no primary key.*an UPDATE cannot be applied" "$W/err" ||
  cdc_fail "no primary key: $(cat "$W/err")"
echo "ok no primary key: $(cat "$W/err")"
[ "$("$PAIMON" inspect "$W/nokey" snapshots --format jsonl | wc -l)" = 1 ] || cdc_fail "no primary key: the update was committed"

# usage
"$PAIMON" cdc postgres --table t --into "$W/u" 2>/dev/null
[ $? = 2 ] || cdc_fail "a missing --dsn is not exit 2"
"$PAIMON" cdc mysql --dsn x --table t --into "$W/u" 2>/dev/null
[ $? = 2 ] || cdc_fail "an unknown source is not exit 2"

# wal_level = replica
pg_stop
pg_start -c wal_level=replica || cdc_fail "pg_start replica"
pg_sql "CREATE TABLE t (id int PRIMARY KEY)"
expect_fail "wal_level" "wal_level is 'replica'.*set wal_level = logical" \
  --dsn "$PG_DSN" --table t --into "$W/w" --create
[ ! -e "$W/w/schema" ] || cdc_fail "wal_level: the table was created"
echo "PASS errors"
