/*
 * Shortest round-trip decimals (shortest.h), by Schubfach (R. Giulietti, "The Schubfach way
 * to render doubles", 2020).  The method, as this file uses it:
 *
 * A finite v > 0 is c 2^q (c the significand with its hidden bit).  The decimals that read
 * back as v are those in its rounding interval R = [v - lower/2, v + upper/2] between the
 * midpoints to its neighbours: upper = 2^q, lower = 2^q too, except at a power of two
 * (c = 2^(P-1), not the smallest exponent) where the neighbour below is half as far, lower =
 * 2^(q-1).  The midpoints themselves belong to R when c is even (a reader rounds a tie to the
 * even significand) and not when c is odd.  In quarter units, R's bounds and v are
 * cbl 2^(q-2), cbr 2^(q-2) and cb 2^(q-2) with cb = 4c, cbr = cb + 2, cbl = cb - 2 (or cb - 1).
 *
 * Pick k = floor(log10(width of R)) (width 2^q, or 3/4 2^q at a power of two), and scale by
 * 10^-k: R becomes an interval at least 1 and less than 10 wide.  So it holds at least one
 * integer and at most one multiple of 10, and with s = floor(v 10^-k):
 *   - if a multiple of 10 lies in R, it is 10 floor(s / 10) or that + 10, and it is the
 *     shortest decimal (its trailing zeros go; nothing else in R has fewer digits);
 *   - otherwise every integer in R has the digits of s, the closest to v are s and s + 1,
 *     and at least one of them lies in R: take the one in R, or the closer of both (a tie
 *     to the even one).
 *
 * The scaled bounds vbl, vb, vbr (in quarter units, so s = vb / 4) need only be known to
 * within their floor and whether they are integers: rop(x) = floor(x), or floor(x) | 1 when
 * x is not an integer ("round to odd").  Comparing an even integer with rop(x) then gives the
 * same answer as comparing it with x.  rop is computed from the 126-bit g(-k), slightly above
 * 10^-k 2^-r: x' = g cp / 2^127 with cp = cb 2^h exceeds x by less than 2^-68, and the paper
 * shows that over every binary64 input x is an integer or at least 2^-63 away from one, so
 * floor(x') = floor(x) and x is an integer exactly when the first 63 bits of x''s fraction
 * are zero.  binary32 uses the upper 63 bits of g plus one and a 64-bit product, as the paper
 * does (the error is below 2^-32, the test 2^-31).  Both are compared with the printf-based
 * formatter they replaced by tests/tools/double_compare (edge cases, 100 M random patterns
 * of each width, every binary32 of the lowest exponents; --all-floats for all 2^32).
 */
#include "util/shortest.h"

#include <string.h>

#include "util/shortest_table.h"

__extension__ typedef unsigned __int128 u128;

static const uint64_t POW10[20] = {1ULL,
                                   10ULL,
                                   100ULL,
                                   1000ULL,
                                   10000ULL,
                                   100000ULL,
                                   1000000ULL,
                                   10000000ULL,
                                   100000000ULL,
                                   1000000000ULL,
                                   10000000000ULL,
                                   100000000000ULL,
                                   1000000000000ULL,
                                   10000000000000ULL,
                                   100000000000000ULL,
                                   1000000000000000ULL,
                                   10000000000000000ULL,
                                   100000000000000000ULL,
                                   1000000000000000000ULL,
                                   10000000000000000000ULL};

static const char PAIRS[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* floor(q log10 2), floor(log10(3/4 2^q)) and floor(e log2 10) for the exponents of
 * binary64 (the constants are checked over that range by shortest_table.py). */
static int floor_log10_pow2(int q)
{
    return (int)(((int64_t)q * PM_SHORTEST_LOG10_2_M) >> 41);
}

static int floor_log10_three_quarters_pow2(int q)
{
    return (int)(((int64_t)q * PM_SHORTEST_LOG10_2_M - PM_SHORTEST_LOG10_3Q_C) >> 41);
}

static int floor_log2_pow10(int e)
{
    return (int)(((int64_t)e * PM_SHORTEST_LOG2_10_M) >> 38);
}

/* rop(g cp / 2^127) for the 126-bit g = {hi, lo} (63 bits each) and cp < 2^63. */
static uint64_t rop64(const uint64_t *g, uint64_t cp)
{
    /* g cp = hi cp 2^63 + lo cp, so t = floor(g cp / 2^63); its high half is the integer part
     * of g cp / 2^127 and its low half the first 64 bits of the fraction. */
    u128 t = (u128)g[0] * cp + (((u128)g[1] * cp) >> 63);
    return (uint64_t)(t >> 64) | ((uint64_t)t > 1);
}

/* rop(g cp / 2^95) for a 64-bit g and cp < 2^63: the first 31 bits of the fraction. */
static uint64_t rop32(uint64_t g, uint64_t cp)
{
    uint64_t x1 = (uint64_t)(((u128)g * cp) >> 64);
    return (x1 >> 31) | ((x1 & 0x7fffffffu) != 0);
}

/* Drops the trailing zeros of f x 10^e (f > 0) and fills out. */
static void finish(pm_shortest *out, uint64_t f, int e)
{
    while (f % 10 == 0 && f != 0) {
        f /= 10;
        e++;
    }
    out->digits = f;
    out->exp10 = e;
    out->digit_count = pm_shortest_digit_count(f);
}

/* The choice among s, s + 1 and the multiples of 10 beside them, from the scaled bounds
 * vbl, vb, vbr (quarter units); `open` is 1 when R excludes its end points (c odd). */
static void choose(pm_shortest *out, uint64_t vbl, uint64_t vb, uint64_t vbr, uint64_t open, int k)
{
    uint64_t s = vb >> 2, t = s + 1;
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    bool s10_in = vbl + open <= sp10 << 2, t10_in = (tp10 << 2) + open <= vbr;
    bool s_in, t_in;
    int64_t cmp;

    if (s10_in != t10_in) { /* both cannot be: R is less than 10 wide */
        finish(out, s10_in ? sp10 : tp10, k);
        return;
    }
    s_in = vbl + open <= s << 2;
    t_in = (t << 2) + open <= vbr;
    if (s_in != t_in) {
        finish(out, s_in ? s : t, k);
        return;
    }
    cmp = (int64_t)(vb - (4 * s + 2)); /* v against the midpoint of s and t */
    finish(out, cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t, k);
}

void pm_shortest_f64(double v, pm_shortest *out)
{
    uint64_t bits, fraction, c, cb, cbl, open;
    int biased, q, k, h;
    const uint64_t *g;

    memcpy(&bits, &v, sizeof(bits));
    out->negative = (bits >> 63) != 0;
    fraction = bits & ((1ULL << 52) - 1);
    biased = (int)(bits >> 52) & 0x7ff;
    if (biased == 0 && fraction == 0) {
        out->digits = 0;
        out->exp10 = 0;
        out->digit_count = 1;
        return;
    }
    if (biased == 0) {
        c = fraction;
        q = -1074;
    } else {
        c = fraction | (1ULL << 52);
        q = biased - 1075;
        /* An integer below 2^53 is its own shortest decimal (its neighbours are at most 1
         * away, the midpoints 1/2). */
        if (q < 0 && q > -53 && (c & ((1ULL << -q) - 1)) == 0) {
            finish(out, c >> -q, 0);
            return;
        }
    }
    open = c & 1;
    cb = c << 2;
    if (fraction == 0 && biased > 1) {
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    } else {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    }
    h = q + floor_log2_pow10(-k) + 2;
    g = pm_shortest_g[-k - PM_SHORTEST_G_MIN];
    choose(out, rop64(g, cbl << h), rop64(g, cb << h), rop64(g, (cb + 2) << h), open, k);
}

void pm_shortest_f32(float v, pm_shortest *out)
{
    uint32_t bits, fraction;
    uint64_t c, cb, cbl, open, g;
    int biased, q, k, h;

    memcpy(&bits, &v, sizeof(bits));
    out->negative = (bits >> 31) != 0;
    fraction = bits & ((1u << 23) - 1);
    biased = (int)(bits >> 23) & 0xff;
    if (biased == 0 && fraction == 0) {
        out->digits = 0;
        out->exp10 = 0;
        out->digit_count = 1;
        return;
    }
    if (biased == 0) {
        c = fraction;
        q = -149;
    } else {
        c = fraction | (1u << 23);
        q = biased - 150;
        if (q < 0 && q > -24 && (c & ((1ULL << -q) - 1)) == 0) {
            finish(out, c >> -q, 0);
            return;
        }
    }
    open = c & 1;
    cb = c << 2;
    if (fraction == 0 && biased > 1) {
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    } else {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    }
    h = q + floor_log2_pow10(-k) + 33;
    g = pm_shortest_g[-k - PM_SHORTEST_G_MIN][0] + 1;
    choose(out, rop32(g, cbl << h), rop32(g, cb << h), rop32(g, (cb + 2) << h), open, k);
}

int pm_shortest_digit_count(uint64_t v)
{
    /* floor(log10(2^bits)) is bits * 1233 >> 12 for bits <= 64; then one comparison. */
    int bits = 64 - __builtin_clzll(v | 1), n = (bits * 1233) >> 12;
    return n + ((v | 1) >= POW10[n]);
}

void pm_shortest_write_digits(char *dst, uint64_t v, int count)
{
    char *p = dst + count;
    uint32_t w;
    /* eight digits at a time, within them 32-bit arithmetic (cheaper than 64-bit) */
    while (v >= 100000000) {
        uint64_t q = v / 100000000;
        uint32_t r = (uint32_t)(v - q * 100000000);
        v = q;
        for (int i = 0; i < 4; i++) {
            uint32_t rq = r / 100;
            memcpy(p -= 2, PAIRS + 2 * (r - rq * 100), 2);
            r = rq;
        }
    }
    w = (uint32_t)v;
    while (w >= 100) {
        uint32_t q = w / 100;
        memcpy(p -= 2, PAIRS + 2 * (w - q * 100), 2);
        w = q;
    }
    if (w >= 10)
        memcpy(p - 2, PAIRS + 2 * w, 2);
    else
        p[-1] = (char)('0' + w);
}
