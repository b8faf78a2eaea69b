/*
 * Partition expiration (table/partition_expire.h): the partition-time parser (Java's default
 * lenient formatter and DateTimeFormatter patterns), both strategies, max-num and batches,
 * the post-commit step with a zero check interval, and fault injection at every file-system
 * operation of an expiration in batches: the table always reads as before, as after, or as
 * before without some whole expired partitions, and a rerun finishes the job.
 */
#include <stdlib.h>
#include <string.h>

#include "table_state.h"
#include "testlib.h"

#include "paimon.h"
#include "meta/snapshot.h"
#include "table/partition_expire.h"
#include "util/alloc.h"
#include "util/time.h"

static const char *const PARTS[] = {"2020-01-03", "2020-01-01", "2020-01-02", "2999-01-01",
                                    "2020-01-04"};

static char *make_table(const char *const *keys, const char *const *vals, size_t n)
{
    char *path = pm_test_table_path("pexpire");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pk[2] = {"dt", "id"}, *parts[1] = {"dt"};
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_commit_messages *m = NULL;
    paimon_error err = {0};
    int64_t id;
    co.columns = "dt STRING NOT NULL, id INT NOT NULL, v STRING";
    co.primary_keys = pk;
    co.primary_key_count = 2;
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = n;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("create: %s", err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    for (size_t p = 0; p < 5; p++)
        for (int i = 0; i < 3; i++) {
            paimon_value row[3];
            row[0].type = PAIMON_VALUE_TEXT;
            row[0].v.s.ptr = PARTS[p];
            row[0].v.s.len = strlen(PARTS[p]);
            row[1].type = PAIMON_VALUE_INT;
            row[1].v.i = i;
            row[2].type = PAIMON_VALUE_TEXT;
            row[2].v.s.ptr = "x";
            row[2].v.s.len = 1;
            assert_int_equal(paimon_writer_write_row(w, row, 3, PAIMON_ROW_INSERT, &err), 0);
        }
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    if (paimon_writer_prepare_commit(w, m, &err) != 0 || paimon_table_commit(t, m, NULL, &id, &err))
        fail_msg("commit: %s", err.message);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    paimon_table_free(t);
    return path;
}

/* A copy of table `src` (made by make_table) in a fresh temporary directory. */
static char *copy_table(const char *src)
{
    char *dst = pm_test_table_path("pexpire"), cmd[1024];
    snprintf(cmd, sizeof(cmd), "cp -R '%s' '%s'", src, dst);
    assert_int_equal(system(cmd), 0);
    return dst;
}

static int expire(pm_fs *fs, const char *path, const char *older_than_days, bool update_time,
                  pm_strlist *out, int64_t *snapshot)
{
    pm_partition_expire_opts o;
    pm_options ov;
    paimon_error err = {0};
    int rc;
    memset(&o, 0, sizeof(o));
    pm_options_init(&ov);
    assert_int_equal(pm_options_set(&ov, "partition.expiration-batch-size", "2"), 0);
    if (update_time)
        assert_int_equal(pm_options_set(&ov, "partition.expiration-strategy", "update-time"), 0);
    o.has_older_than = true;
    o.older_than_ms = strtoll(older_than_days, NULL, 10) * 86400000LL;
    o.overrides = &ov;
    o.commit_user = "expirer";
    o.identifier = 7;
    pm_strlist_init(out);
    rc = pm_partition_expire(fs, path, &o, out, snapshot, &err);
    pm_options_free(&ov);
    return rc;
}

static void test_time_parse(void **state)
{
    int64_t ms = 0;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_partition_time_parse("2024-01-02", NULL, &ms, &err), 0);
    assert_int_equal(ms, pm_days_from_civil(2024, 1, 2) * 86400000LL);
    assert_int_equal(pm_partition_time_parse("2024-1-2 3:04:05.5", NULL, &ms, &err), 0);
    assert_int_equal(ms,
                     pm_days_from_civil(2024, 1, 2) * 86400000LL + 3 * 3600000 + 4 * 60000 + 5500);
    /* lenient: February 30th rolls over */
    assert_int_equal(pm_partition_time_parse("2024-02-30", NULL, &ms, &err), 0);
    assert_int_equal(ms, pm_days_from_civil(2024, 3, 1) * 86400000LL);
    assert_int_equal(pm_partition_time_parse("2024-01-02 10", NULL, &ms, &err), 1);
    assert_int_equal(pm_partition_time_parse("bad", NULL, &ms, &err), 1);
    assert_int_equal(pm_partition_time_parse("20240102", "yyyyMMdd", &ms, &err), 0);
    assert_int_equal(ms, pm_days_from_civil(2024, 1, 2) * 86400000LL);
    assert_int_equal(pm_partition_time_parse("2024010210", "yyyyMMddHH", &ms, &err), 0);
    assert_int_equal(ms, pm_days_from_civil(2024, 1, 2) * 86400000LL + 10 * 3600000);
    assert_int_equal(pm_partition_time_parse("2024/1/2 '", "yyyy/M/d ''", &ms, &err), 0);
    assert_int_equal(pm_partition_time_parse("2024/1/2 x", "yyyy/M/d 'x'", &ms, &err), 0);
    /* SMART resolution: a day past the month's end is clamped, a 13th month refused */
    assert_int_equal(pm_partition_time_parse("2023-02-31", "yyyy-MM-dd", &ms, &err), 0);
    assert_int_equal(ms, pm_days_from_civil(2023, 2, 28) * 86400000LL);
    assert_int_equal(pm_partition_time_parse("2023-13-01", "yyyy-MM-dd", &ms, &err), 1);
    assert_int_equal(pm_partition_time_parse("2024-01-02", "yyyy-MM-dd HH", &ms, &err), 1);
    assert_int_equal(pm_partition_time_parse("Tue", "EEE", &ms, &err), PAIMON_EUNSUPPORTED);
}

static void test_strategies(void **state)
{
    char *path = make_table(NULL, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_strlist got;
    int64_t snap = 0;
    char *rows;
    (void)state;
    /* update-time: every file is newer than a day */
    assert_int_equal(expire(fs, path, "1", true, &got, &snap), 0);
    assert_int_equal(got.count, 0);
    assert_int_equal(snap, 0);
    pm_strlist_free(&got);
    /* values-time: four dates are in the past, sorted, in commits of two (batch size 2) */
    assert_int_equal(expire(fs, path, "1", false, &got, &snap), 0);
    assert_int_equal(got.count, 4);
    assert_string_equal(got.items[0], "dt=2020-01-01");
    assert_string_equal(got.items[3], "dt=2020-01-04");
    assert_int_equal(snap, 3); /* two batches of two */
    pm_strlist_free(&got);
    rows = pm_test_table_rows(path);
    assert_non_null(strstr(rows, "2999-01-01"));
    assert_null(strstr(rows, "2020-01-0"));
    pm_free(rows);
    /* update-time, older than 0 days: the rest goes too */
    assert_int_equal(expire(fs, path, "0", true, &got, &snap), 0);
    assert_int_equal(got.count, 1);
    pm_strlist_free(&got);
    rows = pm_test_table_rows(path);
    assert_true(rows == NULL || rows[0] == '\0');
    pm_free(rows);
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

static void test_after_commit(void **state)
{
    const char *keys[2] = {"partition.expiration-time", "partition.expiration-check-interval"};
    const char *vals[2] = {"1 d", "0 s"};
    char *path = make_table(keys, vals, 2), *rows;
    (void)state;
    /* the commit that wrote the rows expired the old partitions right after it, in an
     * OVERWRITE snapshot of the same commit user and identifier */
    assert_int_equal(pm_test_latest_snapshot(path), 2);
    {
        pm_fs *fs = pm_fs_local_new(false);
        pm_snapshot *s1 = NULL, *s2 = NULL;
        assert_int_equal(pm_snapshot_read(fs, path, 1, &s1, NULL), 0);
        assert_int_equal(pm_snapshot_read(fs, path, 2, &s2, NULL), 0);
        assert_int_equal(s2->commit_kind, PM_COMMIT_OVERWRITE);
        assert_string_equal(s2->commit_user, s1->commit_user);
        assert_int_equal(s2->commit_identifier, s1->commit_identifier);
        pm_snapshot_free(s1);
        pm_snapshot_free(s2);
        pm_fs_free(fs);
    }
    rows = pm_test_table_rows(path);
    assert_null(strstr(rows, "2020-01-0"));
    assert_non_null(strstr(rows, "2999-01-01"));
    pm_free(rows);
    pm_test_remove_table(path);
}

static void test_faults(void **state)
{
    char *path = make_table(NULL, NULL, 0), *before, *after, *template_path;
    pm_strlist got;
    int64_t snap;
    long total;
    (void)state;
    before = pm_test_table_rows(path);
    {
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
        assert_int_equal(expire(fs, path, "1", false, &got, &snap), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        pm_strlist_free(&got);
    }
    after = pm_test_table_rows(path);
    pm_test_remove_table(path);
    assert_true(total > 10);
    template_path = make_table(NULL, NULL, 0);
    for (long n = 1; n <= total + 1; n++) {
        char *t = copy_table(template_path), *mid, *end;
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, PM_FAULT_FAIL);
        (void)expire(fs, t, "1", false, &got, &snap);
        pm_fs_free(fs);
        pm_strlist_free(&got);
        /* readable, and every row left is a row of before; the future partition stays */
        mid = pm_test_table_rows(t);
        assert_non_null(strstr(mid, "2999-01-01"));
        for (const char *p = mid; *p != '\0';) {
            const char *nl = strchr(p, '\n');
            size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
            char line[256];
            snprintf(line, sizeof(line), "%.*s", (int)len, p);
            if (strstr(before, line) == NULL)
                fail_msg("operation %ld: row %s was never written", n, line);
            p += len + (nl != NULL);
        }
        /* a rerun finishes the job */
        fs = pm_fs_local_new(false);
        if (expire(fs, t, "1", false, &got, &snap) != 0)
            fail_msg("operation %ld: the rerun failed", n);
        pm_fs_free(fs);
        pm_strlist_free(&got);
        end = pm_test_table_rows(t);
        if (strcmp(end, after) != 0)
            fail_msg("operation %ld: after the rerun the table reads\n%s\nnot\n%s", n, end, after);
        pm_free(mid);
        pm_free(end);
        pm_test_remove_table(t);
    }
    pm_test_remove_table(template_path);
    printf("every one of %ld file-system operations of a partition expiration fails in turn\n",
           total);
    pm_free(before);
    pm_free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_parse),
        cmocka_unit_test(test_strategies),
        cmocka_unit_test(test_after_commit),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
