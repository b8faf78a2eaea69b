/*
 * Compacting with each allocation failing in turn (paimon_table_compact, the dedicated
 * compaction job): each failing run is PAIMON_ENOMEM, leaks nothing (LeakSanitizer checks
 * at exit) and leaves the table as before: the same latest snapshot, the same rows and the
 * same files (a failed compaction removes the files it wrote and the manifests of its
 * commit).  The run that completes makes a COMPACT snapshot with the same rows.  Cases: a
 * primary-key table with several files per bucket (full compaction), the same compacted as
 * the universal strategy picks, and an append table with unaware buckets and small files.
 */
#include <string.h>

#include "testlib.h"

#include "alloc_loop.h"
#include "table_state.h"

#include "paimon.h"
#include "paimon/write.h"
#include "util/alloc.h"

typedef struct compact_ctx {
    const char *path;
    paimon_table *table;
    int full;
    int64_t id; /* the COMPACT snapshot of the last run */
    pm_test_table_image before;
    long tolerated; /* runs that committed although an allocation failed (the hints) */
} compact_ctx;

static int compact_op(void *ctx, paimon_error *err)
{
    compact_ctx *c = ctx;
    paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
    o.full = c->full;
    o.commit_user = "alloc";
    c->id = 0;
    return paimon_table_compact(c->table, &o, &c->id, err);
}

static void compact_check(void *ctx, long n, int rc, int injected)
{
    compact_ctx *c = ctx;
    char *rows;
    if (rc != 0) {
        pm_test_table_image_check(c->path, &c->before, c->path, n);
        return;
    }
    /* compacted: a new snapshot, the same rows */
    assert_true(c->id > c->before.snapshot);
    assert_int_equal(pm_test_latest_snapshot(c->path), c->id);
    rows = pm_test_table_rows(c->path);
    assert_string_equal(rows, c->before.rows);
    pm_free(rows);
    if (injected) {
        /* only what follows the snapshot (the hints) may fail and be let go */
        c->tolerated++;
        pm_test_table_image_restore(c->path, &c->before);
        pm_test_table_image_check(c->path, &c->before, c->path, n);
    }
}

static void compact_loop(const char *tag, int pk, const char *const *opts, size_t nopt, int commits,
                         int full, long stride)
{
    compact_ctx c;
    paimon_error err;
    pm_test_alloc_loop_opts lo = {200, stride, 0};
    memset(&c, 0, sizeof(c));
    c.full = full;
    c.path = pm_test_alloc_table(tag, pk, opts, nopt);
    assert_int_equal(paimon_table_open(&c.table, c.path, &err), 0);
    /* one file per bucket and commit */
    for (int i = 0; i < commits; i++) {
        paimon_commit_messages *m;
        paimon_writer *w = NULL;
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        if (pm_test_write_rows(c.table, i * 20, i * 20 + 30, &w, m, &err) != 0 ||
            paimon_table_commit(c.table, m, NULL, NULL, &err) != 0)
            fail_msg("%s", err.message);
        paimon_writer_free(w);
        paimon_commit_messages_free(m);
    }
    pm_test_table_image_take(c.path, &c.before);
    pm_test_alloc_loop(tag, compact_op, compact_check, &c, &lo);
    /* the completed run compacted */
    assert_true(c.id > c.before.snapshot);
    pm_test_table_image_free(&c.before);
    paimon_table_free(c.table);
    pm_test_remove_table((char *)c.path);
}

/* Compaction makes thousands of allocations (reading and writing Parquet files of six
 * buckets): every one up to 200 is failed, then one in 50 (one in 30 for the append table). */

static void test_pk_full(void **state)
{
    /* write-only: the writers leave every file at level 0 */
    const char *opts[] = {"bucket=2", "write-only=true"};
    (void)state;
    compact_loop("alloc-compact-pk", 1, opts, 2, 3, 1, 50);
}

static void test_pk_universal(void **state)
{
    const char *opts[] = {"bucket=2", "write-only=true", "num-sorted-run.compaction-trigger=3"};
    (void)state;
    compact_loop("alloc-compact-pku", 1, opts, 3, 3, 0, 50);
}

static void test_append_unaware(void **state)
{
    /* three small files per partition, as many as compaction.min.file-num asks */
    const char *opts[] = {"bucket=-1", "compaction.min.file-num=3"};
    (void)state;
    compact_loop("alloc-compact-append", 0, opts, 2, 3, 0, 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pk_full),
        cmocka_unit_test(test_pk_universal),
        cmocka_unit_test(test_append_unaware),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
