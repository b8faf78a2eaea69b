/*
 * The fast read path of the `paimon` module: rows taken from the cursor's Arrow stream
 * (paimon/arrow.h) instead of one canonical text per value.
 *
 * SQLite reads a virtual table a value at a time, so the per-value cost decides whether the
 * module or SQLite's engine is the bottleneck (docs/PERFORMANCE.md, "SQL").  When every
 * column a scan reads is an integer, BOOLEAN, DOUBLE, string or binary column, its values
 * go from the Arrow buffers straight into sqlite3_result_*(): the same values the text path
 * gives (values.c), without formatting and parsing them.  Other columns (FLOAT, whose REAL
 * is the double of its shortest text; DECIMAL; dates and times; nested types) and
 * primary-key tables (whose UPDATE and DELETE capture old rows from the cursor) keep the
 * text path.
 *
 * Arrow layout (the C Data Interface): a batch is a struct array whose children are the
 * columns; child value i of batch row r is at index parent.offset + r + child.offset;
 * buffers[0] is the validity bitmap (NULL: no nulls), buffers[1] the values (or the offsets
 * of strings, whose bytes are buffers[2]).
 */
#include <string.h>

#include "sqlite_int.h"

int ps_batch_supported(const ps_column *col)
{
    return col->cls == PS_INT || col->cls == PS_BOOL || col->cls == PS_DOUBLE ||
           col->cls == PS_TEXT || col->cls == PS_BLOB;
}

static int format_ok(const char *f)
{
    static const char *const OK[] = {"c", "s", "i", "l", "b", "g", "u", "U", "z", "Z"};
    for (size_t i = 0; i < sizeof(OK) / sizeof(OK[0]); i++)
        if (strcmp(f, OK[i]) == 0)
            return 1;
    return 0;
}

int ps_batch_open(ps_batch *b, paimon_cursor *cur, char **errmsg)
{
    paimon_error err = {0, {0}};
    struct ArrowSchema schema;
    memset(b, 0, sizeof(*b));
    if (paimon_cursor_arrow_stream(cur, &b->stream, &err) != 0) {
        *errmsg = sqlite3_mprintf("%s", err.message);
        return SQLITE_ERROR;
    }
    if (b->stream.get_schema(&b->stream, &schema) != 0) {
        *errmsg = sqlite3_mprintf("%s", b->stream.get_last_error(&b->stream));
        return SQLITE_ERROR;
    }
    b->column_count = (size_t)schema.n_children;
    for (size_t i = 0; i < b->column_count && i < PS_BATCH_MAX_COLUMNS; i++)
        b->formats[i] = schema.children[i]->format[0];
    int ok = b->column_count <= PS_BATCH_MAX_COLUMNS;
    for (size_t i = 0; ok && i < b->column_count; i++)
        ok = format_ok(schema.children[i]->format);
    schema.release(&schema);
    if (!ok) {
        *errmsg = sqlite3_mprintf("paimon: an Arrow column format the module does not read");
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

int ps_batch_next(ps_batch *b, int *eof, char **errmsg)
{
    if (b->array.release != NULL && b->row + 1 < b->array.length) {
        b->row++;
        *eof = 0;
        return SQLITE_OK;
    }
    for (;;) {
        if (b->array.release != NULL)
            b->array.release(&b->array);
        memset(&b->array, 0, sizeof(b->array));
        if (b->stream.get_next(&b->stream, &b->array) != 0) {
            *errmsg = sqlite3_mprintf("%s", b->stream.get_last_error(&b->stream));
            return SQLITE_ERROR;
        }
        if (b->array.release == NULL) { /* the end of the stream */
            *eof = 1;
            return SQLITE_OK;
        }
        if (b->array.length > 0)
            break;
    }
    b->row = 0;
    *eof = 0;
    return SQLITE_OK;
}

static int bit(const void *bitmap, int64_t i)
{
    return (((const uint8_t *)bitmap)[i >> 3] >> (i & 7)) & 1;
}

void ps_batch_result(const ps_batch *b, sqlite3_context *ctx, size_t column)
{
    const struct ArrowArray *ch = b->array.children[column];
    int64_t i = b->array.offset + b->row + ch->offset;
    if (ch->null_count != 0 && ch->buffers[0] != NULL && !bit(ch->buffers[0], i)) {
        sqlite3_result_null(ctx);
        return;
    }
    const void *v = ch->buffers[1];
    switch (b->formats[column]) {
    case 'c': sqlite3_result_int(ctx, ((const int8_t *)v)[i]); return;
    case 's': sqlite3_result_int(ctx, ((const int16_t *)v)[i]); return;
    case 'i': sqlite3_result_int(ctx, ((const int32_t *)v)[i]); return;
    case 'l': sqlite3_result_int64(ctx, ((const int64_t *)v)[i]); return;
    case 'b': sqlite3_result_int(ctx, bit(v, i)); return;
    case 'g':
        if (((const double *)v)[i] != ((const double *)v)[i])
            sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC); /* as values.c */
        else
            sqlite3_result_double(ctx, ((const double *)v)[i]);
        return;
    case 'u':
    case 'z': {
        const int32_t *off = v;
        const char *data = (const char *)ch->buffers[2] + off[i];
        int len = off[i + 1] - off[i];
        if (b->formats[column] == 'u')
            sqlite3_result_text(ctx, data, len, SQLITE_TRANSIENT);
        else
            sqlite3_result_blob(ctx, data, len, SQLITE_TRANSIENT);
        return;
    }
    case 'U':
    case 'Z': {
        const int64_t *off = v;
        const char *data = (const char *)ch->buffers[2] + off[i];
        sqlite3_int64 len = off[i + 1] - off[i];
        if (b->formats[column] == 'U')
            sqlite3_result_text64(ctx, data, (sqlite3_uint64)len, SQLITE_TRANSIENT, SQLITE_UTF8);
        else
            sqlite3_result_blob64(ctx, data, (sqlite3_uint64)len, SQLITE_TRANSIENT);
        return;
    }
    default: sqlite3_result_null(ctx); return;
    }
}

void ps_batch_close(ps_batch *b)
{
    if (b->array.release != NULL)
        b->array.release(&b->array);
    if (b->stream.release != NULL)
        b->stream.release(&b->stream);
    memset(b, 0, sizeof(*b));
}
