/*
 * JSONL input: one canonical row object per line (shared/spec/canonical-rows.md), keys
 * matched to columns by name in any order, plus an optional "_ROW_KIND" ("+I", "-U", "+U",
 * "-D"; null or absent means +I).  Blank lines are skipped.  The row's values go straight
 * into the batch's columns; a key is first compared with the column after the previous
 * one (rows printed in schema order hit it every time), then looked up by hash.
 */
#include "data/input_int.h"

static int row_kind(pm_row_input *in, pm_input_cur *c, int8_t *kind)
{
    pm_input_ctx *x = &in->ctx;
    const uint8_t *s;
    size_t n;
    int k, rc;
    pm_input_ws(c);
    if (c->end - c->p >= 4 && memcmp(c->p, "null", 4) == 0) {
        c->p += 4;
        *kind = PM_INPUT_KIND_INSERT;
        return 0;
    }
    if (c->p >= c->end || *c->p != '"')
        return pm_input_json_wrong(x, c, "_ROW_KIND \"+I\", \"-U\", \"+U\" or \"-D\"");
    if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) != 0)
        return rc;
    if ((k = pm_input_kind_parse(s, n)) < 0) {
        char shown[PM_INPUT_SHOW_CAP];
        return pm_input_fail(x, "_ROW_KIND must be \"+I\", \"-U\", \"+U\" or \"-D\", not \"%s\"",
                             pm_input_show(shown, s, n));
    }
    *kind = (int8_t)k;
    return 0;
}

/* Is the key at a (a_end the end of the line) the name of column k?  Names shorter than 8
 * bytes compare as one masked 8-byte word. */
static bool same(const pm_row_input *in, size_t k, const uint8_t *a, const uint8_t *a_end)
{
    size_t n = in->name_len[k];
    if (n < 8 && a_end - a >= 8) {
        uint64_t w;
        memcpy(&w, a, 8);
        return ((w ^ in->name_word[k]) & ((1ull << (n * 8)) - 1)) == 0;
    }
    return memcmp(a, in->row_type->fields[k].name, n) == 0;
}

/* The column of key s[0..n): the hinted column first, then the hash. */
static long column_of(pm_row_input *in, const uint8_t *s, size_t n, size_t hint)
{
    const pm_type *row = in->row_type;
    if (hint < row->field_count && in->name_len[hint] == n &&
        memcmp(row->fields[hint].name, s, n) == 0)
        return (long)hint;
    return pm_input_column_index(in, s, n);
}

int pm_input_jsonl_record(pm_row_input *in)
{
    pm_input_ctx *x = &in->ctx;
    pm_input_cur c;
    const uint8_t *line;
    size_t n, hint = 0, set = 0;
    int8_t kind = PM_INPUT_KIND_INSERT;
    bool kind_seen = false;
    int rc;

    do {
        if ((rc = pm_input_next_line(in, &line, &n)) <= 0)
            return rc;
        c.p = line;
        c.end = line + n;
        pm_input_ws(&c);
    } while (c.p == c.end);
    if (*c.p != '{')
        return pm_input_json_wrong(x, &c, "a JSON object (one row per line)");
    c.p++;
    pm_input_row_begin(in);
    pm_input_ws(&c);
    if (c.p < c.end && *c.p == '}') {
        c.p++;
    } else {
        for (;;) {
            const uint8_t *key;
            size_t klen;
            long col;
            pm_input_ws(&c);
            if (c.p >= c.end || *c.p != '"')
                return pm_input_json_wrong(x, &c, "a column name");
            /* keys in schema order: compare the raw bytes with the next column's name */
            if (hint < in->row_type->field_count && in->name_plain[hint] &&
                (size_t)(c.end - c.p) > in->name_len[hint] + 1 &&
                c.p[in->name_len[hint] + 1] == '"' && same(in, hint, c.p + 1, c.end)) {
                col = (long)hint;
                key = c.p + 1;
                klen = in->name_len[hint];
                c.p += klen + 2;
            } else {
                if ((rc = pm_input_json_string(x, &c, &x->unescaped, &key, &klen)) != 0)
                    return rc;
                col = column_of(in, key, klen, hint);
            }
            pm_input_ws(&c);
            if (c.p >= c.end || *c.p != ':')
                return pm_input_json_wrong(x, &c, "':'");
            c.p++;
            if (col < 0) {
                char shown[PM_INPUT_SHOW_CAP];
                if (klen != 9 || memcmp(key, "_ROW_KIND", 9) != 0)
                    return pm_input_fail(x, "unknown column \"%s\"",
                                         pm_input_show(shown, key, klen));
                if (kind_seen)
                    return pm_input_fail(x, "_ROW_KIND appears twice");
                kind_seen = true;
                if ((rc = row_kind(in, &c, &kind)) != 0)
                    return rc;
            } else {
                if (in->seen[col] == in->gen)
                    return pm_input_fail(x, "column %s appears twice",
                                         in->row_type->fields[col].name);
                in->seen[col] = in->gen;
                set++;
                x->column = in->row_type->fields[col].name;
                rc = in->fast ? pm_input_fast_json(x, &c, in->batch->columns[col]) : 0;
                if (rc < 0)
                    return pm_input_fail_buf(x, PAIMON_ENOMEM);
                if (rc == 0 &&
                    (rc = pm_input_json_value(x, &c, in->batch->columns[col], NULL)) != 0)
                    return rc;
                x->column = NULL;
                hint = (size_t)col + 1;
            }
            pm_input_ws(&c);
            if (c.p < c.end && *c.p == ',') {
                c.p++;
                continue;
            }
            if (c.p < c.end && *c.p == '}') {
                c.p++;
                break;
            }
            return pm_input_json_wrong(x, &c, "',' or '}'");
        }
    }
    pm_input_ws(&c);
    if (c.p != c.end)
        return pm_input_json_wrong(x, &c, "the end of the line after the row object");
    if (set < in->row_type->field_count && (rc = pm_input_row_fill_nulls(in)) != 0)
        return rc;
    if ((rc = pm_input_row_done(in, kind)) != 0)
        return rc;
    return 1;
}
