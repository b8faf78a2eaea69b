/* data: the canonical text of DATE, TIME, TIMESTAMP and DECIMAL values (canonical.c), which
 * writes digits directly instead of through printf.  Each is compared with the printf
 * formatter it replaced, kept here as the reference, on edge cases and random values, out
 * of range ones included (years outside 0..9999, negative and 100-hour times, nanosecond
 * fields a corrupt file could hold, every scale of DECIMAL up to 38, the extreme 128-bit
 * values). */
#include <string.h>

#include "testlib.h"

#include "data/canonical.h"
#include "util/time.h"

__extension__ typedef unsigned __int128 u128;

/* ---- the reference: the printf formatters of canonical.c before this change ----------- */

static void ref_date(pm_buf *out, int64_t days)
{
    int64_t y;
    unsigned m, d;
    pm_civil_from_days(days, &y, &m, &d);
    if (y > 9999)
        pm_buf_printf(out, "+%lld-%02u-%02u", (long long)y, m, d);
    else if (y < 0)
        pm_buf_printf(out, "-%04lld-%02u-%02u", (long long)-y, m, d);
    else
        pm_buf_printf(out, "%04lld-%02u-%02u", (long long)y, m, d);
}

static void ref_fraction(pm_buf *out, int64_t nanos_of_second, int precision)
{
    char digits[24];
    if (precision <= 0)
        return;
    if (precision > 9)
        precision = 9;
    snprintf(digits, sizeof(digits), "%09lld", (long long)nanos_of_second);
    pm_buf_printf(out, ".%.*s", precision, digits);
}

static void ref_hms(pm_buf *out, const char *lead, int64_t secs)
{
    pm_buf_printf(out, "%s%02lld:%02lld:%02lld", lead, (long long)(secs / 3600),
                  (long long)(secs / 60 % 60), (long long)(secs % 60));
}

static void ref_time(pm_buf *out, int64_t ms, int precision)
{
    ref_hms(out, "", pm_floor_div(ms, 1000));
    ref_fraction(out, pm_floor_mod(ms, 1000) * 1000000, precision);
}

static void ref_time_nanos(pm_buf *out, int64_t nanos, int precision)
{
    ref_hms(out, "", pm_floor_div(nanos, 1000000000));
    ref_fraction(out, pm_floor_mod(nanos, 1000000000), precision);
}

static void ref_timestamp(pm_buf *out, int64_t millis, int32_t nanos, int precision)
{
    int64_t days = pm_floor_div(millis, 86400000), ms_of_day = pm_floor_mod(millis, 86400000);
    ref_date(out, days);
    ref_hms(out, " ", ms_of_day / 1000);
    ref_fraction(out, (ms_of_day % 1000) * 1000000 + nanos, precision);
}

static void ref_decimal(pm_buf *out, pm_int128 v, int scale)
{
    char digits[48];
    int n = 0;
    u128 mag = v < 0 ? (u128)0 - (u128)v : (u128)v;
    do {
        digits[n++] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag != 0);
    while (n <= scale)
        digits[n++] = '0';
    if (v < 0)
        pm_buf_putc(out, '-');
    for (int i = n - 1; i >= 0; i--) {
        if (i == scale - 1 && scale > 0)
            pm_buf_putc(out, '.');
        pm_buf_putc(out, (uint8_t)digits[i]);
    }
}

/* ---- comparison ------------------------------------------------------------------------ */

static pm_buf got, want;

static void same(const char *what, long long a, long long b)
{
    const char *g = pm_buf_cstr(&got), *w = pm_buf_cstr(&want);
    if (strcmp(g, w) != 0)
        fail_msg("%s(%lld, %lld): got %s, reference %s", what, a, b, g, w);
    pm_buf_reset(&got);
    pm_buf_reset(&want);
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random int64 of random magnitude (shifted right 0 to 63 places), either sign. */
static int64_t any(uint64_t *s)
{
    int64_t v = (int64_t)(next(s) >> (next(s) % 64));
    return (next(s) & 1) != 0 ? -v : v;
}

static void test_dates(void **state)
{
    static const int64_t edges[] = {0,       -1,      1,          -719528,    -719529,
                                    2932896, 2932897, -100000000, 100000000,  20562,
                                    11016,   -25567,  1000000000, -1000000000};
    uint64_t seed = 88172645463325252ULL;
    (void)state;
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        assert_int_equal(pm_format_date(&got, edges[i]), 0);
        ref_date(&want, edges[i]);
        same("date", edges[i], 0);
    }
    for (int i = 0; i < 200000; i++) {
        int64_t d = any(&seed) % 4000000000LL;
        assert_int_equal(pm_format_date(&got, d), 0);
        ref_date(&want, d);
        same("date", d, 0);
    }
}

static void test_times(void **state)
{
    static const int64_t edges[] = {
        0,         -1,        1,         999,       1000,       86399999,      86400000,
        359999999, 360000000, 360000001, -86400000, -360000001, INT64_MAX / 2, INT64_MIN / 2};
    uint64_t seed = 0x1234567887654321ULL;
    (void)state;
    for (int p = -1; p <= 12; p++) {
        for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
            assert_int_equal(pm_format_time(&got, edges[i], p), 0);
            ref_time(&want, edges[i], p);
            same("time", edges[i], p);
            int64_t ns = (int64_t)((uint64_t)edges[i] * 1000003u); /* wraps: any value */
            assert_int_equal(pm_format_time_nanos(&got, ns, p), 0);
            ref_time_nanos(&want, ns, p);
            same("time_nanos", ns, p);
        }
    }
    for (int i = 0; i < 200000; i++) {
        int64_t v = any(&seed);
        int p = (int)(next(&seed) % 11);
        assert_int_equal(pm_format_time(&got, v, p), 0);
        ref_time(&want, v, p);
        same("time", v, p);
        assert_int_equal(pm_format_time_nanos(&got, v, p), 0);
        ref_time_nanos(&want, v, p);
        same("time_nanos", v, p);
    }
}

static void test_timestamps(void **state)
{
    static const int64_t edges[] = {0,
                                    -1,
                                    1,
                                    86399999,
                                    86400000,
                                    -86400000,
                                    1776594672123LL,
                                    -62167219200000LL,
                                    253402300799999LL,
                                    253402300800000LL,
                                    INT64_MAX / 4,
                                    INT64_MIN / 4};
    static const int32_t nanos[] = {0,       1,         999999,    123456,   -1,
                                    1000000, 999999999, INT32_MAX, INT32_MIN};
    uint64_t seed = 0xdeadbeefcafef00dULL;
    (void)state;
    for (int p = 0; p <= 10; p++)
        for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
            for (size_t j = 0; j < sizeof(nanos) / sizeof(nanos[0]); j++) {
                assert_int_equal(pm_format_timestamp(&got, edges[i], nanos[j], p), 0);
                ref_timestamp(&want, edges[i], nanos[j], p);
                same("timestamp", edges[i], nanos[j]);
            }
    for (int i = 0; i < 200000; i++) {
        int64_t ms = any(&seed) % 400000000000000LL;
        int32_t ns =
            (next(&seed) & 7) == 0 ? (int32_t)next(&seed) : (int32_t)(next(&seed) % 1000000);
        int p = (int)(next(&seed) % 10);
        assert_int_equal(pm_format_timestamp(&got, ms, ns, p), 0);
        ref_timestamp(&want, ms, ns, p);
        same("timestamp", ms, ns);
    }
}

static void test_decimals(void **state)
{
    const u128 max = ~(u128)0 >> 1;
    const pm_int128 edges[] = {0,
                               1,
                               -1,
                               9,
                               10,
                               -10,
                               99,
                               100,
                               1000000000000000000LL,
                               (pm_int128)10000000000000000000ULL,
                               (pm_int128)10000000000000000000ULL - 1,
                               (pm_int128)((u128)10000000000000000000ULL * 10000000000000000000ULL),
                               (pm_int128)max,
                               -(pm_int128)max,
                               -(pm_int128)max - 1};
    uint64_t seed = 0x0123456789abcdefULL;
    (void)state;
    for (int scale = 0; scale <= 38; scale++)
        for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
            assert_int_equal(pm_format_decimal(&got, edges[i], scale), 0);
            ref_decimal(&want, edges[i], scale);
            same("decimal", (long long)edges[i], scale);
        }
    for (int i = 0; i < 200000; i++) {
        u128 m = ((u128)next(&seed) << 64 | next(&seed)) >> (next(&seed) % 128);
        pm_int128 v = (next(&seed) & 1) != 0 ? -(pm_int128)(m >> 1) : (pm_int128)(m >> 1);
        int scale = (int)(next(&seed) % 39);
        assert_int_equal(pm_format_decimal(&got, v, scale), 0);
        ref_decimal(&want, v, scale);
        same("decimal", (long long)v, scale);
    }
}

static int setup(void **state)
{
    (void)state;
    pm_buf_init(&got, 0);
    pm_buf_init(&want, 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pm_buf_free(&got);
    pm_buf_free(&want);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_timestamps),
        cmocka_unit_test(test_decimals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
