#!/bin/sh
# Requests paimon-c sends to S3, counted by the test server's proxy (tests/s3), issue 14
# (docs/PERFORMANCE.md "Requests on S3"):  a write-and-commit of one new small file (one row)
# into one bucket of an existing table (3 commits before), every request listed with what
# it is for, in three table layouts:
#  (a) an unaware-bucket append table (the issue's target: at most 12 requests);
#  (b) a fixed-bucket append table (bucket=4, bucket-key=id);
#  (c) a primary-key table (bucket=4);
#  (d) planning a scan (`paimon inspect TABLE files`: the live files from the manifests, no
#      data file read) of tables of about 1,000 data files laid out in 1 commit and in 20
#      commits, and of a 100-file table: the requests should grow with the manifests, not
#      with the files.
#   sh bench/s3_requests.sh [BUILD]          (BUILD: build/release by default)
# Counts do not depend on the machine; the run needs no taskset.  tests/s3/requests.test.sh
# holds the figures as a budget.
set -u
cd "$(dirname "$0")/.."
build=${1:-build/release}
P=$build/paimon
[ -x "$P" ] || { echo "no $P (cmake --build --preset release)"; exit 1; }
sh scripts/setup-node.sh "$build" > /dev/null || exit 1
S3_LIB_DIR=$PWD/tests/s3
. tests/s3/lib.sh
s3_start || exit 1
tmp=$(mktemp -d); trap 's3_stop; rm -rf "$tmp"' EXIT
W="s3://$S3_BUCKET/bench"

# requests: the log since the last reset as "METHOD KEY?QUERY STATUS", one a line.
requests() {
  s3_log | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    for (const e of JSON.parse(s)) {
      const key = decodeURIComponent(e.path).replace(/^\/[^/]+\/?/, "");
      console.log(`${e.method.padEnd(6)} ${e.kind.padEnd(12)} ${key}${e.query ? "?" + decodeURIComponent(e.query) : ""} -> ${e.status}`);
    }})'
}
# purpose KEY: what a request on KEY is for.
purpose() {
  case "$1" in
    *\?*list-type*schema*) echo "list the schemas";;
    *\?*list-type*snapshot*) echo "list snapshots";;
    *\?*list-type*) echo "list";;
    */schema/schema-*) echo "read the schema";;
    */snapshot/LATEST) echo "LATEST hint";;
    */snapshot/EARLIEST) echo "EARLIEST hint";;
    */snapshot/snapshot-*) echo "snapshot";;
    */manifest/manifest-list-*) echo "manifest list";;
    */manifest/index-manifest-*) echo "index manifest";;
    */manifest/manifest-*) echo "manifest";;
    */bucket-*/data-*) echo "data file";;
    */index/*) echo "index file";;
    *) echo "?";;
  esac
}

# one_row NAME TITLE CREATE-OPTIONS...: create NAME, 3 commits of 100 rows, then list the
# requests of a one-row write-and-commit.
one_row() {
  name=$1 title=$2
  shift 2
  echo "== $title"
  "$P" create "$W/$name" --schema 'id BIGINT NOT NULL, v STRING' "$@" > /dev/null
  for c in 1 2 3; do
    awk -v c=$c 'BEGIN { for (i = 0; i < 100; i++) printf "{\"id\":%d,\"v\":\"c%d\"}\n", c * 1000 + i, c }' | "$P" write "$W/$name" > /dev/null
  done
  s3_reset > /dev/null
  printf '{"id":1,"v":"new"}\n' | "$P" write "$W/$name" > /dev/null
  requests > "$tmp/a"
  i=0
  while read -r method kind key arrow status; do
    i=$((i + 1))
    printf '%3d  %-6s %-12s %-4s %-22s %s\n' "$i" "$method" "$kind" "$status" "$(purpose "$key")" "$key"
  done < "$tmp/a"
  total=$(wc -l < "$tmp/a")
  echo "total: $total requests ($(s3_counts | sed 's/.*"byKind":\({[^}]*}\).*/\1/'))"
  echo
}
one_row ap "(a) one row into an unaware-bucket append table (3 commits before)"
one_row fb "(b) one row into one bucket of a fixed-bucket append table (bucket=4, 3 commits before)" \
  --option bucket=4 --option bucket-key=id
one_row pk "(c) one row into one bucket of a primary-key table (bucket=4, 3 commits before)" \
  --primary-key id --option bucket=4

echo "== (d) planning a scan: paimon inspect TABLE files"
plan() { # plan NAME: the requests of one plan of table NAME, and its manifests
  s3_reset > /dev/null
  "$P" inspect "$W/$1" files --format jsonl > "$tmp/files"
  c=$(s3_counts)
  files=$(wc -l < "$tmp/files")
  manifests=$("$P" inspect "$W/$1" manifests --format jsonl | grep -c '"file_name"\|"fileName"')
  printf '%-12s %5d files %4d manifests: %4d requests %s\n' "$1" "$files" "$manifests" \
    "$(printf '%s' "$c" | sed 's/{"total":\([0-9]*\).*/\1/')" "$(printf '%s' "$c" | sed 's/.*"byKind":\({[^}]*}\).*/\1/')"
}
rows() { awk -v n="$1" -v base="$2" 'BEGIN { for (i = 0; i < n; i++) printf "{\"id\":%d,\"v\":\"x\"}\n", base + i }'; }
# 1,000 buckets, 8,000 rows in one commit: nearly every bucket gets a file.
"$P" create "$W/f1000x1" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id --option bucket=1000 > /dev/null
rows 8000 0 | "$P" write "$W/f1000x1" > /dev/null
# 50 buckets, 20 commits of 1,000 rows (write-only: no compaction merges them).
"$P" create "$W/f1000x20" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id --option bucket=50 \
  --option write-only=true > /dev/null
c=0; while [ $c -lt 20 ]; do rows 1000 $((c * 1000)) | "$P" write "$W/f1000x20" > /dev/null; c=$((c + 1)); done
"$P" create "$W/f100" --schema 'id BIGINT NOT NULL, v STRING' --primary-key id --option bucket=100 > /dev/null
rows 2000 0 | "$P" write "$W/f100" > /dev/null
plan f100
plan f1000x1
plan f1000x20
