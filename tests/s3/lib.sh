# Shell helpers for tests that need the S3 test server (tests/s3/server.mjs): source this
# file, call s3_start, and the AWS_* environment points at a fresh, empty server (bucket
# `warehouse`) until s3_stop or the end of the script. POSIX sh.
#   . "$PAIMON_SOURCE_DIR/tests/s3/lib.sh"
#   s3_start                      # exports AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ... S3_ADMIN
#   s3_fault fault=503 nth=2      # the 2nd request from now answers 503 SlowDown
#   s3_counts                     # JSON counters;  s3_log [N] the last N requests
#   s3_reset                      # zero the counters and the log;  s3_clear drops faults
#   s3_stop
# The server also stops when the sourcing shell exits (EXIT trap, and a fifo on its stdin
# that closes even when the shell is killed). README.md in this folder has the admin API.

# This folder: from PAIMON_SOURCE_DIR (ctest sets it), else the running script's own folder.
if [ -z "${S3_LIB_DIR:-}" ]; then
  if [ -n "${PAIMON_SOURCE_DIR:-}" ]; then
    S3_LIB_DIR=$PAIMON_SOURCE_DIR/tests/s3
  else
    S3_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
  fi
fi

s3_start() {
  command -v node >/dev/null || { echo "s3_start: node not found" >&2; return 1; }
  [ -d "$S3_LIB_DIR/node_modules/s3rver" ] || {
    echo "s3_start: $S3_LIB_DIR/node_modules is missing (run scripts/setup-node.sh BUILD_DIR)" >&2
    return 1
  }
  S3_RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/s3run.XXXXXX") || return 1
  mkfifo "$S3_RUN_DIR/stdin" || return 1
  # Started in a subshell so that it is not this shell's child: a test's plain `wait` for
  # its own background jobs must not wait for the server.
  # S3_NODE: the command that runs node (benchmarks pin the server: S3_NODE="taskset -c 0 node").
  (${S3_NODE:-node} "$S3_LIB_DIR/server.mjs" --dir "$S3_RUN_DIR" <"$S3_RUN_DIR/stdin" >"$S3_RUN_DIR/out" 2>"$S3_RUN_DIR/err" &
    echo $! >"$S3_RUN_DIR/pid")
  S3_PID=$(cat "$S3_RUN_DIR/pid")
  # Holding the fifo's write end open keeps the server alive; it sees EOF when we go.
  exec 8>"$S3_RUN_DIR/stdin"
  trap 's3_stop' EXIT
  trap 's3_stop; exit 130' INT
  trap 's3_stop; exit 143' TERM
  _s3_i=0
  while ! grep -q '"endpoint"' "$S3_RUN_DIR/out" 2>/dev/null; do
    if ! kill -0 "$S3_PID" 2>/dev/null || [ "$_s3_i" -ge 300 ]; then
      echo "s3_start: the S3 test server did not start:" >&2
      cat "$S3_RUN_DIR/err" >&2
      s3_stop
      return 1
    fi
    _s3_i=$((_s3_i + 1))
    sleep 0.1
  done
  AWS_ENDPOINT_URL=$(sed -n 's/.*"endpoint":"\([^"]*\)".*/\1/p' "$S3_RUN_DIR/out")
  S3_ADMIN=$(sed -n 's/.*"admin":"\([^"]*\)".*/\1/p' "$S3_RUN_DIR/out")
  S3_BUCKET=warehouse
  AWS_ACCESS_KEY_ID=S3RVER
  AWS_SECRET_ACCESS_KEY=S3RVER
  AWS_REGION=us-east-1
  export AWS_ENDPOINT_URL S3_ADMIN S3_BUCKET AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION
  # Nothing from the developer's own AWS setup may leak into a test.
  unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_SESSION_TOKEN AWS_DEFAULT_REGION AWS_ENDPOINT_URL_S3 \
    AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE
  AWS_CONFIG_FILE=/dev/null
  AWS_SHARED_CREDENTIALS_FILE=/dev/null
  export AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE
}

s3_stop() {
  [ -n "${S3_PID:-}" ] || return 0
  kill "$S3_PID" 2>/dev/null
  exec 8>&-
  _s3_i=0
  while kill -0 "$S3_PID" 2>/dev/null && [ "$_s3_i" -lt 100 ]; do
    sleep 0.05
    _s3_i=$((_s3_i + 1))
  done
  rm -rf "$S3_RUN_DIR"
  S3_PID=
}

# s3_admin PATH [k=v ...]: one admin call; prints its JSON answer, fails on an error status.
# Values are sent URL-encoded as they are (a regex such as match='/snapshot-[0-9]+$' is fine).
s3_admin() {
  _s3_path=$1
  shift
  _s3_n=$#
  while [ "$_s3_n" -gt 0 ]; do
    set -- "$@" --data-urlencode "$1"
    shift
    _s3_n=$((_s3_n - 1))
  done
  curl -sS --fail-with-body -X POST -G "$@" "$S3_ADMIN$_s3_path"
}

s3_fault() { s3_admin /fault "$@"; }
s3_latency() { s3_admin /latency "ms=$1"; }
s3_clear() { s3_admin /clear; }
s3_reset() { s3_admin /reset; }
s3_counts() { s3_admin /counts; }
s3_log() { s3_admin /log ${1:+n=$1}; }
# s3_count KIND: requests of that kind since the last reset (0 when none)
s3_count() {
  _s3_c=$(s3_counts | sed -n "s/.*\"byKind\":{[^}]*\"$1\":\([0-9]*\).*/\1/p")
  echo "${_s3_c:-0}"
}

# For test scripts: s3_session starts the server and makes a scratch folder $tmp, both gone
# at exit (do not set another EXIT trap).
s3_session() {
  s3_start || return 1
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/s3test.XXXXXX") || return 1
  trap 's3_stop; rm -rf "$tmp"' EXIT
}

# s3_oracle_same URI DIR: downloads the table at URI into DIR (download.mjs, the AWS SDK's
# signer), reads it with the oracle (--strict) into DIR.oracle and through `paimon cat URI`
# into DIR.cat, and fails (saying why) unless the strict checks and the oracle's comparison
# of the metadata with what Java writes (--check-metadata) pass and the rows agree.
# Needs PAIMON_CLI and ORACLE_DIR; faults must be cleared (download.mjs does not retry).
s3_oracle_same() {
  node "$S3_LIB_DIR/download.mjs" "$1" "$2" > /dev/null || { echo "FAIL $1: download"; return 1; }
  if ! node "$ORACLE_DIR/oracle.mjs" "$2" --strict > "$2.oracle" 2> "$2.report"; then
    echo "FAIL $1: oracle --strict"
    grep -i problem "$2.report" | head -5
    return 1
  fi
  if ! node "$ORACLE_DIR/oracle.mjs" "$2" --check-metadata > /dev/null 2> "$2.meta"; then
    echo "FAIL $1: oracle --check-metadata (the metadata is not what Java writes)"
    grep -iv '^check: .* checked\|^check: .*schema = ' "$2.meta" | head -5
    return 1
  fi
  "$PAIMON_CLI" cat "$1" --format jsonl > "$2.cat" 2> "$2.err" || { echo "FAIL $1: cat: $(cat "$2.err")"; return 1; }
  node "$ORACLE_DIR/compare.mjs" "$2.cat" "$2.oracle" > "$2.cmp" 2>&1 ||
    { echo "FAIL $1: the oracle and paimon cat differ"; head -5 "$2.cmp"; return 1; }
}
