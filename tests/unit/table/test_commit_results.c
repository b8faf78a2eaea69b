/* What a commit reports and leaves behind (src/table/commit.c, commit_abort.c; issue 19,
 * items 1 and 11): exactly-once retries by commit user and identifier for every commit
 * kind; a compaction that loses a conflict after its data landed is a success with a
 * warning, and only the compaction's own files are removed; a snapshot write refused for
 * another reason than a taken name (a read-only snapshot/ directory) is not retried, names
 * the path and the reason, and leaves no manifest behind; a race lost at every attempt
 * leaves none either; pm_commit_messages_abort removes exactly the files messages add; and
 * the same through the public writer API. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commit_fixture.h"
#include "table_state.h"
#include "testlib.h"

#include "meta/manifest.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "paimon/write.h"
#include "table/commit.h"
#include "util/alloc.h"

static int commit_as(pm_fs *fs, const char *t, const pm_commit_messages *m, const char *user,
                     int64_t ident, bool overwrite, pm_commit_result *res, int64_t *id)
{
    pm_commit_opts o;
    paimon_error err;
    int rc;
    memset(&o, 0, sizeof(o));
    o.commit_user = user;
    o.identifier = ident;
    o.kind = PM_COMMIT_APPEND;
    o.overwrite = overwrite;
    o.skip_committed = true;
    o.result = res;
    rc = pm_commit(fs, t, m, &o, id, &err);
    if (rc != 0)
        print_message("commit: %s\n", err.message);
    return rc;
}

/* "<t>/p=<p>/bucket-0/<name>" (p < 0: unpartitioned), pm_free. */
static char *data_path(const char *t, int p, const char *name)
{
    char buf[4096];
    if (p < 0)
        snprintf(buf, sizeof(buf), "%s/bucket-0/%s", t, name);
    else
        snprintf(buf, sizeof(buf), "%s/p=%d/bucket-0/%s", t, p, name);
    return pm_strdup(buf);
}

static void touch(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    *strrchr(dir, '/') = '\0';
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    assert_int_equal(fs->mkdirs(fs, dir, &err), 0);
    pm_fs_free(fs);
    pm_test_write_file(path, "x", 1);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void add_name(pm_strlist *l, const char *name)
{
    if (name != NULL)
        assert_int_equal(pm_strlist_push(l, name), 0);
}

/* Every file of manifest/ is named by a snapshot (its lists, their manifests, its index
 * manifest): a failed commit left nothing behind.  Returns the number of files. */
static size_t assert_no_stray_manifests(const char *t)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_strlist named, present;
    char *dir = pm_table_file(t, PM_DIR_MANIFEST, NULL);
    int64_t latest = pm_test_latest_snapshot(t);
    paimon_error err;
    size_t n;
    pm_strlist_init(&named);
    pm_strlist_init(&present);
    for (int64_t id = 1; id <= latest; id++) {
        pm_snapshot *s = NULL;
        const char *lists[3];
        int64_t sizes[3];
        assert_int_equal(pm_snapshot_read(fs, t, id, &s, &err), 0);
        lists[0] = s->base_manifest_list;
        lists[1] = s->delta_manifest_list;
        lists[2] = s->changelog_manifest_list;
        sizes[0] = s->base_manifest_list_size;
        sizes[1] = s->delta_manifest_list_size;
        sizes[2] = s->changelog_manifest_list_size;
        add_name(&named, s->index_manifest);
        for (int k = 0; k < 3; k++) {
            pm_arena a;
            pm_manifest_file_meta *metas;
            size_t count;
            if (lists[k] == NULL)
                continue;
            add_name(&named, lists[k]);
            pm_arena_init(&a, 4096);
            assert_int_equal(
                pm_manifest_list_read(fs, t, lists[k], sizes[k], &a, &metas, &count, &err), 0);
            for (size_t i = 0; i < count; i++)
                add_name(&named, metas[i].file_name);
            pm_arena_free(&a);
        }
        pm_snapshot_free(s);
    }
    pm_test_find_files(dir, "", &present);
    for (size_t i = 0; i < present.count; i++) {
        const char *base = strrchr(present.items[i], '/') + 1;
        bool found = false;
        for (size_t j = 0; j < named.count && !found; j++)
            found = strcmp(named.items[j], base) == 0;
        if (!found)
            fail_msg("%s is left behind: no snapshot names it", present.items[i]);
    }
    n = present.count;
    pm_strlist_free(&named);
    pm_strlist_free(&present);
    pm_free(dir);
    pm_fs_free(fs);
    return n;
}

/* ---- exactly-once retries ---------------------------------------------------------------- */

static void test_exactly_once(void **state)
{
    char *t = pm_test_commit_table("commit_once", false, false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m, c;
    pm_commit_result res;
    int64_t id;
    (void)state;
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, -1, 0, 0, "data-once-0.parquet", 2);
    assert_int_equal(commit_as(fs, t, &m, "U", 5, false, &res, &id), 0);
    assert_int_equal(id, 1);
    assert_int_equal(res.snapshot_id, 1);
    assert_int_equal(res.committed_before, 0);
    /* the same commit again, and an older one: nothing is committed again */
    assert_int_equal(commit_as(fs, t, &m, "U", 5, false, &res, &id), 0);
    assert_int_equal(id, 0);
    assert_int_equal(res.snapshot_id, 0);
    assert_int_equal(res.committed_before, 1);
    assert_int_equal(commit_as(fs, t, &m, "U", 4, false, &res, &id), 0);
    assert_int_equal(res.committed_before, 1);
    assert_int_equal(pm_test_latest_snapshot(t), 1);
    /* a batch commit (INT64_MAX) is never skipped, and hides nothing from later ones */
    assert_int_equal(commit_as(fs, t, &m, "U", INT64_MAX, false, &res, &id), 0);
    assert_int_equal(id, 2);
    assert_int_equal(commit_as(fs, t, &m, "U", INT64_MAX, false, &res, &id), 0);
    assert_int_equal(id, 3);
    assert_int_equal(commit_as(fs, t, &m, "U", 6, false, &res, &id), 0);
    assert_int_equal(id, 4);
    /* every kind is checked: an overwrite, and a compaction alone */
    assert_int_equal(commit_as(fs, t, &m, "U", 6, true, &res, &id), 0);
    assert_int_equal(res.committed_before, 4);
    pm_commit_messages_init(&c);
    pm_test_add_entry(&c, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, -1, 0, 0, "data-once-0.parquet", 2);
    pm_test_add_entry(&c, PM_TEST_COMPACT, PM_FILE_KIND_ADD, -1, 0, 1, "data-once-c.parquet", 2);
    assert_int_equal(commit_as(fs, t, &c, "U", 6, false, &res, &id), 0);
    assert_int_equal(res.committed_before, 4);
    assert_int_equal(res.compact_snapshot_id, 0);
    assert_int_equal(pm_test_latest_snapshot(t), 4);
    /* another user's identifiers are its own */
    assert_int_equal(commit_as(fs, t, &m, "V", 1, false, &res, &id), 0);
    assert_int_equal(id, 5);
    /* the search stops at an expired snapshot, as Java's latestSnapshotOfUser */
    {
        char *s1 = pm_snapshot_path(t, 1);
        assert_int_equal(unlink(s1), 0);
        pm_free(s1);
    }
    assert_int_equal(commit_as(fs, t, &m, "W", 1, false, &res, &id), 0);
    assert_int_equal(id, 6);
    pm_commit_messages_release(&c);
    pm_commit_messages_release(&m);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* ---- a compaction that loses after its data landed --------------------------------------- */

static void test_compaction_lost_after_data(void **state)
{
    char *t = pm_test_commit_table("commit_lost_compact", true, true, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_result res;
    char *h1 = data_path(t, 1, "data-h1.parquet"), *f3 = data_path(t, 1, "data-f3.parquet");
    char *cl = data_path(t, 1, "changelog-c1.parquet"), *h2 = data_path(t, 1, "data-h2.parquet");
    int64_t id;
    (void)state;
    /* snapshot 1: two level-0 files; snapshot 2: another writer compacts them */
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, "data-f1.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, "data-f2.parquet", 1);
    assert_int_equal(commit_as(fs, t, &m, "a", 1, false, &res, &id), 0);
    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, "data-f1.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, "data-f2.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 5, "data-g1.parquet", 2);
    assert_int_equal(commit_as(fs, t, &m, "b", 1, false, &res, &id), 0);
    assert_int_equal(id, 2);
    assert_int_equal(res.compact_snapshot_id, 2);
    assert_int_equal(res.snapshot_id, 0);
    pm_commit_messages_release(&m);

    /* our writer: new data f3, and a compaction made before snapshot 2 that removes f2
     * (gone now), writes h1 with a changelog, and upgrades f3 to level 5 (same name) */
    touch(h1);
    touch(f3);
    touch(cl);
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, "data-f3.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, "data-f2.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 4, "data-h1.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, "data-f3.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 5, "data-f3.parquet", 1);
    {
        pm_manifest_entry *e;
        pm_test_add_entry(&m, PM_TEST_CHANGELOG, PM_FILE_KIND_ADD, 1, 0, 0, "changelog-c1.parquet",
                          1);
        /* move it to the compact increment's changelog */
        e = &m.changelog[--m.changelog_count];
        assert_int_equal(pm_commit_messages_add_compact_changelog(&m, e), 0);
    }
    assert_int_equal(commit_as(fs, t, &m, "c", 1, false, &res, &id), 0);
    /* the data is committed: success, with the compaction's failure reported */
    assert_int_equal(id, 3);
    assert_int_equal(res.snapshot_id, 3);
    assert_int_equal(res.compact_snapshot_id, 0);
    assert_int_equal(res.compact_err.code, PAIMON_ECONFLICT);
    assert_non_null(strstr(res.compact_err.message, "data-f2.parquet"));
    assert_int_equal(pm_test_latest_snapshot(t), 3);
    /* only the compaction's own files are removed: never the upgraded (live) f3 */
    assert_false(exists(h1));
    assert_false(exists(cl));
    assert_true(exists(f3));
    pm_commit_messages_release(&m);

    /* a compaction alone that loses: a failure, nothing committed, its files the caller's */
    touch(h2);
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, "data-f1.parquet", 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 5, "data-h2.parquet", 1);
    assert_int_equal(commit_as(fs, t, &m, "d", 1, false, &res, &id), PAIMON_ECONFLICT);
    assert_int_equal(id, 0);
    assert_int_equal(res.snapshot_id, 0);
    assert_int_equal(res.uncertain, 0);
    assert_true(exists(h2));
    assert_int_equal(pm_test_latest_snapshot(t), 3);
    assert_no_stray_manifests(t);
    pm_commit_messages_release(&m);
    pm_free(h1);
    pm_free(h2);
    pm_free(f3);
    pm_free(cl);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* ---- snapshot writes refused for another reason than a taken name ------------------------- */

static void test_refused_snapshot_write(void **state)
{
    char *t = pm_test_commit_table("commit_refused", true, false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_fs *ffs;
    pm_commit_messages m;
    pm_commit_opts o;
    pm_commit_result res;
    paimon_error err;
    char prefix[4096];
    int64_t id;
    (void)state;
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, "data-r0.parquet", 1);
    assert_int_equal(commit_as(fs, t, &m, "u", 1, false, &res, &id), 0);
    pm_commit_messages_release(&m);

    /* snapshot/ refuses new files, as a read-only directory does */
    ffs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
    snprintf(prefix, sizeof(prefix), "%s/snapshot/", t);
    assert_int_equal(pm_fs_fault_deny(ffs, prefix), 0);
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 2, 0, 0, "data-r1.parquet", 1);
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = 2;
    o.result = &res;
    assert_int_equal(pm_commit(ffs, t, &m, &o, &id, &err), PAIMON_EIO);
    /* said as it is: the path and the reason; not a lost race, and not retried */
    assert_non_null(strstr(err.message, "snapshot-2"));
    assert_non_null(strstr(err.message, "Permission denied"));
    assert_null(strstr(err.message, "attempts"));
    assert_int_equal(pm_fs_fault_denied(ffs), 1);
    assert_int_equal(res.uncertain, 0);
    assert_int_equal(id, 0);
    assert_int_equal(pm_test_latest_snapshot(t), 1);
    /* what the failed attempt wrote is gone */
    assert_int_equal(assert_no_stray_manifests(t), 3);

    /* the same for manifest/: the first manifest write is refused, nothing stays */
    snprintf(prefix, sizeof(prefix), "%s/manifest/", t);
    assert_int_equal(pm_fs_fault_deny(ffs, prefix), 0);
    assert_int_equal(pm_commit(ffs, t, &m, &o, &id, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "Permission denied"));
    assert_true(pm_fs_fault_denied(ffs) >= 2);
    assert_int_equal(assert_no_stray_manifests(t), 3);

    /* lifted: the same messages commit */
    assert_int_equal(pm_fs_fault_deny(ffs, NULL), 0);
    assert_int_equal(pm_commit(ffs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 2);
    pm_commit_messages_release(&m);
    pm_fs_free(ffs);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* A hook that lets another writer take the id before every attempt. */
typedef struct rival {
    pm_fs *fs;
    const char *table;
    int count;
} rival;

static void rival_commit(void *arg, int64_t id)
{
    rival *r = arg;
    pm_commit_messages m;
    pm_commit_result res;
    char name[64];
    int64_t got;
    pm_commit_messages_init(&m);
    snprintf(name, sizeof(name), "data-rival-%d.parquet", r->count++);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, -1, 0, 0, name, 1);
    assert_int_equal(commit_as(r->fs, r->table, &m, "rival", INT64_MAX, false, &res, &got), 0);
    assert_int_equal(got, id);
    pm_commit_messages_release(&m);
}

static void test_lost_every_race(void **state)
{
    const char *opts[] = {"commit.max-retries=3", "commit.min-retry-wait=1 ms",
                          "commit.max-retry-wait=2 ms"};
    char *t = pm_test_commit_table("commit_lost_races", false, false, opts, 3);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_opts o;
    pm_commit_result res;
    paimon_error err;
    rival r = {fs, t, 0};
    int64_t id;
    (void)state;
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, -1, 0, 0, "data-me.parquet", 1);
    memset(&o, 0, sizeof(o));
    o.commit_user = "me";
    o.identifier = 1;
    o.skip_committed = true;
    o.result = &res;
    o.before_snapshot = rival_commit;
    o.before_snapshot_arg = &r;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), PAIMON_ECONFLICT);
    assert_non_null(strstr(err.message, "after 3 attempts"));
    assert_int_equal(r.count, 3);
    assert_int_equal(id, 0);
    assert_int_equal(res.uncertain, 0);
    assert_int_equal(pm_test_latest_snapshot(t), 3);
    /* the three rival snapshots; none of our attempts' manifests stays */
    assert_int_equal(assert_no_stray_manifests(t), 3 * 3);
    pm_commit_messages_release(&m);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* ---- aborting messages ------------------------------------------------------------------- */

static void test_abort_removes_only_added_files(void **state)
{
    char *t = pm_test_commit_table("commit_abort", true, false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_index_manifest_entry ie;
    paimon_error err;
    const char *added[] = {"data-a.parquet", "changelog-c.parquet", "data-d.parquet"};
    const char *kept[] = {"data-b.parquet", "data-e.parquet"};
    char *idx = pm_table_file(t, PM_DIR_INDEX, "index-x-0");
    (void)state;
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, added[0], 1);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_DELETE, 1, 0, 0, kept[0], 1);
    pm_test_add_entry(&m, PM_TEST_CHANGELOG, PM_FILE_KIND_ADD, 1, 0, 0, added[1], 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 5, added[2], 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, 1, 0, 0, kept[1], 1);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, 1, 0, 5, kept[1], 1);
    pm_test_add_entry(&m, PM_TEST_DATA, PM_FILE_KIND_ADD, 1, 0, 0, "data-never-written.parquet", 1);
    memset(&ie, 0, sizeof(ie));
    ie.kind = PM_FILE_KIND_ADD;
    ie.partition = m.data[0].partition;
    ie.index_type = "HASH";
    ie.file_name = "index-x-0";
    ie.file_size = 1;
    assert_int_equal(pm_commit_messages_add_index(&m, &ie), 0);
    for (size_t i = 0; i < 3; i++) {
        char *p = data_path(t, 1, added[i]);
        touch(p);
        pm_free(p);
    }
    for (size_t i = 0; i < 2; i++) {
        char *p = data_path(t, 1, kept[i]);
        touch(p);
        pm_free(p);
    }
    touch(idx);
    /* the data part only: the compaction's result stays */
    assert_int_equal(pm_commit_messages_abort(fs, t, &m, true, false, &err), 0);
    {
        char *a = data_path(t, 1, added[0]), *d = data_path(t, 1, added[2]);
        assert_false(exists(a));
        assert_true(exists(d));
        pm_free(a);
        pm_free(d);
    }
    assert_false(exists(idx));
    assert_int_equal(pm_commit_messages_abort(fs, t, &m, true, true, &err), 0);
    for (size_t i = 0; i < 3; i++) {
        char *p = data_path(t, 1, added[i]);
        assert_false(exists(p));
        pm_free(p);
    }
    for (size_t i = 0; i < 2; i++) {
        char *p = data_path(t, 1, kept[i]);
        assert_true(exists(p));
        pm_free(p);
    }
    pm_commit_messages_release(&m);
    pm_free(idx);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* ---- the public writer API --------------------------------------------------------------- */

static size_t data_files(const char *t)
{
    pm_strlist l;
    size_t n;
    pm_strlist_init(&l);
    pm_test_find_files(t, "data-", &l);
    n = l.count;
    pm_strlist_free(&l);
    return n;
}

/* Writes rows id from..to-1 with one writer and commits them as `user`/`ident`. */
static int write_rows(const char *path, int from, int to, const char *user, int64_t ident,
                      paimon_commit_result *res, bool abort_skipped)
{
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_commit_messages *m = NULL;
    paimon_error err;
    int64_t id;
    int rc;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    wo.commit_user = user;
    assert_int_equal(paimon_writer_open(&w, t, &wo, &err), 0);
    for (int i = from; i < to; i++) {
        paimon_value v[3];
        v[0].type = PAIMON_VALUE_INT;
        v[0].v.i = i;
        v[1].type = PAIMON_VALUE_NULL;
        v[2].type = PAIMON_VALUE_INT;
        v[2].v.i = 1;
        assert_int_equal(paimon_writer_write_row(w, v, 3, PAIMON_ROW_INSERT, &err), 0);
    }
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    co.commit_user = user;
    co.identifier = ident;
    co.result = res;
    rc = paimon_table_commit(t, m, &co, &id, &err);
    if (rc == 0 && res->committed_before > 0 && abort_skipped)
        assert_int_equal(paimon_commit_messages_abort(t, m, &err), 0);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    paimon_table_free(t);
    return rc;
}

static void test_writer_api_exactly_once(void **state)
{
    char *t = pm_test_commit_table("commit_api_once", true, false, NULL, 0);
    paimon_commit_result res = PAIMON_COMMIT_RESULT_INIT;
    char *rows;
    (void)state;
    assert_int_equal(write_rows(t, 0, 10, "svc", 1, &res, true), 0);
    assert_int_equal(res.snapshot_id, 1);
    assert_int_equal(data_files(t), 1);
    /* the retry of commit 1 (say its first try's outcome was lost): nothing twice, and the
     * retry's own files are released */
    assert_int_equal(write_rows(t, 0, 10, "svc", 1, &res, true), 0);
    assert_int_equal(res.committed_before, 1);
    assert_int_equal(res.snapshot_id, 0);
    assert_int_equal(data_files(t), 1);
    assert_int_equal(write_rows(t, 10, 12, "svc", 2, &res, true), 0);
    assert_int_equal(res.snapshot_id, 2);
    rows = pm_test_table_rows(t);
    {
        size_t lines = 0;
        for (const char *p = rows; *p != '\0'; p++)
            lines += *p == '\n';
        assert_int_equal(lines, 12);
    }
    pm_free(rows);
    /* a result of another version is refused */
    res.version = 99;
    assert_int_equal(write_rows(t, 12, 13, "svc", 3, &res, true), PAIMON_EINVALID);
    pm_test_remove_table(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exactly_once),
        cmocka_unit_test(test_compaction_lost_after_data),
        cmocka_unit_test(test_refused_snapshot_write),
        cmocka_unit_test(test_lost_every_race),
        cmocka_unit_test(test_abort_removes_only_added_files),
        cmocka_unit_test(test_writer_api_exactly_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
