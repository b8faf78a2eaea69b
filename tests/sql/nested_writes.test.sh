#!/bin/sh
# Nested columns on write (src/sqlite/txn_json.c, docs/SQL.md "Writes"): ARRAY, MAP,
# MULTISET and ROW values take the JSON text the module reads them as.  The round trip:
# `INSERT INTO dst SELECT * FROM src` (the JSON a SELECT returned, inserted again) leaves dst
# equal to src through `paimon cat`, and the oracle reads dst as `paimon cat` does; UPDATE
# with SQLite's JSON functions and DELETE write -U/+U and -D of nested rows; JSON that does
# not fit fails with an error naming the table and the column (malformed or of the wrong
# shape at the statement, a wrong element type at the COMMIT), and commits nothing.
set -u
. "$(dirname "$0")/lib.sh"
P=$PAIMON_CLI
wh=$tmp/wh
schema='id INT NOT NULL, tags ARRAY<STRING>, m MAP<STRING, BIGINT>, r ROW<a INT, b ARRAY<DOUBLE>>, ms MULTISET<STRING>, d DECIMAL(10, 2), ts TIMESTAMP(3), raw BYTES'
$P create "$wh/db.db/src" --schema "$schema" > /dev/null || fail "create src"
$P create "$wh/db.db/dst" --schema "$schema" --primary-key id --option bucket=1 > /dev/null || fail "create dst"
cat > "$tmp/rows.jsonl" <<'ROWS'
{"id":1,"tags":["a",null,"q\"uote","tab\tü"],"m":[["k",1],["z",null]],"r":{"a":7,"b":[0.5,-1.25,null]},"ms":[["x",2]],"d":"12.30","ts":"2026-04-19 10:11:12.123","raw":"base64:AAE="}
{"id":2,"tags":[],"m":[],"r":{"a":null,"b":null},"ms":[],"d":null,"ts":null,"raw":null}
{"id":3,"tags":null,"m":null,"r":null,"ms":null,"d":"-0.01","ts":"1970-01-01 00:00:00.000","raw":"base64:"}
ROWS
$P write "$wh/db.db/src" --input "$tmp/rows.jsonl" > /dev/null || fail "write src"
snapshots() { $P cat "$wh/db.db/dst\$snapshots" --format csv | tail -n +2 | wc -l; }

# the round trip
$P sql --warehouse "$wh" 'INSERT INTO db.dst SELECT * FROM db.src' || fail "INSERT ... SELECT"
$P cat "$wh/db.db/src" --format jsonl > "$tmp/src" || fail "cat src"
$P cat "$wh/db.db/dst" --format jsonl > "$tmp/dst" || fail "cat dst"
node "$ORACLE_DIR/compare.mjs" "$tmp/src" "$tmp/dst" > "$tmp/cmp" 2>&1 ||
  fail "dst differs from src: $(head -5 "$tmp/cmp")"
node "$ORACLE_DIR/oracle.mjs" "$wh/db.db/dst" > "$tmp/oracle" || fail oracle
node "$ORACLE_DIR/compare.mjs" "$tmp/oracle" "$tmp/dst" > "$tmp/cmp" 2>&1 ||
  fail "paimon cat and the oracle differ: $(head -5 "$tmp/cmp")"

# UPDATE through SQLite's JSON functions, DELETE, and a plain INSERT of JSON text
$P sql --warehouse "$wh" "BEGIN;
  UPDATE db.dst SET tags = json_insert(coalesce(tags, '[]'), '\$[#]', 'new'),
                    r = json_set(coalesce(r, '{}'), '\$.a', 42) WHERE id IN (2, 3);
  DELETE FROM db.dst WHERE id = 1;
  INSERT INTO db.dst(id, m, ms) VALUES (4, '{\"one\": 1}', '[[\"y\", 3]]');
  COMMIT" || fail "update"
$P cat "$wh/db.db/dst" --format jsonl | sort > "$tmp/got" || fail "cat dst"
cat > "$tmp/want" <<'ROWS'
{"id":2,"tags":["new"],"m":[],"r":{"a":42,"b":null},"ms":[],"d":null,"ts":null,"raw":null}
{"id":3,"tags":["new"],"m":null,"r":{"a":42,"b":null},"ms":null,"d":"-0.01","ts":"1970-01-01 00:00:00.000","raw":"base64:"}
{"id":4,"tags":null,"m":[["one",1]],"r":null,"ms":[["y",3]],"d":null,"ts":null,"raw":null}
ROWS
node "$ORACLE_DIR/compare.mjs" "$tmp/want" "$tmp/got" > "$tmp/cmp" 2>&1 ||
  fail "after UPDATE and DELETE: $(cat "$tmp/got")"
node "$ORACLE_DIR/oracle.mjs" "$wh/db.db/dst" > "$tmp/oracle" || fail oracle
node "$ORACLE_DIR/compare.mjs" "$tmp/oracle" "$tmp/got" > "$tmp/cmp" 2>&1 ||
  fail "paimon cat and the oracle differ after UPDATE: $(head -5 "$tmp/cmp")"

# errors: table and column named, nothing committed
before=$(snapshots)
check_err() { # check_err SQL PATTERN
  out=$($P sql --warehouse "$wh" "$1" 2>&1) && fail "accepted: $1"
  echo "$out" | grep -q "$2" || fail "error for '$1': $out"
}
check_err "INSERT INTO db.dst(id, tags) VALUES (9, '[\"a\",')" 'dst: column tags: .* is not valid JSON'
check_err "INSERT INTO db.dst(id, r) VALUES (9, '[1]')" 'dst: column r: .* is not a JSON object'
check_err "INSERT INTO db.dst(id, tags) VALUES (9, 5)" 'dst: column tags: .* is not JSON text'
check_err "INSERT INTO db.dst(id, tags) VALUES (9, '[1]')" 'dst: row [0-9]*, column tags\[0\]: expected a string'
check_err "INSERT INTO db.dst(id, m) VALUES (9, '[[\"a\", \"b\"]]')" 'dst: row [0-9]*, column m\[0\]\.value: expected an integer'
check_err "INSERT INTO db.dst(id, r) VALUES (9, '{\"zz\": 1}')" 'dst: row [0-9]*, column r: unknown field'
# a statement failing half-way inside a transaction leaves the transaction's other rows
$P sql --warehouse "$wh" "BEGIN; INSERT INTO db.dst(id, tags) VALUES (5, '[\"ok\"]');
  INSERT INTO db.dst(id, tags) VALUES (6, '[\"fine\"]'), (7, 'nope'); COMMIT" 2>/dev/null &&
  fail "a bad row in a transaction was accepted"
[ "$(snapshots)" = "$before" ] || fail "a failed write committed a snapshot"
[ "$($P cat "$wh/db.db/dst" --format none)" = "3" ] || fail "rows changed by failed writes"
$P sql --warehouse "$wh" "BEGIN; INSERT INTO db.dst(id, tags) VALUES (5, '[\"ok\"]');
  SAVEPOINT s; INSERT INTO db.dst(id, tags) VALUES (6, '[\"x\"]'); ROLLBACK TO s; RELEASE s;
  COMMIT" || fail "savepoint transaction"
$P cat "$wh/db.db/dst" --format jsonl | grep -q '"id":5,"tags":\["ok"\]' || fail "row 5 missing"
$P cat "$wh/db.db/dst" --format jsonl | grep -q '"id":6' && fail "row 6 was rolled back"
echo PASS
