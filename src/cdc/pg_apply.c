/*
 * Applying PostgreSQL changes to the Paimon writer, and committing them (pg_run.h).
 *
 * Rows: insert +I; update +U, preceded by -U of the old row when pgoutput sends the whole
 * old row (REPLICA IDENTITY FULL), or, when the primary key changed, -D of the old key (the
 * key tuple pgoutput sends) and +I of the new row; delete -D of the old key (or old row).
 * A column of the relation maps to its Paimon column by name (pm_cdc_relmap); Paimon
 * columns the relation does not send stay null.
 *
 * Transactions: a transaction's messages are buffered from Begin to Commit, then applied
 * as a whole (pm_cdc_apply_txn), so that one is never split across Paimon commits: a
 * Relation that adds a column or a Truncate first commits the transactions before it, then
 * changes the schema or starts an overwrite.
 *
 * Commits (pm_cdc_commit): the writer's rows as one Paimon commit of the slot's commit
 * user, with the end LSN of the last complete transaction as the commit identifier and in
 * the snapshot properties (cdc.postgres.lsn, cdc.postgres.slot); a commit that Paimon
 * finds made before (filterCommitted) is fine.  Only then does the flushed position sent to
 * PostgreSQL move (pm_cdc_send_status).
 */
#include <stdlib.h>
#include <string.h>

#include "pg_run.h"
#include "pg_types.h"

int pm_cdc_open_writer(pm_cdc_run *r, bool overwrite, paimon_error *err)
{
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    int rc;
    paimon_writer_free(r->writer);
    r->writer = NULL;
    paimon_table_free(r->table);
    r->table = NULL;
    if ((rc = paimon_table_open(&r->table, r->o->into, err)) != 0)
        return rc;
    wo.overwrite = overwrite;
    wo.commit_user = r->user;
    if ((rc = paimon_writer_open(&r->writer, r->table, &wo, err)) != 0)
        return rc;
    r->overwrite = overwrite;
    if (r->vals_cap < r->schema.count) {
        paimon_value *v = realloc(r->vals, (r->schema.count + 1) * sizeof(*v));
        if (v == NULL)
            return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
        r->vals = v;
        r->vals_cap = r->schema.count;
    }
    return 0;
}

int pm_cdc_send_status(pm_cdc_run *r, bool reply, paimon_error *err)
{
    uint64_t flushed = r->table_lsn;
    /* nothing pending and no transaction open: everything the server sent up to its
     * position is in the table or was not ours, as pg_recvlogical reports it */
    if (r->pending_txns == 0 && !r->in_txn && !r->overwrite && r->server_lsn > flushed)
        flushed = r->server_lsn;
    if (flushed > r->flushed_lsn)
        r->flushed_lsn = flushed;
    r->last_status_ms = pm_cdc_now_ms();
    return pm_pg_send_status(r->repl, r->received_lsn, r->flushed_lsn, r->flushed_lsn, reply, err);
}

int pm_cdc_commit(pm_cdc_run *r, paimon_error *err)
{
    paimon_commit_messages *m = NULL;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_commit_result res = PAIMON_COMMIT_RESULT_INIT;
    char lsn[32];
    const char *keys[2] = {PM_CDC_PROP_LSN, PM_CDC_PROP_SLOT};
    const char *vals[2] = {lsn, r->slot};
    int64_t id = 0;
    bool reopen;
    int rc = 0;
    if (r->pending_txns == 0 && !r->overwrite)
        return 0;
    pm_cdc_lsn_format(r->pending_lsn, lsn, sizeof(lsn));
    if ((rc = paimon_commit_messages_new(&m, err)) != 0 ||
        (rc = paimon_writer_prepare_commit(r->writer, m, err)) != 0)
        goto done;
    co.commit_user = r->user;
    co.identifier = (int64_t)r->pending_lsn;
    co.overwrite = r->overwrite;
    co.result = &res;
    co.property_keys = keys;
    co.property_values = vals;
    co.property_count = 2;
    rc = paimon_table_commit(r->table, m, &co, &id, err);
    if (rc != 0) {
        if (!res.uncertain)
            PM_CDC_IGNORE(paimon_commit_messages_abort(r->table, m, NULL));
        rc =
            pm_cdc_err_prefix(err, rc, "%s: commit of the changes up to LSN %s: ", r->o->into, lsn);
        goto done;
    }
    if (res.committed_before > 0) /* a run before this one made it: these files are spare */
        PM_CDC_IGNORE(paimon_commit_messages_abort(r->table, m, NULL));
    r->table_lsn = r->pending_lsn;
    r->st.lsn = r->table_lsn;
    r->st.commits += id > 0;
    reopen = r->overwrite || res.compact_err.code != 0;
    r->pending_txns = 0;
    r->pending_rows = 0;
    r->last_commit_ms = pm_cdc_now_ms();
    if (reopen && (rc = pm_cdc_open_writer(r, false, err)) != 0)
        goto done;
    if (r->repl != NULL && r->streaming)
        rc = pm_cdc_send_status(r, false, err);
done:
    paimon_commit_messages_free(m);
    return rc;
}

/* Fills r->vals from `t` (a tuple of the relation of r->map); `old` (may be NULL) gives
 * the values pgoutput leaves out as unchanged TOASTed values. */
PM_MUST_CHECK static int row_values(pm_cdc_run *r, const pm_pgo_tuple *t, const pm_pgo_tuple *old,
                                    paimon_error *err)
{
    int rc;
    if (t->count != r->map.count)
        return pm_cdc_err(err, PAIMON_ECORRUPT,
                          "pgoutput: a row of %u columns for a relation of %zu", t->count,
                          r->map.count);
    for (size_t j = 0; j < r->schema.count; j++)
        r->vals[j].type = PAIMON_VALUE_NULL;
    r->scratch.len = 0;
    for (uint16_t i = 0; i < t->count; i++) {
        const pm_pgo_value *v = &t->values[i];
        int j = r->map.to_paimon[i];
        if (j < 0)
            continue;
        if (v->kind == 'u') {
            if (old == NULL || i >= old->count || old->values[i].kind != 't')
                return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                                  "%s column %s: an update left a large (TOASTed) value out; "
                                  "set ALTER TABLE %s REPLICA IDENTITY FULL so that PostgreSQL "
                                  "sends it",
                                  r->o->table, r->schema.cols[j].name, r->o->table);
            v = &old->values[i];
        }
        if (v->kind != 't')
            continue;
        if ((rc = pm_pgtype_value(r->map.type_oids[i], v->ptr, v->len, r->schema.cols[j].name,
                                  &r->vals[j], &r->scratch, err)) != 0)
            return pm_cdc_err_prefix(err, rc, "%s column ", r->o->table);
    }
    pm_pgtype_fixup(r->vals, r->schema.count, &r->scratch);
    return 0;
}

PM_MUST_CHECK static int write_row(pm_cdc_run *r, const pm_pgo_tuple *t, const pm_pgo_tuple *old,
                                   int8_t kind, paimon_error *err)
{
    int rc;
    if ((rc = row_values(r, t, old, err)) != 0 ||
        (rc = paimon_writer_write_row(r->writer, r->vals, r->schema.count, kind, err)) != 0)
        return rc;
    r->pending_rows++;
    r->st.changes++;
    return 0;
}

/* Whether the key columns differ between the old tuple and the new one. */
static bool key_changed(const pm_cdc_run *r, const pm_pgo_tuple *old, const pm_pgo_tuple *nw)
{
    for (uint16_t i = 0; i < old->count && i < nw->count; i++) {
        const pm_pgo_value *a = &old->values[i], *b = &nw->values[i];
        if (!r->map.key[i] || b->kind == 'u')
            continue;
        if (a->kind != b->kind || a->len != b->len ||
            (a->kind == 't' && memcmp(a->ptr, b->ptr, a->len) != 0))
            return true;
    }
    return false;
}

PM_MUST_CHECK static int no_key(pm_cdc_run *r, const char *what, paimon_error *err)
{
    return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                      "%s: %s has no primary key, so the Paimon table is an append table and "
                      "an %s cannot be applied to it; add a primary key to the source table "
                      "and copy anew",
                      r->o->into, r->o->table, what);
}

PM_MUST_CHECK static int apply_change(pm_cdc_run *r, const pm_pgo_msg *m, paimon_error *err)
{
    int rc = 0;
    if (r->map.rel == 0 || m->rel != r->map.rel)
        return pm_cdc_err(err, PAIMON_ECORRUPT,
                          "pgoutput: a change of relation %u before its Relation message", m->rel);
    switch (m->kind) {
    case 'I': return write_row(r, &m->new_tuple, NULL, PAIMON_ROW_INSERT, err);
    case 'U':
        if (r->schema.pk_count == 0)
            return no_key(r, "UPDATE", err);
        if (m->old_kind != 0 && key_changed(r, &m->old_tuple, &m->new_tuple)) {
            if ((rc = write_row(r, &m->old_tuple, NULL, PAIMON_ROW_DELETE, err)) != 0)
                return rc;
            return write_row(r, &m->new_tuple, &m->old_tuple, PAIMON_ROW_INSERT, err);
        }
        if (m->old_kind == 'O' &&
            (rc = write_row(r, &m->old_tuple, NULL, PAIMON_ROW_UPDATE_BEFORE, err)) != 0)
            return rc;
        return write_row(r, &m->new_tuple, m->old_kind == 'O' ? &m->old_tuple : NULL,
                         PAIMON_ROW_UPDATE_AFTER, err);
    case 'D':
        if (r->schema.pk_count == 0)
            return no_key(r, "DELETE", err);
        return write_row(r, &m->old_tuple, NULL, PAIMON_ROW_DELETE, err);
    default: return 0;
    }
}

/* Walks the buffered transaction: calls `fn` on each decoded message until one fails. */
PM_MUST_CHECK static int
each_message(pm_cdc_run *r, int (*fn)(pm_cdc_run *, const pm_pgo_msg *, void *, paimon_error *),
             void *arg, paimon_error *err)
{
    size_t off = 0;
    int rc;
    while (off + 4 <= r->txn.len) {
        uint32_t len;
        pm_pgo_msg m;
        memcpy(&len, r->txn.data + off, 4);
        off += 4;
        if ((rc = pm_pgo_decode(&r->dec, (const uint8_t *)r->txn.data + off, len, &m, err)) != 0)
            return rc;
        if ((rc = fn(r, &m, arg, err)) != 0)
            return rc;
        off += len;
    }
    return 0;
}

/* Pre-scan: what the transaction needs before its rows (schema changes, a truncate). */
typedef struct prescan {
    size_t alters;
    bool truncate;
} prescan;

PM_MUST_CHECK static int scan_one(pm_cdc_run *r, const pm_pgo_msg *m, void *arg, paimon_error *err)
{
    prescan *p = arg;
    if (m->kind == 'R') {
        pm_cdc_relmap tmp = {0};
        size_t n = 0;
        int rc = r->map.from_catalog ? pm_cdc_check_live(r, m, err) : 0;
        if (rc == 0)
            rc = pm_cdc_relation_match(m, r->o->table, r->o->into, &r->schema, false, false,
                                       &r->map, &n, &tmp, err);
        pm_cdc_relmap_free(&tmp);
        p->alters += n;
        return rc;
    }
    if (m->kind == 'T')
        p->truncate = true;
    return 0;
}

/* Adds the columns a Relation has that the table lacks. */
PM_MUST_CHECK static int alter_one(pm_cdc_run *r, const pm_pgo_msg *m, void *arg, paimon_error *err)
{
    pm_cdc_relmap tmp = {0};
    size_t n = 0;
    int rc = 0;
    (void)arg;
    if (m->kind == 'R')
        rc = pm_cdc_relation_match(m, r->o->table, r->o->into, &r->schema, true, false, NULL, &n,
                                   &tmp, err);
    pm_cdc_relmap_free(&tmp);
    return rc;
}

PM_MUST_CHECK static int apply_one(pm_cdc_run *r, const pm_pgo_msg *m, void *arg, paimon_error *err)
{
    size_t n = 0;
    const bool *skip = arg;
    if (*skip && m->kind != 'R')
        return 0;
    switch (m->kind) {
    case 'R':
        /* the columns are there (alter_one): only the mapping changes.  Earlier maps stay
         * right, as new columns come last. */
        return pm_cdc_relation_match(m, r->o->table, r->o->into, &r->schema, true, false, NULL, &n,
                                     &r->map, err);
    case 'T':
        /* everything before (this transaction's rows too) is replaced: a new overwrite */
        return pm_cdc_open_writer(r, true, err);
    case 'I':
    case 'U':
    case 'D': return apply_change(r, m, err);
    default: return 0;
    }
}

int pm_cdc_apply_txn(pm_cdc_run *r, uint64_t end_lsn, bool skip, paimon_error *err)
{
    prescan p = {0, false};
    int rc;
    if ((rc = each_message(r, scan_one, &p, err)) != 0)
        return rc;
    /* schema changes and truncates start from committed state, so that the transactions
     * before them are committed as they were, and this one is not split */
    if (skip)
        p.truncate = false; /* in the table already */
    if ((p.alters > 0 || p.truncate) && (rc = pm_cdc_commit(r, err)) != 0)
        return rc;
    /* new columns: added before any row of the transaction, and the writer reopened on the
     * new schema (it holds no rows now) */
    if (p.alters > 0 && ((rc = each_message(r, alter_one, NULL, err)) != 0 ||
                         (rc = pm_cdc_open_writer(r, r->overwrite, err)) != 0))
        return rc;
    if ((rc = each_message(r, apply_one, &skip, err)) != 0 || skip)
        return rc;
    r->pending_lsn = end_lsn;
    r->pending_txns++;
    r->st.transactions++;
    return 0;
}
