# Shell helpers for the CDC tests: a private PostgreSQL 15 server for one test script.
# Source this file, call pg_start, and PG* point at a fresh cluster until pg_stop or the end
# of the script (EXIT trap). POSIX sh.
#   . "$PAIMON_SOURCE_DIR/tests/cdc/pg.sh"
#   pg_start [-c name=value]...   # initdb + start; exports PGHOST PGPORT PGUSER PGPASSWORD
#                                 # PGDATABASE and PG_DSN (a libpq DSN with the password)
#   pg_sql 'SQL'                  # psql -At, stops on the first error
#   pg_stop
# The cluster: wal_level=logical (unless overridden with -c), replication slots and senders,
# listening on 127.0.0.1 only on a free port, password authentication (scram-sha-256) for
# the superuser `paimon` (password in PGPASSWORD), no Unix socket outside its directory.
# PostgreSQL refuses to run as root: as root the server runs as `nobody` (runuser), in a
# temporary directory that `nobody` owns; as anyone else, as that user.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

pg__as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u nobody -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  [ -x "$PG_BIN/postgres" ] || {
    echo "pg_start: $PG_BIN/postgres not found (scripts/install-deps.sh installs postgresql-15)" >&2
    return 1
  }
  PG_RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/pgrun.XXXXXX") || return 1
  chmod 755 "$PG_RUN_DIR"
  [ "$(id -u)" = 0 ] && chown nobody "$PG_RUN_DIR"
  printf '%s\n' paimon-test-pw >"$PG_RUN_DIR/pw"
  pg__as_owner "$PG_BIN/initdb" -D "$PG_RUN_DIR/data" -U paimon --pwfile="$PG_RUN_DIR/pw" \
    --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 \
    >"$PG_RUN_DIR/initdb.log" 2>&1 || {
    cat "$PG_RUN_DIR/initdb.log" >&2
    return 1
  }
  trap 'pg_stop' EXIT
  trap 'pg_stop; exit 130' INT
  trap 'pg_stop; exit 143' TERM
  # a free port: try a few random ones (pg_ctl -w fails fast on one in use)
  # one line: pg_ctl hands -o to a shell, where a newline would end the command
  PG_SETTINGS="-c wal_level=logical -c max_replication_slots=16 -c max_wal_senders=16"
  PG_SETTINGS="$PG_SETTINGS -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  tries=0
  while :; do
    PGPORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 30000))
    if pg__as_owner "$PG_BIN/pg_ctl" -D "$PG_RUN_DIR/data" -l "$PG_RUN_DIR/server.log" -w -t 60 \
      -o "-p $PGPORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$PG_RUN_DIR $PG_SETTINGS $*" \
      start >/dev/null 2>&1; then
      break
    fi
    tries=$((tries + 1))
    if [ $tries -ge 5 ]; then
      echo "pg_start: the server did not start:" >&2
      tail -20 "$PG_RUN_DIR/server.log" >&2
      return 1
    fi
  done
  export PGHOST=127.0.0.1 PGPORT PGUSER=paimon PGPASSWORD=paimon-test-pw PGDATABASE=postgres
  export PG_DSN="host=127.0.0.1 port=$PGPORT dbname=postgres user=paimon password=paimon-test-pw"
  export PG_RUN_DIR
}

pg_sql() {
  psql -X -q -At -v ON_ERROR_STOP=1 -c "$1"
}

pg_stop() {
  if [ -n "${PG_RUN_DIR:-}" ] && [ -d "$PG_RUN_DIR/data" ]; then
    pg__as_owner "$PG_BIN/pg_ctl" -D "$PG_RUN_DIR/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$PG_RUN_DIR"
  fi
  PG_RUN_DIR=
}
