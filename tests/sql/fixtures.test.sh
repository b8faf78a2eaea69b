#!/bin/sh
# Every fixture table with expected rows, read through SQL: `paimon sql --format jsonl` of
# SELECT * FROM a virtual table at snapshot N equals expected-S<N>.jsonl as a multiset
# (compare.mjs, as compat/cat_expected compares `paimon cat`), so SQL shows every type as
# the canonical form has it.
set -u
. "$(dirname "$0")/lib.sh"
: "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; checks did not run"; exit 0
fi
pass=0; bad=0; unpinned_bad=0
for expected in "$FIXTURES"/*/expected-S*.jsonl; do
  table=$(dirname "$expected")
  name=$(basename "$expected")
  snap=$(echo "$name" | sed -n 's/^expected-S\([0-9]*\)\..*/\1/p')
  sql="CREATE VIRTUAL TABLE t USING paimon('$(printf '%s' "$table" | sed "s/'/''/g")', 'snapshot=$snap'); SELECT * FROM t;"
  if ! "$PAIMON_CLI" sql --format jsonl "$sql" > "$tmp/ours" 2> "$tmp/err"; then
    echo "FAIL: $(basename "$table") S$snap: $(cat "$tmp/err")"; bad=$((bad + 1)); continue
  fi
  if node "$ORACLE_DIR/compare.mjs" "$expected" "$tmp/ours" > "$tmp/cmp" 2>&1; then
    pass=$((pass + 1))
  else
    case "$name" in
      *.unpinned.jsonl) echo "MISMATCH (unpinned expectation): $(basename "$table") $name"; unpinned_bad=$((unpinned_bad + 1));;
      *) echo "FAIL: $(basename "$table") $name:"; bad=$((bad + 1));;
    esac
    head -20 "$tmp/cmp"
  fi
done
echo "$pass expected files match through SQL, $bad fail, $unpinned_bad unpinned mismatches"
[ "$pass" -ge 30 ] || { echo "FAIL: only $pass expected files compared"; exit 1; }
exit $bad
