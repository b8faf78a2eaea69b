#!/bin/sh
# Paths taken from metadata stay inside the table (issue 19 item 7, meta/file_path.h).  A
# crafted manifest entry whose file name climbs out of the bucket directory
# (../../outside/secret.parquet), or whose _EXTERNAL_PATH points outside the roots of
# data-file.external-paths, is refused with exit 1 by every reader: cat, tail, the $files
# system table, inspect files, compact --full (append and primary-key tables), and the
# lookups of a primary-key write (deletion vectors, changelog-producer=lookup; the tail of
# a lookup table reads changelog files only, so it never meets the crafted data file).  The
# message names the entry and never the outside path; the table is byte for byte unchanged.
# An external path under a declared root is read, and a root that is only a string prefix
# of the path (/x/ex vs /x/ext/...) holds nothing.
set -u
: "${PAIMON_CLI:?}" "${PAIMON_BUILD_DIR:?}"
P=$PAIMON_CLI
CRAFT=$PAIMON_BUILD_DIR/tests/interop/interop_craft_entry
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir -p "$tmp/outside" "$tmp/ext/bucket-0"
state() { (cd "$1" && find . -type f | sort | xargs md5sum); }
opts() {
  case $1 in
    app) echo "--option bucket=1 --option bucket-key=k" ;;
    pk) echo "--primary-key k --option bucket=1" ;;
    dv) echo "--primary-key k --option bucket=1 --option deletion-vectors.enabled=true" ;;
    lookup) echo "--primary-key k --option bucket=1 --option changelog-producer=lookup" ;;
  esac
}
# expect_refused TABLE WHAT ENTRY CMD...: exit 1, one line naming ENTRY, no "secret" path
expect_refused() {
  label=$1; what=$2; want=$3; shift 3
  "$@" > "$tmp/out" 2> "$tmp/err" < "$tmp/in"
  code=$?
  if [ $code -ne 1 ]; then echo "FAIL $label: $what exited $code, expected 1"; cat "$tmp/err"; fail=1; fi
  if ! grep -qF "manifest entry '$want'" "$tmp/err"; then
    echo "FAIL $label: $what does not name the entry:"; cat "$tmp/err"; fail=1
  fi
  if [ "$want" = data-crafted.parquet ] && grep -q "outside" "$tmp/err"; then
    echo "FAIL $label: $what reveals the outside path:"; cat "$tmp/err"; fail=1
  fi
  if grep -q '"secret"' "$tmp/out"; then echo "FAIL $label: $what printed the outside rows"; fail=1; fi
}
for kind in app pk dv lookup; do
  # the outside file: a real data file of a table of the same kind
  $P create "$tmp/src-$kind" --schema 'k INT NOT NULL, v STRING' $(opts $kind) > /dev/null || fail=1
  echo '{"k":100,"v":"secret"}' | $P write "$tmp/src-$kind" > /dev/null || fail=1
  cp "$tmp/src-$kind"/bucket-0/data-*.parquet "$tmp/outside/secret-$kind.parquet" || fail=1
  for how in name external; do
    t=$tmp/$kind-$how
    $P create "$t" --schema 'k INT NOT NULL, v STRING' $(opts $kind) > /dev/null || fail=1
    echo '{"k":1,"v":"a"}' | $P write "$t" > /dev/null || fail=1
    echo '{"k":2,"v":"b"}' | $P write "$t" > /dev/null || fail=1
    if [ $how = name ]; then
      entry=../../outside/secret-$kind.parquet
      "$CRAFT" "$tmp/src-$kind" "$t" "$entry" > /dev/null || fail=1
    else
      entry=data-crafted.parquet
      "$CRAFT" "$tmp/src-$kind" "$t" "$entry" "$tmp/outside/secret-$kind.parquet" > /dev/null ||
        fail=1
    fi
    before=$(state "$t")
    : > "$tmp/in"
    expect_refused "$kind-$how" cat "$entry" $P cat "$t"
    # a lookup table's tail reads changelog files only: the crafted data file is not read
    [ $kind = lookup ] || expect_refused "$kind-$how" tail "$entry" $P tail "$t" --from earliest
    expect_refused "$kind-$how" '$files' "$entry" $P cat "$t\$files"
    expect_refused "$kind-$how" 'inspect files' "$entry" $P inspect "$t" files
    case $kind in
      app|pk) expect_refused "$kind-$how" 'compact --full' "$entry" $P compact "$t" --full ;;
      dv|lookup)
        echo '{"k":100,"v":"c"}' > "$tmp/in"
        expect_refused "$kind-$how" 'write (lookup)' "$entry" $P write "$t" ;;
    esac
    after=$(state "$t")
    [ "$before" = "$after" ] || { echo "FAIL $kind-$how: the table changed"; fail=1; }
  done
done

# An external path under a declared root is followed; a root that is a string prefix is not.
cp "$tmp/outside/secret-app.parquet" "$tmp/ext/bucket-0/secret.parquet"
for root in ext ex; do
  t=$tmp/ext-$root
  $P create "$t" --schema 'k INT NOT NULL, v STRING' $(opts app) \
    --option "data-file.external-paths=file://$tmp/$root" > /dev/null || fail=1
  "$CRAFT" "$tmp/src-app" "$t" data-ext.parquet "file:$tmp/ext/bucket-0/secret.parquet" \
    > /dev/null || fail=1
  got=$($P cat "$t" 2>&1); code=$?
  if [ $root = ext ]; then
    [ $code -eq 0 ] && [ "$got" = '{"k":100,"v":"secret"}' ] ||
      { echo "FAIL external root: exit $code: $got"; fail=1; }
  else
    [ $code -eq 1 ] && echo "$got" | grep -qF "manifest entry 'data-ext.parquet'" ||
      { echo "FAIL prefix root: exit $code: $got"; fail=1; }
  fi
done
exit $fail
