/*
 * Snapshot expiration (ExpireSnapshotsImpl), consumer expiration (ConsumerManager.expire)
 * and the two upkeep steps table/maintain.c calls: see expire.h.
 */
#include "table/expire.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "meta/paths.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/expire_files.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/time.h"

/* ---- configuration --------------------------------------------------------------------------- */

int pm_expire_config_from_options(const pm_options *o, int64_t now_ms, pm_expire_config *c,
                                  paimon_error *err)
{
    bool changelog_only = false;
    int rc;
    memset(c, 0, sizeof(*c));
    c->now_ms = now_ms;
    if ((rc = pm_options_get_i64(o, "snapshot.num-retained.min", &c->retain_min, err)) ||
        (rc = pm_options_get_i64(o, "snapshot.num-retained.max", &c->retain_max, err)) ||
        (rc = pm_options_get_duration(o, "snapshot.time-retained", &c->time_retained_ms, err)) ||
        (rc = pm_options_get_i64(o, "snapshot.expire.limit", &c->max_deletes, err)) ||
        /* CoreOptions.changelogNumRetainMin/Max, changelogTimeRetain: the snapshot values
         * when unset */
        (rc = pm_options_get_i64_or(o, "changelog.num-retained.min", c->retain_min,
                                    &c->cl_retain_min, err)) ||
        (rc = pm_options_get_i64_or(o, "changelog.num-retained.max", c->retain_max,
                                    &c->cl_retain_max, err)) ||
        (rc = pm_options_get_duration_or(o, "changelog.time-retained", c->time_retained_ms,
                                         &c->cl_time_retained_ms, err)) ||
        (rc = pm_options_get_bool(o, "consumer.changelog-only", &changelog_only, err)) ||
        (rc =
             pm_options_get_bool(o, "snapshot.clean-empty-directories", &c->clean_empty_dirs, err)))
        return rc;
    c->changelog_decoupled = c->cl_retain_max > c->retain_max || c->cl_retain_min > c->retain_min ||
                             c->cl_time_retained_ms > c->time_retained_ms;
    c->consumer_changelog_only = changelog_only && c->changelog_decoupled;
    return 0;
}

/* ---- the changelog copy ---------------------------------------------------------------------- */

/* ChangelogManager.commitChangelog + commitLongLivedChangelogLatestHint: the snapshot's JSON
 * as `changelog/changelog-<id>` (overwritten, as Java does), then changelog/LATEST. */
PM_MUST_CHECK static int write_changelog(pm_fs *fs, const char *table, const pm_snapshot *s,
                                         paimon_error *err)
{
    char name[48], text[24];
    char *path = NULL, *hint = NULL;
    pm_buf json;
    int rc = 0, n;
    pm_buf_init(&json, 0);
    snprintf(name, sizeof(name), "changelog-%" PRId64, s->id);
    if ((path = pm_table_file(table, "changelog", name)) == NULL ||
        (hint = pm_table_file(table, "changelog", "LATEST")) == NULL ||
        pm_snapshot_write_json(s, &json) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((rc = fs->write_atomic(fs, path, json.data, json.len, true, err)) != 0)
        goto done;
    n = snprintf(text, sizeof(text), "%" PRId64, s->id);
    rc = fs->write_atomic(fs, hint, text, (size_t)n, true, err);
done:
    pm_buf_free(&json);
    pm_free(hint);
    pm_free(path);
    return rc;
}

/* ---- the range ------------------------------------------------------------------------------- */

typedef struct snaps {
    pm_snapshot **items; /* the snapshots of [earliest, end] that exist, ascending */
    size_t count;
} snaps;

static void snaps_free(snaps *s)
{
    for (size_t i = 0; i < s->count; i++)
        pm_snapshot_free(s->items[i]);
    pm_free(s->items);
}

PM_MUST_CHECK static int collect(pm_fs *fs, const char *table, int64_t earliest, int64_t end,
                                 snaps *out, paimon_error *err)
{
    size_t cap = (size_t)(end - earliest + 1);
    int rc = 0;
    if ((out->items = pm_calloc(cap, sizeof(*out->items))) == NULL)
        return pm_nomem(err);
    for (int64_t id = earliest; id <= end; id++) {
        pm_snapshot *s = NULL;
        rc = pm_snapshot_read(fs, table, id, &s, err);
        if (rc == PAIMON_ENOTFOUND) { /* removed by another expiration */
            rc = 0;
            continue;
        }
        if (rc != 0)
            return rc;
        out->items[out->count++] = s;
    }
    return rc;
}

/* ExpireSnapshotsImpl.innerExpireUntil: expires [earliest, end). */
PM_MUST_CHECK static int expire_until(pm_fs *fs, const char *table, const pm_expire_config *cfg,
                                      bool dry_run, int64_t earliest, int64_t end,
                                      pm_expire_result *res, paimon_error *err)
{
    pm_expire_cleaner c;
    pm_bytes_map skip;
    snaps all = {NULL, 0};
    const pm_snapshot *last;
    int64_t begin;
    long left, right;
    bool keep_append;
    int rc = 0;

    res->begin = res->end = earliest;
    if (end <= earliest) {
        /* nothing to expire: only make sure EARLIEST exists for the next reader */
        char *hint = pm_table_file(table, PM_DIR_SNAPSHOT, "EARLIEST");
        bool exists = false;
        if (hint == NULL)
            return pm_nomem(err);
        rc = pm_fs_exists(fs, hint, &exists, err);
        pm_free(hint);
        if (rc == 0 && !exists && !dry_run)
            rc = pm_snapshot_write_hint(fs, table, "EARLIEST", earliest, err);
        return rc;
    }
    pm_bytes_map_init(&skip);
    if ((rc = pm_expire_cleaner_init(&c, fs, table, cfg, dry_run, res, err)) != 0 ||
        (rc = collect(fs, table, earliest, end, &all, err)) != 0 || all.count == 0)
        goto done;
    begin = all.items[0]->id;
    res->begin = begin;
    res->end = begin;

    /* 1. data files no longer used: the DELETEs of each snapshot in (begin, end] */
    keep_append = cfg->changelog_decoupled && !c.produce_changelog;
    for (size_t i = 0; i < all.count; i++) {
        const pm_snapshot *s = all.items[i];
        if (s->id == begin)
            continue;
        if ((rc = pm_expire_clean_data_files(&c, s->delta_manifest_list, s->id, keep_append,
                                             err)) != 0)
            goto done;
    }
    /* 2. changelog files of [begin, end), unless they outlive the snapshots */
    if (!cfg->changelog_decoupled)
        for (size_t i = 0; i < all.count; i++) {
            const pm_snapshot *s = all.items[i];
            if (s->id != end && s->changelog_manifest_list != NULL &&
                (rc = pm_expire_delete_added(&c, s->changelog_manifest_list, err)) != 0)
                goto done;
        }
    if ((rc = pm_expire_clean_empty_dirs(&c, err)) != 0)
        goto done;

    /* 3. metadata, only while `end` exists: it and the tags in range keep what they name */
    last = all.items[all.count - 1];
    if (last->id != end)
        goto done;
    pm_expire_skipping_tags(&c, begin, end, &left, &right);
    for (long t = left; t <= right; t++)
        if ((rc = pm_expire_skip_snapshot(&c, c.tags[t], false, &skip, err)) != 0)
            goto done;
    if ((rc = pm_expire_skip_snapshot(&c, last, false, &skip, err)) != 0)
        goto done;
    for (size_t i = 0; i + 1 < all.count; i++) {
        const pm_snapshot *s = all.items[i];
        /* SnapshotDeletion.cleanUnusedManifests: decoupled keeps the changelog lists, and
         * with producer none the data lists too (their APPEND files are the changelog) */
        if (!cfg->changelog_decoupled || c.produce_changelog) {
            if ((rc = pm_expire_clean_manifest_list(&c, s->base_manifest_list, &skip, err)) != 0 ||
                (rc = pm_expire_clean_manifest_list(&c, s->delta_manifest_list, &skip, err)) != 0)
                goto done;
        }
        if (!cfg->changelog_decoupled &&
            (rc = pm_expire_clean_manifest_list(&c, s->changelog_manifest_list, &skip, err)) != 0)
            goto done;
        if ((rc = pm_expire_clean_index_and_stats(&c, s, &skip, err)) != 0)
            goto done;
    }

    /* the metadata of step 3 is gone before a snapshot naming it goes */
    if ((rc = pm_expire_flush(&c, err)) != 0)
        goto done;
    /* 4. the snapshot files, oldest first; 5. EARLIEST */
    for (size_t i = 0; i + 1 < all.count; i++) {
        const pm_snapshot *s = all.items[i];
        char *path;
        paimon_error e;
        if (dry_run) {
            res->snapshots++;
            continue;
        }
        if (cfg->changelog_decoupled && (rc = write_changelog(fs, table, s, err)) != 0)
            goto done;
        if ((path = pm_snapshot_path(table, s->id)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        rc = fs->remove(fs, path, &e);
        pm_free(path);
        if (rc == 0)
            res->snapshots++;
        else if (rc != PAIMON_ENOTFOUND) {
            if (err != NULL)
                *err = e;
            goto done;
        }
        rc = 0;
    }
    res->end = end;
    if (!dry_run)
        rc = pm_snapshot_write_hint(fs, table, "EARLIEST", end, err);
done:
    snaps_free(&all);
    pm_bytes_map_free(&skip);
    pm_expire_cleaner_free(&c);
    return rc;
}

PM_MUST_CHECK static int check_retain(const char *what, int64_t min, int64_t max, paimon_error *err)
{
    if (min < 1)
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s.num-retained.min (%" PRId64 ") must be at least 1", what, min);
    if (max < min)
        return pm_err_set(err, PAIMON_EINVALID,
                          "retainMax (%" PRId64 ") must not be less than retainMin (%" PRId64 ")",
                          max, min);
    return 0;
}

int pm_expire_snapshots(pm_fs *fs, const char *table, const pm_expire_config *cfg, bool dry_run,
                        pm_expire_result *res, paimon_error *err)
{
    pm_expire_result local;
    int64_t latest = 0, earliest = 0, min, max_exclusive, older_than, next = 0;
    bool found = false, has_consumer = false;
    int rc;

    if (res == NULL)
        res = &local;
    memset(res, 0, sizeof(*res));
    if ((rc = check_retain("snapshot", cfg->retain_min, cfg->retain_max, err)) != 0)
        return rc;
    if ((rc = pm_snapshot_latest_id(fs, table, &latest, &found, err)) != 0 || !found)
        return rc;
    if ((rc = pm_snapshot_earliest_id(fs, table, &earliest, &found, err)) != 0 || !found)
        return rc;
    res->begin = res->end = earliest;

    min = latest - cfg->retain_max + 1;
    if (min < earliest)
        min = earliest;
    max_exclusive = latest - cfg->retain_min + 1;
    if (!cfg->consumer_changelog_only) {
        if ((rc = pm_expire_min_next_snapshot(fs, table, &next, &has_consumer, err)) != 0)
            return rc;
        if (has_consumer && next < max_exclusive)
            max_exclusive = next;
    }
    if (cfg->max_deletes < INT64_MAX - earliest && earliest + cfg->max_deletes < max_exclusive)
        max_exclusive = earliest + cfg->max_deletes;
    older_than = cfg->now_ms - cfg->time_retained_ms;

    for (int64_t id = min; id < max_exclusive; id++) {
        pm_snapshot *s = NULL;
        rc = pm_snapshot_read(fs, table, id, &s, err);
        if (rc == PAIMON_ENOTFOUND) /* removed by another process */
            continue;
        if (rc != 0)
            return rc;
        if (older_than <= s->time_millis) {
            pm_snapshot_free(s);
            return expire_until(fs, table, cfg, dry_run, earliest, id, res, err);
        }
        pm_snapshot_free(s);
    }
    return expire_until(fs, table, cfg, dry_run, earliest, max_exclusive, res, err);
}

/* ---- consumers ------------------------------------------------------------------------------- */

int pm_expire_consumers(pm_fs *fs, const char *table, int64_t now_ms, int64_t expiration_ms,
                        int64_t *removed, paimon_error *err)
{
    pm_strlist ids;
    int64_t before = now_ms - expiration_ms;
    char *dir = pm_table_file(table, PM_DIR_CONSUMER, NULL);
    int rc;
    if (removed != NULL)
        *removed = 0;
    if (dir == NULL)
        return pm_nomem(err);
    pm_strlist_init(&ids);
    if ((rc = pm_consumer_list(fs, table, &ids, err)) != 0)
        goto done;
    for (size_t i = 0; i < ids.count; i++) {
        pm_buf path;
        int64_t mtime = 0;
        pm_buf_init(&path, 0);
        if (pm_buf_printf(&path, "%s/consumer-%s", dir, ids.items[i]) != 0) {
            pm_buf_free(&path);
            rc = pm_nomem(err);
            goto done;
        }
        rc = fs->mtime(fs, pm_buf_cstr(&path), &mtime, err);
        if (rc == 0 && mtime < before) {
            paimon_error e;
            rc = fs->remove(fs, pm_buf_cstr(&path), &e);
            if (rc == 0 && removed != NULL)
                (*removed)++;
            else if (rc != 0 && rc != PAIMON_ENOTFOUND && err != NULL)
                *err = e;
        }
        pm_buf_free(&path);
        if (rc == PAIMON_ENOTFOUND) /* gone meanwhile */
            rc = 0;
        if (rc != 0)
            goto done;
    }
done:
    pm_strlist_free(&ids);
    pm_free(dir);
    return rc;
}

/* ---- the upkeep steps ------------------------------------------------------------------------ */

int pm_expire_consumers_step(pm_fs *fs, const char *table, paimon_error *err)
{
    pm_schema *schema = NULL;
    int64_t expiration = INT64_MAX;
    int rc;
    if ((rc = pm_schema_read_latest(fs, table, &schema, err)) != 0)
        return rc;
    if (pm_options_get(&schema->options, "consumer.expiration-time") != NULL &&
        (rc = pm_options_get_duration_or(&schema->options, "consumer.expiration-time", INT64_MAX,
                                         &expiration, err)) == 0)
        rc = pm_expire_consumers(fs, table, pm_now_millis(), expiration, NULL, err);
    pm_schema_free(schema);
    return rc;
}

int pm_expire_step(pm_fs *fs, const char *table, paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_expire_config cfg;
    int rc;
    if ((rc = pm_schema_read_latest(fs, table, &schema, err)) != 0)
        return rc;
    rc = pm_expire_config_from_options(&schema->options, pm_now_millis(), &cfg, err);
    pm_schema_free(schema);
    if (rc == 0)
        rc = pm_expire_snapshots(fs, table, &cfg, false, NULL, err);
    if (rc == 0 && cfg.changelog_decoupled)
        rc = pm_expire_changelogs(fs, table, &cfg, false, NULL, err);
    return rc;
}
