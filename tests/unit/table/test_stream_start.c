/* Streaming reads: the start of every scan.mode (stream_start.c), the follow-up's skipping,
 * waiting and ending rules, and Java's errors for an expired next snapshot and a recreated
 * table (stream_scan.c), over hand-written snapshots in a memory file system. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "meta/snapshot.h"
#include "table/stream_scan.h"
#include "table/stream_start.h"
#include "util/alloc.h"

static void put(pm_fs *fs, const char *path, const char *text)
{
    assert_int_equal(fs->write_atomic(fs, path, text, strlen(text), true, NULL), 0);
}

/* A snapshot of table "t"; `kind` APPEND/COMPACT/OVERWRITE; watermark < 0: none. */
static void put_snapshot(pm_fs *fs, int64_t id, int64_t time, const char *kind, int64_t ident,
                         int64_t watermark)
{
    char path[64], text[512], wm[48] = "";
    if (watermark >= 0)
        snprintf(wm, sizeof(wm), ",\"watermark\":%lld", (long long)watermark);
    snprintf(path, sizeof(path), "t/snapshot/snapshot-%lld", (long long)id);
    snprintf(text, sizeof(text),
             "{\"version\":3,\"id\":%lld,\"schemaId\":0,\"baseManifestList\":\"b\","
             "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":%lld,"
             "\"commitKind\":\"%s\",\"timeMillis\":%lld%s}",
             (long long)id, (long long)ident, kind, (long long)time, wm);
    put(fs, path, text);
}

/* Table "t": a primary-key table with `options` (a JSON object body), snapshots 3..7 at
 * times 100, 200, 300, 300, 500; 5 and 6 are COMPACT (identifiers 10 and 7), 6 has
 * watermark 1000. */
static paimon_table *open_table(const char *options, bool snapshots)
{
    pm_fs *fs = pm_fs_memory_new();
    paimon_table *t = NULL;
    paimon_error err = {0};
    char schema[512];
    snprintf(schema, sizeof(schema),
             "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"k\",\"type\":\"INT NOT "
             "NULL\"}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[\"k\"],"
             "\"options\":{%s}}",
             options);
    put(fs, "t/schema/schema-0", schema);
    if (snapshots) {
        put_snapshot(fs, 3, 100, "APPEND", 1, -1);
        put_snapshot(fs, 4, 200, "APPEND", 2, -1);
        put_snapshot(fs, 5, 300, "COMPACT", 10, -1);
        put_snapshot(fs, 6, 300, "COMPACT", 7, 1000);
        put_snapshot(fs, 7, 500, "APPEND", 11, -1);
    }
    assert_int_equal(pm_table_open(&t, "t", fs, &err), 0);
    return t;
}

/* Resolves a start with the table's options plus "k=v" pairs (NULL-terminated). */
static int resolve(paimon_table *t, const char *const *kv, const pm_stream_origin *origin,
                   pm_stream_start *out, paimon_error *err)
{
    pm_options o;
    pm_stream_origin scan_mode = {PM_STREAM_ORIGIN_SCAN_MODE, 0, {0, 0, 0}};
    int rc;
    pm_options_init(&o);
    assert_int_equal(pm_options_copy(&o, &t->schema->options), 0);
    for (size_t i = 0; kv != NULL && kv[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&o, kv[i], kv[i + 1]), 0);
    rc = pm_stream_start_resolve(t, t->schema, &o, origin != NULL ? origin : &scan_mode, out, err);
    pm_options_free(&o);
    return rc;
}

static void expect_start(paimon_table *t, const char *const *kv, pm_stream_start_kind kind,
                         int64_t id)
{
    pm_stream_start s;
    paimon_error err = {0};
    int rc = resolve(t, kv, NULL, &s, &err);
    if (rc != 0)
        fail_msg("%s", err.message);
    assert_int_equal(s.kind, kind);
    if (kind != PM_STREAM_START_WAIT)
        assert_int_equal(s.id, id);
}

static void expect_error(paimon_table *t, const char *const *kv, int code, const char *text)
{
    pm_stream_start s;
    paimon_error err = {0};
    assert_int_equal(resolve(t, kv, NULL, &s, &err), code);
    if (strstr(err.message, text) == NULL)
        fail_msg("message '%s' lacks '%s'", err.message, text);
}

static void test_modes(void **state)
{
    paimon_table *t = open_table("\"bucket\":\"1\"", true);
    (void)state;
    expect_start(t, NULL, PM_STREAM_START_FULL, 7); /* default: latest-full */
    expect_start(t, (const char *[]){"scan.mode", "full", NULL}, PM_STREAM_START_FULL, 7);
    expect_start(t, (const char *[]){"scan.mode", "latest", NULL}, PM_STREAM_START_NEXT, 8);
    expect_start(t, (const char *[]){"log.scan", "latest", NULL}, PM_STREAM_START_NEXT, 8);
    /* compacted-full: the latest COMPACT; with delta-commits the latest whose identifier
     * divides; none: the latest */
    expect_start(t, (const char *[]){"scan.mode", "compacted-full", NULL}, PM_STREAM_START_FULL, 6);
    expect_start(
        t,
        (const char *[]){"scan.mode", "compacted-full", "full-compaction.delta-commits", "5", NULL},
        PM_STREAM_START_FULL, 5);
    expect_start(
        t,
        (const char *[]){"scan.mode", "compacted-full", "full-compaction.delta-commits", "3", NULL},
        PM_STREAM_START_FULL, 7);
    /* from-timestamp: after the last snapshot committed before it */
    expect_start(t, (const char *[]){"scan.timestamp-millis", "250", NULL}, PM_STREAM_START_NEXT,
                 5);
    expect_start(
        t, (const char *[]){"scan.mode", "from-timestamp", "scan.timestamp-millis", "50", NULL},
        PM_STREAM_START_NEXT, 3);
    expect_start(t, (const char *[]){"scan.timestamp-millis", "9999", NULL}, PM_STREAM_START_NEXT,
                 8);
    /* scan.timestamp as text: a local time in the process's zone (CoreOptions.
     * scanTimestampMills); at UTC+8, 08:00:00.250 is 250 ms and 07:59:59 precedes all */
    setenv("TZ", "Asia/Shanghai", 1);
    tzset();
    expect_start(t, (const char *[]){"scan.timestamp", "1970-01-01 08:00:00.250", NULL},
                 PM_STREAM_START_NEXT, 5);
    expect_start(t,
                 (const char *[]){"scan.mode", "from-timestamp", "scan.timestamp",
                                  "1970-01-01 07:59:59", NULL},
                 PM_STREAM_START_NEXT, 3);
    /* scan.timestamp-millis wins over the text */
    expect_start(t,
                 (const char *[]){"scan.timestamp-millis", "9999", "scan.timestamp",
                                  "1970-01-01 08:00:00.250", NULL},
                 PM_STREAM_START_NEXT, 8);
    expect_error(t, (const char *[]){"scan.timestamp", "noon", NULL}, PAIMON_EINVALID,
                 "option scan.timestamp: 'noon' is not a timestamp");
    setenv("TZ", "UTC", 1);
    tzset();
    expect_start(t, (const char *[]){"scan.timestamp", "1970-01-01 00:00:00.250", NULL},
                 PM_STREAM_START_NEXT, 5);
    /* from-snapshot: changes from max(id, earliest) */
    expect_start(t, (const char *[]){"scan.snapshot-id", "1", NULL}, PM_STREAM_START_NEXT, 3);
    expect_start(t, (const char *[]){"scan.snapshot-id", "6", NULL}, PM_STREAM_START_NEXT, 6);
    expect_start(t,
                 (const char *[]){"scan.mode", "from-snapshot-full", "scan.snapshot-id", "1", NULL},
                 PM_STREAM_START_FULL, 3);
    expect_start(t,
                 (const char *[]){"scan.mode", "from-snapshot-full", "scan.snapshot-id", "4", NULL},
                 PM_STREAM_START_FULL, 4);
    expect_start(t, (const char *[]){"scan.file-creation-time-millis", "0", NULL},
                 PM_STREAM_START_FULL, 7);
    /* from-creation-timestamp: a snapshot at or after it, else file creation time */
    expect_start(t, (const char *[]){"scan.creation-time-millis", "250", NULL},
                 PM_STREAM_START_NEXT, 5);
    {
        pm_stream_start s;
        paimon_error err = {0};
        assert_int_equal(
            resolve(t, (const char *[]){"scan.creation-time-millis", "50", NULL}, NULL, &s, &err),
            0);
        assert_int_equal(s.kind, PM_STREAM_START_FULL);
        assert_int_equal(s.id, 7);
        assert_true(s.by_creation);
        assert_int_equal(s.creation_ms, 50);
    }
    /* Java's refusals */
    expect_error(t, (const char *[]){"scan.mode", "incremental", NULL}, PAIMON_EINVALID,
                 "Cannot read incremental in streaming mode.");
    expect_error(t, (const char *[]){"incremental-between", "1,2", NULL}, PAIMON_EINVALID,
                 "Cannot read incremental in streaming mode.");
    expect_error(t, (const char *[]){"scan.tag-name", "v1", NULL}, PAIMON_EINVALID,
                 "Cannot scan from tag in streaming mode.");
    expect_error(t, (const char *[]){"scan.watermark", "5", NULL}, PAIMON_EINVALID,
                 "Cannot scan from watermark in streaming mode.");
    expect_error(t, (const char *[]){"scan.mode", "from-snapshot-full", NULL}, PAIMON_EINVALID,
                 "scan.snapshot-id must be set");
    expect_error(t, (const char *[]){"scan.mode", "from-timestamp", NULL}, PAIMON_EINVALID,
                 "needs scan.timestamp-millis");
    expect_error(t, (const char *[]){"scan.mode", "sideways", NULL}, PAIMON_EINVALID,
                 "unknown mode 'sideways'");
    expect_error(t,
                 (const char *[]){"scan.mode", "from-snapshot-full", "scan.snapshot-id", "9", NULL},
                 PAIMON_ENOTFOUND, "snapshot 9 does not exist");
    pm_table_close(t);
}

static void test_levels_and_empty(void **state)
{
    paimon_table *t = open_table("\"changelog-producer\":\"lookup\"", true);
    pm_stream_start s;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(resolve(t, NULL, NULL, &s, &err), 0);
    assert_int_equal(s.level_min, 1);
    assert_int_equal(s.level_only, -1);
    pm_table_close(t);
    t = open_table("\"changelog-producer\":\"full-compaction\",\"num-levels\":\"3\"", true);
    assert_int_equal(resolve(t, NULL, NULL, &s, &err), 0);
    assert_int_equal(s.level_min, 0);
    assert_int_equal(s.level_only, 2);
    pm_table_close(t);
    t = open_table("\"changelog-producer\":\"full-compaction\"", true);
    assert_int_equal(resolve(t, NULL, NULL, &s, &err), 0);
    assert_int_equal(s.level_only, 5); /* num-sorted-run.compaction-trigger 5 + 1 levels */
    pm_table_close(t);
    t = open_table("\"changelog-producer\":\"input\"", true);
    assert_int_equal(resolve(t, NULL, NULL, &s, &err), 0);
    assert_int_equal(s.level_min, 0);
    assert_int_equal(s.level_only, -1);
    pm_table_close(t);
    /* no snapshot: latest starts at 1, the others wait */
    t = open_table("\"bucket\":\"1\"", false);
    expect_start(t, NULL, PM_STREAM_START_WAIT, 0);
    expect_start(t, (const char *[]){"scan.mode", "latest", NULL}, PM_STREAM_START_NEXT, 1);
    expect_start(t, (const char *[]){"scan.snapshot-id", "3", NULL}, PM_STREAM_START_WAIT, 0);
    pm_table_close(t);
}

static void test_consumer_and_position(void **state)
{
    paimon_table *t = open_table("\"bucket\":\"1\"", true);
    pm_stream_origin pos = {PM_STREAM_ORIGIN_POSITION, 4, {0, 0, 0}};
    pm_stream_origin range = {PM_STREAM_ORIGIN_RANGE, 0, {PM_CHANGES_FROM_EARLIEST, 0, 0}};
    pm_stream_start s;
    paimon_error err = {0};
    const char *const with_consumer[] = {"consumer-id", "c1", NULL};
    const char *const ignoring[] = {"consumer-id", "c1", "consumer.ignore-progress", "true", NULL};
    (void)state;
    /* a consumer without a file: the mode decides */
    expect_start(t, with_consumer, PM_STREAM_START_FULL, 7);
    assert_int_equal(pm_consumer_write(t->fs, t->path, "c1", 6, &err), 0);
    expect_start(t, with_consumer, PM_STREAM_START_NEXT, 6);
    expect_start(t, ignoring, PM_STREAM_START_FULL, 7);
    assert_int_equal(pm_consumer_write(t->fs, t->path, "c1", 2, &err), 0);
    expect_start(t, with_consumer, PM_STREAM_START_NEXT, 3); /* expired: the earliest */
    /* a stored position comes first; a range start after the consumer */
    assert_int_equal(resolve(t, with_consumer, &pos, &s, &err), 0);
    assert_int_equal(s.kind, PM_STREAM_START_NEXT);
    assert_int_equal(s.id, 4);
    assert_int_equal(pm_consumer_write(t->fs, t->path, "c1", 7, &err), 0);
    assert_int_equal(resolve(t, with_consumer, &range, &s, &err), 0);
    assert_int_equal(s.id, 7);
    assert_int_equal(resolve(t, NULL, &range, &s, &err), 0);
    assert_int_equal(s.id, 3);
    pm_table_close(t);
}

/* ---- the follow-up ------------------------------------------------------------------------ */

static pm_stream_scan *open_scan(paimon_table *t, const char *const *kv, int64_t position,
                                 int64_t last)
{
    pm_options o;
    pm_stream_origin origin = {PM_STREAM_ORIGIN_POSITION, position, {0, 0, 0}};
    pm_stream_scan *s = NULL;
    paimon_error err = {0};
    pm_options_init(&o);
    assert_int_equal(pm_options_copy(&o, &t->schema->options), 0);
    for (size_t i = 0; kv != NULL && kv[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&o, kv[i], kv[i + 1]), 0);
    if (pm_stream_scan_open(&s, t, t->schema, &o, &origin, last, &err) != 0)
        fail_msg("%s", err.message);
    pm_options_free(&o);
    return s;
}

static pm_stream_step poll_once(pm_stream_scan *s, int64_t now, int expect_rc, const char *text)
{
    pm_stream_poll p;
    paimon_error err = {0};
    int rc = pm_stream_scan_poll(s, now, &p, &err);
    if (rc != expect_rc)
        fail_msg("rc %d (%s), expected %d", rc, err.message, expect_rc);
    if (text != NULL && strstr(err.message, text) == NULL)
        fail_msg("message '%s' lacks '%s'", err.message, text);
    pm_scan_plan_free(p.plan);
    return p.step;
}

static void test_follow_up(void **state)
{
    /* COMPACT snapshots give producer none nothing: 5 and 6 are stepped over in one poll */
    paimon_table *t = open_table("\"bucket\":\"1\"", true);
    pm_stream_scan *s = open_scan(t, NULL, 5, 0);
    (void)state;
    put_snapshot(t->fs, 7, 500, "COMPACT", 11, -1);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 8);
    /* waiting for latest + 1 is never an error */
    for (int i = 0; i < 40; i++)
        assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    /* an OVERWRITE is stepped over too (no streaming-read-overwrite) */
    put_snapshot(t->fs, 8, 600, "OVERWRITE", 12, -1);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 9);
    pm_stream_scan_free(s);

    /* the last snapshot ends the stream */
    s = open_scan(t, NULL, 5, 6);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_END);
    assert_int_equal(pm_stream_scan_position(s), 7);
    pm_stream_scan_free(s);

    /* scan.bounded.watermark: snapshot 6's watermark 1000 exceeds 500 */
    s = open_scan(t, (const char *[]){"scan.bounded.watermark", "500", NULL}, 5, 0);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_END);
    assert_int_equal(pm_stream_scan_position(s), 6);
    pm_stream_scan_free(s);
    s = open_scan(t, (const char *[]){"scan.bounded.watermark", "1000", NULL}, 5, 0);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    pm_stream_scan_free(s);

    /* streaming.read.snapshot.delay: snapshot 5 (time 300) waits until 300 + 1 s */
    s = open_scan(t, (const char *[]){"streaming.read.snapshot.delay", "1 s", NULL}, 5, 0);
    assert_int_equal(poll_once(s, 800, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 5);
    assert_int_equal(poll_once(s, 1300, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 7); /* 5, 6 passed; 7 (500) still waits */
    assert_int_equal(poll_once(s, 1501, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 8); /* 8 (600) waits */
    assert_int_equal(poll_once(s, 1601, 0, NULL), PM_STREAM_STEP_NONE);
    assert_int_equal(pm_stream_scan_position(s), 9);
    pm_stream_scan_free(s);
    pm_table_close(t);
}

/* Snapshots 9 and 10 (COMPACT) appear and 3..7 expire. */
static void expire_to_nine(paimon_table *t)
{
    char path[64];
    put_snapshot(t->fs, 9, 900, "COMPACT", 20, -1);
    put_snapshot(t->fs, 10, 901, "COMPACT", 21, -1);
    for (int id = 3; id <= 7; id++) {
        snprintf(path, sizeof(path), "t/snapshot/snapshot-%d", id);
        assert_int_equal(t->fs->remove(t->fs, path, NULL), 0);
    }
}

static void test_errors(void **state)
{
    paimon_table *t = open_table("\"bucket\":\"1\"", true);
    pm_stream_scan *s;
    (void)state;
    /* a next snapshot far beyond the latest: the table was recreated (16th miss) */
    s = open_scan(t, NULL, 20, 0);
    for (int i = 1; i < 16; i++)
        assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    poll_once(s, 1000, PAIMON_ENOTFOUND,
              "The next expected snapshot is too big! Most possible cause might be the table had "
              "been recreated.The next snapshot id is 20, while the latest snapshot id is 7");
    pm_stream_scan_free(s);
    /* a next snapshot that expired before it was read: the reader waits at 8, snapshots 9
     * and 10 come and everything before them expires */
    s = open_scan(t, NULL, 8, 0);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    expire_to_nine(t);
    for (int i = 2; i < 16; i++)
        assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    poll_once(s, 1000, PAIMON_ENOTFOUND, "The snapshot with id 8 has expired. You can:");
    assert_int_equal(pm_stream_scan_position(s), 8); /* a retry fails the same way */
    pm_stream_scan_free(s);
    pm_table_close(t);
    /* decoupled changelogs: Java keeps waiting instead */
    t = open_table("\"changelog.num-retained.min\":\"50\"", true);
    s = open_scan(t, NULL, 8, 0);
    assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    expire_to_nine(t);
    for (int i = 0; i < 40; i++)
        assert_int_equal(poll_once(s, 1000, 0, NULL), PM_STREAM_STEP_NONE);
    pm_stream_scan_free(s);
    pm_table_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_levels_and_empty),
        cmocka_unit_test(test_consumer_and_position),
        cmocka_unit_test(test_follow_up),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
