/*
 * Fast paths for the values the canonical printer writes, for JSONL and CSV hot loops.
 *
 * Each function accepts only a narrow, common shape (plain integers, decimals without
 * exponent, ASCII strings within the length, timestamps in exactly the canonical layout)
 * and returns 1 after appending the value, or 0 having appended nothing, when the general
 * parser (input_text.c, input_json.c) must decide, which it does for every input,
 * including every error.  So the fast paths never change what is accepted or how: for any
 * text they accept, the general parser appends the same value (the fuzz target checks
 * this by parsing every input both ways).  A negative return is an allocation failure.
 */
#include "data/input_int.h"

static inline bool digit(uint8_t c)
{
    return (unsigned)c - '0' <= 9;
}

/* -?(0|[1-9][0-9]{0,17}) at s, up to `end`: the JSON integer grammar, 18 digits at most.
 * *stop is where the digits end (the caller checks what follows). */
static bool scan_int(const uint8_t *s, const uint8_t *end, int64_t *out, const uint8_t **stop)
{
    const uint8_t *p = s + (s < end && *s == '-');
    const uint8_t *lim = end - p > 18 ? p + 18 : end;
    uint64_t v = 0;
    unsigned d;
    if (p == end || !digit(*p))
        return false;
    if (*p == '0') {
        p++;
    } else {
        while (p < lim && (d = (unsigned)*p - '0') <= 9) {
            v = v * 10 + d;
            p++;
        }
    }
    if (p < end && digit(*p))
        return false; /* a leading zero, or more than 18 digits */
    *out = *s == '-' ? -(int64_t)v : (int64_t)v;
    *stop = p;
    return true;
}

/* Appends v if it fits the column's width: 1, 0 when out of range, -1 out of memory. */
static int put_int(pm_column *c, int64_t v)
{
    switch (c->width) {
    case 1:
        if (v < INT8_MIN || v > INT8_MAX)
            return 0;
        {
            int8_t b = (int8_t)v;
            return pm_input_put_fixed(c, &b) == 0 ? 1 : -1;
        }
    case 2:
        if (v < INT16_MIN || v > INT16_MAX)
            return 0;
        {
            int16_t h = (int16_t)v;
            return pm_input_put_fixed(c, &h) == 0 ? 1 : -1;
        }
    case 4:
        if (v < INT32_MIN || v > INT32_MAX)
            return 0;
        {
            int32_t w = (int32_t)v;
            return pm_input_put_fixed(c, &w) == 0 ? 1 : -1;
        }
    default: return pm_input_put_fixed(c, &v) == 0 ? 1 : -1;
    }
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)? with at most 19 significant digits, no exponent, that
 * pm_input_exact_double converts; *stop is where it ends (the caller checks what follows). */
static bool scan_double(const uint8_t *s, const uint8_t *end, double *out, const uint8_t **stop)
{
    const uint8_t *p = s;
    bool neg = false;
    uint64_t m = 0;
    int64_t e10 = 0;
    int nd = 0;
    if (p < end && *p == '-') {
        neg = true;
        p++;
    }
    if (p == end || !digit(*p) || (*p == '0' && p + 1 < end && digit(p[1])))
        return false;
    for (; p < end && digit(*p); p++) {
        if (m != 0 || *p != '0') {
            m = m * 10 + (unsigned)(*p - '0');
            nd++;
        }
        if (nd > 19)
            return false;
    }
    if (p < end && *p == '.') {
        const uint8_t *f = ++p;
        for (; p < end && digit(*p); p++) {
            if (m != 0 || *p != '0') {
                m = m * 10 + (unsigned)(*p - '0');
                nd++;
            }
            if (nd > 19)
                return false;
            e10--;
        }
        if (p == f)
            return false;
    }
    *stop = p;
    if (m == 0) {
        *out = neg ? -0.0 : 0.0;
        return true;
    }
    return pm_input_exact_double(m, e10, neg, out);
}

/* -?[0-9]+(\.[0-9]+)? with at most 18 digits and no more fractional digits than the scale. */
static int fast_decimal(pm_column *c, const uint8_t *s, size_t n)
{
    static const int64_t P10[19] = {1,
                                    10,
                                    100,
                                    1000,
                                    10000,
                                    100000,
                                    1000000,
                                    10000000,
                                    100000000,
                                    1000000000,
                                    10000000000,
                                    100000000000,
                                    1000000000000,
                                    10000000000000,
                                    100000000000000,
                                    1000000000000000,
                                    10000000000000000,
                                    100000000000000000,
                                    1000000000000000000};
    size_t i = n > 0 && s[0] == '-';
    uint64_t acc = 0;
    int nd = 0, frac = -1, sig = 0, pad;
    pm_int128 v;
    if (i == n)
        return 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d <= 9) {
            if (++nd > 18)
                return 0;
            acc = acc * 10 + d;
            sig += acc != 0;
            frac += frac >= 0;
        } else if (s[i] == '.' && frac < 0 && nd > 0) {
            frac = 0;
        } else {
            return 0;
        }
    }
    if (nd == 0 || frac == 0 || frac > c->type->scale)
        return 0;
    pad = c->type->scale - (frac < 0 ? 0 : frac);
    /* digits of the value at the column's scale: the significant ones plus the padding */
    if (pad > 18 || sig + pad > c->type->precision)
        return 0;
    v = (pm_int128)acc * P10[pad];
    if (s[0] == '-')
        v = -v;
    return pm_input_put_fixed(c, &v) == 0 ? 1 : -1;
}

static int fast_string(pm_column *c, const uint8_t *s, size_t n)
{
    /* ASCII only (UTF-8 by construction, one character per byte) within the length */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ull)
            return 0;
    }
    for (; i < n; i++)
        if (s[i] & 0x80)
            return 0;
    if (n > (size_t)c->type->length)
        return 0;
    return pm_input_put_bytes(c, s, n) == 0 ? 1 : -1;
}

static int fast_timestamp(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    int64_t days, secs, nanos;
    if (pm_input_timestamp_fixed(s, n, &days, &secs, &nanos) != 0 ||
        nanos % pm_input_nanos_per_unit(c->type->precision) != 0)
        return 0;
    /* cannot overflow below TIMESTAMP(7..9)'s range limit, which the general path reports */
    if (c->type->precision > 6 && (days < -106751 || days > 106750))
        return 0;
    return pm_input_put_timestamp(x, c, days * 86400 + secs, nanos, s, n) == 0 ? 1 : -1;
}

int pm_input_fast_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    const uint8_t *stop;
    int64_t v;
    double d;
    switch (c->type->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
        if (!scan_int(s, s + n, &v, &stop) || stop != s + n)
            return 0;
        return put_int(c, v);
    case PM_TYPE_DOUBLE:
        if (!scan_double(s, s + n, &d, &stop) || stop != s + n)
            return 0;
        return pm_input_put_fixed(c, &d) == 0 ? 1 : -1;
    case PM_TYPE_DECIMAL: return fast_decimal(c, s, n);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return fast_string(c, s, n);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return fast_timestamp(x, c, s, n);
    default: return 0;
    }
}

/* A JSON number must end at a delimiter: no exponent, no letters. */
static bool json_delimiter(const uint8_t *p, const uint8_t *end)
{
    return p == end || *p == ',' || *p == '}' || *p == ']' || *p == ' ' || *p == '\t' ||
           *p == '\r' || *p == '\n';
}

int pm_input_fast_json(pm_input_ctx *x, pm_input_cur *cur, pm_column *c)
{
    const uint8_t *p = cur->p, *e, *end = cur->end;
    int rc = 0;
    if (p >= end)
        return 0;
    if (*p == '"') {
        /* a string without escapes or control characters, closed on this line */
        const pm_type *t = c->type;
        if (t->id != PM_TYPE_VARCHAR && t->id != PM_TYPE_CHAR && t->id != PM_TYPE_DECIMAL &&
            t->id != PM_TYPE_TIMESTAMP && t->id != PM_TYPE_TIMESTAMP_LTZ)
            return 0;
        e = ++p;
        for (;;) {
            while (end - e >= 8) {
                uint64_t w, q, b, hit;
                memcpy(&w, e, 8);
                q = w ^ 0x2222222222222222ull;
                b = w ^ 0x5c5c5c5c5c5c5c5cull;
                hit = (((q - 0x0101010101010101ull) & ~q) | ((b - 0x0101010101010101ull) & ~b) |
                       ((w - 0x2020202020202020ull) & ~w)) &
                      0x8080808080808080ull;
                if (hit != 0) {
                    e += __builtin_ctzll(hit) >> 3;
                    break;
                }
                e += 8;
            }
            while (e < end && *e != '"' && *e != '\\' && *e >= 0x20)
                e++;
            break;
        }
        if (e >= end || *e != '"')
            return 0;
        if ((rc = pm_input_fast_text(x, c, p, (size_t)(e - p))) == 1)
            cur->p = e + 1;
        return rc;
    }
    if (*p == '-' || digit(*p)) {
        int64_t v;
        double d;
        switch (c->type->id) {
        case PM_TYPE_TINYINT:
        case PM_TYPE_SMALLINT:
        case PM_TYPE_INT:
        case PM_TYPE_BIGINT:
            if (!scan_int(p, end, &v, &e) || !json_delimiter(e, end) || (rc = put_int(c, v)) != 1)
                return rc < 0 ? rc : 0;
            cur->p = e;
            return 1;
        case PM_TYPE_DOUBLE:
            if (!scan_double(p, end, &d, &e) || !json_delimiter(e, end))
                return 0;
            if (pm_input_put_fixed(c, &d) != 0)
                return -1;
            cur->p = e;
            return 1;
        default: return 0; /* FLOAT rounds on its own; numbers for DECIMAL are rare */
        }
    }
    return 0;
}
