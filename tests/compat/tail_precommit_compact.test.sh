#!/bin/sh
# changelog.precommit-compact (Java's Flink option precommit-compact): twin tables, written
# with the same rows, one with the option and one without; `paimon tail` must print the same
# changes, snapshot by snapshot and from the earliest, and `paimon cat` the same rows.  The
# table with the option must also show the packing itself:
#   - packed physical files `compacted-changelog-<uuid>$<b>-<len>.cc-<fmt>` exist, and no
#     file on disk has a piece's name (pieces are names in manifests only);
#   - the original changelog files that were packed are gone (fewer changelog-* files);
#   - the oracle (--strict) finds the metadata Java-shaped (changelog row counts included)
#     and reads the same rows.
# Cases: changelog-producer=input over 2 partitions x 2 buckets in Parquet (option key
# changelog.precommit-compact), ORC and Avro (key precommit-compact); 8 buckets with a small
# target-file-size, so a partition's changelogs close their group early and make several
# packed files per commit (more than partitions x commits); full-compaction by the dedicated
# job and by the writers, and lookup by the writers (changelogs of the compact increment).
# The oracle reads no ORC data files: the ORC twin is not given to it.
set -u
: "${PAIMON_CLI:?}"
P=$PAIMON_CLI
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

gen() { # gen SEED ROWS BUCKETS: JSONL changes over keys 0..39 in partitions p=0,1
  awk -v seed="$1" -v n="$2" 'BEGIN {
    srand(seed); split("+I,+I,-U,+U,-D", k, ",");
    for (i = 0; i < n; i++) {
      id = int(rand() * 40); kind = k[1 + int(rand() * 5)];
      printf "{\"_ROW_KIND\":\"%s\",\"id\":%d,\"p\":%d,\"v\":\"v%d\"}\n", kind, id, id % 2, i
    }
  }'
}

# pair NAME KEY COMPACT_JOB OPTIONS...: creates NAME_on (KEY=true) and NAME_off
pair() {
  name=$1; key=$2; shift 2
  for side in off on; do
    if [ $side = on ]; then set -- "$@" --option "$key=true"; fi
    $P create "$tmp/${name}_$side" --schema 'id BIGINT, p INT, v STRING' --primary-key id,p \
      --partition-by p "$@" > /dev/null || { echo "FAIL: create ${name}_$side"; fail=1; }
  done
}

# run NAME ROUNDS JOB: writes both twins (JOB=1: `paimon compact --full` after each round);
# --fixed-compaction, so that the writers' compactions land in the same commits of both twins
# (under Java's rule a commit takes a compaction when it has finished, and the twins are
# compared snapshot by snapshot)
run() {
  name=$1; rounds=$2; job=$3
  for seed in $(seq 1 "$rounds"); do
    gen "$seed" 120 > "$tmp/in"
    for side in on off; do
      $P write "$tmp/${name}_$side" --input "$tmp/in" --commit-every 40 --fixed-compaction \
        > /dev/null ||
        { echo "FAIL: write ${name}_$side seed $seed"; fail=1; }
      if [ "$job" = 1 ]; then
        $P compact "$tmp/${name}_$side" --full > /dev/null ||
          { echo "FAIL: compact ${name}_$side"; fail=1; }
      fi
    done
  done
}

# check NAME MIN_PACKED: the twins' changes and rows agree, the packing happened
check() {
  name=$1; min_packed=$2
  on="$tmp/${name}_on"; off="$tmp/${name}_off"
  $P tail "$on" --from earliest > "$tmp/t_on" || { echo "FAIL: $name: tail (option on)"; fail=1; }
  $P tail "$off" --from earliest > "$tmp/t_off" || { echo "FAIL: $name: tail (option off)"; fail=1; }
  if ! cmp -s "$tmp/t_on" "$tmp/t_off"; then
    echo "FAIL: $name: tail --from earliest differs"; diff "$tmp/t_on" "$tmp/t_off" | head; fail=1
  fi
  changes=$(wc -l < "$tmp/t_on")
  [ "$changes" -gt 0 ] || { echo "FAIL: $name: no changes at all"; fail=1; }
  last=$(ls "$on/snapshot" | sed -n 's/^snapshot-//p' | sort -n | tail -1)
  [ "$last" = "$(ls "$off/snapshot" | sed -n 's/^snapshot-//p' | sort -n | tail -1)" ] ||
    { echo "FAIL: $name: the twins have different snapshot counts"; fail=1; }
  for s in $(seq 1 "$last"); do
    $P tail "$on" --from "snapshot:$s" --to "snapshot:$s" > "$tmp/s_on" 2>&1
    $P tail "$off" --from "snapshot:$s" --to "snapshot:$s" > "$tmp/s_off" 2>&1
    cmp -s "$tmp/s_on" "$tmp/s_off" || { echo "FAIL: $name: snapshot $s changes differ"; fail=1; }
  done
  $P cat "$on" --format jsonl | sort > "$tmp/c_on"
  $P cat "$off" --format jsonl | sort > "$tmp/c_off"
  cmp -s "$tmp/c_on" "$tmp/c_off" || { echo "FAIL: $name: rows differ"; fail=1; }
  packed=$(find "$on" -name 'compacted-changelog-*' | wc -l)
  pieces=$(find "$on" -name 'compacted-changelog-*' | grep -c -E '\$[0-9]+-[0-9]+-[0-9]+-[0-9]+\.cc-')
  shape=$(find "$on" -name 'compacted-changelog-*' | grep -c -v -E '/bucket-[0-9]+/compacted-changelog-[0-9a-f-]{36}\$[0-9]+-[0-9]+\.cc-(parquet|orc|avro)$')
  originals_on=$(find "$on" -name 'changelog-*' | wc -l)
  originals_off=$(find "$off" -name 'changelog-*' | wc -l)
  [ "$packed" -ge "$min_packed" ] ||
    { echo "FAIL: $name: $packed packed files, expected at least $min_packed"; fail=1; }
  [ "$pieces" = 0 ] || { echo "FAIL: $name: $pieces files on disk carry a piece's name"; fail=1; }
  [ "$shape" = 0 ] || { echo "FAIL: $name: $shape packed files are misnamed"; fail=1; }
  [ "$originals_on" -lt "$originals_off" ] ||
    { echo "FAIL: $name: $originals_on changelog files left, $originals_off without the option"; fail=1; }
  if [ -n "${ORACLE_DIR:-}" ] && [ "$name" != input_orc ]; then
    node "$ORACLE_DIR/oracle.mjs" "$on" --strict > "$tmp/orows" 2> "$tmp/report" ||
      { echo "FAIL: $name (oracle):"; grep PROBLEM "$tmp/report" | head; fail=1; }
    node "$ORACLE_DIR/compare.mjs" "$tmp/orows" "$tmp/c_on" > /dev/null ||
      { echo "FAIL: $name: the oracle's rows differ"; fail=1; }
  fi
  echo "$name: $changes changes in $last snapshots read the same; $packed packed files," \
    "$originals_on changelog files left of $originals_off"
}

pair input_parquet changelog.precommit-compact --option bucket=2 --option changelog-producer=input
pair input_orc precommit-compact --option bucket=2 --option changelog-producer=input \
  --option file.format=orc
pair input_avro precommit-compact --option bucket=2 --option changelog-producer=input \
  --option file.format=avro
# changelog files of about 1.2 KB: groups close at 3 KB (files under 2.1 KB join)
pair input_small changelog.precommit-compact --option bucket=8 --option changelog-producer=input \
  --option target-file-size=3kb
pair fullcompact changelog.precommit-compact --option bucket=2 \
  --option changelog-producer=full-compaction --option write-only=true
pair fullcompact_writer changelog.precommit-compact --option bucket=2 \
  --option changelog-producer=full-compaction --option full-compaction.delta-commits=1
pair lookup precommit-compact --option bucket=2 --option changelog-producer=lookup

run input_parquet 3 0
run input_orc 3 0
run input_avro 3 0
run input_small 2 0
run fullcompact 3 1
run fullcompact_writer 3 0
run lookup 3 0

check input_parquet 6
check input_orc 6
check input_avro 6
# more packed files than 2 partitions x 8 commits: groups closed early
check input_small 17
check fullcompact 3
check fullcompact_writer 6
check lookup 6
exit $fail
