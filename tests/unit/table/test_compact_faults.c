/* Compaction on a file system that fails, or halts the process, at its N-th operation, for
 * every N: afterwards the table reads its rows as before (compaction never changes them),
 * at the snapshot before or at the new COMPACT one, keeps its LSM shape (lsm_check.h), and
 * a clean compaction afterwards still works.  Two jobs: the dedicated `compact --full` of a
 * write-only table, and a write whose writer compacts before its commit (an APPEND snapshot
 * then a COMPACT one: a crash between them leaves the APPEND one, which reads as after).
 * The dedicated job runs once more on four buckets with four threads, failing each of its
 * operations in turn (352: about two minutes of CPU under ASan; its halting twin passed
 * too, but doubled that, and what it adds -- a forked child using the pool -- is
 * tests/unit/util/test_pool.c's test_fork_child_gets_own_pool). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#include "table_state.h"

#include "lsm_check.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "paimon/scan.h"
#include "table/commit.h"
#include "table/compact.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

/* Set by the full-compaction changelog case: tables get changelog-producer=full-compaction,
 * so the compaction under test also writes changelog files that a failure must not leave
 * committed half-way. */
static bool g_full_changelog;
/* Set by the lookup case: deletion vectors and changelog-producer=lookup, so the writer's
 * compaction looks keys up, marks deletion vectors (a new index file) and writes changelog
 * files, all of which a failure must not leave committed half-way. */
static bool g_lookup;
/* Set by the parallel case: four buckets compacted by four threads (issue 15), so failures
 * meet workers in flight on other buckets, whose files must go too. */
static bool g_parallel;

static char *create(const char *tag, bool write_only)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pk[1] = {"id"};
    const char *keys[5] = {"bucket", "num-sorted-run.compaction-trigger", "write-only",
                           "changelog-producer", "deletion-vectors.enabled"};
    const char *vals[5] = {g_parallel ? "4" : "1", "2", write_only ? "true" : "false",
                           g_lookup ? "lookup" : "full-compaction", "true"};
    paimon_error err;
    co.columns = "id BIGINT NOT NULL, v STRING";
    co.primary_keys = pk;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = g_lookup ? 5 : g_full_changelog ? 4 : 3;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

/* Upserts keys [from, to) % 50 (every 7th row a delete) and commits. */
static int write_commit(pm_fs *fs, const char *t, int from, int to, int64_t ident)
{
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "u", false};
    pm_commit_messages m;
    pm_commit_opts o;
    pm_batch *b = NULL;
    int8_t *kinds = pm_calloc((size_t)(to - from) + 1, 1);
    paimon_error err;
    int64_t id;
    int rc;
    pm_commit_messages_init(&m);
    if ((rc = pm_table_write_new(&w, fs, t, &wo, &err)) != 0)
        goto done;
    if ((rc = pm_batch_new(&b, pm_table_write_type(w), &err)) != 0)
        goto done;
    for (int i = from; i < to; i++) {
        char v[32];
        int n = snprintf(v, sizeof(v), "value-%d", i);
        pm_column_append_i64(b->columns[0], i % 50);
        pm_column_append_bytes(b->columns[1], v, (size_t)n);
        kinds[i - from] = i % 7 == 3 ? 3 : 0;
    }
    if (pm_batch_set_rows(b, to - from, &err) != 0)
        fail_msg("%s", err.message);
    if ((rc = pm_table_write_batch(w, b, kinds, &err)) != 0 ||
        (rc = pm_table_write_prepare(w, &m, &err)) != 0)
        goto done;
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = ident;
    rc = pm_commit(fs, t, &m, &o, &id, &err);
done:
    pm_free(kinds);
    pm_batch_free(b);
    pm_table_write_free(w);
    pm_commit_messages_release(&m);
    return rc;
}

static int compact_full(pm_fs *fs, const char *t)
{
    pm_compact_opts o;
    paimon_error err;
    int64_t id;
    memset(&o, 0, sizeof(o));
    o.full = true;
    o.commit_user = "c";
    o.threads = g_parallel ? 4 : 1;
    return pm_table_compact(fs, t, &o, &id, NULL, NULL, &err);
}

/* The changelog records the latest snapshot lists (0 without a changelog manifest list). */
static int64_t latest_changelog_records(const char *t)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *snap = NULL;
    int64_t n;
    assert_int_equal(pm_snapshot_read(fs, t, pm_test_latest_snapshot(t), &snap, NULL), 0);
    n = snap->changelog_manifest_list != NULL && snap->changelog_record_count > 0
            ? snap->changelog_record_count
            : 0;
    pm_snapshot_free(snap);
    pm_fs_free(fs);
    return n;
}

/* The table as the loop starts it: four commits, level-0 files only when write-only. */
static char *prepare(bool write_only)
{
    char *t = create("cfault", write_only);
    pm_fs *fs = pm_fs_local_new(false);
    for (int c = 0; c < 4; c++)
        assert_int_equal(write_commit(fs, t, c * 40, c * 40 + 60, c + 1), 0);
    pm_fs_free(fs);
    return t;
}

/* The job under test: the dedicated compaction, or a write whose writer compacts. */
static int job(pm_fs *fs, const char *t, bool dedicated)
{
    return dedicated ? compact_full(fs, t) : write_commit(fs, t, 500, 560, 9);
}

static void fault_loop(bool dedicated, pm_fault_mode mode)
{
    char *before, *after, msg[512];
    long total;
    int64_t id_before, id_after;
    {
        char *t = prepare(dedicated);
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, mode);
        int top = -1;
        before = pm_test_table_rows(t);
        id_before = pm_test_latest_snapshot(t);
        assert_int_equal(job(fs, t, dedicated), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        after = pm_test_table_rows(t);
        id_after = pm_test_latest_snapshot(t);
        assert_int_equal(pm_test_check_lsm(t, msg, sizeof(msg), &top, NULL), 0);
        assert_true(top >= 1);            /* it did compact */
        if (g_full_changelog || g_lookup) /* and wrote its changelog with the COMPACT one */
            assert_true(latest_changelog_records(t) > 0);
        pm_test_remove_table(t);
    }
    assert_true(total > 20);
    assert_true(id_after > id_before);
    if (dedicated)
        assert_string_equal(before, after);
    printf("every one of %ld file-system operations of a %s %s\n", total,
           dedicated ? "compaction" : "write with compaction",
           mode == PM_FAULT_FAIL ? "fails in turn" : "halts the process in turn");
    for (long n = 1; n <= total + 1; n++) {
        char *t = prepare(dedicated), *got;
        int64_t id;
        if (mode == PM_FAULT_FAIL) {
            pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
            (void)job(fs, t, dedicated);
            pm_fs_free(fs);
        } else {
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
                _exit(job(fs, t, dedicated) == 0 ? 0 : 1);
            } else {
                int status;
                waitpid(pid, &status, 0);
                assert_true(WIFEXITED(status));
                assert_true(WEXITSTATUS(status) == PM_FS_HALT_EXIT || WEXITSTATUS(status) == 0);
            }
        }
        got = pm_test_table_rows(t);
        id = pm_test_latest_snapshot(t);
        if (strcmp(got, before) != 0 && strcmp(got, after) != 0)
            fail_msg("operation %ld of %ld: the table reads neither as before nor as after", n,
                     total);
        if (id < id_before || id > id_after)
            fail_msg("operation %ld: latest snapshot %lld, not in [%lld, %lld]", n, (long long)id,
                     (long long)id_before, (long long)id_after);
        if (pm_test_check_lsm(t, msg, sizeof(msg), NULL, NULL) != 0)
            fail_msg("operation %ld: %s", n, msg);
        /* still usable: a clean compaction afterwards reads the same */
        {
            pm_fs *fs = pm_fs_local_new(false);
            char *again;
            assert_int_equal(compact_full(fs, t), 0);
            pm_fs_free(fs);
            again = pm_test_table_rows(t);
            /* A deletion-vector table whose APPEND snapshot was committed but whose COMPACT
             * one failed holds the new rows in level 0, which its batch reads skip (as
             * Java's do): the compaction then shows them, so it reads as after. */
            if (!(g_lookup && strcmp(again, after) == 0))
                assert_string_equal(again, got);
            pm_free(again);
        }
        pm_free(got);
        pm_test_remove_table(t);
    }
    pm_free(before);
    pm_free(after);
}

static void test_compact_fail(void **state)
{
    (void)state;
    fault_loop(true, PM_FAULT_FAIL);
}

static void test_compact_halt(void **state)
{
    (void)state;
    fault_loop(true, PM_FAULT_HALT);
}

static void test_parallel_compact_fail(void **state)
{
    (void)state;
    g_parallel = true;
    fault_loop(true, PM_FAULT_FAIL);
    g_parallel = false;
}

static void test_full_changelog_compact_fail(void **state)
{
    (void)state;
    g_full_changelog = true;
    fault_loop(true, PM_FAULT_FAIL);
    g_full_changelog = false;
}

static void test_writer_compaction_fail(void **state)
{
    (void)state;
    fault_loop(false, PM_FAULT_FAIL);
}

static void test_lookup_writer_compaction_fail(void **state)
{
    (void)state;
    g_lookup = true;
    fault_loop(false, PM_FAULT_FAIL);
    g_lookup = false;
}

static void test_writer_compaction_halt(void **state)
{
    (void)state;
    fault_loop(false, PM_FAULT_HALT);
}

/* Two compactions planned on the same snapshot: the first commits, the second names files
 * that are no longer live and is refused by the conflict check (PAIMON_ECONFLICT), leaving
 * the table as the first left it. */
static void test_concurrent_compactions_conflict(void **state)
{
    char *t = prepare(true), *before, *after, msg[512];
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *a = NULL, *b = NULL;
    pm_table_write_opts wo = {false, "c", true};
    pm_commit_messages ma, mb;
    pm_commit_opts o;
    paimon_error err;
    int64_t id_a = 0, id_b = 0, latest_id;
    (void)state;
    pm_commit_messages_init(&ma);
    pm_commit_messages_init(&mb);
    before = pm_test_table_rows(t);
    assert_int_equal(pm_table_write_new(&a, fs, t, &wo, &err), 0);
    assert_int_equal(pm_table_write_new(&b, fs, t, &wo, &err), 0);
    assert_int_equal(pm_table_write_compact(a, true, NULL, NULL, &ma, &err), 0);
    assert_int_equal(pm_table_write_compact(b, true, NULL, NULL, &mb, &err), 0);
    assert_true(ma.compact_count > 0 && mb.compact_count > 0);
    memset(&o, 0, sizeof(o));
    o.commit_user = "c";
    o.identifier = 1;
    o.kind = PM_COMMIT_COMPACT;
    assert_int_equal(pm_commit(fs, t, &ma, &o, &id_a, &err), 0);
    latest_id = pm_test_latest_snapshot(t);
    assert_int_equal(id_a, latest_id);
    o.commit_user = "d";
    assert_int_equal(pm_commit(fs, t, &mb, &o, &id_b, &err), PAIMON_ECONFLICT);
    assert_int_equal(pm_test_latest_snapshot(t), latest_id);
    after = pm_test_table_rows(t);
    assert_string_equal(before, after);
    assert_int_equal(pm_test_check_lsm(t, msg, sizeof(msg), NULL, NULL), 0);
    pm_table_write_free(a);
    pm_table_write_free(b);
    pm_commit_messages_release(&ma);
    pm_commit_messages_release(&mb);
    pm_fs_free(fs);
    pm_free(before);
    pm_free(after);
    pm_test_remove_table(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_compactions_conflict),
        cmocka_unit_test(test_compact_fail),
        cmocka_unit_test(test_compact_halt),
        cmocka_unit_test(test_full_changelog_compact_fail),
        cmocka_unit_test(test_parallel_compact_fail),
        cmocka_unit_test(test_writer_compaction_fail),
        cmocka_unit_test(test_lookup_writer_compaction_fail),
        cmocka_unit_test(test_writer_compaction_halt),
    };
    /* PAIMON_TEST_FILTER=pattern runs the matching cases only (for hunting by hand) */
    if (getenv("PAIMON_TEST_FILTER") != NULL)
        cmocka_set_test_filter(getenv("PAIMON_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
