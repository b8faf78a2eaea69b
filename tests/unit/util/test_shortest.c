/* util: shortest round-trip decimals (util/shortest.h) at the level of digits and exponent,
 * and the digit writer shared with the integer printer: every power of 10 and its
 * neighbours, the extremes of both widths, the sign of -0.  The text built from them is
 * tested in unit/data/test_format_double. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "util/shortest.h"

static void test_digit_count_and_write(void **state)
{
    uint64_t p = 1;
    char text[32], want[32];
    (void)state;
    for (int k = 0; k <= 19; k++, p *= 10) {
        const uint64_t vs[] = {p - 1, p, p + 1, p * 3 - 1};
        for (size_t i = 0; i < 4; i++) {
            uint64_t v = vs[i];
            int n = pm_shortest_digit_count(v);
            snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
            assert_int_equal(n, (int)strlen(want));
            memset(text, 'x', sizeof(text));
            pm_shortest_write_digits(text, v, n);
            assert_int_equal(text[n], 'x'); /* nothing past the digits */
            text[n] = '\0';
            assert_string_equal(text, want);
        }
    }
    assert_int_equal(pm_shortest_digit_count(UINT64_MAX), 20);
    pm_shortest_write_digits(text, UINT64_MAX, 20);
    text[20] = '\0';
    assert_string_equal(text, "18446744073709551615");
}

static void expect64(double v, uint64_t digits, int exp10, bool negative)
{
    pm_shortest d;
    pm_shortest_f64(v, &d);
    assert_int_equal(d.digits, digits);
    assert_int_equal(d.exp10, exp10);
    assert_int_equal(d.negative, negative);
    assert_int_equal(d.digit_count, pm_shortest_digit_count(digits));
}

static void expect32(float v, uint64_t digits, int exp10)
{
    pm_shortest d;
    pm_shortest_f32(v, &d);
    assert_int_equal(d.digits, digits);
    assert_int_equal(d.exp10, exp10);
}

static void test_decimals(void **state)
{
    (void)state;
    expect64(0.0, 0, 0, false);
    expect64(-0.0, 0, 0, true);
    expect64(1.0, 1, 0, false);
    expect64(100.0, 1, 2, false); /* trailing zeros go to the exponent */
    expect64(0.1, 1, -1, false);
    expect64(-12345.678, 12345678, -3, true);
    expect64(DBL_MAX, 17976931348623157ULL, 292, false);
    expect64(DBL_MIN, 22250738585072014ULL, -324, false);
    expect64(4.9406564584124654e-324, 5, -324, false);
    expect64(9007199254740992.0, 9007199254740992ULL, 0, false);
    expect64(1e23, 1, 23, false);
    expect64(ldexp(1, -1017), 7120236347223045ULL, -322, false);
    expect32(0.1f, 1, -1);
    expect32(FLT_MAX, 34028235, 31);
    expect32(1.4e-45f, 1, -45);
    expect32(16777216.0f, 16777216, 0);
    expect32(1.0f / 3.0f, 33333334, -8);
}

/* Every power of 10 the formats hold reads back through its own digits. */
static void test_powers_of_ten(void **state)
{
    char text[64];
    (void)state;
    for (int e = -323; e <= 308; e++) {
        pm_shortest d;
        snprintf(text, sizeof(text), "1e%d", e);
        pm_shortest_f64(strtod(text, NULL), &d);
        assert_int_equal(d.digits, 1);
        assert_int_equal(d.exp10, e);
    }
    for (int e = -45; e <= 38; e++) {
        pm_shortest d;
        snprintf(text, sizeof(text), "1e%d", e);
        pm_shortest_f32(strtof(text, NULL), &d);
        assert_int_equal(d.digits, 1);
        assert_int_equal(d.exp10, e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digit_count_and_write),
        cmocka_unit_test(test_decimals),
        cmocka_unit_test(test_powers_of_ten),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
