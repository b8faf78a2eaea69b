/*
 * libpq connections, queries and the replication stream's framing (pg_conn.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pg_conn.h"

const char *pm_pg_where(PGconn *conn, char *buf, size_t cap)
{
    const char *host = conn != NULL ? PQhost(conn) : NULL;
    const char *port = conn != NULL ? PQport(conn) : NULL;
    snprintf(buf, cap, "postgres %s:%s", host != NULL && host[0] != '\0' ? host : "localhost",
             port != NULL && port[0] != '\0' ? port : "5432");
    return buf;
}

/* libpq's message, its first line only (messages end with a newline and may add hints). */
static void first_line(const char *msg, char *out, size_t cap)
{
    size_t n = 0;
    if (msg == NULL)
        msg = "";
    while (msg[n] != '\0' && msg[n] != '\n')
        n++;
    while (n > 0 && msg[n - 1] == ' ')
        n--;
    snprintf(out, cap, "%.*s", (int)n, msg);
}

int pm_pg_connect(PGconn **out, const char *dsn, bool replication, paimon_error *err)
{
    const char *keys[] = {"dbname", "replication", "options", "application_name", NULL};
    const char *vals[] = {dsn, replication ? "database" : NULL,
                          "-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=3", "paimon-cdc",
                          NULL};
    char where[256], line[400];
    const char *remedy = "";
    PGconn *c;
    *out = NULL;
    if (!replication) {
        keys[1] = "options";
        vals[1] = vals[2];
        keys[2] = "application_name";
        vals[2] = vals[3];
        keys[3] = NULL;
        vals[3] = NULL;
    }
    c = PQconnectdbParams(keys, vals, 1);
    if (c == NULL)
        return pm_cdc_err(err, PAIMON_ENOMEM, "postgres: out of memory");
    if (PQstatus(c) == CONNECTION_OK) {
        *out = c;
        return 0;
    }
    first_line(PQerrorMessage(c), line, sizeof(line));
    if (strstr(line, "password authentication failed") != NULL ||
        strstr(line, "no password supplied") != NULL)
        remedy = "; check the user and password of --dsn (or PGPASSWORD, ~/.pgpass)";
    else if (strstr(line, "Connection refused") != NULL ||
             strstr(line, "could not translate host") != NULL ||
             strstr(line, "timeout expired") != NULL || strstr(line, "No route") != NULL)
        remedy = "; is the server running and accepting TCP connections there (host, port of "
                 "--dsn)?";
    else if (strstr(line, "does not exist") != NULL)
        remedy = "; check dbname and user of --dsn";
    else if (strstr(line, "no pg_hba.conf entry") != NULL && replication)
        remedy = "; allow the user replication connections in pg_hba.conf";
    pm_pg_where(c, where, sizeof(where));
    PQfinish(c);
    return pm_cdc_err(err, PAIMON_EIO, "%s: cannot connect: %s%s", where, line, remedy);
}

PM_MUST_CHECK static int result_error(PGconn *conn, PGresult *res, const char *what,
                                      paimon_error *err)
{
    char where[256], line[400];
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    if (msg == NULL || msg[0] == '\0')
        msg = PQerrorMessage(conn);
    first_line(msg, line, sizeof(line));
    if (strncmp(line, "ERROR:  ", 8) == 0)
        memmove(line, line + 8, strlen(line + 8) + 1);
    pm_pg_where(conn, where, sizeof(where));
    return pm_cdc_err(err, PQstatus(conn) == CONNECTION_OK ? PAIMON_EINVALID : PAIMON_EIO,
                      "%s: %s: %s", where, what, line);
}

/* The first words of a statement, for messages. */
static void statement_name(const char *sql, char *out, size_t cap)
{
    size_t n = 0;
    int words = 0;
    while (sql[n] != '\0' && n + 1 < cap) {
        if (sql[n] == ' ' && ++words == 2)
            break;
        n++;
    }
    snprintf(out, cap, "%.*s", (int)n, sql);
}

int pm_pg_exec(PGconn *conn, const char *sql, ExecStatusType expect, PGresult **out,
               paimon_error *err)
{
    PGresult *res = PQexec(conn, sql);
    char what[64];
    if (out != NULL)
        *out = NULL;
    if (res == NULL || PQresultStatus(res) != expect) {
        int rc;
        statement_name(sql, what, sizeof(what));
        rc = result_error(conn, res, what, err);
        PQclear(res);
        return rc;
    }
    if (out != NULL)
        *out = res;
    else
        PQclear(res);
    return 0;
}

int pm_pg_exec_params(PGconn *conn, const char *sql, int nparams, const char *const *params,
                      PGresult **out, paimon_error *err)
{
    PGresult *res = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
    char what[64];
    *out = NULL;
    if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK) {
        int rc;
        statement_name(sql, what, sizeof(what));
        rc = result_error(conn, res, what, err);
        PQclear(res);
        return rc;
    }
    *out = res;
    return 0;
}

int pm_pg_copy_abandon(PGconn *conn)
{
    PGcancel *cancel = PQgetCancel(conn);
    char errbuf[256], *buf;
    int n;
    if (cancel != NULL) {
        (void)PQcancel(cancel, errbuf, sizeof(errbuf)); /* failing: the rows are read anyway */
        PQfreeCancel(cancel);
    }
    while ((n = PQgetCopyData(conn, &buf, 0)) > 0)
        PQfreemem(buf);
    return n == -1 ? 0 : -1;
}

int pm_pg_copy_read(PGconn *conn, int64_t timeout_ms, char **buf, int *len, paimon_error *err)
{
    char where[256];
    struct timespec start = {0, 0};
    bool started = false;
    for (;;) {
        int n = PQgetCopyData(conn, buf, 1);
        if (n > 0) {
            *len = n;
            return 1;
        }
        if (n == -1)
            return -1;
        if (n == -2) {
            char line[400];
            first_line(PQerrorMessage(conn), line, sizeof(line));
            return pm_cdc_err(err, PAIMON_EIO, "%s: the stream broke: %s",
                              pm_pg_where(conn, where, sizeof(where)), line);
        }
        /* nothing complete yet: wait for the socket */
        {
            struct pollfd pfd = {PQsocket(conn), POLLIN, 0};
            struct timespec now;
            int64_t left = -1;
            if (timeout_ms >= 0) {
                /* the clock only once the data runs dry: a COPY rarely waits */
                if (!started) {
                    clock_gettime(CLOCK_MONOTONIC, &start);
                    started = true;
                }
                clock_gettime(CLOCK_MONOTONIC, &now);
                left = timeout_ms - ((now.tv_sec - start.tv_sec) * 1000 +
                                     (now.tv_nsec - start.tv_nsec) / 1000000);
                if (left <= 0)
                    return 0;
            }
            if (poll(&pfd, 1, left < 0 ? -1 : (int)left) < 0) {
                if (errno == EINTR)
                    return 0; /* a signal: let the caller look at its stop flag */
                return pm_cdc_err(err, PAIMON_EIO, "%s: poll: %s",
                                  pm_pg_where(conn, where, sizeof(where)), strerror(errno));
            }
            if (PQconsumeInput(conn) == 0) {
                char line[400];
                first_line(PQerrorMessage(conn), line, sizeof(line));
                return pm_cdc_err(err, PAIMON_EIO, "%s: the stream broke: %s",
                                  pm_pg_where(conn, where, sizeof(where)), line);
            }
        }
    }
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)(v & 0xff);
}

int pm_pg_send_status(PGconn *conn, uint64_t written, uint64_t flushed, uint64_t applied,
                      bool reply, paimon_error *err)
{
    unsigned char msg[34];
    struct timespec ts;
    int64_t now_us;
    char where[256];
    clock_gettime(CLOCK_REALTIME, &ts);
    /* microseconds since 2000-01-01 00:00 UTC (946684800 s after the Unix epoch) */
    now_us = ((int64_t)ts.tv_sec - 946684800LL) * 1000000 + ts.tv_nsec / 1000;
    msg[0] = 'r';
    put64(msg + 1, written);
    put64(msg + 9, flushed);
    put64(msg + 17, applied);
    put64(msg + 25, (uint64_t)now_us);
    msg[33] = reply ? 1 : 0;
    if (PQputCopyData(conn, (const char *)msg, sizeof(msg)) != 1 || PQflush(conn) != 0)
        return pm_cdc_err(err, PAIMON_EIO, "%s: sending the standby status failed: %s",
                          pm_pg_where(conn, where, sizeof(where)), PQerrorMessage(conn));
    return 0;
}

int pm_pg_quote_ident(pm_cdc_buf *out, const char *name)
{
    int rc = pm_cdc_buf_putc(out, '"');
    for (const char *p = name; rc == 0 && *p != '\0'; p++)
        rc = *p == '"' ? pm_cdc_buf_put(out, "\"\"", 2) : pm_cdc_buf_putc(out, *p);
    return rc != 0 ? rc : pm_cdc_buf_putc(out, '"');
}
