#!/bin/sh
# Where a large write to S3 spends its time (issue 14, docs/PERFORMANCE.md "Throughput on
# S3", "Where the write's time goes"):
#  1. the server's own rate: a random file of the data file's size uploaded with curl
#     (SigV4, hashes computed before the clock starts) as one PUT, and as a multipart upload
#     in parts of 16 MiB, 4 in flight (what paimon does);
#  2. a ROWS-row `paimon write` to S3 with the server's request counters polled every
#     0.2 s: the time of the first CreateMultipartUpload is the end of the encoding (the
#     Parquet writer hands its row group over whole), the rest is the upload;
#  3. the same write to local disk.  Each write prints wall, CPU (user + system), peak RSS.
# The server runs pinned to CPU 0 and paimon/curl to CPU 1, as in bench/s3_throughput.sh.
#   sh bench/s3_write_phases.sh [ROWS] [RUNS]      (defaults 10000000 3)
#   P=/other/build/release/paimon sh bench/s3_write_phases.sh ...   (another build)
set -u
cd "$(dirname "$0")/.." || exit 1
rows=${1:-10000000}
runs=${2:-3}
P=${P:-$PWD/build/release/paimon}
[ -x "$P" ] || { echo "no $P (cmake --build --preset release)"; exit 1; }
sh scripts/setup-node.sh build/release > /dev/null || exit 1
S3_LIB_DIR=$PWD/tests/s3
S3_NODE="taskset -c 0 node"
. tests/s3/lib.sh
s3_start || exit 1
dir=$(mktemp -d "${TMPDIR:-/tmp}/s3phases.XXXXXX"); trap 's3_stop; rm -rf "$dir"' EXIT
. bench/lib.sh
COLS=$S3_BENCH_COLS
s3_bench_rows "$rows" "$dir/rows.csv"
now() { date +%s.%N; }
since() { printf '%.2f' "$(echo "$(now) - $1" | bc)"; }
cpu() { read -r w u s m < "$1"; printf '%.2f s wall  %.2f s cpu  %d MB peak RSS' "$w" "$(echo "$u + $s" | bc)" $((m / 1024)); }
user="$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY"
sig=aws:amz:$AWS_REGION:s3

r=1
while [ "$r" -le "$runs" ]; do
  echo "run $r"
  rm -rf "$dir/local"
  "$P" create "$dir/local" --schema "$COLS" > /dev/null
  "$P" create "s3://$S3_BUCKET/w$r" --schema "$COLS" > /dev/null
  s3_reset > /dev/null
  t0=$(now)
  /usr/bin/time -f '%e %U %S %M' -o "$dir/t.s3" taskset -c 1 "$P" write "s3://$S3_BUCKET/w$r" \
    --input "$dir/rows.csv" --format csv > /dev/null 2> "$dir/err" &
  w=$!
  init=
  while kill -0 "$w" 2>/dev/null; do
    if [ -z "$init" ] && s3_counts | grep -q MPU_INIT; then init=$(since "$t0"); fi
    sleep 0.2
  done
  wait "$w" || { echo "FAILED write-s3: $(cat "$dir/err")"; exit 1; }
  echo "  write-s3     $(cpu "$dir/t.s3"); CreateMultipartUpload at ${init:-never} s"
  /usr/bin/time -f '%e %U %S %M' -o "$dir/t.local" taskset -c 1 "$P" write "$dir/local" \
    --input "$dir/rows.csv" --format csv > /dev/null || exit 1
  echo "  write-local  $(cpu "$dir/t.local")"
  # the server's rate for the same number of bytes
  size=$(cat "$dir"/local/bucket-0/*.parquet | wc -c)
  head -c "$size" /dev/urandom > "$dir/blob"
  rm -f "$dir"/part.*
  split -b 16777216 -d -a 3 "$dir/blob" "$dir/part."
  h=$(sha256sum "$dir/blob" | cut -d' ' -f1)
  t0=$(now)
  taskset -c 1 curl -sS -f -o /dev/null --aws-sigv4 "$sig" --user "$user" \
    -H "x-amz-content-sha256: $h" -T "$dir/blob" "$AWS_ENDPOINT_URL/$S3_BUCKET/put$r" || exit 1
  echo "  curl PUT     $(since "$t0") s for $size bytes"
  e=$(sha256sum < /dev/null | cut -d' ' -f1)
  for p in "$dir"/part.*; do sha256sum "$p" | cut -d' ' -f1 > "$p.sha"; done
  t0=$(now)
  id=$(curl -sS -f -X POST --aws-sigv4 "$sig" --user "$user" -H "x-amz-content-sha256: $e" \
    "$AWS_ENDPOINT_URL/$S3_BUCKET/mpu$r?uploads=" | sed -n 's/.*<UploadId>\(.*\)<\/UploadId>.*/\1/p')
  n=0
  for p in "$dir"/part.[0-9][0-9][0-9]; do
    n=$((n + 1))
    taskset -c 1 curl -sS -f -o /dev/null --aws-sigv4 "$sig" --user "$user" \
      -H "x-amz-content-sha256: $(cat "$p.sha")" -T "$p" \
      "$AWS_ENDPOINT_URL/$S3_BUCKET/mpu$r?partNumber=$n&uploadId=$id" &
    [ $((n % 4)) -ne 0 ] || wait
  done
  wait
  echo "  curl parts   $(since "$t0") s for $n parts of 16 MiB, 4 at a time (no Complete)"
  s3_clear > /dev/null
  r=$((r + 1))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
