/* Partition directory names: Java's toString() forms (legacy names), cast forms, the
 * default partition name, escaping. */
#include <math.h>
#include <string.h>

#include "testlib.h"

#include "meta/partition.h"
#include "util/alloc.h"

static pm_type T(pm_type_id id, int precision, int scale)
{
    pm_type t;
    memset(&t, 0, sizeof(t));
    t.id = id;
    t.nullable = true;
    t.precision = precision;
    t.scale = scale;
    return t;
}

/* The path of a one- or two-column partition. */
static void expect_path(const char *k1, pm_type *t1, pm_datum v1, const char *k2, pm_type *t2,
                        pm_datum v2, bool legacy, const char *want)
{
    pm_field f[2];
    const pm_field *fields[2] = {&f[0], &f[1]};
    const pm_type *types[2] = {t1, t2};
    pm_datum values[2] = {v1, v2};
    int32_t n = k2 != NULL ? 2 : 1;
    pm_partition_naming naming = {PM_DEFAULT_PARTITION_NAME, legacy};
    pm_buf row, path;
    pm_binrow r;
    paimon_error err = {0};
    memset(f, 0, sizeof(f));
    f[0].name = (char *)k1;
    f[0].type = t1;
    f[1].name = (char *)k2;
    f[1].type = t2;
    pm_buf_init(&row, 0);
    pm_buf_init(&path, 0);
    assert_int_equal(pm_binrow_write(&row, types, values, n, 0), 0);
    assert_int_equal(pm_binrow_view(&r, row.data, row.len, n, &err), 0);
    if (pm_partition_path(&path, fields, (size_t)n, &r, &naming, &err) != 0)
        fail_msg("path failed: %s", err.message);
    assert_string_equal(pm_buf_cstr(&path), want);
    pm_buf_free(&row);
    pm_buf_free(&path);
}

static pm_datum ts(int64_t millis, int32_t nanos)
{
    pm_datum d;
    d.is_null = false;
    d.v.ts.millis = millis;
    d.v.ts.nanos = nanos;
    return d;
}

static void test_paths(void **state)
{
    pm_type s = T(PM_TYPE_VARCHAR, 0, 0), i = T(PM_TYPE_INT, 0, 0), d = T(PM_TYPE_DATE, 0, 0),
            tm = T(PM_TYPE_TIME, 0, 0), t3 = T(PM_TYPE_TIMESTAMP, 3, 0),
            t9 = T(PM_TYPE_TIMESTAMP, 9, 0), dec = T(PM_TYPE_DECIMAL, 10, 2),
            b = T(PM_TYPE_BOOLEAN, 0, 0);
    pm_datum x;
    (void)state;
    expect_path("dt", &s, pm_datum_bytes("20240514", 8), "hr", &i, pm_datum_int(12), true,
                "dt=20240514/hr=12/");
    expect_path("p", &s, pm_datum_null(), NULL, NULL, pm_datum_null(), true,
                "p=__DEFAULT_PARTITION__/");
    expect_path("p", &s, pm_datum_bytes("", 0), NULL, NULL, pm_datum_null(), true,
                "p=__DEFAULT_PARTITION__/");
    expect_path("p", &s, pm_datum_bytes(" \t ", 3), NULL, NULL, pm_datum_null(), true,
                "p=__DEFAULT_PARTITION__/");
    expect_path("p", &s, pm_datum_bytes("a/b:c=d%e f,g+h", 15), NULL, NULL, pm_datum_null(), true,
                "p=a%2Fb%3Ac%3Dd%25e f,g+h/");
    expect_path("k#1", &s, pm_datum_bytes("x\x01{}[]^?*'\"\\", 12), NULL, NULL, pm_datum_null(),
                true, "k%231=x%01%7B%7D%5B%5D%5E%3F%2A%27%22%5C/");
    expect_path("p", &s, pm_datum_bytes("h\xc3\xa9llo", 6), NULL, NULL, pm_datum_null(), true,
                "p=h\xc3\xa9llo/");
    /* DATE and TIME: raw numbers with legacy names, formatted without. */
    expect_path("dt", &d, pm_datum_int(19857), NULL, NULL, pm_datum_null(), true, "dt=19857/");
    expect_path("dt", &d, pm_datum_int(19857), NULL, NULL, pm_datum_null(), false,
                "dt=2024-05-14/");
    expect_path("t", &tm, pm_datum_int(36672000), NULL, NULL, pm_datum_null(), true, "t=36672000/");
    /* TIMESTAMP: LocalDateTime.toString() */
    expect_path("ts", &t3, ts(1715681472345LL, 0), NULL, NULL, pm_datum_null(), true,
                "ts=2024-05-14T10%3A11%3A12.345/");
    expect_path("ts", &t3, ts(1715681460000LL, 0), NULL, NULL, pm_datum_null(), true,
                "ts=2024-05-14T10%3A11/");
    expect_path("ts", &t3, ts(1715681460500LL, 0), NULL, NULL, pm_datum_null(), true,
                "ts=2024-05-14T10%3A11%3A00.500/");
    expect_path("ts", &t9, ts(1715681472123LL, 456000), NULL, NULL, pm_datum_null(), true,
                "ts=2024-05-14T10%3A11%3A12.123456/");
    expect_path("ts", &t9, ts(1715681472123LL, 456789), NULL, NULL, pm_datum_null(), true,
                "ts=2024-05-14T10%3A11%3A12.123456789/");
    expect_path("ts", &t3, ts(1715681472345LL, 0), NULL, NULL, pm_datum_null(), false,
                "ts=2024-05-14 10%3A11%3A12.345/");
    x.is_null = false;
    x.v.dec = -5;
    expect_path("d", &dec, x, NULL, NULL, pm_datum_null(), true, "d=-0.05/");
    x.v.b = true;
    expect_path("b", &b, x, NULL, NULL, pm_datum_null(), true, "b=true/");
}

static void expect_double(double v, const char *want)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_java_double_string(&b, v), 0);
    if (strcmp(pm_buf_cstr(&b), want) != 0)
        fail_msg("Double.toString(%.17g) = %s, expected %s", v, pm_buf_cstr(&b), want);
    pm_buf_free(&b);
}

static void expect_float(float v, const char *want)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_java_float_string(&b, v), 0);
    if (strcmp(pm_buf_cstr(&b), want) != 0)
        fail_msg("Float.toString(%.9g) = %s, expected %s", (double)v, pm_buf_cstr(&b), want);
    pm_buf_free(&b);
}

/* JDK 19+ Double.toString / Float.toString. */
static void test_java_floating_point_strings(void **state)
{
    (void)state;
    expect_double(1.0, "1.0");
    expect_double(0.0, "0.0");
    expect_double(-0.0, "-0.0");
    expect_double(100.0, "100.0");
    expect_double(1234567.0, "1234567.0");
    expect_double(1e7, "1.0E7");
    expect_double(123456789.0, "1.23456789E8");
    expect_double(0.001, "0.001");
    expect_double(1e-4, "1.0E-4");
    expect_double(1e-5, "1.0E-5");
    expect_double(-2.5, "-2.5");
    expect_double(0.1, "0.1");
    expect_double(1.0 / 3, "0.3333333333333333");
    expect_double(2e-323, "2.0E-323");
    expect_double(1.7976931348623157e308, "1.7976931348623157E308");
    expect_double(NAN, "NaN");
    expect_double(-INFINITY, "-Infinity");
    expect_float(0.1f, "0.1");
    expect_float(1.0f, "1.0");
    expect_float(3.4028235e38f, "3.4028235E38");
    expect_float(1e-5f, "1.0E-5");
}

static void test_escape_round_trip(void **state)
{
    const char *raw = "a/b%c=d:e\x01\x7f?";
    pm_buf esc, back;
    (void)state;
    pm_buf_init(&esc, 0);
    pm_buf_init(&back, 0);
    assert_int_equal(pm_partition_escape(&esc, raw, strlen(raw)), 0);
    assert_string_equal(pm_buf_cstr(&esc), "a%2Fb%25c%3Dd%3Ae%01%7F%3F");
    assert_int_equal(pm_partition_unescape(&back, (const char *)esc.data, esc.len), 0);
    assert_string_equal(pm_buf_cstr(&back), raw);
    pm_buf_reset(&back);
    assert_int_equal(pm_partition_unescape(&back, "100%", 4), 0);
    assert_string_equal(pm_buf_cstr(&back), "100%");
    pm_buf_free(&esc);
    pm_buf_free(&back);
}

static void test_binary_partition_unsupported(void **state)
{
    pm_type bin = T(PM_TYPE_VARBINARY, 0, 0);
    pm_field f;
    const pm_field *fields[1] = {&f};
    const pm_type *types[1] = {&bin};
    pm_datum v = pm_datum_bytes("ab", 2);
    pm_partition_naming naming = {PM_DEFAULT_PARTITION_NAME, true};
    pm_buf row, path;
    pm_binrow r;
    paimon_error err = {0};
    (void)state;
    memset(&f, 0, sizeof(f));
    f.name = "b";
    f.type = &bin;
    pm_buf_init(&row, 0);
    pm_buf_init(&path, 0);
    assert_int_equal(pm_binrow_write(&row, types, &v, 1, 0), 0);
    assert_int_equal(pm_binrow_view(&r, row.data, row.len, 1, &err), 0);
    assert_int_equal(pm_partition_path(&path, fields, 1, &r, &naming, &err), PAIMON_EUNSUPPORTED);
    naming.legacy = false;
    pm_buf_reset(&path);
    assert_int_equal(pm_partition_path(&path, fields, 1, &r, &naming, &err), 0);
    assert_string_equal(pm_buf_cstr(&path), "b=ab/");
    pm_buf_free(&row);
    pm_buf_free(&path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_java_floating_point_strings),
        cmocka_unit_test(test_escape_round_trip),
        cmocka_unit_test(test_binary_partition_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
