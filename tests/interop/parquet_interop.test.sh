#!/bin/sh
# Parquet interop both ways with DuckDB and hyparquet (see parquet_interop.mjs).
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$INTEROP_DIR/parquet_interop.mjs" "$work"
