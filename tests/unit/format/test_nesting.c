/*
 * Nesting bounds of the file schemas (issue 19, item 8): a Parquet footer's schema tree and
 * an Avro container's schema JSON come from untrusted bytes and are walked recursively, so
 * each refuses, as PAIMON_ECORRUPT naming the file, a schema whose Paimon types would nest
 * deeper than PM_MAX_NESTING; the deepest legal schema still reads; 20,000 levels give the
 * same error, not a crash.  Avro also refuses a record that names itself and references
 * that expand past PM_AVRO_MAX_NODES.  The Avro check at create (pm_avro_data_check) names
 * what Avro cannot store.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/types.h"
#include "format/avro/avro_data.h"
#include "format/avro/avro_schema.h"
#include "format/parquet/schema.h"
#include "util/alloc.h"

static void expect_fragment(const paimon_error *err, const char *fragment)
{
    if (strstr(err->message, fragment) == NULL)
        fail_msg("message '%s' lacks '%s'", err->message, fragment);
}

/* ---- Parquet --------------------------------------------------------------------------- */

/* The Paimon type of a footer whose root holds `levels` nested groups of repetition `rep`
 * around one INT32 leaf: a ROW nested `levels` deep. */
static int parquet_chain(int levels, int rep, pm_type **out, paimon_error *err)
{
    pq_schema_elem *e = calloc((size_t)levels + 2, sizeof(*e));
    pq_file_meta m;
    pm_arena a;
    pq_schema s;
    int rc;
    assert_non_null(e);
    e[0].name = "schema";
    e[0].num_children = 1;
    for (int i = 1; i <= levels; i++) {
        e[i].name = "g";
        e[i].has_repetition = true;
        e[i].repetition = rep;
        e[i].num_children = 1;
    }
    e[levels + 1].name = "x";
    e[levels + 1].has_type = true;
    e[levels + 1].type = PQ_INT32;
    e[levels + 1].has_repetition = true;
    e[levels + 1].repetition = rep;
    memset(&m, 0, sizeof(m));
    m.schema = e;
    m.schema_count = (uint32_t)levels + 2;
    pm_arena_init(&a, 0);
    *out = NULL;
    rc = pm_pq_schema_build(&m, &a, &s, "f.parquet", err);
    if (rc == 0)
        rc = pm_pq_file_type(&s, out, "f.parquet", err);
    pm_arena_free(&a);
    free(e);
    return rc;
}

static void test_parquet_schema_depth(void **state)
{
    static const int reps[] = {PQ_REQUIRED, PQ_OPTIONAL};
    (void)state;
    for (size_t k = 0; k < 2; k++) {
        pm_type *t = NULL;
        paimon_error err = {0};
        assert_int_equal(parquet_chain(PM_MAX_NESTING, reps[k], &t, &err), 0);
        assert_int_equal(pm_type_nesting(t->fields[0].type), PM_MAX_NESTING);
        pm_type_free(t);

        assert_int_equal(parquet_chain(PM_MAX_NESTING + 1, reps[k], &t, &err), PAIMON_ECORRUPT);
        assert_null(t);
        expect_fragment(&err, "f.parquet: footer schema element");
        expect_fragment(&err, "nests deeper than");

        assert_int_equal(parquet_chain(20000, reps[k], &t, &err), PAIMON_ECORRUPT);
        assert_null(t);
        expect_fragment(&err, "f.parquet: footer schema element");
    }
}

/* ---- Avro ------------------------------------------------------------------------------ */

static int avro_parse(const char *json, pm_arena *a, pm_avro_schema **out, paimon_error *err)
{
    return pm_avro_schema_parse(json, strlen(json), a, "f.avro", out, err);
}

/* A record whose one column is `levels` non-nullable records deep: one Paimon level takes
 * two schema nodes (the record and its field's type). */
static char *avro_chain(int levels)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    pm_buf_puts(&b, "{\"type\":\"record\",\"name\":\"top\",\"fields\":[{\"name\":\"c\",\"type\":");
    for (int i = 0; i < levels; i++)
        pm_buf_printf(
            &b, "{\"type\":\"record\",\"name\":\"r%d\",\"fields\":[{\"name\":\"a\",\"type\":", i);
    pm_buf_puts(&b, "\"int\"");
    for (int i = 0; i < levels; i++)
        pm_buf_puts(&b, "}]}");
    pm_buf_puts(&b, "}]}");
    return (char *)pm_buf_detach(&b, NULL);
}

static void test_avro_type_depth(void **state)
{
    pm_arena a;
    pm_avro_schema *s = NULL;
    pm_type *t = NULL;
    paimon_error err = {0};
    char *json;
    (void)state;
    pm_arena_init(&a, 0);

    json = avro_chain(PM_MAX_NESTING);
    assert_int_equal(avro_parse(json, &a, &s, &err), 0);
    assert_int_equal(pm_avro_data_type_of(s, &t, &err), 0);
    assert_int_equal(pm_type_nesting(t->fields[0].type), PM_MAX_NESTING);
    pm_type_free(t);
    pm_free(json);

    json = avro_chain(PM_MAX_NESTING + 1);
    assert_int_equal(avro_parse(json, &a, &s, &err), 0); /* the schema itself is fine */
    assert_int_equal(pm_avro_data_type_of(s, &t, &err), PAIMON_ECORRUPT);
    expect_fragment(&err, "nests deeper than 64 types");
    pm_free(json);

    /* 20,000 levels: refused while parsing (jansson stops at 2048 JSON levels) */
    json = avro_chain(20000);
    assert_int_equal(avro_parse(json, &a, &s, &err), PAIMON_ECORRUPT);
    expect_fragment(&err, "f.avro");
    pm_free(json);
    pm_arena_free(&a);
}

/* Unions around arrays: 2 schema nodes per level, so the node bound sits at exactly
 * PM_AVRO_MAX_DEPTH / 2 levels. */
static char *avro_arrays(int levels)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    for (int i = 0; i < levels; i++)
        pm_buf_puts(&b, "[\"null\",{\"type\":\"array\",\"items\":");
    pm_buf_puts(&b, "\"int\"");
    for (int i = 0; i < levels; i++)
        pm_buf_puts(&b, "}]");
    return (char *)pm_buf_detach(&b, NULL);
}

static void test_avro_schema_depth(void **state)
{
    pm_arena a;
    pm_avro_schema *s = NULL;
    paimon_error err = {0};
    char *json;
    (void)state;
    pm_arena_init(&a, 0);
    /* the innermost "int" is node 2 * levels */
    json = avro_arrays(PM_AVRO_MAX_DEPTH / 2);
    assert_int_equal(avro_parse(json, &a, &s, &err), 0);
    pm_free(json);
    json = avro_arrays(PM_AVRO_MAX_DEPTH / 2 + 1);
    assert_int_equal(avro_parse(json, &a, &s, &err), PAIMON_ECORRUPT);
    expect_fragment(&err, "f.avro: Avro schema nested deeper than");
    pm_free(json);
    json = avro_arrays(20000);
    assert_int_equal(avro_parse(json, &a, &s, &err), PAIMON_ECORRUPT);
    pm_free(json);
    pm_arena_free(&a);
}

static void test_avro_references(void **state)
{
    pm_arena a;
    pm_avro_schema *s = NULL;
    paimon_error err = {0};
    pm_buf b;
    (void)state;
    pm_arena_init(&a, 0);

    /* a record naming itself, directly or through a union */
    assert_int_equal(avro_parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"n\","
                                "\"type\":[\"null\",\"r\"]}]}",
                                &a, &s, &err),
                     PAIMON_ECORRUPT);
    expect_fragment(&err, "Avro record r refers to itself");
    assert_int_equal(
        avro_parse("{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"x\",\"fields\":"
                   "[{\"name\":\"n\",\"type\":{\"type\":\"array\",\"items\":\"x.r\"}}]}",
                   &a, &s, &err),
        PAIMON_ECORRUPT);
    expect_fragment(&err, "refers to itself");
    /* a record used again after it is defined is fine */
    assert_int_equal(avro_parse("{\"type\":\"record\",\"name\":\"t\",\"fields\":["
                                "{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"p\","
                                "\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}},"
                                "{\"name\":\"b\",\"type\":\"p\"}]}",
                                &a, &s, &err),
                     0);

    /* r0 {} and r(i) {a: r(i-1), b: r(i-1)}: 2^i nodes once expanded */
    for (int levels = 10; levels <= 40; levels += 30) {
        pm_buf_init(&b, 0);
        pm_buf_puts(&b,
                    "{\"type\":\"record\",\"name\":\"top\",\"fields\":[{\"name\":\"z\",\"type\":"
                    "{\"type\":\"record\",\"name\":\"r0\",\"fields\":[]}}");
        for (int i = 1; i <= levels; i++)
            pm_buf_printf(&b,
                          ",{\"name\":\"f%d\",\"type\":{\"type\":\"record\",\"name\":\"r%d\","
                          "\"fields\":[{\"name\":\"a\",\"type\":\"r%d\"},{\"name\":\"b\","
                          "\"type\":\"r%d\"}]}}",
                          i, i, i - 1, i - 1);
        pm_buf_puts(&b, "]}");
        if (levels == 10) {
            assert_int_equal(avro_parse(pm_buf_cstr(&b), &a, &s, &err), 0);
            assert_true(s->expanded > 2048 && s->expanded < 8192);
        } else {
            assert_int_equal(avro_parse(pm_buf_cstr(&b), &a, &s, &err), PAIMON_ECORRUPT);
            expect_fragment(&err, "f.avro: Avro schema expands to more than");
        }
        pm_buf_free(&b);
    }
    pm_arena_free(&a);
}

static void check_avro(const char *columns, const char *fragment)
{
    pm_type *row = NULL;
    paimon_error err = {0};
    if (pm_columns_parse(columns, &row, &err) != 0)
        fail_msg("'%s': %s", columns, err.message);
    if (fragment == NULL) {
        if (pm_avro_data_check(row, &err) != 0)
            fail_msg("'%s' refused: %s", columns, err.message);
    } else {
        assert_int_equal(pm_avro_data_check(row, &err), PAIMON_EINVALID);
        expect_fragment(&err, fragment);
    }
    pm_type_free(row);
}

static void test_avro_create_checks(void **state)
{
    (void)state;
    check_avro("a INT, ts TIMESTAMP(6), t TIME(3), lz TIMESTAMP(6) WITH LOCAL TIME ZONE, "
               "_u INT, r ROW<x_1 INT, m MAP<INT, ROW<y INT>>>, m_value2 ROW<z INT>",
               NULL);
    check_avro("a INT, ts TIMESTAMP(7)",
               "column ts: Avro keeps TIMESTAMP to 6 fraction digits, not 7 (file.format avro)");
    check_avro("lz TIMESTAMP(9) WITH LOCAL TIME ZONE", "column lz: Avro keeps TIMESTAMP");
    check_avro("t TIME(4)", "column t: Avro keeps TIME to 3 fraction digits, not 4");
    check_avro("r ROW<a ARRAY<TIME(6)>>", "column r.a: Avro keeps TIME");
    check_avro("v VARIANT", "column v: Avro has no form for VARIANT");
    check_avro("`a b` INT", "column a b: an Avro name starts with a letter or '_'");
    check_avro("`1a` INT", "column 1a: an Avro name");
    check_avro("r ROW<`x-y` INT>", "column r.x-y: an Avro name");
    /* record names are paths: record_a_b_c twice */
    check_avro("a ROW<b_c ROW<x INT>>, a_b ROW<c ROW<y INT>>",
               "column a_b.c: Avro record name record_a_b_c would be defined twice");
    check_avro("m MAP<INT, ROW<x INT>>, m_value ROW<y INT>",
               "column m_value: Avro record name record_m_value would be defined twice");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parquet_schema_depth), cmocka_unit_test(test_avro_type_depth),
        cmocka_unit_test(test_avro_schema_depth),    cmocka_unit_test(test_avro_references),
        cmocka_unit_test(test_avro_create_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
