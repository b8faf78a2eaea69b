/* The shape of a table through the public API (include/paimon/inspect.h, issue 18):
 * buckets with their sorted runs, what each commit added and deleted, the limits read from
 * the options, Java's option defaults, the list accessors' kind checks, and the progress
 * counters (include/paimon/progress.h) that a write moves. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"

static char *make_table(const char *tag)
{
    static const char *const options[] = {"bucket=2", "write-only=true",
                                          "num-sorted-run.compaction-trigger=3", NULL};
    return pm_test_create_table(tag, "id BIGINT NOT NULL, v STRING", "id", options);
}

/* Writes ids [lo, hi) with value `v` as one commit. */
static void write_rows(paimon_table *t, int64_t lo, int64_t hi, const char *v)
{
    paimon_writer *w;
    paimon_commit_messages *m;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_error err;
    int64_t id = 0;
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    for (int64_t i = lo; i < hi; i++) {
        paimon_value vals[2];
        vals[0].type = PAIMON_VALUE_INT;
        vals[0].v.i = i;
        vals[1].type = PAIMON_VALUE_TEXT;
        vals[1].v.s.ptr = v;
        vals[1].v.s.len = strlen(v);
        if (paimon_writer_write_row(w, vals, 2, 0, &err) != 0)
            fail_msg("%s", err.message);
    }
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    if (paimon_table_commit(t, m, &co, &id, &err) != 0)
        fail_msg("%s", err.message);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
}

static void test_option_defaults(void **state)
{
    bool known = false;
    (void)state;
    assert_string_equal(paimon_option_java_default("num-sorted-run.compaction-trigger", &known),
                        "5");
    assert_true(known);
    assert_string_equal(paimon_option_java_default("snapshot.time-retained", NULL), "1 h");
    /* a key Java knows without a default, and one it does not know */
    assert_null(paimon_option_java_default("target-file-size", &known));
    assert_true(known);
    assert_null(paimon_option_java_default("no.such.option", &known));
    assert_false(known);
    assert_null(paimon_option_java_default(NULL, &known));
}

static void test_shape(void **state)
{
    char *path = make_table("health-shape");
    paimon_table *t;
    paimon_error err;
    paimon_health_limits h;
    paimon_list *buckets = NULL, *commits = NULL, *files = NULL, *health = NULL, *dvs = NULL;
    paimon_progress before, after;
    int64_t rows = 0, files_sum = 0, runs = 0, added = 0;
    (void)state;

    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    /* no snapshot yet: limits and health work, per-snapshot lists say there is none */
    assert_int_equal(paimon_table_health_limits(t, &h, &err), 0);
    assert_true(h.primary_key);
    assert_int_equal(h.compaction_trigger, 3);
    assert_int_equal(h.stop_trigger, 6); /* Java: trigger + 3 */
    assert_int_equal(h.num_levels, 4);   /* Java: trigger + 1 */
    assert_int_equal(h.target_file_size, 128LL << 20);
    assert_int_equal(h.small_file_size, (128LL << 20) / 10 * 7);
    assert_int_equal(h.min_file_num, 5);
    assert_int_equal(h.retain_min, 10);
    assert_int_equal(h.expire_before, 0);
    assert_int_equal(paimon_table_health(t, &health, &err), 0);
    assert_int_equal(paimon_list_count(health), 0);
    paimon_list_free(health);
    assert_int_equal(paimon_table_buckets(t, PAIMON_LATEST_SNAPSHOT, &buckets, &err),
                     PAIMON_ENOTFOUND);

    paimon_progress_read(&before);
    write_rows(t, 0, 40, "a");
    paimon_progress_read(&after);
    assert_int_equal(after.rows_written - before.rows_written, 40);
    assert_true(after.files_written - before.files_written >= 1);
    assert_true(after.bytes_written > before.bytes_written);
    for (int k = 1; k < 5; k++)
        write_rows(t, k * 100, k * 100 + 20, "b");

    assert_int_equal(paimon_table_files(t, PAIMON_LATEST_SNAPSHOT, &files, &err), 0);
    assert_int_equal(paimon_table_buckets(t, PAIMON_LATEST_SNAPSHOT, &buckets, &err), 0);
    assert_int_equal(paimon_list_count(buckets), 2);
    for (size_t i = 0; i < paimon_list_count(buckets); i++) {
        const paimon_bucket_info *b = paimon_list_bucket(buckets, i);
        assert_int_equal(b->bucket, (int32_t)i);
        assert_string_equal(b->partition, "{}");
        /* write-only: every file stays at level 0, each one a sorted run */
        assert_int_equal(b->level0_files, b->file_count);
        assert_int_equal(b->sorted_runs, b->file_count);
        assert_int_equal(b->small_files, b->file_count);
        assert_int_equal(b->deleted_rows, 0);
        rows += b->row_count;
        files_sum += b->file_count;
        runs += b->sorted_runs;
    }
    assert_int_equal(rows, 40 + 4 * 20);
    assert_int_equal(files_sum, (int64_t)paimon_list_count(files));
    /* the accessors check the list's kind */
    assert_null(paimon_list_commit(buckets, 0));
    assert_null(paimon_list_bucket(buckets, 2));

    assert_int_equal(paimon_table_commits(t, &commits, &err), 0);
    assert_int_equal(paimon_list_count(commits), 5);
    for (size_t i = 0; i < 5; i++) {
        const paimon_commit_info *c = paimon_list_commit(commits, i);
        assert_int_equal(c->snapshot_id, (int64_t)i + 1);
        assert_string_equal(c->commit_kind, "APPEND");
        assert_null(c->unreadable);
        assert_int_equal(c->rows_added, i == 0 ? 40 : 20);
        assert_int_equal(c->files_deleted, 0);
        assert_true(c->bytes_added > 0);
        added += c->files_added;
    }
    assert_int_equal(added, files_sum);

    /* more runs than the trigger (3) in some bucket: a sorted-runs item with the fix */
    assert_true(runs > 2 * 3);
    assert_int_equal(paimon_table_health(t, &health, &err), 0);
    assert_true(paimon_list_count(health) >= 1);
    {
        const paimon_health_item *it = paimon_list_health(health, 0);
        assert_string_equal(it->check, "sorted-runs");
        assert_true(it->value > it->limit);
        assert_non_null(strstr(it->fix, "paimon compact "));
    }
    assert_int_equal(paimon_table_deletion_vectors(t, PAIMON_LATEST_SNAPSHOT, &dvs, &err), 0);
    assert_int_equal(paimon_list_count(dvs), 0);

    paimon_list_free(dvs);
    paimon_list_free(health);
    paimon_list_free(commits);
    paimon_list_free(files);
    paimon_list_free(buckets);
    paimon_table_free(t);
    pm_test_rmtree(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_option_defaults),
        cmocka_unit_test(test_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
