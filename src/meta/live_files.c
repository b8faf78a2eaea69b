/* The live data files of a snapshot, sorted for listing: see live_files.h. */
#include "meta/live_files.h"

#include <stdlib.h>
#include <string.h>

#include "data/datum_compare.h"
#include "meta/file_entry.h"
#include "util/error.h"

typedef struct sort_ctx {
    const pm_field *const *parts;
    size_t part_count;
} sort_ctx;

static int cmp_live_file(const void *pa, const void *pb, void *ctx)
{
    const pm_live_file *a = pa, *b = pb;
    const sort_ctx *c = ctx;
    int r;
    for (size_t i = 0; i < c->part_count; i++) {
        pm_datum x, y;
        if (pm_binrow_get(&a->partition, (int32_t)i, c->parts[i]->type, &x, NULL) != 0 ||
            pm_binrow_get(&b->partition, (int32_t)i, c->parts[i]->type, &y, NULL) != 0)
            break;
        if ((r = pm_datum_compare(c->parts[i]->type, &x, &y)) != 0)
            return r;
    }
    if (a->e->bucket != b->e->bucket)
        return a->e->bucket < b->e->bucket ? -1 : 1;
    if (a->e->file.level != b->e->file.level)
        return a->e->file.level < b->e->file.level ? -1 : 1;
    return strcmp(a->e->file.file_name, b->e->file.file_name);
}

int pm_live_files_sorted(pm_fs *fs, const char *table, const pm_snapshot *snap,
                         const pm_field *const *parts, size_t part_count, pm_live_file_keep keep,
                         void *keep_ctx, pm_arena *arena, pm_live_file **out, size_t *count,
                         paimon_error *err)
{
    const pm_manifest_entry **live = NULL;
    pm_live_file *files;
    size_t nlive = 0, n = 0;
    sort_ctx sc = {parts, part_count};
    int rc;

    *out = NULL;
    *count = 0;
    if ((rc = pm_snapshot_live_entries(fs, table, snap, arena, &live, &nlive, err)) != 0)
        return rc;
    if ((files = pm_arena_calloc(arena, nlive + 1, sizeof(*files))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < nlive; i++) {
        const pm_manifest_entry *e = live[i];
        pm_live_file *f = &files[n];
        if (keep != NULL && !keep(e, keep_ctx))
            continue;
        f->e = e;
        if ((rc = pm_binrow_deserialize(&f->partition, e->partition.ptr, e->partition.len, err)) !=
            0)
            return rc;
        if (f->partition.arity != (int32_t)part_count)
            return pm_corrupt(err, "%s: data file %s has a partition of %d fields, the table %zu",
                              table, e->file.file_name, f->partition.arity, part_count);
        n++;
    }
    qsort_r(files, n, sizeof(*files), cmp_live_file, &sc); /* glibc: context last */
    *out = files;
    *count = n;
    return 0;
}
