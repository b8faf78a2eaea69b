#!/bin/sh
# Bulk writes through the columnar buffer (src/sqlite/txn_arrow.c): one transaction inserts
# 10,007 rows of every type that takes the Arrow batch path (TINYINT .. BIGINT, BOOLEAN,
# FLOAT, DOUBLE, STRING, BYTES, with nulls in every column), so that the commit spans three
# batches of 4,096 rows and a partial one, string offsets are rebased per batch and validity
# bits cross batch boundaries; a SAVEPOINT rolled back in the middle cuts the buffer (and its
# string bytes) back.  The Paimon table must then hold exactly the native table's rows
# (EXCEPT both ways, counts), and `paimon cat` must agree with the oracle.
set -u
. "$(dirname "$0")/lib.sh"
P=$PAIMON_CLI
t=$tmp/wh/db.db/bulk
$P create "$t" --schema 't TINYINT, s SMALLINT, i INT, l BIGINT NOT NULL, b BOOLEAN, f FLOAT, d DOUBLE, str STRING, raw BYTES' > /dev/null ||
  fail create
cols='t, s, i, l, b, f, d, str, raw'
# n: the rows; every column is NULL on some rows (a different period per column)
gen="WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 10007)
  SELECT CASE WHEN x % 11 = 0 THEN NULL ELSE x % 256 - 128 END,
         CASE WHEN x % 13 = 0 THEN NULL ELSE x * 3 % 65536 - 32768 END,
         CASE WHEN x % 17 = 0 THEN NULL ELSE x * 2654435 % 2147483647 END,
         x * 1000003,
         CASE WHEN x % 19 = 0 THEN NULL ELSE x % 2 END,
         CASE WHEN x % 23 = 0 THEN NULL ELSE x / 4.0 END,
         CASE WHEN x % 29 = 0 THEN NULL ELSE x / 3.0 END,
         CASE WHEN x % 31 = 0 THEN NULL WHEN x % 5 = 0 THEN '' ELSE 'row ' || x || printf('%.*c', x % 40, 'z') END,
         CASE WHEN x % 37 = 0 THEN NULL ELSE randomblob(x % 9) END
  FROM g"
$P sql "ATTACH '$tmp/native.db' AS n; CREATE TABLE n.r($cols); INSERT INTO n.r $gen" ||
  fail "native rows"
out=$($P sql --warehouse "$tmp/wh" --format csv "ATTACH '$tmp/native.db' AS n;
  BEGIN;
  INSERT INTO db.bulk SELECT $cols FROM n.r WHERE l <= 6000 * 1000003;
  SAVEPOINT half;
  INSERT INTO db.bulk SELECT $cols FROM n.r WHERE l > 6000 * 1000003;
  INSERT INTO db.bulk SELECT $cols FROM n.r;
  ROLLBACK TO half;
  INSERT INTO db.bulk SELECT $cols FROM n.r WHERE l > 6000 * 1000003;
  RELEASE half;
  COMMIT;
  SELECT paimon_stats();") || fail "insert: $out"
echo "$out" | grep -q 'commits"*:1[,}]' || fail "one transaction must be one commit: $out"
out=$($P sql --warehouse "$tmp/wh" --format csv "ATTACH '$tmp/native.db' AS n;
  SELECT (SELECT count(*) FROM db.bulk), (SELECT count(*) FROM n.r),
         (SELECT count(*) FROM (SELECT $cols FROM db.bulk EXCEPT SELECT $cols FROM n.r)),
         (SELECT count(*) FROM (SELECT $cols FROM n.r EXCEPT SELECT $cols FROM db.bulk)),
         (SELECT count(*) FROM db.bulk WHERE str IS NULL), (SELECT count(*) FROM db.bulk WHERE raw IS NULL)") ||
  fail "compare: $out"
echo "$out" | grep -q '^10007,10007,0,0,322,270$' || fail "the Paimon table differs from the native one: $out"
$P cat "$t" --format jsonl > "$tmp/ours" || fail cat
node "$ORACLE_DIR/oracle.mjs" "$t" > "$tmp/oracle" || fail oracle
node "$ORACLE_DIR/compare.mjs" "$tmp/oracle" "$tmp/ours" > "$tmp/cmp" 2>&1 ||
  fail "paimon cat and the oracle differ: $(head -5 "$tmp/cmp")"
echo PASS
