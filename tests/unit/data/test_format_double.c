/* data: the canonical text of DOUBLE and FLOAT values (pm_format_double, pm_format_float
 * over util/shortest.c).  Known values with their expected text (the layout rules, the
 * specials, and the powers of two where the previous formatter was one digit too long); then
 * every edge case of tests/lib/double_cases.h and a random stream of patterns, each compared
 * with the previous formatter kept in tests/lib/double_ref.h, which allows no difference
 * but a shorter decimal at a power of two.  The full 100 M comparison is
 * tests/tools/double_compare (make compare-doubles), not part of make test. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "testlib.h"

#include "data/batch.h"
#include "data/canonical.h"
#include "double_cases.h"
#include "double_ref.h"

/* Random patterns of each width checked in make test (the sanitized debug build spends about
 * 10 us on a pattern in the reference formatter). */
#define RANDOM_PATTERNS 1000000

static const char *fmt_double(double v)
{
    static char text[64];
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_format_double(&b, v), 0);
    assert_true(b.len < sizeof(text));
    memcpy(text, b.data, b.len);
    text[b.len] = '\0';
    pm_buf_free(&b);
    return text;
}

static const char *fmt_float(float v)
{
    static char text[64];
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_format_float(&b, v), 0);
    memcpy(text, b.data, b.len);
    text[b.len] = '\0';
    pm_buf_free(&b);
    return text;
}

static double from_bits64(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof(v));
    return v;
}

static float from_bits32(uint32_t bits)
{
    float v;
    memcpy(&v, &bits, sizeof(v));
    return v;
}

static void test_known_doubles(void **state)
{
    static const struct {
        double v;
        const char *text;
    } cases[] = {
        {0.0, "0"},
        {1.0, "1"},
        {-1.5, "-1.5"},
        {0.1, "0.1"},
        {100.0, "1e2"}, /* %g with one digit: exponent from X >= 1 */
        {120.0, "1.2e2"},
        {123.0, "123"},
        {12345.678, "12345.678"},
        {123456789.0, "123456789"},
        {0.0001, "0.0001"},
        {0.00012, "0.00012"},
        {1e-5, "1e-5"},
        {1e-7, "1e-7"},
        {1.5e-7, "1.5e-7"},
        {1e21, "1e21"},
        {1e23, "1e23"},
        {0.30000000000000004, "0.30000000000000004"},
        {9007199254740993.0, "9007199254740992"},
        {123456789012345680000.0, "1.2345678901234568e20"},
        {DBL_MAX, "1.7976931348623157e308"},
        {DBL_MIN, "2.2250738585072014e-308"},
        {4.9406564584124654e-324, "5e-324"},
        {9.8813129168249309e-324, "1e-323"},
        {-2.5e-300, "-2.5e-300"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_string_equal(fmt_double(cases[i].v), cases[i].text);
    assert_string_equal(fmt_double(-0.0), "-0");
    assert_string_equal(fmt_double((double)NAN), "NaN");
    assert_string_equal(fmt_double(from_bits64(0xfff8000000000123ULL)), "NaN");
    assert_string_equal(fmt_double((double)INFINITY), "Infinity");
    assert_string_equal(fmt_double(-(double)INFINITY), "-Infinity");
}

/* Powers of two where the rounding interval is lopsided and the shortest decimal is not the
 * nearest of its length: the previous formatter printed 17 digits here (the expected texts
 * are Java's Double.toString and JavaScript's, which agree). */
static void test_powers_of_two_shortest(void **state)
{
    (void)state;
    assert_string_equal(fmt_double(ldexp(1, -1017)), "7.120236347223045e-307");
    assert_string_equal(fmt_double(ldexp(1, -1007)), "7.291122019556398e-304");
    assert_string_equal(fmt_double(ldexp(1, -957)), "8.209073602596753e-289");
    assert_string_equal(fmt_double(-ldexp(1, -921)), "-5.641232424577593e-278");
    /* each reads back, and the old text has one digit more */
    for (int e = -1021; e <= 1023; e++) {
        double v = ldexp(1, e);
        const char *got = fmt_double(v);
        char ref[REF_TEXT_MAX];
        ref_format_double(ref, v);
        assert_true(strtod(got, NULL) == v);
        assert_true(ref_digit_count(got) <= ref_digit_count(ref));
    }
}

static void test_known_floats(void **state)
{
    static const struct {
        float v;
        const char *text;
    } cases[] = {
        {0.0f, "0"},
        {0.1f, "0.1"},
        {1.0f / 3.0f, "0.33333334"},
        {16777216.0f, "16777216"},
        {16777217.0f, "16777216"},
        {100.0f, "1e2"},
        {1e10f, "1e10"},
        {3.4028235e38f, "3.4028235e38"},
        {FLT_MIN, "1.1754944e-38"},
        {1.4e-45f, "1e-45"},
        {-2.5f, "-2.5"},
        {1e-5f, "1e-5"},
        {0.0001f, "0.0001"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_string_equal(fmt_float(cases[i].v), cases[i].text);
    assert_string_equal(fmt_float(-0.0f), "-0");
    assert_string_equal(fmt_float(from_bits32(0x7fc00001u)), "NaN");
    assert_string_equal(fmt_float(INFINITY), "Infinity");
    assert_string_equal(fmt_float(-INFINITY), "-Infinity");
}

/* Through pm_canonical_json: specials are quoted strings, numbers bare. */
static void test_canonical_json(void **state)
{
    pm_type dt = {.id = PM_TYPE_DOUBLE, .nullable = true}, ft = {.id = PM_TYPE_FLOAT};
    pm_datum d = {.is_null = false};
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 0);
    d.v.d = 2.5;
    assert_int_equal(pm_canonical_json(&b, &dt, &d, NULL), 0);
    d.v.d = -(double)INFINITY;
    assert_int_equal(pm_canonical_json(&b, &dt, &d, NULL), 0);
    d.v.f = NAN;
    assert_int_equal(pm_canonical_json(&b, &ft, &d, NULL), 0);
    d.v.f = 1e-7f;
    assert_int_equal(pm_canonical_json(&b, &ft, &d, NULL), 0);
    assert_string_equal(pm_buf_cstr(&b), "2.5\"-Infinity\"\"NaN\"1e-7");
    pm_buf_free(&b);
}

/* Integers through pm_canonical_json print as "%lld" does, for every integer type. */
static void test_canonical_integers(void **state)
{
    static const pm_type_id ids[] = {PM_TYPE_TINYINT, PM_TYPE_SMALLINT, PM_TYPE_INT,
                                     PM_TYPE_BIGINT};
    uint64_t seed = 0x853c49e6748fea9bULL;
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 0);
    for (int i = 0; i < 20000; i++) {
        pm_type t = {.id = ids[i % 4], .nullable = true};
        pm_datum d = {.is_null = false};
        char want[32];
        int64_t edges[] = {0,
                           -1,
                           1,
                           9,
                           10,
                           -10,
                           99,
                           100,
                           INT64_MAX,
                           INT64_MIN,
                           INT64_MIN + 1,
                           9007199254740993LL,
                           -1000000000000000000LL,
                           999999999999999999LL};
        if (i < (int)(sizeof(edges) / sizeof(edges[0])))
            d.v.i = edges[i];
        else /* random magnitudes: a random 64-bit value shifted right 0 to 63 places */
            d.v.i = (int64_t)cases_next(&seed) >> (cases_next(&seed) % 64);
        snprintf(want, sizeof(want), "%lld", (long long)d.v.i);
        pm_buf_reset(&b);
        assert_int_equal(pm_canonical_json(&b, &t, &d, NULL), 0);
        assert_string_equal(pm_buf_cstr(&b), want);
    }
    pm_buf_free(&b);
}

/* Rows of a batch (pm_batch_row_json, as `paimon cat --format jsonl` prints them): plain
 * field names copied, others escaped; DOUBLE specials quoted. */
static void test_batch_rows(void **state)
{
    pm_type *t = pm_type_new(PM_TYPE_ROW);
    pm_batch *batch = NULL;
    paimon_error err = {0};
    pm_buf b;
    (void)state;
    assert_int_equal(pm_type_row_add(t, 0, "k", pm_type_new(PM_TYPE_BIGINT)), 0);
    assert_int_equal(pm_type_row_add(t, 1, "x", pm_type_new(PM_TYPE_DOUBLE)), 0);
    assert_int_equal(pm_type_row_add(t, 2, "a\"b\u00e9", pm_type_new(PM_TYPE_FLOAT)), 0);
    assert_int_equal(pm_type_row_add(t, 3, "t\tab", pm_type_new(PM_TYPE_DOUBLE)), 0);
    assert_int_equal(pm_batch_new(&batch, t, &err), 0);
    pm_type_free(t);
    assert_int_equal(pm_column_append_i64(batch->columns[0], INT64_MIN), 0);
    assert_int_equal(pm_column_append_f64(batch->columns[1], 1e-7), 0);
    assert_int_equal(pm_column_append_f64(batch->columns[2], 0.1), 0);
    assert_int_equal(pm_column_append_f64(batch->columns[3], -(double)INFINITY), 0);
    assert_int_equal(pm_column_append_i64(batch->columns[0], 42), 0);
    assert_int_equal(pm_column_append_f64(batch->columns[1], (double)NAN), 0);
    assert_int_equal(pm_column_append_null(batch->columns[2]), 0);
    assert_int_equal(pm_column_append_f64(batch->columns[3], 100.0), 0);
    assert_int_equal(pm_batch_set_rows(batch, 2, &err), 0);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_batch_row_json(&b, batch, 0, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), "{\"k\":-9223372036854775808,\"x\":1e-7,"
                                         "\"a\\\"b\u00e9\":0.1,\"t\\tab\":\"-Infinity\"}");
    pm_buf_reset(&b);
    assert_int_equal(pm_batch_row_json(&b, batch, 1, &err), 0);
    assert_string_equal(pm_buf_cstr(&b),
                        "{\"k\":42,\"x\":\"NaN\",\"a\\\"b\u00e9\":null,\"t\\tab\":1e2}");
    pm_buf_free(&b);
    pm_batch_free(batch);
}

struct tally {
    long count;
};

static void check_double(uint64_t bits, void *ctx)
{
    char why[160];
    const char *msg = ref_check_double(bits, fmt_double(from_bits64(bits)), why);
    if (msg != NULL)
        fail_msg("%s", msg);
    ((struct tally *)ctx)->count++;
}

static void check_float(uint32_t bits, void *ctx)
{
    char why[160];
    const char *msg = ref_check_float(bits, fmt_float(from_bits32(bits)), why);
    if (msg != NULL)
        fail_msg("%s", msg);
    ((struct tally *)ctx)->count++;
}

static void test_edge_cases_match_reference(void **state)
{
    struct tally d = {0}, f = {0};
    (void)state;
    cases_edge_doubles(check_double, &d);
    cases_edge_floats(check_float, &f);
    assert_true(d.count > 20000 && f.count > 100000);
    print_message("edge cases: %ld binary64, %ld binary32\n", d.count, f.count);
}

static void test_random_match_reference(void **state)
{
    struct tally t = {0};
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    (void)state;
    for (long i = 0; i < RANDOM_PATTERNS; i++) {
        check_double(cases_random_double(&seed), &t);
        check_float(cases_random_float(&seed), &t);
    }
    assert_int_equal(t.count, 2L * RANDOM_PATTERNS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_doubles),
        cmocka_unit_test(test_powers_of_two_shortest),
        cmocka_unit_test(test_known_floats),
        cmocka_unit_test(test_canonical_json),
        cmocka_unit_test(test_canonical_integers),
        cmocka_unit_test(test_batch_rows),
        cmocka_unit_test(test_edge_cases_match_reference),
        cmocka_unit_test(test_random_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
