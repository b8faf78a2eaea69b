/* Writing rows into a table: see table_write.h. */
#include "table/write/table_write.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "data/binary_row.h"
#include "data/cast.h"
#include "meta/file_entry.h"
#include "meta/file_path.h"
#include "table/write/bucket_fn.h"
#include "table/write/bucket_writer.h"
#include "table/write/cross_partition.h"
#include "table/write/dynamic_bucket.h"
#include "util/alloc.h"
#include "util/bytes_map.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/pool.h"

typedef enum bucket_mode {
    MODE_UNAWARE, /* bucket = -1 without a primary key: bucket 0 */
    MODE_FIXED,   /* bucket = N */
    MODE_DYNAMIC, /* bucket = -1 with a primary key holding every partition column */
    MODE_CROSS    /* bucket = -1, the primary key misses a partition column */
} bucket_mode;

typedef struct writer_slot {
    pm_bucket_writer *w;
    pm_hash_index *hash; /* dynamic buckets: the bucket's key hashes */
    int64_t partition;   /* partition id */
    int32_t bucket;
    size_t memory; /* last known buffer bytes */
    /* this batch */
    int64_t batch_count, batch_fill;
} writer_slot;

typedef struct part_info {
    int32_t restored_buckets; /* _TOTAL_BUCKETS of the partition's live files; 0 if none */
} part_info;

struct pm_table_write {
    int64_t bad_row; /* the batch row of the last row error, or -1 */
    pm_fs *fs;
    char *table;
    pm_schema *schema;
    pm_write_ctx ctx;
    bool ctx_ok;
    pm_table_write_opts o;
    bool keep_pending; /* prepares leave the files pending too (the compaction job) */
    char *commit_user;
    bucket_mode mode;
    int32_t num_buckets;
    pm_bucket_fn bucket_fn;          /* fixed buckets */
    pm_key_hasher key_hash;          /* dynamic buckets: the trimmed primary key */
    int part_col[PM_WRITE_MAX_KEYS]; /* partition columns */

    /* dynamic buckets */
    pm_dynamic_assigner *dyn;
    pm_arena index_arena;                  /* the latest snapshot's index entries */
    pm_index_manifest_entry *hash_entries; /* its HASH entries */
    size_t hash_count;
    pm_path_factory index_names;
    const pm_type *key_types[PM_WRITE_MAX_KEYS];

    /* row kinds */
    bool ignore_delete, ignore_update_before;
    int rowkind_col; /* rowkind.field, or -1 */
    /* column checks */
    int *not_null;
    size_t not_null_count;
    int *map_cols; /* columns with a MAP or MULTISET inside: null keys are refused */
    size_t map_count;
    bool has_defaults;

    /* partitions and writers */
    pm_bytes_map parts; /* serialized partition -> part_info index */
    part_info *part_info;
    size_t part_cap;
    pm_bytes_map slot_ids; /* (partition id, bucket) -> slot */
    writer_slot *slots;
    size_t slot_cap;
    size_t memory; /* write buffers together */

    /* restore: the latest snapshot's files */
    bool restored;
    pm_bytes_map restore_seq; /* partition bytes + bucket -> max sequence number */
    pm_arena live_arena;      /* the live files (primary-key tables: restored into levels) */
    const pm_manifest_entry **live;
    size_t live_count;
    pm_index_manifest_entry *live_dvs; /* the DELETION_VECTORS index entries (in live_arena) */
    size_t live_dv_count;

    /* compaction of primary-key writers (none with write-only) */
    pm_compactor compactor;
    bool has_compactor;
    pm_pool *pool;  /* buckets flushed and compacted at once (NULL: this thread) */
    size_t threads; /* the write's thread count (the shared pool may have more workers) */
    bool end_input; /* prepares wait for every compaction */

    /* cross-partition upsert */
    pm_cross_index *cross;
    bool cross_dedup; /* deduplicate: retract in the old partition */

    int64_t empty_pid; /* the id of the empty partition, or -1 */

    /* per batch scratch */
    int32_t *row_hash; /* dynamic buckets: the key hash of each row */
    int64_t *row_pid;
    int32_t *row_bucket;
    int8_t *tmp_kind;
    int64_t *row_slot;
    int8_t *row_kind;
    int64_t *rows;
    int8_t *kinds;
    size_t scratch_cap;
    pm_buf key;
    int64_t accepted;
};

/* ---- setup ----------------------------------------------------------------------------- */

PM_MUST_CHECK static int column_of(const pm_type *row, const char *name, paimon_error *err)
{
    size_t idx;
    if (pm_type_field_by_name(row, name, &idx) == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "no column %s", name);
    return (int)idx;
}

/* The latest snapshot's HASH index entries and the assigner over them. */
PM_MUST_CHECK static int setup_dynamic(pm_table_write *w, paimon_error *err)
{
    const pm_options *o = &w->schema->options;
    pm_snapshot *snap = NULL;
    pm_index_manifest_entry *all = NULL;
    size_t count = 0;
    int64_t target, max_buckets;
    bool found;
    int rc;
    if ((rc = pm_options_get_i64(o, "dynamic-bucket.target-row-num", &target, err)) != 0 ||
        (rc = pm_options_get_i64(o, "dynamic-bucket.max-buckets", &max_buckets, err)) != 0)
        return rc;
    if (pm_path_factory_init(&w->index_names) != 0)
        return pm_err_set(err, PAIMON_EIO, "no random numbers for file names");
    PM_TRY(pm_snapshot_read_latest(w->fs, w->table, true, &snap, &found, err));
    if (found) {
        if (snap->index_manifest != NULL)
            PM_TRY(pm_index_manifest_read(w->fs, w->table, snap->index_manifest, &w->index_arena,
                                          &all, &count, err));
    }
    w->hash_entries = all;
    for (size_t i = 0; i < count; i++)
        if (strcmp(all[i].index_type, "HASH") == 0)
            w->hash_entries[w->hash_count++] = all[i];
    rc = pm_dynamic_assigner_new(&w->dyn, w->fs, w->table, w->hash_entries, w->hash_count, target,
                                 (int32_t)max_buckets, err);
done:
    pm_snapshot_free(snap);
    return rc;
}

PM_MUST_CHECK static int cross_pid_of(void *ctx, const uint8_t *partition, size_t len, int64_t *pid,
                                      paimon_error *err);

PM_MUST_CHECK static int setup_cross(pm_table_write *w, paimon_error *err)
{
    const pm_options *o = &w->schema->options;
    const char *engine = pm_options_get(o, "merge-engine");
    int64_t target;
    int rc;
    if ((rc = pm_options_get_i64(o, "dynamic-bucket.target-row-num", &target, err)) != 0)
        return rc;
    w->cross_dedup = engine == NULL || strcasecmp(engine, "deduplicate") == 0;
    return pm_cross_index_new(&w->cross, w->fs, w->table, w->schema, w->ctx.key_idx,
                              w->ctx.key_count, target, 2 * w->ctx.buffer_size, cross_pid_of, w,
                              err);
}

PM_MUST_CHECK static int setup_buckets(pm_table_write *w, paimon_error *err)
{
    const pm_schema *s = w->schema;
    int64_t n;
    int rc;
    if ((rc = pm_options_get_i64(&s->options, "bucket", &n, err)) != 0)
        return rc;
    w->num_buckets = (int32_t)n;
    if (n > 0) {
        w->mode = MODE_FIXED;
    } else if (!w->ctx.primary_key) {
        w->mode = MODE_UNAWARE;
    } else {
        bool cross = false;
        for (size_t i = 0; i < s->partition_keys.count; i++)
            if (pm_strlist_find(&s->primary_keys, s->partition_keys.items[i]) < 0)
                cross = true;
        w->mode = cross ? MODE_CROSS : MODE_DYNAMIC;
        for (size_t k = 0; k < w->ctx.key_count; k++)
            w->key_types[k] = s->row->fields[w->ctx.key_idx[k]].type;
        pm_key_hasher_init(&w->key_hash, s->row, w->ctx.key_idx, w->ctx.key_count);
        if (cross)
            return setup_cross(w, err);
        return setup_dynamic(w, err);
    }
    if (w->mode != MODE_FIXED)
        return 0;
    return pm_bucket_fn_init(&w->bucket_fn, s, s->row, err);
}

/* Does the type hold a MAP or MULTISET at any depth? */
static bool has_map(const pm_type *t)
{
    if (t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET)
        return true;
    if (t->id == PM_TYPE_ARRAY)
        return has_map(t->element);
    for (size_t i = 0; t->id == PM_TYPE_ROW && i < t->field_count; i++)
        if (has_map(t->fields[i].type))
            return true;
    return false;
}

PM_MUST_CHECK static int setup_checks(pm_table_write *w, paimon_error *err)
{
    const pm_schema *s = w->schema;
    const pm_options *o = &s->options;
    const char *rk = pm_options_get(o, "rowkind.field");
    int rc;
    /* ignore-delete, or its fallback keys first-row., deduplicate., partial-update.ignore-delete */
    if ((rc = pm_options_get_bool(o, "ignore-delete", &w->ignore_delete, err)) != 0 ||
        (rc = pm_options_get_bool(o, "ignore-update-before", &w->ignore_update_before, err)) != 0)
        return rc;
    w->rowkind_col = -1;
    if (rk != NULL) {
        if ((w->rowkind_col = column_of(s->row, rk, err)) < 0)
            return pm_err_prefix(err, w->rowkind_col, "rowkind.field: ");
        if (!pm_type_is_string(s->row->fields[w->rowkind_col].type))
            return pm_err_set(err, PAIMON_EINVALID, "rowkind.field %s must be a string column", rk);
    }
    for (size_t k = 0; k < w->ctx.part_count; k++)
        if ((w->part_col[k] = column_of(s->row, w->ctx.part_fields[k]->name, err)) < 0)
            return w->part_col[k];
    if ((w->not_null = pm_calloc(s->row->field_count + 1, sizeof(int))) == NULL ||
        (w->map_cols = pm_calloc(s->row->field_count + 1, sizeof(int))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < s->row->field_count; i++) {
        if (!s->row->fields[i].type->nullable)
            w->not_null[w->not_null_count++] = (int)i;
        if (has_map(s->row->fields[i].type))
            w->map_cols[w->map_count++] = (int)i;
        if (s->row->fields[i].default_value != NULL)
            w->has_defaults = true;
    }
    return 0;
}

int pm_table_write_new(pm_table_write **out, pm_fs *fs, const char *table,
                       const pm_table_write_opts *o, paimon_error *err)
{
    pm_table_write *w = pm_calloc(1, sizeof(*w));
    int rc;
    *out = NULL;
    if (w == NULL)
        return pm_nomem(err);
    w->fs = fs;
    pm_bytes_map_init(&w->parts);
    pm_bytes_map_init(&w->slot_ids);
    pm_bytes_map_init(&w->restore_seq);
    pm_arena_init(&w->index_arena, 16 * 1024);
    pm_arena_init(&w->live_arena, 64 * 1024);
    w->empty_pid = -1;
    pm_buf_init(&w->key, 0);
    if (o != NULL)
        w->o = *o;
    if ((w->table = pm_strdup(table)) == NULL ||
        (o != NULL && o->commit_user != NULL &&
         (w->commit_user = pm_strdup(o->commit_user)) == NULL)) {
        rc = pm_nomem(err);
        goto done;
    }
    w->o.commit_user = w->commit_user;
    PM_TRY(pm_schema_read_latest(fs, table, &w->schema, err));
    rc = pm_write_ctx_init(&w->ctx, fs, w->table, w->schema, err);
    w->ctx_ok = true;
    if (rc != 0)
        goto done;
    PM_TRY(setup_buckets(w, err));
    PM_TRY(setup_checks(w, err));
    if (w->ctx.primary_key || w->mode == MODE_FIXED || (w->mode == MODE_UNAWARE && w->o.compact)) {
        bool write_only = false;
        PM_TRY(pm_options_get_bool(&w->schema->options, "write-only", &write_only, err));
        if (!write_only || w->o.compact) {
            PM_TRY(pm_compactor_init(&w->compactor, &w->ctx, err));
            w->has_compactor = true;
        }
    }
    pm_table_write_set_threads(w, 0, PM_COMPACT_SYNC);
    *out = w;
    return 0;
done:
    /* the table's options and schema: name the table (files name themselves) */
    if (rc != 0 && rc != PAIMON_ENOMEM && rc != PAIMON_ECORRUPT && rc != PAIMON_EIO)
        pm_err_prefix(err, rc, "%s: ", table);
    pm_table_write_free(w);
    return rc;
}

void pm_table_write_set_threads(pm_table_write *w, unsigned int threads, pm_compact_mode mode)
{
    w->pool = pm_pool_shared(threads);
    w->threads = threads > 0 ? threads : pm_pool_default_threads();
    w->compactor.pool = w->pool;
    w->compactor.mode = mode;
}

const pm_type *pm_table_write_type(const pm_table_write *w)
{
    return w->schema->row;
}

int64_t pm_table_write_bad_row(const pm_table_write *w)
{
    return w->bad_row;
}

int64_t pm_table_write_rows(const pm_table_write *w)
{
    return w->accepted;
}

/* ---- restore --------------------------------------------------------------------------- */

size_t pm_table_write_memory(const pm_table_write *w)
{
    return w->memory;
}

static void restore_key(pm_buf *k, const uint8_t *part, size_t len, int32_t bucket)
{
    k->len = 0;
    (void)pm_buf_append(k, part, len);
    (void)pm_buf_append(k, &bucket, sizeof(bucket));
}

/* Reads the latest snapshot's live files once: sequence numbers per bucket and bucket
 * counts per partition. */
PM_MUST_CHECK static int load_restore(pm_table_write *w, paimon_error *err)
{
    pm_snapshot *snap = NULL;
    pm_arena *arena = &w->live_arena;
    const pm_manifest_entry **live = NULL;
    size_t count = 0;
    bool found;
    int rc;

    if (w->restored)
        return 0;
    w->restored = true;
    PM_TRY(pm_snapshot_read_latest(w->fs, w->table, true, &snap, &found, err));
    if (!found)
        goto done;
    PM_TRY(pm_snapshot_live_entries(w->fs, w->table, snap, arena, &live, &count, err));
    w->live = live;
    w->live_count = count;
    if (w->has_compactor && w->compactor.dv && snap->index_manifest != NULL) {
        pm_index_manifest_entry *idx = NULL;
        size_t n = 0;
        PM_TRY(pm_index_manifest_read(w->fs, w->table, snap->index_manifest, arena, &idx, &n, err));
        w->live_dvs = idx;
        for (size_t i = 0; i < n; i++)
            if (idx[i].kind == PM_FILE_KIND_ADD &&
                strcmp(idx[i].index_type, "DELETION_VECTORS") == 0)
                w->live_dvs[w->live_dv_count++] = idx[i];
    }
    for (size_t i = 0; i < count; i++) {
        const pm_manifest_entry *e = live[i];
        bool inserted;
        int64_t sid, pid;
        restore_key(&w->key, e->partition.ptr, e->partition.len, e->bucket);
        bool part_inserted;
        if (pm_bytes_map_put(&w->restore_seq, w->key.data, w->key.len, e->file.max_sequence_number,
                             &sid, &inserted) != 0 ||
            pm_bytes_map_put(&w->parts, e->partition.ptr, e->partition.len, 0, &pid,
                             &part_inserted) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        if (!inserted && w->restore_seq.values[sid] < e->file.max_sequence_number)
            w->restore_seq.values[sid] = e->file.max_sequence_number;
        if ((size_t)pid >= w->part_cap) {
            size_t cap = w->part_cap == 0 ? 16 : w->part_cap * 2;
            while (cap <= (size_t)pid)
                cap *= 2;
            part_info *grown = pm_realloc(w->part_info, cap * sizeof(*grown));
            if (grown == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            memset(grown + w->part_cap, 0, (cap - w->part_cap) * sizeof(*grown));
            w->part_info = grown;
            w->part_cap = cap;
        }
        w->part_info[pid].restored_buckets = e->total_buckets;
    }
done:
    pm_snapshot_free(snap);
    return rc;
}

/* Where a bucket's deletion-vector index file is: its external path, else in the bucket's
 * index directory. */
PM_MUST_CHECK static int dv_index_path(pm_table_write *w, const pm_index_manifest_entry *e,
                                       const uint8_t *part, size_t plen, int32_t bucket,
                                       pm_buf *out, paimon_error *err)
{
    pm_buf dir;
    int rc;
    pm_buf_init(&dir, 0);
    if ((rc = pm_write_index_dir(&w->ctx, part, plen, bucket, &dir, err)) == 0)
        rc = pm_file_path_resolve(w->ctx.table, w->ctx.opts, pm_buf_cstr(&dir), e->file_name,
                                  e->external_path, out, err);
    pm_buf_free(&dir);
    return rc;
}

/* ---- partitions and writers ------------------------------------------------------------ */

/* `*pid`: the id of partition `bytes`, made on first use. */
PM_MUST_CHECK static int partition_id(pm_table_write *w, const uint8_t *bytes, size_t len,
                                      int64_t *pid, paimon_error *err)
{
    bool inserted;
    int64_t id;
    if (pm_bytes_map_put(&w->parts, bytes, len, 0, &id, &inserted) != 0)
        return pm_nomem(err);
    if ((size_t)id >= w->part_cap) {
        size_t cap = w->part_cap == 0 ? 16 : w->part_cap * 2;
        part_info *grown = pm_realloc(w->part_info, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        memset(grown + w->part_cap, 0, (cap - w->part_cap) * sizeof(*grown));
        w->part_info = grown;
        w->part_cap = cap;
    }
    *pid = id;
    return 0;
}

static int partition_label(pm_table_write *w, int64_t pid, pm_buf *out)
{
    size_t len;
    const uint8_t *p = pm_bytes_map_key(&w->parts, pid, &len);
    pm_binrow row;
    if (w->ctx.part_count == 0)
        return pm_buf_puts(out, "table");
    if (pm_binrow_deserialize(&row, p, len, NULL) != 0)
        return pm_buf_puts(out, "partition");
    (void)pm_buf_puts(out, "partition ");
    return pm_partition_json(out, w->ctx.part_fields, w->ctx.part_count, &row, NULL);
}

/* `*slot`: the slot of (partition, bucket), making its writer on first use. */
PM_MUST_CHECK static int slot_of(pm_table_write *w, int64_t pid, int32_t bucket, int64_t *slot,
                                 paimon_error *err)
{
    uint8_t k[12];
    bool inserted;
    int64_t id, next_seq = 0;
    size_t plen;
    const uint8_t *part;
    int32_t total = w->mode == MODE_FIXED ? w->num_buckets : -1;
    int rc;

    memcpy(k, &pid, 8);
    memcpy(k + 8, &bucket, 4);
    if ((id = pm_bytes_map_find(&w->slot_ids, k, sizeof(k))) >= 0) {
        *slot = id;
        return 0;
    }
    part = pm_bytes_map_key(&w->parts, pid, &plen);
    /* Java ignores previous files for overwrites and unaware-bucket append tables */
    if (!w->o.overwrite && w->mode != MODE_UNAWARE) {
        int64_t sid;
        int32_t restored;
        if ((rc = load_restore(w, err)) != 0)
            return rc;
        pid = pm_bytes_map_find(&w->parts, part, plen); /* stable: ids only grow */
        restored = w->part_info[pid].restored_buckets;
        if (restored != 0 && restored != total) {
            pm_buf label;
            pm_buf_init(&label, 0);
            (void)partition_label(w, pid, &label);
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Try to write %s with a new bucket num %d, but the previous bucket "
                            "num is %d. Please perform INSERT OVERWRITE to rescale current data "
                            "layout first.",
                            pm_buf_cstr(&label), total, restored);
            pm_buf_free(&label);
            return rc;
        }
        restore_key(&w->key, part, plen, bucket);
        if ((sid = pm_bytes_map_find(&w->restore_seq, w->key.data, w->key.len)) >= 0)
            next_seq = w->restore_seq.values[sid] + 1;
    }
    /* room for the new slot first: every id in slot_ids must have one (the free walks them) */
    if (w->slot_ids.count >= w->slot_cap) {
        size_t cap = w->slot_cap == 0 ? 16 : w->slot_cap * 2;
        writer_slot *grown = pm_realloc(w->slots, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        memset(grown + w->slot_cap, 0, (cap - w->slot_cap) * sizeof(*grown));
        w->slots = grown;
        w->slot_cap = cap;
    }
    if (pm_bytes_map_put(&w->slot_ids, k, sizeof(k), 0, &id, &inserted) != 0)
        return pm_nomem(err);
    w->slots[id].partition = pid;
    w->slots[id].bucket = bucket;
    {
        /* the bucket's live files, restored into the writer's levels */
        const pm_manifest_entry **files = NULL;
        size_t n = 0;
        if (w->has_compactor && !w->o.overwrite && w->live_count > 0) {
            if ((files = pm_malloc(w->live_count * sizeof(*files))) == NULL)
                return pm_nomem(err);
            for (size_t i = 0; i < w->live_count; i++)
                if (w->live[i]->bucket == bucket && w->live[i]->partition.len == plen &&
                    memcmp(w->live[i]->partition.ptr, part, plen) == 0)
                    files[n++] = w->live[i];
        }
        const pm_index_manifest_entry *dv = NULL;
        pm_buf dv_path;
        pm_buf_init(&dv_path, 0);
        rc = 0;
        for (size_t i = 0; !w->o.overwrite && i < w->live_dv_count; i++)
            if (w->live_dvs[i].bucket == bucket && w->live_dvs[i].partition.len == plen &&
                memcmp(w->live_dvs[i].partition.ptr, part, plen) == 0)
                dv = &w->live_dvs[i];
        if (dv != NULL)
            rc = dv_index_path(w, dv, part, plen, bucket, &dv_path, err);
        if (rc == 0)
            rc = pm_bucket_writer_new(&w->slots[id].w, &w->ctx, part, plen, bucket, total, next_seq,
                                      w->has_compactor ? &w->compactor : NULL, files, n, dv,
                                      pm_buf_cstr(&dv_path), err);
        pm_free(files);
        pm_buf_free(&dv_path);
        if (rc != 0)
            return rc;
    }
    if (w->mode == MODE_DYNAMIC) {
        const pm_index_manifest_entry *restored =
            w->o.overwrite ? NULL
                           : pm_hash_entry_find(w->hash_entries, w->hash_count, part, plen, bucket);
        if ((w->slots[id].hash = pm_calloc(1, sizeof(pm_hash_index))) == NULL)
            return pm_nomem(err);
        if ((rc = pm_hash_index_init(w->slots[id].hash, w->fs, w->table, restored, err)) != 0)
            return rc;
    }
    *slot = id;
    return 0;
}

/* ---- per row --------------------------------------------------------------------------- */

PM_MUST_CHECK static int row_kind_of(pm_table_write *w, const pm_batch *b, const int8_t *kinds,
                                     int64_t r, int8_t *kind, paimon_error *err)
{
    if (w->rowkind_col >= 0) {
        const pm_column *c = b->columns[w->rowkind_col];
        static const char *const names[] = {"+I", "-U", "+U", "-D"};
        if (pm_column_is_valid(c, r)) {
            int32_t a = pm_column_offset(c, r), e = pm_column_offset(c, r + 1);
            for (int k = 0; k < 4; k++)
                if (e - a == 2 && strncasecmp((const char *)c->values.data + a, names[k], 2) == 0) {
                    *kind = (int8_t)k;
                    return 0;
                }
        }
        w->bad_row = r;
        return pm_err_set(err, PAIMON_EINVALID,
                          "column %s (rowkind.field) must be +I, -U, +U or -D",
                          b->type->fields[w->rowkind_col].name);
    }
    *kind = kinds != NULL ? kinds[r] : PM_KIND_INSERT;
    if (*kind < 0 || *kind > 3) {
        w->bad_row = r;
        return pm_err_set(err, PAIMON_EINVALID, "row kind %d is not one of +I -U +U -D", *kind);
    }
    return 0;
}

PM_MUST_CHECK static int ensure_scratch(pm_table_write *w, int64_t n, paimon_error *err)
{
    if ((size_t)n <= w->scratch_cap)
        return 0;
    pm_free(w->row_hash);
    pm_free(w->row_pid);
    pm_free(w->row_bucket);
    pm_free(w->tmp_kind);
    pm_free(w->row_slot);
    pm_free(w->row_kind);
    pm_free(w->rows);
    pm_free(w->kinds);
    w->row_hash = pm_malloc((size_t)n * sizeof(int32_t));
    w->row_pid = pm_malloc((size_t)n * sizeof(int64_t));
    w->row_bucket = pm_malloc((size_t)n * sizeof(int32_t));
    w->tmp_kind = pm_malloc((size_t)n);
    w->row_slot = pm_malloc((size_t)n * sizeof(int64_t));
    w->row_kind = pm_malloc((size_t)n);
    w->rows = pm_malloc((size_t)n * sizeof(int64_t));
    w->kinds = pm_malloc((size_t)n);
    w->scratch_cap = (size_t)n;
    if (w->row_hash == NULL || w->row_slot == NULL || w->row_kind == NULL || w->rows == NULL ||
        w->kinds == NULL || w->row_pid == NULL || w->row_bucket == NULL || w->tmp_kind == NULL) {
        w->scratch_cap = 0;
        return pm_nomem(err);
    }
    return 0;
}

PM_MUST_CHECK static int check_type(const pm_table_write *w, const pm_batch *b, paimon_error *err)
{
    const pm_type *t = w->schema->row;
    if (b->column_count != t->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "a batch of %zu columns; the table has %zu",
                          b->column_count, t->field_count);
    for (size_t i = 0; i < t->field_count; i++) {
        pm_type *a = pm_type_clone(b->type->fields[i].type), *e = pm_type_clone(t->fields[i].type);
        bool same;
        if (a == NULL || e == NULL) {
            pm_type_free(a);
            pm_type_free(e);
            return pm_nomem(err);
        }
        a->nullable = e->nullable = true;
        same = pm_type_equals_ignore_nullable(a, e) ||
               (a->id == e->id && !pm_type_is_nested(a)); /* lengths are not checked */
        pm_type_free(a);
        pm_type_free(e);
        if (!same)
            return pm_err_set(err, PAIMON_EINVALID, "column %s: the batch's type differs from %s",
                              t->fields[i].name, "the table's");
    }
    return 0;
}

/* Fills nulls of columns with a default value (Java's DefaultValueRow).  *out is NULL when
 * nothing changes. */
PM_MUST_CHECK static int apply_defaults(pm_table_write *w, const pm_batch *b, pm_batch **out,
                                        paimon_error *err)
{
    const pm_type *t = w->schema->row;
    pm_type str = {.id = PM_TYPE_VARCHAR, .nullable = true, .length = PM_MAX_LENGTH};
    pm_batch *nb = NULL;
    pm_buf scratch;
    bool needed = false;
    int rc = 0;
    *out = NULL;
    for (size_t i = 0; i < t->field_count; i++)
        if (t->fields[i].default_value != NULL && b->columns[i]->null_count > 0)
            needed = true;
    if (!needed)
        return 0;
    pm_buf_init(&scratch, 0);
    PM_TRY(pm_batch_new(&nb, b->type, err));
    for (size_t i = 0; i < t->field_count; i++) {
        const char *dv = t->fields[i].default_value;
        pm_datum def = pm_datum_null(), in;
        const pm_column *src = b->columns[i];
        if (dv != NULL && !pm_type_is_nested(t->fields[i].type)) {
            in = pm_datum_bytes(dv, strlen(dv));
            PM_TRY(pm_cast_datum(&str, &in, t->fields[i].type, &scratch, &def, t->fields[i].name,
                                 err));
        }
        for (int64_t r = 0; r < b->row_count; r++) {
            rc = !pm_column_is_valid(src, r) && !def.is_null
                     ? pm_column_append_datum(nb->columns[i], &def)
                     : pm_column_append_from(nb->columns[i], src, r);
            if (rc != 0) {
                rc = pm_buf_error(err, rc);
                goto done;
            }
        }
    }
    nb->row_count = b->row_count;
    *out = nb;
    nb = NULL;
done:
    pm_batch_free(nb);
    pm_buf_free(&scratch);
    return rc;
}

/* A null map key (or multiset element) in slot `i` of `c`, at any depth?  Java's Parquet
 * layout makes keys required whatever their type says, Avro maps have string keys, and the
 * write buffer spills to Parquet: a null key can be stored nowhere, so it is refused with
 * the row, not later by a file writer naming a file the user never saw. */
static bool null_map_key(const pm_column *c, int64_t i)
{
    if (!pm_column_is_valid(c, i))
        return false;
    switch (c->layout) {
    case PM_LAYOUT_MAP:
        for (int32_t j = pm_column_offset(c, i); j < pm_column_offset(c, i + 1); j++)
            if (!pm_column_is_valid(c->children[0], j) || null_map_key(c->children[0], j) ||
                null_map_key(c->children[1], j))
                return true;
        return false;
    case PM_LAYOUT_LIST:
        for (int32_t j = pm_column_offset(c, i); j < pm_column_offset(c, i + 1); j++)
            if (null_map_key(c->children[0], j))
                return true;
        return false;
    case PM_LAYOUT_STRUCT:
        for (size_t k = 0; k < c->child_count; k++)
            if (null_map_key(c->children[k], i))
                return true;
        return false;
    default: return false;
    }
}

PM_MUST_CHECK static int check_map_keys(pm_table_write *w, const pm_batch *b, const int8_t *keep,
                                        paimon_error *err)
{
    for (size_t k = 0; k < w->map_count; k++)
        for (int64_t r = 0; r < b->row_count; r++)
            if (keep[r] && null_map_key(b->columns[w->map_cols[k]], r)) {
                w->bad_row = r;
                return pm_err_set(err, PAIMON_EINVALID,
                                  "column %s: a map key (or multiset element) is null, which "
                                  "no data file can store",
                                  w->schema->row->fields[w->map_cols[k]].name);
            }
    return 0;
}

PM_MUST_CHECK static int check_not_null(pm_table_write *w, const pm_batch *b, const int8_t *keep,
                                        paimon_error *err)
{
    for (size_t k = 0; k < w->not_null_count; k++) {
        const pm_column *c = b->columns[w->not_null[k]];
        if (c->null_count == 0)
            continue;
        for (int64_t r = 0; r < b->row_count; r++)
            if (keep[r] && !pm_column_is_valid(c, r)) {
                w->bad_row = r;
                return pm_err_set(err, PAIMON_EINVALID, "Cannot write null to non-null column(%s)",
                                  w->schema->row->fields[w->not_null[k]].name);
            }
    }
    return 0;
}

/* The buffers pass this share of write-buffer-size (numerator over 4) before a spill starts in
 * the background: the rest is what the rows that keep coming fill while it runs. */
#define SPILL_EARLY_QUARTERS 3

static void slot_memory_update(pm_table_write *w, size_t s)
{
    w->memory -= w->slots[s].memory;
    w->slots[s].memory = pm_bucket_writer_memory(w->slots[s].w);
    w->memory += w->slots[s].memory;
}

/* The slot whose buffer holds the most, or SIZE_MAX when none holds anything. */
static size_t fullest_slot(const pm_table_write *w)
{
    size_t best = SIZE_MAX, best_mem = 0;
    for (size_t i = 0; i < w->slot_ids.count; i++)
        if (w->slots[i].memory > best_mem) {
            best_mem = w->slots[i].memory;
            best = i;
        }
    return best;
}

/* Starts the background spill of the fullest buffer, in as many pieces as the write has
 * threads; `*spilling`: its slot, unless it had nothing to spill. */
PM_MUST_CHECK static int start_spill(pm_table_write *w, size_t *spilling, paimon_error *err)
{
    size_t best = fullest_slot(w);
    int rc;
    if (best == SIZE_MAX)
        return 0;
    if ((rc = pm_bucket_writer_spill_start(w->slots[best].w, w->pool, w->threads, err)) != 0)
        return rc;
    slot_memory_update(w, best);
    if (pm_bucket_writer_spilling(w->slots[best].w))
        *spilling = best;
    return 0;
}

/* Keeps the write buffers together within write-buffer-size, as Java's shared spillable
 * memory pool does by spilling the largest buffer.  With workers on the pool, the fullest
 * buffer spills in the background, cut in pieces that the workers sort and write at once,
 * from the moment the buffers pass SPILL_EARLY_QUARTERS / 4 of the size, so that rows keep
 * coming meanwhile (one such spill at a time); its records count until their runs are
 * adopted, and past the size the caller waits for it.  Which buffers spill, and when, then
 * depends on timing; the files written do not, since a flush merges every run in key and
 * sequence order (kv_buffer.h).  Without a pool, and for buffers that may not spill (they
 * flush level-0 files, whose boundaries must not depend on timing), the fullest buffer
 * frees its memory here once past the size. */
PM_MUST_CHECK static int control_memory(pm_table_write *w, paimon_error *err)
{
    bool background = w->pool != NULL && w->ctx.spillable;
    size_t spilling = SIZE_MAX, best;
    int rc;
    for (size_t i = 0; i < w->slot_ids.count; i++) {
        if (!pm_bucket_writer_spilling(w->slots[i].w))
            continue;
        if ((rc = pm_bucket_writer_spill_finish(w->slots[i].w, false, err)) != 0)
            return rc;
        slot_memory_update(w, i);
        if (pm_bucket_writer_spilling(w->slots[i].w))
            spilling = i;
    }
    if (background && spilling == SIZE_MAX &&
        (int64_t)w->memory > w->ctx.buffer_size / 4 * SPILL_EARLY_QUARTERS &&
        (rc = start_spill(w, &spilling, err)) != 0)
        return rc;
    while ((int64_t)w->memory > w->ctx.buffer_size) {
        if (spilling != SIZE_MAX) {
            rc = pm_bucket_writer_spill_finish(w->slots[spilling].w, true, err);
            slot_memory_update(w, spilling);
            spilling = SIZE_MAX;
        } else if (background) {
            if ((rc = start_spill(w, &spilling, err)) == 0 && spilling == SIZE_MAX)
                return 0; /* nothing left to spill */
        } else if ((best = fullest_slot(w)) == SIZE_MAX) {
            return 0;
        } else {
            rc = pm_bucket_writer_free_memory(w->slots[best].w, err);
            slot_memory_update(w, best);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* `*pid`: the partition id of row r (the empty row for unpartitioned tables). */
PM_MUST_CHECK static int row_partition(pm_table_write *w, const pm_batch *b, int64_t r,
                                       pm_buf *part, int64_t *pid, paimon_error *err)
{
    pm_datum vals[PM_WRITE_MAX_KEYS];
    const pm_type *types[PM_WRITE_MAX_KEYS];
    static const uint8_t EMPTY[12] = {0};
    int rc;
    if (w->ctx.part_count == 0) {
        if (w->empty_pid < 0 &&
            (rc = partition_id(w, EMPTY, sizeof(EMPTY), &w->empty_pid, err)) != 0)
            return rc;
        *pid = w->empty_pid;
        return 0;
    }
    for (size_t k = 0; k < w->ctx.part_count; k++) {
        types[k] = w->ctx.part_fields[k]->type;
        pm_column_get_datum(b->columns[w->part_col[k]], r, &vals[k]);
    }
    part->len = 0;
    if ((rc = pm_binrow_serialize(part, types, vals, (int32_t)w->ctx.part_count)) != 0)
        return pm_buf_error(err, rc);
    return partition_id(w, part->data, part->len, pid, err);
}

PM_MUST_CHECK static int cross_pid_of(void *ctx, const uint8_t *partition, size_t len, int64_t *pid,
                                      paimon_error *err)
{
    return partition_id(ctx, partition, len, pid, err);
}

/* Appends row r of b to x, with the partition columns of partition `pid` when pid >= 0. */
PM_MUST_CHECK static int copy_row(pm_table_write *w, pm_batch *x, const pm_batch *b, int64_t r,
                                  int64_t pid, paimon_error *err)
{
    pm_binrow prow;
    int rc;
    if (pid >= 0) {
        size_t plen;
        const uint8_t *pb = pm_bytes_map_key(&w->parts, pid, &plen);
        if ((rc = pm_binrow_deserialize(&prow, pb, plen, err)) != 0)
            return rc;
    }
    for (size_t c = 0; c < b->column_count; c++) {
        int part_k = -1;
        for (size_t k = 0; pid >= 0 && k < w->ctx.part_count; k++)
            if (w->part_col[k] == (int)c)
                part_k = (int)k;
        if (part_k >= 0) {
            pm_datum d;
            if ((rc = pm_binrow_get(&prow, part_k, w->ctx.part_fields[part_k]->type, &d, err)) != 0)
                return rc;
            rc = pm_column_append_datum(x->columns[c], &d);
        } else {
            rc = pm_column_append_from(x->columns[c], b->columns[c], r);
        }
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    x->row_count++;
    return 0;
}

/* GlobalIndexAssigner.processInput over the kept rows of `b`: the rows to write (into *out),
 * with their kinds, partitions and buckets in w->row_kind, row_pid, row_bucket. */
PM_MUST_CHECK static int cross_prepass(pm_table_write *w, const pm_batch *b, pm_batch **out,
                                       paimon_error *err)
{
    pm_batch *x = NULL;
    pm_buf part;
    int64_t m = 0;
    int rc;
    pm_buf_init(&part, 0);
    PM_TRY(pm_batch_new(&x, b->type, err));
    for (int64_t r = 0; r < b->row_count; r++) {
        int64_t pid, ppid = -1;
        int32_t pbucket = 0, bucket;
        int8_t kind = w->row_kind[r];
        bool found;
        if (w->row_slot[r] < 0)
            continue;
        PM_TRY(row_partition(w, b, r, &part, &pid, err));
        {
            pm_datum vals[PM_WRITE_MAX_KEYS];
            for (size_t k = 0; k < w->ctx.key_count; k++)
                pm_column_get_datum(b->columns[w->ctx.key_idx[k]], r, &vals[k]);
            w->key.len = 0;
            if ((rc = pm_binrow_write(&w->key, w->key_types, vals, (int32_t)w->ctx.key_count, 0)))
                goto buf_err;
        }
        pm_cross_lookup(w->cross, w->key.data, w->key.len, &found, &ppid, &pbucket);
        if (found && ppid == pid) {
            PM_TRY(copy_row(w, x, b, r, -1, err));
            w->tmp_kind[m] = kind;
            w->row_pid[m] = pid;
            w->row_bucket[m++] = pbucket;
            continue;
        }
        if (found && !w->cross_dedup) { /* UseOldExistingProcessor */
            PM_TRY(copy_row(w, x, b, r, ppid, err));
            w->tmp_kind[m] = kind;
            w->row_pid[m] = ppid;
            w->row_bucket[m++] = pbucket;
            continue;
        }
        if (found) { /* DeleteExistingProcessor: retract in the old partition */
            PM_TRY(copy_row(w, x, b, r, ppid, err));
            w->tmp_kind[m] = PM_KIND_DELETE;
            w->row_pid[m] = ppid;
            w->row_bucket[m++] = pbucket;
            pm_cross_decrement(w->cross, ppid, pbucket);
        }
        PM_TRY(pm_cross_assign_new(w->cross, w->key.data, w->key.len, pid, &bucket, err));
        PM_TRY(copy_row(w, x, b, r, -1, err));
        w->tmp_kind[m] = kind;
        w->row_pid[m] = pid;
        w->row_bucket[m++] = bucket;
    }
    memcpy(w->row_kind, w->tmp_kind, (size_t)m);
    *out = x;
    x = NULL;
    goto done;
buf_err:
    rc = pm_buf_error(err, rc);
done:
    pm_batch_free(x);
    pm_buf_free(&part);
    return rc;
}

/* One bucket's rows of a batch into its writer, a task of the pool. */
typedef struct put_task {
    pm_bucket_writer *w;
    const pm_batch *b;
    const int64_t *rows;
    const int8_t *kinds;
    int64_t n;
} put_task;

PM_MUST_CHECK static int put_run(void *arg, paimon_error *err)
{
    put_task *t = arg;
    return pm_bucket_writer_put(t->w, t->b, t->rows, t->kinds, t->n, err);
}

/* Hands each slot its rows (w->rows and w->kinds grouped by slot): the buckets copy (or, for
 * append tables, encode) them at once on the pool when several have enough rows to pay for
 * it.  Each bucket's rows keep their order and sequence numbers. */
PM_MUST_CHECK static int put_rows(pm_table_write *w, const pm_batch *b, paimon_error *err)
{
    size_t busy = 0, n = w->slot_ids.count;
    int64_t off = 0;
    int rc = 0, wrc;
    put_task *tasks;
    pm_group g;
    for (size_t s = 0; s < n; s++)
        busy += w->slots[s].batch_count >= 512;
    if (w->pool == NULL || busy < 2) {
        for (size_t s = 0; s < n; s++) {
            writer_slot *sl = &w->slots[s];
            if (sl->batch_count == 0)
                continue;
            if ((rc = pm_bucket_writer_put(sl->w, b, w->rows + off, w->kinds + off, sl->batch_count,
                                           err)) != 0)
                return rc;
            off += sl->batch_count;
        }
        return 0;
    }
    if ((tasks = pm_calloc(n, sizeof(*tasks))) == NULL)
        return pm_nomem(err);
    pm_group_init(&g, w->pool);
    for (size_t s = 0; s < n && rc == 0; s++) {
        writer_slot *sl = &w->slots[s];
        if (sl->batch_count == 0)
            continue;
        tasks[s] = (put_task){sl->w, b, w->rows + off, w->kinds + off, sl->batch_count};
        off += sl->batch_count;
        rc = pm_group_submit(&g, put_run, &tasks[s], err);
    }
    wrc = pm_group_wait(&g, rc != 0 ? NULL : err);
    pm_group_destroy(&g);
    pm_free(tasks);
    return rc != 0 ? rc : wrc;
}

int pm_table_write_batch(pm_table_write *w, const pm_batch *in, const int8_t *kinds,
                         paimon_error *err)
{
    const pm_batch *b = in;
    pm_batch *filled = NULL, *crossed = NULL;
    int64_t n = in->row_count, last_pid = -1, last_slot = -1;
    int32_t last_bucket = 0;
    pm_buf part;
    int rc;

    w->bad_row = -1;

    /* a compaction of the background that failed: its error now, before more rows */
    for (size_t s = 0; s < w->slot_ids.count; s++)
        if (pm_bucket_writer_failed(w->slots[s].w) &&
            (rc = pm_bucket_writer_sync(w->slots[s].w, err)) != 0)
            return rc;
    if (n == 0)
        return 0;
    pm_buf_init(&part, 0);
    PM_TRY(check_type(w, in, err));
    PM_TRY(ensure_scratch(w, w->mode == MODE_CROSS ? 2 * n : n, err));
    if (w->has_defaults) {
        PM_TRY(apply_defaults(w, in, &filled, err));
        if (filled != NULL)
            b = filled;
    }
    /* 1. row kinds and filters (row_slot: -1 drops the row) */
    for (int64_t r = 0; r < n; r++) {
        int8_t k = 0;
        PM_TRY(row_kind_of(w, b, kinds, r, &k, err));
        w->row_kind[r] = k;
        w->row_slot[r] = 0;
        if ((w->ignore_delete && !pm_kind_is_add(k)) ||
            (w->ignore_update_before && k == PM_KIND_UPDATE_BEFORE)) {
            w->row_slot[r] = -1;
            continue;
        }
        if (!w->ctx.primary_key && !pm_kind_is_add(k)) {
            w->bad_row = r;
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Append-only writer can only accept insert or "
                            "update_after row kind, but current row kind is: %s. You can "
                            "configure 'ignore-delete' to ignore retract records.",
                            k == PM_KIND_DELETE ? "DELETE" : "UPDATE_BEFORE");
            goto done;
        }
    }
    for (int64_t r = 0; r < n; r++)
        w->kinds[r] = w->row_slot[r] < 0 ? 0 : 1;
    PM_TRY(check_not_null(w, b, w->kinds, err));
    PM_TRY(check_map_keys(w, b, w->kinds, err));

    /* 2. partition and bucket of each row */
    if (w->mode == MODE_CROSS) {
        PM_TRY(cross_prepass(w, b, &crossed, err));
        b = crossed;
        n = crossed->row_count;
        for (int64_t r = 0; r < n; r++)
            w->row_slot[r] = 0;
    } else {
        for (int64_t r = 0; r < n; r++) {
            int64_t pid;
            int32_t bucket = 0;
            if (w->row_slot[r] < 0)
                continue;
            PM_TRY(row_partition(w, b, r, &part, &pid, err));
            if (w->mode == MODE_FIXED) {
                PM_TRY(pm_bucket_fn_bucket(&w->bucket_fn, b, r, &bucket, err));
            } else if (w->mode == MODE_DYNAMIC) {
                int32_t h;
                size_t plen;
                const uint8_t *pb = pm_bytes_map_key(&w->parts, pid, &plen);
                PM_TRY(pm_key_hasher_hash(&w->key_hash, b, r, &h, err));
                PM_TRY(pm_dynamic_assign(w->dyn, pid, pb, plen, h, &bucket, err));
                w->row_hash[r] = h;
            }
            w->row_pid[r] = pid;
            w->row_bucket[r] = bucket;
        }
    }

    /* 3. the writer slot of each row */
    for (int64_t r = 0; r < n; r++) {
        int64_t pid = w->row_pid[r];
        int32_t bucket = w->row_bucket[r];
        if (w->row_slot[r] < 0)
            continue;
        if (pid != last_pid || bucket != last_bucket || last_slot < 0) {
            int64_t s;
            PM_TRY(slot_of(w, pid, bucket, &s, err));
            last_slot = s;
            last_pid = pid;
            last_bucket = bucket;
        }
        w->row_slot[r] = last_slot;
    }

    /* 4. group by slot and hand the rows over */
    for (size_t s = 0; s < w->slot_ids.count; s++)
        w->slots[s].batch_count = w->slots[s].batch_fill = 0;
    for (int64_t r = 0; r < n; r++)
        if (w->row_slot[r] >= 0)
            w->slots[w->row_slot[r]].batch_count++;
    {
        int64_t off = 0;
        for (size_t s = 0; s < w->slot_ids.count; s++) {
            w->slots[s].batch_fill = off;
            off += w->slots[s].batch_count;
        }
        for (int64_t r = 0; r < n; r++) {
            int64_t s = w->row_slot[r], at;
            if (s < 0)
                continue;
            at = w->slots[s].batch_fill++;
            w->rows[at] = r;
            w->kinds[at] = w->row_kind[r];
            if (w->slots[s].hash != NULL && pm_hash_index_add(w->slots[s].hash, w->row_hash[r]))
                goto nomem;
        }
        PM_TRY(put_rows(w, b, err));
        for (size_t s = 0; s < w->slot_ids.count; s++) {
            writer_slot *sl = &w->slots[s];
            if (sl->batch_count == 0)
                continue;
            w->accepted += sl->batch_count;
            w->memory -= sl->memory;
            sl->memory = pm_bucket_writer_memory(sl->w);
            w->memory += sl->memory;
        }
    }
    rc = control_memory(w, err);
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_batch_free(filled);
    pm_batch_free(crossed);
    pm_buf_free(&part);
    return rc;
}

/* One bucket's prepare, a task of the pool: its messages stay in `out` until the wait. */
typedef struct prepare_task {
    pm_bucket_writer *w;
    pm_commit_messages out;
    bool keep, wait;
    int rc;
} prepare_task;

PM_MUST_CHECK static int prepare_run(void *arg, paimon_error *err)
{
    prepare_task *t = arg;
    t->rc = pm_bucket_writer_prepare(t->w, &t->out, t->keep, t->wait, err);
    return t->rc;
}

/* Every bucket's prepare at once, their messages appended to `out` in slot order. */
PM_MUST_CHECK static int prepare_parallel(pm_table_write *w, pm_commit_messages *out,
                                          paimon_error *err)
{
    size_t n = w->slot_ids.count, submitted = 0;
    prepare_task *tasks = pm_calloc(n, sizeof(*tasks));
    pm_group g;
    int rc = 0, wrc;
    if (tasks == NULL)
        return pm_nomem(err);
    pm_group_init(&g, w->pool);
    for (size_t s = 0; s < n && rc == 0; s++) {
        tasks[s].w = w->slots[s].w;
        tasks[s].keep = true; /* the files stay the writer's until `out` has them */
        tasks[s].wait = w->end_input;
        pm_commit_messages_init(&tasks[s].out);
        if ((rc = pm_group_submit(&g, prepare_run, &tasks[s], err)) == 0)
            submitted++;
    }
    wrc = pm_group_wait(&g, rc != 0 ? NULL : err);
    if (rc == 0)
        rc = wrc;
    pm_group_destroy(&g);
    for (size_t s = 0; s < submitted; s++) {
        if (tasks[s].rc != 0) {
            /* its files stay pending in its writer, which removes them when freed */
        } else if (pm_commit_messages_append(out, &tasks[s].out) != 0) {
            if (rc == 0)
                rc = pm_nomem(err);
        } else if (!w->keep_pending) {
            pm_bucket_writer_release_pending(tasks[s].w);
        }
        pm_commit_messages_release(&tasks[s].out);
    }
    pm_free(tasks);
    return rc;
}

void pm_table_write_end_input(pm_table_write *w)
{
    w->end_input = true;
}

int pm_table_write_prepare(pm_table_write *w, pm_commit_messages *out, paimon_error *err)
{
    bool parallel = w->pool != NULL && w->slot_ids.count > 1;
    if (parallel) {
        int rc = prepare_parallel(w, out, err);
        if (rc != 0)
            return rc;
    }
    for (size_t s = 0; s < w->slot_ids.count; s++) {
        writer_slot *sl = &w->slots[s];
        int rc =
            parallel ? 0 : pm_bucket_writer_prepare(sl->w, out, w->keep_pending, w->end_input, err);
        if (rc != 0)
            return rc;
        w->memory -= sl->memory;
        sl->memory = 0;
        if (sl->hash != NULL) {
            pm_index_manifest_entry e;
            pm_arena arena;
            size_t plen;
            const uint8_t *part = pm_bytes_map_key(&w->parts, sl->partition, &plen);
            bool written;
            pm_arena_init(&arena, 1024);
            rc = pm_hash_index_flush(sl->hash, w->fs, w->table, &w->index_names, part, plen,
                                     sl->bucket, &arena, &e, &written, err);
            if (rc == 0 && written && pm_commit_messages_add_index(out, &e) != 0)
                rc = pm_nomem(err);
            pm_arena_free(&arena);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

/* ---- what the compaction job of unaware-bucket tables uses (table/compact.c) ------------ */

bool pm_table_write_is_unaware(const pm_table_write *w)
{
    return w->mode == MODE_UNAWARE;
}

pm_compactor *pm_table_write_compactor(pm_table_write *w)
{
    return w->has_compactor ? &w->compactor : NULL;
}

int pm_table_write_live_files(pm_table_write *w, const pm_manifest_entry *const **out,
                              size_t *count, paimon_error *err)
{
    int rc = load_restore(w, err); /* unaware writers skip it when writing */
    *out = w->live;
    *count = rc == 0 ? w->live_count : 0;
    return rc;
}

int pm_table_write_bucket(pm_table_write *w, const pm_avro_bytes *partition, int32_t bucket,
                          pm_bucket_writer **out, paimon_error *err)
{
    int64_t pid, slot;
    int rc;
    if ((rc = partition_id(w, partition->ptr, partition->len, &pid, err)) != 0 ||
        (rc = slot_of(w, pid, bucket, &slot, err)) != 0)
        return rc;
    *out = w->slots[slot].w;
    return 0;
}

int pm_table_write_compact(pm_table_write *w, bool full, pm_partition_match match, void *arg,
                           pm_commit_messages *out, paimon_error *err)
{
    int rc;
    if (!w->has_compactor)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: this table is not compacted by paimon-c",
                          w->table);
    if (w->mode == MODE_UNAWARE) /* their job plans across buckets: table/compact.c */
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: unaware-bucket tables are compacted by pm_table_compact", w->table);
    if ((rc = load_restore(w, err)) != 0)
        return rc;
    for (size_t i = 0; i < w->live_count; i++) {
        const pm_manifest_entry *e = w->live[i];
        int64_t pid, slot;
        if (match != NULL && !match(arg, e->partition.ptr, e->partition.len))
            continue;
        if ((rc = partition_id(w, e->partition.ptr, e->partition.len, &pid, err)) != 0 ||
            (rc = slot_of(w, pid, e->bucket, &slot, err)) != 0)
            return rc;
    }
    for (size_t s = 0; s < w->slot_ids.count; s++)
        if ((rc = pm_bucket_writer_compact(w->slots[s].w, full, err)) != 0)
            return rc;
    return pm_table_write_prepare(w, out, err);
}

void pm_table_write_keep_pending(pm_table_write *w)
{
    w->keep_pending = true;
}

void pm_table_write_release_pending(pm_table_write *w)
{
    for (size_t s = 0; s < w->slot_ids.count; s++)
        pm_bucket_writer_release_pending(w->slots[s].w);
}

void pm_table_write_free(pm_table_write *w)
{
    if (w == NULL)
        return;
    for (size_t s = 0; s < w->slot_ids.count; s++) {
        pm_bucket_writer_free(w->slots[s].w);
        if (w->slots[s].hash != NULL) {
            pm_hash_index_free(w->slots[s].hash);
            pm_free(w->slots[s].hash);
        }
    }
    pm_free(w->slots);
    pm_dynamic_assigner_free(w->dyn);
    pm_bucket_fn_free(&w->bucket_fn);
    pm_key_hasher_free(&w->key_hash);
    pm_cross_index_free(w->cross);
    pm_free(w->row_pid);
    pm_free(w->row_bucket);
    pm_free(w->tmp_kind);
    pm_arena_free(&w->index_arena);
    pm_free(w->row_hash);
    pm_free(w->part_info);
    pm_bytes_map_free(&w->parts);
    pm_bytes_map_free(&w->slot_ids);
    pm_bytes_map_free(&w->restore_seq);
    pm_arena_free(&w->live_arena);
    if (w->has_compactor)
        pm_compactor_release(&w->compactor);
    if (w->ctx_ok)
        pm_write_ctx_release(&w->ctx);
    pm_schema_free(w->schema);
    pm_free(w->not_null);
    pm_free(w->map_cols);
    pm_free(w->row_slot);
    pm_free(w->row_kind);
    pm_free(w->rows);
    pm_free(w->kinds);
    pm_buf_free(&w->key);
    pm_free(w->commit_user);
    pm_free(w->table);
    pm_free(w);
}
