/*
 * Writing with each allocation failing in turn, through the public writer API: open a writer
 * of a table that has rows already (a primary-key writer restores its buckets' files), write
 * rows one at a time over three partitions, prepare the commit.  Each failing run is
 * PAIMON_ENOMEM and leaks nothing (LeakSanitizer checks at exit); freeing the writer and
 * aborting the messages then leaves the table's files as they were.  The run that completes
 * prepares messages that commit the rows a write without failures gives.  Cases: a
 * primary-key table with fixed buckets (with the writers' compaction at two sorted runs), an
 * append table with unaware buckets, and one with ORC data files.
 */
#include <string.h>

#include "testlib.h"

#include "alloc_loop.h"
#include "table_state.h"

#include "paimon.h"
#include "paimon/write.h"
#include "util/alloc.h"

typedef struct writer_ctx {
    const char *path;
    paimon_table *table;
    paimon_writer *writer;
    paimon_commit_messages *messages;
    pm_test_table_image before;
    char *after_rows; /* the rows after a write and commit without failures */
} writer_ctx;

static int write_op(void *ctx, paimon_error *err)
{
    writer_ctx *c = ctx;
    return pm_test_write_rows(c->table, 150, 300, &c->writer, c->messages, err);
}

static void write_check(void *ctx, long n, int rc, int injected)
{
    writer_ctx *c = ctx;
    paimon_error err;
    paimon_writer_free(c->writer);
    c->writer = NULL;
    if (rc == 0 && injected)
        fail_msg("%s: allocation %ld failed, yet the write reports success", c->path, n);
    if (rc == 0) {
        /* the messages commit the rows a write without failures gives */
        paimon_commit_options o = PAIMON_COMMIT_OPTIONS_INIT;
        char *rows;
        assert_true(paimon_commit_messages_count(c->messages) > 0);
        if (paimon_table_commit(c->table, c->messages, &o, NULL, &err) != 0)
            fail_msg("%s", err.message);
        rows = pm_test_table_rows(c->path);
        assert_string_equal(rows, c->after_rows);
        pm_free(rows);
        return;
    }
    /* a failed prepare may have added messages: aborting them releases their files */
    if (paimon_commit_messages_abort(c->table, c->messages, &err) != 0)
        fail_msg("%s", err.message);
    paimon_commit_messages_free(c->messages);
    assert_int_equal(paimon_commit_messages_new(&c->messages, &err), 0);
    pm_test_table_files_check(c->path, &c->before, c->path, n);
}

/* A new table with rows [0, 150) committed, open in `t`. */
static char *prepare(const char *tag, int pk, const char *const *opts, size_t nopt,
                     paimon_table **t)
{
    char *path = pm_test_alloc_table(tag, pk, opts, nopt);
    paimon_commit_messages *m;
    paimon_writer *w = NULL;
    paimon_error err;
    assert_int_equal(paimon_table_open(t, path, &err), 0);
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    if (pm_test_write_rows(*t, 0, 150, &w, m, &err) != 0 ||
        paimon_table_commit(*t, m, NULL, NULL, &err) != 0)
        fail_msg("%s", err.message);
    paimon_writer_free(w);
    paimon_commit_messages_free(m);
    return path;
}

static void writer_loop(const char *tag, int pk, const char *const *opts, size_t nopt, long stride)
{
    writer_ctx c;
    paimon_error err;
    pm_test_alloc_loop_opts lo = {200, stride, 0};
    memset(&c, 0, sizeof(c));
    /* the rows a write without failures gives */
    {
        char *ref = prepare(tag, pk, opts, nopt, &c.table);
        paimon_commit_messages *m;
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        if (pm_test_write_rows(c.table, 150, 300, &c.writer, m, &err) != 0 ||
            paimon_table_commit(c.table, m, NULL, NULL, &err) != 0)
            fail_msg("%s", err.message);
        paimon_writer_free(c.writer);
        c.writer = NULL;
        paimon_commit_messages_free(m);
        paimon_table_free(c.table);
        c.after_rows = pm_test_table_rows(ref);
        pm_test_remove_table(ref);
    }
    c.path = prepare(tag, pk, opts, nopt, &c.table);
    assert_int_equal(paimon_commit_messages_new(&c.messages, &err), 0);
    pm_test_table_image_take(c.path, &c.before);
    assert_string_not_equal(c.before.rows, c.after_rows);
    pm_test_alloc_loop(tag, write_op, write_check, &c, &lo);
    pm_test_table_image_free(&c.before);
    pm_free(c.after_rows);
    paimon_commit_messages_free(c.messages);
    paimon_table_free(c.table);
    pm_test_remove_table((char *)c.path);
}

static void test_pk(void **state)
{
    const char *opts[] = {"bucket=2", "num-sorted-run.compaction-trigger=2"};
    (void)state;
    /* every allocation up to 200, then one in 10 of its 3,700 (mostly per row and batch) */
    writer_loop("alloc-writer-pk", 1, opts, 2, 10);
}

static void test_append(void **state)
{
    const char *opts[] = {"bucket=-1"};
    (void)state;
    /* every allocation up to 200, then one in 3 of its 600 */
    writer_loop("alloc-writer-append", 0, opts, 1, 3);
}

static void test_append_orc(void **state)
{
    const char *opts[] = {"bucket=-1", "file.format=orc"};
    (void)state;
    /* every allocation up to 200, then one in 3 of its 700 */
    writer_loop("alloc-writer-orc", 0, opts, 2, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pk),
        cmocka_unit_test(test_append),
        cmocka_unit_test(test_append_orc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
