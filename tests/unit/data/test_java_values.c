/*
 * Java's text of values, String.hashCode/compareTo, HashMap iteration order and the local
 * time-zone conversions the system tables use.  Expected values were printed by OpenJDK 17
 * (java.util.HashMap, String, java.time with ZoneId Europe/Berlin).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "data/java_values.h"
#include "util/time.h"

static void use_zone(const char *tz)
{
    setenv("TZ", tz, 1);
    tzset();
}

static void check_order(const char *const *keys, size_t n, const char *want)
{
    size_t order[64];
    pm_buf got;
    pm_buf_init(&got, 0);
    pm_java_hashmap_order(keys, n, order);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            pm_buf_putc(&got, ',');
        pm_buf_puts(&got, keys[order[i]]);
    }
    assert_string_equal(pm_buf_cstr(&got), want);
    pm_buf_free(&got);
}

static void test_hashmap_order(void **state)
{
    char many[30][32];
    const char *many_keys[30];
    (void)state;
    check_order((const char *[]){"bucket", "bucket-key", "manifest.format", "file.format",
                                 "deletion-vectors.enabled", "commit.force-compact"},
                6,
                "bucket,bucket-key,manifest.format,file.format,deletion-vectors.enabled,"
                "commit.force-compact");
    check_order((const char *[]){"bucket", "file.format", "manifest.format", "b", "a"}, 5,
                "bucket,a,b,manifest.format,file.format");
    /* 13 keys: one resize to 32 bins */
    check_order((const char *[]){"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"},
                13, "a,b,c,d,e,f,g,h,i,j,k,l,m");
    /* 30 keys: 64 bins */
    for (int i = 0; i < 30; i++) {
        snprintf(many[i], sizeof(many[i]), "option.key-%d", i * 7919 % 31);
        many_keys[i] = many[i];
    }
    check_order(many_keys, 30,
                "option.key-7,option.key-8,option.key-9,option.key-10,option.key-11,"
                "option.key-30,option.key-14,option.key-0,option.key-15,option.key-1,"
                "option.key-12,option.key-2,option.key-13,option.key-18,option.key-3,"
                "option.key-19,option.key-4,option.key-5,option.key-16,option.key-6,"
                "option.key-21,option.key-22,option.key-20,option.key-25,option.key-26,"
                "option.key-23,option.key-24,option.key-29,option.key-27,option.key-28");
    /* equal hashes (Aa, BB, C#) keep insertion order within their bin */
    check_order((const char *[]){"AaAa", "BBBB", "AaBB", "BBAa", "C#C#", "Aa", "BB", "C#", "path",
                                 "file.format", "bucket"},
                11, "Aa,BB,C#,bucket,path,file.format,AaAa,BBBB,AaBB,BBAa,C#C#");
    /* nine keys in one bin of 16: the ninth makes treeifyBin resize the table instead */
    check_order(
        (const char *[]){"k18", "k29", "k90", "k140", "k151", "k162", "k173", "k184", "k195"}, 9,
        "k90,k18,k29,k140,k151,k162,k173,k184,k195");
}

static void test_strings(void **state)
{
    (void)state;
    assert_int_equal(pm_java_string_hash("h\xc3\xa9llo", 6), 103094734);
    assert_int_equal(pm_java_string_hash("\xf0\x9f\x98\x80", 4), 1772899); /* U+1F600 */
    assert_int_equal(pm_java_string_hash("", 0), 0);
    /* UTF-16 order: a surrogate pair sorts below U+FFFD, unlike UTF-8 bytes */
    assert_true(pm_java_string_compare("\xf0\x9f\x98\x80", 4, "\xef\xbf\xbd", 3) < 0);
    assert_true(pm_java_string_compare("f10", 3, "f2", 2) < 0);
    assert_true(pm_java_string_compare("ab", 2, "abc", 3) < 0);
    assert_int_equal(pm_java_string_compare("abc", 3, "abc", 3), 0);
}

static pm_type *type(const char *text)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_type_parse(text, &t, &err), 0);
    return t;
}

/* Both renderings of one value of type `text`. */
static void check_value(const char *text, pm_datum d, const char *cast, const char *object)
{
    pm_type *t = type(text);
    pm_buf b;
    paimon_error err = {0};
    pm_buf_init(&b, 0);
    assert_int_equal(pm_java_cast_string(&b, t, &d, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), cast);
    pm_buf_reset(&b);
    assert_int_equal(pm_java_object_string(&b, t, &d, &err), 0);
    if (object[strlen(object) - 1] == '*') /* a prefix */
        assert_memory_equal(pm_buf_cstr(&b), object, strlen(object) - 1);
    else
        assert_string_equal(pm_buf_cstr(&b), object);
    pm_buf_free(&b);
    pm_type_free(t);
}

static pm_datum ts(int64_t millis, int32_t nanos)
{
    pm_datum d;
    d.is_null = false;
    d.v.ts.millis = millis;
    d.v.ts.nanos = nanos;
    return d;
}

static void test_values(void **state)
{
    pm_datum d;
    (void)state;
    use_zone("UTC");
    d.is_null = false;
    d.v.b = true;
    check_value("BOOLEAN", d, "true", "true");
    check_value("BIGINT", pm_datum_int(-42), "-42", "-42");
    d.v.f = 1.1f;
    check_value("FLOAT", d, "1.1", "1.1");
    d.v.d = 1e7;
    check_value("DOUBLE", d, "1.0E7", "1.0E7");
    d.v.d = 0.001;
    check_value("DOUBLE", d, "0.001", "0.001");
    d.v.d = -0.0;
    check_value("DOUBLE", d, "-0.0", "-0.0");
    d.v.dec = -50;
    check_value("DECIMAL(5, 2)", d, "-0.50", "-0.50");
    check_value("STRING", pm_datum_bytes("h\xc3\xa9", 3), "h\xc3\xa9", "h\xc3\xa9");
    /* BinaryString.toString() replaces malformed UTF-8 */
    check_value("STRING", pm_datum_bytes("a\xff", 2), "a\xef\xbf\xbd", "a\xef\xbf\xbd");
    check_value("BYTES", pm_datum_bytes("ab", 2), "ab", "[B@*");
    /* DATE: yyyy-MM-dd with four year digits (Calcite's int4 drops a fifth) / the Integer */
    check_value("DATE", pm_datum_int(19723), "2024-01-01", "19723");
    check_value("DATE", pm_datum_int(2932897), "0000-01-01", "2932897");
    /* TIME: fraction digits up to the last non-zero one / the Integer */
    check_value("TIME(3)", pm_datum_int(45296120), "12:34:56.12", "45296120");
    check_value("TIME(3)", pm_datum_int(45296000), "12:34:56.0", "45296000");
    check_value("TIME(0)", pm_datum_int(45296000), "12:34:56", "45296000");
    /* TIMESTAMP: at least `precision` fraction digits / LocalDateTime.toString() */
    check_value("TIMESTAMP(3)", ts(1715681460000LL, 0), "2024-05-14 10:11:00.000",
                "2024-05-14T10:11");
    check_value("TIMESTAMP(6)", ts(1715681472345LL, 600000), "2024-05-14 10:11:12.345600",
                "2024-05-14T10:11:12.345600");
    check_value("TIMESTAMP(0)", ts(1715681472000LL, 0), "2024-05-14 10:11:12",
                "2024-05-14T10:11:12");
    /* WITH LOCAL TIME ZONE: the cast shows the local zone's date-time, the object the UTC
     * one (Timestamp.toString()) */
    use_zone("Europe/Berlin");
    check_value("TIMESTAMP(3) WITH LOCAL TIME ZONE", ts(1704067200000LL, 0),
                "2024-01-01 01:00:00.000", "2024-01-01T00:00");
    use_zone("UTC");
}

static void test_row_cast(void **state)
{
    pm_type *row = NULL;
    const pm_field *fields[3];
    const pm_type *types[3];
    pm_datum values[3];
    pm_binrow r;
    pm_buf bytes, text;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_columns_parse("dt DATE, n INT, s STRING", &row, &err), 0);
    for (int i = 0; i < 3; i++) {
        fields[i] = &row->fields[i];
        types[i] = row->fields[i].type;
    }
    values[0] = pm_datum_int(19723);
    values[1] = pm_datum_null();
    values[2] = pm_datum_bytes("a", 1);
    pm_buf_init(&bytes, 0);
    pm_buf_init(&text, 0);
    assert_int_equal(pm_binrow_write(&bytes, types, values, 3, 0), 0);
    assert_int_equal(pm_binrow_view(&r, bytes.data, bytes.len, 3, &err), 0);
    assert_int_equal(pm_java_row_cast_string(&text, fields, 3, &r, &err), 0);
    assert_string_equal(pm_buf_cstr(&text), "{2024-01-01, null, a}");
    pm_buf_reset(&text);
    assert_int_equal(pm_java_row_cast_string(&text, fields, 0, &r, &err), 0);
    assert_string_equal(pm_buf_cstr(&text), "{}");
    pm_buf_free(&bytes);
    pm_buf_free(&text);
    pm_type_free(row);
}

static void test_local_time(void **state)
{
    (void)state;
    use_zone("Europe/Berlin");
    /* 2024-03-31 02:30 does not exist (02:00 -> 03:00): Java moves it to 03:30 CEST */
    assert_int_equal(pm_local_to_epoch_millis(1711852200000LL), 1711848600000LL);
    /* 2024-10-27 02:30 happens twice: Java takes the earlier offset (CEST) */
    assert_int_equal(pm_local_to_epoch_millis(1729996200000LL), 1729989000000LL);
    assert_int_equal(pm_local_to_epoch_millis(1719835200000LL), 1719828000000LL);
    /* LocalDateTime.ofInstant(2025-08-27T03:42:51.183Z) = 2025-08-27T05:42:51.183 */
    assert_int_equal(pm_epoch_to_local_millis(1756266171183LL), 1756273371183LL);
    use_zone("UTC");
    assert_int_equal(pm_epoch_to_local_millis(1756266171183LL), 1756266171183LL);
    assert_int_equal(pm_local_to_epoch_millis(1756266171183LL), 1756266171183LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hashmap_order), cmocka_unit_test(test_strings),
        cmocka_unit_test(test_values),        cmocka_unit_test(test_row_cast),
        cmocka_unit_test(test_local_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
