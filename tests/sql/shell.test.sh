#!/bin/sh
# The sqlite3 shell loads libpaimon_sqlite and answers a script of queries over Paimon tables
# (issue 16): aggregates, a join of two Paimon tables and one with a native SQLite table,
# filters on every type, time travel (snapshot=, tag=), system tables, and errors that name
# table and column.  Every answer is checked against the text written here.
set -u
. "$(dirname "$0")/lib.sh"
P=$PAIMON_CLI
wh=$tmp/wh
$P create "$wh/shop.db/orders" --schema 'id BIGINT NOT NULL, dt DATE NOT NULL, cust INT, amount DECIMAL(10, 2), price DOUBLE, ratio FLOAT, note STRING, ok BOOLEAN, ts TIMESTAMP(3), raw BYTES, tags ARRAY<STRING>, small TINYINT' \
  --partition-by dt > /dev/null || fail "create orders"
$P create "$wh/shop.db/customers" --schema 'cust INT NOT NULL, name STRING' --primary-key cust \
  --option bucket=1 > /dev/null || fail "create customers"
cat > "$tmp/o1.jsonl" <<'ROWS'
{"id":1,"dt":"2026-04-19","cust":10,"amount":"12.30","price":1.5,"ratio":0.25,"note":"first","ok":true,"ts":"2026-04-19 10:11:12.123","raw":"base64:AAE=","tags":["a","b"],"small":-3}
{"id":2,"dt":"2026-04-19","cust":20,"amount":"7.70","price":2.5,"ratio":0.5,"note":"it's","ok":false,"ts":"2026-04-19 11:00:00.000","raw":null,"tags":[],"small":4}
{"id":3,"dt":"2026-04-20","cust":10,"amount":"100.00","price":-0.5,"ratio":1.5,"note":null,"ok":true,"ts":"2026-04-20 09:00:00.500","raw":"base64:/w==","tags":null,"small":null}
ROWS
cat > "$tmp/o2.jsonl" <<'ROWS'
{"id":4,"dt":"2026-04-21","cust":30,"amount":"0.01","price":10,"ratio":2,"note":"late","ok":null,"ts":null,"raw":null,"tags":["c"],"small":127}
ROWS
printf '%s\n' '{"cust":10,"name":"Ann"}' '{"cust":20,"name":"Bob"}' '{"cust":30,"name":"Cy"}' > "$tmp/c.jsonl"
$P write "$wh/shop.db/orders" --input "$tmp/o1.jsonl" > /dev/null || fail "write o1"
$P tag "$wh/shop.db/orders" create first > /dev/null || fail "tag"
$P write "$wh/shop.db/orders" --input "$tmp/o2.jsonl" > /dev/null || fail "write o2"
$P write "$wh/shop.db/customers" --input "$tmp/c.jsonl" > /dev/null || fail "write customers"

cat > "$tmp/script.sql" <<SQL
.load $EXT
.mode list
.separator |
CREATE VIRTUAL TABLE orders USING paimon('$wh/shop.db/orders');
CREATE VIRTUAL TABLE customers USING paimon('$wh/shop.db/customers');
CREATE VIRTUAL TABLE orders_s1 USING paimon('$wh/shop.db/orders', 'snapshot=1');
CREATE VIRTUAL TABLE orders_first USING paimon('$wh/shop.db/orders', 'tag=first');
CREATE VIRTUAL TABLE orders_now USING paimon('$wh/shop.db/orders', 'timestamp=4102444800000');
CREATE VIRTUAL TABLE snaps USING paimon('$wh/shop.db/orders\$snapshots');
CREATE VIRTUAL TABLE parts USING paimon('$wh/shop.db/orders\$partitions');
CREATE TABLE regions(cust INTEGER PRIMARY KEY, region TEXT);
INSERT INTO regions VALUES (10, 'north'), (20, 'south');
SELECT 'agg', count(*), sum(amount), round(avg(price), 3), min(dt), max(ts) FROM orders;
SELECT 'group', dt, count(*) FROM orders GROUP BY dt ORDER BY dt;
SELECT 'join', o.id, c.name FROM orders o JOIN customers c ON o.cust = c.cust ORDER BY o.id;
SELECT 'native', o.id, r.region FROM orders o JOIN regions r ON o.cust = r.cust ORDER BY o.id;
SELECT 'bigint', id FROM orders WHERE id > 2 ORDER BY id;
SELECT 'int', id FROM orders WHERE cust IN (20, 30) ORDER BY id;
SELECT 'tinyint', id FROM orders WHERE small <= -3;
SELECT 'decimal', id FROM orders WHERE amount >= 12 ORDER BY id;
SELECT 'double', id FROM orders WHERE price < 0;
SELECT 'float', id FROM orders WHERE ratio = 0.25;
SELECT 'string', id FROM orders WHERE note = 'it''s';
SELECT 'null', id FROM orders WHERE note IS NULL;
SELECT 'bool', id FROM orders WHERE ok = 1 ORDER BY id;
SELECT 'date', id FROM orders WHERE dt = '2026-04-20';
SELECT 'date-range', id FROM orders WHERE dt BETWEEN '2026-04-20' AND '2026-04-21' ORDER BY id;
SELECT 'timestamp', id FROM orders WHERE ts > '2026-04-19 10:30:00.000' ORDER BY id;
SELECT 'bytes', id, hex(raw) FROM orders WHERE raw = x'0001';
SELECT 'json', id, json_extract(tags, '\$[1]') FROM orders WHERE json_array_length(tags) = 2;
SELECT 'types', typeof(id), typeof(amount), typeof(price), typeof(note), typeof(ok), typeof(dt), typeof(raw), typeof(tags) FROM orders WHERE id = 1;
SELECT 'snapshot1', count(*) FROM orders_s1;
SELECT 'tag', count(*), max(id) FROM orders_first;
SELECT 'timestamp-travel', count(*) FROM orders_now;
SELECT 'snapshots', snapshot_id, commit_kind FROM snaps ORDER BY snapshot_id;
SELECT 'partitions', count(*) FROM parts;
SQL
host_run sqlite3 :memory: < "$tmp/script.sql" > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "sqlite3 exited non-zero"; }
cat > "$tmp/want" <<'WANT'
agg|4|120.01|3.375|2026-04-19|2026-04-20 09:00:00.500
group|2026-04-19|2
group|2026-04-20|1
group|2026-04-21|1
join|1|Ann
join|2|Bob
join|3|Ann
join|4|Cy
native|1|north
native|2|south
native|3|north
bigint|3
bigint|4
int|2
int|4
tinyint|1
decimal|1
decimal|3
double|3
float|1
string|2
null|3
bool|1
bool|3
date|3
date-range|3
date-range|4
timestamp|2
timestamp|3
bytes|1|0001
json|1|b
types|integer|real|real|text|integer|text|blob|text
snapshot1|3
tag|3|3
timestamp-travel|4
snapshots|1|APPEND
snapshots|2|APPEND
partitions|3
WANT
diff "$tmp/want" "$tmp/out" || fail "answers differ (want < > got)"

# Errors name the table and the column, and commit nothing.
errs() {
  printf '.load %s\nCREATE VIRTUAL TABLE orders USING paimon(%s);\nCREATE VIRTUAL TABLE snaps USING paimon(%s);\nCREATE VIRTUAL TABLE s1 USING paimon(%s, %s);\n%s\n' \
    "$EXT" "'$wh/shop.db/orders'" "'$wh/shop.db/orders\$snapshots'" "'$wh/shop.db/orders'" "'snapshot=1'" "$1" |
    host_run sqlite3 :memory: 2>&1
}
errs "INSERT INTO orders(id, dt) VALUES ('abc', '2026-04-22');" | grep -q "orders: column id: 'abc' is not a BIGINT" || fail "wrong type"
errs "INSERT INTO orders(id, dt) VALUES (9, NULL);" | grep -q "orders: column dt: NULL in a NOT NULL column" || fail "NOT NULL"
errs "INSERT INTO orders(id, dt, small) VALUES (9, '2026-04-22', 300);" | grep -q "orders: column small: '300' is out of the column's range" || fail "range"
errs "DELETE FROM orders WHERE id = 1;" | grep -q "orders: DELETE needs a primary-key table" || fail "delete on append"
errs "DELETE FROM snaps;" | grep -q "snaps: a system table is read-only" || fail "system table write"
errs "INSERT INTO s1(id, dt) VALUES (9, '2026-04-22');" | grep -q "s1: a time-travel view" || fail "time travel write"
errs "SELECT nosuch FROM orders;" | grep -q "no such column: nosuch" || fail "unknown column"
printf '.load %s\nCREATE VIRTUAL TABLE x USING paimon(%s);\n' "$EXT" "'$tmp/not-a-table'" | host_run sqlite3 :memory: 2>&1 |
  grep -q "x: .*not-a-table" || fail "a path that is not a table"
[ "$(ls "$wh/shop.db/orders/snapshot" | grep -c '^snapshot-')" = 2 ] || fail "a failed statement committed"
# Java's rules for merge engines that refuse retractions: the COMMIT fails, nothing lands.
fr=$tmp/first_row
$P create "$fr" --schema 'k INT, v STRING' --primary-key k --option bucket=1 \
  --option merge-engine=first-row > /dev/null || fail "create first-row"
printf '.load %s\nCREATE VIRTUAL TABLE t USING paimon(%s);\nINSERT INTO t VALUES (1, %s);\n' \
  "$EXT" "'$fr'" "'a'" | host_run sqlite3 :memory: > /dev/null 2>&1 || fail "insert into first-row"
before=$(ls "$fr/snapshot" | grep -c '^snapshot-')
printf '.load %s\nCREATE VIRTUAL TABLE t USING paimon(%s);\nDELETE FROM t WHERE k = 1;\n' \
  "$EXT" "'$fr'" | host_run sqlite3 :memory: 2>&1 |
  grep -q "t: By default, First row merge engine can not accept DELETE" || fail "first-row DELETE"
[ "$(ls "$fr/snapshot" | grep -c '^snapshot-')" = "$before" ] || fail "a refused DELETE committed"
[ "$($P cat "$fr" --format csv | tail -1)" = "1,a" ] || fail "first-row row lost"
echo "shell: every answer as written"
