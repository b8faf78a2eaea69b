/* A write and its commit on a file system that fails, or halts the process, at its N-th
 * operation, for every N: afterwards the table reads as before the write or as after it,
 * never anything else.  The write covers a primary-key table with dynamic buckets (HASH
 * index files) over two partitions, and an append table with rolling files; then the same
 * with ORC data files (whose statistics are read back from the written file, one more
 * operation that can fail) and Avro data files. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#include "table_state.h"

#include "paimon.h"
#include "paimon/scan.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

typedef struct table_case {
    const char *columns;
    const char *pk[2];
    size_t pk_count;
    const char *opt_keys[2], *opt_values[2];
    size_t opt_count;
} table_case;

static const table_case PK_CASE = {"id BIGINT, p INT, v STRING",
                                   {"id", "p"},
                                   2,
                                   {"dynamic-bucket.target-row-num", NULL},
                                   {"40", NULL},
                                   1};
static const table_case APPEND_CASE = {"id BIGINT, p INT, v STRING", {NULL, NULL},  0,
                                       {"target-file-size", NULL},   {"1kb", NULL}, 1};

static const table_case ORC_PK_CASE = {"id BIGINT, p INT, v STRING",
                                       {"id", "p"},
                                       2,
                                       {"dynamic-bucket.target-row-num", "file.format"},
                                       {"40", "orc"},
                                       2};
static const table_case AVRO_APPEND_CASE = {
    "id BIGINT, p INT, v STRING",        {NULL, NULL},    0,
    {"target-file-size", "file.format"}, {"1kb", "avro"}, 2};
static const table_case ORC_APPEND_CASE = {"id BIGINT, p INT, v STRING", {NULL, NULL},  0,
                                           {"file.format", NULL},        {"orc", NULL}, 1};

static char *create(const table_case *tc, const char *tag)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *parts[1] = {"p"};
    paimon_error err;
    co.columns = tc->columns;
    co.primary_keys = tc->pk_count > 0 ? tc->pk : NULL;
    co.primary_key_count = tc->pk_count;
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = tc->opt_keys;
    co.option_values = tc->opt_values;
    co.option_count = tc->opt_count;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

/* Writes rows [from, to) (keys i % 70, values "v<i>") and commits; returns 0 or an error. */
static int write_commit(pm_fs *fs, const char *t, int from, int to, int64_t ident)
{
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "u", false};
    pm_commit_messages m;
    pm_commit_opts o;
    pm_schema *s = NULL;
    pm_batch *b = NULL;
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
        pm_column_append_i64(b->columns[0], i % 70);
        pm_column_append_i64(b->columns[1], i % 2);
        pm_column_append_bytes(b->columns[2], v, (size_t)n);
    }
    if (pm_batch_set_rows(b, to - from, &err) != 0)
        fail_msg("%s", err.message);
    if ((rc = pm_table_write_batch(w, b, NULL, &err)) != 0 ||
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
    pm_schema_free(s);
    return rc;
}

static void fault_loop(const table_case *tc, pm_fault_mode mode)
{
    char *before, *after;
    long total;
    /* the rows before and after, and how many operations a clean write and commit take */
    {
        char *t = create(tc, "wfault-count");
        pm_fs *base = pm_fs_local_new(false), *fs;
        assert_int_equal(write_commit(base, t, 0, 150, 1), 0);
        before = pm_test_table_rows(t);
        fs = pm_fs_fault_new(base, 0, mode);
        assert_int_equal(write_commit(fs, t, 150, 300, 2), 0);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        after = pm_test_table_rows(t);
        pm_test_remove_table(t);
    }
    assert_true(total > 20);
    assert_string_not_equal(before, after);
    printf("every one of %ld file-system operations of a write and commit %s\n", total,
           mode == PM_FAULT_FAIL ? "fails in turn" : "halts the process in turn");
    for (long n = 1; n <= total + 1; n++) {
        char *t = create(tc, "wfault");
        pm_fs *base = pm_fs_local_new(false);
        char *got;
        assert_int_equal(write_commit(base, t, 0, 150, 1), 0);
        pm_fs_free(base);
        if (mode == PM_FAULT_FAIL) {
            pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
            (void)write_commit(fs, t, 150, 300, 2);
            pm_fs_free(fs);
        } else {
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
                _exit(write_commit(fs, t, 150, 300, 2) == 0 ? 0 : 1);
            } else {
                int status;
                waitpid(pid, &status, 0);
                assert_true(WIFEXITED(status));
                assert_true(WEXITSTATUS(status) == PM_FS_HALT_EXIT || WEXITSTATUS(status) == 0);
            }
        }
        got = pm_test_table_rows(t);
        if (strcmp(got, before) != 0 && strcmp(got, after) != 0)
            fail_msg("operation %ld of %ld: the table reads neither as before nor as after", n,
                     total);
        pm_free(got);
        pm_test_remove_table(t);
    }
    pm_free(before);
    pm_free(after);
}

static void test_pk_fail(void **state)
{
    (void)state;
    fault_loop(&PK_CASE, PM_FAULT_FAIL);
}

static void test_pk_halt(void **state)
{
    (void)state;
    fault_loop(&PK_CASE, PM_FAULT_HALT);
}

static void test_append_fail(void **state)
{
    (void)state;
    fault_loop(&APPEND_CASE, PM_FAULT_FAIL);
}

static void test_append_halt(void **state)
{
    (void)state;
    fault_loop(&APPEND_CASE, PM_FAULT_HALT);
}

static void test_orc_pk_fail(void **state)
{
    (void)state;
    fault_loop(&ORC_PK_CASE, PM_FAULT_FAIL);
}

static void test_orc_append_halt(void **state)
{
    (void)state;
    fault_loop(&ORC_APPEND_CASE, PM_FAULT_HALT);
}

static void test_avro_append_fail(void **state)
{
    (void)state;
    fault_loop(&AVRO_APPEND_CASE, PM_FAULT_FAIL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orc_pk_fail),      cmocka_unit_test(test_orc_append_halt),
        cmocka_unit_test(test_avro_append_fail), cmocka_unit_test(test_pk_fail),
        cmocka_unit_test(test_pk_halt),          cmocka_unit_test(test_append_fail),
        cmocka_unit_test(test_append_halt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
