#!/bin/sh
# Manifest files paimon-c writes (every kind, every codec, several blocks, an empty file)
# decode in Debian's python3-avro and in avsc to exactly the records written, and their
# writer schemas equal the Java 1.4.2 reference schemas of the oracle.
set -eu
: "${PAIMON_BUILD_DIR:?}" "${INTEROP_DIR:?}" "${ORACLE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$PAIMON_BUILD_DIR/tests/interop/interop_write_manifests" "$tmp"
/usr/bin/python3 "$INTEROP_DIR/read_avro.py" "$tmp" "$ORACLE_DIR/ref-schemas"
node "$INTEROP_DIR/read_avro.mjs" "$tmp" "$ORACLE_DIR/ref-schemas"
