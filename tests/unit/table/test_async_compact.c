/* The writer's compaction in the background (table/write/bucket_writer.h), on 1 and on 4
 * threads, its results taken at fixed points (PM_COMPACT_ASYNC_FIXED):
 *  - a commit does not wait for the compaction its prepare started (the compaction lands in
 *    the next commit), except where Java's writer waits: the end of the input;
 *  - a compaction that fails in the background is the error of the writer's next call,
 *    names the file it could not read, and nothing of it is committed: the table holds the
 *    commits made before, whole;
 *  - a session of commits on a file system that fails at its N-th operation (every 12th N,
 *    from different starts on 1 and 4 threads, to keep the test short) leaves the table as
 *    it was after one of the session's commits, never in between.
 * And with Java's rule (PM_COMPACT_ASYNC) on 4 threads: a commit whose compaction has not
 * run yet (every worker of the pool kept busy) neither runs it nor waits for it, and the
 * end of the input still takes it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#include "lsm_check.h"
#include "table_state.h"

#include "paimon.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

static unsigned g_threads = 1;
static pm_compact_mode g_mode = PM_COMPACT_ASYNC_FIXED;

static char *create(const char *tag)
{
    static const char *const options[] = {"bucket=2", "num-sorted-run.compaction-trigger=2", NULL};
    return pm_test_create_table(tag, "id BIGINT NOT NULL, v STRING", "id", options);
}

static pm_table_write *open_write(pm_fs *fs, const char *t, paimon_error *err, int *rc)
{
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "u", false};
    if ((*rc = pm_table_write_new(&w, fs, t, &wo, err)) == 0)
        pm_table_write_set_threads(w, g_threads, g_mode);
    return w;
}

/* Upserts keys [from, to) % 30 into `w`. */
static int put_rows(pm_table_write *w, int from, int to, paimon_error *err)
{
    pm_batch *b = NULL;
    int rc;
    if ((rc = pm_batch_new(&b, pm_table_write_type(w), err)) != 0)
        return rc;
    for (int i = from; i < to; i++) {
        char v[32];
        int n = snprintf(v, sizeof(v), "value-%d", i);
        pm_column_append_i64(b->columns[0], i % 30);
        pm_column_append_bytes(b->columns[1], v, (size_t)n);
    }
    if ((rc = pm_batch_set_rows(b, to - from, err)) == 0)
        rc = pm_table_write_batch(w, b, NULL, err);
    pm_batch_free(b);
    return rc;
}

/* Prepares and commits (identifier `ident`); `*compacted`: the messages hold compact
 * entries. */
static int prepare_commit(pm_fs *fs, const char *t, pm_table_write *w, int64_t ident,
                          pm_commit_messages *m, bool *compacted, paimon_error *err)
{
    pm_commit_opts o;
    int64_t id;
    int rc;
    pm_commit_messages_init(m);
    if ((rc = pm_table_write_prepare(w, m, err)) != 0)
        return rc;
    if (compacted != NULL)
        *compacted = m->compact_count > 0;
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = ident;
    return pm_commit(fs, t, m, &o, &id, err);
}

#define SESSION_COMMITS 5

/* One writer, five commits of 40 rows each, the last after the end of the input.  `states`
 * (may be NULL) receives the rows after each commit. */
static int session(pm_fs *fs, const char *t, char **states)
{
    paimon_error err;
    pm_commit_messages m;
    int rc;
    pm_table_write *w = open_write(fs, t, &err, &rc);
    pm_commit_messages_init(&m);
    for (int c = 0; rc == 0 && c < SESSION_COMMITS; c++) {
        if ((rc = put_rows(w, c * 40, c * 40 + 40, &err)) != 0)
            break;
        if (c == SESSION_COMMITS - 1)
            pm_table_write_end_input(w);
        pm_commit_messages_release(&m);
        if ((rc = prepare_commit(fs, t, w, c + 1, &m, NULL, &err)) != 0)
            break;
        if (states != NULL)
            states[c] = pm_test_table_rows(t);
    }
    pm_commit_messages_release(&m);
    pm_table_write_free(w);
    return rc;
}

/* Commits land without waiting; the compaction a commit started lands in the next. */
static void check_lands_later(void)
{
    char *t = create("async-later");
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    paimon_error err;
    bool compacted[4];
    int rc, top = -1;
    char msg[256];
    pm_table_write *w = open_write(fs, t, &err, &rc);
    assert_int_equal(rc, 0);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(put_rows(w, c * 40, c * 40 + 40, &err), 0);
        if (c == 3)
            pm_table_write_end_input(w);
        if (prepare_commit(fs, t, w, c + 1, &m, &compacted[c], &err) != 0)
            fail_msg("commit %d: %s", c, err.message);
        pm_commit_messages_release(&m);
    }
    /* commit 2 made the second sorted run of each bucket (trigger 2): its compaction started
     * then and lands with commit 3; the last commit, after the end of the input, waits */
    assert_false(compacted[0]);
    assert_false(compacted[1]);
    assert_true(compacted[2]);
    assert_true(compacted[3]);
    assert_int_equal(pm_test_check_lsm(t, msg, sizeof(msg), &top, NULL), 0);
    pm_table_write_free(w);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* A compaction that fails in the background: the next call of the writer says why. */
static void check_failure_surfaces(void)
{
    char *t = create("async-fail"), *rows, path[4096], hidden[4200], name[256], msg[256];
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_messages m;
    paimon_error err;
    int rc;
    int64_t latest;
    pm_table_write *w = open_write(fs, t, &err, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(put_rows(w, 0, 40, &err), 0);
    assert_int_equal(prepare_commit(fs, t, w, 1, &m, NULL, &err), 0);
    /* a file of commit 1 disappears: the compaction commit 2 starts cannot read it */
    assert_true(m.data_count > 0);
    snprintf(path, sizeof(path), "%s/bucket-%d/%s", t, (int)m.data[0].bucket,
             m.data[0].file.file_name);
    snprintf(hidden, sizeof(hidden), "%s.hidden", path);
    assert_int_equal(rename(path, hidden), 0);
    snprintf(name, sizeof(name), "%s", m.data[0].file.file_name);
    pm_commit_messages_release(&m);
    assert_int_equal(put_rows(w, 40, 80, &err), 0);
    /* the prepare does not wait for it: commit 2 lands, with no compaction */
    assert_int_equal(prepare_commit(fs, t, w, 2, &m, NULL, &err), 0);
    pm_commit_messages_release(&m);
    latest = pm_test_latest_snapshot(t);
    /* the next call fails, naming the file (the batch when the failure is known by then,
     * else the prepare, which waits for the compaction) */
    rc = put_rows(w, 80, 120, &err);
    if (rc == 0) {
        pm_commit_messages_init(&m);
        rc = pm_table_write_prepare(w, &m, &err);
        pm_commit_messages_release(&m);
    }
    assert_int_not_equal(rc, 0);
    if (strstr(err.message, name) == NULL || strchr(err.message, '\n') != NULL)
        fail_msg("unclear: %s", err.message);
    pm_table_write_free(w);
    /* nothing more was committed; with the file back, the table reads whole: the 30 keys
     * of commits 1 and 2 */
    assert_int_equal(pm_test_latest_snapshot(t), latest);
    assert_int_equal(rename(hidden, path), 0);
    assert_int_equal(pm_test_check_lsm(t, msg, sizeof(msg), NULL, NULL), 0);
    rows = pm_test_table_rows(t);
    assert_non_null(strstr(rows, "value-79"));
    pm_free(rows);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

/* Row images, an empty table's being NULL. */
static bool same(const char *a, const char *b)
{
    return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* Every file-system operation of a session fails in turn. */
static void check_faults(void)
{
    char *states[SESSION_COMMITS] = {NULL}, *empty, msg[512];
    long total;
    {
        char *t = create("async-count");
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, PM_FAULT_FAIL);
        empty = pm_test_table_rows(t);
        assert_int_equal(session(fs, t, states), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        pm_test_remove_table(t);
    }
    assert_true(total > 50);
    printf("every 12th of %ld file-system operations of a session on %u thread(s) fails in turn\n",
           total, g_threads);
    /* every 12th operation (some 70 sessions, about 20 s), from a different first one on 1
     * and on 4 threads */
    for (long n = g_threads > 1 ? 7 : 1; n <= total + 1; n += 12) {
        char *t = create("async-fault"), *got;
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, PM_FAULT_FAIL);
        bool known = false;
        (void)session(fs, t, NULL);
        pm_fs_free(fs);
        got = pm_test_table_rows(t);
        known = same(got, empty);
        for (int c = 0; c < SESSION_COMMITS && !known; c++)
            known = same(got, states[c]);
        if (!known)
            fail_msg("operation %ld of %ld: the table reads as after none of the commits", n,
                     total);
        if (pm_test_check_lsm(t, msg, sizeof(msg), NULL, NULL) != 0)
            fail_msg("operation %ld: %s", n, msg);
        pm_free(got);
        pm_test_remove_table(t);
    }
    for (int c = 0; c < SESSION_COMMITS; c++)
        pm_free(states[c]);
    pm_free(empty);
}

/* Tasks that keep every worker of a pool busy until released. */
typedef struct blockers {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t started;
    bool released;
} blockers;

static int block_task(void *arg, paimon_error *err)
{
    blockers *b = arg;
    (void)err;
    pthread_mutex_lock(&b->lock);
    b->started++;
    pthread_cond_broadcast(&b->cond);
    while (!b->released)
        pthread_cond_wait(&b->cond, &b->lock);
    pthread_mutex_unlock(&b->lock);
    return 0;
}

/* Java's rule: a compaction that has not finished is neither waited for nor run by the
 * commits that follow; the end of the input takes it.  Its task cannot start while every
 * worker is busy, and a waiter would run it itself (util/pool.h): a commit that waited for
 * it would hold its result. */
static void check_takes_only_finished(void)
{
    char *t = create("async-java"), msg[256], *before, *after;
    pm_fs *fs = pm_fs_local_new(false);
    pm_pool *pool = pm_pool_shared(4);
    size_t workers = pm_pool_threads(pool);
    blockers b = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false};
    pm_group busy;
    pm_commit_messages m;
    paimon_error err;
    bool compacted[4];
    int rc, top = -1;
    pm_table_write *w = open_write(fs, t, &err, &rc);
    assert_int_equal(rc, 0);
    pm_group_init(&busy, pool);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(put_rows(w, c * 40, c * 40 + 40, &err), 0);
        if (c == 1) { /* commit 2 starts the compaction: no worker can run it */
            for (size_t i = 0; i < workers; i++)
                assert_int_equal(pm_group_submit(&busy, block_task, &b, &err), 0);
            pthread_mutex_lock(&b.lock);
            while (b.started < workers)
                pthread_cond_wait(&b.cond, &b.lock);
            pthread_mutex_unlock(&b.lock);
        }
        if (c == 3) { /* the workers free again; the end of the input waits */
            pthread_mutex_lock(&b.lock);
            b.released = true;
            pthread_cond_broadcast(&b.cond);
            pthread_mutex_unlock(&b.lock);
            assert_int_equal(pm_group_wait(&busy, &err), 0);
            pm_table_write_end_input(w);
        }
        before = pm_test_table_rows(t);
        if (prepare_commit(fs, t, w, c + 1, &m, &compacted[c], &err) != 0)
            fail_msg("commit %d: %s", c, err.message);
        pm_commit_messages_release(&m);
        after = pm_test_table_rows(t);
        assert_true(before == NULL || strcmp(before, after) != 0);
        pm_free(before);
        pm_free(after);
    }
    pm_group_destroy(&busy);
    /* commit 2 made the second sorted run of each bucket (trigger 2) and started its
     * compaction; commit 3 found it not run and went on; commit 4 waited for it */
    assert_false(compacted[0]);
    assert_false(compacted[1]);
    assert_false(compacted[2]);
    assert_true(compacted[3]);
    assert_int_equal(pm_test_check_lsm(t, msg, sizeof(msg), &top, NULL), 0);
    assert_true(top >= 1);
    pm_table_write_free(w);
    pm_fs_free(fs);
    pm_test_remove_table(t);
}

static void test_one_thread(void **state)
{
    (void)state;
    g_threads = 1;
    check_lands_later();
    check_failure_surfaces();
    check_faults();
}

static void test_four_threads(void **state)
{
    (void)state;
    g_threads = 4;
    check_lands_later();
    check_failure_surfaces();
    check_faults();
}

static void test_java_rule(void **state)
{
    (void)state;
    g_threads = 4;
    g_mode = PM_COMPACT_ASYNC;
    check_takes_only_finished();
    g_mode = PM_COMPACT_ASYNC_FIXED;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread),
        cmocka_unit_test(test_four_threads),
        cmocka_unit_test(test_java_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
