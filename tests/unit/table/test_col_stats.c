/* Statistics collectors of written files (table/write/col_stats.h): modes, truncation as
 * Java's TruncateSimpleColStatsCollector, what each format's statistics hold, and the
 * dense serialization. */
#include <math.h>
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "table/write/col_stats.h"
#include "util/alloc.h"
#include "util/bytes_map.h"

static pm_column *string_column(pm_type *t, const char *const *values, size_t n)
{
    pm_column *c = pm_column_new(t);
    for (size_t i = 0; i < n; i++) {
        if (values[i] == NULL)
            assert_int_equal(pm_column_append_null(c), 0);
        else
            assert_int_equal(pm_column_append_bytes(c, values[i], strlen(values[i])), 0);
    }
    return c;
}

/* Bounds of strings after a mode; NULL for no bound. */
static void expect_bounds(const char *mode, const char *const *values, size_t n, const char *min,
                          const char *max, int64_t nulls)
{
    pm_type *t = pm_type_new(PM_TYPE_VARCHAR);
    pm_stats_mode m;
    pm_stats_acc acc;
    pm_col_result r;
    pm_column *c;
    t->length = PM_MAX_LENGTH;
    c = string_column(t, values, n);
    assert_int_equal(pm_stats_mode_parse(mode, &m, NULL), 0);
    pm_stats_acc_init(&acc, t, m, PM_STATS_FROM_PARQUET);
    assert_int_equal(pm_stats_acc_add(&acc, c, 0, c->length), 0);
    memset(&r, 0, sizeof(r));
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_true(r.has_null_count);
    assert_int_equal(r.null_count, nulls);
    if (min == NULL) {
        assert_false(r.has_bounds);
    } else {
        assert_true(r.has_bounds);
        assert_int_equal(r.min.v.s.len, strlen(min));
        assert_memory_equal(r.min.v.s.ptr, min, strlen(min));
        assert_int_equal(r.max.v.s.len, strlen(max));
        assert_memory_equal(r.max.v.s.ptr, max, strlen(max));
    }
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    pm_column_free(c);
    pm_type_free(t);
}

static void test_modes(void **state)
{
    pm_stats_mode m;
    (void)state;
    assert_int_equal(pm_stats_mode_parse("TRUNCATE(16)", &m, NULL), 0);
    assert_int_equal(m.kind, PM_STATS_TRUNCATE);
    assert_int_equal(m.length, 16);
    assert_int_equal(pm_stats_mode_parse("Full", &m, NULL), 0);
    assert_int_equal(m.kind, PM_STATS_FULL);
    assert_int_equal(pm_stats_mode_parse("counts", &m, NULL), 0);
    assert_int_equal(pm_stats_mode_parse("none", &m, NULL), 0);
    assert_int_equal(pm_stats_mode_parse("truncate(0)", &m, NULL), PAIMON_EINVALID);
    assert_int_equal(pm_stats_mode_parse("truncate(x)", &m, NULL), PAIMON_EINVALID);
    assert_int_equal(pm_stats_mode_parse("some", &m, NULL), PAIMON_EINVALID);
}

static void test_modes_for_columns(void **state)
{
    pm_options o;
    const char *names[] = {"_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND", "id", "a", "b", "c"};
    pm_stats_mode m[7];
    (void)state;
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "fields.b.stats-mode", "full"), 0);
    assert_int_equal(pm_options_set(&o, "metadata.stats-keep-first-n-columns", "2"), 0);
    assert_int_equal(
        pm_stats_modes_for(&o, "truncate(16)", PM_STATS_FROM_PARQUET, names, 7, NULL, m, NULL), 0);
    /* system columns truncate(128); then two value columns by the mode; b by its own mode
     * (counted); c beyond the first two: none */
    assert_int_equal(m[0].kind, PM_STATS_TRUNCATE);
    assert_int_equal(m[0].length, 128);
    assert_int_equal(m[1].length, 128);
    assert_int_equal(m[3].length, 16);
    assert_int_equal(m[4].length, 16);
    assert_int_equal(m[5].kind, PM_STATS_FULL);
    assert_int_equal(m[6].kind, PM_STATS_NONE);
    /* Avro: no special system columns, and they count */
    assert_int_equal(
        pm_stats_modes_for(&o, "truncate(16)", PM_STATS_FROM_ROWS, names, 7, NULL, m, NULL), 0);
    assert_int_equal(m[0].length, 16);
    assert_int_equal(m[1].length, 16);
    assert_int_equal(m[3].kind, PM_STATS_NONE);
    pm_options_free(&o);
}

static void test_truncate(void **state)
{
    const char *v1[] = {"Apache Paimon super", "Apache Paimon super", NULL};
    const char *v2[] = {"short", "b"};
    /* 17 characters of which the 16th is the largest code point: the 15th is incremented */
    const char *v3[] = {"aaaaaaaaaaaaaaa\xf4\x8f\xbf\xbf"
                        "z"};
    /* every character at U+10FFFF: no upper bound exists, the bounds are dropped */
    const char *v4[] = {"\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf"};
    /* U+D7FF incremented is a lone surrogate, which Java encodes as '?' */
    const char *v5[] = {"\xed\x9f\xbf"
                        "a"};
    const char *v6[] = {"中中中中中中中中中中中中中中中中中", "中"};
    (void)state;
    expect_bounds("truncate(16)", v1, 3, "Apache Paimon su", "Apache Paimon sv", 1);
    expect_bounds("truncate(16)", v2, 2, "b", "short", 0);
    expect_bounds("truncate(16)", v3, 1, "aaaaaaaaaaaaaaa\xf4\x8f\xbf\xbf", "aaaaaaaaaaaaaab", 0);
    expect_bounds("truncate(1)", v4, 1, NULL, NULL, 0);
    expect_bounds("truncate(1)", v5, 1, "\xed\x9f\xbf", "?", 0);
    expect_bounds("truncate(16)", v6, 2, "中", "中中中中中中中中中中中中中中中丮", 0);
    expect_bounds("full", v1, 3, "Apache Paimon super", "Apache Paimon super", 1);
    expect_bounds("counts", v1, 3, NULL, NULL, 1);
}

/* The typed loops of pm_stats_acc_add give the bounds a value-by-value reference gives:
 * pm_datum_compare for integers and strings, strict comparisons without NaN for Parquet
 * floats (the first of equal zeros kept); with nulls, over several ranges. */
static void test_typed_bounds(void **state)
{
    static const pm_type_id ids[] = {PM_TYPE_TINYINT, PM_TYPE_SMALLINT, PM_TYPE_INT,
                                     PM_TYPE_DATE,    PM_TYPE_BIGINT,   PM_TYPE_FLOAT,
                                     PM_TYPE_DOUBLE,  PM_TYPE_VARCHAR};
    pm_stats_mode full = {PM_STATS_FULL, 0};
    uint64_t x = 88172645463325252ull;
    (void)state;
    for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
        pm_type *t = pm_type_new(ids[k]);
        pm_column *c = pm_column_new(t);
        bool is_float = ids[k] == PM_TYPE_FLOAT || ids[k] == PM_TYPE_DOUBLE;
        pm_datum lo = pm_datum_null(), hi = pm_datum_null();
        char los[16], his[16];
        int64_t nulls = 0, n = 2000;
        pm_stats_acc acc;
        pm_col_result r;
        for (int64_t i = 0; i < n; i++) {
            pm_datum d;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if (x % 7 == 0) {
                assert_int_equal(pm_column_append_null(c), 0);
                nulls++;
                continue;
            }
            if (ids[k] == PM_TYPE_VARCHAR) {
                char s[12];
                size_t len = 1 + x % 10;
                for (size_t j = 0; j < len; j++)
                    s[j] = (char)('a' + (x >> (j * 5)) % 4); /* shared prefixes */
                assert_int_equal(pm_column_append_bytes(c, s, len), 0);
            } else if (is_float) {
                double v = (double)(int64_t)(x % 2001) - 1000.0;
                if (x % 13 == 0)
                    v = NAN;
                if (x % 17 == 0)
                    v = (x & 1) ? -0.0 : 0.0;
                assert_int_equal(pm_column_append_f64(c, v), 0);
            } else {
                int64_t v = (int64_t)x;
                v = ids[k] == PM_TYPE_TINYINT    ? (int8_t)v
                    : ids[k] == PM_TYPE_SMALLINT ? (int16_t)v
                    : ids[k] == PM_TYPE_BIGINT   ? v
                                                 : (int32_t)v;
                assert_int_equal(pm_column_append_i64(c, v), 0);
            }
            pm_column_get_datum(c, c->length - 1, &d);
            if (is_float) {
                double v = ids[k] == PM_TYPE_FLOAT ? (double)d.v.f : d.v.d;
                double l = ids[k] == PM_TYPE_FLOAT ? (double)lo.v.f : lo.v.d;
                double h = ids[k] == PM_TYPE_FLOAT ? (double)hi.v.f : hi.v.d;
                if (isnan(v))
                    continue;
                if (lo.is_null || v < l)
                    lo = d;
                if (hi.is_null || v > h)
                    hi = d;
                continue;
            }
            if (lo.is_null || pm_datum_compare(t, &d, &lo) < 0) {
                lo = d;
                if (ids[k] == PM_TYPE_VARCHAR) {
                    memcpy(los, d.v.s.ptr, d.v.s.len);
                    lo.v.s.ptr = (const uint8_t *)los;
                }
            }
            if (hi.is_null || pm_datum_compare(t, &d, &hi) > 0) {
                hi = d;
                if (ids[k] == PM_TYPE_VARCHAR) {
                    memcpy(his, d.v.s.ptr, d.v.s.len);
                    hi.v.s.ptr = (const uint8_t *)his;
                }
            }
        }
        pm_stats_acc_init(&acc, t, full, PM_STATS_FROM_PARQUET);
        /* uneven ranges, one of them empty */
        assert_int_equal(pm_stats_acc_add(&acc, c, 0, 3), 0);
        assert_int_equal(pm_stats_acc_add(&acc, c, 3, 0), 0);
        assert_int_equal(pm_stats_acc_add(&acc, c, 3, 997), 0);
        assert_int_equal(pm_stats_acc_add(&acc, c, 1000, n - 1000), 0);
        memset(&r, 0, sizeof(r));
        assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
        assert_true(r.has_bounds);
        assert_int_equal(r.null_count, nulls);
        assert_int_equal(pm_datum_compare(t, &r.min, &lo), 0);
        assert_int_equal(pm_datum_compare(t, &r.max, &hi), 0);
        if (is_float) /* the same zero, bit for bit */
            assert_int_equal(signbit(ids[k] == PM_TYPE_FLOAT ? (double)r.min.v.f : r.min.v.d),
                             signbit(ids[k] == PM_TYPE_FLOAT ? (double)lo.v.f : lo.v.d));
        pm_col_result_free(&r);
        pm_stats_acc_free(&acc);
        pm_column_free(c);
        pm_type_free(t);
    }
}

static void test_sources(void **state)
{
    pm_type *f = pm_type_new(PM_TYPE_DOUBLE), *bin = pm_type_new(PM_TYPE_VARBINARY),
            *ts = pm_type_new(PM_TYPE_TIMESTAMP), *arr = pm_type_new(PM_TYPE_ARRAY);
    pm_stats_mode full = {PM_STATS_FULL, 0};
    pm_column *c;
    pm_stats_acc acc;
    pm_col_result r;
    double vals[] = {1.5, NAN, -2.0};
    (void)state;
    arr->element = pm_type_new(PM_TYPE_INT);
    ts->precision = 9;

    /* Parquet: NaN skipped */
    c = pm_column_new(f);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pm_column_append_f64(c, vals[i]), 0);
    pm_stats_acc_init(&acc, f, full, PM_STATS_FROM_PARQUET);
    assert_int_equal(pm_stats_acc_add(&acc, c, 0, 3), 0);
    memset(&r, 0, sizeof(r));
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_true(r.has_bounds);
    assert_true(r.min.v.d == -2.0 && r.max.v.d == 1.5);
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    /* rows (Avro): NaN is the largest */
    pm_stats_acc_init(&acc, f, full, PM_STATS_FROM_ROWS);
    assert_int_equal(pm_stats_acc_add(&acc, c, 0, 3), 0);
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_true(isnan(r.max.v.d));
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    pm_column_free(c);

    /* binary: only a null count; TIMESTAMP(9) in Parquet: only a null count */
    pm_stats_acc_init(&acc, bin, full, PM_STATS_FROM_PARQUET);
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_false(r.none);
    assert_false(r.has_bounds);
    assert_true(r.has_null_count);
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    pm_stats_acc_init(&acc, ts, full, PM_STATS_FROM_PARQUET);
    assert_true(acc.no_bounds);
    pm_stats_acc_free(&acc);
    /* nested: nothing at all in Parquet; a null count from rows */
    pm_stats_acc_init(&acc, arr, full, PM_STATS_FROM_PARQUET);
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_true(r.none);
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    pm_stats_acc_init(&acc, arr, full, PM_STATS_FROM_ROWS);
    assert_int_equal(pm_stats_acc_result(&acc, &r), 0);
    assert_false(r.none);
    assert_true(r.has_null_count);
    pm_col_result_free(&r);
    pm_stats_acc_free(&acc);
    pm_type_free(f);
    pm_type_free(bin);
    pm_type_free(ts);
    pm_type_free(arr);
}

static void test_dense(void **state)
{
    pm_type *i = pm_type_new(PM_TYPE_INT), *a = pm_type_new(PM_TYPE_ARRAY);
    const pm_type *types[2];
    const char *names[2] = {"n", "arr"};
    pm_col_result res[2];
    pm_arena arena;
    pm_simple_stats s;
    pm_avro_array cols;
    (void)state;
    a->element = pm_type_new(PM_TYPE_INT);
    types[0] = i;
    types[1] = a;
    memset(res, 0, sizeof(res));
    res[0].has_bounds = res[0].has_null_count = true;
    res[0].min = pm_datum_int(1);
    res[0].max = pm_datum_int(5);
    res[1].none = true;
    pm_arena_init(&arena, 1024);
    assert_int_equal(pm_stats_serialize_dense(&arena, types, names, res, 2, true, &s, &cols, NULL),
                     0);
    assert_true(cols.present);
    assert_int_equal(cols.count, 1);
    assert_string_equal(((const char *const *)cols.items)[0], "n");
    assert_int_equal(s.null_counts.count, 1);
    /* all-columns mode: the NONE column is null everywhere */
    assert_int_equal(pm_stats_serialize_dense(&arena, types, names, res, 2, false, &s, &cols, NULL),
                     0);
    assert_false(cols.present);
    assert_int_equal(s.null_counts.count, 2);
    assert_true(((int64_t *)s.null_counts.items)[1] == PM_AVRO_NULL_LONG);
    pm_arena_free(&arena);
    pm_type_free(i);
    pm_type_free(a);
}

static void test_bytes_map(void **state)
{
    pm_bytes_map m;
    bool ins;
    char key[32];
    int64_t put;
    (void)state;
    pm_bytes_map_init(&m);
    for (int k = 0; k < 5000; k++) {
        int n = snprintf(key, sizeof(key), "key-%d", k);
        assert_int_equal(pm_bytes_map_put(&m, key, (size_t)n, k * 2, &put, &ins), 0);
        assert_int_equal(put, k);
        assert_true(ins);
    }
    for (int k = 0; k < 5000; k++) {
        int n = snprintf(key, sizeof(key), "key-%d", k);
        int64_t id = pm_bytes_map_find(&m, key, (size_t)n);
        assert_int_equal(id, k);
        assert_int_equal(m.values[id], k * 2);
        assert_int_equal(pm_bytes_map_put(&m, key, (size_t)n, 0, &put, &ins), 0);
        assert_int_equal(put, k);
        assert_false(ins);
    }
    assert_int_equal(pm_bytes_map_find(&m, "nope", 4), -1);
    assert_int_equal(pm_bytes_map_put(&m, "", 0, 7, &put, &ins), 0);
    assert_int_equal(put, 5000);
    assert_int_equal(pm_bytes_map_find(&m, "", 0), 5000);
    pm_bytes_map_free(&m);
}

static void test_gather(void **state)
{
    pm_type *s = pm_type_new(PM_TYPE_VARCHAR), *n = pm_type_new(PM_TYPE_BIGINT),
            *b = pm_type_new(PM_TYPE_BOOLEAN);
    pm_column *cs, *cn, *cb, *ds, *dn, *db;
    int64_t idx[] = {3, 0, 2, 2};
    const char *strs[] = {"a", NULL, "ccc", "dd"};
    pm_datum d;
    (void)state;
    s->length = PM_MAX_LENGTH;
    cs = string_column(s, strs, 4);
    cn = pm_column_new(n);
    cb = pm_column_new(b);
    for (int i = 0; i < 4; i++) {
        if (i == 2)
            assert_int_equal(pm_column_append_null(cn), 0);
        else
            assert_int_equal(pm_column_append_i64(cn, i * 10), 0);
        d.is_null = false;
        d.v.b = i % 2 == 0;
        assert_int_equal(pm_column_append_datum(cb, &d), 0);
    }
    ds = pm_column_new(s);
    dn = pm_column_new(n);
    db = pm_column_new(b);
    assert_int_equal(pm_column_append_bytes(ds, "x", 1), 0); /* something before */
    assert_int_equal(pm_column_append_i64(dn, 99), 0);
    assert_int_equal(pm_column_append_null(db), 0);
    assert_int_equal(pm_column_take(ds, cs, idx, 4), 0);
    assert_int_equal(pm_column_take(dn, cn, idx, 4), 0);
    assert_int_equal(pm_column_take(db, cb, idx, 4), 0);
    assert_int_equal(ds->length, 5);
    pm_column_get_datum(ds, 1, &d);
    assert_memory_equal(d.v.s.ptr, "dd", 2);
    pm_column_get_datum(ds, 3, &d);
    assert_memory_equal(d.v.s.ptr, "ccc", 3);
    assert_int_equal(dn->null_count, 2);
    assert_false(pm_column_is_valid(dn, 3));
    assert_false(pm_column_is_valid(dn, 4));
    pm_column_get_datum(dn, 2, &d);
    assert_int_equal(d.v.i, 0);
    assert_int_equal(db->null_count, 1);
    pm_column_get_datum(db, 2, &d);
    assert_true(d.v.b);
    pm_column_get_datum(db, 1, &d);
    assert_false(d.v.b);
    pm_column_free(cs);
    pm_column_free(cn);
    pm_column_free(cb);
    pm_column_free(ds);
    pm_column_free(dn);
    pm_column_free(db);
    pm_type_free(s);
    pm_type_free(n);
    pm_type_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),        cmocka_unit_test(test_modes_for_columns),
        cmocka_unit_test(test_typed_bounds), cmocka_unit_test(test_truncate),
        cmocka_unit_test(test_sources),      cmocka_unit_test(test_dense),
        cmocka_unit_test(test_bytes_map),    cmocka_unit_test(test_gather),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
