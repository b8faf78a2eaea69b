/* Reading changes back: see changes.h. */
#include "table/changes.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/file_entry.h"
#include "meta/option_catalog.h"
#include "meta/paths.h"
#include "table/feature_check.h"
#include "util/alloc.h"
#include "util/error.h"

PM_MUST_CHECK static int changes_list(paimon_table *t, const pm_schema *schema,
                                      const pm_snapshot *s, const char **list, int64_t *size,
                                      paimon_error *err);

/* ---- snapshots and long-lived changelogs ----------------------------------------------------- */

/* Java's CoreOptions.changelogLifecycleDecoupled: changelogs outlive snapshots when any of
 * their retention options exceeds the snapshot one (each defaults to the snapshot one). */
int pm_changes_decoupled(const pm_schema *s, bool *out, paimon_error *err)
{
    int64_t smin, smax, stime, cmin, cmax, ctime;
    int rc;
    *out = false;
    if ((rc = pm_options_get_i64(&s->options, "snapshot.num-retained.min", &smin, err)) ||
        (rc = pm_options_get_i64(&s->options, "snapshot.num-retained.max", &smax, err)) ||
        (rc = pm_options_get_duration(&s->options, "snapshot.time-retained", &stime, err)) ||
        /* CoreOptions.changelogNumRetainMin/Max, changelogTimeRetain: the snapshot ones when
         * unset */
        (rc = pm_options_get_i64_or(&s->options, "changelog.num-retained.min", smin, &cmin, err)) ||
        (rc = pm_options_get_i64_or(&s->options, "changelog.num-retained.max", smax, &cmax, err)) ||
        (rc = pm_options_get_duration_or(&s->options, "changelog.time-retained", stime, &ctime,
                                         err)))
        return rc;
    *out = cmax > smax || ctime > stime || cmin > smin;
    return 0;
}

/* Snapshot `id`, or where changelogs are decoupled and the snapshot has expired, the
 * long-lived `changelog/changelog-<id>` Java keeps in its place (the snapshot's JSON;
 * NextSnapshotFetcher reads it the same way).  PAIMON_ENOTFOUND when neither exists. */
int pm_changes_read_point(paimon_table *t, bool decoupled, int64_t id, pm_snapshot **out,
                          paimon_error *err)
{
    char name[48], *path;
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = pm_snapshot_read(t->fs, t->path, id, out, err);
    if (rc != PAIMON_ENOTFOUND || !decoupled)
        return rc;
    snprintf(name, sizeof(name), "changelog-%lld", (long long)id);
    if ((path = pm_table_file(t->path, "changelog", name)) == NULL)
        return pm_nomem(err);
    rc = pm_fs_read_all(t->fs, path, 16 << 20, &data, &len, err);
    if (rc == 0)
        rc = pm_snapshot_parse(data, len, path, out, err);
    pm_free(data);
    pm_free(path);
    return rc;
}

/* The earliest id a change read can start at: the earliest long-lived changelog when
 * changelogs are decoupled and one exists, else the earliest snapshot (Java's
 * ContinuousFromSnapshotStartingScanner.getEarliestId). */
PM_MUST_CHECK static int earliest_point(paimon_table *t, bool decoupled, int64_t *earliest,
                                        paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    char *dir;
    int rc;
    if (!decoupled)
        return 0;
    if ((dir = pm_table_file(t->path, "changelog", NULL)) == NULL)
        return pm_nomem(err);
    rc = pm_list_versioned(t->fs, dir, "changelog-", &ids, &n, err);
    if (rc == 0 && n > 0 && ids[0] < *earliest)
        *earliest = ids[0];
    pm_free(ids);
    pm_free(dir);
    return rc;
}

/* ---- the range ------------------------------------------------------------------------------- */

/* Java's TimeTravelUtil.earlierThanTimeMills: the last snapshot (or long-lived changelog)
 * committed strictly before `ms`, or earliest - 1 when the earliest is not before it.  The
 * same probes as Java, so tables with equal commit times resolve alike. */
PM_MUST_CHECK static int earlier_than(paimon_table *t, bool decoupled, int64_t earliest,
                                      int64_t latest, int64_t ms, int64_t *out, paimon_error *err)
{
    pm_snapshot *s = NULL;
    int rc = pm_changes_read_point(t, decoupled, earliest, &s, err);
    if (rc != 0)
        return rc;
    if (s->time_millis >= ms) {
        pm_snapshot_free(s);
        *out = earliest - 1;
        return 0;
    }
    pm_snapshot_free(s);
    while (earliest < latest) {
        int64_t mid = earliest + (latest - earliest + 1) / 2;
        if ((rc = pm_changes_read_point(t, decoupled, mid, &s, err)) != 0)
            return rc;
        if (s->time_millis < ms)
            earliest = mid;
        else
            latest = mid - 1;
        pm_snapshot_free(s);
    }
    *out = earliest;
    return 0;
}

int pm_changes_resolve(paimon_table *t, const pm_changes_range *range, int64_t *first,
                       int64_t *last, paimon_error *err)
{
    int64_t earliest = 0, latest = 0, from;
    bool found = false, decoupled = false;
    int rc;

    *first = 1;
    *last = 0;
    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &found, err)) != 0)
        return rc;
    if (found && (rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &found, err)) != 0)
        return rc;
    if (found && ((rc = pm_changes_decoupled(t->schema, &decoupled, err)) != 0 ||
                  (rc = earliest_point(t, decoupled, &earliest, err)) != 0))
        return rc;
    if (!found) {
        /* No snapshot yet: nothing has changed, unless a given id claims otherwise. */
        if (range->from == PM_CHANGES_FROM_SNAPSHOT)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld does not exist (the "
                              "table has no snapshot)",
                              t->path, (long long)range->from_value);
        if (range->to > 0)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld does not exist (the "
                              "table has no snapshot)",
                              t->path, (long long)range->to);
        return 0;
    }
    switch (range->from) {
    case PM_CHANGES_FROM_EARLIEST: from = earliest; break;
    case PM_CHANGES_FROM_LATEST: from = latest; break;
    case PM_CHANGES_FROM_SNAPSHOT:
        from = range->from_value;
        if (from < earliest)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld has expired (the earliest is %lld)", t->path,
                              (long long)from, (long long)earliest);
        if (from > latest)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld does not exist (the latest is %lld)", t->path,
                              (long long)from, (long long)latest);
        break;
    case PM_CHANGES_FROM_TIMESTAMP:
        if ((rc = earlier_than(t, decoupled, earliest, latest, range->from_value, &from, err)) != 0)
            return rc;
        from++;
        break;
    default:
        return pm_err_set(err, PAIMON_EINVALID, "%s: unknown start of a change range", t->path);
    }
    if (range->to > 0) {
        if (range->to < earliest)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld has expired (the earliest is %lld)", t->path,
                              (long long)range->to, (long long)earliest);
        if (range->to > latest)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld does not exist (the latest is %lld)", t->path,
                              (long long)range->to, (long long)latest);
        if (range->to < from)
            return pm_err_set(err, PAIMON_EINVALID,
                              "%s: the range ends at snapshot %lld, before its start %lld", t->path,
                              (long long)range->to, (long long)from);
        latest = range->to;
    }
    *first = from;
    *last = latest;
    return 0;
}

int pm_changes_check_range(paimon_table *t, const pm_schema *schema, int64_t first, int64_t last,
                           paimon_error *err)
{
    bool overwrite_read = false, decoupled = false;
    int rc = pm_table_check_changes(t->path, schema, err);
    if (rc == 0)
        rc = pm_changes_decoupled(schema, &decoupled, err);
    if (rc != 0)
        return rc;
    rc = pm_options_get_bool(&schema->options,
                             schema->primary_keys.count > 0 ? "streaming-read-overwrite"
                                                            : "streaming-read-append-overwrite",
                             &overwrite_read, err);
    for (int64_t id = first; rc == 0 && overwrite_read && id <= last; id++) {
        pm_snapshot *s = NULL;
        const char *list;
        int64_t size;
        if ((rc = pm_changes_read_point(t, decoupled, id, &s, err)) != 0)
            break;
        rc = changes_list(t, schema, s, &list, &size, err);
        pm_snapshot_free(s);
    }
    return rc;
}

/* ---- one snapshot's plan --------------------------------------------------------------------- */

int pm_changes_cmp_file(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    int r = pm_avro_bytes_cmp(&a->partition, &b->partition);
    if (r != 0)
        return r;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    if (a->file.min_sequence_number != b->file.min_sequence_number)
        return a->file.min_sequence_number < b->file.min_sequence_number ? -1 : 1;
    if (a->file.max_sequence_number != b->file.max_sequence_number)
        return a->file.max_sequence_number < b->file.max_sequence_number ? -1 : 1;
    return strcmp(a->file.file_name, b->file.file_name);
}

/* Which manifest list snapshot `s` contributes, or NULL for none (see changes.h). */
PM_MUST_CHECK static int changes_list(paimon_table *t, const pm_schema *schema,
                                      const pm_snapshot *s, const char **list, int64_t *size,
                                      paimon_error *err)
{
    const char *producer = pm_schema_option(schema, "changelog-producer");
    bool pk = schema->primary_keys.count > 0, overwrite_read = false;
    int rc;

    *list = NULL;
    *size = PM_ABSENT;
    if (s->commit_kind == PM_COMMIT_OVERWRITE) {
        rc = pm_options_get_bool(
            &schema->options, pk ? "streaming-read-overwrite" : "streaming-read-append-overwrite",
            &overwrite_read, err);
        if (rc != 0)
            return rc;
        if (overwrite_read)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "%s: snapshot %lld is an OVERWRITE and the table sets %s: reading "
                              "overwritten rows back as changes is not supported yet",
                              t->path, (long long)s->id,
                              pk ? "streaming-read-overwrite" : "streaming-read-append-overwrite");
        return 0;
    }
    if (producer == NULL || !pk || strcasecmp(producer, "none") == 0) {
        if (s->commit_kind == PM_COMMIT_APPEND) {
            *list = s->delta_manifest_list;
            *size = s->delta_manifest_list_size;
        }
        return 0;
    }
    if (strcasecmp(producer, "input") != 0 && strcasecmp(producer, "lookup") != 0 &&
        strcasecmp(producer, "full-compaction") != 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: changelog-producer '%s' is unknown",
                          t->path, producer);
    *list = s->changelog_manifest_list;
    *size = s->changelog_manifest_list_size;
    return 0;
}

/* The splits of the changelog files that manifest list `list` names, into `p`. */
PM_MUST_CHECK static int plan_changelog_files(paimon_table *t, pm_scan_plan *p, const char *list,
                                              int64_t list_size, paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    const pm_manifest_entry **entries = NULL, **live = NULL, **files = NULL;
    size_t *counts = NULL, nm = 0, nlive = 0, nfiles = 0, cap = 0;
    int rc = 0;

    PM_TRY(pm_manifest_list_read(t->fs, t->path, list, list_size, &p->arena, &metas, &nm, err));
    p->manifests_total = nm;
    entries = pm_arena_calloc(&p->arena, nm + 1, sizeof(*entries));
    counts = pm_arena_calloc(&p->arena, nm + 1, sizeof(*counts));
    if (entries == NULL || counts == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nm; i++) {
        pm_manifest_entry *e = NULL;
        PM_TRY(pm_manifest_read(t->fs, t->path, metas[i].file_name, metas[i].file_size, &p->arena,
                                &e, &counts[i], err));
        entries[i] = e;
    }
    PM_TRY(pm_fold_live_entries(metas, entries, counts, nm, &p->arena, &live, &nlive, err));
    p->files_total = nlive;
    files = pm_arena_calloc(&p->arena, nlive + 1, sizeof(*files));
    if (files == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nlive; i++) {
        /* Postpone buckets are not readable yet, as in Java's scans (and the batch plan). */
        if (live[i]->bucket == -2) {
            p->files_skipped++;
            continue;
        }
        files[nfiles++] = live[i];
    }
    qsort(files, nfiles, sizeof(*files), pm_changes_cmp_file);
    for (size_t start = 0, i = 1; start < nfiles; i++) {
        if (i == nfiles || files[i]->bucket != files[start]->bucket ||
            pm_avro_bytes_cmp(&files[i]->partition, &files[start]->partition) != 0) {
            /* no deletion vectors: see changes.h */
            PM_TRY(pm_scan_plan_add_split(p, t, files + start, i - start, true, &cap, NULL, err));
            start = i;
        }
    }
done:
    return rc;
}

int pm_changes_plan(paimon_table *t, const pm_schema *schema, int64_t id, pm_scan_plan **out,
                    bool *read, paimon_error *err)
{
    pm_scan_plan *p = pm_calloc(1, sizeof(*p));
    const char *list = NULL;
    int64_t list_size = PM_ABSENT;
    int rc = 0;

    *out = NULL;
    *read = false;
    if (p == NULL)
        return pm_nomem(err);
    pm_arena_init(&p->arena, 1 << 14);
    {
        bool decoupled = false;
        rc = pm_table_check_changes(t->path, schema, err);
        if (rc == 0)
            rc = pm_changes_decoupled(schema, &decoupled, err);
        if (rc == 0)
            rc = pm_changes_read_point(t, decoupled, id, &p->snapshot, err);
    }
    if (rc == PAIMON_ENOTFOUND)
        rc = pm_err_set(err, PAIMON_ENOTFOUND,
                        "%s: snapshot %lld has expired or was never "
                        "committed",
                        t->path, (long long)id);
    if (rc != 0)
        goto done;
    PM_TRY(pm_schema_read(t->fs, t->path, schema->id, &p->schema, err));
    p->primary_key = p->schema->primary_keys.count > 0;
    PM_TRY(changes_list(t, p->schema, p->snapshot, &list, &list_size, err));
    if (list != NULL) {
        *read = true;
        PM_TRY(plan_changelog_files(t, p, list, list_size, err));
    }
    *out = p;
    p = NULL;
done:
    pm_scan_plan_free(p);
    return rc;
}
