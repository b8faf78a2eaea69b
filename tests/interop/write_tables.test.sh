#!/bin/sh
# Tables written by the table writer (tests/interop/write_gen.c: random rows of every type,
# the table writer, the commit layer) are read by the oracle with --strict (Java 1.4.2
# shapes, sizes, statistics, key ranges, bucket hashing) and give the same rows as the
# generator's model and as `paimon cat`; `paimon inspect files` agrees with the oracle.
# Cases: append and primary-key tables, partitioned or not, fixed and unaware buckets,
# many commits, deletes, spills and flushes of a small write buffer, rolling files,
# changelog-producer=input, thin mode, statistics modes, overwrite, merge engines, dynamic
# buckets (HASH index files), cross-partition upsert, bloom-filter indexes and the demo.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}" "${PAIMON_BUILD_DIR:?}"
GEN="$PAIMON_BUILD_DIR/tests/interop/interop_write_gen"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ALL='id BIGINT, p INT, b BOOLEAN, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE, dc DECIMAL(9, 2), dl DECIMAL(18, 4), dx DECIMAL(30, 5), c CHAR(5), vc VARCHAR(30), st STRING, bi BINARY(4), vb VARBINARY(20), by BYTES, dt DATE, tm TIME, tm6 TIME(6), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), lz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, lz6 TIMESTAMP(6) WITH LOCAL TIME ZONE, arr ARRAY<INT>, mp MAP<STRING, DOUBLE>, ms MULTISET<INT>, r ROW<x INT, y STRING, z ARRAY<STRING>>'
SMALL='id BIGINT, p INT, v STRING, n INT, d DOUBLE'

# check NAME MODEL: MODEL=model compares with the generator's rows, MODEL=- only oracle vs cat
check() {
  name=$1 t="$tmp/$1"
  if ! node "$ORACLE_DIR/oracle.mjs" "$t" --strict > "$t.oracle" 2> "$t.report"; then
    echo "FAIL $name: oracle --strict:"; grep -v '^check: ok' "$t.report" | grep -v '^check: [0-9]' | head -20; fail=1; return
  fi
  "$PAIMON_CLI" cat "$t" --format jsonl > "$t.cat" || { echo "FAIL $name: paimon cat"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$t.cat" "$t.oracle" > "$t.cmp" || { echo "FAIL $name: paimon cat vs oracle"; head -5 "$t.cmp"; fail=1; return; }
  if [ "$2" = model ]; then
    node "$ORACLE_DIR/compare.mjs" "$t.expected" "$t.oracle" > "$t.cmp" || { echo "FAIL $name: model vs oracle"; head -5 "$t.cmp"; fail=1; return; }
  fi
  "$PAIMON_CLI" inspect "$t" files --format jsonl > "$t.files" || { echo "FAIL $name: inspect files"; fail=1; return; }
  node "$ORACLE_DIR/oracle.mjs" "$t" --files > "$t.ofiles" || { echo "FAIL $name: oracle --files"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$t.ofiles" "$t.files" > "$t.cmp" || { echo "FAIL $name: files"; head -5 "$t.cmp"; fail=1; return; }
  echo "ok $name: $(wc -l < "$t.oracle") rows, $(wc -l < "$t.files") files"
}

# make NAME COLUMNS CREATE-ARGS... -- GEN-ARGS...
make_table() {
  name=$1 cols=$2; shift 2
  set -- "$@"
  cargs="" ; while [ $# -gt 0 ] && [ "$1" != -- ]; do cargs="$cargs $1"; shift; done
  [ $# -gt 0 ] && shift
  # shellcheck disable=SC2086
  "$PAIMON_CLI" create "$tmp/$name" --schema "$cols" $cargs > /dev/null || { echo "FAIL $name: create"; fail=1; return 1; }
  "$GEN" "$tmp/$name" "$@" > "$tmp/$name.expected" || { echo "FAIL $name: write"; fail=1; return 1; }
}

make_table append-unaware "$ALL" -- --rows 2500 --commit-every 800 && check append-unaware model
make_table append-fixed "$ALL" --partition-by p --option bucket=3 --option bucket-key=id \
  -- --rows 3000 --commit-every 1000 --parts 3 && check append-fixed model
make_table append-roll "$SMALL" --partition-by p --option target-file-size=16kb \
  -- --rows 20000 --batch 3000 --parts 2 && check append-roll model
make_table append-overwrite "$SMALL" --partition-by p \
  -- --rows 3000 --commit-every 1000 --parts 3 --overwrite-last && check append-overwrite model
make_table pk-fixed "$SMALL" --primary-key id --option bucket=4 \
  -- --rows 20000 --batch 700 --commit-every 2000 --keys 3000 --deletes && check pk-fixed model
make_table pk-all-types "$ALL" --primary-key id,p --partition-by p --option bucket=2 \
  -- --rows 4000 --commit-every 1500 --keys 500 --parts 2 --deletes && check pk-all-types model
make_table pk-spill "$SMALL" --primary-key id --option bucket=2 --option write-buffer-size=256kb \
  --option local-sort.max-num-file-handles=3 \
  -- --rows 30000 --batch 1000 --commit-every 15000 --keys 5000 --deletes && check pk-spill model
make_table pk-spill-cl "$SMALL" --primary-key id,p --partition-by p --option bucket=2 \
  --option write-buffer-size=256kb --option changelog-producer=input \
  -- --rows 30000 --batch 1000 --commit-every 15000 --keys 5000 --parts 2 --deletes && check pk-spill-cl model
make_table pk-flush "$SMALL" --primary-key id --option bucket=2 --option write-buffer-size=256kb \
  --option write-buffer-spillable=false \
  -- --rows 30000 --batch 1000 --commit-every 15000 --keys 5000 --deletes && check pk-flush model
make_table pk-changelog "$SMALL" --primary-key id,p --partition-by p --option bucket=2 \
  --option changelog-producer=input -- --rows 3000 --keys 300 --deletes && check pk-changelog model
make_table pk-thin "$SMALL" --primary-key id --option bucket=3 --option data-file.thin-mode=true \
  -- --rows 3000 --keys 500 --deletes && check pk-thin model
make_table pk-stats "$ALL" --primary-key id --option bucket=2 --option metadata.stats-mode=full \
  --option fields.st.stats-mode=none --option fields.d.stats-mode=counts \
  --option fields.vc.stats-mode=truncate\(3\) --option metadata.stats-dense-store=false \
  -- --rows 2000 --keys 300 && check pk-stats model
make_table pk-overwrite "$SMALL" --primary-key id,p --partition-by p --option bucket=2 \
  -- --rows 3000 --commit-every 1000 --keys 300 --parts 3 --overwrite-last && check pk-overwrite model
make_table pk-partial "$SMALL" --primary-key id --option bucket=2 --option merge-engine=partial-update \
  -- --rows 3000 --keys 200 && check pk-partial -
make_table pk-agg "$SMALL" --primary-key id --option bucket=2 --option merge-engine=aggregation \
  --option fields.n.aggregate-function=sum --option fields.d.aggregate-function=max \
  --option fields.d.ignore-retract=true \
  -- --rows 3000 --keys 200 --deletes && check pk-agg -
make_table pk-dynamic "$SMALL" --primary-key id \
  -- --rows 5000 --commit-every 1000 --keys 1000 --deletes && check pk-dynamic model
make_table pk-dynamic-parts "$SMALL" --primary-key id,p --partition-by p \
  --option dynamic-bucket.target-row-num=100 \
  -- --rows 6000 --commit-every 1500 --keys 700 --parts 3 --deletes && check pk-dynamic-parts model
make_table pk-dynamic-overwrite "$SMALL" --primary-key id,p --partition-by p \
  --option dynamic-bucket.target-row-num=50 \
  -- --rows 3000 --commit-every 1000 --keys 300 --parts 2 --overwrite-last && check pk-dynamic-overwrite model
make_table pk-cross "$SMALL" --primary-key id --partition-by p \
  --option dynamic-bucket.target-row-num=100 \
  -- --rows 5000 --commit-every 1000 --keys 500 --parts 3 --deletes && check pk-cross model
make_table pk-cross-partial "$SMALL" --primary-key id --partition-by p --option merge-engine=partial-update \
  -- --rows 3000 --commit-every 1000 --keys 300 --parts 3 && check pk-cross-partial -
# bloom-filter file indexes, embedded (small filters) and as .index files (Java's default
# size), then a --where equality and IN that the indexes serve give the model's rows
where_check() {
  name=$1 expr=$2 pattern=$3 t="$tmp/$1"
  "$PAIMON_CLI" cat "$t" --where "$expr" --format jsonl | sort > "$t.where" || { echo "FAIL $name: cat --where"; fail=1; return; }
  grep -E "$pattern" "$t.expected" | sort > "$t.wexp"
  cmp -s "$t.where" "$t.wexp" || { echo "FAIL $name: --where $expr"; diff "$t.wexp" "$t.where" | head -5; fail=1; return; }
  echo "ok $name --where $expr: $(wc -l < "$t.where") rows"
}
make_table append-bloom "$SMALL" --option file-index.bloom-filter.columns=id,v \
  --option file-index.bloom-filter.id.items=100 --option file-index.bloom-filter.v.items=100 \
  -- --rows 3000 --commit-every 500 && check append-bloom model &&
  where_check append-bloom "id = 1234" '"id":1234,' &&
  where_check append-bloom "id IN (7, 2999, 123456)" '"id":(7|2999),'
make_table append-bloom-files "$SMALL" --partition-by p --option file-index.bloom-filter.columns=id \
  -- --rows 2000 --commit-every 1000 --parts 2 && check append-bloom-files model &&
  where_check append-bloom-files "id = 1500" '"id":1500,'
# paimon write: a table's rows printed by paimon cat (JSONL and CSV, every type with nulls)
# written into a new table of the same schema through the command, read back by the oracle
cli_copy() {
  src=$1 name=$2 fmt=$3; shift 3
  # shellcheck disable=SC2086
  "$PAIMON_CLI" create "$tmp/$name" --schema "$ALL" "$@" > /dev/null || { echo "FAIL $name: create"; fail=1; return 1; }
  "$PAIMON_CLI" cat "$tmp/$src" --format "$fmt" > "$tmp/$name.in" || { echo "FAIL $name: cat"; fail=1; return 1; }
  "$PAIMON_CLI" write "$tmp/$name" --format "$fmt" --input "$tmp/$name.in" --commit-every 700 > "$tmp/$name.log" || { echo "FAIL $name: paimon write"; fail=1; return 1; }
  cp "$tmp/$src.expected" "$tmp/$name.expected"
  check "$name" model
}
cli_copy append-unaware cli-jsonl jsonl
cli_copy append-unaware cli-csv csv --option bucket=2 --option bucket-key=id
cli_copy pk-all-types cli-pk-jsonl jsonl --primary-key id,p --partition-by p
# the demo's orders table (three commits of inserts, updates and deletes; make demo)
if "$PAIMON_CLI" demo "$tmp/demo-wh" > "$tmp/demo.log" 2>&1; then
  cat > "$tmp/demo-wh/demo.db/orders.expected" <<'ROWS'
{"order_id":1001,"dt":"2026-04-18","customer":"ada","amount":"25.50","status":"delivered","updated_at":"2026-04-20 16:20:00.000"}
{"order_id":1002,"dt":"2026-04-18","customer":"grace","amount":"98.00","status":"shipped","updated_at":"2026-04-19 07:05:00.000"}
{"order_id":1004,"dt":"2026-04-19","customer":"edsger","amount":"64.90","status":"shipped","updated_at":"2026-04-20 09:00:00.000"}
{"order_id":1005,"dt":"2026-04-19","customer":"barbara","amount":"19.99","status":"new","updated_at":"2026-04-19 08:30:00.000"}
{"order_id":1007,"dt":"2026-04-19","customer":"dennis","amount":"42.00","status":"new","updated_at":"2026-04-19 12:00:00.000"}
{"order_id":1008,"dt":"2026-04-20","customer":"margaret","amount":"310.00","status":"new","updated_at":"2026-04-20 10:00:00.000"}
ROWS
  check demo-wh/demo.db/orders model
else
  echo "FAIL demo:"; tail -5 "$tmp/demo.log"; fail=1
fi
[ "$fail" = 0 ] && echo "write tables: every table clean under oracle --strict, rows and files match"
exit $fail
