#!/bin/sh
# The C API example (examples/follow_table.c) follows a table with a consumer: its first run
# reads the latest snapshot fully and checkpoints; a second run, after more commits, resumes
# at the checkpoint and reads only the new snapshots' changes (as Arrow streams, row kinds
# counted), and the consumer file says where it stopped.
set -u
: "${PAIMON_CLI:?}" "${PAIMON_BUILD_DIR:?}"
EXAMPLE="$PAIMON_BUILD_DIR/example_follow_table"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
T="$tmp/t"
"$PAIMON_CLI" create "$T" --schema 'id BIGINT, v STRING' --primary-key id --option bucket=2 \
  --option changelog-producer=input > /dev/null || exit 1
printf '{"id":1,"v":"a"}\n{"id":2,"v":"b"}\n' | "$PAIMON_CLI" write "$T" > /dev/null || exit 1
printf '{"id":3,"v":"c"}\n' | "$PAIMON_CLI" write "$T" > /dev/null || exit 1
"$EXAMPLE" "$T" app 200 > "$tmp/first" || { echo "FAIL: first run"; exit 1; }
printf 'snapshot 2 full +I=3 -U=0 +U=0 -D=0\nposition 3\n' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/first" || { echo "FAIL: first run:"; cat "$tmp/first"; fail=1; }
printf '{"_ROW_KIND":"-U","id":1,"v":"a"}\n{"_ROW_KIND":"+U","id":1,"v":"z"}\n{"_ROW_KIND":"-D","id":2,"v":"b"}\n' |
  "$PAIMON_CLI" write "$T" > /dev/null || exit 1
printf '{"id":4,"v":"d"}\n' | "$PAIMON_CLI" write "$T" > /dev/null || exit 1
"$EXAMPLE" "$T" app 200 > "$tmp/second" || { echo "FAIL: second run"; exit 1; }
printf 'snapshot 3 changes +I=0 -U=1 +U=1 -D=1\nsnapshot 4 changes +I=1 -U=0 +U=0 -D=0\nposition 5\n' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/second" || { echo "FAIL: second run:"; cat "$tmp/second"; fail=1; }
grep -q '"nextSnapshot" : 5' "$T/consumer/consumer-app" ||
  { echo "FAIL: consumer file:"; cat "$T/consumer/consumer-app"; fail=1; }
"$EXAMPLE" "$T" app 200 > "$tmp/third" || { echo "FAIL: third run"; exit 1; }
[ "$(cat "$tmp/third")" = "position 5" ] || { echo "FAIL: third run:"; cat "$tmp/third"; fail=1; }
exit $fail
