#!/bin/sh
# `paimon tail` against batch reads (tail_apply.mjs): for every snapshot of every fixture
# table, and of tables paimon-c writes here (changelog-producer input and none, deletes and
# updates, partitions and buckets, an append table), the changes of snapshot N applied to
# the rows of snapshot N-1 give the rows of snapshot N -- exactly where the change stream
# carries every change, by the weaker rule of tail_apply.mjs elsewhere.
set -u
: "${PAIMON_CLI:?}"
here=$(dirname "$0")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; tables=0

check() {
  tables=$((tables + 1))
  node "$here/tail_apply.mjs" "$PAIMON_CLI" "$1" > "$tmp/out" 2>&1 || fail=1
  cat "$tmp/out"
}

# Tables paimon-c writes: random upserts and deletes in several commits.
gen() { # gen SEED ROWS KINDS: JSONL rows over keys 0..29 in partitions p=0,1
  awk -v seed="$1" -v n="$2" -v kinds="$3" 'BEGIN {
    srand(seed); split(kinds, k, ",");
    for (i = 0; i < n; i++) {
      id = int(rand() * 30); kind = k[1 + int(rand() * length(k))];
      printf "{\"_ROW_KIND\":\"%s\",\"id\":%d,\"p\":%d,\"v\":\"v%d\"}\n", kind, id, id % 2, i
    }
  }'
}
for producer in input none; do
  T="$tmp/pk_$producer"
  "$PAIMON_CLI" create "$T" --schema 'id BIGINT, p INT, v STRING' --primary-key id,p \
    --partition-by p --option bucket=2 --option changelog-producer=$producer > /dev/null || fail=1
  for seed in 1 2 3 4 5; do
    gen $seed 40 '+I,+I,+U,-D' | "$PAIMON_CLI" write "$T" --commit-every 15 > /dev/null || fail=1
  done
  check "$T"
done
T="$tmp/append"
"$PAIMON_CLI" create "$T" --schema 'id BIGINT, p INT, v STRING' --partition-by p > /dev/null || fail=1
for seed in 1 2 3; do
  gen $seed 25 '+I' | "$PAIMON_CLI" write "$T" --commit-every 10 > /dev/null || fail=1
done
check "$T"

FIXTURES=${PAIMON_FIXTURES:-}
if [ ! -d "$FIXTURES" ]; then
  if [ -n "${CI:-}" ]; then echo "fixtures missing under CI: $FIXTURES"; exit 1; fi
  echo "NOTE: fixtures not found; only tables written here were checked"
else
  for table in "$FIXTURES"/*/; do
    table=${table%/}
    [ -d "$table/schema" ] && [ -d "$table/snapshot" ] || continue
    check "$table"
  done
fi
echo "$tables tables"
exit $fail
