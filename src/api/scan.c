/*
 * Public scan functions (include/paimon/scan.h): argument checks and translation over
 * table/scan_table.c (planning), table/split_read.h and table/system_table.h (reading).
 * Rows come out through the one cursor (api/cursor.c): a scan is a batch source per split,
 * and a source that walks every split in turn.
 */
#include <string.h>

#include "api/api.h"
#include "data/expr.h"
#include "meta/partition.h"
#include "table/scan.h"
#include "table/scan_mode.h"
#include "table/snapshot_select.h"
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
    pm_type *out_type;       /* the output columns as a ROW type */
    char **type_names;       /* per output column */
    char **split_partitions; /* canonical JSON per split, made on demand */
    int64_t batch_rows;
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

PAIMON_API void paimon_scan_free(paimon_scan *s)
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
    pm_type_free(s->out_type);
    pm_predicate_free(s->filter);
    pm_scan_plan_free(s->plan);
    pm_sys_table_free(s->sys);
    pm_free(s);
}

/* The output columns of `o` over the scan's row type. */
PM_MUST_CHECK static int select_columns(paimon_scan *s, const paimon_scan_options *o,
                                        paimon_error *err)
{
    const pm_type *row = scan_row(s);
    int rc;
    s->column_count = o->columns != NULL ? o->column_count : row->field_count;
    s->columns = pm_calloc(s->column_count + 1, sizeof(int));
    s->type_names = pm_calloc(s->column_count + 1, sizeof(char *));
    if (s->columns == NULL || s->type_names == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < s->column_count; i++) {
        size_t idx = i;
        if (o->columns != NULL && (rc = pm_api_find_column(row, o->columns[i], &idx, err)) != 0)
            return rc;
        for (size_t k = 0; k < i; k++)
            if (s->columns[k] == (int)idx)
                return pm_err_set(err, PAIMON_EINVALID, "%s: column selected twice",
                                  row->fields[idx].name);
        s->columns[i] = (int)idx;
        if ((s->type_names[i] = pm_api_type_string(row->fields[idx].type)) == NULL)
            return pm_nomem(err);
    }
    return pm_api_project_type(row, s->columns, s->column_count, &s->out_type, err);
}

/* The table's options with the scan's own on top (Java's table.copy(dynamicOptions)). */
PM_MUST_CHECK static int read_options(paimon_table *table, const paimon_scan_options *o,
                                      pm_options *out, paimon_error *err)
{
    if (pm_options_copy(out, &table->schema->options) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < o->option_count; i++) {
        if (o->option_keys == NULL || o->option_values == NULL || o->option_keys[i] == NULL ||
            o->option_values[i] == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "paimon_table_scan: option %zu has no key or value", i);
        if (pm_options_set(out, o->option_keys[i], o->option_values[i]) != 0)
            return pm_nomem(err);
    }
    return 0;
}

PAIMON_API int paimon_table_scan(paimon_scan **out, paimon_table *table,
                                 const paimon_scan_options *options, paimon_error *err)
{
    paimon_scan_options o;
    paimon_scan *s = NULL;
    pm_scan_options so;
    pm_sys_kind kind = PM_SYS_RO;
    pm_options opts;
    pm_batch_start start;
    bool selected;
    int rc = 0;

    pm_options_init(&opts);
    memset(&start, 0, sizeof(start));

    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_scan: table and out are required");
    *out = NULL;
    if ((rc = pm_api_options_get(&pm_api_scan_options, "paimon_table_scan", options, &o, err)) != 0)
        return rc;
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    if (o.snapshot_id > 0) {
        so.snapshot.by = PM_SNAPSHOT_ID;
        so.snapshot.id = o.snapshot_id;
    } else if (o.tag != NULL) {
        so.snapshot.by = PM_SNAPSHOT_TAG;
        so.snapshot.tag = o.tag;
    } else if (o.use_timestamp) {
        so.snapshot.by = PM_SNAPSHOT_TIMESTAMP;
        so.snapshot.timestamp = o.timestamp_millis;
    }
    selected = so.snapshot.by != PM_SNAPSHOT_LATEST;
    if (o.system_table != NULL &&
        (rc = pm_sys_kind_parse(table->path, o.system_table, &kind, err)) != 0)
        return rc;
    if (!selected) {
        /* scan.mode and its options (table/scan_mode.h), unless the struct chose a snapshot */
        PM_TRY(read_options(table, &o, &opts, err));
        PM_TRY(pm_batch_start_resolve(table, &opts, &start, err));
        if (start.mode == PM_STARTUP_INCREMENTAL) {
            rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: incremental reads are not implemented",
                            table->path);
            goto done;
        }
        so.snapshot = start.snapshot;
        so.has_min_creation = start.has_min_creation;
        so.min_creation_millis = start.min_creation_millis;
        selected = so.snapshot.by != PM_SNAPSHOT_LATEST;
    }
    if ((s = pm_calloc(1, sizeof(*s))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    s->table = table;
    s->batch_rows = o.batch_rows > 0 ? o.batch_rows : 4096;
    if (o.system_table != NULL && kind != PM_SYS_RO) {
        /* Read from metadata now: the rows are formatted from it as splits are read. */
        PM_TRY(pm_sys_table_open(&s->sys, table, kind, selected ? &so.snapshot : NULL, err));
        if (o.filter != NULL)
            PM_TRY(pm_expr_parse(o.filter, pm_sys_table_type(s->sys), &s->filter, err));
    } else {
        so.read_optimized = o.system_table != NULL;
        PM_TRY(pm_scan_plan_table(table, &so, o.filter, &s->plan, &s->filter, err));
    }
    PM_TRY(select_columns(s, &o, err));
    if ((s->split_partitions = pm_calloc(split_count(s) + 1, sizeof(char *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    *out = s;
    s = NULL;
done:
    paimon_scan_free(s);
    pm_batch_start_release(&start);
    pm_options_free(&opts);
    return rc;
}

static int64_t snapshot_id(const paimon_scan *s)
{
    if (s->sys != NULL)
        return pm_sys_table_snapshot_id(s->sys);
    return s->plan->snapshot != NULL ? s->plan->snapshot->id : -1;
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

PM_MUST_CHECK static int split_source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_split_reader_next((pm_split_reader *)ctx, out, err);
}

static void split_source_release(void *ctx)
{
    pm_split_reader_free((pm_split_reader *)ctx);
}

PM_MUST_CHECK static int sys_source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_sys_reader_next((pm_sys_reader *)ctx, out, err);
}

static void sys_source_release(void *ctx)
{
    pm_sys_reader_free((pm_sys_reader *)ctx);
}

/* A source of the batches of split `split`; the caller releases it with src->release. */
PM_MUST_CHECK static int open_split(paimon_scan *s, size_t split, pm_batch_source *src,
                                    paimon_error *err)
{
    int rc;
    memset(src, 0, sizeof(*src));
    if (s->sys != NULL) {
        pm_sys_reader *r = NULL;
        if ((rc = pm_sys_reader_open(&r, s->sys, s->columns, s->column_count, s->filter,
                                     s->batch_rows, err)) != 0)
            return rc;
        src->next = sys_source_next;
        src->release = sys_source_release;
        src->ctx = r;
        src->type = pm_sys_reader_type(r);
    } else {
        pm_split_reader *r = NULL;
        if ((rc = pm_split_reader_open(&r, s->table, s->plan, &s->plan->splits[split], s->columns,
                                       s->column_count, s->filter, s->batch_rows, err)) != 0)
            return rc;
        src->next = split_source_next;
        src->release = split_source_release;
        src->ctx = r;
        src->type = pm_split_reader_type(r);
    }
    return 0;
}

/* Every split in turn: the source of paimon_scan_cursor(). */
typedef struct splits_source {
    paimon_scan *scan;
    size_t next_split;
    pm_batch_source split; /* of the current split; ctx NULL when none is open */
} splits_source;

PM_MUST_CHECK static int splits_next(void *ctx, pm_batch **out, paimon_error *err)
{
    splits_source *ss = ctx;
    int rc;
    for (;;) {
        if (ss->split.ctx == NULL) {
            if (ss->next_split >= split_count(ss->scan))
                return PAIMON_ITEROVER;
            if ((rc = open_split(ss->scan, ss->next_split++, &ss->split, err)) != 0)
                return rc;
        }
        rc = ss->split.next(ss->split.ctx, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        ss->split.release(ss->split.ctx);
        ss->split.ctx = NULL;
    }
}

static void splits_release(void *ctx)
{
    splits_source *ss = ctx;
    if (ss->split.ctx != NULL)
        ss->split.release(ss->split.ctx);
    pm_free(ss);
}

PAIMON_API int paimon_scan_cursor(paimon_cursor **out, paimon_scan *scan, paimon_error *err)
{
    pm_batch_source src;
    splits_source *ss;
    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || scan == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_cursor: scan and out are required");
    if ((ss = pm_calloc(1, sizeof(*ss))) == NULL)
        return pm_nomem(err);
    ss->scan = scan;
    memset(&src, 0, sizeof(src));
    src.next = splits_next;
    src.release = splits_release;
    src.ctx = ss;
    src.type = scan->out_type;
    return pm_cursor_new(out, &src, -1, err);
}

PAIMON_API int paimon_scan_split_cursor(paimon_cursor **out, paimon_scan *scan, size_t split,
                                        paimon_error *err)
{
    pm_batch_source src;
    int rc;
    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || scan == NULL || split >= split_count(scan))
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_split_cursor: no split %zu", split);
    if ((rc = open_split(scan, split, &src, err)) != 0)
        return rc;
    return pm_cursor_new(out, &src, -1, err);
}
