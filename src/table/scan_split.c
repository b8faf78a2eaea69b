/*
 * Appending a split to a plan: the one way a batch scan (table/scan.c) and a change read
 * (table/changes.c) make a split of the files of one partition and bucket.  See
 * pm_scan_plan_add_split in scan.h.
 */
#include <string.h>

#include "table/scan.h"
#include "util/alloc.h"
#include "util/error.h"

int pm_scan_plan_add_split(pm_scan_plan *p, paimon_table *t, const pm_manifest_entry *const *files,
                           size_t n, bool raw, size_t *cap, pm_split **out, paimon_error *err)
{
    pm_split *s;
    if (p->split_count == *cap) {
        size_t ncap = *cap == 0 ? 16 : *cap * 2;
        pm_split *grown = pm_arena_alloc(&p->arena, ncap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        if (p->split_count > 0)
            memcpy(grown, p->splits, p->split_count * sizeof(*grown));
        p->splits = grown;
        *cap = ncap;
    }
    s = &p->splits[p->split_count];
    memset(s, 0, sizeof(*s));
    s->partition = files[0]->partition;
    s->bucket = files[0]->bucket;
    s->total_buckets = files[0]->total_buckets;
    s->raw = raw;
    s->file_count = n;
    s->files = pm_arena_alloc(&p->arena, (n + 1) * sizeof(*s->files));
    s->paths = pm_arena_calloc(&p->arena, n + 1, sizeof(*s->paths));
    s->dvs = pm_arena_calloc(&p->arena, n + 1, sizeof(*s->dvs));
    if (s->files == NULL || s->paths == NULL || s->dvs == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < n; i++) {
        s->files[i] = files[i];
        s->paths[i] = pm_data_file_path(t, p->schema, files[i], &p->arena, err);
        if (s->paths[i] == NULL)
            return err != NULL && err->code != 0 ? err->code : PAIMON_EINVALID;
    }
    p->split_count++;
    if (out != NULL)
        *out = s;
    return 0;
}
