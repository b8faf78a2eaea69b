/* LSM shape checks for tests: see lsm_check.h. */
#include "lsm_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "io/fs.h"
#include "meta/file_entry.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/alloc.h"
#include "util/arena.h"

#define MAX_KEYS 32

typedef struct key_ctx {
    const pm_type *types[MAX_KEYS];
    size_t count;
} key_ctx;

static int decode(const key_ctx *k, const pm_avro_bytes *b, pm_datum *out)
{
    pm_binrow row;
    if (pm_binrow_deserialize(&row, b->ptr, b->len, NULL) != 0 || row.arity != (int32_t)k->count)
        return -1;
    for (size_t i = 0; i < k->count; i++)
        if (pm_binrow_get(&row, (int32_t)i, k->types[i], &out[i], NULL) != 0)
            return -1;
    return 0;
}

static int compare(const key_ctx *k, const pm_avro_bytes *a, const pm_avro_bytes *b, int *out)
{
    pm_datum x[MAX_KEYS], y[MAX_KEYS];
    if (decode(k, a, x) != 0 || decode(k, b, y) != 0)
        return -1;
    *out = 0;
    for (size_t i = 0; i < k->count && *out == 0; i++)
        *out = pm_datum_compare(k->types[i], &x[i], &y[i]);
    return 0;
}

static const key_ctx *sort_ctx;

static int by_min_key(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    int c = 0;
    (void)compare(sort_ctx, &a->file.min_key, &b->file.min_key, &c);
    return c;
}

static bool same_bucket(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    return a->bucket == b->bucket && a->partition.len == b->partition.len &&
           memcmp(a->partition.ptr, b->partition.ptr, a->partition.len) == 0;
}

int pm_test_check_lsm(const char *table, char *msg, size_t cap, int *max_level, size_t *files)
{
    pm_test_lsm_levels lv;
    int rc = pm_test_check_lsm_levels(table, msg, cap, &lv);
    if (max_level != NULL)
        *max_level = lv.max_level;
    if (files != NULL)
        *files = lv.files;
    return rc;
}

int pm_test_check_lsm_levels(const char *table, char *msg, size_t cap, pm_test_lsm_levels *out)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_schema *s = NULL;
    pm_snapshot *snap = NULL;
    pm_arena arena;
    const pm_manifest_entry **live = NULL, **group = NULL;
    size_t count = 0;
    const pm_field *keys[MAX_KEYS];
    key_ctx k;
    int64_t id;
    bool found;
    int rc = -1, top = -1, bottom = -1;
    size_t level0 = 0;

    pm_arena_init(&arena, 64 * 1024);
    msg[0] = '\0';
    memset(&k, 0, sizeof(k));
    if (fs == NULL || pm_schema_read_latest(fs, table, &s, NULL) != 0 ||
        pm_schema_trimmed_pk_fields(s, keys, MAX_KEYS, &k.count, NULL) != 0) {
        snprintf(msg, cap, "%s: no schema", table);
        goto done;
    }
    for (size_t i = 0; i < k.count; i++)
        k.types[i] = keys[i]->type;
    if (pm_snapshot_latest_id(fs, table, &id, &found, NULL) != 0) {
        snprintf(msg, cap, "%s: no latest snapshot", table);
        goto done;
    }
    if (found && (pm_snapshot_read(fs, table, id, &snap, NULL) != 0 ||
                  pm_snapshot_live_entries(fs, table, snap, &arena, &live, &count, NULL) != 0)) {
        snprintf(msg, cap, "%s: snapshot %lld unreadable", table, (long long)id);
        goto done;
    }
    group = pm_malloc((count + 1) * sizeof(*group));
    for (size_t i = 0; i < count; i++) {
        const pm_data_file_meta *f = &live[i]->file;
        if (f->min_sequence_number > f->max_sequence_number || f->level < 0 || f->level >= 1000 ||
            f->row_count <= 0) {
            snprintf(msg, cap, "%s: level %d, seq %lld..%lld, %lld rows", f->file_name, f->level,
                     (long long)f->min_sequence_number, (long long)f->max_sequence_number,
                     (long long)f->row_count);
            goto done;
        }
        if (f->level > top)
            top = f->level;
        if (bottom < 0 || f->level < bottom)
            bottom = f->level;
        level0 += f->level == 0;
    }
    /* per bucket and level >= 1: no overlap */
    for (size_t i = 0; i < count; i++) {
        size_t n = 0;
        if (live[i]->file.level == 0)
            continue;
        bool first = true;
        for (size_t j = 0; j < i; j++)
            if (live[j]->file.level == live[i]->file.level && same_bucket(live[i], live[j]))
                first = false;
        if (!first)
            continue;
        for (size_t j = i; j < count; j++)
            if (live[j]->file.level == live[i]->file.level && same_bucket(live[i], live[j]))
                group[n++] = live[j];
        sort_ctx = &k;
        qsort(group, n, sizeof(*group), by_min_key);
        for (size_t g = 0; g < n; g++) {
            int c = 0;
            if (compare(&k, &group[g]->file.min_key, &group[g]->file.max_key, &c) != 0 || c > 0) {
                snprintf(msg, cap, "%s: bad key range", group[g]->file.file_name);
                goto done;
            }
            if (g + 1 < n &&
                (compare(&k, &group[g]->file.max_key, &group[g + 1]->file.min_key, &c) != 0 ||
                 c >= 0)) {
                snprintf(msg, cap, "bucket %d level %d: %s and %s overlap", live[i]->bucket,
                         live[i]->file.level, group[g]->file.file_name,
                         group[g + 1]->file.file_name);
                goto done;
            }
        }
    }
    rc = 0;
done:
    if (out != NULL) {
        out->min_level = bottom;
        out->max_level = top;
        out->files = count;
        out->level0_files = level0;
    }
    pm_free(group);
    pm_snapshot_free(snap);
    pm_schema_free(s);
    pm_arena_free(&arena);
    if (fs != NULL)
        pm_fs_free(fs);
    return rc;
}
