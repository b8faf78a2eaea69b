/* Value casts for schema evolution: see cast.h. */
#include "data/cast.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/canonical.h"
#include "data/java_text.h"
#include "util/error.h"
#include "util/time.h"
#include "util/utf8.h"

static bool is_int(const pm_type *t)
{
    return t->id == PM_TYPE_TINYINT || t->id == PM_TYPE_SMALLINT || t->id == PM_TYPE_INT ||
           t->id == PM_TYPE_BIGINT;
}
static bool is_float(const pm_type *t)
{
    return t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE;
}
static bool is_numeric(const pm_type *t)
{
    return is_int(t) || is_float(t) || t->id == PM_TYPE_DECIMAL;
}
static bool is_ts(const pm_type *t)
{
    return t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ;
}

bool pm_cast_supported(const pm_type *from, const pm_type *to)
{
    if (pm_type_is_nested(from) || pm_type_is_nested(to))
        return pm_type_equals_ignore_nullable(from, to);
    if (from->id == PM_TYPE_VARIANT || from->id == PM_TYPE_BLOB || to->id == PM_TYPE_VARIANT ||
        to->id == PM_TYPE_BLOB)
        return from->id == to->id;
    if (pm_type_is_string(to))
        return true; /* every scalar has a text */
    if (pm_type_is_string(from))
        return true; /* parsed */
    if (is_numeric(to) || to->id == PM_TYPE_BOOLEAN)
        return is_numeric(from) || from->id == PM_TYPE_BOOLEAN ||
               (is_ts(from) && to->id != PM_TYPE_BOOLEAN && to->id != PM_TYPE_DECIMAL);
    if (pm_type_is_binary(to))
        return pm_type_is_binary(from);
    if (is_ts(to))
        return is_ts(from) || from->id == PM_TYPE_DATE || from->id == PM_TYPE_TIME || is_int(from);
    if (to->id == PM_TYPE_DATE)
        return from->id == PM_TYPE_DATE || is_ts(from);
    if (to->id == PM_TYPE_TIME)
        return from->id == PM_TYPE_TIME || is_ts(from);
    return false;
}

/* ---- numbers --------------------------------------------------------------------------- */

static pm_int128 pow10_128(int n)
{
    pm_int128 v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

/* Java's (byte)/(short)/(int) conversions of a long. */
static int64_t wrap(int64_t v, const pm_type *to)
{
    switch (to->id) {
    case PM_TYPE_TINYINT: return (int8_t)(uint8_t)v;
    case PM_TYPE_SMALLINT: return (int16_t)(uint16_t)v;
    case PM_TYPE_INT: return (int32_t)(uint32_t)v;
    default: return v;
    }
}

/* (long) of a double: truncation, NaN 0, saturation. */
static int64_t double_to_long(double d)
{
    if (isnan(d))
        return 0;
    if (d >= 9.2233720368547758e18)
        return INT64_MAX;
    if (d <= -9.2233720368547758e18)
        return INT64_MIN;
    return (int64_t)d;
}

/* (int) of a double then narrowed, as Number.intValue()/byteValue() do. */
static int64_t double_to_int_type(double d, const pm_type *to)
{
    if (to->id == PM_TYPE_BIGINT)
        return double_to_long(d);
    if (isnan(d))
        return 0;
    if (d >= 2147483647.0)
        return wrap(INT32_MAX, to);
    if (d <= -2147483648.0)
        return wrap(INT32_MIN, to);
    return wrap((int32_t)d, to);
}

/* Rescales an unscaled value from scale s1 to s2 rounding HALF_UP; false on overflow of
 * `precision` digits (Java's Decimal.fromBigDecimal returns null then). */
static bool rescale(pm_int128 v, int s1, int s2, int precision, pm_int128 *out)
{
    pm_int128 limit = pow10_128(precision);
    if (s2 >= s1) {
        pm_int128 f = pow10_128(s2 - s1);
        if (s2 - s1 > 38 || (v != 0 && (v > limit / f || v < -limit / f)))
            return false;
        v *= f;
    } else {
        int drop = s1 - s2;
        pm_int128 f, q, r;
        if (drop > 38) {
            v = 0;
        } else {
            f = pow10_128(drop);
            q = v / f;
            r = v % f;
            if (r < 0)
                r = -r;
            if (r * 2 >= f)
                q += v < 0 ? -1 : 1;
            v = q;
        }
    }
    if (v >= limit || v <= -limit)
        return false;
    *out = v;
    return true;
}

/* Parses a decimal literal (BigDecimal syntax: sign, digits, point, exponent). */
static bool parse_decimal(const char *s, size_t len, pm_int128 *unscaled, int *scale)
{
    pm_int128 v = 0;
    int sc = 0, digits = 0;
    size_t i = 0;
    bool neg = false, point = false;
    long exp = 0;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    while (len > i && isspace((unsigned char)s[len - 1]))
        len--;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < len; i++) {
        if (s[i] == '.' && !point) {
            point = true;
        } else if (isdigit((unsigned char)s[i])) {
            if (digits >= 38)
                return false;
            if (v != 0 || s[i] != '0')
                digits++;
            v = v * 10 + (s[i] - '0');
            if (point)
                sc++;
        } else {
            break;
        }
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        char *end;
        char buf[24];
        size_t n = len - i - 1 < sizeof(buf) - 1 ? len - i - 1 : sizeof(buf) - 1;
        memcpy(buf, s + i + 1, n);
        buf[n] = '\0';
        errno = 0;
        exp = strtol(buf, &end, 10);
        if (errno != 0 || *end != '\0' || n == 0 || exp > 100 || exp < -100)
            return false;
        i = len;
    }
    if (i != len || (digits == 0 && v != 0))
        return false;
    sc -= (int)exp;
    while (sc < 0) {
        if (digits++ >= 38)
            return false;
        v *= 10;
        sc++;
    }
    *unscaled = neg ? -v : v;
    *scale = sc;
    return true;
}

/* ---- text -------------------------------------------------------------------------------- */

/* Cuts to `length` characters; CHAR pads with spaces (BinaryStringUtils.toCharacterString:
 * characters as BinaryString.numChars and substring count them, util/utf8.h). */
static int fit_string(pm_buf *b, size_t start, const pm_type *to)
{
    size_t chars = pm_utf8_count(b->data + start, b->len - start);
    if (to->length <= 0 || (size_t)to->length == chars)
        return 0;
    if (chars > (size_t)to->length) {
        b->len = start + pm_utf8_prefix(b->data + start, b->len - start, (size_t)to->length);
        return 0;
    }
    if (to->id == PM_TYPE_CHAR) {
        size_t pad = (size_t)to->length - chars;
        int rc = pm_buf_reserve(b, pad);
        if (rc != 0)
            return rc;
        memset(b->data + b->len, ' ', pad);
        b->len += pad;
    }
    return 0;
}

static int to_text(const pm_type *from, const pm_datum *in, pm_buf *b)
{
    switch (from->id) {
    case PM_TYPE_BOOLEAN: return pm_buf_puts(b, in->v.b ? "true" : "false");
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return pm_buf_printf(b, "%lld", (long long)in->v.i);
    case PM_TYPE_FLOAT: return pm_java_float_string(b, in->v.f);
    case PM_TYPE_DOUBLE: return pm_java_double_string(b, in->v.d);
    case PM_TYPE_DECIMAL: return pm_format_decimal(b, in->v.dec, from->scale);
    case PM_TYPE_DATE: return pm_format_date(b, in->v.i);
    case PM_TYPE_TIME: return pm_java_format_time(b, in->v.i, from->precision);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        return pm_java_format_timestamp(b, in->v.ts.millis, in->v.ts.nanos, from->precision);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return pm_buf_append(b, in->v.s.ptr, in->v.s.len);
    default: return PAIMON_EUNSUPPORTED;
    }
}

/* Parses "yyyy-M-d" at the start of s; returns characters used (0: none). */
static size_t parse_date_part(const char *s, size_t len, int64_t *days)
{
    long y, m, d;
    int used = 0;
    char buf[32];
    size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    static const int month_days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (sscanf(buf, "%ld-%ld-%ld%n", &y, &m, &d, &used) != 3 || m < 1 || m > 12 || d < 1 || y < 0 ||
        y > 9999 || d > month_days[m - 1])
        return 0;
    /* DateTimeUtils.isIllegalDate: February 29 only in leap years */
    if (m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 0;
    *days = pm_days_from_civil(y, (unsigned)m, (unsigned)d);
    return (size_t)used;
}

/* Parses "H:m[:s[.fffffffff]]"; returns characters used (0: none). */
static size_t parse_time_part(const char *s, size_t len, int64_t *millis, int32_t *nanos_of_milli)
{
    size_t i = 0;
    long parts[3] = {0, 0, 0};
    int64_t frac = 0;
    int fdigits = 0;
    for (int k = 0; k < 3; k++) {
        size_t start = i;
        long v = 0;
        if (k > 0) {
            if (i >= len || s[i] != ':') {
                if (k == 2)
                    break;
                return 0;
            }
            i++;
            start = i;
        }
        while (i < len && isdigit((unsigned char)s[i]) && i - start < 2)
            v = v * 10 + (s[i++] - '0');
        if (i == start)
            return 0;
        parts[k] = v;
    }
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && isdigit((unsigned char)s[i])) {
            if (fdigits < 9) {
                frac = frac * 10 + (s[i] - '0');
                fdigits++;
            }
            i++;
        }
    }
    if (parts[0] > 23 || parts[1] > 59 || parts[2] > 59)
        return 0;
    while (fdigits < 9) {
        frac *= 10;
        fdigits++;
    }
    *millis = (parts[0] * 3600 + parts[1] * 60 + parts[2]) * 1000 + frac / 1000000;
    *nanos_of_milli = (int32_t)(frac % 1000000);
    return i;
}

PM_MUST_CHECK static int bad_value(paimon_error *err, const char *what, const pm_datum *in,
                                   const pm_type *to)
{
    pm_buf t;
    int rc;
    pm_buf_init(&t, 0);
    if (pm_type_format(to, &t) != 0)
        pm_buf_reset(&t);
    rc = pm_err_set(err, PAIMON_EINVALID, "%s: cannot cast '%.*s' to %s", what,
                    (int)(in->v.s.len > 64 ? 64 : in->v.s.len), (const char *)in->v.s.ptr,
                    pm_buf_cstr(&t));
    pm_buf_free(&t);
    return rc;
}

PM_MUST_CHECK static int from_text(const pm_datum *in, const pm_type *to, pm_datum *out,
                                   const char *what, paimon_error *err)
{
    const char *s = (const char *)in->v.s.ptr;
    size_t len = in->v.s.len, i = 0;
    char buf[128];
    char *end;

    /* Work on a trimmed, NUL-terminated copy for the numeric parsers. */
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    while (len > i && isspace((unsigned char)s[len - 1]))
        len--;
    if (len - i >= sizeof(buf) && to->id != PM_TYPE_DECIMAL)
        return bad_value(err, what, in, to);
    memcpy(buf, s + i, len - i < sizeof(buf) ? len - i : sizeof(buf) - 1);
    buf[len - i < sizeof(buf) ? len - i : sizeof(buf) - 1] = '\0';
    out->is_null = false;
    switch (to->id) {
    case PM_TYPE_BOOLEAN:
        if (!strcasecmp(buf, "t") || !strcasecmp(buf, "true") || !strcasecmp(buf, "y") ||
            !strcasecmp(buf, "yes") || !strcmp(buf, "1"))
            out->v.b = true;
        else if (!strcasecmp(buf, "f") || !strcasecmp(buf, "false") || !strcasecmp(buf, "n") ||
                 !strcasecmp(buf, "no") || !strcmp(buf, "0"))
            out->v.b = false;
        else
            return bad_value(err, what, in, to);
        return 0;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: {
        long long v;
        errno = 0;
        v = strtoll(buf, &end, 10);
        if (errno != 0 || end == buf || *end != '\0' || wrap(v, to) != v)
            return bad_value(err, what, in, to);
        out->v.i = v;
        return 0;
    }
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: {
        double d;
        errno = 0;
        d = strtod(buf, &end);
        if (end == buf || *end != '\0')
            return bad_value(err, what, in, to);
        if (to->id == PM_TYPE_FLOAT)
            out->v.f = (float)d;
        else
            out->v.d = d;
        return 0;
    }
    case PM_TYPE_DECIMAL: {
        pm_int128 v;
        int scale;
        if (!parse_decimal(s, in->v.s.len, &v, &scale))
            return bad_value(err, what, in, to);
        if (!rescale(v, scale, to->scale, to->precision, &out->v.dec))
            out->is_null = true;
        return 0;
    }
    case PM_TYPE_DATE: {
        int64_t days;
        size_t used = parse_date_part(buf, strlen(buf), &days);
        if (used == 0 || (buf[used] != '\0' && buf[used] != ' ' && buf[used] != 'T'))
            return bad_value(err, what, in, to);
        out->v.i = days;
        return 0;
    }
    case PM_TYPE_TIME: {
        int64_t ms;
        int32_t nanos;
        if (parse_time_part(buf, strlen(buf), &ms, &nanos) != strlen(buf))
            return bad_value(err, what, in, to);
        out->v.i = ms;
        return 0;
    }
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int64_t days, ms = 0;
        int32_t nanos = 0;
        size_t used = parse_date_part(buf, strlen(buf), &days), rest;
        if (used == 0)
            return bad_value(err, what, in, to);
        if (buf[used] == ' ' || buf[used] == 'T') {
            rest = parse_time_part(buf + used + 1, strlen(buf + used + 1), &ms, &nanos);
            if (rest == 0 || buf[used + 1 + rest] != '\0')
                return bad_value(err, what, in, to);
        } else if (buf[used] != '\0') {
            return bad_value(err, what, in, to);
        }
        out->v.ts.millis = days * 86400000 + ms;
        out->v.ts.nanos = nanos;
        return 0;
    }
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: out->v.s = in->v.s; return 0;
    default: return bad_value(err, what, in, to);
    }
}

/* Truncates a timestamp to `precision` fraction digits (DateTimeUtils.truncate). */
static void truncate_ts(pm_datum *d, int precision)
{
    if (precision >= 9)
        return;
    if (precision <= 3) {
        int64_t unit = 1;
        for (int k = precision; k < 3; k++)
            unit *= 10;
        d->v.ts.millis = pm_floor_div(d->v.ts.millis, unit) * unit;
        d->v.ts.nanos = 0;
    } else {
        int32_t unit = 1;
        for (int k = precision; k < 9; k++)
            unit *= 10;
        d->v.ts.nanos = d->v.ts.nanos / unit * unit;
    }
}

int pm_cast_datum(const pm_type *from, const pm_datum *in, const pm_type *to, pm_buf *scratch,
                  pm_datum *out, const char *what, paimon_error *err)
{
    *out = *in;
    if (in->is_null)
        return 0;
    out->is_null = false;
    if (pm_type_is_string(to)) {
        size_t start = scratch->len;
        int rc = to_text(from, in, scratch);
        if (rc == 0)
            rc = fit_string(scratch, start, to);
        if (rc != 0)
            return rc == PAIMON_EUNSUPPORTED
                       ? pm_err_set(err, rc, "%s: no cast to a string from this type", what)
                       : pm_buf_error(err, rc);
        out->v.s.ptr = scratch->data + start; /* valid until scratch grows: callers copy */
        out->v.s.len = scratch->len - start;
        return 0;
    }
    if (pm_type_is_string(from))
        return from_text(in, to, out, what, err);
    if (pm_type_is_binary(to)) {
        /* BinaryStringUtils.toBinaryString: BINARY(n) pads with zeros, both cut to n. */
        size_t n = in->v.s.len;
        if (to->length > 0 && n > (size_t)to->length)
            n = (size_t)to->length;
        if (to->id == PM_TYPE_BINARY && to->length > 0 && n < (size_t)to->length) {
            size_t start = scratch->len;
            int rc = pm_buf_append(scratch, in->v.s.ptr, n);
            if (rc == 0)
                rc = pm_buf_zero(scratch, (size_t)to->length - n);
            if (rc != 0)
                return pm_buf_error(err, rc);
            out->v.s.ptr = scratch->data + start;
            out->v.s.len = (size_t)to->length;
            return 0;
        }
        out->v.s.len = n;
        return 0;
    }
    switch (to->id) {
    case PM_TYPE_BOOLEAN:
        if (from->id == PM_TYPE_BOOLEAN)
            return 0;
        out->v.b = is_float(from) ? (from->id == PM_TYPE_FLOAT ? in->v.f != 0 : in->v.d != 0)
                   : from->id == PM_TYPE_DECIMAL ? in->v.dec != 0
                                                 : in->v.i != 0;
        return 0;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
        if (from->id == PM_TYPE_BOOLEAN)
            out->v.i = in->v.b ? 1 : 0;
        else if (from->id == PM_TYPE_FLOAT)
            out->v.i = double_to_int_type((double)in->v.f, to);
        else if (from->id == PM_TYPE_DOUBLE)
            out->v.i = double_to_int_type(in->v.d, to);
        else if (from->id == PM_TYPE_DECIMAL) {
            pm_int128 q = in->v.dec / pow10_128(from->scale);
            out->v.i = wrap((int64_t)q, to);
        } else if (is_ts(from))
            out->v.i = wrap(pm_floor_div(in->v.ts.millis, 1000), to);
        else
            out->v.i = wrap(in->v.i, to);
        return 0;
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: {
        double d;
        if (from->id == PM_TYPE_BOOLEAN)
            d = in->v.b ? 1 : 0;
        else if (from->id == PM_TYPE_FLOAT)
            d = (double)in->v.f;
        else if (from->id == PM_TYPE_DOUBLE)
            d = in->v.d;
        else if (from->id == PM_TYPE_DECIMAL)
            d = (double)in->v.dec / pow((double)10, from->scale);
        else if (is_ts(from))
            d = (double)pm_floor_div(in->v.ts.millis, 1000);
        else
            d = (double)in->v.i;
        if (to->id == PM_TYPE_FLOAT)
            out->v.f = (float)d;
        else
            out->v.d = d;
        return 0;
    }
    case PM_TYPE_DECIMAL:
        if (from->id == PM_TYPE_DECIMAL) {
            if (!rescale(in->v.dec, from->scale, to->scale, to->precision, &out->v.dec))
                out->is_null = true;
        } else if (is_float(from)) {
            /* BigDecimal.valueOf(double): the value's Double.toString digits. */
            pm_buf t;
            pm_int128 v;
            int scale;
            double d = from->id == PM_TYPE_FLOAT ? (double)in->v.f : in->v.d;
            pm_buf_init(&t, 0);
            if (!isfinite(d) ||
                (from->id == PM_TYPE_FLOAT ? pm_java_float_string(&t, in->v.f)
                                           : pm_java_double_string(&t, d)) != 0 ||
                !parse_decimal((const char *)t.data, t.len, &v, &scale) ||
                !rescale(v, scale, to->scale, to->precision, &out->v.dec))
                out->is_null = true;
            pm_buf_free(&t);
        } else {
            int64_t v = from->id == PM_TYPE_BOOLEAN ? in->v.b : in->v.i;
            if (!rescale(v, 0, to->scale, to->precision, &out->v.dec))
                out->is_null = true;
        }
        return 0;
    case PM_TYPE_DATE:
        if (is_ts(from))
            out->v.i = pm_floor_div(in->v.ts.millis, 86400000);
        return 0;
    case PM_TYPE_TIME:
        if (is_ts(from))
            out->v.i = pm_floor_mod(in->v.ts.millis, 86400000);
        return 0;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (from->id == PM_TYPE_DATE) {
            out->v.ts.millis = in->v.i * 86400000;
            out->v.ts.nanos = 0;
        } else if (from->id == PM_TYPE_TIME) {
            out->v.ts.millis = in->v.i;
            out->v.ts.nanos = 0;
        } else if (is_int(from)) {
            out->v.ts.millis = in->v.i * 1000;
            out->v.ts.nanos = 0;
        }
        truncate_ts(out, to->precision);
        return 0;
    default: break;
    }
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: no cast between these types", what);
}

int pm_cast_column(const pm_column *src, const pm_type *to, const char *what, pm_column **out,
                   paimon_error *err)
{
    pm_column *dst = NULL;
    pm_buf scratch;
    int rc = 0;

    *out = NULL;
    if (!pm_cast_supported(src->type, to)) {
        pm_buf a, b;
        pm_buf_init(&a, 0);
        pm_buf_init(&b, 0);
        pm_type_format(src->type, &a);
        pm_type_format(to, &b);
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: no cast from %s to %s", what,
                        pm_buf_cstr(&a), pm_buf_cstr(&b));
        pm_buf_free(&a);
        pm_buf_free(&b);
        return rc;
    }
    dst = pm_column_new(to);
    if (dst == NULL)
        return pm_nomem(err);
    if (pm_column_reserve(dst, src->length) != 0) {
        pm_column_free(dst);
        return pm_nomem(err);
    }
    pm_buf_init(&scratch, 0);
    for (int64_t i = 0; i < src->length && rc == 0; i++) {
        if (pm_type_is_nested(to)) {
            rc = pm_column_append_from(dst, src, i);
            if (rc != 0)
                rc = pm_buf_error(err, rc);
            continue;
        }
        {
            pm_datum in, cast;
            pm_buf_reset(&scratch);
            pm_column_get_datum(src, i, &in);
            if ((rc = pm_cast_datum(src->type, &in, to, &scratch, &cast, what, err)) != 0)
                break;
            if ((rc = pm_column_append_datum(dst, &cast)) != 0)
                rc = pm_buf_error(err, rc);
        }
    }
    pm_buf_free(&scratch);
    if (rc != 0) {
        pm_column_free(dst);
        return rc;
    }
    *out = dst;
    return 0;
}
