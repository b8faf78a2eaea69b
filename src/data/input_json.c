/*
 * JSON values into columns: a small tokenizer for the canonical row form (RFC 8259 syntax,
 * checked strictly) that appends each value straight into its column, nested types
 * included, without building a document.
 *
 * What each type accepts (docs/format/input.md): null for any nullable type; BOOLEAN true or
 * false; integers as integer literals; FLOAT/DOUBLE numbers or the strings "NaN",
 * "Infinity", "-Infinity"; DECIMAL strings or numbers; the other atomic types strings in
 * their canonical text (input_text.c); ARRAY a JSON array; MAP an array of [key, value]
 * pairs or, as Flink and Debezium write maps, an object whose keys are the keys' text;
 * MULTISET an array of [element, count] pairs; ROW an object keyed by field name (missing
 * fields null, unknown fields an error).  With a Debezium encoding, numbers may also be
 * epoch days/millis/micros/nanos and Decimals base64 or {"scale", "value"} objects.
 */
#include <stdio.h>

#include "data/input_int.h"
#include "util/alloc.h"
#include "util/utf8.h"

/* ---- tokens ---------------------------------------------------------------------------- */

static int hex4(const uint8_t *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* Decodes the escapes of a string whose raw content is [a, end) into `out` (or only checks
 * them when `out` is NULL); `end` is the closing quote.  Returns 0 or an error. */
static int unescape(pm_input_ctx *x, const uint8_t *a, const uint8_t *end, pm_buf *out)
{
    const uint8_t *p = a;
    int rc = 0;
    if (out != NULL)
        pm_buf_reset(out);
    while (rc == 0 && p < end) {
        const uint8_t *run = p;
        uint32_t cp, lo;
        uint8_t ch = 0;
        while (p < end && *p != '\\')
            p++;
        if (out != NULL && p > run && (rc = pm_buf_append(out, run, (size_t)(p - run))) != 0)
            break;
        if (p == end)
            break;
        /* p is on a backslash; the scanner guaranteed a character follows */
        switch (p[1]) {
        case '"': ch = '"'; break;
        case '\\': ch = '\\'; break;
        case '/': ch = '/'; break;
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        case 'u':
            if (end - p < 6 || hex4(p + 2, &cp) != 0)
                return pm_input_fail(x, "bad \\u escape in a string");
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) != 0 ||
                    lo < 0xdc00 || lo > 0xdfff)
                    return pm_input_fail(x, "lone surrogate \\u%04X in a string", (unsigned)cp);
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                p += 6;
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                return pm_input_fail(x, "lone surrogate \\u%04X in a string", (unsigned)cp);
            }
            if (out != NULL)
                rc = pm_utf8_put(out, cp); /* never a surrogate: paired above */
            p += 6;
            continue;
        default:
            return pm_input_fail(x, "bad escape \\%c in a string",
                                 p[1] >= 0x20 && p[1] < 0x7f ? p[1] : '?');
        }
        if (out != NULL)
            rc = pm_buf_putc(out, ch);
        p += 2;
    }
    return rc != 0 ? pm_input_fail_buf(x, rc) : 0;
}

int pm_input_json_string(pm_input_ctx *x, pm_input_cur *c, pm_buf *scratch, const uint8_t **s,
                         size_t *len)
{
    const uint8_t *a = c->p + 1, *p = a, *end = c->end;
    bool escaped = false;
    for (;;) {
        /* the common case: plain bytes up to the closing quote, 8 at a time while no byte
         * is a quote, a backslash or a control character */
        while (end - p >= 8) {
            uint64_t w, q, b, hit;
            memcpy(&w, p, 8);
            q = w ^ 0x2222222222222222ull; /* zero bytes where '"' */
            b = w ^ 0x5c5c5c5c5c5c5c5cull; /* zero bytes where '\\' */
            hit = (((q - 0x0101010101010101ull) & ~q) | ((b - 0x0101010101010101ull) & ~b) |
                   ((w - 0x2020202020202020ull) & ~w)) &
                  0x8080808080808080ull;
            if (hit != 0) {
                /* the lowest flagged byte is a real match (borrows only run upwards) */
                p += __builtin_ctzll(hit) >> 3;
                break;
            }
            p += 8;
        }
        while (p < end && *p != '"' && *p != '\\' && *p >= 0x20)
            p++;
        if (p == end)
            return pm_input_fail(x, "unterminated string");
        if (*p == '"')
            break;
        if (*p < 0x20)
            return pm_input_fail(x, "raw control character 0x%02x in a string (escape it)", *p);
        /* a backslash: skip it and the escaped character */
        escaped = true;
        if (end - p < 2)
            return pm_input_fail(x, "unterminated string");
        p += 2;
    }
    c->p = p + 1;
    if (scratch == NULL)
        return escaped ? unescape(x, a, p, NULL) : 0;
    if (!escaped) {
        *s = a;
        *len = (size_t)(p - a);
        return 0;
    }
    {
        int rc = unescape(x, a, p, scratch);
        if (rc != 0)
            return rc;
        *s = scratch->data != NULL ? scratch->data : (const uint8_t *)"";
        *len = scratch->len;
        return 0;
    }
}

const uint8_t *pm_input_json_number_end(const uint8_t *p, const uint8_t *end, bool *is_integer)
{
    *is_integer = true;
    if (p < end && *p == '-')
        p++;
    if (p == end)
        return NULL;
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    } else {
        return NULL;
    }
    if (p < end && *p == '.') {
        const uint8_t *d = ++p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == d)
            return NULL;
        *is_integer = false;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        const uint8_t *d;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        d = p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == d)
            return NULL;
        *is_integer = false;
    }
    /* a number must end at a delimiter: "12x" and "0123" are malformed */
    if (p < end && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
                    (*p >= 'A' && *p <= 'Z') || *p == '.' || *p == '-' || *p == '+'))
        return NULL;
    return p;
}

static bool literal(pm_input_cur *c, const char *lit, size_t n)
{
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
        return false;
    if ((size_t)(c->end - c->p) > n) {
        uint8_t d = c->p[n];
        if ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || (d >= '0' && d <= '9'))
            return false;
    }
    c->p += n;
    return true;
}

int pm_input_json_wrong(pm_input_ctx *x, pm_input_cur *c, const char *expected)
{
    char shown[160];
    const uint8_t *p = c->p, *e = p;
    if (p >= c->end)
        return pm_input_fail(x, "expected %s, the line ends", expected);
    /* show the token: a string to its closing quote, a container to its closing bracket,
     * anything else to a delimiter; at most 40 bytes */
    if (*p == '"') {
        e = p + 1;
        while (e < c->end && e - p < 40 && *e != '"')
            e++;
        if (e < c->end && *e == '"')
            e++;
    } else if (*p == '[' || *p == '{') {
        int depth = 0;
        for (; e < c->end && e - p < 40; e++) {
            depth += (*e == '[' || *e == '{') - (*e == ']' || *e == '}');
            if (depth == 0) {
                e++;
                break;
            }
        }
    } else {
        while (e < c->end && e - p < 40 && *e != ',' && *e != '}' && *e != ']' && *e != ' ')
            e++;
        if (e == p)
            e = p + 1;
    }
    return pm_input_fail(x, "expected %s, got %s", expected,
                         pm_input_show(shown, p, (size_t)(e - p)));
}

int pm_input_json_members(pm_input_ctx *x, pm_input_cur *c, pm_buf *scratch, const char *key_what,
                          pm_input_member_fn fn, void *arg)
{
    int rc;
    c->p++; /* the '{' */
    pm_input_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
        return 0;
    }
    for (;;) {
        const uint8_t *key = NULL;
        size_t klen = 0;
        pm_input_ws(c);
        if (c->p >= c->end || *c->p != '"')
            return pm_input_json_wrong(x, c, key_what);
        if ((rc = pm_input_json_string(x, c, scratch, &key, &klen)) != 0)
            return rc;
        pm_input_ws(c);
        if (c->p >= c->end || *c->p != ':')
            return pm_input_json_wrong(x, c, "':'");
        c->p++;
        if ((rc = fn(arg, x, c, key, klen)) != 0)
            return rc;
        pm_input_ws(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return 0;
        }
        return pm_input_json_wrong(x, c, "',' or '}'");
    }
}

static int skip_depth(pm_input_ctx *x, pm_input_cur *c, int depth);

static int skip_member(void *arg, pm_input_ctx *x, pm_input_cur *c, const uint8_t *key,
                       size_t key_len)
{
    (void)key;
    (void)key_len;
    return skip_depth(x, c, *(const int *)arg + 1);
}

static int skip_depth(pm_input_ctx *x, pm_input_cur *c, int depth)
{
    bool is_int;
    const uint8_t *e;
    const uint8_t *s;
    size_t n;
    int rc;
    pm_input_ws(c);
    if (c->p >= c->end)
        return pm_input_fail(x, "missing value, the line ends");
    if (depth > PM_INPUT_MAX_DEPTH)
        return pm_input_fail(x, "JSON nested deeper than %d levels", PM_INPUT_MAX_DEPTH);
    switch (*c->p) {
    case '"': return pm_input_json_string(x, c, NULL, &s, &n);
    case 't': return literal(c, "true", 4) ? 0 : pm_input_json_wrong(x, c, "a JSON value");
    case 'f': return literal(c, "false", 5) ? 0 : pm_input_json_wrong(x, c, "a JSON value");
    case 'n': return literal(c, "null", 4) ? 0 : pm_input_json_wrong(x, c, "a JSON value");
    case '[':
        c->p++;
        pm_input_ws(c);
        if (c->p < c->end && *c->p == ']') {
            c->p++;
            return 0;
        }
        for (;;) {
            if ((rc = skip_depth(x, c, depth + 1)) != 0)
                return rc;
            pm_input_ws(c);
            if (c->p < c->end && *c->p == ',') {
                c->p++;
                continue;
            }
            if (c->p < c->end && *c->p == ']') {
                c->p++;
                return 0;
            }
            return pm_input_json_wrong(x, c, "',' or ']'");
        }
    case '{': return pm_input_json_members(x, c, NULL, "a key string", skip_member, &depth);
    default:
        if ((e = pm_input_json_number_end(c->p, c->end, &is_int)) == NULL)
            return pm_input_json_wrong(x, c, "a JSON value");
        c->p = e;
        return 0;
    }
}

int pm_input_json_skip(pm_input_ctx *x, pm_input_cur *c)
{
    return skip_depth(x, c, 0);
}

long pm_input_field_index(const pm_type *row, const uint8_t *s, size_t len, size_t hint)
{
    if (hint < row->field_count) {
        const char *name = row->fields[hint].name;
        if (strncmp(name, (const char *)s, len) == 0 && name[len] == '\0')
            return (long)hint;
    }
    for (size_t i = 0; i < row->field_count; i++) {
        const char *name = row->fields[i].name;
        if (strncmp(name, (const char *)s, len) == 0 && name[len] == '\0')
            return (long)i;
    }
    return -1;
}

/* ---- values ---------------------------------------------------------------------------- */

static int push(pm_input_ctx *x, const char *field, int64_t index, int8_t part)
{
    if (x->depth >= PM_INPUT_MAX_DEPTH)
        return pm_input_fail(x, "values nested deeper than %d levels", PM_INPUT_MAX_DEPTH);
    x->path[x->depth].field = field;
    x->path[x->depth].index = index;
    x->path[x->depth].part = part;
    x->depth++;
    return 0;
}

/* Expects `ch` after optional whitespace. */
static int expect(pm_input_ctx *x, pm_input_cur *c, uint8_t ch, const char *what)
{
    pm_input_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 0;
    }
    return pm_input_json_wrong(x, c, what);
}

/* After an element: ',' (returns 1) or the closing `close` (returns 0). */
static int next_or_close(pm_input_ctx *x, pm_input_cur *c, uint8_t close, const char *what)
{
    pm_input_ws(c);
    if (c->p < c->end && *c->p == ',') {
        c->p++;
        return 1;
    }
    if (c->p < c->end && *c->p == close) {
        c->p++;
        return 0;
    }
    return pm_input_json_wrong(x, c, what);
}

static int list_end(pm_input_ctx *x, pm_column *col)
{
    int rc = pm_column_list_end(col, true);
    return rc != 0 ? pm_input_fail_buf(x, rc) : 0;
}

static int array_value(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc)
{
    pm_column *elems = col->children[0];
    int64_t k = 0;
    int rc;
    c->p++; /* '[' */
    pm_input_ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return list_end(x, col);
    }
    for (;; k++) {
        if ((rc = push(x, NULL, k, 0)) != 0)
            return rc;
        rc = pm_input_json_value(x, c, elems, enc != NULL ? enc->items : NULL);
        x->depth--;
        if (rc != 0)
            return rc;
        if ((rc = next_or_close(x, c, ']', "',' or ']'")) <= 0)
            break;
    }
    return rc < 0 ? rc : list_end(x, col);
}

/* MAP and MULTISET as [[k, v], ...]; a MAP also as {"k": v, ...}. */
static int map_value(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc)
{
    pm_column *keys = col->children[0], *vals = col->children[1];
    const pm_input_enc *kenc = enc != NULL ? enc->items : NULL;
    const pm_input_enc *venc = enc != NULL ? enc->values : NULL;
    bool object = *c->p == '{';
    uint8_t close = object ? '}' : ']';
    int64_t k = 0;
    int rc;
    c->p++;
    pm_input_ws(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        return list_end(x, col);
    }
    for (;; k++) {
        pm_input_ws(c);
        if ((rc = push(x, NULL, k, 1)) != 0)
            return rc;
        if (object) {
            const uint8_t *s;
            size_t n;
            if (c->p >= c->end || *c->p != '"')
                rc = pm_input_json_wrong(x, c, "a key string");
            else if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) == 0)
                rc = pm_input_text(x, keys, s, n, kenc);
            if (rc == 0)
                rc = expect(x, c, ':', "':'");
        } else {
            if (c->p >= c->end || *c->p != '[')
                rc = pm_input_json_wrong(x, c,
                                         col->type->id == PM_TYPE_MAP ? "a [key, value] pair"
                                                                      : "an [element, count] pair");
            else {
                c->p++;
                if ((rc = pm_input_json_value(x, c, keys, kenc)) == 0)
                    rc = expect(x, c, ',', "',' and the second item of the pair");
            }
        }
        if (rc == 0) {
            x->path[x->depth - 1].part = 2;
            rc = pm_input_json_value(x, c, vals, venc);
        }
        if (rc == 0 && !object)
            rc = expect(x, c, ']', "']' closing the pair");
        x->depth--;
        if (rc != 0)
            return rc;
        if ((rc = next_or_close(x, c, close, object ? "',' or '}'" : "',' or ']'")) <= 0)
            break;
    }
    return rc < 0 ? rc : list_end(x, col);
}

static int row_value(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc)
{
    const pm_type *row = col->type;
    uint8_t small[64], *seen = small;
    size_t hint = 0;
    int rc = 0;

    if (row->field_count > sizeof(small) && (seen = pm_calloc(row->field_count, 1)) == NULL)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    if (seen == small)
        memset(small, 0, sizeof(small));
    c->p++; /* '{' */
    pm_input_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
    } else {
        for (;;) {
            const uint8_t *s;
            size_t n;
            long f;
            pm_input_ws(c);
            if (c->p >= c->end || *c->p != '"') {
                rc = pm_input_json_wrong(x, c, "a field name");
                break;
            }
            if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) != 0)
                break;
            if ((f = pm_input_field_index(row, s, n, hint)) < 0) {
                char shown[160];
                rc = pm_input_fail(x, "unknown field \"%s\"", pm_input_show(shown, s, n));
                break;
            }
            if (seen[f]) {
                rc = pm_input_fail(x, "field \"%s\" appears twice", row->fields[f].name);
                break;
            }
            seen[f] = 1;
            hint = (size_t)f + 1;
            if ((rc = expect(x, c, ':', "':'")) != 0 ||
                (rc = push(x, row->fields[f].name, 0, 0)) != 0)
                break;
            rc = pm_input_json_value(x, c, col->children[f],
                                     enc != NULL && enc->fields != NULL ? enc->fields[f] : NULL);
            x->depth--;
            if (rc != 0 || (rc = next_or_close(x, c, '}', "',' or '}'")) <= 0)
                break;
        }
    }
    for (size_t f = 0; rc == 0 && f < row->field_count; f++) {
        if (seen[f])
            continue;
        if ((rc = push(x, row->fields[f].name, 0, 0)) != 0)
            break;
        if (!row->fields[f].type->nullable)
            rc = pm_input_fail(x, "missing, but the field is NOT NULL");
        else if ((rc = pm_column_append_null(col->children[f])) != 0)
            rc = pm_input_fail_buf(x, rc);
        x->depth--;
    }
    if (seen != small)
        pm_free(seen);
    if (rc == 0 && (rc = pm_column_struct_end(col, true)) != 0)
        rc = pm_input_fail_buf(x, rc);
    return rc;
}

/* A Debezium VariableScaleDecimal: {"scale": int, "value": base64}. */
static int var_decimal(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc)
{
    int64_t scale = 0;
    const uint8_t *value = NULL;
    size_t value_len = 0;
    bool has_scale = false;
    int rc;
    c->p++;
    for (;;) {
        const uint8_t *s;
        size_t n;
        pm_input_ws(c);
        if (c->p < c->end && *c->p == '}' && !has_scale && value == NULL) {
            c->p++;
            break;
        }
        if (c->p >= c->end || *c->p != '"')
            return pm_input_json_wrong(x, c, "\"scale\" or \"value\"");
        if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) != 0 ||
            (rc = expect(x, c, ':', "':'")) != 0)
            return rc;
        pm_input_ws(c);
        if (n == 5 && memcmp(s, "scale", 5) == 0) {
            bool is_int;
            const uint8_t *e = pm_input_json_number_end(c->p, c->end, &is_int);
            if (e == NULL || !is_int || e - c->p > 6)
                return pm_input_json_wrong(x, c, "a small integer scale");
            scale = 0;
            for (const uint8_t *d = *c->p == '-' ? c->p + 1 : c->p; d < e; d++)
                scale = scale * 10 + (*d - '0');
            if (*c->p == '-')
                scale = -scale;
            has_scale = true;
            c->p = e;
        } else if (n == 5 && memcmp(s, "value", 5) == 0) {
            /* the base64 text has no escapes in practice; decode it after the object */
            const uint8_t *vs;
            size_t vn;
            if (c->p >= c->end || *c->p != '"')
                return pm_input_json_wrong(x, c, "a base64 string");
            if ((rc = pm_input_json_string(x, c, &x->unescaped, &vs, &vn)) != 0)
                return rc;
            pm_buf_reset(&x->decoded);
            if ((rc = pm_input_base64_decode(&x->decoded, vs, vn)) != 0) {
                char shown[160];
                return rc == -1 ? pm_input_fail(x, "%s is not valid base64",
                                                pm_input_show(shown, vs, vn))
                                : pm_input_fail_buf(x, rc);
            }
            value = x->decoded.data != NULL ? x->decoded.data : (const uint8_t *)"";
            value_len = x->decoded.len;
        } else if ((rc = pm_input_json_skip(x, c)) != 0) {
            return rc;
        }
        if ((rc = next_or_close(x, c, '}', "',' or '}'")) < 0)
            return rc;
        if (rc == 0)
            break;
    }
    if (!has_scale || value == NULL)
        return pm_input_fail(x, "a %s object needs \"scale\" and \"value\"",
                             enc->name != NULL ? enc->name : "VariableScaleDecimal");
    return pm_input_decimal_unscaled(x, col, value, value_len, scale,
                                     (const uint8_t *)"(VariableScaleDecimal)", 22);
}

static bool is_epoch(const pm_input_enc *enc)
{
    return enc != NULL && enc->kind >= PM_ENC_DATE_DAYS && enc->kind <= PM_ENC_TS_NANOS;
}

static const char *expected_of(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return "true or false";
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return "an integer";
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: return "a number (or \"NaN\", \"Infinity\", \"-Infinity\")";
    case PM_TYPE_DECIMAL: return "a decimal string or number";
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return "a string";
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return "a \"base64:...\" string";
    case PM_TYPE_DATE: return "a date string";
    case PM_TYPE_TIME: return "a time string";
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return "a timestamp string";
    case PM_TYPE_ARRAY: return "an array";
    case PM_TYPE_MAP: return "an array of [key, value] pairs or an object";
    case PM_TYPE_MULTISET: return "an array of [element, count] pairs";
    case PM_TYPE_ROW: return "an object";
    default: return "a value";
    }
}

int pm_input_json_value(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc)
{
    const pm_type *t = col->type;
    const uint8_t *s, *e;
    size_t n;
    bool is_int;
    int rc;

    pm_input_ws(c);
    if (c->p >= c->end)
        return pm_input_json_wrong(x, c, expected_of(t));
    switch (*c->p) {
    case 'n':
        if (!literal(c, "null", 4))
            break;
        return pm_input_put_null(x, col);
    case '"':
        switch (t->id) {
        case PM_TYPE_BOOLEAN:
        case PM_TYPE_TINYINT:
        case PM_TYPE_SMALLINT:
        case PM_TYPE_INT:
        case PM_TYPE_BIGINT:
        case PM_TYPE_ARRAY:
        case PM_TYPE_MAP:
        case PM_TYPE_MULTISET:
        case PM_TYPE_ROW: return pm_input_json_wrong(x, c, expected_of(t));
        case PM_TYPE_FLOAT:
        case PM_TYPE_DOUBLE: {
            const uint8_t *at = c->p;
            if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) != 0)
                return rc;
            if (!((n == 3 && memcmp(s, "NaN", 3) == 0) ||
                  (n == 8 && memcmp(s, "Infinity", 8) == 0) ||
                  (n == 9 && memcmp(s, "-Infinity", 9) == 0))) {
                c->p = at;
                return pm_input_json_wrong(x, c, expected_of(t));
            }
            return pm_input_real_text(x, col, s, n);
        }
        default:
            if ((rc = pm_input_json_string(x, c, &x->unescaped, &s, &n)) != 0)
                return rc;
            return pm_input_text(x, col, s, n, enc);
        }
    case 't':
    case 'f':
        if (t->id != PM_TYPE_BOOLEAN)
            break;
        {
            pm_datum d = {.is_null = false, .v.b = *c->p == 't'};
            if (!(d.v.b ? literal(c, "true", 4) : literal(c, "false", 5)))
                break;
            if ((rc = pm_column_append_datum(col, &d)) != 0)
                return pm_input_fail_buf(x, rc);
            return 0;
        }
    case '[':
        if (t->id == PM_TYPE_ARRAY)
            return array_value(x, c, col, enc);
        if (t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET)
            return map_value(x, c, col, enc);
        break;
    case '{':
        if (t->id == PM_TYPE_ROW)
            return row_value(x, c, col, enc);
        if (t->id == PM_TYPE_MAP)
            return map_value(x, c, col, enc);
        if (t->id == PM_TYPE_DECIMAL && enc != NULL && enc->kind == PM_ENC_VAR_DECIMAL)
            return var_decimal(x, c, col, enc);
        break;
    default:
        if ((e = pm_input_json_number_end(c->p, c->end, &is_int)) == NULL)
            break;
        s = c->p;
        switch (t->id) {
        case PM_TYPE_TINYINT:
        case PM_TYPE_SMALLINT:
        case PM_TYPE_INT:
        case PM_TYPE_BIGINT:
            if (!is_int)
                return pm_input_json_wrong(x, c, expected_of(t));
            c->p = e;
            return pm_input_int_text(x, col, s, (size_t)(e - s));
        case PM_TYPE_FLOAT:
        case PM_TYPE_DOUBLE: c->p = e; return pm_input_real_text(x, col, s, (size_t)(e - s));
        case PM_TYPE_DECIMAL: c->p = e; return pm_input_decimal_text(x, col, s, (size_t)(e - s));
        case PM_TYPE_DATE:
        case PM_TYPE_TIME:
        case PM_TYPE_TIMESTAMP:
        case PM_TYPE_TIMESTAMP_LTZ:
            if (is_epoch(enc)) {
                c->p = e;
                return pm_input_epoch_number(x, col, s, (size_t)(e - s), enc);
            }
            if (x->debezium) {
                char buf[200];
                snprintf(buf, sizeof(buf),
                         "%s (a number needs the envelope's schema to name its encoding)",
                         expected_of(t));
                return pm_input_json_wrong(x, c, buf);
            }
            break;
        default: break;
        }
        break;
    }
    return pm_input_json_wrong(x, c, expected_of(t));
}
