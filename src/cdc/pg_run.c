/*
 * `paimon cdc postgres` (include/paimon_cdc.h): start-up, initial copy and the stream.
 *
 *   start    connect (plain and replication=database), check wal_level, find the source
 *            table, open or --create the Paimon table, read back the table's LSN (the
 *            latest snapshot of the slot's commit user, property cdc.postgres.lsn).
 *   copy     only when the table holds no LSN of this slot: drop a slot left by a copy
 *            that never committed, create the publication (before the slot: decoding
 *            reads it as of each change), CREATE_REPLICATION_SLOT ... LOGICAL pgoutput
 *            EXPORT_SNAPSHOT, then on the plain connection COPY the table under that
 *            snapshot (SET TRANSACTION SNAPSHOT) into the writer, committed once, at the
 *            slot's consistent point.  A crash before that commit leaves nothing: the next
 *            run copies again.
 *   stream   START_REPLICATION SLOT ... LOGICAL <table LSN> (proto_version '1',
 *            publication_names); each transaction is buffered from Begin to Commit and
 *            applied whole (pg_apply.c), unless its end LSN is <= the table's; complete
 *            transactions are committed every commit interval or commit-rows rows, at a
 *            transaction boundary; keepalives are answered and the standby status is sent
 *            every 10 s.
 *   stop     the stop flag (SIGINT, SIGTERM) or --idle-exit: an open transaction is
 *            dropped (the slot sends it again), the complete ones are committed.
 *   On an error nothing pending is committed: the slot still has it, for the next run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "pg_run.h"
#include "pg_types.h"

#define STATUS_INTERVAL_MS 10000

/* ---- start -------------------------------------------------------------------------------- */

static void default_slot(const char *qualified, char *out, size_t cap)
{
    size_t n = 0;
    const char *p = qualified;
    if (strchr(qualified, '.') == NULL)
        n = (size_t)snprintf(out, cap, "paimon_public_");
    else
        n = (size_t)snprintf(out, cap, "paimon_");
    for (; *p != '\0' && n + 1 < cap && n < 63; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            c = '_';
        out[n++] = c;
    }
    out[n] = '\0';
}

PM_MUST_CHECK static int check_name(const char *what, const char *name, paimon_error *err)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63)
        return pm_cdc_err(err, PAIMON_EINVALID, "%s '%s': 1 to 63 characters", what, name);
    for (const char *p = name; *p != '\0'; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return pm_cdc_err(err, PAIMON_EINVALID,
                              "%s '%s': only lower-case letters, digits and '_' (as "
                              "PostgreSQL names slots)",
                              what, name);
    return 0;
}

PM_MUST_CHECK static int check_wal_level(pm_cdc_run *r, paimon_error *err)
{
    PGresult *res = NULL;
    char where[256];
    int rc = pm_pg_exec(r->sql, "SHOW wal_level", PGRES_TUPLES_OK, &res, err);
    if (rc != 0)
        return rc;
    if (PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), "logical") != 0) {
        rc = pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                        "%s: wal_level is '%s', logical replication needs 'logical': set "
                        "wal_level = logical in postgresql.conf (or ALTER SYSTEM SET wal_level = "
                        "logical) and restart the server",
                        pm_pg_where(r->sql, where, sizeof(where)),
                        PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : "?");
    }
    PQclear(res);
    return rc;
}

/* The table's LSN: the latest snapshot of r->user, its cdc.postgres.lsn property. */
PM_MUST_CHECK static int read_table_lsn(pm_cdc_run *r, bool *found, paimon_error *err)
{
    paimon_list *list = NULL;
    int rc;
    *found = false;
    if ((rc = paimon_table_snapshots(r->table, &list, err)) != 0)
        return rc;
    for (size_t i = paimon_list_count(list); i-- > 0 && !*found;) {
        const paimon_snapshot_info *s = paimon_list_snapshot(list, i);
        json_t *root, *lsn;
        if (s->unreadable != NULL || s->commit_user == NULL || strcmp(s->commit_user, r->user) != 0)
            continue;
        root = json_loads(s->json, 0, NULL);
        lsn = json_object_get(json_object_get(root, "properties"), PM_CDC_PROP_LSN);
        if (json_string_value(lsn) != NULL &&
            pm_cdc_lsn_parse(json_string_value(lsn), &r->table_lsn))
            *found = true;
        else
            rc = pm_cdc_err(err, PAIMON_ECORRUPT,
                            "%s: snapshot %lld of commit user %s has no %s property", r->o->into,
                            (long long)s->id, r->user, PM_CDC_PROP_LSN);
        json_decref(root);
        if (rc != 0)
            break;
    }
    paimon_list_free(list);
    return rc;
}

/* The slot's state: *exists, *active (with *pid). */
PM_MUST_CHECK static int slot_state(pm_cdc_run *r, bool *exists, bool *active, char *pid,
                                    size_t cap, paimon_error *err)
{
    const char *params[1] = {r->slot};
    PGresult *res = NULL;
    int rc = pm_pg_exec_params(r->sql,
                               "SELECT active, coalesce(active_pid::text, ''), plugin, "
                               "database = current_database() FROM pg_replication_slots "
                               "WHERE slot_name = $1",
                               1, params, &res, err);
    char where[256];
    if (rc != 0)
        return rc;
    *exists = PQntuples(res) == 1;
    *active = *exists && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
    snprintf(pid, cap, "%s", *exists ? PQgetvalue(res, 0, 1) : "");
    if (*exists &&
        (strcmp(PQgetvalue(res, 0, 2), "pgoutput") != 0 || strcmp(PQgetvalue(res, 0, 3), "t") != 0))
        rc = pm_cdc_err(err, PAIMON_EINVALID,
                        "%s: replication slot %s is not a pgoutput slot of this database; "
                        "name another with --slot",
                        pm_pg_where(r->sql, where, sizeof(where)), r->slot);
    PQclear(res);
    return rc;
}

PM_MUST_CHECK static int slot_in_use(pm_cdc_run *r, const char *pid, paimon_error *err)
{
    char where[256];
    return pm_cdc_err(err, PAIMON_ECONFLICT,
                      "%s: replication slot %s is in use by another process (PID %s); stop it "
                      "first, or name another slot with --slot",
                      pm_pg_where(r->sql, where, sizeof(where)), r->slot, pid);
}

PM_MUST_CHECK static int ensure_publication(pm_cdc_run *r, paimon_error *err)
{
    const char *params[2] = {r->publication, NULL};
    char oid[16], where[256];
    PGresult *res = NULL;
    pm_cdc_buf sql = {0};
    int rc;
    snprintf(oid, sizeof(oid), "%u", r->src_oid);
    params[1] = oid;
    if ((rc = pm_pg_exec_params(r->sql,
                                "SELECT (SELECT count(*) FROM pg_publication WHERE pubname = $1), "
                                "(SELECT count(*) FROM pg_publication_tables t JOIN pg_class c "
                                "ON c.relname = t.tablename JOIN pg_namespace n ON n.oid = "
                                "c.relnamespace AND n.nspname = t.schemaname WHERE t.pubname = "
                                "$1 AND c.oid = $2::oid)",
                                2, params, &res, err)) != 0)
        return rc;
    if (strcmp(PQgetvalue(res, 0, 0), "0") != 0) {
        if (strcmp(PQgetvalue(res, 0, 1), "0") == 0)
            rc = pm_cdc_err(err, PAIMON_EINVALID,
                            "%s: publication %s does not publish %s; add it (ALTER PUBLICATION "
                            "... ADD TABLE) or name another with --publication",
                            pm_pg_where(r->sql, where, sizeof(where)), r->publication, r->o->table);
        PQclear(res);
        return rc;
    }
    PQclear(res);
    {
        const char *dot = strchr(r->o->table, '.');
        char nsp[256];
        snprintf(nsp, sizeof(nsp), "%.*s", dot != NULL ? (int)(dot - r->o->table) : 6,
                 dot != NULL ? r->o->table : "public");
        if (pm_cdc_buf_put(&sql, "CREATE PUBLICATION ", 19) != 0 ||
            pm_pg_quote_ident(&sql, r->publication) != 0 ||
            pm_cdc_buf_put(&sql, " FOR TABLE ", 11) != 0 || pm_pg_quote_ident(&sql, nsp) != 0 ||
            pm_cdc_buf_putc(&sql, '.') != 0 ||
            pm_pg_quote_ident(&sql, dot != NULL ? dot + 1 : r->o->table) != 0) {
            pm_cdc_buf_free(&sql);
            return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
        }
    }
    rc = pm_pg_exec(r->sql, sql.data, PGRES_COMMAND_OK, NULL, err);
    pm_cdc_buf_free(&sql);
    return rc;
}

/* Checks the source's columns against the Paimon table (adding new ones) as a Relation
 * message would, from the catalog: before a copy, and before streaming. */
PM_MUST_CHECK static int match_catalog(pm_cdc_run *r, paimon_error *err)
{
    char oid[16];
    const char *params[1] = {oid};
    PGresult *res = NULL;
    pm_pgo_msg m;
    pm_pgo_column *cols = NULL;
    size_t n = 0;
    int rc;
    snprintf(oid, sizeof(oid), "%u", r->src_oid);
    if ((rc = pm_pg_exec_params(r->sql,
                                "SELECT attname, atttypid, atttypmod FROM pg_attribute WHERE "
                                "attrelid = $1::oid AND attnum > 0 AND NOT attisdropped ORDER "
                                "BY attnum",
                                1, params, &res, err)) != 0)
        return rc;
    memset(&m, 0, sizeof(m));
    m.kind = 'R';
    m.rel = r->src_oid;
    m.column_count = (uint16_t)PQntuples(res);
    if ((cols = calloc(m.column_count + 1u, sizeof(*cols))) == NULL) {
        PQclear(res);
        return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
    }
    for (int i = 0; i < PQntuples(res); i++) {
        cols[i].name = PQgetvalue(res, i, 0);
        cols[i].type_oid = (uint32_t)strtoul(PQgetvalue(res, i, 1), NULL, 10);
        cols[i].typmod = (int32_t)strtol(PQgetvalue(res, i, 2), NULL, 10);
    }
    m.columns = cols;
    rc = pm_cdc_relation_match(&m, r->o->table, r->o->into, &r->schema, true, true, NULL, &n,
                               &r->map, err);
    r->map.from_catalog = true;
    free(cols);
    PQclear(res);
    return rc;
}

int pm_cdc_check_live(pm_cdc_run *r, const pm_pgo_msg *rel, paimon_error *err)
{
    char oid[16];
    const char *params[1] = {oid};
    PGresult *res = NULL;
    int rc;
    snprintf(oid, sizeof(oid), "%u", r->src_oid);
    if ((rc = pm_pg_exec_params(r->sql,
                                "SELECT attname FROM pg_attribute WHERE attrelid = $1::oid AND "
                                "attnum > 0 AND NOT attisdropped",
                                1, params, &res, err)) != 0)
        return rc;
    for (size_t j = 0; rc == 0 && j < r->schema.count; j++) {
        const char *name = r->schema.cols[j].name;
        bool in_rel = false, live = false;
        for (uint16_t i = 0; i < rel->column_count && !in_rel; i++)
            in_rel = strcmp(rel->columns[i].name, name) == 0;
        for (int i = 0; !in_rel && i < PQntuples(res) && !live; i++)
            live = strcmp(PQgetvalue(res, i, 0), name) == 0;
        if (!in_rel && !live)
            rc = pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                            "%s: column %s of %s is gone from the source (dropped or renamed); "
                            "paimon cdc cannot follow that: stopped before the transaction "
                            "that carries it (alter the Paimon table to match, or drop the "
                            "slot and copy anew)",
                            r->o->into, name, r->o->table);
    }
    PQclear(res);
    return rc;
}

/* ---- copy --------------------------------------------------------------------------------- */

PM_MUST_CHECK static int copy_rows(pm_cdc_run *r, const char *snapshot, paimon_error *err)
{
    pm_cdc_buf sql = {0}, fields_scratch = {0};
    pm_copy_field *fields = NULL;
    char *line = NULL;
    int len, rc = 0, got;
    PGresult *res = NULL;
    const char *dot = strchr(r->o->table, '.');
    char nsp[256];
    snprintf(nsp, sizeof(nsp), "%.*s", dot != NULL ? (int)(dot - r->o->table) : 6,
             dot != NULL ? r->o->table : "public");
    if ((rc = pm_pg_exec(r->sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                         PGRES_COMMAND_OK, NULL, err)) != 0)
        return rc;
    if (pm_cdc_buf_put(&sql, "SET TRANSACTION SNAPSHOT '", 26) != 0 ||
        pm_cdc_buf_put(&sql, snapshot, strlen(snapshot)) != 0 || pm_cdc_buf_putc(&sql, '\'') != 0)
        goto nomem;
    if ((rc = pm_pg_exec(r->sql, sql.data, PGRES_COMMAND_OK, NULL, err)) != 0)
        goto done;
    sql.len = 0;
    if (pm_cdc_buf_put(&sql, "COPY ", 5) != 0 || pm_pg_quote_ident(&sql, nsp) != 0 ||
        pm_cdc_buf_putc(&sql, '.') != 0 ||
        pm_pg_quote_ident(&sql, dot != NULL ? dot + 1 : r->o->table) != 0 ||
        pm_cdc_buf_put(&sql, " (", 2) != 0)
        goto nomem;
    for (size_t i = 0; i < r->map.count; i++)
        if ((i > 0 && pm_cdc_buf_put(&sql, ", ", 2) != 0) ||
            pm_pg_quote_ident(&sql, r->schema.cols[r->map.to_paimon[i]].name) != 0)
            goto nomem;
    if (pm_cdc_buf_put(&sql, ") TO STDOUT", 11) != 0)
        goto nomem;
    if ((rc = pm_pg_exec(r->sql, sql.data, PGRES_COPY_OUT, NULL, err)) != 0)
        goto done;
    if ((fields = calloc(r->map.count + 1, sizeof(*fields))) == NULL)
        goto nomem;
    while ((got = pm_pg_copy_read(r->sql, -1, &line, &len, err)) != -1) {
        size_t count = 0;
        if (got < 0) {
            rc = got;
            goto done;
        }
        if (got == 0) {
            if (r->o->stop != NULL && *r->o->stop) {
                rc =
                    pm_cdc_err(err, PAIMON_EIO, "%s: stopped during the initial copy", r->o->table);
                goto done;
            }
            continue;
        }
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if ((rc = pm_copy_split(line, (size_t)len, fields, r->map.count, &count, &fields_scratch,
                                err)) != 0)
            goto done;
        if (count != r->map.count) {
            rc = pm_cdc_err(err, PAIMON_ECORRUPT, "COPY %s: a row of %zu fields, not %zu",
                            r->o->table, count, r->map.count);
            goto done;
        }
        for (size_t j = 0; j < r->schema.count; j++)
            r->vals[j].type = PAIMON_VALUE_NULL;
        r->scratch.len = 0;
        for (size_t i = 0; i < count; i++) {
            int j = r->map.to_paimon[i];
            if (fields[i].ptr == NULL)
                continue;
            /* the table is named only on failure: formatting it per value costs a fifth of
             * the copy's time */
            if ((rc = pm_pgtype_value(r->map.type_oids[i], fields[i].ptr, fields[i].len,
                                      r->schema.cols[j].name, &r->vals[j], &r->scratch, err)) !=
                0) {
                rc = pm_cdc_err_prefix(err, rc, "COPY %s: column ", r->o->table);
                goto done;
            }
        }
        pm_pgtype_fixup(r->vals, r->schema.count, &r->scratch);
        if ((rc = paimon_writer_write_row(r->writer, r->vals, r->schema.count, PAIMON_ROW_INSERT,
                                          err)) != 0)
            goto done;
        r->st.copied_rows++;
        PQfreemem(line);
        line = NULL;
    }
    res = PQgetResult(r->sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK) {
        char where[256];
        rc = pm_cdc_err(err, PAIMON_EIO, "%s: COPY %s: %s",
                        pm_pg_where(r->sql, where, sizeof(where)), r->o->table,
                        PQresultErrorMessage(res));
        goto done;
    }
    rc = pm_pg_exec(r->sql, "COMMIT", PGRES_COMMAND_OK, NULL, err);
    goto done;
nomem:
    rc = pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
done:
    PQfreemem(line);
    PQclear(res);
    /* drain what is left of an interrupted COPY so the connection can be closed cleanly: a
     * COPY still sending rows (a bad value stopped the copy) answers PQgetResult() with
     * PGRES_COPY_OUT for ever, so cancel it and read its rows to the end first */
    while ((res = PQgetResult(r->sql)) != NULL) {
        bool copying = PQresultStatus(res) == PGRES_COPY_OUT;
        PQclear(res);
        if (copying && pm_pg_copy_abandon(r->sql) != 0)
            break;
    }
    free(fields);
    pm_cdc_buf_free(&fields_scratch);
    pm_cdc_buf_free(&sql);
    return rc;
}

/* Creates the slot with an exported snapshot and copies the table under it. */
PM_MUST_CHECK static int initial_copy(pm_cdc_run *r, paimon_error *err)
{
    pm_cdc_buf sql = {0};
    PGresult *res = NULL;
    uint64_t point = 0;
    char where[256];
    int rc;
    if ((rc = ensure_publication(r, err)) != 0)
        return rc;
    if (pm_cdc_buf_put(&sql, "CREATE_REPLICATION_SLOT ", 24) != 0 ||
        pm_pg_quote_ident(&sql, r->slot) != 0 ||
        pm_cdc_buf_put(&sql, " LOGICAL pgoutput EXPORT_SNAPSHOT", 33) != 0) {
        pm_cdc_buf_free(&sql);
        return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
    }
    rc = pm_pg_exec(r->repl, sql.data, PGRES_TUPLES_OK, &res, err);
    pm_cdc_buf_free(&sql);
    if (rc != 0)
        return rc;
    if (PQntuples(res) != 1 || PQnfields(res) < 3 ||
        !pm_cdc_lsn_parse(PQgetvalue(res, 0, 1), &point)) {
        PQclear(res);
        return pm_cdc_err(err, PAIMON_EIO, "%s: CREATE_REPLICATION_SLOT: an unexpected answer",
                          pm_pg_where(r->repl, where, sizeof(where)));
    }
    rc = copy_rows(r, PQgetvalue(res, 0, 2), err);
    PQclear(res);
    if (rc != 0)
        return rc;
    /* the copy as one commit at the consistent point: the stream starts after it */
    r->pending_lsn = point;
    r->pending_txns = 1;
    if ((rc = pm_cdc_commit(r, err)) != 0)
        return rc;
    r->table_lsn = point;
    return 0;
}

/* ---- stream ------------------------------------------------------------------------------- */

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

PM_MUST_CHECK static int start_stream(pm_cdc_run *r, paimon_error *err)
{
    pm_cdc_buf sql = {0};
    char lsn[32], where[256];
    PGresult *res;
    pm_cdc_lsn_format(r->table_lsn, lsn, sizeof(lsn));
    if (pm_cdc_buf_put(&sql, "START_REPLICATION SLOT ", 23) != 0 ||
        pm_pg_quote_ident(&sql, r->slot) != 0 || pm_cdc_buf_put(&sql, " LOGICAL ", 9) != 0 ||
        pm_cdc_buf_put(&sql, lsn, strlen(lsn)) != 0 ||
        pm_cdc_buf_put(&sql, " (proto_version '1', publication_names '", 40) != 0 ||
        pm_pg_quote_ident(&sql, r->publication) != 0 || pm_cdc_buf_put(&sql, "')", 2) != 0) {
        pm_cdc_buf_free(&sql);
        return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
    }
    res = PQexec(r->repl, sql.data);
    pm_cdc_buf_free(&sql);
    if (PQresultStatus(res) != PGRES_COPY_BOTH) {
        const char *msg = PQresultErrorMessage(res);
        int rc;
        if (strstr(msg, "is active for PID") != NULL)
            rc = pm_cdc_err(err, PAIMON_ECONFLICT,
                            "%s: replication slot %s is in use by another process; stop it "
                            "first, or name another slot with --slot",
                            pm_pg_where(r->repl, where, sizeof(where)), r->slot);
        else
            rc = pm_cdc_err(err, PAIMON_EIO, "%s: START_REPLICATION: %.*s",
                            pm_pg_where(r->repl, where, sizeof(where)), (int)strcspn(msg, "\n"),
                            msg);
        PQclear(res);
        return rc;
    }
    PQclear(res);
    r->streaming = true;
    return 0;
}

/* One message of the stream (a CopyData payload). */
PM_MUST_CHECK static int on_message(pm_cdc_run *r, const unsigned char *buf, size_t len,
                                    paimon_error *err)
{
    pm_pgo_msg m;
    int rc;
    if (len >= 18 && buf[0] == 'k') {
        r->server_lsn = get64(buf + 1);
        if (buf[17] != 0)
            return pm_cdc_send_status(r, false, err);
        return 0;
    }
    if (len < 25 || buf[0] != 'w')
        return pm_cdc_err(err, PAIMON_ECORRUPT,
                          "replication stream: a message of %zu bytes, "
                          "kind 0x%02x, that is neither XLogData nor a keepalive",
                          len, len > 0 ? buf[0] : 0);
    {
        uint64_t end = get64(buf + 9);
        if (end > r->received_lsn)
            r->received_lsn = end;
    }
    buf += 25;
    len -= 25;
    if ((rc = pm_pgo_decode(&r->dec, buf, len, &m, err)) != 0)
        return rc;
    switch (m.kind) {
    case 'B':
        r->in_txn = true;
        r->txn.len = 0;
        return 0;
    case 'C':
        r->in_txn = false;
        if (m.end_lsn <= r->table_lsn) { /* committed before: only its Relations count */
            rc = pm_cdc_apply_txn(r, m.end_lsn, true, err);
            r->txn.len = 0;
            return rc;
        }
        r->last_change_ms = pm_cdc_now_ms();
        rc = pm_cdc_apply_txn(r, m.end_lsn, false, err);
        r->txn.len = 0;
        if (rc == 0 && r->o->commit_rows > 0 && r->pending_rows >= r->o->commit_rows)
            rc = pm_cdc_commit(r, err);
        return rc;
    default: {
        uint32_t n = (uint32_t)len;
        if (!r->in_txn) /* Relation and Type messages come inside transactions */
            return 0;
        if (pm_cdc_buf_put(&r->txn, &n, 4) != 0 || pm_cdc_buf_put(&r->txn, buf, len) != 0)
            return pm_cdc_err(err, PAIMON_ELIMIT,
                              "%s: a transaction of more than 1 GiB of changes; paimon cdc "
                              "buffers one transaction in memory",
                              r->o->table);
        return 0;
    }
    }
}

PM_MUST_CHECK static int stream(pm_cdc_run *r, paimon_error *err)
{
    int rc;
    r->last_change_ms = r->last_commit_ms = r->last_status_ms = pm_cdc_now_ms();
    for (;;) {
        int64_t now = pm_cdc_now_ms(), wait = 1000;
        char *buf = NULL;
        int len = 0, got;
        if (r->o->stop != NULL && *r->o->stop)
            break;
        if (!r->in_txn && r->pending_txns > 0 &&
            now - r->last_commit_ms >= r->o->commit_interval_ms &&
            (rc = pm_cdc_commit(r, err)) != 0)
            return rc;
        if (r->o->idle_exit_ms >= 0 && !r->in_txn && now - r->last_change_ms >= r->o->idle_exit_ms)
            break;
        if (now - r->last_status_ms >= STATUS_INTERVAL_MS &&
            (rc = pm_cdc_send_status(r, false, err)) != 0)
            return rc;
        if (r->pending_txns > 0) {
            int64_t left = r->last_commit_ms + r->o->commit_interval_ms - now;
            wait = left < 1 ? 1 : (left < wait ? left : wait);
        }
        if (r->o->idle_exit_ms >= 0) {
            int64_t left = r->last_change_ms + r->o->idle_exit_ms - now;
            if (left < wait)
                wait = left < 1 ? 1 : left;
        }
        got = pm_pg_copy_read(r->repl, wait, &buf, &len, err);
        if (got == -1) {
            char where[256];
            PGresult *res = PQgetResult(r->repl);
            rc = pm_cdc_err(err, PAIMON_EIO, "%s: the server ended the stream: %.*s",
                            pm_pg_where(r->repl, where, sizeof(where)),
                            (int)strcspn(PQresultErrorMessage(res), "\n"),
                            PQresultErrorMessage(res));
            PQclear(res);
            return rc;
        }
        if (got < 0)
            return got;
        if (got == 0)
            continue;
        rc = on_message(r, (const unsigned char *)buf, (size_t)len, err);
        PQfreemem(buf);
        if (rc != 0)
            return rc;
    }
    /* a clean stop: an open transaction is dropped (it comes again), the rest committed */
    r->in_txn = false;
    r->txn.len = 0;
    if ((rc = pm_cdc_commit(r, err)) != 0)
        return rc;
    return pm_cdc_send_status(r, false, err);
}

/* ---- the run ------------------------------------------------------------------------------ */

PM_MUST_CHECK static int run(pm_cdc_run *r, paimon_error *err)
{
    const paimon_cdc_postgres_options *o = r->o;
    paimon_table *t = NULL;
    bool found = false, exists = false, active = false;
    char pid[32];
    int rc;
    if (o->slot != NULL)
        snprintf(r->slot, sizeof(r->slot), "%s", o->slot);
    else
        default_slot(o->table, r->slot, sizeof(r->slot));
    snprintf(r->publication, sizeof(r->publication), "%s",
             o->publication != NULL ? o->publication : r->slot);
    if ((rc = check_name("--slot", r->slot, err)) != 0 ||
        (rc = check_name("--publication", r->publication, err)) != 0)
        return rc;
    snprintf(r->user, sizeof(r->user), "paimon-cdc-%s", r->slot);

    if ((rc = pm_pg_connect(&r->sql, o->dsn, false, err)) != 0 ||
        (rc = check_wal_level(r, err)) != 0 ||
        (rc = pm_cdc_source_find(r->sql, o->table, &r->src_oid, err)) != 0)
        return rc;
    rc = paimon_table_open(&t, o->into, err);
    paimon_table_free(t);
    if (rc == PAIMON_ENOTFOUND && o->create) {
        if ((rc = pm_cdc_create_table(r->sql, r->src_oid, o->table, o->into, o->option_keys,
                                      o->option_values, o->option_count, err)) != 0)
            return rc;
    } else if (rc == PAIMON_ENOTFOUND) {
        return pm_cdc_err(err, PAIMON_ENOTFOUND,
                          "%s: no Paimon table there; add --create to make it from %s", o->into,
                          o->table);
    } else if (rc != 0) {
        return rc;
    }
    if ((rc = pm_cdc_schema_read(o->into, &r->schema, err)) != 0 ||
        (rc = match_catalog(r, err)) != 0 || (rc = pm_cdc_open_writer(r, false, err)) != 0 ||
        (rc = read_table_lsn(r, &found, err)) != 0)
        return rc;
    if ((rc = slot_state(r, &exists, &active, pid, sizeof(pid), err)) != 0)
        return rc;
    /* a run that just died (killed, its host gone) holds the slot until the server sees
     * its connection closed: give that a few seconds before calling the slot in use */
    for (int i = 0; active && i < 25; i++) {
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if ((rc = slot_state(r, &exists, &active, pid, sizeof(pid), err)) != 0)
            return rc;
    }
    if (active)
        return slot_in_use(r, pid, err);
    if (found && !exists)
        return pm_cdc_err(err, PAIMON_ENOTFOUND,
                          "%s: the table holds changes up to LSN %" PRIX32 "/%" PRIX32
                          " of replication slot %s, which is gone: the changes since cannot be "
                          "recovered; copy into a new table (or drop this one) to start over",
                          o->into, (uint32_t)(r->table_lsn >> 32), (uint32_t)r->table_lsn, r->slot);
    if ((rc = pm_pg_connect(&r->repl, o->dsn, true, err)) != 0)
        return rc;
    if (!found) {
        if (exists) {
            /* left by a run whose copy never committed: start that copy over */
            pm_cdc_buf sql = {0};
            if (pm_cdc_buf_put(&sql, "DROP_REPLICATION_SLOT ", 22) != 0 ||
                pm_pg_quote_ident(&sql, r->slot) != 0 || pm_cdc_buf_put(&sql, " WAIT", 5) != 0)
                rc = pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
            else
                rc = pm_pg_exec(r->repl, sql.data, PGRES_COMMAND_OK, NULL, err);
            pm_cdc_buf_free(&sql);
            if (rc != 0)
                return rc;
        }
        if ((rc = initial_copy(r, err)) != 0)
            return rc;
    }
    r->flushed_lsn = r->table_lsn;
    if ((rc = start_stream(r, err)) != 0)
        return rc;
    return stream(r, err);
}

int paimon_cdc_postgres_run(const paimon_cdc_postgres_options *options, paimon_cdc_stats *stats,
                            paimon_error *err)
{
    pm_cdc_run r;
    int rc;
    if (err != NULL)
        memset(err, 0, sizeof(*err));
    if (options == NULL || options->version != PAIMON_CDC_POSTGRES_OPTIONS_VERSION ||
        options->dsn == NULL || options->table == NULL || options->into == NULL ||
        options->table[0] == '\0' || options->commit_interval_ms < 0)
        return pm_cdc_err(err, PAIMON_EINVALID,
                          "paimon_cdc_postgres_run: dsn, table and into are needed");
    memset(&r, 0, sizeof(r));
    r.o = options;
    rc = run(&r, err);
    if (stats != NULL)
        *stats = r.st;
    if (r.repl != NULL && r.streaming)
        PQputCopyEnd(r.repl, NULL);
    paimon_writer_free(r.writer); /* uncommitted rows: their files go */
    paimon_table_free(r.table);
    PQfinish(r.repl);
    PQfinish(r.sql);
    pm_cdc_schema_free(&r.schema);
    pm_cdc_relmap_free(&r.map);
    pm_pgo_decoder_free(&r.dec);
    pm_cdc_buf_free(&r.txn);
    pm_cdc_buf_free(&r.scratch);
    free(r.vals);
    return rc;
}
