/*
 * Public scan functions (include/paimon/scan.h): argument checks and translation over
 * table/scan_table.c (planning), table/split_read.h and table/system_table.h (reading).
 * Rows come out through the one cursor (api/cursor.c): a scan is a batch source per split,
 * and a source that walks every split in turn.
 */
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "api/columns.h"
#include "data/expr.h"
#include "data/parallel_source.h"
#include "meta/partition.h"
#include "table/file_reader.h"
#include "table/incremental.h"
#include "table/incremental_diff.h"
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
    unsigned int threads; /* paimon_scan_options.threads: 0 the processors online */
    /* Reads through kind_source (below): $audit_log and $binlog (`rows`), and incremental
     * delta or changelog reads (`changes`: the plan's splits are raw change splits). */
    pm_sys_kind rows; /* PM_SYS_AUDIT_LOG, PM_SYS_BINLOG, or PM_SYS_RO: the table's rows */
    bool changes;
    bool sequence; /* `rows` with _SEQUENCE_NUMBER after rowkind (table-read.sequence-number.*) */
    pm_diff_plan *diff; /* a diff read: one split per bucket (plan is diff->plan) */
    pm_type *row_type;  /* the audit_log / binlog row, or NULL: the plan schema's row */
};

/* The row type columns and filters refer to. */
static const pm_type *scan_row(const paimon_scan *s)
{
    if (s->sys != NULL)
        return pm_sys_table_type(s->sys);
    return s->row_type != NULL ? s->row_type : s->plan->schema->row;
}

static bool kinds_read(const paimon_scan *s)
{
    return s->rows != PM_SYS_RO || s->changes;
}

/* Java's AuditLogTable / BinlogTable row: `rowkind STRING NOT NULL`, with `sequence`
 * `_SEQUENCE_NUMBER BIGINT NOT NULL`, then the table's columns (binlog: each an ARRAY of the
 * nullable column type). */
PM_MUST_CHECK static int audit_row_type(const pm_type *row, bool binlog, bool sequence,
                                        pm_type **out, paimon_error *err)
{
    pm_type *t = pm_type_new(PM_TYPE_ROW), *kind = pm_type_new(PM_TYPE_VARCHAR);
    *out = NULL;
    if (t == NULL || kind == NULL)
        goto nomem;
    t->nullable = false;
    kind->length = INT32_MAX;
    kind->nullable = false;
    if (pm_type_row_add(t, PM_ROW_KIND_ID, "rowkind", kind) != 0) {
        kind = NULL;
        goto nomem;
    }
    kind = NULL;
    if (sequence) {
        pm_type *seq = pm_type_new(PM_TYPE_BIGINT);
        if (seq == NULL)
            goto nomem;
        seq->nullable = false;
        if (pm_type_row_add(t, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", seq) != 0)
            goto nomem;
    }
    for (size_t i = 0; i < row->field_count; i++) {
        pm_type *ft = pm_type_clone(row->fields[i].type);
        if (ft != NULL && binlog) {
            pm_type *arr = pm_type_new(PM_TYPE_ARRAY);
            if (arr == NULL) {
                pm_type_free(ft);
                goto nomem;
            }
            ft->nullable = true;
            arr->element = ft;
            ft = arr;
        }
        if (ft == NULL || pm_type_row_add(t, row->fields[i].id, row->fields[i].name, ft) != 0)
            goto nomem;
    }
    *out = t;
    return 0;
nomem:
    pm_type_free(kind);
    pm_type_free(t);
    return pm_nomem(err);
}

/* `table-read.sequence-number.enabled` of $audit_log / $binlog (Java reads the table's own
 * options; a dynamic option is refused there too).  Java only lets primary-key tables set it;
 * diff reads (incremental-between in diff mode) do not carry it here. */
PM_MUST_CHECK static int read_sequence(const paimon_table *t, const paimon_scan_options *o,
                                       const pm_incremental *inc, bool incremental, bool *out,
                                       paimon_error *err)
{
    int rc = pm_api_read_sequence(t, o->option_keys, o->option_values, o->option_count, out, err);
    if (rc != 0 || !*out)
        return rc;
    if (incremental && inc->kind == PM_INCREMENTAL_DIFF && !inc->empty)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: option table-read.sequence-number.enabled = true is not supported "
                          "by paimon-c for incremental reads in diff mode",
                          t->path);
    return 0;
}

static size_t split_count(const paimon_scan *s)
{
    if (s->diff != NULL)
        return s->diff->bucket_count;
    return s->sys != NULL ? 1 : s->plan->split_count;
}

/* The plan split of split `i` (a diff's bucket: its after files, else its before files). */
static const pm_split *plan_split(const paimon_scan *s, size_t i)
{
    if (s->diff != NULL)
        i = (size_t)(s->diff->after[i] >= 0 ? s->diff->after[i] : s->diff->before[i]);
    return &s->plan->splits[i];
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
    pm_type_free(s->row_type);
    pm_predicate_free(s->filter);
    if (s->diff != NULL)
        s->plan = NULL; /* the diff's */
    pm_diff_plan_free(s->diff);
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
    pm_incremental inc;
    bool selected;
    int rc = 0;

    pm_options_init(&opts);
    memset(&start, 0, sizeof(start));
    memset(&inc, 0, sizeof(inc));

    paimon_error_clear(err);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_scan: table and out are required");
    *out = NULL;
    pm_table_begin(table);
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
        if (start.mode == PM_STARTUP_INCREMENTAL)
            PM_TRY(pm_incremental_resolve(table, &opts, &inc, err));
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
    s->threads = o.threads;
    s->rows = kind == PM_SYS_AUDIT_LOG || kind == PM_SYS_BINLOG ? kind : PM_SYS_RO;
    if (s->rows != PM_SYS_RO)
        PM_TRY(read_sequence(table, &o, &inc, start.mode == PM_STARTUP_INCREMENTAL, &s->sequence,
                             err));
    if (start.mode == PM_STARTUP_INCREMENTAL && (o.system_table == NULL || s->rows != PM_SYS_RO)) {
        s->changes = true;
        if (inc.kind == PM_INCREMENTAL_DIFF && !inc.empty) {
            PM_TRY(pm_diff_plan_build(table, &inc, &s->diff, err));
            s->plan = s->diff->plan;
        } else {
            PM_TRY(pm_incremental_plan(table, table->schema, &inc, &s->plan, err));
        }
        if (s->rows != PM_SYS_RO)
            PM_TRY(audit_row_type(s->plan->schema->row, s->rows == PM_SYS_BINLOG, s->sequence,
                                  &s->row_type, err));
        if (o.filter != NULL)
            PM_TRY(pm_expr_parse(o.filter, scan_row(s), &s->filter, err));
    } else if (s->rows != PM_SYS_RO) {
        PM_TRY(pm_scan_plan_table(table, &so, NULL, &s->plan, &s->filter, err));
        PM_TRY(audit_row_type(s->plan->schema->row, s->rows == PM_SYS_BINLOG, s->sequence,
                              &s->row_type, err));
        if (o.filter != NULL)
            PM_TRY(pm_expr_parse(o.filter, s->row_type, &s->filter, err));
    } else if (o.system_table != NULL && kind != PM_SYS_RO) {
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
    pm_incremental_release(&inc);
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
    sp = plan_split(scan, split);
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
    if (scan == NULL || out == NULL || scan->sys != NULL || split >= split_count(scan) ||
        file >= plan_split(scan, split)->file_count)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_split_file: no such file");
    sp = plan_split(scan, split);
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

PM_MUST_CHECK static int sys_source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_sys_reader_next((pm_sys_reader *)ctx, out, err);
}

static void sys_source_release(void *ctx)
{
    pm_sys_reader_free((pm_sys_reader *)ctx);
}

/* Rows read with their kinds ($audit_log, $binlog, incremental reads): a split reader of
 * every column with `_ROW_KIND` first, made into the scan's row (scan_row()), filtered, and
 * projected onto the scan's columns. */
typedef struct kind_source {
    paimon_scan *scan;
    pm_split_reader *r; /* or, for a diff, the bucket's rows: */
    pm_batch *pending;  /* read once */
} kind_source;

/* The batch of scan_row() from a reader batch [_ROW_KIND, every data column]. */
PM_MUST_CHECK static int kind_row(const paimon_scan *s, pm_batch *in, pm_batch **out,
                                  paimon_error *err)
{
    const pm_type *row = scan_row(s);
    /* rowkind (and _SEQUENCE_NUMBER) kept as columns, in the reader's order */
    size_t lead = s->rows != PM_SYS_RO ? 1 + (size_t)s->sequence : 0;
    pm_batch *b = NULL;
    int rc = pm_batch_new(&b, row, err);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < row->field_count; i++) {
        size_t from = s->rows != PM_SYS_RO ? i : i + 1; /* input column */
        pm_column *c = in->columns[from];
        if (s->rows == PM_SYS_BINLOG && i >= lead) {
            for (int64_t k = 0; k < in->row_count; k++)
                if (pm_column_append_from(b->columns[i]->children[0], c, k) != 0 ||
                    pm_column_list_end(b->columns[i], true) != 0) {
                    pm_batch_free(b);
                    return pm_nomem(err);
                }
            continue;
        }
        in->columns[from] = NULL;
        pm_column_free(b->columns[i]);
        b->columns[i] = c;
        pm_column_retype(c, b->type->fields[i].type);
    }
    b->row_count = in->row_count;
    *out = b;
    return 0;
}

PM_MUST_CHECK static int kind_next(void *ctx, pm_batch **out, paimon_error *err)
{
    kind_source *ks = ctx;
    const paimon_scan *s = ks->scan;
    for (;;) {
        pm_batch *in = NULL, *row = NULL, *kept = NULL, *b = NULL;
        int rc;
        if (ks->r != NULL) {
            if ((rc = pm_split_reader_next(ks->r, &in, err)) != 0)
                return rc;
        } else {
            if (ks->pending == NULL)
                return PAIMON_ITEROVER;
            in = ks->pending;
            ks->pending = NULL;
        }
        rc = kind_row(s, in, &row, err);
        pm_batch_free(in);
        if (rc != 0)
            return rc;
        if (s->filter != NULL) {
            uint8_t *res = pm_malloc((size_t)row->row_count + 1);
            if (res == NULL) {
                pm_batch_free(row);
                return pm_nomem(err);
            }
            rc = pm_predicate_eval_batch(s->filter, row, res, err);
            for (int64_t i = 0; rc == 0 && i < row->row_count; i++)
                res[i] = res[i] == 1;
            if (rc == 0)
                rc = pm_batch_filter(row, res, &kept, err);
            pm_free(res);
            pm_batch_free(row);
            if (rc != 0)
                return rc;
            row = kept;
        }
        if (row->row_count == 0) {
            pm_batch_free(row);
            continue;
        }
        if ((rc = pm_batch_new(&b, s->out_type, err)) != 0) {
            pm_batch_free(row);
            return rc;
        }
        for (size_t i = 0; i < s->column_count; i++) {
            pm_column *c = row->columns[s->columns[i]];
            row->columns[s->columns[i]] = NULL;
            pm_column_free(b->columns[i]);
            b->columns[i] = c;
            pm_column_retype(c, b->type->fields[i].type);
        }
        b->row_count = row->row_count;
        pm_batch_free(row);
        *out = b;
        return 0;
    }
}

static void kind_release(void *ctx)
{
    kind_source *ks = ctx;
    pm_split_reader_free(ks->r);
    pm_batch_free(ks->pending);
    pm_free(ks);
}

/* A source of the batches of split `split`; the caller releases it with src->release.
 * `ahead`: a read of paimon_scan_cursor(), whose plain split reads decode their files ahead
 * on the pool (s->threads; pm_split_reader_set_threads); a split cursor reads on its
 * caller's thread only, as an engine reading splits on threads of its own expects. */
PM_MUST_CHECK static int open_split(paimon_scan *s, size_t split, bool ahead, pm_batch_source *src,
                                    paimon_error *err)
{
    int rc;
    memset(src, 0, sizeof(*src));
    if (kinds_read(s)) {
        kind_source *ks = pm_calloc(1, sizeof(*ks));
        if (ks == NULL)
            return pm_nomem(err);
        ks->scan = s;
        if (s->diff != NULL)
            rc = pm_diff_read_bucket(s->table, s->diff, split, s->rows != PM_SYS_RO, s->batch_rows,
                                     &ks->pending, err);
        else if (s->changes)
            rc = pm_split_reader_open_changes(&ks->r, s->table, s->plan, &s->plan->splits[split],
                                              NULL, 0, s->batch_rows, err);
        else
            rc = pm_split_reader_open_keep_delete(
                &ks->r, s->table, s->plan, &s->plan->splits[split], NULL, 0, s->batch_rows, err);
        if (rc == 0 && s->sequence && (rc = pm_split_reader_with_sequence(ks->r, err)) != 0)
            pm_split_reader_free(ks->r);
        if (rc != 0) {
            pm_free(ks);
            return rc;
        }
        src->next = kind_next;
        src->release = kind_release;
        src->ctx = ks;
        src->type = s->out_type;
        return 0;
    }
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
        if (ahead)
            pm_split_reader_set_threads(r, s->threads);
        pm_split_reader_source(r, src);
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
            if ((rc = open_split(ss->scan, ss->next_split++, true, &ss->split, err)) != 0)
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

PM_MUST_CHECK static int open_split_at(void *ctx, size_t split, pm_batch_source *out,
                                       paimon_error *err)
{
    return open_split((paimon_scan *)ctx, split, true, out, err);
}

PAIMON_API int paimon_scan_cursor(paimon_cursor **out, paimon_scan *scan, paimon_error *err)
{
    pm_batch_source src;
    splits_source *ss;
    int rc;
    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || scan == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_scan_cursor: scan and out are required");
    /* Several splits and threads: read ahead on the pool, returned in split order
     * (data/parallel_source.h); each split decodes its own files ahead on the pool too, so
     * fewer are open at once (the spread rule). */
    if ((rc = pm_parallel_source_open_spread(&src, scan->out_type, split_count(scan), open_split_at,
                                             scan, scan->threads, err)) != 0)
        return rc;
    if (src.ctx != NULL)
        return pm_cursor_new(out, &src, -1, err);
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
    if ((rc = open_split(scan, split, false, &src, err)) != 0)
        return rc;
    return pm_cursor_new(out, &src, -1, err);
}
