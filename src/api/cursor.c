/*
 * The one cursor of include/paimon/cursor.h over any pm_batch_source (data/arrow_stream.h).
 *
 * A cursor holds its source and the current batch.  paimon_cursor_next() steps through the
 * batch and pulls the next one when it is used up (skipping empty ones); the accessors format
 * the current row with the canonical printers of data/batch.h.  When the source ends it is
 * released at once, so a finished cursor holds no files open.
 *
 * paimon_cursor_arrow_stream() hands the remaining rows to an Arrow stream
 * (pm_arrow_stream_new()) through a small source of its own, `rest_source`: first the rows of
 * the current batch after the current row (a filtered copy), then the cursor's source, whose
 * ownership moves to the stream.  The cursor keeps its own copy of the column type, so its
 * column functions work before, during and after.
 */
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "api/columns.h"
#include "util/alloc.h"
#include "util/error.h"

struct paimon_cursor {
    pm_batch_source src; /* ctx NULL once the source ended or went to a stream */
    pm_api_columns cols; /* the cursor's own copy of src.type, and its type strings */
    int kind_column;     /* index of _ROW_KIND, or -1 */
    pm_batch *batch;     /* the current row's batch; NULL before the first and at the end */
    int64_t row;         /* the current row in `batch` */
    pm_buf text;         /* the last value text or row JSON */
};

char *pm_api_type_string(const pm_type *t)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    if (pm_type_format(t, &b) != 0) {
        pm_buf_free(&b);
        return NULL;
    }
    pm_buf_cstr(&b);
    return (char *)pm_buf_detach(&b, NULL);
}

int pm_api_project_type(const pm_type *row, const int *columns, size_t count, pm_type **out,
                        paimon_error *err)
{
    pm_type *t = pm_type_new(PM_TYPE_ROW);
    *out = NULL;
    if (t == NULL)
        return pm_nomem(err);
    t->nullable = false;
    for (size_t i = 0; i < count; i++) {
        const pm_field *f = &row->fields[columns[i]];
        if (pm_type_row_add(t, f->id, f->name, pm_type_clone(f->type)) != 0) {
            pm_type_free(t);
            return pm_nomem(err);
        }
    }
    *out = t;
    return 0;
}

int pm_api_find_column(const pm_type *row, const char *name, size_t *idx, paimon_error *err)
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

static void release_source(paimon_cursor *c)
{
    if (c->src.ctx != NULL && c->src.release != NULL)
        c->src.release(c->src.ctx);
    c->src.ctx = NULL;
}

PAIMON_API void paimon_cursor_free(paimon_cursor *c)
{
    if (c == NULL)
        return;
    release_source(c);
    pm_batch_free(c->batch);
    pm_api_columns_release(&c->cols);
    pm_buf_free(&c->text);
    pm_free(c);
}

int pm_cursor_new(paimon_cursor **out, const pm_batch_source *src, int kind_column,
                  paimon_error *err)
{
    paimon_cursor *c = pm_calloc(1, sizeof(*c));
    int rc = 0;
    *out = NULL;
    if (c == NULL) {
        if (src->release != NULL)
            src->release(src->ctx);
        return pm_nomem(err);
    }
    c->src = *src;
    c->kind_column = kind_column;
    pm_buf_init(&c->text, 0);
    PM_TRY(pm_api_columns_init(&c->cols, pm_type_clone(src->type), err));
    *out = c;
    c = NULL;
done:
    paimon_cursor_free(c);
    return rc;
}

PAIMON_API int paimon_cursor_next(paimon_cursor *c, paimon_error *err)
{
    int rc;
    if (c == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_cursor_next: no cursor");
    if (c->batch != NULL && ++c->row < c->batch->row_count)
        return 0;
    pm_batch_free(c->batch);
    c->batch = NULL;
    while (c->src.ctx != NULL) {
        rc = c->src.next(c->src.ctx, &c->batch, err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc != 0) {
            c->batch = NULL;
            return rc;
        }
        if (c->batch->row_count > 0) {
            c->row = 0;
            return 0;
        }
        pm_batch_free(c->batch);
        c->batch = NULL;
    }
    release_source(c);
    return PAIMON_ITEROVER;
}

PAIMON_API size_t paimon_cursor_column_count(const paimon_cursor *c)
{
    return c != NULL ? pm_api_columns_count(&c->cols) : 0;
}

PAIMON_API const char *paimon_cursor_column_name(const paimon_cursor *c, size_t column)
{
    return c != NULL ? pm_api_columns_name(&c->cols, column) : NULL;
}

PAIMON_API const char *paimon_cursor_column_type(const paimon_cursor *c, size_t column)
{
    return c != NULL ? pm_api_columns_type(&c->cols, column) : NULL;
}

PAIMON_API int paimon_cursor_value_text(paimon_cursor *c, size_t column, const char **text,
                                        size_t *len, paimon_error *err)
{
    bool is_null;
    int rc;
    if (c == NULL || text == NULL || c->batch == NULL || column >= c->batch->column_count)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_cursor_value_text: no current row or no column %zu", column);
    pm_buf_reset(&c->text);
    if ((rc = pm_column_text(&c->text, c->batch->columns[column], c->row, &is_null, err)) != 0)
        return rc;
    *text = is_null ? NULL : pm_buf_cstr(&c->text);
    if (len != NULL)
        *len = is_null ? 0 : c->text.len;
    return 0;
}

PAIMON_API int paimon_cursor_row_json(paimon_cursor *c, const char **json, size_t *len,
                                      paimon_error *err)
{
    int rc;
    if (c == NULL || json == NULL || c->batch == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_cursor_row_json: no current row");
    pm_buf_reset(&c->text);
    if ((rc = pm_batch_row_json(&c->text, c->batch, c->row, err)) != 0)
        return rc;
    *json = pm_buf_cstr(&c->text);
    if (len != NULL)
        *len = c->text.len;
    return 0;
}

PAIMON_API int paimon_cursor_row_kind(const paimon_cursor *c)
{
    static const char KINDS[4][3] = {"+I", "-U", "+U", "-D"};
    pm_datum d;
    if (c == NULL || c->batch == NULL)
        return PAIMON_EINVALID;
    if (c->kind_column < 0)
        return PAIMON_ROW_INSERT;
    pm_column_get_datum(c->batch->columns[c->kind_column], c->row, &d);
    for (int k = 0; k < 4; k++)
        if (!d.is_null && d.v.s.len == 2 && memcmp(d.v.s.ptr, KINDS[k], 2) == 0)
            return k;
    return PAIMON_EINVALID; /* the change readers make only the four */
}

/* ---- the Arrow stream of the remaining rows -------------------------------------------- */

typedef struct rest_source {
    pm_batch *first;       /* the rows left of the cursor's current batch, or NULL */
    pm_batch_source inner; /* the cursor's source; ctx NULL when it had ended */
    pm_type *type;         /* the columns (owned: the stream's schema) */
} rest_source;

PM_MUST_CHECK static int rest_next(void *ctx, pm_batch **out, paimon_error *err)
{
    rest_source *r = ctx;
    if (r->first != NULL) {
        *out = r->first;
        r->first = NULL;
        return 0;
    }
    if (r->inner.ctx == NULL)
        return PAIMON_ITEROVER;
    return r->inner.next(r->inner.ctx, out, err);
}

static void rest_release(void *ctx)
{
    rest_source *r = ctx;
    pm_batch_free(r->first);
    if (r->inner.ctx != NULL && r->inner.release != NULL)
        r->inner.release(r->inner.ctx);
    pm_type_free(r->type);
    pm_free(r);
}

/* The rows of the current batch after the current row, as a batch of their own (NULL when
 * there are none). */
PM_MUST_CHECK static int rest_of_batch(const paimon_cursor *c, pm_batch **out, paimon_error *err)
{
    uint8_t *select;
    int rc;
    *out = NULL;
    if (c->batch == NULL || c->row + 1 >= c->batch->row_count)
        return 0;
    if ((select = pm_calloc((size_t)c->batch->row_count, 1)) == NULL)
        return pm_nomem(err);
    memset(select + c->row + 1, 1, (size_t)(c->batch->row_count - c->row - 1));
    rc = pm_batch_filter(c->batch, select, out, err);
    pm_free(select);
    return rc;
}

PAIMON_API int paimon_cursor_arrow_stream(paimon_cursor *c, struct ArrowArrayStream *out,
                                          paimon_error *err)
{
    pm_batch_source src;
    rest_source *r;
    int rc;
    if (c == NULL || out == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_cursor_arrow_stream: no cursor");
    memset(out, 0, sizeof(*out));
    if ((r = pm_calloc(1, sizeof(*r))) == NULL)
        return pm_nomem(err);
    if ((r->type = pm_type_clone(c->cols.type)) == NULL) {
        pm_free(r);
        return pm_nomem(err);
    }
    if ((rc = rest_of_batch(c, &r->first, err)) != 0) {
        rest_release(r);
        return rc;
    }
    /* The rows now belong to the stream. */
    r->inner = c->src;
    c->src.ctx = NULL;
    pm_batch_free(c->batch);
    c->batch = NULL;
    memset(&src, 0, sizeof(src));
    src.next = rest_next;
    src.release = rest_release;
    src.ctx = r;
    src.type = r->type;
    return pm_arrow_stream_new(&src, out, err);
}
