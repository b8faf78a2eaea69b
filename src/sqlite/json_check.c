/*
 * Nested columns on write (docs/SQL.md, "Writes"): ARRAY, MAP, MULTISET and ROW values are
 * written as the JSON text the module reads them as (the canonical form of
 * shared/spec/canonical-rows.md), so `INSERT INTO t SELECT * FROM t2` and
 * `UPDATE t SET tags = json_insert(tags, '$[#]', 'x')` work on them.
 *
 * At the statement, ps_json_check() checks that the text is one well-formed JSON value of
 * the column's shape (an array for ARRAY, MULTISET and MAP, which also takes an object; an
 * object for ROW), so most mistakes fail the statement that made them.  At the commit the
 * text goes to paimon_writer_write_row() as it is: the library parses it with every check
 * of `paimon write` (element types, field names, NOT NULL elements), and its error, which
 * names the column and the element ("row 3, column m[0].value: expected an integer"), fails
 * the COMMIT (as malformed DECIMAL or DATE texts do).
 */
#include <string.h>

#include "sqlite_int.h"

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
