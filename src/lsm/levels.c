/* LSM levels of a bucket: see levels.h. */
#include "lsm/levels.h"

#include <stdlib.h>
#include <string.h>

#include "meta/manifest_write.h"
#include "util/alloc.h"

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

int pm_levels_runs(const pm_levels *l, pm_levels_run **runs, size_t *count, paimon_error *err)
{
    size_t live = 0, n = 0, l0 = 0;
    const pm_manifest_entry **all;
    pm_levels_run *out;
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
        if ((out[n].files = pm_malloc(sizeof(*out[n].files))) == NULL)
            goto nomem;
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
        if ((out[n].files = pm_malloc(k * sizeof(*out[n].files))) == NULL)
            goto nomem;
        for (size_t i = 0; i < l->file_count; i++)
            if (l->files[i] != NULL && l->files[i]->file.level == lv) {
                out[n].files[out[n].file_count++] = l->files[i];
                out[n].size += l->files[i]->file.file_size;
            }
        n++;
    }
    pm_free(all);
    *runs = out;
    *count = n;
    return 0;
nomem:
    pm_free(all);
    pm_levels_runs_free(out, n + 1);
    return pm_nomem(err);
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
