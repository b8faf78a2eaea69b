/*
 * Bit patterns for testing the printing of binary64 and binary32 values
 * (tests/unit/data/test_format_double.c, tests/tools/double_compare.c): the edge cases, each
 * handed to a callback, and a random stream that mixes uniform bit patterns with the values
 * the digit generator finds hardest.  Header-only (static inline).
 *
 * Edge cases: zeros; every subnormal with one bit set; every exponent with the fraction 0, 1,
 * 2, half, all ones and all ones less one (so every power of two and both its neighbours);
 * powers of 10 (and 2, 5, 25 times them) with two neighbours each way; small integers,
 * integers around 2^53 (2^24), 10^k; decimals that lie exactly halfway between two adjacent
 * values (a rounding interval then ends on a short decimal, included or not by the parity
 * of the significand); values exactly halfway between two decimals of their length
 * (c / 4 with c odd); NaN payloads and infinities.
 */
#ifndef PM_TESTS_DOUBLE_CASES_H
#define PM_TESTS_DOUBLE_CASES_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*cases_f64_fn)(uint64_t bits, void *ctx);
typedef void (*cases_f32_fn)(uint32_t bits, void *ctx);

/* xorshift64* (nonzero seed). */
static inline uint64_t cases_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static inline uint64_t cases_f64_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

static inline uint32_t cases_f32_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

/* The value of a decimal text, as the bits of the nearest binary64 (binary32). */
static inline uint64_t cases_parse64(const char *text)
{
    return cases_f64_bits(strtod(text, NULL));
}

static inline uint32_t cases_parse32(const char *text)
{
    return cases_f32_bits(strtof(text, NULL));
}

/* bits and its neighbours within `d` steps (same sign; the callee sees NaNs and infinities
 * where the steps run off the end, which it must handle anyway). */
static inline void cases_around64(uint64_t bits, int d, cases_f64_fn fn, void *ctx)
{
    for (int i = -d; i <= d; i++)
        if ((i >= 0 || (bits & 0x7fffffffffffffffULL) >= (uint64_t)-i))
            fn(bits + (uint64_t)(int64_t)i, ctx);
}

static inline void cases_around32(uint32_t bits, int d, cases_f32_fn fn, void *ctx)
{
    for (int i = -d; i <= d; i++)
        if ((i >= 0 || (bits & 0x7fffffffu) >= (uint32_t)-i))
            fn(bits + (uint32_t)(int32_t)i, ctx);
}

/* Odd m with m 5^e in [lo, 2 lo) (so m 5^e = 2c + 1 for a significand c of P bits, lo = 2^P):
 * the decimal m 10^e is then exactly halfway between c 2^(e+1) and (c + 1) 2^(e+1). */
static inline void cases_halfway64(uint64_t *seed, cases_f64_fn fn, void *ctx)
{
    const uint64_t lo = 1ULL << 53;
    uint64_t p5 = 1;
    for (int e = 1; e <= 22; e++) {
        p5 *= 5;
        uint64_t m_min = (lo + p5 - 1) / p5, m_max = (2 * lo - 1) / p5;
        for (int j = 0; j < 12 && m_min <= m_max; j++) {
            uint64_t m = j == 0   ? m_min
                         : j == 1 ? m_max
                                  : m_min + cases_next(seed) % (m_max - m_min + 1);
            uint64_t c;
            m |= 1;
            if (m > m_max)
                m -= 2;
            if (m < m_min)
                continue;
            c = (m * p5 - 1) / 2; /* the value below; c + 1 above */
            for (uint64_t cc = c; cc <= c + 1; cc++) {
                double v = ldexp((double)cc, e + 1);
                fn(cases_f64_bits(v), ctx);
            }
        }
    }
}

static inline void cases_halfway32(uint64_t *seed, cases_f32_fn fn, void *ctx)
{
    const uint64_t lo = 1ULL << 24;
    uint64_t p5 = 1;
    for (int e = 1; e <= 10; e++) {
        p5 *= 5;
        uint64_t m_min = (lo + p5 - 1) / p5, m_max = (2 * lo - 1) / p5;
        for (int j = 0; j < 12 && m_min <= m_max; j++) {
            uint64_t m = j == 0   ? m_min
                         : j == 1 ? m_max
                                  : m_min + cases_next(seed) % (m_max - m_min + 1);
            uint64_t c;
            m |= 1;
            if (m > m_max)
                m -= 2;
            if (m < m_min)
                continue;
            c = (m * p5 - 1) / 2;
            for (uint64_t cc = c; cc <= c + 1; cc++)
                fn(cases_f32_bits(ldexpf((float)cc, e + 1)), ctx);
        }
    }
}

static inline void cases_edge_doubles(cases_f64_fn fn, void *ctx)
{
    static const char *const named[] = {"0.1",
                                        "0.2",
                                        "0.3",
                                        "0.7",
                                        "1.1",
                                        "2.675",
                                        "1e23",
                                        "8.41e21",
                                        "5e-324",
                                        "1e-323",
                                        "2.2250738585072014e-308",
                                        "2.225073858507201e-308",
                                        "1.7976931348623157e308",
                                        "9007199254740993",
                                        "123456789012345680000",
                                        "4.35e-322",
                                        "0.000123",
                                        "12345.678",
                                        "1e-7",
                                        "1e21",
                                        "1e22",
                                        "9.999999999999999e22",
                                        "3.141592653589793",
                                        "2.718281828459045",
                                        "1.2345678901234567e-300",
                                        "5.764607523034235e39",
                                        "1.8014398509481984e16"};
    static const uint64_t nans[] = {
        0x7ff0000000000001ULL, 0x7ff8000000000000ULL, 0x7ff4000000000000ULL, 0x7fffffffffffffffULL,
        0xfff0000000000001ULL, 0xfff8000000000000ULL, 0xffffffffffffffffULL, 0x7ff0000000000000ULL,
        0xfff0000000000000ULL, 0x7ff00000deadbeefULL};
    const uint64_t frac_max = (1ULL << 52) - 1;
    uint64_t seed = 0x243f6a8885a308d3ULL;
    char text[64];

    for (size_t i = 0; i < sizeof(nans) / sizeof(nans[0]); i++)
        fn(nans[i], ctx);
    fn(0, ctx);
    fn(1ULL << 63, ctx);
    for (int b = 0; b < 52; b++) /* subnormals with one bit, and neighbours */
        cases_around64(1ULL << b, 1, fn, ctx);
    for (uint64_t c = 1; c <= 1000; c++) /* the smallest significands */
        fn(c, ctx);
    fn(frac_max, ctx);
    for (uint64_t e = 1; e < 2047; e++) {
        const uint64_t fracs[] = {0, 1, 2, 1ULL << 51, frac_max - 1, frac_max};
        for (size_t i = 0; i < 6; i++) {
            fn(e << 52 | fracs[i], ctx);
            fn(1ULL << 63 | e << 52 | fracs[i], ctx);
        }
    }
    for (int e = -326; e <= 309; e++) {
        static const char *const leads[] = {"1", "2", "5", "25", "3", "9"};
        for (size_t i = 0; i < 6; i++) {
            snprintf(text, sizeof(text), "%se%d", leads[i], e);
            cases_around64(cases_parse64(text), 2, fn, ctx);
        }
    }
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        cases_around64(cases_parse64(named[i]), 2, fn, ctx);
        fn(cases_parse64(named[i]) | 1ULL << 63, ctx);
    }
    for (int i = 0; i <= 10000; i++)
        fn(cases_f64_bits((double)i), ctx);
    for (int i = -20; i <= 20; i++) {
        fn(cases_f64_bits(9007199254740992.0 + (double)(2 * i)), ctx);
        fn(cases_f64_bits(18014398509481984.0 + (double)(4 * i)), ctx);
    }
    {
        double p = 1;
        for (int k = 0; k <= 22; k++, p *= 10) /* 10^k exact to 10^22 */
            cases_around64(cases_f64_bits(p), 3, fn, ctx);
    }
    for (uint64_t b = 1ULL << 53; b > 0; b >>= 1) /* integers 2^n - 1, 2^n + 1 */
        for (int i = -1; i <= 1; i++)
            fn(cases_f64_bits((double)(b + (uint64_t)(int64_t)i)), ctx);
    cases_halfway64(&seed, fn, ctx);
    for (int q = -3; q <= -1; q++) /* c 2^q, c odd: v 10 is halfway between two integers */
        for (int j = 0; j < 200; j++) {
            uint64_t c = ((1ULL << 52) | (cases_next(&seed) & frac_max)) | 1;
            fn(cases_f64_bits(ldexp((double)c, q)), ctx);
        }
}

static inline void cases_edge_floats(cases_f32_fn fn, void *ctx)
{
    static const char *const named[] = {"0.1",
                                        "0.2",
                                        "0.3",
                                        "1.1",
                                        "3.4028235e38",
                                        "1e-45",
                                        "1.17549435e-38",
                                        "1.1754942e-38",
                                        "16777217",
                                        "3.1415927",
                                        "8.5e-38",
                                        "1e10",
                                        "7.038531e-26"};
    static const uint32_t nans[] = {0x7f800001u, 0x7fc00000u, 0x7fa00000u, 0x7fffffffu,
                                    0xff800001u, 0xffc00000u, 0xffffffffu, 0x7f800000u,
                                    0xff800000u, 0x7f80beefu};
    const uint32_t frac_max = (1u << 23) - 1;
    uint64_t seed = 0x13198a2e03707344ULL;
    char text[64];

    for (size_t i = 0; i < sizeof(nans) / sizeof(nans[0]); i++)
        fn(nans[i], ctx);
    for (uint32_t e = 0; e < 255; e++) { /* every exponent, subnormals included */
        for (int i = 0; i < 16; i++) {
            uint32_t f = i == 0   ? 0
                         : i == 1 ? 1
                         : i == 2 ? 2
                         : i == 3 ? 1u << 22
                         : i == 4 ? frac_max - 1
                         : i == 5 ? frac_max
                                  : (uint32_t)cases_next(&seed) & frac_max;
            fn(e << 23 | f, ctx);
            fn(1u << 31 | e << 23 | f, ctx);
        }
    }
    for (int b = 0; b < 23; b++)
        cases_around32(1u << b, 1, fn, ctx);
    for (uint32_t c = 1; c <= 1000; c++)
        fn(c, ctx);
    for (int e = -47; e <= 39; e++) {
        static const char *const leads[] = {"1", "2", "5", "25", "3", "9"};
        for (size_t i = 0; i < 6; i++) {
            snprintf(text, sizeof(text), "%se%d", leads[i], e);
            cases_around32(cases_parse32(text), 2, fn, ctx);
        }
    }
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        cases_around32(cases_parse32(named[i]), 2, fn, ctx);
        fn(cases_parse32(named[i]) | 1u << 31, ctx);
    }
    for (int i = 0; i <= 100000; i++)
        fn(cases_f32_bits((float)i), ctx);
    for (int i = -20; i <= 20; i++)
        fn(cases_f32_bits(16777216.0f + (float)(2 * i)), ctx);
    {
        float p = 1;
        for (int k = 0; k <= 10; k++, p *= 10) /* 10^k exact to 10^10 */
            cases_around32(cases_f32_bits(p), 3, fn, ctx);
    }
    cases_halfway32(&seed, fn, ctx);
    for (int q = -3; q <= -1; q++)
        for (int j = 0; j < 200; j++) {
            uint32_t c = ((1u << 23) | ((uint32_t)cases_next(&seed) & frac_max)) | 1;
            fn(cases_f32_bits(ldexpf((float)c, q)), ctx);
        }
}

/* One pattern of the random stream: half uniform bits, the rest a short decimal (1 to 17
 * digits, any exponent) or its neighbour, an integer, or few significant bits. */
static inline uint64_t cases_random_double(uint64_t *s)
{
    uint64_t r = cases_next(s), x = cases_next(s);
    char text[64];
    switch (r & 7) {
    case 0:
    case 1:
    case 2:
    case 3: return x;
    case 4:
    case 5: {
        int len = 1 + (int)((r >> 8) % 17), e = (int)((r >> 16) % 650) - 340;
        uint64_t m = x % 100000000000000000ULL;
        for (int i = len; i < 17; i++)
            m /= 10;
        snprintf(text, sizeof(text), "%llue%d", (unsigned long long)m, e);
        x = cases_parse64(text);
        if ((r & 8) != 0) /* a neighbour, up to two steps away */
            x += ((r >> 32) % 5) - 2;
        return x | (r >> 40 & 1) << 63;
    }
    case 6: return cases_f64_bits((double)(x >> (r >> 8) % 64));
    default: /* few significant bits: a random exponent, the top 1 to 12 fraction bits */
        return (x & 0xfff0000000000000ULL) |
               (x >> 12 & ~((1ULL << (52 - (r >> 8) % 12)) - 1) & ((1ULL << 52) - 1));
    }
}

static inline uint32_t cases_random_float(uint64_t *s)
{
    uint64_t r = cases_next(s), x = cases_next(s);
    char text[64];
    switch (r & 7) {
    case 0:
    case 1:
    case 2:
    case 3: return (uint32_t)x;
    case 4:
    case 5: {
        int len = 1 + (int)((r >> 8) % 9), e = (int)((r >> 16) % 90) - 50;
        uint64_t m = x % 1000000000ULL;
        for (int i = len; i < 9; i++)
            m /= 10;
        snprintf(text, sizeof(text), "%llue%d", (unsigned long long)m, e);
        uint32_t b = cases_parse32(text);
        if ((r & 8) != 0)
            b += (uint32_t)((r >> 32) % 5) - 2;
        return b | (uint32_t)(r >> 40 & 1) << 31;
    }
    case 6: return cases_f32_bits((float)(x >> (r >> 8) % 64));
    default:
        return ((uint32_t)x & 0xff800000u) |
               ((uint32_t)(x >> 40) & ~((1u << (23 - (r >> 8) % 12)) - 1) & ((1u << 23) - 1));
    }
}

#endif /* PM_TESTS_DOUBLE_CASES_H */
