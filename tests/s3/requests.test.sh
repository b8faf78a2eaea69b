#!/bin/sh
# The request budget of issue 14, counted by the test server's proxy: a write-and-commit of
# one new small file (one row) into one bucket of an existing table (3 commits before).
#  (a) unaware-bucket append table: at most 12 requests, the data file's upload included
#      (the issue's figure); exactly 6 of them PUTs (data file, manifest, base and delta
#      manifest lists, snapshot, LATEST);
#  (b) fixed-bucket append and (c) primary-key tables (bucket=4): at most the figures
#      measured when the budget was set (docs/PERFORMANCE.md "Requests on S3"), so that a
#      change that adds requests fails here and has to say why;
#  (d) planning a scan of a 100-file table: at most the measured figure.
# Each write's rows are read back, so a cheaper but wrong write fails too.
set -u
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
P=${PAIMON_CLI:?PAIMON_CLI names the paimon binary}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/s3requests.XXXXXX")
trap 's3_stop; rm -rf "$WORK"' EXIT
s3_start || exit 1
W="s3://$S3_BUCKET/req"
fail=0

# the proxy's total; exits the test when it is not a number (an empty or unparsed answer
# would make every `-gt` below false, a budget check that passes having compared nothing)
total() {
  t=$(s3_counts | sed -n 's/^{"total":\([0-9][0-9]*\),.*/\1/p')
  [ -n "$t" ] || { echo "FAIL: no request count from the proxy: $(s3_counts)" >&2; exit 1; }
  echo "$t"
}
kind() { s3_counts | sed -n "s/.*\"byKind\":{[^}]*\"$1\":\([0-9]*\).*/\1/p"; }

# budget NAME MAX CREATE-OPTIONS...: 3 commits of 100 rows, then one row, counted.
budget() {
  name=$1 max=$2
  shift 2
  "$P" create "$W/$name" --schema 'id BIGINT NOT NULL, v STRING' "$@" > /dev/null || { fail=1; return; }
  for c in 1 2 3; do
    awk -v c=$c 'BEGIN { for (i = 0; i < 100; i++) printf "{\"id\":%d,\"v\":\"c%d\"}\n", c * 1000 + i, c }' |
      "$P" write "$W/$name" > /dev/null || { fail=1; return; }
  done
  s3_reset > /dev/null
  printf '{"id":1,"v":"new"}\n' | "$P" write "$W/$name" > /dev/null || { echo "FAIL $name: write"; fail=1; return; }
  n=$(total) || exit 1
  puts=$(kind PUT)
  echo "$name: $n requests ($puts PUT), budget $max"
  if [ "$n" -gt "$max" ]; then
    echo "FAIL $name: $n requests > $max"; s3_log | head -c 20000; echo; fail=1
  fi
  if [ "$puts" != 6 ]; then echo "FAIL $name: $puts PUTs, want 6"; fail=1; fi
  rows=$("$P" cat "$W/$name" | wc -l)
  if [ "$rows" != 301 ]; then echo "FAIL $name: $rows rows after the write, want 301"; fail=1; fi
}

budget ap 12
budget fb 18 --option bucket=4 --option bucket-key=id
budget pk 18 --primary-key id --option bucket=4

# (d) planning: 100 buckets, one commit
"$P" create "$W/f100" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id --option bucket=100 > /dev/null
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "{\"id\":%d,\"v\":\"x\"}\n", i }' | "$P" write "$W/f100" > /dev/null
s3_reset > /dev/null
files=$("$P" inspect "$W/f100" files --format jsonl | wc -l)
n=$(total) || exit 1
echo "plan f100: $files files, $n requests, budget 8"
[ "$files" = 100 ] || { echo "FAIL plan: $files files, want 100"; fail=1; }
[ "$n" -le 8 ] || { echo "FAIL plan: $n requests > 8"; s3_log; fail=1; }

exit $fail
