#!/bin/sh
# Runs one libFuzzer campaign: scripts/fuzz.sh NAME SECONDS [extra libFuzzer flags]
# Builds the fuzz preset, seeds from the committed corpus and the fixtures named in
# tests/fuzz/seeds_NAME.txt, and writes new inputs to build/fuzz/corpus-NAME (not
# committed; copy small interesting ones into tests/fuzz/corpus/NAME by hand).
set -eu
cd "$(dirname "$0")/.."
name=$1; secs=$2; shift 2
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target "fuzz_$name" >/dev/null
work=build/fuzz/corpus-$name
seeds=build/fuzz/seeds-$name
mkdir -p "$work" "$seeds"
fixtures=${PAIMON_FIXTURES:-../shared/fixtures}
if [ -f "tests/fuzz/seeds_$name.txt" ] && [ -d "$fixtures" ]; then
  grep -v '^#' "tests/fuzz/seeds_$name.txt" | while read -r pat; do
    [ -n "$pat" ] || continue
    for f in $fixtures/$pat; do [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | md5sum | cut -c1-16)"; done
  done
fi
exec "build/fuzz/tests/fuzz/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="build/fuzz/crash-$name-" "$@" "$work" "tests/fuzz/corpus/$name" "$seeds"
