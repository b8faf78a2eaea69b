#!/bin/sh
# Self-test of the S3 test server (server.mjs through lib.sh): the tests of paimon-c's S3
# code trust it, so each of its promises is checked here with clients that are not
# paimon-c's: curl's --aws-sigv4 (with the sorted, encoded query SigV4 needs, see
# ../shared/spec/dependencies.md §7) and the AWS SDK's signer in node (selftest.mjs).
#   signatures: a good one 200, a wrong secret 403, no signature 403, a tampered payload 400;
#   conditional writes: 8 concurrent `If-None-Match: *` PUTs give one 200 and seven 412,
#     the object holds the winner's bytes; `x-oss-forbid-overwrite: true` gives 409;
#   every fault kind is observable as documented, `nth`, `match` and `p` select the right
#     requests, latency delays; the counters and the log count what was sent.
set -u
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
s3_start || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/s3self.XXXXXX")
trap 's3_stop; rm -rf "$work"' EXIT

failed=0
check() { # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    echo "ok   $1"
  else
    echo "FAIL $1: expected '$2', got '$3'"
    failed=1
  fi
}
E=$AWS_ENDPOINT_URL/warehouse
SIG="--aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER"
U="-H x-amz-content-sha256:UNSIGNED-PAYLOAD"
# code METHOD-ARGS...: the HTTP status of one signed request (000 when no answer came).
code() { curl -s -o "$work/body" -w '%{http_code}' $SIG $U "$@"; }
# rc ARGS...: curl's exit status for one signed request (52 empty reply, 18 partial body).
rc() {
  curl -s -o "$work/body" $SIG $U "$@"
  echo $?
}
sha() { sha256sum "$1" | cut -d' ' -f1; }

printf 'hello s3\n' >"$work/a"
printf 'tampered\n' >"$work/b"

# --- signatures ----------------------------------------------------------------------
check "signed PUT" 200 "$(code -T "$work/a" "$E/self/a.txt")"
check "signed GET" 200 "$(code "$E/self/a.txt")"
check "GET returns the bytes" "hello s3" "$(cat "$work/body")"
check "signed GET with a range" 206 "$(code -H 'Range: bytes=2-4' "$E/self/a.txt")"
check "range bytes" "llo" "$(cat "$work/body")"
check "signed LIST (sorted, encoded query)" 200 "$(code "$E?list-type=2&prefix=self%2F")"
check "LIST names the key" 1 "$(grep -c '<Key>self/a.txt</Key>' "$work/body")"
check "wrong secret" 403 "$(curl -s -o "$work/body" -w '%{http_code}' --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:nope $U "$E/self/a.txt")"
check "wrong secret says SignatureDoesNotMatch" 1 "$(grep -c '<Code>SignatureDoesNotMatch</Code>' "$work/body")"
check "unknown access key" 403 "$(curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:us-east-1:s3 --user OTHER:S3RVER $U "$E/self/a.txt")"
check "unsigned request" 403 "$(curl -s -o /dev/null -w '%{http_code}' $U "$E/self/a.txt")"
check "wrong region" 400 "$(curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:eu-west-1:s3 --user S3RVER:S3RVER $U "$E/self/a.txt")"
check "payload hash of the body" 200 "$(curl -s -o /dev/null -w '%{http_code}' $SIG -H "x-amz-content-sha256:$(sha "$work/a")" -T "$work/a" "$E/self/h.txt")"
check "tampered payload" 400 "$(curl -s -o "$work/body" -w '%{http_code}' $SIG -H "x-amz-content-sha256:$(sha "$work/a")" -T "$work/b" "$E/self/h2.txt")"
check "tampered says XAmzContentSHA256Mismatch" 1 "$(grep -c XAmzContentSHA256Mismatch "$work/body")"
check "tampered PUT did not land" 404 "$(code "$E/self/h2.txt")"

: >"$work/empty"
check "PUT an empty object" 200 "$(code -T "$work/empty" "$E/self/empty")"
check "GET an empty object" 200 "$(code "$E/self/empty")"
check "a range of an empty object: 416" 416 "$(code -H 'Range: bytes=0-1048575' "$E/self/empty")"
check "416 is InvalidRange" 1 "$(grep -c '<Code>InvalidRange</Code>' "$work/body")"
check "a range past the end: 416" 416 "$(code -H 'Range: bytes=9-20' "$E/self/a.txt")"
check "a range over the end is cut" 206 "$(code -H 'Range: bytes=6-20' "$E/self/a.txt")"
check "cut range bytes" "s3" "$(cat "$work/body")"

# --- conditional writes --------------------------------------------------------------
i=1
while [ $i -le 8 ]; do
  printf 'writer %s\n' $i >"$work/w$i"
  curl -s -o /dev/null -w '%{http_code}\n' $SIG $U -H 'If-None-Match: *' -T "$work/w$i" "$E/self/snapshot-1" >"$work/c$i" &
  i=$((i + 1))
done
wait
check "8 racing conditional PUTs: one 200" 1 "$(cat "$work"/c? | grep -c 200)"
check "8 racing conditional PUTs: seven 412" 7 "$(cat "$work"/c? | grep -c 412)"
winner=$(grep -l 200 "$work"/c? | sed 's/.*c//')
code "$E/self/snapshot-1" >/dev/null
check "the object holds the winner's bytes" "writer $winner" "$(cat "$work/body")"
check "conditional PUT on a new key" 200 "$(code -H 'If-None-Match: *' -T "$work/a" "$E/self/cond-new")"
check "412 body" 1 "$(code -H 'If-None-Match: *' -T "$work/b" "$E/self/cond-new" >/dev/null; grep -c '<Code>PreconditionFailed</Code>' "$work/body")"
check "plain PUT still overwrites" 200 "$(code -T "$work/b" "$E/self/cond-new")"
check "OSS forbid-overwrite, first" 200 "$(code -H 'x-oss-forbid-overwrite: true' -T "$work/a" "$E/self/oss")"
check "OSS forbid-overwrite, second" 409 "$(code -H 'x-oss-forbid-overwrite: true' -T "$work/b" "$E/self/oss")"
check "409 says FileAlreadyExists" 1 "$(grep -c '<Code>FileAlreadyExists</Code>' "$work/body")"
code "$E/self/oss" >/dev/null
check "OSS object kept" "hello s3" "$(cat "$work/body")"

# --- faults --------------------------------------------------------------------------
head -c 200000 /dev/urandom >"$work/big"
code -T "$work/big" "$E/self/big" >/dev/null
s3_fault fault=500 nth=1 >/dev/null
check "fault 500" 500 "$(code "$E/self/a.txt")"
check "500 is InternalError" 1 "$(grep -c '<Code>InternalError</Code>' "$work/body")"
check "fault 500 fires once" 200 "$(code "$E/self/a.txt")"
s3_fault fault=500 nth=1 >/dev/null
check "fault 500 on a PUT" 500 "$(code -T "$work/a" "$E/self/f500")"
check "a 500 PUT did not land" 404 "$(code "$E/self/f500")"
s3_fault fault=land-500 nth=1 >/dev/null
check "fault land-500" 500 "$(code -T "$work/a" "$E/self/fl500")"
check "a land-500 PUT landed" 200 "$(code "$E/self/fl500")"
s3_fault fault=503 nth=1 >/dev/null
check "fault 503" 503 "$(code -T "$work/a" "$E/self/f503")"
check "503 is SlowDown" 1 "$(grep -c '<Code>SlowDown</Code>' "$work/body")"
check "a 503 PUT did not land" 404 "$(code "$E/self/f503")"
s3_fault fault=drop nth=1 >/dev/null
# curl: 52 empty reply, or 56 connection reset when it was still sending the body.
check "fault drop: no answer" yes "$(r=$(rc -T "$work/a" "$E/self/fdrop"); [ "$r" = 52 ] || [ "$r" = 56 ] && echo yes || echo "no: curl $r")"
check "a dropped PUT did not land" 404 "$(code "$E/self/fdrop")"
s3_fault fault=land-drop nth=1 >/dev/null
check "fault land-drop: no answer" yes "$(r=$(rc -T "$work/a" "$E/self/flanddrop"); [ "$r" = 52 ] || [ "$r" = 56 ] && echo yes || echo "no: curl $r")"
check "a land-drop PUT landed" 200 "$(code "$E/self/flanddrop")"
s3_fault fault=drop-body nth=1 >/dev/null
check "fault drop-body: partial body" yes "$(r=$(rc "$E/self/big"); [ "$r" = 18 ] || [ "$r" = 56 ] && echo yes || echo "no: curl $r")"
check "drop-body sent half" 100000 "$(wc -c <"$work/body" | tr -d ' ')"
check "after drop-body, whole" 200000 "$(code "$E/self/big" >/dev/null; wc -c <"$work/body" | tr -d ' ')"
s3_fault fault=503 nth=3 >/dev/null
check "nth=3: 1st" 200 "$(code "$E/self/a.txt")"
check "nth=3: 2nd" 200 "$(code "$E/self/a.txt")"
check "nth=3: 3rd" 503 "$(code "$E/self/a.txt")"
check "nth=3: 4th" 200 "$(code "$E/self/a.txt")"
s3_fault fault=500 nth=1 times=2 match='snapshot-' kind=GET >/dev/null
check "match: other key passes" 200 "$(code "$E/self/a.txt")"
check "match: a PUT of a matching key passes (kind=GET)" 200 "$(code -T "$work/a" "$E/self/snapshot-9")"
check "match: 1st matching GET" 500 "$(code "$E/self/snapshot-9")"
check "match: times=2, 2nd matching GET" 500 "$(code "$E/self/snapshot-1")"
check "match: 3rd matching GET" 200 "$(code "$E/self/snapshot-1")"
# p: a seeded fraction; the same seed gives the same choices.
run_p() {
  s3_clear >/dev/null
  s3_fault fault=500 p=0.3 seed=42 >/dev/null
  j=0
  out=
  while [ $j -lt 40 ]; do
    out="$out$(code "$E/self/a.txt") "
    j=$((j + 1))
  done
  echo "$out"
}
p1=$(run_p)
p2=$(run_p)
s3_clear >/dev/null
n500=$(echo "$p1" | tr ' ' '\n' | grep -c 500)
check "p=0.3 fails some of 40 (between 4 and 24)" yes "$([ "$n500" -ge 4 ] && [ "$n500" -le 24 ] && echo yes || echo "no: $n500")"
check "p with one seed repeats" "$p1" "$p2"
s3_latency 300 >/dev/null
t=$(curl -s -o /dev/null -w '%{time_total}' $SIG $U "$E/self/a.txt")
s3_clear >/dev/null
check "latency 300 ms" yes "$(awk -v t="$t" 'BEGIN { print (t >= 0.3 ? "yes" : "no: " t) }')"
t=$(curl -s -o /dev/null -w '%{time_total}' $SIG $U "$E/self/a.txt")
check "clear removes the latency" yes "$(awk -v t="$t" 'BEGIN { print (t < 0.3 ? "yes" : "no: " t) }')"
check "bad fault name refused" 22 "$(s3_fault fault=nope nth=1 >/dev/null 2>&1; echo $?)"

# --- counters ------------------------------------------------------------------------
s3_reset >/dev/null
code "$E/self/a.txt" >/dev/null
code "$E/self/missing" >/dev/null
code -I "$E/self/a.txt" >/dev/null
code -T "$work/a" "$E/self/c.txt" >/dev/null
code "$E?list-type=2&prefix=self%2F" >/dev/null
code -X DELETE "$E/self/c.txt" >/dev/null
counts=$(s3_counts)
field() { printf '%s' "$counts" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o&&o[k],JSON.parse(s));console.log(v===undefined?"none":v)})' "$1"; }
check "counts.total" 6 "$(field total)"
check "counts.byMethod.GET" 3 "$(field byMethod.GET)"
check "counts.byMethod.HEAD" 1 "$(field byMethod.HEAD)"
check "counts.byKind.GET" 2 "$(field byKind.GET)"
check "counts.byKind.HEAD" 1 "$(field byKind.HEAD)"
check "counts.byKind.PUT" 1 "$(field byKind.PUT)"
check "counts.byKind.LIST" 1 "$(field byKind.LIST)"
check "counts.byKind.DELETE" 1 "$(field byKind.DELETE)"
check "counts.byStatus.404" 1 "$(field byStatus.404)"
check "counts.byStatus.204" 1 "$(field byStatus.204)"
check "counts.maxInFlight.GET (one at a time)" 1 "$(field maxInFlight.GET)"
check "log: last request" '"method":"DELETE","path":"/warehouse/self/c.txt","query":"","kind":"DELETE","status":204' \
  "$(s3_log 1 | sed 's/.*"seq":[0-9]*,\(.*\)}\]/\1/')"
check "log: 6 entries" 6 "$(s3_log | grep -o '"seq"' | wc -l | tr -d ' ')"
# two GETs held 300 ms each, sent together: both in flight at once
s3_reset >/dev/null
s3_latency 300 >/dev/null
curl -s -o /dev/null $SIG $U "$E/self/a.txt" &
curl -s -o /dev/null $SIG $U "$E/self/a.txt"
wait
s3_clear >/dev/null
counts=$(s3_counts)
check "counts.maxInFlight.GET (two together)" 2 "$(field maxInFlight.GET)"

# --- node: the AWS SDK's signer, multipart, batch delete, pagination -------------------
node "$here/selftest.mjs" || failed=1

[ $failed -eq 0 ] && echo "selftest: all passed"
exit $failed
