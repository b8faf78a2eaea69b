/*
 * The columnar transaction buffer of the `paimon` module (txn.c): the fast write path.
 *
 * paimon_writer_write_row() takes one row per call; an INSERT ... SELECT of a million rows
 * pays that call, its checks and its gathering a million times, and a buffer of one
 * allocation per row (64 bytes for two BIGINT columns, plus a pointer) costs a page fault
 * per 60 rows when the transaction's memory is first touched: the profile of
 * bench/sql_insert.sh showed those faults as the largest cost after SQLite's own engine.
 * When every column of the table is an integer, BOOLEAN, FLOAT, DOUBLE, string or binary
 * column (the Arrow formats c, s, i, l, b, f, g, u, z of paimon/arrow.h), xUpdate appends
 * each change's values straight into one growable Arrow buffer per column (8 bytes a BIGINT,
 * a validity bit, a row-kind byte), and the commit hands them to
 * paimon_writer_write_arrow() as batches of PS_ARROW_BATCH rows that point into those
 * buffers: no copy, no conversion at the commit.
 *
 * The values are those the row path writes: new rows arrive typed (ps_value_get()), FLOAT
 * and DOUBLE texts ("NaN", "1e3") and the old rows of UPDATE and DELETE arrive as canonical
 * text and are parsed here as the writer would.  A savepoint rollback cuts every column back
 * to a row count (string bytes to the end offset of the last row kept).
 *
 * Layout per column (ps_colbuf): validity bit r set when row r is not null; values: fixed
 * width values, a bitmap (b), or for u and z the int64 end offset of row r's bytes in
 * `bytes` (a batch gets int32 offsets rebased to its first row, so a transaction may hold
 * more than 2 GB of text, a batch not).
 *
 * Batches are small (4096 rows) on purpose: the writer copies each into a batch of its own
 * that it frees after the call, and small ones are served again from the heap instead of
 * fresh zeroed pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

#define PS_ARROW_BATCH 4096

struct ps_colbuf {
    char format;       /* Arrow format letter: c s i l b f g u z */
    uint8_t *validity; /* bit r: row r is not null */
    void *values;      /* fixed-width values, a bitmap (b), or int64 end offsets (u, z) */
    char *bytes;       /* string and binary bytes (u, z) */
    size_t bytes_len, bytes_cap;
};

PM_MUST_CHECK static int set_err(paimon_error *err, int code, const char *table, const char *what)
{
    if (err != NULL) {
        err->code = code;
        snprintf(err->message, sizeof(err->message), "%s: %s", table, what);
    }
    return code;
}

static void no_release(struct ArrowArray *a)
{
    a->release = NULL;
}

/* The Arrow format letter the writer uses for `col`, or 0 when it takes no batch path. */
static char format_of(const ps_column *col)
{
    switch (col->cls) {
    case PS_INT:
        return col->max_int == INT8_MAX    ? 'c'
               : col->max_int == INT16_MAX ? 's'
               : col->max_int == INT32_MAX ? 'i'
                                           : 'l';
    case PS_BOOL: return 'b';
    case PS_FLOAT: return 'f';
    case PS_DOUBLE: return 'g';
    case PS_BLOB: return 'z';
    case PS_TEXT: /* CHAR, VARCHAR, STRING only: other types fall back to PS_TEXT */
        return strncmp(col->type, "CHAR", 4) == 0 || strncmp(col->type, "VARCHAR", 7) == 0 ||
                       strcmp(col->type, "STRING") == 0
                   ? 'u'
                   : 0;
    default: return 0;
    }
}

static size_t width(char f)
{
    switch (f) {
    case 'c': return 1;
    case 's': return 2;
    case 'i':
    case 'f': return 4;
    default: return 8; /* l, g; u and z keep int64 offsets; b uses a bitmap */
    }
}

int ps_cols_init(ps_vtab *vt)
{
    if (vt->colbufs != NULL)
        return 1;
    for (size_t c = 0; c < vt->col_count; c++)
        if (format_of(&vt->cols[c]) == 0)
            return 0;
    if ((vt->colbufs = calloc(vt->col_count + 1, sizeof(*vt->colbufs))) == NULL)
        return -1;
    for (size_t c = 0; c < vt->col_count; c++)
        vt->colbufs[c].format = format_of(&vt->cols[c]);
    return 1;
}

void ps_cols_free(ps_vtab *vt)
{
    for (size_t c = 0; vt->colbufs != NULL && c < vt->col_count; c++) {
        free(vt->colbufs[c].validity);
        free(vt->colbufs[c].values);
        free(vt->colbufs[c].bytes);
    }
    free(vt->colbufs);
    free(vt->kinds);
    vt->colbufs = NULL;
    vt->kinds = NULL;
    vt->rows_cap = 0;
}

void ps_cols_truncate(ps_vtab *vt, size_t rows)
{
    for (size_t c = 0; vt->colbufs != NULL && c < vt->col_count; c++) {
        ps_colbuf *b = &vt->colbufs[c];
        if (b->format == 'u' || b->format == 'z')
            b->bytes_len = rows == 0 ? 0 : (size_t)((int64_t *)b->values)[rows - 1];
    }
}

/* Grows every column to hold `rows` rows; -1 without memory (nothing is lost). */
static int grow(ps_vtab *vt, size_t rows)
{
    size_t cap = vt->rows_cap == 0 ? 1024 : vt->rows_cap;
    while (cap < rows)
        cap *= 2;
    int8_t *kinds = realloc(vt->kinds, cap);
    if (kinds == NULL)
        return -1;
    vt->kinds = kinds;
    for (size_t c = 0; c < vt->col_count; c++) {
        ps_colbuf *b = &vt->colbufs[c];
        uint8_t *validity = realloc(b->validity, cap / 8 + 1);
        if (validity == NULL)
            return -1;
        b->validity = validity;
        size_t size = b->format == 'b' ? cap / 8 + 1 : cap * width(b->format);
        void *values = realloc(b->values, size);
        if (values == NULL)
            return -1;
        b->values = values;
    }
    vt->rows_cap = cap;
    return 0;
}

static void set_bit(uint8_t *bitmap, size_t r, int on)
{
    if (on)
        bitmap[r >> 3] |= (uint8_t)(1u << (r & 7));
    else
        bitmap[r >> 3] &= (uint8_t) ~(1u << (r & 7));
}

/* The value of `v` as an int64 / double: typed, or text (an old row's canonical text, or a
 * FLOAT or DOUBLE text checked by ps_value_get()), NUL-terminated. */
static int64_t as_int(const paimon_value *v)
{
    if (v->type == PAIMON_VALUE_INT)
        return v->v.i;
    if (v->type == PAIMON_VALUE_BOOL)
        return v->v.b;
    if (v->type == PAIMON_VALUE_TEXT)
        return v->v.s.ptr[0] == 't' ? 1 : v->v.s.ptr[0] == 'f' ? 0 : strtoll(v->v.s.ptr, NULL, 10);
    return 0;
}

static double as_double(const paimon_value *v, char *tmp, size_t tmp_len)
{
    if (v->type == PAIMON_VALUE_DOUBLE)
        return v->v.d;
    if (v->type == PAIMON_VALUE_INT)
        return (double)v->v.i;
    if (v->type == PAIMON_VALUE_TEXT) { /* a new value's text is not NUL-terminated */
        snprintf(tmp, tmp_len, "%.*s", (int)v->v.s.len, v->v.s.ptr);
        return strtod(tmp, NULL);
    }
    return 0;
}

int ps_cols_append(ps_vtab *vt, int8_t kind, const paimon_value *vals)
{
    size_t r = vt->change_count;
    char tmp[64];
    if (r == vt->rows_cap && grow(vt, r + 1) != 0)
        return SQLITE_NOMEM;
    for (size_t c = 0; c < vt->col_count; c++) {
        ps_colbuf *b = &vt->colbufs[c];
        const paimon_value *v = &vals[c];
        int is_null = v->type == PAIMON_VALUE_NULL;
        set_bit(b->validity, r, !is_null);
        switch (b->format) {
        case 'c': ((int8_t *)b->values)[r] = (int8_t)(is_null ? 0 : as_int(v)); break;
        case 's': ((int16_t *)b->values)[r] = (int16_t)(is_null ? 0 : as_int(v)); break;
        case 'i': ((int32_t *)b->values)[r] = (int32_t)(is_null ? 0 : as_int(v)); break;
        case 'l': ((int64_t *)b->values)[r] = is_null ? 0 : as_int(v); break;
        case 'b': set_bit(b->values, r, !is_null && as_int(v) != 0); break;
        case 'f':
            ((float *)b->values)[r] = is_null ? 0.0f : (float)as_double(v, tmp, sizeof(tmp));
            break;
        case 'g': ((double *)b->values)[r] = is_null ? 0.0 : as_double(v, tmp, sizeof(tmp)); break;
        default: { /* u, z */
            size_t len = is_null ? 0 : v->v.s.len;
            if (b->bytes_len + len > b->bytes_cap) {
                size_t cap = b->bytes_cap == 0 ? 65536 : b->bytes_cap;
                while (cap < b->bytes_len + len)
                    cap *= 2;
                char *grown = realloc(b->bytes, cap);
                if (grown == NULL) {
                    ps_cols_truncate(vt, r); /* the columns before this one */
                    return SQLITE_NOMEM;
                }
                b->bytes = grown;
                b->bytes_cap = cap;
            }
            if (len > 0)
                memcpy(b->bytes + b->bytes_len, v->v.s.ptr, len);
            b->bytes_len += len;
            ((int64_t *)b->values)[r] = (int64_t)b->bytes_len;
        }
        }
    }
    vt->kinds[r] = kind;
    vt->change_count = r + 1;
    return SQLITE_OK;
}

int ps_write_arrow(ps_vtab *vt, paimon_writer *w, const struct ArrowSchema *schema,
                   paimon_error *err)
{
    size_t n = vt->col_count;
    struct ArrowArray *arrays = calloc(n + 1, sizeof(*arrays));
    struct ArrowArray **children = calloc(n + 1, sizeof(*children));
    const void **buffers = calloc(3 * n + 1, sizeof(*buffers));
    int32_t *offsets = NULL;
    struct ArrowArray top;
    const void *top_buffers[1] = {NULL};
    int rc = 0;

    if (arrays == NULL || children == NULL || buffers == NULL) {
        rc = set_err(err, PAIMON_ENOMEM, vt->name, "out of memory");
        goto done;
    }
    for (size_t c = 0; c < n; c++) {
        const ps_colbuf *b = &vt->colbufs[c];
        if ((int64_t)c >= schema->n_children || schema->children[c]->format[0] != b->format ||
            schema->children[c]->format[1] != '\0') {
            rc = set_err(err, PAIMON_EINVALID, vt->name,
                         "the table's columns changed since it was opened");
            goto done;
        }
        if ((b->format == 'u' || b->format == 'z') && offsets == NULL &&
            (offsets = malloc((PS_ARROW_BATCH + 1) * n * sizeof(*offsets))) == NULL) {
            rc = set_err(err, PAIMON_ENOMEM, vt->name, "out of memory");
            goto done;
        }
        children[c] = &arrays[c];
    }
    for (size_t from = 0; from < vt->change_count; from += PS_ARROW_BATCH) {
        size_t count =
            vt->change_count - from < PS_ARROW_BATCH ? vt->change_count - from : PS_ARROW_BATCH;
        for (size_t c = 0; c < n; c++) {
            const ps_colbuf *b = &vt->colbufs[c];
            const void **bufs = &buffers[3 * c];
            int64_t nulls = 0;
            for (size_t r = from; r < from + count; r++)
                nulls += !((b->validity[r >> 3] >> (r & 7)) & 1);
            bufs[0] = b->validity;
            bufs[1] = b->values;
            int64_t offset = (int64_t)from, n_buffers = 2;
            if (b->format == 'u' || b->format == 'z') {
                /* int32 offsets of this batch, from its first row's first byte */
                const int64_t *ends = b->values;
                int64_t base = from == 0 ? 0 : ends[from - 1];
                int32_t *off = offsets + (PS_ARROW_BATCH + 1) * c;
                if (ends[from + count - 1] - base > INT32_MAX) {
                    rc = set_err(err, PAIMON_ELIMIT, vt->name,
                                 "more than 2 GB of text in one batch of rows");
                    goto done;
                }
                off[0] = 0;
                for (size_t r = 0; r < count; r++)
                    off[r + 1] = (int32_t)(ends[from + r] - base);
                /* the validity bitmap keeps the batch's offset; values and bytes start at 0 */
                bufs[1] = off;
                bufs[2] = b->bytes != NULL ? b->bytes + base : "";
                n_buffers = 3;
                if (from % 8 != 0) { /* cannot happen: PS_ARROW_BATCH is a multiple of 8 */
                    rc = set_err(err, PAIMON_EINVALID, vt->name, "unaligned batch");
                    goto done;
                }
                bufs[0] = b->validity + from / 8;
                offset = 0;
            }
            arrays[c] = (struct ArrowArray){(int64_t)count, nulls, offset, n_buffers,  0,
                                            bufs,           NULL,  NULL,   no_release, NULL};
        }
        top = (struct ArrowArray){(int64_t)count, 0,        0,    1,          (int64_t)n,
                                  top_buffers,    children, NULL, no_release, NULL};
        if ((rc = paimon_writer_write_arrow(w, schema, &top, vt->kinds + from, err)) != 0)
            goto done;
    }
done:
    free(arrays);
    free(children);
    free(buffers);
    free(offsets);
    return rc;
}
