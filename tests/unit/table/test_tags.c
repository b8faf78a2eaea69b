/* Tags and rollback (table/tag.h, tag_auto.h, rollback.h): Java's file shape, auto-tag
 * names, create/rename/list/delete with file cleanup, automatic creation and retention,
 * time expiry, and rollback to a snapshot, a tag and an expired tag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#include "life_util.h"
#include "table_state.h"

#include "meta/paths.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/rollback.h"
#include "table/tag.h"
#include "table/tag_auto.h"
#include "util/alloc.h"
#include "util/time.h"

static int64_t local_ms(int y, int mo, int d, int h, int mi, int s, int ms)
{
    return pm_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400000LL + h * 3600000LL +
           mi * 60000LL + s * 1000LL + ms;
}

static bool exists(const char *table, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", table, rel);
    return access(path, F_OK) == 0;
}

/* ---- Java's shape ---------------------------------------------------------------------- */

static void test_tag_file_shape(void **state)
{
    pm_snapshot s;
    pm_buf b;
    pm_tag *back = NULL;
    pm_fs *fs = pm_fs_memory_new();
    const char *text;
    int64_t v;
    char dur[64];
    (void)state;
    memset(&s, 0, sizeof(s));
    s.version = 3;
    s.id = 7;
    s.base_manifest_list = "manifest-list-a-0";
    s.base_manifest_list_size = 10;
    s.delta_manifest_list = "manifest-list-a-1";
    s.delta_manifest_list_size = 11;
    s.changelog_manifest_list_size = PM_ABSENT;
    s.commit_user = "u";
    s.commit_identifier = 1;
    s.commit_kind = PM_COMMIT_APPEND;
    s.time_millis = 1000;
    s.total_record_count = 3;
    s.delta_record_count = 3;
    s.changelog_record_count = PM_ABSENT_COUNT;
    pm_options_init(&s.properties);

    pm_buf_init(&b, 0);
    assert_int_equal(pm_tag_format(&s, local_ms(2026, 2, 4, 6, 8, 10, 12), 3000, &b, NULL), 0);
    text = pm_buf_cstr(&b);
    /* the tag fields come last, Jackson's LocalDateTime array and Duration number */
    assert_non_null(strstr(text,
                           "\"nextRowId\" : 0,\n  \"tagCreateTime\" : [ 2026, 2, 4, 6, 8, 10, "
                           "12000000 ],\n  \"tagTimeRetained\" : 3.000000000\n}"));
    assert_int_equal(fs->write_atomic(fs, "t/tag/tag-x", b.data, b.len, false, NULL), 0);
    assert_int_equal(pm_tag_read(fs, "t", "x", &back, NULL), 0);
    assert_int_equal(back->snapshot->id, 7);
    assert_true(pm_tag_create_time_ms(back, &v));
    assert_int_equal(v, local_ms(2026, 2, 4, 6, 8, 10, 12));
    assert_true(pm_tag_time_retained_ms(back, &v));
    assert_int_equal(v, 3000);
    pm_tag_free(back);

    /* whole minutes drop the seconds and nanos; no retention: no tag fields at all */
    b.len = 0;
    assert_int_equal(pm_tag_format(&s, local_ms(2026, 12, 31, 23, 59, 0, 0), 86400000, &b, NULL),
                     0);
    assert_non_null(strstr(pm_buf_cstr(&b), "[ 2026, 12, 31, 23, 59 ],\n  \"tagTimeRetained\" : "
                                            "86400.000000000\n}"));
    b.len = 0;
    assert_int_equal(pm_tag_format(&s, 0, PM_TAG_NO_RETENTION, &b, NULL), 0);
    assert_null(strstr(pm_buf_cstr(&b), "tag"));
    pm_buf_free(&b);

    pm_tag_duration_string(86400000, dur, sizeof(dur));
    assert_string_equal(dur, "PT24H");
    pm_tag_duration_string(5400000, dur, sizeof(dur));
    assert_string_equal(dur, "PT1H30M");
    pm_tag_duration_string(500, dur, sizeof(dur));
    assert_string_equal(dur, "PT0.5S");
    pm_tag_duration_string(0, dur, sizeof(dur));
    assert_string_equal(dur, "PT0S");
    pm_options_free(&s.properties);
    pm_fs_free(fs);
}

/* ---- auto-tag names -------------------------------------------------------------------- */

static void check_name(const char *const *opts, int64_t t, const char *want)
{
    pm_options o;
    pm_tag_period p;
    char name[40];
    int64_t back;
    pm_options_init(&o);
    for (size_t i = 0; opts[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&o, opts[i], opts[i + 1]), 0);
    assert_int_equal(pm_tag_period_from(&o, &p, NULL), 0);
    pm_tag_period_format(&p, pm_tag_period_previous(&p, t), name, sizeof(name));
    assert_string_equal(name, want);
    assert_true(pm_tag_period_parse(&p, name, &back));
    assert_int_equal(back, pm_tag_period_previous(&p, t));
    pm_options_free(&o);
}

static void test_period_names(void **state)
{
    int64_t t = local_ms(2023, 7, 26, 10, 30, 5, 0), v;
    pm_options o;
    pm_tag_period p;
    (void)state;
    /* behaviour.md §8.3: daily, commit at 2023-07-26 00:12 -> 2023-07-25 */
    check_name((const char *[]){NULL}, local_ms(2023, 7, 26, 0, 12, 0, 0), "2023-07-25");
    check_name((const char *[]){"tag.period-formatter", "without_dashes", NULL}, t, "20230725");
    check_name((const char *[]){"tag.creation-period", "hourly", NULL}, t, "2023-07-26 09");
    check_name((const char *[]){"tag.creation-period", "hourly", "tag.period-formatter",
                                "without_dashes", NULL},
               t, "20230726 09");
    check_name((const char *[]){"tag.creation-period", "hourly", "tag.period-formatter",
                                "without_dashes_and_spaces", NULL},
               t, "2023072609");
    check_name((const char *[]){"tag.creation-period", "two-hours", NULL}, t, "2023-07-26 08");
    check_name((const char *[]){"tag.creation-period-duration", "30 min", NULL}, t, "202307261000");
    /* names that are no auto tag of a daily period (STRICT dates) */
    pm_options_init(&o);
    assert_int_equal(pm_tag_period_from(&o, &p, NULL), 0);
    assert_false(pm_tag_period_parse(&p, "2023-02-30", &v));
    assert_false(pm_tag_period_parse(&p, "release-1", &v));
    assert_false(pm_tag_period_parse(&p, "20230725", &v));
    assert_true(pm_tag_period_parse(&p, "2024-02-29", &v));
    pm_options_free(&o);
}

/* ---- create, rename, list, delete ------------------------------------------------------ */

static void test_create_rename_list(void **state)
{
    char *path = life_table("tags-crud", true, NULL);
    paimon_table *t = NULL;
    paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
    paimon_list *l = NULL;
    paimon_error err;
    (void)state;
    life_write(path, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(path, "{\"id\":2,\"v\":\"b\"}\n", false);
    life_write(path, "{\"id\":1,\"v\":\"c\"}\n", false);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);

    assert_int_equal(paimon_tag_create(t, "latest", NULL, &err), 0);
    o.snapshot = 1;
    o.time_retained = "2 h";
    assert_int_equal(paimon_tag_create(t, "first", &o, &err), 0);
    assert_int_equal(paimon_tag_create(t, "first", &o, &err), PAIMON_EEXISTS);
    assert_non_null(strstr(err.message, "tag 'first' already exists"));
    o.snapshot = 9;
    o.time_retained = NULL;
    assert_int_equal(paimon_tag_create(t, "nine", &o, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "snapshot 9 does not exist"));
    assert_int_equal(paimon_tag_create(t, "  ", NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_tag_create(t, "a/b", NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_tag_create(t, "..", NULL, &err), PAIMON_EINVALID);
    o.snapshot = PAIMON_LATEST_SNAPSHOT;
    o.time_retained = "soon";
    assert_int_equal(paimon_tag_create(t, "bad", &o, &err), PAIMON_EINVALID);
    assert_false(exists(path, "tag/tag-bad"));

    assert_int_equal(paimon_tag_rename(t, "first", "one", &err), 0);
    assert_int_equal(paimon_tag_rename(t, "first", "uno", &err), PAIMON_ENOTFOUND);
    assert_int_equal(paimon_tag_rename(t, "one", "latest", &err), PAIMON_EEXISTS);

    assert_int_equal(paimon_table_tags(t, &l, &err), 0);
    assert_int_equal(paimon_list_count(l), 2);
    assert_string_equal(paimon_list_tag(l, 0)->name, "one"); /* by snapshot id */
    assert_int_equal(paimon_list_tag(l, 0)->snapshot_id, 1);
    assert_string_equal(paimon_list_tag(l, 0)->time_retained, "PT2H");
    assert_true(paimon_list_tag(l, 0)->has_create_time);
    assert_string_equal(paimon_list_tag(l, 1)->name, "latest");
    assert_int_equal(paimon_list_tag(l, 1)->snapshot_id, 3);
    assert_null(paimon_list_tag(l, 1)->time_retained);
    assert_int_equal(paimon_list_tag(l, 1)->record_count, 3); /* raw rows, as Java counts */
    assert_null(paimon_list_tag(l, 2));
    paimon_list_free(l);

    /* reading by tag */
    {
        char *rows = life_rows(path, 0, "one", NULL, 0);
        assert_string_equal(rows, "{\"id\":1,\"v\":\"a\"}\n");
        pm_free(rows);
    }
    /* a snapshot file still exists: only the tag file goes */
    assert_int_equal(paimon_tag_delete(t, "one", NULL, &err), 0);
    assert_int_equal(paimon_tag_delete(t, "one", NULL, &err), PAIMON_ENOTFOUND);
    assert_true(exists(path, "snapshot/snapshot-1"));
    paimon_table_free(t);
    pm_test_remove_table(path);
}

/* Expires snapshots below `keep` the crude way: their files only, as if expiration had
 * run with a tag protecting their data. */
static void drop_snapshots_below(const char *path, int64_t keep)
{
    pm_fs *fs = pm_fs_local_new(false);
    for (int64_t id = 1; id < keep; id++) {
        char *p = pm_snapshot_path(path, id);
        PM_IGNORE(fs->remove(fs, p, NULL));
        pm_free(p);
    }
    assert_int_equal(pm_snapshot_write_hint(fs, path, "EARLIEST", keep, NULL), 0);
    pm_fs_free(fs);
}

static void test_delete_cleans_files(void **state)
{
    char *path = life_table("tags-delete", false, NULL);
    paimon_table *t = NULL;
    paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
    paimon_error err, cleanup;
    pm_strlist before, after;
    char *rows2, *rows3, *r;
    (void)state;
    life_write(path, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(path, "{\"id\":2,\"v\":\"b\"}\n", true); /* overwrite: snapshot 2 drops a */
    life_write(path, "{\"id\":3,\"v\":\"c\"}\n", false);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    o.snapshot = 1;
    assert_int_equal(paimon_tag_create(t, "t1", &o, &err), 0);
    assert_int_equal(paimon_tag_create(t, "t1b", &o, &err), 0);
    drop_snapshots_below(path, 2);
    rows2 = life_rows(path, 2, NULL, NULL, 0);
    rows3 = life_rows(path, 3, NULL, NULL, 0);
    pm_strlist_init(&before);
    pm_strlist_init(&after);
    life_files(path, &before);

    /* another tag of the snapshot keeps its files */
    assert_int_equal(paimon_tag_delete(t, "t1b", &cleanup, &err), 0);
    life_files(path, &after);
    assert_int_equal(after.count, before.count - 1);
    r = life_rows(path, 0, "t1", NULL, 0);
    assert_string_equal(r, "{\"id\":1,\"v\":\"a\"}\n");
    pm_free(r);

    /* the last tag of an expired snapshot: its data file and its own manifests go */
    assert_int_equal(paimon_tag_delete(t, "t1", &cleanup, &err), 0);
    assert_int_equal(cleanup.code, 0);
    pm_strlist_free(&after);
    pm_strlist_init(&after);
    life_files(path, &after);
    assert_true(after.count <= before.count - 4); /* tag files, the data file, list(s) */
    {
        size_t data_before = 0, data_after = 0;
        for (size_t i = 0; i < before.count; i++)
            data_before += strncmp(before.items[i], "bucket-0/data-", 14) == 0;
        for (size_t i = 0; i < after.count; i++)
            data_after += strncmp(after.items[i], "bucket-0/data-", 14) == 0;
        assert_int_equal(data_after, data_before - 1);
    }
    r = life_rows(path, 2, NULL, NULL, 0);
    assert_string_equal(r, rows2);
    pm_free(r);
    r = life_rows(path, 3, NULL, NULL, 0);
    assert_string_equal(r, rows3);
    pm_free(r);
    pm_free(rows2);
    pm_free(rows3);
    pm_strlist_free(&before);
    pm_strlist_free(&after);
    paimon_table_free(t);
    pm_test_remove_table(path);
}

/* ---- automatic creation ---------------------------------------------------------------- */

/* Rewrites snapshot `id`'s commit time (the auto tags go by it). */
static void set_time(const char *path, int64_t id, int64_t epoch_ms)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *s = NULL;
    char *p = pm_snapshot_path(path, id);
    assert_int_equal(pm_snapshot_read(fs, path, id, &s, NULL), 0);
    s->time_millis = epoch_ms;
    json_decref(s->json);
    s->json = NULL;
    assert_int_equal(fs->remove(fs, p, NULL), 0);
    assert_int_equal(pm_snapshot_commit(fs, path, s, NULL), 0);
    pm_snapshot_free(s);
    pm_free(p);
    pm_fs_free(fs);
}

/* Snapshot `id` as a copy of snapshot id - 1 committed at `epoch_ms`. */
static void add_snapshot(const char *path, int64_t id, int64_t epoch_ms)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *s = NULL;
    assert_int_equal(pm_snapshot_read(fs, path, id - 1, &s, NULL), 0);
    s->id = id;
    s->time_millis = epoch_ms;
    json_decref(s->json);
    s->json = NULL;
    assert_int_equal(pm_snapshot_commit(fs, path, s, NULL), 0);
    pm_snapshot_free(s);
    pm_fs_free(fs);
}

static void test_auto_creation(void **state)
{
    const char *opts[] = {"tag.automatic-creation=process-time", "tag.creation-delay=10 min",
                          "sink.process-time-zone=UTC",          "tag.num-retained-max=2",
                          "tag.default-time-retained=30 d",      NULL};
    char *path = life_table("tags-auto", true, opts);
    pm_fs *fs = pm_fs_local_new(false);
    pm_strlist names;
    int64_t day = 86400000LL, t0 = local_ms(2023, 7, 26, 0, 12, 0, 0);
    paimon_error err;
    (void)state;
    /* the commits' own upkeep tags snapshot 1 (no auto tag yet): drop that to replay */
    life_write(path, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(path, "{\"id\":2,\"v\":\"b\"}\n", false);
    life_write(path, "{\"id\":3,\"v\":\"c\"}\n", false);
    life_write(path, "{\"id\":4,\"v\":\"d\"}\n", false);
    {
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s/tag", path);
        pm_test_rmtree(dir);
    }
    set_time(path, 1, t0);                 /* 2023-07-26 00:12 -> 2023-07-25 */
    set_time(path, 2, t0 + 3600000);       /* same day: nothing */
    set_time(path, 3, t0 + day - 1200000); /* 2023-07-26 23:52: before the delay: nothing */
    set_time(path, 4, t0 + 2 * day);       /* 2023-07-28 00:12 -> 2023-07-27 */
    assert_int_equal(pm_tag_auto_run_at(fs, path, t0 + 2 * day, &err), 0);
    pm_strlist_init(&names);
    assert_int_equal(pm_tag_list(fs, path, &names, NULL), 0);
    assert_int_equal(names.count, 2);
    assert_string_equal(names.items[0], "2023-07-25");
    assert_string_equal(names.items[1], "2023-07-27");
    {
        pm_tag *tg = NULL;
        int64_t ms;
        assert_int_equal(pm_tag_read(fs, path, "2023-07-27", &tg, NULL), 0);
        assert_int_equal(tg->snapshot->id, 4);
        assert_true(pm_tag_time_retained_ms(tg, &ms));
        assert_int_equal(ms, 30 * day);
        pm_tag_free(tg);
    }
    /* a manual tag in the auto form on an auto-tagged snapshot: Java refuses it */
    {
        paimon_table *h = NULL;
        paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
        assert_int_equal(paimon_table_open(&h, path, &err), 0);
        o.snapshot = 4;
        assert_int_equal(paimon_tag_create(h, "2023-07-01", &o, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "already auto-tagged with 2023-07-27"));
        assert_int_equal(paimon_tag_create(h, "manual", &o, &err), 0);
        assert_int_equal(paimon_tag_delete(h, "manual", NULL, &err), 0);
        paimon_table_free(h);
    }
    /* a rerun changes nothing; a later snapshot past the next period adds one and the
     * oldest goes (tag.num-retained-max = 2) */
    assert_int_equal(pm_tag_auto_run_at(fs, path, t0 + 2 * day, &err), 0);
    add_snapshot(path, 5, t0 + 3 * day); /* not a commit: its upkeep would run now */
    assert_int_equal(pm_tag_auto_run_at(fs, path, t0 + 3 * day, &err), 0);
    pm_strlist_free(&names);
    pm_strlist_init(&names);
    assert_int_equal(pm_tag_list(fs, path, &names, NULL), 0);
    assert_int_equal(names.count, 2);
    assert_string_equal(names.items[0], "2023-07-27");
    assert_string_equal(names.items[1], "2023-07-28");
    /* time expiry: created now with 30 days' retention, they are kept until then */
    assert_int_equal(pm_tag_auto_run_at(fs, path, pm_now_millis() + 29 * day, &err), 0);
    assert_true(exists(path, "tag/tag-2023-07-28"));
    assert_int_equal(pm_tag_auto_run_at(fs, path, pm_now_millis() + 31 * day, &err), 0);
    pm_strlist_free(&names);
    pm_strlist_init(&names);
    assert_int_equal(pm_tag_list(fs, path, &names, NULL), 0);
    assert_int_equal(names.count, 0);
    pm_strlist_free(&names);
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

static void test_auto_bad_delay(void **state)
{
    const char *opts[] = {"tag.automatic-creation=process-time", "tag.creation-period=hourly",
                          "tag.creation-delay=2 h", NULL};
    char *path = life_table("tags-delay", true, opts);
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    (void)state;
    assert_int_equal(pm_tag_auto_run(fs, path, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "tag.creation-delay"));
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

static void test_batch_tag(void **state)
{
    const char *opts[] = {"tag.automatic-creation=batch", "tag.batch.customized-name=nightly",
                          NULL};
    char *path = life_table("tags-batch", true, opts);
    pm_fs *fs = pm_fs_local_new(false);
    pm_tag *tg = NULL;
    (void)state;
    life_write(path, "{\"id\":1,\"v\":\"a\"}\n", false);
    life_write(path, "{\"id\":2,\"v\":\"b\"}\n", false);
    assert_int_equal(pm_tag_read(fs, path, "nightly", &tg, NULL), 0);
    assert_int_equal(tg->snapshot->id, 2); /* replaced by the later commit */
    pm_tag_free(tg);
    pm_fs_free(fs);
    pm_test_remove_table(path);
}

/* ---- rollback -------------------------------------------------------------------------- */

static void test_rollback(void **state)
{
    char *path = life_table("rollback", true, NULL);
    paimon_table *t = NULL;
    paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
    paimon_error err;
    pm_strlist before, after;
    char *rows2, *r;
    (void)state;
    for (int i = 1; i <= 4; i++) {
        char row[64];
        snprintf(row, sizeof(row), "{\"id\":%d,\"v\":\"r%d\"}\n", i, i);
        life_write(path, row, false);
    }
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    o.snapshot = 2;
    assert_int_equal(paimon_tag_create(t, "two", &o, &err), 0);
    o.snapshot = 4;
    assert_int_equal(paimon_tag_create(t, "four", &o, &err), 0);
    rows2 = life_rows(path, 2, NULL, NULL, 0);

    /* errors change nothing */
    pm_strlist_init(&before);
    pm_strlist_init(&after);
    life_files(path, &before);
    assert_int_equal(paimon_table_rollback(t, 9, NULL, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "snapshot 9"));
    assert_int_equal(paimon_table_rollback(t, 0, "nope", &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "nope"));
    life_files(path, &after);
    assert_int_equal(after.count, before.count);

    /* long-lived changelogs: the one above the target goes, the hint follows */
    {
        char src[4096], dst[4096], cmd[8300];
        for (int id = 1; id <= 4; id += 3) {
            snprintf(src, sizeof(src), "%s/snapshot/snapshot-%d", path, id);
            snprintf(dst, sizeof(dst), "%s/changelog/changelog-%d", path, id);
            snprintf(cmd, sizeof(cmd), "mkdir -p '%s/changelog' && cp '%s' '%s'", path, src, dst);
            assert_int_equal(system(cmd), 0);
        }
    }
    assert_int_equal(paimon_table_rollback(t, 3, NULL, &err), 0);
    assert_int_equal(pm_test_latest_snapshot(path), 3);
    assert_true(exists(path, "changelog/changelog-1"));
    assert_false(exists(path, "changelog/changelog-4"));
    {
        char hint[4096];
        size_t len = 0;
        uint8_t *text;
        snprintf(hint, sizeof(hint), "%s/changelog/LATEST", path);
        text = pm_test_read_file(hint, &len);
        assert_int_equal(len, 1);
        assert_int_equal(text[0], '1');
        pm_free(text);
    }
    assert_false(exists(path, "snapshot/snapshot-4"));
    assert_false(exists(path, "tag/tag-four"));
    assert_true(exists(path, "tag/tag-two"));
    assert_int_equal(paimon_table_rollback(t, 0, "two", &err), 0);
    assert_int_equal(pm_test_latest_snapshot(path), 2);
    r = life_rows(path, 0, NULL, NULL, 0);
    assert_string_equal(r, rows2);
    pm_free(r);
    /* a new commit continues after the rolled-back snapshot */
    assert_int_equal(life_write(path, "{\"id\":9,\"v\":\"z\"}\n", false), 3);

    /* an expired tag's snapshot comes back as the earliest */
    drop_snapshots_below(path, 3);
    assert_false(exists(path, "snapshot/snapshot-2"));
    assert_int_equal(paimon_table_rollback(t, 2, NULL, &err), 0); /* by id: via the tag */
    assert_true(exists(path, "snapshot/snapshot-2"));
    assert_false(exists(path, "snapshot/snapshot-3"));
    {
        pm_fs *fs = pm_fs_local_new(false);
        int64_t id = 0;
        bool found = false;
        assert_int_equal(pm_snapshot_earliest_id(fs, path, &id, &found, NULL), 0);
        assert_int_equal(id, 2);
        pm_fs_free(fs);
    }
    r = life_rows(path, 0, NULL, NULL, 0);
    assert_string_equal(r, rows2);
    pm_free(r);
    pm_free(rows2);
    pm_strlist_free(&before);
    pm_strlist_free(&after);
    paimon_table_free(t);
    pm_test_remove_table(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tag_file_shape),     cmocka_unit_test(test_period_names),
        cmocka_unit_test(test_create_rename_list), cmocka_unit_test(test_delete_cleans_files),
        cmocka_unit_test(test_auto_creation),      cmocka_unit_test(test_auto_bad_delay),
        cmocka_unit_test(test_batch_tag),          cmocka_unit_test(test_rollback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
