/*
 * Casts as Java's CastExecutors do when a file written under an older schema is read with
 * an altered column type.  Expected values come from Java 17 (Double.toString,
 * Number.intValue()/byteValue(), BigDecimal.setScale(HALF_UP), BigDecimal.intValue()).
 */
#include <math.h>
#include <string.h>

#include "data/cast.h"
#include "testlib.h"

/* Casts `in` of type `from` to `to` and returns the result as canonical JSON text. */
static const char *cast(const char *from, pm_datum in, const char *to)
{
    static char text[640];
    pm_type *ft = NULL, *tt = NULL;
    paimon_error err = {0, {0}};
    pm_column *col;
    pm_datum out;
    pm_buf scratch, json;
    int rc;
    assert_int_equal(pm_type_parse(from, &ft, &err), 0);
    assert_int_equal(pm_type_parse(to, &tt, &err), 0);
    assert_true(pm_cast_supported(ft, tt));
    pm_buf_init(&scratch, 0);
    pm_buf_init(&json, 0);
    rc = pm_cast_datum(ft, &in, tt, &scratch, &out, "test value", &err);
    if (rc != 0) {
        snprintf(text, sizeof(text), "error: %s", err.message);
    } else {
        col = pm_column_new(tt);
        assert_int_equal(
            out.is_null ? pm_column_append_null(col) : pm_column_append_datum(col, &out), 0);
        assert_int_equal(pm_column_json(&json, col, 0, &err), 0);
        snprintf(text, sizeof(text), "%s", pm_buf_cstr(&json));
        pm_column_free(col);
    }
    pm_buf_free(&scratch);
    pm_buf_free(&json);
    pm_type_free(ft);
    pm_type_free(tt);
    return text;
}

static pm_datum dbl(double d)
{
    pm_datum v;
    v.is_null = false;
    v.v.d = d;
    return v;
}

static pm_datum flt(float f)
{
    pm_datum v;
    v.is_null = false;
    v.v.f = f;
    return v;
}

static pm_datum dec(pm_int128 unscaled)
{
    pm_datum v;
    v.is_null = false;
    v.v.dec = unscaled;
    return v;
}

static pm_datum str(const char *s)
{
    return pm_datum_bytes(s, strlen(s));
}

static void test_numbers(void **state)
{
    (void)state;
    /* Number.intValue(): saturate to int; byteValue()/shortValue(): via int, then wrap */
    assert_string_equal(cast("DOUBLE", dbl(1e20), "INT"), "2147483647");
    assert_string_equal(cast("DOUBLE", dbl(1e20), "TINYINT"), "-1");
    assert_string_equal(cast("DOUBLE", dbl(-1e20), "SMALLINT"), "0");
    assert_string_equal(cast("DOUBLE", dbl(NAN), "BIGINT"), "0");
    assert_string_equal(cast("DOUBLE", dbl(300.7), "TINYINT"), "44");
    /* narrowing integers wraps */
    assert_string_equal(cast("INT", pm_datum_int(300), "TINYINT"), "44");
    assert_string_equal(cast("BIGINT", pm_datum_int(16777217), "FLOAT"), "16777216");
    /* decimals: HALF_UP through Double.toString; too many digits is null */
    assert_string_equal(cast("DOUBLE", dbl(1.005), "DECIMAL(5, 2)"), "\"1.01\"");
    assert_string_equal(cast("DOUBLE", dbl(-2.5), "DECIMAL(5, 0)"), "\"-3\"");
    assert_string_equal(cast("INT", pm_datum_int(123), "DECIMAL(3, 1)"), "null");
    assert_string_equal(cast("DECIMAL(10, 3)", dec(1999), "INT"), "1");
    assert_string_equal(cast("DECIMAL(10, 3)", dec(-1999), "INT"), "-1");
    assert_string_equal(cast("DECIMAL(15, 1)", dec(1234567890125), "INT"), "-1097262572");
    assert_string_equal(cast("DECIMAL(10, 2)", dec(12345), "DECIMAL(10, 1)"), "\"123.5\"");
    assert_string_equal(cast("FLOAT", flt(1.1f), "DOUBLE"), "1.100000023841858");
    assert_string_equal(cast("INT", pm_datum_int(0), "BOOLEAN"), "false");
    assert_string_equal(cast("INT", pm_datum_int(-7), "BOOLEAN"), "true");
}

static void test_to_text(void **state)
{
    pm_datum ts;
    (void)state;
    assert_string_equal(cast("DOUBLE", dbl(0.1 + 0.2), "STRING"), "\"0.30000000000000004\"");
    assert_string_equal(cast("DOUBLE", dbl(1e21), "STRING"), "\"1.0E21\"");
    assert_string_equal(cast("DOUBLE", dbl(100.0), "STRING"), "\"100.0\"");
    assert_string_equal(cast("DOUBLE", dbl(1e-4), "STRING"), "\"1.0E-4\"");
    assert_string_equal(cast("FLOAT", flt(1.1f), "STRING"), "\"1.1\"");
    assert_string_equal(cast("DECIMAL(10, 2)", dec(-5), "STRING"), "\"-0.05\"");
    assert_string_equal(cast("DATE", pm_datum_int(20562), "STRING"), "\"2026-04-19\"");
    assert_string_equal(cast("INT", pm_datum_int(123456), "VARCHAR(3)"), "\"123\"");
    assert_string_equal(cast("INT", pm_datum_int(7), "CHAR(3)"), "\"7  \"");
    ts.is_null = false;
    ts.v.ts.millis = 20562LL * 86400000 + 36672120;
    ts.v.ts.nanos = 0;
    assert_string_equal(cast("TIMESTAMP(3)", ts, "STRING"), "\"2026-04-19 10:11:12.120\"");
    assert_string_equal(cast("TIMESTAMP(3)", ts, "DATE"), "\"2026-04-19\"");
}

/* Strings cut to CHAR(n)/VARCHAR(n) count characters as BinaryString.numChars and
 * substring do (numBytesForFirstByte): on valid text code points; on invalid bytes a
 * three-byte lead takes the two bytes after it, whatever they are. */
static void test_string_length(void **state)
{
    (void)state;
    assert_string_equal(
        cast("STRING", pm_datum_bytes("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9), "VARCHAR(2)"),
        "\"\xc3\xa9\xe2\x82\xac\"");
    assert_string_equal(cast("STRING", pm_datum_bytes("\xc3\xa9", 2), "CHAR(3)"), "\"\xc3\xa9  \"");
    /* Java keeps E2 41 42 (one character); the JSON shows E2 as U+FFFD */
    assert_string_equal(cast("STRING", pm_datum_bytes("\xe2\x41\x42\x43", 4), "VARCHAR(1)"),
                        "\"\xef\xbf\xbd"
                        "AB\"");
}

static void test_from_text(void **state)
{
    (void)state;
    assert_string_equal(cast("STRING", str("42"), "INT"), "42");
    assert_string_equal(cast("STRING", str("yes"), "BOOLEAN"), "true");
    assert_string_equal(cast("STRING", str("F"), "BOOLEAN"), "false");
    assert_string_equal(cast("STRING", str("2026-04-19"), "DATE"), "\"2026-04-19\"");
    assert_string_equal(cast("STRING", str("12.345"), "DECIMAL(6, 2)"), "\"12.35\"");
    assert_string_equal(cast("STRING", str("2026-04-19 10:11:12.5"), "TIMESTAMP(3)"),
                        "\"2026-04-19 10:11:12.500\"");
    /* malformed text is an error naming the value */
    assert_non_null(strstr(cast("STRING", str("abc"), "INT"), "abc"));
    assert_non_null(strstr(cast("STRING", str("maybe"), "BOOLEAN"), "maybe"));
    assert_non_null(strstr(cast("STRING", str("2026-02-30"), "DATE"), "2026-02-30"));
    assert_non_null(strstr(cast("STRING", str("2025-02-29"), "DATE"), "2025-02-29"));
    assert_string_equal(cast("STRING", str("2024-02-29"), "DATE"), "\"2024-02-29\"");
}

static void test_supported(void **state)
{
    pm_type *a = NULL, *b = NULL;
    paimon_error err = {0, {0}};
    (void)state;
    assert_int_equal(pm_type_parse("ARRAY<INT>", &a, &err), 0);
    assert_int_equal(pm_type_parse("INT", &b, &err), 0);
    assert_false(pm_cast_supported(a, b));
    assert_false(pm_cast_supported(b, a));
    pm_type_free(a);
    pm_type_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),       cmocka_unit_test(test_to_text),
        cmocka_unit_test(test_string_length), cmocka_unit_test(test_from_text),
        cmocka_unit_test(test_supported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
