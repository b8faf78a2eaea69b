/* Dynamic buckets: see dynamic_bucket.h. */
#include "table/write/dynamic_bucket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/file_path.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/error.h"

#define MAX_BUCKET_IDS 32768 /* Short.MAX_VALUE + 1 */

/* hash -> bucket (Java's Int2ShortHashMap): open addressing over int32 keys. */
typedef struct hash_map {
    int32_t *keys;
    int16_t *vals;
    uint8_t *used;
    size_t cap, count;
} hash_map;

static size_t slot_of(int32_t k, size_t cap)
{
    uint32_t h = (uint32_t)k * 0x9E3779B9u;
    return (h ^ (h >> 16)) & (cap - 1);
}

static int hm_put(hash_map *m, int32_t k, int16_t v);

static int hm_grow(hash_map *m)
{
    hash_map n = {0};
    n.cap = m->cap == 0 ? 1024 : m->cap * 2;
    n.keys = pm_malloc(n.cap * sizeof(int32_t));
    n.vals = pm_malloc(n.cap * sizeof(int16_t));
    n.used = pm_calloc(n.cap, 1);
    if (n.keys == NULL || n.vals == NULL || n.used == NULL) {
        pm_free(n.keys);
        pm_free(n.vals);
        pm_free(n.used);
        return PAIMON_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i])
            (void)hm_put(&n, m->keys[i], m->vals[i]);
    pm_free(m->keys);
    pm_free(m->vals);
    pm_free(m->used);
    *m = n;
    return 0;
}

static int hm_put(hash_map *m, int32_t k, int16_t v)
{
    size_t s;
    if ((m->count + 1) * 2 > m->cap) {
        int rc = hm_grow(m);
        if (rc != 0)
            return rc;
    }
    for (s = slot_of(k, m->cap); m->used[s]; s = (s + 1) & (m->cap - 1))
        if (m->keys[s] == k) {
            m->vals[s] = v;
            return 0;
        }
    m->used[s] = 1;
    m->keys[s] = k;
    m->vals[s] = v;
    m->count++;
    return 0;
}

static bool hm_get(const hash_map *m, int32_t k, int16_t *v)
{
    if (m->cap == 0)
        return false;
    for (size_t s = slot_of(k, m->cap); m->used[s]; s = (s + 1) & (m->cap - 1))
        if (m->keys[s] == k) {
            *v = m->vals[s];
            return true;
        }
    return false;
}

static void hm_free(hash_map *m)
{
    pm_free(m->keys);
    pm_free(m->vals);
    pm_free(m->used);
    memset(m, 0, sizeof(*m));
}

/* One bucket in the simulated HashMap<Integer, Long> of non-full buckets. */
typedef struct bucket_info {
    int32_t bucket;
    int64_t count;
    uint64_t seq; /* insertion order */
    bool removed;
} bucket_info;

typedef struct part_index {
    bool loaded;
    hash_map hashes;
    bucket_info *info;
    size_t info_count, info_cap;
    size_t hm_cap, hm_size; /* the Java HashMap's capacity and size */
    uint64_t next_seq;
    size_t *order; /* live info entries in the HashMap's iteration order */
    size_t order_count;
    bool order_valid;
    int32_t *total; /* totalBucketArray */
    size_t total_count, total_cap;
    uint8_t *total_set; /* bitmap of bucket ids in totalBucketSet */
} part_index;

struct pm_dynamic_assigner {
    pm_fs *fs;
    const char *table;
    const pm_index_manifest_entry *entries;
    size_t entry_count;
    int64_t target_rows;
    int32_t max_buckets;
    int32_t max_bucket_id; /* the largest bucket assigned so far (all partitions) */
    part_index *parts;
    size_t part_cap;
};

int pm_dynamic_assigner_new(pm_dynamic_assigner **out, pm_fs *fs, const char *table,
                            const pm_index_manifest_entry *hash_entries, size_t count,
                            int64_t target_rows, int32_t max_buckets, paimon_error *err)
{
    pm_dynamic_assigner *a = pm_calloc(1, sizeof(*a));
    *out = NULL;
    if (a == NULL)
        return pm_nomem(err);
    a->fs = fs;
    a->table = table;
    a->entries = hash_entries;
    a->entry_count = count;
    a->target_rows = target_rows;
    a->max_buckets = max_buckets;
    *out = a;
    return 0;
}

void pm_dynamic_assigner_free(pm_dynamic_assigner *a)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < a->part_cap; i++) {
        part_index *p = &a->parts[i];
        hm_free(&p->hashes);
        pm_free(p->info);
        pm_free(p->order);
        pm_free(p->total);
        pm_free(p->total_set);
    }
    pm_free(a->parts);
    pm_free(a);
}

/* HashMap.put of a new key: the table (16 at first) doubles past 0.75 of it. */
static int info_put(part_index *p, int32_t bucket, int64_t count)
{
    if (p->info_count == p->info_cap) {
        size_t cap = p->info_cap == 0 ? 8 : p->info_cap * 2;
        bucket_info *grown = pm_realloc(p->info, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        p->info = grown;
        p->info_cap = cap;
    }
    p->info[p->info_count++] = (bucket_info){bucket, count, p->next_seq++, false};
    if (p->hm_cap == 0)
        p->hm_cap = 16;
    if (++p->hm_size > p->hm_cap * 3 / 4)
        p->hm_cap *= 2;
    p->order_valid = false;
    return 0;
}

static int total_add(part_index *p, int32_t bucket)
{
    if (p->total_set == NULL && (p->total_set = pm_calloc(MAX_BUCKET_IDS / 8, 1)) == NULL)
        return PAIMON_ENOMEM;
    if (p->total_count == p->total_cap) {
        size_t cap = p->total_cap == 0 ? 8 : p->total_cap * 2;
        int32_t *grown = pm_realloc(p->total, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        p->total = grown;
        p->total_cap = cap;
    }
    p->total[p->total_count++] = bucket;
    p->total_set[bucket / 8] |= (uint8_t)(1u << (bucket % 8));
    return 0;
}

static bool in_total(const part_index *p, int32_t bucket)
{
    return p->total_set != NULL && ((p->total_set[bucket / 8] >> (bucket % 8)) & 1);
}

/* qsort's comparator has no context argument: the index being sorted, per thread (writers
 * of different tables run on different threads at once; TSan saw them race on a global). */
static _Thread_local const part_index *cmp_part;

static int cmp_order(const void *x, const void *y)
{
    const bucket_info *a = &cmp_part->info[*(const size_t *)x];
    const bucket_info *b = &cmp_part->info[*(const size_t *)y];
    size_t mask = cmp_part->hm_cap - 1;
    size_t ia = (size_t)a->bucket & mask, ib = (size_t)b->bucket & mask;
    if (ia != ib)
        return ia < ib ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The live non-full buckets in java.util.HashMap's iteration order: by table index, and in
 * insertion order within an index (resizes keep that order). */
static int build_order(part_index *p)
{
    size_t n = 0;
    pm_free(p->order);
    if ((p->order = pm_malloc((p->info_count + 1) * sizeof(size_t))) == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < p->info_count; i++)
        if (!p->info[i].removed)
            p->order[n++] = i;
    cmp_part = p;
    qsort(p->order, n, sizeof(size_t), cmp_order);
    p->order_count = n;
    p->order_valid = true;
    return 0;
}

/* Reads a HASH index file of `table`, at the path meta/file_path.h checks.  No external
 * roots apply: a writer refuses tables with data-file.external-paths before it gets here
 * (write_ctx.h), so an external path of an index entry is always outside the table. */
PM_MUST_CHECK static int read_index_file(pm_fs *fs, const char *table,
                                         const pm_index_manifest_entry *e, uint8_t **data,
                                         size_t *len, paimon_error *err)
{
    pm_buf dir, path;
    int rc;
    pm_buf_init(&dir, 0);
    pm_buf_init(&path, 0);
    if ((rc = pm_buf_printf(&dir, "%s/index", table)) != 0)
        rc = pm_buf_error(err, rc);
    else if ((rc = pm_file_path_resolve(table, NULL, pm_buf_cstr(&dir), e->file_name,
                                        e->external_path, &path, err)) == 0)
        rc = pm_fs_read_all(fs, pm_buf_cstr(&path), 0, data, len, err);
    pm_buf_free(&dir);
    pm_buf_free(&path);
    return rc;
}

PM_MUST_CHECK static int read_hash_file(pm_dynamic_assigner *a, const pm_index_manifest_entry *e,
                                        uint8_t **data, size_t *len, paimon_error *err)
{
    return read_index_file(a->fs, a->table, e, data, len, err);
}

/* PartitionIndex.loadIndex: the HASH files of the partition, in the index manifest's order. */
PM_MUST_CHECK static int load_partition(pm_dynamic_assigner *a, part_index *p,
                                        const uint8_t *partition, size_t plen, paimon_error *err)
{
    int rc = 0;
    p->loaded = true;
    for (size_t i = 0; i < a->entry_count; i++) {
        const pm_index_manifest_entry *e = &a->entries[i];
        uint8_t *data = NULL;
        size_t len = 0;
        size_t found = SIZE_MAX;
        if (e->partition.len != plen || memcmp(e->partition.ptr, partition, plen) != 0)
            continue;
        if (e->bucket < 0 || e->bucket >= MAX_BUCKET_IDS)
            return pm_corrupt(err, "%s: HASH index file %s has bucket %d", a->table, e->file_name,
                              e->bucket);
        if ((rc = read_hash_file(a, e, &data, &len, err)) != 0)
            return rc;
        if (len % 4 != 0) {
            pm_free(data);
            return pm_corrupt(err, "%s: HASH index file %s: %zu bytes, not a multiple of 4",
                              a->table, e->file_name, len);
        }
        for (size_t k = 0; k < p->info_count; k++)
            if (p->info[k].bucket == e->bucket)
                found = k;
        for (size_t off = 0; off < len && rc == 0; off += 4) {
            rc = hm_put(&p->hashes, (int32_t)pm_load_be32(data + off), (int16_t)e->bucket);
            if (rc == 0 && found == SIZE_MAX) {
                rc = info_put(p, e->bucket, 0);
                found = p->info_count - 1;
            }
            if (rc == 0)
                p->info[found].count++;
        }
        pm_free(data);
        if (rc != 0)
            return pm_nomem(err);
    }
    if ((rc = build_order(p)) != 0)
        return pm_nomem(err);
    for (size_t k = 0; k < p->order_count; k++) /* totalBucketSet: the map's key order */
        if ((rc = total_add(p, p->info[p->order[k]].bucket)) != 0)
            return pm_nomem(err);
    return 0;
}

int pm_dynamic_assign(pm_dynamic_assigner *a, int64_t pid, const uint8_t *partition,
                      size_t partition_len, int32_t hash, int32_t *bucket, paimon_error *err)
{
    part_index *p;
    int16_t known;
    int32_t global_max;
    int rc;
    if ((size_t)pid >= a->part_cap) {
        size_t cap = a->part_cap == 0 ? 16 : a->part_cap * 2;
        while (cap <= (size_t)pid)
            cap *= 2;
        part_index *grown = pm_realloc(a->parts, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        memset(grown + a->part_cap, 0, (cap - a->part_cap) * sizeof(*grown));
        a->parts = grown;
        a->part_cap = cap;
    }
    p = &a->parts[pid];
    if (!p->loaded && (rc = load_partition(a, p, partition, partition_len, err)) != 0)
        return rc;
    /* 1. a hash seen before */
    if (hm_get(&p->hashes, hash, &known)) {
        *bucket = known;
        goto done;
    }
    /* 2. the first non-full bucket, dropping full ones */
    if (!p->order_valid && build_order(p) != 0)
        return pm_nomem(err);
    for (size_t k = 0; k < p->order_count; k++) {
        bucket_info *b = &p->info[p->order[k]];
        if (b->removed)
            continue;
        if (b->count < a->target_rows) {
            b->count++;
            if (hm_put(&p->hashes, hash, (int16_t)b->bucket) != 0)
                return pm_nomem(err);
            *bucket = b->bucket;
            goto done;
        }
        b->removed = true; /* iterator.remove(): the table keeps its size */
        p->hm_size--;
    }
    /* 3. a new bucket */
    global_max = (a->max_buckets == -1 ? 32767 : a->max_buckets) - 1;
    if (p->total_count == 0 || a->max_bucket_id < global_max) {
        for (int32_t i = 0; i <= global_max; i++) {
            if (in_total(p, i))
                continue;
            if (info_put(p, i, 1) != 0 || total_add(p, i) != 0 ||
                hm_put(&p->hashes, hash, (int16_t)i) != 0)
                return pm_nomem(err);
            *bucket = i;
            goto done;
        }
        if (a->max_buckets == -1)
            return pm_err_set(err, PAIMON_ELIMIT,
                              "Too more bucket %d, you should increase target bucket row number "
                              "%lld.",
                              a->max_bucket_id, (long long)a->target_rows);
    }
    /* 4. beyond the cap: a random existing bucket */
    *bucket = p->total[(size_t)rand() % p->total_count];
    if (hm_put(&p->hashes, hash, (int16_t)*bucket) != 0)
        return pm_nomem(err);
done:
    if (*bucket > a->max_bucket_id)
        a->max_bucket_id = *bucket;
    return 0;
}

/* ---- index maintenance ----------------------------------------------------------------- */

const pm_index_manifest_entry *pm_hash_entry_find(const pm_index_manifest_entry *entries,
                                                  size_t count, const uint8_t *partition,
                                                  size_t partition_len, int32_t bucket)
{
    for (size_t i = 0; i < count; i++)
        if (entries[i].bucket == bucket && entries[i].partition.len == partition_len &&
            memcmp(entries[i].partition.ptr, partition, partition_len) == 0 &&
            strcmp(entries[i].index_type, "HASH") == 0)
            return &entries[i];
    return NULL;
}

int pm_hash_index_init(pm_hash_index *h, pm_fs *fs, const char *table,
                       const pm_index_manifest_entry *entry, paimon_error *err)
{
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;
    memset(h, 0, sizeof(*h));
    if (entry == NULL)
        return pm_int_set_init(&h->set, 16) != 0 ? pm_nomem(err) : 0;
    if (pm_int_set_init(&h->set, (size_t)(entry->row_count > 0 ? entry->row_count : 0)) != 0)
        return pm_nomem(err);
    if ((rc = read_index_file(fs, table, entry, &data, &len, err)) != 0)
        return rc;
    for (size_t off = 0; off + 4 <= len && rc == 0; off += 4)
        rc = pm_int_set_add(&h->set, (int32_t)pm_load_be32(data + off), NULL);
    pm_free(data);
    return rc != 0 ? pm_nomem(err) : 0;
}

void pm_hash_index_free(pm_hash_index *h)
{
    pm_int_set_free(&h->set);
}

int pm_hash_index_flush(pm_hash_index *h, pm_fs *fs, const char *table, pm_path_factory *names,
                        const uint8_t *partition, size_t partition_len, int32_t bucket,
                        pm_arena *arena, pm_index_manifest_entry *entry, bool *written,
                        paimon_error *err)
{
    int32_t *keys = NULL;
    uint8_t *bytes = NULL;
    pm_buf name, path;
    int rc = 0;
    *written = false;
    if (!h->modified)
        return 0;
    pm_buf_init(&name, 0);
    pm_buf_init(&path, 0);
    keys = pm_malloc(h->set.size * sizeof(int32_t) + 1);
    bytes = pm_malloc(h->set.size * 4 + 1);
    if (keys == NULL || bytes == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_int_set_keys(&h->set, keys);
    for (size_t i = 0; i < h->set.size; i++)
        pm_store_be32(bytes + 4 * i, (uint32_t)keys[i]);
    if ((rc = pm_path_factory_next(names, PM_NAME_INDEX, NULL, NULL, &name)) != 0 ||
        (rc = pm_buf_printf(&path, "%s/index/%s", table, pm_buf_cstr(&name))) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    PM_TRY(pm_fs_write_file(fs, pm_buf_cstr(&path), bytes, h->set.size * 4, err));
    memset(entry, 0, sizeof(*entry));
    entry->kind = PM_FILE_KIND_ADD;
    entry->partition.ptr = pm_arena_dup(arena, partition, partition_len);
    entry->partition.len = partition_len;
    entry->bucket = bucket;
    entry->index_type = "HASH";
    entry->file_name = pm_arena_strndup(arena, (const char *)name.data, name.len);
    entry->file_size = (int64_t)h->set.size * 4;
    entry->row_count = (int64_t)h->set.size;
    if (entry->partition.ptr == NULL || entry->file_name == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    h->modified = false;
    *written = true;
done:
    pm_free(keys);
    pm_free(bytes);
    pm_buf_free(&name);
    pm_buf_free(&path);
    return rc;
}
