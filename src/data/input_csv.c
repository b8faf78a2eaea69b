/*
 * CSV input (RFC 4180) and the matching field writer.
 *
 * The first record is the header: it names the columns (any order; unknown or repeated
 * names are errors; columns it does not name are NULL, an error for NOT NULL columns), and
 * may name `_ROW_KIND`.  Every later record has exactly as many fields.  Records end at LF
 * or CRLF outside quotes; a field that starts with a quote is quoted, may hold commas,
 * quotes (doubled) and line breaks, and must be followed by a comma or the record's end.
 * An empty unquoted field is NULL and `""` is the empty string.  Values are the canonical
 * text (input_text.c), nested values their canonical JSON.  An empty line is skipped,
 * except when the header has a single column: then it is a row whose value is NULL, as
 * `paimon cat --format csv` prints such a row.
 */
#include "data/input_int.h"
#include "util/alloc.h"

int pm_input_csv_field(pm_buf *out, const char *text, size_t len)
{
    bool quote = len == 0 || text[0] == ' ' || text[len - 1] == ' ';
    int rc;
    for (size_t i = 0; !quote && i < len; i++)
        quote = text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n';
    if (!quote)
        return pm_buf_append(out, text, len);
    if ((rc = pm_buf_putc(out, '"')) != 0)
        return rc;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"' && (rc = pm_buf_putc(out, '"')) != 0)
            return rc;
        if ((rc = pm_buf_putc(out, (uint8_t)text[i])) != 0)
            return rc;
    }
    return pm_buf_putc(out, '"');
}

/* Finds the next record: data[pos..pos+*len) without its line break, consumed; in->line
 * moves past the physical lines it spans.  1, 0 at the end, or an error (an unterminated
 * quote, a record over max_record_len). */
static int next_record(pm_row_input *in, const uint8_t **s, size_t *len)
{
    size_t i = 0;            /* scan offset from pos */
    bool quoted = false;     /* inside a quoted field */
    bool field_start = true; /* at the first byte of a field */
    int64_t breaks = 0;      /* line breaks inside quotes */
    int rc;
    for (;;) {
        const uint8_t *d = in->data + in->pos;
        size_t avail = in->len - in->pos;
        while (i < avail) {
            if (quoted) {
                const uint8_t *q = memchr(d + i, '"', avail - i);
                for (const uint8_t *k = d + i; k < (q != NULL ? q : d + avail); k++)
                    breaks += *k == '\n';
                if (q == NULL) {
                    i = avail;
                    break;
                }
                i = (size_t)(q - d);
                if (i + 1 >= avail && !in->eof)
                    break; /* need the next byte to tell "" from the closing quote */
                if (i + 1 < avail && d[i + 1] == '"') {
                    i += 2;
                    continue;
                }
                quoted = false;
                i++;
                continue;
            }
            /* unquoted: the line break ends the record unless a quote opens a field first */
            {
                const uint8_t *nl = memchr(d + i, '\n', avail - i);
                const uint8_t *stop = nl != NULL ? nl : d + avail;
                const uint8_t *q = memchr(d + i, '"', (size_t)(stop - (d + i)));
                if (q != NULL) {
                    size_t at = (size_t)(q - d);
                    /* a quote opens a field only at its first byte */
                    if (at == i ? field_start : d[at - 1] == ',')
                        quoted = true;
                    field_start = false;
                    i = at + 1;
                    continue;
                }
                if (nl == NULL) {
                    field_start = avail > i ? d[avail - 1] == ',' : field_start;
                    i = avail;
                    break;
                }
                i = (size_t)(nl - d);
            }
            if (i > in->max_record_len)
                break; /* reported below */
            {
                size_t n = i;
                if (n > 0 && d[n - 1] == '\r')
                    n--;
                *s = d;
                *len = n;
                in->pos += i + 1;
                in->ctx.line = in->line;
                in->line += 1 + breaks;
                return 1;
            }
        }
        if (i > in->max_record_len) {
            in->ctx.line = in->line;
            return pm_err_set(&in->failure, PAIMON_ELIMIT,
                              "line %lld: a record longer than %zu bytes", (long long)in->line,
                              in->max_record_len);
        }
        if (in->eof) {
            if (quoted) {
                in->ctx.line = in->line;
                return pm_input_fail(&in->ctx, "a quoted field is not closed");
            }
            if (avail == 0)
                return 0;
            *s = d;
            *len = avail > 0 && d[avail - 1] == '\r' ? avail - 1 : avail;
            in->pos += avail;
            in->ctx.line = in->line;
            in->line += 1 + breaks;
            return 1;
        }
        if ((rc = pm_input_fill(in)) < 0)
            return rc;
    }
}

/* One field at *p (record end `end`): its text in *fs and *fn, *null for an empty unquoted
 * field.  *p moves past the field and its comma; *last tells the record's last field. */
static int next_field(pm_row_input *in, const uint8_t **p, const uint8_t *end, const uint8_t **fs,
                      size_t *fn, bool *null, bool *last)
{
    pm_input_ctx *x = &in->ctx;
    const uint8_t *a = *p;
    *null = false;
    if (a < end && *a == '"') {
        const uint8_t *q = a + 1, *run = q;
        bool doubled = false;
        pm_buf_reset(&in->field);
        for (;;) {
            const uint8_t *e = memchr(q, '"', (size_t)(end - q));
            if (e == NULL)
                return pm_input_fail(x, "a quoted field is not closed");
            if (e + 1 < end && e[1] == '"') {
                if (pm_buf_append(&in->field, run, (size_t)(e + 1 - run)) != 0)
                    return pm_input_fail_buf(x, PAIMON_ENOMEM);
                doubled = true;
                q = run = e + 2;
                continue;
            }
            if (doubled) {
                if (pm_buf_append(&in->field, run, (size_t)(e - run)) != 0)
                    return pm_input_fail_buf(x, PAIMON_ENOMEM);
                *fs = in->field.data != NULL ? in->field.data : (const uint8_t *)"";
                *fn = in->field.len;
            } else {
                *fs = a + 1;
                *fn = (size_t)(e - a - 1);
            }
            q = e + 1;
            break;
        }
        if (q == end) {
            *last = true;
            *p = q;
            return 0;
        }
        if (*q != ',') {
            char shown[PM_INPUT_SHOW_CAP];
            return pm_input_fail(x,
                                 "unexpected %s after a closing quote (a quoted field ends "
                                 "with a quote and a comma)",
                                 pm_input_show(shown, q, (size_t)(end - q)));
        }
        *last = false;
        *p = q + 1;
        return 0;
    }
    {
        const uint8_t *comma = memchr(a, ',', (size_t)(end - a));
        const uint8_t *e = comma != NULL ? comma : end;
        if (memchr(a, '"', (size_t)(e - a)) != NULL) {
            /* the field did not start with the quote (that is the quoted branch above) */
            char shown[PM_INPUT_SHOW_CAP];
            return pm_input_fail(x,
                                 "%s has a quote inside an unquoted field (quote the field "
                                 "and double the quote)",
                                 pm_input_show(shown, a, (size_t)(e - a)));
        }
        *fs = a;
        *fn = (size_t)(e - a);
        *null = e == a;
        *last = comma == NULL;
        *p = comma != NULL ? comma + 1 : end;
        return 0;
    }
}

static int read_header(pm_row_input *in)
{
    pm_input_ctx *x = &in->ctx;
    const uint8_t *s, *p, *end;
    size_t n, cap = 16;
    bool kind_seen = false;
    int rc;

    if ((rc = next_record(in, &s, &n)) <= 0)
        return rc;
    if ((in->csv_cols = pm_malloc(cap * sizeof(long))) == NULL)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    pm_input_row_begin(in);
    p = s;
    end = s + n;
    for (;;) {
        const uint8_t *fs;
        size_t fn;
        bool null, last;
        long col;
        if ((rc = next_field(in, &p, end, &fs, &fn, &null, &last)) != 0)
            return rc;
        col = pm_input_column_index(in, fs, fn);
        if (col < 0) {
            char shown[PM_INPUT_SHOW_CAP];
            if (fn != 9 || memcmp(fs, "_ROW_KIND", 9) != 0)
                return pm_input_fail(x, "unknown column \"%s\" in the header",
                                     pm_input_show(shown, fs, fn));
            if (kind_seen)
                return pm_input_fail(x, "_ROW_KIND appears twice in the header");
            kind_seen = true;
        } else {
            if (in->seen[col] == in->gen)
                return pm_input_fail(x, "column %s appears twice in the header",
                                     in->row_type->fields[col].name);
            in->seen[col] = in->gen;
        }
        if (in->csv_field_count == cap) {
            long *grown = pm_realloc(in->csv_cols, cap * 2 * sizeof(long));
            if (grown == NULL)
                return pm_input_fail_buf(x, PAIMON_ENOMEM);
            in->csv_cols = grown;
            cap *= 2;
        }
        in->csv_cols[in->csv_field_count++] = col;
        if (last)
            break;
    }
    in->csv_all_columns = true;
    for (size_t k = 0; k < in->row_type->field_count; k++) {
        if (in->seen[k] == in->gen)
            continue;
        in->csv_all_columns = false;
        if (!in->row_type->fields[k].type->nullable)
            return pm_input_fail(x, "column %s is NOT NULL, but the header does not name it",
                                 in->row_type->fields[k].name);
    }
    in->header_done = true;
    return 1;
}

int pm_input_csv_record(pm_row_input *in)
{
    pm_input_ctx *x = &in->ctx;
    const uint8_t *s, *p, *end;
    size_t n, k = 0;
    int8_t kind = PM_INPUT_KIND_INSERT;
    int rc;

    if (!in->header_done && (rc = read_header(in)) <= 0)
        return rc;
    do {
        if ((rc = next_record(in, &s, &n)) <= 0)
            return rc;
    } while (n == 0 && in->csv_field_count > 1);
    pm_input_row_begin(in);
    p = s;
    end = s + n;
    for (;; k++) {
        const uint8_t *fs;
        size_t fn;
        bool null, last;
        long col;
        if (k >= in->csv_field_count)
            return pm_input_fail(x, "more fields than the %zu of the header", in->csv_field_count);
        col = in->csv_cols[k];
        x->column = col >= 0 ? in->row_type->fields[col].name : NULL;
        if ((rc = next_field(in, &p, end, &fs, &fn, &null, &last)) != 0)
            return rc;
        if (col < 0) {
            int kk = null ? PM_INPUT_KIND_INSERT : pm_input_kind_parse(fs, fn);
            if (kk < 0) {
                char shown[PM_INPUT_SHOW_CAP];
                return pm_input_fail(x, "_ROW_KIND must be +I, -U, +U or -D, not %s",
                                     pm_input_show(shown, fs, fn));
            }
            kind = (int8_t)kk;
        } else {
            pm_column *c = in->batch->columns[col];
            in->seen[col] = in->gen;
            if (null)
                rc = pm_input_put_null(x, c);
            else if ((rc = in->fast ? pm_input_fast_text(x, c, fs, fn) : 0) == 0)
                rc = pm_input_text(x, c, fs, fn, NULL);
            else
                rc = rc < 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
            if (rc != 0)
                return rc;
        }
        x->column = NULL;
        if (last)
            break;
    }
    if (k + 1 < in->csv_field_count)
        return pm_input_fail(x, "%zu field%s, but the header has %zu", k + 1, k == 0 ? "" : "s",
                             in->csv_field_count);
    if ((in->csv_all_columns ? 0 : (rc = pm_input_row_fill_nulls(in))) != 0 ||
        (rc = pm_input_row_done(in, kind)) != 0)
        return rc;
    return 1;
}
