/*
 * The commit of a transaction's buffered changes (txn.c) as Arrow batches: the fast write
 * path.
 *
 * paimon_writer_write_row() takes one row per call; an INSERT ... SELECT of a million rows
 * pays that call, its checks and its gathering a million times.  When every column of the
 * table is an integer, BOOLEAN, FLOAT, DOUBLE, string or binary column (the Arrow formats
 * c, s, i, l, b, f, g, u, z of paimon/arrow.h), the changes go to
 * paimon_writer_write_arrow() in batches of PS_ARROW_BATCH rows instead, each with its row
 * kinds.  The values are those the row path writes: txn.c keeps them typed
 * (ps_value_get()), and old rows of UPDATE and DELETE arrive as canonical text, which this
 * path parses as the writer would (integers, booleans, doubles); a table with any other
 * column type keeps the row path.
 *
 * The arrays are built here, borrowed by the writer for the call (it copies them), and
 * released here: their release callbacks only mark them released.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

#define PS_ARROW_BATCH 65536

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

typedef struct column_buf {
    struct ArrowArray array;
    const void *buffers[3];
    uint8_t *validity;
    void *values; /* fixed-width values, or int32 offsets */
    char *bytes;  /* string bytes */
    size_t bytes_len, bytes_cap;
} column_buf;

int ps_arrow_supported(const char *format)
{
    return strlen(format) == 1 && strchr("csilbfguz", format[0]) != NULL;
}

static size_t width(char f)
{
    switch (f) {
    case 'c': return 1;
    case 's': return 2;
    case 'i':
    case 'f':
    case 'u':
    case 'z': return 4;
    default: return 8; /* l, g; b uses a bitmap */
    }
}

/* The value of `v` as an int64 / double (text from old rows is canonical). */
static int64_t as_int(const paimon_value *v)
{
    if (v->type == PAIMON_VALUE_INT)
        return v->v.i;
    if (v->type == PAIMON_VALUE_BOOL)
        return v->v.b;
    if (v->type == PAIMON_VALUE_TEXT) /* an old row's canonical text, NUL-terminated */
        return v->v.s.ptr[0] == 't' ? 1 : v->v.s.ptr[0] == 'f' ? 0 : strtoll(v->v.s.ptr, NULL, 10);
    return 0;
}

static double as_double(const paimon_value *v)
{
    if (v->type == PAIMON_VALUE_DOUBLE)
        return v->v.d;
    if (v->type == PAIMON_VALUE_INT)
        return (double)v->v.i;
    if (v->type == PAIMON_VALUE_TEXT) /* checked by ps_value_get, or an old row's text */
        return strtod(v->v.s.ptr, NULL);
    return 0;
}

/* Writes every buffered change of `vt` into `w`, whose Arrow schema is `schema` (every
 * column ps_arrow_supported()): 0, or the library's error code in `err`. */
int ps_write_arrow(ps_vtab *vt, paimon_writer *w, const struct ArrowSchema *schema,
                   paimon_error *err)
{
    size_t n = vt->col_count, rows_cap = PS_ARROW_BATCH;
    column_buf *cols = calloc(n + 1, sizeof(*cols));
    struct ArrowArray **children = calloc(n + 1, sizeof(*children));
    struct ArrowArray top;
    const void *top_buffers[1] = {NULL};
    int8_t *kinds = malloc(rows_cap);
    int rc = 0;

    if (cols == NULL || children == NULL || kinds == NULL) {
        rc = PAIMON_ENOMEM;
        goto done;
    }
    for (size_t c = 0; c < n; c++) {
        char f = schema->children[c]->format[0];
        cols[c].validity = calloc(rows_cap / 8 + 1, 1);
        cols[c].values = f == 'b' ? calloc(rows_cap / 8 + 1, 1) : malloc((rows_cap + 1) * width(f));
        if (cols[c].validity == NULL || cols[c].values == NULL) {
            rc = PAIMON_ENOMEM;
            goto done;
        }
        children[c] = &cols[c].array;
    }
    for (size_t from = 0; from < vt->change_count; from += rows_cap) {
        size_t count = vt->change_count - from < rows_cap ? vt->change_count - from : rows_cap;
        for (size_t c = 0; c < n; c++) {
            column_buf *b = &cols[c];
            char f = schema->children[c]->format[0];
            int64_t nulls = 0;
            memset(b->validity, 0, rows_cap / 8 + 1);
            if (f == 'b')
                memset(b->values, 0, rows_cap / 8 + 1);
            b->bytes_len = 0;
            if (f == 'u' || f == 'z')
                ((int32_t *)b->values)[0] = 0;
            for (size_t r = 0; r < count; r++) {
                const paimon_value *v = &vt->changes[from + r]->vals[c];
                int is_null = v->type == PAIMON_VALUE_NULL;
                if (is_null)
                    nulls++;
                else
                    b->validity[r >> 3] |= (uint8_t)(1u << (r & 7));
                switch (f) {
                case 'c': ((int8_t *)b->values)[r] = (int8_t)(is_null ? 0 : as_int(v)); break;
                case 's': ((int16_t *)b->values)[r] = (int16_t)(is_null ? 0 : as_int(v)); break;
                case 'i': ((int32_t *)b->values)[r] = (int32_t)(is_null ? 0 : as_int(v)); break;
                case 'l': ((int64_t *)b->values)[r] = is_null ? 0 : as_int(v); break;
                case 'b':
                    if (!is_null && as_int(v))
                        ((uint8_t *)b->values)[r >> 3] |= (uint8_t)(1u << (r & 7));
                    break;
                case 'f': ((float *)b->values)[r] = is_null ? 0.0f : (float)as_double(v); break;
                case 'g': ((double *)b->values)[r] = is_null ? 0.0 : as_double(v); break;
                default: { /* u, z */
                    size_t len = is_null ? 0 : v->v.s.len;
                    if (b->bytes_len + len > INT32_MAX) {
                        rc = set_err(err, PAIMON_ELIMIT, vt->name,
                                     "more than 2 GB of text in one batch");
                        goto done;
                    }
                    if (b->bytes_len + len > b->bytes_cap) {
                        size_t cap = b->bytes_cap == 0 ? 65536 : b->bytes_cap;
                        while (cap < b->bytes_len + len)
                            cap *= 2;
                        char *grown = realloc(b->bytes, cap);
                        if (grown == NULL) {
                            rc = PAIMON_ENOMEM;
                            goto done;
                        }
                        b->bytes = grown;
                        b->bytes_cap = cap;
                    }
                    if (len > 0)
                        memcpy(b->bytes + b->bytes_len, v->v.s.ptr, len);
                    b->bytes_len += len;
                    ((int32_t *)b->values)[r + 1] = (int32_t)b->bytes_len;
                }
                }
            }
            b->buffers[0] = b->validity;
            b->buffers[1] = b->values;
            b->buffers[2] = b->bytes != NULL ? b->bytes : "";
            b->array = (struct ArrowArray){
                (int64_t)count, nulls, 0, (f == 'u' || f == 'z') ? 3 : 2, 0, b->buffers, NULL, NULL,
                no_release,     NULL};
        }
        for (size_t r = 0; r < count; r++)
            kinds[r] = vt->changes[from + r]->kind;
        top = (struct ArrowArray){(int64_t)count, 0,        0,    1,          (int64_t)n,
                                  top_buffers,    children, NULL, no_release, NULL};
        if ((rc = paimon_writer_write_arrow(w, schema, &top, kinds, err)) != 0)
            goto done;
    }
done:
    if (rc == PAIMON_ENOMEM && err != NULL && err->code == 0)
        rc = set_err(err, PAIMON_ENOMEM, vt->name, "out of memory");
    for (size_t c = 0; cols != NULL && c < n; c++) {
        free(cols[c].validity);
        free(cols[c].values);
        free(cols[c].bytes);
    }
    free(cols);
    free(children);
    free(kinds);
    return rc;
}
