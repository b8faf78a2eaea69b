/* LSM levels of a bucket: see levels.h. */
#include "lsm/levels.h"

#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "meta/manifest_write.h"
#include "util/alloc.h"
#include "util/assert.h"

void pm_levels_init(pm_levels *l, int32_t num_levels)
{
    memset(l, 0, sizeof(*l));
    pm_arena_init(&l->arena, 16 * 1024);
    l->num_levels = num_levels;
}

void pm_levels_release(pm_levels *l)
{
    pm_free(l->files);
    pm_arena_free(&l->arena);
    memset(l, 0, sizeof(*l));
}

void pm_levels_set_key(pm_levels *l, const pm_type *const *key_types, size_t key_count)
{
    l->key_types = key_count > 0 ? key_types : NULL;
    l->key_count = key_count;
}

int pm_levels_add(pm_levels *l, const pm_manifest_entry *e, paimon_error *err)
{
    pm_manifest_entry *copy;
    if (l->file_count == l->file_cap) {
        size_t cap = l->file_cap == 0 ? 16 : l->file_cap * 2;
        pm_manifest_entry **grown = pm_realloc(l->files, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        l->files = grown;
        l->file_cap = cap;
    }
    if ((copy = pm_arena_alloc(&l->arena, sizeof(*copy))) == NULL ||
        pm_manifest_entry_copy(&l->arena, copy, e) != 0)
        return pm_nomem(err);
    copy->kind = PM_FILE_KIND_ADD;
    if (e->file.level < 0)
        return pm_err_set(err, PAIMON_ECORRUPT, "data file %s has level %d", e->file.file_name,
                          e->file.level);
    if (e->file.level >= l->num_levels)
        l->num_levels = e->file.level + 1;
    l->files[l->file_count++] = copy;
    return 0;
}

bool pm_levels_remove(pm_levels *l, const char *name, int32_t level)
{
    for (size_t i = 0; i < l->file_count; i++) {
        const pm_manifest_entry *e = l->files[i];
        if (e != NULL && e->file.level == level && strcmp(e->file.file_name, name) == 0) {
            l->files[i] = NULL;
            return true;
        }
    }
    return false;
}

int pm_levels_level0_compare(const pm_data_file_meta *a, const pm_data_file_meta *b)
{
    if (a->max_sequence_number != b->max_sequence_number)
        return a->max_sequence_number > b->max_sequence_number ? -1 : 1;
    if (a->min_sequence_number != b->min_sequence_number)
        return a->min_sequence_number < b->min_sequence_number ? -1 : 1;
    if (a->creation_time != b->creation_time)
        return a->creation_time < b->creation_time ? -1 : 1;
    return strcmp(a->file_name, b->file_name);
}

static int compare_level0(const void *pa, const void *pb)
{
    return pm_levels_level0_compare(&(*(const pm_manifest_entry *const *)pa)->file,
                                    &(*(const pm_manifest_entry *const *)pb)->file);
}

/* ---- the key order of a level >= 1 ------------------------------------------------------- */

/* A file of a level >= 1 with its decoded key range. */
typedef struct ranged {
    const pm_manifest_entry *e;
    const pm_datum *min, *max; /* key_count values each */
} ranged;

static int compare_key(const pm_levels *l, const pm_datum *a, const pm_datum *b)
{
    return pm_datum_compare_key(l->key_types, a, b, l->key_count);
}

static int compare_min(const void *pa, const void *pb, void *ctx)
{
    return compare_key(ctx, ((const ranged *)pa)->min, ((const ranged *)pb)->min);
}

PM_MUST_CHECK static int decode_key(const pm_levels *l, const pm_manifest_entry *e,
                                    const pm_avro_bytes *b, const char *what, pm_datum *out,
                                    paimon_error *err)
{
    int rc = pm_binrow_decode_key(b->ptr, b->len, l->key_types, l->key_count, out, err);
    return rc == 0 ? 0 : pm_err_prefix(err, rc, "data file %s: %s: ", e->file.file_name, what);
}

/* Sorts files[0..n) of one level >= 1 by min key.  *overlap: the first i whose min key is
 * not above the max key of file i - 1 (after the sort), or 0 when the run is sound. */
PM_MUST_CHECK static int sort_run(const pm_levels *l, const pm_manifest_entry **files, size_t n,
                                  size_t *overlap, paimon_error *err)
{
    ranged *r = NULL;
    pm_datum *keys = NULL;
    int rc = 0;

    *overlap = 0;
    if (l->key_types == NULL || n < 2)
        return 0;
    r = pm_malloc(n * sizeof(*r));
    keys = pm_malloc(2 * n * l->key_count * sizeof(*keys));
    if (r == NULL || keys == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        pm_datum *min = keys + 2 * i * l->key_count, *max = min + l->key_count;
        if ((rc = decode_key(l, files[i], &files[i]->file.min_key, "min key", min, err)) != 0 ||
            (rc = decode_key(l, files[i], &files[i]->file.max_key, "max key", max, err)) != 0)
            goto done;
        r[i].e = files[i];
        r[i].min = min;
        r[i].max = max;
    }
    qsort_r(r, n, sizeof(*r), compare_min, (void *)l);
    for (size_t i = 0; i < n; i++)
        files[i] = r[i].e;
    for (size_t i = 1; i < n && *overlap == 0; i++)
        if (compare_key(l, r[i].min, r[i - 1].max) <= 0)
            *overlap = i;
done:
    pm_free(r);
    pm_free(keys);
    return rc;
}

int pm_levels_check(const pm_levels *l, paimon_error *err)
{
    const pm_manifest_entry **files;
    int rc = 0;
    if (l->key_types == NULL)
        return 0;
    if ((files = pm_malloc((l->file_count + 1) * sizeof(*files))) == NULL)
        return pm_nomem(err);
    for (int32_t lv = 1; rc == 0 && lv < l->num_levels; lv++) {
        size_t n = 0, overlap;
        for (size_t i = 0; i < l->file_count; i++)
            if (l->files[i] != NULL && l->files[i]->file.level == lv)
                files[n++] = l->files[i];
        if ((rc = sort_run(l, files, n, &overlap, err)) == 0 && overlap > 0)
            rc = pm_corrupt(err, "level %d: data files %s and %s overlap in key range", (int)lv,
                            files[overlap - 1]->file.file_name, files[overlap]->file.file_name);
    }
    pm_free(files);
    return rc;
}

/* ---- runs ---------------------------------------------------------------------------------- */

int pm_levels_runs(const pm_levels *l, pm_levels_run **runs, size_t *count, paimon_error *err)
{
    size_t live = 0, n = 0, l0 = 0, overlap;
    const pm_manifest_entry **all;
    pm_levels_run *out;
    int rc;
    *runs = NULL;
    *count = 0;
    for (size_t i = 0; i < l->file_count; i++)
        live += l->files[i] != NULL;
    all = pm_malloc((live + 1) * sizeof(*all));
    out = pm_calloc(live + (size_t)l->num_levels + 1, sizeof(*out));
    if (all == NULL || out == NULL) {
        pm_free(all);
        pm_free(out);
        return pm_nomem(err);
    }
    for (size_t i = 0; i < l->file_count; i++)
        if (l->files[i] != NULL && l->files[i]->file.level == 0)
            all[l0++] = l->files[i];
    qsort(all, l0, sizeof(*all), compare_level0);
    for (size_t i = 0; i < l0; i++) {
        out[n].level = 0;
        out[n].size = all[i]->file.file_size;
        if ((out[n].files = pm_malloc(sizeof(*out[n].files))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        out[n].files[0] = all[i];
        out[n++].file_count = 1;
    }
    for (int32_t lv = 1; lv < l->num_levels; lv++) {
        size_t k = 0;
        for (size_t i = 0; i < l->file_count; i++)
            if (l->files[i] != NULL && l->files[i]->file.level == lv)
                k++;
        if (k == 0)
            continue;
        out[n].level = lv;
        if ((out[n].files = pm_malloc(k * sizeof(*out[n].files))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < l->file_count; i++)
            if (l->files[i] != NULL && l->files[i]->file.level == lv) {
                out[n].files[out[n].file_count++] = l->files[i];
                out[n].size += l->files[i]->file.file_size;
            }
        /* The levels were checked when restored (pm_levels_check) and only compaction has
         * changed them since: a run that overlaps now is a bug of this program. */
        if ((rc = sort_run(l, out[n].files, out[n].file_count, &overlap, err)) != 0)
            goto done;
        PM_ASSERT(overlap == 0);
        n++;
    }
    pm_free(all);
    *runs = out;
    *count = n;
    return 0;
done:
    pm_free(all);
    pm_levels_runs_free(out, n + 1);
    return rc;
}

void pm_levels_runs_free(pm_levels_run *runs, size_t count)
{
    for (size_t i = 0; runs != NULL && i < count; i++)
        pm_free(runs[i].files);
    pm_free(runs);
}

int32_t pm_levels_highest(const pm_levels *l)
{
    int32_t h = -1;
    for (size_t i = 0; i < l->file_count; i++)
        if (l->files[i] != NULL && l->files[i]->file.level > h)
            h = l->files[i]->file.level;
    return h;
}

size_t pm_levels_file_count(const pm_levels *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->file_count; i++)
        n += l->files[i] != NULL;
    return n;
}
