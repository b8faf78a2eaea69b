/* Expiration under injected failures (io/fs_fault.c): for every operation of an expiration,
 * a copy of the same table is expired with that operation failing.  After each failure the
 * retained snapshots and the tag read exactly as before, and a rerun ends with exactly the
 * files of an unfaulted run (the same names: the copies share them).  Two tables: changelogs
 * expiring with their snapshots, and changelogs decoupled (changelog/changelog-<id>). */
#include <stdlib.h>
#include <string.h>

#include "table_files.h"
#include "table_state.h"
#include "testlib.h"

#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/expire.h"
#include "util/alloc.h"
#include "util/time.h"

static int64_t commit_rows(const char *path, const char *rows)
{
    paimon_error err;
    int64_t id = 0;
    if (pm_test_commit_jsonl(path, rows, &id, &err, NULL) != 0)
        fail_msg("%s", err.message);
    return id;
}

/* Snapshots 1, 2 (tagged t2), 3 COMPACT, 4 .. 6; changelog-producer input. */
static char *make_template(const char *tag, const char *changelog_time)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"},
               *keys[4] = {"bucket", "write-only", "changelog-producer", "changelog.time-retained"},
               *vals[4] = {"1", "true", "input", changelog_time};
    paimon_table *t;
    paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
    paimon_error err;
    int64_t id;
    pm_fs *fs = pm_fs_local_new(false);
    pm_tag tg;
    co.columns = "id BIGINT NOT NULL, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = changelog_time != NULL ? 4 : 3;
    assert_int_equal(paimon_table_create(path, &co, &err), 0);
    commit_rows(path, "{\"id\":1,\"v\":\"a\"}\n{\"id\":2,\"v\":\"b\"}\n");
    commit_rows(path, "{\"id\":3,\"v\":\"c\"}\n");
    memset(&tg, 0, sizeof(tg));
    tg.name = "t2";
    assert_int_equal(pm_snapshot_read(fs, path, 2, &tg.snapshot, &err), 0);
    assert_int_equal(pm_tag_write(fs, path, &tg, &err), 0);
    pm_snapshot_free(tg.snapshot);
    o.full = 1;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_table_compact(t, &o, &id, &err), 0);
    paimon_table_free(t);
    commit_rows(path, "{\"id\":1,\"v\":\"d\"}\n");
    commit_rows(path, "{\"id\":4,\"v\":\"e\"}\n{\"_ROW_KIND\":\"-D\",\"id\":2,\"v\":\"b\"}\n");
    commit_rows(path, "{\"id\":5,\"v\":\"f\"}\n");
    pm_fs_free(fs);
    return path;
}

/* The files of a table without its EARLIEST hints: a hint is only a hint (readers verify
 * it), and Java writes changelog/EARLIEST only when changelogs expire, so a run whose last
 * step (that hint) failed leaves none, as Java's would. */
static void files_of(const char *path, pm_strlist *out)
{
    pm_strlist all;
    pm_strlist_init(&all);
    pm_test_disk_files(path, &all);
    for (size_t i = 0; i < all.count; i++)
        if (strcmp(all.items[i], "changelog/EARLIEST") != 0)
            assert_int_equal(pm_strlist_push(out, all.items[i]), 0);
    pm_strlist_free(&all);
}

static char *copy_of(const char *src, const char *tag)
{
    char *dst = pm_test_table_path(tag);
    char cmd[8192];
    snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", src, dst);
    assert_int_equal(pm_test_run(cmd, NULL), 0);
    return dst;
}

static pm_expire_config config_of(const char *path)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_schema *schema = NULL;
    pm_expire_config c;
    paimon_error err;
    assert_int_equal(pm_schema_read_latest(fs, path, &schema, &err), 0);
    assert_int_equal(pm_expire_config_from_options(&schema->options, pm_now_millis(), &c, &err), 0);
    pm_schema_free(schema);
    pm_fs_free(fs);
    c.retain_min = 2;
    c.retain_max = 2;
    c.time_retained_ms = 0;
    c.max_deletes = INT64_MAX;
    c.cl_retain_min = c.cl_retain_max = 4; /* changelogs: some go too */
    c.cl_time_retained_ms = 0;
    return c;
}

/* Snapshot and (when decoupled) changelog expiration, as the commit's step runs them. */
static int run(pm_fs *fs, const char *path, const pm_expire_config *c, paimon_error *err)
{
    int rc = pm_expire_snapshots(fs, path, c, false, NULL, err);
    if (rc == 0 && c->changelog_decoupled)
        rc = pm_expire_changelogs(fs, path, c, false, NULL, err);
    return rc;
}

static char *rows(const char *path, int64_t id, const char *tag)
{
    char why[512];
    int rc = 0;
    char *r = pm_test_rows_at(path, id, tag, &rc, why, sizeof(why));
    if (r == NULL)
        fail_msg("%s: snapshot %lld / tag %s: %s", path, (long long)id, tag ? tag : "-", why);
    return r;
}

static void check_faults(const char *tag, const char *changelog_time)
{
    char *tmpl = make_template(tag, changelog_time), *ref = copy_of(tmpl, tag);
    pm_expire_config c = config_of(tmpl);
    pm_strlist ref_files;
    char *want[8] = {NULL}, *want_tag;
    int64_t latest = pm_test_latest_snapshot(tmpl), end, ops;
    paimon_error err;
    pm_fs *fs;

    assert_int_equal(latest, 6);
    end = latest - c.retain_min + 1;
    for (int64_t id = end; id <= latest; id++)
        want[id] = rows(tmpl, id, NULL);
    want_tag = rows(tmpl, 0, "t2");
    /* the unfaulted run, counting its operations */
    fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
    if (run(fs, ref, &c, &err) != 0)
        fail_msg("%s", err.message);
    ops = pm_fs_fault_count(fs);
    pm_fs_free(fs);
    assert_true(ops > 20);
    pm_test_assert_files_exact(ref);
    pm_strlist_init(&ref_files);
    files_of(ref, &ref_files);
    for (long n = 1; n <= ops; n++) {
        char *work = copy_of(tmpl, tag);
        pm_strlist files;
        int rc;
        fs = pm_fs_fault_new(pm_fs_local_new(false), n, PM_FAULT_FAIL);
        rc = run(fs, work, &c, &err);
        pm_fs_free(fs);
        (void)rc; /* a failure of a hint read is absorbed; any other is returned */
        for (int64_t id = end; id <= latest; id++) {
            char *got = rows(work, id, NULL);
            if (strcmp(got, want[id]) != 0)
                fail_msg("fault at operation %ld: snapshot %lld reads differently", n,
                         (long long)id);
            pm_free(got);
        }
        {
            char *got = rows(work, 0, "t2");
            if (strcmp(got, want_tag) != 0)
                fail_msg("fault at operation %ld: tag t2 reads differently", n);
            pm_free(got);
        }
        /* the rerun finishes the job: the unfaulted run's files exactly */
        fs = pm_fs_local_new(false);
        if (run(fs, work, &c, &err) != 0)
            fail_msg("rerun after a fault at operation %ld: %s", n, err.message);
        pm_fs_free(fs);
        pm_strlist_init(&files);
        files_of(work, &files);
        if (files.count != ref_files.count) {
            for (size_t i = 0; i < files.count || i < ref_files.count; i++)
                print_error("%-70s %s\n", i < files.count ? files.items[i] : "-",
                            i < ref_files.count ? ref_files.items[i] : "-");
            fail_msg("fault at operation %ld: %zu files after the rerun, %zu unfaulted", n,
                     files.count, ref_files.count);
        }
        for (size_t i = 0; i < files.count; i++)
            if (strcmp(files.items[i], ref_files.items[i]) != 0)
                fail_msg("fault at operation %ld: %s after the rerun, %s unfaulted", n,
                         files.items[i], ref_files.items[i]);
        pm_strlist_free(&files);
        pm_test_remove_table(work);
    }
    for (int64_t id = end; id <= latest; id++)
        pm_free(want[id]);
    pm_free(want_tag);
    pm_strlist_free(&ref_files);
    pm_test_remove_table(ref);
    pm_test_remove_table(tmpl);
}

static void test_faults_coupled(void **state)
{
    (void)state;
    check_faults("expire-faults", NULL);
}

static void test_faults_decoupled(void **state)
{
    (void)state;
    check_faults("expire-faults-decoupled", "2 h");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faults_coupled),
        cmocka_unit_test(test_faults_decoupled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
