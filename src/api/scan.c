/* Public scan functions: argument checks and translation over table/scan and split_read. */
#include <string.h>

#include "data/arrow_stream.h"
#include "data/expr.h"
#include "meta/partition.h"
#include "paimon/scan.h"
#include "table/snapshot_select.h"
#include "table/scan.h"
#include "table/split_read.h"
#include "table/system_table.h"
#include "util/alloc.h"
#include "util/error.h"

struct paimon_scan {
    paimon_table *table;
    pm_scan_plan *plan;   /* the table's rows and `ro`; NULL for the other system tables */
    pm_sys_table *sys;    /* a system table read from metadata (one split), or NULL */
    pm_predicate *filter; /* over the row type (scan_row()), or NULL */
    int *columns;         /* output columns (indexes into the schema row) */
    size_t column_count;
    char **type_names;       /* per output column */
    char **split_partitions; /* canonical JSON per split, made on demand */
    int64_t batch_rows;
};

struct paimon_rows {
    paimon_scan *scan;
    size_t next_split;
    pm_batch_source reader; /* of the current split; ctx NULL when none is open */
    pm_batch *batch;
    int64_t row;
    pm_buf text;
};

/* The row type columns and filters refer to. */
static const pm_type *scan_row(const paimon_scan *s)
{
    return s->sys != NULL ? pm_sys_table_type(s->sys) : s->plan->schema->row;
}

static size_t split_count(const paimon_scan *s)
{
    return s->sys != NULL ? 1 : s->plan->split_count;
}

static void scan_release(paimon_scan *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; s->type_names != NULL && i < s->column_count; i++)
        pm_free(s->type_names[i]);
    pm_free(s->type_names);
    for (size_t i = 0; s->split_partitions != NULL && i < split_count(s); i++)
        pm_free(s->split_partitions[i]);
    pm_free(s->split_partitions);
    pm_free(s->columns);
    pm_predicate_free(s->filter);
    pm_scan_plan_free(s->plan);
    pm_sys_table_free(s->sys);
    pm_free(s);
}

PAIMON_API void paimon_scan_free(paimon_scan *scan)
{
    scan_release(scan);
}

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

/* Plans the table's own rows (and `ro`): the filter is over the snapshot's schema, so the
 * snapshot is pinned and its schema read first; planning then uses the filter to prune. */
static int plan_table(paimon_scan *s, paimon_table *table, pm_scan_options *so, const char *filter,
                      paimon_error *err)
{
    pm_predicate *pred = NULL;
    int rc;
    if (filter != NULL) {
        pm_snapshot *snap = NULL;
        pm_schema *schema = NULL;
        if ((rc = pm_table_select_snapshot(table, &so->snapshot, &snap, err)) != 0)
            return rc;
        rc = pm_schema_read(table->fs, table->path, snap->schema_id, &schema, err);
        so->snapshot.by = PM_SNAPSHOT_ID;
        so->snapshot.id = snap->id;
        pm_snapshot_free(snap);
        if (rc == 0)
            rc = pm_expr_parse(filter, schema->row, &pred, err);
        pm_schema_free(schema);
        if (rc != 0)
            return rc;
        so->filter = pred;
    }
    rc = pm_scan_plan_build(table, so, &s->plan, err);
    s->filter = pred;
    return rc;
}

PAIMON_API int paimon_table_scan(paimon_scan **out, paimon_table *table,
                                 const paimon_scan_options *o, paimon_error *err)
{
    paimon_scan *s = NULL;
    pm_scan_options so;
    const pm_type *row;
    const char *system_table = NULL;
    pm_sys_kind kind = PM_SYS_RO;
    bool selected = false;
    int rc;

    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_scan: table and out are required");
    *out = NULL;
    if (o != NULL && (o->version < 1 || o->version > PAIMON_SCAN_OPTIONS_VERSION))
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_scan: options version %u, this "
                          "library knows 1 to %d",
                          o->version, PAIMON_SCAN_OPTIONS_VERSION);
    /* Version 1 callers' structs end before system_table. */
    if (o != NULL && o->version >= 2)
        system_table = o->system_table;
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    if (o != NULL && o->snapshot_id > 0) {
        so.snapshot.by = PM_SNAPSHOT_ID;
        so.snapshot.id = o->snapshot_id;
    } else if (o != NULL && o->tag != NULL) {
        so.snapshot.by = PM_SNAPSHOT_TAG;
        so.snapshot.tag = o->tag;
    } else if (o != NULL && o->use_timestamp) {
        so.snapshot.by = PM_SNAPSHOT_TIMESTAMP;
        so.snapshot.timestamp = o->timestamp_millis;
    }
    selected = so.snapshot.by != PM_SNAPSHOT_LATEST;
    if (system_table != NULL &&
        (rc = pm_sys_kind_parse(table->path, system_table, &kind, err)) != 0)
        return rc;
    s = pm_calloc(1, sizeof(*s));
    if (s == NULL)
        return pm_nomem(err);
    s->table = table;
    s->batch_rows = o != NULL && o->batch_rows > 0 ? o->batch_rows : 4096;
    if (system_table != NULL && kind != PM_SYS_RO) {
        /* Read from metadata now: the rows are formatted from it as splits are read. */
        if ((rc = pm_sys_table_open(&s->sys, table, kind, selected ? &so.snapshot : NULL, err)))
            goto fail;
        if (o->filter != NULL &&
            (rc = pm_expr_parse(o->filter, pm_sys_table_type(s->sys), &s->filter, err)) != 0)
            goto fail;
    } else {
        so.read_optimized = system_table != NULL;
        if ((rc = plan_table(s, table, &so, o != NULL ? o->filter : NULL, err)) != 0)
            goto fail;
    }
    row = scan_row(s);
    s->column_count = o != NULL && o->columns != NULL ? o->column_count : row->field_count;
    s->columns = pm_calloc(s->column_count + 1, sizeof(int));
    s->type_names = pm_calloc(s->column_count + 1, sizeof(char *));
    if (s->columns == NULL || s->type_names == NULL) {
        rc = pm_nomem(err);
        goto fail;
    }
    for (size_t i = 0; i < s->column_count; i++) {
        size_t idx = i;
        pm_buf b;
        if (o != NULL && o->columns != NULL &&
            (rc = find_column(row, o->columns[i], &idx, err)) != 0)
            goto fail;
        for (size_t k = 0; k < i; k++)
            if (s->columns[k] == (int)idx) {
                rc = pm_err_set(err, PAIMON_EINVALID, "%s: column selected twice",
                                row->fields[idx].name);
                goto fail;
            }
        s->columns[i] = (int)idx;
        pm_buf_init(&b, 0);
        if (pm_type_format(row->fields[idx].type, &b) != 0) {
            pm_buf_free(&b);
            rc = pm_nomem(err);
            goto fail;
        }
        s->type_names[i] = (char *)pm_buf_detach(&b, NULL);
    }
    s->split_partitions = pm_calloc(split_count(s) + 1, sizeof(char *));
    if (s->split_partitions == NULL) {
        rc = pm_nomem(err);
        goto fail;
    }
    *out = s;
    return 0;
fail:
    scan_release(s);
    return rc;
}

static int64_t snapshot_id(const paimon_scan *s)
{
    return s->sys != NULL ? pm_sys_table_snapshot_id(s->sys) : s->plan->snapshot->id;
}

PAIMON_API int64_t paimon_scan_snapshot_id(const paimon_scan *scan)
{
    return scan != NULL ? snapshot_id(scan) : -1;
}

PAIMON_API size_t paimon_scan_column_count(const paimon_scan *scan)
{
    return scan != NULL ? scan->column_count : 0;
}

PAIMON_API const char *paimon_scan_column_name(const paimon_scan *scan, size_t column)
{
    if (scan == NULL || column >= scan->column_count)
        return NULL;
    return scan_row(scan)->fields[scan->columns[column]].name;
}

PAIMON_API const char *paimon_scan_column_type(const paimon_scan *scan, size_t column)
{
    if (scan == NULL || column >= scan->column_count)
        return NULL;
    return scan->type_names[column];
}

PAIMON_API size_t paimon_scan_split_count(const paimon_scan *scan)
{
    return scan != NULL ? split_count(scan) : 0;
}

PAIMON_API int paimon_scan_split(paimon_scan *scan, size_t split, paimon_split_info *out,
                                 paimon_error *err)
{
    const pm_split *sp;
    if (scan == NULL || out == NULL || split >= split_count(scan))
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_split: no split %zu", split);
    if (scan->sys != NULL) {
        /* Java's SingletonSplit: no partition, bucket or files. */
        out->partition = "{}";
        out->bucket = 0;
        out->file_count = 0;
        out->needs_merge = 0;
        return 0;
    }
    sp = &scan->plan->splits[split];
    if (scan->split_partitions[split] == NULL) {
        const pm_field *parts[64];
        size_t np = 0;
        pm_binrow row;
        pm_buf b;
        int rc;
        pm_buf_init(&b, 0);
        if ((rc = pm_schema_partition_fields(scan->plan->schema, parts, 64, &np, err)) != 0 ||
            (rc = pm_binrow_deserialize(&row, sp->partition.ptr, sp->partition.len, err)) != 0 ||
            (rc = pm_partition_json(&b, parts, np, &row, err)) != 0) {
            pm_buf_free(&b);
            return rc;
        }
        pm_buf_cstr(&b);
        scan->split_partitions[split] = (char *)pm_buf_detach(&b, NULL);
    }
    out->partition = scan->split_partitions[split];
    out->bucket = sp->bucket;
    out->file_count = sp->file_count;
    out->needs_merge = !sp->raw;
    return 0;
}

PAIMON_API int paimon_scan_split_file(const paimon_scan *scan, size_t split, size_t file,
                                      paimon_split_file *out, paimon_error *err)
{
    const pm_split *sp;
    const pm_manifest_entry *e;
    if (scan == NULL || out == NULL || scan->sys != NULL || split >= scan->plan->split_count ||
        file >= scan->plan->splits[split].file_count)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_split_file: no such file");
    sp = &scan->plan->splits[split];
    e = sp->files[file];
    memset(out, 0, sizeof(*out));
    out->path = sp->paths[file];
    out->level = e->file.level;
    out->row_count = e->file.row_count;
    out->file_size = e->file.file_size;
    out->min_sequence_number = e->file.min_sequence_number;
    out->max_sequence_number = e->file.max_sequence_number;
    if (sp->dvs[file] != NULL) {
        out->deletion_vector_file = sp->dvs[file]->index_path;
        out->deletion_vector_offset = sp->dvs[file]->offset;
        out->deletion_vector_length = sp->dvs[file]->length;
    }
    return 0;
}

/* ---- reading ----------------------------------------------------------------------------- */

static int split_stream_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_split_reader_next((pm_split_reader *)ctx, out, err);
}

static void split_stream_release(void *ctx)
{
    pm_split_reader_free((pm_split_reader *)ctx);
}

static int sys_stream_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_sys_reader_next((pm_sys_reader *)ctx, out, err);
}

static void sys_stream_release(void *ctx)
{
    pm_sys_reader_free((pm_sys_reader *)ctx);
}

/* A source of the batches of split `split`; the caller releases it with src->release. */
static int open_split(paimon_scan *s, size_t split, pm_batch_source *src, paimon_error *err)
{
    int rc;
    memset(src, 0, sizeof(*src));
    if (s->sys != NULL) {
        pm_sys_reader *r = NULL;
        if ((rc = pm_sys_reader_open(&r, s->sys, s->columns, s->column_count, s->filter,
                                     s->batch_rows, err)) != 0)
            return rc;
        src->next = sys_stream_next;
        src->release = sys_stream_release;
        src->ctx = r;
        src->type = pm_sys_reader_type(r);
    } else {
        pm_split_reader *r = NULL;
        if ((rc = pm_split_reader_open(&r, s->table, s->plan, &s->plan->splits[split], s->columns,
                                       s->column_count, s->filter, s->batch_rows, err)) != 0)
            return rc;
        src->next = split_stream_next;
        src->release = split_stream_release;
        src->ctx = r;
        src->type = pm_split_reader_type(r);
    }
    return 0;
}

PAIMON_API int paimon_scan_read_split(paimon_scan *scan, size_t split, struct ArrowArrayStream *out,
                                      paimon_error *err)
{
    pm_batch_source src;
    int rc;
    paimon_error_clear(err);
    if (scan == NULL || out == NULL || split >= split_count(scan))
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_read_split: no split %zu", split);
    if ((rc = open_split(scan, split, &src, err)) != 0)
        return rc;
    return pm_arrow_stream_new(&src, out, err);
}

PAIMON_API int paimon_scan_rows(paimon_rows **out, paimon_scan *scan, paimon_error *err)
{
    paimon_rows *r;
    paimon_error_clear(err);
    if (scan == NULL || out == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_rows: scan and out are required");
    r = pm_calloc(1, sizeof(*r));
    if (r == NULL)
        return pm_nomem(err);
    r->scan = scan;
    pm_buf_init(&r->text, 0);
    *out = r;
    return 0;
}

PAIMON_API void paimon_rows_free(paimon_rows *rows)
{
    if (rows == NULL)
        return;
    pm_batch_free(rows->batch);
    if (rows->reader.ctx != NULL)
        rows->reader.release(rows->reader.ctx);
    pm_buf_free(&rows->text);
    pm_free(rows);
}

PAIMON_API int paimon_rows_next(paimon_rows *r, paimon_error *err)
{
    int rc;
    if (r == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_rows_next: no rows");
    if (r->batch != NULL && ++r->row < r->batch->row_count)
        return 0;
    pm_batch_free(r->batch);
    r->batch = NULL;
    for (;;) {
        if (r->reader.ctx == NULL) {
            if (r->next_split >= split_count(r->scan))
                return PAIMON_ITEROVER;
            if ((rc = open_split(r->scan, r->next_split++, &r->reader, err)) != 0)
                return rc;
        }
        rc = r->reader.next(r->reader.ctx, &r->batch, err);
        if (rc == 0) {
            r->row = 0;
            return 0;
        }
        if (rc != PAIMON_ITEROVER)
            return rc;
        r->reader.release(r->reader.ctx);
        r->reader.ctx = NULL;
    }
}

PAIMON_API int paimon_rows_json(paimon_rows *r, const char **json, size_t *len, paimon_error *err)
{
    int rc;
    if (r == NULL || r->batch == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_rows_json: no current row");
    pm_buf_reset(&r->text);
    if ((rc = pm_batch_row_json(&r->text, r->batch, r->row, err)) != 0)
        return rc;
    *json = pm_buf_cstr(&r->text);
    if (len != NULL)
        *len = r->text.len;
    return 0;
}

PAIMON_API int paimon_rows_value_text(paimon_rows *r, size_t column, const char **text, size_t *len,
                                      paimon_error *err)
{
    bool is_null;
    int rc;
    if (r == NULL || r->batch == NULL || column >= r->batch->column_count)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_rows_value_text: no such value");
    pm_buf_reset(&r->text);
    if ((rc = pm_column_text(&r->text, r->batch->columns[column], r->row, &is_null, err)) != 0)
        return rc;
    *text = is_null ? NULL : pm_buf_cstr(&r->text);
    if (len != NULL)
        *len = r->text.len;
    return 0;
}
