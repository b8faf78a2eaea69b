# Shared by tests/sql/*.test.sh: the extension's path, and how to load it into programs that
# were not built with the sanitizers (sqlite3, python3): a debug build's extension needs the
# ASan runtime preloaded, and leak checking is off there (the host program's own allocations
# are not ours to check).
: "${PAIMON_CLI:?}" "${PAIMON_BUILD_DIR:?}"
EXT="$PAIMON_BUILD_DIR/libpaimon_sqlite.so"
[ -f "$EXT" ] || { echo "FAIL: $EXT was not built"; exit 1; }
if ldd "$EXT" | grep -q libasan; then
  PRELOAD=$(gcc -print-file-name=libasan.so)
  HOST_ENV="LD_PRELOAD=$PRELOAD ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
else
  HOST_ENV=""
fi
# host_run CMD ARGS...: runs a program that loads the extension.
host_run() { env $HOST_ENV "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
