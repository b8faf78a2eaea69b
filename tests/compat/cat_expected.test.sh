#!/bin/sh
# Every fixture with expected rows: `paimon cat TABLE --snapshot N --format jsonl` equals
# expected-S<N>.jsonl (and expected-S<N>.unpinned.jsonl) as a multiset, compared by the
# oracle's compare.mjs.  Tables with ORC manifests, ORC data files and Avro data files are
# read like the others (issue 4): a "not yet supported" error now fails the test.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; compatibility checks did not run"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; unpinned_bad=0
for expected in "$FIXTURES"/*/expected-S*.jsonl; do
  table=$(dirname "$expected")
  name=$(basename "$expected")
  snap=$(echo "$name" | sed -n 's/^expected-S\([0-9]*\)\..*/\1/p')
  if ! "$PAIMON_CLI" cat "$table" --snapshot "$snap" --format jsonl > "$tmp/ours" 2> "$tmp/err"; then
    echo "FAIL: $(basename "$table") S$snap: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  if node "$ORACLE_DIR/compare.mjs" "$expected" "$tmp/ours" > "$tmp/cmp" 2>&1; then
    pass=$((pass + 1))
  else
    case "$name" in
      *.unpinned.jsonl) echo "MISMATCH (unpinned expectation): $(basename "$table") $name"; unpinned_bad=$((unpinned_bad + 1));;
      *) echo "FAIL: $(basename "$table") $name:"; fail=$((fail + 1));;
    esac
    cat "$tmp/cmp"
  fi
done
echo "$pass expected files match, $fail fail, $unpinned_bad unpinned mismatches"
[ "$pass" -ge 30 ] || { echo "FAIL: only $pass expected files compared"; exit 1; }
exit $fail
