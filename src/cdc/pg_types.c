/*
 * PostgreSQL types and values for Paimon (pg_types.h has the mapping).  Text forms parsed
 * here: PostgreSQL's output functions with DateStyle ISO (the default) and TimeZone UTC
 * (set by the connections): "2026-04-19", "10:11:12.123456", "2026-04-19 10:11:12.5" and
 * "2026-04-19 10:11:12.5+00", bytea as "\x0aff" (bytea_output hex, the default).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "pg_types.h"

/* typmod of varchar/bpchar: n + 4; of numeric: ((p << 16) | s) + 4; of time and
 * timestamps: the precision; -1 when none. */
int pm_pgtype_map(uint32_t oid, int32_t typmod, const char *what, const char *type_name, char *out,
                  size_t cap, paimon_error *err)
{
    int p;
    switch (oid) {
    case PM_PG_BOOL: snprintf(out, cap, "BOOLEAN"); return 0;
    case PM_PG_INT2: snprintf(out, cap, "SMALLINT"); return 0;
    case PM_PG_INT4: snprintf(out, cap, "INT"); return 0;
    case PM_PG_INT8: snprintf(out, cap, "BIGINT"); return 0;
    case PM_PG_FLOAT4: snprintf(out, cap, "FLOAT"); return 0;
    case PM_PG_FLOAT8: snprintf(out, cap, "DOUBLE"); return 0;
    case PM_PG_NUMERIC:
        if (typmod < 4) {
            snprintf(out, cap, "DECIMAL(38, 18)");
            return 0;
        }
        p = ((typmod - 4) >> 16) & 0xffff;
        {
            int s = (int16_t)((typmod - 4) & 0xffff);
            if (p < 1 || p > 38 || s < 0 || s > p)
                return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                                  "%s: numeric(%d, %d) has no Paimon type (DECIMAL holds a "
                                  "precision of 1 to 38 and a scale of 0 to the precision)",
                                  what, p, s);
            snprintf(out, cap, "DECIMAL(%d, %d)", p, s);
        }
        return 0;
    case PM_PG_TEXT:
    case PM_PG_JSON:
    case PM_PG_JSONB:
    case PM_PG_UUID: snprintf(out, cap, "STRING"); return 0;
    case PM_PG_VARCHAR:
        if (typmod < 5)
            snprintf(out, cap, "STRING");
        else
            snprintf(out, cap, "VARCHAR(%d)", typmod - 4);
        return 0;
    case PM_PG_BPCHAR: snprintf(out, cap, "CHAR(%d)", typmod < 5 ? 1 : typmod - 4); return 0;
    case PM_PG_BYTEA: snprintf(out, cap, "BYTES"); return 0;
    case PM_PG_DATE: snprintf(out, cap, "DATE"); return 0;
    case PM_PG_TIME: snprintf(out, cap, "TIME(%d)", typmod < 0 ? 6 : typmod); return 0;
    case PM_PG_TIMESTAMP: snprintf(out, cap, "TIMESTAMP(%d)", typmod < 0 ? 6 : typmod); return 0;
    case PM_PG_TIMESTAMPTZ:
        snprintf(out, cap, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", typmod < 0 ? 6 : typmod);
        return 0;
    default: {
        uint32_t elem = pm_pgtype_array_elem(oid);
        char inner[80];
        if (elem != 0) { /* an array column's typmod is its element's */
            int rc = pm_pgtype_map(elem, typmod, what, type_name, inner, sizeof(inner), err);
            if (rc == 0)
                snprintf(out, cap, "ARRAY<%s>", inner);
            return rc;
        }
        return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                          "%s: PostgreSQL type %s (oid %u) has no Paimon mapping (docs/CDC.md "
                          "lists the types); change the column's type or leave the table out",
                          what, type_name != NULL ? type_name : "?", oid);
    }
    }
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Reads n digits at *p; -1 when they are not digits. */
static int digits(const char **p, const char *end, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (*p >= end || **p < '0' || **p > '9')
            return -1;
        v = v * 10 + (**p - '0');
    }
    return v;
}

static bool parse_date(const char **p, const char *end, int64_t *days)
{
    int y, m, d;
    if ((y = digits(p, end, 4)) < 0)
        return false;
    while (*p < end && **p >= '0' && **p <= '9') /* years past 9999 */
        y = y * 10 + (*(*p)++ - '0');
    if (*p >= end || *(*p)++ != '-' || (m = digits(p, end, 2)) < 1 || m > 12 || *p >= end ||
        *(*p)++ != '-' || (d = digits(p, end, 2)) < 1 || d > 31)
        return false;
    *days = days_from_civil(y, m, d);
    return true;
}

/* "HH:MM:SS[.ffffff]" into nanoseconds of the day. */
static bool parse_time(const char **p, const char *end, int64_t *nanos)
{
    int h, mi, s;
    int64_t frac = 0, scale = 100000000;
    if ((h = digits(p, end, 2)) < 0 || h > 24 || *p >= end || *(*p)++ != ':' ||
        (mi = digits(p, end, 2)) < 0 || mi > 59 || *p >= end || *(*p)++ != ':' ||
        (s = digits(p, end, 2)) < 0 || s > 60)
        return false;
    if (*p < end && **p == '.') {
        (*p)++;
        while (*p < end && **p >= '0' && **p <= '9') {
            frac += (**p - '0') * scale;
            scale /= 10;
            (*p)++;
        }
    }
    *nanos = ((int64_t)h * 3600 + mi * 60 + s) * 1000000000LL + frac;
    return true;
}

/* "+HH[:MM[:SS]]" or "-..." into seconds east of UTC. */
static bool parse_offset(const char **p, const char *end, int64_t *secs)
{
    int sign, h, m = 0, s = 0;
    if (*p >= end || (**p != '+' && **p != '-'))
        return false;
    sign = *(*p)++ == '-' ? -1 : 1;
    if ((h = digits(p, end, 2)) < 0)
        return false;
    if (*p < end && **p == ':') {
        (*p)++;
        if ((m = digits(p, end, 2)) < 0)
            return false;
        if (*p < end && **p == ':') {
            (*p)++;
            if ((s = digits(p, end, 2)) < 0)
                return false;
        }
    }
    *secs = sign * ((int64_t)h * 3600 + m * 60 + s);
    return true;
}

PM_MUST_CHECK static int bad_value(const char *what, const char *text, size_t len, const char *why,
                                   paimon_error *err)
{
    return pm_cdc_err(err, PAIMON_EINVALID, "%s: value '%.*s' %s", what, (int)(len > 64 ? 64 : len),
                      text, why);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int pm_pgtype_value(uint32_t oid, const char *text, size_t len, const char *what, paimon_value *out,
                    pm_cdc_buf *scratch, paimon_error *err)
{
    const char *p = text, *end = text + len;
    char num[64];
    char *numend;
    memset(out, 0, sizeof(*out));
    switch (oid) {
    case PM_PG_BOOL:
        if (len != 1 || (text[0] != 't' && text[0] != 'f'))
            return bad_value(what, text, len, "is not a boolean (t or f)", err);
        out->type = PAIMON_VALUE_BOOL;
        out->v.b = text[0] == 't';
        return 0;
    case PM_PG_INT2:
    case PM_PG_INT4:
    case PM_PG_INT8: {
        /* by hand: strtoll wants a NUL-terminated copy, and this is the copy's hot path */
        uint64_t mag = 0;
        bool neg = len > 0 && text[0] == '-';
        size_t i = neg;
        if (i == len)
            return bad_value(what, text, len, "is not a number", err);
        for (; i < len; i++) {
            unsigned d = (unsigned char)text[i] - '0';
            if (d > 9 || mag > (UINT64_C(1) << 63) / 10 ||
                (mag = mag * 10 + d) > (UINT64_C(1) << 63) - !neg)
                return bad_value(what, text, len, "is not a number", err);
        }
        out->type = PAIMON_VALUE_INT;
        out->v.i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
        return 0;
    }
    case PM_PG_FLOAT4:
    case PM_PG_FLOAT8:
        if (len == 0 || len >= sizeof(num))
            return bad_value(what, text, len, "is not a number", err);
        memcpy(num, text, len);
        num[len] = '\0';
        errno = 0;
        if (oid == PM_PG_FLOAT4 || oid == PM_PG_FLOAT8) {
            out->type = PAIMON_VALUE_DOUBLE;
            out->v.d = strtod(num, &numend);
        } else {
            out->type = PAIMON_VALUE_INT;
            out->v.i = strtoll(num, &numend, 10);
        }
        if (*numend != '\0' || errno == ERANGE)
            return bad_value(what, text, len, "is not a number", err);
        return 0;
    case PM_PG_NUMERIC:
        if (len == 3 && memcmp(text, "NaN", 3) == 0)
            return bad_value(what, text, len, "has no DECIMAL value", err);
        if (len > 0 && (text[len - 1] == 'y')) /* Infinity, -Infinity */
            return bad_value(what, text, len, "has no DECIMAL value", err);
        out->type = PAIMON_VALUE_TEXT;
        out->v.s.ptr = text;
        out->v.s.len = len;
        return 0;
    case PM_PG_BYTEA: {
        size_t start;
        if (len < 2 || text[0] != '\\' || text[1] != 'x' || (len - 2) % 2 != 0)
            return bad_value(what, text, len, "is not bytea in hex form (\\x...)", err);
        start = scratch->len;
        for (size_t i = 2; i < len; i += 2) {
            int hi = hexval(text[i]), lo = hexval(text[i + 1]);
            if (hi < 0 || lo < 0)
                return bad_value(what, text, len, "is not bytea in hex form (\\x...)", err);
            if (pm_cdc_buf_putc(scratch, (char)(hi * 16 + lo)) != 0)
                return pm_cdc_err(err, PAIMON_ENOMEM, "%s: out of memory", what);
        }
        out->type = PAIMON_VALUE_BYTES;
        /* an offset until the row is complete: the buffer may still move */
        out->v.s.ptr = (const char *)(uintptr_t)start;
        out->v.s.len = scratch->len - start;
        return 0;
    }
    case PM_PG_DATE: {
        int64_t days;
        if (!parse_date(&p, end, &days) || p != end)
            return bad_value(what, text, len, "is not a date Paimon can hold (YYYY-MM-DD)", err);
        out->type = PAIMON_VALUE_INT;
        out->v.i = days;
        return 0;
    }
    case PM_PG_TIME: {
        int64_t nanos;
        if (!parse_time(&p, end, &nanos) || p != end)
            return bad_value(what, text, len, "is not a time (HH:MM:SS)", err);
        out->type = PAIMON_VALUE_INT;
        out->v.i = nanos / 1000000; /* Paimon keeps milliseconds of the day */
        return 0;
    }
    case PM_PG_TIMESTAMP:
    case PM_PG_TIMESTAMPTZ: {
        int64_t days, nanos, offset = 0, millis;
        if (!parse_date(&p, end, &days) || p >= end || *p++ != ' ' ||
            !parse_time(&p, end, &nanos) ||
            (oid == PM_PG_TIMESTAMPTZ && !parse_offset(&p, end, &offset)) || p != end)
            return bad_value(what, text, len, "is not a timestamp Paimon can hold", err);
        millis = days * 86400000LL + nanos / 1000000 - offset * 1000;
        out->type = PAIMON_VALUE_TIMESTAMP;
        out->v.ts.millis = millis;
        out->v.ts.nanos = (int32_t)(nanos % 1000000);
        return 0;
    }
    default: {
        uint32_t elem = pm_pgtype_array_elem(oid);
        size_t start = scratch->len;
        int rc;
        if (elem != 0) {
            if ((rc = pm_pgtype_array_json(elem, text, len, what, scratch, err)) != 0)
                return rc;
            out->type = PM_PG_VALUE_JSON_AT;
            out->v.s.ptr = (const char *)(uintptr_t)start;
            out->v.s.len = scratch->len - start;
            return 0;
        }
        out->type = PAIMON_VALUE_TEXT;
        out->v.s.ptr = text;
        out->v.s.len = len;
        return 0;
    }
    }
}

void pm_pgtype_fixup(paimon_value *values, size_t count, const pm_cdc_buf *scratch)
{
    for (size_t i = 0; i < count; i++) {
        if (values[i].type == PM_PG_VALUE_JSON_AT)
            values[i].type = PAIMON_VALUE_TEXT;
        else if (values[i].type != PAIMON_VALUE_BYTES)
            continue;
        values[i].v.s.ptr = scratch->data + (uintptr_t)values[i].v.s.ptr;
    }
}

int pm_copy_split(const char *line, size_t len, pm_copy_field *fields, size_t cap, size_t *count,
                  pm_cdc_buf *scratch, paimon_error *err)
{
    size_t n = 0, i = 0;
    /* room for the whole line first, so that pointers into scratch stay put */
    scratch->len = 0;
    if (pm_cdc_buf_put(scratch, line, len) != 0)
        return pm_cdc_err(err, PAIMON_ENOMEM, "COPY: out of memory");
    scratch->len = 0;
    for (;;) {
        size_t start = scratch->len;
        bool null = false;
        if (n == cap)
            return pm_cdc_err(err, PAIMON_ECORRUPT, "COPY: a row with more than %zu fields", cap);
        if (i + 2 <= len && line[i] == '\\' && line[i + 1] == 'N' &&
            (i + 2 == len || line[i + 2] == '\t')) {
            null = true;
            i += 2;
        }
        while (!null && i < len && line[i] != '\t') {
            char c = line[i++];
            if (c == '\\') {
                if (i >= len)
                    return pm_cdc_err(err, PAIMON_ECORRUPT, "COPY: a backslash ends a row");
                c = line[i++];
                switch (c) {
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'v': c = '\v'; break;
                case 'x': {
                    int v = 0, k = 0;
                    while (k < 2 && i < len && hexval(line[i]) >= 0)
                        v = v * 16 + hexval(line[i++]), k++;
                    c = (char)v;
                    break;
                }
                default:
                    if (c >= '0' && c <= '7') {
                        int v = c - '0', k = 1;
                        while (k < 3 && i < len && line[i] >= '0' && line[i] <= '7')
                            v = v * 8 + (line[i++] - '0'), k++;
                        c = (char)v;
                    }
                    break;
                }
            }
            scratch->data[scratch->len++] = c;
        }
        fields[n].ptr = null ? NULL : scratch->data + start;
        fields[n].len = null ? 0 : scratch->len - start;
        n++;
        if (i >= len)
            break;
        i++; /* the tab */
    }
    *count = n;
    return 0;
}
