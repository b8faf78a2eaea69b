/*
 * Scalar values from text, appended to columns: the inverse of the canonical printer
 * (data/canonical.c) for every atomic Paimon type, plus the Debezium number and Connect
 * Decimal encodings.  docs/format/input.md lists what each type accepts.
 *
 * Rule for every type: a value that cannot be stored exactly is an error, never rounded,
 * truncated, padded or clamped.  Messages quote the offending text (pm_input_show).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "data/canonical.h"
#include "data/input_int.h"
#include "util/alloc.h"
#include "util/utf8.h"

#define SHOW(s, n) pm_input_show(shown, (s), (n))

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* "<text> <pre><type><post>", e.g. "12.345 has more digits than DECIMAL(10, 2) allows". */
static int type_fail(pm_input_ctx *x, const pm_type *t, const uint8_t *s, size_t n, const char *pre,
                     const char *post)
{
    char shown[160], tn[96];
    return pm_input_fail(x, "%s %s%s%s", SHOW(s, n), pre, pm_input_type_name(tn, sizeof(tn), t),
                         post);
}

int pm_input_put_null(pm_input_ctx *x, pm_column *c)
{
    int rc;
    if (!c->type->nullable)
        return pm_input_fail(x, "null, but the %s is NOT NULL", x->depth == 0 ? "column" : "type");
    if ((rc = pm_column_append_null(c)) != 0)
        return pm_input_fail_buf(x, rc);
    return 0;
}

/* ---- integers -------------------------------------------------------------------------- */

/* Parses [+-]?digits; 0 ok, 1 not an integer, 2 out of int64 range. */
int pm_input_parse_i64(const uint8_t *s, size_t n, int64_t *out)
{
    size_t i = 0, fast;
    bool neg = false;
    uint64_t v = 0, limit;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return 1;
    /* 18 digits cannot overflow: no checks until then */
    fast = n - i < 18 ? n : i + 18;
    for (; i < fast; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d > 9)
            return 1;
        v = v * 10 + d;
    }
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d > 9)
            return 1;
        if (v > (limit - d) / 10) {
            /* keep checking the syntax so "99999999999999999999x" is "not an integer" */
            for (i++; i < n; i++)
                if (!is_digit(s[i]))
                    return 1;
            return 2;
        }
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

int pm_input_int_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    int64_t v = 0, lo, hi;
    int r = pm_input_parse_i64(s, n, &v);
    switch (c->type->id) {
    case PM_TYPE_TINYINT: lo = INT8_MIN, hi = INT8_MAX; break;
    case PM_TYPE_SMALLINT: lo = INT16_MIN, hi = INT16_MAX; break;
    case PM_TYPE_INT: lo = INT32_MIN, hi = INT32_MAX; break;
    default: lo = INT64_MIN, hi = INT64_MAX; break;
    }
    if (r == 1)
        return type_fail(x, c->type, s, n, "is not a valid ", "");
    if (r == 2 || v < lo || v > hi)
        return type_fail(x, c->type, s, n, "is out of the range of ", "");
    switch (c->width) {
    case 1: {
        int8_t b = (int8_t)v;
        return pm_input_put_fixed(c, &b) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
    case 2: {
        int16_t h = (int16_t)v;
        return pm_input_put_fixed(c, &h) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
    case 4: {
        int32_t w = (int32_t)v;
        return pm_input_put_fixed(c, &w) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
    default: return pm_input_put_fixed(c, &v) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
}

/* ---- FLOAT and DOUBLE ------------------------------------------------------------------ */

static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float POW10F[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
/* x87 extended precision: 10^k is exact up to 10^27 (5^27 < 2^64). */
#define HAVE_X87_FAST_PATH 1
static const long double POW10L[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                     1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                     1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
                                     1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#endif

bool pm_input_exact_double(uint64_t m, int64_t e10, bool neg, double *out)
{
    if (m <= (1ull << 53) && e10 >= -22 && e10 <= 22) {
        /* Clinger: both operands exact, one rounding */
        double d = (double)m;
        d = e10 < 0 ? d / POW10[-e10] : d * POW10[e10];
        *out = neg ? -d : d;
        return true;
    }
#ifdef HAVE_X87_FAST_PATH
    /* Mantissas of up to 19 digits (every double the printer writes has at most 17): one
     * correctly rounded extended-precision operation, then rounding to double.  Rounding
     * twice gives the correctly rounded double unless the extended result sits at (or one
     * unit from) a midpoint between two doubles, which the 11 extra bits show; those few
     * go to strtod. */
    if (e10 >= -27 && e10 <= 27) {
        long double ld = (long double)m;
        uint64_t sig;
        unsigned low;
        ld = e10 < 0 ? ld / POW10L[-e10] : ld * POW10L[e10];
        memcpy(&sig, &ld, sizeof(sig)); /* the 64-bit significand, integer bit explicit */
        low = (unsigned)(sig & 0x7ff);
        if (low < 0x3ff || low > 0x401) {
            double d = (double)ld;
            *out = neg ? -d : d;
            return true;
        }
    }
#endif
    return false;
}

static bool text_is(const uint8_t *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n == l && memcmp(s, lit, l) == 0;
}

/* The exponent after an 'e' or 'E' at s[*i]: an optional sign and at least one digit (false
 * without), the magnitude saturating once it reaches `cap` (far past any scale); *i moves
 * past it. */
static bool read_exponent(const uint8_t *s, size_t n, size_t *i, int64_t cap, int64_t *out)
{
    bool neg = false;
    int64_t v = 0;
    size_t at = *i + 1, start;
    if (at < n && (s[at] == '-' || s[at] == '+'))
        neg = s[at++] == '-';
    start = at;
    for (; at < n && is_digit(s[at]); at++)
        if (v < cap)
            v = v * 10 + (s[at] - '0');
    *i = at;
    if (at == start)
        return false;
    *out = neg ? -v : v;
    return true;
}

/* Parses decimal floating-point text: [+-]? digits [. digits] [e [+-] digits], at least one
 * digit, or the specials NaN, Infinity, -Infinity (also +Infinity).  Returns 0, 1 for bad
 * syntax, 2 out of range.  Clinger's fast path (exact mantissa and power of ten, one
 * rounding) covers what the canonical printer writes; the rest goes to strtod/strtof,
 * which round correctly. */
static int parse_real(const uint8_t *s, size_t n, bool single, double *dout, float *fout)
{
    size_t i = 0;
    bool neg = false, exact = true;
    uint64_t m = 0;
    int nd = 0;
    int64_t e10 = 0;
    size_t digits = 0;

    if (text_is(s, n, "NaN")) {
        *dout = (double)NAN;
        *fout = NAN;
        return 0;
    }
    if (text_is(s, n, "Infinity") || text_is(s, n, "+Infinity") || text_is(s, n, "-Infinity")) {
        *dout = s[0] == '-' ? -(double)INFINITY : (double)INFINITY;
        *fout = s[0] == '-' ? -INFINITY : INFINITY;
        return 0;
    }
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    for (; i < n && is_digit(s[i]); i++, digits++) {
        if (m == 0 && s[i] == '0')
            continue;
        if (nd < 19) {
            m = m * 10 + (uint64_t)(s[i] - '0');
            nd++;
        } else {
            exact = false;
        }
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++, digits++) {
            if (m == 0 && s[i] == '0') {
                e10--;
                continue;
            }
            if (nd < 19) {
                m = m * 10 + (uint64_t)(s[i] - '0');
                nd++;
                e10--;
            } else {
                exact = false;
            }
        }
    }
    if (digits == 0)
        return 1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int64_t ev;
        if (!read_exponent(s, n, &i, 1000000, &ev))
            return 1;
        e10 += ev;
    }
    if (i != n)
        return 1;
    if (m == 0) {
        *dout = neg ? -0.0 : 0.0;
        *fout = neg ? -0.0f : 0.0f;
        return 0;
    }
    if (!single && exact && pm_input_exact_double(m, e10, neg, dout))
        return 0;
    if (single && exact && m <= (1ull << 24) && e10 >= -10 && e10 <= 10) {
        float f = (float)m;
        f = e10 < 0 ? f / POW10F[-e10] : f * POW10F[e10];
        *fout = neg ? -f : f;
        return 0;
    }
    {
        /* strtod needs a NUL-terminated copy; the syntax is already checked, so it cannot
         * take "inf", hex or trailing junk. */
        char small[128];
        char *copy = n < sizeof(small) ? small : pm_malloc(n + 1);
        int r = 0;
        if (copy == NULL)
            return 3;
        memcpy(copy, s, n);
        copy[n] = '\0';
        errno = 0;
        if (single) {
            *fout = strtof(copy, NULL);
            r = isinf(*fout) ? 2 : 0;
        } else {
            *dout = strtod(copy, NULL);
            r = isinf(*dout) ? 2 : 0;
        }
        if (copy != small)
            pm_free(copy);
        return r;
    }
}

int pm_input_real_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    double d = 0;
    float f = 0;
    bool single = c->type->id == PM_TYPE_FLOAT;
    int r = parse_real(s, n, single, &d, &f);
    if (r == 1)
        return type_fail(x, c->type, s, n, "is not a valid ", "");
    if (r == 2)
        return type_fail(x, c->type, s, n, "is out of the range of ", "");
    if (r == 3)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    if ((single ? pm_input_put_fixed(c, &f) : pm_input_put_fixed(c, &d)) != 0)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    return 0;
}

/* ---- DECIMAL --------------------------------------------------------------------------- */

/* 10^k for 0 <= k <= 38. */
static const pm_int128 POW10_128[39] = {
    (pm_int128)1ULL,
    (pm_int128)10ULL,
    (pm_int128)100ULL,
    (pm_int128)1000ULL,
    (pm_int128)10000ULL,
    (pm_int128)100000ULL,
    (pm_int128)1000000ULL,
    (pm_int128)10000000ULL,
    (pm_int128)100000000ULL,
    (pm_int128)1000000000ULL,
    (pm_int128)10000000000ULL,
    (pm_int128)100000000000ULL,
    (pm_int128)1000000000000ULL,
    (pm_int128)10000000000000ULL,
    (pm_int128)100000000000000ULL,
    (pm_int128)1000000000000000ULL,
    (pm_int128)10000000000000000ULL,
    (pm_int128)100000000000000000ULL,
    (pm_int128)1000000000000000000ULL,
    (pm_int128)10000000000000000000ULL,
    (pm_int128)10000000000000000000ULL * 10ULL,
    (pm_int128)10000000000000000000ULL * 100ULL,
    (pm_int128)10000000000000000000ULL * 1000ULL,
    (pm_int128)10000000000000000000ULL * 10000ULL,
    (pm_int128)10000000000000000000ULL * 100000ULL,
    (pm_int128)10000000000000000000ULL * 1000000ULL,
    (pm_int128)10000000000000000000ULL * 10000000ULL,
    (pm_int128)10000000000000000000ULL * 100000000ULL,
    (pm_int128)10000000000000000000ULL * 1000000000ULL,
    (pm_int128)10000000000000000000ULL * 10000000000ULL,
    (pm_int128)10000000000000000000ULL * 100000000000ULL,
    (pm_int128)10000000000000000000ULL * 1000000000000ULL,
    (pm_int128)10000000000000000000ULL * 10000000000000ULL,
    (pm_int128)10000000000000000000ULL * 100000000000000ULL,
    (pm_int128)10000000000000000000ULL * 1000000000000000ULL,
    (pm_int128)10000000000000000000ULL * 10000000000000000ULL,
    (pm_int128)10000000000000000000ULL * 100000000000000000ULL,
    (pm_int128)10000000000000000000ULL * 1000000000000000000ULL,
    (pm_int128)10000000000000000000ULL * 10000000000000000000ULL,
};

static pm_int128 pow10_128(int k)
{
    return POW10_128[k];
}

/* Appends the unscaled value after the precision check (|v| < 10^p). */
static int put_decimal(pm_input_ctx *x, pm_column *c, pm_int128 v, const uint8_t *s, size_t n)
{
    pm_int128 lim = pow10_128(c->type->precision);
    if (v >= lim || v <= -lim)
        return type_fail(x, c->type, s, n, "has more digits than ", " allows");
    if (pm_input_put_fixed(c, &v) != 0)
        return pm_input_fail_buf(x, PAIMON_ENOMEM);
    return 0;
}

/* Decimal text: [+-]? digits [. digits] [e [+-] digits] (the point or the digits before it
 * may be missing, as BigDecimal reads ".5").  The value must be exact at the column's
 * scale (extra fractional digits must be zeros) and fit its precision. */
int pm_input_decimal_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    int p = c->type->precision, sc = c->type->scale;
    size_t i = 0, int_a, int_b, frac_a, frac_b, total;
    bool neg = false;
    int64_t exp = 0, scale_in, drop, pad;
    size_t first, last; /* significant digit range in the virtual string int+frac */
    pm_int128 v = 0;

    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    int_a = i;
    while (i < n && is_digit(s[i]))
        i++;
    int_b = i;
    frac_a = frac_b = i;
    if (i < n && s[i] == '.') {
        frac_a = ++i;
        while (i < n && is_digit(s[i]))
            i++;
        frac_b = i;
    }
    if (int_b == int_a && frac_b == frac_a)
        return type_fail(x, c->type, s, n, "is not a valid ", "");
    if (i < n && (s[i] == 'e' || s[i] == 'E') && !read_exponent(s, n, &i, 100000, &exp))
        return type_fail(x, c->type, s, n, "is not a valid ", "");
    if (i != n)
        return type_fail(x, c->type, s, n, "is not a valid ", "");

    /* The digits as one virtual string D = int part + frac part, its value D * 10^-scale_in. */
    total = (int_b - int_a) + (frac_b - frac_a);
#define DIGIT(k) ((k) < int_b - int_a ? s[int_a + (k)] : s[frac_a + (k) - (int_b - int_a)])
    first = 0;
    while (first < total && DIGIT(first) == '0')
        first++;
    if (first == total) { /* zero, whatever the exponent */
        v = 0;
        return put_decimal(x, c, v, s, n);
    }
    scale_in = (int64_t)(frac_b - frac_a) - exp;
    last = total; /* digits [first, last) are kept */
    drop = scale_in > sc ? scale_in - sc : 0;
    if (drop > 0) {
        /* the dropped trailing digits must all be zeros */
        int64_t keep = (int64_t)total - drop;
        for (int64_t k = (int64_t)total - 1; k >= keep && k >= (int64_t)first; k--)
            if (DIGIT((size_t)k) != '0')
                return type_fail(x, c->type, s, n, "has more digits than ", " allows");
        last = keep > (int64_t)first ? (size_t)keep : first;
    }
    pad = scale_in < sc ? sc - scale_in : 0;
    if ((int64_t)(last - first) + pad > p)
        return type_fail(x, c->type, s, n, "has more digits than ", " allows");
    for (size_t k = first; k < last; k++)
        v = v * 10 + (DIGIT(k) - '0');
#undef DIGIT
    v *= pow10_128((int)pad);
    return put_decimal(x, c, neg ? -v : v, s, n);
}

int pm_input_decimal_unscaled(pm_input_ctx *x, pm_column *c, const uint8_t *bytes, size_t len,
                              int64_t scale, const uint8_t *shown_s, size_t shown_len)
{
    int sc = c->type->scale;
    pm_int128 v;
    unsigned __int128 u = 0;
    bool neg = len > 0 && (bytes[0] & 0x80);
    char text[96];
    size_t i = 0;

    /* leading sign-extension bytes beyond 16 carry no information */
    while (len - i > 16) {
        if (bytes[i] != (neg ? 0xff : 0x00))
            return type_fail(x, c->type, shown_s, shown_len, "has more digits than ", " allows");
        i++;
    }
    if (neg)
        u = ~(unsigned __int128)0;
    for (; i < len; i++)
        u = (u << 8) | bytes[i];
    v = (pm_int128)u;
    if (len == 0)
        v = 0;
    /* show the number itself in messages: unscaled / 10^scale */
    if (scale >= 0 && scale <= 38) {
        pm_buf b;
        pm_buf_init(&b, sizeof(text) - 1);
        if (pm_format_decimal(&b, v, (int)scale) == 0 && b.len < sizeof(text)) {
            memcpy(text, b.data, b.len);
            shown_s = (const uint8_t *)text;
            shown_len = b.len;
        }
        pm_buf_free(&b);
    }
    if (scale > sc) {
        int64_t k = scale - sc;
        pm_int128 d;
        if (k > 38)
            return v == 0 ? put_decimal(x, c, 0, shown_s, shown_len)
                          : type_fail(x, c->type, shown_s, shown_len, "has more digits than ",
                                      " allows");
        d = pow10_128((int)k);
        if (v % d != 0)
            return type_fail(x, c->type, shown_s, shown_len, "has more digits than ", " allows");
        v /= d;
    } else if (scale < sc) {
        int64_t k = sc - scale;
        pm_int128 r;
        if (v != 0 && (k > 38 || __builtin_mul_overflow(v, pow10_128((int)k), &r)))
            return type_fail(x, c->type, shown_s, shown_len, "has more digits than ", " allows");
        v = v == 0 ? 0 : v * pow10_128((int)k);
    }
    return put_decimal(x, c, v, shown_s, shown_len);
}

/* ---- base64 ---------------------------------------------------------------------------- */

static const int8_t BASE64[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1, -1, -1, 0,  1,  2,  3,  4,  5,  6,
    7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, -1, -1, -1, -1, -1,
    -1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

int pm_input_base64_decode(pm_buf *out, const uint8_t *s, size_t n)
{
    const int8_t *tbl = BASE64;
    uint32_t acc = 0;
    int bits = 0, rc;
    size_t i, pad = 0;
    while (pad < 2 && pad < n && s[n - 1 - pad] == '=')
        pad++;
    if (pad > 0 && n % 4 != 0)
        return -1; /* padding only on a complete final group */
    n -= pad;
    if (n % 4 == 1)
        return -1;
    if ((rc = pm_buf_reserve(out, n / 4 * 3 + 3)) != 0)
        return rc;
    for (i = 0; i < n; i++) {
        int8_t d = tbl[s[i]];
        if (d < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out->data[out->len++] = (uint8_t)(acc >> bits);
        }
    }
    return 0;
}

/* ---- strings and binaries -------------------------------------------------------------- */

static int string_value(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    char shown[160], tn[96];
    size_t chars = 0;
    int rc;
    if (!pm_utf8_validate(s, n, &chars)) /* no overlongs, surrogates, past U+10FFFF */
        return pm_input_fail(x, "%s is not valid UTF-8", SHOW(s, n));
    if (chars > (size_t)c->type->length)
        return pm_input_fail(x, "%s has %zu characters, more than %s allows", SHOW(s, n), chars,
                             pm_input_type_name(tn, sizeof(tn), c->type));
    if ((rc = pm_input_put_bytes(c, s, n)) != 0)
        return pm_input_fail_buf(x, rc);
    return 0;
}

static int binary_value(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n, bool bare,
                        bool reverse)
{
    char shown[160], tn[96];
    pm_buf *out = &x->decoded;
    const uint8_t *text = s;
    size_t text_len = n;
    int rc;
    if (n >= 7 && memcmp(s, "base64:", 7) == 0) {
        s += 7;
        n -= 7;
    } else if (!bare) {
        return pm_input_fail(x,
                             "%s is not \"base64:\" and standard base64 (how %s values are "
                             "written)",
                             SHOW(s, n), pm_input_type_name(tn, sizeof(tn), c->type));
    }
    pm_buf_reset(out);
    if ((rc = pm_input_base64_decode(out, s, n)) != 0) {
        if (rc == -1)
            return pm_input_fail(x, "%s is not valid base64", SHOW(text, text_len));
        return pm_input_fail_buf(x, rc);
    }
    if (out->len > (size_t)c->type->length)
        return pm_input_fail(x, "%s has %zu bytes, more than %s allows", SHOW(text, text_len),
                             out->len, pm_input_type_name(tn, sizeof(tn), c->type));
    for (size_t i = 0; reverse && i < out->len / 2; i++) {
        uint8_t t = out->data[i];
        out->data[i] = out->data[out->len - 1 - i];
        out->data[out->len - 1 - i] = t;
    }
    if ((rc = pm_column_append_bytes(c, out->data, out->len)) != 0)
        return pm_input_fail_buf(x, rc);
    return 0;
}

/* ---- dispatch -------------------------------------------------------------------------- */

static int bool_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    int rc;
    bool v;
    if (n == 4 && strncasecmp((const char *)s, "true", 4) == 0)
        v = true;
    else if (n == 5 && strncasecmp((const char *)s, "false", 5) == 0)
        v = false;
    else
        return type_fail(x, c->type, s, n, "is not a valid ", " (true or false)");
    {
        pm_datum d = {.is_null = false, .v.b = v};
        if ((rc = pm_column_append_datum(c, &d)) != 0)
            return pm_input_fail_buf(x, rc);
    }
    return 0;
}

static int nested_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    pm_input_cur cur = {s, s + n};
    int rc = pm_input_json_value(x, &cur, c, NULL);
    if (rc != 0)
        return rc;
    pm_input_ws(&cur);
    if (cur.p != cur.end) {
        char shown[160];
        return pm_input_fail(x, "unexpected %s after the value",
                             SHOW(cur.p, (size_t)(cur.end - cur.p)));
    }
    return 0;
}

int pm_input_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n,
                  const pm_input_enc *enc)
{
    pm_input_enc_kind ek = enc != NULL ? enc->kind : PM_ENC_NONE;
    switch (c->type->id) {
    case PM_TYPE_BOOLEAN: return bool_text(x, c, s, n);
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return pm_input_int_text(x, c, s, n);
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: return pm_input_real_text(x, c, s, n);
    case PM_TYPE_DECIMAL:
        if (ek == PM_ENC_DECIMAL) {
            int rc;
            pm_buf_reset(&x->decoded);
            if ((rc = pm_input_base64_decode(&x->decoded, s, n)) != 0) {
                char shown[160];
                if (rc == -1)
                    return pm_input_fail(x, "%s is not valid base64 (%s)", SHOW(s, n),
                                         enc->name != NULL ? enc->name : "Decimal");
                return pm_input_fail_buf(x, rc);
            }
            return pm_input_decimal_unscaled(x, c, x->decoded.data, x->decoded.len, enc->scale, s,
                                             n);
        }
        return pm_input_decimal_text(x, c, s, n);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        if (ek == PM_ENC_BYTES) { /* Connect bytes read into a string column: base64 of UTF-8 */
            int rc;
            char shown[160];
            pm_buf_reset(&x->decoded);
            if ((rc = pm_input_base64_decode(&x->decoded, s, n)) != 0)
                return rc == -1 ? pm_input_fail(x, "%s is not valid base64", SHOW(s, n))
                                : pm_input_fail_buf(x, rc);
            return string_value(x, c,
                                x->decoded.data != NULL ? x->decoded.data : (const uint8_t *)"",
                                x->decoded.len);
        }
        return string_value(x, c, s, n);
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        return binary_value(x, c, s, n, ek == PM_ENC_BYTES || ek == PM_ENC_BITS, ek == PM_ENC_BITS);
    case PM_TYPE_DATE: return pm_input_date_text(x, c, s, n);
    case PM_TYPE_TIME: return pm_input_time_text(x, c, s, n, ek == PM_ENC_ZONED);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return pm_input_timestamp_text(x, c, s, n);
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET:
    case PM_TYPE_ROW: return nested_text(x, c, s, n);
    default: return pm_input_fail(x, "VARIANT and BLOB values are not supported");
    }
}
