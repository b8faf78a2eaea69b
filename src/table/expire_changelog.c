/*
 * The expiration of long-lived changelogs (behaviour.md §8.2), as Java 1.4.2's
 * ExpireChangelogImpl.expire and ChangelogDeletion do it.
 *
 * When changelog.* keeps changelogs longer than snapshots, snapshot expiration leaves
 * `changelog/changelog-<id>` (the expired snapshot's JSON) and the files a change read of it
 * needs.  This expires those with the changelog values, over the ids of the `changelog/`
 * directory:
 *
 *   min          = max(latestSnapshot - changelogRetainMax + 1, earliestChangelog)
 *   maxExclusive = min(latestSnapshot - changelogRetainMin + 1, min consumer nextSnapshot,
 *                      earliestChangelog + maxDeletes, latestChangelog)
 *   end          = the first changelog in [min, maxExclusive] committed at or after
 *                  now - changelogTimeRetained, else maxExclusive;
 *
 * and for each id in [earliestChangelog, end): its changelog files (the ADDs of its
 * changelog manifest list; without one, as with producer none, the DELETEs of its delta
 * list that the nearest earlier tag does not hold), then its manifests not named by
 * changelog `end`, the earliest snapshot or a tag in the range, then the file itself; last
 * changelog/EARLIEST = end.  Index manifests and statistics are snapshot expiration's.
 *
 * (Java reads changelog `end` even when end <= earliest, which fails when a consumer sits
 * below the earliest changelog; here nothing is expired then.)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "meta/paths.h"
#include "table/expire.h"
#include "table/expire_files.h"
#include "util/alloc.h"
#include "util/error.h"

PM_MUST_CHECK static int changelog_path(const char *table, int64_t id, char **out,
                                        paimon_error *err)
{
    char name[48];
    snprintf(name, sizeof(name), "changelog-%" PRId64, id);
    if ((*out = pm_table_file(table, "changelog", name)) == NULL)
        return pm_nomem(err);
    return 0;
}

/* Changelog `id`; PAIMON_ENOTFOUND when it is gone. */
PM_MUST_CHECK static int read_changelog(pm_fs *fs, const char *table, int64_t id, pm_snapshot **out,
                                        paimon_error *err)
{
    char *path = NULL;
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;
    *out = NULL;
    if ((rc = changelog_path(table, id, &path, err)) != 0)
        return rc;
    rc = pm_fs_read_all(fs, path, 256u << 20, &data, &len, err);
    if (rc == 0)
        rc = pm_snapshot_parse(data, len, path, out, err);
    pm_free(data);
    pm_free(path);
    return rc;
}

PM_MUST_CHECK static int expire_until(pm_fs *fs, const char *table, const pm_expire_config *cfg,
                                      bool dry_run, int64_t earliest, int64_t end,
                                      pm_expire_result *res, paimon_error *err)
{
    pm_expire_cleaner c;
    pm_bytes_map skip;
    pm_snapshot *end_log = NULL, *first = NULL;
    int64_t first_id = 0;
    long left, right;
    bool found = false;
    int rc;

    pm_bytes_map_init(&skip);
    if ((rc = pm_expire_cleaner_init(&c, fs, table, cfg, dry_run, res, err)) != 0)
        goto done;
    /* what changelog `end`, the earliest snapshot and the tags in range name stays */
    pm_expire_skipping_tags(&c, earliest, end, &left, &right);
    for (long t = left; t <= right; t++)
        if ((rc = pm_expire_skip_snapshot(&c, c.tags[t], true, &skip, err)) != 0)
            goto done;
    rc = read_changelog(fs, table, end, &end_log, err);
    if (rc == 0)
        rc = pm_expire_skip_snapshot(&c, end_log, true, &skip, err);
    else if (rc == PAIMON_ENOTFOUND)
        rc = 0; /* end may be a snapshot that has not been moved to changelog/ */
    if (rc != 0 || (rc = pm_snapshot_earliest_id(fs, table, &first_id, &found, err)) != 0)
        goto done;
    if (found) {
        rc = pm_snapshot_read(fs, table, first_id, &first, err);
        if (rc == 0)
            rc = pm_expire_skip_snapshot(&c, first, true, &skip, err);
        if (rc != 0)
            goto done;
    }
    for (int64_t id = earliest; id < end; id++) {
        pm_snapshot *log = NULL;
        char *path = NULL;
        rc = read_changelog(fs, table, id, &log, err);
        if (rc == PAIMON_ENOTFOUND) { /* removed by an earlier run */
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        /* data files, then the manifests naming them (each step's batch sent before the
         * next, so that a crash leaves no data file that no manifest names) */
        if (log->changelog_manifest_list != NULL) {
            rc = pm_expire_delete_added(&c, log->changelog_manifest_list, err);
            if (rc == 0)
                rc = pm_expire_flush(&c, err);
            if (rc == 0)
                rc = pm_expire_clean_manifest_list(&c, log->changelog_manifest_list, &skip, err);
        } else {
            rc = pm_expire_clean_data_files(&c, log->delta_manifest_list, id, false, err);
            if (rc == 0)
                rc = pm_expire_flush(&c, err);
            if (rc == 0)
                rc = pm_expire_clean_manifest_list(&c, log->delta_manifest_list, &skip, err);
            if (rc == 0)
                rc = pm_expire_clean_manifest_list(&c, log->base_manifest_list, &skip, err);
        }
        pm_snapshot_free(log);
        if (rc == 0) /* what the changelog file names goes before it */
            rc = pm_expire_flush(&c, err);
        if (rc == 0)
            rc = changelog_path(table, id, &path, err);
        if (rc == 0) {
            int64_t before = res->files;
            rc = pm_expire_remove(&c, path, err);
            /* the changelog file is counted as a changelog, not as a file */
            res->changelogs += res->files - before;
            res->files = before;
        }
        pm_free(path);
        if (rc != 0)
            goto done;
    }
    if ((rc = pm_expire_clean_empty_dirs(&c, err)) != 0)
        goto done;
    if (!dry_run) {
        char *hint = pm_table_file(table, "changelog", "EARLIEST");
        char text[24];
        int n = snprintf(text, sizeof(text), "%" PRId64, end);
        if (hint == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        rc = fs->write_atomic(fs, hint, text, (size_t)n, true, err);
        pm_free(hint);
    }
done:
    pm_snapshot_free(first);
    pm_snapshot_free(end_log);
    pm_bytes_map_free(&skip);
    pm_expire_cleaner_free(&c);
    return rc;
}

int pm_expire_changelogs(pm_fs *fs, const char *table, const pm_expire_config *cfg, bool dry_run,
                         pm_expire_result *res, paimon_error *err)
{
    pm_expire_result local;
    int64_t latest = 0, earliest = 0, *ids = NULL, min, max_exclusive, next = 0, end;
    int64_t older_than = cfg->now_ms - cfg->cl_time_retained_ms;
    size_t n = 0;
    bool found = false, has_consumer = false;
    char *dir = NULL;
    int rc;

    if (res == NULL) {
        memset(&local, 0, sizeof(local));
        res = &local;
    }
    if (cfg->cl_retain_min < 1 || cfg->cl_retain_max < cfg->cl_retain_min)
        return pm_err_set(err, PAIMON_EINVALID,
                          "retainMax (%" PRId64 ") must not be less than retainMin (%" PRId64 ")",
                          cfg->cl_retain_max, cfg->cl_retain_min);
    if ((rc = pm_snapshot_latest_id(fs, table, &latest, &found, err)) != 0 || !found)
        return rc;
    if ((rc = pm_snapshot_earliest_id(fs, table, &earliest, &found, err)) != 0 || !found)
        return rc;
    if ((dir = pm_table_file(table, "changelog", NULL)) == NULL)
        return pm_nomem(err);
    rc = pm_list_versioned(fs, dir, "changelog-", &ids, &n, err);
    pm_free(dir);
    if (rc != 0 || n == 0)
        goto done;

    min = latest - cfg->cl_retain_max + 1;
    if (min < ids[0])
        min = ids[0];
    max_exclusive = latest - cfg->cl_retain_min + 1;
    if ((rc = pm_expire_min_next_snapshot(fs, table, &next, &has_consumer, err)) != 0)
        goto done;
    if (has_consumer && next < max_exclusive)
        max_exclusive = next;
    if (cfg->max_deletes < INT64_MAX - ids[0] && ids[0] + cfg->max_deletes < max_exclusive)
        max_exclusive = ids[0] + cfg->max_deletes;
    if (ids[n - 1] < max_exclusive)
        max_exclusive = ids[n - 1];

    end = max_exclusive;
    for (int64_t id = min; id <= max_exclusive; id++) {
        pm_snapshot *log = NULL;
        rc = read_changelog(fs, table, id, &log, err);
        if (rc == PAIMON_ENOTFOUND) {
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        if (older_than <= log->time_millis) {
            pm_snapshot_free(log);
            end = id;
            break;
        }
        pm_snapshot_free(log);
    }
    if (end > ids[0])
        rc = expire_until(fs, table, cfg, dry_run, ids[0], end, res, err);
done:
    pm_free(ids);
    return rc;
}
