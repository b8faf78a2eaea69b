/* Rollback to a snapshot or a tag: see rollback.h. */
#include "table/rollback.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "meta/paths.h"
#include "meta/snapshot.h"
#include "table/tag.h"
#include "util/alloc.h"
#include "util/error.h"

#define DIR_CHANGELOG "changelog"

PM_MUST_CHECK static int remove_file(pm_fs *fs, char *path, paimon_error *err)
{
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    rc = fs->remove(fs, path, err);
    pm_free(path);
    return rc == PAIMON_ENOTFOUND ? 0 : rc; /* gone already: a rerun */
}

/* Snapshot files above `target`, newest first (Java's cleanSnapshots after the hint). */
PM_MUST_CHECK static int clean_snapshots(pm_fs *fs, const char *table, int64_t target,
                                         paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = 0;
    PM_TRY(pm_snapshot_list_ids(fs, table, &ids, &n, err));
    for (size_t i = n; i-- > 0 && ids[i] > target;)
        PM_TRY(remove_file(fs, pm_snapshot_path(table, ids[i]), err));
done:
    pm_free(ids);
    return rc;
}

/* Long-lived changelogs above `target` (Java's cleanLongLivedChangelogs). */
PM_MUST_CHECK static int clean_changelogs(pm_fs *fs, const char *table, int64_t target,
                                          paimon_error *err)
{
    char *dir = pm_table_file(table, DIR_CHANGELOG, NULL), *hint = NULL;
    int64_t *ids = NULL;
    size_t n = 0, keep = 0;
    int rc = 0;
    if (dir == NULL)
        return pm_nomem(err);
    PM_TRY(pm_list_versioned(fs, dir, "changelog-", &ids, &n, err));
    while (keep < n && ids[keep] <= target)
        keep++;
    if (keep < n) {
        char text[24];
        int len = snprintf(text, sizeof(text), "%" PRId64, keep > 0 ? ids[keep - 1] : (int64_t)-1);
        if ((hint = pm_table_file(table, DIR_CHANGELOG, "LATEST")) == NULL)
            PM_TRY(pm_nomem(err));
        PM_TRY(fs->write_atomic(fs, hint, text, (size_t)len, true, err));
    }
    for (size_t i = n; i-- > keep;) {
        char name[40];
        snprintf(name, sizeof(name), "changelog-%" PRId64, ids[i]);
        PM_TRY(remove_file(fs, pm_table_file(table, DIR_CHANGELOG, name), err));
    }
done:
    pm_free(ids);
    pm_free(hint);
    pm_free(dir);
    return rc;
}

/* Tag files of snapshots above `target` (Java's cleanTags). */
PM_MUST_CHECK static int clean_tags(pm_fs *fs, const char *table, int64_t target, paimon_error *err)
{
    pm_tag **tags = NULL;
    size_t n = 0;
    int rc = 0;
    PM_TRY(pm_tag_read_all(fs, table, &tags, &n, err));
    for (size_t i = n; i-- > 0 && tags[i]->snapshot->id > target;) {
        size_t len = strlen(tags[i]->name) + 5;
        char *file = pm_malloc(len);
        if (file == NULL)
            PM_TRY(pm_nomem(err));
        snprintf(file, len, "tag-%s", tags[i]->name);
        rc = remove_file(fs, pm_table_file(table, PM_DIR_TAG, file), err);
        pm_free(file);
        PM_TRY(rc);
    }
done:
    pm_tag_free_all(tags, n);
    return rc;
}

/* EARLIEST = the target when no older snapshot remains: the expired tag's snapshot (Java),
 * also when a rerun finds the snapshot written back by the run that failed. */
PM_MUST_CHECK static int earliest_hint(pm_fs *fs, const char *table, int64_t target,
                                       paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = pm_snapshot_list_ids(fs, table, &ids, &n, err);
    if (rc == 0 && n > 0 && ids[0] == target)
        rc = pm_snapshot_write_hint(fs, table, "EARLIEST", target, err);
    pm_free(ids);
    return rc;
}

int pm_table_rollback(pm_fs *fs, const char *table, int64_t snapshot_id, const char *tag_name,
                      paimon_error *err)
{
    pm_snapshot *target = NULL;
    pm_tag *tag = NULL, **tags = NULL;
    size_t ntags = 0;
    int64_t latest = 0;
    bool found = false, exists = false;
    int rc = 0;

    if (tag_name != NULL) {
        PM_TRY(pm_tag_name_check(table, tag_name, err));
        PM_TRY(pm_tag_read(fs, table, tag_name, &tag, err));
        target = tag->snapshot;
        tag->snapshot = NULL;
    } else {
        rc = pm_snapshot_read(fs, table, snapshot_id, &target, err);
        if (rc == PAIMON_ENOTFOUND) { /* Java: a tag of that snapshot will do */
            PM_TRY(pm_tag_read_all(fs, table, &tags, &ntags, err));
            for (size_t i = 0; i < ntags && target == NULL; i++)
                if (tags[i]->snapshot->id == snapshot_id) {
                    target = tags[i]->snapshot;
                    tags[i]->snapshot = NULL;
                }
            rc = target != NULL
                     ? 0
                     : pm_err_set(err, PAIMON_ENOTFOUND,
                                  "%s: cannot roll back: snapshot %" PRId64 " does not exist",
                                  table, snapshot_id);
        }
        PM_TRY(rc);
    }
    PM_TRY(pm_snapshot_latest_id(fs, table, &latest, &found, err));
    if (found && target->id > latest)
        PM_TRY(pm_err_set(err, PAIMON_EINVALID,
                          "%s: cannot roll back to snapshot %" PRId64
                          ": it is newer than the latest snapshot %" PRId64,
                          table, target->id, latest));
    {
        char *path = pm_snapshot_path(table, target->id);
        if (path == NULL)
            PM_TRY(pm_nomem(err));
        rc = pm_fs_exists(fs, path, &exists, err);
        pm_free(path);
        PM_TRY(rc);
    }
    if (!exists) { /* an expired tag's snapshot comes back first (see rollback.h) */
        rc = pm_snapshot_commit(fs, table, target, err);
        PM_TRY(rc == PAIMON_EEXISTS ? 0 : rc);
    }
    PM_TRY(pm_snapshot_write_hint(fs, table, "LATEST", target->id, err));
    PM_TRY(clean_snapshots(fs, table, target->id, err));
    PM_TRY(clean_changelogs(fs, table, target->id, err));
    PM_TRY(clean_tags(fs, table, target->id, err));
    PM_TRY(earliest_hint(fs, table, target->id, err));
done:
    pm_snapshot_free(target);
    pm_tag_free(tag);
    pm_tag_free_all(tags, ntags);
    return rc;
}
