#!/bin/sh
# Avro data files both ways: paimon-c writes every type Paimon puts in Avro data files with
# each codec; Debian's python3-avro and avsc decode them (python also checks the schema and
# the logical types) and write the records back; paimon-c reads what they wrote and gets
# exactly the rows it wrote.
set -eu
: "${PAIMON_BUILD_DIR:?}" "${INTEROP_DIR:?}" "${ORACLE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen="$PAIMON_BUILD_DIR/tests/interop/interop_avro_data_gen"
"$gen" write "$tmp"
/usr/bin/python3 "$INTEROP_DIR/avro_data.py" "$tmp"
node "$INTEROP_DIR/avro_data.mjs" "$tmp"
n=0
for f in "$tmp"/paimon-*.avro "$tmp"/python-*.avro "$tmp"/avsc-*.avro; do
  "$gen" read "$f" > "$tmp/got.jsonl"
  if ! cmp -s "$tmp/expected.jsonl" "$tmp/got.jsonl"; then
    echo "FAIL: $(basename "$f") reads back differently:"; diff "$tmp/expected.jsonl" "$tmp/got.jsonl" | head -5
    exit 1
  fi
  n=$((n + 1))
done
echo "$n Avro data files (paimon-c, python3-avro, avsc) read back to the rows written"
[ "$n" -eq 12 ]
