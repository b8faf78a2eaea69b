/* The CDC layer's decoders (src/cdc): pgoutput messages decoded field by field; every
 * truncation and a forged count of a valid message is PAIMON_ECORRUPT, never a crash or a
 * big allocation, and a byte-flip sweep is decoded or refused, never a crash; PostgreSQL's text forms turned into writer values (timestamptz with
 * offsets, dates, times, bytea, booleans, numbers; NaN and infinities refused); COPY text
 * lines with escapes and nulls; the type mapping; LSN text. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "cdc/cdc_util.h"
#include "cdc/pg_types.h"
#include "cdc/pgoutput.h"

static size_t put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
    return (size_t)n;
}

static size_t put_str(uint8_t *p, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(p, s, n);
    return n;
}

static size_t put_text(uint8_t *p, const char *s)
{
    size_t n = 0;
    p[n++] = 't';
    n += put_be(p + n, strlen(s), 4);
    memcpy(p + n, s, strlen(s));
    return n + strlen(s);
}

/* An Update with the old key tuple: rel 16384, K (id 1, null), N (id 2, 'x'). */
static size_t update_message(uint8_t *b)
{
    size_t n = 0;
    b[n++] = 'U';
    n += put_be(b + n, 16384, 4);
    b[n++] = 'K';
    n += put_be(b + n, 2, 2);
    n += put_text(b + n, "1");
    b[n++] = 'n';
    b[n++] = 'N';
    n += put_be(b + n, 2, 2);
    n += put_text(b + n, "2");
    n += put_text(b + n, "x");
    return n;
}

static void test_messages(void **state)
{
    uint8_t b[256];
    size_t n = 0;
    pm_pgo_decoder d;
    pm_pgo_msg m;
    paimon_error err;
    (void)state;
    memset(&d, 0, sizeof(d));
    /* Commit */
    b[n++] = 'C';
    b[n++] = 0;
    n += put_be(b + n, 0x16B3748, 8);
    n += put_be(b + n, 0x16B3778, 8);
    n += put_be(b + n, 123456, 8);
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), 0);
    assert_int_equal(m.kind, 'C');
    assert_true(m.lsn == 0x16B3748 && m.end_lsn == 0x16B3778 && m.time_us == 123456);
    /* Relation */
    n = 0;
    b[n++] = 'R';
    n += put_be(b + n, 16384, 4);
    n += put_str(b + n, "public");
    n += put_str(b + n, "t");
    b[n++] = 'd';
    n += put_be(b + n, 2, 2);
    b[n++] = 1;
    n += put_str(b + n, "id");
    n += put_be(b + n, PM_PG_INT4, 4);
    n += put_be(b + n, 0xffffffff, 4);
    b[n++] = 0;
    n += put_str(b + n, "v");
    n += put_be(b + n, PM_PG_VARCHAR, 4);
    n += put_be(b + n, 24, 4);
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), 0);
    assert_int_equal(m.rel, 16384);
    assert_string_equal(m.nspname, "public");
    assert_string_equal(m.relname, "t");
    assert_int_equal(m.column_count, 2);
    assert_true(m.columns[0].key && !m.columns[1].key);
    assert_string_equal(m.columns[1].name, "v");
    assert_int_equal(m.columns[0].typmod, -1);
    assert_int_equal(m.columns[1].typmod, 24);
    /* every truncation of it is corrupt */
    for (size_t k = 1; k < n; k++)
        assert_int_equal(pm_pgo_decode(&d, b, k, &m, &err), PAIMON_ECORRUPT);
    /* Update with a key tuple */
    n = update_message(b);
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), 0);
    assert_int_equal(m.old_kind, 'K');
    assert_int_equal(m.old_tuple.count, 2);
    assert_int_equal(m.old_tuple.values[1].kind, 'n');
    assert_int_equal(m.new_tuple.values[1].len, 1);
    assert_memory_equal(m.new_tuple.values[1].ptr, "x", 1);
    for (size_t k = 1; k < n; k++)
        assert_int_equal(pm_pgo_decode(&d, b, k, &m, &err), PAIMON_ECORRUPT);
    /* a trailing byte, a forged column count, an unknown kind */
    b[n] = 0;
    assert_int_equal(pm_pgo_decode(&d, b, n + 1, &m, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "after its end"));
    b[6] = 0xff; /* the old tuple's count: 0xff02 columns in a few bytes */
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), PAIMON_ECORRUPT);
    b[0] = 'Z';
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), PAIMON_EUNSUPPORTED);
    /* Truncate */
    n = 0;
    b[n++] = 'T';
    n += put_be(b + n, 2, 4);
    b[n++] = 0;
    n += put_be(b + n, 16384, 4);
    n += put_be(b + n, 16385, 4);
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), 0);
    assert_int_equal(m.truncate_count, 2);
    assert_int_equal(m.truncate_rels[1], 16385);
    put_be(b + 1, 1000000, 4); /* a count the message cannot hold */
    assert_int_equal(pm_pgo_decode(&d, b, n, &m, &err), PAIMON_ECORRUPT);
    pm_pgo_decoder_free(&d);
}

/* Every byte of a valid Update set to each of a few values: decoded or refused, never a
 * crash or a read past the message (ASan), whatever the lengths and counts become. */
static void test_byte_flips(void **state)
{
    static const uint8_t VALUES[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 'n', 't', 'u', 'K', 'N'};
    uint8_t b[256], copy[256];
    size_t n = update_message(b);
    pm_pgo_decoder d;
    pm_pgo_msg m;
    paimon_error err;
    size_t decoded = 0, refused = 0;
    (void)state;
    memset(&d, 0, sizeof(d));
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof(VALUES); k++) {
            int rc;
            uint8_t *heap;
            memcpy(copy, b, n);
            copy[i] = VALUES[k];
            /* on the heap, exactly n bytes, so that ASan sees any read past the end */
            heap = malloc(n);
            assert_non_null(heap);
            memcpy(heap, copy, n);
            rc = pm_pgo_decode(&d, heap, n, &m, &err);
            assert_true(rc == 0 || rc == PAIMON_ECORRUPT || rc == PAIMON_EUNSUPPORTED);
            if (rc == 0)
                decoded++;
            else
                refused++;
            free(heap);
        }
    assert_true(decoded > 0 && refused > 0);
    pm_pgo_decoder_free(&d);
}

static void value_ok(uint32_t oid, const char *text, paimon_value *v)
{
    pm_cdc_buf scratch = {0};
    paimon_error err;
    if (pm_pgtype_value(oid, text, strlen(text), "c", v, &scratch, &err) != 0)
        fail_msg("%s: %s", text, err.message);
    pm_cdc_buf_free(&scratch);
}

static void test_values(void **state)
{
    paimon_value v;
    pm_cdc_buf scratch = {0};
    paimon_error err;
    (void)state;
    value_ok(PM_PG_TIMESTAMPTZ, "2026-04-19 10:11:12.123456+00", &v);
    assert_int_equal(v.type, PAIMON_VALUE_TIMESTAMP);
    assert_int_equal(v.v.ts.millis, 1776593472123LL);
    assert_int_equal(v.v.ts.nanos, 456000);
    value_ok(PM_PG_TIMESTAMPTZ, "2026-04-19 12:11:12.123456+02", &v); /* the same instant */
    assert_int_equal(v.v.ts.millis, 1776593472123LL);
    value_ok(PM_PG_TIMESTAMPTZ, "2026-04-19 10:41:12.123456+00:30", &v);
    assert_int_equal(v.v.ts.millis, 1776593472123LL);
    value_ok(PM_PG_TIMESTAMP, "1969-12-31 23:59:59.5", &v);
    assert_int_equal(v.v.ts.millis, -500);
    value_ok(PM_PG_DATE, "1970-01-02", &v);
    assert_int_equal(v.type, PAIMON_VALUE_INT);
    assert_int_equal(v.v.i, 1);
    value_ok(PM_PG_TIME, "10:11:12.345678", &v);
    assert_int_equal(v.v.i, 36672345);
    value_ok(PM_PG_BOOL, "t", &v);
    assert_true(v.type == PAIMON_VALUE_BOOL && v.v.b == 1);
    value_ok(PM_PG_INT8, "-9223372036854775808", &v);
    assert_true(v.v.i == INT64_MIN);
    value_ok(PM_PG_FLOAT8, "NaN", &v);
    assert_true(v.v.d != v.v.d);
    assert_int_equal(pm_pgtype_value(PM_PG_BYTEA, "\\x0aff", 6, "c", &v, &scratch, &err), 0);
    pm_pgtype_fixup(&v, 1, &scratch);
    assert_int_equal(v.type, PAIMON_VALUE_BYTES);
    assert_int_equal(v.v.s.len, 2);
    assert_memory_equal(v.v.s.ptr, "\x0a\xff", 2);
    /* values Paimon cannot hold */
    assert_int_equal(pm_pgtype_value(PM_PG_NUMERIC, "NaN", 3, "c", &v, &scratch, &err),
                     PAIMON_EINVALID);
    assert_int_equal(pm_pgtype_value(PM_PG_DATE, "infinity", 8, "c", &v, &scratch, &err),
                     PAIMON_EINVALID);
    assert_int_equal(pm_pgtype_value(PM_PG_INT4, "12x", 3, "c", &v, &scratch, &err),
                     PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "c: value '12x'"));
    assert_int_equal(
        pm_pgtype_value(PM_PG_INT8, "9223372036854775808", 19, "c", &v, &scratch, &err),
        PAIMON_EINVALID);
    assert_int_equal(pm_pgtype_value(PM_PG_INT8, "-", 1, "c", &v, &scratch, &err), PAIMON_EINVALID);
    value_ok(PM_PG_INT8, "9223372036854775807", &v);
    assert_true(v.v.i == INT64_MAX);
    assert_int_equal(pm_pgtype_value(PM_PG_BYTEA, "\\x0", 3, "c", &v, &scratch, &err),
                     PAIMON_EINVALID);
    pm_cdc_buf_free(&scratch);
}

static void test_copy_and_types(void **state)
{
    const char *line = "1\thello\\tworld\t\\N\t\\\\x0aff\t\\101\\x42";
    pm_copy_field f[8];
    pm_cdc_buf scratch = {0};
    paimon_error err;
    size_t count = 0;
    char type[96];
    uint64_t lsn = 0;
    (void)state;
    assert_int_equal(pm_copy_split(line, strlen(line), f, 8, &count, &scratch, &err), 0);
    assert_int_equal(count, 5);
    assert_int_equal(f[1].len, 11);
    assert_memory_equal(f[1].ptr, "hello\tworld", 11);
    assert_null(f[2].ptr);
    assert_int_equal(f[3].len, 6);
    assert_memory_equal(f[3].ptr, "\\x0aff", 6);
    assert_memory_equal(f[4].ptr, "AB", 2);
    assert_int_equal(pm_copy_split(line, strlen(line), f, 4, &count, &scratch, &err),
                     PAIMON_ECORRUPT);
    pm_cdc_buf_free(&scratch);

    assert_int_equal(pm_pgtype_map(PM_PG_NUMERIC, ((10 << 16) | 2) + 4, "c", "numeric", type,
                                   sizeof(type), &err),
                     0);
    assert_string_equal(type, "DECIMAL(10, 2)");
    assert_int_equal(pm_pgtype_map(PM_PG_NUMERIC, -1, "c", "numeric", type, sizeof(type), &err), 0);
    assert_string_equal(type, "DECIMAL(38, 18)");
    assert_int_equal(pm_pgtype_map(PM_PG_VARCHAR, 24, "c", NULL, type, sizeof(type), &err), 0);
    assert_string_equal(type, "VARCHAR(20)");
    assert_int_equal(pm_pgtype_map(PM_PG_TIMESTAMPTZ, 3, "c", NULL, type, sizeof(type), &err), 0);
    assert_string_equal(type, "TIMESTAMP(3) WITH LOCAL TIME ZONE");
    assert_int_equal(pm_pgtype_map(600, -1, "c", "point", type, sizeof(type), &err),
                     PAIMON_EUNSUPPORTED);
    assert_non_null(strstr(err.message, "point (oid 600) has no Paimon mapping"));
    assert_int_equal(paimon_type_check("DECIMAL(38, 18)", &err), 0);

    assert_true(pm_cdc_lsn_parse("16/B374D848", &lsn));
    assert_true(lsn == 0x16B374D848ULL);
    pm_cdc_lsn_format(lsn, type, sizeof(type));
    assert_string_equal(type, "16/B374D848");
    assert_false(pm_cdc_lsn_parse("16B374D848", &lsn));
    assert_false(pm_cdc_lsn_parse("1/", &lsn));
}

/* The canonical JSON of an array's text form, or the error code. */
static void array_is(uint32_t elem, const char *text, const char *json)
{
    pm_cdc_buf out = {0};
    paimon_error err;
    if (pm_pgtype_array_json(elem, text, strlen(text), "c", &out, &err) != 0)
        fail_msg("%s: %s", text, err.message);
    assert_non_null(out.data);
    if (strcmp(out.data, json) != 0)
        fail_msg("%s: %s, expected %s", text, out.data, json);
    pm_cdc_buf_free(&out);
}

static int array_fails(uint32_t elem, const char *text, const char *what)
{
    pm_cdc_buf out = {0};
    paimon_error err;
    int rc = pm_pgtype_array_json(elem, text, strlen(text), "c", &out, &err);
    assert_int_not_equal(rc, 0);
    if (strstr(err.message, what) == NULL)
        fail_msg("%s: %s, expected %s", text, err.message, what);
    pm_cdc_buf_free(&out);
    return rc;
}

static void test_arrays(void **state)
{
    char type[96];
    paimon_error err;
    paimon_value v;
    pm_cdc_buf scratch = {0};
    (void)state;
    array_is(PM_PG_INT4, "{1,2,NULL,-3}", "[1,2,null,-3]");
    array_is(PM_PG_INT4, "{}", "[]");
    array_is(PM_PG_INT4, "{ 1 , 2 }", "[1,2]");
    array_is(PM_PG_INT4, "[0:1]={7,8}", "[7,8]");
    array_is(PM_PG_TEXT, "{\"a b\",\"c\\\"d\",NULL,\"NULL\",null,\"\",plain,\"{x,y}\",\"e\\\\f\"}",
             "[\"a b\",\"c\\\"d\",null,\"NULL\",null,\"\",\"plain\",\"{x,y}\",\"e\\\\f\"]");
    array_is(PM_PG_TEXT, "{\"tab\there\",a\\,b}", "[\"tab\\u0009here\",\"a,b\"]");
    array_is(PM_PG_TEXT, "{\" lead\",x\\ }", "[\" lead\",\"x \"]"); /* escaped space kept */
    array_is(PM_PG_NUMERIC, "{1.50,NULL}", "[\"1.50\",null]");
    array_is(PM_PG_BOOL, "{t,f}", "[true,false]");
    array_is(PM_PG_FLOAT8, "{1.5,NaN,-Infinity,1e+30}", "[1.5,\"NaN\",\"-Infinity\",1e+30]");
    array_is(PM_PG_DATE, "{2026-04-19}", "[\"2026-04-19\"]");
    array_is(PM_PG_BYTEA, "{\"\\\\x0aff\",\"\\\\x\"}", "[\"base64:Cv8=\",\"base64:\"]");
    array_is(PM_PG_TIMESTAMPTZ, "{\"2026-04-19 12:11:12.5+02\",\"1969-12-31 23:59:59.999999+00\"}",
             "[\"2026-04-19 10:11:12.500000000\",\"1969-12-31 23:59:59.999999000\"]");
    /* multi-dimensional values are refused; malformed text and bad elements too */
    assert_int_equal(array_fails(PM_PG_INT4, "{{1,2},{3,4}}", "multi-dimensional"),
                     PAIMON_EUNSUPPORTED);
    assert_int_equal(array_fails(PM_PG_INT4, "[1:2][1:1]={{1},{2}}", "multi-dimensional"),
                     PAIMON_EUNSUPPORTED);
    array_fails(PM_PG_INT4, "1,2", "does not start with '{'");
    array_fails(PM_PG_INT4, "{1,2", "ends inside the array");
    array_fails(PM_PG_INT4, "{1,}", "empty unquoted element");
    array_fails(PM_PG_INT4, "{1}x", "after its closing");
    array_fails(PM_PG_TEXT, "{\"a\"b}", "after a quoted element");
    array_fails(PM_PG_TEXT, "{\"a}", "unterminated");
    array_fails(PM_PG_TEXT, "{a\"b}", "quote inside");
    array_fails(PM_PG_INT4, "{1,x}", "c: value 'x'");
    array_fails(PM_PG_NUMERIC, "{NaN}", "has no DECIMAL value");
    array_fails(PM_PG_INT4, "[0:1", "no '='");
    /* the mapping keeps the element's typmod; values come back as JSON text after the fixup */
    assert_int_equal(pm_pgtype_map(PM_PG_NUMERIC_ARRAY, ((10 << 16) | 2) + 4, "c", NULL, type,
                                   sizeof(type), &err),
                     0);
    assert_string_equal(type, "ARRAY<DECIMAL(10, 2)>");
    assert_int_equal(pm_pgtype_map(PM_PG_VARCHAR_ARRAY, 9, "c", NULL, type, sizeof(type), &err), 0);
    assert_string_equal(type, "ARRAY<VARCHAR(5)>");
    assert_int_equal(pm_pgtype_map(1017, -1, "c", "point[]", type, sizeof(type), &err),
                     PAIMON_EUNSUPPORTED);
    assert_int_equal(pm_pgtype_value(PM_PG_TEXT_ARRAY, "{a}", 3, "c", &v, &scratch, &err), 0);
    assert_int_equal(pm_pgtype_value(PM_PG_BYTEA, "\\x01", 4, "c", &v, &scratch, &err), 0);
    {
        paimon_value row[2];
        assert_int_equal(
            pm_pgtype_value(PM_PG_TEXT_ARRAY, "{a,NULL}", 8, "c", &row[0], &scratch, &err), 0);
        assert_int_equal(pm_pgtype_value(PM_PG_BYTEA, "\\x01", 4, "c", &row[1], &scratch, &err), 0);
        pm_pgtype_fixup(row, 2, &scratch);
        assert_int_equal(row[0].type, PAIMON_VALUE_TEXT);
        assert_int_equal(row[0].v.s.len, 10);
        assert_memory_equal(row[0].v.s.ptr, "[\"a\",null]", 10);
        assert_int_equal(row[1].type, PAIMON_VALUE_BYTES);
        assert_memory_equal(row[1].v.s.ptr, "\x01", 1);
    }
    pm_cdc_buf_free(&scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages), cmocka_unit_test(test_byte_flips),
        cmocka_unit_test(test_values),   cmocka_unit_test(test_copy_and_types),
        cmocka_unit_test(test_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
