/* Cross-partition upsert: see cross_partition.h. */
#include "table/write/cross_partition.h"

#include <string.h>

#include "data/binary_row.h"
#include "table/scan.h"
#include "table/split_read.h"
#include "util/alloc.h"
#include "util/bytes_map.h"
#include "util/error.h"

typedef struct bucket_count {
    int32_t bucket;
    int64_t count;
} bucket_count;

/* One partition's buckets in ascending order (Java's TreeMap<Integer, Integer>). */
typedef struct part_counts {
    bucket_count *items;
    size_t count, cap;
} part_counts;

struct pm_cross_index {
    pm_bytes_map keys; /* key bytes -> pid << 32 | bucket */
    part_counts *parts;
    size_t part_cap;
    int64_t target;
    int64_t limit;
    pm_partition_id_fn pid_of;
    void *pid_ctx;
};

static size_t index_bytes(const pm_cross_index *c)
{
    return c->keys.keys.bytes + c->keys.cap * (2 * sizeof(void *) + 2 * sizeof(int64_t)) +
           c->keys.slot_cap * sizeof(int64_t);
}

static part_counts *counts_of(pm_cross_index *c, int64_t pid)
{
    if ((size_t)pid >= c->part_cap) {
        size_t cap = c->part_cap == 0 ? 16 : c->part_cap * 2;
        while (cap <= (size_t)pid)
            cap *= 2;
        part_counts *grown = pm_realloc(c->parts, cap * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        memset(grown + c->part_cap, 0, (cap - c->part_cap) * sizeof(*grown));
        c->parts = grown;
        c->part_cap = cap;
    }
    return &c->parts[pid];
}

/* The bucket's entry, inserted in order with count 0 when absent. */
static bucket_count *bucket_entry(part_counts *p, int32_t bucket)
{
    size_t lo = 0, hi = p->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->items[mid].bucket < bucket)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->count && p->items[lo].bucket == bucket)
        return &p->items[lo];
    if (p->count == p->cap) {
        size_t cap = p->cap == 0 ? 8 : p->cap * 2;
        bucket_count *grown = pm_realloc(p->items, cap * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        p->items = grown;
        p->cap = cap;
    }
    memmove(&p->items[lo + 1], &p->items[lo], (p->count - lo) * sizeof(bucket_count));
    p->items[lo] = (bucket_count){bucket, 0};
    p->count++;
    return &p->items[lo];
}

PM_MUST_CHECK static int put_key(pm_cross_index *c, const uint8_t *key, size_t len, int64_t pid,
                                 int32_t bucket, paimon_error *err)
{
    bool inserted;
    int64_t v = (int64_t)((uint64_t)pid << 32 | (uint32_t)bucket);
    int64_t id;
    if (pm_bytes_map_put(&c->keys, key, len, v, &id, &inserted) != 0)
        return pm_nomem(err);
    c->keys.values[id] = v;
    if (inserted && (int64_t)index_bytes(c) > c->limit)
        return pm_err_set(err, PAIMON_ELIMIT,
                          "cross-partition upsert: the index of %zu primary keys needs more than "
                          "%lld bytes of memory (twice write-buffer-size); Java keeps it in "
                          "RocksDB, paimon-c keeps it in memory and cannot write this table",
                          c->keys.count, (long long)c->limit);
    return 0;
}

/* Reads every live key of the latest snapshot (IndexBootstrap). */
PM_MUST_CHECK static int bootstrap(pm_cross_index *c, pm_fs *fs, const char *table,
                                   const pm_schema *schema, paimon_error *err)
{
    paimon_table t;
    pm_scan_options so;
    pm_scan_plan *plan = NULL;
    pm_buf key;
    int64_t id;
    bool found;
    int rc;

    pm_buf_init(&key, 0);
    if ((rc = pm_snapshot_latest_id(fs, table, &id, &found, err)) != 0 || !found)
        return rc;
    memset(&t, 0, sizeof(t));
    t.path = (char *)table;
    t.fs = fs;
    t.schema = (pm_schema *)schema;
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    so.keep_level0 = true;
    PM_TRY(pm_scan_plan_build(&t, &so, &plan, err));
    {
        const pm_field *keys[64];
        size_t nk;
        int cols[64];
        const pm_type *types[64];
        PM_TRY(pm_schema_trimmed_pk_fields(plan->schema, keys, 64, &nk, err));
        for (size_t k = 0; k < nk; k++) {
            size_t idx;
            pm_type_field_by_name(plan->schema->row, keys[k]->name, &idx);
            cols[k] = (int)idx;
            types[k] = keys[k]->type;
        }
        for (size_t s = 0; s < plan->split_count; s++) {
            const pm_split *sp = &plan->splits[s];
            pm_split_reader *r = NULL;
            int64_t pid;
            part_counts *pc;
            PM_TRY(c->pid_of(c->pid_ctx, sp->partition.ptr, sp->partition.len, &pid, err));
            if ((pc = counts_of(c, pid)) == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            PM_TRY(pm_split_reader_open(&r, &t, plan, sp, cols, nk, NULL, 4096, err));
            for (;;) {
                pm_batch *b = NULL;
                rc = pm_split_reader_next(r, &b, err);
                if (rc == PAIMON_ITEROVER) {
                    rc = 0;
                    break;
                }
                if (rc != 0)
                    break;
                for (int64_t row = 0; row < b->row_count && rc == 0; row++) {
                    pm_datum vals[64];
                    bucket_count *bc;
                    for (size_t k = 0; k < nk; k++)
                        pm_column_get_datum(b->columns[k], row, &vals[k]);
                    key.len = 0;
                    if ((rc = pm_binrow_write(&key, types, vals, (int32_t)nk, 0)) != 0) {
                        rc = pm_buf_error(err, rc);
                        break;
                    }
                    if ((rc = put_key(c, key.data, key.len, pid, sp->bucket, err)) != 0)
                        break;
                    if ((bc = bucket_entry(pc, sp->bucket)) == NULL)
                        rc = pm_nomem(err);
                    else
                        bc->count++;
                }
                pm_batch_free(b);
                if (rc != 0)
                    break;
            }
            pm_split_reader_free(r);
            if (rc != 0)
                goto done;
        }
    }
done:
    pm_scan_plan_free(plan);
    pm_buf_free(&key);
    return rc;
}

int pm_cross_index_new(pm_cross_index **out, pm_fs *fs, const char *table, const pm_schema *schema,
                       const int *key_idx, size_t key_count, int64_t target_rows,
                       int64_t memory_limit, pm_partition_id_fn pid_of, void *pid_ctx,
                       paimon_error *err)
{
    pm_cross_index *c = pm_calloc(1, sizeof(*c));
    int rc;
    (void)key_idx;
    (void)key_count;
    *out = NULL;
    if (c == NULL)
        return pm_nomem(err);
    pm_bytes_map_init(&c->keys);
    c->target = target_rows;
    c->limit = memory_limit;
    c->pid_of = pid_of;
    c->pid_ctx = pid_ctx;
    if ((rc = bootstrap(c, fs, table, schema, err)) != 0) {
        pm_cross_index_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

void pm_cross_index_free(pm_cross_index *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->part_cap; i++)
        pm_free(c->parts[i].items);
    pm_free(c->parts);
    pm_bytes_map_free(&c->keys);
    pm_free(c);
}

void pm_cross_lookup(const pm_cross_index *c, const uint8_t *key, size_t len, bool *found,
                     int64_t *pid, int32_t *bucket)
{
    int64_t id = pm_bytes_map_find(&c->keys, key, len);
    *found = id >= 0;
    if (id >= 0) {
        uint64_t v = (uint64_t)c->keys.values[id];
        *pid = (int64_t)(v >> 32);
        *bucket = (int32_t)(uint32_t)v;
    }
}

int pm_cross_assign_new(pm_cross_index *c, const uint8_t *key, size_t len, int64_t pid,
                        int32_t *bucket, paimon_error *err)
{
    part_counts *p = counts_of(c, pid);
    bucket_count *bc = NULL;
    if (p == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < p->count; i++)
        if (p->items[i].count < c->target) {
            bc = &p->items[i];
            break;
        }
    if (bc == NULL) { /* the smallest unused id: the first gap in the ascending ids */
        int32_t id = 0;
        for (size_t i = 0; i < p->count && p->items[i].bucket == id; i++)
            id++;
        if ((bc = bucket_entry(p, id)) == NULL)
            return pm_nomem(err);
    }
    bc->count++;
    *bucket = bc->bucket;
    return put_key(c, key, len, pid, *bucket, err);
}

void pm_cross_decrement(pm_cross_index *c, int64_t pid, int32_t bucket)
{
    part_counts *p = counts_of(c, pid);
    bool existed = false;
    bucket_count *bc;
    for (size_t i = 0; p != NULL && i < p->count; i++)
        existed |= p->items[i].bucket == bucket;
    /* compute(bucket, v -> v == null ? 0 : v - 1) */
    if (p != NULL && (bc = bucket_entry(p, bucket)) != NULL)
        bc->count = existed ? bc->count - 1 : 0;
}
