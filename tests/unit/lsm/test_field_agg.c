/*
 * Field aggregators (behaviour.md §2.3) one function at a time: Java's arithmetic and null
 * rules, the retraction rules, and the element order of results Java builds in a HashSet or
 * HashMap (orders taken from java.util.HashSet/HashMap on OpenJDK 17).
 */
#include <roaring/roaring.h>
#include <string.h>

#include "testlib.h"

#include "data/java_hash.h"
#include "lsm/field_agg.h"
#include "meta/schema.h"
#include "util/alloc.h"

/* ---- fixtures ---------------------------------------------------------------------------- */

typedef struct agg_case {
    pm_schema schema;
    pm_type *type;
    pm_field field;
    pm_field_agg agg;
    pm_column *in; /* input values, appended by the test */
} agg_case;

/* An aggregator `fn` over a field `f` of type `type`, with options "k=v" pairs. */
static agg_case *setup(const char *type, const char *fn, const char *const *opts, int expect_rc)
{
    agg_case *c = pm_calloc(1, sizeof(*c));
    paimon_error err = {0, {0}};
    assert_non_null(c);
    pm_options_init(&c->schema.options);
    for (size_t i = 0; opts != NULL && opts[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&c->schema.options, opts[i], opts[i + 1]), 0);
    pm_strlist_init(&c->schema.primary_keys);
    assert_int_equal(pm_type_parse(type, &c->type, &err), 0);
    c->field.id = 1;
    c->field.name = "f";
    c->field.type = c->type;
    assert_int_equal(pm_field_agg_init(&c->agg, &c->schema, &c->field, fn, &err), expect_rc);
    c->in = pm_column_new(c->type);
    assert_non_null(c->in);
    return c;
}

static void teardown(agg_case *c)
{
    pm_field_agg_free(&c->agg);
    pm_column_free(c->in);
    pm_type_free(c->type);
    pm_options_free(&c->schema.options);
    pm_strlist_free(&c->schema.primary_keys);
    pm_free(c);
}

static pm_vref add_int(agg_case *c, int64_t v)
{
    assert_int_equal(pm_column_append_i64(c->in, v), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

static pm_vref add_bool(agg_case *c, bool v)
{
    pm_datum d;
    d.is_null = false;
    d.v.b = v;
    assert_int_equal(pm_column_append_datum(c->in, &d), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

static pm_vref add_null(agg_case *c)
{
    assert_int_equal(pm_column_append_null(c->in), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

static pm_vref add_str(agg_case *c, const char *s)
{
    assert_int_equal(pm_column_append_bytes(c->in, s, strlen(s)), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

static pm_vref add_dec(agg_case *c, pm_int128 unscaled)
{
    pm_datum d;
    d.is_null = false;
    d.v.dec = unscaled;
    assert_int_equal(pm_column_append_datum(c->in, &d), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

/* An ARRAY<INT> value. */
static pm_vref add_int_array(agg_case *c, const int *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_column_append_i64(c->in->children[0], v[i]), 0);
    assert_int_equal(pm_column_list_end(c->in, true), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

/* A MAP<INT, STRING> value. */
static pm_vref add_int_map(agg_case *c, const int *k, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pm_column_append_i64(c->in->children[0], k[i]), 0);
        if (v[i] == NULL)
            assert_int_equal(pm_column_append_null(c->in->children[1]), 0);
        else
            assert_int_equal(pm_column_append_bytes(c->in->children[1], v[i], strlen(v[i])), 0);
    }
    assert_int_equal(pm_column_list_end(c->in, true), 0);
    return pm_vref_of(c->in, c->in->length - 1);
}

static const char *json(pm_vref v)
{
    static char text[1024];
    pm_buf b;
    paimon_error err = {0, {0}};
    if (pm_vref_is_null(v))
        return "null";
    pm_buf_init(&b, 0);
    assert_int_equal(pm_column_json(&b, v.col, v.row, &err), 0);
    snprintf(text, sizeof(text), "%s", pm_buf_cstr(&b));
    pm_buf_free(&b);
    return text;
}

/* acc = fn(acc, x) over a list of vrefs. */
static pm_vref fold(agg_case *c, pm_vref acc, const pm_vref *xs, size_t n)
{
    paimon_error err = {0, {0}};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_field_agg_agg(&c->agg, acc, xs[i], &acc, &err), 0);
    return acc;
}

/* ---- scalars ----------------------------------------------------------------------------- */

static void test_sum_and_product(void **state)
{
    paimon_error err = {0, {0}};
    agg_case *c = setup("INT", "sum", NULL, 0);
    pm_vref acc = pm_vref_null(), out;
    (void)state;
    {
        pm_vref xs[] = {add_null(c), add_int(c, 2147483647), add_int(c, 1), add_null(c)};
        acc = fold(c, acc, xs, 4);
        assert_string_equal(json(acc), "-2147483648"); /* Java int wrap-around */
    }
    /* Retraction: acc - x; a null acc gives -x. */
    assert_int_equal(pm_field_agg_retract(&c->agg, acc, add_int(c, 5), &out, &err), 0);
    assert_string_equal(json(out), "2147483643");
    assert_int_equal(pm_field_agg_retract(&c->agg, pm_vref_null(), add_int(c, 5), &out, &err), 0);
    assert_string_equal(json(out), "-5");
    teardown(c);

    /* Compact decimals keep a sum with more digits than the precision (a long), wider
     * ones become null. */
    c = setup("DECIMAL(4, 2)", "sum", NULL, 0);
    {
        pm_vref xs[] = {add_dec(c, 9999), add_dec(c, 1)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 2)), "\"100.00\"");
    }
    teardown(c);
    c = setup("DECIMAL(20, 0)", "sum", NULL, 0);
    {
        pm_int128 max = 1;
        for (int i = 0; i < 20; i++)
            max *= 10;
        pm_vref xs[] = {add_dec(c, max - 1), add_dec(c, 1)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 2)), "null");
    }
    teardown(c);

    /* product: decimals rounded half up at the field's scale. */
    c = setup("DECIMAL(10, 2)", "product", NULL, 0);
    {
        pm_vref xs[] = {add_dec(c, 105), add_dec(c, 105)}; /* 1.05 * 1.05 = 1.1025 */
        acc = fold(c, pm_vref_null(), xs, 2);
        assert_string_equal(json(acc), "\"1.10\"");
        pm_vref ys[] = {add_dec(c, -105), add_dec(c, 115)}; /* 1.10*-1.05=-1.155 -> -1.16 */
        assert_string_equal(json(fold(c, acc, ys, 1)), "\"-1.16\"");
        (void)ys[1];
    }
    /* retraction divides; by zero is an error naming the field */
    assert_int_equal(pm_field_agg_retract(&c->agg, add_dec(c, 500), add_dec(c, 200), &out, &err),
                     0);
    assert_string_equal(json(out), "\"2.50\"");
    assert_int_equal(pm_field_agg_retract(&c->agg, add_dec(c, 500), add_dec(c, 0), &out, &err),
                     PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "field f"));
    teardown(c);

    /* Wrong types fail as Java's factories do. */
    c = setup("STRING", "sum", NULL, PAIMON_EINVALID);
    teardown(c);
}

static void test_value_functions(void **state)
{
    paimon_error err = {0, {0}};
    agg_case *c;
    pm_vref out;
    (void)state;

    c = setup("INT", "max", NULL, 0);
    {
        pm_vref xs[] = {add_int(c, 3), add_null(c), add_int(c, 9), add_int(c, 4)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 4)), "9");
    }
    assert_int_equal(pm_field_agg_retract(&c->agg, add_int(c, 1), add_int(c, 1), &out, &err),
                     PAIMON_EINVALID); /* max cannot retract */
    assert_non_null(strstr(err.message, "ignore-retract"));
    teardown(c);

    {
        const char *opts[] = {"fields.f.ignore-retract", "true", NULL};
        c = setup("INT", "min", opts, 0);
        pm_vref acc = add_int(c, 7);
        assert_int_equal(pm_field_agg_retract(&c->agg, acc, add_int(c, 1), &out, &err), 0);
        assert_string_equal(json(out), "7"); /* ignored */
        teardown(c);
    }

    /* first_value keeps the first input even when null, until reset; first_non_null
     * waits for a value. */
    c = setup("INT", "first_value", NULL, 0);
    {
        pm_vref xs[] = {add_null(c), add_int(c, 2)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 2)), "null");
        pm_field_agg_reset(&c->agg);
        pm_vref ys[] = {add_int(c, 5), add_int(c, 6)};
        assert_string_equal(json(fold(c, pm_vref_null(), ys, 2)), "5");
    }
    teardown(c);
    c = setup("INT", "first_not_null_value", NULL, 0); /* the legacy name */
    {
        pm_vref xs[] = {add_null(c), add_int(c, 2), add_int(c, 3)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 3)), "2");
    }
    teardown(c);

    /* last_non_null_value retracts to null only for a non-null retraction. */
    c = setup("INT", "last_non_null_value", NULL, 0);
    assert_int_equal(pm_field_agg_retract(&c->agg, add_int(c, 4), add_null(c), &out, &err), 0);
    assert_string_equal(json(out), "4");
    assert_int_equal(pm_field_agg_retract(&c->agg, add_int(c, 4), add_int(c, 1), &out, &err), 0);
    assert_string_equal(json(out), "null");
    teardown(c);

    c = setup("BOOLEAN", "bool_and", NULL, 0);
    {
        pm_vref xs[] = {add_bool(c, true), add_null(c), add_bool(c, false), add_bool(c, true)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 4)), "false");
    }
    teardown(c);

    c = setup("INT", "no_such_function", NULL, PAIMON_EINVALID);
    teardown(c);
    c = setup("BYTES", "theta_sketch", NULL, PAIMON_EUNSUPPORTED);
    teardown(c);
}

static void test_listagg(void **state)
{
    agg_case *c = setup("STRING", "listagg", NULL, 0);
    (void)state;
    {
        /* acc null + "" is "" (not null); empty inputs are skipped after that */
        pm_vref xs[] = {add_str(c, ""), add_str(c, "a"), add_str(c, ""), add_null(c),
                        add_str(c, "b")};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 1)), "\"\"");
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 5)), "\"a,b\"");
    }
    teardown(c);
    {
        const char *opts[] = {"fields.f.distinct", "true", "fields.f.list-agg-delimiter", ";",
                              NULL};
        c = setup("STRING", "listagg", opts, 0);
        pm_vref xs[] = {add_str(c, "a;b"), add_str(c, "b;c;;a;d"), add_str(c, "d")};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 3)), "\"a;b;c;d\"");
        teardown(c);
    }
    c = setup("VARCHAR(10)", "listagg", NULL, PAIMON_EINVALID); /* STRING only, as Java */
    teardown(c);
}

/* ---- collections ------------------------------------------------------------------------- */

static void test_collect(void **state)
{
    paimon_error err = {0, {0}};
    agg_case *c = setup("ARRAY<INT>", "collect", NULL, 0);
    pm_vref out;
    (void)state;
    {
        int a[] = {1, 2}, b[] = {2, 3};
        pm_vref xs[] = {add_int_array(c, a, 2), add_null(c), add_int_array(c, b, 2)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 3)), "[1,2,2,3]");
    }
    {
        /* retraction removes one equal element per retracted element */
        int a[] = {1, 2, 2, 3}, r[] = {2, 9};
        assert_int_equal(pm_field_agg_retract(&c->agg, add_int_array(c, a, 4),
                                              add_int_array(c, r, 2), &out, &err),
                         0);
        assert_string_equal(json(out), "[1,2,3]");
    }
    teardown(c);
    {
        /* distinct: a HashSet; java.util.HashSet of 100, 3, 17, 3, -4, 64, 1 iterates as
         * [64, 17, 1, 3, -4, 100]. */
        const char *opts[] = {"fields.f.distinct", "true", NULL};
        int a[] = {100, 3, 17}, b[] = {3, -4, 64, 1};
        c = setup("ARRAY<INT>", "collect", opts, 0);
        pm_vref xs[] = {add_int_array(c, a, 3), add_int_array(c, b, 4)};
        assert_string_equal(json(fold(c, pm_vref_null(), xs, 2)), "[64,17,1,3,-4,100]");
        /* with one side null the set still dedupes */
        int d[] = {5, 5, 21};
        pm_vref ys[] = {add_int_array(c, d, 3)};
        assert_string_equal(json(fold(c, pm_vref_null(), ys, 1)), "[5,21]");
        teardown(c);
    }
}

static void test_merge_map(void **state)
{
    paimon_error err = {0, {0}};
    agg_case *c = setup("MAP<INT, STRING>", "merge_map", NULL, 0);
    pm_vref out;
    (void)state;
    {
        /* A HashMap of Integer keys: bins by value; the input's values win. */
        int k1[] = {17, 2}, k2[] = {1, 17, 40};
        const char *v1[] = {"a", "b"}, *v2[] = {"c", NULL, "e"};
        pm_vref xs[] = {add_int_map(c, k1, v1, 2), add_int_map(c, k2, v2, 3)};
        pm_vref acc = fold(c, pm_vref_null(), xs, 2);
        assert_string_equal(json(acc), "[[17,null],[1,\"c\"],[2,\"b\"],[40,\"e\"]]");
        /* retraction removes the retracted keys */
        int kr[] = {1, 2};
        const char *vr[] = {"x", "y"};
        assert_int_equal(pm_field_agg_retract(&c->agg, acc, add_int_map(c, kr, vr, 2), &out, &err),
                         0);
        assert_string_equal(json(out), "[[17,null],[40,\"e\"]]");
    }
    teardown(c);
}

static void test_nested_update(void **state)
{
    const char *opts[] = {"fields.f.nested-key", "id", "fields.f.count-limit", "3", NULL};
    agg_case *c = setup("ARRAY<ROW<id INT, v STRING>>", "nested_update", opts, 0);
    pm_column *rows = c->in->children[0];
    pm_vref a, b, acc;
    (void)state;
    /* [(1,x), (2,y)] then [(1,z), (3,w), (4,q)]: the limit 3 takes 1 more row from the
     * input before keying, so (1,z) replaces (1,x) and (3,w), (4,q) stay out. */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pm_column_append_i64(rows->children[0], i + 1), 0);
        assert_int_equal(pm_column_append_bytes(rows->children[1], i == 0 ? "x" : "y", 1), 0);
        assert_int_equal(pm_column_struct_end(rows, true), 0);
    }
    assert_int_equal(pm_column_list_end(c->in, true), 0);
    a = pm_vref_of(c->in, 0);
    {
        const int ids[] = {1, 3, 4};
        const char *vs[] = {"z", "w", "q"};
        for (int i = 0; i < 3; i++) {
            assert_int_equal(pm_column_append_i64(rows->children[0], ids[i]), 0);
            assert_int_equal(pm_column_append_bytes(rows->children[1], vs[i], 1), 0);
            assert_int_equal(pm_column_struct_end(rows, true), 0);
        }
    }
    assert_int_equal(pm_column_list_end(c->in, true), 0);
    b = pm_vref_of(c->in, 1);
    {
        pm_vref xs[] = {a, b};
        acc = fold(c, pm_vref_null(), xs, 2);
    }
    /* Keys 1 and 2 as BinaryRows: the content is fixed, the order is the HashMap's. */
    {
        const char *j = json(acc);
        assert_non_null(strstr(j, "{\"id\":1,\"v\":\"z\"}"));
        assert_non_null(strstr(j, "{\"id\":2,\"v\":\"y\"}"));
        assert_null(strstr(j, "\"x\""));
        assert_null(strstr(j, "\"w\""));
    }
    teardown(c);
}

static void test_rbm32(void **state)
{
    agg_case *c = setup("BYTES", "rbm32", NULL, 0);
    roaring_bitmap_t *x = roaring_bitmap_from_range(0, 1000, 1);
    roaring_bitmap_t *y = roaring_bitmap_create(), *z;
    char *bx, *by;
    size_t lx, ly;
    pm_vref acc;
    pm_datum d;
    (void)state;
    roaring_bitmap_add(y, 5000);
    roaring_bitmap_add(y, 1u << 20);
    lx = roaring_bitmap_portable_size_in_bytes(x);
    ly = roaring_bitmap_portable_size_in_bytes(y);
    bx = pm_malloc(lx);
    by = pm_malloc(ly);
    roaring_bitmap_portable_serialize(x, bx);
    roaring_bitmap_portable_serialize(y, by);
    assert_int_equal(pm_column_append_bytes(c->in, bx, lx), 0);
    assert_int_equal(pm_column_append_bytes(c->in, by, ly), 0);
    {
        pm_vref xs[] = {pm_vref_of(c->in, 0), pm_vref_of(c->in, 1)};
        acc = fold(c, pm_vref_null(), xs, 2);
    }
    pm_column_get_datum(acc.col, acc.row, &d);
    z = roaring_bitmap_portable_deserialize_safe((const char *)d.v.s.ptr, d.v.s.len);
    assert_non_null(z);
    assert_int_equal(roaring_bitmap_get_cardinality(z), 1002);
    assert_true(roaring_bitmap_contains(z, 999) && roaring_bitmap_contains(z, 1u << 20));
    /* run-optimized as Java's serialize(): 0..999 is one run container */
    assert_true(d.v.s.len < lx + ly);
    {
        paimon_error err = {0, {0}};
        pm_vref out;
        assert_int_equal(pm_column_append_bytes(c->in, "junk", 4), 0);
        assert_int_equal(pm_field_agg_agg(&c->agg, acc, pm_vref_of(c->in, 2), &out, &err),
                         PAIMON_ECORRUPT);
    }
    roaring_bitmap_free(x);
    roaring_bitmap_free(y);
    roaring_bitmap_free(z);
    pm_free(bx);
    pm_free(by);
    teardown(c);
}

static void test_java_hash_codes(void **state)
{
    /* Values from java.math.BigDecimal, Long, Double and Float hashCode() on OpenJDK 17. */
    pm_type *t = NULL;
    paimon_error err = {0, {0}};
    pm_column *col;
    pm_datum d;
    (void)state;
    assert_int_equal(pm_type_parse("DECIMAL(38, 2)", &t, &err), 0);
    col = pm_column_new(t);
    d.is_null = false;
    d.v.dec = -(((pm_int128)1234567890123456789LL) * 10000 + 123); /* -12345678901234567890123 */
    assert_int_equal(pm_column_append_datum(col, &d), 0);
    d.v.dec = 12345;
    assert_int_equal(pm_column_append_datum(col, &d), 0);
    assert_int_equal(pm_java_hash_code(col, 0), -647166412);
    assert_int_equal(pm_java_hash_code(col, 1), 382697);
    pm_column_free(col);
    pm_type_free(t);

    assert_int_equal(pm_type_parse("BIGINT", &t, &err), 0);
    col = pm_column_new(t);
    assert_int_equal(pm_column_append_i64(col, -5), 0);
    assert_int_equal(pm_column_append_i64(col, 1LL << 40), 0);
    assert_int_equal(pm_java_hash_code(col, 0), 4);
    assert_int_equal(pm_java_hash_code(col, 1), 256);
    pm_column_free(col);
    pm_type_free(t);

    assert_int_equal(pm_type_parse("DOUBLE", &t, &err), 0);
    col = pm_column_new(t);
    assert_int_equal(pm_column_append_f64(col, -0.0), 0);
    assert_int_equal(pm_column_append_f64(col, 1.5), 0);
    assert_int_equal(pm_java_hash_code(col, 0), (int32_t)0x80000000u);
    assert_int_equal(pm_java_hash_code(col, 1), 1073217536);
    pm_column_free(col);
    pm_type_free(t);

    assert_int_equal(pm_type_parse("FLOAT", &t, &err), 0);
    col = pm_column_new(t);
    assert_int_equal(pm_column_append_f64(col, 0.0 / 0.0), 0);
    assert_int_equal(pm_column_append_f64(col, 2.25), 0);
    assert_int_equal(pm_java_hash_code(col, 0), 2143289344);
    assert_int_equal(pm_java_hash_code(col, 1), 1074790400);
    /* Float.equals holds for NaN and separates -0.0 from 0.0; RecordEqualiser is == */
    assert_int_equal(pm_column_append_f64(col, 0.0 / 0.0), 0);
    assert_true(pm_java_equals(col, 0, col, 2));
    assert_false(pm_value_equals(col, 0, col, 2));
    pm_column_free(col);
    pm_type_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_and_product), cmocka_unit_test(test_value_functions),
        cmocka_unit_test(test_listagg),         cmocka_unit_test(test_collect),
        cmocka_unit_test(test_merge_map),       cmocka_unit_test(test_nested_update),
        cmocka_unit_test(test_rbm32),           cmocka_unit_test(test_java_hash_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
