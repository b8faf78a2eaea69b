/* Snapshot selection: see snapshot_select.h. */
#include "table/snapshot_select.h"

#include "util/error.h"

PM_MUST_CHECK static int by_timestamp(paimon_table *t, int64_t ts, pm_snapshot **out,
                                      paimon_error *err)
{
    int64_t earliest, latest;
    bool found;
    pm_snapshot *first = NULL, *best = NULL;
    int rc;

    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &found, err)) != 0)
        return rc;
    if (!found)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: the table has no snapshot yet", t->path);
    if ((rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &found, err)) != 0)
        return rc;
    if ((rc = pm_snapshot_read(t->fs, t->path, earliest, &first, err)) != 0)
        return rc;
    if (first->time_millis > ts) {
        rc =
            pm_err_set(err, PAIMON_ENOTFOUND,
                       "%s: no snapshot committed at or before %lld (the earliest, snapshot %lld, "
                       "was committed at %lld)",
                       t->path, (long long)ts, (long long)first->id, (long long)first->time_millis);
        pm_snapshot_free(first);
        return rc;
    }
    pm_snapshot_free(first);
    while (earliest <= latest) {
        int64_t mid = earliest + (latest - earliest) / 2;
        pm_snapshot *s = NULL;
        if ((rc = pm_snapshot_read(t->fs, t->path, mid, &s, err)) != 0) {
            pm_snapshot_free(best);
            return rc;
        }
        if (s->time_millis > ts) {
            latest = mid - 1;
            pm_snapshot_free(s);
        } else {
            pm_snapshot_free(best);
            best = s;
            if (s->time_millis == ts)
                break;
            earliest = mid + 1;
        }
    }
    *out = best;
    return best != NULL
               ? 0
               : pm_err_set(err, PAIMON_ENOTFOUND, "%s: no snapshot committed at or before %lld",
                            t->path, (long long)ts);
}

int pm_table_select_snapshot(paimon_table *t, const pm_snapshot_selector *sel, pm_snapshot **out,
                             paimon_error *err)
{
    *out = NULL;
    switch (sel->by) {
    case PM_SNAPSHOT_LATEST: return pm_table_snapshot(t, -1, out, err);
    case PM_SNAPSHOT_ID:
        if (sel->id < 1)
            return pm_err_set(err, PAIMON_EINVALID, "%s: snapshot ids start at 1, not %lld",
                              t->path, (long long)sel->id);
        return pm_table_snapshot(t, sel->id, out, err);
    case PM_SNAPSHOT_TAG: {
        pm_tag *tag = NULL;
        int rc = pm_tag_read(t->fs, t->path, sel->tag, &tag, err);
        if (rc != 0)
            return rc;
        *out = tag->snapshot;
        tag->snapshot = NULL;
        pm_tag_free(tag);
        return 0;
    }
    case PM_SNAPSHOT_TIMESTAMP: return by_timestamp(t, sel->timestamp, out, err);
    }
    return pm_err_set(err, PAIMON_EINVALID, "unknown snapshot selector");
}
