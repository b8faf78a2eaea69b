/* The commit protocol (src/table/commit.c): snapshots in the 1.4.2 shape, base and delta
 * lists, hints, overwrite, conflicts, races and retries, idempotent retry, manifest merging,
 * index manifests carried forward, crashes at every file-system operation (fail and halt),
 * and four processes committing to one table at once. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commit_fixture.h"
#include "table_state.h"
#include "testlib.h"

#include "data/binary_row.h"
#include "meta/file_entry.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "util/alloc.h"

static const uint8_t EMPTY_ROW[12] = {0};

/* A table under a fresh directory; partitioned by p INT when `partitioned`. */
static char *make_table_kind(const char *tag, bool partitioned, bool pk, const char *const *opts,
                             size_t nopt)
{
    return pm_test_commit_table(tag, partitioned, pk, opts, nopt);
}

static char *make_table(const char *tag, bool partitioned, const char *const *opts, size_t nopt)
{
    return make_table_kind(tag, partitioned, false, opts, nopt);
}

/* Adds a data-file entry for partition p (or unpartitioned when p < 0). */
static void add_file(pm_commit_messages *m, int kind, int p, int32_t bucket, const char *name,
                     int64_t rows)
{
    pm_test_add_entry(m, PM_TEST_DATA, kind, p, bucket, 0, name, rows);
}

static int64_t commit(pm_fs *fs, const char *table, pm_commit_messages *m, const char *user,
                      int64_t ident, int expect_rc)
{
    pm_commit_opts o;
    paimon_error err;
    int64_t id = -1;
    memset(&o, 0, sizeof(o));
    o.commit_user = user;
    o.identifier = ident;
    o.kind = PM_COMMIT_APPEND;
    assert_int_equal(pm_commit(fs, table, m, &o, &id, &err), expect_rc);
    return id;
}

static size_t live_count(pm_fs *fs, const char *table, int64_t *total_rows)
{
    pm_snapshot *s = NULL;
    pm_arena a;
    const pm_manifest_entry **live;
    size_t n = 0;
    int64_t id;
    bool found;
    paimon_error err;
    pm_arena_init(&a, 4096);
    assert_int_equal(pm_snapshot_latest_id(fs, table, &id, &found, &err), 0);
    if (!found)
        return 0;
    assert_int_equal(pm_snapshot_read(fs, table, id, &s, &err), 0);
    assert_int_equal(pm_snapshot_live_entries(fs, table, s, &a, &live, &n, &err), 0);
    if (total_rows != NULL) {
        *total_rows = 0;
        for (size_t i = 0; i < n; i++)
            *total_rows += live[i]->file.row_count;
        assert_int_equal(*total_rows, s->total_record_count);
    }
    pm_snapshot_free(s);
    pm_arena_free(&a);
    return n;
}

static pm_snapshot *read_snap(pm_fs *fs, const char *table, int64_t id)
{
    pm_snapshot *s = NULL;
    paimon_error err;
    assert_int_equal(pm_snapshot_read(fs, table, id, &s, &err), 0);
    return s;
}

static void test_first_commits(void **state)
{
    char *t = make_table("commit1", false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_snapshot *s;
    char *hint;
    uint8_t *data;
    size_t len;
    int64_t rows;
    (void)state;
    pm_commit_messages_init(&m);
    /* an empty commit is skipped */
    assert_int_equal(commit(fs, t, &m, "u1", INT64_MAX, 0), 0);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-a-0.parquet", 10);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-a-1.parquet", 5);
    assert_int_equal(commit(fs, t, &m, "u1", INT64_MAX, 0), 1);
    s = read_snap(fs, t, 1);
    assert_int_equal(s->commit_kind, PM_COMMIT_APPEND);
    assert_string_equal(s->commit_user, "u1");
    assert_int_equal(s->total_record_count, 15);
    assert_int_equal(s->delta_record_count, 15);
    assert_null(s->index_manifest);
    assert_null(s->changelog_manifest_list);
    assert_true(s->has_next_row_id);
    /* base list -0 (empty), delta list -1, from the same factory uuid */
    assert_non_null(strstr(s->base_manifest_list, "manifest-list-"));
    assert_int_equal(strlen(s->base_manifest_list), strlen("manifest-list-") + 36 + 2);
    assert_string_equal(s->base_manifest_list + strlen(s->base_manifest_list) - 2, "-0");
    assert_string_equal(s->delta_manifest_list + strlen(s->delta_manifest_list) - 2, "-1");
    assert_memory_equal(s->base_manifest_list, s->delta_manifest_list,
                        strlen(s->delta_manifest_list) - 2);
    /* the JSON has the 1.4.2 shape: no logOffsets, no changelogRecordCount */
    hint = pm_snapshot_path(t, 1);
    data = pm_test_read_file(hint, &len);
    assert_null(strstr((char *)data, "logOffsets"));
    assert_null(strstr((char *)data, "changelog"));
    assert_non_null(strstr((char *)data, "\"baseManifestListSize\" : "));
    pm_free(data);
    pm_free(hint);
    pm_snapshot_free(s);
    hint = pm_table_file(t, PM_DIR_SNAPSHOT, "LATEST");
    data = pm_test_read_file(hint, &len);
    assert_int_equal(len, 1);
    assert_memory_equal(data, "1", 1);
    pm_free(data);
    pm_free(hint);
    hint = pm_table_file(t, PM_DIR_SNAPSHOT, "EARLIEST");
    data = pm_test_read_file(hint, &len);
    assert_memory_equal(data, "1", 1);
    pm_free(data);
    pm_free(hint);

    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-b-0.parquet", 7);
    assert_int_equal(commit(fs, t, &m, "u1", INT64_MAX, 0), 2);
    assert_int_equal(live_count(fs, t, &rows), 3);
    assert_int_equal(rows, 22);
    /* committing the same file again is a conflict only when checked; an APPEND of a file
     * already live is caught by the overwrite/delete path, so check a DELETE of a stranger */
    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_DELETE, -1, 0, "data-nope.parquet", 7);
    assert_int_equal(commit(fs, t, &m, "u1", INT64_MAX, PAIMON_ECONFLICT), 0);
    pm_commit_messages_release(&m);
    assert_int_equal(live_count(fs, t, NULL), 3);
    {
        int64_t latest;
        bool found;
        paimon_error err;
        assert_int_equal(pm_snapshot_latest_id(fs, t, &latest, &found, &err), 0);
        assert_int_equal(latest, 2);
    }
    pm_fs_free(fs);
    pm_free(t);
}

static void test_overwrite(void **state)
{
    char *t = make_table("commit_ow", true, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    const char *spec[] = {"p=1"};
    int64_t id = 0, rows;
    pm_snapshot *s;
    (void)state;
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, 1, 0, "data-p1-0.parquet", 3);
    add_file(&m, PM_FILE_KIND_ADD, 2, 0, "data-p2-0.parquet", 4);
    assert_int_equal(commit(fs, t, &m, "u", 1, 0), 1);
    pm_commit_messages_release(&m);

    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, 1, 0, "data-p1-1.parquet", 9);
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = 2;
    o.overwrite = true;
    o.partition = spec;
    o.partition_count = 1;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 2);
    s = read_snap(fs, t, 2);
    assert_int_equal(s->commit_kind, PM_COMMIT_OVERWRITE);
    assert_int_equal(s->delta_record_count, 9 - 3);
    assert_int_equal(s->total_record_count, 13);
    pm_snapshot_free(s);
    assert_int_equal(live_count(fs, t, &rows), 2);
    assert_int_equal(rows, 13);

    /* a row outside the overwritten partition is refused */
    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, 2, 0, "data-p2-9.parquet", 1);
    o.identifier = 3;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), PAIMON_EINVALID);

    /* dynamic overwrite (no spec): replaces partition 2 only */
    o.partition = NULL;
    o.partition_count = 0;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 3);
    assert_int_equal(live_count(fs, t, &rows), 2);
    assert_int_equal(rows, 10);
    pm_commit_messages_release(&m);

    /* an unknown partition column in the spec */
    pm_commit_messages_init(&m);
    spec[0] = "q=1";
    o.partition = spec;
    o.partition_count = 1;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), PAIMON_EINVALID);
    pm_commit_messages_release(&m);
    pm_fs_free(fs);
    pm_free(t);
}

/* A hook that lets another writer take the id first (once). */
typedef struct race {
    pm_fs *fs;
    const char *table;
    const char *user;
    int64_t ident;
    int fired;
} race;

static void rival(void *arg, int64_t id)
{
    race *r = arg;
    pm_commit_messages m;
    char name[64];
    (void)id;
    if (r->fired++ > 0)
        return;
    pm_commit_messages_init(&m);
    snprintf(name, sizeof(name), "data-rival-%s.parquet", r->user);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, name, 1);
    assert_int_equal(commit(r->fs, r->table, &m, r->user, r->ident, 0), id);
    pm_commit_messages_release(&m);
}

static void test_race_and_idempotence(void **state)
{
    char *t = make_table("commit_race", false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    race r = {fs, t, "rival", 7, 0};
    pm_commit_result res;
    int64_t id = 0;
    pm_snapshot *s;
    pm_strlist names;
    char *dir;
    (void)state;
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-me-0.parquet", 2);
    memset(&o, 0, sizeof(o));
    o.commit_user = "me";
    o.identifier = 1;
    o.before_snapshot = rival;
    o.before_snapshot_arg = &r;
    /* the rival takes snapshot 1; we retry and land as 2 */
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 2);
    s = read_snap(fs, t, 1);
    assert_string_equal(s->commit_user, "rival");
    pm_snapshot_free(s);
    assert_int_equal(live_count(fs, t, NULL), 2);
    /* the lost attempt's manifests were removed: each snapshot references 1 delta manifest
     * + base/delta lists; nothing else is left in manifest/ */
    dir = pm_table_file(t, PM_DIR_MANIFEST, NULL);
    pm_strlist_init(&names);
    assert_int_equal(fs->list(fs, dir, &names, &err), 0);
    assert_int_equal(names.count, 2 * 3);
    pm_strlist_free(&names);
    pm_free(dir);

    /* exactly once: "another process" with our user and identifier publishes the same
     * commit while we write (a retry of it); we find it after losing the race and commit
     * nothing again */
    r.fired = 0;
    r.user = "me";
    r.ident = 2;
    o.identifier = 2;
    o.skip_committed = true;
    o.result = &res;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 0);
    assert_int_equal(res.committed_before, 3);
    assert_int_equal(res.snapshot_id, 0);
    assert_int_equal(live_count(fs, t, NULL), 3);
    /* without skip_committed (a batch commit) the same race is just a lost race: the rival
     * used our user, but its snapshot is not ours, and we land after it */
    r.fired = 0;
    r.ident = 3;
    o.identifier = 3;
    o.skip_committed = false;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    assert_int_equal(id, 5);
    assert_int_equal(res.snapshot_id, 5);
    assert_int_equal(res.committed_before, 0);
    {
        int64_t latest;
        bool found;
        assert_int_equal(pm_snapshot_latest_id(fs, t, &latest, &found, &err), 0);
        assert_int_equal(latest, 5);
    }
    pm_commit_messages_release(&m);
    pm_fs_free(fs);
    pm_free(t);
}

static void test_manifest_merge(void **state)
{
    const char *opts[] = {"manifest.merge-min-count=3"};
    char *t = make_table("commit_merge", true, opts, 1);
    pm_fs *fs = pm_fs_local_new(false);
    pm_arena a;
    paimon_error err;
    pm_manifest_file_meta *metas;
    size_t n;
    pm_snapshot *s;
    (void)state;
    for (int i = 0; i < 6; i++) {
        pm_commit_messages m;
        char name[64];
        pm_commit_messages_init(&m);
        snprintf(name, sizeof(name), "data-m-%d.parquet", i);
        add_file(&m, PM_FILE_KIND_ADD, i % 2, 0, name, 1);
        assert_int_equal(commit(fs, t, &m, "u", i, 0), i + 1);
        pm_commit_messages_release(&m);
    }
    /* snapshot 6's base = merge of 5 manifests: the first 3 reached merge-min-count at
     * snapshot 4 and were merged into one; so the base stays short */
    s = read_snap(fs, t, 6);
    pm_arena_init(&a, 4096);
    assert_int_equal(pm_manifest_list_read(fs, t, s->base_manifest_list, s->base_manifest_list_size,
                                           &a, &metas, &n, &err),
                     0);
    assert_true(n < 5);
    /* partition stats of a merged manifest span both partitions */
    for (size_t i = 0; i < n; i++)
        if (metas[i].num_added_files > 1) {
            pm_binrow mn, mx;
            pm_datum dmn, dmx;
            pm_type *it = pm_type_new(PM_TYPE_INT);
            assert_int_equal(pm_binrow_deserialize(&mn, metas[i].partition_stats.min_values.ptr,
                                                   metas[i].partition_stats.min_values.len, &err),
                             0);
            assert_int_equal(pm_binrow_deserialize(&mx, metas[i].partition_stats.max_values.ptr,
                                                   metas[i].partition_stats.max_values.len, &err),
                             0);
            assert_int_equal(pm_binrow_get(&mn, 0, it, &dmn, &err), 0);
            assert_int_equal(pm_binrow_get(&mx, 0, it, &dmx, &err), 0);
            assert_int_equal(dmn.v.i, 0);
            assert_int_equal(dmx.v.i, 1);
            pm_type_free(it);
        }
    pm_arena_free(&a);
    pm_snapshot_free(s);
    assert_int_equal(live_count(fs, t, NULL), 6);
    pm_fs_free(fs);
    pm_free(t);
}

static void test_full_compaction_drops_deletes(void **state)
{
    const char *opts[] = {"manifest.full-compaction-threshold-size=1 b",
                          "manifest.target-file-size=64 kb"};
    char *t = make_table("commit_full", true, opts, 2);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    int64_t id;
    pm_arena a;
    pm_manifest_file_meta *metas;
    size_t n;
    pm_snapshot *s;
    (void)state;
    for (int i = 0; i < 3; i++) {
        char name[64];
        pm_commit_messages_init(&m);
        snprintf(name, sizeof(name), "data-f-%d.parquet", i);
        add_file(&m, PM_FILE_KIND_ADD, i, 0, name, 1);
        assert_int_equal(commit(fs, t, &m, "u", i, 0), i + 1);
        pm_commit_messages_release(&m);
    }
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, 0, 0, "data-f-new.parquet", 5);
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = 9;
    o.overwrite = true;
    assert_int_equal(pm_commit(fs, t, &m, &o, &id, &err), 0);
    pm_commit_messages_release(&m);
    /* one more commit: its base is the full compaction of 4 manifests incl. the DELETE */
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, 1, 0, "data-f-last.parquet", 1);
    assert_int_equal(commit(fs, t, &m, "u", 10, 0), 5);
    pm_commit_messages_release(&m);
    s = read_snap(fs, t, 5);
    pm_arena_init(&a, 4096);
    assert_int_equal(pm_manifest_list_read(fs, t, s->base_manifest_list, s->base_manifest_list_size,
                                           &a, &metas, &n, &err),
                     0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(metas[i].num_deleted_files, 0);
    pm_arena_free(&a);
    pm_snapshot_free(s);
    assert_int_equal(live_count(fs, t, NULL), 4);
    pm_fs_free(fs);
    pm_free(t);
}

/* LATEST left behind (a writer that died after its snapshot, before its hint): the first
 * attempt trusts the hint, meets the newer snapshot (its create-if-absent fails, or a DELETE
 * names a file only the newer snapshot has) and retries on the real latest: both commits
 * land, on top of snapshot 2, and nothing is lost. */
static void test_stale_latest_hint(void **state)
{
    char *t = make_table("commit_stale_hint", false, NULL, 0), *hint;
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    int64_t id = 0, rows = 0;
    pm_snapshot *s;
    (void)state;
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-h-1.parquet", 1);
    assert_int_equal(commit(fs, t, &m, "u", 1, 0), 1);
    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-h-2.parquet", 2);
    assert_int_equal(commit(fs, t, &m, "u", 2, 0), 2);
    pm_commit_messages_release(&m);
    hint = pm_table_file(t, PM_DIR_SNAPSHOT, "LATEST");
    pm_test_write_file(hint, "1", 1);
    /* an APPEND: the create of snapshot-2 fails, the retry makes 3 */
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-h-3.parquet", 3);
    assert_int_equal(commit(fs, t, &m, "u", 3, 0), 3);
    pm_commit_messages_release(&m);
    assert_int_equal(live_count(fs, t, &rows), 3);
    assert_int_equal(rows, 6);
    /* a compaction of a file only snapshots >= 2 name, with the hint at 1 again: no
     * conflict, it is the latest that counts */
    pm_test_write_file(hint, "1", 1);
    pm_commit_messages_init(&m);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_DELETE, -1, 0, 0, "data-h-2.parquet", 2);
    pm_test_add_entry(&m, PM_TEST_COMPACT, PM_FILE_KIND_ADD, -1, 0, 1, "data-h-2c.parquet", 2);
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = 4;
    o.kind = PM_COMMIT_COMPACT;
    if (pm_commit(fs, t, &m, &o, &id, &err) != 0)
        fail_msg("compaction over a stale hint: %s", err.message);
    assert_int_equal(id, 4);
    pm_commit_messages_release(&m);
    s = read_snap(fs, t, 4);
    assert_int_equal(s->commit_kind, PM_COMMIT_COMPACT);
    pm_snapshot_free(s);
    assert_int_equal(live_count(fs, t, &rows), 3);
    assert_int_equal(rows, 6);
    pm_free(hint);
    pm_fs_free(fs);
    pm_free(t);
}

static void test_index_carried_forward(void **state)
{
    char *t = make_table("commit_index", false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    pm_index_manifest_entry ie;
    pm_snapshot *s1, *s2;
    (void)state;
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-i-0.parquet", 1);
    memset(&ie, 0, sizeof(ie));
    ie.kind = PM_FILE_KIND_ADD;
    ie.partition.ptr = EMPTY_ROW;
    ie.partition.len = 12;
    ie.index_type = "HASH";
    ie.file_name = "index-x-0";
    ie.file_size = 8;
    ie.row_count = 2;
    assert_int_equal(pm_commit_messages_add_index(&m, &ie), 0);
    assert_int_equal(commit(fs, t, &m, "u", 1, 0), 1);
    pm_commit_messages_release(&m);
    pm_commit_messages_init(&m);
    add_file(&m, PM_FILE_KIND_ADD, -1, 0, "data-i-1.parquet", 1);
    assert_int_equal(commit(fs, t, &m, "u", 2, 0), 2);
    pm_commit_messages_release(&m);
    s1 = read_snap(fs, t, 1);
    s2 = read_snap(fs, t, 2);
    assert_non_null(s1->index_manifest);
    assert_string_equal(s1->index_manifest, s2->index_manifest);
    pm_snapshot_free(s1);
    pm_snapshot_free(s2);
    pm_fs_free(fs);
    pm_free(t);
}

/* ---- crashes --------------------------------------------------------------------------- */

/* After a failed or halted commit the table reads as before (1 snapshot, 1 file) or as
 * after (2 snapshots, 2 files), never anything else. */
static void check_before_or_after(const char *t)
{
    pm_fs *fs = pm_fs_local_new(false);
    int64_t latest;
    bool found;
    paimon_error err;
    assert_int_equal(pm_snapshot_latest_id(fs, t, &latest, &found, &err), 0);
    assert_true(found);
    assert_true(latest == 1 || latest == 2);
    assert_int_equal(live_count(fs, t, NULL), (size_t)latest);
    pm_fs_free(fs);
}

/* Files in the table's manifest directory. */
static size_t manifest_files(const char *t)
{
    pm_strlist names;
    char *dir = pm_table_file(t, PM_DIR_MANIFEST, NULL);
    size_t n;
    pm_strlist_init(&names);
    pm_test_find_files(dir, "", &names);
    n = names.count;
    pm_strlist_free(&names);
    pm_free(dir);
    return n;
}

static void crash_loop(pm_fault_mode mode)
{
    long total;
    /* how many operations a clean second commit takes */
    {
        char *t = make_table("crash_count", true, NULL, 0);
        pm_fs *base = pm_fs_local_new(false);
        pm_fs *fs;
        pm_commit_messages m;
        pm_commit_messages_init(&m);
        add_file(&m, PM_FILE_KIND_ADD, 1, 0, "data-c-0.parquet", 1);
        commit(base, t, &m, "u", 1, 0);
        pm_commit_messages_release(&m);
        fs = pm_fs_fault_new(base, 0, mode);
        pm_commit_messages_init(&m);
        add_file(&m, PM_FILE_KIND_ADD, 2, 0, "data-c-1.parquet", 1);
        commit(fs, t, &m, "u", 2, 0);
        pm_commit_messages_release(&m);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        pm_free(t);
    }
    assert_true(total > 10);
    for (long n = 1; n <= total + 1; n++) {
        char *t = make_table("crash", true, NULL, 0);
        pm_fs *base = pm_fs_local_new(false);
        pm_commit_messages m;
        pm_commit_messages_init(&m);
        add_file(&m, PM_FILE_KIND_ADD, 1, 0, "data-c-0.parquet", 1);
        commit(base, t, &m, "u", 1, 0);
        pm_commit_messages_release(&m);
        pm_fs_free(base);
        if (mode == PM_FAULT_FAIL) {
            pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
            pm_commit_opts o;
            paimon_error err;
            int64_t id;
            pm_commit_result res;
            int rc;
            pm_commit_messages_init(&m);
            add_file(&m, PM_FILE_KIND_ADD, 2, 0, "data-c-1.parquet", 1);
            memset(&o, 0, sizeof(o));
            o.commit_user = "u";
            o.identifier = 2;
            o.result = &res;
            rc = pm_commit(fs, t, &m, &o, &id, &err);
            pm_commit_messages_release(&m);
            pm_fs_free(fs);
            if (rc != 0) {
                /* a failure commits nothing; and unless its outcome is unknown or the failed
                 * operation was a removal, it leaves none of its manifests behind */
                check_before_or_after(t);
                assert_int_equal(pm_test_latest_snapshot(t), 1);
                if (!res.uncertain && strstr(err.message, "failure of remove") == NULL)
                    assert_int_equal(manifest_files(t), 3);
            }
        } else {
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
                pm_commit_opts o;
                paimon_error err;
                int64_t id;
                pm_commit_messages_init(&m);
                add_file(&m, PM_FILE_KIND_ADD, 2, 0, "data-c-1.parquet", 1);
                memset(&o, 0, sizeof(o));
                o.commit_user = "u";
                o.identifier = 2;
                _exit(pm_commit(fs, t, &m, &o, &id, &err) == 0 ? 0 : 1);
            } else {
                int status;
                waitpid(pid, &status, 0);
                assert_true(WIFEXITED(status));
                /* halted (77) before the end, or finished */
                assert_true(WEXITSTATUS(status) == PM_FS_HALT_EXIT || WEXITSTATUS(status) == 0);
            }
        }
        check_before_or_after(t);
        {
            char *dir = pm_strndup(t, strlen(t) - 2);
            pm_test_rmtree(dir);
            pm_free(dir);
        }
        pm_free(t);
    }
}

static void test_crash_fail_every_op(void **state)
{
    (void)state;
    crash_loop(PM_FAULT_FAIL);
}

static void test_crash_halt_every_op(void **state)
{
    (void)state;
    crash_loop(PM_FAULT_HALT);
}

/* ---- concurrency ----------------------------------------------------------------------- */

#define WRITERS 4
#define COMMITS 50

/* 4 processes x 50 commits to one table; on a primary-key table each writes its own
 * partition (two writers on one primary-key bucket are unsupported, as in Java). */
static void four_processes(bool pk)
{
    char *t = make_table_kind("commit_conc", true, pk, NULL, 0);
    pid_t pids[WRITERS];
    pm_fs *fs = pm_fs_local_new(false);
    int64_t latest;
    bool found;
    paimon_error err;
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            pm_fs *cfs = pm_fs_local_new(false);
            char user[32];
            int bad = 0;
            snprintf(user, sizeof(user), "writer-%d", w);
            for (int i = 0; i < COMMITS; i++) {
                pm_commit_messages m;
                pm_commit_opts o;
                char name[64];
                int64_t id;
                pm_commit_messages_init(&m);
                snprintf(name, sizeof(name), "data-w%d-%d.parquet", w, i);
                add_file(&m, PM_FILE_KIND_ADD, w, 0, name, 1);
                memset(&o, 0, sizeof(o));
                o.commit_user = user;
                o.identifier = i;
                if (pm_commit(cfs, t, &m, &o, &id, &err) != 0) {
                    fprintf(stderr, "%s commit %d: %s\n", user, i, err.message);
                    bad = 1;
                }
                pm_commit_messages_release(&m);
            }
            pm_fs_free(cfs);
            _exit(bad);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int status;
        waitpid(pids[w], &status, 0);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    assert_int_equal(pm_snapshot_latest_id(fs, t, &latest, &found, &err), 0);
    assert_int_equal(latest, WRITERS * COMMITS);
    /* every file exactly once */
    {
        pm_snapshot *s = read_snap(fs, t, latest);
        pm_arena a;
        const pm_manifest_entry **live;
        size_t n;
        pm_arena_init(&a, 4096);
        assert_int_equal(pm_snapshot_live_entries(fs, t, s, &a, &live, &n, &err), 0);
        assert_int_equal(n, WRITERS * COMMITS);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                assert_string_not_equal(live[i]->file.file_name, live[j]->file.file_name);
        assert_int_equal(s->total_record_count, WRITERS * COMMITS);
        pm_arena_free(&a);
        pm_snapshot_free(s);
    }
    pm_fs_free(fs);
    pm_free(t);
}

static void test_four_processes_append(void **state)
{
    (void)state;
    four_processes(false);
}

static void test_four_processes_primary_key(void **state)
{
    (void)state;
    four_processes(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_commits),
        cmocka_unit_test(test_overwrite),
        cmocka_unit_test(test_race_and_idempotence),
        cmocka_unit_test(test_manifest_merge),
        cmocka_unit_test(test_full_compaction_drops_deletes),
        cmocka_unit_test(test_index_carried_forward),
        cmocka_unit_test(test_stale_latest_hint),
        cmocka_unit_test(test_crash_fail_every_op),
        cmocka_unit_test(test_crash_halt_every_op),
        cmocka_unit_test(test_four_processes_append),
        cmocka_unit_test(test_four_processes_primary_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
