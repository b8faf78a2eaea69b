#!/bin/sh
# Filtered and projected reads that fixtures' SOURCE.md pin (issue 5): `paimon cat` with the
# pinned projection and --where returns exactly the pinned rows that satisfy the predicate
# (a pinned result may hold extra rows that only Java's file pruning let through; paimon-c's
# filter is exact).  Compared as multisets by the oracle's compare.mjs.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; pinned queries did not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

# check NAME TABLE EXPECTED_FILE ARGS...: cat with ARGS equals EXPECTED_FILE.
check() {
  name=$1; table=$2; expected=$3; shift 3
  if ! "$PAIMON_CLI" cat "$FIXTURES/$table" --format jsonl "$@" > "$tmp/ours" 2> "$tmp/err"; then
    echo "FAIL: $name: $(cat "$tmp/err")"; fail=$((fail + 1)); return
  fi
  if node "$ORACLE_DIR/compare.mjs" "$expected" "$tmp/ours" > "$tmp/cmp" 2>&1; then
    echo "ok: $name ($(wc -l < "$tmp/ours") rows)"; pass=$((pass + 1))
  else
    echo "FAIL: $name:"; cat "$tmp/cmp"; fail=$((fail + 1))
  fi
}

# cpp-parquet-unordered: f4 < 300006 over f10, f8, f4, f13 (the pinned 300006 row came through
# file pruning only).
cat > "$tmp/unordered" <<'ROWS'
{"f10":[[[5.11,5.21],{"f0":true,"f1":61}]],"f8":"s31","f4":300001,"f13":"0.91"}
{"f10":[[[5.12,5.22],{"f0":false,"f1":62}]],"f8":"s32","f4":300002,"f13":"0.92"}
{"f10":null,"f8":"s33","f4":300003,"f13":"0.93"}
{"f10":[[[5.141,5.241],{"f0":false,"f1":641}],[[5.14,5.24],{"f0":false,"f1":64}]],"f8":"s34","f4":300004,"f13":"0.94"}
{"f10":[[[5.15,5.25],{"f0":true,"f1":65}]],"f8":"s35","f4":300005,"f13":"0.95"}
ROWS
check "cpp-parquet-unordered f4<300006" cpp-parquet-unordered "$tmp/unordered" \
  --snapshot 2 --where 'f4 < 300006' --select f10,f8,f4,f13

# pypaimon-pk-global-index-golden: name = 'name-4' -> id 4; category = 'odd' -> ids 1, 3, 5.
printf '{"id":4}\n' > "$tmp/name4"
check "pypaimon name='name-4'" pypaimon-pk-global-index-golden "$tmp/name4" \
  --where "name = 'name-4'" --select id
printf '{"id":1}\n{"id":3}\n{"id":5}\n' > "$tmp/odd"
check "pypaimon category='odd'" pypaimon-pk-global-index-golden "$tmp/odd" \
  --where "category = 'odd'" --select id

# duckdb-polardb-avro-manifest: count(*) = 3.
if out=$("$PAIMON_CLI" cat "$FIXTURES/duckdb-polardb-avro-manifest" 2>&1); then
  n=$(printf '%s\n' "$out" | grep -c .)
  if [ "$n" -eq 3 ]; then echo "ok: duckdb-polardb-avro-manifest count 3"; pass=$((pass + 1))
  else echo "FAIL: duckdb-polardb-avro-manifest: $n rows, pinned 3"; fail=$((fail + 1)); fi
else
  echo "FAIL: duckdb-polardb-avro-manifest: $out"; fail=$((fail + 1))
fi

# duckdb-polardb-type-test: the pinned columns; col_int only where pinned (> 0).
cat > "$tmp/typetest" <<'ROWS'
{"col_string":"Alice","col_decimal":"100.50","col_timestamp":"2025-01-15 10:30:00.000","col_int":1000}
{"col_string":"Bob","col_decimal":"200.75","col_timestamp":"2025-03-20 14:15:30.000","col_int":2000}
{"col_string":"Cathy","col_decimal":"350.00","col_timestamp":"2025-06-01 08:00:00.000","col_int":3000}
{"col_string":"Eve","col_decimal":"999.99","col_timestamp":"2025-09-10 16:45:00.000","col_int":100000}
{"col_string":"Henry","col_decimal":"500.00","col_timestamp":"2026-02-14 09:30:00.000","col_int":54321}
{"col_string":"Iris","col_decimal":"75.80","col_timestamp":"2026-04-20 18:00:00.000","col_int":9999}
ROWS
check "duckdb-polardb-type-test col_int>0" duckdb-polardb-type-test "$tmp/typetest" \
  --where 'col_int > 0' --select col_string,col_decimal,col_timestamp,col_int
cat > "$tmp/typetest_rest" <<'ROWS'
{"col_string":"David","col_decimal":"50.25","col_timestamp":"2025-07-04 12:00:00.000"}
{"col_string":"Frank","col_decimal":"123.45","col_timestamp":"2025-11-25 20:30:00.000"}
{"col_string":"Grace","col_decimal":"0.01","col_timestamp":"2026-01-01 00:00:00.000"}
{"col_string":null,"col_decimal":null,"col_timestamp":null}
ROWS
check "duckdb-polardb-type-test NOT col_int>0" duckdb-polardb-type-test "$tmp/typetest_rest" \
  --where 'NOT col_int > 0 OR col_int IS NULL' --select col_string,col_decimal,col_timestamp

echo "$pass pinned queries match, $fail fail"
[ "$pass" -gt 0 ] || exit 1
exit $fail
