/* Orphan files (table/orphans.h) and the table's life under faults: the sweep finds what
 * rollbacks and killed writers leave and nothing else, aborts on unreadable metadata; and
 * a rollback, a tag deletion and a sweep whose N-th file-system operation fails, for every
 * N, leave every remaining snapshot and tag readable as before, and a rerun (for a tag
 * deletion: the sweep) ends exactly where a clean run ends. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#include "life_util.h"
#include "table_state.h"

#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/orphans.h"
#include "table/rollback.h"
#include "table/tag.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

#define OLD (2 * 86400) /* seconds: older than the default margin */

static void plant(const char *table, const char *rel)
{
    char path[4096], cmd[4200];
    snprintf(path, sizeof(path), "%s/%s", table, rel);
    snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    pm_test_write_file(path, "junk", 4);
}

static bool exists(const char *table, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", table, rel);
    return access(path, F_OK) == 0;
}

static int64_t sweep(pm_fs *fs, const char *table, int64_t older_ms, bool dry, int expect_rc)
{
    pm_orphan_args a = {older_ms, dry, NULL, NULL};
    uint64_t count = 0;
    paimon_error err = {0, {0}};
    int rc;
    usleep(3000); /* files of this very millisecond are never old enough */
    rc = pm_table_remove_orphans(fs, table, &a, &count, NULL, &err);
    if (rc != expect_rc)
        fail_msg("sweep: rc %d (%s), expected %d", rc, err.message, expect_rc);
    return (int64_t)count;
}

static int64_t sweep_local(const char *table, int64_t older_ms, bool dry)
{
    pm_fs *fs = pm_fs_local_new(false);
    int64_t n = sweep(fs, table, older_ms, dry, 0);
    pm_fs_free(fs);
    return n;
}

static void files_equal(const char *a, const char *b)
{
    pm_strlist x, y;
    pm_strlist_init(&x);
    pm_strlist_init(&y);
    life_files(a, &x);
    life_files(b, &y);
    for (size_t i = 0; i < x.count || i < y.count; i++)
        if (i >= x.count || i >= y.count || strcmp(x.items[i], y.items[i]) != 0)
            fail_msg("file lists differ at %zu: %s vs %s", i, i < x.count ? x.items[i] : "-",
                     i < y.count ? y.items[i] : "-");
    pm_strlist_free(&x);
    pm_strlist_free(&y);
}

/* ---- the sweep ------------------------------------------------------------------------- */

static void test_orphans_found(void **state)
{
    char *t = life_table("orphans", true, NULL), *r4, *r2, *rt, *r;
    paimon_table *h = NULL;
    paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
    paimon_error err;
    pm_strlist before, after;
    const char *planted[] = {
        "bucket-0/data-dead.parquet", "manifest/manifest-dead-0", "manifest/manifest-list-dead-1",
        "snapshot/.snapshot-9.x.tmp", "snapshot/garbage",         "tag/.tag-x.y.tmp",
        "index/index-dead-0",         "statistics/stat-dead-0",   "consumer/.consumer-a.z.tmp"};
    (void)state;
    for (int i = 1; i <= 4; i++) {
        char row[64];
        snprintf(row, sizeof(row), "{\"id\":%d,\"v\":\"r%d\"}\n", i % 3, i);
        life_write(t, row, false);
    }
    assert_int_equal(paimon_table_open(&h, t, &err), 0);
    o.snapshot = 2;
    assert_int_equal(paimon_tag_create(h, "two", &o, &err), 0);
    assert_int_equal(paimon_table_rollback(h, 3, NULL, &err), 0); /* snapshot 4's files stay */
    r4 = life_rows(t, 3, NULL, NULL, 0);
    r2 = life_rows(t, 2, NULL, NULL, 0);
    rt = life_rows(t, 0, "two", NULL, 0);
    for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++)
        plant(t, planted[i]);
    plant(t, "tag/README");         /* not a temporary file: tag/ is not swept */
    plant(t, "bucket-0/x=1/stray"); /* a directory inside a bucket is never descended */
    life_age_all(t, OLD);
    plant(t, "bucket-0/data-fresh.parquet"); /* younger than the margin */

    pm_strlist_init(&before);
    pm_strlist_init(&after);
    life_files(t, &before);
    /* planted, plus snapshot 4's data file, manifest and two manifest lists */
    assert_int_equal(sweep_local(t, 86400000, true), 9 + 4);
    life_files(t, &after);
    assert_int_equal(after.count, before.count); /* a dry run deletes nothing */
    assert_int_equal(sweep_local(t, 86400000, false), 13);
    for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++)
        assert_false(exists(t, planted[i]));
    assert_true(exists(t, "tag/README"));
    assert_true(exists(t, "bucket-0/x=1/stray"));
    assert_true(exists(t, "bucket-0/data-fresh.parquet"));
    r = life_rows(t, 3, NULL, NULL, 0);
    assert_string_equal(r, r4);
    pm_free(r);
    r = life_rows(t, 2, NULL, NULL, 0);
    assert_string_equal(r, r2);
    pm_free(r);
    r = life_rows(t, 0, "two", NULL, 0);
    assert_string_equal(r, rt);
    pm_free(r);
    /* nothing referenced is ever found: only the fresh file is left to find */
    assert_int_equal(sweep_local(t, 0, true), 1);
    pm_free(r4);
    pm_free(r2);
    pm_free(rt);
    pm_strlist_free(&before);
    pm_strlist_free(&after);
    paimon_table_free(h);
    pm_test_remove_table(t);
}

/* Java's LocalOrphanFilesClean also removes the data directories the sweep empties: a
 * partition that only a rolled-back snapshot wrote leaves no bucket or partition directory
 * behind; a directory that keeps a file (too young, or not a Paimon file) stays; a dry run
 * reports the directories (trailing '/') and removes none. */
static int dir_hits;
static void count_dirs(void *ctx, const char *path, uint64_t size)
{
    (void)ctx;
    if (getenv("PM_TEST_VERBOSE") != NULL)
        fprintf(stderr, "%s\n", path);
    if (path[strlen(path) - 1] == '/') {
        assert_int_equal(size, 0);
        dir_hits++;
    }
}

static void test_orphans_empty_dirs(void **state)
{
    char *t = pm_test_table_path("orphan_dirs");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pkeys[1] = {"p"};
    paimon_table *h = NULL;
    paimon_error err;
    pm_fs *fs = pm_fs_local_new(false);
    pm_orphan_args a = {86400000, true, count_dirs, NULL};
    uint64_t count = 0;
    (void)state;
    co.columns = "id BIGINT, p INT, v STRING";
    co.partition_keys = pkeys;
    co.partition_key_count = 1;
    assert_int_equal(paimon_table_create(t, &co, &err), 0);
    life_write(t, "{\"id\":1,\"p\":1,\"v\":\"a\"}\n", false);
    life_write(t, "{\"id\":2,\"p\":2,\"v\":\"b\"}\n", false);
    life_write(t, "{\"id\":3,\"p\":3,\"v\":\"c\"}\n", false);
    assert_true(exists(t, "p=2/bucket-0") && exists(t, "p=3/bucket-0"));
    assert_int_equal(paimon_table_open(&h, t, &err), 0);
    assert_int_equal(paimon_table_rollback(h, 1, NULL, &err), 0); /* p=2, p=3 are orphans */
    paimon_table_free(h);
    plant(t, "p=4/bucket-7/data-dead.parquet");
    life_age_all(t, OLD);
    plant(t, "p=4/bucket-8/data-fresh.parquet"); /* younger than the margin */
    plant(t, "p=3/bucket-0/data-fresh.parquet");

    /* dry: p=2 and its bucket, p=4/bucket-7 would go; p=3 and p=4 keep a file */
    usleep(3000);
    assert_int_equal(pm_table_remove_orphans(fs, t, &a, &count, NULL, &err), 0);
    assert_int_equal(dir_hits, 3);
    assert_true(exists(t, "p=2/bucket-0") && exists(t, "p=4/bucket-7"));
    dir_hits = 0;
    a.dry_run = false;
    assert_int_equal(pm_table_remove_orphans(fs, t, &a, &count, NULL, &err), 0);
    assert_int_equal(dir_hits, 3);
    assert_false(exists(t, "p=2"));
    assert_false(exists(t, "p=4/bucket-7"));
    assert_true(exists(t, "p=3/bucket-0/data-fresh.parquet"));
    assert_true(exists(t, "p=4/bucket-8/data-fresh.parquet"));
    assert_true(exists(t, "p=1/bucket-0")); /* the live partition */
    {
        char *r = life_rows(t, 0, NULL, NULL, 0);
        assert_non_null(strstr(r, "\"a\""));
        pm_free(r);
    }
    /* a rerun finds nothing: no directory counted twice */
    dir_hits = 0;
    assert_int_equal(pm_table_remove_orphans(fs, t, &a, &count, NULL, &err), 0);
    assert_int_equal(count, 0);
    assert_int_equal(dir_hits, 0);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

static void test_orphans_abort(void **state)
{
    char *t = life_table("orphans-abort", true, NULL);
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *s = NULL;
    pm_strlist before, after;
    char path[4096];
    (void)state;
    life_write(t, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(t, "{\"id\":2,\"v\":\"b\"}\n", false);
    plant(t, "bucket-0/data-dead.parquet");
    life_age_all(t, OLD);
    /* a manifest list that a snapshot names is damaged: nothing may go */
    assert_int_equal(pm_snapshot_read(fs, t, 2, &s, NULL), 0);
    snprintf(path, sizeof(path), "%s/manifest/%s", t, s->delta_manifest_list);
    pm_test_write_file(path, "Obj", 3);
    pm_strlist_init(&before);
    pm_strlist_init(&after);
    life_files(t, &before);
    assert_int_equal(sweep(fs, t, 0, false, PAIMON_ECORRUPT), 0);
    life_files(t, &after);
    assert_int_equal(after.count, before.count);
    assert_true(exists(t, "bucket-0/data-dead.parquet"));
    pm_strlist_free(&before);
    pm_strlist_free(&after);
    pm_snapshot_free(s);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* ---- a killed writer ------------------------------------------------------------------- */

/* Upserts keys [from, to) and commits, on `fs`. */
static int write_commit(pm_fs *fs, const char *t, int from, int to, int64_t ident)
{
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "u", false};
    pm_commit_messages m;
    pm_commit_opts o;
    pm_batch *b = NULL;
    paimon_error err;
    int64_t id;
    int rc;
    pm_commit_messages_init(&m);
    if ((rc = pm_table_write_new(&w, fs, t, &wo, &err)) != 0 ||
        (rc = pm_batch_new(&b, pm_table_write_type(w), &err)) != 0)
        goto done;
    for (int i = from; i < to; i++) {
        char v[32];
        int n = snprintf(v, sizeof(v), "value-%d", i);
        PM_IGNORE(pm_column_append_i64(b->columns[0], i));
        PM_IGNORE(pm_column_append_bytes(b->columns[1], v, (size_t)n));
    }
    if ((rc = pm_batch_set_rows(b, to - from, &err)) != 0 ||
        (rc = pm_table_write_batch(w, b, NULL, &err)) != 0 ||
        (rc = pm_table_write_prepare(w, &m, &err)) != 0)
        goto done;
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = ident;
    rc = pm_commit(fs, t, &m, &o, &id, &err);
done:
    pm_batch_free(b);
    pm_table_write_free(w);
    pm_commit_messages_release(&m);
    return rc;
}

static void test_killed_writer(void **state)
{
    char *base = life_table("killed-base", true, NULL), *rows;
    long total;
    int killed = 0;
    (void)state;
    life_write(base, "{\"id\":1,\"v\":\"a\"}\n", false);
    rows = life_rows(base, 0, NULL, NULL, 0);
    {
        char *t = life_copy(base, "killed-count");
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
        assert_int_equal(write_commit(fs, t, 10, 200, 7), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        pm_test_remove_table(t);
    }
    /* killed at operations spread over the write, up to just before its snapshot */
    for (long n = 2; n < total; n += total / 6 + 1) {
        char *t = life_copy(base, "killed"), *got;
        pid_t pid = fork();
        int status;
        assert_true(pid >= 0);
        if (pid == 0) {
            pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, PM_FAULT_HALT);
            _exit(write_commit(fs, t, 10, 200, 7) == 0 ? 0 : 1);
        }
        waitpid(pid, &status, 0);
        assert_true(WIFEXITED(status));
        if (WEXITSTATUS(status) != PM_FS_HALT_EXIT || pm_test_latest_snapshot(t) != 1) {
            pm_test_remove_table(t); /* the commit landed, or failed cleanly */
            continue;
        }
        life_age_all(t, OLD);
        killed += sweep_local(t, 86400000, false) > 0;
        files_equal(t, base); /* exactly the files of the table before the write */
        got = life_rows(t, 0, NULL, NULL, 0);
        assert_string_equal(got, rows);
        pm_free(got);
        pm_test_remove_table(t);
    }
    assert_true(killed >= 2); /* kills that left files behind, all swept */
    pm_free(rows);
    pm_test_remove_table(base);
}

/* ---- fault injection ------------------------------------------------------------------- */

typedef enum job { ROLLBACK, TAG_DELETE, SWEEP } job;

/* Every snapshot file and tag that exists reads as `expect` recorded before the job. */
static void check_readable(const char *t, char **by_id, int max_id, char **by_tag,
                           const char *const *tags, size_t ntags, long n)
{
    char why[512];
    for (int id = 1; id <= max_id; id++) {
        char rel[64], *r;
        snprintf(rel, sizeof(rel), "snapshot/snapshot-%d", id);
        if (!exists(t, rel) || by_id[id] == NULL)
            continue;
        if ((r = life_rows(t, id, NULL, why, sizeof(why))) == NULL)
            fail_msg("operation %ld: snapshot %d unreadable: %s", n, id, why);
        if (strcmp(r, by_id[id]) != 0)
            fail_msg("operation %ld: snapshot %d reads differently", n, id);
        pm_free(r);
    }
    for (size_t i = 0; i < ntags; i++) {
        char rel[128], *r;
        snprintf(rel, sizeof(rel), "tag/tag-%s", tags[i]);
        if (!exists(t, rel))
            continue;
        if ((r = life_rows(t, 0, tags[i], why, sizeof(why))) == NULL)
            fail_msg("operation %ld: tag %s unreadable: %s", n, tags[i], why);
        if (strcmp(r, by_tag[i]) != 0)
            fail_msg("operation %ld: tag %s reads differently", n, tags[i]);
        pm_free(r);
    }
}

static int run_job(job j, pm_fs *fs, const char *t)
{
    paimon_error err, cleanup = {0, {0}};
    pm_orphan_args a = {0, false, NULL, NULL};
    int rc;
    switch (j) {
    case ROLLBACK: return pm_table_rollback(fs, t, 0, "two", &err);
    case TAG_DELETE:
        rc = pm_tag_delete(fs, t, "one", &cleanup, &err);
        return rc != 0 ? rc : cleanup.code;
    case SWEEP: usleep(3000); return pm_table_remove_orphans(fs, t, &a, NULL, NULL, &err);
    }
    return 0;
}

/* The clean rerun: the job again (a tag deletion whose tag file went: the sweep does the
 * rest), then a sweep. */
static void finish(job j, const char *t)
{
    pm_fs *fs = pm_fs_local_new(false);
    if (j == ROLLBACK || (j == TAG_DELETE && exists(t, "tag/tag-one")))
        assert_int_equal(run_job(j, fs, t), 0);
    (void)sweep(fs, t, 0, false, 0);
    pm_fs_free(fs);
}

static void fault_loop(job j)
{
    const char *tags[] = {"one", "two", "five"};
    char *base, *clean, *by_id[8] = {NULL}, *by_tag[3];
    paimon_table *h = NULL;
    paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
    paimon_error err;
    long total;

    /* history: 5 snapshots (an overwrite at 3), tags at 1, 2 and 5, snapshots 1-3 expired,
     * orphans planted and everything old */
    base = life_table("life-fault", false, NULL);
    life_write(base, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(base, "{\"id\":2,\"v\":\"b\"}\n", false);
    life_write(base, "{\"id\":3,\"v\":\"c\"}\n", true);
    life_write(base, "{\"id\":4,\"v\":\"d\"}\n", false);
    life_write(base, "{\"id\":5,\"v\":\"e\"}\n", false);
    assert_int_equal(paimon_table_open(&h, base, &err), 0);
    for (int i = 0; i < 3; i++) {
        o.snapshot = i == 2 ? 5 : i + 1;
        assert_int_equal(paimon_tag_create(h, tags[i], &o, &err), 0);
    }
    paimon_table_free(h);
    for (int id = 1; id <= 5; id++)
        by_id[id] = life_rows(base, id, NULL, NULL, 0);
    for (int i = 0; i < 3; i++)
        by_tag[i] = life_rows(base, 0, tags[i], NULL, 0);
    {
        pm_fs *fs = pm_fs_local_new(false);
        for (int id = 1; id <= 3; id++) {
            char *p = pm_snapshot_path(base, id);
            assert_int_equal(fs->remove(fs, p, NULL), 0);
            pm_free(p);
        }
        assert_int_equal(pm_snapshot_write_hint(fs, base, "EARLIEST", 4, NULL), 0);
        pm_fs_free(fs);
    }
    plant(base, "bucket-0/data-dead.parquet");
    plant(base, "manifest/manifest-dead-0");
    life_age_all(base, OLD);

    clean = life_copy(base, "life-clean");
    {
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
        assert_int_equal(run_job(j, fs, clean), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        finish(j, clean);
    }
    assert_true(total > 5);
    printf("every one of %ld file-system operations of a %s fails in turn\n", total,
           j == ROLLBACK     ? "rollback"
           : j == TAG_DELETE ? "tag deletion"
                             : "sweep");
    for (long n = 1; n <= total; n++) {
        char *t = life_copy(base, "life-run");
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, PM_FAULT_FAIL);
        (void)run_job(j, fs, t);
        pm_fs_free(fs);
        check_readable(t, by_id, 5, by_tag, tags, 3, n);
        finish(j, t);
        files_equal(t, clean); /* the same files as a clean run: the same reads */
        pm_test_remove_table(t);
    }
    for (int id = 1; id <= 5; id++)
        pm_free(by_id[id]);
    for (int i = 0; i < 3; i++)
        pm_free(by_tag[i]);
    pm_test_remove_table(clean);
    pm_test_remove_table(base);
}

static void test_rollback_faults(void **state)
{
    (void)state;
    fault_loop(ROLLBACK);
}

static void test_tag_delete_faults(void **state)
{
    (void)state;
    fault_loop(TAG_DELETE);
}

static void test_sweep_faults(void **state)
{
    (void)state;
    fault_loop(SWEEP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orphans_found),   cmocka_unit_test(test_orphans_empty_dirs),
        cmocka_unit_test(test_orphans_abort),   cmocka_unit_test(test_killed_writer),
        cmocka_unit_test(test_rollback_faults), cmocka_unit_test(test_tag_delete_faults),
        cmocka_unit_test(test_sweep_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
