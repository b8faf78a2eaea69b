# Helpers of the CDC tests (bash): source this; it sources pg.sh.
#   cdc_rows_pg SQL_TABLE OUT      the source's rows as sorted JSON lines (row_to_json)
#   cdc_rows_paimon TABLE OUT      `paimon cat` as sorted JSON lines
#   cdc_same TABLE SQL_TABLE       fails unless both agree, and the oracle too (ORACLE_DIR,
#                                  which ctest sets; unset only when run by hand outside CI)
#   cdc_oracle_dir                 fails unless ORACLE_DIR holds oracle.mjs; prints it, or
#                                  nothing when ORACLE_DIR is unset outside CI
#   cdc_table_lsn TABLE            the cdc.postgres.lsn property of the latest snapshot
#   cdc_fail MESSAGE               prints FAIL MESSAGE and exits 1
CDC_LIB_DIR=${CDC_LIB_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
. "$CDC_LIB_DIR/pg.sh"
PAIMON=${PAIMON_CLI:-paimon}

cdc_fail() {
  echo "FAIL $*"
  exit 1
}

# JSON lines with the keys sorted, the lines sorted: the same rows compare equal.
cdc__normalize() {
  python3 -c '
import json, sys
rows = [json.dumps(json.loads(l), sort_keys=True) for l in sys.stdin if l.strip()]
print("\n".join(sorted(rows)))'
}

cdc_rows_pg() {
  psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT row_to_json(x) FROM $1 x" | cdc__normalize >"$2"
}

cdc_rows_paimon() {
  "$PAIMON" cat "$1" --format jsonl | cdc__normalize >"$2"
}

cdc_oracle_dir() {
  if [ -z "${ORACLE_DIR:-}" ]; then
    [ -z "${CI:-}" ] || { echo "FAIL: ORACLE_DIR is not set (required under CI)"; return 1; }
    return 0
  fi
  # set but empty of the oracle: a broken setup, not a check to skip
  [ -f "$ORACLE_DIR/oracle.mjs" ] || { echo "FAIL: no oracle.mjs in ORACLE_DIR=$ORACLE_DIR"; return 1; }
  echo "$ORACLE_DIR"
}

cdc_same() {
  local d
  d=$(mktemp -d)
  cdc_rows_pg "$2" "$d/pg" || cdc_fail "SELECT from $2"
  cdc_rows_paimon "$1" "$d/paimon" || cdc_fail "paimon cat $1"
  if ! cmp -s "$d/pg" "$d/paimon"; then
    echo "FAIL: $1 differs from $2 ($(wc -l <"$d/pg") rows in PostgreSQL, $(wc -l <"$d/paimon") in Paimon):"
    diff "$d/pg" "$d/paimon" | head -10
    return 1
  fi
  local oracle
  oracle=$(cdc_oracle_dir) || { echo "$oracle"; return 1; }
  if [ -n "$oracle" ]; then
    node "$oracle/oracle.mjs" "$1" >"$d/oracle.raw" 2>"$d/oracle.err" ||
      { echo "FAIL: the oracle cannot read $1: $(tail -3 "$d/oracle.err")"; return 1; }
    cdc__normalize <"$d/oracle.raw" >"$d/oracle"
    cmp -s "$d/oracle" "$d/paimon" ||
      { echo "FAIL: the oracle and paimon cat differ on $1"; diff "$d/oracle" "$d/paimon" | head -5; return 1; }
  fi
  rm -rf "$d"
}

cdc_table_lsn() {
  "$PAIMON" inspect "$1" snapshots --format jsonl | tail -1 |
    python3 -c 'import json,sys; print(json.loads(sys.stdin.read()).get("properties",{}).get("cdc.postgres.lsn",""))'
}
