#!/bin/sh
# Tables written with file.format=avro and file.format=orc (tests/interop/write_gen.c: random
# rows of every type the format holds, the table writer, the commit layer).
#   avro: the oracle reads the Avro data files with --strict (Java 1.4.2 shapes, sizes,
#         statistics bounds and null counts, key ranges, bucket hashing) and gives the
#         generator's rows and `paimon cat`'s; `paimon inspect files` agrees with it.
#   orc:  the oracle has no ORC reader, so `paimon cat` must give the generator's rows,
#         `inspect files` must name .orc files whose rows add up, and the same tables
#         written as Parquet must give the same rows.
# Cases: append and primary-key tables, partitioned, fixed and unaware buckets, several
# commits, deletes, a small write buffer, rolling files, changelog-producer=input and the
# `paimon write` command.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}" "${PAIMON_BUILD_DIR:?}"
GEN="$PAIMON_BUILD_DIR/tests/interop/interop_write_gen"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# every type; Avro (as Java's AvroSchemaConverter) holds no TIME(p > 3) and no TIMESTAMP(p > 6)
ORC_ALL='id BIGINT, p INT, b BOOLEAN, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE, dc DECIMAL(9, 2), dl DECIMAL(18, 4), dx DECIMAL(30, 5), c CHAR(5), vc VARCHAR(30), st STRING, bi BINARY(4), vb VARBINARY(20), by BYTES, dt DATE, tm TIME, tm6 TIME(6), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), lz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, lz6 TIMESTAMP(6) WITH LOCAL TIME ZONE, arr ARRAY<INT>, mp MAP<STRING, DOUBLE>, ms MULTISET<INT>, r ROW<x INT, y STRING, z ARRAY<STRING>>'
AVRO_ALL='id BIGINT, p INT, b BOOLEAN, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE, dc DECIMAL(9, 2), dl DECIMAL(18, 4), dx DECIMAL(30, 5), c CHAR(5), vc VARCHAR(30), st STRING, bi BINARY(4), vb VARBINARY(20), by BYTES, dt DATE, tm TIME, ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), lz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, lz6 TIMESTAMP(6) WITH LOCAL TIME ZONE, arr ARRAY<INT>, mp MAP<STRING, DOUBLE>, ms MULTISET<INT>, r ROW<x INT, y STRING, z ARRAY<STRING>>'
SMALL='id BIGINT, p INT, v STRING, n INT, d DOUBLE'

# the data files of table $1 all end in .$2, and their rows add up to the live row count
files_check() {
  t=$1 ext=$2
  "$PAIMON_CLI" inspect "$t" files --format jsonl > "$t.files" || { echo "FAIL $t: inspect files"; return 1; }
  if grep -v "\"file_name\":\"[^\"]*\\.$ext\"" "$t.files" | grep -q .; then
    echo "FAIL $t: a data file that is not .$ext:"; grep -v "\\.$ext\"" "$t.files" | head -2; return 1
  fi
  [ -s "$t.files" ] || { echo "FAIL $t: no data files"; return 1; }
  return 0
}

# check_avro NAME MODEL (as write_tables.test.sh: oracle --strict, cat, model, files)
check_avro() {
  name=$1 t="$tmp/$1"
  if ! node "$ORACLE_DIR/oracle.mjs" "$t" --strict > "$t.oracle" 2> "$t.report"; then
    echo "FAIL $name: oracle --strict:"; grep -v '^check: ok' "$t.report" | grep -v '^check: [0-9]' | head -20; fail=1; return
  fi
  "$PAIMON_CLI" cat "$t" --format jsonl > "$t.cat" || { echo "FAIL $name: paimon cat"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$t.cat" "$t.oracle" > "$t.cmp" || { echo "FAIL $name: paimon cat vs oracle"; head -5 "$t.cmp"; fail=1; return; }
  if [ "$2" = model ]; then
    node "$ORACLE_DIR/compare.mjs" "$t.expected" "$t.oracle" > "$t.cmp" || { echo "FAIL $name: model vs oracle"; head -5 "$t.cmp"; fail=1; return; }
  fi
  files_check "$t" avro || { fail=1; return; }
  node "$ORACLE_DIR/oracle.mjs" "$t" --files > "$t.ofiles" || { echo "FAIL $name: oracle --files"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$t.ofiles" "$t.files" > "$t.cmp" || { echo "FAIL $name: files"; head -5 "$t.cmp"; fail=1; return; }
  echo "ok $name: $(wc -l < "$t.oracle") rows, $(wc -l < "$t.files") files, oracle --strict clean"
}

# CHAR(n) read from ORC loses trailing spaces, as ORC Java's CharTreeReader trims the padding
# its writer adds (and a value's own trailing spaces with it): compare column c trimmed
trim_c() {
  node -e '
    const fs = require("fs");
    const out = fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map((l) => {
      const r = JSON.parse(l);
      if (typeof r.c === "string") r.c = r.c.replace(/ +$/, "");
      return JSON.stringify(r);
    });
    fs.writeFileSync(process.argv[2], out.join("\n") + "\n");' "$1" "$2"
}

# check_orc NAME: cat = the model; files are .orc; the Parquet twin (NAME-pq) gives the same
check_orc() {
  name=$1 t="$tmp/$1"
  "$PAIMON_CLI" cat "$t" --format jsonl > "$t.cat" || { echo "FAIL $name: paimon cat"; fail=1; return; }
  if grep -q '"c":"[^"]* "' "$t.cat"; then echo "FAIL $name: a CHAR value with its padding"; fail=1; return; fi
  trim_c "$t.expected" "$t.exp-trim" && trim_c "$t.cat" "$t.cat-trim" || { echo "FAIL $name: trim"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$t.exp-trim" "$t.cat-trim" > "$t.cmp" || { echo "FAIL $name: model vs cat"; head -5 "$t.cmp"; fail=1; return; }
  files_check "$t" orc || { fail=1; return; }
  if [ -d "$t-pq" ]; then
    "$PAIMON_CLI" cat "$t-pq" --format jsonl > "$t-pq.cat" || { echo "FAIL $name: cat parquet twin"; fail=1; return; }
    trim_c "$t-pq.cat" "$t-pq.cat-trim" || { echo "FAIL $name: trim"; fail=1; return; }
    node "$ORACLE_DIR/compare.mjs" "$t-pq.cat-trim" "$t.cat-trim" > "$t.cmp" || { echo "FAIL $name: parquet twin vs orc"; head -5 "$t.cmp"; fail=1; return; }
  fi
  echo "ok $name: $(wc -l < "$t.cat") rows, $(wc -l < "$t.files") files"
}

# make NAME COLUMNS CREATE-ARGS... -- GEN-ARGS...
make_table() {
  name=$1 cols=$2; shift 2
  cargs="" ; while [ $# -gt 0 ] && [ "$1" != -- ]; do cargs="$cargs $1"; shift; done
  [ $# -gt 0 ] && shift
  # shellcheck disable=SC2086
  "$PAIMON_CLI" create "$tmp/$name" --schema "$cols" $cargs > /dev/null || { echo "FAIL $name: create"; fail=1; return 1; }
  "$GEN" "$tmp/$name" "$@" > "$tmp/$name.expected" || { echo "FAIL $name: write"; fail=1; return 1; }
}

A='--option file.format=avro'
O='--option file.format=orc'
# shellcheck disable=SC2086
{
make_table avro-append "$AVRO_ALL" $A -- --rows 2500 --commit-every 800 && check_avro avro-append model
make_table avro-append-fixed "$AVRO_ALL" $A --partition-by p --option bucket=3 --option bucket-key=id \
  -- --rows 3000 --commit-every 1000 --parts 3 && check_avro avro-append-fixed model
make_table avro-roll "$SMALL" $A --partition-by p --option target-file-size=16kb \
  -- --rows 20000 --batch 3000 --parts 2 && check_avro avro-roll model
make_table avro-pk "$AVRO_ALL" $A --primary-key id,p --partition-by p --option bucket=2 \
  -- --rows 4000 --commit-every 1500 --keys 500 --parts 2 --deletes && check_avro avro-pk model
make_table avro-pk-spill "$SMALL" $A --primary-key id --option bucket=2 --option write-buffer-size=256kb \
  --option changelog-producer=input \
  -- --rows 30000 --batch 1000 --commit-every 15000 --keys 5000 --deletes && check_avro avro-pk-spill model
make_table avro-pk-stats "$AVRO_ALL" $A --primary-key id --option bucket=2 --option metadata.stats-mode=full \
  --option fields.st.stats-mode=none --option fields.vc.stats-mode=truncate\(3\) \
  --option file.compression=snappy -- --rows 2000 --keys 300 && check_avro avro-pk-stats model
make_table avro-deflate "$SMALL" $A --option avro.codec=deflate -- --rows 3000 --commit-every 1000 \
  && check_avro avro-deflate model

for pq in "" -pq; do
  fmt=$O; [ -n "$pq" ] && fmt='--option file.format=parquet'
  make_table orc-append$pq "$ORC_ALL" $fmt -- --rows 2500 --commit-every 800 --seed 7
  make_table orc-append-fixed$pq "$ORC_ALL" $fmt --partition-by p --option bucket=3 --option bucket-key=id \
    -- --rows 3000 --commit-every 1000 --parts 3 --seed 8
  make_table orc-pk$pq "$ORC_ALL" $fmt --primary-key id,p --partition-by p --option bucket=2 \
    -- --rows 4000 --commit-every 1500 --keys 500 --parts 2 --deletes --seed 9
done
check_orc orc-append; check_orc orc-append-fixed; check_orc orc-pk
make_table orc-roll "$SMALL" $O --partition-by p --option target-file-size=16kb \
  -- --rows 20000 --batch 3000 --parts 2 && check_orc orc-roll
make_table orc-pk-spill "$SMALL" $O --primary-key id --option bucket=2 --option write-buffer-size=256kb \
  --option changelog-producer=input --option file.compression=snappy \
  -- --rows 30000 --batch 1000 --commit-every 15000 --keys 5000 --deletes && check_orc orc-pk-spill
}
# rolling really happened: target-file-size=16kb over 20000 rows gives several files a partition
for name in avro-roll orc-roll; do
  n=$(wc -l < "$tmp/$name.files" 2>/dev/null || echo 0)
  if [ "$n" -lt 4 ]; then echo "FAIL $name: $n files, expected the writer to roll"; fail=1; fi
done
# ORC rolls only at the end of a 1024-row batch (OrcBulkWriter.reachTargetSize): every
# file but the last of a partition has a multiple of 1024 rows
if [ -s "$tmp/orc-roll.files" ]; then
  bad=$(node -e '
    const fs = require("fs");
    const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
    const by = {};
    for (const r of rows) (by[JSON.stringify(r.partition)] ||= []).push(r.row_count);
    let bad = 0;
    for (const k in by) { const c = by[k]; if (c.filter((n) => n % 1024 !== 0).length > 1) bad++; }
    console.log(bad);' "$tmp/orc-roll.files")
  [ "$bad" = 0 ] || { echo "FAIL orc-roll: files that are not whole 1024-row batches"; cat "$tmp/orc-roll.files" | head -5; fail=1; }
fi

# paimon write: rows printed by paimon cat written through the command into a new table
cli_copy() {
  src=$1 name=$2 cols=$3; shift 3
  # shellcheck disable=SC2086
  "$PAIMON_CLI" create "$tmp/$name" --schema "$cols" "$@" > /dev/null || { echo "FAIL $name: create"; fail=1; return 1; }
  "$PAIMON_CLI" cat "$tmp/$src" --format jsonl > "$tmp/$name.in" || { echo "FAIL $name: cat"; fail=1; return 1; }
  "$PAIMON_CLI" write "$tmp/$name" --input "$tmp/$name.in" --commit-every 700 > "$tmp/$name.log" || { echo "FAIL $name: paimon write"; fail=1; return 1; }
  cp "$tmp/$src.expected" "$tmp/$name.expected"
}
cli_copy avro-pk cli-avro "$AVRO_ALL" $A --primary-key id,p --partition-by p && check_avro cli-avro model
cli_copy orc-pk cli-orc "$ORC_ALL" $O --primary-key id,p --partition-by p && check_orc cli-orc
[ "$fail" = 0 ] && echo "orc/avro tables: Avro clean under oracle --strict, rows and files match"
exit $fail
