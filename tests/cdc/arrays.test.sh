# PostgreSQL arrays through `paimon cdc postgres` (issue 17): --create maps T[] to ARRAY<T>
# (the element's typmod kept), the initial COPY and the pgoutput stream both carry arrays
# in their text form: NULL elements, empty arrays, null arrays, quoted and escaped text
# elements ('NULL', braces, commas, quotes, backslashes, white space), a lower bound other
# than 1; an array column added by ALTER TABLE in the stream.  The table (`paimon cat` and
# the oracle) equals the source rendered canonically by PostgreSQL itself.  A multi-dimensional value stops the run with one clear line (exit 1),
# in the copy and in the stream, and nothing of it is committed.
set -u
. "${CDC_LIB_DIR:-$(dirname "$0")}/lib.sh"
pg_start || cdc_fail "pg_start"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT

# The source rows as the canonical JSON rows `paimon cat` prints: DECIMAL elements as
# strings, the rest as to_json renders them.
pg_canonical() {
  psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT json_build_object('id', id, 'ints', ints,
      'texts', texts, 'nums', nums::text[], 'flags', flags, 'days', days, 'vs', vs,
      'big', big, 'dbl', dbl, 'tags', tags) FROM a" | cdc__normalize >"$1"
}
same_as_source() {
  pg_canonical "$W/pg" || cdc_fail "SELECT from a"
  cdc_rows_paimon "$W/a" "$W/paimon" || cdc_fail "paimon cat"
  cmp -s "$W/pg" "$W/paimon" || { diff "$W/pg" "$W/paimon" | head -10; cdc_fail "$1: the table differs from the source"; }
  oracle=$(cdc_oracle_dir) || cdc_fail "${oracle#FAIL: }"
  if [ -n "$oracle" ]; then
    node "$oracle/oracle.mjs" "$W/a" | cdc__normalize >"$W/oracle" || cdc_fail "the oracle cannot read the table"
    cmp -s "$W/oracle" "$W/paimon" || { diff "$W/oracle" "$W/paimon" | head -5; cdc_fail "$1: the oracle and paimon cat differ"; }
  fi
}

pg_sql "CREATE TABLE a (id int PRIMARY KEY, ints int[], texts text[], nums numeric(10, 2)[],
          flags boolean[], days date[], vs varchar(5)[], big bigint[], dbl float8[]);
        INSERT INTO a VALUES
          (1, '{1,2,NULL,-3}', ARRAY['a b', 'c\"d', E'e\\\\f', 'NULL', '', '{x,y}', ' lead', 'comma,', 'ü'],
              '{1.50,NULL,-2}', '{t,f,NULL}', '{2026-04-19,NULL}', '{abcde,NULL}', '{9223372036854775807}', '{1.5,-0.25,1e+30}'),
          (2, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}'),
          (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          (4, '[0:1]={7,8}', ARRAY[NULL, 'x']::text[], '{0.01}', '{t}', '{1999-12-31}', '{\"\"}', '{NULL}', '{NULL}')" ||
  cdc_fail setup
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table a --into "$W/a" --create --idle-exit 4s 2>"$W/err" &
CDC=$!
for _ in $(seq 100); do
  [ "$("$PAIMON" inspect "$W/a" snapshots --format jsonl 2>/dev/null | wc -l)" -ge 1 ] && break
  sleep 0.1
done
pg_sql "INSERT INTO a VALUES (5, '{10,NULL}', ARRAY[E'tab\\there', 'quote\"', 'back\\\\slash', 'null', '  '],
          '{3.14}', '{f}', '{2000-02-29}', '{\"a,b\"}', '{-1,0}', '{NULL,2.5}')"
pg_sql "UPDATE a SET ints = '{}', texts = ARRAY['{}', NULL] WHERE id = 1; UPDATE a SET ints = '{42}' WHERE id = 3"
pg_sql "BEGIN; DELETE FROM a WHERE id = 2; INSERT INTO a (id, nums) VALUES (6, '{12345678.99,NULL}'); COMMIT"
pg_sql "ALTER TABLE a ADD COLUMN tags varchar(3)[]; INSERT INTO a (id, tags) VALUES (8, '{x,NULL,\"\"}')"
wait $CDC || cdc_fail "paimon cdc postgres: $(cat "$W/err")"
"$PAIMON" inspect "$W/a" schemas --format jsonl | tail -1 >"$W/schema"
for col in ints:INT texts:STRING 'nums:DECIMAL(10, 2)' flags:BOOLEAN days:DATE 'vs:VARCHAR(5)' big:BIGINT dbl:DOUBLE 'tags:VARCHAR(3)'; do
  python3 -c '
import json, sys
name, elem = sys.argv[1].split(":", 1)
f = [f for f in json.load(open(sys.argv[2]))["fields"] if f["name"] == name][0]
t = f["type"]
sys.exit(0 if isinstance(t, dict) and t["type"].startswith("ARRAY") and t["element"] == elem else 1)' \
    "$col" "$W/schema" || cdc_fail "column $col: not ARRAY<${col#*:}>: $(cat "$W/schema")"
done
same_as_source "copy and stream"
[ "$("$PAIMON" cat "$W/a" --where 'id = 4' --format jsonl | python3 -c 'import json,sys; print(json.load(sys.stdin)["ints"])')" = "[7, 8]" ] ||
  cdc_fail "a lower bound of 0: $("$PAIMON" cat "$W/a" --where 'id = 4' --format jsonl)"

# a multi-dimensional value in the stream: exit 1, one line, nothing committed
before=$("$PAIMON" inspect "$W/a" snapshots --format jsonl | wc -l)
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table a --into "$W/a" --idle-exit 10s 2>"$W/err" &
CDC=$!
sleep 1
pg_sql "INSERT INTO a (id, ints) VALUES (7, '{{1,2},{3,4}}')"
wait $CDC && cdc_fail "a multi-dimensional array in the stream: exit 0"
grep -q "ints: a multi-dimensional array has no Paimon mapping" "$W/err" ||
  cdc_fail "a multi-dimensional array: the message: $(cat "$W/err")"
[ "$(wc -l <"$W/err")" = 1 ] || cdc_fail "a multi-dimensional array: not one line: $(cat "$W/err")"
[ "$("$PAIMON" inspect "$W/a" snapshots --format jsonl | wc -l)" = "$before" ] ||
  cdc_fail "a multi-dimensional array: something was committed"
[ -z "$("$PAIMON" cat "$W/a" --where 'id = 7' --format jsonl)" ] || cdc_fail "row 7 was committed"

# ... and in the initial copy: no table data committed
pg_sql "CREATE TABLE m (id int PRIMARY KEY, v text[]); INSERT INTO m VALUES (1, '{a}'), (2, '{{a},{b}}')"
"$PAIMON" cdc postgres --dsn "$PG_DSN" --table m --into "$W/m" --create --idle-exit 2s 2>"$W/err" &&
  cdc_fail "a multi-dimensional array in the copy: exit 0"
grep -q "v: a multi-dimensional array has no Paimon mapping" "$W/err" ||
  cdc_fail "a multi-dimensional array in the copy: the message: $(cat "$W/err")"
[ "$("$PAIMON" inspect "$W/m" snapshots --format jsonl 2>/dev/null | wc -l)" = 0 ] ||
  cdc_fail "a multi-dimensional array in the copy: something was committed"
echo "PASS arrays: ARRAY columns created, copied and streamed; multi-dimensional values refused"
