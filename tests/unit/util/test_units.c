/* util/units: Java 1.4.2's grammars for option values, unit by unit and edge by edge
 * (spaces, case, signs, empty text, overflow, the units Java takes and the ones it does
 * not).  Expected values follow Java's MemorySize.parse, TimeUtils.parseDuration,
 * Integer/Long.parseInt, OptionsUtils.convertToBoolean, Double.parseDouble and
 * OptionsUtils.convertToProperties. */
#include <math.h>
#include <string.h>

#include "testlib.h"

#include "paimon/error.h"
#include "util/strlist.h"
#include "util/units.h"

static int64_t mem(const char *text)
{
    int64_t v = -12345;
    assert_int_equal(pm_parse_memory_size(text, &v), 0);
    return v;
}

static int mem_rc(const char *text)
{
    int64_t v = -12345;
    int rc = pm_parse_memory_size(text, &v);
    assert_int_equal(v, -12345); /* nothing written on failure */
    return rc;
}

static void test_memory_units(void **state)
{
    static const struct {
        const char *unit;
        int64_t factor;
    } UNITS[] = {{"", 1},          {"b", 1},          {"bytes", 1},
                 {"k", 1LL << 10}, {"kb", 1LL << 10}, {"kibibytes", 1LL << 10},
                 {"m", 1LL << 20}, {"mb", 1LL << 20}, {"mebibytes", 1LL << 20},
                 {"g", 1LL << 30}, {"gb", 1LL << 30}, {"gibibytes", 1LL << 30},
                 {"t", 1LL << 40}, {"tb", 1LL << 40}, {"tebibytes", 1LL << 40}};
    (void)state;
    for (size_t i = 0; i < sizeof(UNITS) / sizeof(UNITS[0]); i++) {
        char text[64], upper[64];
        size_t n;
        snprintf(text, sizeof(text), "3%s", UNITS[i].unit);
        assert_int_equal(mem(text), 3 * UNITS[i].factor);
        snprintf(text, sizeof(text), "  7 \t %s  ", UNITS[i].unit);
        assert_int_equal(mem(text), 7 * UNITS[i].factor);
        n = (size_t)snprintf(upper, sizeof(upper), "5 %s", UNITS[i].unit);
        for (size_t k = 0; k < n; k++)
            if (upper[k] >= 'a' && upper[k] <= 'z')
                upper[k] = (char)(upper[k] - 'a' + 'A');
        assert_int_equal(mem(upper), 5 * UNITS[i].factor);
    }
    assert_int_equal(mem("0"), 0);
    assert_int_equal(mem("0 tb"), 0);
    assert_int_equal(mem("000000000000000000000000064 kb"), 64 << 10);
    assert_int_equal(mem("256 Mb"), 256LL << 20);
    assert_int_equal(mem("500 B"), 500);
}

static void test_memory_refused(void **state)
{
    static const char *const BAD[] = {
        "",
        "   ",
        "mb",
        "-1",
        "+1",
        "1.5 mb",
        "1,024",
        "0x10",
        "1 m b",
        "1 kib",
        "1 mib",
        "1 p",
        "1 pb",
        "1 byte",
        "1 kbytes",
        "1 mbs",
        "1 tbs",
        "1mb2",
        "1 mb x",
        "ten mb",
        "1 ki",
        "1 \xe2\x84\xaa"
        "b", /* the Kelvin sign: Java's toLowerCase makes it 'k' (see units.h) */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        assert_int_equal(mem_rc(BAD[i]), PAIMON_EINVALID);
    /* Long.parseLong overflow and the multiplication's */
    assert_int_equal(mem("9223372036854775807"), INT64_MAX);
    assert_int_equal(mem("9223372036854775807 b"), INT64_MAX);
    assert_int_equal(mem_rc("9223372036854775808"), PAIMON_ELIMIT);
    assert_int_equal(mem_rc("99999999999999999999999 b"), PAIMON_ELIMIT);
    assert_int_equal(mem("8388607 tb"), 8388607LL << 40);
    assert_int_equal(mem_rc("8388608 tb"), PAIMON_ELIMIT);
    assert_int_equal(mem("9007199254740991 kb"), 9007199254740991LL << 10);
    assert_int_equal(mem_rc("9007199254740992 kb"), PAIMON_ELIMIT);
}

static int64_t dur(const char *text)
{
    int64_t v = -12345;
    assert_int_equal(pm_parse_duration_ms(text, &v), 0);
    return v;
}

static int dur_rc(const char *text)
{
    int64_t v = -12345;
    int rc = pm_parse_duration_ms(text, &v);
    assert_int_equal(v, -12345);
    return rc;
}

static void test_duration_units(void **state)
{
    static const struct {
        const char *label;
        int64_t ms_of_3000; /* what "3000 <label>" is in milliseconds */
    } UNITS[] = {
        {"", 3000},
        {"d", 3000LL * 86400000},
        {"day", 3000LL * 86400000},
        {"days", 3000LL * 86400000},
        {"h", 3000LL * 3600000},
        {"hour", 3000LL * 3600000},
        {"hours", 3000LL * 3600000},
        {"min", 3000LL * 60000},
        {"m", 3000LL * 60000},
        {"minute", 3000LL * 60000},
        {"minutes", 3000LL * 60000},
        {"s", 3000000},
        {"sec", 3000000},
        {"secs", 3000000},
        {"second", 3000000},
        {"seconds", 3000000},
        {"ms", 3000},
        {"milli", 3000},
        {"millis", 3000},
        {"millisecond", 3000},
        {"milliseconds", 3000},
        {"\xc2\xb5s", 3},
        {"micro", 3},
        {"micros", 3},
        {"microsecond", 3},
        {"microseconds", 3},
        {"ns", 0},
        {"nano", 0},
        {"nanos", 0},
        {"nanosecond", 0},
        {"nanoseconds", 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(UNITS) / sizeof(UNITS[0]); i++) {
        char text[64], upper[64];
        size_t n;
        snprintf(text, sizeof(text), "3000%s", UNITS[i].label);
        assert_int_equal(dur(text), UNITS[i].ms_of_3000);
        snprintf(text, sizeof(text), " \t3000   %s \n", UNITS[i].label);
        assert_int_equal(dur(text), UNITS[i].ms_of_3000);
        n = (size_t)snprintf(upper, sizeof(upper), "3000 %s", UNITS[i].label);
        for (size_t k = 0; k < n; k++)
            if (upper[k] >= 'a' && upper[k] <= 'z')
                upper[k] = (char)(upper[k] - 'a' + 'A');
        assert_int_equal(dur(upper), UNITS[i].ms_of_3000);
    }
    /* sub-millisecond parts are dropped, as Duration.toMillis does */
    assert_int_equal(dur("1999999 ns"), 1);
    assert_int_equal(dur("2500 micros"), 2);
    assert_int_equal(dur("0"), 0);
    assert_int_equal(dur("1 h"), 3600000);
    assert_int_equal(dur("10 s"), 10000);
}

static void test_duration_refused(void **state)
{
    /* "us", "mins", "hrs" and friends are not Java labels; no sign, no fraction */
    static const char *const BAD[] = {"",      " ",      "s",      "-1 s",   "+1 s",
                                      "1.5 s", "1 us",   "1 mins", "1 hr",   "1 hrs",
                                      "1 w",   "1 week", "1 y",    "1 msec", "1 nanosec",
                                      "1 s s", "1s2",    "P1D",    "1 µS x", "1 \xce\xbcs"};
    (void)state;
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        assert_int_equal(dur_rc(BAD[i]), PAIMON_EINVALID);
    /* Java: Long.parseLong overflows; Duration.of(n, DAYS) overflows; toMillis overflows */
    assert_int_equal(dur_rc("9223372036854775808"), PAIMON_ELIMIT);
    assert_int_equal(dur_rc("9223372036854775807 d"), PAIMON_ELIMIT);
    assert_int_equal(dur_rc("9223372036854775807 s"), PAIMON_ELIMIT);
    assert_int_equal(dur("9223372036854775807 ms"), INT64_MAX);
    assert_int_equal(dur("9223372036854775807 ns"), INT64_MAX / 1000000);
    assert_int_equal(dur("9223372036854775 s"), 9223372036854775000LL);
    assert_int_equal(dur_rc("9223372036854776 s"), PAIMON_ELIMIT);
}

static void test_integers(void **state)
{
    int32_t i = 7;
    int64_t l = 7;
    static const char *const BAD[] = {
        "",     "+",     "-",   " 1",  "1 ",    "1.0",         "1e3",
        "0x10", "1_000", "--1", "+-1", "1 000", "\xef\xbc\x91" /* fullwidth 1 */};
    (void)state;
    assert_int_equal(pm_parse_int32("0", &i), 0);
    assert_int_equal(i, 0);
    assert_int_equal(pm_parse_int32("-0", &i), 0);
    assert_int_equal(i, 0);
    assert_int_equal(pm_parse_int32("+42", &i), 0);
    assert_int_equal(i, 42);
    assert_int_equal(pm_parse_int32("007", &i), 0);
    assert_int_equal(i, 7);
    assert_int_equal(pm_parse_int32("2147483647", &i), 0);
    assert_int_equal(i, INT32_MAX);
    assert_int_equal(pm_parse_int32("-2147483648", &i), 0);
    assert_int_equal(i, INT32_MIN);
    assert_int_equal(pm_parse_int32("2147483648", &i), PAIMON_ELIMIT);
    assert_int_equal(pm_parse_int32("-2147483649", &i), PAIMON_ELIMIT);
    assert_int_equal(i, INT32_MIN);
    assert_int_equal(pm_parse_int64("9223372036854775807", &l), 0);
    assert_int_equal(l, INT64_MAX);
    assert_int_equal(pm_parse_int64("-9223372036854775808", &l), 0);
    assert_int_equal(l, INT64_MIN);
    assert_int_equal(pm_parse_int64("9223372036854775808", &l), PAIMON_ELIMIT);
    assert_int_equal(pm_parse_int64("-9223372036854775809", &l), PAIMON_ELIMIT);
    assert_int_equal(pm_parse_int64("000000000000000000000000000001", &l), 0);
    assert_int_equal(l, 1);
    for (size_t k = 0; k < sizeof(BAD) / sizeof(BAD[0]); k++) {
        assert_int_equal(pm_parse_int32(BAD[k], &i), PAIMON_EINVALID);
        assert_int_equal(pm_parse_int64(BAD[k], &l), PAIMON_EINVALID);
    }
    assert_int_equal(l, 1);
}

static void test_booleans(void **state)
{
    static const char *const TRUE_[] = {"true", "TRUE", "True", "tRuE"};
    static const char *const FALSE_[] = {"false", "FALSE", "False", "fAlSe"};
    static const char *const BAD[] = {"",  "1",     "0",     "yes", "no",    "t",
                                      "f", " true", "true ", "on",  "truee", "fals"};
    bool b;
    (void)state;
    for (size_t i = 0; i < 4; i++) {
        b = false;
        assert_int_equal(pm_parse_bool(TRUE_[i], &b), 0);
        assert_true(b);
        assert_int_equal(pm_parse_bool(FALSE_[i], &b), 0);
        assert_false(b);
    }
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        assert_int_equal(pm_parse_bool(BAD[i], &b), PAIMON_EINVALID);
}

static double dbl(const char *text)
{
    double v = -1234.5;
    assert_int_equal(pm_parse_double(text, &v), 0);
    return v;
}

static void test_doubles(void **state)
{
    static const char *const BAD[] = {"",     " ",         ".",    "e5",       "1e",  "1e+",
                                      "1.5x", "1.5dd",     "inf",  "INFINITY", "nan", "NAN",
                                      "0x1",  "0x1.8",     "0xp1", "1,5",      "- 1", "1 5",
                                      "--1",  "Infinityd", "0x",   "1e5.0",    "1f5"};
    double v = 0;
    (void)state;
    assert_true(dbl("0.75") == 0.75);
    assert_true(dbl("  0.05\t") == 0.05);
    assert_true(dbl("1") == 1.0);
    assert_true(dbl("1.") == 1.0);
    assert_true(dbl(".5") == 0.5);
    assert_true(dbl("-2.5e-3") == -2.5e-3);
    assert_true(dbl("+1E2") == 100.0);
    assert_true(dbl("0.75F") == 0.75);
    assert_true(dbl("2d") == 2.0);
    assert_true(dbl("0x1.8p1") == 3.0);
    assert_true(dbl("-0X10P-4") == -1.0);
    assert_true(dbl("0x.8p1d") == 1.0);
    assert_true(isnan(dbl("NaN")));
    assert_true(isnan(dbl("-NaN")));
    assert_true(dbl("Infinity") == (double)INFINITY);
    assert_true(dbl("-Infinity") == -(double)INFINITY);
    assert_true(dbl("1e999") == (double)INFINITY); /* Java rounds out-of-range values too */
    assert_true(dbl("1e-999") == 0.0);
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        assert_int_equal(pm_parse_double(BAD[i], &v), PAIMON_EINVALID);
    {
        /* longer than any stack buffer: still one number */
        char big[400];
        memset(big, '0', sizeof(big));
        big[0] = '1';
        big[1] = '.';
        big[sizeof(big) - 1] = '\0';
        assert_true(dbl(big) == 1.0);
    }
}

static void expect_map(const char *text, const char *const *want, size_t want_count)
{
    pm_strlist l;
    pm_strlist_init(&l);
    assert_int_equal(pm_parse_map(text, &l), 0);
    assert_int_equal(l.count, want_count);
    for (size_t i = 0; i < want_count; i++)
        assert_string_equal(l.items[i], want[i]);
    pm_strlist_free(&l);
}

static void test_maps(void **state)
{
    static const char *const A[] = {"0", "avro", "3", "parquet"};
    static const char *const B[] = {"a:b", "c,d", "e", "it's"};
    static const char *const BAD[] = {"0",    "0:a:b", "0:a,0:b",  "'0':a", "'0:a' x",
                                      "'0:a", ",,",    "0:a,,1:b", "0:''a'"};
    pm_strlist l;
    (void)state;
    expect_map("", NULL, 0);
    expect_map("  ", NULL, 0);
    expect_map("0:avro,3:parquet", A, 4);
    expect_map(" 0 : avro , 3:parquet ,", A, 4);
    expect_map("'''a:b'':''c,d''','e:''it''''s'''", B, 4);
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
        pm_strlist_init(&l);
        assert_int_equal(pm_parse_map(BAD[i], &l), PAIMON_EINVALID);
        pm_strlist_free(&l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_units),   cmocka_unit_test(test_memory_refused),
        cmocka_unit_test(test_duration_units), cmocka_unit_test(test_duration_refused),
        cmocka_unit_test(test_integers),       cmocka_unit_test(test_booleans),
        cmocka_unit_test(test_doubles),        cmocka_unit_test(test_maps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
