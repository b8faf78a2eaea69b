#!/bin/sh
# Applies (or with --check, verifies) .clang-format on every C source and header.
set -eu
cd "$(dirname "$0")/.."
CF=$(command -v clang-format || command -v clang-format-14)
files=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -v '^build/' || true)
[ -n "$files" ] || exit 0
if [ "${1:-}" = "--check" ]; then
  # shellcheck disable=SC2086
  "$CF" --dry-run --Werror $files
else
  # shellcheck disable=SC2086
  "$CF" -i $files
fi
