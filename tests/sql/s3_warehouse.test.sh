#!/bin/sh
# `paimon sql --warehouse s3://...` (docs/SQL.md): a warehouse on S3 (the test server of
# tests/s3) cannot be listed through the public API, so the tables the SQL names as DB.TABLE
# are attached when they exist there.  A join of two tables of two databases, an INSERT
# that commits to S3 (read back by `paimon cat`), a name inside a string literal that is not
# a table, and a table that does not exist (SQLite's "no such table").
set -u
. "$(dirname "$0")/lib.sh"
S3_LIB_DIR=$(cd "$(dirname "$0")/../s3" && pwd)
. "$S3_LIB_DIR/lib.sh"
trap 's3_stop; rm -rf "$tmp"' EXIT
s3_start || fail "the S3 test server did not start"
P=$PAIMON_CLI
wh=s3://warehouse/wh
$P create "$wh/shop.db/orders" --schema 'id BIGINT, cust INT, amount DOUBLE' > /dev/null || fail "create orders"
$P create "$wh/crm.db/customers" --schema 'cust INT NOT NULL, name STRING' --primary-key cust \
  --option bucket=1 > /dev/null || fail "create customers"
printf '%s\n' '{"id":1,"cust":10,"amount":1.5}' '{"id":2,"cust":20,"amount":2.5}' \
  '{"id":3,"cust":10,"amount":4}' | $P write "$wh/shop.db/orders" > /dev/null || fail "write orders"
printf '%s\n' '{"cust":10,"name":"Ann"}' '{"cust":20,"name":"Bob"}' |
  $P write "$wh/crm.db/customers" > /dev/null || fail "write customers"

out=$($P sql --warehouse "$wh" --format csv "SELECT c.name, count(*), sum(o.amount)
  FROM shop.orders o JOIN crm.customers c ON o.cust = c.cust GROUP BY c.name ORDER BY c.name") ||
  fail "join: $out"
[ "$out" = "$(printf 'name,count(*),sum(o.amount)\nAnn,2,5.5\nBob,1,2.5')" ] || fail "join answer: $out"

$P sql --warehouse "$wh" "INSERT INTO shop.orders VALUES (4, 20, 10.0);
  UPDATE crm.customers SET name = 'Bo' WHERE cust = 20" || fail "writes on S3"
[ "$($P cat "$wh/shop.db/orders" --format none)" = "4" ] || fail "the insert did not land on S3"
$P cat "$wh/crm.db/customers" | grep -q '"cust":20,"name":"Bo"' || fail "the update did not land"

out=$($P sql --warehouse "$wh" --format csv "SELECT 'shop.nothing', count(*) FROM shop.orders") ||
  fail "a name in a literal: $out"
echo "$out" | grep -q '^shop.nothing,4$' || fail "literal answer: $out"
out=$($P sql --warehouse "$wh" "SELECT * FROM shop.missing" 2>&1) && fail "a missing table was found"
echo "$out" | grep -q 'no such table: shop.missing' || fail "missing table error: $out"
echo PASS
