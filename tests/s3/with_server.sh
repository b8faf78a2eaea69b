#!/bin/sh
# Runs one command with a fresh S3 test server up (tests/s3/server.mjs through lib.sh) and
# the AWS_* environment pointing at it; the server goes when the command ends. ctest runs
# the unit tests that need S3 (tests/unit/*/test_s3_*.c) this way:
#   tests/s3/with_server.sh BINARY ARGS...
# The command's exit status is this script's.
here=$(cd "$(dirname "$0")" && pwd)
S3_LIB_DIR=$here
. "$here/lib.sh"
s3_start || exit 1
"$@"
rc=$?
s3_stop
exit $rc
