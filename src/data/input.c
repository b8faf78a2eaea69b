/*
 * The input reader (data/input.h): sources, records, batches.
 *
 * Bytes come from the caller's buffer as they are, or from a FILE into `buf`, read
 * `read_len` bytes at a time.  The window data[pos..len) holds what is read and not yet
 * consumed; a record that crosses the end of the window is completed by moving the window
 * to the front of `buf` and reading more, so `buf` holds at most one record plus one read
 * (bounded by max_record_len, else PAIMON_ELIMIT).  The format files parse one record at a
 * time straight into the reader's batch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "data/input_int.h"
#include "util/alloc.h"
#include "util/utf8.h"

#define DEFAULT_BATCH_ROWS 4096
#define DEFAULT_MAX_RECORD ((size_t)64 << 20)
#define DEFAULT_READ_LEN   ((size_t)1 << 20)

/* ---- names and messages ---------------------------------------------------------------- */

int pm_input_format_parse(const char *name, pm_input_format *out, paimon_error *err)
{
    if (strcmp(name, "jsonl") == 0)
        *out = PM_INPUT_JSONL;
    else if (strcmp(name, "csv") == 0)
        *out = PM_INPUT_CSV;
    else if (strcmp(name, "debezium-json") == 0)
        *out = PM_INPUT_DEBEZIUM_JSON;
    else
        return pm_err_set(err, PAIMON_EINVALID,
                          "unknown input format '%s' (jsonl, csv or debezium-json)", name);
    return 0;
}

const char *pm_input_format_name(pm_input_format format)
{
    switch (format) {
    case PM_INPUT_JSONL: return "jsonl";
    case PM_INPUT_CSV: return "csv";
    case PM_INPUT_DEBEZIUM_JSON: return "debezium-json";
    }
    return "?";
}

const char *pm_input_show(char *out, const uint8_t *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0, i = 0, chars = 0;
    if (len == 0) {
        memcpy(out, "\"\"", 3); /* out holds PM_INPUT_SHOW_CAP bytes */
        return out;
    }
    while (i < len && chars < 48 && o + 8 < PM_INPUT_SHOW_CAP - 4) {
        uint8_t c = s[i];
        size_t seq = c < 0x80 ? 1 : pm_utf8_decode(s + i, len - i, NULL); /* 0: not UTF-8 */
        if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
            i++;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            out[o++] = '\\';
            out[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
            i++;
        } else if (c >= 0x80 && seq > 0) {
            memcpy(out + o, s + i, seq);
            o += seq;
            i += seq;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
            i++;
        }
        chars++;
    }
    if (i < len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

const char *pm_input_type_name(char *out, size_t cap, const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN: snprintf(out, cap, "BOOLEAN"); break;
    case PM_TYPE_TINYINT: snprintf(out, cap, "TINYINT"); break;
    case PM_TYPE_SMALLINT: snprintf(out, cap, "SMALLINT"); break;
    case PM_TYPE_INT: snprintf(out, cap, "INT"); break;
    case PM_TYPE_BIGINT: snprintf(out, cap, "BIGINT"); break;
    case PM_TYPE_FLOAT: snprintf(out, cap, "FLOAT"); break;
    case PM_TYPE_DOUBLE: snprintf(out, cap, "DOUBLE"); break;
    case PM_TYPE_DECIMAL: snprintf(out, cap, "DECIMAL(%d, %d)", t->precision, t->scale); break;
    case PM_TYPE_CHAR: snprintf(out, cap, "CHAR(%d)", t->length); break;
    case PM_TYPE_VARCHAR:
        if (t->length == PM_MAX_LENGTH)
            snprintf(out, cap, "STRING");
        else
            snprintf(out, cap, "VARCHAR(%d)", t->length);
        break;
    case PM_TYPE_BINARY: snprintf(out, cap, "BINARY(%d)", t->length); break;
    case PM_TYPE_VARBINARY:
        if (t->length == PM_MAX_LENGTH)
            snprintf(out, cap, "BYTES");
        else
            snprintf(out, cap, "VARBINARY(%d)", t->length);
        break;
    case PM_TYPE_DATE: snprintf(out, cap, "DATE"); break;
    case PM_TYPE_TIME: snprintf(out, cap, "TIME(%d)", t->precision); break;
    case PM_TYPE_TIMESTAMP: snprintf(out, cap, "TIMESTAMP(%d)", t->precision); break;
    case PM_TYPE_TIMESTAMP_LTZ:
        snprintf(out, cap, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", t->precision);
        break;
    case PM_TYPE_ARRAY: snprintf(out, cap, "ARRAY"); break;
    case PM_TYPE_MAP: snprintf(out, cap, "MAP"); break;
    case PM_TYPE_MULTISET: snprintf(out, cap, "MULTISET"); break;
    case PM_TYPE_ROW: snprintf(out, cap, "ROW"); break;
    default: snprintf(out, cap, "?"); break;
    }
    return out;
}

int pm_input_fail(pm_input_ctx *x, const char *fmt, ...)
{
    char where[512], msg[512];
    size_t o;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (x->line <= 0 && x->column == NULL) /* a value outside any input (pm_input_value) */
        return pm_err_set(x->err, PAIMON_EINVALID, "%s", msg);
    /* a value outside any input (pm_input_value) has a column but no line */
    o = x->line > 0 ? (size_t)snprintf(where, sizeof(where), "line %lld", (long long)x->line) : 0;
    if (x->column != NULL) {
        o += (size_t)snprintf(where + o, sizeof(where) - o, "%scolumn %s", o > 0 ? ", " : "",
                              x->column);
        for (int i = 0; i < x->depth && o < sizeof(where); i++) {
            const pm_input_step *st = &x->path[i];
            if (st->field != NULL)
                o += (size_t)snprintf(where + o, sizeof(where) - o, ".%s", st->field);
            else
                o +=
                    (size_t)snprintf(where + o, sizeof(where) - o, "[%lld]%s", (long long)st->index,
                                     st->part == 1   ? ".key"
                                     : st->part == 2 ? ".value"
                                                     : "");
        }
    }
    if (o >= sizeof(where))
        where[sizeof(where) - 1] = '\0';
    return pm_err_set(x->err, PAIMON_EINVALID, "%s: %s", where, msg);
}

int pm_input_value(pm_column *c, const char *column, const uint8_t *s, size_t len,
                   paimon_error *err)
{
    pm_input_ctx x;
    int rc;
    memset(&x, 0, sizeof(x));
    x.err = err;
    x.column = column;
    pm_buf_init(&x.unescaped, 0);
    pm_buf_init(&x.decoded, 0);
    rc = pm_input_text(&x, c, s, len, NULL);
    pm_buf_free(&x.unescaped);
    pm_buf_free(&x.decoded);
    return rc;
}

int pm_input_fail_buf(pm_input_ctx *x, int rc)
{
    if (rc == PAIMON_ELIMIT)
        return pm_err_set(x->err, PAIMON_ELIMIT, "line %lld: value too large for a batch",
                          (long long)x->line);
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(x->err);
    return pm_err_set(x->err, rc, "line %lld: cannot append the value", (long long)x->line);
}

int pm_input_kind_parse(const uint8_t *s, size_t len)
{
    if (len != 2)
        return -1;
    if (s[0] == '+' && s[1] == 'I')
        return PM_INPUT_KIND_INSERT;
    if (s[0] == '-' && s[1] == 'U')
        return PM_INPUT_KIND_UPDATE_BEFORE;
    if (s[0] == '+' && s[1] == 'U')
        return PM_INPUT_KIND_UPDATE_AFTER;
    if (s[0] == '-' && s[1] == 'D')
        return PM_INPUT_KIND_DELETE;
    return -1;
}

/* ---- bytes and lines ------------------------------------------------------------------- */

int pm_input_fill(pm_row_input *in)
{
    size_t keep, got;
    int rc;
    if (in->eof)
        return 0;
    if (in->file == NULL) {
        in->eof = true;
        return 0;
    }
    keep = in->len - in->pos;
    if (keep > in->max_record_len)
        return pm_err_set(&in->failure, PAIMON_ELIMIT, "line %lld: a record longer than %zu bytes",
                          (long long)in->line, in->max_record_len);
    /* move the unread bytes to the front, then read after them */
    if (in->pos > 0) {
        memmove(in->buf.data, in->buf.data + in->pos, keep);
        in->buf.len = keep;
        in->pos = 0;
    }
    if ((rc = pm_buf_reserve(&in->buf, in->read_len)) != 0)
        return rc == PAIMON_ENOMEM ? pm_nomem(&in->failure)
                                   : pm_err_set(&in->failure, rc, "input buffer limit");
    got = fread(in->buf.data + in->buf.len, 1, in->read_len, in->file);
    if (got == 0) {
        if (ferror(in->file))
            return pm_err_set(&in->failure, PAIMON_EIO, "line %lld: read error: %s",
                              (long long)in->line, strerror(errno));
        in->eof = true;
    }
    in->buf.len += got;
    in->data = in->buf.data;
    in->len = in->buf.len;
    return got > 0 ? 1 : 0;
}

int pm_input_next_line(pm_row_input *in, const uint8_t **s, size_t *len)
{
    size_t scanned = 0;
    for (;;) {
        const uint8_t *start = in->data + in->pos;
        size_t avail = in->len - in->pos;
        const uint8_t *nl = avail > scanned ? memchr(start + scanned, '\n', avail - scanned) : NULL;
        size_t n;
        int rc;
        if (nl != NULL || in->eof) {
            if (nl == NULL && avail == 0)
                return 0;
            n = nl != NULL ? (size_t)(nl - start) : avail;
            in->pos += nl != NULL ? n + 1 : n;
            if (n > 0 && start[n - 1] == '\r')
                n--;
            if (n > in->max_record_len)
                return pm_err_set(&in->failure, PAIMON_ELIMIT,
                                  "line %lld: a record longer than %zu bytes", (long long)in->line,
                                  in->max_record_len);
            *s = start;
            *len = n;
            in->ctx.line = in->line++;
            return 1;
        }
        scanned = avail;
        if ((rc = pm_input_fill(in)) < 0)
            return rc;
    }
}

/* ---- columns and rows ------------------------------------------------------------------ */

static uint32_t name_hash(const uint8_t *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

long pm_input_column_index(pm_row_input *in, const uint8_t *s, size_t len)
{
    const pm_type *row = in->row_type;
    size_t i;
    if (in->slots == NULL)
        return pm_input_field_index(row, s, len, 0);
    for (i = name_hash(s, len) & in->slot_mask; in->slots[i] != 0; i = (i + 1) & in->slot_mask) {
        size_t k = in->slots[i] - 1;
        if (in->name_len[k] == len && memcmp(row->fields[k].name, s, len) == 0)
            return (long)k;
    }
    return -1;
}

static int build_slots(pm_row_input *in)
{
    size_t n = in->row_type->field_count, cap = 16;
    while (cap < n * 2)
        cap *= 2;
    if ((in->slots = pm_calloc(cap, sizeof(uint32_t))) == NULL ||
        (in->seen = pm_calloc(n > 0 ? n : 1, sizeof(uint32_t))) == NULL ||
        (in->name_len = pm_calloc(n > 0 ? n : 1, sizeof(size_t))) == NULL ||
        (in->name_plain = pm_calloc(n > 0 ? n : 1, sizeof(bool))) == NULL ||
        (in->name_word = pm_calloc(n > 0 ? n : 1, sizeof(uint64_t))) == NULL)
        return PAIMON_ENOMEM;
    in->slot_mask = cap - 1;
    for (size_t k = 0; k < n; k++) {
        const char *name = in->row_type->fields[k].name;
        size_t i = name_hash((const uint8_t *)name, in->name_len[k] = strlen(name)) & in->slot_mask;
        memcpy(&in->name_word[k], name, in->name_len[k] < 8 ? in->name_len[k] : 8);
        in->name_plain[k] = true;
        for (const char *q = name; *q != '\0'; q++)
            if (*q == '"' || *q == '\\' || (uint8_t)*q < 0x20)
                in->name_plain[k] = false;
        while (in->slots[i] != 0)
            i = (i + 1) & in->slot_mask;
        in->slots[i] = (uint32_t)k + 1;
    }
    return 0;
}

void pm_input_row_begin(pm_row_input *in)
{
    if (++in->gen == 0) { /* wrapped: forget every mark */
        memset(in->seen, 0, in->row_type->field_count * sizeof(uint32_t));
        in->gen = 1;
    }
}

int pm_input_row_fill_nulls(pm_row_input *in)
{
    pm_input_ctx *x = &in->ctx;
    for (size_t k = 0; k < in->row_type->field_count; k++) {
        int rc;
        if (in->seen[k] == in->gen)
            continue;
        if (!in->row_type->fields[k].type->nullable) {
            x->column = in->row_type->fields[k].name;
            x->depth = 0;
            return pm_input_fail(x, "missing, but the column is NOT NULL");
        }
        if ((rc = pm_column_append_null(in->batch->columns[k])) != 0)
            return pm_input_fail_buf(x, rc);
    }
    return 0;
}

int pm_input_row_done(pm_row_input *in, int8_t kind)
{
    int64_t line = in->ctx.line;
    int rc;
    if (in->kinds.len + 1 < in->kinds.cap && in->lines.len + sizeof(line) < in->lines.cap) {
        in->kinds.data[in->kinds.len++] = (uint8_t)kind;
        memcpy(in->lines.data + in->lines.len, &line, sizeof(line));
        in->lines.len += sizeof(line);
        in->rows++;
        return 0;
    }
    if ((rc = pm_buf_append(&in->kinds, &kind, 1)) != 0 ||
        (rc = pm_buf_append(&in->lines, &line, sizeof(line))) != 0)
        return pm_input_fail_buf(&in->ctx, rc);
    in->rows++;
    return 0;
}

/* ---- open, next, free ------------------------------------------------------------------ */

PM_MUST_CHECK static int open_common(pm_row_input **out, pm_input_format format,
                                     const pm_type *row_type, const pm_input_options *opts,
                                     paimon_error *err)
{
    pm_row_input *in = NULL;
    int rc = 0;

    *out = NULL;
    if (row_type == NULL || row_type->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "input: the row type must be a ROW type");
    if (format != PM_INPUT_JSONL && format != PM_INPUT_CSV && format != PM_INPUT_DEBEZIUM_JSON)
        return pm_err_set(err, PAIMON_EINVALID, "input: unknown format %d", (int)format);
    if ((in = pm_calloc(1, sizeof(*in))) == NULL)
        return pm_nomem(err);
    in->format = format;
    in->batch_rows = opts != NULL && opts->batch_rows > 0 ? opts->batch_rows : DEFAULT_BATCH_ROWS;
    in->max_record_len =
        opts != NULL && opts->max_record_len > 0 ? opts->max_record_len : DEFAULT_MAX_RECORD;
    in->read_len = opts != NULL && opts->read_len > 0 ? opts->read_len : DEFAULT_READ_LEN;
    in->fast = opts == NULL || (opts->flags & PM_INPUT_NO_FAST_PATHS) == 0;
    in->line = 1;
    in->ctx.err = &in->failure;
    in->ctx.debezium = format == PM_INPUT_DEBEZIUM_JSON;
    pm_buf_init(&in->kinds, 0);
    pm_buf_init(&in->lines, 0);
    pm_buf_init(&in->buf, 0);
    pm_buf_init(&in->field, 0);
    pm_buf_init(&in->ctx.unescaped, 0);
    pm_buf_init(&in->ctx.decoded, 0);
    for (size_t k = 0; k < row_type->field_count; k++)
        if (pm_layout_of(row_type->fields[k].type, NULL) == PM_LAYOUT_NONE) {
            rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                            "column %s: VARIANT and BLOB values cannot be written yet",
                            row_type->fields[k].name);
            goto done;
        }
    if ((rc = pm_batch_new(&in->batch, row_type, err)) != 0) {
        /* the types are supported (checked above), so only memory can have failed */
        if (rc == PAIMON_EUNSUPPORTED)
            rc = pm_nomem(err);
        goto done;
    }
    in->row_type = in->batch->type; /* the batch's clone serves as ours */
    if (build_slots(in) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    *out = in;
    in = NULL;
done:
    pm_input_free(in);
    return rc;
}

int pm_input_open_file(pm_row_input **out, pm_input_format format, FILE *file,
                       const pm_type *row_type, const pm_input_options *opts, paimon_error *err)
{
    int rc = open_common(out, format, row_type, opts, err);
    if (rc == 0)
        (*out)->file = file;
    return rc;
}

int pm_input_open_buffer(pm_row_input **out, pm_input_format format, const void *data, size_t len,
                         const pm_type *row_type, const pm_input_options *opts, paimon_error *err)
{
    int rc = open_common(out, format, row_type, opts, err);
    if (rc == 0) {
        (*out)->data = len > 0 ? data : (const uint8_t *)"";
        (*out)->len = len;
        (*out)->eof = true;
    }
    return rc;
}

/* Cuts a column back to `len` slots, children included: undoes the part of a row that was
 * appended before the row failed.  Slots of a partly appended list or row go too. */
static void column_truncate(pm_column *c, int64_t len)
{
    int64_t child_len = len;
    if (c->validity.len > 0) {
        for (int64_t i = len; i < c->length; i++)
            c->null_count -= !pm_column_is_valid(c, i);
        if (c->null_count == 0) {
            c->validity.len = 0; /* no null left: back to no bitmap */
        } else {
            c->validity.len = (size_t)((len + 7) / 8);
            if (len % 8 != 0)
                c->validity.data[len / 8] &= (uint8_t)((1u << (len % 8)) - 1);
        }
    }
    switch (c->layout) {
    case PM_LAYOUT_BITS:
        if (c->values.len > (size_t)((len + 7) / 8))
            c->values.len = (size_t)((len + 7) / 8);
        if (len % 8 != 0 && c->values.len > 0)
            c->values.data[len / 8] &= (uint8_t)((1u << (len % 8)) - 1);
        break;
    case PM_LAYOUT_FIXED: c->values.len = (size_t)len * c->width; break;
    case PM_LAYOUT_VAR:
        c->values.len = (size_t)pm_column_offset(c, len);
        c->offsets.len = (size_t)(len + 1) * 4;
        break;
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP:
        child_len = pm_column_offset(c, len);
        c->offsets.len = (size_t)(len + 1) * 4;
        break;
    default: break;
    }
    for (size_t k = 0; k < c->child_count; k++)
        column_truncate(c->children[k], child_len);
    c->length = len;
}

/* Skips a UTF-8 byte-order mark at the very start (spreadsheets write one). */
static int skip_bom(pm_row_input *in)
{
    int rc;
    while (in->len - in->pos < 3 && !in->eof)
        if ((rc = pm_input_fill(in)) < 0)
            return rc;
    if (in->len - in->pos >= 3 && memcmp(in->data + in->pos, "\xef\xbb\xbf", 3) == 0)
        in->pos += 3;
    return 0;
}

int pm_input_next(pm_row_input *in, pm_batch **batch, const int8_t **kinds, paimon_error *err)
{
    int rc = 0;

    *batch = NULL;
    *kinds = NULL;
    if (in->state == 2) {
        if (err != NULL)
            *err = in->failure;
        return in->failure.code;
    }
    if (in->state == 1)
        return PAIMON_ITEROVER;
    pm_batch_reset(in->batch);
    pm_buf_reset(&in->kinds);
    pm_buf_reset(&in->lines);
    in->rows = 0;
    if (!in->started) {
        in->started = true;
        if ((rc = skip_bom(in)) < 0)
            goto done;
    }
    while (in->rows < in->batch_rows) {
        in->ctx.column = NULL;
        in->ctx.depth = 0;
        switch (in->format) {
        case PM_INPUT_JSONL: rc = pm_input_jsonl_record(in); break;
        case PM_INPUT_CSV: rc = pm_input_csv_record(in); break;
        default: rc = pm_input_debezium_record(in); break;
        }
        if (rc < 0)
            goto done;
        if (rc == 0) {
            in->state = 1;
            break;
        }
    }
    if ((rc = pm_batch_set_rows(in->batch, in->rows, &in->failure)) != 0)
        goto done;
    if (in->rows == 0)
        return PAIMON_ITEROVER;
    *batch = in->batch;
    *kinds = (const int8_t *)in->kinds.data;
    return 0;
done:
    in->state = 2;
    if (in->failure.code == 0) /* a code without a message: give it one */
        pm_err_set(&in->failure, rc, "line %lld: input error", (long long)in->line);
    if (in->rows > 0) {
        /* hand out the rows before the bad record; the error comes with the next call */
        for (size_t k = 0; k < in->batch->column_count; k++)
            column_truncate(in->batch->columns[k], in->rows);
        in->batch->row_count = in->rows;
        *batch = in->batch;
        *kinds = (const int8_t *)in->kinds.data;
        return 0;
    }
    if (err != NULL)
        *err = in->failure;
    return in->failure.code;
}

int64_t pm_input_row_line(const pm_row_input *in, int64_t row)
{
    int64_t v;
    if (row < 0 || (size_t)(row + 1) * sizeof(int64_t) > in->lines.len)
        return 0;
    memcpy(&v, in->lines.data + (size_t)row * sizeof(int64_t), sizeof(v));
    return v;
}

void pm_input_free(pm_row_input *in)
{
    if (in == NULL)
        return;
    pm_batch_free(in->batch);
    pm_buf_free(&in->kinds);
    pm_buf_free(&in->lines);
    pm_buf_free(&in->buf);
    pm_buf_free(&in->field);
    pm_buf_free(&in->ctx.unescaped);
    pm_buf_free(&in->ctx.decoded);
    pm_free(in->slots);
    pm_free(in->seen);
    pm_free(in->name_len);
    pm_free(in->name_plain);
    pm_free(in->name_word);
    pm_free(in->csv_cols);
    pm_input_debezium_free(in->dbz);
    pm_free(in);
}
