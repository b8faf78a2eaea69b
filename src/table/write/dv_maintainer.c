/* The deletion vectors of one bucket while it is written: see dv_maintainer.h. */
#include "table/write/dv_maintainer.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/bytes_map.h"
#include "util/error.h"

/* Index files larger than this are refused as damaged (a bucket's vectors are far smaller). */
#define MAX_INDEX_FILE (1024u * 1024u * 1024u)

struct pm_dv_maintainer {
    bool bitmap64;    /* format of new vectors */
    bool modified;    /* since the last write */
    pm_bytes_map ids; /* data file name -> slot */
    pm_dv **dvs;      /* per slot; NULL once removed */
    size_t cap;
    int64_t last_slot; /* the slot of the last mark: consecutive marks often hit one file */
};

/* `*slot`: the slot of data file `name`, made on first use. */
PM_MUST_CHECK static int slot_of(pm_dv_maintainer *m, const char *name, int64_t *slot,
                                 paimon_error *err)
{
    bool inserted;
    int64_t id;
    if (pm_bytes_map_put(&m->ids, name, strlen(name), 0, &id, &inserted) != 0)
        return pm_nomem(err);
    if ((size_t)id >= m->cap) {
        size_t cap = m->cap == 0 ? 16 : m->cap * 2;
        pm_dv **grown = pm_realloc(m->dvs, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        memset(grown + m->cap, 0, (cap - m->cap) * sizeof(*grown));
        m->dvs = grown;
        m->cap = cap;
    }
    *slot = id;
    return 0;
}

PM_MUST_CHECK static int restore(pm_dv_maintainer *m, pm_fs *fs, const pm_index_manifest_entry *e,
                                 const char *path, paimon_error *err)
{
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;
    if ((rc = pm_fs_read_all(fs, path, MAX_INDEX_FILE, &data, &len, err)) != 0)
        return rc;
    if ((rc = pm_dv_index_check(data, len, path, err)) != 0)
        goto done;
    for (size_t i = 0; i < e->dv_ranges.count; i++) {
        const pm_dv_range *r = (const pm_dv_range *)e->dv_ranges.items + i;
        pm_dv *dv = NULL;
        int64_t slot;
        if (r->offset < 1 || (size_t)r->offset >= len) {
            rc = pm_corrupt(err, "%s: deletion vector of %s at offset %d is outside the file", path,
                            r->data_file, (int)r->offset);
            goto done;
        }
        if ((rc = pm_dv_decode(data + r->offset, len - (size_t)r->offset, r->length, path,
                               (uint64_t)r->offset, &dv, err)) != 0)
            goto done;
        if ((rc = slot_of(m, r->data_file, &slot, err)) != 0) {
            pm_dv_free(dv);
            goto done;
        }
        pm_dv_free(m->dvs[slot]); /* a file listed twice: the last range wins */
        m->dvs[slot] = dv;
    }
done:
    pm_free(data);
    return rc;
}

int pm_dv_maintainer_new(pm_dv_maintainer **out, pm_fs *fs, bool bitmap64,
                         const pm_index_manifest_entry *restored, const char *restored_path,
                         paimon_error *err)
{
    pm_dv_maintainer *m = pm_calloc(1, sizeof(*m));
    int rc;
    *out = NULL;
    if (m == NULL)
        return pm_nomem(err);
    m->bitmap64 = bitmap64;
    m->last_slot = -1;
    pm_bytes_map_init(&m->ids);
    if (restored != NULL && (rc = restore(m, fs, restored, restored_path, err)) != 0) {
        pm_dv_maintainer_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

void pm_dv_maintainer_free(pm_dv_maintainer *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->ids.count; i++)
        pm_dv_free(m->dvs[i]);
    pm_free(m->dvs);
    pm_bytes_map_free(&m->ids);
    pm_free(m);
}

const pm_dv *pm_dv_maintainer_get(const pm_dv_maintainer *m, const char *file_name)
{
    int64_t slot = pm_bytes_map_find(&m->ids, file_name, strlen(file_name));
    return slot < 0 ? NULL : m->dvs[slot];
}

int pm_dv_maintainer_mark(pm_dv_maintainer *m, const char *file_name, int64_t position,
                          paimon_error *err)
{
    int64_t slot = m->last_slot;
    size_t len = strlen(file_name), klen = 0;
    const uint8_t *key = slot >= 0 ? pm_bytes_map_key(&m->ids, slot, &klen) : NULL;
    if (position < 0)
        return pm_err_set(err, PAIMON_EINVALID, "%s: negative row position %lld", file_name,
                          (long long)position);
    if (key == NULL || klen != len || memcmp(key, file_name, len) != 0) {
        int rc = slot_of(m, file_name, &slot, err);
        if (rc != 0)
            return rc;
        m->last_slot = slot;
    }
    if (m->dvs[slot] == NULL && (m->dvs[slot] = pm_dv_new()) == NULL)
        return pm_nomem(err);
    if (pm_dv_contains(m->dvs[slot], (uint64_t)position))
        return 0; /* checkedDelete: a known position changes nothing */
    if (pm_dv_add(m->dvs[slot], (uint64_t)position) != 0)
        return pm_nomem(err);
    m->modified = true;
    return 0;
}

void pm_dv_maintainer_remove(pm_dv_maintainer *m, const char *file_name)
{
    int64_t slot = pm_bytes_map_find(&m->ids, file_name, strlen(file_name));
    if (slot < 0 || m->dvs[slot] == NULL)
        return;
    pm_dv_free(m->dvs[slot]);
    m->dvs[slot] = NULL;
    m->modified = true;
}

bool pm_dv_maintainer_modified(const pm_dv_maintainer *m)
{
    return m->modified;
}

typedef struct named_slot {
    const char *name;
    size_t len;
    int64_t slot;
} named_slot;

static int by_name(const void *pa, const void *pb)
{
    const named_slot *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    return c != 0 ? c : (a->len > b->len) - (a->len < b->len);
}

int pm_dv_maintainer_write(pm_dv_maintainer *m, pm_fs *fs, const char *index_dir,
                           pm_path_factory *names, const uint8_t *partition, size_t partition_len,
                           int32_t bucket, pm_arena *arena, pm_index_manifest_entry *entry,
                           bool *written, paimon_error *err)
{
    named_slot *order = NULL;
    pm_dv_range *ranges = NULL;
    size_t count = 0;
    pm_buf data, name, path;
    int rc = 0;

    *written = false;
    if (!m->modified)
        return 0;
    pm_buf_init(&data, 0);
    pm_buf_init(&name, 0);
    pm_buf_init(&path, 0);
    if ((order = pm_malloc((m->ids.count + 1) * sizeof(*order))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < m->ids.count; i++) {
        if (m->dvs[i] == NULL || pm_dv_cardinality(m->dvs[i]) == 0)
            continue;
        order[count].name = (const char *)pm_bytes_map_key(&m->ids, (int64_t)i, &order[count].len);
        order[count++].slot = (int64_t)i;
    }
    qsort(order, count, sizeof(*order), by_name);
    ranges = pm_arena_calloc(arena, count + 1, sizeof(*ranges));
    if (ranges == NULL || (rc = pm_buf_putc(&data, PM_DV_INDEX_VERSION)) != 0) {
        rc = ranges == NULL ? pm_nomem(err) : pm_buf_error(err, rc);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        const pm_dv *dv = m->dvs[order[i].slot];
        size_t start = data.len;
        int32_t length;
        if (start > INT32_MAX) {
            rc = pm_err_set(err, PAIMON_EINVALID, "deletion vectors of bucket %d exceed 2 GB",
                            (int)bucket);
            goto done;
        }
        PM_TRY(pm_dv_encode(dv, pm_dv_is_64(dv) || m->bitmap64, &data, &length, err));
        ranges[i].data_file = pm_arena_strndup(arena, order[i].name, order[i].len);
        ranges[i].offset = (int32_t)start;
        ranges[i].length = length;
        ranges[i].cardinality = (int64_t)pm_dv_cardinality(dv);
        ranges[i].has_cardinality = true;
        if (ranges[i].data_file == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    if ((rc = pm_path_factory_next(names, PM_NAME_INDEX, NULL, NULL, &name)) != 0 ||
        (rc = pm_buf_printf(&path, "%s/%s", index_dir, pm_buf_cstr(&name))) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    PM_TRY(pm_fs_write_file(fs, pm_buf_cstr(&path), data.data, data.len, err));
    memset(entry, 0, sizeof(*entry));
    entry->kind = PM_FILE_KIND_ADD;
    entry->partition.ptr = pm_arena_dup(arena, partition, partition_len);
    entry->partition.len = partition_len;
    entry->bucket = bucket;
    entry->index_type = "DELETION_VECTORS";
    entry->file_name = pm_arena_strndup(arena, (const char *)name.data, name.len);
    entry->file_size = (int64_t)data.len;
    entry->row_count = (int64_t)count;
    entry->dv_ranges.items = ranges;
    entry->dv_ranges.count = count;
    entry->dv_ranges.present = true;
    if ((partition_len > 0 && entry->partition.ptr == NULL) || entry->file_name == NULL) {
        (void)fs->remove(fs, pm_buf_cstr(&path), NULL);
        rc = pm_nomem(err);
        goto done;
    }
    m->modified = false;
    *written = true;
done:
    pm_free(order);
    pm_buf_free(&data);
    pm_buf_free(&name);
    pm_buf_free(&path);
    return rc;
}
