/* changelog.precommit-compact on a file system that fails, or halts the process, at its N-th
 * operation, for every N of a commit that packs changelog files (two partitions, two buckets
 * each, changelog-producer=input): afterwards the table's changes read as before the commit
 * or as after it.  When the commit failed and no snapshot appeared, the packed files it
 * made are gone, the original changelog files are all there, and committing the same
 * messages again succeeds (the caller's messages stay valid).  When it succeeded, the
 * originals are removed (all but one whose removal was the failing operation). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#include "table_state.h"

#include "paimon.h"
#include "paimon/changes.h"
#include "table/commit.h"
#include "table/write/changelog_compact.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

static char *create(void)
{
    static const char *const pk[] = {"id", "p"}, *const parts[] = {"p"};
    static const char *const keys[] = {"bucket", "changelog-producer",
                                       "changelog.precommit-compact"};
    static const char *const values[] = {"2", "input", "true"};
    char *path = pm_test_table_path("ccfault");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_error err;
    co.columns = "id BIGINT, p INT, v STRING";
    co.primary_keys = pk;
    co.primary_key_count = 2;
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = keys;
    co.option_values = values;
    co.option_count = 3;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

/* Writes rows [from, to) (keys i % 40, partition key % 2) into `m` on the local disk. */
static void write_rows(const char *t, int from, int to, pm_commit_messages *m)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, "u", false};
    pm_batch *b = NULL;
    paimon_error err;
    assert_int_equal(pm_table_write_new(&w, fs, t, &wo, &err), 0);
    assert_int_equal(pm_batch_new(&b, pm_table_write_type(w), &err), 0);
    for (int i = from; i < to; i++) {
        char v[32];
        int n = snprintf(v, sizeof(v), "value-%d", i);
        pm_column_append_i64(b->columns[0], i % 40);
        pm_column_append_i64(b->columns[1], (i % 40) % 2);
        pm_column_append_bytes(b->columns[2], v, (size_t)n);
    }
    if (pm_batch_set_rows(b, to - from, &err) != 0)
        fail_msg("%s", err.message);
    if (pm_table_write_batch(w, b, NULL, &err) != 0 || pm_table_write_prepare(w, m, &err) != 0)
        fail_msg("%s", err.message);
    pm_batch_free(b);
    pm_table_write_free(w);
    pm_fs_free(fs);
}

static int commit(pm_fs *fs, const char *t, const pm_commit_messages *m, int64_t ident, int64_t *id)
{
    pm_commit_opts o;
    paimon_error err;
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = ident;
    return pm_changelog_compact_commit(fs, t, m, &o, id, &err);
}

/* Every change of every snapshot, in the order `paimon tail --from earliest` prints them. */
static char *changes_of(const char *path)
{
    paimon_table *t;
    paimon_changes *ch;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_error err;
    pm_buf all;
    int rc;
    pm_buf_init(&all, 0);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    if (paimon_table_changes(&ch, t, &o, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    while ((rc = paimon_changes_next_snapshot(ch, NULL, &err)) == 0) {
        paimon_cursor *cur;
        assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
        while ((rc = paimon_cursor_next(cur, &err)) == 0) {
            const char *json;
            size_t len;
            assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
            pm_buf_append(&all, json, len);
            pm_buf_putc(&all, '\n');
        }
        paimon_cursor_free(cur);
        if (rc != PAIMON_ITEROVER)
            fail_msg("%s: %s", path, err.message);
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s: %s", path, err.message);
    paimon_changes_free(ch);
    paimon_table_free(t);
    pm_buf_putc(&all, '\0');
    return (char *)pm_buf_detach(&all, NULL);
}

static size_t count_files(const char *t, const char *prefix)
{
    pm_strlist l;
    size_t n;
    pm_strlist_init(&l);
    pm_test_find_files(t, prefix, &l);
    n = l.count;
    pm_strlist_free(&l);
    return n;
}

/* A table with snapshot 1 (packed), and the messages of a second write. */
static char *prepare(pm_commit_messages *m)
{
    char *t = create();
    pm_commit_messages first;
    pm_fs *fs = pm_fs_local_new(false);
    int64_t id;
    pm_commit_messages_init(&first);
    write_rows(t, 0, 40, &first);
    assert_int_equal(commit(fs, t, &first, 1, &id), 0);
    assert_int_equal(id, 1);
    pm_commit_messages_release(&first);
    pm_fs_free(fs);
    pm_commit_messages_init(m);
    write_rows(t, 40, 90, m);
    return t;
}

static void fault_loop(pm_fault_mode mode)
{
    char *before, *after;
    size_t packed_before, originals_before;
    long total, failed = 0, succeeded = 0;
    {
        pm_commit_messages m;
        char *t = prepare(&m);
        pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), 0, mode);
        int64_t id;
        before = changes_of(t);
        /* snapshot 1: 2 partitions x 2 buckets, each partition's two files packed into one;
         * the second write's 4 changelog files wait for the commit */
        packed_before = count_files(t, "compacted-changelog-");
        originals_before = count_files(t, "changelog-");
        assert_int_equal(packed_before, 2);
        assert_int_equal(originals_before, 4);
        assert_int_equal(commit(fs, t, &m, 2, &id), 0);
        assert_int_equal(id, 2);
        total = pm_fs_fault_count(fs);
        pm_fs_free(fs);
        after = changes_of(t);
        assert_int_equal(count_files(t, "compacted-changelog-"), 4);
        assert_int_equal(count_files(t, "changelog-"), 0);
        pm_commit_messages_release(&m);
        pm_test_remove_table(t);
    }
    assert_true(total > 20);
    assert_string_not_equal(before, after);
    printf("every one of %ld file-system operations of a packing commit %s\n", total,
           mode == PM_FAULT_FAIL ? "fails in turn" : "halts the process in turn");
    for (long n = 1; n <= total + 1; n++) {
        pm_commit_messages m;
        char *t = prepare(&m), *got;
        int rc = 0;
        if (mode == PM_FAULT_FAIL) {
            pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
            int64_t id = 0;
            rc = commit(fs, t, &m, 2, &id);
            pm_fs_free(fs);
        } else {
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                pm_fs *fs = pm_fs_fault_new(pm_fs_local_new(false), n, mode);
                int64_t id = 0;
                _exit(commit(fs, t, &m, 2, &id) == 0 ? 0 : 1);
            } else {
                int status;
                waitpid(pid, &status, 0);
                assert_true(WIFEXITED(status));
                assert_true(WEXITSTATUS(status) == PM_FS_HALT_EXIT || WEXITSTATUS(status) == 0);
            }
        }
        got = changes_of(t);
        if (strcmp(got, before) != 0 && strcmp(got, after) != 0)
            fail_msg("operation %ld of %ld: the changes read neither as before nor as after", n,
                     total);
        if (mode == PM_FAULT_FAIL && rc != 0 && pm_test_latest_snapshot(t) == 1) {
            pm_fs *fs = pm_fs_local_new(false);
            int64_t id = 0;
            char *again;
            if (count_files(t, "compacted-changelog-") != packed_before ||
                count_files(t, "changelog-") != originals_before)
                fail_msg("operation %ld: a failed commit left %zu packed and %zu changelog files",
                         n, count_files(t, "compacted-changelog-"), count_files(t, "changelog-"));
            assert_int_equal(commit(fs, t, &m, 2, &id), 0);
            pm_fs_free(fs);
            again = changes_of(t);
            assert_string_equal(again, after);
            pm_free(again);
            failed++;
        } else if (mode == PM_FAULT_FAIL && rc == 0) {
            assert_string_equal(got, after);
            assert_int_equal(count_files(t, "compacted-changelog-"), packed_before + 2);
            assert_true(count_files(t, "changelog-") <= 1);
            succeeded++;
        }
        pm_free(got);
        pm_commit_messages_release(&m);
        pm_test_remove_table(t);
    }
    if (mode == PM_FAULT_FAIL) {
        /* both outcomes happened: failures that cleaned up, and commits that got through */
        printf("%ld failed and cleaned up, %ld committed\n", failed, succeeded);
        assert_true(failed > 0 && succeeded > 0);
    }
    pm_free(before);
    pm_free(after);
}

static void test_fail(void **state)
{
    (void)state;
    fault_loop(PM_FAULT_FAIL);
}

static void test_halt(void **state)
{
    (void)state;
    fault_loop(PM_FAULT_HALT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail),
        cmocka_unit_test(test_halt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
