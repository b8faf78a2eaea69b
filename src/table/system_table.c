/* System tables: names, opening, and the reader that turns rows into filtered, projected
 * batches.  See system_table.h; the tables themselves are in system_meta.c (snapshots,
 * schemas, options), system_files.c and system_manifests.c (manifests, partitions,
 * buckets). */
#include "table/system_table_int.h"

#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/error.h"

/* ---- names --------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    pm_sys_kind kind;
} KNOWN[] = {
    {"snapshots", PM_SYS_SNAPSHOTS}, {"schemas", PM_SYS_SCHEMAS},
    {"options", PM_SYS_OPTIONS},     {"files", PM_SYS_FILES},
    {"manifests", PM_SYS_MANIFESTS}, {"partitions", PM_SYS_PARTITIONS},
    {"buckets", PM_SYS_BUCKETS},     {"ro", PM_SYS_RO},
    {"tags", PM_SYS_TAGS},           {"consumers", PM_SYS_CONSUMERS},
    {"audit_log", PM_SYS_AUDIT_LOG}, {"binlog", PM_SYS_BINLOG},
};

/* The other system tables of Java 1.4.2's SystemTableLoader. */
static const char *const NOT_YET[] = {
    "file_key_ranges", "branches",     "statistics",
    "table_indexes",   "row_tracking", "aggregation_fields",
};

int pm_sys_kind_parse(const char *table_path, const char *name, pm_sys_kind *out, paimon_error *err)
{
    for (size_t i = 0; i < sizeof(KNOWN) / sizeof(KNOWN[0]); i++) {
        if (strcasecmp(name, KNOWN[i].name) == 0) {
            *out = KNOWN[i].kind;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof(NOT_YET) / sizeof(NOT_YET[0]); i++)
        if (strcasecmp(name, NOT_YET[i]) == 0)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "%s$%s: this system table is not supported yet", table_path, name);
    if (strncasecmp(name, "branch_", 7) == 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s$%s: branches are not supported yet",
                          table_path, name);
    return pm_err_set(err, PAIMON_ENOTFOUND,
                      "%s$%s: no such system table (paimon-c reads snapshots, schemas, options, "
                      "files, manifests, partitions, buckets, tags, ro, consumers, audit_log and "
                      "binlog)",
                      table_path, name);
}

/* ---- shared helpers ------------------------------------------------------------------------ */

int pm_sys_set_columns(pm_sys_table *st, const char *columns, paimon_error *err)
{
    return pm_columns_parse(columns, &st->row, err);
}

int pm_sys_put_i64(pm_column *c, int64_t v)
{
    return pm_column_append_i64(c, v);
}

int pm_sys_put_null(pm_column *c)
{
    return pm_column_append_null(c);
}

int pm_sys_put_str(pm_column *c, const char *s)
{
    return s == NULL ? pm_column_append_null(c) : pm_column_append_bytes(c, s, strlen(s));
}

int pm_sys_put_buf(pm_column *c, const pm_buf *b)
{
    return pm_column_append_bytes(c, b->data, b->len);
}

int pm_sys_put_ts(pm_column *c, int64_t millis)
{
    pm_datum d;
    d.is_null = false;
    d.v.ts.millis = millis;
    d.v.ts.nanos = 0;
    return pm_column_append_datum(c, &d);
}

int pm_sys_put_opt(pm_column *c, bool present, int64_t v)
{
    return present ? pm_column_append_i64(c, v) : pm_column_append_null(c);
}

int pm_sys_snapshot(paimon_table *t, const pm_snapshot_selector *sel, pm_snapshot **out,
                    paimon_error *err)
{
    pm_snapshot_selector latest = {PM_SNAPSHOT_LATEST, 0, NULL, 0};
    int64_t id;
    bool found;
    int rc;

    *out = NULL;
    if (sel == NULL) {
        /* Java's system tables show nothing for a table without snapshots. */
        if ((rc = pm_snapshot_latest_id(t->fs, t->path, &id, &found, err)) != 0 || !found)
            return rc;
        sel = &latest;
    }
    return pm_table_select_snapshot(t, sel, out, err);
}

/* ---- opening ------------------------------------------------------------------------------- */

int pm_sys_table_open(pm_sys_table **out, paimon_table *t, pm_sys_kind kind,
                      const pm_snapshot_selector *sel, paimon_error *err)
{
    pm_sys_table *st = pm_calloc(1, sizeof(*st));
    int rc;

    *out = NULL;
    if (st == NULL)
        return pm_nomem(err);
    st->kind = kind;
    st->snapshot_id = -1;
    switch (kind) {
    case PM_SYS_SNAPSHOTS: rc = pm_sys_open_snapshots(st, t, err); break;
    case PM_SYS_SCHEMAS: rc = pm_sys_open_schemas(st, t, err); break;
    case PM_SYS_OPTIONS: rc = pm_sys_open_options(st, t, err); break;
    case PM_SYS_FILES: rc = pm_sys_open_files(st, t, sel, err); break;
    case PM_SYS_MANIFESTS: rc = pm_sys_open_manifests(st, t, sel, err); break;
    case PM_SYS_PARTITIONS: rc = pm_sys_open_partitions(st, t, sel, err); break;
    case PM_SYS_BUCKETS: rc = pm_sys_open_buckets(st, t, err); break;
    case PM_SYS_TAGS: rc = pm_sys_open_tags(st, t, err); break;
    case PM_SYS_CONSUMERS: rc = pm_sys_open_consumers(st, t, err); break;
    default: rc = pm_err_set(err, PAIMON_EINVALID, "%s$ro is a scan of the table", t->path);
    }
    if (rc != 0) {
        pm_sys_table_free(st);
        return rc;
    }
    *out = st;
    return 0;
}

void pm_sys_table_free(pm_sys_table *st)
{
    if (st == NULL)
        return;
    if (st->ops != NULL && st->ops->free != NULL)
        st->ops->free(st->state);
    pm_type_free(st->row);
    pm_free(st);
}

const pm_type *pm_sys_table_type(const pm_sys_table *st)
{
    return st->row;
}

size_t pm_sys_table_row_count(const pm_sys_table *st)
{
    return st->row_count;
}

int64_t pm_sys_table_snapshot_id(const pm_sys_table *st)
{
    return st->snapshot_id;
}

/* ---- reading ------------------------------------------------------------------------------- */

struct pm_sys_reader {
    const pm_sys_table *st;
    pm_type *out_type;
    int *columns; /* into st->row, column_count of them */
    size_t column_count;
    bool all_columns; /* columns is the identity */
    const pm_predicate *filter;
    int64_t batch_rows;
    size_t next_row;
    pm_buf scratch;
    uint8_t *select; /* per row of a batch */
};

int pm_sys_reader_open(pm_sys_reader **out, const pm_sys_table *st, const int *columns,
                       size_t column_count, const pm_predicate *filter, int64_t batch_rows,
                       paimon_error *err)
{
    pm_sys_reader *r = pm_calloc(1, sizeof(*r));
    size_t nf = st->row->field_count;
    int rc = 0;

    *out = NULL;
    if (r == NULL)
        return pm_nomem(err);
    r->st = st;
    r->filter = filter;
    r->batch_rows = batch_rows > 0 ? batch_rows : 4096;
    pm_buf_init(&r->scratch, 0);
    r->column_count = columns != NULL ? column_count : nf;
    r->columns = pm_calloc(r->column_count + 1, sizeof(int));
    r->select = pm_malloc((size_t)r->batch_rows);
    r->out_type = pm_type_new(PM_TYPE_ROW);
    if (r->columns == NULL || r->select == NULL || r->out_type == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    r->out_type->nullable = false;
    r->all_columns = r->column_count == nf;
    for (size_t i = 0; i < r->column_count; i++) {
        int col = columns != NULL ? columns[i] : (int)i;
        const pm_field *f;
        if (col < 0 || (size_t)col >= nf) {
            rc = pm_err_set(err, PAIMON_EINVALID, "column %d out of range", col);
            goto done;
        }
        f = &st->row->fields[col];
        r->columns[i] = col;
        r->all_columns = r->all_columns && col == (int)i;
        if (pm_type_row_add(r->out_type, f->id, f->name, pm_type_clone(f->type)) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
done:
    if (rc != 0) {
        pm_sys_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const pm_type *pm_sys_reader_type(const pm_sys_reader *r)
{
    return r->out_type;
}

void pm_sys_reader_free(pm_sys_reader *r)
{
    if (r == NULL)
        return;
    pm_type_free(r->out_type);
    pm_free(r->columns);
    pm_free(r->select);
    pm_buf_free(&r->scratch);
    pm_free(r);
}

/* The next rows of the table as a batch of every column. */
PM_MUST_CHECK static int fill(pm_sys_reader *r, pm_batch **out, paimon_error *err)
{
    const pm_sys_table *st = r->st;
    pm_batch *b = NULL;
    size_t end = r->next_row + (size_t)r->batch_rows;
    int rc;

    if (end > st->row_count)
        end = st->row_count;
    if ((rc = pm_batch_new(&b, st->row, err)) != 0)
        return rc;
    for (; r->next_row < end; r->next_row++) {
        if ((rc = st->ops->append(st, r->next_row, b->columns, &r->scratch, err)) != 0) {
            pm_batch_free(b);
            return rc;
        }
    }
    if ((rc = pm_batch_set_rows(b, (int64_t)b->columns[0]->length, err)) != 0) {
        pm_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int pm_sys_reader_next(pm_sys_reader *r, pm_batch **out, paimon_error *err)
{
    *out = NULL;
    while (r->next_row < r->st->row_count) {
        pm_batch *full = NULL, *b = NULL;
        int64_t kept = 0;
        int rc;
        if ((rc = fill(r, &full, err)) != 0)
            return rc;
        memset(r->select, 1, (size_t)full->row_count);
        if (r->filter != NULL) {
            rc = pm_predicate_eval_batch(r->filter, full, r->select, err);
            for (int64_t i = 0; rc == 0 && i < full->row_count; i++)
                r->select[i] = r->select[i] == 1;
        }
        for (int64_t i = 0; i < full->row_count; i++)
            kept += r->select[i];
        if (rc == 0 && kept == full->row_count && r->all_columns) {
            *out = full; /* the common case: nothing to drop, nothing to move */
            return 0;
        }
        if (rc == 0)
            rc = pm_batch_new(&b, r->out_type, err);
        for (size_t k = 0; rc == 0 && k < r->column_count; k++) {
            const pm_column *src = full->columns[r->columns[k]];
            for (int64_t i = 0; rc == 0 && i < full->row_count; i++)
                if (r->select[i] && (rc = pm_column_append_from(b->columns[k], src, i)) != 0)
                    rc = pm_buf_error(err, rc);
        }
        if (rc == 0)
            rc = pm_batch_set_rows(b, kept, err);
        pm_batch_free(full);
        if (rc != 0) {
            pm_batch_free(b);
            return rc;
        }
        if (kept > 0) {
            *out = b;
            return 0;
        }
        pm_batch_free(b);
    }
    return PAIMON_ITEROVER;
}
