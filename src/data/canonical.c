/* Canonical value text: see canonical.h and shared/spec/canonical-rows.md. */
#include "data/canonical.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/binary_row.h"
#include "util/error.h"
#include "util/json.h"
#include "util/shortest.h"
#include "util/time.h"

/* The pieces below write digits straight into the buffer: cat prints one or more for every
 * DATE, TIME, TIMESTAMP and DECIMAL value, and printf costed more than the rest of the row.
 * Values outside the ranges a valid table holds (years beyond 0..9999 for the fast path,
 * times of more than 99 hours or negative ones from a corrupt file) take the printf forms,
 * which define the text. */

/* v < 100 as two digits. */
static inline char *put2(char *p, unsigned v)
{
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

/* Ends a direct write started at out->data + out->len (after a pm_buf_reserve). */
static inline void advance(pm_buf *out, const char *end)
{
    out->len = (size_t)((const uint8_t *)end - out->data);
}

int pm_format_date(pm_buf *out, int64_t days)
{
    int64_t y;
    unsigned m, d;
    char *p;
    int rc;
    pm_civil_from_days(days, &y, &m, &d);
    if (y > 9999)
        return pm_buf_printf(out, "+%lld-%02u-%02u", (long long)y, m, d);
    if (y < 0)
        return pm_buf_printf(out, "-%04lld-%02u-%02u", (long long)-y, m, d);
    if ((rc = pm_buf_reserve(out, 10)) != 0)
        return rc;
    p = (char *)out->data + out->len;
    p = put2(p, (unsigned)(y / 100));
    p = put2(p, (unsigned)(y % 100));
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    advance(out, put2(p, d));
    return 0;
}

/* HH:MM:SS of a number of seconds (of the day, for valid values). */
static int put_hms(pm_buf *out, int64_t secs)
{
    char *p;
    int rc;
    if (secs < 0 || secs >= 100 * 3600)
        return pm_buf_printf(out, "%02lld:%02lld:%02lld", (long long)(secs / 3600),
                             (long long)(secs / 60 % 60), (long long)(secs % 60));
    if ((rc = pm_buf_reserve(out, 8)) != 0)
        return rc;
    p = (char *)out->data + out->len;
    p = put2(p, (unsigned)(secs / 3600));
    *p++ = ':';
    p = put2(p, (unsigned)(secs / 60 % 60));
    *p++ = ':';
    advance(out, put2(p, (unsigned)(secs % 60)));
    return 0;
}

/* "." and the first `precision` (at most 9) of the nine digits of the nanoseconds. */
static int fraction(pm_buf *out, int64_t nanos_of_second, int precision)
{
    char digits[24];
    int rc;
    if (precision <= 0)
        return 0;
    if (precision > 9)
        precision = 9;
    if (nanos_of_second >= 0 && nanos_of_second < 1000000000) {
        uint32_t v = (uint32_t)nanos_of_second;
        for (int i = 8; i >= 0; i--, v /= 10)
            digits[i] = (char)('0' + v % 10);
    } else { /* a corrupt nanosecond field: printf's text, as ever */
        snprintf(digits, sizeof(digits), "%09lld", (long long)nanos_of_second);
    }
    if ((rc = pm_buf_reserve(out, (size_t)precision + 1)) != 0)
        return rc;
    out->data[out->len++] = '.';
    memcpy(out->data + out->len, digits, (size_t)precision);
    out->len += (size_t)precision;
    return 0;
}

int pm_format_time(pm_buf *out, int64_t ms, int precision)
{
    int rc = put_hms(out, pm_floor_div(ms, 1000));
    if (rc != 0)
        return rc;
    return fraction(out, pm_floor_mod(ms, 1000) * 1000000, precision);
}

int pm_format_time_nanos(pm_buf *out, int64_t nanos, int precision)
{
    int rc = put_hms(out, pm_floor_div(nanos, 1000000000));
    if (rc != 0)
        return rc;
    return fraction(out, pm_floor_mod(nanos, 1000000000), precision);
}

int pm_format_timestamp(pm_buf *out, int64_t millis, int32_t nanos, int precision)
{
    int64_t days = pm_floor_div(millis, 86400000), ms_of_day = pm_floor_mod(millis, 86400000);
    int rc = pm_format_date(out, days);
    if (rc != 0 || (rc = pm_buf_putc(out, ' ')) != 0 || (rc = put_hms(out, ms_of_day / 1000)) != 0)
        return rc;
    return fraction(out, (ms_of_day % 1000) * 1000000 + nanos, precision);
}

int pm_format_decimal(pm_buf *out, pm_int128 v, int scale)
{
    const uint64_t p19 = 10000000000000000000ULL;
    char digits[48]; /* least significant first */
    char *p;
    int n = 0, rc;
    unsigned __int128 mag =
        v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    /* 19 digits at a time by 128-bit division, then 64-bit arithmetic within them */
    while (mag >= p19) {
        uint64_t chunk = (uint64_t)(mag % p19);
        mag /= p19;
        for (int i = 0; i < 19; i++, chunk /= 10)
            digits[n++] = (char)('0' + chunk % 10);
    }
    for (uint64_t low = (uint64_t)mag; low != 0 || n == 0; low /= 10)
        digits[n++] = (char)('0' + low % 10);
    while (n <= scale && n < (int)sizeof(digits))
        digits[n++] = '0'; /* at least one digit before the point */
    if ((rc = pm_buf_reserve(out, (size_t)n + 2)) != 0)
        return rc;
    p = (char *)out->data + out->len;
    if (v < 0)
        *p++ = '-';
    for (int i = n - 1; i >= 0; i--) {
        if (i == scale - 1 && scale > 0)
            *p++ = '.';
        *p++ = digits[i];
    }
    advance(out, p);
    return 0;
}

/* The canonical text of a shortest decimal (shortest.h): the layout of printf's "%.{n}g" for
 * a value with n significant digits, the exponent without '+' or leading zeros.  With X the
 * decimal exponent of the first digit: plain when -4 <= X < n ("0.0001", "123.5", "12345"),
 * else d[.ddd]e[-]X ("1e-5", "1e2" for 100, "1.2345678e20").  NaN and the infinities are the
 * caller's. */
static int put_shortest(pm_buf *out, const pm_shortest *d)
{
    char digits[20], *p;
    int n = d->digit_count, x = d->exp10 + n - 1, xn, rc;

    /* at most '-', 17 digits, '.', "e-324": 24 bytes; or "-0.0000" and 17 digits */
    if ((rc = pm_buf_reserve(out, 32)) != 0)
        return rc;
    p = (char *)out->data + out->len;
    if (d->negative)
        *p++ = '-';
    pm_shortest_write_digits(digits, d->digits, n);
    if (x < -4 || x >= n) {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)n - 1);
            p += n - 1;
        }
        *p++ = 'e';
        if (x < 0) {
            *p++ = '-';
            x = -x;
        }
        xn = pm_shortest_digit_count((uint64_t)x);
        pm_shortest_write_digits(p, (uint64_t)x, xn);
        p += xn;
    } else if (x >= 0) {
        memcpy(p, digits, (size_t)x + 1);
        p += x + 1;
        if (n > x + 1) {
            *p++ = '.';
            memcpy(p, digits + x + 1, (size_t)(n - x - 1));
            p += n - x - 1;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)(-x - 1));
        p += -x - 1;
        memcpy(p, digits, (size_t)n);
        p += n;
    }
    out->len = (size_t)(p - (char *)out->data);
    return 0;
}

/* An integer literal: what "%lld" prints, without printf's per-call cost (cat prints one
 * for every BIGINT value). */
static int put_int(pm_buf *out, int64_t v)
{
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    int n = pm_shortest_digit_count(mag), rc;
    char *p;
    if ((rc = pm_buf_reserve(out, 21)) != 0)
        return rc;
    p = (char *)out->data + out->len;
    if (v < 0)
        *p++ = '-';
    pm_shortest_write_digits(p, mag, n);
    out->len = (size_t)(p + n - (char *)out->data);
    return 0;
}

int pm_format_double(pm_buf *out, double v)
{
    pm_shortest d;
    if (isnan(v))
        return pm_buf_puts(out, "NaN");
    if (isinf(v))
        return pm_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
    pm_shortest_f64(v, &d);
    return put_shortest(out, &d);
}

int pm_format_float(pm_buf *out, float v)
{
    pm_shortest d;
    if (isnan(v))
        return pm_buf_puts(out, "NaN");
    if (isinf(v))
        return pm_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
    pm_shortest_f32(v, &d);
    return put_shortest(out, &d);
}

int pm_base64(pm_buf *out, const uint8_t *data, size_t len)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int rc = pm_buf_reserve(out, (len + 2) / 3 * 4);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        out->data[out->len++] = (uint8_t)tbl[(v >> 18) & 63];
        out->data[out->len++] = (uint8_t)tbl[(v >> 12) & 63];
        out->data[out->len++] = i + 1 < len ? (uint8_t)tbl[(v >> 6) & 63] : '=';
        out->data[out->len++] = i + 2 < len ? (uint8_t)tbl[v & 63] : '=';
    }
    return 0;
}

PM_MUST_CHECK static int nested_json(pm_buf *out, const pm_type *t, const pm_datum *d,
                                     paimon_error *err);

PM_MUST_CHECK static int canonical_value(pm_buf *out, const pm_type *t, const pm_datum *d,
                                         paimon_error *err)
{
    int rc = 0;
    if (d->is_null)
        return pm_buf_puts(out, "null");
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return pm_buf_puts(out, d->v.b ? "true" : "false");
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return put_int(out, d->v.i);
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: {
        bool special = t->id == PM_TYPE_FLOAT ? !isfinite(d->v.f) : !isfinite(d->v.d);
        if (special && (rc = pm_buf_putc(out, '"')) != 0)
            return rc;
        rc = t->id == PM_TYPE_FLOAT ? pm_format_float(out, d->v.f) : pm_format_double(out, d->v.d);
        if (rc == 0 && special)
            rc = pm_buf_putc(out, '"');
        return rc;
    }
    case PM_TYPE_DECIMAL:
        if ((rc = pm_buf_putc(out, '"')) == 0 &&
            (rc = pm_format_decimal(out, d->v.dec, t->scale)) == 0)
            rc = pm_buf_putc(out, '"');
        return rc;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return pm_json_quote(out, (const char *)d->v.s.ptr, d->v.s.len);
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if ((rc = pm_buf_puts(out, "\"base64:")) == 0 &&
            (rc = pm_base64(out, d->v.s.ptr, d->v.s.len)) == 0)
            rc = pm_buf_putc(out, '"');
        return rc;
    case PM_TYPE_DATE:
        if ((rc = pm_buf_putc(out, '"')) == 0 && (rc = pm_format_date(out, d->v.i)) == 0)
            rc = pm_buf_putc(out, '"');
        return rc;
    case PM_TYPE_TIME:
        if ((rc = pm_buf_putc(out, '"')) == 0 &&
            (rc = pm_format_time(out, d->v.i, t->precision)) == 0)
            rc = pm_buf_putc(out, '"');
        return rc;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if ((rc = pm_buf_putc(out, '"')) == 0 &&
            (rc = pm_format_timestamp(out, d->v.ts.millis, d->v.ts.nanos, t->precision)) == 0)
            rc = pm_buf_putc(out, '"');
        return rc;
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET:
    case PM_TYPE_ROW: return nested_json(out, t, d, err);
    case PM_TYPE_VARIANT:
    case PM_TYPE_BLOB:
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "VARIANT and BLOB values are not supported");
    }
    return pm_err_set(err, PAIMON_EINVALID, "unknown type");
}

/* pm_buf failures carry no message: give them one. */
PM_MUST_CHECK static int buf_rc(paimon_error *err, int rc)
{
    if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT)
        return pm_buf_error(err, rc);
    return rc;
}

int pm_canonical_json(pm_buf *out, const pm_type *t, const pm_datum *d, paimon_error *err)
{
    return buf_rc(err, canonical_value(out, t, d, err));
}

PM_MUST_CHECK static int nested_json(pm_buf *out, const pm_type *t, const pm_datum *d,
                                     paimon_error *err)
{
    pm_binarray keys, values;
    pm_datum item;
    int rc;

    if (t->id == PM_TYPE_ROW) {
        pm_binrow row;
        if ((rc = pm_binrow_view(&row, d->v.s.ptr, d->v.s.len, (int32_t)t->field_count, err)))
            return rc;
        if ((rc = buf_rc(err, pm_buf_putc(out, '{'))) != 0)
            return rc;
        for (size_t i = 0; i < t->field_count; i++) {
            const pm_field *f = &t->fields[i];
            if (i > 0 && (rc = buf_rc(err, pm_buf_putc(out, ','))) != 0)
                return rc;
            if ((rc = buf_rc(err, pm_json_quote(out, f->name, strlen(f->name)))) != 0 ||
                (rc = buf_rc(err, pm_buf_putc(out, ':'))) != 0 ||
                (rc = pm_binrow_get(&row, (int32_t)i, f->type, &item, err)) != 0 ||
                (rc = canonical_value(out, f->type, &item, err)) != 0)
                return rc;
        }
        return buf_rc(err, pm_buf_putc(out, '}'));
    }
    if (t->id == PM_TYPE_ARRAY) {
        if ((rc = pm_binarray_view(&values, d->v.s.ptr, d->v.s.len, err)) != 0 ||
            (rc = buf_rc(err, pm_buf_putc(out, '['))) != 0)
            return rc;
        for (int32_t i = 0; i < values.count; i++) {
            if (i > 0 && (rc = buf_rc(err, pm_buf_putc(out, ','))) != 0)
                return rc;
            if ((rc = pm_binarray_get(&values, i, t->element, &item, err)) != 0 ||
                (rc = canonical_value(out, t->element, &item, err)) != 0)
                return rc;
        }
        return buf_rc(err, pm_buf_putc(out, ']'));
    }
    /* MAP and MULTISET (= MAP<element, INT NOT NULL>): [[k, v], ...] in stored order. */
    {
        pm_type count_type = {.id = PM_TYPE_INT, .nullable = false};
        const pm_type *vt = t->id == PM_TYPE_MAP ? t->value : &count_type;
        if ((rc = pm_binmap_view(&keys, &values, d->v.s.ptr, d->v.s.len, err)) != 0 ||
            (rc = buf_rc(err, pm_buf_putc(out, '['))) != 0)
            return rc;
        for (int32_t i = 0; i < keys.count; i++) {
            if ((rc = buf_rc(err, pm_buf_puts(out, i > 0 ? ",[" : "["))) != 0 ||
                (rc = pm_binarray_get(&keys, i, t->element, &item, err)) != 0 ||
                (rc = canonical_value(out, t->element, &item, err)) != 0 ||
                (rc = buf_rc(err, pm_buf_putc(out, ','))) != 0 ||
                (rc = pm_binarray_get(&values, i, vt, &item, err)) != 0 ||
                (rc = canonical_value(out, vt, &item, err)) != 0 ||
                (rc = buf_rc(err, pm_buf_putc(out, ']'))) != 0)
                return rc;
        }
        return buf_rc(err, pm_buf_putc(out, ']'));
    }
}
