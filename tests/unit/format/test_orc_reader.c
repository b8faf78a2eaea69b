/*
 * The ORC reader below the data-file layer: time-zone rules (TZif tables and POSIX rules,
 * fixed offsets, unknown zones as GMT), TIMESTAMP columns written in another zone read as
 * the writer's wall clock, stripe and row-group pruning counted, limits, and malformed
 * tails (lengths, magic, compression kinds, stripes outside the file) refused with
 * PAIMON_ECORRUPT or PAIMON_EUNSUPPORTED.
 */
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_reader.h"
#include "format/orc/orc_tz.h"
#include "format/orc/orc_writer.h"
#include "util/alloc.h"
#include "util/time.h"

static int64_t civil(int64_t y, unsigned m, unsigned d, int hh, int mm)
{
    return pm_days_from_civil(y, m, d) * 86400 + hh * 3600 + mm * 60;
}

static void test_time_zones(void **state)
{
    pm_orc_tz *tz;
    paimon_error err = {0};
    (void)state;
    if (pm_orc_tz_load("Europe/Berlin", &tz, &err) != 0) {
        printf("NOTE: no tz database (%s): zone rules not checked\n", err.message);
        return;
    }
    assert_int_equal(pm_orc_tz_offset(tz, civil(2024, 7, 1, 12, 0)), 7200);
    assert_int_equal(pm_orc_tz_offset(tz, civil(2024, 1, 15, 12, 0)), 3600);
    /* beyond the transition table: the POSIX rule of the file's footer */
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 7, 1, 12, 0)), 7200);
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 1, 15, 12, 0)), 3600);
    /* the switch: last Sunday of March 2045 (the 26th) at 01:00 UTC */
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 3, 26, 0, 59)), 3600);
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 3, 26, 1, 0)), 7200);
    assert_int_equal(pm_orc_tz_local_to_utc(tz, civil(2015, 1, 1, 0, 0)),
                     civil(2015, 1, 1, 0, 0) - 3600);
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("Australia/Sydney", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 1, 15, 0, 0)), 39600); /* southern DST */
    assert_int_equal(pm_orc_tz_offset(tz, civil(2045, 7, 15, 0, 0)), 36000);
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("Asia/Shanghai", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, civil(2026, 4, 8, 12, 0)), 28800);
    assert_int_equal(pm_orc_tz_offset(tz, civil(1988, 7, 1, 12, 0)), 32400); /* China's DST */
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("GMT+08:00", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, 0), 28800);
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("UTC-3:30", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, 0), -12600);
    pm_orc_tz_free(tz);
    /* Java's TimeZone.getTimeZone reads what it does not know as GMT */
    assert_int_equal(pm_orc_tz_load("Nowhere/Special", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, 1000000), 0);
    assert_true(pm_orc_tz_is_utc(tz));
    pm_orc_tz_free(tz);
    /* UTC (a TZif file with a "UTC0" rule) converts nothing; GMT+08:00 and a zone whose
     * offset was once 0 (Europe/London) do */
    assert_int_equal(pm_orc_tz_load("UTC", &tz, &err), 0);
    assert_true(pm_orc_tz_is_utc(tz));
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("GMT+08:00", &tz, &err), 0);
    assert_false(pm_orc_tz_is_utc(tz));
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("Europe/London", &tz, &err), 0);
    assert_false(pm_orc_tz_is_utc(tz));
    pm_orc_tz_free(tz);
    assert_int_equal(pm_orc_tz_load("../../etc/passwd", &tz, &err), 0);
    assert_int_equal(pm_orc_tz_offset(tz, 0), 0);
    pm_orc_tz_free(tz);
}

/* A file of one TIMESTAMP column written as ORC Java writes in `zone`: the writer stores
 * seconds from 2015-01-01 00:00 in that zone, so the value handed to paimon-c's (UTC)
 * writer is shifted by the zone's offset in January 2015. */
static void write_ts(pm_buf *file, const char *zone, const int64_t *instants, size_t n,
                     int32_t jan2015_offset)
{
    pm_orc_type types[2];
    uint32_t sub = 1;
    char *names[1] = {"ts"};
    pm_orc_writer *w;
    pm_orc_writer_options o;
    pm_orc_colview root, col;
    int64_t *v = test_malloc(n * sizeof(int64_t));
    int32_t *ns = test_calloc(n, sizeof(int32_t));
    paimon_error err = {0};
    memset(types, 0, sizeof(types));
    types[0].kind = PM_ORC_STRUCT;
    types[0].subtypes = &sub;
    types[0].subtype_count = 1;
    types[0].field_names = names;
    types[0].field_name_count = 1;
    types[1].kind = PM_ORC_TIMESTAMP;
    for (size_t i = 0; i < n; i++)
        v[i] = instants[i] + (int64_t)jan2015_offset * 1000;
    memset(&o, 0, sizeof(o));
    o.timezone = zone;
    memset(&root, 0, sizeof(root));
    memset(&col, 0, sizeof(col));
    col.values = v;
    col.nanos = ns;
    root.children = &col;
    assert_int_equal(pm_orc_writer_new(&w, types, 2, &o, file, NULL, &err), 0);
    assert_int_equal(pm_orc_writer_write(w, &root, (int64_t)n, &err), 0);
    assert_int_equal(pm_orc_writer_close(w, &err), 0);
    pm_orc_writer_free(w);
    test_free(v);
    test_free(ns);
}

static void test_timestamps_in_writer_zone(void **state)
{
    pm_orc_tz *tz;
    paimon_error err = {0};
    pm_buf file;
    pm_orc_reader *r;
    const pm_orc_vec *v;
    /* wall clocks in Berlin: summer (UTC+2) and winter (UTC+1) */
    int64_t wall[2] = {civil(2024, 7, 1, 12, 0) * 1000, civil(2024, 1, 15, 12, 0) * 1000};
    int64_t instants[2] = {wall[0] - 7200000, wall[1] - 3600000};
    (void)state;
    if (pm_orc_tz_load("Europe/Berlin", &tz, &err) != 0)
        return;
    pm_orc_tz_free(tz);
    pm_buf_init(&file, 0);
    write_ts(&file, "Europe/Berlin", instants, 2, 3600);
    assert_int_equal(pm_orc_reader_open_memory(&r, file.data, file.len, "berlin", &err), 0);
    assert_int_equal(pm_orc_reader_start(r, NULL, &err), 0);
    assert_int_equal(pm_orc_reader_next(r, &v, &err), 0);
    for (int i = 0; i < 2; i++) {
        int64_t ms;
        memcpy(&ms, v->children[0]->values.data + 8 * i, 8);
        assert_int_equal(ms, wall[i]);
    }
    pm_orc_reader_free(r);
    pm_buf_free(&file);
}

/* A file of `rows` rows of one BIGINT column = the row number, in small stripes. */
static void write_longs(pm_buf *file, int64_t rows, pm_orc_compression codec, uint64_t stripe)
{
    pm_orc_type types[2];
    uint32_t sub = 1;
    char *names[1] = {"id"};
    pm_orc_writer *w;
    pm_orc_writer_options o;
    pm_orc_colview root, col;
    int64_t *v = test_malloc((size_t)rows * sizeof(int64_t));
    paimon_error err = {0};
    memset(types, 0, sizeof(types));
    types[0].kind = PM_ORC_STRUCT;
    types[0].subtypes = &sub;
    types[0].subtype_count = 1;
    types[0].field_names = names;
    types[0].field_name_count = 1;
    types[1].kind = PM_ORC_LONG;
    for (int64_t i = 0; i < rows; i++)
        v[i] = i * 7919 % 1000003 + (i / 10000) * 10000000; /* row groups do not overlap */
    memset(&o, 0, sizeof(o));
    o.compression = codec;
    o.compression_set = true;
    o.stripe_size = stripe;
    memset(&root, 0, sizeof(root));
    memset(&col, 0, sizeof(col));
    col.values = v;
    root.children = &col;
    assert_int_equal(pm_orc_writer_new(&w, types, 2, &o, file, NULL, &err), 0);
    assert_int_equal(pm_orc_writer_write(w, &root, rows, &err), 0);
    assert_int_equal(pm_orc_writer_close(w, &err), 0);
    pm_orc_writer_free(w);
    test_free(v);
}

/* Keeps stripes and row groups whose maximum id reaches `*ctx`. */
static bool keep_from(void *ctx, const pm_orc_stats *const *stats, size_t count, int64_t rows)
{
    int64_t want = *(const int64_t *)ctx;
    (void)rows;
    if (count < 2 || stats[1] == NULL || !(stats[1]->has & PM_OS_MAX))
        return true;
    return stats[1]->i_max >= want;
}

/* Reads the file with the keep_from filter: rows read, rows skipped, the first id read. */
static void read_pruned(pm_orc_reader *r, int64_t want, int64_t *rows, int64_t *stripes,
                        int64_t *skipped, int64_t *first, int64_t *late)
{
    pm_orc_read_options o;
    const pm_orc_vec *v;
    paimon_error err = {0};
    int64_t groups;
    int rc;
    memset(&o, 0, sizeof(o));
    o.filter = keep_from;
    o.filter_ctx = &want;
    o.batch_rows = 4096;
    *rows = *late = 0;
    *first = -1;
    assert_int_equal(pm_orc_reader_start(r, &o, &err), 0);
    while ((rc = pm_orc_reader_next(r, &v, &err)) == 0) {
        const int64_t *ids = (const int64_t *)(const void *)v->children[0]->values.data;
        if (*first < 0)
            *first = ids[0];
        for (int64_t i = 0; i < v->length; i++)
            *late += ids[i] >= want;
        *rows += v->length;
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    pm_orc_reader_skipped(r, stripes, &groups, skipped);
}

static void test_pruning_and_limits(void **state)
{
    pm_buf file;
    pm_orc_reader *r;
    pm_orc_read_options o;
    const pm_orc_vec *v;
    paimon_error err = {0};
    int64_t want = 60000000, rows, stripes, skipped, first, late;
    (void)state;
    /* one stripe: row groups 0..5 end below 60,000,000 and are skipped by their index */
    pm_buf_init(&file, 0);
    write_longs(&file, 100000, PM_ORC_ZSTD, 0);
    assert_int_equal(pm_orc_reader_open_memory(&r, file.data, file.len, "longs", &err), 0);
    assert_int_equal(pm_orc_reader_footer(r)->stripe_count, 1);
    read_pruned(r, want, &rows, &stripes, &skipped, &first, &late);
    assert_int_equal(skipped, 60000);
    assert_int_equal(rows, 40000);
    assert_int_equal(late, 40000);
    assert_int_equal(first, 60000 * 7919 % 1000003 + 60000000);
    /* a vector may not exceed max_values slots */
    memset(&o, 0, sizeof(o));
    o.max_values = 100;
    o.batch_rows = 1000;
    assert_int_equal(pm_orc_reader_start(r, &o, &err), 0);
    assert_int_equal(pm_orc_reader_next(r, &v, &err), 0);
    assert_int_equal(v->length, 100);
    pm_orc_reader_free(r);
    pm_buf_reset(&file);
    /* small stripes: whole stripes skipped by their statistics, no matching row lost */
    write_longs(&file, 100000, PM_ORC_ZSTD, 60000);
    assert_int_equal(pm_orc_reader_open_memory(&r, file.data, file.len, "longs", &err), 0);
    assert_true(pm_orc_reader_footer(r)->stripe_count > 3);
    read_pruned(r, want, &rows, &stripes, &skipped, &first, &late);
    assert_true(stripes >= 3);
    assert_int_equal(rows + skipped, 100000);
    assert_int_equal(late, 40000);
    pm_orc_reader_free(r);
    pm_buf_free(&file);
}

static int open_rc(const uint8_t *data, size_t len, paimon_error *err)
{
    pm_orc_reader *r = NULL;
    int rc = pm_orc_reader_open_memory(&r, data, len, "bad.orc", err);
    if (rc == 0) {
        const pm_orc_vec *v;
        rc = pm_orc_reader_start(r, NULL, err);
        while (rc == 0)
            rc = pm_orc_reader_next(r, &v, err);
        if (rc == PAIMON_ITEROVER)
            rc = 0;
    }
    pm_orc_reader_free(r);
    return rc;
}

static void test_malformed_tails(void **state)
{
    pm_buf file;
    uint8_t *c;
    size_t len, ps_len;
    paimon_error err = {0};
    (void)state;
    pm_buf_init(&file, 0);
    write_longs(&file, 20000, PM_ORC_NONE, 0);
    len = file.len;
    ps_len = file.data[len - 1];
    c = test_malloc(len);
    assert_int_equal(open_rc(file.data, len, &err), 0);
    /* too short, not ORC */
    assert_int_equal(open_rc(file.data, 3, &err), PAIMON_ECORRUPT);
    memcpy(c, file.data, len);
    c[0] = 'X';
    assert_int_equal(open_rc(c, len, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "bad.orc"));
    /* PostScript length 0 and longer than the file */
    memcpy(c, file.data, len);
    c[len - 1] = 0;
    assert_int_equal(open_rc(c, len, &err), PAIMON_ECORRUPT);
    /* every truncation of the file */
    for (size_t cut = 4; cut < len; cut += 97)
        assert_int_equal(open_rc(file.data, cut, &err), PAIMON_ECORRUPT);
    /* the PostScript's compression kind (field 2, after footerLength): LZO and unknown */
    {
        size_t ps = len - 1 - ps_len, k = ps;
        while (k < len - 1 && file.data[k] != 0x10)
            k++;
        assert_true(k + 1 < len - 1);
        memcpy(c, file.data, len);
        c[k + 1] = 3; /* LZO */
        assert_int_equal(open_rc(c, len, &err), PAIMON_EUNSUPPORTED);
        c[k + 1] = 9;
        assert_int_equal(open_rc(c, len, &err), PAIMON_ECORRUPT);
    }
    test_free(c);
    pm_buf_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_zones),
        cmocka_unit_test(test_timestamps_in_writer_zone),
        cmocka_unit_test(test_pruning_and_limits),
        cmocka_unit_test(test_malformed_tails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
