/*
 * PostgreSQL over libpq for the CDC source: the two connections (a plain one for the
 * catalog and the initial COPY, a replication=database one for the slot and the stream),
 * errors turned into one line naming the server, the cause and the remedy, and the
 * streaming replication protocol (PostgreSQL docs, "Streaming Replication Protocol"):
 *
 *   server -> client, inside CopyData of the CopyBoth started by START_REPLICATION:
 *     'w' XLogData          Int64 start LSN, Int64 end of WAL, Int64 send time, payload
 *                           (one pgoutput message, pgoutput.h)
 *     'k' Primary keepalive Int64 end of WAL, Int64 send time, Byte1 reply requested
 *   client -> server:
 *     'r' Standby status    Int64 written, Int64 flushed, Int64 applied LSN (+1 each, as
 *                           the docs say "the location of the last WAL byte + 1"), Int64
 *                           send time (microseconds since 2000-01-01), Byte1 reply now
 *
 * The flushed position tells the server which WAL it may recycle and where the slot
 * restarts: the CDC source reports there only what a Paimon commit holds (pg_apply.c).
 */
#ifndef PM_CDC_PG_CONN_H
#define PM_CDC_PG_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "cdc_util.h"
#include "paimon.h"

/* Connects with `dsn` (a libpq connection string or URI), as a replication=database
 * connection when `replication`; the session runs with TimeZone=UTC and DateStyle=ISO (the
 * text forms pg_types.c parses).  A failure names the server and the remedy: an unreachable
 * server, a wrong password, a missing database.  Caller owns `*out`; release with PQfinish(). */
PM_MUST_CHECK int pm_pg_connect(PGconn **out, const char *dsn, bool replication, paimon_error *err);

/* Runs `sql` (simple query protocol; replication commands too) and checks the result is
 * `expect`.  Caller owns `*out` (may be NULL: cleared); release with PQclear(). */
PM_MUST_CHECK int pm_pg_exec(PGconn *conn, const char *sql, ExecStatusType expect, PGresult **out,
                             paimon_error *err);

/* Runs `sql` with text parameters (plain connections only). */
PM_MUST_CHECK int pm_pg_exec_params(PGconn *conn, const char *sql, int nparams,
                                    const char *const *params, PGresult **out, paimon_error *err);

/* The next CopyData message of a COPY or replication stream, waiting at most `timeout_ms`
 * (< 0: for ever).  1 with *buf (release with PQfreemem()) and *len; 0 on time-out; -1 at
 * the end of the COPY (then the caller reads its result); or a negative PAIMON_E* code. */
PM_MUST_CHECK int pm_pg_copy_read(PGconn *conn, int64_t timeout_ms, char **buf, int *len,
                                  paimon_error *err);

/* Abandons a COPY TO STDOUT still under way: asks the server to cancel it and reads the
 * rest of its data, so that PQgetResult() then returns its (failed) result and NULL.  0, or
 * -1 when the connection broke (then give up on it). */
int pm_pg_copy_abandon(PGconn *conn);

/* Sends a standby status update: written, flushed and applied positions. */
PM_MUST_CHECK int pm_pg_send_status(PGconn *conn, uint64_t written, uint64_t flushed,
                                    uint64_t applied, bool reply, paimon_error *err);

/* "host:port" of the connection, for messages. */
const char *pm_pg_where(PGconn *conn, char *buf, size_t cap);

/* Quotes an identifier for SQL ("name" with quotes doubled) into `out`. */
int pm_pg_quote_ident(pm_cdc_buf *out, const char *name);

#endif /* PM_CDC_PG_CONN_H */
