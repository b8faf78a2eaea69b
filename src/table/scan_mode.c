/* Batch scan modes: see scan_mode.h. */
#include "table/scan_mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/options.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "table/partition_expire.h"
#include "util/alloc.h"
#include "util/time.h"

static const char *const MODE_NAMES[] = {
    "latest-full",
    "latest",
    "compacted-full",
    "from-timestamp",
    "from-snapshot",
    "from-snapshot-full",
    "from-file-creation-time",
    "from-creation-timestamp",
    "incremental",
};

const char *pm_startup_mode_name(pm_startup_mode m)
{
    return MODE_NAMES[m];
}

/* Whether the option (or its fallback key) is set: Java's Configuration.contains. */
static bool has(const pm_options *o, const char *key)
{
    if (pm_options_get(o, key) != NULL)
        return true;
    if (strcmp(key, "scan.timestamp-millis") == 0)
        return pm_options_get(o, "log.scan.timestamp-millis") != NULL;
    if (strcmp(key, "scan.mode") == 0)
        return pm_options_get(o, "log.scan") != NULL;
    return false;
}

int pm_startup_mode_of(const pm_options *o, pm_startup_mode *out, paimon_error *err)
{
    const char *v = pm_options_get_str(o, "scan.mode");
    if (v == NULL || strcasecmp(v, "default") == 0) {
        if (has(o, "scan.timestamp-millis") || has(o, "scan.timestamp"))
            *out = PM_STARTUP_FROM_TIMESTAMP;
        else if (has(o, "scan.snapshot-id") || has(o, "scan.tag-name") ||
                 has(o, "scan.watermark") || has(o, "scan.version"))
            *out = PM_STARTUP_FROM_SNAPSHOT;
        else if (has(o, "scan.file-creation-time-millis"))
            *out = PM_STARTUP_FROM_FILE_CREATION_TIME;
        else if (has(o, "scan.creation-time-millis"))
            *out = PM_STARTUP_FROM_CREATION_TIMESTAMP;
        else if (has(o, "incremental-between") || has(o, "incremental-between-timestamp") ||
                 has(o, "incremental-to-auto-tag"))
            *out = PM_STARTUP_INCREMENTAL;
        else
            *out = PM_STARTUP_LATEST_FULL;
        return 0;
    }
    if (strcasecmp(v, "full") == 0) {
        *out = PM_STARTUP_LATEST_FULL;
        return 0;
    }
    for (size_t i = 0; i < sizeof(MODE_NAMES) / sizeof(MODE_NAMES[0]); i++)
        if (strcasecmp(v, MODE_NAMES[i]) == 0) {
            *out = (pm_startup_mode)i;
            return 0;
        }
    return pm_err_set(err, PAIMON_EINVALID, "option scan.mode: '%s' is not a scan mode", v);
}

/* ---- validation (SchemaValidation.validateStartupMode) ------------------------------------ */

#define MAX_KEYS 8

static void join(char *buf, size_t len, const char *const *keys)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; keys[i] != NULL && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i > 0 ? "," : "", keys[i]);
}

PM_MUST_CHECK static int exactly_one(const char *table, const pm_options *o, pm_startup_mode m,
                                     const char *const *keys, paimon_error *err)
{
    char list[256];
    int n = 0;
    for (size_t i = 0; keys[i] != NULL; i++)
        n += has(o, keys[i]);
    if (n == 1)
        return 0;
    join(list, sizeof(list), keys);
    return pm_err_set(err, PAIMON_EINVALID,
                      "%s: must set only one key in [%s] when you use %s for scan.mode", table,
                      list, pm_startup_mode_name(m));
}

PM_MUST_CHECK static int conflicts(const char *table, const pm_options *o,
                                   const char *const *illegal, const char *const *legal,
                                   paimon_error *err)
{
    char list[256];
    for (size_t i = 0; illegal[i] != NULL; i++)
        if (has(o, illegal[i])) {
            join(list, sizeof(list), legal);
            return pm_err_set(err, PAIMON_EINVALID, "%s: [%s] must be null when you set [%s]",
                              table, illegal[i], list);
        }
    return 0;
}

PM_MUST_CHECK static int must_have(const char *table, const pm_options *o, const char *key,
                                   pm_startup_mode m, paimon_error *err)
{
    if (has(o, key))
        return 0;
    return pm_err_set(err, PAIMON_EINVALID, "%s: %s can not be null when you use %s for scan.mode",
                      table, key, pm_startup_mode_name(m));
}

int pm_startup_mode_validate(const char *table, const pm_options *o, paimon_error *err)
{
    static const char *const ts[] = {"scan.timestamp-millis", "scan.timestamp", NULL};
    static const char *const snap[] = {"scan.snapshot-id", "scan.tag-name", "scan.watermark", NULL};
    static const char *const snap_legal[] = {"scan.snapshot-id", "scan.tag-name", NULL};
    static const char *const incr[] = {"incremental-between", "incremental-between-timestamp",
                                       "incremental-to-auto-tag", NULL};
    static const char *const id[] = {"scan.snapshot-id", NULL};
    static const char *const fct[] = {"scan.file-creation-time-millis", NULL};
    static const char *const not_ts[] = {"scan.snapshot-id",
                                         "scan.file-creation-time-millis",
                                         "scan.tag-name",
                                         "incremental-between-timestamp",
                                         "incremental-between",
                                         "incremental-to-auto-tag",
                                         NULL};
    static const char *const not_snap[] = {"scan.timestamp-millis",
                                           "scan.timestamp",
                                           "scan.file-creation-time-millis",
                                           "incremental-between-timestamp",
                                           "incremental-between",
                                           "incremental-to-auto-tag",
                                           NULL};
    static const char *const not_incr[] = {
        "scan.snapshot-id", "scan.timestamp-millis", "scan.file-creation-time-millis",
        "scan.timestamp",   "scan.tag-name",         NULL};
    static const char *const not_full[] = {"scan.timestamp-millis",          "scan.timestamp",
                                           "scan.file-creation-time-millis", "scan.tag-name",
                                           "incremental-between-timestamp",  "incremental-between",
                                           "incremental-to-auto-tag",        NULL};
    static const char *const not_fct[] = {"scan.snapshot-id",
                                          "scan.timestamp-millis",
                                          "scan.tag-name",
                                          "incremental-between-timestamp",
                                          "incremental-between",
                                          "incremental-to-auto-tag",
                                          NULL};
    static const char *const not_other[] = {"scan.timestamp-millis",
                                            "scan.file-creation-time-millis",
                                            "scan.timestamp",
                                            "scan.snapshot-id",
                                            "scan.tag-name",
                                            "incremental-between-timestamp",
                                            "incremental-between",
                                            "incremental-to-auto-tag",
                                            NULL};
    pm_startup_mode m;
    int rc;
    if ((rc = pm_startup_mode_of(o, &m, err)) != 0)
        return pm_err_prefix(err, rc, "%s: ", table);
    switch (m) {
    case PM_STARTUP_FROM_TIMESTAMP:
        if ((rc = exactly_one(table, o, m, ts, err)) != 0)
            return rc;
        return conflicts(table, o, not_ts, ts, err);
    case PM_STARTUP_FROM_SNAPSHOT:
        if ((rc = exactly_one(table, o, m, snap, err)) != 0)
            return rc;
        return conflicts(table, o, not_snap, snap_legal, err);
    case PM_STARTUP_INCREMENTAL:
        if ((rc = exactly_one(table, o, m, incr, err)) != 0)
            return rc;
        return conflicts(table, o, not_incr, incr, err);
    case PM_STARTUP_FROM_SNAPSHOT_FULL:
        if ((rc = must_have(table, o, "scan.snapshot-id", m, err)) != 0)
            return rc;
        return conflicts(table, o, not_full, id, err);
    case PM_STARTUP_FROM_FILE_CREATION_TIME:
        if ((rc = must_have(table, o, "scan.file-creation-time-millis", m, err)) != 0)
            return rc;
        return conflicts(table, o, not_fct, fct, err);
    default:
        for (size_t i = 0; not_other[i] != NULL; i++)
            if (has(o, not_other[i]))
                return pm_err_set(err, PAIMON_EINVALID,
                                  "%s: %s must be null when you use %s for scan.mode", table,
                                  not_other[i], pm_startup_mode_name(m));
        return 0;
    }
}

/* ---- batch start -------------------------------------------------------------------------- */

/* Whether snapshot-<id> exists. */
PM_MUST_CHECK static int snapshot_exists(paimon_table *t, int64_t id, bool *exists,
                                         paimon_error *err)
{
    char name[48];
    char *path;
    int rc;
    snprintf(name, sizeof(name), "snapshot-%lld", (long long)id);
    if ((path = pm_table_file(t->path, PM_DIR_SNAPSHOT, name)) == NULL)
        return pm_nomem(err);
    rc = pm_fs_exists(t->fs, path, exists, err);
    pm_free(path);
    return rc;
}

int pm_scan_parse_local_timestamp(const char *what, const char *text, int64_t *out,
                                  paimon_error *err)
{
    int64_t local = 0;
    int rc = pm_partition_time_parse(text, NULL, &local, err);
    if (rc != 0)
        return pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a timestamp", what, text);
    *out = pm_local_to_epoch_millis(local);
    return 0;
}

int pm_scan_timestamp_millis(const pm_options *o, int64_t *out, bool *set, paimon_error *err)
{
    const char *text = pm_options_get(o, "scan.timestamp");
    int64_t v;
    int rc = pm_options_get_i64_or(o, "scan.timestamp-millis", INT64_MIN, &v, err);
    *set = false;
    if (rc != 0)
        return rc;
    if (v == INT64_MIN && text != NULL)
        rc = pm_scan_parse_local_timestamp("scan.timestamp", text, &v, err);
    if (rc == 0 && v != INT64_MIN) {
        *out = v;
        *set = true;
    }
    return rc;
}

PM_MUST_CHECK static int i64_option(const pm_options *o, const char *key, int64_t *out,
                                    paimon_error *err)
{
    return pm_options_get_i64_or(o, key, 0, out, err);
}

/* The latest snapshot id that satisfies `want` from latest down to earliest, else the
 * latest (SnapshotManager.pickOrLatest); *found false without snapshots. */
PM_MUST_CHECK static int pick_compacted(paimon_table *t, int64_t delta_commits, bool full,
                                        int64_t *id, bool *found, paimon_error *err)
{
    int64_t latest, earliest;
    bool ok;
    int rc;
    *found = false;
    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &ok, err)) != 0 || !ok)
        return rc;
    if ((rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &ok, err)) != 0)
        return rc;
    *found = true;
    *id = latest;
    for (int64_t s = latest; ok && s >= earliest; s--) {
        pm_snapshot *snap = NULL;
        bool hit;
        rc = pm_snapshot_read(t->fs, t->path, s, &snap, err);
        if (rc == PAIMON_ENOTFOUND) {
            paimon_error_clear(err);
            continue;
        }
        if (rc != 0)
            return rc;
        hit = snap->commit_kind == PM_COMMIT_COMPACT &&
              (!full || snap->commit_identifier % delta_commits == 0 ||
               snap->commit_identifier == INT64_MAX);
        pm_snapshot_free(snap);
        if (hit) {
            *id = s;
            return 0;
        }
    }
    return 0;
}

/* SnapshotManager.laterOrEqualWatermark; *id 0 when there is none. */
PM_MUST_CHECK static int by_watermark(paimon_table *t, int64_t watermark, int64_t *id,
                                      paimon_error *err)
{
    int64_t latest, earliest;
    pm_snapshot *s = NULL;
    bool ok, have;
    int64_t wm = 0;
    int rc = 0;
    *id = 0;
    PM_TRY(pm_snapshot_latest_id(t->fs, t->path, &latest, &ok, err));
    if (!ok)
        goto done;
    PM_TRY(pm_snapshot_read(t->fs, t->path, latest, &s, err));
    have = s->has_watermark && s->watermark != INT64_MIN;
    pm_snapshot_free(s);
    s = NULL;
    if (!have)
        goto done;
    PM_TRY(pm_snapshot_earliest_id(t->fs, t->path, &earliest, &ok, err));
    /* the first snapshot with a watermark */
    for (have = false; !have && earliest <= latest; earliest += have ? 0 : 1) {
        PM_TRY(pm_snapshot_read(t->fs, t->path, earliest, &s, err));
        have = s->has_watermark;
        wm = s->watermark;
        pm_snapshot_free(s);
        s = NULL;
    }
    if (!have)
        goto done;
    if (wm >= watermark) {
        *id = earliest;
        goto done;
    }
    while (earliest <= latest) {
        int64_t mid = earliest + (latest - earliest) / 2, probe = mid;
        bool mid_has;
        PM_TRY(pm_snapshot_read(t->fs, t->path, probe, &s, err));
        mid_has = s->has_watermark;
        wm = s->watermark;
        pm_snapshot_free(s);
        s = NULL;
        while (!mid_has && probe > earliest) { /* the nearest earlier snapshot with one */
            probe--;
            PM_TRY(pm_snapshot_read(t->fs, t->path, probe, &s, err));
            mid_has = s->has_watermark;
            wm = s->watermark;
            pm_snapshot_free(s);
            s = NULL;
        }
        if (!mid_has) {
            earliest = mid + 1;
        } else if (wm > watermark) {
            latest = mid - 1;
            *id = mid;
        } else if (wm < watermark) {
            earliest = mid + 1;
        } else {
            *id = mid;
            break;
        }
    }
done:
    pm_snapshot_free(s);
    return rc;
}

/* StaticFromSnapshotStartingScanner's check of the id. */
PM_MUST_CHECK static int check_snapshot_id(paimon_table *t, int64_t id, paimon_error *err)
{
    int64_t earliest = 0, latest = 0;
    bool ok1 = false, ok2 = false, exists = false;
    int rc;
    if ((rc = snapshot_exists(t, id, &exists, err)) != 0 || exists)
        return rc;
    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &ok1, err)) != 0 ||
        (rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &ok2, err)) != 0)
        return rc;
    if (!ok1 || !ok2)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: There is currently no snapshot.", t->path);
    if (id < earliest || id > latest)
        return pm_err_set(err, PAIMON_ENOTFOUND,
                          "%s: The specified scan snapshotId %lld is out of available snapshotId "
                          "range [%lld, %lld].",
                          t->path, (long long)id, (long long)earliest, (long long)latest);
    return pm_err_set(err, PAIMON_ENOTFOUND, "%s: snapshot %lld does not exist", t->path,
                      (long long)id);
}

/* TimeTravelUtil.earlierThanTimeMills(..., returnNullIfTooEarly = true) + 1 when that
 * snapshot exists: *id 0 otherwise. */
PM_MUST_CHECK static int first_at_or_after(paimon_table *t, int64_t ts, int64_t *id,
                                           paimon_error *err)
{
    int64_t earliest, latest;
    bool ok;
    pm_snapshot *s = NULL;
    int rc;
    *id = 0;
    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &ok, err)) != 0 || !ok)
        return rc;
    if ((rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &ok, err)) != 0)
        return rc;
    if ((rc = pm_snapshot_read(t->fs, t->path, earliest, &s, err)) != 0)
        return rc;
    ok = s->time_millis >= ts;
    pm_snapshot_free(s);
    if (ok)
        return 0; /* too early: null */
    while (earliest < latest) {
        int64_t mid = (earliest + latest + 1) / 2;
        if ((rc = pm_snapshot_read(t->fs, t->path, mid, &s, err)) != 0)
            return rc;
        if (s->time_millis < ts)
            earliest = mid;
        else
            latest = mid - 1;
        pm_snapshot_free(s);
    }
    if ((rc = snapshot_exists(t, earliest + 1, &ok, err)) != 0)
        return rc;
    *id = ok ? earliest + 1 : 0;
    return 0;
}

void pm_batch_start_release(pm_batch_start *s)
{
    pm_free(s->tag);
    s->tag = NULL;
}

int pm_batch_start_resolve(paimon_table *t, const pm_options *o, pm_batch_start *out,
                           paimon_error *err)
{
    int64_t v = 0, id = 0;
    bool found = false;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->snapshot.by = PM_SNAPSHOT_LATEST;
    PM_TRY(pm_startup_mode_validate(t->path, o, err));
    PM_TRY(pm_startup_mode_of(o, &out->mode, err));
    switch (out->mode) {
    case PM_STARTUP_LATEST_FULL:
    case PM_STARTUP_LATEST:
    case PM_STARTUP_INCREMENTAL: break;
    case PM_STARTUP_COMPACTED_FULL: {
        const char *producer = pm_options_get_str(o, "changelog-producer");
        bool full = (producer != NULL && strcasecmp(producer, "full-compaction") == 0) ||
                    has(o, "full-compaction.delta-commits");
        int64_t delta = 1;
        if (has(o, "full-compaction.delta-commits"))
            PM_TRY(i64_option(o, "full-compaction.delta-commits", &delta, err));
        if (delta == 0)
            delta = 1;
        PM_TRY(pick_compacted(t, delta, full, &id, &found, err));
        if (!found) {
            out->empty = true;
            break;
        }
        out->snapshot.by = PM_SNAPSHOT_ID;
        out->snapshot.id = id;
        break;
    }
    case PM_STARTUP_FROM_TIMESTAMP: {
        pm_snapshot *s = NULL;
        bool set;
        PM_TRY(pm_scan_timestamp_millis(o, &v, &set, err));
        out->snapshot.by = PM_SNAPSHOT_TIMESTAMP;
        out->snapshot.timestamp = v;
        rc = pm_table_select_snapshot(t, &out->snapshot, &s, err);
        if (rc == PAIMON_ENOTFOUND) {
            int64_t earliest = 0;
            pm_snapshot *first = NULL;
            char when[32] = "null";
            paimon_error_clear(err);
            if (pm_snapshot_earliest_id(t->fs, t->path, &earliest, &found, err) == 0 && found &&
                pm_snapshot_read(t->fs, t->path, earliest, &first, err) == 0)
                snprintf(when, sizeof(when), "%lld", (long long)first->time_millis);
            pm_snapshot_free(first);
            rc = pm_err_set(err, PAIMON_ENOTFOUND,
                            "%s: There is currently no snapshot earlier than or equal to "
                            "timestamp [%lld], the earliest snapshot's timestamp is [%s]",
                            t->path, (long long)v, when);
            goto done;
        }
        if (rc != 0)
            goto done;
        out->snapshot.by = PM_SNAPSHOT_ID; /* pinned: the search is done */
        out->snapshot.id = s->id;
        pm_snapshot_free(s);
        break;
    }
    case PM_STARTUP_FROM_SNAPSHOT:
    case PM_STARTUP_FROM_SNAPSHOT_FULL:
        if (has(o, "scan.snapshot-id")) {
            PM_TRY(i64_option(o, "scan.snapshot-id", &v, err));
            PM_TRY(check_snapshot_id(t, v, err));
            out->snapshot.by = PM_SNAPSHOT_ID;
            out->snapshot.id = v;
        } else if (has(o, "scan.watermark")) {
            PM_TRY(i64_option(o, "scan.watermark", &v, err));
            PM_TRY(by_watermark(t, v, &id, err));
            if (id == 0) {
                rc = pm_err_set(err, PAIMON_ENOTFOUND,
                                "%s: There is currently no snapshot later than or equal to "
                                "watermark[%lld]",
                                t->path, (long long)v);
                goto done;
            }
            out->snapshot.by = PM_SNAPSHOT_ID;
            out->snapshot.id = id;
        } else {
            if ((out->tag = pm_strdup(pm_options_get(o, "scan.tag-name"))) == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            out->snapshot.by = PM_SNAPSHOT_TAG;
            out->snapshot.tag = out->tag;
        }
        break;
    case PM_STARTUP_FROM_FILE_CREATION_TIME:
        PM_TRY(i64_option(o, "scan.file-creation-time-millis", &v, err));
        out->has_min_creation = true;
        out->min_creation_millis = v;
        break;
    case PM_STARTUP_FROM_CREATION_TIMESTAMP:
        PM_TRY(i64_option(o, "scan.creation-time-millis", &v, err));
        PM_TRY(first_at_or_after(t, v, &id, err));
        if (id > 0) {
            out->snapshot.by = PM_SNAPSHOT_ID;
            out->snapshot.id = id;
        } else {
            out->has_min_creation = true;
            out->min_creation_millis = v;
        }
        break;
    }
done:
    if (rc != 0)
        pm_batch_start_release(out);
    return rc;
}
