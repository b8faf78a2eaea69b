/*
 * Nested columns on write (docs/SQL.md, "Writes"): ARRAY, MAP, MULTISET and ROW values are
 * written as the JSON text the module reads them as (the canonical form of
 * shared/spec/canonical-rows.md), so `INSERT INTO t SELECT * FROM t2` and
 * `UPDATE t SET tags = json_insert(tags, '$[#]', 'x')` work on them.
 *
 * paimon_writer_write_row() takes nested values as NULL only; the public API writes them
 * through paimon_writer_write_arrow() or through a paimon_input reading canonical JSONL.  The
 * second is the one that takes exactly the text the reads produce, with the library's own
 * checks of every element (the same as `paimon write`), so a table with a nested column
 * commits its buffered changes (txn.c: ps_change rows) as JSONL: each change becomes one line
 * `{"_ROW_KIND":"+I","col":VALUE,...}`, PS_JSONL_ROWS lines at a time fed through
 * fmemopen() to paimon_input_write().
 *
 * At the statement, ps_json_check() checks that the text is one well-formed JSON value of
 * the column's shape (an array for ARRAY, MULTISET and MAP, which also takes an object; an
 * object for ROW), so most mistakes fail the statement that made them; element types,
 * field names and NOT NULL elements are checked by the reader at the commit, whose error
 * names the column, and fail the COMMIT (as malformed DECIMAL or DATE texts do).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

#define PS_JSONL_ROWS 4096
#define PS_JSON_DEPTH 200 /* nesting deeper than this is refused at the statement */

/* ---- a JSON syntax check (RFC 8259) ------------------------------------------------------ */

typedef struct json_scan {
    const char *p, *end;
} json_scan;

static void skip_ws(json_scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int lit(json_scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return 0;
    s->p += n;
    return 1;
}

static int digits(json_scan *s)
{
    const char *start = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
        s->p++;
    return s->p > start;
}

static int string(json_scan *s)
{
    s->p++; /* the opening quote */
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p++;
        if (c == '"')
            return 1;
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            if (s->p >= s->end)
                return 0;
            c = (unsigned char)*s->p++;
            if (c == 'u') {
                for (int i = 0; i < 4; i++, s->p++)
                    if (s->p >= s->end || !strchr("0123456789abcdefABCDEF", *s->p) || *s->p == 0)
                        return 0;
            } else if (!strchr("\"\\/bfnrt", c) || c == 0)
                return 0;
        }
    }
    return 0;
}

static int value(json_scan *s, int depth)
{
    skip_ws(s);
    if (s->p >= s->end || depth > PS_JSON_DEPTH)
        return 0;
    char c = *s->p;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        skip_ws(s);
        if (s->p < s->end && *s->p == close) {
            s->p++;
            return 1;
        }
        for (;;) {
            if (c == '{') {
                skip_ws(s);
                if (s->p >= s->end || *s->p != '"' || !string(s))
                    return 0;
                skip_ws(s);
                if (s->p >= s->end || *s->p++ != ':')
                    return 0;
            }
            if (!value(s, depth + 1))
                return 0;
            skip_ws(s);
            if (s->p >= s->end)
                return 0;
            if (*s->p == close) {
                s->p++;
                return 1;
            }
            if (*s->p++ != ',')
                return 0;
        }
    }
    if (c == '"')
        return string(s);
    if (c == 't')
        return lit(s, "true");
    if (c == 'f')
        return lit(s, "false");
    if (c == 'n')
        return lit(s, "null");
    if (c == '-')
        s->p++;
    if (s->p < s->end && *s->p == '0')
        s->p++;
    else if (!digits(s))
        return 0;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (!digits(s))
            return 0;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (!digits(s))
            return 0;
    }
    return 1;
}

const char *ps_json_check(const ps_column *col, const char *text, size_t len)
{
    json_scan s = {text, text + len};
    if (!value(&s, 0))
        return "is not valid JSON";
    skip_ws(&s);
    if (s.p != s.end)
        return "is not valid JSON (text after the value)";
    s.p = text;
    skip_ws(&s);
    int is_row = strncmp(col->type, "ROW", 3) == 0, is_map = strncmp(col->type, "MAP", 3) == 0;
    if (*s.p == '{' && (is_row || is_map))
        return NULL;
    if (*s.p == '[' && !is_row)
        return NULL;
    return is_row   ? "is not a JSON object (a ROW is {\"field\": value, ...})"
           : is_map ? "is not a JSON array of [key, value] pairs (or an object)"
                    : "is not a JSON array";
}

/* ---- the commit: changes as JSONL -------------------------------------------------------- */

static void put_string(sqlite3_str *out, const char *p, size_t len)
{
    static const char HEX[] = "0123456789abcdef";
    sqlite3_str_appendchar(out, 1, '"');
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sqlite3_str_append(out, p + from, (int)(i - from));
        from = i + 1;
        char esc[7] = {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 15], 0};
        if (c == '"' || c == '\\') {
            esc[1] = (char)c;
            esc[2] = 0;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
            esc[2] = 0;
        }
        sqlite3_str_appendall(out, esc);
    }
    sqlite3_str_append(out, p + from, (int)(len - from));
    sqlite3_str_appendchar(out, 1, '"');
}

static void put_double(sqlite3_str *out, double d)
{
    if (isnan(d))
        sqlite3_str_appendall(out, "\"NaN\"");
    else if (isinf(d))
        sqlite3_str_appendall(out, d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    else {
        char tmp[32];
        snprintf(tmp, sizeof(tmp), "%.17g", d);
        sqlite3_str_appendall(out, tmp);
    }
}

/* One value of `col` as JSON: typed values from ps_value_get(), or an old row's canonical
 * text (NUL-terminated) or bytes.  0, or -1 without memory. */
static int put_value(sqlite3_str *out, const ps_column *col, const paimon_value *v)
{
    switch (v->type) {
    case PAIMON_VALUE_NULL: sqlite3_str_appendall(out, "null"); return 0;
    case PAIMON_VALUE_BOOL: sqlite3_str_appendall(out, v->v.b ? "true" : "false"); return 0;
    case PAIMON_VALUE_INT: sqlite3_str_appendf(out, "%lld", (long long)v->v.i); return 0;
    case PAIMON_VALUE_DOUBLE: put_double(out, v->v.d); return 0;
    case PAIMON_VALUE_BYTES: {
        char *b64 = ps_base64_encode((const unsigned char *)v->v.s.ptr, v->v.s.len);
        if (b64 == NULL)
            return -1;
        sqlite3_str_appendf(out, "\"base64:%s\"", b64);
        sqlite3_free(b64);
        return 0;
    }
    default: break; /* text */
    }
    switch (col->cls) {
    case PS_INT:
    case PS_BOOL:
    case PS_JSON: /* canonical or checked by ps_json_check() */
        sqlite3_str_append(out, v->v.s.ptr, (int)v->v.s.len);
        return 0;
    case PS_FLOAT:
    case PS_DOUBLE: { /* checked by ps_value_get(), or canonical: strtod takes both */
        char tmp[64];
        snprintf(tmp, sizeof(tmp), "%.*s", (int)v->v.s.len, v->v.s.ptr);
        put_double(out, strtod(tmp, NULL));
        return 0;
    }
    default: put_string(out, v->v.s.ptr, v->v.s.len); return 0;
    }
}

/* Feeds `len` bytes of JSONL to `w`: 0, or the library's error code in `err`. */
PM_MUST_CHECK static int feed(paimon_writer *w, char *jsonl, size_t len, paimon_error *err)
{
    paimon_input *in = NULL;
    FILE *f = fmemopen(jsonl, len, "r");
    int rc = 0;
    if (f == NULL) {
        err->code = PAIMON_ENOMEM;
        snprintf(err->message, sizeof(err->message), "out of memory");
        return PAIMON_ENOMEM;
    }
    if ((rc = paimon_input_open(&in, w, f, "jsonl", err)) != 0)
        goto done;
    while ((rc = paimon_input_write(in, w, 0, NULL, err)) == 0)
        ;
    if (rc == PAIMON_ITEROVER)
        rc = 0;
done:
    paimon_input_free(in);
    fclose(f);
    return rc;
}

int ps_write_jsonl(ps_vtab *vt, paimon_writer *w, paimon_error *err)
{
    static const char *const KINDS[] = {"+I", "-U", "+U", "-D"};
    sqlite3_str *out = NULL;
    int rc = 0;
    for (size_t from = 0; rc == 0 && from < vt->change_count; from += PS_JSONL_ROWS) {
        size_t to =
            vt->change_count - from < PS_JSONL_ROWS ? vt->change_count : from + PS_JSONL_ROWS;
        out = sqlite3_str_new(NULL);
        for (size_t r = from; r < to; r++) {
            const ps_change *ch = vt->changes[r];
            sqlite3_str_appendf(out, "{\"_ROW_KIND\":\"%s\"", KINDS[ch->kind & 3]);
            for (size_t c = 0; c < vt->col_count; c++) {
                sqlite3_str_appendchar(out, 1, ',');
                put_string(out, vt->cols[c].name, strlen(vt->cols[c].name));
                sqlite3_str_appendchar(out, 1, ':');
                if (put_value(out, &vt->cols[c], &ch->vals[c]) != 0)
                    rc = PAIMON_ENOMEM;
            }
            sqlite3_str_appendall(out, "}\n");
        }
        int len = sqlite3_str_length(out);
        if (rc == 0 && sqlite3_str_errcode(out) != SQLITE_OK)
            rc = PAIMON_ENOMEM;
        char *jsonl = sqlite3_str_finish(out);
        if (rc == 0 && jsonl != NULL)
            rc = feed(w, jsonl, (size_t)len, err);
        sqlite3_free(jsonl);
    }
    /* "line 3, column tags[0]: ..." : the line of the generated JSONL means nothing to SQL */
    if (rc != 0 && strncmp(err->message, "line ", 5) == 0 && strstr(err->message, ", column ")) {
        const char *rest = strstr(err->message, ", column ") + 2;
        memmove(err->message, rest, strlen(rest) + 1);
    }
    if (rc == PAIMON_ENOMEM && err->code == 0) {
        err->code = PAIMON_ENOMEM;
        snprintf(err->message, sizeof(err->message), "out of memory");
    }
    return rc;
}
