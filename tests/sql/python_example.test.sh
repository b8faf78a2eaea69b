#!/bin/sh
# examples/python_sql.py runs under Debian's /usr/bin/python3 and does what it says: three
# orders in one commit, an UPDATE as a second commit, the GROUP BY and the snapshots.
set -u
. "$(dirname "$0")/lib.sh"
t=$tmp/wh/shop.db/orders
"$PAIMON_CLI" create "$t" --schema 'id BIGINT, dt DATE, amount DECIMAL(10, 2)' \
  --primary-key dt,id --partition-by dt > /dev/null || fail create
host_run /usr/bin/python3 "$PAIMON_SOURCE_DIR/examples/python_sql.py" "$t" "$EXT" > "$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "the example failed"; }
cat > "$tmp/want" <<'WANT'
2026-04-19: 2 orders, 20.75
2026-04-20: 1 orders, 100.00
snapshot 1 APPEND
snapshot 2 APPEND
WANT
diff "$tmp/want" "$tmp/out" || fail "output differs (want < > got)"
"$PAIMON_CLI" cat "$t" --where 'id = 2' --format jsonl > "$tmp/row" || fail cat
grep -q '"amount":"8.25"' "$tmp/row" || fail "the UPDATE is not in the table: $(cat "$tmp/row")"
echo "python example: as documented"
