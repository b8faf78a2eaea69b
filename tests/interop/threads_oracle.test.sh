#!/bin/sh
# Tables written by the threaded writers with background compaction (issue 15), read by the
# oracle with --strict (which runs the --check-metadata checks too): `paimon write --threads 4 --commit-every` into
# partitioned primary-key tables with 4 buckets (deduplicate; deletion vectors with the
# lookup changelog producer; aggregation; first-row; dynamic buckets), then
# `paimon compact --threads 2 --full`.  After the write and after the compaction, the
# oracle's rows equal `paimon cat` and the model of the input, and the metadata of every
# snapshot has the shapes Java 1.4.2 writes (the compactions that land between commits, as
# COMPACT snapshots, included).  write_threads_same.case compares thread counts with each
# other; this compares them with the oracle.
set -u
: "${PAIMON_CLI:?}" "${ORACLE_DIR:?}"
P=$PAIMON_CLI
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# 4000 changes of 1000 keys over 3 partitions, every 9th a delete
awk 'BEGIN { for (i = 0; i < 4000; i++) { k = (i * 7919) % 1000; p = k % 3
  if (i % 9 == 8) printf "{\"_ROW_KIND\":\"-D\",\"p\":%d,\"id\":%d}\n", p, k
  else printf "{\"p\":%d,\"id\":%d,\"v\":%d,\"s\":\"s%d-%d\",\"d\":\"%d.%02d\"}\n", p, k, i % 100, k, i, i, i % 100 } }' > "$tmp/in"
# the model: the last row of each key unless a delete came last (deduplicate)
awk '{ match($0, /"p":[0-9]+,"id":[0-9]+/); key = substr($0, RSTART, RLENGTH)
  if (index($0, "\"-D\"")) delete row[key]; else row[key] = $0 }
  END { for (k in row) print row[k] }' "$tmp/in" > "$tmp/dedup.model"
# first-row ignoring deletes: the first row of each key
grep -v '"-D"' "$tmp/in" | awk '{ match($0, /"p":[0-9]+,"id":[0-9]+/); key = substr($0, RSTART, RLENGTH)
  if (!(key in row)) { row[key] = $0; print } }' > "$tmp/firstrow.model"

same() { # same TABLE MODEL WHEN: the oracle (--strict: also --check-metadata) = paimon cat (= MODEL)
  t=$1; model=$2; when=$3
  node "$ORACLE_DIR/oracle.mjs" "$tmp/$t" --strict > "$tmp/$t.oracle" 2> "$tmp/$t.report" ||
    { echo "FAIL $t $when: oracle --strict"; grep -i problem "$tmp/$t.report" | head -5; fail=1; return; }
  $P cat "$tmp/$t" --format jsonl > "$tmp/$t.cat" || { echo "FAIL $t $when: cat"; fail=1; return; }
  node "$ORACLE_DIR/compare.mjs" "$tmp/$t.oracle" "$tmp/$t.cat" > "$tmp/cmp" 2>&1 ||
    { echo "FAIL $t $when: the oracle and paimon cat differ"; head -5 "$tmp/cmp"; fail=1; return; }
  if [ -n "$model" ]; then
    node "$ORACLE_DIR/compare.mjs" "$tmp/$model" "$tmp/$t.oracle" > "$tmp/cmp" 2>&1 ||
      { echo "FAIL $t $when: the oracle differs from the model"; head -5 "$tmp/cmp"; fail=1; return; }
  fi
}

run() { # run NAME MODEL OPTION...
  t=$1; model=$2; shift 2
  $P create "$tmp/$t" --schema 'p INT NOT NULL, id BIGINT NOT NULL, v INT, s STRING, d DECIMAL(10, 2)' \
    --primary-key p,id --partition-by p --option write-buffer-size=64kb "$@" > /dev/null ||
    { echo "FAIL $t: create"; fail=1; return; }
  $P write "$tmp/$t" --input "$tmp/in" --threads 4 --commit-every 500 > /dev/null 2> "$tmp/err" ||
    { echo "FAIL $t: write: $(cat "$tmp/err")"; fail=1; return; }
  same "$t" "$model" "after the write"
  $P compact "$tmp/$t" --threads 2 --full > /dev/null 2> "$tmp/err" ||
    { echo "FAIL $t: compact: $(cat "$tmp/err")"; fail=1; return; }
  same "$t" "$model" "after compact --full"
  kinds=$($P inspect "$tmp/$t" snapshots --format jsonl | sed -n 's/.*"commitKind":"\([A-Z]\).*/\1/p' | tr -d '\n')
  echo "$t: $(wc -l < "$tmp/$t.oracle") rows; snapshots $kinds"
  case $kinds in *C*A*) ;; *) echo "FAIL $t: no compaction landed between commits ($kinds)"; fail=1 ;; esac
}

run dedup dedup.model --option bucket=4 --option num-sorted-run.compaction-trigger=2
run dv-lookup dedup.model --option bucket=4 --option deletion-vectors.enabled=true \
  --option changelog-producer=lookup --option lookup-wait=false
run agg "" --option bucket=4 --option merge-engine=aggregation --option fields.v.aggregate-function=sum \
  --option num-sorted-run.compaction-trigger=2
run first-row firstrow.model --option bucket=4 --option merge-engine=first-row --option ignore-delete=true \
  --option lookup-wait=false
run dynamic dedup.model --option bucket=-1 --option dynamic-bucket.target-row-num=200 \
  --option num-sorted-run.compaction-trigger=2
exit $fail
