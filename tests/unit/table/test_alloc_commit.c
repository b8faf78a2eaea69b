/*
 * Committing with each allocation failing in turn (paimon_table_commit of messages a writer
 * prepared): each failing run is PAIMON_ENOMEM, certain (result->uncertain stays 0), leaks
 * nothing (LeakSanitizer checks at exit) and leaves the table as before: the same latest
 * snapshot, the same rows and the same files (the manifests and manifest lists a failed
 * attempt wrote are removed).  The run that completes gives the rows a commit without
 * failures gives.  Cases: a primary-key table with fixed buckets over three partitions; the
 * same with the writers' compaction in the messages (two snapshots, APPEND and COMPACT); an
 * append table with unaware buckets; an overwrite.
 */
#include <string.h>

#include "testlib.h"

#include "alloc_loop.h"
#include "table_state.h"

#include "paimon.h"
#include "paimon/write.h"
#include "util/alloc.h"

typedef struct commit_ctx {
    const char *path;
    paimon_table *table;
    paimon_commit_messages *messages;
    int overwrite;
    paimon_commit_result result;
    int64_t id;
    pm_test_table_image before;
    char *after_rows; /* the rows after a commit without failures */
    long tolerated;   /* runs that committed although an allocation failed */
} commit_ctx;

static int commit_op(void *ctx, paimon_error *err)
{
    commit_ctx *c = ctx;
    paimon_commit_options o = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_commit_result r = PAIMON_COMMIT_RESULT_INIT;
    c->result = r;
    o.commit_user = "alloc";
    o.identifier = 2;
    o.overwrite = c->overwrite;
    o.result = &c->result;
    c->id = 0;
    return paimon_table_commit(c->table, c->messages, &o, &c->id, err);
}

static void commit_check(void *ctx, long n, int rc, int injected)
{
    commit_ctx *c = ctx;
    char *rows;
    if (rc != 0) {
        if (c->result.uncertain)
            fail_msg("%s: allocation %ld: the commit says it cannot tell what it did", c->path, n);
        pm_test_table_image_check(c->path, &c->before, c->path, n);
        return;
    }
    /* Committed.  With an allocation failing, only what follows the snapshot may have
     * failed: the LATEST and EARLIEST hints, or the COMPACT snapshot of the writers'
     * compaction after the data's (reported in compact_err, its files removed). */
    assert_true(c->id > c->before.snapshot);
    if (c->result.compact_err.code != 0 &&
        (!injected || c->result.compact_err.code != PAIMON_ENOMEM ||
         strstr(c->result.compact_err.message, "out of memory") == NULL))
        fail_msg("%s: allocation %ld: compaction part: %d %s", c->path, n,
                 c->result.compact_err.code, c->result.compact_err.message);
    rows = pm_test_table_rows(c->path);
    assert_string_equal(rows, c->after_rows);
    pm_free(rows);
    if (injected) {
        c->tolerated++;
        pm_test_table_image_restore(c->path, &c->before);
        pm_test_table_image_check(c->path, &c->before, c->path, n);
    }
}

/* Writes and commits rows [0, 150) into a new table, then prepares rows [150, 300);
 * returns the table's path with `t` and `m` open. */
static char *prepare(const char *tag, int pk, const char *const *opts, size_t nopt,
                     paimon_table **t, paimon_commit_messages **m)
{
    char *path = pm_test_alloc_table(tag, pk, opts, nopt);
    paimon_commit_options o = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_writer *w = NULL;
    paimon_error err;
    o.commit_user = "alloc";
    o.identifier = 1;
    assert_int_equal(paimon_table_open(t, path, &err), 0);
    assert_int_equal(paimon_commit_messages_new(m, &err), 0);
    if (pm_test_write_rows(*t, 0, 150, &w, *m, &err) != 0 ||
        paimon_table_commit(*t, *m, &o, NULL, &err) != 0)
        fail_msg("%s", err.message);
    paimon_writer_free(w);
    paimon_commit_messages_free(*m);
    assert_int_equal(paimon_commit_messages_new(m, &err), 0);
    if (pm_test_write_rows(*t, 150, 300, &w, *m, &err) != 0)
        fail_msg("%s", err.message);
    paimon_writer_free(w);
    return path;
}

static void commit_loop(const char *tag, int pk, const char *const *opts, size_t nopt,
                        int overwrite)
{
    commit_ctx c;
    char *ref;
    paimon_error err;
    /* every allocation up to 200, then one in 2: a commit makes 200 to 500 */
    pm_test_alloc_loop_opts lo = {200, 2, 0};
    memset(&c, 0, sizeof(c));
    c.overwrite = overwrite;
    /* the rows a commit without failures gives */
    ref = prepare(tag, pk, opts, nopt, &c.table, &c.messages);
    assert_int_equal(commit_op(&c, &err), 0);
    c.after_rows = pm_test_table_rows(ref);
    paimon_commit_messages_free(c.messages);
    paimon_table_free(c.table);
    pm_test_remove_table(ref);

    c.path = prepare(tag, pk, opts, nopt, &c.table, &c.messages);
    pm_test_table_image_take(c.path, &c.before);
    assert_string_not_equal(c.before.rows, c.after_rows);
    pm_test_alloc_loop(tag, commit_op, commit_check, &c, &lo);
    /* the loop reached the steps after the snapshot (the hints) */
    assert_true(c.tolerated > 0);
    pm_test_table_image_free(&c.before);
    pm_free(c.after_rows);
    paimon_commit_messages_free(c.messages);
    paimon_table_free(c.table);
    pm_test_remove_table((char *)c.path);
}

static void test_pk(void **state)
{
    const char *opts[] = {"bucket=2"};
    (void)state;
    commit_loop("alloc-commit-pk", 1, opts, 1, 0);
}

static void test_pk_with_compaction(void **state)
{
    /* two sorted runs trigger the writers' compaction: the messages carry it */
    const char *opts[] = {"bucket=2", "num-sorted-run.compaction-trigger=2"};
    (void)state;
    commit_loop("alloc-commit-pkc", 1, opts, 2, 0);
}

static void test_append(void **state)
{
    const char *opts[] = {"bucket=-1"};
    (void)state;
    commit_loop("alloc-commit-append", 0, opts, 1, 0);
}

static void test_overwrite(void **state)
{
    const char *opts[] = {"bucket=2"};
    (void)state;
    commit_loop("alloc-commit-ow", 1, opts, 1, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pk),
        cmocka_unit_test(test_pk_with_compaction),
        cmocka_unit_test(test_append),
        cmocka_unit_test(test_overwrite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
