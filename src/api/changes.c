/*
 * Public change-read functions (include/paimon/changes.h): argument checks and translation
 * over table/changes.h and the split reader's change mode.  The changes of a snapshot are a
 * batch source (its splits read one after another) read through the one cursor
 * (api/cursor.c); the source owns the snapshot's plan, so the read may move on to the next
 * snapshot while a cursor or stream of this one is still being read.
 */
#include <stdint.h>
#include <string.h>

#include "api/api.h"
#include "api/columns.h"
#include "data/parallel_source.h"
#include "paimon/changes.h"
#include "table/changes.h"
#include "table/file_reader.h"
#include "table/split_read.h"
#include "util/alloc.h"
#include "util/error.h"

/* The batches of one snapshot's changes: its splits read one after another. */
typedef struct snapshot_source {
    paimon_table *table;
    pm_scan_plan *plan; /* the snapshot's (owned) */
    int *columns;       /* data columns (indexes into the plan's schema row; owned) */
    size_t column_count;
    int64_t batch_rows;
    pm_type *type; /* _ROW_KIND, then the data columns (owned) */
    size_t next_split;
    pm_split_reader *reader; /* of the current split, or NULL */
    pm_batch_source ahead;   /* the splits read on the thread pool (ctx NULL: one thread) */
} snapshot_source;

struct paimon_changes {
    paimon_table *table;
    pm_schema *schema; /* the read's schema: the table's latest when opened */
    int64_t first, last, next_id;
    int *columns; /* data columns (indexes into schema->row) */
    size_t column_count;
    pm_api_columns cols; /* the output: _ROW_KIND, then the data columns */
    int64_t batch_rows;
    unsigned int threads; /* paimon_changes_options.threads */
    pm_scan_plan *plan;   /* of the current snapshot until a cursor takes it, or NULL */
    int64_t current;      /* the current snapshot's id, 0 before the first */
    char *commit_kind;    /* the current snapshot's, as written (its plan may go to a cursor) */
};

/* Opens split `split` of the snapshot (data/parallel_source.h calls it on pool threads). */
PM_MUST_CHECK static int open_split(void *ctx, size_t split, pm_batch_source *out,
                                    paimon_error *err)
{
    snapshot_source *s = ctx;
    pm_split_reader *r = NULL;
    int rc = pm_split_reader_open_changes(&r, s->table, s->plan, &s->plan->splits[split],
                                          s->columns, s->column_count, s->batch_rows, err);
    if (rc == 0)
        pm_split_reader_source(r, out);
    return rc;
}

PM_MUST_CHECK static int source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    snapshot_source *s = ctx;
    if (s->ahead.ctx != NULL)
        return s->ahead.next(s->ahead.ctx, out, err);
    for (;;) {
        int rc;
        if (s->reader == NULL) {
            if (s->next_split >= s->plan->split_count)
                return PAIMON_ITEROVER;
            rc = pm_split_reader_open_changes(&s->reader, s->table, s->plan,
                                              &s->plan->splits[s->next_split++], s->columns,
                                              s->column_count, s->batch_rows, err);
            if (rc != 0)
                return rc;
        }
        rc = pm_split_reader_next(s->reader, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        pm_split_reader_free(s->reader);
        s->reader = NULL;
    }
}

static void source_release(void *ctx)
{
    snapshot_source *s = ctx;
    if (s->ahead.ctx != NULL)
        s->ahead.release(s->ahead.ctx); /* before the plan it reads */
    pm_split_reader_free(s->reader);
    pm_scan_plan_free(s->plan);
    pm_type_free(s->type);
    pm_free(s->columns);
    pm_free(s);
}

PAIMON_API void paimon_changes_free(paimon_changes *c)
{
    if (c == NULL)
        return;
    pm_scan_plan_free(c->plan);
    pm_free(c->commit_kind);
    pm_free(c->columns);
    pm_api_columns_release(&c->cols);
    pm_schema_free(c->schema);
    pm_free(c);
}

PAIMON_API int paimon_table_changes(paimon_changes **out, paimon_table *table,
                                    const paimon_changes_options *options, paimon_error *err)
{
    paimon_changes_options given;
    const paimon_changes_options *o = &given;
    paimon_changes *c = NULL;
    pm_changes_range range;
    int rc = 0;

    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_changes: table and out are required");
    *out = NULL;
    if ((rc = pm_api_options_get(&pm_api_changes_options, "paimon_table_changes", options, &given,
                                 err)) != 0)
        return rc;
    if (o->from < PAIMON_CHANGES_FROM_EARLIEST || o->from > PAIMON_CHANGES_FROM_TIMESTAMP)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_changes: unknown start %d", o->from);
    if (o->to_snapshot < 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_changes: the last snapshot must be positive");
    c = pm_calloc(1, sizeof(*c));
    if (c == NULL)
        return pm_nomem(err);
    c->table = table;
    c->batch_rows = o->batch_rows > 0 ? o->batch_rows : 4096;
    c->threads = o->threads;
    PM_TRY(pm_schema_read_latest(table->fs, table->path, &c->schema, err));
    PM_TRY(pm_api_change_columns(c->schema->row, NULL, o->columns, o->column_count, &c->columns,
                                 &c->column_count, &c->cols, err));
    memset(&range, 0, sizeof(range));
    range.from = (pm_changes_from)o->from;
    range.from_value = o->from_value;
    range.to = o->to_snapshot;
    PM_TRY(pm_changes_resolve(table, &range, &c->first, &c->last, err));
    PM_TRY(pm_changes_check_range(table, c->schema, c->first, c->last, err));
    c->next_id = c->first;
    *out = c;
    c = NULL;
done:
    paimon_changes_free(c);
    return rc;
}

PAIMON_API void paimon_changes_range(const paimon_changes *c, int64_t *first, int64_t *last)
{
    if (first != NULL)
        *first = c != NULL ? c->first : 1;
    if (last != NULL)
        *last = c != NULL ? c->last : 0;
}

PAIMON_API size_t paimon_changes_column_count(const paimon_changes *c)
{
    return c != NULL ? pm_api_columns_count(&c->cols) : 0;
}

PAIMON_API const char *paimon_changes_column_name(const paimon_changes *c, size_t column)
{
    return c != NULL ? pm_api_columns_name(&c->cols, column) : NULL;
}

PAIMON_API const char *paimon_changes_column_type(const paimon_changes *c, size_t column)
{
    return c != NULL ? pm_api_columns_type(&c->cols, column) : NULL;
}

PAIMON_API int paimon_changes_next_snapshot(paimon_changes *c, paimon_changes_snapshot *info,
                                            paimon_error *err)
{
    bool read = false;
    int rc;
    paimon_error_clear(err);
    if (c == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_next_snapshot: no read");
    pm_scan_plan_free(c->plan);
    c->plan = NULL;
    c->current = 0;
    pm_free(c->commit_kind);
    c->commit_kind = NULL;
    if (c->next_id > c->last)
        return PAIMON_ITEROVER;
    if ((rc = pm_changes_plan(c->table, c->schema, c->next_id, &c->plan, &read, err)) != 0)
        return rc;
    c->current = c->next_id++;
    {
        const pm_snapshot *s = c->plan->snapshot;
        const char *kind =
            s->commit_kind_name != NULL ? s->commit_kind_name : pm_commit_kind_name(s->commit_kind);
        if ((c->commit_kind = pm_strdup(kind)) == NULL)
            return pm_nomem(err);
    }
    if (info != NULL) {
        const pm_snapshot *s = c->plan->snapshot;
        memset(info, 0, sizeof(*info));
        info->id = s->id;
        info->commit_kind = c->commit_kind;
        info->time_millis = s->time_millis;
        info->read = read;
        for (size_t i = 0; i < c->plan->split_count; i++)
            info->file_count += c->plan->splits[i].file_count;
    }
    return 0;
}

PAIMON_API int paimon_changes_cursor(paimon_cursor **out, paimon_changes *c, paimon_error *err)
{
    snapshot_source *s;
    pm_batch_source src;
    int rc;
    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || c == NULL || c->current == 0)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_cursor: no current snapshot");
    if (c->plan == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_changes_cursor: snapshot %lld is already being read",
                          (long long)c->current);
    if ((s = pm_calloc(1, sizeof(*s))) == NULL)
        return pm_nomem(err);
    s->table = c->table;
    s->column_count = c->column_count;
    s->batch_rows = c->batch_rows;
    s->columns = pm_calloc(c->column_count + 1, sizeof(int));
    s->type = pm_type_clone(c->cols.type);
    if (s->columns == NULL || s->type == NULL) {
        source_release(s);
        return pm_nomem(err);
    }
    memcpy(s->columns, c->columns, c->column_count * sizeof(int));
    s->plan = c->plan; /* the cursor reads the snapshot on its own from here */
    c->plan = NULL;
    if ((rc = pm_parallel_source_open(&s->ahead, s->type, s->plan->split_count, open_split, s,
                                      c->threads, err)) != 0) {
        source_release(s);
        return rc;
    }
    memset(&src, 0, sizeof(src));
    src.next = source_next;
    src.release = source_release;
    src.ctx = s;
    src.type = s->type;
    return pm_cursor_new(out, &src, 0, err);
}
