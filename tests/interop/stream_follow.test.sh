#!/bin/sh
# The streaming model test of issue 13 (tests/interop/stream_model.py): for every merge
# engine x changelog producer Java accepts, a writer process commits random upserts and
# deletes while `paimon tail --follow --consumer ID` runs in other processes, killed with
# SIGKILL at random points and restarted with the same consumer id; the stream, applied in
# order, equals `paimon cat --snapshot I` at every snapshot it carried changes for, and the
# runs together lose no change and repeat no recorded snapshot.  About 3 s per combination.
set -u
: "${PAIMON_CLI:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$(dirname "$0")/stream_model.py" "$tmp"
