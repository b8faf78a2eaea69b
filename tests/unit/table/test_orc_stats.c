/*
 * Statistics of ORC data files (PM_STATS_FROM_ORC): a file written by the ORC writer is
 * read back by pm_orc_file_col_stats (Java's OrcSimpleStatsExtractor) and converted by the
 * collectors (col_stats.h).  Each case states the rule from Java 1.4.2 / ORC Java 1.9 that
 * it checks: null counts from numberOfValues, BOOLEAN from the true count, a NaN that comes
 * first sticks, -0.0/0.0 keep the first zero, decimals at the type's scale, strings over
 * 1024 bytes lose that bound (and truncate(N) then gives up on both), CHAR padding is in the
 * bounds, timestamps keep nanoseconds of the millisecond, nested and binary columns have a
 * null count only, a field the file lacks has no statistics at all.
 */
#include <math.h>
#include <string.h>

#include "testlib.h"

#include "data/batch.h"
#include "format/orc/orc_format.h"
#include "table/write/col_stats.h"

typedef struct fixture {
    pm_fs *fs;
    pm_type *row;
    pm_batch *b;
    pm_arena arena;
    pm_file_col_stats *raw;
} fixture;

/* Writes the batch `f->b` as /t/f.orc (options `o`, may be NULL) and reads its statistics
 * for the row type `read_row` (NULL: the written one). */
static void write_and_extract(fixture *f, const pm_orc_writer_options *o, const pm_type *read_row)
{
    paimon_error err = {0};
    pm_output *out;
    pm_orc_file_writer *w;
    const pm_type *rt = read_row != NULL ? read_row : f->row;
    assert_int_equal(f->fs->create(f->fs, "/t/f.orc", &out, &err), 0);
    assert_int_equal(pm_orc_file_writer_open(&w, out, f->row, o, &err), 0);
    assert_int_equal(pm_orc_file_writer_write(w, f->b, &err), 0);
    assert_int_equal(pm_orc_file_writer_close(w, NULL, &err), 0);
    f->raw = pm_arena_calloc(&f->arena, rt->field_count + 1, sizeof(*f->raw));
    assert_non_null(f->raw);
    assert_int_equal(pm_orc_file_col_stats(f->fs, "/t/f.orc", rt, &f->arena, f->raw, &err), 0);
}

static void setup(fixture *f, const char *columns)
{
    paimon_error err = {0};
    memset(f, 0, sizeof(*f));
    f->fs = pm_fs_memory_new();
    pm_arena_init(&f->arena, 4096);
    assert_int_equal(pm_columns_parse(columns, &f->row, &err), 0);
    assert_int_equal(pm_batch_new(&f->b, f->row, &err), 0);
}

static void teardown(fixture *f)
{
    pm_batch_free(f->b);
    pm_type_free(f->row);
    pm_arena_free(&f->arena);
    pm_fs_free(f->fs);
}

static void rows(fixture *f, int64_t n)
{
    paimon_error err = {0};
    assert_int_equal(pm_batch_set_rows(f->b, n, &err), 0);
}

static void put(fixture *f, size_t col, pm_datum d)
{
    assert_int_equal(pm_column_append_datum(f->b->columns[col], &d), 0);
}

static pm_datum dbl(double v)
{
    pm_datum d = pm_datum_null();
    d.is_null = false;
    d.v.d = v;
    return d;
}

static pm_datum str(const char *s)
{
    return pm_datum_bytes(s, strlen(s));
}

/* The collector's result of column `col` under `mode` ("full", "truncate(4)", ...). */
static void result_of(fixture *f, size_t col, const char *mode, pm_col_result *r)
{
    pm_stats_acc acc;
    pm_stats_mode m;
    paimon_error err = {0};
    assert_int_equal(pm_stats_mode_parse(mode, &m, &err), 0);
    pm_stats_acc_init(&acc, f->row->fields[col].type, m, PM_STATS_FROM_ORC);
    /* rows add nothing for ORC: the statistics come from the file */
    assert_int_equal(pm_stats_acc_add(&acc, f->b->columns[col], 0, f->b->row_count), 0);
    assert_false(acc.has_bounds);
    assert_int_equal(pm_stats_acc_set_file(&acc, &f->raw[col]), 0);
    memset(r, 0, sizeof(*r));
    assert_int_equal(pm_stats_acc_result(&acc, r), 0);
    pm_stats_acc_free(&acc);
}

static void test_integers_booleans_dates(void **state)
{
    fixture f;
    pm_col_result r;
    (void)state;
    setup(&f, "t TINYINT, i INT, l BIGINT, b BOOLEAN, allnull INT, dt DATE, tm TIME");
    for (int64_t k = 0; k < 3000; k++) {
        put(&f, 0, k % 5 == 0 ? pm_datum_null() : pm_datum_int((int8_t)(k % 200 - 100)));
        put(&f, 1, pm_datum_int(k * 7 - 1000));
        put(&f, 2, pm_datum_int(k == 1234 ? INT64_MIN : k));
        put(&f, 3, k % 3 == 0 ? pm_datum_null() : (pm_datum){.is_null = false, .v.b = true});
        put(&f, 4, pm_datum_null());
        put(&f, 5, pm_datum_int(19000 + k % 17));
        put(&f, 6, pm_datum_int(k * 1000));
    }
    rows(&f, 3000);
    write_and_extract(&f, NULL, NULL);
    /* null count = rows - numberOfValues */
    assert_true(f.raw[0].has_null_count);
    assert_int_equal(f.raw[0].null_count, 600);
    assert_int_equal(f.raw[0].min.v.i, -99); /* -100 falls on the null rows */
    assert_int_equal(f.raw[0].max.v.i, 99);
    assert_int_equal(f.raw[1].min.v.i, -1000);
    assert_int_equal(f.raw[1].max.v.i, 2999 * 7 - 1000);
    assert_true(f.raw[2].min.v.i == INT64_MIN);
    assert_int_equal(f.raw[2].max.v.i, 2999);
    /* BOOLEAN: min = (falseCount == 0), max = (trueCount != 0): every value true */
    assert_true(f.raw[3].has_min && f.raw[3].has_max);
    assert_true(f.raw[3].min.v.b);
    assert_true(f.raw[3].max.v.b);
    assert_int_equal(f.raw[3].null_count, 1000);
    /* all null: a null count, no bounds */
    assert_true(f.raw[4].has_null_count);
    assert_int_equal(f.raw[4].null_count, 3000);
    assert_false(f.raw[4].has_min || f.raw[4].has_max);
    assert_int_equal(f.raw[5].min.v.i, 19000);
    assert_int_equal(f.raw[5].max.v.i, 19016);
    assert_int_equal(f.raw[6].max.v.i, 2999000);
    /* counts mode keeps the null count only; none drops everything */
    result_of(&f, 1, "counts", &r);
    assert_false(r.has_bounds);
    assert_true(r.has_null_count);
    pm_col_result_free(&r);
    result_of(&f, 1, "none", &r);
    assert_true(r.none);
    pm_col_result_free(&r);
    teardown(&f);
}

static void test_doubles_nan_and_zero(void **state)
{
    fixture f;
    pm_orc_writer_options o;
    (void)state;
    setup(&f, "first_nan DOUBLE, later_nan DOUBLE, zeros DOUBLE, fl FLOAT");
    /* ORC Java's updateDouble: the first value sets min and max; NaN never compares, so a
     * NaN that comes first stays both bounds (of its row group and, merged first, of the
     * file), one that comes later changes nothing */
    put(&f, 0, dbl(NAN));
    put(&f, 1, dbl(1.5));
    put(&f, 2, dbl(0.0));
    put(&f, 3, (pm_datum){.is_null = false, .v.f = 2.25f});
    for (int k = 1; k < 50; k++) {
        put(&f, 0, dbl(k));
        put(&f, 1, k == 7 ? dbl(NAN) : dbl(-k));
        put(&f, 2, k % 2 ? dbl(-0.0) : dbl(k));
        put(&f, 3, (pm_datum){.is_null = false, .v.f = -0.125f * (float)k});
    }
    rows(&f, 50);
    memset(&o, 0, sizeof(o));
    write_and_extract(&f, &o, NULL);
    assert_true(isnan(f.raw[0].min.v.d) && isnan(f.raw[0].max.v.d));
    assert_true(f.raw[1].min.v.d == -49.0 && f.raw[1].max.v.d == 1.5);
    /* -0.0 < 0.0 is false: the first zero seen (0.0) stays the minimum */
    assert_true(f.raw[2].min.v.d == 0.0 && !signbit(f.raw[2].min.v.d));
    assert_true(f.raw[2].max.v.d == 48.0);
    /* FLOAT: the double statistics narrowed */
    assert_true(f.raw[3].min.v.f == -0.125f * 49);
    assert_true(f.raw[3].max.v.f == 2.25f);
    teardown(&f);
}

static void test_decimals(void **state)
{
    fixture f;
    pm_col_result r;
    (void)state;
    setup(&f, "d DECIMAL(10, 2), big DECIMAL(38, 10)");
    /* ORC keeps them as normalized text ("-77.02", "0.02", "1234.4"): read back at the
     * type's scale */
    const int64_t small[] = {2, -7702, 123440, 100};
    for (int k = 0; k < 4; k++) {
        pm_datum d = {.is_null = false};
        d.v.dec = small[k];
        put(&f, 0, d);
        d.v.dec = (pm_int128)small[k] * 1000000000000000LL * 1000; /* 28 digits */
        put(&f, 1, k == 3 ? pm_datum_null() : d);
    }
    rows(&f, 4);
    write_and_extract(&f, NULL, NULL);
    assert_true(f.raw[0].min.v.dec == -7702);
    assert_true(f.raw[0].max.v.dec == 123440);
    assert_true(f.raw[1].min.v.dec == (pm_int128)-7702 * 1000000000000000LL * 1000);
    assert_true(f.raw[1].max.v.dec == (pm_int128)123440 * 1000000000000000LL * 1000);
    assert_int_equal(f.raw[1].null_count, 1);
    result_of(&f, 0, "truncate(16)", &r); /* truncation leaves non-strings alone */
    assert_true(r.has_bounds && r.min.v.dec == -7702);
    pm_col_result_free(&r);
    teardown(&f);
}

static void test_strings(void **state)
{
    fixture f;
    pm_col_result r;
    static char long_max[1100];
    (void)state;
    setup(&f, "s STRING, c CHAR(5), big STRING, bin BYTES, arr ARRAY<INT>");
    memset(long_max, 'z', sizeof(long_max) - 1);
    for (int k = 0; k < 20; k++) {
        char buf[32];
        snprintf(buf, sizeof(buf), "m%02d-abcdefghijklmnopqrstuvwxyz", k);
        put(&f, 0, k == 3 ? pm_datum_null() : str(buf));
        put(&f, 1, str(k % 2 ? "ab" : "b"));
        /* the maximum is longer than 1024 bytes: ORC keeps it only as an upperBound */
        put(&f, 2, k == 5 ? str(long_max) : str(k % 2 ? "abc" : "b"));
        put(&f, 3, pm_datum_bytes("\x01\x02", 2));
        assert_int_equal(pm_column_list_end(f.b->columns[4], k % 4 != 0), 0);
    }
    rows(&f, 20);
    write_and_extract(&f, NULL, NULL);
    assert_int_equal(f.raw[0].null_count, 1);
    assert_int_equal(f.raw[0].min.v.s.len, strlen("m00-abcdefghijklmnopqrstuvwxyz"));
    assert_memory_equal(f.raw[0].min.v.s.ptr, "m00-", 4);
    /* CHAR(5): ORC pads the values, and its statistics hold them padded */
    assert_int_equal(f.raw[1].min.v.s.len, 5);
    assert_memory_equal(f.raw[1].min.v.s.ptr, "ab   ", 5);
    assert_memory_equal(f.raw[1].max.v.s.ptr, "b    ", 5);
    /* the >1024-byte maximum: getMaximum() is null, the minimum stays */
    assert_true(f.raw[2].has_min);
    assert_false(f.raw[2].has_max);
    /* binary and nested: a null count only */
    assert_false(f.raw[3].has_min || f.raw[3].has_max);
    assert_int_equal(f.raw[3].null_count, 0);
    assert_false(f.raw[4].has_min || f.raw[4].has_max);
    assert_int_equal(f.raw[4].null_count, 5);

    /* truncate(4): min cut, max cut and incremented */
    result_of(&f, 0, "truncate(4)", &r);
    assert_true(r.has_bounds && !r.min_absent && !r.max_absent);
    assert_int_equal(r.min.v.s.len, 4);
    assert_memory_equal(r.min.v.s.ptr, "m00-", 4);
    assert_memory_equal(r.max.v.s.ptr, "m19.", 4);
    pm_col_result_free(&r);
    /* no maximum: truncate(N) drops both bounds, keeps the null count */
    result_of(&f, 2, "truncate(16)", &r);
    assert_false(r.has_bounds);
    assert_true(r.has_null_count);
    pm_col_result_free(&r);
    /* full keeps the lone minimum, the maximum null */
    result_of(&f, 2, "full", &r);
    assert_true(r.has_bounds && !r.min_absent && r.max_absent);
    assert_memory_equal(r.min.v.s.ptr, "abc", 3);
    pm_col_result_free(&r);
    teardown(&f);
}

static void test_timestamps_and_missing_field(void **state)
{
    fixture f;
    pm_type *wider;
    paimon_error err = {0};
    (void)state;
    setup(&f, "ts3 TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP(6) WITH LOCAL TIME ZONE");
    for (int k = 0; k < 10; k++) {
        pm_datum d = {.is_null = false};
        d.v.ts.millis = -5000 + k * 1000;
        d.v.ts.nanos = 0;
        put(&f, 0, d);
        d.v.ts.nanos = k == 0 ? 999999 : 123456;
        d.v.ts.millis = k == 9 ? -5000 : 1700000000000LL + k;
        put(&f, 1, d);
        d.v.ts.nanos = (k * 1000) % 1000000;
        put(&f, 2, k == 2 ? pm_datum_null() : d);
    }
    rows(&f, 10);
    /* a row type with a field the file does not have (by name) */
    assert_int_equal(
        pm_columns_parse("ts3 TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP(6) WITH LOCAL TIME "
                         "ZONE, absent INT",
                         &wider, &err),
        0);
    write_and_extract(&f, NULL, wider);
    assert_int_equal(f.raw[0].min.v.ts.millis, -5000);
    assert_int_equal(f.raw[0].max.v.ts.millis, 4000);
    assert_int_equal(f.raw[0].max.v.ts.nanos, 0);
    /* nanoseconds of the millisecond survive (minimumNanos / maximumNanos + 1) */
    assert_int_equal(f.raw[1].min.v.ts.millis, -5000);
    assert_int_equal(f.raw[1].min.v.ts.nanos, 123456);
    assert_int_equal(f.raw[1].max.v.ts.millis, 1700000000008LL);
    assert_int_equal(f.raw[1].max.v.ts.nanos, 123456);
    assert_int_equal(f.raw[2].null_count, 1);
    assert_int_equal(f.raw[2].min.v.ts.millis, -5000); /* row 9 */
    assert_int_equal(f.raw[2].min.v.ts.nanos, 9000);
    assert_int_equal(f.raw[2].max.v.ts.millis, 1700000000008LL);
    assert_int_equal(f.raw[2].max.v.ts.nanos, 8000);
    /* the field the file lacks: SimpleColStats(null, null, null) */
    assert_false(f.raw[3].has_null_count);
    assert_false(f.raw[3].has_min || f.raw[3].has_max);
    pm_type_free(wider);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers_booleans_dates),
        cmocka_unit_test(test_doubles_nan_and_zero),
        cmocka_unit_test(test_decimals),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_timestamps_and_missing_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
