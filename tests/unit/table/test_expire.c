/* Snapshot, changelog and consumer expiration (table/expire.h) on tables written through the
 * public API: the window rules (behaviour.md §8.1's worked example), consumers and tags
 * protecting what they need, the decoupled changelog files in Java's shape and a change read
 * over them, nothing-to-expire, a vanished end snapshot, consumer expiration by modification
 * time, the post-commit step, and after every run: the files on disk are exactly those the
 * remaining snapshots, tags and changelogs reference. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "life_util.h"
#include "table_files.h"
#include "table_state.h"
#include "testlib.h"

#include "meta/paths.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/expire.h"
#include "util/alloc.h"
#include "util/time.h"

#define MIN_MS (60 * 1000LL)

/* A table of (id BIGINT, v STRING): primary key id with bucket 1 when `pk`, else an append
 * table; write-only (so commits do not expire: the tests expire explicitly) unless
 * `upkeep`; plus the "k", "v" pairs of `opts`. */
static char *make_table(const char *tag, bool pk, bool upkeep, const char *const *opts, size_t nopt)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"}, *keys[16], *vals[16];
    size_t n = 0;
    paimon_error err;
    keys[n] = "bucket";
    vals[n++] = pk ? "1" : "-1";
    if (!upkeep) {
        keys[n] = "write-only";
        vals[n++] = "true";
    }
    for (size_t i = 0; i + 1 < nopt; i += 2) {
        keys[n] = opts[i];
        vals[n++] = opts[i + 1];
    }
    co.columns = pk ? "id BIGINT NOT NULL, v STRING" : "id BIGINT, v STRING";
    co.primary_keys = pk ? pks : NULL;
    co.primary_key_count = pk ? 1 : 0;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = n;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

/* Commits the JSON lines `rows`; returns the snapshot id. */
static int64_t commit_rows(const char *path, const char *rows)
{
    paimon_error err, merr;
    int64_t id = 0;
    if (pm_test_commit_jsonl(path, rows, &id, &err, &merr) != 0)
        fail_msg("%s", err.message);
    if (merr.code != 0)
        fail_msg("upkeep: %s", merr.message);
    return id;
}

static int64_t commit_one(const char *path, int64_t id, const char *v)
{
    char row[128];
    snprintf(row, sizeof(row), "{\"id\":%lld,\"v\":\"%s\"}\n", (long long)id, v);
    return commit_rows(path, row);
}

static int64_t compact_full(const char *path)
{
    paimon_table *t;
    paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
    paimon_error err;
    int64_t id = 0;
    o.full = 1;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    if (paimon_table_compact(t, &o, &id, &err) != 0)
        fail_msg("%s", err.message);
    paimon_table_free(t);
    assert_true(id > 0);
    return id;
}

/* Rewrites snapshot `id`'s commit time (the window rules compare it). */
static void set_time(const char *path, int64_t id, int64_t ms)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *s = NULL;
    pm_buf json;
    char *file = pm_snapshot_path(path, id);
    paimon_error err;
    assert_int_equal(pm_snapshot_read(fs, path, id, &s, &err), 0);
    s->time_millis = ms;
    pm_buf_init(&json, 0);
    assert_int_equal(pm_snapshot_write_json(s, &json), 0);
    assert_int_equal(fs->write_atomic(fs, file, json.data, json.len, true, &err), 0);
    pm_buf_free(&json);
    pm_free(file);
    pm_snapshot_free(s);
    pm_fs_free(fs);
}

static void write_tag(const char *path, const char *name, int64_t id)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_tag tag;
    paimon_error err;
    memset(&tag, 0, sizeof(tag));
    tag.name = (char *)name;
    assert_int_equal(pm_snapshot_read(fs, path, id, &tag.snapshot, &err), 0);
    assert_int_equal(pm_tag_write(fs, path, &tag, &err), 0);
    pm_snapshot_free(tag.snapshot);
    pm_fs_free(fs);
}

static bool snapshot_exists(const char *path, int64_t id)
{
    char *file = pm_snapshot_path(path, id);
    struct stat st;
    bool exists = stat(file, &st) == 0;
    pm_free(file);
    return exists;
}

static bool file_exists(const char *path, const char *rel)
{
    char buf[4096];
    struct stat st;
    snprintf(buf, sizeof(buf), "%s/%s", path, rel);
    return stat(buf, &st) == 0;
}

static char *read_text(const char *path, const char *rel)
{
    char buf[4096];
    size_t len;
    uint8_t *data, *out;
    snprintf(buf, sizeof(buf), "%s/%s", path, rel);
    data = pm_test_read_file(buf, &len);
    out = pm_realloc(data, len + 1);
    out[len] = '\0';
    return (char *)out;
}

/* Everything from the table's options, then a tidy window: keep `min`..`max`, no time
 * window (everything is old), no limit. */
static pm_expire_config config(const char *path, int64_t min, int64_t max, int64_t now)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_schema *schema = NULL;
    pm_expire_config c;
    paimon_error err;
    assert_int_equal(pm_schema_read_latest(fs, path, &schema, &err), 0);
    assert_int_equal(pm_expire_config_from_options(&schema->options, now, &c, &err), 0);
    c.retain_min = min;
    c.retain_max = max;
    c.time_retained_ms = 0;
    c.max_deletes = INT64_MAX;
    pm_schema_free(schema);
    pm_fs_free(fs);
    return c;
}

static pm_expire_result expire(const char *path, const pm_expire_config *c)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_expire_result r;
    paimon_error err;
    if (pm_expire_snapshots(fs, path, c, false, &r, &err) != 0)
        fail_msg("%s", err.message);
    pm_fs_free(fs);
    return r;
}

static char *rows(const char *path, int64_t id, const char *tag)
{
    char why[512];
    int rc = 0;
    char *r = pm_test_rows_at(path, id, tag, &rc, why, sizeof(why));
    if (r == NULL)
        fail_msg("snapshot %lld / tag %s: %s", (long long)id, tag ? tag : "-", why);
    return r;
}

/* ---- the window ------------------------------------------------------------------------ */

/* behaviour.md §8.1: min 2, time 1 h, max 5; snapshots at 10:00, 10:20, 10:40, 11:00; the
 * commit at 11:20 expires #1 (older than the hour, 5 exist >= min); a later one with six
 * snapshots all within the hour expires the oldest by num-retained.max. */
static void test_window_example(void **state)
{
    static const char *const OPTS[] = {"snapshot.num-retained.min", "2",
                                       "snapshot.num-retained.max", "5",
                                       "snapshot.time-retained",    "1 h"};
    char *path = make_table("expire-window", false, false, OPTS, 6);
    pm_fs *fs = pm_fs_local_new(false);
    const int64_t t10 = 1700000000000LL; /* "10:00" */
    pm_expire_config c;
    pm_expire_result r;
    paimon_error err;
    (void)state;
    for (int i = 1; i <= 5; i++)
        assert_int_equal(commit_one(path, i, "a"), i);
    for (int i = 1; i <= 5; i++)
        set_time(path, i, t10 + (i - 1) * 20 * MIN_MS);
    {
        pm_options none;
        pm_options_init(&none);
        assert_int_equal(pm_expire_config_from_options(&none, 0, &c, &err), 0); /* defaults */
        pm_options_free(&none);
    }
    assert_int_equal(c.retain_min, 10);
    assert_int_equal(c.max_deletes, 50);
    {
        pm_schema *schema = NULL;
        assert_int_equal(pm_schema_read_latest(fs, path, &schema, &err), 0);
        assert_int_equal(
            pm_expire_config_from_options(&schema->options, t10 + 80 * MIN_MS, &c, &err), 0);
        pm_schema_free(schema);
    }
    assert_int_equal(c.retain_min, 2);
    assert_int_equal(c.retain_max, 5);
    assert_int_equal(c.time_retained_ms, 60 * MIN_MS);
    assert_false(c.changelog_decoupled);
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 1);
    assert_int_equal(r.begin, 1);
    assert_int_equal(r.end, 2);
    assert_false(snapshot_exists(path, 1));
    assert_true(snapshot_exists(path, 2));
    {
        char *hint = read_text(path, "snapshot/EARLIEST");
        assert_string_equal(hint, "2");
        pm_free(hint);
    }
    /* two more commits within the hour: six snapshots (2..7), all recent */
    assert_int_equal(commit_one(path, 6, "a"), 6);
    assert_int_equal(commit_one(path, 7, "a"), 7);
    set_time(path, 6, t10 + 81 * MIN_MS);
    set_time(path, 7, t10 + 82 * MIN_MS);
    for (int i = 2; i <= 5; i++)
        set_time(path, i, t10 + 80 * MIN_MS);
    c.now_ms = t10 + 82 * MIN_MS;
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 1); /* #2, by num-retained.max */
    assert_false(snapshot_exists(path, 2));
    assert_true(snapshot_exists(path, 3));
    /* nothing more: 5 remain, all within the hour */
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 0);
    /* the limit: at most 1 per run even when everything is old */
    c.now_ms = t10 + 600 * MIN_MS;
    c.max_deletes = 1;
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 1);
    assert_true(snapshot_exists(path, 4));
    /* retain-min: the last 2 always stay */
    c.max_deletes = INT64_MAX;
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 2);
    assert_true(snapshot_exists(path, 6) && snapshot_exists(path, 7));
    pm_test_assert_files_exact(path);
    /* Java's checks */
    c.retain_max = 1;
    assert_int_equal(pm_expire_snapshots(fs, path, &c, false, &r, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "retainMax (1) must not be less than retainMin (2)"));
    c.retain_min = 0;
    assert_int_equal(pm_expire_snapshots(fs, path, &c, false, &r, &err), PAIMON_EINVALID);
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

/* ---- what protects --------------------------------------------------------------------- */

static void test_consumer_protects(void **state)
{
    char *path = make_table("expire-consumer", false, false, NULL, 0);
    pm_fs *fs = pm_fs_local_new(false);
    pm_expire_config c;
    pm_expire_result r;
    paimon_error err;
    (void)state;
    for (int i = 1; i <= 6; i++)
        commit_one(path, i, "a");
    assert_int_equal(pm_consumer_write(fs, path, "reader", 3, &err), 0);
    assert_int_equal(pm_consumer_write(fs, path, "later", 5, &err), 0);
    c = config(path, 1, 1, pm_now_millis());
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 2); /* 1 and 2: the slowest consumer reads 3 next */
    assert_true(snapshot_exists(path, 3));
    assert_false(snapshot_exists(path, 2));
    pm_test_assert_files_exact(path);
    /* consumer.changelog-only (with decoupled changelogs) protects only the changelogs */
    c.consumer_changelog_only = true;
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 3);
    assert_true(snapshot_exists(path, 6));
    assert_false(snapshot_exists(path, 5));
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

/* A tag keeps its snapshot's data files and manifests when the snapshots around it go. */
static void test_tag_protects(void **state)
{
    char *path = make_table("expire-tag", true, false, NULL, 0);
    char *tagged, *latest;
    pm_expire_config c;
    pm_expire_result r;
    (void)state;
    commit_one(path, 1, "a");
    commit_one(path, 2, "b");
    write_tag(path, "t2", 2);
    compact_full(path); /* 3 rewrites the files of 1 and 2 */
    commit_one(path, 1, "c");
    commit_one(path, 3, "d");
    tagged = rows(path, 0, "t2");
    latest = rows(path, 5, NULL);
    assert_string_equal(tagged, "{\"id\":1,\"v\":\"a\"}\n{\"id\":2,\"v\":\"b\"}\n");
    c = config(path, 1, 1, pm_now_millis());
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 4);
    assert_true(r.files > 0);
    {
        char *again = rows(path, 0, "t2"), *now = rows(path, 5, NULL);
        assert_string_equal(again, tagged);
        assert_string_equal(now, latest);
        pm_free(again);
        pm_free(now);
    }
    pm_test_assert_files_exact(path);
    pm_free(tagged);
    pm_free(latest);
    pm_test_remove_table(path);
}

/* paimon_table_expire with dry_run removes nothing and counts what the real run removes. */
static void test_dry_run_counts(void **state)
{
    char *path = make_table("expire-dry", true, false, NULL, 0);
    paimon_table *t;
    paimon_expire_options o = PAIMON_EXPIRE_OPTIONS_INIT;
    paimon_expire_result dry = PAIMON_EXPIRE_RESULT_INIT, real = PAIMON_EXPIRE_RESULT_INIT;
    paimon_error err;
    pm_strlist before, after;
    (void)state;
    for (int i = 1; i <= 4; i++)
        commit_one(path, i % 2, "a");
    write_tag(path, "t3", 3);
    compact_full(path);
    commit_one(path, 7, "b");
    pm_strlist_init(&before);
    pm_strlist_init(&after);
    pm_test_disk_files(path, &before);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    o.retain_min = 1;
    o.older_than = "0 s";
    o.dry_run = 1;
    if (paimon_table_expire(t, &o, &dry, &err) != 0)
        fail_msg("%s", err.message);
    pm_test_disk_files(path, &after);
    assert_int_equal(after.count, before.count);
    for (size_t i = 0; i < after.count; i++)
        assert_string_equal(after.items[i], before.items[i]);
    o.dry_run = 0;
    if (paimon_table_expire(t, &o, &real, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(dry.snapshots, 5);
    assert_int_equal(real.snapshots, dry.snapshots);
    assert_int_equal(real.files, dry.files);
    assert_int_equal(real.first, 1);
    assert_int_equal(real.end, 6);
    pm_strlist_free(&after);
    pm_strlist_init(&after);
    pm_test_disk_files(path, &after);
    /* the snapshot files go besides the counted files */
    assert_int_equal(after.count, before.count - (size_t)real.files - (size_t)real.snapshots);
    pm_test_assert_files_exact(path);
    /* bad values are refused with nothing removed */
    o.older_than = "soon";
    assert_int_equal(paimon_table_expire(t, &o, &real, &err), PAIMON_EINVALID);
    assert_string_equal(err.message, "older-than: 'soon' is not a duration");
    o.older_than = NULL;
    o.retain_min = 3;
    o.retain_max = 2;
    assert_int_equal(paimon_table_expire(t, &o, &real, &err), PAIMON_EINVALID);
    o.retain_max = -1;
    assert_int_equal(paimon_table_expire(t, &o, &real, &err), PAIMON_EINVALID);
    paimon_table_free(t);
    pm_strlist_free(&before);
    pm_strlist_free(&after);
    pm_test_remove_table(path);
}

/* ---- the decoupled changelog lifecycle ---------------------------------------------------- */

/* The changes of snapshots [from, to] as the public change read gives them. */
static char *changes(const char *path, int64_t from, int64_t to)
{
    paimon_table *t;
    paimon_changes *ch;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_changes_snapshot info;
    paimon_error err;
    pm_buf all;
    int rc;
    pm_buf_init(&all, 0);
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = from;
    o.to_snapshot = to;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    if (paimon_table_changes(&ch, t, &o, &err) != 0)
        fail_msg("%s", err.message);
    while ((rc = paimon_changes_next_snapshot(ch, &info, &err)) == 0) {
        paimon_cursor *cur;
        pm_buf_printf(&all, "#%lld\n", (long long)info.id);
        assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
        while ((rc = paimon_cursor_next(cur, &err)) == 0) {
            const char *json;
            size_t len;
            assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
            pm_buf_append(&all, json, len);
            pm_buf_putc(&all, '\n');
        }
        if (rc != PAIMON_ITEROVER)
            fail_msg("%s", err.message);
        paimon_cursor_free(cur);
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s", err.message);
    paimon_changes_free(ch);
    paimon_table_free(t);
    pm_buf_putc(&all, '\0');
    return (char *)pm_buf_detach(&all, NULL);
}

static void check_decoupled(const char *producer, bool compact)
{
    static char tag[64];
    /* decoupled by time: changelogs 2 h, snapshots 1 h (the commits' own upkeep keeps the
     * default 10 snapshots, so nothing expires before the test asks) */
    const char *opts[4] = {"changelog.time-retained", "2 h", "changelog-producer", producer};
    char *path, *before, *after;
    char *snap[16];
    int64_t latest;
    pm_expire_config c;
    pm_expire_result r;
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    snprintf(tag, sizeof(tag), "expire-decoupled-%s", producer);
    path = make_table(tag, true, false, opts, 4);
    commit_one(path, 1, "a");
    commit_one(path, 2, "b");
    if (compact)
        compact_full(path); /* 3: COMPACT, removes the APPEND files of 1 and 2 */
    else
        commit_one(path, 3, "c");
    commit_one(path, 1, "d");
    commit_one(path, 4, "e");
    latest = pm_test_latest_snapshot(path);
    assert_true(latest >= 5 && latest < 16);
    before = changes(path, 1, latest);
    for (int i = 1; i <= latest - 2; i++) {
        char rel[32];
        snprintf(rel, sizeof(rel), "snapshot/snapshot-%d", i);
        snap[i] = read_text(path, rel);
    }
    c = config(path, 2, 2, pm_now_millis());
    assert_true(c.changelog_decoupled);
    r = expire(path, &c);
    assert_int_equal(r.snapshots, latest - 2);
    /* changelog-<id> is the snapshot's JSON, as Java's Changelog(snapshot) writes it */
    for (int i = 1; i <= latest - 2; i++) {
        char rel[32], *text;
        snprintf(rel, sizeof(rel), "changelog/changelog-%d", i);
        text = read_text(path, rel);
        assert_string_equal(text, snap[i]);
        pm_free(text);
        pm_free(snap[i]);
    }
    {
        char *hint = read_text(path, "changelog/LATEST"), want[24];
        snprintf(want, sizeof(want), "%lld", (long long)latest - 2);
        assert_string_equal(hint, want);
        pm_free(hint);
    }
    /* the change read falls back to them and reads the same */
    after = changes(path, 1, latest);
    assert_string_equal(after, before);
    pm_free(after);
    pm_test_assert_files_exact(path);
    /* the changelog expiration with its own window: keep 3 changelogs-or-snapshots */
    c.cl_retain_min = 3;
    c.cl_retain_max = 3;
    c.cl_time_retained_ms = 0;
    memset(&r, 0, sizeof(r));
    if (pm_expire_changelogs(fs, path, &c, false, &r, &err) != 0)
        fail_msg("%s", err.message);
    /* latest - 3 + 1 stays: changelogs 1 .. latest - 3 go */
    assert_int_equal(r.changelogs, latest - 3);
    {
        char rel[48], *hint, want[24], mark[24];
        snprintf(rel, sizeof(rel), "changelog/changelog-%lld", (long long)latest - 3);
        assert_false(file_exists(path, rel));
        snprintf(rel, sizeof(rel), "changelog/changelog-%lld", (long long)latest - 2);
        assert_true(file_exists(path, rel));
        hint = read_text(path, "changelog/EARLIEST");
        snprintf(want, sizeof(want), "%lld", (long long)latest - 2);
        assert_string_equal(hint, want);
        pm_free(hint);
        pm_test_assert_files_exact(path);
        after = changes(path, latest - 2, latest);
        snprintf(mark, sizeof(mark), "#%lld\n", (long long)latest - 2);
        assert_non_null(strstr(before, mark));
        assert_string_equal(after, strstr(before, mark));
    }
    pm_free(after);
    pm_free(before);
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

static void test_decoupled_input(void **state)
{
    (void)state;
    check_decoupled("input", false);
}

/* producer none: the APPEND files a compaction removed stay as the changelog */
static void test_decoupled_none(void **state)
{
    (void)state;
    check_decoupled("none", true);
}

/* ---- edge cases --------------------------------------------------------------------------- */

static void test_nothing_to_expire(void **state)
{
    char *path = make_table("expire-nothing", false, false, NULL, 0);
    char file[4096], *hint;
    pm_expire_config c;
    pm_expire_result r;
    (void)state;
    for (int i = 1; i <= 3; i++)
        commit_one(path, i, "a");
    snprintf(file, sizeof(file), "%s/snapshot/EARLIEST", path);
    unlink(file);
    c = config(path, 5, 10, pm_now_millis());
    r = expire(path, &c);
    assert_int_equal(r.snapshots + r.files, 0);
    hint = read_text(path, "snapshot/EARLIEST"); /* written because it was missing */
    assert_string_equal(hint, "1");
    pm_free(hint);
    pm_test_write_file(file, "2", 1); /* present (even stale): left alone */
    r = expire(path, &c);
    hint = read_text(path, "snapshot/EARLIEST");
    assert_string_equal(hint, "2");
    pm_free(hint);
    pm_test_remove_table(path);
}

/* The end snapshot vanished (another expiration, a rollback): data files go, metadata and
 * snapshot files stay, no hint is written. */
static void test_vanished_end(void **state)
{
    char *path = make_table("expire-vanished", true, false, NULL, 0);
    char file[4096], *hint, *at3;
    pm_expire_config c;
    pm_expire_result r;
    (void)state;
    commit_one(path, 1, "a");
    commit_one(path, 2, "b");
    compact_full(path); /* 3 */
    commit_one(path, 3, "c");
    commit_one(path, 4, "d");
    at3 = rows(path, 3, NULL);
    snprintf(file, sizeof(file), "%s/snapshot/snapshot-4", path);
    unlink(file);
    c = config(path, 2, 2, pm_now_millis()); /* end = 5 - 2 + 1 = 4 */
    r = expire(path, &c);
    assert_int_equal(r.snapshots, 0);
    assert_true(r.files >= 2); /* the files snapshot 3 compacted away */
    for (int i = 1; i <= 3; i++)
        assert_true(snapshot_exists(path, i));
    hint = read_text(path, "snapshot/EARLIEST");
    assert_string_equal(hint, "1");
    pm_free(hint);
    {
        char *again = rows(path, 3, NULL);
        assert_string_equal(again, at3);
        pm_free(again);
    }
    pm_free(at3);
    pm_test_remove_table(path);
}

/* ---- consumers and the upkeep step ---------------------------------------------------------- */

static void age(const char *path, const char *rel, int64_t seconds)
{
    char buf[4096];
    struct timespec times[2];
    clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= seconds;
    times[1] = times[0];
    snprintf(buf, sizeof(buf), "%s/%s", path, rel);
    assert_int_equal(utimensat(AT_FDCWD, buf, times, 0), 0);
}

static void test_consumer_expiration(void **state)
{
    static const char *const OPTS[] = {"consumer.expiration-time", "1 h"};
    char *path = make_table("expire-consumers", false, true, OPTS, 2);
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    int64_t removed = 0;
    (void)state;
    commit_one(path, 1, "a");
    assert_int_equal(pm_consumer_write(fs, path, "old", 1, &err), 0);
    assert_int_equal(pm_consumer_write(fs, path, "fresh", 1, &err), 0);
    age(path, "consumer/consumer-old", 2 * 3600);
    age(path, "consumer/consumer-fresh", 3500);
    assert_int_equal(pm_expire_consumers(fs, path, pm_now_millis(), 3600 * 1000LL, &removed, &err),
                     0);
    assert_int_equal(removed, 1);
    assert_false(file_exists(path, "consumer/consumer-old"));
    assert_true(file_exists(path, "consumer/consumer-fresh"));
    /* the commit's step 3 does the same with the table's option */
    age(path, "consumer/consumer-fresh", 3 * 3600);
    commit_one(path, 2, "b");
    assert_false(file_exists(path, "consumer/consumer-fresh"));
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

/* Every commit expires with the table's options (step 4 of table/maintain.c). */
/* snapshot.clean-empty-directories, as Java's FileDeletionBase.cleanEmptyDirectories:
 * when expiration deletes the last data file of a bucket, the bucket directory and then the
 * emptied partition directories go; a directory that keeps a file stays; with the option
 * off (the default) every directory stays. */
static void check_clean_empty_dirs(bool clean)
{
    char *t = pm_test_table_path(clean ? "expire_dirs_on" : "expire_dirs_off");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *parts[2] = {"p", "q"};
    const char *keys[3] = {"write-only", "dynamic-partition-overwrite",
                           "snapshot.clean-empty-directories"};
    const char *vals[3] = {"true", "false", clean ? "true" : "false"};
    paimon_error err;
    pm_expire_config c;
    pm_expire_result r;
    co.columns = "id BIGINT, p INT, q INT";
    co.partition_keys = parts;
    co.partition_key_count = 2;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 3;
    if (paimon_table_create(t, &co, &err) != 0)
        fail_msg("%s", err.message);
    life_write(t, "{\"id\":1,\"p\":1,\"q\":1}\n", false);
    life_write(t, "{\"id\":2,\"p\":2,\"q\":1}\n{\"id\":3,\"p\":2,\"q\":2}\n", false);
    /* a static overwrite: every file of snapshot 2 is deleted; p=2/q=2 gets a new one */
    life_write(t, "{\"id\":4,\"p\":2,\"q\":2}\n", true);
    assert_true(file_exists(t, "p=1/q=1/bucket-0") && file_exists(t, "p=2/q=1/bucket-0"));
    c = config(t, 1, 1, pm_now_millis());
    r = expire(t, &c);
    assert_int_equal(r.snapshots, 2);
    assert_false(snapshot_exists(t, 1));
    /* the partitions' data files are gone either way */
    assert_int_equal(clean ? 0 : 1, file_exists(t, "p=1/q=1/bucket-0"));
    assert_int_equal(clean ? 0 : 1, file_exists(t, "p=1/q=1"));
    assert_int_equal(clean ? 0 : 1, file_exists(t, "p=1"));
    assert_int_equal(clean ? 0 : 1, file_exists(t, "p=2/q=1"));
    assert_true(file_exists(t, "p=2/q=2/bucket-0")); /* keeps the overwrite's file */
    assert_true(file_exists(t, "p=2"));
    {
        char *got = rows(t, 3, NULL);
        assert_non_null(strstr(got, "\"id\":4"));
        assert_null(strstr(got, "\"id\":1"));
        pm_free(got);
    }
    pm_test_remove_table(t);
}

static void test_clean_empty_dirs_on(void **state)
{
    (void)state;
    check_clean_empty_dirs(true);
}

static void test_clean_empty_dirs_off(void **state)
{
    (void)state;
    check_clean_empty_dirs(false);
}

static void test_commit_expires(void **state)
{
    static const char *const OPTS[] = {"snapshot.num-retained.min", "1",
                                       "snapshot.num-retained.max", "2"};
    char *path = make_table("expire-commit", true, true, OPTS, 4);
    (void)state;
    for (int i = 1; i <= 6; i++)
        commit_one(path, i % 3, "x");
    {
        pm_strlist files;
        size_t snapshots = 0;
        pm_strlist_init(&files);
        pm_test_disk_files(path, &files);
        for (size_t i = 0; i < files.count; i++)
            if (strncmp(files.items[i], "snapshot/snapshot-", 18) == 0)
                snapshots++;
        assert_int_equal(snapshots, 2);
        pm_strlist_free(&files);
    }
    pm_test_assert_files_exact(path);
    pm_test_remove_table(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_example),       cmocka_unit_test(test_consumer_protects),
        cmocka_unit_test(test_tag_protects),         cmocka_unit_test(test_decoupled_input),
        cmocka_unit_test(test_decoupled_none),       cmocka_unit_test(test_nothing_to_expire),
        cmocka_unit_test(test_vanished_end),         cmocka_unit_test(test_consumer_expiration),
        cmocka_unit_test(test_commit_expires),       cmocka_unit_test(test_clean_empty_dirs_on),
        cmocka_unit_test(test_clean_empty_dirs_off), cmocka_unit_test(test_dry_run_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
