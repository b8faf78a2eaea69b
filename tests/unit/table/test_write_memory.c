/* The write buffers of a primary-key table with four buckets against write-buffer-size
 * (table/write/table_write.c, control_memory), on 1 and on 4 threads:
 *  - the buffers together never hold more than write-buffer-size after a batch: a batch that
 *    passes it spills the fullest buffers until they fit (several times in this test); on 4
 *    threads spills also start in the background before the size is reached;
 *  - the files (bucket, level, sequence numbers, rows, size) are the same on 1 and on 4
 *    threads, as are the rows read back, however the spills fell;
 *  - a spill that fails in the background (its temporary directory removed under it) fails
 *    the write, and the prepare after it too: the rows it held are not silently dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "table_state.h"

#include "io/fs.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"

#define BUFFER    (1024 * 1024) /* write-buffer-size */
#define BATCHES   120
#define PER_BATCH 1000

/* One batch of upserts: keys spread over the four buckets, values long enough that the
 * buffers pass write-buffer-size several times. */
static pm_batch *make_batch(pm_table_write *w, int b)
{
    pm_batch *batch = NULL;
    paimon_error err;
    assert_int_equal(pm_batch_new(&batch, pm_table_write_type(w), &err), 0);
    for (int i = 0; i < PER_BATCH; i++) {
        char v[64];
        int64_t k = ((int64_t)b * PER_BATCH + i) * 7919 % 20000;
        int n = snprintf(v, sizeof(v), "value-%d-%d-padding-padding", b, i);
        pm_column_append_i64(batch->columns[0], k);
        pm_column_append_bytes(batch->columns[1], v, (size_t)n);
    }
    assert_int_equal(pm_batch_set_rows(batch, PER_BATCH, &err), 0);
    return batch;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A write of the table at `path` on `threads` threads (commit user "u"). */
static pm_table_write *open_write(pm_fs *fs, const char *path, unsigned threads)
{
    pm_table_write_opts wo = {false, "u", false};
    pm_table_write *w = NULL;
    paimon_error err;
    if (pm_table_write_new(&w, fs, path, &wo, &err) != 0)
        fail_msg("open %s: %s", path, err.message);
    pm_table_write_set_threads(w, threads, PM_COMPACT_SYNC);
    return w;
}

/* Writes the batches on `threads` threads, one commit at the end; returns the committed
 * files, one line each, sorted ("bucket level min_seq max_seq rows size"); `*freed`: how
 * many times a batch made the buffers free memory. */
static char *write_table(const char *path, unsigned threads, int *freed)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *w = open_write(fs, path, threads);
    pm_commit_messages m;
    pm_commit_opts o;
    paimon_error err;
    int64_t id;
    char **lines, *out;
    size_t len = 0;
    *freed = 0;
    for (int b = 0; b < BATCHES; b++) {
        pm_batch *batch = make_batch(w, b);
        size_t before = pm_table_write_memory(w), after;
        if (pm_table_write_batch(w, batch, NULL, &err) != 0)
            fail_msg("batch %d: %s", b, err.message);
        pm_batch_free(batch);
        after = pm_table_write_memory(w);
        assert_true(after <= BUFFER);
        if (after < before) /* this batch passed write-buffer-size: buffers were spilled */
            (*freed)++;
    }
    pm_table_write_end_input(w);
    pm_commit_messages_init(&m);
    if (pm_table_write_prepare(w, &m, &err) != 0)
        fail_msg("prepare: %s", err.message);
    memset(&o, 0, sizeof(o));
    o.commit_user = "u";
    o.identifier = 1;
    if (pm_commit(fs, path, &m, &o, &id, &err) != 0)
        fail_msg("commit: %s", err.message);
    lines = pm_calloc(m.data_count + 1, sizeof(*lines));
    for (size_t i = 0; i < m.data_count; i++) {
        const pm_manifest_entry *e = &m.data[i];
        lines[i] = pm_malloc(128);
        snprintf(lines[i], 128, "%d %d %lld %lld %lld %lld\n", (int)e->bucket, (int)e->file.level,
                 (long long)e->file.min_sequence_number, (long long)e->file.max_sequence_number,
                 (long long)e->file.row_count, (long long)e->file.file_size);
        len += strlen(lines[i]);
    }
    qsort(lines, m.data_count, sizeof(*lines), by_text);
    out = pm_calloc(len + 1, 1);
    for (size_t i = 0; i < m.data_count; i++) {
        strcat(out, lines[i]);
        pm_free(lines[i]);
    }
    pm_free(lines);
    pm_commit_messages_release(&m);
    pm_table_write_free(w);
    pm_fs_free(fs);
    return out;
}

static void test_spills_same_files(void **state)
{
    static const char *const options[] = {"bucket=4", "write-buffer-size=1mb", "write-only=true",
                                          NULL};
    char *t1 = pm_test_create_table("wmem1", "id BIGINT NOT NULL, v STRING", "id", options);
    char *t4 = pm_test_create_table("wmem4", "id BIGINT NOT NULL, v STRING", "id", options);
    int freed1, freed4;
    char *f1, *f4, *r1, *r4;
    (void)state;
    f1 = write_table(t1, 1, &freed1);
    f4 = write_table(t4, 4, &freed4);
    /* the buffers spilled more than once; on 4 threads at batches that depend on timing */
    assert_true(freed1 >= 2);
    assert_true(freed4 >= 2);
    assert_string_equal(f1, f4);
    r1 = pm_test_table_rows(t1);
    r4 = pm_test_table_rows(t4);
    assert_string_equal(r1, r4);
    pm_free(f1);
    pm_free(f4);
    pm_free(r1);
    pm_free(r4);
    pm_free(t1);
    pm_free(t4);
}

/* Writes on 4 threads with $TMPDIR missing, so that the first spill, which starts in the
 * background before the buffers reach write-buffer-size, fails and loses the rows it held:
 * a batch fails naming the directory, and the prepare after it fails too, where a flush of
 * the rows still in memory would otherwise commit a part of the input; nothing is
 * committed. */
static void test_failed_spill_fails_the_write(void **state)
{
    static const char *const options[] = {"bucket=4", "write-buffer-size=1mb", "write-only=true",
                                          NULL};
    char *t = pm_test_create_table("wmemfail", "id BIGINT NOT NULL, v STRING", "id", options);
    char *tmp = pm_test_tmpdir("wmemtmp");
    char *saved = getenv("TMPDIR") != NULL ? pm_strdup(getenv("TMPDIR")) : NULL;
    char missing[1100];
    pm_fs *fs = pm_fs_local_new(false);
    pm_table_write *w;
    pm_commit_messages m;
    paimon_error err;
    int64_t id;
    bool found = true;
    int failed = -1;
    (void)state;
    snprintf(missing, sizeof(missing), "%s/missing", tmp);
    setenv("TMPDIR", missing, 1);
    w = open_write(fs, t, 4);
    for (int b = 0; b < BATCHES && failed < 0; b++) {
        pm_batch *batch = make_batch(w, b);
        if (pm_table_write_batch(w, batch, NULL, &err) != 0)
            failed = b;
        pm_batch_free(batch);
    }
    assert_true(failed > 0);
    assert_non_null(strstr(err.message, "cannot create a temporary directory"));
    pm_commit_messages_init(&m);
    assert_int_not_equal(pm_table_write_prepare(w, &m, &err), 0);
    assert_non_null(strstr(err.message, "lost rows"));
    pm_commit_messages_release(&m);
    pm_table_write_free(w);
    assert_int_equal(pm_snapshot_latest_id(fs, t, &id, &found, &err), 0);
    assert_false(found); /* nothing committed */
    if (saved != NULL)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    pm_free(saved);
    pm_fs_free(fs);
    pm_test_rmtree(tmp);
    pm_free(tmp);
    pm_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spills_same_files),
        cmocka_unit_test(test_failed_spill_fails_the_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
