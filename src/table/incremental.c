/* Incremental reads: see incremental.h. */
#include "table/incremental.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/file_entry.h"
#include "meta/options.h"
#include "meta/snapshot.h"
#include "table/changes.h"
#include "table/scan_mode.h"
#include "table/tag.h"
#include "table/tag_auto.h"
#include "util/alloc.h"
#include "util/units.h"

void pm_incremental_release(pm_incremental *inc)
{
    pm_free(inc->start_tag);
    pm_free(inc->end_tag);
    inc->start_tag = inc->end_tag = NULL;
}

/* Splits "a,b" into two owned strings (Java's String.split(",") must give two parts). */
static bool split_pair(const char *text, char **a, char **b)
{
    const char *comma = strchr(text, ',');
    *a = *b = NULL;
    if (comma == NULL || strchr(comma + 1, ',') != NULL || comma == text || comma[1] == '\0')
        return false;
    *a = pm_malloc((size_t)(comma - text) + 1);
    *b = pm_strdup(comma + 1);
    if (*a == NULL || *b == NULL) {
        pm_free(*a);
        pm_free(*b);
        *a = *b = NULL;
        return false;
    }
    memcpy(*a, text, (size_t)(comma - text));
    (*a)[comma - text] = '\0';
    return true;
}

/* The mode the scan mode option asks for (delta or changelog for auto). */
static pm_incremental_kind kind_of(const pm_options *o)
{
    const char *m = pm_options_get_str(o, "incremental-between-scan-mode");
    const char *producer = pm_options_get_str(o, "changelog-producer");
    if (m != NULL && strcasecmp(m, "delta") == 0)
        return PM_INCREMENTAL_DELTA;
    if (m != NULL && strcasecmp(m, "changelog") == 0)
        return PM_INCREMENTAL_CHANGELOG;
    if (m != NULL && strcasecmp(m, "diff") == 0)
        return PM_INCREMENTAL_DIFF;
    return producer == NULL || strcasecmp(producer, "none") == 0 ? PM_INCREMENTAL_DELTA
                                                                 : PM_INCREMENTAL_CHANGELOG;
}

/* The snapshot ids of a table: *found false without snapshots. */
PM_MUST_CHECK static int bounds(paimon_table *t, int64_t *earliest, int64_t *latest, bool *found,
                                paimon_error *err)
{
    int rc = pm_snapshot_latest_id(t->fs, t->path, latest, found, err);
    if (rc != 0 || !*found)
        return rc;
    return pm_snapshot_earliest_id(t->fs, t->path, earliest, found, err);
}

/* SnapshotManager.earlierOrEqualTimeMills: *id 0 when none. */
PM_MUST_CHECK static int at_or_before(paimon_table *t, int64_t ts, int64_t *id, paimon_error *err)
{
    pm_snapshot_selector sel = {PM_SNAPSHOT_TIMESTAMP, 0, NULL, ts};
    pm_snapshot *s = NULL;
    int rc = pm_table_select_snapshot(t, &sel, &s, err);
    *id = 0;
    if (rc == PAIMON_ENOTFOUND) {
        paimon_error_clear(err);
        return 0;
    }
    if (rc == 0)
        *id = s->id;
    pm_snapshot_free(s);
    return rc;
}

PM_MUST_CHECK static int between_ids(paimon_table *t, const pm_options *o, const char *a,
                                     const char *b, pm_incremental *out, paimon_error *err)
{
    pm_tag *ta = NULL, *tb = NULL;
    int64_t start, end, earliest = 0, latest = 0;
    bool found = false, tag_to_snapshot = false;
    int rc = 0;

    rc = pm_tag_read(t->fs, t->path, a, &ta, err);
    if (rc == PAIMON_ENOTFOUND) {
        paimon_error_clear(err);
        rc = 0;
    }
    if (rc == 0 && ta != NULL) {
        rc = pm_tag_read(t->fs, t->path, b, &tb, err);
        if (rc == PAIMON_ENOTFOUND) {
            paimon_error_clear(err);
            rc = 0;
        }
    }
    if (rc != 0)
        goto done;
    if (ta != NULL && tb != NULL) {
        PM_TRY(
            pm_options_get_bool(o, "incremental-between-tag-to-snapshot", &tag_to_snapshot, err));
        start = ta->snapshot->id;
        end = tb->snapshot->id;
        if (!tag_to_snapshot) {
            if (end < start) {
                rc = pm_err_set(err, PAIMON_EINVALID,
                                "%s: Tag end %s with snapshot id %lld should be >= tag start %s "
                                "with snapshot id %lld",
                                t->path, b, (long long)end, a, (long long)start);
                goto done;
            }
            out->kind = PM_INCREMENTAL_DIFF;
            out->start = start;
            out->end = end;
            out->empty = start == end;
            if ((out->start_tag = pm_strdup(a)) == NULL || (out->end_tag = pm_strdup(b)) == NULL)
                rc = pm_nomem(err);
            goto done;
        }
        out->kind = kind_of(o);
        if (out->kind == PM_INCREMENTAL_DIFF) /* toSnapshotScanMode: diff is not a scan mode */
            out->kind = PM_INCREMENTAL_DELTA;
    } else {
        if (pm_parse_int64(a, &start) != 0 || pm_parse_int64(b, &end) != 0) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "%s: Didn't find two tags for start '%s' and end '%s', and they are "
                            "not two snapshot Ids. Please set two tags or two snapshot Ids.",
                            t->path, a, b);
            goto done;
        }
        if (end < start) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "%s: Ending snapshotId should >= starting snapshotId %lld. [%lld]",
                            t->path, (long long)end, (long long)start);
            goto done;
        }
        PM_TRY(bounds(t, &earliest, &latest, &found, err));
        if (!found || start == end) {
            out->empty = true;
            goto done;
        }
        out->kind = kind_of(o);
    }
    if (out->kind != PM_INCREMENTAL_DIFF) {
        PM_TRY(bounds(t, &earliest, &latest, &found, err));
        if (!found || start < earliest - 1 || end > latest) {
            rc = pm_err_set(err, PAIMON_ENOTFOUND,
                            "%s: The specified scan snapshotId range [%lld, %lld] is out of "
                            "available snapshotId range [%lld, %lld].",
                            t->path, (long long)start, (long long)end, (long long)earliest,
                            (long long)latest);
            goto done;
        }
    }
    out->start = start;
    out->end = end;
done:
    pm_tag_free(ta);
    pm_tag_free(tb);
    return rc;
}

PM_MUST_CHECK static int between_timestamps(paimon_table *t, const pm_options *o, const char *text,
                                            pm_incremental *out, paimon_error *err)
{
    char *a = NULL, *b = NULL;
    int64_t ts1, ts2, earliest = 0, latest = 0, id;
    pm_snapshot *first = NULL, *last = NULL;
    bool found;
    int rc = 0;

    if (!split_pair(text, &a, &b) ||
        ((pm_parse_int64(a, &ts1) != 0 || pm_parse_int64(b, &ts2) != 0) &&
         (pm_scan_parse_local_timestamp("incremental-between-timestamp", a, &ts1, err) != 0 ||
          pm_scan_parse_local_timestamp("incremental-between-timestamp", b, &ts2, err) != 0))) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "%s: The incremental-between-timestamp must specific start(exclusive) and "
                        "end timestamp. But is: %s",
                        t->path, text);
        goto done;
    }
    PM_TRY(bounds(t, &earliest, &latest, &found, err));
    if (!found) {
        out->empty = true;
        goto done;
    }
    if (ts2 < ts1) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "%s: Ending timestamp %lld should be >= starting timestamp %lld.", t->path,
                        (long long)ts2, (long long)ts1);
        goto done;
    }
    PM_TRY(pm_snapshot_read(t->fs, t->path, earliest, &first, err));
    PM_TRY(pm_snapshot_read(t->fs, t->path, latest, &last, err));
    if (ts1 == ts2 || ts1 > last->time_millis || ts2 < first->time_millis) {
        out->empty = true;
        goto done;
    }
    out->kind = kind_of(o);
    PM_TRY(at_or_before(t, ts1, &id, err));
    if (out->kind == PM_INCREMENTAL_DIFF)
        out->start = id != 0 ? id : earliest;
    else
        out->start = (id == 0 || first->time_millis > ts1) ? earliest - 1 : id;
    PM_TRY(at_or_before(t, ts2, &id, err));
    out->end = id != 0 ? id : latest;
    out->empty = out->start >= out->end;
done:
    pm_snapshot_free(first);
    pm_snapshot_free(last);
    pm_free(a);
    pm_free(b);
    return rc;
}

/* incremental-to-auto-tag (Java's IncrementalDiffStartingScanner.toEndAutoTag): the diff from
 * the latest auto tag whose period is before END's to the auto tag END; empty when END does
 * not exist or no earlier auto tag does. */
PM_MUST_CHECK static int to_auto_tag(paimon_table *t, const pm_options *o, const char *name,
                                     pm_incremental *out, paimon_error *err)
{
    pm_tag_period p;
    pm_tag *end = NULL, **tags = NULL;
    const pm_tag *start = NULL;
    size_t count = 0;
    int64_t end_ms = 0, start_ms = 0;
    int rc = 0;

    PM_TRY(pm_tag_period_from(o, &p, err));
    if (name == NULL || !pm_tag_period_parse(&p, name, &end_ms)) {
        rc = pm_err_set(err, PAIMON_EINVALID, "%s: Specified tag '%s' is not an auto-created tag.",
                        t->path, name != NULL ? name : "");
        goto done;
    }
    rc = pm_tag_read(t->fs, t->path, name, &end, err);
    if (rc == PAIMON_ENOTFOUND) {
        paimon_error_clear(err);
        out->empty = true;
        rc = 0;
        goto done;
    }
    if (rc != 0)
        goto done;
    PM_TRY(pm_tag_read_all(t->fs, t->path, &tags, &count, err));
    for (size_t i = 0; i < count; i++) {
        int64_t ms;
        if (pm_tag_period_parse(&p, tags[i]->name, &ms) && ms < end_ms &&
            (start == NULL || ms > start_ms)) {
            start = tags[i];
            start_ms = ms;
        }
    }
    if (start == NULL) {
        out->empty = true;
        goto done;
    }
    out->kind = PM_INCREMENTAL_DIFF;
    out->start = start->snapshot->id;
    out->end = end->snapshot->id;
    out->empty = out->start == out->end;
    if ((out->start_tag = pm_strdup(start->name)) == NULL ||
        (out->end_tag = pm_strdup(name)) == NULL)
        rc = pm_nomem(err);
done:
    pm_tag_free(end);
    pm_tag_free_all(tags, count);
    return rc;
}

int pm_incremental_resolve(paimon_table *t, const pm_options *o, pm_incremental *out,
                           paimon_error *err)
{
    const char *between = pm_options_get(o, "incremental-between");
    const char *between_ts = pm_options_get(o, "incremental-between-timestamp");
    char *a = NULL, *b = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if (between != NULL) {
        if (!split_pair(between, &a, &b))
            return pm_err_set(err, PAIMON_EINVALID,
                              "%s: The incremental-between must specific start(exclusive) and end "
                              "snapshot, for example, 'incremental-between'='5,10' means changes "
                              "between snapshot 5 and snapshot 10. But is: %s",
                              t->path, between);
        rc = between_ids(t, o, a, b, out, err);
        pm_free(a);
        pm_free(b);
    } else if (between_ts != NULL) {
        rc = between_timestamps(t, o, between_ts, out, err);
    } else {
        rc = to_auto_tag(t, o, pm_options_get(o, "incremental-to-auto-tag"), out, err);
    }
    if (rc != 0)
        pm_incremental_release(out);
    return rc;
}

/* ---- the plan of delta and changelog reads ------------------------------------------------ */

int pm_incremental_plan(paimon_table *t, const pm_schema *schema, const pm_incremental *inc,
                        pm_scan_plan **out, paimon_error *err)
{
    pm_scan_plan *p = pm_calloc(1, sizeof(*p));
    const pm_manifest_entry **files = NULL;
    size_t nfiles = 0, files_cap = 0, cap = 0;
    int rc = 0;

    *out = NULL;
    if (p == NULL)
        return pm_nomem(err);
    pm_arena_init(&p->arena, 1 << 14);
    PM_TRY(pm_schema_read(t->fs, t->path, schema->id, &p->schema, err));
    p->primary_key = p->schema->primary_keys.count > 0;
    if (!inc->empty)
        PM_TRY(pm_snapshot_read(t->fs, t->path, inc->end, &p->snapshot, err));
    for (int64_t id = inc->start + 1; !inc->empty && id <= inc->end; id++) {
        pm_snapshot *s = NULL;
        pm_manifest_file_meta *metas = NULL;
        const char *list;
        int64_t size;
        size_t nm = 0;
        PM_TRY(pm_snapshot_read(t->fs, t->path, id, &s, err));
        if (inc->kind == PM_INCREMENTAL_DELTA) {
            list = s->commit_kind == PM_COMMIT_APPEND ? s->delta_manifest_list : NULL;
            size = s->delta_manifest_list_size;
        } else {
            list = s->commit_kind != PM_COMMIT_OVERWRITE ? s->changelog_manifest_list : NULL;
            size = s->changelog_manifest_list_size;
        }
        if (list == NULL) {
            pm_snapshot_free(s);
            continue;
        }
        rc = pm_manifest_list_read(t->fs, t->path, list, size, &p->arena, &metas, &nm, err);
        pm_snapshot_free(s);
        if (rc != 0)
            goto done;
        p->manifests_total += nm;
        for (size_t i = 0; i < nm; i++) {
            pm_manifest_entry *e = NULL;
            size_t n = 0;
            PM_TRY(pm_manifest_read(t->fs, t->path, metas[i].file_name, metas[i].file_size,
                                    &p->arena, &e, &n, err));
            for (size_t k = 0; k < n; k++) {
                if (e[k].kind != PM_FILE_KIND_ADD) {
                    rc = pm_corrupt(err,
                                    "%s: manifest %s: Delta or changelog should only have "
                                    "ADD files.",
                                    t->path, metas[i].file_name);
                    goto done;
                }
                p->files_total++;
                if (e[k].bucket == -2) { /* postpone buckets are not readable yet */
                    p->files_skipped++;
                    continue;
                }
                if (nfiles == files_cap) {
                    size_t nc = files_cap > 0 ? files_cap * 2 : 64;
                    const pm_manifest_entry **nf = pm_realloc(files, nc * sizeof(*nf));
                    if (nf == NULL) {
                        rc = pm_nomem(err);
                        goto done;
                    }
                    files = nf;
                    files_cap = nc;
                }
                files[nfiles++] = &e[k];
            }
        }
    }
    if (nfiles > 0)
        qsort(files, nfiles, sizeof(*files), pm_changes_cmp_file);
    for (size_t start = 0, i = 1; start < nfiles; i++) {
        if (i == nfiles || files[i]->bucket != files[start]->bucket ||
            pm_avro_bytes_cmp(&files[i]->partition, &files[start]->partition) != 0) {
            PM_TRY(pm_scan_plan_add_split(p, t, files + start, i - start, true, &cap, NULL, err));
            start = i;
        }
    }
    *out = p;
    p = NULL;
done:
    pm_free(files);
    pm_scan_plan_free(p);
    return rc;
}
