/* Public change-read functions: argument checks and translation over table/changes and the
 * split reader's change mode. */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "data/arrow_stream.h"
#include "paimon/changes.h"
#include "table/changes.h"
#include "table/file_reader.h"
#include "table/split_read.h"
#include "util/alloc.h"
#include "util/error.h"

/* The batches of the current snapshot: its splits read one after another. */
typedef struct snapshot_source {
    paimon_changes *changes;
    size_t next_split;
    pm_split_reader *reader; /* of the current split, or NULL */
} snapshot_source;

struct paimon_changes {
    paimon_table *table;
    pm_schema *schema; /* the read's schema: the table's latest when opened */
    int64_t first, last, next_id;
    int *columns; /* data columns (indexes into schema->row) */
    size_t column_count;
    pm_type *out_type; /* _ROW_KIND, then the data columns */
    char **type_names; /* per output column */
    int64_t batch_rows;
    pm_scan_plan *plan; /* of the current snapshot, or NULL */
    bool source_taken;  /* an Arrow stream owns the current snapshot's source */
    snapshot_source rows_source;
    pm_batch *batch; /* current batch of the row reader */
    int64_t row;
    pm_buf text;
};

static int find_column(const pm_type *row, const char *name, size_t *idx, paimon_error *err)
{
    if (pm_type_field_by_name(row, name, idx) != NULL)
        return 0;
    for (size_t i = 0; i < row->field_count; i++) {
        if (strcasecmp(row->fields[i].name, name) == 0) {
            *idx = i;
            return 0;
        }
    }
    return pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such column", name);
}

static void source_close(snapshot_source *s)
{
    pm_split_reader_free(s->reader);
    s->reader = NULL;
}

static int source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    snapshot_source *s = ctx;
    paimon_changes *c = s->changes;
    for (;;) {
        int rc;
        if (s->reader == NULL) {
            if (c->plan == NULL || s->next_split >= c->plan->split_count)
                return PAIMON_ITEROVER;
            rc = pm_split_reader_open_changes(&s->reader, c->table, c->plan,
                                              &c->plan->splits[s->next_split++], c->columns,
                                              c->column_count, c->batch_rows, err);
            if (rc != 0)
                return rc;
        }
        rc = pm_split_reader_next(s->reader, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        source_close(s);
    }
}

static void source_release(void *ctx)
{
    snapshot_source *s = ctx;
    source_close(s);
    pm_free(s);
}

/* Drops the current snapshot's plan and row state. */
static void end_snapshot(paimon_changes *c)
{
    pm_batch_free(c->batch);
    c->batch = NULL;
    source_close(&c->rows_source);
    c->rows_source.next_split = 0;
    pm_scan_plan_free(c->plan);
    c->plan = NULL;
    c->source_taken = false;
}

PAIMON_API void paimon_changes_free(paimon_changes *c)
{
    if (c == NULL)
        return;
    end_snapshot(c);
    for (size_t i = 0; c->type_names != NULL && i <= c->column_count; i++)
        pm_free(c->type_names[i]);
    pm_free(c->type_names);
    pm_free(c->columns);
    pm_type_free(c->out_type);
    pm_schema_free(c->schema);
    pm_buf_free(&c->text);
    pm_free(c);
}

/* The output type and its type strings: _ROW_KIND STRING NOT NULL, then the columns. */
static int build_columns(paimon_changes *c, const paimon_changes_options *o, paimon_error *err)
{
    const pm_type *row = c->schema->row;
    pm_type *kind = pm_type_new(PM_TYPE_VARCHAR);
    c->column_count = o->columns != NULL ? o->column_count : row->field_count;
    c->columns = pm_calloc(c->column_count + 1, sizeof(int));
    c->type_names = pm_calloc(c->column_count + 2, sizeof(char *));
    c->out_type = pm_type_new(PM_TYPE_ROW);
    if (kind == NULL || c->columns == NULL || c->type_names == NULL || c->out_type == NULL) {
        pm_type_free(kind);
        return pm_nomem(err);
    }
    kind->length = INT32_MAX;
    kind->nullable = false;
    c->out_type->nullable = false;
    if (pm_type_row_add(c->out_type, PM_ROW_KIND_ID, PM_ROW_KIND_NAME, kind) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < c->column_count; i++) {
        size_t idx = i;
        int rc;
        if (o->columns != NULL && (rc = find_column(row, o->columns[i], &idx, err)) != 0)
            return rc;
        for (size_t k = 0; k < i; k++)
            if (c->columns[k] == (int)idx)
                return pm_err_set(err, PAIMON_EINVALID, "%s: column selected twice",
                                  row->fields[idx].name);
        c->columns[i] = (int)idx;
        if (pm_type_row_add(c->out_type, row->fields[idx].id, row->fields[idx].name,
                            pm_type_clone(row->fields[idx].type)) != 0)
            return pm_nomem(err);
    }
    for (size_t i = 0; i < c->out_type->field_count; i++) {
        pm_buf b;
        pm_buf_init(&b, 0);
        if (pm_type_format(c->out_type->fields[i].type, &b) != 0 ||
            (c->type_names[i] = pm_strdup(pm_buf_cstr(&b))) == NULL) {
            pm_buf_free(&b);
            return pm_nomem(err);
        }
        pm_buf_free(&b);
    }
    return 0;
}

PAIMON_API int paimon_table_changes(paimon_changes **out, paimon_table *table,
                                    const paimon_changes_options *o, paimon_error *err)
{
    paimon_changes_options dflt = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_changes *c = NULL;
    pm_changes_range range;
    int rc = 0;

    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_changes: table and out are required");
    *out = NULL;
    if (o == NULL)
        o = &dflt;
    if (o->version != PAIMON_CHANGES_OPTIONS_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_changes: options version %u, this library knows %d",
                          o->version, PAIMON_CHANGES_OPTIONS_VERSION);
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
    c->rows_source.changes = c;
    pm_buf_init(&c->text, 0);
    PM_TRY(pm_schema_read_latest(table->fs, table->path, &c->schema, err));
    PM_TRY(build_columns(c, o, err));
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
    return c != NULL ? c->out_type->field_count : 0;
}

PAIMON_API const char *paimon_changes_column_name(const paimon_changes *c, size_t column)
{
    return c != NULL && column < c->out_type->field_count ? c->out_type->fields[column].name : NULL;
}

PAIMON_API const char *paimon_changes_column_type(const paimon_changes *c, size_t column)
{
    return c != NULL && column < c->out_type->field_count ? c->type_names[column] : NULL;
}

PAIMON_API int paimon_changes_next_snapshot(paimon_changes *c, paimon_changes_snapshot *info,
                                            paimon_error *err)
{
    bool read = false;
    int rc;
    paimon_error_clear(err);
    if (c == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_next_snapshot: no read");
    end_snapshot(c);
    if (c->next_id > c->last)
        return PAIMON_ITEROVER;
    if ((rc = pm_changes_plan(c->table, c->schema, c->next_id, &c->plan, &read, err)) != 0)
        return rc;
    c->next_id++;
    if (info != NULL) {
        const pm_snapshot *s = c->plan->snapshot;
        memset(info, 0, sizeof(*info));
        info->id = s->id;
        info->commit_kind =
            s->commit_kind_name != NULL ? s->commit_kind_name : pm_commit_kind_name(s->commit_kind);
        info->time_millis = s->time_millis;
        info->read = read;
        for (size_t i = 0; i < c->plan->split_count; i++)
            info->file_count += c->plan->splits[i].file_count;
    }
    return 0;
}

PAIMON_API int paimon_changes_read(paimon_changes *c, struct ArrowArrayStream *out,
                                   paimon_error *err)
{
    snapshot_source *s;
    pm_batch_source src;
    paimon_error_clear(err);
    if (c == NULL || out == NULL || c->plan == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_read: no current snapshot");
    if (c->source_taken || c->batch != NULL || c->rows_source.next_split > 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_changes_read: snapshot %lld is already being read",
                          (long long)c->plan->snapshot->id);
    s = pm_calloc(1, sizeof(*s));
    if (s == NULL)
        return pm_nomem(err);
    s->changes = c;
    memset(&src, 0, sizeof(src));
    src.next = source_next;
    src.release = source_release;
    src.ctx = s;
    src.type = c->out_type;
    c->source_taken = true;
    return pm_arrow_stream_new(&src, out, err);
}

PAIMON_API int paimon_changes_next_row(paimon_changes *c, paimon_error *err)
{
    int rc;
    if (c == NULL || c->plan == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_next_row: no current snapshot");
    if (c->source_taken)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_changes_next_row: snapshot %lld is read as a stream",
                          (long long)c->plan->snapshot->id);
    if (c->batch != NULL && ++c->row < c->batch->row_count)
        return 0;
    pm_batch_free(c->batch);
    c->batch = NULL;
    rc = source_next(&c->rows_source, &c->batch, err);
    if (rc == 0)
        c->row = 0;
    return rc;
}

PAIMON_API int paimon_changes_row_json(paimon_changes *c, const char **json, size_t *len,
                                       paimon_error *err)
{
    int rc;
    if (c == NULL || c->batch == NULL || json == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_row_json: no current row");
    pm_buf_reset(&c->text);
    if ((rc = pm_batch_row_json(&c->text, c->batch, c->row, err)) != 0)
        return rc;
    *json = pm_buf_cstr(&c->text);
    if (len != NULL)
        *len = c->text.len;
    return 0;
}

PAIMON_API int paimon_changes_row_value_text(paimon_changes *c, size_t column, const char **text,
                                             size_t *len, paimon_error *err)
{
    bool is_null;
    int rc;
    if (c == NULL || c->batch == NULL || text == NULL || column >= c->batch->column_count)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_changes_row_value_text: no such value");
    pm_buf_reset(&c->text);
    if ((rc = pm_column_text(&c->text, c->batch->columns[column], c->row, &is_null, err)) != 0)
        return rc;
    *text = is_null ? NULL : pm_buf_cstr(&c->text);
    if (len != NULL)
        *len = c->text.len;
    return 0;
}
