/* Expiration under load (issue 13, "Checks" bullet 2): processes working on one table for
 * a bounded time (LOAD_SECONDS):
 *
 *   writer      commits upserts with snapshot.num-retained.min=1, max=3, so every commit
 *               expires (its upkeep); tags the latest snapshot every 8 commits;
 *   compactor   the dedicated compaction job (COMPACT snapshots and their upkeep);
 *   consumer    consumer-c1: reads snapshot nextSnapshot, then moves on by one;
 *   readers     two batch readers of the latest snapshot and of the tags.
 *
 * Violations: the consumer fails to read its snapshot, a tag fails to read or reads
 * differently from its first read, a latest-snapshot read fails while that snapshot still
 * exists 2 s later (a read of a snapshot that expired under it is what Java documents:
 * behaviour.md §8.1 "Safety"), any upkeep or commit fails.  Afterwards everything is expired
 * and the files on disk must be exactly those the remaining snapshots, tags and the
 * consumer's snapshots reference. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "table_files.h"
#include "table_state.h"
#include "testlib.h"

#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/expire.h"
#include "util/alloc.h"
#include "util/time.h"

#define LOAD_SECONDS 10

static const char *g_path;
static double g_deadline;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

#define VIOLATION(...)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "VIOLATION: " __VA_ARGS__);                                                \
        fprintf(stderr, "\n");                                                                     \
        _exit(1);                                                                                  \
    } while (0)

static bool snapshot_exists(int64_t id)
{
    char *file = pm_snapshot_path(g_path, id);
    struct stat st;
    bool exists = stat(file, &st) == 0;
    pm_free(file);
    return exists;
}

static int64_t latest_id(void)
{
    pm_fs *fs = pm_fs_local_new(false);
    int64_t id = 0;
    bool found = false;
    paimon_error err;
    if (pm_snapshot_latest_id(fs, g_path, &id, &found, &err) != 0)
        VIOLATION("latest: %s", err.message);
    pm_fs_free(fs);
    return id;
}

/* ---- the processes ------------------------------------------------------------------------ */

static void writer(void)
{
    uint64_t rng = 42;
    int n = 0;
    pm_fs *fs = pm_fs_local_new(false);
    while (now_s() < g_deadline) {
        char rows[512];
        size_t len = 0;
        paimon_error err, merr;
        int64_t id = 0;
        for (int i = 0; i < 4; i++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            len += (size_t)snprintf(rows + len, sizeof(rows) - len, "{\"id\":%d,\"v\":\"w%d\"}\n",
                                    (int)(rng % 40), n);
        }
        if (pm_test_commit_jsonl(g_path, rows, &id, &err, &merr) != 0)
            VIOLATION("writer commit: %s", err.message);
        if (merr.code != 0)
            VIOLATION("writer upkeep: %s", merr.message);
        if (++n % 8 == 0) {
            pm_tag tag;
            char name[32];
            snprintf(name, sizeof(name), "w%d", n);
            memset(&tag, 0, sizeof(tag));
            tag.name = name;
            /* the snapshot just committed may already be gone (the compactor's upkeep) */
            if (pm_snapshot_read(fs, g_path, id, &tag.snapshot, &err) == 0) {
                if (pm_tag_write(fs, g_path, &tag, &err) != 0)
                    VIOLATION("tag: %s", err.message);
                pm_snapshot_free(tag.snapshot);
            }
        }
    }
    pm_fs_free(fs);
}

static void compactor(void)
{
    int n = 0;
    while (now_s() < g_deadline) {
        paimon_table *t;
        paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
        paimon_error err, merr;
        int64_t id;
        int rc;
        o.full = ++n % 2;
        o.maintain_err = &merr;
        if (paimon_table_open(&t, g_path, &err) != 0)
            VIOLATION("compactor open: %s", err.message);
        rc = paimon_table_compact(t, &o, &id, &err);
        if (rc != 0 && rc != PAIMON_ECONFLICT)
            VIOLATION("compaction: %s", err.message);
        if (rc == 0 && merr.code != 0)
            VIOLATION("compactor upkeep: %s", merr.message);
        paimon_table_free(t);
        nap_ms(150);
    }
}

static void consumer(void)
{
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    while (now_s() < g_deadline) {
        int64_t next = 0;
        int rc = 0;
        char why[512], *rows;
        if (pm_consumer_read(fs, g_path, "c1", &next, &err) != 0)
            VIOLATION("consumer file: %s", err.message);
        rows = pm_test_rows_at(g_path, next, NULL, &rc, why, sizeof(why));
        if (rows == NULL)
            VIOLATION("consumer c1 cannot read its snapshot %lld: %s", (long long)next, why);
        pm_free(rows);
        nap_ms(300);
        if (next < latest_id() && pm_consumer_write(fs, g_path, "c1", next + 1, &err) != 0)
            VIOLATION("consumer write: %s", err.message);
    }
    pm_fs_free(fs);
}

typedef struct seen_tag {
    char name[32];
    char *rows;
} seen_tag;

static void reader(int which)
{
    pm_fs *fs = pm_fs_local_new(false);
    seen_tag seen[256];
    size_t nseen = 0;
    long reads = 0, expired = 0;
    paimon_error err;
    memset(seen, 0, sizeof(seen));
    while (now_s() < g_deadline) {
        int64_t id = latest_id();
        int rc = 0;
        char why[512], *rows = pm_test_rows_at(g_path, id, NULL, &rc, why, sizeof(why));
        pm_strlist tags;
        reads++;
        if (rows == NULL) {
            nap_ms(2000);
            if (snapshot_exists(id))
                VIOLATION("reader %d: snapshot %lld still exists but did not read: %s", which,
                          (long long)id, why);
            expired++;
        }
        pm_free(rows);
        pm_strlist_init(&tags);
        if (pm_tag_list(fs, g_path, &tags, &err) != 0)
            VIOLATION("tags: %s", err.message);
        for (size_t i = 0; i < tags.count; i++) {
            char *got = pm_test_rows_at(g_path, 0, tags.items[i], &rc, why, sizeof(why));
            size_t k;
            if (got == NULL)
                VIOLATION("reader %d: tag %s did not read: %s", which, tags.items[i], why);
            for (k = 0; k < nseen && strcmp(seen[k].name, tags.items[i]) != 0; k++)
                ;
            if (k == nseen && nseen < 256) {
                snprintf(seen[nseen].name, sizeof(seen[nseen].name), "%s", tags.items[i]);
                seen[nseen++].rows = got;
                continue;
            }
            if (k < nseen && strcmp(seen[k].rows, got) != 0)
                VIOLATION("reader %d: tag %s reads differently", which, tags.items[i]);
            pm_free(got);
        }
        pm_strlist_free(&tags);
    }
    fprintf(stderr, "reader %d: %ld reads of the latest snapshot, %ld expired under it\n", which,
            reads, expired);
    for (size_t i = 0; i < nseen; i++)
        pm_free(seen[i].rows);
    pm_fs_free(fs);
}

static pid_t spawn(void (*fn)(int), int arg)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        fn(arg);
        _exit(0);
    }
    return pid;
}

static void run_writer(int a)
{
    (void)a;
    writer();
}
static void run_compactor(int a)
{
    (void)a;
    compactor();
}
static void run_consumer(int a)
{
    (void)a;
    consumer();
}

static void test_expire_under_load(void **state)
{
    char *path = pm_test_table_path("expire-load");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"},
               *keys[5] = {"bucket", "snapshot.num-retained.min", "snapshot.num-retained.max",
                           "num-sorted-run.compaction-trigger", "num-sorted-run.stop-trigger"},
               *vals[5] = {"2", "1", "3", "500", "600"};
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    pid_t pids[5];
    int failed = 0;
    (void)state;
    co.columns = "id BIGINT NOT NULL, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 5;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    g_path = path;
    {
        /* a first snapshot, the consumer at it */
        int64_t id = 0;
        if (pm_test_commit_jsonl(path, "{\"id\":1,\"v\":\"x\"}\n", &id, &err, NULL) != 0)
            fail_msg("%s", err.message);
        assert_int_equal(pm_consumer_write(fs, path, "c1", id, &err), 0);
    }
    g_deadline = now_s() + LOAD_SECONDS;
    pids[0] = spawn(run_writer, 0);
    pids[1] = spawn(run_compactor, 0);
    pids[2] = spawn(run_consumer, 0);
    pids[3] = spawn(reader, 1);
    pids[4] = spawn(reader, 2);
    for (int i = 0; i < 5; i++) {
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed++;
    }
    if (failed > 0)
        fail_msg("%d processes met a violation (see above)", failed);
    {
        /* everything expired (the consumer's snapshots stay), then the exact count */
        pm_schema *schema = NULL;
        pm_expire_config c;
        pm_expire_result r;
        int64_t next = 0, latest = latest_id();
        pm_strlist ref;
        assert_int_equal(pm_schema_read_latest(fs, path, &schema, &err), 0);
        assert_int_equal(pm_expire_config_from_options(&schema->options, pm_now_millis(), &c, &err),
                         0);
        pm_schema_free(schema);
        c.time_retained_ms = 0;
        c.max_deletes = INT64_MAX;
        if (pm_expire_snapshots(fs, path, &c, false, &r, &err) != 0)
            fail_msg("%s", err.message);
        assert_int_equal(pm_consumer_read(fs, path, "c1", &next, &err), 0);
        for (int64_t id = next; id <= latest; id++)
            assert_true(snapshot_exists(id));
        assert_false(snapshot_exists(next - 1));
        pm_test_assert_files_exact(path);
        pm_strlist_init(&ref);
        pm_test_referenced_files(path, &ref);
        print_message("after the load: snapshots %lld..%lld, %zu files on disk, all referenced\n",
                      (long long)next, (long long)latest, ref.count);
        assert_true(latest > 5);
        pm_strlist_free(&ref);
    }
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expire_under_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
