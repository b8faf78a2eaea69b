/* Live-file folding: see file_entry.h. */
#include "meta/file_entry.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

static bool bytes_equal(const pm_avro_bytes *a, const pm_avro_bytes *b)
{
    if ((a->ptr == NULL) != (b->ptr == NULL))
        return false;
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

static bool str_equal(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

bool pm_file_identity_equal(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    const pm_avro_array *xa = &a->file.extra_files, *xb = &b->file.extra_files;
    if (a->bucket != b->bucket || a->file.level != b->file.level ||
        strcmp(a->file.file_name, b->file.file_name) != 0 ||
        !bytes_equal(&a->partition, &b->partition) ||
        !bytes_equal(&a->file.embedded_file_index, &b->file.embedded_file_index) ||
        !str_equal(a->file.external_path, b->file.external_path) || xa->count != xb->count)
        return false;
    for (size_t i = 0; i < xa->count; i++)
        if (strcmp(((const char *const *)xa->items)[i], ((const char *const *)xb->items)[i]) != 0)
            return false;
    return true;
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t pm_file_identity_hash(const pm_manifest_entry *e)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int32_t ints[2] = {e->bucket, e->file.level};
    h = fnv(h, e->file.file_name, strlen(e->file.file_name));
    h = fnv(h, ints, sizeof(ints));
    if (e->partition.ptr != NULL)
        h = fnv(h, e->partition.ptr, e->partition.len);
    return h;
}

/* An open-addressing set of DELETE entries (pointers), keyed by identity. */
typedef struct id_set {
    const pm_manifest_entry **slots;
    size_t cap; /* power of two */
    size_t count;
} id_set;

static int set_grow(id_set *s)
{
    size_t cap = s->cap == 0 ? 64 : s->cap * 2;
    const pm_manifest_entry **slots = pm_calloc(cap, sizeof(*slots));
    if (slots == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < s->cap; i++) {
        const pm_manifest_entry *e = s->slots[i];
        size_t j;
        if (e == NULL)
            continue;
        j = pm_file_identity_hash(e) & (cap - 1);
        while (slots[j] != NULL)
            j = (j + 1) & (cap - 1);
        slots[j] = e;
    }
    pm_free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return 0;
}

static bool set_contains(const id_set *s, const pm_manifest_entry *e)
{
    size_t j;
    if (s->cap == 0)
        return false;
    for (j = pm_file_identity_hash(e) & (s->cap - 1); s->slots[j] != NULL;
         j = (j + 1) & (s->cap - 1))
        if (pm_file_identity_equal(s->slots[j], e))
            return true;
    return false;
}

static int set_add(id_set *s, const pm_manifest_entry *e)
{
    size_t j;
    if ((s->count + 1) * 2 > s->cap && set_grow(s) != 0)
        return PAIMON_ENOMEM;
    if (set_contains(s, e))
        return 0;
    for (j = pm_file_identity_hash(e) & (s->cap - 1); s->slots[j] != NULL;
         j = (j + 1) & (s->cap - 1))
        ;
    s->slots[j] = e;
    s->count++;
    return 0;
}

int pm_fold_live_entries(const pm_manifest_file_meta *metas,
                         const pm_manifest_entry *const *entries, const size_t *entry_counts,
                         size_t manifest_count, pm_arena *arena, const pm_manifest_entry ***out,
                         size_t *count, paimon_error *err)
{
    id_set deleted = {0};
    const pm_manifest_entry **live = NULL;
    size_t total = 0, n = 0;
    int rc = 0;

    for (size_t m = 0; m < manifest_count; m++) {
        if (metas[m].num_deleted_files <= 0)
            continue;
        for (size_t i = 0; i < entry_counts[m]; i++)
            if (entries[m][i].kind == PM_FILE_KIND_DELETE &&
                set_add(&deleted, &entries[m][i]) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
    }
    for (size_t m = 0; m < manifest_count; m++)
        total += entry_counts[m];
    live = pm_arena_alloc(arena, (total + 1) * sizeof(*live));
    if (live == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t m = 0; m < manifest_count; m++) {
        if (metas[m].num_added_files <= 0)
            continue;
        for (size_t i = 0; i < entry_counts[m]; i++) {
            const pm_manifest_entry *e = &entries[m][i];
            if (e->kind == PM_FILE_KIND_ADD && !set_contains(&deleted, e))
                live[n++] = e;
        }
    }
    *out = live;
    *count = n;
done:
    pm_free(deleted.slots);
    return rc;
}

int pm_snapshot_data_manifests(pm_fs *fs, const char *table, const pm_snapshot *snap,
                               pm_arena *arena, pm_manifest_file_meta **out, size_t *count,
                               paimon_error *err)
{
    pm_manifest_file_meta *base = NULL, *delta = NULL, *all;
    size_t nb = 0, nd = 0;
    int rc;

    *out = NULL;
    *count = 0;
    rc = pm_manifest_list_read(fs, table, snap->base_manifest_list, snap->base_manifest_list_size,
                               arena, &base, &nb, err);
    if (rc == 0)
        rc = pm_manifest_list_read(fs, table, snap->delta_manifest_list,
                                   snap->delta_manifest_list_size, arena, &delta, &nd, err);
    if (rc != 0)
        return rc;
    all = pm_arena_alloc(arena, (nb + nd + 1) * sizeof(*all));
    if (all == NULL)
        return pm_nomem(err);
    if (nb > 0)
        memcpy(all, base, nb * sizeof(*all));
    if (nd > 0)
        memcpy(all + nb, delta, nd * sizeof(*all));
    *out = all;
    *count = nb + nd;
    return 0;
}

int pm_snapshot_live_entries(pm_fs *fs, const char *table, const pm_snapshot *snap, pm_arena *arena,
                             const pm_manifest_entry ***out, size_t *count, paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    const pm_manifest_entry **entries = NULL;
    size_t *counts = NULL, nm = 0;
    int rc;

    rc = pm_snapshot_data_manifests(fs, table, snap, arena, &metas, &nm, err);
    if (rc != 0)
        return rc;
    entries = pm_arena_calloc(arena, nm + 1, sizeof(*entries));
    counts = pm_arena_calloc(arena, nm + 1, sizeof(*counts));
    if (entries == NULL || counts == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < nm; i++) {
        pm_manifest_entry *e = NULL;
        rc = pm_manifest_read(fs, table, metas[i].file_name, metas[i].file_size, arena, &e,
                              &counts[i], err);
        if (rc != 0)
            return rc;
        entries[i] = e;
    }
    return pm_fold_live_entries(metas, entries, counts, nm, arena, out, count, err);
}
