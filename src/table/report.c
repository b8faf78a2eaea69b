/*
 * The shape of a table, as lists (include/paimon/inspect.h, issue 18): the LSM of each
 * partition and bucket (files per level, sorted runs, small files, rows deleted by deletion
 * vectors), what each commit changed, the deletion vectors of a snapshot, and the limits the
 * health checks (health.c) compare with.
 *
 * Sorted runs follow behaviour.md's LSM (Java's Levels): every level-0 file is a run of its
 * own, every non-empty level above 0 is one run; a batch read of a primary-key bucket merges
 * them all, so their count is the read amplification.  The limits are Java 1.4.2's
 * CoreOptions getters: targetFileSize(hasPrimaryKey), compactionFileSize (7/10 of the target),
 * numSortedRunStopTrigger (trigger + 3, at least the trigger), numLevels (trigger + 1), and
 * ExpireSnapshotsImpl's window (retain-max, retain-min, time-retained).
 */
#include <stdlib.h>
#include <string.h>

#include "meta/option_catalog.h"
#include "meta/options.h"
#include "table/expire.h"
#include "table/inspect.h"
#include "table/report.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

#define MB (1024LL * 1024LL)

/* ---- limits ------------------------------------------------------------------------------ */

/* The first snapshot ExpireSnapshotsImpl would keep, consumers and snapshot.expire.limit
 * aside: below max(latest - retain_max + 1, earliest) every snapshot goes; up to
 * latest - retain_min those older than the time window go, stopping at the first younger
 * one. */
PM_MUST_CHECK static int expire_window(paimon_table *t, paimon_health_limits *h, paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int64_t earliest, latest, min, max_excl, id;
    int rc;

    h->expire_before = 0;
    if ((rc = pm_snapshot_list_ids(t->fs, t->path, &ids, &n, err)) != 0)
        return rc;
    if (n == 0)
        goto done;
    earliest = ids[0];
    latest = ids[n - 1];
    min = latest - h->retain_max + 1 > earliest ? latest - h->retain_max + 1 : earliest;
    max_excl = latest - h->retain_min + 1;
    for (id = min; id < max_excl; id++) {
        pm_snapshot *s = NULL;
        int r = pm_snapshot_read(t->fs, t->path, id, &s, NULL);
        bool young = r != 0 || h->now_millis - h->time_retained_ms <= s->time_millis;
        pm_snapshot_free(s);
        if (young)
            break;
    }
    if (id > max_excl)
        id = max_excl;
    if (id > earliest)
        h->expire_before = id;
done:
    pm_free(ids);
    return rc;
}

int pm_report_limits(paimon_table *t, paimon_health_limits *h, paimon_error *err)
{
    const pm_options *o = &t->schema->options;
    pm_expire_config ec;
    int64_t levels = 0;
    int rc;

    memset(h, 0, sizeof(*h));
    h->primary_key = t->schema->primary_keys.count > 0;
    h->now_millis = pm_now_millis();
    if ((rc = pm_options_get_memory_or(o, "target-file-size", h->primary_key ? 128 * MB : 256 * MB,
                                       &h->target_file_size, err)) != 0 ||
        (rc = pm_options_get_i64(o, "num-sorted-run.compaction-trigger", &h->compaction_trigger,
                                 err)) != 0 ||
        (rc = pm_options_get_i64_or(o, "num-sorted-run.stop-trigger", h->compaction_trigger + 3,
                                    &h->stop_trigger, err)) != 0 ||
        (rc = pm_options_get_i64(o, "compaction.min.file-num", &h->min_file_num, err)) != 0 ||
        (rc = pm_options_get_i64_or(o, "num-levels", h->compaction_trigger + 1, &levels, err)) !=
            0 ||
        (rc = pm_expire_config_from_options(o, h->now_millis, &ec, err)) != 0)
        return pm_err_prefix(err, rc, "%s: ", t->path);
    if (h->stop_trigger < h->compaction_trigger)
        h->stop_trigger = h->compaction_trigger;
    h->small_file_size = h->target_file_size / 10 * 7;
    h->num_levels = levels > 0 && levels < 1000 ? (int32_t)levels : 1;
    h->retain_min = ec.retain_min;
    h->retain_max = ec.retain_max;
    h->time_retained_ms = ec.time_retained_ms;
    return expire_window(t, h, err);
}

/* ---- deletion vectors -------------------------------------------------------------------- */

int pm_report_dvs(paimon_table *t, int64_t snapshot_id, paimon_list **out, paimon_error *err)
{
    pm_inspect_ctx c;
    pm_arena tmp;
    pm_index_manifest_entry *entries = NULL;
    paimon_list *l = NULL;
    size_t count = 0, total = 0, k = 0;
    bool failed = false;
    int rc;

    *out = NULL;
    pm_arena_init(&tmp, 1 << 14);
    if ((rc = pm_inspect_ctx_open(t, snapshot_id, &c, err)) != 0)
        goto done;
    if (c.snap->index_manifest != NULL &&
        (rc = pm_index_manifest_read(t->fs, t->path, c.snap->index_manifest, &tmp, &entries, &count,
                                     err)) != 0)
        goto done;
    for (size_t i = 0; i < count; i++)
        if (entries[i].kind == PM_FILE_KIND_ADD && entries[i].dv_ranges.present &&
            strcmp(entries[i].index_type, "DELETION_VECTORS") == 0)
            total += entries[i].dv_ranges.count;
    if ((rc = pm_inspect_list_new(PM_LIST_DVS, sizeof(paimon_dv_info), total, &l, err)) != 0)
        goto done;
    for (size_t i = 0; i < count; i++) {
        const pm_index_manifest_entry *e = &entries[i];
        const char *part;
        if (e->kind != PM_FILE_KIND_ADD || !e->dv_ranges.present ||
            strcmp(e->index_type, "DELETION_VECTORS") != 0)
            continue;
        part = pm_inspect_partition_json(l, &c, &e->partition, &failed);
        for (size_t j = 0; j < e->dv_ranges.count; j++) {
            const pm_dv_range *r = (const pm_dv_range *)e->dv_ranges.items + j;
            paimon_dv_info *d = (paimon_dv_info *)l->items + k++;
            d->partition = part != NULL ? part : "{}";
            d->bucket = e->bucket;
            d->data_file = pm_inspect_keep(l, r->data_file, &failed);
            d->cardinality = r->has_cardinality ? r->cardinality : -1;
        }
    }
    rc = pm_inspect_list_finish(&l, k, failed, out, err);
done:
    pm_list_free(l);
    pm_inspect_ctx_close(t, &c);
    pm_arena_free(&tmp);
    return rc;
}

/* ---- buckets ----------------------------------------------------------------------------- */

typedef struct dv_key {
    const char *file;
    int64_t rows;
} dv_key;

static int cmp_dv_key(const void *a, const void *b)
{
    return strcmp(((const dv_key *)a)->file, ((const dv_key *)b)->file);
}

int pm_report_buckets(paimon_table *t, int64_t snapshot_id, paimon_list **out, paimon_error *err)
{
    paimon_list *files = NULL, *dvs = NULL, *l = NULL;
    paimon_health_limits h;
    dv_key *keys = NULL;
    size_t n, nb = 0, nk = 0;
    bool failed = false, levels[64];
    int rc;

    *out = NULL;
    if ((rc = pm_report_limits(t, &h, err)) != 0 ||
        (rc = pm_inspect_files(t, snapshot_id, &files, err)) != 0 ||
        (rc = pm_report_dvs(t, snapshot_id, &dvs, err)) != 0)
        goto done;
    nk = dvs->count;
    if (nk > 0) {
        if ((keys = pm_calloc(nk, sizeof(*keys))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < nk; i++) {
            keys[i].file = ((const paimon_dv_info *)dvs->items)[i].data_file;
            keys[i].rows = ((const paimon_dv_info *)dvs->items)[i].cardinality;
        }
        qsort(keys, nk, sizeof(*keys), cmp_dv_key);
    }
    n = files->count;
    if ((rc = pm_inspect_list_new(PM_LIST_BUCKETS, sizeof(paimon_bucket_info), n, &l, err)) != 0)
        goto done;
    /* the files come sorted by partition, bucket, level: one pass, a bucket per change */
    for (size_t i = 0; i < n; i++) {
        const paimon_file_info *f = (const paimon_file_info *)files->items + i;
        paimon_bucket_info *b = nb > 0 ? (paimon_bucket_info *)l->items + nb - 1 : NULL;
        dv_key probe = {f->file_name, 0}, *hit;
        if (b == NULL || b->bucket != f->bucket || strcmp(b->partition, f->partition) != 0) {
            b = (paimon_bucket_info *)l->items + nb++;
            b->partition = pm_inspect_keep(l, f->partition, &failed);
            b->partition_path =
                pm_inspect_keep(l, f->partition_path != NULL ? f->partition_path : "", &failed);
            b->bucket = f->bucket;
            b->max_level = f->level;
            memset(levels, 0, sizeof(levels));
        }
        b->file_count++;
        b->row_count += f->row_count;
        b->file_size += f->file_size;
        if (f->level > b->max_level)
            b->max_level = f->level;
        if (f->file_size < h.small_file_size)
            b->small_files++;
        if (f->level <= 0 || !h.primary_key) {
            b->level0_files += f->level <= 0;
            b->sorted_runs++;
        } else if (f->level < 64 && !levels[f->level]) {
            levels[f->level] = true;
            b->levels_used++;
            b->sorted_runs++;
        }
        hit = nk > 0 ? bsearch(&probe, keys, nk, sizeof(*keys), cmp_dv_key) : NULL;
        if (hit != NULL && hit->rows > 0)
            b->deleted_rows += hit->rows;
    }
    rc = pm_inspect_list_finish(&l, nb, failed, out, err);
done:
    pm_free(keys);
    pm_list_free(l);
    pm_list_free(files);
    pm_list_free(dvs);
    return rc;
}

/* ---- commits ----------------------------------------------------------------------------- */

/* Adds the entries of manifest list `name` to `c`: data files, or changelog files. */
PM_MUST_CHECK static int count_list(paimon_table *t, const char *name, int64_t size, bool changelog,
                                    paimon_commit_info *c, paimon_error *err)
{
    pm_arena tmp;
    pm_manifest_file_meta *metas = NULL;
    size_t nm = 0;
    int rc;

    pm_arena_init(&tmp, 1 << 14);
    if ((rc = pm_manifest_list_read(t->fs, t->path, name, size, &tmp, &metas, &nm, err)) != 0)
        goto done;
    for (size_t i = 0; i < nm; i++) {
        pm_manifest_entry *e = NULL;
        size_t ne = 0;
        if ((rc = pm_manifest_read(t->fs, t->path, metas[i].file_name, metas[i].file_size, &tmp, &e,
                                   &ne, err)) != 0)
            goto done;
        for (size_t j = 0; j < ne; j++) {
            if (changelog) {
                c->changelog_files++;
                c->changelog_rows += e[j].file.row_count;
            } else if (e[j].kind == PM_FILE_KIND_ADD) {
                c->files_added++;
                c->rows_added += e[j].file.row_count;
                c->bytes_added += e[j].file.file_size;
            } else {
                c->files_deleted++;
                c->rows_deleted += e[j].file.row_count;
                c->bytes_deleted += e[j].file.file_size;
            }
        }
    }
done:
    pm_arena_free(&tmp);
    return rc;
}

PM_MUST_CHECK static int fill_commit(paimon_list *l, void *item, int64_t id, const pm_snapshot *s,
                                     const char *why, void *ctx, bool *failed, paimon_error *err)
{
    paimon_commit_info *c = item;
    paimon_table *t = ctx;
    paimon_error e = {0, {0}};
    int r;
    (void)err;
    c->snapshot_id = id;
    if (s == NULL) {
        c->unreadable = pm_inspect_keep(l, why, failed);
        return 0;
    }
    c->commit_kind = pm_inspect_keep(l, s->commit_kind_name, failed);
    c->time_millis = s->time_millis;
    r = count_list(t, s->delta_manifest_list, s->delta_manifest_list_size, false, c, &e);
    if (r == 0 && s->changelog_manifest_list != NULL)
        r = count_list(t, s->changelog_manifest_list, s->changelog_manifest_list_size, true, c, &e);
    if (r == PAIMON_ENOMEM)
        return r;
    /* a damaged manifest hides nothing else: the entry says why */
    if (r != 0)
        c->unreadable = pm_inspect_keep(l, e.message, failed);
    return 0;
}

int pm_report_commits(paimon_table *t, paimon_list **out, paimon_error *err)
{
    return pm_inspect_each_snapshot(t, PM_LIST_COMMITS, sizeof(paimon_commit_info), fill_commit, t,
                                    out, err);
}

/* ---- option defaults --------------------------------------------------------------------- */

const char *pm_report_option_default(const char *key, bool *known)
{
    const pm_option_def *d = key != NULL ? pm_option_canonical(key) : NULL;
    if (known != NULL)
        *known = d != NULL;
    return d != NULL ? d->dflt : NULL;
}
