/* Schema-evolved data file reads: see file_reader.h. */
#include "table/file_reader.h"

#include <string.h>

#include "data/cast.h"
#include "format/data_file.h"
#include "lsm/deletion_vector.h"
#include "util/alloc.h"
#include "util/error.h"

struct pm_file_reader {
    pm_data_file *file;
    const char *path;
    pm_type *read_type; /* asked of the file: its own fields, by id */
    pm_type *out_type;  /* out_type + system fields */
    int *source;        /* per output column: column of the file batch, or -1 (null) */
    int64_t *ranges;    /* kept row ranges under a deletion vector */
    bool empty;         /* the deletion vector deletes every row */
    /* A deletion vector that cuts the file into many short ranges is applied row by row
     * instead (reading a range at a time would cost more than reading everything): */
    const pm_dv *dense; /* the vector, or NULL */
    pm_dv *dense_owned; /* it, when read here */
    int64_t pos;        /* position of the next row the format yields */
    uint8_t *select;    /* per row of a batch: kept */
    size_t select_cap;
    pm_predicate *filter; /* pushed into the format, over read_type */
};

static pm_type *system_field_type(pm_type_id id)
{
    pm_type *t = pm_type_new(id);
    if (t != NULL)
        t->nullable = false;
    return t;
}

PM_MUST_CHECK static int null_column(const pm_type *t, int64_t rows, pm_column **out,
                                     paimon_error *err)
{
    pm_column *c = pm_column_new(t);
    if (c == NULL)
        return pm_nomem(err);
    for (int64_t i = 0; i < rows; i++) {
        if (pm_column_append_null(c) != 0) {
            pm_column_free(c);
            return pm_nomem(err);
        }
    }
    *out = c;
    return 0;
}

PM_MUST_CHECK static int evolve_column(pm_column *src, const pm_type *to, const char *what,
                                       pm_column **out, bool *moved, paimon_error *err);

/* A ROW column read with the file's nested fields, rebuilt as `to` by nested field id. */
PM_MUST_CHECK static int evolve_row(pm_column *src, const pm_type *to, const char *what,
                                    pm_column **out, paimon_error *err)
{
    const pm_type *from = src->type;
    pm_column *dst = pm_column_new(to);
    int rc = 0;
    if (dst == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < to->field_count && rc == 0; i++) {
        size_t k;
        pm_column *child = NULL;
        bool moved = false;
        if (pm_type_field_by_id(from, to->fields[i].id, &k) != NULL)
            rc = evolve_column(src->children[k], to->fields[i].type, what, &child, &moved, err);
        else
            rc = null_column(to->fields[i].type, src->length, &child, err);
        if (rc == 0) {
            if (moved) /* the child now belongs to dst: detach it from src */
                src->children[k] = NULL;
            pm_column_free(dst->children[i]);
            dst->children[i] = child;
        }
    }
    if (rc == 0) {
        /* The row's own validity and length. */
        dst->length = src->length;
        dst->null_count = src->null_count;
        if (pm_buf_append(&dst->validity, src->validity.data, src->validity.len) != 0)
            rc = pm_nomem(err);
    }
    if (rc != 0) {
        pm_column_free(dst);
        return rc;
    }
    *out = dst;
    return 0;
}

/* Produces `to` from `src`; *moved when `src` itself was reused (retyped). */
PM_MUST_CHECK static int evolve_column(pm_column *src, const pm_type *to, const char *what,
                                       pm_column **out, bool *moved, paimon_error *err)
{
    *moved = false;
    if (pm_type_equals_ignore_nullable(src->type, to) ||
        (to->id == src->type->id && !pm_type_is_nested(to) && to->length == src->type->length &&
         to->precision == src->type->precision && to->scale == src->type->scale)) {
        pm_column_retype(src, to);
        *out = src;
        *moved = true;
        return 0;
    }
    if (to->id == PM_TYPE_ROW && src->type->id == PM_TYPE_ROW)
        return evolve_row(src, to, what, out, err);
    return pm_cast_column(src, to, what, out, err);
}

int pm_file_reader_open(pm_file_reader **out, pm_fs *fs, const char *path,
                        const pm_manifest_entry *entry, const pm_schema *file_schema,
                        const pm_file_reader_options *o, paimon_error *err)
{
    pm_file_reader *r = pm_calloc(1, sizeof(*r));
    const pm_type *out_type = o->out_type;
    size_t nout = out_type->field_count;
    pm_read_options ro;
    int rc = 0;

    *out = NULL;
    if (r == NULL)
        return pm_nomem(err);
    r->path = path;
    r->read_type = pm_type_new(PM_TYPE_ROW);
    r->out_type = pm_type_clone(out_type);
    r->source = pm_calloc(nout + 2, sizeof(int));
    if (r->read_type == NULL || r->out_type == NULL || r->source == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    r->read_type->nullable = false;
    for (size_t i = 0; i < nout; i++) {
        const pm_field *want = &out_type->fields[i];
        const pm_field *have = pm_type_field_by_id(file_schema->row, want->id, NULL);
        size_t existing;
        r->source[i] = -1;
        if (have == NULL)
            continue;
        if (pm_type_field_by_id(r->read_type, have->id, &existing) != NULL) {
            r->source[i] = (int)existing;
            continue;
        }
        if ((rc = pm_type_row_add(r->read_type, have->id, have->name, pm_type_clone(have->type))) !=
            0) {
            rc = pm_nomem(err);
            goto done;
        }
        r->source[i] = (int)r->read_type->field_count - 1;
    }
    if (o->system_fields) {
        if (pm_type_row_add(r->read_type, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER",
                            system_field_type(PM_TYPE_BIGINT)) != 0 ||
            pm_type_row_add(r->read_type, PM_VALUE_KIND_ID, "_VALUE_KIND",
                            system_field_type(PM_TYPE_TINYINT)) != 0 ||
            pm_type_row_add(r->out_type, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER",
                            system_field_type(PM_TYPE_BIGINT)) != 0 ||
            pm_type_row_add(r->out_type, PM_VALUE_KIND_ID, "_VALUE_KIND",
                            system_field_type(PM_TYPE_TINYINT)) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        r->source[nout] = (int)r->read_type->field_count - 2;
        r->source[nout + 1] = (int)r->read_type->field_count - 1;
    }
    memset(&ro, 0, sizeof(ro));
    ro.read_type = r->read_type;
    ro.batch_rows = o->batch_rows;
    ro.pool = o->pool;
    if (o->filter != NULL) {
        /* Only columns the file has with the very type read (no cast between). */
        int *map = pm_malloc((nout + 1) * sizeof(int));
        if (map == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < nout; i++)
            map[i] = r->source[i] >= 0 &&
                             pm_type_equals_ignore_nullable(r->read_type->fields[r->source[i]].type,
                                                            out_type->fields[i].type)
                         ? r->source[i]
                         : -1;
        rc = pm_predicate_map_columns(o->filter, r->read_type, map, &r->filter, err);
        pm_free(map);
        if (rc != 0)
            goto done;
        ro.filter = r->filter;
    }
    if (o->dv != NULL || o->dv_loaded != NULL) {
        pm_dv *read = NULL;
        const pm_dv *dv = o->dv_loaded;
        int64_t rows = entry->file.row_count, start = 0;
        size_t n = 0;
        if (dv == NULL) {
            if ((rc = pm_dv_read(fs, o->dv->index_path, o->dv->offset, o->dv->length, &read,
                                 err)) != 0)
                goto done;
            dv = read;
        }
        /* Kept rows as [start, end) pairs: at most one more than the deleted rows. */
        r->ranges = pm_malloc(((size_t)pm_dv_cardinality(dv) + 2) * 2 * sizeof(int64_t));
        if (r->ranges == NULL) {
            pm_dv_free(read);
            rc = pm_nomem(err);
            goto done;
        }
        for (int64_t pos = 0; pos < rows; pos++) {
            if (pm_dv_contains(dv, (uint64_t)pos)) {
                if (pos > start) {
                    r->ranges[2 * n] = start;
                    r->ranges[2 * n + 1] = pos;
                    n++;
                }
                start = pos + 1;
            }
        }
        if (rows > start) {
            r->ranges[2 * n] = start;
            r->ranges[2 * n + 1] = rows;
            n++;
        }
        r->empty = n == 0;
        /* Dense: more than 16 ranges averaging under 256 rows, and no predicate that lets
         * the format skip row groups (positions are counted over every row). */
        if (!r->empty && o->filter == NULL && n > 16 && rows / (int64_t)n < 256) {
            r->dense = dv;
            r->dense_owned = read;
            read = NULL;
        } else {
            ro.ranges = r->ranges;
            ro.range_count = n;
        }
        pm_dv_free(read);
    }
    if (r->empty)
        goto done;
    if ((rc = pm_data_file_open(&r->file, fs, path, err)) != 0)
        goto done;
    if (r->file->format->row_count(r->file->impl) != entry->file.row_count) {
        rc = pm_corrupt(err, "%s: holds %lld rows, its manifest entry records %lld", path,
                        (long long)r->file->format->row_count(r->file->impl),
                        (long long)entry->file.row_count);
        goto done;
    }
    rc = r->file->format->start(r->file->impl, &ro, err);
done:
    if (rc != 0) {
        pm_file_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const pm_type *pm_file_reader_type(const pm_file_reader *r)
{
    return r->out_type;
}

/* Dense deletion vectors: the rows of `*in` (positions r->pos ...) the vector keeps. */
PM_MUST_CHECK static int drop_deleted(pm_file_reader *r, pm_batch **in, paimon_error *err)
{
    int64_t rows = (*in)->row_count;
    bool any = false;
    pm_batch *kept = NULL;
    int rc;
    if ((size_t)rows > r->select_cap) {
        uint8_t *grown = pm_realloc(r->select, (size_t)rows);
        if (grown == NULL)
            return pm_nomem(err);
        r->select = grown;
        r->select_cap = (size_t)rows;
    }
    for (int64_t i = 0; i < rows; i++) {
        r->select[i] = !pm_dv_contains(r->dense, (uint64_t)(r->pos + i));
        any |= !r->select[i];
    }
    r->pos += rows;
    if (!any)
        return 0;
    if ((rc = pm_batch_filter(*in, r->select, &kept, err)) != 0)
        return rc;
    pm_batch_free(*in);
    *in = kept;
    return 0;
}

int pm_file_reader_next(pm_file_reader *r, pm_batch **out, paimon_error *err)
{
    pm_batch *in = NULL, *b = NULL;
    int rc;

    *out = NULL;
    if (r->empty)
        return PAIMON_ITEROVER;
    for (;;) {
        if ((rc = r->file->format->next(r->file->impl, &in, err)) != 0)
            return rc;
        if (r->dense == NULL)
            break;
        if ((rc = drop_deleted(r, &in, err)) != 0)
            goto done;
        if (in->row_count > 0)
            break;
        pm_batch_free(in); /* every row of this batch is deleted */
        in = NULL;
    }
    if ((rc = pm_batch_new(&b, r->out_type, err)) != 0)
        goto done;
    for (size_t i = 0; i < r->out_type->field_count; i++) {
        const pm_type *to = b->type->fields[i].type;
        pm_column *col = NULL;
        bool moved = false;
        if (r->source[i] < 0) {
            rc = null_column(to, in->row_count, &col, err);
        } else {
            pm_column *src = in->columns[r->source[i]];
            if (src == NULL) { /* the same file column feeds two outputs: copy */
                rc = pm_err_set(err, PAIMON_EINVALID, "%s: a column is read twice", r->path);
                goto done;
            }
            rc = evolve_column(src, to, r->path, &col, &moved, err);
            if (rc == 0 && moved)
                in->columns[r->source[i]] = NULL;
        }
        if (rc != 0)
            goto done;
        pm_column_free(b->columns[i]);
        b->columns[i] = col;
    }
    b->row_count = in->row_count;
    *out = b;
    b = NULL;
done:
    pm_batch_free(b);
    pm_batch_free(in);
    return rc;
}

void pm_file_reader_free(pm_file_reader *r)
{
    if (r == NULL)
        return;
    pm_data_file_free(r->file);
    pm_type_free(r->read_type);
    pm_type_free(r->out_type);
    pm_free(r->source);
    pm_free(r->ranges);
    pm_dv_free(r->dense_owned);
    pm_free(r->select);
    pm_predicate_free(r->filter);
    pm_free(r);
}

PM_MUST_CHECK static int source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_file_reader_next(ctx, out, err);
}

static void source_release(void *ctx)
{
    pm_file_reader_free(ctx);
}

int pm_file_reader_open_source(void *ctx, pm_fs *fs, const char *path,
                               const pm_data_file_meta *meta, const pm_schema *file_schema,
                               const pm_type *out_type, pm_batch_source *out, paimon_error *err)
{
    pm_manifest_entry e; /* read at open only (the row count) */
    pm_file_reader_options o;
    pm_file_reader *r;
    int rc;
    (void)ctx;
    memset(out, 0, sizeof(*out));
    memset(&e, 0, sizeof(e));
    e.file = *meta;
    memset(&o, 0, sizeof(o));
    o.out_type = out_type;
    o.system_fields = true;
    if ((rc = pm_file_reader_open(&r, fs, path, &e, file_schema, &o, err)) != 0)
        return rc;
    out->next = source_next;
    out->release = source_release;
    out->ctx = r;
    out->type = pm_file_reader_type(r);
    return 0;
}
