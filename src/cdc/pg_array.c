/*
 * PostgreSQL arrays for Paimon (pg_types.h has the mapping): a one-dimensional array of a
 * mapped element type is ARRAY<element>.  Values arrive in the array's text output form,
 * the same in pgoutput and COPY text: "{1,2,NULL}", "{}", "{"a b","c\"d",NULL,"NULL"}",
 * with a "[lo:hi]=" prefix when the lower bound is not 1 (dropped: Paimon arrays start at
 * 0).  Elements are quoted when they are empty, hold a delimiter, brace, quote, backslash or
 * white space, or spell NULL; inside quotes a backslash escapes the next byte; an unquoted
 * NULL (any case) is a null element.  Every element goes through the scalar converter of its
 * type (pg_types.c), so it is checked as a column of that type would be, and is written as
 * canonical JSON (docs/format/input.md), which the public writer parses into the ARRAY
 * column.  PostgreSQL does not enforce a column's declared dimensions, so a
 * multi-dimensional value ("{{1,2},{3,4}}") is refused when it arrives, naming the column.
 */
#include <stdio.h>
#include <string.h>

#include "pg_types.h"

uint32_t pm_pgtype_array_elem(uint32_t oid)
{
    switch (oid) {
    case PM_PG_BOOL_ARRAY: return PM_PG_BOOL;
    case PM_PG_BYTEA_ARRAY: return PM_PG_BYTEA;
    case PM_PG_INT2_ARRAY: return PM_PG_INT2;
    case PM_PG_INT4_ARRAY: return PM_PG_INT4;
    case PM_PG_INT8_ARRAY: return PM_PG_INT8;
    case PM_PG_TEXT_ARRAY: return PM_PG_TEXT;
    case PM_PG_JSON_ARRAY: return PM_PG_JSON;
    case PM_PG_FLOAT4_ARRAY: return PM_PG_FLOAT4;
    case PM_PG_FLOAT8_ARRAY: return PM_PG_FLOAT8;
    case PM_PG_BPCHAR_ARRAY: return PM_PG_BPCHAR;
    case PM_PG_VARCHAR_ARRAY: return PM_PG_VARCHAR;
    case PM_PG_DATE_ARRAY: return PM_PG_DATE;
    case PM_PG_TIME_ARRAY: return PM_PG_TIME;
    case PM_PG_TIMESTAMP_ARRAY: return PM_PG_TIMESTAMP;
    case PM_PG_TIMESTAMPTZ_ARRAY: return PM_PG_TIMESTAMPTZ;
    case PM_PG_NUMERIC_ARRAY: return PM_PG_NUMERIC;
    case PM_PG_UUID_ARRAY: return PM_PG_UUID;
    case PM_PG_JSONB_ARRAY: return PM_PG_JSONB;
    default: return 0;
    }
}

PM_MUST_CHECK static int nomem(const char *what, paimon_error *err)
{
    return pm_cdc_err(err, PAIMON_ENOMEM, "%s: out of memory", what);
}

/* A JSON string of s[0..n): quotes, backslashes and control characters escaped. */
PM_MUST_CHECK static int json_string(pm_cdc_buf *out, const char *s, size_t n)
{
    int rc = pm_cdc_buf_putc(out, '"');
    for (size_t i = 0; rc == 0 && i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            rc = pm_cdc_buf_put(out, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            rc = pm_cdc_buf_put(out, esc, 6);
        } else {
            rc = pm_cdc_buf_putc(out, (char)c);
        }
    }
    return rc != 0 ? rc : pm_cdc_buf_putc(out, '"');
}

PM_MUST_CHECK static int base64(pm_cdc_buf *out, const unsigned char *p, size_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int rc = pm_cdc_buf_put(out, "\"base64:", 8);
    for (size_t i = 0; rc == 0 && i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {A[v >> 18 & 63], A[v >> 12 & 63], i + 1 < n ? A[v >> 6 & 63] : '=',
                     i + 2 < n ? A[v & 63] : '='};
        rc = pm_cdc_buf_put(out, q, 4);
    }
    return rc != 0 ? rc : pm_cdc_buf_putc(out, '"');
}

/* Year, month, day of days since 1970-01-01 (Howard Hinnant's civil_from_days). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* One element's text (unescaped) as canonical JSON of the element's Paimon type. */
PM_MUST_CHECK static int element_json(uint32_t elem, const char *s, size_t n, const char *what,
                                      pm_cdc_buf *out, pm_cdc_buf *bin, paimon_error *err)
{
    paimon_value v;
    char tmp[64];
    int rc;
    bin->len = 0;
    if ((rc = pm_pgtype_value(elem, s, n, what, &v, bin, err)) != 0)
        return rc;
    switch (v.type) {
    case PAIMON_VALUE_BOOL:
        rc = pm_cdc_buf_put(out, v.v.b ? "true" : "false", v.v.b ? 4 : 5);
        break;
    case PAIMON_VALUE_INT:
        if (elem == PM_PG_DATE || elem == PM_PG_TIME) /* their text is the canonical one */
            rc = json_string(out, s, n);
        else
            rc = pm_cdc_buf_put(out, tmp,
                                (size_t)snprintf(tmp, sizeof(tmp), "%lld", (long long)v.v.i));
        break;
    case PAIMON_VALUE_DOUBLE:
        /* PostgreSQL prints the shortest exact digits, a JSON number but for NaN/Infinity */
        if ((n > 0 && (s[n - 1] == 'N' || s[n - 1] == 'y')))
            rc = json_string(out, s, n);
        else
            rc = pm_cdc_buf_put(out, s, n);
        break;
    case PAIMON_VALUE_BYTES:
        rc = base64(out, (const unsigned char *)bin->data + (uintptr_t)v.v.s.ptr, v.v.s.len);
        break;
    case PAIMON_VALUE_TIMESTAMP: {
        int64_t y, days = v.v.ts.millis >= 0 ? v.v.ts.millis / 86400000
                                             : -((-v.v.ts.millis + 86399999) / 86400000);
        int64_t ms = v.v.ts.millis - days * 86400000;
        int mo, d;
        civil_from_days(days, &y, &mo, &d);
        rc = pm_cdc_buf_put(
            out, tmp,
            (size_t)snprintf(tmp, sizeof(tmp), "\"%04lld-%02d-%02d %02d:%02d:%02d.%03d%06d\"",
                             (long long)y, mo, d, (int)(ms / 3600000), (int)(ms / 60000 % 60),
                             (int)(ms / 1000 % 60), (int)(ms % 1000), (int)v.v.ts.nanos));
        break;
    }
    default: rc = json_string(out, v.v.s.ptr, v.v.s.len); break; /* strings, numeric */
    }
    return rc != 0 ? nomem(what, err) : 0;
}

PM_MUST_CHECK static int bad_array(const char *what, const char *text, size_t len, const char *why,
                                   paimon_error *err)
{
    return pm_cdc_err(err, PAIMON_EINVALID, "%s: array '%.*s' %s", what, (int)(len > 64 ? 64 : len),
                      text, why);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int pm_pgtype_array_json(uint32_t elem, const char *text, size_t len, const char *what,
                         pm_cdc_buf *out, paimon_error *err)
{
    pm_cdc_buf el = {0}, bin = {0};
    size_t i = 0, count = 0;
    int rc = 0;
    if (len > 0 && text[0] == '[') { /* "[lo:hi]=": bounds other than 1 */
        while (i < len && text[i] != '=')
            i++;
        if (i == len) {
            rc = bad_array(what, text, len, "has dimensions but no '='", err);
            goto done;
        }
        i++;
    }
    if (i >= len || text[i] != '{') {
        rc = bad_array(what, text, len, "does not start with '{'", err);
        goto done;
    }
    i++;
    if (pm_cdc_buf_putc(out, '[') != 0) {
        rc = nomem(what, err);
        goto done;
    }
    while (i < len && is_space(text[i]))
        i++;
    if (i < len && text[i] == '}') { /* {} */
        i++;
        goto close;
    }
    for (;;) {
        bool quoted = false, escaped_tail = false;
        size_t tail;
        while (i < len && is_space(text[i]))
            i++;
        if (i < len && text[i] == '{') {
            rc = pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                            "%s: a multi-dimensional array has no Paimon mapping (columns map "
                            "to ARRAY of the element type); store one dimension per row or an "
                            "array of composite values as json",
                            what);
            goto done;
        }
        el.len = 0;
        if (i < len && text[i] == '"') {
            quoted = true;
            for (i++; i < len && text[i] != '"'; i++) {
                if (text[i] == '\\' && ++i >= len)
                    break;
                if (pm_cdc_buf_putc(&el, text[i]) != 0) {
                    rc = nomem(what, err);
                    goto done;
                }
            }
            if (i >= len) {
                rc = bad_array(what, text, len, "has an unterminated quoted element", err);
                goto done;
            }
            i++;
            while (i < len && is_space(text[i]))
                i++;
        } else {
            tail = 0;
            for (; i < len && text[i] != ',' && text[i] != '}'; i++) {
                char c = text[i];
                if (c == '{' || c == '"') {
                    rc = bad_array(what, text, len, "has a brace or quote inside an element", err);
                    goto done;
                }
                if (c == '\\') {
                    if (++i >= len)
                        break;
                    c = text[i];
                    escaped_tail = true;
                } else {
                    escaped_tail = false;
                }
                if (pm_cdc_buf_putc(&el, c) != 0) {
                    rc = nomem(what, err);
                    goto done;
                }
                if (escaped_tail || !is_space(c))
                    tail = el.len; /* unescaped trailing white space is dropped */
            }
            el.len = tail;
            if (el.len == 0) {
                rc = bad_array(what, text, len, "has an empty unquoted element", err);
                goto done;
            }
        }
        if (count++ > 0 && pm_cdc_buf_putc(out, ',') != 0) {
            rc = nomem(what, err);
            goto done;
        }
        if (!quoted && el.len == 4 && (el.data[0] | 0x20) == 'n' && (el.data[1] | 0x20) == 'u' &&
            (el.data[2] | 0x20) == 'l' && (el.data[3] | 0x20) == 'l')
            rc = pm_cdc_buf_put(out, "null", 4) != 0 ? nomem(what, err) : 0;
        else
            rc = element_json(elem, el.data != NULL ? el.data : "", el.len, what, out, &bin, err);
        if (rc != 0)
            goto done;
        if (i >= len || (text[i] != ',' && text[i] != '}')) {
            rc = bad_array(what, text, len,
                           i >= len ? "ends inside the array" : "has bytes after a quoted element",
                           err);
            goto done;
        }
        if (text[i++] == '}')
            break;
    }
close:
    while (i < len && is_space(text[i]))
        i++;
    if (i != len) {
        rc = bad_array(what, text, len, "has bytes after its closing '}'", err);
        goto done;
    }
    if (pm_cdc_buf_putc(out, ']') != 0)
        rc = nomem(what, err);
done:
    pm_cdc_buf_free(&el);
    pm_cdc_buf_free(&bin);
    return rc;
}
